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
    pooling, elementwise `linalg.generic` and reduction `linalg.generic`
    (softmax, layer norm, global pooling). Ops that already carry a space
    are kept as they are. Unsupported ops are left alone with a remark.

    CPU knobs: cache tiles, register tile, reduction tile, vectorize, unroll
    and thread count. GPU knobs: block tile, thread tile, reduction tile,
    shared-memory promotion and unroll, constrained by the target's thread
    and shared-memory limits.

    With `default-config=true` it also attaches a heuristic `dltune.config`
    so that the pipeline produces fast code without tuning. On the CPU the
    heuristic derives from the machine (vector width and register count bound
    the register tile, L1/L2 sizes the cache tiles); `cpu-lanes`,
    `cpu-registers`, `l1-kb` and `l2-kb` override what is detected, e.g. to
    annotate for another machine.

    With `fuse-epilogues=true` (the default, CPU only) chains of elementwise
    generics are first merged into one (upstream elementwise fusion), and an
    elementwise op that finishes a tuned op's result (bias add, ReLU,
    residual add) gets no space of its own: `--dltune-apply` fuses it into
    the tuned op's tiled loops, so op and epilogue are one tuning task with
    the op's config.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target the space is built for: cpu or gpu">,
    Option<"defaultConfig", "default-config", "bool", /*default=*/"false",
           "Also attach a heuristic default configuration">,
    Option<"numThreads", "threads", "int64_t", /*default=*/"0",
           "CPU threads available to a kernel (0: the machine's core count)">,
    Option<"cpuLanes", "cpu-lanes", "int64_t", /*default=*/"0",
           "f32 lanes per vector register the CPU defaults assume (0: this machine's)">,
    Option<"cpuRegisters", "cpu-registers", "int64_t", /*default=*/"0",
           "Vector registers the CPU defaults assume (0: this machine's)">,
    Option<"l1KB", "l1-kb", "int64_t", /*default=*/"0",
           "L1 data cache per core in KiB for the CPU defaults (0: this machine's)">,
    Option<"l2KB", "l2-kb", "int64_t", /*default=*/"0",
           "L2 cache per core in KiB for the CPU defaults (0: this machine's)">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Merge elementwise chains and fuse them into the op they follow (CPU)">,
    Option<"gpuSms", "gpu-sms", "int64_t", /*default=*/"0",
           "Streaming multiprocessors the GPU defaults assume (0: 132, an H100 SXM; "
           "`dltune run` and `dltune tune` pass the device's)">,
    Option<"gpuCc", "gpu-cc", "int64_t", /*default=*/"0",
           "Compute capability x 10 the GPU spaces assume (0: 90, an H100's; "
           "warpgroup MMA is offered at 90 only; `dltune run` and `dltune tune` "
           "pass the device's)">,
  ];
  let dependentDialects = ["::mlir::dltune::DLTuneDialect",
                           "::mlir::tensor::TensorDialect"];
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

    With `fuse-depthwise-pointwise=true`, each 1x1 conv that reads a
    depthwise conv's result and meets the conditions of
    `--dltune-fuse-depthwise-pointwise` is first tiled by output rows with the depthwise
    conv fused into the row loop (`--dltune-fuse-depthwise-pointwise`), and
    both are scheduled there by their configs. Off by default: it moved
    MobileNet-v2 by 0.97x (docs/design.md, "Depthwise + 1x1 conv fusion").
  }];
  let options = [
    Option<"fuseDepthwisePointwise", "fuse-depthwise-pointwise", "bool",
           /*default=*/"false",
           "Compute depthwise convs row by row inside the 1x1 convs that read them">,
  ];
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

