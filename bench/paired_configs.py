#!/usr/bin/env python3
"""A/B of two or more annotated modules of one model, call by call in one process.

    python3 bench/paired_configs.py CALLS THREADS INPUT.npy REFERENCE.npy A.mlir B.mlir [...]

Each module (e.g. the model annotated with dltune's default configs, and
the same after `--dltune-apply-best=db=...`) is built into a library with
`dltune compile` (of $BUILD0, $BUILD1, ... or build/), the libraries are
loaded into this process (bench/dltune_library.py) and called in turn, the
order flipping every round, so that the VM's slow phases hit every side of
a round (see bench/README.md, "Timing on shared VMs"). Prints, per module,
the median call time and the median and quartiles of the per-call ratio
first-module / this-module (above 1: this module is faster), after checking
every output against REFERENCE.npy.
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dltune_library import DltuneLibrary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    calls, threads, inp, refp, files = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    x = np.load(inp)
    ref = np.load(refp)
    workdir = os.environ.get("WORKDIR", "/tmp/dltune-paired-configs")
    os.makedirs(workdir, exist_ok=True)
    libraries = []
    for i, f in enumerate(files):
        build = os.environ.get("BUILD%d" % i, os.path.join(ROOT, "build"))
        so = os.path.join(workdir, "module%d.so" % i)
        subprocess.run([os.path.join(build, "bin", "dltune"), "compile", f, "--entry", "main",
                        "--default-config", "--threads", threads, "-o", so],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        library = DltuneLibrary(os.path.abspath(so), "main", ref.shape)
        err = float(np.abs(library(x) - ref).max() / np.abs(ref).max())
        print("%s max rel err vs reference %.1e" % (f, err))
        libraries.append(library)
    times = [[] for _ in libraries]
    for r in range(calls):
        order = range(len(libraries)) if r % 2 == 0 else reversed(range(len(libraries)))
        for i in order:
            t = time.perf_counter()
            libraries[i](x)
            times[i].append((time.perf_counter() - t) * 1e3)
    for i, f in enumerate(files):
        ratios = [a / b for a, b in zip(times[0], times[i])]
        q = statistics.quantiles(ratios, n=4)
        print("%-40s median %8.3f ms  first/this %.3f [%.3f-%.3f]"
              % (f, statistics.median(times[i]), statistics.median(ratios), q[0], q[2]))


if __name__ == "__main__":
    main()
