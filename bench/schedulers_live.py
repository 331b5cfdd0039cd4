#!/usr/bin/env python3
"""Task schedulers on a real model on this CPU (issue 10, live part).

    python3 bench/schedulers_live.py MODEL.mlir [--schedulers sequential,gradient,dynatune]
                                     [--trials N] [--slot-trials S] [--threads T]
                                     [--build DIR] [--keep-db DIR] [--out NAME]

For each scheduler: a fresh database, `dltune tune MODEL --scheduler NAME
--trials N` (one model budget), the progress lines read as they arrive and
stamped with the wall time since the start, so each run gives model latency
against tuning time. Prints, per scheduler, the final model latency and the
wall seconds to get within 5% of it and of the best final latency of all
runs; writes bench/results/schedulers_live/schedulers_live.csv (the curves). Model latency
is dltune's: the sum over the tuned tasks of ops x best-or-untuned latency
(ops without a dltune space are not counted). The runs are sequential, not
interleaved: machine drift between runs is not cancelled, so read the
figures as one sample each.
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from schedulers import VARIANTS  # noqa: E402
LINE = re.compile(r"model trial (\d+)/(\d+): \[(\d+)/\d+\] .*; model ([0-9.]+) ms "
                  r"\(untuned ([0-9.]+)\)")


def run(model, scheduler, a, workdir):
    db = os.path.join(workdir, f"{scheduler}.db")
    # Variants such as "dynatune-cap" take the flags the replay benchmark
    # gives them; `dltune tune` has --share-cap and --probe-share too.
    flags = VARIANTS.get(scheduler, ["--scheduler", scheduler])
    cmd = [os.path.join(a.build, "bin", "dltune"), "tune", model, *flags, "--trials", str(a.trials),
           "--slot-trials", str(a.slot_trials), "--threads", str(a.threads), "--db", db,
           "--jobs", "2", "--confirm-top", "0", "--seed", str(a.seed)]
    start = time.monotonic()
    curve = []
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True) as p:
        for line in p.stderr:
            m = LINE.search(line)
            if m:
                curve.append((time.monotonic() - start, int(m.group(1)), float(m.group(4)),
                              float(m.group(5)), int(m.group(3))))
    if p.returncode != 0:
        sys.exit(f"{scheduler}: dltune tune failed ({p.returncode})")
    return curve


def first_within(curve, target):
    for t, trial, lat, *_ in curve:
        if lat <= target:
            return t, trial
    return float("nan"), -1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--schedulers", default="sequential,gradient,dynatune",
                   help="comma-separated; also the variants of bench/schedulers.py that "
                        "dltune tune takes: dynatune-cap (--share-cap), dynatune-full "
                        "(--probe-share 1)")
    p.add_argument("--trials", type=int, default=48)
    p.add_argument("--slot-trials", type=int, default=8)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    # Run from a copy of the build so that rebuilding does not break a run.
    p.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    # Keep each scheduler's database there (DIR/SCHEDULER.db), e.g. to
    # apply the tuned configurations with bench/models.py --tuned-db.
    p.add_argument("--keep-db")
    p.add_argument("--out", default="schedulers_live", help="results/schedulers_live/NAME.csv")
    a = p.parse_args()
    curves = {}
    with tempfile.TemporaryDirectory() as tmp:
        workdir = a.keep_db or tmp
        os.makedirs(workdir, exist_ok=True)
        for s in a.schedulers.split(","):
            curves[s] = run(a.model, s, a, workdir)
    best = min(c[-1][2] for c in curves.values() if c)
    print(f"{'scheduler':12s} {'untuned ms':>10s} {'final ms':>9s} {'to 5% of own final':>20s} "
          f"{'to 5% of best final':>20s}")
    rows = []
    for s, c in curves.items():
        final = c[-1][2]
        own = first_within(c, final * 1.05)
        overall = first_within(c, best * 1.05)
        # The untuned latency of the last line: once every task's default
        # configuration is measured (the first measurement of each), the
        # model's latency without tuning.
        print(f"{s:12s} {c[-1][3]:10.3f} {final:9.3f} {own[0]:8.1f} s (trial {own[1]:3d}) "
              f"{overall[0]:8.1f} s (trial {overall[1]:3d})")
        counts = {}
        for t, trial, lat, untuned, task in c:
            rows.append({"scheduler": s, "wall_s": f"{t:.2f}", "trial": trial, "task": task,
                         "model_latency_ms": lat, "untuned_ms": untuned})
            counts[task] = counts.get(task, 0) + 1
        print(f"{'':12s} measurements per task: " +
              " ".join(f"#{k}:{v}" for k, v in sorted(counts.items())))
    os.makedirs(os.path.join(HERE, "results", "schedulers_live"), exist_ok=True)
    with open(os.path.join(HERE, "results", "schedulers_live", a.out + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
