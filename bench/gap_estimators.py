#!/usr/bin/env python3
"""How well does a probe's spread predict a task's remaining gap? (issue 10)

For every recorded space of the Kernel Tuner hub (read in place), draws
random samples of 16 valid configurations (what dynatune's probe measures
before the task's cost model has data) and compares three estimates of the
remaining gap log(best of sample / optimum of the space):
  median/best   log(median / best) of the sample (dynatune's spread reward)
  normal+N      best - (mean + z(1/N) sd) of a normal fit to log latencies,
                N the number of valid configurations of the space
  lowertail+N   the same with sd from the sample's median and lower quartile
Prints one row per space (means over the samples) and, across spaces, the
Spearman rank correlation and mean absolute error of each estimate.
Writes bench/results/gap_estimators/gap_estimators.txt.
Usage: python3 bench/gap_estimators.py [--samples 200] [--size 16]
"""
import argparse, glob, gzip, json, math, os, random, statistics
from statistics import NormalDist

HERE = os.path.dirname(os.path.abspath(__file__))
HUB = os.path.join(HERE, "..", "..", "shared", "datasets", "kernel_tuner_benchmark_hub")


def load_times(path):
    text = gzip.open(path).read().decode()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:  # partial files end inside "cache"
        data = json.loads(text.rstrip().rstrip(",") + "}}")
    return [v["time"] for v in data["cache"].values()
            if isinstance(v.get("time"), (int, float)) and v["time"] > 0]


def spearman(a, b):
    def ranks(x):
        order = sorted(range(len(x)), key=lambda i: x[i])
        r = [0] * len(x)
        for k, i in enumerate(order):
            r[i] = k
        return r
    ra, rb, n = ranks(a), ranks(b), len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb)) / (n * (n * n - 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--size", type=int, default=16)
    args = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(os.path.join(HUB, "*", "*.json.gz"))):
        times = load_times(path)
        if len(times) < 100:
            continue
        n, opt = len(times), min(times)
        z = NormalDist().inv_cdf(1 / n)
        rnd = random.Random(1)
        truth, spread, normal, lower = [], [], [], []
        for _ in range(args.samples):
            s = rnd.sample(times, args.size)
            logs = sorted(math.log(x) for x in s)
            best = min(s)
            truth.append(math.log(best / opt))
            spread.append(math.log(statistics.median(s) / best))
            normal.append(max(0, logs[0] - (statistics.mean(logs) + z * statistics.stdev(logs))))
            med, q1 = statistics.median(logs), logs[len(logs) // 4]
            lower.append(max(0, logs[0] - (med + z * (med - q1) / 0.674)))
        rows.append((os.path.relpath(path, HUB), n, statistics.mean(truth), statistics.mean(spread),
                     statistics.mean(normal), statistics.mean(lower)))
    out = [f"samples of {args.size} random valid configurations, {args.samples} per space; "
           "means over samples (log units)",
           f"{'space':45s} {'N':>6s}  truth median/best normal+N lowertail+N"]
    for name, n, *v in rows:
        out.append(f"{name:45s} {n:6d} " + " ".join(f"{x:6.2f}" for x in v))
    truth = [r[2] for r in rows]
    for k, name in [(3, "median/best"), (4, "normal+N"), (5, "lowertail+N")]:
        est = [r[k] for r in rows]
        mae = statistics.mean(abs(a - b) for a, b in zip(truth, est))
        out.append(f"{name:12s} Spearman over spaces {spearman(truth, est):.3f}, mean abs error {mae:.3f}")
    text = "\n".join(out)
    print(text)
    with open(os.path.join(HERE, "results", "gap_estimators", "gap_estimators.txt"), "w") as f:
        f.write("$ python3 bench/gap_estimators.py\n" + text + "\n")


if __name__ == "__main__":
    main()
