#!/usr/bin/env python3
"""Trimmer's survey tuning and its stop rule on recorded models (issue 33).

    python3 bench/survey.py [--build build] [--seeds 10] [--trials-per-task 300]
                            [--slot 64] [--strategy random] [--models a6000,...]

Runs `dltune replay-model` on the recorded models of bench/schedulers.py
(tasks answered from Kernel Tuner caches, simulated clock) with
round-robin over the whole budget, and with `survey` (epochs of one slot
per task; after each, Eq. 2 on the model latency per second of tuning),
once with the rule as the paper prints it (a sum) and once as it
evidently means it (a difference). Per model and scheduler, medians over
seeds of: measurements and simulated seconds spent, the final model
latency over the best reachable, and - for survey - the seconds
round-robin needed to reach survey's final latency (so survey's saving at
equal latency). Writes bench/results/survey/.
"""
import argparse
import csv
import datetime
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402
from schedulers import HUB, MODELS  # noqa: E402

VARIANTS = {
    "round-robin": ["--scheduler", "round-robin"],
    "survey": ["--scheduler", "survey"],
    "survey-printed": ["--scheduler", "survey", "--survey-printed-rule"],
}


def run(build, model, variant, a, tmp):
    report = os.path.join(tmp, f"{model}_{variant}.csv")
    cmd = [os.path.join(build, "bin", "dltune"), "replay-model"] + VARIANTS[variant] + [
        "--strategy", a.strategy, "--trials", str(a.trials_per_task * len(MODELS[model])),
        "--seeds", str(a.seeds), "--slot", str(a.slot), "--report", report]
    for path, weight in MODELS[model]:
        cmd += ["--task", f"{os.path.join(HUB, path)}:{weight}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    best = float(re.search(r"best reachable ([0-9.e+-]+) ms", out).group(1))
    traces = {}
    with open(report) as f:
        for r in csv.DictReader(f):
            traces.setdefault(int(r["seed"]), []).append(
                (int(r["trial"]), float(r["model_latency_ms"]), float(r["sim_clock_s"])))
    return best, traces


def seconds_to_reach(trace, latency):
    for _, lat, clock in trace:
        if lat <= latency * (1 + 1e-9):
            return clock
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--trials-per-task", type=int, default=300)
    ap.add_argument("--slot", type=int, default=64, help="the paper's batch: 64")
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--models", default="a6000,rtx3090,milo6,rtx7")
    a = ap.parse_args()
    models = a.models.split(",")
    for m in models:
        if m not in MODELS:
            ap.error(f"unknown model {m} (known: {', '.join(MODELS)})")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                            capture_output=True, text=True).stdout.strip()
    rows = []
    lines = [f"Survey tuning in replay-model, {a.strategy}, slot {a.slot}, "
             f"{a.trials_per_task} measurements per task, {a.seeds} seeds "
             f"({datetime.date.today()}, dltune {commit}); medians over seeds",
             f"{'model':8s} {'scheduler':15s} {'measured':>9s} {'sim s':>9s} "
             f"{'latency/best':>13s} {'rr s to same':>13s} {'saved':>7s}"]
    with tempfile.TemporaryDirectory() as tmp:
        for m in models:
            results = {v: run(a.build, m, v, a, tmp) for v in VARIANTS}
            best, rr = results["round-robin"]
            for v, (_, traces) in results.items():
                measured, seconds, ratio, rr_same, saved = [], [], [], [], []
                for seed, trace in traces.items():
                    last = trace[-1]
                    measured.append(last[0])
                    seconds.append(last[2])
                    ratio.append(last[1] / best)
                    if v != "round-robin":
                        reach = seconds_to_reach(rr[seed], last[1])
                        if reach:
                            rr_same.append(reach)
                            saved.append(1 - last[2] / reach)
                row = {"model": m, "scheduler": v, "seeds": a.seeds,
                       "measured": statistics.median(measured),
                       "sim_seconds": statistics.median(seconds),
                       "latency_over_best": statistics.median(ratio),
                       "rr_seconds_to_same": statistics.median(rr_same) if rr_same else "",
                       "saved_at_equal_latency": statistics.median(saved) if saved else ""}
                rows.append(row)
                rr_txt = f"{row['rr_seconds_to_same']:13.0f}" if rr_same else f"{'-':>13s}"
                saved_txt = f"{100 * row['saved_at_equal_latency']:6.1f}%" if saved else f"{'-':>7s}"
                lines.append(f"{m:8s} {v:15s} {row['measured']:9.0f} {row['sim_seconds']:9.0f} "
                             f"{row['latency_over_best']:13.3f} {rr_txt} {saved_txt}")
    lines.append("saved: 1 - survey's seconds / round-robin's seconds to the same model "
                 "latency (negative: survey paid more)")
    write_results(results_dir("survey"), f"survey_{commit}_{a.strategy}", rows, lines)


if __name__ == "__main__":
    main()
