#!/usr/bin/env python3
"""The deep GP's size on a small history: inducing points and inner width
against pretraining time and how well the pretrained model ranks another
device's space (issue 36, "fewer inducing points for small histories").

A live database's history is small (tens to a few hundred rows), and each
Adam step costs about M^2 x rows x width for the inner layer's q(u): the
sizes, not the steps, decide a pretraining's seconds. This measures what
smaller sizes cost in ranking quality, with the protocol of
pretraining_steps_5e225b6.txt: ROWS random valid configurations of each of
two recorded spaces (Python random.seed(1)) as the history, the whole space
of a third GPU as the test, `dltune model-eval --model dgp` (no target
samples: the pretrained model alone, as transfer's tuning set uses it).

Each (inducing, hidden) setting runs in its own process, one after another;
fit_s is the process's fitting seconds (one thread). Compare fit_s only
between rows of one run.

Writes bench/results/dgp_sizes/NAME.{csv,txt}.
Usage: python3 bench/dgp_sizes.py [--build build] [--rows 96] [--seeds 2]
       [--iterations 300] [--inducing 0,48,24] [--hidden 0,8] [--out NAME]
"""
import argparse, gzip, json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from results_io import results_dir, write_results  # noqa: E402

HUB = os.path.join(os.path.dirname(HERE), "..", "shared", "datasets", "kernel_tuner_benchmark_hub")
# (name, folder, training devices, test device)
CASES = [("gemm", "rtx_gemm_clblast", ["RTX_2080_Ti", "RTX_Titan"], "RTX_3090"),
         ("conv", "rtx_convolution", ["RTX_2080_Ti", "RTX_Titan"], "RTX_3090")]


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def sample(cache, rows, rng):
    """A copy of a Kernel Tuner cache keeping `rows` random entries with a
    numeric time (valid configurations)."""
    valid = sorted(k for k, v in cache["cache"].items()
                   if isinstance(v.get("time"), (int, float)))
    keep = rng.sample(valid, min(rows, len(valid)))
    out = {k: v for k, v in cache.items() if k != "cache"}
    out["cache"] = {k: cache["cache"][k] for k in keep}
    return out


def model_eval(a, train, test, inducing, hidden):
    cmd = [os.path.join(a.build, "bin", "dltune"), "model-eval", "--train", ",".join(train),
           "--test", test, "--model", "dgp", "--seeds", str(a.seeds),
           "--dgp-iterations", str(a.iterations), "--dgp-inducing", str(inducing),
           "--dgp-hidden", str(hidden)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    header, values = None, None
    for line in out.stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "model":
            header = fields
        elif fields and fields[0] == "dgp" and header:
            values = fields
    if not values:
        sys.exit(f"no dgp row in model-eval's output:\n{out.stdout}")
    return dict(zip(header, values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--rows", type=int, default=96, help="rows sampled from each training space")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--inducing", default="0,48,24", help="0: the default (100, or the rows)")
    ap.add_argument("--hidden", default="0,8", help="0: the default (min(features, 30))")
    ap.add_argument("--out", default="dgp_sizes")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, folder, trains, test in CASES:
            rng = random.Random(1)
            train_files = []
            for device in trains:
                path = os.path.join(tmp, f"{name}-{device}.json")
                with open(path, "w") as f:
                    json.dump(sample(load(os.path.join(HUB, folder, device + ".json.gz")),
                                     a.rows, rng), f)
                train_files.append(path)
            test_file = os.path.join(HUB, folder, test + ".json.gz")
            for inducing in [int(v) for v in a.inducing.split(",")]:
                for hidden in [int(v) for v in a.hidden.split(",")]:
                    r = model_eval(a, train_files, test_file, inducing, hidden)
                    rows.append({"case": name, "history_rows": a.rows * len(trains),
                                 "inducing": inducing or "default", "hidden": hidden or "default",
                                 "iterations": a.iterations, "seeds": a.seeds,
                                 "spearman": r["spearman"], "kendall": r["kendall"],
                                 "top1_recall": r["top1%rec"], "rmse": r["rmse"],
                                 "fit_s": r["fit_s"]})
                    print(rows[-1], file=sys.stderr)
    lines = [f"# deep GP sizes on a small history: {a.rows} random valid configurations of each "
             f"of two recorded spaces, the third GPU's whole space as the test; dltune "
             f"model-eval --model dgp --dgp-iterations {a.iterations}, means over {a.seeds} "
             f"seeds; inducing 'default' = min(100, rows), hidden 'default' = min(features, 30)",
             f"{'case':6} {'inducing':>8} {'hidden':>7} {'spearman':>8} {'kendall':>8} "
             f"{'top1%rec':>8} {'rmse':>7} {'fit_s':>7}"]
    for r in rows:
        lines.append(f"{r['case']:6} {str(r['inducing']):>8} {str(r['hidden']):>7} "
                     f"{r['spearman']:>8} {r['kendall']:>8} {r['top1_recall']:>8} "
                     f"{r['rmse']:>7} {r['fit_s']:>7}")
    write_results(results_dir("dgp_sizes"), a.out, rows, lines)


if __name__ == "__main__":
    main()
