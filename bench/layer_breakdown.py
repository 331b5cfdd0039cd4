#!/usr/bin/env python3
"""Where the time goes, per layer kind: dltune beside ONNX Runtime (issue 39, item 2).

    /usr/bin/python3 bench/layer_breakdown.py [--models resnet18,...] [--threads 1]
                                              [--workdir DIR] [--doc docs/performance.md]

For each model: exports it with scripts/make_models.py (random weights, fixed
seed) and imports it with `dltune import`, then
  dltune  `dltune run --default-config --breakdown` (each tuning task's kernel
          timed alone with its config, median of its calls, times its
          occurrences; the model's median minus their sum is "outside tasks")
  ORT     bench/ort_runner.js --profile (ONNX Runtime's profiler,
          enableProfiling): each node's kernel time ("Node" events), median
          over the timed calls (the warm-up call is dropped); the median
          model_run time minus the nodes' sum is "between kernels"
and groups both by layer kind (KINDS, with the rules of dltune_kind and
ort_kind, which the page states). Writes docs/performance.md and the raw
numbers (per task / per node and per kind) to bench/results/layer_breakdown/.
Needs torch (Debian's python3-torch), node and onnxruntime-node under
bench/node_modules (bench/README.md); not CI.
"""
import argparse
import csv
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DLTUNE = os.path.join(ROOT, "build", "bin", "dltune")
ORT_RUNNER = os.path.join(HERE, "ort_runner.js")
RESULTS = os.path.join(HERE, "results", "layer_breakdown")

KINDS = ["stem conv", "3x3 conv", "1x1/pointwise conv", "depthwise conv", "grouped conv",
         "other conv", "fully connected/matmul", "pooling",
         "copies (concat/split/shuffle/reshape/pad)", "softmax/layer norm/reductions",
         "elementwise chains", "unclassified"]
REST_DLTUNE = "outside tasks (dltune: pads, transposes, Winograd transforms, ...)"
REST_ORT = "between kernels (ORT: framework overhead)"

