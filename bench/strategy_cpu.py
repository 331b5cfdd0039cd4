#!/usr/bin/env python3
"""Search strategies on real CPU kernels: GFLOP/s of the best verified
candidate after 50/100/200 trials, per strategy, next to oneDNN.

Each strategy tunes each kernel once (`dltune tune --trials 200`, fresh
database, seed 0); the database keeps the records in measurement order, so
the best after N trials is read from its first N records. Times are the
tuner's own measurements (median of timed calls per candidate).

Writes bench/results/strategy_cpu/strategy_cpu.csv and prints a table.
Usage: python3 bench/strategy_cpu.py [--build build] [--trials 200]
       [--strategies random,sa,evolutionary,bo] [--kernels matmul_1024,...]
"""
import argparse, csv, json, os, sqlite3, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from cpu_kernels import matmul_mlir, conv_mlir  # noqa: E402
from tuning import onednn  # noqa: E402

KERNELS = {
    "matmul_1024": ("matmul", (1024, 1024, 1024)),
    "resnet18_conv_28x28x128": ("conv", (28, 28, 128, 128)),
}
STRATEGIES = {"random": ["--strategy", "random"],
              "sa+xgb": ["--strategy", "sa", "--cost-model", "xgb"],
              "evolutionary+xgb": ["--strategy", "evolutionary", "--cost-model", "xgb"],
              "bo+rf": ["--strategy", "bo", "--cost-model", "rf"]}
CHECKPOINTS = [50, 100, 200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--out", default="bench/results/strategy_cpu/strategy_cpu.csv")
    args = ap.parse_args()
    dltune = os.path.join(args.build, "bin", "dltune")
    work = tempfile.mkdtemp(prefix="dltune-strat-")
    rows = []
    for kname in args.kernels.split(","):
        kind, dims = KERNELS[kname]
        src = {"matmul": matmul_mlir, "conv": conv_mlir}[kind](*dims)
        path = os.path.join(work, kname + ".mlir")
        open(path, "w").write(src)
        dnn = onednn(args.build, kind, dims, os.cpu_count())
        for st in args.strategies.split(","):
            db = os.path.join(work, f"{kname}-{st}.db")
            p = subprocess.run([dltune, "tune", path, "--trials", str(args.trials), "--jobs", "2",
                                "--db", db, "--json"] + STRATEGIES[st],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print(f"{kname} {st}: failed: {p.stderr.strip().splitlines()[-1:]}")
                continue
            task = json.loads(p.stdout.strip().splitlines()[0])
            times = [r[0] for r in sqlite3.connect(db).execute(
                "select case when status = 'ok' then time_ms end from records order by id")]
            row = {"kernel": kname, "strategy": st, "onednn_gflops": dnn,
                   "tuning_s": task["tuning_s"], "failures": task["failures"]}
            for c in CHECKPOINTS:
                ok = [t for t in times[:c] if t]
                row[f"gflops_at_{c}"] = task["flops"] / (min(ok) * 1e6) if ok else None
            rows.append(row)
            cells = " ".join(f"{row[f'gflops_at_{c}'] or 0:8.1f}" for c in CHECKPOINTS)
            print(f"{kname:26} {st:18} {cells}   oneDNN {dnn or 0:7.1f}   "
                  f"tuning {task['tuning_s']:.0f} s", flush=True)
    print(f"\nGFLOP/s of the best verified candidate after N trials ({os.cpu_count()} threads; "
          f"oneDNN best of 5 processes):")
    print(f"{'kernel':26} {'strategy':18} " + " ".join(f"{'@' + str(c):>8}" for c in CHECKPOINTS)
          + f" {'oneDNN':>8} {'@200/dnn':>8}")
    for r in rows:
        last = r[f"gflops_at_{CHECKPOINTS[-1]}"]
        print(f"{r['kernel']:26} {r['strategy']:18} " +
              " ".join(f"{r[f'gflops_at_{c}'] or 0:8.1f}" for c in CHECKPOINTS) +
              f" {r['onednn_gflops'] or 0:8.1f} {(last / r['onednn_gflops']) if last and r['onednn_gflops'] else 0:8.2f}")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
