#!/usr/bin/env bash
# dltune on a lent GPU machine in one device call (../shared/gpu/README.md; docs/testing.md, "On a
# lent GPU machine"): the lit tests that need a CUDA driver, then bench/gpu.py (dltune beside cuBLAS).
#
#   bash scripts/gpu-check.sh pack      # here, after a build: .gpu/ = dltune bundle, lit, FileCheck,
#                                       # not, count, the commit (3-5 min; .gpu/ is git-ignored locally)
#   bash scripts/gpu-check.sh device    # on the GPU machine, from the repository root; results in $OUT
#   bash scripts/gpu-check.sh lit [--tools DIR] [--lib DIR] FILE...
#                                       # the same lit invocation on FILEs (test dirs too) against
#                                       # build/bin or DIR, the tests run with LD_LIBRARY_PATH=--lib
#
# The device call: `run` with carry [".gpu"] and command `bash scripts/gpu-check.sh device`
# (timeout_s 600; without the models step it ended within about 8 minutes, so give the
# matmul bench fewer cases or GPU_BENCH_TIMEOUT=150 beside it), then `give_back`. GPU_BENCH_ARGS adds options to
# bench/gpu.py, e.g. GPU_BENCH_ARGS="--tune-trials 32 --cases mm_1024" bash scripts/gpu-check.sh device;
# warpgroup MMA beside the default on the fp16 cases (measured 2026-11-30; the default of large
# f16 grids since): GPU_BENCH_ARGS='--precision fp16 --configs
# wg:wgmma=1,tile_k=64,warp_n=128;wg1:wgmma=1,tile_k=64,warp_m=128,warp_n=128' (docs/gpu.md);
# TF32 warpgroup MMA (B transposed per call; built 2026-11-30, never measured) beside the TF32
# default: GPU_BENCH_ARGS='--precision tf32 --configs
# tg:wgmma=1,tile_k=32,warp_n=128;tg1:wgmma=1,tile_k=32,warp_m=128,warp_n=128;tg2:wgmma=1,tile_k=32,block_n=256,warp_n=256'
# (block_n 256: offered with wgmma since 2026-11-30, never measured);
# models tuned with the operator scheduler beside the default and PyTorch (48 trials of ResNet-18
# b1 and the encoder b1 took 285 s on 2026-11-30): GPU_MODELS_ARGS='--models resnet18_b1,encoder_b1
# --precision fp32 --tune-trials 48 --tune-timeout 140' GPU_MODELS_TIMEOUT=300;
# GPU_STEPS (default "lit bench models") picks the steps, e.g. GPU_STEPS=models for the above;
# GPU_STEPS=breakdown times each task's kernel of GPU_BREAKDOWN_MODELS (default "encoder_b32
# mobilenet_v2_b32") alone in fp32 and TF32 (`dltune run --breakdown`; GPU_BREAKDOWN_TIMEOUT, default
# 200 s);
# L2 flushed before each timed call, dltune and cuBLAS/PyTorch alike (never measured): --cold in
# GPU_BENCH_ARGS or GPU_MODELS_ARGS; GPU_BENCH_TIMEOUT (seconds, default 240) bounds it; GPU_MODELS_ARGS and GPU_MODELS_TIMEOUT (default
# 200) do the same for bench/gpu_models.py; GPU_MODELS_ARGS='--models resnet18_b1,resnet18_b32
# --variants implicit-gemm=false' times ResNet-18 with its convolutions' patch gathers as kernels of their
# own beside the implicit GEMMs (since 2026-11-29, never measured); GPU_MODELS_ARGS='--models
# mobilenet_v2_b1,mobilenet_v2_b32 --variants window-kernels=false' times MobileNet-v2's depthwise
# convolutions as one-thread-an-output loops beside the window kernels (never measured either);
# GPU_MODELS_ARGS='--models encoder_b1,encoder_b32 --variants transpose-views=false;fuse-epilogues=false'
# times the encoder with its head transposes as copies, then with softmax and layer norm as a kernel
# a reduction and loops (fuse-epilogues=false also unfuses the matmul epilogues; never measured);
# split-K on skinny GEMMs (ResNet-18's last 3x3 convolutions at batch 1, measured 2026-11-30;
# the default of such GEMMs since; a model's split matmuls whole beside it: GPU_MODELS_ARGS='--variants
# split-k=false'):
# GPU_BENCH_ARGS='--cases 49x512x4608,64x512x4608 --configs sk2:split_k=2;sk4:split_k=4;sk8:split_k=8'
# (docs/gpu.md, "Split-K"). The checkout plus .gpu exceed the 64 MiB a call
# may send: move bench/results out of the checkout for the call and back right after.
# In $OUT: summary.txt and results.tar.gz, which holds device.txt (nvidia-smi), unbundle.log,
# lit.log, gpu-bench.log, gpu-bench/ (gpu.md, gpu.csv, gpu.json, logs-and-cases.tar.gz: the .mlir
# files and dltune's logs), gpu-models.log, gpu-models/ (gpu_models.md, .csv, .json, logs.tar.gz).
# One step's failure does not stop the next; the exit status is 1 if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
GPU=$ROOT/.gpu
SHARED=${GPU_SHARED:-$ROOT/../shared/gpu}
LLVM=/usr/lib/llvm-22

