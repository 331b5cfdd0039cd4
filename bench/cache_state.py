#!/usr/bin/env python3
"""Whether a model's latency depends on what the caches hold when a call
starts: a `dltune compile` library called right after another call, and
right after a 64 MB memory sweep, alternately, one thread:

    python3 bench/cache_state.py LIB.so INPUT.npy [LIB.so INPUT.npy ...] [--calls 40] [--out NAME]

(e.g. the libraries bench/models.py --paired leaves in its workdir). Prints
the medians and writes results/cache_state/NAME.csv and .txt (default cache_state).
If both are equal, a model's excess over its tasks' isolated times (each
timed alone in a loop, inputs and weights hot) comes from data moved
between layers within a call, not from the state a call starts in.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dltune_library import DltuneLibrary  # noqa: E402
from results_io import results_dir, write_results  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("pairs", nargs="+", help="LIB.so INPUT.npy, repeated")
    p.add_argument("--calls", type=int, default=40)
    p.add_argument("--out", default="cache_state")
    a = p.parse_args()
    if len(a.pairs) % 2:
        p.error("give LIB.so INPUT.npy pairs")
    sweep = np.ones(16 * 1024 * 1024, np.float32)  # 64 MB, more than L2 + L3 here
    rows, lines = [], []
    for so, inp in zip(a.pairs[::2], a.pairs[1::2]):
        lib, x = DltuneLibrary(so, "main"), np.load(inp)
        for _ in range(3):
            lib(x)
        after_call, after_sweep = [], []
        for _ in range(a.calls):
            t = time.perf_counter()
            lib(x)
            after_call.append((time.perf_counter() - t) * 1e3)
            sweep += 1.0
            t = time.perf_counter()
            lib(x)
            after_sweep.append((time.perf_counter() - t) * 1e3)
        row = {"library": os.path.basename(so), "calls": a.calls,
               "after_call_ms": f"{statistics.median(after_call):.3f}",
               "after_sweep_ms": f"{statistics.median(after_sweep):.3f}"}
        rows.append(row)
        lines.append(f"{row['library']:28s} after a call {row['after_call_ms']:>9s} ms   "
                     f"after a 64 MB sweep {row['after_sweep_ms']:>9s} ms   (medians of {a.calls})")
    write_results(results_dir("cache_state"), a.out, rows, lines)


if __name__ == "__main__":
    main()
