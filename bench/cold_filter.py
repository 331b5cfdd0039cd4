#!/usr/bin/env python3
"""Trimmer's cold-candidate filter on recorded search spaces (issue 33).

    python3 bench/cold_filter.py [--build build] [--seeds 10] [--trials 200]
                                 [--jobs 2] [--spaces a,b] [--modes off,nn,trend]
                                 [--strategy sa|random]

A mode ending in "+h" (nn+h, trend+h) gives the filter the recorded spaces
of the same kernel on the other devices of its directory as history: the
network is pretrained on them and they are neighbours from the first
proposal (leave-one-device-out, as the paper pretrains on other devices).

Runs `dltune replay` (the tuner's loop answering from Kernel Tuner caches:
brute-forced GPU spaces with their recorded compile and benchmark times,
failures included; the simulated clock charges each candidate what it cost
when it was recorded) with sa + xgb (or random search), with the filter off
and in each mode,
seeds 0..K-1, and reports per space and mode the medians over seeds of:
  - simulated seconds to reach 95% and 99% of the optimum (seeds that never
    did are counted and left out of the median),
  - the best found after all measurements, as a fraction of the optimum,
  - simulated seconds of the whole run,
  - the share of the run's seconds spent on cold candidates (slower than 2x
    the best before them) and on failed ones.
Cost ratios compare each mode's median seconds-to-level with the filter off.
Writes a table and CSV to bench/results/cold_filter/.
"""
import argparse
import concurrent.futures
import csv
import datetime
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402
from search_convergence import HUB, SPACES  # noqa: E402

LEVELS = (0.95, 0.99)


STRATEGIES = {"sa": ["--strategy", "sa", "--cost-model", "xgb"],
              "random": ["--strategy", "random"]}


def other_devices(space_file):
    """The same kernel's recorded spaces on the other devices of its directory."""
    folder = os.path.dirname(space_file)
    return [os.path.join(folder, f) for f in sorted(os.listdir(folder))
            if f.endswith(".json.gz") and os.path.join(folder, f) != space_file]


