#!/usr/bin/env python3
"""What ONNX Runtime's NCHWc layout is worth to ONNX Runtime itself (issue 39).

    /usr/bin/python3 bench/ort_layouts.py MODEL.onnx INPUT.npy [--rounds 3]
                                          [--calls 60] [--threads 1]

dltune's MobileNet-v2 1x1 convolutions run as fast as ONNX Runtime's when
timed alone, but about 1.5x slower inside the model (docs/profiling.md).
This measures the same contrast inside ONNX Runtime, between its two CPU
paths for a convolution: graph optimisation level `all` (the NCHWc layout
transformer: activations in 8-channel blocks, MLAS's NCHWc direct kernels)
and `extended` (everything but the layout transformer: NCHW, 1x1 convs as
packed SGEMM, the path that matches dltune's NHWC matmul-like schedule).

Rounds alternate the two levels, one process each (bench/ort_runner.js
--profile, `--calls` calls); per node the median kernel time of the last
two thirds of the calls, summed per layer kind (bench/layer_breakdown.py's
ort_kind). Then each of MobileNet-v2's four 1x1 convs that
docs/profiling.md timed alone, as a one-node model (Conv + bias + Clip
0..6, random weights), under both levels the same way. Prints a table and
writes bench/results/ort_layouts/. Needs node and onnxruntime-node
(bench/README.md) and python3-onnx; not CI.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from layer_breakdown import ort_kind  # noqa: E402
from results_io import results_dir, write_results  # noqa: E402

ORT_RUNNER = os.path.join(HERE, "ort_runner.js")
LEVELS = ("all", "extended")
# (H=W, C, F) of the MobileNet-v2 1x1 convs in docs/profiling.md's table.
ONE_BY_ONE = [(14, 576, 96), (7, 320, 1280), (56, 24, 144), (7, 960, 160)]


def profile(model, inp, level, calls, threads, workdir):
    prefix = os.path.join(workdir, "prof_" + level)
    out = subprocess.run(["node", ORT_RUNNER, model, inp, "--threads", str(threads),
                          "--warmup", "1", "--repeat", str(calls), "--graph-optimization",
                          level, "--profile", prefix], cwd=HERE, check=True,
                         capture_output=True, text=True).stdout
    path = json.loads(out.strip().splitlines()[-1])["profile"]
    with open(path) as f:
        events = json.load(f)
    os.remove(path)
    durs, kinds = {}, {}
    for e in events:
        if e.get("cat") != "Node" or not e["name"].endswith("_kernel_time"):
            continue
        args = e.get("args", {})
        shapes = [list(s.values())[0] for s in args.get("input_type_shape", [])]
        durs.setdefault(e["name"], []).append(e["dur"] / 1000)
        kinds[e["name"]] = ort_kind(args.get("op_name", "?"), shapes)
    runs = [e["dur"] / 1000 for e in events if e.get("name") == "model_run"]
    per_kind = {}
    for name, d in durs.items():
        tail = d[len(d) // 3:]
        per_kind[kinds[name]] = per_kind.get(kinds[name], 0.0) + statistics.median(tail)
    return statistics.median(runs[len(runs) // 3:]), per_kind


def one_by_one_model(hw, c, f, path):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array((rng.standard_normal((f, c, 1, 1)) * 0.05).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal(f).astype(np.float32) * 0.1, "b")
    lo = numpy_helper.from_array(np.array(0, np.float32), "lo")
    hi = numpy_helper.from_array(np.array(6, np.float32), "hi")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], kernel_shape=[1, 1]),
         helper.make_node("Clip", ["y", "lo", "hi"], ["z"])],
        "conv1x1", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c, hw, hw])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, f, hw, hw])],
        [w, b, lo, hi])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    np.save(path + ".input.npy", rng.standard_normal((1, c, hw, hw)).astype(np.float32))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("input")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--calls", type=int, default=60)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    if a.rounds < 1 or a.calls < 3:
        ap.error("--rounds >= 1 and --calls >= 3")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                            capture_output=True, text=True).stdout.strip()
    name = os.path.splitext(os.path.basename(a.model))[0]
    rows, lines = [], []
    lines.append(f"ONNX Runtime, {name}, {a.threads} thread(s), {a.calls} calls per process, "
                 f"{a.rounds} alternating rounds ({datetime.date.today()}, dltune {commit})")
    lines.append("per-kind sums of per-node median kernel ms; extended/all > 1: NCHWc faster")
    with tempfile.TemporaryDirectory() as work:
        ratios = {}
        for r in range(a.rounds):
            got = {lvl: profile(a.model, a.input, lvl, a.calls, a.threads, work)
                   for lvl in LEVELS}
            kinds = sorted(set(got["all"][1]) | set(got["extended"][1]),
                           key=lambda k: -got["extended"][1].get(k, 0))
            for k in kinds + ["model"]:
                all_ms = got["all"][0] if k == "model" else got["all"][1].get(k, 0.0)
                ext_ms = got["extended"][0] if k == "model" else got["extended"][1].get(k, 0.0)
                if max(all_ms, ext_ms) < 0.05:
                    continue
                # A kind only one level has (ORT fuses the residual Add
                # into the NCHWc conv) has no ratio.
                ratio = ext_ms / all_ms if all_ms > 0 else float("nan")
                if all_ms > 0:
                    ratios.setdefault(k, []).append(ratio)
                rows.append({"what": name, "round": r + 1, "kind": k, "all_ms": round(all_ms, 4),
                             "extended_ms": round(ext_ms, 4), "extended_over_all": round(ratio, 3)})
                lines.append(f"  round {r + 1} {k:42s} all {all_ms:7.2f}  extended {ext_ms:7.2f}"
                             f"  x{ratio:5.2f}")
        lines.append("medians over rounds: " + ", ".join(
            f"{k} x{statistics.median(v):.2f}" for k, v in ratios.items()))
        lines.append("one-node models (1x1 conv + bias + Clip), alone:")
        for hw, c, f in ONE_BY_ONE:
            path = os.path.join(work, f"conv1x1_{hw}_{c}_{f}.onnx")
            one_by_one_model(hw, c, f, path)
            for r in range(a.rounds):
                got = {lvl: profile(path, path + ".input.npy", lvl, a.calls, a.threads, work)
                       for lvl in LEVELS}
                conv = {lvl: got[lvl][1].get("1x1/pointwise conv", float("nan")) for lvl in LEVELS}
                ratio = conv["extended"] / conv["all"]
                what = f"1x1 {hw}x{hw} {c}->{f}"
                rows.append({"what": what, "round": r + 1, "kind": "1x1/pointwise conv",
                             "all_ms": round(conv["all"], 4),
                             "extended_ms": round(conv["extended"], 4),
                             "extended_over_all": round(ratio, 3)})
                lines.append(f"  {what:24s} round {r + 1}: all {conv['all']:6.3f}  extended "
                             f"{conv['extended']:6.3f}  x{ratio:5.2f}")
    write_results(results_dir("ort_layouts"), f"ort_layouts_{commit}_{name}_{a.threads}t",
                  rows, lines)


if __name__ == "__main__":
    main()
