//===- FuzzCommon.h - Shared pieces of the fuzz targets ---------*- C++ -*-===//
//
// Each fuzz target defines LLVMFuzzerTestOneInput. Besides "does not crash",
// targets check properties of what they accept (round trips); a broken
// property aborts, which libFuzzer and the corpus driver both report.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_FUZZ_FUZZCOMMON_H
#define DLTUNE_FUZZ_FUZZCOMMON_H

#include "dltune/Tuning/Database/DatabaseIO.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>

#define FUZZ_CHECK(cond, what)                                                 \
  do {                                                                         \
    if (!(cond)) {                                                             \
      llvm::errs() << __FILE__ << ":" << __LINE__ << ": property violated: "   \
                   << #cond << "\n"                                            \
                   << what << "\n";                                            \
      std::abort();                                                            \
    }                                                                          \
  } while (false)

namespace dltune_fuzz {

/// A fresh in-memory tuning database.
inline std::unique_ptr<mlir::dltune::Database> openMemoryDatabase() {
  llvm::Expected<std::unique_ptr<mlir::dltune::Database>> db =
      mlir::dltune::Database::openInMemory();
  FUZZ_CHECK(static_cast<bool>(db), llvm::toString(db.takeError()));
  return std::move(*db);
}

/// What an import accepted exports and imports again, unchanged, into a
/// fresh database: records, confirmations, baselines, notes, model latencies
/// and studies with their intervals and stops.
inline void checkExportRoundTrip(mlir::dltune::Database &db,
                                 const mlir::dltune::ImportStats &imported) {
  std::ostringstream out;
  mlir::dltune::ExportStats exported;
  llvm::Error err = mlir::dltune::exportJsonLines(db, out, &exported);
  FUZZ_CHECK(!err, llvm::toString(std::move(err)));
  FUZZ_CHECK(exported.records == imported.inserted,
             "exported " << exported.records << " of " << imported.inserted);
  FUZZ_CHECK(exported.confirmations == imported.confirmations,
             "exported " << exported.confirmations << " confirmations of "
                         << imported.confirmations);
  FUZZ_CHECK(exported.baselines == imported.baselines,
             "exported " << exported.baselines << " baselines of " << imported.baselines);
  FUZZ_CHECK(exported.notes == imported.notes,
             "exported " << exported.notes << " notes of " << imported.notes);
  FUZZ_CHECK(exported.modelLatencies == imported.modelLatencies,
             "exported " << exported.modelLatencies << " model latencies of "
                         << imported.modelLatencies);
  FUZZ_CHECK(exported.studies == imported.studies,
             "exported " << exported.studies << " studies of " << imported.studies);
  FUZZ_CHECK(exported.studyIntervals == imported.studyIntervals,
             "exported " << exported.studyIntervals << " study intervals of "
                         << imported.studyIntervals);
  FUZZ_CHECK(exported.studyStops == imported.studyStops,
             "exported " << exported.studyStops << " study stops of " << imported.studyStops);
  std::unique_ptr<mlir::dltune::Database> copy = openMemoryDatabase();
  std::istringstream in(out.str());
  llvm::Expected<mlir::dltune::ImportStats> again =
      mlir::dltune::importJsonLines(*copy, in, "export.jsonl");
  FUZZ_CHECK(static_cast<bool>(again),
             llvm::toString(again.takeError()) << "\nexport:\n" << out.str());
  FUZZ_CHECK(again->inserted == imported.inserted, "re-imported " << again->inserted);
  FUZZ_CHECK(again->confirmations == imported.confirmations,
             "re-imported " << again->confirmations << " confirmations");
  FUZZ_CHECK(again->baselines == imported.baselines,
             "re-imported " << again->baselines << " baselines");
  FUZZ_CHECK(again->notes == imported.notes, "re-imported " << again->notes << " notes");
  FUZZ_CHECK(again->modelLatencies == imported.modelLatencies,
             "re-imported " << again->modelLatencies << " model latencies");
  FUZZ_CHECK(again->studies == imported.studies, "re-imported " << again->studies << " studies");
  FUZZ_CHECK(again->studyIntervals == imported.studyIntervals,
             "re-imported " << again->studyIntervals << " study intervals");
  FUZZ_CHECK(again->studyStops == imported.studyStops,
             "re-imported " << again->studyStops << " study stops");
}

/// Runs a line-based import (JSON lines, AutoTVM log) of the input into an
/// in-memory database; what it accepts must round-trip through export.
inline int fuzzLineImport(const uint8_t *data, size_t size,
                          llvm::Expected<mlir::dltune::ImportStats> (*import)(
                              mlir::dltune::Database &, std::istream &, const std::string &),
                          const std::string &name) {
  std::unique_ptr<mlir::dltune::Database> db = openMemoryDatabase();
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  llvm::Expected<mlir::dltune::ImportStats> stats = import(*db, in, name);
  if (!stats) {
    llvm::consumeError(stats.takeError());
    return 0;
  }
  checkExportRoundTrip(*db, *stats);
  return 0;
}

} // namespace dltune_fuzz

#endif // DLTUNE_FUZZ_FUZZCOMMON_H
