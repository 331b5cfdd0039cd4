#!/usr/bin/env bash
# Builds dltune and runs every test: the lit suite (dialect, passes, CPU
# integration runs, GPU compile tests where ptxas exists) and the GoogleTest
# unit tests, all through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j 2
