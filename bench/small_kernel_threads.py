#!/usr/bin/env python3
"""One thread or all cores for small kernels? (dltune's default configs)

dltune's default configuration of every CPU op splits its parallel loop
over all cores. For a kernel of a few microseconds the parallel region's
fork/join (waking the other threads) can cost more than the split saves,
and on shared VMs two-thread timings are bimodal. This runs each kernel of
examples/convnet.mlir with its default configuration for 1 thread and for
all cores (`dltune run --default-config --threads N`), in fresh processes
alternating between the two (paired, so a slow phase of the machine hits
both alike), and reports per kernel: the median over processes of each
process's median time, the fastest process, and how many processes ran more
than 2x slower than the fastest process of the same setting ("slow mode").
Writes bench/results/small_kernel_threads/small_kernel_threads.csv (one row per process) and .txt.
Usage: python3 bench/small_kernel_threads.py [--build build] [--processes 15]
"""
import argparse, csv, json, os, statistics, subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS = ["conv3x3", "relu", "depthwise3x3", "sumpool2x2"]


def run(dltune, entry, threads, repeat):
    out = subprocess.run([dltune, "run", os.path.join(ROOT, "examples", "convnet.mlir"),
                          "--entry", entry, "--default-config", "--threads", str(threads),
                          "--repeat", str(repeat), "--warmup", "20", "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--processes", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    dltune = os.path.join(args.build, "bin", "dltune")
    cores = os.cpu_count()
    rows = []
    for entry in KERNELS:
        for p in range(args.processes):
            for threads in ([1, cores] if p % 2 == 0 else [cores, 1]):
                r = run(dltune, entry, threads, args.repeat if entry != "conv3x3" else 20)
                rows.append({"kernel": entry, "process": p, "threads": threads,
                             "median_ms": r["median_ms"], "min_ms": r["min_ms"],
                             "max_ms": r["max_ms"]})
    res = os.path.join(HERE, "results", "small_kernel_threads")
    with open(os.path.join(res, "small_kernel_threads.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = [f"{args.processes} fresh processes per kernel and setting, alternating; "
             f"{cores} cores; per process the median of {args.repeat} runs (conv3x3: 20)",
             f"{'kernel':14s} {'threads':>7s} {'median ms':>10s} {'fastest':>10s} {'slow mode':>10s}"
             f" {'1 thread / all':>15s}"]
    for entry in KERNELS:
        med = {}
        for threads in (1, cores):
            ms = [r["median_ms"] for r in rows if r["kernel"] == entry and r["threads"] == threads]
            med[threads] = statistics.median(ms)
            slow = sum(m > 2 * min(ms) for m in ms)
            ratio = "" if threads == 1 else f"{med[1] / med[cores]:15.2f}"
            lines.append(f"{entry:14s} {threads:7d} {med[threads]:10.4f} {min(ms):10.4f} "
                         f"{slow:6d}/{len(ms):<3d} {ratio}")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(res, "small_kernel_threads.txt"), "w") as f:
        f.write("$ python3 bench/small_kernel_threads.py\n" + text + "\n")


if __name__ == "__main__":
    main()
