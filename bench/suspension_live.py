#!/usr/bin/env python3
"""Trimmer's multi-model suspension live on this machine (issue 34): one
study of several models tuned with `--suspend` against the same study
without it, on the same budget.

    python3 bench/suspension_live.py [MODEL.mlir ...] [--trials 96]
                                     [--slot-trials 8] [--workers 1]
                                     [--plateau 2] [--min-improvement 0.01]
                                     [--build DIR] [--out NAME]

Models default to bench/suspension_models/*.mlir (two tasks each). Each
variant creates its study in a fresh database (round-robin scheduler,
`--threads 1`, default confirmation) and runs `--workers` workers of
`dltune tune --study` at once; the variants run one after another.
Then, per model: measurements, modelled energy (`study status`: 10 W per
busy core), the model latency (sum over its tasks of the confirmed best)
and, with suspension, why it stopped. Latencies are each run's own
confirmed medians, taken minutes apart: on these VMs, which drift 10-20%
between phases, a difference of a few percent between the variants is not
a result; the measurements and energy saved are.

Writes results/suspension_live/NAME.{csv,txt}.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402


def run_study(dltune, models, variant, a, tmp):
    db = os.path.join(tmp, f"{variant}.db")
    flags = ["--trials", str(a.trials), "--scheduler", "round-robin",
             "--slot-trials", str(a.slot_trials), "--threads", "1"]
    if variant == "suspend":
        flags += ["--suspend", "--plateau", str(a.plateau),
                  "--min-improvement", str(a.min_improvement)]
    subprocess.run([dltune, "study", "create", variant, *models, "--db", db, *flags],
                   check=True, stdout=subprocess.DEVNULL)
    start = time.monotonic()
    workers = [subprocess.Popen([dltune, "tune", "--study", variant, "--db", db, "--jobs", "2"],
                                stdout=subprocess.DEVNULL,
                                stderr=open(os.path.join(tmp, f"{variant}-{i}.log"), "w"))
               for i in range(a.workers)]
    for w in workers:
        if w.wait() != 0:
            sys.exit(f"a worker of {variant} failed: see {tmp}/{variant}-*.log")
    wall = time.monotonic() - start
    status = json.loads(subprocess.run([dltune, "study", "status", variant, "--db", db,
                                        "--json"], check=True, capture_output=True,
                                       text=True).stdout)
    return wall, status["models"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="*")
    p.add_argument("--trials", type=int, default=96, help="measurements per model")
    p.add_argument("--slot-trials", type=int, default=8)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--plateau", type=int, default=2)
    p.add_argument("--min-improvement", type=float, default=0.01)
    p.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    p.add_argument("--out", default="suspension_live")
    a = p.parse_args()
    models = a.models or sorted(glob.glob(os.path.join(HERE, "suspension_models", "*.mlir")))
    dltune = os.path.join(a.build, "bin", "dltune")
    rows, walls = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        # Relative names: the study keeps each model under the name given.
        for m in models:
            os.symlink(os.path.abspath(m), os.path.join(tmp, os.path.basename(m)))
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            for variant in ("independent", "suspend"):
                wall, status = run_study(dltune, [os.path.basename(m) for m in models],
                                         variant, a, tmp)
                walls[variant] = wall
                print(f"  {variant}: {wall:.1f} s", file=sys.stderr)
                for s in status:
                    rows.append({"variant": variant, "model": s["model"],
                                 "measured": s["measured"], "best_ms": s["best_ms"],
                                 "energy_j_modelled": round(s["energy_j_modelled"], 1),
                                 "cost_s": round(s["cost_s"], 1), "state": s["state"],
                                 "intervals": s.get("intervals", ""),
                                 "stop_reason": s.get("stop_reason", "")})
        finally:
            os.chdir(cwd)
    lines = [f"(round-robin, {a.trials} measurements per model, slots of {a.slot_trials}, "
             f"{a.workers} worker(s), suspension: plateau {a.plateau}, min improvement "
             f"{a.min_improvement}; one run per variant)",
             f"{'variant':12} {'model':14} {'meas.':>6} {'energy J':>9} {'best ms':>9}  state"]
    for r in rows:
        lines.append(f"{r['variant']:12} {r['model']:14} {r['measured']:>6} "
                     f"{r['energy_j_modelled']:>9.0f} {r['best_ms']:>9.4f}  {r['state']}"
                     + (f" {r['stop_reason']}" if r["stop_reason"] else ""))
    for v in ("independent", "suspend"):
        meas = sum(r["measured"] for r in rows if r["variant"] == v)
        energy = sum(r["energy_j_modelled"] for r in rows if r["variant"] == v)
        lines.append(f"{v}: {meas} measurements, {energy:.0f} J modelled, wall {walls[v]:.1f} s")
    e_ind = sum(r["energy_j_modelled"] for r in rows if r["variant"] == "independent")
    e_sus = sum(r["energy_j_modelled"] for r in rows if r["variant"] == "suspend")
    if e_ind > 0:
        lines.append(f"suspension saved {100 * (1 - e_sus / e_ind):.1f}% of the modelled energy")
    write_results(results_dir("suspension_live"), a.out, rows, lines)


if __name__ == "__main__":
    main()
