#!/usr/bin/env python3
"""End-to-end latency of whole models, side by side in one run (issue 9).

    python3 bench/models.py [--models resnet18,...] [--threads 1,2] [--repeat N]
                            [--workdir DIR] [--tuned-db DB] [--skip-untuned]

For each model: exports it with scripts/make_models.py (random weights, fixed
seed), imports it with `dltune import`, checks dltune's output against
PyTorch's on the same input, then times, interleaved round by round so that
machine drift hits every column alike:
  untuned   `dltune run` of the imported model lowered without a schedule
  default   `dltune run --default-config` (dltune's heuristic configs)
  tuned     `dltune run` of the model with the best configs of --tuned-db
            attached (only with --tuned-db)
  pytorch   the same model in PyTorch (oneDNN), same thread count
Each figure is the median over --repeat rounds of one process's median of
its timed calls (dltune: `--repeat 3 --warmup 1` per process; PyTorch:
3 calls after warm-up). Prints a table and writes
bench/results/models.csv. Needs Debian's python3-torchvision (not CI).

Two-thread runs on these VMs are bimodal (bench/README.md): the table shows
the median of the rounds, and min/max are in the CSV.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import make_models  # noqa: E402

DLTUNE = os.path.join(ROOT, "build", "bin", "dltune")  # --build changes it


def run_dltune(mlir, threads, extra, save=None, inp=None):
    cmd = [DLTUNE, "run", mlir, "--entry", "main", "--repeat", "3", "--warmup", "1", "--json",
           "--threads", str(threads)] + extra
    if inp:
        cmd += ["--input", inp]
    if save:
        cmd += ["--save-output", save]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])["median_ms"]


def time_torch(model, x, threads):
    torch.set_num_threads(threads)
    with torch.no_grad():
        model(x)
        times = []
        for _ in range(3):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default="resnet18,mobilenet_v2,squeezenet1_0,encoder")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--workdir", default="/tmp/dltune-models")
    p.add_argument("--tuned-db")
    # Run from a copy of the build so that rebuilding does not break a run.
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default="models", help="results/NAME.csv")
    p.add_argument("--skip-untuned", action="store_true",
                   help="leave out the untuned column (VGG-16's takes minutes per run)")
    a = p.parse_args()
    global DLTUNE
    DLTUNE = os.path.join(a.build, "bin", "dltune")
    os.makedirs(a.workdir, exist_ok=True)
    names = a.models.split(",")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_models.py"), a.workdir,
                    "--models", a.models, "--repeat", "1"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    for name in names:
        base = os.path.join(a.workdir, name)
        subprocess.run([DLTUNE, "import", base + ".onnx", "-o", base + ".mlir"], check=True)
        variants = {"untuned": (base + ".mlir", []),
                    "default": (base + ".mlir", ["--default-config"])}
        if a.skip_untuned:
            del variants["untuned"]
        if a.tuned_db:
            tuned = base + ".tuned.mlir"
            subprocess.run(f"{os.path.join(a.build, 'bin', 'dltune-opt')} {base}.mlir "
                           f"--dltune-annotate=threads=1 --dltune-apply-best=db={a.tuned_db} "
                           f"-o {tuned}", shell=True, check=True, stderr=subprocess.DEVNULL)
            variants["tuned"] = (tuned, [])
        # Correctness first: dltune's default-config output against PyTorch's.
        out = base + ".dltune.npy"
        run_dltune(base + ".mlir", 1, ["--default-config"], save=out, inp=base + ".input.npy")
        mine, ref = np.load(out), np.load(base + ".torch.npy")
        err = float(np.abs(mine - ref).max() / (np.abs(ref).max() + 1e-30))
        make, _ = make_models.MODELS[name]
        torch.manual_seed(0)
        model = make().eval()
        x = torch.from_numpy(np.load(base + ".input.npy"))
        for threads in [int(t) for t in a.threads.split(",")]:
            samples = {k: [] for k in list(variants) + ["pytorch"]}
            for _ in range(a.repeat):
                for k, (path, extra) in variants.items():
                    samples[k].append(run_dltune(path, threads, extra))
                samples["pytorch"].append(time_torch(model, x, threads))
            row = {"model": name, "threads": threads, "rel_error_vs_torch": f"{err:.2e}"}
            for k, v in samples.items():
                row[f"{k}_ms"] = f"{statistics.median(v):.3f}"
                row[f"{k}_min_ms"] = f"{min(v):.3f}"
                row[f"{k}_max_ms"] = f"{max(v):.3f}"
            rows.append(row)
            med = {k: statistics.median(v) for k, v in samples.items()}
            print(f"{name:14s} {threads}t  " + "  ".join(f"{k} {v:9.2f} ms" for k, v in med.items())
                  + f"  torch/default {med['pytorch'] / med['default']:.2f}x"
                  + (f"  torch/tuned {med['pytorch'] / med['tuned']:.2f}x" if "tuned" in med else "")
                  + f"  max rel err {err:.1e}", flush=True)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    with open(os.path.join(HERE, "results", a.out + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
