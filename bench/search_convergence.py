#!/usr/bin/env python3
"""Convergence benchmark of the search strategies on recorded search spaces.

Runs `dltune replay` (the tuner's own loop answering from Kernel Tuner
caches: real brute-forced GPU search spaces, failures included) for every
strategy over several spaces with >= 20 seeds, and reports per space and
strategy:
  - the median (over seeds) best-found performance, as a fraction of the
    optimum (optimum_time / best_time), after 25/50/100/200/400 measurements;
  - the median number of measurements needed to reach 90/95/99% of the
    optimum, with how many seeds never got there within the budget.
Writes bench/results/search_convergence/search_convergence.csv and an SVG of the median
convergence curves with quartile bands (bench/results/search_convergence/search_convergence.svg).

Usage: python3 bench/search_convergence.py [--build build] [--seeds 20]
       [--trials 400] [--jobs 2] [--spaces a,b] [--strategies random,sa]
"""
import argparse, concurrent.futures, csv, os, statistics, subprocess, sys, tempfile

HUB = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets",
                   "kernel_tuner_benchmark_hub")
SPACES = {
    "convolution_A100": "convolution_milo/A100.json.gz",
    "convolution_MI250X": "convolution_milo/MI250X.json.gz",
    "dedispersion_A100": "dedispersion_milo/A100.json.gz",
    "gemm_clblast_RTX3090": "rtx_gemm_clblast/RTX_3090.json.gz",
    "convolution_RTX3090": "rtx_convolution/RTX_3090.json.gz",
    "pnpoly_RTX3090": "rtx_pnpoly/RTX_3090.json.gz",
}
STRATEGIES = {  # name -> replay arguments
    "random": ["--strategy", "random"],
    "grid": ["--strategy", "grid"],
    "sa+xgb": ["--strategy", "sa", "--cost-model", "xgb"],
    "evolutionary+xgb": ["--strategy", "evolutionary", "--cost-model", "xgb"],
    "bo+rf": ["--strategy", "bo", "--cost-model", "rf"],
}
CHECKPOINTS = [25, 50, 100, 200, 400]
LEVELS = [0.90, 0.95, 0.99]
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def run(build, space_file, strategy_args, seeds, trials, out_csv):
    cmd = [os.path.join(build, "bin", "dltune"), "replay", "--dataset", space_file,
           "--trials", str(trials), "--seeds", str(seeds), "--report", out_csv] + strategy_args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + p.stderr)
    curves = {}
    optimum = None
    with open(out_csv) as f:
        for row in csv.DictReader(f):
            seed = int(row["seed"])
            optimum = float(row["optimum_ms"])
            best = float(row["best_time_ms"]) if row["best_time_ms"] else float("inf")
            curves.setdefault(seed, []).append(optimum / best if best > 0 else 0.0)
    for c in curves.values():  # exhausted spaces: the best stays
        c.extend([c[-1]] * (trials - len(c)))
    return list(curves.values())


def quartiles(values):
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    return q[0], statistics.median(values), q[2]


def needed(curve, level):
    for i, v in enumerate(curve):
        if v >= level - 1e-12:
            return i + 1
    return None


