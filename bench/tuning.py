#!/usr/bin/env python3
"""Tuning benchmark: what 64 random trials per kernel reach, and where the
tuner's time goes.

For each kernel: `dltune tune --trials 64` with a fresh database (random
search, jobs=2, every candidate built and timed in worker processes and
verified), then GFLOP/s of the best candidate next to the untuned lowering
and oneDNN (same thread count as the tuner may use: all cores). The overhead
per trial is read from the database (build and measure worker wall times per
record) and from direct `dltune worker build` runs (split into schedule +
lowering, LLVM codegen and link).

Writes bench/results/tuning/tuning.csv and prints two tables.
Usage: python3 bench/tuning.py [--build build] [--trials 64] [--quick]
"""
import argparse, csv, json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from cpu_kernels import matmul_mlir, conv_mlir, dwconv_mlir  # noqa: E402

KERNELS = [
    ("matmul_1024", "matmul", (1024, 1024, 1024)),
    ("resnet18_conv_56x56x64", "conv", (56, 56, 64, 64)),
    ("resnet18_conv_28x28x128", "conv", (28, 28, 128, 128)),
    ("mobilenet_dw_112x112x32", "dwconv", (112, 112, 32)),
]


def source(kind, dims):
    return {"matmul": matmul_mlir, "conv": conv_mlir, "dwconv": dwconv_mlir}[kind](*dims)


