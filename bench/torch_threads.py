#!/usr/bin/env python3
"""How many cores a "one thread" PyTorch uses, and its latency, with
torch.set_num_threads(1) alone and with OpenBLAS's own count set as well
(scripts/make_models.set_torch_threads). Run each mode in its own process,
because OpenBLAS's count outlives the call that sets it:

    python3 bench/torch_threads.py [--models encoder,resnet18,mobilenet_v2] [--calls 30]
                                   [--out NAME]

Prints and writes results/torch_threads/NAME.csv and .txt (default torch_threads): model, mode, median ms over
--calls calls after 3 warm-up calls, and process CPU time / wall time over
those calls (about the number of busy threads). Needs python3-torchvision.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402


def measure(model_name, mode, calls):
    import numpy as np
    import torch
    import make_models
    if mode == "set_num_threads":
        torch.set_num_threads(1)
    else:
        make_models.set_torch_threads(1)
    make, shape = make_models.MODELS[model_name]
    torch.manual_seed(0)
    model = make().eval()
    x = torch.from_numpy(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        for _ in range(3):
            model(x)
        times = []
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(calls):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1e3)
        busy = (time.process_time() - cpu) / (time.perf_counter() - wall)
    print(f"{statistics.median(times):.3f} {busy:.2f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default="encoder,resnet18,mobilenet_v2")
    p.add_argument("--calls", type=int, default=30)
    p.add_argument("--out", default="torch_threads")
    p.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.one:
        measure(a.one[0], a.one[1], a.calls)
        return
    rows, lines = [], []
    for name in a.models.split(","):
        for mode in ("set_num_threads", "set_torch_threads"):
            out = subprocess.run([sys.executable, __file__, "--one", name, mode,
                                  "--calls", str(a.calls)], check=True, capture_output=True,
                                 text=True).stdout.split()
            rows.append({"model": name, "mode": mode, "median_ms": out[0],
                         "cpu_per_wall": out[1]})
            lines.append(f"{name:14s} {mode:18s} median {out[0]:>9s} ms  CPU/wall {out[1]}")
    write_results(results_dir("torch_threads"), a.out, rows, lines)


if __name__ == "__main__":
    main()
