#!/usr/bin/env bash
# The main job: builds dltune, then annotates the example kernels (a matmul
# and a small conv net) with dltune's default search spaces and autotunes
# them on this CPU with a small budget: every candidate is built and timed
# in a worker process, checked against the untuned lowering and recorded in
# a SQLite database. Prints one table: untuned time, best time, speed-up,
# trials, failures, tuning time per task.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh > build.log 2>&1 || { tail -50 build.log; exit 1; }
rm -f build/main-job.db build/main-job.db-wal build/main-job.db-shm
rm -rf build/main-job.db.work
build/bin/dltune tune examples/matmul.mlir examples/convnet.mlir \
  --trials "${DLTUNE_TRIALS:-24}" --jobs 2 --db build/main-job.db 2> build/main-job.log
echo
build/bin/dltune db summary --db build/main-job.db
# The same database as a page of charts (open it in a browser).
build/bin/dltune report --db build/main-job.db -o build/main-job-report.html
