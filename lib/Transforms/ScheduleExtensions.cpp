//===- ScheduleExtensions.cpp - Transform extensions schedules use --------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"

void mlir::dltune::registerScheduleExtensions(DialectRegistry &registry) {
  linalg::registerTransformDialectExtension(registry);
  scf::registerTransformDialectExtension(registry);
  vector::registerTransformDialectExtension(registry);
  gpu::registerTransformDialectExtension(registry);
  tensor::registerTransformDialectExtension(registry);
  memref::registerTransformDialectExtension(registry);
  bufferization::registerTransformDialectExtension(registry);
  transform::registerLoopExtension(registry);
  transform::registerTuneExtension(registry);
}
