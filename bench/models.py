#!/usr/bin/env python3
"""End-to-end latency of whole models, side by side in one run (issue 9).

    python3 bench/models.py [--models resnet18,...] [--threads 1,2] [--repeat N]
                            [--workdir DIR] [--tuned-db DB] [--skip-untuned]
                            [--engines default,tuned,pytorch,ort,...]

For each model: exports it with scripts/make_models.py (random weights, fixed
seed), imports it with `dltune import`, checks dltune's output against
PyTorch's on the same input, then times, interleaved round by round so that
machine drift hits every column alike:
  untuned   `dltune run` of the imported model lowered without a schedule
  default   `dltune run --default-config` (dltune's heuristic configs; 3x3
            convolutions by Winograd's algorithm unless --no-winograd)
  tuned     `dltune run` of the model with the best configs of --tuned-db
            attached (only with --tuned-db; after --dltune-winograd, as
            `dltune tune` does, unless --no-winograd); tasks the database
            does not hold keep dltune's default configs (apply-best alone
            would leave them unscheduled)
  oneDNN layer sum  the library limit: oneDNN's time for each conv/matmul
            layer alone, summed over the model (bench/library_limit.py;
            compute layers only, each with its data hot in cache)
  pytorch   the same model in PyTorch (oneDNN for convolutions, OpenBLAS for
            Linear/MatMul), same thread count: torch.set_num_threads and
            OpenBLAS's own count (make_models.set_torch_threads; before
            2026-11-24 (8b741b9) OpenBLAS kept both cores busy in "1 thread" runs),
            checked by the CPU/wall column
  ort       the same .onnx in ONNX Runtime (onnxruntime-node, its MLAS
            kernels) through bench/ort_runner.js: intraOpNumThreads = the
            thread count, interOpNumThreads = 1, sequential execution, all
            graph optimisations, the input dltune gets; its output is
            checked against dltune's default-config output (and PyTorch's):
            max |difference| / max |reference| within ORT_TOLERANCE.
            Ratio columns speed_default_vs_ort and speed_tuned_vs_ort are
            ort_ms / dltune_ms (above 1: dltune faster). Needs node and
            `npm install --ignore-scripts --no-save --no-package-lock
            --prefix bench onnxruntime-node` (bench/README.md; not CI); by
            default the column is left out with a note when it is missing
--engines picks the columns (untuned, default, tuned, pytorch, ort, onednn;
default: all that can run); the correctness check always runs.
Each figure is the median over --repeat rounds of one process's median of
its timed calls (dltune and ONNX Runtime: 3 calls after 1 warm-up per
process; PyTorch: 3 calls after warm-up). Prints a table and writes
bench/results/models/models.csv. Needs Debian's python3-torchvision (not CI).

Two-thread runs on these VMs are bimodal (bench/README.md): the table shows
the median of the rounds, and min/max are in the CSV.

--paired N (one thread only) adds a comparison that the VM's slow phases
(which move whole-process figures by 20-50% from minute to minute) cannot
bias: dltune's model is built into a library with `dltune compile` and
called from this process (bench/dltune_library.py), alternating with
PyTorch call by call, N rounds; the ratio of each round's pair is taken and
their median (and quartiles) reported. Not for two threads: PyTorch's and
dltune's OpenMP runtimes in one process would spin against each other.
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
from dltune_library import DltuneLibrary  # noqa: E402
import library_limit  # noqa: E402

DLTUNE = os.path.join(ROOT, "build", "bin", "dltune")  # --build changes it
BASELINES = os.path.join(ROOT, "build", "bin", "dltune-bench-baselines")
ORT_RUNNER = os.path.join(HERE, "ort_runner.js")
ENGINES = ["untuned", "default", "tuned", "pytorch", "ort", "onednn"]
# ONNX Runtime's output against dltune's (and PyTorch's): max |difference| /
# max |reference|. Both run float32 with different summation orders and
# Winograd on dltune's side; the models here agree to ~1e-6.
ORT_TOLERANCE = 1e-4


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


def ort_missing():
    """Why ONNX Runtime cannot run here, or None."""
    try:
        subprocess.run(["node", "-e", "require.resolve('onnxruntime-node')"], cwd=HERE,
                       check=True, capture_output=True)
    except FileNotFoundError:
        return "node is not installed"
    except subprocess.CalledProcessError:
        return "onnxruntime-node is not installed (bench/README.md, 'Whole models')"
    return None


def run_ort(onnx, inp, threads, save=None):
    """One process of bench/ort_runner.js: its JSON (median_ms, ...)."""
    cmd = ["node", ORT_RUNNER, onnx, inp, "--threads", str(threads), "--warmup", "1",
           "--repeat", "3"]
    if save:
        cmd += ["--save-output", save]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=HERE).stdout
    return json.loads(out.strip().splitlines()[-1])


def rel_error(mine, ref):
    return float(np.abs(mine - ref).max() / (np.abs(ref).max() + 1e-30))


def time_torch(model, x, threads):
    make_models.set_torch_threads(threads)
    with torch.no_grad():
        model(x)
        times = []
        for _ in range(3):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def torch_cpu_per_wall(model, x, threads):
    """About how many threads PyTorch kept busy: the check that the thread
    count holds (it did not before OpenBLAS's own count was set)."""
    make_models.set_torch_threads(threads)
    with torch.no_grad():
        return make_models.cpu_per_wall(lambda: model(x))


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return q[0], statistics.median(values), q[2]


def time_paired(model, x, base, variants, calls):
    """One thread, in this process: each variant's `dltune compile` library
    and PyTorch called in turn, `calls` rounds, the order alternating round
    by round, so that the VM's slow phases hit both sides of every pair.
    Returns the CSV columns: medians and the per-pair torch/dltune ratio."""
    make_models.set_torch_threads(1)
    libraries = {}
    for k, (path, extra) in variants.items():
        if k == "untuned":
            continue  # minutes to build for VGG; the process-level column has it
        so = base + "." + k + ".so"
        defaults = [e for e in extra if e.startswith("--winograd")]
        if "--default-config" in extra:
            defaults += ["--default-config", "--threads", "1"]
        subprocess.run([DLTUNE, "compile", path, "--entry", "main", "-o", so] + defaults,
                       check=True, stdout=subprocess.DEVNULL)
        out_shape = np.load(base + ".torch.npy").shape
        libraries[k] = DltuneLibrary(so, "main", out_shape)
    inp = np.ascontiguousarray(x.numpy())
    times = {k: [] for k in ["pytorch"] + list(libraries)}

    def call(k):
        t = time.perf_counter()
        if k == "pytorch":
            with torch.no_grad():
                model(x)
        else:
            libraries[k](inp)
        return (time.perf_counter() - t) * 1e3

    for k in times:  # warm-up
        call(k)
    order = list(times)
    for i in range(calls):
        for k in (order if i % 2 == 0 else order[::-1]):
            times[k].append(call(k))
    cols = {"paired_calls": calls,
            "paired_pytorch_ms": f"{statistics.median(times['pytorch']):.3f}"}
    for k in libraries:
        ratios = [t / d for t, d in zip(times["pytorch"], times[k])]
        q1, med, q3 = quartiles(ratios)
        cols[f"paired_{k}_ms"] = f"{statistics.median(times[k]):.3f}"
        cols[f"paired_{k}_ratio"] = f"{med:.2f}"
        cols[f"paired_{k}_q1"] = f"{q1:.2f}"
        cols[f"paired_{k}_q3"] = f"{q3:.2f}"
    return cols


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default="resnet18,mobilenet_v2,squeezenet1_0,encoder")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--workdir", default="/tmp/dltune-models")
    p.add_argument("--tuned-db")
    p.add_argument("--no-winograd", action="store_true",
                   help="default and tuned variants without --dltune-winograd (for a "
                        "database tuned with `dltune tune --winograd=false`)")
    # Run from a copy of the build so that rebuilding does not break a run.
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default="models", help="results/models/NAME.csv")
    p.add_argument("--paired", type=int, default=0, metavar="N",
                   help="1 thread: also time dltune (its `dltune compile` library) and PyTorch "
                        "in this process, N alternating calls each, and report the median of "
                        "the per-pair ratios")
    p.add_argument("--skip-untuned", action="store_true",
                   help="leave out the untuned column (VGG-16's takes minutes per run)")
    p.add_argument("--engines",
                   help="comma-separated columns to time, of " + ",".join(ENGINES) +
                        " (default: all that can run here: tuned only with --tuned-db, ort "
                        "only where onnxruntime-node is installed, onednn only where "
                        "dltune-bench-baselines is built)")
    a = p.parse_args()
    if a.paired == 1:
        p.error("--paired needs at least 2 calls (quartiles of the per-pair ratios)")
    if a.engines:
        engines = a.engines.split(",")
        unknown = [e for e in engines if e not in ENGINES]
        if unknown:
            p.error(f"unknown engine(s) {','.join(unknown)}; known: {','.join(ENGINES)}")
        if "tuned" in engines and not a.tuned_db:
            p.error("the tuned column needs --tuned-db")
        if "ort" in engines and ort_missing():
            p.error(f"the ort column: {ort_missing()}")
    else:
        engines = list(ENGINES)
        if not a.tuned_db:
            engines.remove("tuned")
        why = ort_missing()
        if why:
            print(f"note: no ort column: {why}", file=sys.stderr)
            engines.remove("ort")
    if a.skip_untuned and "untuned" in engines:
        engines.remove("untuned")
    if a.paired and "pytorch" not in engines:
        p.error("--paired pairs dltune with PyTorch: keep pytorch in --engines")
    global DLTUNE, BASELINES
    DLTUNE = os.path.join(a.build, "bin", "dltune")
    BASELINES = os.path.join(a.build, "bin", "dltune-bench-baselines")
    if not os.path.exists(BASELINES) and "onednn" in engines:
        if a.engines:
            p.error(f"the onednn column needs {BASELINES}")
        engines.remove("onednn")
    os.makedirs(a.workdir, exist_ok=True)
    names = a.models.split(",")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_models.py"), a.workdir,
                    "--models", a.models, "--repeat", "1"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    for name in names:
        base = os.path.join(a.workdir, name)
        subprocess.run([DLTUNE, "import", base + ".onnx", "-o", base + ".mlir"], check=True)
        no_winograd = ["--winograd=false"] if a.no_winograd else []
        variants = {"untuned": (base + ".mlir", []),
                    "default": (base + ".mlir", ["--default-config"] + no_winograd)}
        if "untuned" not in engines:
            del variants["untuned"]
        if "default" not in engines:
            del variants["default"]
        if "tuned" in engines:
            tuned = base + ".tuned.mlir"
            subprocess.run(f"{os.path.join(a.build, 'bin', 'dltune-opt')} {base}.mlir "
                           f"{'' if a.no_winograd else '--dltune-winograd '}"
                           f"--dltune-annotate=\"threads=1 default-config=true\" --dltune-apply-best=db={a.tuned_db} "
                           f"-o {tuned}", shell=True, check=True, stderr=subprocess.DEVNULL)
            variants["tuned"] = (tuned, [])
        # Correctness first: dltune's default-config output against PyTorch's.
        out = base + ".dltune.npy"
        run_dltune(base + ".mlir", 1, ["--default-config"], save=out, inp=base + ".input.npy")
        mine, ref = np.load(out), np.load(base + ".torch.npy")
        err = rel_error(mine, ref)
        if "ort" in engines:
            # ONNX Runtime's output for the same input, against dltune's.
            ort_out = base + ".ort.npy"
            info = run_ort(base + ".onnx", base + ".input.npy", 1, save=ort_out)
            theirs = np.load(ort_out)
            ort_err = rel_error(theirs, mine)
            ort_err_torch = rel_error(theirs, ref)
            if ort_err > ORT_TOLERANCE:
                print(f"warning: {name}: ONNX Runtime's output differs from dltune's by "
                      f"{ort_err:.1e} (max relative), above {ORT_TOLERANCE:.0e}", file=sys.stderr)
        make, _ = make_models.MODELS[name]
        torch.manual_seed(0)
        model = make().eval()
        x = torch.from_numpy(np.load(base + ".input.npy"))
        for threads in [int(t) for t in a.threads.split(",")]:
            others = [k for k in ("pytorch", "ort") if k in engines]
            samples = {k: [] for k in list(variants) + others}
            for _ in range(a.repeat):
                for k, (path, extra) in variants.items():
                    samples[k].append(run_dltune(path, threads, extra))
                if "pytorch" in samples:
                    samples["pytorch"].append(time_torch(model, x, threads))
                if "ort" in samples:
                    samples["ort"].append(
                        run_ort(base + ".onnx", base + ".input.npy", threads)["median_ms"])
            row = {"model": name, "threads": threads, "rel_error_vs_torch": f"{err:.2e}"}
            for k, v in samples.items():
                row[f"{k}_ms"] = f"{statistics.median(v):.3f}"
                row[f"{k}_min_ms"] = f"{min(v):.3f}"
                row[f"{k}_max_ms"] = f"{max(v):.3f}"
            med = {k: statistics.median(v) for k, v in samples.items()}
            if "pytorch" in samples:
                row["pytorch_cpu_per_wall"] = f"{torch_cpu_per_wall(model, x, threads):.2f}"
            if "ort" in samples:
                row["ort_version"] = info["ort_version"]
                row["ort_rel_error_vs_dltune"] = f"{ort_err:.2e}"
                row["ort_rel_error_vs_torch"] = f"{ort_err_torch:.2e}"
                row["ort_tolerance"] = f"{ORT_TOLERANCE:.0e}"
                row["ort_output_ok"] = int(ort_err <= ORT_TOLERANCE)
                for k in ("default", "tuned"):
                    if k in med:
                        row[f"speed_{k}_vs_ort"] = f"{med['ort'] / med[k]:.3f}"
            if "onednn" in engines:
                limit, _ = library_limit.library_limit(base + ".mlir", BASELINES, threads)
                row["onednn_layers_ms"] = f"{limit:.3f}"
            if a.paired and threads == 1:
                row.update(time_paired(model, x, base, variants, a.paired))
            rows.append(row)
            ratios = [(base_, k) for base_ in ("pytorch", "ort") for k in ("default", "tuned")
                      if base_ in med and k in med]
            print(f"{name:14s} {threads}t  " + "  ".join(f"{k} {v:9.2f} ms" for k, v in med.items())
                  + "".join(f"  {'torch' if b == 'pytorch' else b}/{k} {med[b] / med[k]:.2f}x"
                            for b, k in ratios)
                  + (f"  oneDNN layer sum {row['onednn_layers_ms']} ms" if "onednn_layers_ms" in row
                     else "")
                  + f"  max rel err {err:.1e}"
                  + (f"  ORT vs dltune {row['ort_rel_error_vs_dltune']}" if "ort" in med else "")
                  + (f"  PyTorch CPU/wall {row['pytorch_cpu_per_wall']}" if "pytorch" in med
                     else ""),
                  flush=True)
            for k in variants:
                if f"paired_{k}_ratio" in row:
                    print(f"{'':14s} {threads}t  paired, {a.paired} calls: torch/{k} "
                          f"{row[f'paired_{k}_ratio']}x [{row[f'paired_{k}_q1']}-"
                          f"{row[f'paired_{k}_q3']}] (median per-pair ratio [quartiles]; "
                          f"medians torch {row['paired_pytorch_ms']} ms, {k} "
                          f"{row[f'paired_{k}_ms']} ms)", flush=True)
    os.makedirs(os.path.join(HERE, "results", "models"), exist_ok=True)
    with open(os.path.join(HERE, "results", "models", a.out + ".csv"), "w", newline="") as f:
        fields = []
        for r in rows:
            fields += [k for k in r if k not in fields]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