pack() {
  set -e
  grep -qxF /.gpu/ .git/info/exclude 2>/dev/null || echo /.gpu/ >> .git/info/exclude
  bash "$SHARED/bundle.sh" build "$GPU"
  # lit (its Python package, and lit.py to run it by hand) and the LLVM tools the tests pipe into.
  # FileCheck, not and count need libz3 (stubbed by the bundle), zlib and zstd: /opt/dltune/lib has
  # all three.
  rm -rf "$GPU/lit" "$GPU/tools"
  cp -r "$LLVM/utils/lit/lit" "$GPU/lit"
  find "$GPU/lit" -name __pycache__ -prune -exec rm -rf {} +
  printf '%s\n' '#!/usr/bin/env python3' 'import os, sys' \
    'sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))' \
    'from lit.main import main' 'if __name__ == "__main__":' '    main()' > "$GPU/lit.py"
  mkdir -p "$GPU/tools"
  cp "$LLVM/bin/FileCheck" "$LLVM/bin/not" "$LLVM/bin/count" "$GPU/tools/"
  { git rev-parse HEAD | tr -d '\n'; git diff --quiet HEAD -- || printf -- '-dirty'; echo; } > "$GPU/commit"
  du -sh "$GPU"
  # What a device call sends: tracked and untracked-not-ignored files, plus .gpu (64 MiB in all).
  local tree gpu results mib=1048576
  tree=$( (git ls-files -coz --exclude-standard | du -cb --files0-from=- 2>/dev/null || true) | tail -1 | cut -f1)
  gpu=$(du -sb "$GPU" | cut -f1)
  results=$(du -sb bench/results 2>/dev/null | cut -f1 || echo 0)
  echo "to send: checkout $((tree / mib)) MiB + .gpu $((gpu / mib)) MiB = $(((tree + gpu) / mib)) MiB (limit 64 MiB)"
  if [ $((tree + gpu)) -ge $((64 * mib)) ]; then
    echo "too much for one device call by $(((tree + gpu - 64 * mib + mib - 1) / mib)) MiB (.gpu itself is complete): move" \
         "bench/results ($((results / mib)) MiB) out of the checkout for the call and back right after" >&2
    return 1
  fi
}

# lit from .gpu on the given test files. lit looks for a config upwards from each file and finds
# test/lit.cfg.py, which needs the site variables a build writes into build/test/lit.site.cfg.py;
# as llvm-lit does, the builtin parameter config_map makes lit load a site config of ours there,
# written to a temporary folder (also the exec root, where %t lives).
#   [LIT_TIMEOUT=SECONDS] [FAKE_CUDA=LIB] run_lit TOOLS_DIR LLVM_TOOLS_DIR LD_LIBRARY_PATH_FOR_TESTS FILE...
run_lit() {
  local tools=$1 llvm_tools=$2 libdir=$3 tmp ptxas rc
  shift 3
  tmp=$(mktemp -d)
  mkdir -p "$tmp/obj/test"
  ptxas=$(command -v ptxas || { [ -x /usr/local/cuda/bin/ptxas ] && echo /usr/local/cuda/bin/ptxas; } || true)
  cat > "$tmp/lit.site.cfg.py" <<EOF
config.dltune_src_root = "$ROOT"
config.dltune_obj_root = "$tmp/obj"
config.dltune_tools_dir = "$tools"
config.llvm_tools_dir = "$llvm_tools"
config.ptxas = "$ptxas"
config.fake_cuda = "${FAKE_CUDA:-}"
if "$libdir":
    config.environment["LD_LIBRARY_PATH"] = "$libdir"
lit_config.load_config(config, "$ROOT/test/lit.cfg.py")
EOF
  cat > "$tmp/lit-driver.py" <<EOF
import os, sys
sys.path.insert(0, "$GPU")
from lit.main import main
if __name__ == "__main__":
    main({"config_map": {os.path.normcase(os.path.realpath("$ROOT/test/lit.cfg.py")): "$tmp/lit.site.cfg.py"}})
EOF
  echo "lit: tools $tools, LLVM tools $llvm_tools, ptxas ${ptxas:-none}, LD_LIBRARY_PATH ${libdir:-unset}"
  # Python itself runs without the bundle's (Debian) libraries; the tests get them from the site config.
  timeout "${LIT_TIMEOUT:-0}" env -u LD_LIBRARY_PATH python3 "$tmp/lit-driver.py" -v "$@"
  rc=$?
  rm -rf "$tmp"
  return $rc
}

