#!/usr/bin/env bash
# Where a JIT-run model spends its time, by hot loop of the generated code (issue 39's "where the
# time goes" below the per-task breakdown: ops outside tuning tasks have no timer of their own).
#
#   bash scripts/profile-jit.sh MODEL.mlir [--top N] [-- DLTUNE-RUN-OPTIONS...]
#   e.g. bash scripts/profile-jit.sh resnet18.mlir -- --default-config --threads 1 --repeat 60 \
#            --input resnet18.input.npy
#
# Runs `dltune run MODEL.mlir --entry main ...` under `perf record -k 1`; LLVM's perf JIT listener
# (MLIR's ExecutionEngine turns it on; the dumps go to JITDUMPDIR) lets `perf inject --jit` name
# the JIT code. Prints the share of samples per symbol (compilation included: use enough
# --repeat), then the JIT function's hot segments: runs of sampled instructions (gaps of up to
# 40 unsampled ones), with their share of the JIT function's samples and top instructions, e.g. a
# segment of vfmadd231ps + vbroadcastss is a register-tiled FMA kernel, one of vmovups alone
# a copy. Needs perf (linux-perf) and perf_event_paranoid <= 2; not used by CI.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DLTUNE=${DLTUNE:-$ROOT/build/bin/dltune}
top=20
[ $# -ge 1 ] || { echo "usage: bash scripts/profile-jit.sh MODEL.mlir [--top N] [-- OPTIONS...]" >&2; exit 2; }
model=$1
shift
while [ $# -gt 0 ]; do
  case $1 in
    --top) top=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "profile-jit.sh: unknown option '$1' (dltune run options go after --)" >&2; exit 2 ;;
  esac
done
command -v perf > /dev/null || { echo "profile-jit.sh: perf not found (apt-get install linux-perf)" >&2; exit 1; }
[ -f "$model" ] || { echo "profile-jit.sh: no file '$model'" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export JITDUMPDIR=$work/jit
mkdir -p "$JITDUMPDIR"
perf record -q -k 1 -F 1999 -o "$work/perf.data" "$DLTUNE" run "$model" --entry main "$@" \
  > "$work/run.txt" 2>&1 || { cat "$work/run.txt" >&2; exit 1; }
tail -n 1 "$work/run.txt"
perf inject --jit -i "$work/perf.data" -o "$work/perf.jit.data" 2> /dev/null
echo "== samples by symbol (top 12)"
# (no early exit in the pipelines: a reader that stops would fail them under pipefail)
perf report -i "$work/perf.jit.data" --sort dso,sym --stdio 2> /dev/null \
  | awk '!/^#/ && NF && n < 12 {print; n++}'
jit_fn=$(perf report -i "$work/perf.jit.data" --sort dso,sym --stdio 2> /dev/null \
  | awk '/jitted-/ && !found {print $NF; found = 1}')
[ -n "$jit_fn" ] || { echo "profile-jit.sh: no JIT samples (is the perf JIT listener on?)" >&2; exit 1; }
echo "== hot segments of the JIT function '$jit_fn' (share of its samples; top instructions)"
perf annotate -i "$work/perf.jit.data" "$jit_fn" --stdio 2> /dev/null > "$work/annotate.txt"
python3 - "$work/annotate.txt" "$top" <<'EOF'
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.match(r'\s*([0-9.]+)\s*:\s*([0-9a-f]+):\s*(.*)', line)
    if m:
        rows.append((float(m.group(1)), int(m.group(2), 16), m.group(3).strip()))
rows.sort(key=lambda r: r[1])
segments, current, gap = [], [], 0
for r in rows:
    if r[0] > 0:
        current.append(r)
        gap = 0
    elif current:
        gap += 1
        if gap > 40:
            segments.append(current)
            current, gap = [], 0
if current:
    segments.append(current)
out = []
for seg in segments:
    share = sum(r[0] for r in seg)
    mix = {}
    for r in seg:
        op = r[2].split()[0] if r[2] else ''
        mix[op] = mix.get(op, 0) + r[0]
    top = sorted(mix.items(), key=lambda kv: -kv[1])[:5]
    out.append((share, seg[0][1], ', '.join(f'{op} {v:.1f}' for op, v in top)))
for share, start, mix in sorted(out, reverse=True)[: int(sys.argv[2])]:
    print(f'{share:5.1f}%  at 0x{start:x}: {mix}')
EOF