def onednn(build, kind, dims, threads):
    exe = os.path.join(build, "bin", "dltune-bench-baselines")
    if kind == "matmul":
        M, N, K = dims
        args = ["onednn-matmul", M, N, K, 20]
    elif kind == "conv":
        H, W, C, F = dims
        args = ["onednn-conv", H, W, C, F, 3, 20]
    else:
        H, W, C = dims
        args = ["onednn-dwconv", H, W, C, 3, 20]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    # Best of five processes: oneDNN's 2-thread runs on these VMs are
    # sometimes 10x slow (bimodal, seen in repeated runs), which says more
    # about the machine than about oneDNN.
    best = None
    for _ in range(5):
        p = subprocess.run([exe] + [str(a) for a in args], capture_output=True, text=True, env=env)
        if p.returncode == 0:
            g = json.loads(p.stdout)["gflops"]
            best = g if best is None else max(best, g)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--trials", type=int, default=64)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="only the first two kernels")
    ap.add_argument("--out", default="bench/results/tuning/tuning.csv")
    args = ap.parse_args()
    dltune = os.path.join(args.build, "bin", "dltune")
    threads = os.cpu_count()
    rows, overhead = [], []
    work = tempfile.mkdtemp(prefix="dltune-bench-")
    kernels = KERNELS[:2] if args.quick else KERNELS
    for name, kind, dims in kernels:
        path = os.path.join(work, name + ".mlir")
        db = os.path.join(work, name + ".db")
        with open(path, "w") as f:
            f.write(source(kind, dims))
        start = time.time()
        tuned = os.path.join(work, name + ".tuned.mlir")
        p = subprocess.run([dltune, "tune", path, "--trials", str(args.trials), "--jobs",
                            str(args.jobs), "--db", db, "--json", "-o", tuned],
                           capture_output=True, text=True)
        wall = time.time() - start
        if p.returncode != 0:
            print(f"{name}: tuning failed: {p.stderr.strip().splitlines()[-1:]}")
            continue
        task = json.loads(p.stdout.strip().splitlines()[0])
        # Re-measure the chosen configuration in a fresh process, checked
        # against the untuned lowering: the number reported is this one, not
        # the best of 64 measurements during tuning.
        # Median over five processes: on these VMs a two-thread process is
        # now and then several times slower than the next (bimodal), and a
        # single process would report whichever mode it landed in.
        reruns = []
        for _ in range(5):
            q = subprocess.run([dltune, "run", tuned, "--entry", "k", "--check", "--repeat",
                                "30", "--json"], capture_output=True, text=True)
            rerun = json.loads(q.stdout) if q.returncode == 0 else {}
            if rerun.get("check") == "ok":
                reruns.append(rerun["gflops"])
        best_gf = statistics.median(reruns) if reruns else None
        # What the tuner reported: its confirmed median (fresh processes).
        during_gf = task["flops"] / (task["best_ms"] * 1e6) if task["best_ms"] else None
        untuned_gf = task["flops"] / (task["untuned_ms"] * 1e6)
        dnn = onednn(args.build, kind, dims, threads)
        rows.append({"kernel": name, "trials": task["trials"], "failures": task["failures"],
                     "untuned_gflops": untuned_gf, "tuned_gflops": best_gf,
                     "tuned_gflops_reported": during_gf,
                     "rerun_vs_reported": best_gf / during_gf if best_gf and during_gf else None,
                     "rerun_gflops_min": min(reruns) if reruns else None,
                     "rerun_gflops_max": max(reruns) if reruns else None,
                     "onednn_gflops": dnn, "tuned_vs_onednn": best_gf / dnn if best_gf and dnn else None,
                     "tuned_vs_untuned": best_gf / untuned_gf if best_gf else None,
                     "tuning_s": task["tuning_s"], "best_config": task["best_config"]})
        # Overhead: worker wall times per record, and a build split into phases.
        con = sqlite3.connect(db)
        recs = con.execute("select build_s, run_s from records").fetchall()
        build_s = statistics.mean(r[0] for r in recs if r[0] is not None)
        run_s = statistics.mean(r[1] for r in recs if r[1])
        kernel = None
        for root, _, files in os.walk(db + ".work"):
            if "kernel.mlir" in files:
                kernel = os.path.join(root, "kernel.mlir")
        phases = []
        for _ in range(3):
            q = subprocess.run([dltune, "worker", "build", "--kernel", kernel, "--config",
                                task["best_config"], "--out", os.path.join(work, "x.so")],
                               capture_output=True, text=True)
            phases.append(json.loads(q.stdout.strip().splitlines()[-1]))
        per_trial = task["tuning_s"] / max(1, task["new_trials"])
        overhead.append({"kernel": name, "per_trial_s": per_trial,
                         "build_worker_s": build_s,
                         "schedule_lower_s": statistics.median(x["schedule_lower_s"] for x in phases),
                         "codegen_s": statistics.median(x["codegen_s"] for x in phases),
                         "link_s": statistics.median(x["link_s"] for x in phases),
                         "measure_worker_s": run_s,
                         "other_s": per_trial - build_s / args.jobs - run_s})
        r, o = rows[-1], overhead[-1]
        print(f"{name}: {r['trials']} trials, best {r['tuned_gflops']:.1f} GFLOP/s, "
              f"(reported by the tuner {r['tuned_gflops_reported']:.1f}), "
              f"tuning {r['tuning_s']:.1f} s (wall {wall:.1f} s)", flush=True)
    shutil.rmtree(work, ignore_errors=True)

    print(f"\nAfter {args.trials} random trials per kernel ({threads} threads; reported = the "
          f"tuner's confirmed best; re-run = the chosen configuration re-run by `dltune run "
          f"--check`, median of 30 calls, median over 5 processes; oneDNN = best of 5 processes):")
    print(f"{'kernel':26} {'trials':>6} {'failed':>6} {'untuned':>9} {'reported':>9} {'re-run':>9} "
          f"{'rerun/rep':>9} {'oneDNN':>9} {'tuned/dnn':>9} {'tuned/untuned':>13} {'tuning s':>9}")
    for r in rows:
        f = lambda v: f"{v:9.1f}" if v else f"{'-':>9}"
        print(f"{r['kernel']:26} {r['trials']:>6} {r['failures']:>6} {f(r['untuned_gflops'])} "
              f"{f(r['tuned_gflops_reported'])} {f(r['tuned_gflops'])} "
              f"{(r['rerun_vs_reported'] or 0):9.2f} {f(r['onednn_gflops'])} "
              f"{(r['tuned_vs_onednn'] or 0):9.2f} {(r['tuned_vs_untuned'] or 0):13.1f} "
              f"{r['tuning_s']:9.1f}")
    print(f"\nTuner overhead per trial (seconds; builds run {args.jobs} at a time, measurements "
          f"one at a time; 'other' = per-trial wall - build/{args.jobs} - measure: process "
          f"start-up, strategy and database):")
    print(f"{'kernel':26} {'per trial':>9} {'build':>7} {'sched+lower':>11} {'codegen':>8} "
          f"{'link':>6} {'measure':>8} {'other':>7}")
    for o in overhead:
        print(f"{o['kernel']:26} {o['per_trial_s']:9.3f} {o['build_worker_s']:7.3f} "
              f"{o['schedule_lower_s']:11.3f} {o['codegen_s']:8.3f} {o['link_s']:6.3f} "
              f"{o['measure_worker_s']:8.3f} {o['other_s']:7.3f}")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) + [k for k in overhead[0] if k != "kernel"])
        w.writeheader()
        for r, o in zip(rows, overhead):
            w.writerow({**r, **{k: v for k, v in o.items() if k != "kernel"}})
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
