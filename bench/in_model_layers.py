#!/usr/bin/env python3
"""Per-layer time of a model *inside* the model, by prefix differences.

    /usr/bin/python3 bench/in_model_layers.py MODEL.mlir INPUT.npy [--rounds 40]
        [--threads 1] [--workdir DIR] [--json OUT.json]

`dltune run --breakdown` times each task's kernel alone, in a loop: its data
stays in cache between calls, so memory-bound layers look several times
faster than they run in the model (MobileNet-v2's stride-2 depthwise conv:
0.18 ms alone, about 2 ms in the model, 2026-11-26); `--cold` flushes the
caches before each call and errs the other way (the previous layer's output
is in cache in the model). This script measures the layers where they run:
for every convolution or matmul of MODEL.mlir (an imported model, one
`func.func @main`), in order, it writes a prefix of the model that returns
that op's finished result (the end of its elementwise chain), builds each
prefix with `dltune compile --default-config`, loads all of them into this
process (bench/dltune_library.py) and calls them round-robin, the order
reversing every round. Layer k's time is the median over rounds of
t(prefix k) - t(prefix k-1): the op, its epilogue and whatever runs between
the two points (pads, border fills), with the caches as the model leaves
them. Results are not copied out of the library (their sizes differ between
prefixes), only freed. Differences of small layers are noisy (the prefixes
take milliseconds); read them in groups. The MLIR is cut with regular
expressions over the importer's one-op-per-line output; other files may not
parse. Not used by CI.
"""
import argparse
import ctypes
import json
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dltune_library import DltuneLibrary, _descriptor, _libc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYER_OPS = ("linalg.conv_2d_nhwc_hwcf", "linalg.depthwise_conv_2d_nhwc_hwc", "linalg.matmul",
             "linalg.conv_2d_nchw_fchw", "linalg.batch_matmul")


def parse(lines, ret_line):
    """Each SSA value's op, result type and defining line; the users of each value."""
    defs, uses, order = {}, {}, []
    for i, line in enumerate(lines[:ret_line]):
        m = re.match(r"\s+(%[0-9a-z_]+) = ([a-z0-9_.]+)", line)
        if not m:
            continue
        value, op = m.group(1), m.group(2)
        end, rtype = i, None
        if op == "linalg.generic":
            while not re.match(r"\s+\} -> (tensor<[^>]+>)", lines[end]):
                end += 1
            rtype = re.match(r"\s+\} -> (tensor<[^>]+>)", lines[end]).group(1)
        else:
            mt = re.search(r"-> (tensor<[^>]+>)", line)
            rtype = mt.group(1) if mt else None
        defs[value] = (i, rtype, op)
        order.append(value)
    for i, line in enumerate(lines[:ret_line + 1]):
        rhs = line.split("=", 1)[1] if re.match(r"\s+%[0-9a-z_]+ = ", line) else line
        for u in re.findall(r"%[0-9a-z_]+", rhs):
            uses.setdefault(u, []).append(i)
    return defs, uses, order


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("input")
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--workdir", default="/tmp/dltune-in-model-layers")
    p.add_argument("--json")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    lines = open(a.model).read().split("\n")
    ret_line = max(i for i, l in enumerate(lines) if l.strip().startswith("return "))
    sig_line = next(i for i, l in enumerate(lines) if "func.func @main" in l)
    defs, uses, order = parse(lines, ret_line)
    points = []
    for value in order:
        if defs[value][2] not in LAYER_OPS:
            continue
        end = value
        while True:  # follow the single-user elementwise chain
            users = [u for u in uses.get(end, []) if u != defs[end][0]]
            nxt = None
            if len(users) == 1:
                m = re.match(r"\s+(%[0-9a-z_]+) = linalg\.generic", lines[users[0]])
                nxt = m.group(1) if m else None
            if nxt is None:
                break
            end = nxt
        points.append((value, end, defs[end][1]))
    x = np.ascontiguousarray(np.load(a.input))
    libraries = []
    for k, (_, end, rtype) in enumerate(points):
        cut = list(lines)
        cut[ret_line] = re.sub(r"return .*", "return %s : %s" % (end, rtype), cut[ret_line])
        cut[sig_line] = re.sub(r"\) -> .*\{", ") -> %s {" % rtype, cut[sig_line])
        path = os.path.join(a.workdir, "prefix%03d.mlir" % k)
        so = path[:-5] + ".so"
        open(path, "w").write("\n".join(cut))
        subprocess.run([os.path.join(ROOT, "build", "bin", "dltune"), "compile", path, "--entry", "main",
                        "--default-config", "--threads", str(a.threads), "-o", so],
                       check=True, stdout=subprocess.DEVNULL)
        shape = tuple(int(d) for d in rtype[len("tensor<"):-1].split("x")[:-1])
        libraries.append(DltuneLibrary(os.path.abspath(so), "main", shape))
        print("built prefix %d/%d" % (k + 1, len(points)), file=sys.stderr)
    xd = _descriptor(x)
    xp = xd.ctypes.data_as(ctypes.c_void_p)

    def call(library):
        result = np.zeros(3 + 2 * len(library.result_shape), dtype=np.int64)
        library.function(result.ctypes.data_as(ctypes.c_void_p), xp)
        _libc.free(ctypes.c_void_p(int(result[0])))

    times = [[] for _ in libraries]
    for r in range(a.rounds):
        indices = list(range(len(libraries)))
        if r % 2:
            indices.reverse()
        for i in indices:
            t0 = time.perf_counter()
            call(libraries[i])
            times[i].append(time.perf_counter() - t0)
    rows = []
    print("%3s  %-36s %-28s %9s %10s" % ("k", "op", "result", "layer ms", "prefix ms"))
    for k, (value, _, rtype) in enumerate(points):
        deltas = [times[k][r] - (times[k - 1][r] if k else 0.0) for r in range(a.rounds)]
        row = {"k": k, "op": defs[value][2], "result": rtype,
               "layer_ms": statistics.median(deltas) * 1e3,
               "prefix_ms": statistics.median(times[k]) * 1e3}
        rows.append(row)
        print("%3d  %-36s %-28s %9.3f %10.3f" % (k, row["op"], rtype, row["layer_ms"], row["prefix_ms"]))
    if a.json:
        json.dump({"model": a.model, "threads": a.threads, "rounds": a.rounds, "layers": rows},
                  open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
