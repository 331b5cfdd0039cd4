// scheduler=survey in a live run (docs/trimmer.md): epochs of one slot per
// task; the run stops by the rate rule or its budget, and the options of
// another scheduler are refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dltune tune %s --scheduler survey --slot-trials 4 --trials 40 --threads 1 --confirm-top 0 --db %t/s.db 2> %t/log.txt | FileCheck %s
// CHECK: model latency (tuned ops x task latency)
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/s.db scheduler=survey survey-phi=-0.5 slot-trials=4 trials=8 confirm-top=0 quiet" -o /dev/null
// RUN: not dltune tune %s --scheduler round-robin --survey-phi -0.5 --db %t/x.db 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: survey-phi and survey-printed-rule apply to scheduler survey only
// RUN: not dltune tune %s --scheduler survey --survey-phi inf --db %t/x.db 2>&1 | FileCheck %s --check-prefix=INF
// INF: survey-phi

// entry: the model timed end to end (JIT) with the best configurations so
// far before the first epoch and after each, and the rule on that latency.
// RUN: dltune tune %s --scheduler survey --entry mm --slot-trials 4 --trials 40 --threads 1 --confirm-top 0 --db %t/e.db 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMED
// TIMED: model: timed end to end {{[0-9.]+}} ms (sum of its tasks {{[0-9.]+}} ms), 1 measurements
// TIMED: model: timed end to end {{[0-9.]+}} ms (sum of its tasks {{[0-9.]+}} ms), 5 measurements
// TIMED: model: tuning stopped: {{(scheduler stopped: the rate rule \(Eq. 2, phi -0.25\) on the model timed end to end|trial budget spent)$}}
// RUN: dltune-opt %s --dltune-annotate="threads=1" --dltune-autotune="db=%t/p.db scheduler=survey entry=mm slot-trials=4 trials=12 confirm-top=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: model: timed end to end
// A model without that function is tuned on the sum, with a warning.
// RUN: dltune tune %s --scheduler survey --entry nosuch --slot-trials 4 --trials 12 --threads 1 --confirm-top 0 --db %t/n.db 2>&1 >/dev/null | FileCheck %s --check-prefix=NOFN
// NOFN: warning: model: the end-to-end timing failed (this module has no function @nosuch); the run goes on with the sum of task latencies
// NOFN-NOT: timed end to end {{[0-9]}}
// RUN: not dltune study create s %s --entry mm --db %t/x.db 2>&1 | FileCheck %s --check-prefix=STUDY
// STUDY: --entry is not a study option

func.func @mm(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<32x32xf32>
  return %m : tensor<32x32xf32>
}
