#!/usr/bin/env python3
"""CPU benchmark: dltune next to the untuned lowering, OpenBLAS and oneDNN.

For each kernel and for 1 and 2 threads, in one run:
  untuned   - the module lowered without a schedule (linalg -> loops), 1 run
  default   - dltune's heuristic default config (--dltune-annotate default-config=true)
  best-hand - the best of a small hand-written set of configs (verified with --check)
  openblas  - cblas_sgemm (matmuls only)
  onednn    - oneDNN 2.x matmul / direct convolution primitive
and the machine's FMA peak (measured with an AVX-512/AVX2 FMA loop).
Every number is the median of timed runs in one process, and the best of 3
processes (dltune's default and best-hand as the libraries'; a hand config
is picked by one process each first).

Writes bench/results/cpu_kernels/cpu_kernels.csv and prints a table.
Usage: python3 bench/cpu_kernels.py [--build build] [--repeat 10] [--quick]
"""
import argparse, csv, itertools, json, os, subprocess, sys, tempfile

KERNELS = [
    # name, kind, dims
    ("matmul_512", "matmul", (512, 512, 512)),
    ("matmul_1024", "matmul", (1024, 1024, 1024)),
    ("matmul_2048", "matmul", (2048, 2048, 2048)),
    ("matmul_128x768x3072", "matmul", (128, 3072, 768)),  # M, N, K
    ("resnet18_conv_56x56x64", "conv", (56, 56, 64, 64)),   # H, W, C, F
    ("resnet18_conv_28x28x128", "conv", (28, 28, 128, 128)),
    ("resnet18_conv_14x14x256", "conv", (14, 14, 256, 256)),
    ("resnet18_conv_7x7x512", "conv", (7, 7, 512, 512)),
    ("mobilenet_dw_112x112x32", "dwconv", (112, 112, 32)),
]


def matmul_mlir(M, N, K, config=""):
    attr = f" {{dltune.config = #dltune.config<{config}>}}" if config else ""
    return f"""
func.func @k(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>, %c: tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%c : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %r = linalg.matmul{attr} ins(%a, %b : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) outs(%i : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}"""


def conv_mlir(H, W, C, F, config="", kernel=3):
    """A KxK convolution, stride 1, on an input padded to keep H x W."""
    attr = f", dltune.config = #dltune.config<{config}>" if config else ""
    IH, IW, K = H + kernel - 1, W + kernel - 1, kernel
    return f"""
func.func @k(%in: tensor<1x{IH}x{IW}x{C}xf32>, %w: tensor<{K}x{K}x{C}x{F}xf32>, %out: tensor<1x{H}x{W}x{F}xf32>) -> tensor<1x{H}x{W}x{F}xf32> {{
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%out : tensor<1x{H}x{W}x{F}xf32>) -> tensor<1x{H}x{W}x{F}xf32>
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>{attr}}}
       ins(%in, %w : tensor<1x{IH}x{IW}x{C}xf32>, tensor<{K}x{K}x{C}x{F}xf32>) outs(%i : tensor<1x{H}x{W}x{F}xf32>) -> tensor<1x{H}x{W}x{F}xf32>
  return %r : tensor<1x{H}x{W}x{F}xf32>
}}"""


def dwconv_mlir(H, W, C, config=""):
    attr = f", dltune.config = #dltune.config<{config}>" if config else ""
    IH, IW = H + 2, W + 2
    return f"""
func.func @k(%in: tensor<1x{IH}x{IW}x{C}xf32>, %w: tensor<3x3x{C}xf32>, %out: tensor<1x{H}x{W}x{C}xf32>) -> tensor<1x{H}x{W}x{C}xf32> {{
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%out : tensor<1x{H}x{W}x{C}xf32>) -> tensor<1x{H}x{W}x{C}xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>{attr}}}
       ins(%in, %w : tensor<1x{IH}x{IW}x{C}xf32>, tensor<3x3x{C}xf32>) outs(%i : tensor<1x{H}x{W}x{C}xf32>) -> tensor<1x{H}x{W}x{C}xf32>
  return %r : tensor<1x{H}x{W}x{C}xf32>
}}"""


def pwconv_mlir(H, W, C, F, config=""):
    """A 1x1 (pointwise) convolution, MobileNet's expansion and projection."""
    return conv_mlir(H, W, C, F, config, kernel=1)


