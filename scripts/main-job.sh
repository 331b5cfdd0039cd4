#!/usr/bin/env bash
# The main job: builds dltune, annotates the example kernels with dltune's
# default search spaces and configurations, applies them, JIT-runs every
# kernel on the CPU next to the untuned lowering and prints a before/after
# table (every tuned result is checked against the untuned one).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh > build.log 2>&1 || { tail -50 build.log; exit 1; }
build/bin/dltune compare examples/matmul.mlir examples/convnet.mlir --repeat 10
