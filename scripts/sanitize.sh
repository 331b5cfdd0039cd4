#!/usr/bin/env bash
# Builds dltune with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DDLTUNE_SANITIZE=ON, g++) into build-asan and runs the whole test suite
# through ctest: lit, GoogleTest and the fuzz corpora. Any ASan or UBSan
# report fails the test that triggered it. Times: docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Debian's libMLIR.so is not instrumented: MLIR allocator slabs that
# instrumented inline code poisons and library code then fills would be
# reported as use-after-poison, and LLVM's global state as leaks.
# handle_sigfpe=0: test kernels divide by zero on purpose (test/Autotune/
# failed-task.mlir) and the worker must die of SIGFPE, which the parent
# reports as runtime_crash; ASan's handler would exit with code 1 instead.
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0:handle_sigfpe=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
if [ ! -f build-asan/build.ninja ]; then
  # -O1 -g1: quicker to build than -O3, and line numbers in reports.
  cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit -DDLTUNE_SANITIZE=ON
fi
ninja -C build-asan -j "${DLTUNE_BUILD_JOBS:-2}"
cd build-asan
ctest --output-on-failure -j "${DLTUNE_TEST_JOBS:-2}"