def DLTuneApproximateMath : Pass<"dltune-approximate-math"> {
  let summary = "Replace math.exp and math.erf by polynomial approximations";
  let description = [{
    `math.erf` has no LLVM intrinsic, and libm's `erff` and `expf` take no
    vectors: LLVM scalarizes a vector exponential into one `expf` call per
    lane (a softmax's exponentials were 3% of an encoder's time in calls to
    libm). This pass rewrites `math.exp` and `math.erf` (scalars and
    vectors of f32) into upstream's polynomial approximations, plain
    `arith`/`math.fma` code that vectorizes:

    ```mlir
    // before
    %e = math.exp %x : vector<8xf32>
    // after: range reduction, a polynomial and an exponent bit-cast
    %k = math.floor ... : vector<8xf32>
    %p = math.fma ... : vector<8xf32>
    %e = arith.mulf ... : vector<8xf32>
    ```

    Other `math` ops are left alone (`--dltune-lower-cpu` turns what has an
    LLVM intrinsic into it and the rest into libm calls). It runs on any
    op; `--dltune-lower-cpu` runs it before bufferization.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def DLTuneStrip : Pass<"dltune-strip", "ModuleOp"> {
  let summary = "Remove all dltune attributes";
  let description = [{
    Removes `dltune.*` annotation attributes (space, config, target,
    schedule) from every op, e.g. to obtain the untuned reference of a
    module. The `dltune.num_threads` that `--dltune-apply` leaves on the
    loops it parallelized stays: it is part of the scheduled code, and
    `--dltune-lower-cpu` turns it into the OpenMP team size. So does the
    `dltune.gpu_kernel` it leaves on a matmul scheduled for the GPU (the
    tile sizes of the kernel `--dltune-lower-gpu` builds).
  }];
}

def DLTuneStridedCopyToLoops : Pass<"dltune-strided-copy-to-loops"> {
  let summary = "Turn copies between strided memrefs into vector row loops";
  let description = [{
    A `memref.copy` between strided views (a pad's interior, a concat's
    part, a packed panel) lowers to the runtime's element-by-element
    `memrefCopy`, about 30x slower than a loop. This pass turns every copy
    whose source or target has a non-identity layout into loops over the
    outer dimensions that move each row with `vector.load` and
    `vector.store`: as scalar loops LLVM does not vectorize them (it cannot
    rule out that source and target overlap), and a panel copy of 8-float
    rows 2 KB apart then cost more than the convolution reading it.

    ```mlir
    // before
    memref.copy %s, %dst : memref<3x64x8xf32, strided<[32768, 512, 1], offset: 16>>
                        to memref<3x64x8xf32>
    // after
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %row = vector.load %s[%i, %j, %c0] : memref<3x64x8xf32, strided<...>>, vector<8xf32>
        vector.store %row, %dst[%i, %j, %c0] : memref<3x64x8xf32>, vector<8xf32>
      }
    }
    ```

    A row of 4 to 64 elements moves in one vector, a longer one in chunks
    of 64, 32, 16 or 8 elements that divide it. Copies that cannot be
    vectorized so (dynamic shapes, a non-unit innermost stride, rows of
    fewer than 4 elements or that no chunk divides, sub-byte elements)
    become a `linalg.copy`; copies between contiguous memrefs stay (they
    become a `memcpy`). `--dltune-lower-cpu` runs it after bufferization.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def DLTuneFoldConstantPacks : Pass<"dltune-fold-constant-packs", "ModuleOp"> {
  let summary = "Evaluate packing loops over constant operands at compile time";
  let description = [{
    A packed CPU schedule (`pack_a`, `pack_b`, `pack_f`) copies each block
    of an operand into contiguous panels every time the kernel runs. When
    that operand is a constant (a model's weights), this pass evaluates the
    packing loop nest - `scf.for` over `tensor.empty`, `tensor.extract_slice`,
    `tensor.insert_slice`, `tensor.pad` with a constant value and folding
    integer arithmetic - for every iteration of the enclosing loops whose
    induction variables it reads, stores the panels as one new
    `dense_resource` constant `[iterations..., panel shape]`, and replaces
    the loop nest by a slice of it:

    ```mlir
    // before: per call, for each n block %n
    %p = scf.for %i = %c0 to %c256 step %c16 iter_args(%b = %empty) -> (tensor<16x256x16xf32>) {
      %s = tensor.extract_slice %weights[0, %n + %i] [256, 16] [1, 1] : ...
      %r = tensor.insert_slice %s into %b[%i floordiv 16, 0, 0] [1, 256, 16] [1, 1, 1] : ...
      scf.yield %r : tensor<16x256x16xf32>
    }
    // after
    %packed = arith.constant dense_resource<dltune_packed> : tensor<3x16x256x16xf32>
    %p = tensor.extract_slice %packed[%n floordiv 256, 0, 0, 0] [1, 16, 256, 16] [1, 1, 1, 1]
    ```

    A loop nest that reads anything else (a function argument, a dynamic
    bound) is left alone, and so is one whose panels would take more than
    twice the bytes of the constants they come from (a remark says so).
    `--dltune-lower-cpu` runs it first unless `fold-constant-packs=false`.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DLTuneWidenConvs : Pass<"dltune-widen-convs", "ModuleOp"> {
  let summary = "Compute convolutions of awkward output widths on a wider output and crop it";
  let description = [{
    A convolution whose output width no register row count divides (a
    prime width such as SqueezeNet's 109-wide stem) gets partial register
    tiles in its default schedule, and each partial tile copies its input
    window into a padded buffer. This pass computes such a
    `linalg.conv_2d_nhwc_hwcf` on an output widened to the next multiple of
    the register rows its default plan picks (109 -> 112): the input is
    padded with zeros on the right as far as the wider output reads, the
    init is widened (a `linalg.fill` of the original value, or a zero pad
    of any other init), the elementwise epilogue that
    `--dltune-annotate` would fuse (bias, ReLU, residual add: chains are
    merged first) is computed on the wider tensor too (operands indexed by
    the width padded with zeros), and a `tensor.extract_slice` crops the
    result. The extra columns cost (new - old) / old of the FLOPs (3 / 109).

    Which convolutions: static shapes, no `dltune.*` attribute, and a
    default CPU plan whose register rows do not divide the width
    (`cpu-lanes` and `cpu-registers` override this machine's, as for
    `--dltune-annotate`). Everything else is left as it is.
  }];
  let options = [
    Option<"cpuLanes", "cpu-lanes", "int64_t", /*default=*/"0",
           "f32 lanes per vector register the plan assumes (0: this machine's)">,
    Option<"cpuRegisters", "cpu-registers", "int64_t", /*default=*/"0",
           "Vector registers the plan assumes (0: this machine's)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"];
}

def DLTunePointwiseToMatmul : Pass<"dltune-pointwise-to-matmul", "ModuleOp"> {
  let summary = "Compute 1x1 stride-1 convolutions as matrix multiplications over the pixels";
  let description = [{
    A `linalg.conv_2d_nhwc_hwcf` with a 1x1 filter and unit strides is a
    `linalg.matmul` of its pixels (N*H*W rows, a `tensor.collapse_shape`
    view of the input, no copy) by its filter (C x F; a constant filter
    becomes a constant of the new shape). The matmul's default schedule
    runs its register tile over all pixels (6 rows x 2 vectors on AVX2,
    with a shorter last tile where 6 does not divide them), where the
    convolution's runs along one output row (7 or 14 pixels). The
    elementwise epilogue that `--dltune-annotate` would fuse (bias, ReLU6,
    residual add; chains are merged first) is rewritten over the same
    flattened pixels (`linalg::collapseOpIterationDims`), so it still
    fuses, and a `tensor.expand_shape` gives the other users NHWC back.

    Which convolutions: static shapes, no `dltune.*` attribute, and a
    result (after the epilogue) that no `tensor.pad` reads: a padded
    result is written in place into the padded buffer by
    `--dltune-pad-in-place`, which the matmul's flat rows cannot do.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def DLTuneConvToMatmul : Pass<"dltune-conv-to-matmul", "ModuleOp"> {
  let summary = "Compute convolutions as GEMMs on gathered patches (im2col), for the GPU";
  let description = [{
    The GPU target's tuned kernel is the matmul; this pass gives it the
    convolutions. A `linalg.conv_2d_nhwc_hwcf` (any strides and
    dilations; the import pads inputs with `tensor.pad` beforehand) becomes
    a `linalg.matmul` of A, its input's patches gathered by a
    `linalg.generic` ([N*OH*OW, KH*KW*C]; a 1x1 stride-1 convolution's
    pixels are A as they are, a `tensor.collapse_shape` view, padded where
    M or K is not aligned), by B, its
    filter as [KH*KW*C, F] (a view), into its init as [N*OH*OW, F] (a
    `linalg.fill` of an empty tensor stays a fill). N and K are padded
    with zeros to multiples of `n-align` and `k-align`, since the GPU
    space takes power-of-two tiles that divide them, and a
    `tensor.extract_slice` and `tensor.expand_shape` give back the NHWC
    result. M (the output pixels) is not padded by default (`m-align` 1):
    where 64 does not divide it (14 x 14 = 196), the GPU space offers any
    block_m and the kernel's last row of blocks clamps its reads. The
    gather checks bounds only in padded dimensions. `--dltune-lower-gpu`
    does not build it as a kernel: the matmul kernel gathers in its loads
    (an implicit GEMM; `implicit-gemm=false` there keeps the patch buffer).

    Which convolutions: static shapes and no `dltune.*` attribute.
    `dltune run --target gpu --default-config` and `dltune tune --target
    gpu` run it before `--dltune-annotate`; the CPU pipelines do not (the
    CPU has convolution schedules of its own).
  }];
  let options = [
    Option<"mAlign", "m-align", "int64_t", /*default=*/"1",
           "Pad the output pixels (GEMM rows) to a multiple of this (1: not padded)">,
    Option<"nAlign", "n-align", "int64_t", /*default=*/"32",
           "Pad the output channels (GEMM columns) to a multiple of this">,
    Option<"kAlign", "k-align", "int64_t", /*default=*/"8",
           "Pad the reduction (KH*KW*C) to a multiple of this">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def DLTuneFuseDepthwisePointwise : Pass<"dltune-fuse-depthwise-pointwise", "ModuleOp"> {
  let summary = "Compute a depthwise conv row by row inside the 1x1 conv that reads it";
  let description = [{
    MobileNet-style blocks run a depthwise conv and then a 1x1 conv on its
    result. Unfused, the depthwise conv writes its whole output and the 1x1
    conv reads it back from wherever the caches left it. This pass tiles
    the 1x1 conv's group (fill, conv, epilogue) by one output row
    (`scf.for`) and fuses the depthwise group that produces its input into
    that loop (upstream tile-and-fuse); a 1x1 conv's output row reads only
    the same row of its input, so nothing is computed twice, and the
    depthwise row stays in L1 for the 1x1 conv. Both convs keep their
    `dltune.config`; `--dltune-apply` schedules the row-sized copies.

    A pair is fused when both convs sit directly in a function body and
    carry a CPU `dltune.config` (not an upstream `dltune.schedule`) with
    `tile_oh = 1` and one thread, each has a fusable elementwise epilogue of
    its own (bias, activation, residual), the 1x1 conv has stride 1 and more
    than one output row, and the depthwise result has no other user.
    Everything else is left as it is, so a second run changes nothing.
    `--dltune-apply fuse-depthwise-pointwise=true` runs this first.
  }];
  let dependentDialects = [
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def DLTunePadInPlace : Pass<"dltune-pad-in-place", "ModuleOp"> {
  let summary = "Let producers write into the interior of the padded tensor a pad makes";
  let description = [{
    A function-level `tensor.pad` with static sizes and a constant value
    (the importer pads a convolution's input this way) bufferizes to a new
    buffer, a fill and a copy of its whole source. This pass creates the
    padded tensor before the op producing the source, fills only its border
    (one slab below and above the interior per padded dimension), replaces
    the pad by a `tensor.insert_slice` of the source into it, and lets
    upstream empty-tensor elimination turn the producer's empty destination
    into the matching slice, so the producer writes the interior in place:

    ```mlir
    // before
    %e = tensor.empty() : tensor<1x112x112x32xf32>
    %y = linalg.generic ... outs(%e : tensor<1x112x112x32xf32>)
    %p = tensor.pad %y low[0, 1, 1, 0] high[0, 1, 1, 0] { tensor.yield %zero }
    // after
    %b = bufferization.alloc_tensor() : tensor<1x114x114x32xf32>
    ... linalg.fill of the four border slabs of %b ...
    %i = tensor.extract_slice %b4[0, 1, 1, 0] [1, 112, 112, 32] [1, 1, 1, 1]
    %y = linalg.generic ... outs(%i : tensor<1x112x112x32xf32>)
    %p = tensor.insert_slice %y into %b4[0, 1, 1, 0] [1, 112, 112, 32] [1, 1, 1, 1]
    ```

    The producer is found through destination-style ops and loop inits
    (tiled schedules); its empty tensor must have no other use. Pads inside
    loops (a schedule's packing), `nofold` pads, negative padding and pads
    of values no op writes into an empty tensor of its own (function
    arguments, slices) are left alone. `--check` and the tuner's references
    lower without it, so they check it. `--dltune-lower-cpu` runs it unless `pad-in-place=false`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def DLTuneWinograd : Pass<"dltune-winograd", "ModuleOp"> {
  let summary = "Compute 3x3 stride-1 convolutions by Winograd's minimal filtering";
  let description = [{
    Rewrites each `linalg.conv_2d_nhwc_hwcf` with a constant 3x3 filter,
    unit strides and dilations and f32 elements into Winograd's
    F(m x m, 3 x 3) (Lavin & Gray, CVPR 2016):

    1. the filter transform G g G^T, evaluated at compile time into a
       constant U of shape [alpha^2, C, F] (alpha = m + 2);
    2. the input transform B^T d B of every m x m output tile's
       alpha x alpha input window, vector code over channels
       (`vector.transfer_read`/`write` in `scf.for` loops) writing
       V of shape [alpha^2, P, C], P the number of tiles rounded up to a
       multiple of 8 (the extra rows are zero);
    3. `linalg.batch_matmul` V x U = M of shape [alpha^2, P, F]: an
       ordinary op that `--dltune-annotate` gives a matmul space, so the
       tuner tunes it like any other matmul and packing of the constant U
       is folded at compile time;
    4. the output transform A^T M A added to the convolution's init (or
       written alone when the init is a `linalg.fill` of +0.0 into a
       `tensor.empty`), vector code over filters; with `fuse-epilogues`
       (default), the elementwise generic that follows the convolution
       (bias, residual add, ReLU; chains merged first, as
       `--dltune-annotate` does) is computed on each vector before it is
       written.

    Multiplications per output fall from 9 to alpha^2 / m^2 (4 for m = 2,
    2.25 for m = 4) at the price of the transforms' memory traffic. By
    default (`output-tile=0`) a convolution with at least
    `large-tile-min-tiles` (49) output tiles of 4 x 4 takes m = 4 (its V
    and M are 2.25/4 the size of m = 2's and its matmul has half the
    FLOPs), and a smaller one m = 2 (m = 4's transformed filter U, 2.25x
    larger, is then re-read for too few tiles): ResNet-18's 56x56 and
    28x28 layers take m = 4, its 14x14 and 7x7 layers m = 2.
    Outputs whose height or width is not a multiple of m are computed in
    padded tiles and cropped. Convolutions with fewer than `min-channels`
    input or output channels, or fewer than `min-tiles` tiles, are left
    alone (with a remark), as is every other convolution and any
    convolution carrying a `dltune.space`, `dltune.config`, `dltune.target`
    or `dltune.schedule` attribute (CPU only: the pass emits CPU vector
    code).

    With `threads` above 1 each transform's tile rows are one `scf.forall`
    with `dltune.num_threads` (OpenMP after `--dltune-lower-cpu`).

    `--check` and the tuner's model references run the model without it,
    so they check it; `dltune run|compile|tune --winograd=false` turns it
    off for A/B comparisons.
  }];
  let options = [
    Option<"outputTile", "output-tile", "int64_t", /*default=*/"0",
           "m of F(m x m, 3 x 3): 2 or 4 for every convolution, or 0: per "
           "convolution, 4 where that gives at least `large-tile-min-tiles` "
           "tiles, else 2">,
    Option<"largeTileMinTiles", "large-tile-min-tiles", "int64_t", /*default=*/"49",
           "with output-tile=0: the fewest 4 x 4 output tiles for which a "
           "convolution takes F(4 x 4, 3 x 3)">,
    Option<"minChannels", "min-channels", "int64_t", /*default=*/"16",
           "leave convolutions with fewer input or output channels alone">,
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"1",
           "leave convolutions with fewer output tiles alone">,
    Option<"lanes", "lanes", "int64_t", /*default=*/"0",
           "f32 lanes of the transforms' vectors (0: this machine's)">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "threads of the input and output transforms (0: all cores); "
           "above 1 their tile rows are an scf.forall with that team size">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "compute each conv's elementwise epilogue in its output transform">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def DLTuneForallToOpenMP : Pass<"dltune-forall-to-openmp", "ModuleOp"> {
  let summary = "Lower scf.forall loops to OpenMP with the team size they ask for";
  let description = [{
    Converts every (bufferized) `scf.forall` to `scf.parallel` and then to
    `omp.parallel` + `omp.wsloop` (upstream `convert-scf-to-openmp`). A loop
    carrying `dltune.num_threads = N` (set by the CPU schedule from the
    `threads` knob) gets `num_threads(N)` on its `omp.parallel`, so the
    kernel's parallelism is the configuration's and does not depend on
    `OMP_NUM_THREADS` or on the machine it runs on. Loops without the
    attribute use the OpenMP runtime's default team.

    Used inside `--dltune-lower-cpu` (with `openmp=true`) in place of
    `scf-forall-to-parallel,convert-scf-to-openmp`.
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def DLTuneLowerCPU : Pass<"dltune-lower-cpu", "ModuleOp"> {
  let summary = "Bufferize and lower a (scheduled) module to the LLVM dialect";
  let description = [{
    One-shot bufferization with identity-layout function boundaries, removal
    of results that alias arguments, lowering of linalg, vector, scf (and
    `scf.parallel` to OpenMP when `openmp=true`) down to the LLVM dialect,
    ready for the ExecutionEngine (a function that carries
    `llvm.emit_c_interface`, as the kernels dltune builds do, also gets its
    `_mlir_ciface_` wrapper).

    It runs, in order: `--dltune-fold-constant-packs` (unless
    `fold-constant-packs=false`), `--dltune-pad-in-place` (unless
    `pad-in-place=false`), `--dltune-approximate-math`, bufferization with
    buffer deallocation, `--dltune-strided-copy-to-loops`, linalg and vector
    to loops, `--dltune-forall-to-openmp` (`scf-forall-to-parallel` with
    `openmp=false`) and the conversions to LLVM. Transform scripts left in
    the module are dropped first.

    ```mlir
    // before
    func.func @add(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
      %e = tensor.empty() : tensor<64xf32>
      %r = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>)
                      outs(%e : tensor<64xf32>) -> tensor<64xf32>
      return %r : tensor<64xf32>
    }
    // after: memref descriptors, unpacked into pointers, offset, sizes and strides
    llvm.func @malloc(i64) -> !llvm.ptr
    llvm.func @add(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64,
                   %arg5: !llvm.ptr, ...) -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    ```
  }];
  let options = [
    Option<"openmp", "openmp", "bool", /*default=*/"true",
           "Lower scf.forall/scf.parallel loops to OpenMP">,
    Option<"foldConstantPacks", "fold-constant-packs", "bool", /*default=*/"true",
           "Pack constant operands at compile time (--dltune-fold-constant-packs)">,
    Option<"padInPlace", "pad-in-place", "bool", /*default=*/"true",
           "Producers write into the padded tensors pads make (--dltune-pad-in-place)">,
  ];
}

def DLTuneLowerGPU : Pass<"dltune-lower-gpu", "ModuleOp"> {
  let summary = "Lower a GPU-mapped module to NVVM with embedded PTX/cubin";
  let description = [{
    Bufferizes, outlines `gpu.launch` bodies into kernels, lowers them to
    NVVM and serializes them for `chip` (PTX with `format=isa`, cubin with
    `format=bin`, which needs `ptxas`); host code is lowered to the LLVM
    dialect and calls the `mgpu*` runtime functions.

    A `linalg.matmul` or `linalg.batch_matmul` carrying `dltune.gpu_kernel`
    (the tile sizes its GPU schedule chose) becomes one `gpu.launch` built
    op by op after bufferization: A and B slices staged in shared memory
    with vector loads (one or two buffers), a register tile of C per thread
    accumulating outer products, vector stores of C. A `linalg.fill` of its
    output just before it becomes the accumulators' start value.

    The block-mapped `scf.forall` loops of each function become one
    `gpu.launch` and the nested thread-mapped ones its threads (upstream's
    `map_forall_to_blocks` and `map_nested_forall_to_threads` transform ops,
    which the pass builds and applies itself); the block size is read off
    the thread loops. Copies into workgroup memory become loops shared by
    the block's threads, with barriers around them, and workgroup buffers
    whose uses do not overlap share storage. Linalg ops left outside the
    mapped loops, and host `memref.copy` ops (copies into padded
    buffers), become parallel loops mapped to the GPU; their loops are
    collapsed and tiled into blocks of 256 threads. The host code keeps no
    data of its own: its allocations become `gpu.alloc` (freed at the end
    of their block where only launches and views there use them), and the constants it reads (a model's
    weights) are read through `dltuneDeviceConstant`, which uploads each
    one once. Straight-line host code queues its allocations, launches and
    frees on one stream (upstream's `gpu-async-region`) and waits once,
    before it returns. Host code still reading, writing or freeing a
    buffer, passing one to an external function or reading a mutable
    global is an error. With `format=bin` every kernel is assembled by
    `ptxas -v`, and what it reports is attached to each `gpu.binary` as
    `dltune.kernel_resources`.

    Before bufferization, chains of element-wise linalg.generic ops are
    fused into one (upstream's element-wise fusion, where the producer has
    no other use): an imported convolution's bias add and activation become
    one op. When such an op is the only reader of a matmul's product
    (through a crop of padded rows and columns and an expansion of its rows
    into N, H, W), the matmul kernel computes it on the accumulators and
    stores its result instead of the product (`fuse-epilogues=false` keeps
    both as they were). A tensor fill used as the output of several linalg
    ops (CSE merges equal fills) is cloned for each, so that every matmul
    absorbs its own fill instead of loading a copy of a shared one. The
    parallel loops of leftover ops over the same points, each reading what
    the previous one wrote only at that point, are fused into one kernel (a
    depthwise convolution's fill, the convolution and its activation).

    Reads of a padded tensor element by element (a `tensor.extract`, as in
    the convolutions' patch gather, or an input of a linalg op other than
    the matmul kernel's, as of a depthwise convolution or a pooling op,
    which are generalized for it) read the pad's source instead, at the
    index less the low padding (index 0 outside the source, so that the
    load is always valid), and take the padding value outside it; a pad of a constant (a convolution's weights
    padded to the matmul's tiles) becomes a constant at compile time: no
    fill and copy into a padded buffer per call (`fold-pads=false` keeps
    them).

    A matmul's A written element by element by a `linalg.generic` right
    before it (the patch gather of `--dltune-conv-to-matmul`) is not
    written: the matmul kernel evaluates the gather's body where it loads A
    (an implicit GEMM), one vector load per `vector` columns where the
    body's index arithmetic shows them contiguous (the channels of one
    pixel; with cp.async, one copy, zero-filled outside a padded input),
    else once a column. Not where the kernel's stores could change
    what it gathers (C or the fused epilogue's output may share memory with
    the gathered input: the epilogue is then left unfused), with batched
    matmuls, or with `wgmma` (`implicit-gemm=false` keeps the gather).

    A depthwise convolution or a pooling op scheduled for the GPU (its
    `dltune.gpu_kernel` tiles: `vector`, `outputs`, `block_threads`) becomes a
    kernel where each thread keeps `vector` consecutive channels of
    `outputs` consecutive output columns in registers across the window and
    stores them once: the body runs once for a vector of channels where its
    index arithmetic allows (its loads along the channels then vector
    loads), a fill of the output before it is the registers' start value,
    and an element-wise op right after it reading only its output (bias,
    activation) is computed as it stores (`window-kernels=false`: one
    thread an output element, as other leftovers).

    A leftover op whose only reduction is its innermost loop, folded by one
    arith op per element (softmax's max and sum, layer norm's mean and
    variance) becomes a kernel of its own where L lanes of a warp (32, or
    fewer for shorter rows) share each row, each folding every L-th
    element, and
    `gpu.subgroup_reduce` (warp shuffles) combines them; a `linalg.fill` of
    its output just before it becomes the start value
    (`row-reductions=false`: one thread a row, as other leftovers). With
    `fuse-epilogues`, the leftover ops over the same rows around it
    (element-wise ops whose lanes read and write consecutive elements of a
    row, fills of a value a row, other such reductions) join its kernel as
    further steps, a barrier between those that depend on each other, where
    each row depends only on its own earlier steps: softmax or a layer norm
    is one launch.

    A `linalg.transpose` that keeps the innermost dimension innermost is
    not a copy where its output is a fresh buffer only read after it (the
    readers read a `memref.transpose` view of its input) or where its input
    is a fresh buffer that only linalg ops before it write (they write a
    view of its output): the attention's head transposes cost no kernel
    (`transpose-views=false`: a copy kernel each). A transpose that stays a
    copy and swaps the last two dimensions is a kernel moving 32 x 32 tiles
    through shared memory, so that both its reads and its writes are
    coalesced (`transpose-kernels=false`: the loops of a leftover op).

    With `emulate=true` nothing is built for a GPU: after the kernels are
    built and mapped, each `gpu.launch` becomes a loop over its blocks whose
    body runs as an OpenMP team of the block's threads (`gpu.barrier` becomes
    `omp.barrier`, workgroup memory one host buffer the team shares), and
    the module is lowered like the CPU's. Tests check the kernels' results
    this way on machines without a GPU; kernels with warp-level or
    tensor-core ops (nvgpu, nvvm) are refused; `gpu.subgroup_reduce` runs
    through a buffer the team shares, between two barriers.

    ```mlir
    // before
    scf.forall (%bi) in (4) {
      scf.forall (%ti, %tj) in (16, 64) { ... } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    } {mapping = [#gpu.block<x>]}
    // after
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c4, %c1, %c1) threads in (%c64, %c16, %c1) ...
    gpu.binary @f_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, ...>]
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU architecture">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "PTX features">,
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "Serialization format: isa (PTX), bin (cubin) or fatbin">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Fuse chains of element-wise ops into one op, an element-wise op "
           "reading a matmul's product into the matmul's kernel, and the loops "
           "of leftover ops over the same points (=false for A/B comparisons)">,
    Option<"foldPads", "fold-pads", "bool", /*default=*/"true",
           "Reads of a tensor.pad by tensor.extract or by a linalg op other "
           "than the matmul kernel's read the pad's source with a bounds check "
           "instead, and pads of constants become constants (=false: a fill "
           "and a copy into a padded buffer per call)">,
    Option<"implicitGemm", "implicit-gemm", "bool", /*default=*/"true",
           "A matmul's A written element by element by a linalg.generic just "
           "before it (a convolution's patch gather) is computed in the "
           "matmul kernel's loads of A instead (=false: the gather is a "
           "kernel writing a patch buffer)">,
    Option<"windowKernels", "window-kernels", "bool", /*default=*/"true",
           "Depthwise convolutions and pooling ops with GPU tiles get a "
           "kernel with register tiles of channels and output columns "
           "(=false: one thread an output element, for A/B comparisons)">,
    Option<"rowReductions", "row-reductions", "bool", /*default=*/"true",
           "Reductions along the innermost loop outside the matmul kernels "
           "get a kernel where the lanes of a warp share each row, with the "
           "ops over the same rows around them (with fuse-epilogues) "
           "(=false: one thread a row, for A/B comparisons)">,
    Option<"transposeViews", "transpose-views", "bool", /*default=*/"true",
           "A linalg.transpose that keeps the innermost dimension innermost "
           "is a strided view that its readers read (or the writers of its "
           "input write) instead of a copy: the attention's head transposes "
           "(=false: a copy kernel each, for A/B comparisons)">,
    Option<"transposeKernels", "transpose-kernels", "bool", /*default=*/"true",
           "A linalg.transpose left as a copy that swaps the last two "
           "dimensions is a kernel moving 32 x 32 tiles through shared "
           "memory, reads and writes coalesced (=false: the loops of a "
           "leftover op, one thread an element; for A/B comparisons)">,
    Option<"splitK", "split-k", "bool", /*default=*/"true",
           "A matmul whose tiles have split_k > 1 is a batch matmul over "
           "slices of K summed by a second kernel (=false: the matmul stays "
           "whole, one kernel, as with window-kernels=false; for A/B "
           "comparisons)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Run the kernels on the CPU instead, for tests without a GPU: "
           "blocks in turn, each an OpenMP team of its threads (gpu.barrier "
           "is omp.barrier); SIMT kernels only">,
  ];
}

#endif // DLTUNE_TRANSFORMS_PASSES_TD
