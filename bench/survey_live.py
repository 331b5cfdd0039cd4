#!/usr/bin/env python3
"""Survey tuning live on this CPU (issue 33): the stop rule on the sum of
task latencies against the rule on the model timed end to end, beside
round-robin on a fixed budget.

    python3 bench/survey_live.py MODEL.mlir [--seeds 0,1] [--slot-trials 8]
                                 [--rr-trials N] [--threads 1] [--build DIR]
                                 [--out NAME]

Per seed, in an order that alternates between seeds, each variant tunes the
model into a fresh database (`dltune tune --scheduler ... -o tuned.mlir`):
  survey-sum    --scheduler survey (the rule sees the sum of task latencies)
  survey-timed  --scheduler survey --entry main (timed end to end per epoch)
  round-robin   --scheduler round-robin --trials N (no stop rule)
Then every tuned file is timed end to end in alternating rounds with the
model at dltune's default configurations (`dltune run`, 3 rounds of 10 hot
calls after 2 warm-up calls; medians), so the result is a ratio measured
side by side (two-core VMs drift 10-20% between processes; the alternation
exposes both sides to the same phases).

Prints one row per run: measurements, wall seconds, timings taken, why the
run stopped and the tuned model's end-to-end speed-up over the defaults;
writes results/survey_live/NAME.{csv,txt}.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402

TRIAL = re.compile(r"model trial (\d+)/(\d+):")
TIMED = re.compile(r"model: timed end to end ([0-9.]+) ms")
STOPPED = re.compile(r"model: tuning stopped: (.*)")


def variant_flags(name, a):
    if name == "survey-sum":
        return ["--scheduler", "survey", "--trials", str(a.max_trials)]
    if name == "survey-timed":
        return ["--scheduler", "survey", "--entry", "main", "--trials", str(a.max_trials)]
    if name == "round-robin":
        return ["--scheduler", "round-robin", "--trials", str(a.rr_trials)]
    sys.exit(f"unknown variant {name}")


def tune(model, name, seed, a, tmp):
    db = os.path.join(tmp, f"{name}-{seed}.db")
    out = os.path.join(tmp, f"{name}-{seed}.mlir")
    cmd = [os.path.join(a.build, "bin", "dltune"), "tune", model, *variant_flags(name, a),
           "--slot-trials", str(a.slot_trials), "--threads", str(a.threads), "--jobs", "2",
           "--confirm-top", "0", "--seed", str(seed), "--db", db, "-o", out]
    start = time.monotonic()
    trials, timings, stop = 0, [], ""
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True) as p:
        for line in p.stderr:
            if m := TRIAL.search(line):
                trials = int(m.group(1))
            elif m := TIMED.search(line):
                timings.append(float(m.group(1)))
            elif m := STOPPED.search(line):
                stop = m.group(1).strip()
    if p.returncode != 0:
        sys.exit(f"{name} seed {seed}: dltune tune failed ({p.returncode})")
    return {"variant": name, "seed": seed, "measurements": trials,
            "wall_s": round(time.monotonic() - start, 1), "timings": len(timings),
            "timed_ms": " ".join(f"{t:.3f}" for t in timings), "stop": stop, "tuned": out}


def run_ms(a, args):
    cmd = [os.path.join(a.build, "bin", "dltune"), "run", *args, "--entry", "main", "--json",
           "--repeat", "10", "--warmup", "2"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"dltune run failed: {r.stderr[-500:]}")
    return json.loads(r.stdout)["median_ms"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--seeds", default="0,1")
    p.add_argument("--variants", default="survey-sum,survey-timed,round-robin")
    p.add_argument("--slot-trials", type=int, default=8)
    p.add_argument("--max-trials", type=int, default=2000, help="the surveys' budget cap")
    p.add_argument("--rr-trials", type=int, default=480)
    p.add_argument("--threads", type=int, default=1)
    # Run from a copy of the build so that rebuilding does not break a run.
    p.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    p.add_argument("--out", default="survey_live")
    a = p.parse_args()
    variants = a.variants.split(",")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, seed in enumerate(int(s) for s in a.seeds.split(",")):
            order = variants if k % 2 == 0 else variants[::-1]
            for name in order:
                runs.append(tune(a.model, name, seed, a, tmp))
                print(f"  tuned {name} seed {seed}: {runs[-1]['measurements']} measurements, "
                      f"{runs[-1]['wall_s']} s", file=sys.stderr)
        # Each tuned model against the defaults, side by side in 3 rounds.
        for r in runs:
            default, tuned = [], []
            for _ in range(3):
                default.append(run_ms(a, [a.model, "--default-config", "--threads",
                                          str(a.threads)]))
                tuned.append(run_ms(a, [r["tuned"]]))
            r["default_ms"] = round(statistics.median(default), 4)
            r["tuned_ms"] = round(statistics.median(tuned), 4)
            r["speedup"] = round(r["default_ms"] / r["tuned_ms"], 3)
            del r["tuned"]
    lines = [f"$ python3 bench/survey_live.py {os.path.basename(a.model)} --seeds {a.seeds} "
             f"--slot-trials {a.slot_trials} --rr-trials {a.rr_trials} --threads {a.threads}",
             f"{'variant':13s} {'seed':>4s} {'meas.':>6s} {'wall s':>7s} {'timings':>7s} "
             f"{'default ms':>10s} {'tuned ms':>9s} {'speed-up':>8s}  stopped"]
    for r in runs:
        lines.append(f"{r['variant']:13s} {r['seed']:4d} {r['measurements']:6d} {r['wall_s']:7.1f} "
                     f"{r['timings']:7d} {r['default_ms']:10.3f} {r['tuned_ms']:9.3f} "
                     f"{r['speedup']:7.3f}x  {r['stop']}")
    write_results(results_dir("survey_live"), a.out, runs, lines)


if __name__ == "__main__":
    main()
