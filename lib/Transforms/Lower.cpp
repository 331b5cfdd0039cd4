//===- Lower.cpp - Lowering of scheduled modules to LLVM / NVVM -----------===//

#include "dltune/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Tensor/TransformOps/TensorTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/LoopExtension/LoopExtension.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::dltune {
#define GEN_PASS_DEF_DLTUNELOWERCPU
#define GEN_PASS_DEF_DLTUNELOWERGPU
#include "dltune/Transforms/Passes.h.inc"
} // namespace mlir::dltune

using namespace mlir;
using namespace mlir::dltune;

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

std::string mlir::dltune::getCpuLoweringPipeline(bool openmp) {
  // Order matters: scf->openmp wraps bodies in memref.alloca_scope, which
  // must become LLVM before scf->cf makes those bodies multi-block.
  std::string p =
      "canonicalize,cse,"
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "drop-equivalent-buffer-results,cse,canonicalize,"
      "convert-bufferization-to-memref,convert-linalg-to-loops,"
      "convert-vector-to-scf{full-unroll=true},";
  // dltune's own forall lowering gives each loop the team size its
  // `threads` knob chose (num_threads), not the runtime's default.
  p += openmp ? "dltune-forall-to-openmp," : "scf-forall-to-parallel,";
  p += "lower-affine,expand-strided-metadata,lower-affine,"
       "finalize-memref-to-llvm,convert-scf-to-cf,convert-vector-to-llvm,"
       "finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,"
       "convert-index-to-llvm,";
  if (openmp)
    p += "convert-openmp-to-llvm,";
  p += "convert-func-to-llvm,convert-cf-to-llvm,convert-ub-to-llvm,"
       "reconcile-unrealized-casts";
  return p;
}

/// Builds a module-level pass manager from a comma-separated pass list.
static LogicalResult buildPipeline(OpPassManager &pm, StringRef pipeline,
                                   Operation *reportAt) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os))) {
    if (reportAt)
      reportAt->emitError() << "invalid lowering pipeline: " << error;
    return failure();
  }
  return success();
}

namespace {
struct LowerCPUPass : public dltune::impl::DLTuneLowerCPUBase<LowerCPUPass> {
  using DLTuneLowerCPUBase::DLTuneLowerCPUBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    if (succeeded(buildPipeline(pm, getCpuLoweringPipeline(openmp), nullptr)))
      pm.getDependentDialects(registry);
    registry.insert<LLVM::LLVMDialect, omp::OpenMPDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Leftover transform scripts are not payload.
    SmallVector<Operation *> scripts;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<transform::TransformOpInterface>(op) ||
          (isa<ModuleOp>(op) &&
           op.hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName)))
        scripts.push_back(&op);
    for (Operation *op : scripts)
      op->erase();
    OpPassManager pm("builtin.module");
    if (failed(buildPipeline(pm, getCpuLoweringPipeline(openmp), module)) ||
        failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};