def svg(results, spaces, strategies, trials, path):
    w, h, cols = 360, 240, 3
    rows = (len(spaces) + cols - 1) // cols
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * w}" height="{rows * h + 40}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="100%" height="100%" fill="white"/>']
    for si, space in enumerate(spaces):
        ox, oy = (si % cols) * w, (si // cols) * h
        px, py, pw, ph = ox + 45, oy + 25, w - 60, h - 60
        out.append(f'<text x="{ox + w / 2}" y="{oy + 15}" text-anchor="middle" '
                   f'font-weight="bold">{space}</text>')
        out.append(f'<rect x="{px}" y="{py}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
        lo = 0.5
        X = lambda t: px + pw * (t - 1) / max(1, trials - 1)
        Y = lambda v: py + ph * (1 - (max(v, lo) - lo) / (1 - lo))
        for v in (0.5, 0.75, 0.9, 1.0):
            out.append(f'<text x="{px - 4}" y="{Y(v) + 4}" text-anchor="end">{v:.2f}</text>')
            out.append(f'<line x1="{px}" x2="{px + pw}" y1="{Y(v)}" y2="{Y(v)}" stroke="#eee"/>')
        for t in (1, trials // 4, trials // 2, trials):
            out.append(f'<text x="{X(t)}" y="{py + ph + 14}" text-anchor="middle">{t}</text>')
        for ci, strat in enumerate(strategies):
            curves = results.get((space, strat))
            if not curves:
                continue
            qs = [quartiles([c[t] for c in curves]) for t in range(min(trials, len(curves[0])))]
            band = [f"{X(t + 1):.1f},{Y(q[2]):.1f}" for t, q in enumerate(qs)] + \
                   [f"{X(t + 1):.1f},{Y(q[0]):.1f}" for t, q in reversed(list(enumerate(qs)))]
            color = COLORS[ci % len(COLORS)]
            out.append(f'<polygon points="{" ".join(band)}" fill="{color}" fill-opacity="0.15"/>')
            line = " ".join(f"{X(t + 1):.1f},{Y(q[1]):.1f}" for t, q in enumerate(qs))
            out.append(f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="1.5"/>')
    ly = rows * h + 20
    for ci, strat in enumerate(strategies):
        out.append(f'<rect x="{20 + ci * 150}" y="{ly - 9}" width="12" height="12" '
                   f'fill="{COLORS[ci % len(COLORS)]}"/>')
        out.append(f'<text x="{36 + ci * 150}" y="{ly + 1}">{strat}</text>')
    out.append(f'<text x="{cols * w - 10}" y="{ly + 1}" text-anchor="end">x: measurements, '
               f'y: best found / optimum (median, quartile band)</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--trials", type=int, default=400)
    ap.add_argument("--random-trials", type=int, default=4000,
                    help="budget of random search, so that its measurements-to-level "
                         "are known when they exceed --trials")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--spaces", default=",".join(SPACES))
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--out", default="bench/results/search_convergence/search_convergence.csv")
    args = ap.parse_args()
    spaces = [s for s in args.spaces.split(",") if s]
    strategies = [s for s in args.strategies.split(",") if s]
    missing = [s for s in spaces if not os.path.exists(os.path.join(HUB, SPACES[s]))]
    if missing:
        print(f"datasets missing ({', '.join(missing)}): is ../shared beside the checkout?")
        return 1
    tmp = tempfile.mkdtemp(prefix="dltune-conv-")
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run, args.build, os.path.join(HUB, SPACES[sp]), STRATEGIES[st],
                               args.seeds,
                               max(args.trials, args.random_trials) if st == "random" else args.trials,
                               os.path.join(tmp, f"{sp}-{st}.csv")):
                   (sp, st) for sp in spaces for st in strategies}
        for fut in concurrent.futures.as_completed(futures):
            results[futures[fut]] = fut.result()
            print(f"done {futures[fut]}", file=sys.stderr, flush=True)
    rows = []
    for sp in spaces:
        print(f"\n{sp}: best found / optimum (median over {args.seeds} seeds) after N "
              f"measurements; measurements to reach a level (median; never = seeds that did not)")
        head = " ".join(f"{'@' + str(c):>7}" for c in CHECKPOINTS if c <= args.trials)
        lv = " ".join(f"{'to ' + str(int(l * 100)) + '%':>13}" for l in LEVELS)
        print(f"  {'strategy':18} {head} {lv}")
        for st in strategies:
            curves = results[(sp, st)]
            row = {"space": sp, "strategy": st, "seeds": len(curves)}
            cells = []
            for c in CHECKPOINTS:
                if c > args.trials:
                    continue
                m = statistics.median(cv[c - 1] for cv in curves)
                row[f"at_{c}"] = round(m, 4)
                cells.append(f"{m:7.3f}")
            for l in LEVELS:
                ns = [needed(cv, l) for cv in curves]
                got = [n for n in ns if n is not None]
                never = len(ns) - len(got)
                # Median counting "never" as beyond the budget.
                med = statistics.median([n if n is not None else float("inf") for n in ns])
                row[f"to_{int(l * 100)}_median"] = med if med != float("inf") else ""
                row[f"to_{int(l * 100)}_never"] = never
                budget = len(curves[0])
                text = (f"{med:.0f}" if med != float("inf") else f">{budget}") + \
                       (f" ({never} never)" if never else "")
                cells.append(f"{text:>13}")
            print(f"  {st:18} " + " ".join(cells))
            rows.append(row)
    if "random" in strategies:
        print(f"\nMeasurements to reach 95% of the optimum, relative to random search "
              f"(median over seeds; random's budget {max(args.trials, args.random_trials)}; "
              f"target: model-based <= 1/3 of random):")
        others = [st for st in strategies if st not in ("random", "grid")]
        print(f"  {'space':22} {'random':>8} " + " ".join(f"{st:>18}" for st in others))
        for sp in spaces:
            r = next(x for x in rows if x["space"] == sp and x["strategy"] == "random")
            base = r.get("to_95_median") or float("inf")
            cells = []
            for st in others:
                x = next(y for y in rows if y["space"] == sp and y["strategy"] == st)
                n = x.get("to_95_median") or float("inf")
                ratio = n / base if base not in (0, float("inf")) and n != float("inf") else None
                cells.append(f"{(f'{n:.0f}' if n != float('inf') else '-'):>6} "
                             f"({(f'{ratio:.2f}x' if ratio else '  -  ')})"
                             f"{' ok' if ratio is not None and ratio <= 1 / 3 else '   '}")
            print(f"  {sp:22} {(f'{base:.0f}' if base != float('inf') else '-'):>8} " +
                  " ".join(f"{c:>18}" for c in cells))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    fields = sorted({k for r in rows for k in r}, key=lambda k: (k not in ("space", "strategy", "seeds"), k))
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    svg_path = os.path.splitext(args.out)[0] + ".svg"
    svg(results, spaces, strategies, args.trials, svg_path)
    print(f"\nwrote {args.out} and {svg_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
