// A small model's host side against %fake_cuda (device memory on the host,
// no kernel ever runs): the JIT finds every symbol its host code calls (no
// host memrefCopy any more), the weights, intermediate buffers and the
// result it allocates go through the runtime, the result is copied out and
// saved, and the check against the CPU fails because nothing computed it.
// No GPU was involved; test/Integration/gpu-model-device.mlir runs the same
// model on one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_CUDA_DRIVER=%fake_cuda not dltune run %S/../Integration/gpu-model-device.mlir --entry model --target gpu --check --json --repeat 2 --save-output %t/out.npy | FileCheck %s
// RUN: head -c 6 %t/out.npy | od -A n -t x1 | FileCheck %s --check-prefix=NPY
// CHECK: {"check":"failed","entry":"model",{{.*}}"repeats":2
// NPY: 93 4e 55 4d 50 59
