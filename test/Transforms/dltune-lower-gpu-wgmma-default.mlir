// REQUIRES: ptxas
// The default configuration of a large f16 matmul on compute capability
// 9.0 is warpgroup MMA (since 2026-11-30; docs/gpu.md, "Warpgroup MMA"):
// it lowers to wgmma.mma_async fed by TMA copies, and ptxas assembles it
// for sm_90a without spills (two warpgroups, 256 threads, three stages of
// 128 x 64 and 64 x 128 tiles in 99328 bytes of dynamic shared memory).
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{chip=sm_90 format=isa})" | FileCheck %s --check-prefix=PTX
// PTX: cp.async.bulk.tensor.2d
// PTX: wgmma.mma_async
// RUN: dltune-opt %s --pass-pipeline="builtin.module(dltune-annotate{target=gpu default-config=true},dltune-apply,dltune-lower-gpu{chip=sm_90 format=bin})" | FileCheck %s
// CHECK: dltune.kernel_resources = [{barriers = 1 : i64, dynamic_shared_bytes = 99328 : i64, kernel = "ffn_kernel", registers = {{[1-9][0-9]*}} : i64, shared_bytes = {{[0-9]+}} : i64, spill_load_bytes = 0 : i64, spill_store_bytes = 0 : i64, stack_bytes = 0 : i64, threads_per_block = 256 : i64}]

func.func @ffn(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>) -> tensor<4096x3072xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%c : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  return %r : tensor<4096x3072xf32>
}
