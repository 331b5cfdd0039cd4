// dltune run reads arguments from .npy files and writes results to them, so
// outputs can be compared with another framework (here NumPy).
// REQUIRES: onnx-python
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.arange(6, dtype=np.float32).reshape(2, 3)); np.save('%t/b.npy', np.full((2, 3), 0.5, np.float32)); np.save('%t/wrong.npy', np.zeros((3, 2), np.float32)); np.save('%t/int.npy', np.zeros((2, 3), np.int64))"
// RUN: dltune run %s --entry f --repeat 1 --warmup 0 --input %t/a.npy --input %t/b.npy --save-output %t/out.npy
// RUN: %python -c "import numpy as np; o = np.load('%t/out.npy'); assert o.dtype == np.float32 and o.shape == (2, 3), o; assert (o == np.arange(6).reshape(2, 3) * 0.5 + 1).all(), o; print('npy ok')" | FileCheck %s --check-prefix=OK
// OK: npy ok

// RUN: not dltune run %s --entry f --input %t/wrong.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: dltune: error: argument #0 is 2x3xf32, but '{{.*}}wrong.npy' holds 3x2xf32
// RUN: not dltune run %s --entry f --input %t/int.npy 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: argument #0 is 2x3xf32, but '{{.*}}int.npy' holds 2x3xi64
// RUN: printf 'garbage' > %t/garbage.npy
// RUN: not dltune run %s --entry f --input %t/garbage.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: npy: '{{.*}}garbage.npy': npy: not a .npy file
// RUN: not dltune run %s --entry f --input %t/a.npy --input %t/b.npy --input %t/a.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: 3 input files for 2 arguments
// RUN: not dltune run %s --entry f --save-output %t/x.npy --save-output %t/y.npy 2>&1 | FileCheck %s --check-prefix=OUTS
// OUTS: 2 output files for 1 results of 'f'

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%empty : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %one : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
