// REQUIRES: ptxas
// GPU builds keep ptxas's resource report and check it against the limits
// of the device the driver reports: over-limit configurations are invalid
// before anything is measured. The "driver" here is a test stand-in
// (%fake_cuda: answers device queries, runs no kernel); its register file
// is shrunk to 16384 registers per block so that a 256-thread block of
// 8x8 register tiles exceeds it. The chip comes from the reported compute capability.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune-opt %s --dltune-annotate=target=gpu -o %t/kernel.mlir
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_CC=80 dltune worker build --kernel %t/kernel.mlir --config "block_m=64,block_n=64,thread_m=4,thread_n=4,tile_k=16,vector=4,pad=0,stages=1,interleave=0" --out %t/ok.so | FileCheck %s --check-prefix=OK
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda DLTUNE_FAKE_CUDA_REGISTERS_PER_BLOCK=16384 dltune worker build --kernel %t/kernel.mlir --config "block_m=128,block_n=128,thread_m=8,thread_n=8,tile_k=8,vector=4,pad=4,stages=2,interleave=1" --out %t/big.so 2>/dev/null > %t/big.json; test $? = 2
// RUN: FileCheck %s --check-prefix=LIMIT < %t/big.json
// The tuner passes the chip and the limits itself (no driver in the worker):
// RUN: dltune worker build --kernel %t/kernel.mlir --chip sm_90 --gpu-limits registers_per_block=16384 --config "block_m=128,block_n=128,thread_m=8,thread_n=8,tile_k=8,vector=4,pad=4,stages=2,interleave=1" --out %t/big2.so 2>/dev/null > %t/big2.json; test $? = 2
// RUN: FileCheck %s --check-prefix=LIMIT < %t/big2.json
// RUN: not dltune worker build --kernel %t/kernel.mlir --gpu-limits warps=4 --config "block_m=64,block_n=64,thread_m=4,thread_n=4,tile_k=16,vector=4,pad=0,stages=1,interleave=0" --out %t/bad.so 2>/dev/null | FileCheck %s --check-prefix=BADLIMITS
// RUN: dltune worker build --kernel %t/kernel.mlir --chip sm_80 --config "block_m=64,block_n=64,thread_m=4,thread_n=4,tile_k=16,vector=4,pad=0,stages=1,interleave=0" --out %t/opt.so | FileCheck %s --check-prefix=OPTION

// OK: "chip":"sm_80"
// OK-SAME: "gpu_resources":[{"barriers":1,"dynamic_shared_bytes":0,"kernel":"dltune_task_kernel","registers":{{[1-9][0-9]*}},"shared_bytes":8192,"spill_load_bytes":0,"spill_store_bytes":0,"stack_bytes":0,"threads_per_block":256}]
// LIMIT: {"error":"kernel 'dltune_task_kernel' exceeds the device's limits: {{[0-9]+}} registers per thread x 256 threads = {{[0-9]+}} registers per block (limit 16384)","gpu_resources":[{
// OPTION: "chip":"sm_80"
// BADLIMITS: {"error":"GPU limits: unknown limit 'warps'"}

func.func @dltune_task(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