RULES = """\
- dltune's task names are `dltune run --breakdown`'s (cut at 70 characters by
  that table); the kind comes from the op name and the shapes that remain:
  - a convolution (`conv` in the op name) whose input has 3 channels (the
    image): **stem conv**; `depthwise` in the op name: **depthwise conv**;
    a grouped convolution op (`ngchw`/`group`): **grouped conv**; otherwise
    the filter's first two dimensions (HWCF): 1x1 **1x1/pointwise**, 3x3
    **3x3 conv**, anything else or cut off **other conv**;
  - `linalg.batch_matmul` with batch 16 or 36 in a model that has convolutions is
    the GEMM stage of Winograd F(2x2, 3x3) or F(4x4, 3x3) (16 = 4x4 and 36 = 6x6
    tile positions): **3x3 conv**. Its input and output transforms are not
    tuning tasks: they are
    in "outside tasks", so dltune's 3x3 row is a lower bound of its 3x3
    convolutions' time;
  - any other matmul/batch_matmul: **fully connected/matmul**;
  - `pooling`: **pooling**; a `reduction addf` of an NxHxWxC tensor to NxC
    (global average pooling's sum): **pooling**; other reductions, softmax,
    layer norm: **softmax/layer norm/reductions**;
  - `elementwise`: **elementwise chains**; transpose/copy/concat/pad/
    reshape tasks: **copies**; anything else: **unclassified**.
  - "outside tasks" is the model's median minus the sum of the tasks' times:
    ops that are no tuning task (pads, transposes, Winograd transforms,
    residual adds left unfused, ...) plus or minus the difference between a
    kernel timed alone and inside the model (it can be negative).
- ONNX Runtime's nodes are those of the optimised graph it runs (Conv with
  fused ReLU/Add, NCHWc layouts, ...), kind from `op_name` and the shapes
  the profiler records:
  - Conv/FusedConv (any domain): group = input channels / weight's second
    dimension; input with 3 channels: **stem conv**; group = input channels
    > 1: **depthwise conv**; other group > 1: **grouped conv**; else by the
    weight's kernel size: 1x1 **1x1/pointwise**, 3x3 **3x3 conv**, else
    **other conv**;
  - MatMul, Gemm, FusedMatMul, FusedGemm: **fully connected/matmul**;
  - MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool: **pooling**;
  - Concat, Split, Slice, Reshape, Flatten, Transpose, Squeeze, Unsqueeze,
    Gather, Pad, Expand, Identity, ReorderInput, ReorderOutput (NCHWc
    layout changes): **copies**;
  - Softmax, LayerNormalization, SkipLayerNormalization,
    SimplifiedLayerNormalization, Reduce*: **softmax/layer norm/reductions**;
  - every other op (Add, Mul, Relu, Clip, Erf, Gelu, Div, Sqrt, ...):
    **elementwise chains**.
  - "between kernels" is the median model_run time minus the sum of the
    nodes' (median) kernel times.
- The two engines fuse differently (ORT folds ReLU and residual Adds into its
  Conv nodes; dltune fuses bias/ReLU into its conv tasks and leaves the rest
  outside tasks), so a kind's ratio compares what each engine files under
  that kind; the totals are comparable, the rows approximately."""


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def parse_breakdown(text):
    """`dltune run --breakdown` (text): model median ms, [(task, occurrences, ms/call, total ms)], rest ms."""
    model = re.search(r"median ([0-9.]+) ms", text)
    if not model:
        raise ValueError("no model median in dltune's output:\n" + text)
    tasks, rest = [], None
    for line in text.splitlines():
        m = re.match(r"^(.*?)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+-?[0-9.]+%$", line)
        if m and not line.startswith("ops without a task"):
            tasks.append((m.group(1).strip(), int(m.group(2)), float(m.group(3)),
                          float(m.group(4))))
        m = re.match(r"^ops without a task.*?\s(-?[0-9.]+)\s+-?[0-9.]+%$", line)
        if m:
            rest = float(m.group(1))
    if rest is None:
        raise ValueError("no 'ops without a task' line in dltune's output:\n" + text)
    return float(model.group(1)), tasks, rest


def dims(shape):
    return [int(d) for d in shape.split("x") if d.isdigit()]


def dltune_kind(name, has_conv):
    name = re.sub(r"^\(untuned\) ", "", name)
    op = name.split()[0]
    shapes = name.split()[-1].rstrip(".").split(";")
    if "conv" in op:
        inp = dims(shapes[0])
        if inp and inp[-1] == 3:
            return "stem conv"
        if "depthwise" in op:
            return "depthwise conv"
        if "ngchw" in op or "group" in op:
            return "grouped conv"
        filt = dims(shapes[1]) if len(shapes) > 1 else []
        if len(filt) >= 2:
            return {(1, 1): "1x1/pointwise conv", (3, 3): "3x3 conv"}.get(
                tuple(filt[:2]), "other conv")
        return "other conv"
    if "matmul" in op:
        first = dims(shapes[0])
        if op == "linalg.batch_matmul" and has_conv and first and first[0] in (16, 36):
            return "3x3 conv"
        return "fully connected/matmul"
    if "pooling" in op:
        return "pooling"
    if op == "reduction":
        inp = dims(shapes[0])
        out = dims(shapes[1]) if len(shapes) > 1 else []
        if len(inp) == 4 and len(out) == 2 and "addf" in name:
            return "pooling"
        return "softmax/layer norm/reductions"
    if "softmax" in op or "norm" in op:
        return "softmax/layer norm/reductions"
    if op == "elementwise":
        return "elementwise chains"
    if any(k in op for k in ("transpose", "copy", "concat", "pad", "reshape", "broadcast")):
        return "copies (concat/split/shuffle/reshape/pad)"
    return "unclassified"