def divides(a, b):
    return b % a == 0


def hand_configs(kind, dims, threads):
    """A small hand-written set: a few register/cache blockings that work well
    on AVX-512 machines, filtered to those valid for the shape."""
    out = []
    if kind == "matmul":
        M, N, K = dims
        # AVX-512 blockings (8x32 and wider), then AVX2 ones (4x16), each
        # with and without operand packing.
        for tm, tn, tk, rm, rn in [(64, 128, 256, 8, 32), (128, 128, 128, 8, 32),
                                   (32, 256, 256, 4, 64), (64, 256, 128, 8, 32),
                                   (64, 64, 512, 8, 32), (128, 256, 256, 8, 48),
                                   (48, 128, 256, 6, 64), (64, 128, 512, 4, 64),
                                   (64, 128, 256, 4, 16), (64, 256, 256, 4, 16),
                                   (128, 128, 256, 4, 16)]:
            for pack in (0, 1):
                unroll = 4
                if (M % threads or not divides(tm, M // threads) or not divides(tn, N)
                        or not divides(tk, K) or tm % rm or tn % rn or tk % unroll):
                    continue
                out.append(f"tile_m = {tm}, tile_n = {tn}, tile_k = {tk}, reg_m = {rm}, "
                           f"reg_n = {rn}, unroll = {unroll}, pack_a = {pack}, pack_b = {pack}, "
                           f"threads = {threads}, vectorize = 1")
    elif kind == "conv":
        H, W, C, F = dims
        for toh, tow, rw, tf, rf, tc, rc in itertools.product(
                (1, 2), (W,), (4, 7, 8, 14), (min(F, 64), min(F, 128)), (16, 32),
                (min(C, 64), min(C, 128)), (1,)):
            if (H % threads or not divides(toh, H // threads) or tow % rw or F % tf
                    or tf % rf or C % tc or tc % rc or rw * rf > 512):
                continue
            out.append(f"tile_oh = {toh}, tile_ow = {tow}, reg_ow = {rw}, tile_f = {tf}, "
                       f"reg_f = {rf}, tile_c = {tc}, reg_c = {rc}, unroll = 1, "
                       f"threads = {threads}, vectorize = 1")
    else:
        H, W, C = dims
        for toh, tow, rw, tc, rc in itertools.product((1, 2), (W, 56, 28), (4, 7, 8, 14),
                                                     (32,), (16, 32)):
            if (H % threads or not divides(toh, H // threads) or W % tow or tow % rw
                    or C % tc or tc % rc):
                continue
            out.append(f"tile_oh = {toh}, tile_ow = {tow}, reg_ow = {rw}, tile_c = {tc}, "
                       f"reg_c = {rc}, unroll = 1, threads = {threads}, vectorize = 1")
    return out


def source(kind, dims, config=""):
    return {"matmul": matmul_mlir, "conv": conv_mlir, "dwconv": dwconv_mlir}[kind](*dims, config=config)


def best_of(n, cmd, env=None):
    """Library baselines: the best of n processes (their multi-threaded runs
    are bimodal on these VMs, see bench/README.md)."""
    best = {}
    for _ in range(n):
        r = run_json(cmd, env)
        if "gflops" in r and r["gflops"] > best.get("gflops", -1):
            best = r
    return best


def run_json(cmd, env=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=900)
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def checked_best_of(n, build, text, threads, extra, repeat, tmp):
    """dltune under the libraries' protocol: the best of n processes (a
    process's timings depend on where its buffers land; see bench/README.md),
    each checked against the untuned lowering; None if any check fails."""
    best = None
    for _ in range(n):
        r = dltune_run(build, text, threads, extra + ["--check"], repeat, tmp)
        if r.get("check") != "ok":
            return None
        best = max(best or 0, r["gflops"])
    return best


def dltune_run(build, text, threads, extra, repeat, tmp):
    path = os.path.join(tmp, "k.mlir")
    with open(path, "w") as f:
        f.write(text)
    env = {"OMP_NUM_THREADS": str(threads)}
    return run_json([os.path.join(build, "bin", "dltune"), "run", path, "--entry", "k",
                     "--json", "--repeat", str(repeat), "--threads", str(threads)] + extra, env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="skip matmul_2048 and large untuned runs")
    ap.add_argument("--out", default="bench/results/cpu_kernels/cpu_kernels.csv")
    ap.add_argument("--only", default="", help="only kernels whose name starts with this")
    ap.add_argument("--threads", default="1,2", help="thread counts to run, e.g. 1")
    args = ap.parse_args()
    thread_counts = [int(t) for t in args.threads.split(",")]
    base = os.path.join(args.build, "bin", "dltune-bench-baselines")
    rows = []
    peak = {t: run_json([base, "peak", str(t)])["gflops"] for t in (1, 2)}
    print(f"FMA peak: {peak[1]:.1f} GFLOP/s (1 thread), {peak[2]:.1f} GFLOP/s (2 threads)")
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, dims in KERNELS:
            if args.quick and name == "matmul_2048":
                continue
            if not name.startswith(args.only):
                continue
            for threads in thread_counts:
                row = {"kernel": name, "threads": threads}
                # The untuned lowering ignores threads; measure it once, show it twice.
                if threads == thread_counts[0]:
                    u = dltune_run(args.build, source(kind, dims), 1, ["--warmup", "0"], 1, tmp)
                    untuned = u.get("gflops")
                row["untuned"] = untuned
                row["default"] = checked_best_of(3, args.build, source(kind, dims), threads,
                                                 ["--default-config"], args.repeat, tmp)
                best, best_cfg = None, None
                for cfg in hand_configs(kind, dims, threads):
                    r = dltune_run(args.build, source(kind, dims, cfg), threads, [], args.repeat, tmp)
                    if "gflops" in r and (best is None or r["gflops"] > best):
                        best, best_cfg = r["gflops"], cfg
                if best_cfg:
                    best = checked_best_of(3, args.build, source(kind, dims, best_cfg), threads,
                                           [], args.repeat, tmp)
                row["best_hand"] = best
                row["best_hand_config"] = best_cfg or ""
                env = {"OMP_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": str(threads)}
                if kind == "matmul":
                    M, N, K = dims
                    row["openblas"] = best_of(3, [base, "openblas-matmul", str(M), str(N), str(K),
                                                  str(args.repeat)], env).get("gflops")
                    row["onednn"] = best_of(3, [base, "onednn-matmul", str(M), str(N), str(K),
                                                str(args.repeat)], env).get("gflops")
                elif kind == "conv":
                    H, W, C, F = dims
                    row["openblas"] = None
                    row["onednn"] = best_of(3, [base, "onednn-conv", str(H), str(W), str(C), str(F),
                                                "3", str(args.repeat)], env).get("gflops")
                else:
                    H, W, C = dims
                    row["openblas"] = None
                    row["onednn"] = best_of(3, [base, "onednn-dwconv", str(H), str(W), str(C),
                                                "3", str(args.repeat)], env).get("gflops")
                row["peak"] = peak[threads]
                rows.append(row)
                print_row(row, header=len(rows) == 1)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"\nwrote {args.out}")


def fmt(v):
    return f"{v:9.1f}" if isinstance(v, (int, float)) else f"{'-':>9}"


def print_row(r, header):
    if header:
        print(f"\n{'kernel':26} {'thr':>3} {'untuned':>9} {'default':>9} {'best-hand':>9} "
              f"{'openblas':>9} {'onednn':>9} {'def/dnn':>8} {'best/dnn':>8} {'def/untn':>8} {'best%pk':>7}")
        print("(GFLOP/s; ratios are of GFLOP/s; %pk = best-hand as % of the measured FMA peak)")
    def ratio(a, b):
        return f"{a / b:8.2f}" if a and b else f"{'-':>8}"
    pk = f"{100 * r['best_hand'] / r['peak']:6.1f}%" if r.get("best_hand") else f"{'-':>7}"
    print(f"{r['kernel']:26} {r['threads']:>3} {fmt(r['untuned'])} {fmt(r['default'])} "
          f"{fmt(r['best_hand'])} {fmt(r['openblas'])} {fmt(r['onednn'])} "
          f"{ratio(r['default'], r['onednn'])} {ratio(r['best_hand'], r['onednn'])} "
          f"{ratio(r['default'], r['untuned'])} {pk}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
