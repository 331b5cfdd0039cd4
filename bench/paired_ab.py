#!/usr/bin/env python3
"""A/B of two or more dltune builds, or modules, of one model, call by call in one process.

    python3 bench/paired_ab.py MODEL.mlir INPUT.npy REFERENCE.npy BUILD [BUILD...]
                               [--modules OTHER.mlir ...]
                               [--calls 30] [--threads 1] [--workdir DIR]

Each BUILD is a build directory (its bin/dltune builds the library); the
model is built with `dltune compile --default-config` by each, the
libraries are loaded into this process (bench/dltune_library.py) and called
in turn, the order flipping every round, so that the VM's slow phases (which
move whole-process timings by 20-50% from minute to minute on these 2-core
VMs) hit every side of a round. Prints, per build, the median call time and
the median and quartiles of the per-round ratio first-build / this-build
(above 1: this build is faster), after checking every output against
REFERENCE.npy (e.g. PyTorch's, from scripts/make-models.sh). This is how the
conv unroll default was measured (2026-11-23, 549914b; bench/README.md).

With --modules, each OTHER.mlir (the same model annotated differently: its
default configs against `--dltune-apply-best`, an option on or off) is
also built by the first BUILD and compared the same way, MODEL.mlir built
by the first BUILD being the first side (how tuned against default configs
was measured, 2026-11-27, b7fe458; bench/README.md).

Two builds' libraries in one process also share glibc's malloc settings:
libraries from builds before 2026-11-23 (d506299) lack the heap policy of
Execution/MallocPolicy.h; run those with
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=2147483647
to compare like with like.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dltune_library import DltuneLibrary  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("input")
    p.add_argument("reference")
    p.add_argument("builds", nargs="+")
    p.add_argument("--modules", nargs="+", default=[],
                   help="more modules of the model, built by the first BUILD")
    p.add_argument("--calls", type=int, default=30)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--workdir", default="/tmp/dltune-paired-ab")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    x = np.load(a.input)
    ref = np.load(a.reference)
    # (label, build, module) per side.
    sides = [(build, build, a.model) for build in a.builds]
    sides += [(module, a.builds[0], module) for module in a.modules]
    libraries = []
    for i, (label, build, module) in enumerate(sides):
        so = os.path.join(a.workdir, "build%d.so" % i)
        subprocess.run([os.path.join(build, "bin", "dltune"), "compile", module, "--entry", "main",
                        "--default-config", "--threads", str(a.threads), "-o", so],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        library = DltuneLibrary(os.path.abspath(so), "main", ref.shape)
        err = float(np.abs(library(x) - ref).max() / (np.abs(ref).max() + 1e-30))
        print("%s: max relative error vs reference %.1e" % (label, err))
        libraries.append(library)
    times = [[] for _ in libraries]
    for r in range(a.calls):
        order = range(len(libraries)) if r % 2 == 0 else reversed(range(len(libraries)))
        for i in order:
            t = time.perf_counter()
            libraries[i](x)
            times[i].append((time.perf_counter() - t) * 1e3)
    for i, (label, _, _) in enumerate(sides):
        ratios = [first / this for first, this in zip(times[0], times[i])]
        q = statistics.quantiles(ratios, n=4)
        print("%-40s median %8.2f ms   first/this %.3f [%.3f-%.3f]" %
              (label, statistics.median(times[i]), statistics.median(ratios), q[0], q[2]))


if __name__ == "__main__":
    main()