ORT_COPIES = {"Concat", "Split", "Slice", "Reshape", "Flatten", "Transpose", "Squeeze",
              "Unsqueeze", "Gather", "Pad", "Expand", "Identity", "ReorderInput",
              "ReorderOutput", "Tile", "Shape"}
ORT_NORM = {"Softmax", "LayerNormalization", "SkipLayerNormalization",
            "SimplifiedLayerNormalization", "SkipSimplifiedLayerNormalization"}


def ort_kind(op, in_shapes):
    if op in ("Conv", "FusedConv", "NhwcFusedConv"):
        x = in_shapes[0] if in_shapes else []
        w = in_shapes[1] if len(in_shapes) > 1 else []
        if len(x) < 2 or len(w) < 4:
            return "other conv"
        c = x[1]
        if c == 3:
            return "stem conv"
        group = c // w[1] if w[1] else 1
        if group > 1 and group == c:
            return "depthwise conv"
        if group > 1:
            return "grouped conv"
        return {(1, 1): "1x1/pointwise conv", (3, 3): "3x3 conv"}.get(
            (w[2], w[3]), "other conv")
    if op in ("MatMul", "Gemm", "FusedMatMul", "FusedGemm", "MatMulNBits"):
        return "fully connected/matmul"
    if op in ("MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"):
        return "pooling"
    if op in ORT_COPIES:
        return "copies (concat/split/shuffle/reshape/pad)"
    if op in ORT_NORM or op.startswith("Reduce"):
        return "softmax/layer norm/reductions"
    return "elementwise chains"


def parse_profile(path):
    """ORT's trace: model run median ms, [(node, op, kind, median ms)], between-kernels ms."""
    with open(path) as f:
        events = json.load(f)
    runs = [e["dur"] / 1000 for e in events if e.get("name") == "model_run"]
    if len(runs) < 2:
        raise ValueError(f"{path}: {len(runs)} model_run events, expected a warm-up and timed calls")
    per_node = {}
    for e in events:
        if e.get("cat") != "Node" or not e["name"].endswith("_kernel_time"):
            continue
        args = e.get("args", {})
        shapes = [list(s.values())[0] for s in args.get("input_type_shape", [])]
        entry = per_node.setdefault(e["name"], {"op": args.get("op_name", "?"),
                                                "shapes": shapes, "durs": []})
        entry["durs"].append(e["dur"] / 1000)
    nodes = []
    for name, entry in per_node.items():
        durs = entry["durs"][1:] if len(entry["durs"]) == len(runs) else entry["durs"]
        nodes.append((name[:-len("_kernel_time")], entry["op"],
                      ort_kind(entry["op"], entry["shapes"]), statistics.median(durs),
                      entry["shapes"]))
    model = statistics.median(runs[1:])
    return model, nodes, model - sum(n[3] for n in nodes)


def measure(name, workdir, threads):
    base = os.path.join(workdir, name)
    run([DLTUNE, "import", base + ".onnx", "-o", base + ".mlir"])
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    text = run([DLTUNE, "run", base + ".mlir", "--entry", "main", "--default-config",
                "--threads", str(threads), "--repeat", "3", "--warmup", "1", "--breakdown",
                "--input", base + ".input.npy"], env=env)
    d_model, tasks, d_rest = parse_breakdown(text)
    has_conv = any("conv" in t[0].split()[0] for t in tasks)
    prefix = os.path.join(workdir, name + ".ortprofile")
    info = json.loads(run(["node", ORT_RUNNER, base + ".onnx", base + ".input.npy",
                           "--threads", str(threads), "--warmup", "1", "--repeat", "3",
                           "--profile", prefix], cwd=HERE).strip().splitlines()[-1])
    o_model, nodes, o_rest = parse_profile(info["profile"])
    return {"model": name, "threads": threads, "ort_version": info["ort_version"],
            "dltune_ms": d_model, "dltune_rest_ms": d_rest, "ort_ms": o_model,
            "ort_rest_ms": o_rest,
            "tasks": [{"task": t[0], "kind": dltune_kind(t[0], has_conv), "occurrences": t[1],
                       "ms_per_call": t[2], "total_ms": t[3]} for t in tasks],
            "nodes": [{"node": n[0], "op": n[1], "kind": n[2], "ms": n[3],
                       "input_shapes": n[4]} for n in nodes]}


