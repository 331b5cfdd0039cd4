#!/usr/bin/env python3
"""Issue 8: zero- and few-shot accuracy of cost models on an unseen device.

Runs `dltune model-eval` on recorded Kernel Tuner spaces: leave one RTX GPU
out of the CLBlast GEMM space (train on the other three) and the dissimilar
NVIDIA -> AMD convolution pair. Writes one CSV per case and a summary
(means over seeds, and dgp's zero-shot RMSE relative to XGBoost's, the
issue's target being <= 0.8) under bench/results/transfer_eval/.

  python3 bench/transfer_eval.py [--seeds 3] [--samples 0,10,30,100]
                                 [--models dgp,gp,xgb,rf] [--cases gemm-3090,conv-amd]
                                 [--variants plain,features,mean]

Variants: `plain` (no device information), `features` (model-eval
--device-features: the devices' published specs as inputs) and `mean`
(--device-features --device-mean: plus a linear mean in them). CSVs are
transfer_eval_<case>[_<variant>].csv; with more than the plain variant the
summary also compares each model's zero-shot RMSE with plain XGBoost's
(the issue's baseline: XGBoost on the same rows).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUB = os.path.join(ROOT, "..", "shared", "datasets", "kernel_tuner_benchmark_hub")
GEMM = os.path.join(HUB, "rtx_gemm_clblast")
CONV = os.path.join(HUB, "convolution_milo")
GEMM_GPUS = ["RTX_2080_Ti", "RTX_3060_laptop", "RTX_3090", "RTX_Titan"]


def gemm_case(target):
    train = [os.path.join(GEMM, g + ".json.gz") for g in GEMM_GPUS if g != target]
    return train, os.path.join(GEMM, target + ".json.gz")


CONV_GPUS = ["A100", "A4000", "A6000", "MI250X", "W6600", "W7800"]


def conv_case(target):
    train = [os.path.join(CONV, g + ".json.gz") for g in CONV_GPUS if g != target]
    return train, os.path.join(CONV, target + ".json.gz")


RTX_CONV = os.path.join(HUB, "rtx_convolution")
RTX_PNPOLY = os.path.join(HUB, "rtx_pnpoly")
DEDISP = os.path.join(HUB, "dedispersion_milo")


def leave_one_out(folder, devices, target):
    train = [os.path.join(folder, g + ".json.gz") for g in devices if g != target]
    return train, os.path.join(folder, target + ".json.gz")


CASES = {
    "gemm-3090": gemm_case("RTX_3090"),
    "gemm-2080ti": gemm_case("RTX_2080_Ti"),
    "gemm-titan": gemm_case("RTX_Titan"),
    "gemm-3060": gemm_case("RTX_3060_laptop"),
    "conv-amd": ([os.path.join(CONV, g + ".json.gz") for g in ["A100", "A4000", "A6000"]],
                 os.path.join(CONV, "MI250X.json.gz")),
}
for _gpu in CONV_GPUS:
    CASES["conv-loo-" + _gpu.lower()] = conv_case(_gpu)
    CASES["dedisp-loo-" + _gpu.lower()] = leave_one_out(DEDISP, CONV_GPUS, _gpu)
for _gpu in GEMM_GPUS:
    _short = _gpu.lower().replace("rtx_", "").replace("_", "")
    CASES["rtxconv-loo-" + _short] = leave_one_out(RTX_CONV, GEMM_GPUS, _gpu)
    CASES["pnpoly-loo-" + _short] = leave_one_out(RTX_PNPOLY, GEMM_GPUS, _gpu)
VARIANT_FLAGS = {"plain": [], "features": ["--device-features"],
                 "mean": ["--device-features", "--device-mean"]}
METRICS = ["rmse", "mape", "spearman", "kendall", "top1_recall", "nll", "coverage90"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dltune", default=os.path.join(ROOT, "build", "bin", "dltune"))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--samples", default="0,10,30,100")
    ap.add_argument("--models", default="dgp,gp,xgb,rf")
    ap.add_argument("--cases", default="gemm-3090,conv-amd")
    ap.add_argument("--dgp-iterations", type=int, default=300,
                    help="Adam steps of the deep GP (its default 2000 takes ~200 s per fit "
                         "on 46,000 GEMM rows on this 2-core machine)")
    ap.add_argument("--variants", default="plain")
    ap.add_argument("--jobs", type=int, default=2, help="cases run in parallel")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "transfer_eval"))
    args = ap.parse_args()
    if not os.path.isdir(HUB):
        sys.exit("no recorded spaces at " + HUB)
    os.makedirs(args.out, exist_ok=True)
    summary = {"seeds": args.seeds, "dgp_iterations": args.dgp_iterations, "cases": {}}
    variants = args.variants.split(",")
    runs = [(case, variant) for case in args.cases.split(",") for variant in variants]

    def report_of(case, variant):
        suffix = "" if variant == "plain" else "_" + variant
        return os.path.join(args.out, "transfer_eval_%s%s.csv" % (case, suffix))

    running = {}
    start = time.time()
    for case, variant in runs:
        train, test = CASES[case]
        cmd = [args.dltune, "model-eval", "--train", ",".join(train), "--test", test,
               "--model", args.models, "--target-samples", args.samples,
               "--seeds", str(args.seeds), "--dgp-iterations", str(args.dgp_iterations),
               "--report", report_of(case, variant)] + VARIANT_FLAGS[variant]
        while len([p for p in running.values() if p.poll() is None]) >= args.jobs:
            time.sleep(1)
        running[(case, variant)] = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                    stderr=subprocess.PIPE, text=True)
    for case, variant in runs:
        train, test = CASES[case]
        stdout, stderr = running[(case, variant)].communicate()
        print("== %s, %s (done after %.0f s)" % (case, variant, time.time() - start))
        print(stdout, end="")
        if running[(case, variant)].returncode:
            sys.exit(stderr)
        rows = list(csv.DictReader(open(report_of(case, variant))))
        means = {}
        for r in rows:
            key = "%s/%s" % (r["model"], r["samples"])
            m = means.setdefault(key, {k: [] for k in METRICS})
            for k in METRICS:
                if r[k] != "":
                    m[k].append(float(r[k]))
        table = {key: {k: (sum(v) / len(v) if v else None) for k, v in m.items()}
                 for key, m in means.items()}
        entry = summary["cases"].setdefault(case, {
            "train": [os.path.basename(t) for t in train], "test": os.path.basename(test)})
        entry[variant] = {"wall_s": round(time.time() - start, 1), "means": table}
    for case, entry in summary["cases"].items():
        plain = entry.get("plain", {}).get("means", {}).get("xgb/0")
        for variant in variants:
            table = entry[variant]["means"]
            # The target: dgp against XGBoost on the same rows and inputs.
            if "dgp/0" in table and "xgb/0" in table:
                same = table["dgp/0"]["rmse"] / table["xgb/0"]["rmse"]
                entry[variant]["dgp_over_xgb_zero_shot_rmse"] = same
                print("%s, %s: dgp / xgb zero-shot RMSE %.3f (target <= 0.8)"
                      % (case, variant, same))
            for model in args.models.split(","):
                key = model + "/0"
                if plain and key in table:
                    ratio = table[key]["rmse"] / plain["rmse"]
                    entry[variant][model + "_over_plain_xgb_zero_shot_rmse"] = ratio
        line = ", ".join("%s %s %.2f" % (v, m, entry[v].get(m + "_over_plain_xgb_zero_shot_rmse",
                                                             float("nan")))
                         for v in variants for m in args.models.split(","))
        print("%s zero-shot RMSE / plain xgb's: %s (target dgp <= 0.8)" % (case, line))
    name = "transfer_eval.json" if variants == ["plain"] else "transfer_eval_devices.json"
    path = os.path.join(args.out, name)
    json.dump(summary, open(path, "w"), indent=1)
    print("wrote", path)


if __name__ == "__main__":
    main()
