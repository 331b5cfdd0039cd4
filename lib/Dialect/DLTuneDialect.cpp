//===- DLTuneDialect.cpp - dltune dialect ---------------------------------===//

#include "dltune/Dialect/DLTuneDialect.h"
#include "dltune/Dialect/DLTuneAttrs.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::dltune;

#include "dltune/Dialect/DLTuneDialect.cpp.inc"

void DLTuneDialect::initialize() { registerAttributes(); }

LogicalResult DLTuneDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kSpaceAttrName) {
    if (!isa<SpaceAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a #dltune.space attribute";
    return success();
  }
  if (name == kConfigAttrName) {
    auto config = dyn_cast<ConfigAttr>(attr.getValue());
    if (!config)
      return op->emitOpError() << "'" << name
                               << "' must be a #dltune.config attribute";
    auto space = op->getAttrOfType<SpaceAttr>(kSpaceAttrName);
    if (!space)
      return success();
    llvm::Expected<SearchSpace> searchSpace = space.getSearchSpace();
    if (!searchSpace) // the space's own verifier already reported it
      return op->emitOpError() << llvm::toString(searchSpace.takeError());
    llvm::Expected<Config> values = config.toConfig(*searchSpace);
    if (!values)
      return op->emitOpError() << "dltune.config "
                               << llvm::toString(values.takeError());
    if (llvm::Error err = searchSpace->checkValid(*values))
      return op->emitOpError() << "dltune.config " << llvm::toString(std::move(err));
    return success();
  }
  if (name == kTargetAttrName) {
    auto target = dyn_cast<StringAttr>(attr.getValue());
    if (!target || (target.getValue() != "cpu" && target.getValue() != "gpu"))
      return op->emitOpError() << "'" << name << "' must be \"cpu\" or \"gpu\"";
    return success();
  }
  if (name == kScheduleAttrName) {
    if (!isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must name a transform sequence (@symbol)";
    return success();
  }
  if (name == kNumThreadsAttrName) {
    auto threads = dyn_cast<IntegerAttr>(attr.getValue());
    if (!threads || threads.getInt() < 1)
      return op->emitOpError() << "'" << name << "' must be a positive integer";
    if (!isa<scf::ForallOp, scf::ParallelOp>(op))
      return op->emitOpError() << "'" << name << "' belongs on scf.forall or scf.parallel";
    return success();
  }
  if (name == kAllowTf32AttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kGpuKernelAttrName) {
    auto tiles = dyn_cast<DictionaryAttr>(attr.getValue());
    bool ok = static_cast<bool>(tiles);
    for (NamedAttribute entry : tiles ? tiles.getValue() : ArrayRef<NamedAttribute>()) {
      auto value = dyn_cast<IntegerAttr>(entry.getValue());
      ok &= value && value.getInt() >= 0;
    }
    if (!ok)
      return op->emitOpError() << "'" << name
                               << "' must be a dictionary of non-negative integer tile sizes";
    // Matmul tiles (GpuMatmulKernel.h), or a window kernel's
    // (GpuWindowKernel.h) on a depthwise convolution or a pooling op, also
    // once generalized (the GPU lowering's pad folding).
    StringRef opName = op->getName().getStringRef();
    if (opName != "linalg.matmul" && opName != "linalg.batch_matmul" &&
        opName != "linalg.depthwise_conv_2d_nhwc_hwc" && opName != "linalg.pooling_nhwc_sum" &&
        opName != "linalg.pooling_nhwc_max" && opName != "linalg.pooling_nhwc_min" &&
        opName != "linalg.generic")
      return op->emitOpError() << "'" << name
                               << "' belongs on linalg.matmul, linalg.batch_matmul, "
                                  "linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_* "
                                  "or linalg.generic";
    return success();
  }
  // On gpu.binary ops: what ptxas reported per kernel (--dltune-lower-gpu,
  // kKernelResourcesAttrName in dltune/Transforms/LowerGpu.h).
  if (name == "dltune.kernel_resources") {
    auto list = dyn_cast<ArrayAttr>(attr.getValue());
    bool ok = static_cast<bool>(list);
    for (Attribute a : list ? list.getValue() : ArrayRef<Attribute>()) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      ok &= dict && dict.getAs<StringAttr>("kernel");
    }
    if (!ok)
      return op->emitOpError() << "'" << name
                               << "' must be an array of dictionaries with a \"kernel\" name";
    return success();
  }
  return op->emitOpError() << "unknown dltune attribute '" << name << "'";
}
