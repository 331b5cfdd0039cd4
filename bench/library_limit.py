#!/usr/bin/env python3
"""The library limit of a model: the sum of oneDNN's times for its conv and
matmul layers, each layer timed alone (issue 9's "sum of oneDNN's per-layer
times for the conv/matmul layers").

    python3 bench/library_limit.py MODEL.mlir [MODEL.mlir...] [--threads 1]
                                   [--repeat 20] [--build build] [--out NAME]

MODEL.mlir is a model as `dltune import` writes it (NHWC, each conv's input
padded by a tensor.pad before it): its linalg.conv_2d_nhwc_hwcf,
linalg.depthwise_conv_2d_nhwc_hwc, linalg.matmul and linalg.batch_matmul
ops are read from the text, identical layers counted once and weighted by
their count, and each distinct layer timed by `dltune-bench-baselines`
(bench/baselines.cpp; one process per layer, OMP_NUM_THREADS=--threads,
median of --repeat calls after two warm-ups, weights already in oneDNN's
preferred layout, input and output in NHWC as in dltune's model). Bias,
activations, pooling, pads and everything else a model does are not
counted: the figure is what the best library would spend on the compute
layers alone, with each layer's data hot in cache. Prints a table per model
and writes bench/results/library_limit/NAME.csv (one row per distinct layer).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402

TENSOR = r"tensor<([0-9x]+)xf32>"
ATTRS = r"\{dilations = dense<([^>]*)> : tensor<2xi64>, strides = dense<([^>]*)> : tensor<2xi64>\}"
CONV = re.compile(r"linalg\.conv_2d_nhwc_hwcf " + ATTRS + r" ins\([^:]*: " + TENSOR + ", " + TENSOR)
DEPTHWISE = re.compile(r"linalg\.depthwise_conv_2d_nhwc_hwc " + ATTRS + r" ins\([^:]*: " + TENSOR +
                       ", " + TENSOR)
MATMUL = re.compile(r"linalg\.(batch_)?matmul ins\([^:]*: " + TENSOR + ", " + TENSOR)


def dims(text):
    return [int(d) for d in text.split("x")]


def pair(text):
    """dense<2> or dense<[2, 1]> contents as (h, w)."""
    v = [int(x) for x in text.strip("[]").split(",")]
    return (v[0], v[0]) if len(v) == 1 else tuple(v)


def layers(mlir_text):
    """(kind, measurement arguments, flops) per conv/matmul op, in order;
    unsupported variants (dilations other than 1, transposed matmuls)
    are reported on stderr and skipped."""
    found = []
    for line in mlir_text.splitlines():
        if "linalg." not in line:
            continue
        for pattern, depthwise in ((CONV, False), (DEPTHWISE, True)):
            m = pattern.search(line)
            if not m:
                continue
            if pair(m.group(1)) != (1, 1):
                print(f"skipped (dilated): {line.strip()[:120]}", file=sys.stderr)
                continue
            sh, sw = pair(m.group(2))
            n, ih, iw, c = dims(m.group(3))
            w = dims(m.group(4))
            if depthwise:
                kh, kw, f, groups = w[0], w[1], c, c
            else:
                kh, kw, _, f = w
                groups = 1
            oh, ow = (ih - kh) // sh + 1, (iw - kw) // sw + 1
            args = ["onednn-conv2d", n, ih, iw, c, f, kh, kw, sh, sw, groups]
            found.append(("depthwise conv" if depthwise else "conv", args,
                          2 * n * oh * ow * f * (c // groups) * kh * kw))
        m = MATMUL.search(line)
        if m and "indexing_maps" not in line:
            a, b = dims(m.group(2)), dims(m.group(3))
            batch = a[0] if m.group(1) else 1
            mm, k = a[-2], a[-1]
            nn = b[-1]
            found.append(("batch matmul" if m.group(1) else "matmul",
                          ["onednn-batch-matmul", batch, mm, nn, k], 2 * batch * mm * nn * k))
        elif m:
            print(f"skipped (transposed operands): {line.strip()[:120]}", file=sys.stderr)
    return found


def time_layer(binary, args, threads, repeat):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([binary] + [str(a) for a in args] + [str(repeat)], check=True,
                         capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])["median_ms"]


def library_limit(mlir_path, binary, threads=1, repeat=20):
    """(total ms, rows): rows per distinct layer with count and times."""
    with open(mlir_path) as f:
        ops = layers(f.read())
    counts = collections.Counter((kind, tuple(args)) for kind, args, _ in ops)
    flops = {(kind, tuple(args)): fl for kind, args, fl in ops}
    rows, total = [], 0.0
    for (kind, args), count in counts.items():
        ms = time_layer(binary, list(args), threads, repeat)
        total += ms * count
        rows.append({"model": os.path.basename(mlir_path), "threads": threads, "layer": kind,
                     "args": " ".join(str(a) for a in args[1:]), "count": count,
                     "onednn_ms": f"{ms:.4f}", "total_ms": f"{ms * count:.4f}",
                     "gflops": f"{flops[(kind, args)] / (ms * 1e6):.1f}"})
    return total, rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("models", nargs="+")
    p.add_argument("--threads", default="1")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--out", default="library_limit")
    a = p.parse_args()
    binary = os.path.join(a.build, "bin", "dltune-bench-baselines")
    all_rows, lines = [], []
    for path in a.models:
        for threads in [int(t) for t in a.threads.split(",")]:
            total, rows = library_limit(path, binary, threads, a.repeat)
            all_rows += rows
            lines.append(f"{os.path.basename(path)}, {threads} thread(s): {len(rows)} distinct "
                         f"conv/matmul layers, oneDNN sum {total:.3f} ms")
            for r in sorted(rows, key=lambda r: -float(r["total_ms"])):
                lines.append(f"  {r['layer']:15s} {r['args']:40s} x{r['count']:<3d} "
                             f"{r['onednn_ms']:>9s} ms  {r['gflops']:>7s} GFLOP/s")
    write_results(results_dir("library_limit"), a.out, all_rows, lines)

if __name__ == "__main__":
    main()
