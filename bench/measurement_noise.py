#!/usr/bin/env python3
"""Measurement noise: the tuner's measure worker with and without anchored
timing (lib/Execution/AnchoredTiming.cpp), side by side in one run.

On these VMs the same kernel runs up to 2x slower for a fraction of a second
to seconds at a time (docs/design.md, "Timing on a shared machine"). The
measure worker either times the candidate plainly (--anchor-tolerance 0 in
the tuner) or between blocks of an anchor (dltune's default config), keeping
a block only when the anchor ran within 10% of its fastest time.

For each kernel, `dltune tune --trials 8 --strategy random` sets up the task
(kernel, reference outputs) and gives configurations: the default (also the
anchor), the best other and a middling one. Each round then runs one plain
and one anchored measure worker per configuration, alternating, in fresh
processes; the anchored ones get the anchor's fast-phase time from the earlier
workers' reports, as the tuner's measurer passes it on. Per configuration and mode: the median
over processes, min, max, spread (max - min) / min, and the share of
processes within 5% of the fastest process of either mode.

Writes bench/results/measurement_noise/measurement_noise.{csv,txt}.
Usage: python3 bench/measurement_noise.py [--build build] [--rounds 12]
"""
import argparse, glob, json, os, sqlite3, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from results_io import results_dir, write_results  # noqa: E402
from cpu_kernels import matmul_mlir, conv_mlir  # noqa: E402

KERNELS = [
    ("conv_28x28x128", conv_mlir(28, 28, 128, 128)),
    ("conv_56x56x64", conv_mlir(56, 56, 64, 64)),
    ("matmul_512", matmul_mlir(512, 512, 512)),
]


