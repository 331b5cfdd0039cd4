#!/usr/bin/env python3
"""How fast could any task scheduler be on the replay models? (issue 10)

In `dltune replay-model` a task's search (its strategy, cost model and
measurer) depends only on its own seed and slot size, never on which other
tasks ran in between: a task's sequence of measurements is the same under
every scheduler (checked: a Python replay of the gradient scheduler over
these sequences gives the C++ run's measurement count to 5% on every seed).
So one long round-robin run per model records every task's sequence, and
the fewest measurements with which *any* allocation brings the model within
5% of its best reachable latency is a small optimisation over those
sequences: min sum_i n_i subject to sum_i w_i best_i(n_i) <= 1.05 x best,
solved exactly over Pareto fronts of (measurements, weighted latency).
That is a clairvoyant bound: a scheduler would need to know every task's
future. The same in simulated seconds.

Prints, per model, the bound's median [quartiles] over seeds beside the
schedulers' medians from bench/results/schedulers/schedulers.csv (when present), and
writes bench/results/scheduler_bounds/scheduler_bounds.csv (one row per model and seed).
Usage: python3 bench/scheduler_bounds.py [--build build] [--seeds 20]
                                         [--per-task 1000] [--models a,b] [--drawn 12]
"""
import argparse, csv, math, os, re, statistics, subprocess, sys, tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from schedulers import HUB, MODELS, draw_models, drawn_suffix, quartiles, fmt  # noqa: E402


def record_sequences(dltune, model, tasks, per_task, seeds, slot, tmp):
    """Each task's measurements (time or inf, simulated seconds) per seed."""
    report = os.path.join(tmp, f"{model}.csv")
    cmd = [dltune, "replay-model", "--scheduler", "round-robin", "--strategy", "sa",
           "--cost-model", "xgb", "--slot", str(slot), "--trials", str(per_task * len(tasks)),
           "--seeds", str(seeds), "--report", report]
    for path, weight in tasks:
        cmd += ["--task", f"{os.path.join(HUB, path)}:{weight}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    best = float(re.search(r"best reachable ([0-9.e+-]+) ms", out).group(1))
    table = out[out.rindex("\ntask ") + 1:].splitlines()[1:]
    names, info = [], []
    for line in table:
        p = line.split()
        names.append(p[0])
        info.append((float(p[1]), float(p[2])))  # weight, untuned ms
    index = {n: i for i, n in enumerate(names)}
    seqs = defaultdict(lambda: [[] for _ in names])
    clock = {}
    with open(report) as f:
        for r in csv.DictReader(f):
            s = int(r["seed"])
            c = float(r["sim_clock_s"])
            seqs[s][index[r["task"]]].append(
                (float(r["time_ms"]) if r["time_ms"] else math.inf, c - clock.get(s, 0.0)))
            clock[s] = c
    return best, info, seqs


def fewest(info, seq, target, cost):
    """min sum_i cost_i(n_i) with sum_i w_i best_i(n_i) <= target."""
    front = [(0.0, 0.0)]  # (cost, weighted latency), Pareto-optimal
    for (weight, untuned), measurements in zip(info, seq):
        points = [(0.0, weight * untuned)]
        best, spent = math.inf, 0.0
        for n, (ms, seconds) in enumerate(measurements):
            spent += cost(n, seconds)
            if ms < best:
                best = ms
                if weight * min(best, untuned) < points[-1][1]:
                    points.append((spent, weight * min(best, untuned)))
        merged = sorted((a + p, l + q) for a, l in front for p, q in points)
        front = []
        for a, l in merged:
            if not front or l < front[-1][1]:
                front.append((a, l))
    return next((a for a, l in front if l <= target), math.inf)


def main():
    ap = argparse.ArgumentParser()
    # A copy of the build is safer: relinking dltune while this runs kills it.
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--per-task", type=int, default=1000,
                    help="measurements recorded per task (bounds allocations to at most this)")
    ap.add_argument("--slot", type=int, default=32)
    ap.add_argument("--models", default=None, help="default: every model of the set")
    ap.add_argument("--drawn", type=int, default=0,
                    help="the drawn models of bench/schedulers.py --drawn (results/schedulers/schedulers_drawn.csv)")
    ap.add_argument("--draw-seed", type=int, default=2026)
    args = ap.parse_args()
    models = draw_models(args.drawn, args.draw_seed) if args.drawn else MODELS
    suffix = drawn_suffix(args.draw_seed) if args.drawn else ""
    args.models = args.models or ",".join(models)
    dltune = os.path.join(args.build, "bin", "dltune")
    measured = defaultdict(list)  # (model, scheduler) -> trials to 5%
    results = os.path.join(HERE, "results")
    medians = os.path.join(results, "schedulers", f"schedulers{suffix}.csv")
    if os.path.exists(medians):
        with open(medians) as f:
            for r in csv.DictReader(f):
                measured[(r["model"], r["scheduler"])].append(
                    (float(r["trials_to_5pct"]), float(r["sim_s_to_5pct"])))
    rows = []
    print(f"clairvoyant bound to 5% of the best reachable model latency, {args.seeds} seeds, "
          f"at most {args.per_task} measurements per task; median [quartiles]")
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            best, info, seqs = record_sequences(dltune, model, models[model], args.per_task, args.seeds,
                                                args.slot, tmp)
            trials, secs = [], []
            for seed in sorted(seqs):
                t = fewest(info, seqs[seed], 1.05 * best, lambda n, s: 1.0)
                c = fewest(info, seqs[seed], 1.05 * best, lambda n, s: s)
                trials.append(t)
                secs.append(c)
                rows.append([model, seed, t, round(c, 1)])
            line = f"{model:8} bound {fmt(quartiles(trials)):>16} meas., {fmt(quartiles(secs)):>18} s"
            for sched in ("sequential", "gradient", "dynatune"):
                got = measured.get((model, sched))
                if got:
                    line += (f" | {sched} {statistics.median(g[0] for g in got):.0f}"
                             f" ({statistics.median(trials) / statistics.median(g[0] for g in got):.2f}"
                             f" of it)")
            print(line, flush=True)
    write_rows(os.path.join(results, "scheduler_bounds", f"scheduler_bounds{suffix}.csv"),
               ["model", "seed", "bound_trials_to_5pct", "bound_sim_s_to_5pct"], rows)


def write_rows(path, header, rows):
    """Writes per-model rows (model first) to a results CSV, keeping the rows
    of models not run this time, so that models can be run apart."""
    if os.path.exists(path):
        with open(path) as f:
            done = {r[0] for r in rows}
            rows = [r for r in csv.reader(f) if r[0] != "model" and r[0] not in done] + rows
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


if __name__ == "__main__":
    main()
