// Every failure class is recorded as such, and tuning goes on.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env DLTUNE_INJECT_FAULT=crash dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/crash.db trials=2 min-time-ms=5 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/crash.db | FileCheck %s --check-prefix=CRASH
// RUN: env DLTUNE_INJECT_FAULT=hang dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/hang.db trials=2 min-time-ms=5 quiet=true run-timeout=1" -o /dev/null
// RUN: dltune db summary --db %t/hang.db | FileCheck %s --check-prefix=HANG
// RUN: env DLTUNE_INJECT_FAULT=wrong dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/wrong.db trials=2 min-time-ms=5 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/wrong.db | FileCheck %s --check-prefix=WRONG
// RUN: env DLTUNE_INJECT_FAULT=oom dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/oom.db trials=2 min-time-ms=5 quiet=true mem-limit-mb=1024" -o /dev/null
// RUN: dltune db summary --db %t/oom.db | FileCheck %s --check-prefix=OOM
// RUN: env DLTUNE_INJECT_FAULT=invalid_config dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/invalid.db trials=2 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/invalid.db | FileCheck %s --check-prefix=INVALID
// RUN: env DLTUNE_INJECT_FAULT=compile_error dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/cerr.db trials=2 quiet=true" -o /dev/null
// RUN: dltune db summary --db %t/cerr.db | FileCheck %s --check-prefix=CERR
// RUN: env DLTUNE_INJECT_FAULT=compile_hang dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/chang.db trials=2 quiet=true build-timeout=1" -o /dev/null
// RUN: dltune db summary --db %t/chang.db | FileCheck %s --check-prefix=CHANG
// A mix: some candidates crash or compute wrong results, the rest are timed
// and the best of those is attached.
// RUN: env DLTUNE_INJECT_FAULT=crash:0.3,wrong:0.3 DLTUNE_INJECT_SEED=8 dltune-opt %s --dltune-annotate --dltune-autotune="db=%t/mix.db trials=10 min-time-ms=5 quiet=true" | FileCheck %s --check-prefix=MIX
// RUN: dltune db summary --db %t/mix.db | FileCheck %s --check-prefix=MIXDB

// CRASH: 2 2 - runtime_crash=2
// HANG: 2 2 - run_timeout=2
// WRONG: 2 2 - wrong_result=2
// OOM: 2 2 - out_of_memory=2
// INVALID: 2 2 - invalid_config=2
// CERR: 2 2 - compile_error=2
// CHANG: 2 2 - compile_timeout=2
// MIX: linalg.matmul {dltune.config = #dltune.config<
// MIXDB: 10 {{[1-9]}} {{[0-9.]+}} runtime_crash={{[0-9]+}} wrong_result={{[0-9]+}}

func.func @mm(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
