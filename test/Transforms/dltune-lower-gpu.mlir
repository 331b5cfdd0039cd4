// RUN: dltune-opt %s --dltune-apply --dltune-lower-gpu="chip=sm_90 format=isa" | FileCheck %s --check-prefix=PTX
// RUN: not dltune-opt %s --dltune-lower-gpu="format=elf" 2>&1 | FileCheck %s --check-prefix=BADFORMAT

// Block/thread mapping, NVVM lowering and PTX embedded in the module. A
// cubin needs ptxas; see dltune-lower-gpu-cubin.mlir.
// PTX: gpu.launch_func <{{.*}}> @matmul_kernel::@matmul_kernel blocks in ({{.*}}) threads in ({{.*}})
// PTX: gpu.binary @matmul_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// PTX-SAME: assembly = "{{.*}}.target sm_90
// BADFORMAT: dltune-lower-gpu: format must be isa, bin or fatbin, got 'elf'
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {dltune.target = "gpu",
                      dltune.config = #dltune.config<block_m = 64, block_n = 64, thread_m = 4,
                                                     thread_n = 4, tile_k = 16, promote = 0, unroll = 1>}
       ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

