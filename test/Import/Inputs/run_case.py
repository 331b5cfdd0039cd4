#!/usr/bin/env python3
"""Runs an imported test model with `dltune run`, feeding the case's inputs
from .npy files and saving every result, then compares each result with the
NumPy reference that make_onnx.py computed:

    run_case.py CASE DIR [--mlir FILE] [--default-config] [--rtol R] [--atol A]

Exit 0 when every output matches within |out - ref| <= atol + rtol * |ref|.
"""
import argparse
import glob
import subprocess
import sys

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("dir")
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-5)
    p.add_argument("--mlir", help="the imported module to run (default: DIR/CASE.mlir)")
    p.add_argument("--default-config", action="store_true",
                   help="run with dltune's default configurations (scheduled, vectorized)")
    a = p.parse_args()
    base = f"{a.dir}/{a.case}"
    inputs = sorted(glob.glob(f"{base}.in*.npy"), key=lambda s: int(s.split(".in")[-1][:-4]))
    refs = sorted(glob.glob(f"{base}.ref*.npy"), key=lambda s: int(s.split(".ref")[-1][:-4]))
    cmd = ["dltune", "run", a.mlir or f"{base}.mlir", "--entry", "main", "--repeat", "1", "--warmup", "0"]
    if a.default_config:
        cmd += ["--default-config", "--threads", "1"]
    for f in inputs:
        cmd += ["--input", f]
    outs = [f"{base}.out{i}.npy" for i in range(len(refs))]
    for f in outs:
        cmd += ["--save-output", f]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    bad = 0
    for out, ref in zip(outs, refs):
        o, r = np.load(out), np.load(ref)
        if o.shape != r.shape:
            print(f"{out}: shape {o.shape}, reference {r.shape}")
            bad += 1
            continue
        err = np.abs(o.astype(np.float64) - r)
        tol = a.atol + a.rtol * np.abs(r)
        worst = float((err - tol).max()) if err.size else 0.0
        print(f"{out}: max abs error {float(err.max()) if err.size else 0.0:.3g}"
              f" ({'ok' if worst <= 0 else 'MISMATCH'})")
        bad += worst > 0
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