/// Maps the block/thread-mapped scf.forall loops of every function to
/// gpu.launch, with the block size read off the thread-level loops.
static LogicalResult mapForallToGpu(ModuleOp module) {
  SmallVector<func::FuncOp> funcs;
  module.walk([&](func::FuncOp f) { funcs.push_back(f); });
  for (func::FuncOp func : funcs) {
    SmallVector<int64_t, 3> blockDims = {1, 1, 1};
    bool hasThreads = false;
    func.walk([&](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (!mapping || mapping->empty() ||
          !isa<gpu::GPUThreadMappingAttr>((*mapping)[0]))
        return;
      hasThreads = true;
      SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
      for (auto [attr, ub] : llvm::zip(*mapping, ubs)) {
        auto t = cast<gpu::GPUThreadMappingAttr>(attr);
        std::optional<int64_t> c = getConstantIntValue(ub);
        int dim = static_cast<int>(t.getThread()) -
                  static_cast<int>(gpu::MappingId::DimX);
        if (c && dim >= 0 && dim < 3)
          blockDims[dim] = std::max(blockDims[dim], *c);
      }
    });
    if (!hasThreads)
      continue;
    std::string script =
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main(%root: !transform.any_op "
        "{transform.consumed}) {\n"
        "    %g = transform.gpu.map_forall_to_blocks %root generate_gpu_launch "
        ": (!transform.any_op) -> !transform.any_op\n"
        "    transform.gpu.map_nested_forall_to_threads %g block_dims = [" +
        std::to_string(blockDims[0]) + ", " + std::to_string(blockDims[1]) +
        ", " + std::to_string(blockDims[2]) +
        "] : (!transform.any_op) -> !transform.any_op\n"
        "    transform.yield\n  }\n}\n";
    OwningOpRef<ModuleOp> schedule =
        parseSourceString<ModuleOp>(script, ParserConfig(module.getContext()));
    if (!schedule)
      return func.emitError() << "internal error: GPU mapping script";
    auto entry = transform::detail::findTransformEntryPoint(func, *schedule);
    transform::TransformOptions options;
    if (failed(transform::applyTransformNamedSequence(func, entry, *schedule,
                                                      options)))
      return func.emitError() << "could not map scf.forall loops to the GPU";
  }
  return success();
}

/// Linalg ops the schedule left behind: inside kernels they become plain
/// loops (each thread runs its tile); outside (fills of outputs, untuned
/// elementwise ops) they become parallel loops mapped to blocks and threads
/// by upstream's greedy mapping, so that no host code touches device memory.
static LogicalResult mapLeftoverLinalgOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<linalg::LinalgOp> inside, outside;
  module.walk([&](linalg::LinalgOp op) {
    (op->getParentOfType<gpu::LaunchOp>() ? inside : outside).push_back(op);
  });
  for (linalg::LinalgOp op : inside) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return op->emitOpError() << "could not be turned into loops inside a GPU kernel";
    rewriter.eraseOp(op);
  }
  for (linalg::LinalgOp op : outside) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
      return op->emitOpError() << "could not be mapped to the GPU";
    rewriter.eraseOp(op);
  }
  return success();
}

struct LowerGPUPass : public dltune::impl::DLTuneLowerGPUBase<LowerGPUPass> {
  using DLTuneLowerGPUBase::DLTuneLowerGPUBase;

  static constexpr const char *kBufferize =
      "canonicalize,cse,one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "drop-equivalent-buffer-results,cse,canonicalize,"
      "convert-bufferization-to-memref";
  static constexpr const char *kMapLoops =
      "func.func(gpu-map-parallel-loops),convert-parallel-loops-to-gpu,"
      "lower-affine,canonicalize";

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm("builtin.module");
    if (succeeded(buildPipeline(pm, kBufferize, nullptr)))
      pm.getDependentDialects(registry);
    OpPassManager maps("builtin.module");
    if (succeeded(buildPipeline(maps, kMapLoops, nullptr)))
      maps.getDependentDialects(registry);
    OpPassManager lower("builtin.module");
    gpu::GPUToNVVMPipelineOptions opts;
    gpu::buildLowerToNVVMPassPipeline(lower, opts);
    lower.getDependentDialects(registry);
    registerScheduleExtensions(registry);
    registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, func::FuncDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "isa" && format != "bin" && format != "fatbin") {
      module.emitError() << "dltune-lower-gpu: format must be isa, bin or "
                            "fatbin, got '"
                         << format << "'";
      return signalPassFailure();
    }
    OpPassManager bufferize("builtin.module");
    if (failed(buildPipeline(bufferize, kBufferize, module)) ||
        failed(runPipeline(bufferize, module)) || failed(mapForallToGpu(module)) ||
        failed(mapLeftoverLinalgOps(module)))
      return signalPassFailure();
    OpPassManager mapLoops("builtin.module");
    if (failed(buildPipeline(mapLoops, kMapLoops, module)) ||
        failed(runPipeline(mapLoops, module)))
      return signalPassFailure();
    OpPassManager lower("builtin.module");
    gpu::GPUToNVVMPipelineOptions opts;
    opts.cubinChip = chip;
    opts.cubinFeatures = features;
    opts.cubinFormat = format;
    opts.optLevel = 3;
    gpu::buildLowerToNVVMPassPipeline(lower, opts);
    if (failed(runPipeline(lower, module)))
      return signalPassFailure();
  }
};
} // namespace

void mlir::dltune::registerDLTunePipelines() {
  PassPipelineRegistration<>(
      "dltune-default-pipeline",
      "Annotate with default spaces and configs, apply them and lower to LLVM "
      "for the CPU",
      [](OpPassManager &pm) {
        DLTuneAnnotateOptions annotate;
        annotate.defaultConfig = true;
        pm.addPass(createDLTuneAnnotate(annotate));
        pm.addPass(createDLTuneApply());
        pm.addPass(createDLTuneStrip());
        pm.addPass(createDLTuneLowerCPU());
      });
}
