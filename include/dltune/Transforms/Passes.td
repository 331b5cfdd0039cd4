//===- Passes.td - dltune passes ---------------------------*- tablegen -*-===//

#ifndef DLTUNE_TRANSFORMS_PASSES_TD
#define DLTUNE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DLTuneAnnotate : Pass<"dltune-annotate", "ModuleOp"> {
  let summary = "Attach shape-aware default search spaces to linalg ops";
  let description = [{
    Attaches `dltune.space` (and `dltune.target`) to every supported linalg
    op with static shapes: `linalg.matmul` (also with transposed operands),
    `linalg.batch_matmul`, `linalg.conv_2d_nhwc_hwcf`,
    `linalg.conv_2d_nchw_fchw`, `linalg.depthwise_conv_2d_nhwc_hwc`, NHWC
    pooling and elementwise `linalg.generic`. Ops that already carry a space
    are kept as they are. Unsupported ops are left alone with a remark.

    CPU knobs: cache tiles, register tile, reduction tile, vectorize, unroll
    and thread count. GPU knobs: block tile, thread tile, reduction tile,
    shared-memory promotion and unroll, constrained by the target's thread
    and shared-memory limits.

    With `default-config=true` it also attaches a heuristic `dltune.config`
    so that the pipeline produces fast code without tuning.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target the space is built for: cpu or gpu">,
    Option<"defaultConfig", "default-config", "bool", /*default=*/"false",
           "Also attach a heuristic default configuration">,
    Option<"numThreads", "threads", "int64_t", /*default=*/"0",
           "CPU threads available to a kernel (0: the machine's core count)">,
  ];
  let dependentDialects = ["::mlir::dltune::DLTuneDialect"];
}

def DLTuneApply : Pass<"dltune-apply", "ModuleOp"> {
  let summary = "Rewrite ops carrying dltune.config into their scheduled form";
  let description = [{
    Builds a Transform-dialect schedule for every op with a `dltune.config`
    (tiling at cache and register level, vectorization with FMA contraction,
    unrolling, loop-invariant hoisting and, on CPU, `scf.forall`
    parallelism; on GPU, mapping to blocks and threads) and applies it with
    the transform interpreter. Ops scheduled by an upstream transform
    sequence (`dltune.schedule = @seq`) get their `transform.tune.knob`
    values filled from the config before the sequence is applied.

    A config outside its space is an error and the op is left untouched.
  }];
  let dependentDialects = [
    "::mlir::transform::TransformDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def DLTuneStrip : Pass<"dltune-strip", "ModuleOp"> {
  let summary = "Remove all dltune attributes";
  let description = [{
    Removes `dltune.*` attributes from every op, e.g. to obtain the untuned
    reference of a module, or before handing IR to tools that do not know
    the dialect.
  }];
}

def DLTuneLowerCPU : Pass<"dltune-lower-cpu", "ModuleOp"> {
  let summary = "Bufferize and lower a (scheduled) module to the LLVM dialect";
  let description = [{
    One-shot bufferization with identity-layout function boundaries, removal
    of results that alias arguments, lowering of linalg, vector, scf (and
    `scf.parallel` to OpenMP when `openmp=true`) down to the LLVM dialect,
    ready for the ExecutionEngine. Functions get `llvm.emit_c_interface`.
  }];
  let options = [
    Option<"openmp", "openmp", "bool", /*default=*/"true",
           "Lower scf.forall/scf.parallel loops to OpenMP">,
  ];
}

def DLTuneLowerGPU : Pass<"dltune-lower-gpu", "ModuleOp"> {
  let summary = "Lower a GPU-mapped module to NVVM with embedded PTX/cubin";
  let description = [{
    Bufferizes, outlines `gpu.launch` bodies into kernels, lowers them to
    NVVM and serializes them for `chip` (PTX with `format=isa`, cubin with
    `format=bin`, which needs `ptxas`); host code is lowered to the LLVM
    dialect and calls the `mgpu*` runtime functions.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features">,
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "Serialization format: isa (PTX), bin (cubin) or fatbin">,
  ];
}

#endif // DLTUNE_TRANSFORMS_PASSES_TD
