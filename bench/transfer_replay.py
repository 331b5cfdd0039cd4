#!/usr/bin/env python3
"""Issue 8: measurements to reach 90/95/99% of the optimum, cold vs transfer.

Replays recorded Kernel Tuner spaces with `dltune replay`: cold XGBoost + SA
against deep-GP transfer (dm, map, and OpML'19's lms, nlms) pretrained on the
other devices and OpML'19's guided sampling (gs), on
leave-one-device-out CLBlast GEMM pairs and the dissimilar NVIDIA -> AMD
convolution pair. Writes per-run CSVs and transfer_replay.json under
bench/results/transfer_replay/ and prints the medians over seeds (a run that never reaches
a level counts as trials + 1 and is shown with '>').

  python3 bench/transfer_replay.py [--seeds 5] [--trials 400]
                                   [--pairs gemm-3090,gemm-2080ti,conv-amd]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transfer_eval import CASES, ROOT  # noqa: E402

LEVELS = [0.90, 0.95, 0.99]


def to_level(rows, trials):
    """Per seed, the first trial whose best time is within each level."""
    by_seed = {}
    for r in rows:
        by_seed.setdefault(int(r["seed"]), []).append(r)
    out = {}
    for seed, rs in by_seed.items():
        reached = {}
        for level in LEVELS:
            hit = trials + 1
            for r in rs:
                if r["best_time_ms"] and float(r["optimum_ms"]) / float(r["best_time_ms"]) >= level:
                    hit = int(r["trial"])
                    break
            reached[str(level)] = hit
        out[seed] = reached
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dltune", default=os.path.join(ROOT, "build", "bin", "dltune"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--trials", type=int, default=400)
    ap.add_argument("--pairs", default="gemm-3090,gemm-2080ti,conv-amd")
    ap.add_argument("--modes", default="cold,dm,map,lms,nlms,gs")
    ap.add_argument("--pretrain-iterations", type=int, default=500)
    ap.add_argument("--dgp-inducing", type=int, default=50)
    ap.add_argument("--dgp-hidden", type=int, default=8)
    ap.add_argument("--adapt-iterations", type=int, default=100)
    ap.add_argument("--tuning-set-rerank", type=int, default=0,
                    help="dltune replay --tuning-set-rerank for map/lms/nlms (0: paper's order)")
    ap.add_argument("--tuning-set-explore", type=float, default=0,
                    help="dltune replay --tuning-set-explore for the transfer modes")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "transfer_replay"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # Not a result: the models are rebuilt from the history on demand.
    cache = os.path.join(ROOT, "build", "pretrained-cache")
    jobs = []
    for pair in args.pairs.split(","):
        history, target = CASES[pair]
        for mode in args.modes.split(","):
            report = os.path.join(args.out, "transfer_replay_%s_%s.csv" % (pair, mode))
            cmd = [args.dltune, "replay", "--dataset", target, "--strategy", "sa",
                   "--trials", str(args.trials), "--seeds", str(args.seeds), "--report", report]
            if mode == "cold":
                cmd += ["--cost-model", "xgb"]
            elif mode == "gs":
                # Guided sampling pretrains no model: a stepwise regression
                # on the history picks the first configurations, then xgb.
                cmd += ["--transfer", "gs", "--history", ",".join(history)]
            else:
                cmd += ["--cost-model", "dgp", "--transfer", mode, "--history", ",".join(history),
                        "--pretrain-iterations", str(args.pretrain_iterations),
                        "--dgp-inducing", str(args.dgp_inducing),
                        "--dgp-hidden", str(args.dgp_hidden),
                        "--adapt-iterations", str(args.adapt_iterations),
                        "--pretrained-cache", cache,
                        "--tuning-set-rerank", str(args.tuning_set_rerank),
                        "--tuning-set-explore", str(args.tuning_set_explore)]
            jobs.append((pair, mode, report, cmd))
    # dm before map of the same pair shares the pretrained model through the
    # cache directory; run pairs' dm runs first so map finds it.
    results = {"seeds": args.seeds, "trials": args.trials, "runs": {}}
    running = []
    start = time.time()

    def finish(job, proc):
        pair, mode, report, cmd = job
        out, err = proc.communicate()
        log = os.path.join(args.out, "transfer_replay_%s_%s.log" % (pair, mode))
        open(log, "w").write(out + err)
        if proc.returncode:
            print("FAILED %s %s: %s" % (pair, mode, err.strip()))
            return
        rows = list(csv.DictReader(open(report)))
        per_seed = to_level(rows, args.trials)
        results["runs"]["%s/%s" % (pair, mode)] = {"per_seed": per_seed, "stdout": out}
        print("%.0f s: %s %s done" % (time.time() - start, pair, mode), flush=True)

    for job in jobs:
        while len(running) >= args.jobs:
            for j, p in list(running):
                if p.poll() is not None:
                    finish(j, p)
                    running.remove((j, p))
            time.sleep(1)
        running.append((job, subprocess.Popen(job[3], stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE, text=True)))
    for j, p in running:
        finish(j, p)

    print("\nmeasurements to reach a share of the optimum (median over %d seeds; "
          "> = not reached in %d)" % (args.seeds, args.trials))
    print("%-12s %-5s %8s %8s %8s %s" % ("pair", "mode", "90%", "95%", "99%",
                                         "95%: seeds worse than cold"))
    for pair in args.pairs.split(","):
        cold = results["runs"].get("%s/cold" % pair)
        for mode in args.modes.split(","):
            run = results["runs"].get("%s/%s" % (pair, mode))
            if not run:
                continue
            cells = []
            for level in LEVELS:
                values = [s[str(level)] for s in run["per_seed"].values()]
                med = statistics.median(values)
                cells.append((">" if med > args.trials else "") + "%g" % min(med, args.trials))
                run.setdefault("median", {})[str(level)] = med
            worse = ""
            if cold and mode != "cold":
                n = sum(1 for seed, s in run["per_seed"].items()
                        if s["0.95"] > cold["per_seed"].get(seed, {}).get("0.95", 10**9))
                worse = "%d/%d" % (n, len(run["per_seed"]))
                run["worse_than_cold_95"] = n
            print("%-12s %-5s %8s %8s %8s %s" % (pair, mode, cells[0], cells[1], cells[2], worse))
    path = os.path.join(args.out, "transfer_replay.json")
    json.dump(results, open(path, "w"), indent=1)
    print("wrote", path)


if __name__ == "__main__":
    main()
