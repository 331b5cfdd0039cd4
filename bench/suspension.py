#!/usr/bin/env python3
"""Trimmer's multi-model suspension on a simulated cluster (issues 33, 34).

The replay models of bench/schedulers.py (recorded GPU spaces) tuned
together on one simulated cluster (`dltune replay-model --model ...`,
lib/Tuning/Replay/SimulatedCluster.cpp): each model round-robin over its
tasks in slots of --slot, synchronised every epoch (one slot per task, as
Trimmer's survey tuning), a budget of --per-task measurements per task.
Policies, side by side on the same seeds:
  independent - every model tuned to its budget (or goal): the models in
                parallel, no suspension (the paper's baseline);
  suspend-P   - at each synchronisation the model whose last epoch
                improved least is suspended once its last P epochs each
                improved by less than --min-improvement (1%).
Each policy is run without a goal and with each model's goal at
--goal-factor x its best reachable latency.

Cost: measurements, busy seconds (the recorded compile + benchmark
seconds), modelled energy (10 W per busy worker; idle not charged) and the
cluster's wall time (W workers in one work-conserving pool); quality: each
model's final latency over its best reachable one. Simulated, so
deterministic per seed: no machine noise to cope with.

Writes bench/results/suspension/NAME.{csv,txt}.
Usage: python3 bench/suspension.py [--build build] [--models a6000,rtx3090,milo6,rtx7]
       [--seeds 10] [--workers 16] [--per-task 300] [--slot 64] [--goal-factor 1.05]
       [--strategy random] [--out suspension]
"""
import argparse, csv, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402
from schedulers import HUB, MODELS  # noqa: E402


def run(a, models, suspend_after, goal):
    fd, report = tempfile.mkstemp(suffix=".csv")
    os.close(fd)
    cmd = [os.path.join(a.build, "bin", "dltune"), "replay-model", "--scheduler", "round-robin",
           "--strategy", a.strategy, "--slot", str(a.slot), "--seeds", str(a.seeds),
           "--workers", str(a.workers), "--report", report]
    for name in models:
        tasks = MODELS[name]
        cmd += ["--model", name + "=" + ",".join(f"{os.path.join(HUB, f)}:{w}" for f, w in tasks)]
    # Each model's budget: --per-task measurements for each of its tasks.
    cmd += ["--trials-per-task", str(a.per_task)]
    if suspend_after:
        cmd += ["--suspend", "--plateau", str(suspend_after),
                "--min-improvement", str(a.min_improvement)]
    if goal:
        cmd += ["--goal-factor", str(goal)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
    with open(report) as f:
        rows = list(csv.DictReader(f))
    os.unlink(report)
    return rows

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--models", default="a6000,rtx3090,milo6,rtx7")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--per-task", type=int, default=300)
    ap.add_argument("--slot", type=int, default=64)
    ap.add_argument("--min-improvement", type=float, default=0.01)
    ap.add_argument("--goal-factor", type=float, default=1.05)
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--out", default="suspension")
    a = ap.parse_args()
    models = a.models.split(",")
    policies = [("independent", 0), ("suspend-1", 1), ("suspend-2", 2)]
    out_rows, lines = [], []
    lines.append(f"models {a.models}; {a.workers} workers; round-robin slots of {a.slot}, "
                 f"synchronised every epoch; a budget of {a.per_task} measurements per task; "
                 f"{a.strategy} search; {a.seeds} seeds; "
                 f"energy modelled at 10 W per busy worker")
    for goal in (0, a.goal_factor):
        results = {name: run(a, models, after, goal) for name, after in policies}
        lines.append("")
        lines.append(f"goal: {'none' if not goal else f'{goal}x each model best reachable'}; "
                     "medians over seeds (per seed: totals over the models)")
        lines.append(f"{'policy':12} {'measurements':>12} {'busy s':>9} {'cluster s':>9} "
                     f"{'energy kJ':>9} {'vs indep.':>9} {'goals met':>9} "
                     + " ".join(f"{m + ' final/best':>20}" for m in models))
        base = None
        for name, _ in policies:
            rows = results[name]
            per_seed = {}
            for r in rows:
                s = per_seed.setdefault(r["seed"], {"m": 0, "busy": 0.0, "wall": 0.0,
                                                    "goals": 0, "ratio": {}, "end": {}})
                s["m"] += int(r["measurements"])
                s["busy"] += float(r["busy_s"])
                s["wall"] = max(s["wall"], float(r["end_wall_s"]))
                s["goals"] += r["end"] == "goal reached"
                s["ratio"][r["model"]] = float(r["final_ms"]) / float(r["best_reachable_ms"])
                s["end"][r["model"]] = r["end"]
                out_rows.append({"goal_factor": goal, "policy": name, **r})
            med = lambda f: statistics.median(f(s) for s in per_seed.values())  # noqa: E731
            busy = med(lambda s: s["busy"])
            if base is None:
                base = busy
            lines.append(
                f"{name:12} {med(lambda s: s['m']):12.0f} {busy:9.0f} "
                f"{med(lambda s: s['wall']):9.0f} {busy * 10 / 1000:9.1f} "
                f"{busy / base:9.2f} {med(lambda s: s['goals']):9.1f} "
                + " ".join(f"{med(lambda s, m=m: s['ratio'][m]):20.3f}" for m in models))
            ends = {m: [s["end"][m] for s in per_seed.values()] for m in models}
            lines.append(f"{'':12} ends: " + "; ".join(
                f"{m} " + ", ".join(f"{e} {ends[m].count(e)}" for e in sorted(set(ends[m])))
                for m in models))
    write_results(results_dir("suspension"), a.out, out_rows, lines)


if __name__ == "__main__":
    main()
