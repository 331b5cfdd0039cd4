#!/usr/bin/env python3
"""A study's workers: how tuning scales with the number of workers (issue 34).

    python3 bench/distributed.py [--build build] [--seeds 3] [--trials 400]
                                 [--workers 1,2,4,8,16,32,64]
                                 [--spaces gemm_clblast_RTX3090,convolution_RTX3090]
                                 [--live-trials 24] [--no-live]
                                 [--live-workers 1,2,4] [--no-sim]

Simulated (`dltune replay --workers N`, lib/Tuning/Replay/SimulatedWorkers.cpp):
N workers share one recorded GPU space the way a study's workers share a task -
claims (nothing measured twice), each worker seeing the others' committed
results, one budget of --trials - on simulated clocks charged with the
recorded compile and benchmark times. Per space, strategy (random; sa + xgb)
and N, the medians over seeds of the simulated wall seconds to reach 95% of
the optimum and the measurements spent by then, and the speed-up of that
time over one worker. Seeds that never reached 95% are counted and left out.

Live (unless --no-live): a study of three small matmul tasks
(test/Study/Inputs) tuned on this machine by 1, 2 and then 4 workers
(`--live-workers`; `dltune tune --study`, SQLite), fresh database each:
wall seconds, measurements, measurements per second. On a 2-core VM two
workers also time at the same moment (four oversubscribe it), so the live figure says how builds and timings overlap
here, not how machines scale; each configuration runs once (the VM's slow
phases move such a figure by 20-50%).

Writes a table and CSV to bench/results/distributed/.
"""
import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402
from search_convergence import HUB, SPACES  # noqa: E402

STRATEGIES = {"random": ["--strategy", "random"],
              "sa": ["--strategy", "sa", "--cost-model", "xgb"]}
LINE = re.compile(r"seed (\d+): (\d+) workers, (\d+) measurements, best = ([0-9.]+)x optimum, "
                  r"simulated wall ([0-9.]+) s; 95% of the optimum at (?:([0-9.]+) s after "
                  r"(\d+) measurements|never)")


def simulate(build, space_file, strategy, workers, seeds, trials):
    cmd = [os.path.join(build, "bin", "dltune"), "replay", "--dataset", space_file,
           "--trials", str(trials), "--seeds", str(seeds), "--workers", str(workers)]
    cmd += STRATEGIES[strategy]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + p.stderr)
    runs = []
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if m:
            runs.append({"best": float(m.group(4)), "wall": float(m.group(5)),
                         "t95": float(m.group(6)) if m.group(6) else None,
                         "n95": int(m.group(7)) if m.group(7) else None})
    if len(runs) != seeds:
        raise RuntimeError("unexpected output of " + " ".join(cmd) + ":\n" + p.stdout)
    return runs


def live(build, workers, trials):
    dltune = os.path.join(build, "bin", "dltune")
    inputs = os.path.join(HERE, "..", "test", "Study", "Inputs")
    work = tempfile.mkdtemp()
    try:
        db = os.path.join(work, "live.db")
        models = [os.path.join(inputs, f) for f in ("two-matmuls.mlir", "one-matmul.mlir")]
        subprocess.run([dltune, "study", "create", "live", *models, "--db", db, "--trials",
                        str(trials), "--threads", "1", "--min-time-ms", "2"],
                       check=True, capture_output=True)
        start = time.monotonic()
        procs = [subprocess.Popen([dltune, "tune", "--study", "live", "--db", db, "--quiet"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for _ in range(workers)]
        for p in procs:
            _, err = p.communicate()
            if p.returncode != 0:
                raise RuntimeError("a worker failed: " + err.decode())
        wall = time.monotonic() - start
        summary = subprocess.run([dltune, "db", "summary", "--db", db], check=True,
                                 capture_output=True, text=True).stdout
        records = int(re.search(r"^(\d+) records", summary, re.M).group(1))
        return wall, records
    finally:
        shutil.rmtree(work)


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=400)
    ap.add_argument("--workers", default="1,2,4,8,16,32,64")
    ap.add_argument("--spaces", default="gemm_clblast_RTX3090,convolution_RTX3090")
    ap.add_argument("--strategies", default="random,sa")
    ap.add_argument("--live-trials", type=int, default=24)
    ap.add_argument("--no-live", action="store_true")
    ap.add_argument("--live-workers", default="1,2,4",
                    help="worker counts of the live study (4 on 2 cores: oversubscribed)")
    ap.add_argument("--no-sim", action="store_true", help="only the live study")
    args = ap.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                            capture_output=True, text=True).stdout.strip()
    counts = [int(w) for w in args.workers.split(",")]
    rows, lines = [], []
    lines.append(f"# Workers sharing a task, simulated on recorded spaces "
                 f"({datetime.date.today()}, {commit}; {args.trials} trials, "
                 f"{args.seeds} seeds, medians)")
    lines.append("")
    lines.append("| space | strategy | workers | s to 95% | speed-up | measurements to 95% "
                 "| reached | best/optimum | wall s |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for space in ([] if args.no_sim else args.spaces.split(",")):
        path = os.path.join(HUB, SPACES[space])
        for strategy in args.strategies.split(","):
            base = None
            for n in counts:
                runs = simulate(args.build, path, strategy, n, args.seeds, args.trials)
                t95 = median_or_none([r["t95"] for r in runs])
                n95 = median_or_none([r["n95"] for r in runs])
                reached = sum(r["t95"] is not None for r in runs)
                best = statistics.median(r["best"] for r in runs)
                wall = statistics.median(r["wall"] for r in runs)
                if n == counts[0]:
                    base = t95
                speedup = base / t95 if base and t95 else None
                rows.append({"space": space, "strategy": strategy, "workers": n,
                             "seconds_to_95": t95, "speedup": speedup,
                             "measurements_to_95": n95, "reached": reached,
                             "seeds": args.seeds, "best_over_optimum": best, "wall_s": wall})
                fmt = lambda v, f: "-" if v is None else format(v, f)  # noqa: E731
                lines.append(f"| {space} | {strategy} | {n} | {fmt(t95, '.1f')} | "
                             f"{fmt(speedup, '.1f')}x | {fmt(n95, '.0f')} | "
                             f"{reached}/{args.seeds} | {best:.3f} | {wall:.1f} |")
                print(lines[-1], flush=True)
    if not args.no_live:
        lines.append("")
        lines.append(f"Live on this machine ({os.cpu_count()} cores): a study of 3 matmul "
                     f"tasks, {args.live_trials} trials each, one run per row")
        lines.append("")
        lines.append("| workers | wall s | measurements | per second |")
        lines.append("|---:|---:|---:|---:|")
        for n in [int(w) for w in args.live_workers.split(",")]:
            wall, records = live(args.build, n, args.live_trials)
            rows.append({"space": "live-study", "strategy": "sa", "workers": n,
                         "seconds_to_95": None, "speedup": None, "measurements_to_95": None,
                         "reached": None, "seeds": 1, "best_over_optimum": None,
                         "wall_s": wall})
            lines.append(f"| {n} | {wall:.1f} | {records} | {records / wall:.2f} |")
            print(lines[-1], flush=True)
    name = f"distributed_{commit}" + ("_live" if args.no_sim else "")
    write_results(results_dir("distributed"), name, rows, lines)


if __name__ == "__main__":
    main()