def set_up(dltune, name, text, tmp):
    path = os.path.join(tmp, name + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    db = os.path.join(tmp, name + ".db")
    subprocess.run([dltune, "tune", path, "--threads", "1", "--trials", "8", "--strategy",
                    "random", "--db", db, "--confirm-top", "0", "--quiet"], check=True,
                   capture_output=True)
    work = glob.glob(db + ".work/*/")[0]
    rows = sqlite3.connect(db).execute(
        "SELECT config, time_ms FROM records WHERE status = 'ok' ORDER BY id").fetchall()
    default = rows[0][0]  # the tuner measures dltune's default first
    others = sorted((r for r in rows[1:] if r[0] != default), key=lambda r: r[1])
    configs = [("default", default)]
    if others:
        configs.append(("best-other", others[0][0]))
    if len(others) > 2:
        configs.append(("middling", others[len(others) // 2][0]))
    return work, configs


def fast_phase_time(times):
    """What ProcessMeasurer passes on (getFastPhaseTime): the 10th
    percentile of the workers' reports, 0 before the first."""
    if not times:
        return 0.0
    return sorted(times)[int(0.1 * (len(times) - 1))]


def build(dltune, work, config, out):
    subprocess.run([dltune, "worker", "build", "--kernel", work + "kernel.mlir", "--config",
                    config, "--out", out], check=True, capture_output=True)


def measure(dltune, work, config, so, anchor=None, anchor_ms=0.0):
    key = open(work + "reference.bin.key").read().strip()
    cmd = [dltune, "worker", "measure", "--kernel", work + "kernel.mlir", "--so", so,
           "--reference", work + "reference.bin", "--reference-key", key, "--config", config]
    if anchor:
        cmd += ["--anchor-so", anchor, "--anchor-ms", str(anchor_ms)]
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stdout + p.stderr)
    report = json.loads(p.stdout.strip().splitlines()[-1])
    report["wall_s"] = time.time() - start
    return report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--out", default="measurement_noise")
    args = ap.parse_args()
    dltune = os.path.abspath(os.path.join(args.build, "bin", "dltune"))
    results = results_dir("measurement_noise")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in KERNELS:
            work, configs = set_up(dltune, name, text, tmp)
            sos = {}
            for label, config in configs:
                sos[label] = os.path.join(tmp, f"{name}-{label}.so")
                build(dltune, work, config, sos[label])
            anchor_so, anchor_reports = sos["default"], []
            times = {(label, mode): [] for label, _ in configs for mode in ("plain", "anchored")}
            flags = {label: [] for label, _ in configs}  # anchored runs flagged noisy
            walls = {mode: [] for mode in ("plain", "anchored")}
            flagged = 0
            for r in range(args.rounds):
                for label, config in configs:
                    # Alternate which mode goes first, so that neither is
                    # always the one right after the other's process.
                    for mode in (("plain", "anchored") if r % 2 == 0 else ("anchored", "plain")):
                        rep = measure(dltune, work, config, sos[label],
                                      anchor_so if mode == "anchored" else None,
                                      fast_phase_time(anchor_reports))
                        times[(label, mode)].append(rep["median_ms"])
                        walls[mode].append(rep["wall_s"])
                        if mode == "anchored":
                            anchor_reports.append(rep["anchor_ms"])
                            flag = bool(rep.get("slow_phase")) or not rep.get("settled", True)
                            flags[label].append(flag)
                            flagged += flag
            for label, _ in configs:
                fastest = min(times[(label, "plain")] + times[(label, "anchored")])
                for mode in ("plain", "anchored"):
                    t = times[(label, mode)]
                    # What the tuner trusts: anchored records not flagged noisy.
                    kept = ([x for x, f in zip(t, flags[label]) if not f]
                            if mode == "anchored" else t)
                    rows.append({
                        "kernel": name, "config": label, "mode": mode, "processes": len(t),
                        "median_ms": statistics.median(t), "min_ms": min(t), "max_ms": max(t),
                        "spread": (max(t) - min(t)) / min(t),
                        "within5pct": sum(x <= 1.05 * fastest for x in t) / len(t),
                        "mean_wall_s": statistics.mean(walls[mode]),
                        "flagged": len(t) - len(kept),
                        "unflagged_max_ms": max(kept) if kept else "",
                        "unflagged_spread": (max(kept) - min(kept)) / min(kept) if kept else "",
                        "times_ms": ";".join(f"{x:.3f}" for x in t),
                    })
            print(f"{name}: done ({flagged} anchored runs flagged: slow phase or unsettled)",
                  file=sys.stderr)
    lines = [f"{'kernel':16} {'config':11} {'mode':9} {'n':>3} {'median':>8} {'min':>8} "
             f"{'max':>8} {'spread':>7} {'<=5%':>5} {'flagged':>7} {'kept max':>8} "
             f"{'kept spr':>8} {'wall s':>7}"]
    for r in rows:
        kept_max = f"{r['unflagged_max_ms']:8.3f}" if r["unflagged_max_ms"] != "" else f"{'-':>8}"
        kept_spread = (f"{100 * r['unflagged_spread']:7.1f}%" if r["unflagged_spread"] != ""
                       else f"{'-':>8}")
        lines.append(f"{r['kernel']:16} {r['config']:11} {r['mode']:9} {r['processes']:3d} "
                     f"{r['median_ms']:8.3f} {r['min_ms']:8.3f} {r['max_ms']:8.3f} "
                     f"{100 * r['spread']:6.1f}% {100 * r['within5pct']:4.0f}% "
                     f"{r['flagged']:7d} {kept_max} {kept_spread} {r['mean_wall_s']:7.2f}")
    lines.append(f"(ms per call: each process's median; {args.rounds} rounds, plain and "
                 "anchored alternating; <=5%: share of processes within 5% of the fastest "
                 "process of either mode; flagged: anchored runs reported as a slow phase or "
                 "unsettled, which the tuner records as noisy; kept max / spread: over the "
                 "others; wall s: mean seconds per measure worker)")
    write_results(results, args.out, rows, lines)


if __name__ == "__main__":
    main()
