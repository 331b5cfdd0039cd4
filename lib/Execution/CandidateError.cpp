//===- CandidateError.cpp - Why a candidate could not be built or run -----===//

#include "dltune/Execution/CandidateError.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir::dltune;

char CandidateError::ID = 0;

void CandidateError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code CandidateError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error mlir::dltune::makeCandidateError(worker::ExitCode category,
                                             const llvm::Twine &message) {
  return llvm::make_error<CandidateError>(category, message.str());
}

llvm::Error mlir::dltune::makeCandidateError(worker::ExitCode category, llvm::Error cause,
                                             const llvm::Twine &prefix) {
  if (cause.isA<CandidateError>())
    return cause;
  return makeCandidateError(category, prefix + llvm::toString(std::move(cause)));
}

worker::ExitCode mlir::dltune::takeCandidateErrorCategory(llvm::Error error) {
  worker::ExitCode category = worker::kOk;
  llvm::handleAllErrors(
      std::move(error), [&](const CandidateError &e) { category = e.getCategory(); },
      [&](const llvm::ErrorInfoBase &) { category = worker::kRunError; });
  return category;
}
