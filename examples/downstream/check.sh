#!/usr/bin/env bash
# Installs the dltune build in BUILD_DIR into a fresh prefix, builds this
# example against the installed package alone, and runs it: my-opt with
# annotate -> autotune (small budget) -> apply-best -> lower, and my-tuner
# through the C++ API. The test suite runs it (ctest: downstream-example), so
# a broken install rule, package config or API fails CI.
#
#   examples/downstream/check.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "$0")" && pwd)
filecheck=${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

step() { echo "== $*"; }

step "install into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/dltune bin/dltune-opt include/dltune/DLTune.h \
         include/dltune/Dialect/DLTuneAttrs.h.inc lib/cmake/dltune/dltuneConfig.cmake \
         lib/libDLTuneTuning.a; do
  [ -e "$work/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
# The installed tool runs without the build tree.
"$work/prefix/bin/dltune" --version > /dev/null

step "configure and build the example with -Ddltune_DIR only"
cmake -G Ninja -S "$here" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -Ddltune_DIR="$work/prefix/lib/cmake/dltune" > "$work/configure.log"
ninja -C "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }

step "my-opt: annotate -> autotune -> apply-best -> lower"
cd "$work"
./build/my-opt "$here/matmul.mlir" --dltune-annotate="threads=1" \
  --dltune-autotune="db=my.db trials=4 confirm-top=2 quiet" -o /dev/null
./build/my-opt "$here/matmul.mlir" --dltune-annotate="threads=1" \
  --dltune-apply-best="db=my.db" --my-require-configs \
  --dltune-apply --dltune-strip --dltune-lower-cpu -o lowered.mlir 2> remarks.txt
"$filecheck" --check-prefix=REMARK --input-file remarks.txt "$here/checks.txt"
"$filecheck" --check-prefix=LOWERED --input-file lowered.mlir "$here/checks.txt"
# Without a database entry the example's own pass refuses to go on.
if ./build/my-opt "$here/matmul.mlir" --dltune-annotate --my-require-configs \
     -o /dev/null 2> refused.txt; then
  echo "my-require-configs accepted an unconfigured module"; exit 1
fi
"$filecheck" --check-prefix=REFUSED --input-file refused.txt "$here/checks.txt"

step "my-tuner: the C++ API"
./build/my-tuner "$here/matmul.mlir" api.db > api.txt
"$filecheck" --check-prefix=API --input-file api.txt "$here/checks.txt"
# A second run resumes from the database: nothing new is measured.
./build/my-tuner "$here/matmul.mlir" api.db > api2.txt
"$filecheck" --check-prefix=RESUMED --input-file api2.txt "$here/checks.txt"
step "ok"
