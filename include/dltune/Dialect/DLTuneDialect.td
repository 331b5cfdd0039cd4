//===- DLTuneDialect.td - dltune dialect definition --------*- tablegen -*-===//

#ifndef DLTUNE_DIALECT_TD
#define DLTUNE_DIALECT_TD

include "mlir/IR/OpBase.td"

def DLTune_Dialect : Dialect {
  let name = "dltune";
  let cppNamespace = "::mlir::dltune";
  let summary = "Tunable schedule knobs, search spaces and chosen configurations";
  let description = [{
    The `dltune` dialect describes how an operation may be scheduled and how
    it was chosen to be scheduled. It defines no operations: its attributes
    are attached to payload operations (linalg ops) as discardable attributes:

    * `dltune.space = #dltune.space<...>`: the knobs of the op's schedule,
      their candidate values, named parameters (op dimensions, target limits)
      and constraints between them;
    * `dltune.config = #dltune.config<...>`: one chosen value per knob. When
      the op also carries a space, the config must satisfy it;
    * `dltune.target = "cpu" | "gpu"`: the target the space was built for;
    * `dltune.schedule = @name`: the op is scheduled by the transform named
      sequence `@name` of the enclosing module, whose `transform.tune.knob`
      ops define the space (upstream interoperability);
    * `dltune.num_threads = N` (on `scf.forall`/`scf.parallel`, left by
      `--dltune-apply` from the `threads` knob): the OpenMP team size the
      loop runs with after `--dltune-lower-cpu`;
    * `dltune.gpu_kernel = {block_m = 64 : i64, ...}` (on `linalg.matmul` /
      `linalg.batch_matmul`, left by `--dltune-apply` for a GPU config): the
      tile sizes of the kernel `--dltune-lower-gpu` builds for the op;
    * `dltune.kernel_resources = [{kernel = ..., registers = ...}, ...]` (on
      `gpu.binary`, left by `--dltune-lower-gpu`): what ptxas reported.

    Example:

    ```mlir
    %0 = linalg.matmul {dltune.space = #dltune.space<
           knobs {tile_m = pow2<8, 64>, reg_m = [1, 2, 4, 8]},
           params {M = 512},
           constraints ["M % tile_m == 0", "tile_m % reg_m == 0"]>,
         dltune.config = #dltune.config<tile_m = 64, reg_m = 8>}
         ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
         outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kSpaceAttrName = "dltune.space";
    static constexpr ::llvm::StringLiteral kConfigAttrName = "dltune.config";
    static constexpr ::llvm::StringLiteral kTargetAttrName = "dltune.target";
    static constexpr ::llvm::StringLiteral kScheduleAttrName = "dltune.schedule";
    /// On a scheduled scf.forall: the OpenMP team size it runs with.
    static constexpr ::llvm::StringLiteral kNumThreadsAttrName = "dltune.num_threads";
    /// On a matmul scheduled for the GPU: the tile sizes of the kernel
    /// --dltune-lower-gpu builds for it (GpuMatmulKernel.h); on a depthwise
    /// convolution or a pooling op (or the generic pad folding made of it),
    /// its window kernel's (GpuWindowKernel.h).
    static constexpr ::llvm::StringLiteral kGpuKernelAttrName = "dltune.gpu_kernel";
    /// A unit attribute on an op or any ancestor (usually the module): its
    /// f32 matmuls may be computed on tensor cores as TF32 (10-bit
    /// mantissas in the products, f32 sums), as cuBLAS does with TF32 on.
    /// Off by default because it changes results.
    static constexpr ::llvm::StringLiteral kAllowTf32AttrName = "dltune.allow_tf32";

    void registerAttributes();
  }];
}

#endif // DLTUNE_DIALECT_TD
