#!/usr/bin/env python3
"""Writes the models dltune is measured on to ONNX, with PyTorch's outputs
and CPU latency as the anchor (Debian's python3-torchvision; not needed by CI):

    make_models.py OUTDIR [--models resnet18,...] [--repeat N] [--batch N]

For each model: OUTDIR/NAME.onnx (opset 17, static shapes, random weights
from a fixed seed), NAME.input.npy (a fixed random input), NAME.torch.npy
(PyTorch's output for it), and a row in OUTDIR/torch_latency.csv with
PyTorch's median latency on 1 and 2 threads (after warm-up, `--repeat`
timed runs each, threads set with set_torch_threads).
"""
import argparse
import ctypes
import csv
import math
import os
import statistics
import time

import numpy as np
import torch
import torch.nn as nn
import torchvision


class EncoderLayer(nn.Module):
    """A BERT-style post-norm encoder layer written with plain ops (the
    fused nn.TransformerEncoderLayer fast path does not export)."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden)
        self.ff1 = nn.Linear(hidden, ffn)
        self.ff2 = nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden)

    def forward(self, x):
        b, s, h = x.shape
        d = h // self.heads
        q, k, v = self.qkv(x).split(h, dim=-1)
        q = q.reshape(b, s, self.heads, d).transpose(1, 2)
        k = k.reshape(b, s, self.heads, d).transpose(1, 2)
        v = v.reshape(b, s, self.heads, d).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        ctx = (att @ v).transpose(1, 2).reshape(b, s, h)
        x = self.ln1(x + self.out(ctx))
        return self.ln2(x + self.ff2(nn.functional.gelu(self.ff1(x))))


class Encoder(nn.Module):
    def __init__(self, layers=2, hidden=256, heads=4):
        super().__init__()
        self.layers = nn.ModuleList(EncoderLayer(hidden, heads, 4 * hidden) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(), (1, 3, 224, 224)),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(), (1, 3, 224, 224)),
    "vgg16": (lambda: torchvision.models.vgg16(), (1, 3, 224, 224)),
    "squeezenet1_0": (lambda: torchvision.models.squeezenet1_0(), (1, 3, 224, 224)),
    "encoder": (lambda: Encoder(), (1, 64, 256)),
}


def set_torch_threads(threads):
    """torch.set_num_threads does not reach Debian's OpenBLAS (pthreads
    build), which PyTorch calls for Linear/MatMul: it keeps one thread per
    core, and a "1 thread" PyTorch used both cores of these VMs (process
    CPU time twice its wall time; the encoder 2.97 ms against 3.71 ms on
    one). So OpenBLAS's own count is set too, in the library PyTorch loaded."""
    torch.set_num_threads(threads)
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libopenblas" in line}
    for path in paths:
        ctypes.CDLL(path).openblas_set_num_threads(threads)


def cpu_per_wall(fn, calls=5):
    """Process CPU time over wall time of `calls` runs of fn: about the
    number of busy threads, to check that a thread count holds."""
    c, w = time.process_time(), time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.process_time() - c) / (time.perf_counter() - w)


def latency_ms(model, x, threads, repeat):
    set_torch_threads(threads)
    with torch.no_grad():
        for _ in range(3):
            model(x)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t) * 1e3)
        busy = cpu_per_wall(lambda: model(x))
    return statistics.median(times), min(times), max(times), busy


def main():
    p = argparse.ArgumentParser()
    p.add_argument("outdir")
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--batch", type=int, default=1, help="the input's first dimension")
    a = p.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    rows = []
    for name in a.models.split(","):
        make, shape = MODELS[name]
        shape = (a.batch,) + shape[1:]
        torch.manual_seed(0)
        model = make().eval()
        x = torch.from_numpy(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
        path = f"{a.outdir}/{name}.onnx"
        torch.onnx.export(model, x, path, opset_version=17, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
        with torch.no_grad():
            y = model(x).numpy()
        np.save(f"{a.outdir}/{name}.input.npy", x.numpy())
        np.save(f"{a.outdir}/{name}.torch.npy", y)
        for threads in (1, 2):
            med, lo, hi, busy = latency_ms(model, x, threads, a.repeat)
            rows.append({"model": name, "threads": threads, "median_ms": f"{med:.3f}",
                         "min_ms": f"{lo:.3f}", "max_ms": f"{hi:.3f}", "repeat": a.repeat,
                         "cpu_per_wall": f"{busy:.2f}", "torch": torch.__version__})
            print(f"{name:14s} {threads} thread(s): PyTorch median {med:8.2f} ms "
                  f"(min {lo:.2f}, max {hi:.2f}, {a.repeat} runs; CPU/wall {busy:.2f})",
                  flush=True)
    with open(f"{a.outdir}/torch_latency.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
