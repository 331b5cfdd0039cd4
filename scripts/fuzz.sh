#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang 22 (plus ASan and UBSan)
# into build-fuzz and fuzzes each named target (default: all) for
# FUZZ_SECONDS (default 600), one at a time, in one process. New inputs go
# to build-fuzz/corpus/<target>, crashes to build-fuzz/artifacts/<target>/.
# With MERGE=1, inputs that add coverage are merged into fuzz/corpus/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(constraint_expr attr_parser jsonl_import kt_import tophub_import onnx_import npy_parser pass_options study_settings)
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" -DCMAKE_C_FLAGS_RELEASE="-O1 -g1" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit -DDLTUNE_SANITIZE=ON -DDLTUNE_FUZZ=ON
fi
ninja -C build-fuzz -j "${DLTUNE_BUILD_JOBS:-2}" dltune-fuzzers
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/artifacts/$t"
  dict=()
  [ -f "fuzz/dicts/$t.dict" ] && dict=("-dict=fuzz/dicts/$t.dict")
  echo "== $t: ${FUZZ_SECONDS:-600} s"
  # -jobs=1 runs one fuzzing process that logs to fuzz-0.log in the current
  # directory: keep that out of the source tree.
  (cd "build-fuzz/artifacts/$t" && "../../bin/$t-fuzzer" ../../corpus/$t "../../../fuzz/corpus/$t" \
    "${dict[@]/#-dict=/-dict=../../../}" -max_total_time="${FUZZ_SECONDS:-600}" \
    -jobs=1 -workers=1 -timeout=30 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix=./)
  cat "build-fuzz/artifacts/$t/fuzz-0.log"
  if [ "${MERGE:-0}" = 1 ]; then
    "build-fuzz/bin/$t-fuzzer" -merge=1 "fuzz/corpus/$t" "build-fuzz/corpus/$t"
  fi
done