def by_kind(r):
    d = {k: [0.0, 0] for k in KINDS}
    o = {k: [0.0, 0] for k in KINDS}
    for t in r["tasks"]:
        d[t["kind"]][0] += t["total_ms"]
        d[t["kind"]][1] += t["occurrences"]
    for n in r["nodes"]:
        o[n["kind"]][0] += n["ms"]
        o[n["kind"]][1] += 1
    return d, o


def table(r):
    d, o = by_kind(r)
    lines = ["| layer kind | dltune ms (tasks) | ORT ms (nodes) | ORT/dltune | dltune share | ORT share |",
             "|---|---:|---:|---:|---:|---:|"]
    rows = []
    for k in KINDS:
        if d[k][1] == 0 and o[k][1] == 0:
            continue
        ratio = f"{o[k][0] / d[k][0]:.2f}" if d[k][0] > 0 and o[k][1] else "-"
        rows.append((k, d[k], o[k], ratio))
        lines.append(f"| {k} | {d[k][0]:.3f} ({d[k][1]}) | {o[k][0]:.3f} ({o[k][1]}) | {ratio} | "
                     f"{100 * d[k][0] / r['dltune_ms']:.1f}% | {100 * o[k][0] / r['ort_ms']:.1f}% |")
    lines.append(f"| {REST_DLTUNE} / {REST_ORT} | {r['dltune_rest_ms']:.3f} | {r['ort_rest_ms']:.3f} | - | "
                 f"{100 * r['dltune_rest_ms'] / r['dltune_ms']:.1f}% | "
                 f"{100 * r['ort_rest_ms'] / r['ort_ms']:.1f}% |")
    ratio = r["ort_ms"] / r["dltune_ms"]
    lines.append(f"| **whole model** | **{r['dltune_ms']:.3f}** | **{r['ort_ms']:.3f}** | "
                 f"**{ratio:.2f}** | 100% | 100% |")
    return lines


def write_results(results, stamp):
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, f"layer_breakdown_{stamp}.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(RESULTS, f"layer_breakdown_{stamp}_kinds.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "threads", "kind", "dltune_ms", "dltune_ops", "ort_ms", "ort_nodes",
                    "dltune_model_ms", "ort_model_ms"])
        for r in results:
            d, o = by_kind(r)
            for k in KINDS:
                w.writerow([r["model"], r["threads"], k, f"{d[k][0]:.4f}", d[k][1],
                            f"{o[k][0]:.4f}", o[k][1], r["dltune_ms"], f"{r['ort_ms']:.4f}"])
            w.writerow([r["model"], r["threads"], "rest", f"{r['dltune_rest_ms']:.4f}", "",
                        f"{r['ort_rest_ms']:.4f}", "", r["dltune_ms"], f"{r['ort_ms']:.4f}"])


