//===- TunerPassOptions.h - Tuner options as pass options -------*- C++ -*-===//
//
// Private to lib/Transforms/Autotune: --dltune-autotune and dltune-pipeline
// both take every tuner option (TunerOptions.h) as an option of their own.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TRANSFORMS_AUTOTUNE_TUNERPASSOPTIONS_H
#define DLTUNE_LIB_TRANSFORMS_AUTOTUNE_TUNERPASSOPTIONS_H

#include "dltune/Execution/TunerOptions.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <type_traits>

namespace mlir::dltune {

/// The tuner options as options of a pass or a pipeline (`parent`).
template <typename Parent> TunerOptionSet makeTunerPassOptions(Parent &parent) {
  return TunerOptionSet([&](llvm::StringRef name, llvm::StringRef help, const auto &init) {
    using T = std::decay_t<decltype(init)>;
    using OptionT = std::conditional_t<std::is_base_of_v<Pass, Parent>, Pass::Option<T>,
                                       ::mlir::detail::PassOptions::Option<T>>;
    return std::unique_ptr<llvm::cl::Option>(
        new OptionT(parent, name, llvm::cl::desc(help), llvm::cl::init(init)));
  });
}

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TRANSFORMS_AUTOTUNE_TUNERPASSOPTIONS_H
