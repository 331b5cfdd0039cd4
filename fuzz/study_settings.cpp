//===- study_settings.cpp - Fuzz target: a study's stored options ---------===//
//
// Decodes the input as a study's options (the JSON text in `studies.options`
// that every joining worker reads: damaged, edited or imported). Whatever the
// text, no crash or hang; what decodes must pass the suspension checks and
// encode and decode back to the same text.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "dltune/Execution/StudySettings.h"

using namespace mlir::dltune;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Options longer than this are not a study's.
  if (size > 16384)
    return 0;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<StudySettings> decoded = decodeStudySettings(text, StudySettings());
  if (!decoded) {
    llvm::consumeError(decoded.takeError());
    return 0;
  }
  llvm::Error valid = validateStudySuspension(*decoded);
  FUZZ_CHECK(!valid, "decoded suspension settings fail their own checks");
  std::string encoded = encodeStudySettings(*decoded);
  llvm::Expected<StudySettings> again = decodeStudySettings(encoded, StudySettings());
  FUZZ_CHECK(static_cast<bool>(again), "encoded settings do not decode");
  FUZZ_CHECK(encodeStudySettings(*again) == encoded, "settings do not round-trip");
  return 0;
}