# `dltune run --breakdown` of each model of GPU_BREAKDOWN_MODELS (default: the encoder and
# MobileNet-v2 at batch 32, where TF32 was slower than fp32 on 2026-11-30), fp32 then TF32.
breakdowns() {
  local model precision rc=0
  for model in ${GPU_BREAKDOWN_MODELS:-encoder_b32 mobilenet_v2_b32}; do
    for precision in fp32 tf32; do
      echo "== $model $precision"
      dltune run "bench/gpu_models/$model.mlir" --entry main --target gpu --default-config \
        --breakdown --warmup 3 --repeat 20 $( [ $precision = tf32 ] && echo --tf32 ) || rc=1
    done
  done
  return $rc
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  mkdir -p "$OUT"
  local failed=0 start=$SECONDS files
  : > "$OUT/summary.txt"
  step() { # step NAME LOG COMMAND...: runs, logs, records the exit status; never stops the script
    local name=$1 log=$2 rc t=$SECONDS
    shift 2
    echo "== $name: $*"
    "$@" > "$log" 2>&1
    rc=$?
    echo "== $name: exit status $rc, $((SECONDS - t)) s (log: ${log#"$OUT"/})" | tee -a "$OUT/summary.txt"
    [ $rc = 0 ] || failed=1
    return $rc
  }
  step unbundle "$OUT/unbundle.log" timeout 90 bash "$GPU/unbundle.sh" "$GPU/dltune-bundle.tar.xz"
  export LD_LIBRARY_PATH=/opt/dltune/lib PATH=/opt/dltune/bin:/usr/local/cuda/bin:$PATH
  {
    nvidia-smi -L
    nvidia-smi --query-gpu=name,compute_cap,clocks.max.sm,memory.total --format=csv
    echo "dltune: $(dltune --version 2>&1); commit $(cat "$GPU/commit" 2>/dev/null)"
    ptxas --version | tail -1
  } > "$OUT/device.txt" 2>&1
  cat "$OUT/device.txt"
  # (a) the lit tests that need a GPU; lit counts them unsupported when it sees no /dev/nvidia*.
  local steps=" ${GPU_STEPS:-lit bench models} " name
  for name in $steps; do
    case $name in
      lit | bench | models | breakdown) ;;
      *) echo "== GPU_STEPS: unknown step '$name' (known: lit bench models breakdown, space-separated)" \
           | tee -a "$OUT/summary.txt"; failed=1 ;;
    esac
  done
  if [[ $steps == *" lit "* ]]; then
    mapfile -t files < <(grep -rlF 'REQUIRES: cuda-driver' test | sort)
    LIT_TIMEOUT=120 step lit "$OUT/lit.log" run_lit /opt/dltune/bin "$GPU/tools" /opt/dltune/lib "${files[@]}"
    if grep -qE '^ *Unsupported *: ' "$OUT/lit.log"; then
      echo "== lit: some GPU tests were unsupported (no /dev/nvidia*?)" | tee -a "$OUT/summary.txt"
      failed=1
    fi
    tail -n 15 "$OUT/lit.log"
  fi
  # (b) dltune beside cuBLAS; PyTorch runs without the bundle's libraries.
  if [[ $steps == *" bench "* ]]; then
    # shellcheck disable=SC2086  # GPU_BENCH_ARGS is split into options on purpose
    step gpu-bench "$OUT/gpu-bench.log" timeout "${GPU_BENCH_TIMEOUT:-240}" env -u LD_LIBRARY_PATH python3 bench/gpu.py \
      --out "$OUT/gpu-bench" --dltune-bin /opt/dltune/bin --dltune-lib /opt/dltune/lib \
      --commit "$(cat "$GPU/commit" 2>/dev/null || echo unknown)" ${GPU_BENCH_ARGS:-}
    tail -n 25 "$OUT/gpu-bench.log"
  fi
  # (c) whole models (bench/gpu_models/: MobileNet-v2, ResNet-18, the encoder; batch 1 and 32) beside
  # PyTorch eager.
  if [[ $steps == *" models "* ]]; then
    # shellcheck disable=SC2086  # GPU_MODELS_ARGS is split into options on purpose
    step gpu-models "$OUT/gpu-models.log" timeout "${GPU_MODELS_TIMEOUT:-200}" env -u LD_LIBRARY_PATH \
      python3 bench/gpu_models.py --out "$OUT/gpu-models" --dltune-bin /opt/dltune/bin \
      --dltune-lib /opt/dltune/lib --commit "$(cat "$GPU/commit" 2>/dev/null || echo unknown)" ${GPU_MODELS_ARGS:-}
    tail -n 15 "$OUT/gpu-models.log"
    # --tune-trials: the tuned files, databases and logs travel in the archive, the built
    # candidates (<db>.work) stay behind.
    rm -rf "$OUT"/gpu-models/tune/*.work
    [ -d "$OUT/gpu-models/logs" ] && tar -C "$OUT/gpu-models" -czf "$OUT/gpu-models/logs.tar.gz" \
      logs $( [ -d "$OUT/gpu-models/tune" ] && echo tune ) && rm -rf "$OUT/gpu-models/logs" "$OUT/gpu-models/tune"
  fi
  # (d) where a model's GPU time goes: `dltune run --breakdown` (each task's kernel timed alone
  # with CUDA events) of GPU_BREAKDOWN_MODELS in fp32 and TF32; not in the default steps.
  if [[ $steps == *" breakdown "* ]]; then
    step breakdown "$OUT/breakdown.log" timeout "${GPU_BREAKDOWN_TIMEOUT:-200}" breakdowns
    tail -n 40 "$OUT/breakdown.log"
  fi
  # The device tool brings back a limited number of files: the per-command logs and the .mlir
  # cases travel as one archive, so that gpu.md and gpu.json come back too.
  if [ -d "$OUT/gpu-bench" ]; then
    tar -C "$OUT/gpu-bench" -czf "$OUT/gpu-bench/logs-and-cases.tar.gz" logs mlir 2>/dev/null \
      && rm -rf "$OUT/gpu-bench/logs" "$OUT/gpu-bench/mlir"
  fi
  echo "== device mode: $((SECONDS - start)) s; $( [ $failed = 0 ] && echo 'every step passed' || echo 'FAILED steps above')" \
    | tee -a "$OUT/summary.txt"
  # The device tool brings back about eight files a call (2026-11-30: the
  # models' tables of a full run were left out): everything but the
  # summary travels as one archive.
  local archive
  archive=$(mktemp -d)/results.tar.gz
  tar -C "$OUT" --exclude=./summary.txt -czf "$archive" . \
    && find "$OUT" -mindepth 1 -maxdepth 1 ! -name summary.txt -exec rm -rf {} + \
    && mv "$archive" "$OUT/results.tar.gz"
  return $failed
}

case ${1:-} in
  pack) pack ;;
  device) device ;;
  lit)
    shift
    tools=$ROOT/build/bin lib=
    while [ $# -gt 1 ]; do
      case $1 in --tools) tools=$2; shift 2 ;; --lib) lib=$2; shift 2 ;; *) break ;; esac
    done
    FAKE_CUDA=$(ls "$(dirname "$tools")"/lib/libdltune-fake-cuda.so 2>/dev/null) run_lit "$tools" "$GPU/tools" "$lib" "$@" ;;
  *) echo "usage: bash scripts/gpu-check.sh pack | device | lit [--tools DIR] [--lib DIR] FILE..." >&2; exit 2 ;;
esac