def run(build, space_file, strategy, mode, seeds, trials, out_csv):
    rule = mode[:-2] if mode.endswith("+h") else mode
    cmd = [os.path.join(build, "bin", "dltune"), "replay", "--dataset", space_file,
           "--trials", str(trials), "--seeds", str(seeds), "--report", out_csv,
           "--cold-filter", rule] + STRATEGIES[strategy]
    if mode.endswith("+h"):
        cmd += ["--history", ",".join(other_devices(space_file))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + p.stderr)
    dropped = [line for line in p.stdout.splitlines() if "cold filter dropped" in line]
    rows = {}
    with open(out_csv) as f:
        for r in csv.DictReader(f):
            rows.setdefault(int(r["seed"]), []).append(r)
    per_seed = []
    for seed, rs in sorted(rows.items()):
        optimum = float(rs[0]["optimum_ms"])
        clock_prev, cold_s, failed_s, best = 0.0, 0.0, 0.0, float("inf")
        reach = {lvl: None for lvl in LEVELS}
        for r in rs:
            clock = float(r["sim_clock_s"])
            cost = clock - clock_prev
            clock_prev = clock
            t = float(r["time_ms"]) if r["time_ms"] else float("nan")
            if r["status"] != "ok" or not t == t:
                failed_s += cost
            else:
                if best < float("inf") and t > 2 * best:
                    cold_s += cost
                best = min(best, t)
            for lvl in LEVELS:
                if reach[lvl] is None and best <= optimum / lvl:
                    reach[lvl] = clock
        per_seed.append({"seed": seed, "total_s": clock_prev, "best_fraction": optimum / best,
                         "cold_share": cold_s / clock_prev if clock_prev else 0.0,
                         "failed_share": failed_s / clock_prev if clock_prev else 0.0,
                         **{f"s_to_{int(lvl * 100)}": reach[lvl] for lvl in LEVELS}})
    return per_seed, dropped


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--spaces", default=",".join(SPACES))
    ap.add_argument("--modes", default="off,nn,trend")
    ap.add_argument("--strategy", default="sa", choices=sorted(STRATEGIES),
                    help="the wrapped strategy: sa (+ xgb) or random")
    a = ap.parse_args()
    spaces = a.spaces.split(",")
    modes = a.modes.split(",")
    if "off" not in modes:
        ap.error("--modes must include off (the baseline)")
    for s in spaces:
        if s not in SPACES:
            ap.error(f"unknown space {s} (known: {', '.join(SPACES)})")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                            capture_output=True, text=True).stdout.strip()
    results = {}
    with tempfile.TemporaryDirectory() as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {}
        for s in spaces:
            for m in modes:
                out = os.path.join(work, f"{s}_{m}.csv")
                futures[(s, m)] = pool.submit(run, a.build, os.path.join(HUB, SPACES[s]), a.strategy, m,
                                              a.seeds, a.trials, out)
        for key, fut in futures.items():
            results[key] = fut.result()
    rows = []
    lines = [f"Cold-candidate filter in replay, {a.strategy}, {a.trials} measurements, "
             f"{a.seeds} seeds ({datetime.date.today()}, dltune {commit}); medians over seeds",
             f"{'space':22s} {'mode':8s} {'s to 95%':>10s} {'(miss)':>6s} {'s to 99%':>10s} "
             f"{'(miss)':>6s} {'vs off 95/99':>13s} {'best':>6s} {'total s':>8s} "
             f"{'cold%':>6s} {'fail%':>6s} {'dropped':>8s}"]
    ratios = {m: {lvl: [] for lvl in LEVELS} for m in modes}
    for s in spaces:
        base = {lvl: median_or_none([r[f"s_to_{int(lvl * 100)}"] for r in results[(s, "off")][0]])
                for lvl in LEVELS}
        for m in modes:
            per_seed, dropped = results[(s, m)]
            med = {lvl: median_or_none([r[f"s_to_{int(lvl * 100)}"] for r in per_seed])
                   for lvl in LEVELS}
            miss = {lvl: sum(r[f"s_to_{int(lvl * 100)}"] is None for r in per_seed)
                    for lvl in LEVELS}
            vs = []
            for lvl in LEVELS:
                if med[lvl] is not None and base[lvl]:
                    ratios[m][lvl].append(med[lvl] / base[lvl])
                    vs.append(f"{med[lvl] / base[lvl]:.2f}")
                else:
                    vs.append("-")
            drop_total = 0
            prop_total = 0
            for line in dropped:
                words = line.split("cold filter dropped ")[1].split()
                drop_total += int(words[0])
                prop_total += int(words[2])
            row = {"space": s, "mode": m, "seeds": a.seeds, "trials": a.trials,
                   "s_to_95": med[0.95], "miss_95": miss[0.95], "s_to_99": med[0.99],
                   "miss_99": miss[0.99],
                   "best_fraction": statistics.median(r["best_fraction"] for r in per_seed),
                   "total_s": statistics.median(r["total_s"] for r in per_seed),
                   "cold_share": statistics.median(r["cold_share"] for r in per_seed),
                   "failed_share": statistics.median(r["failed_share"] for r in per_seed),
                   "dropped": drop_total, "proposed": prop_total}
            rows.append(row)
            fmt = lambda v: f"{v:10.1f}" if v is not None else f"{'-':>10s}"
            lines.append(
                f"{s:22s} {m:8s} {fmt(med[0.95])} {miss[0.95]:6d} {fmt(med[0.99])} "
                f"{miss[0.99]:6d} {'/'.join(vs):>13s} {row['best_fraction']:6.3f} "
                f"{row['total_s']:8.1f} {100 * row['cold_share']:6.1f} "
                f"{100 * row['failed_share']:6.1f} "
                f"{(f'{drop_total}/{prop_total}' if m != 'off' else '-'):>8s}")
    for m in modes:
        if m == "off":
            continue
        parts = []
        for lvl in LEVELS:
            r = ratios[m][lvl]
            parts.append(f"{int(lvl * 100)}%: median {statistics.median(r):.2f} over {len(r)} "
                         f"spaces" if r else f"{int(lvl * 100)}%: -")
        lines.append(f"{m}: simulated seconds to reach the level, filter / off: " +
                     "; ".join(parts))
    write_results(results_dir("cold_filter"), f"cold_filter_{commit}_{a.strategy}", rows, lines)


if __name__ == "__main__":
    main()
