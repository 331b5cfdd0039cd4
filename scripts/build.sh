#!/usr/bin/env bash
# Configures and builds dltune into ./build (Ninja, Release, against
# Debian's LLVM/MLIR 22). Installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
# Each MLIR translation unit needs ~350 MB and a few seconds; two jobs suit
# the 2-core, 24 GiB machines this project runs on.
ninja -C build -j "${DLTUNE_BUILD_JOBS:-2}"