def write_doc(results, path, command, commit):
    cpu = run(["sh", "-c", "lscpu | grep 'Model name'"]).split(":", 1)[-1].strip()
    threads = sorted({r["threads"] for r in results})
    out = ["# Where the time goes: dltune beside ONNX Runtime, per layer kind", "",
           f"Generated by `bench/layer_breakdown.py` (`{command}`); do not edit by hand, rerun it.", "",
           f"- Date: {datetime.date.today().isoformat()}; commit {commit}; machine: {cpu}; "
           f"threads: {','.join(map(str, threads))}; ONNX Runtime {results[0]['ort_version']} "
           "(onnxruntime-node, CPU execution provider).",
           "- Models from `scripts/make_models.py` (random weights, fixed seed), the same .onnx "
           "for both engines, the same input.",
           "- dltune: `dltune run --default-config --breakdown --repeat 3 --warmup 1` "
           "(default configurations, Winograd for 3x3 stride-1 convolutions); each tuning "
           "task's kernel timed alone, median of its calls, times its occurrences; "
           "\"whole model\" is the model's median over 3 calls.",
           "- ONNX Runtime: `bench/ort_runner.js --profile` (intraOpNumThreads = threads, "
           "interOpNumThreads 1, sequential, all graph optimisations, profiler on: "
           "`enableProfiling`); 1 warm-up + 3 calls, each node's median kernel time over the "
           "3 timed calls; \"whole model\" is the median `model_run` time (with the profiler "
           "on).",
           "- One process per engine per model, one run: the VM's slow phases move whole "
           "figures by 20-50% (bench/README.md); read ratios, not single milliseconds. "
           "ORT/dltune above 1: dltune faster. Counts in parentheses: dltune ops "
           "(task occurrences), ORT nodes.", "",
           "## How layers are mapped to kinds", "", RULES, ""]
    for r in results:
        out += [f"## {r['model']} ({r['threads']} thread{'s' if r['threads'] > 1 else ''})", ""]
        out += table(r)
        out.append("")
    # Summary: per kind over all models.
    out += ["## All models together", "",
            "Sum over the models above of each kind's time (the kinds' ratio over the set).", "",
            "| layer kind | dltune ms | ORT ms | ORT/dltune | dltune ms - ORT ms |",
            "|---|---:|---:|---:|---:|"]
    tot_d = {k: 0.0 for k in KINDS}
    tot_o = {k: 0.0 for k in KINDS}
    for r in results:
        d, o = by_kind(r)
        for k in KINDS:
            tot_d[k] += d[k][0]
            tot_o[k] += o[k][0]
    for k in sorted(KINDS, key=lambda k: tot_o[k] - tot_d[k]):
        if tot_d[k] == 0 and tot_o[k] == 0:
            continue
        ratio = f"{tot_o[k] / tot_d[k]:.2f}" if tot_d[k] > 0 and tot_o[k] > 0 else "-"
        out.append(f"| {k} | {tot_d[k]:.3f} | {tot_o[k]:.3f} | {ratio} | {tot_d[k] - tot_o[k]:+.3f} |")
    rd = sum(r["dltune_rest_ms"] for r in results)
    ro = sum(r["ort_rest_ms"] for r in results)
    out.append(f"| outside tasks / between kernels | {rd:.3f} | {ro:.3f} | - | {rd - ro:+.3f} |")
    md = sum(r["dltune_ms"] for r in results)
    mo = sum(r["ort_ms"] for r in results)
    out += [f"| **whole models** | **{md:.3f}** | **{mo:.3f}** | **{mo / md:.2f}** | "
            f"**{md - mo:+.3f}** |", "",
            "Rows are sorted by how many milliseconds dltune loses against ONNX Runtime "
            "(most first). Raw numbers (every task and node): "
            "bench/results/layer_breakdown/.", ""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default="resnet18,mobilenet_v2,squeezenet1_0,encoder")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--workdir", default="/tmp/dltune-layer-breakdown")
    p.add_argument("--doc", default=os.path.join(ROOT, "docs", "performance.md"))
    p.add_argument("--skip-export", action="store_true",
                   help="reuse the .onnx/.input.npy files already in --workdir")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    if not a.skip_export:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_models.py"),
                        a.workdir, "--models", a.models, "--repeat", "1"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = []
    for name in a.models.split(","):
        print(f"{name}...", file=sys.stderr)
        results.append(measure(name, a.workdir, a.threads))
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    stamp = f"{commit}_{a.threads}t"
    write_results(results, stamp)
    command = "/usr/bin/python3 bench/layer_breakdown.py " + " ".join(sys.argv[1:])
    write_doc(results, a.doc, command.strip(), commit)
    for r in results:
        print(f"\n{r['model']}")
        print("\n".join(table(r)))


if __name__ == "__main__":
    main()
