//===- CandidateError.h - Why a candidate failed ----------------*- C++ -*-===//
//
// CandidateBuilder and CandidateRunner fail with a CandidateError: a message
// and the worker exit code (WorkerProtocol.h) that classifies it, so that a
// worker process reports what the tuner records (an invalid configuration,
// a compile error, a wrong result, a run error) and an in-process caller can
// tell the same cases apart.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_EXECUTION_CANDIDATEERROR_H
#define DLTUNE_EXECUTION_CANDIDATEERROR_H

#include "dltune/Tuning/Device/GpuResources.h"
#include "dltune/Tuning/Process/WorkerProtocol.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::dltune {

class CandidateError : public llvm::ErrorInfo<CandidateError> {
public:
  static char ID;
  CandidateError(worker::ExitCode category, std::string message)
      : category(category), message(std::move(message)) {}

  worker::ExitCode getCategory() const { return category; }
  const std::string &getMessage() const { return message; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

  /// A wrong result: the largest relative error met (inf or NaN for
  /// non-finite outputs).
  std::optional<double> maxRelativeError;
  /// A GPU build over the device's limits: the resources of its kernels.
  std::vector<GpuKernelResources> gpuResources;

private:
  worker::ExitCode category;
  std::string message;
};

/// A CandidateError of `category` saying `message`.
llvm::Error makeCandidateError(worker::ExitCode category, const llvm::Twine &message);
/// `cause` as a CandidateError of `category` (its message, prefixed by
/// `prefix`); a CandidateError already is one and is returned unchanged.
llvm::Error makeCandidateError(worker::ExitCode category, llvm::Error cause,
                               const llvm::Twine &prefix = "");

/// The category of `error`, consumed: kOk for success, kRunError for an
/// error that is not a CandidateError.
worker::ExitCode takeCandidateErrorCategory(llvm::Error error);

} // namespace mlir::dltune

#endif // DLTUNE_EXECUTION_CANDIDATEERROR_H
