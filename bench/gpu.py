#!/usr/bin/env python3
"""dltune on the GPU beside cuBLAS (through PyTorch), side by side in one run.

    python3 bench/gpu.py --out DIR [--cases mm_1024,8x256x256x64,...] [--warmup 3]
                         [--repeat 10] [--tune-trials N [--tune-seconds S]] [--dry-run]

Per case: an .mlir file (@main(A, B, C): C filled with zeros, then
linalg.matmul or linalg.batch_matmul), `dltune run --target gpu
--default-config --json` of it (with --tune-trials also `dltune tune --target
gpu` and `dltune run` of the tuned file), and torch.matmul on CUDA in fp32
without and with TF32, timed with CUDA events. Checks: dltune's --check (its
single-thread CPU lowering, ~0.5 GFLOP/s, so only up to --check-max-gflop;
tuning needs that reference too) and, with PyTorch on CUDA, every dltune
output against a float64 matmul of the same inputs. bench/README.md, "GPU
matmuls", says more. On the lent GPU machine run it with
`env -u LD_LIBRARY_PATH` (scripts/gpu-check.sh does): dltune gets --dltune-lib
in its own environment. Exit status 0 only if every dltune run and check
succeeded. Standard library + torch (imported lazily).
"""
import argparse, ast, csv, datetime, json, os, shutil, statistics, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# name: (batch, M, N, K); batch 0 is linalg.matmul.
CASES = {
    "mm_1024": (0, 1024, 1024, 1024),
    "mm_2048": (0, 2048, 2048, 2048),
    "mm_4096": (0, 4096, 4096, 4096),
    "proj_4096x768x768": (0, 4096, 768, 768),     # transformer: attention projection
    "ffn1_4096x3072x768": (0, 4096, 3072, 768),   # FFN up
    "ffn2_4096x768x3072": (0, 4096, 768, 3072),   # FFN down
    "bmm_16x512x512x64": (16, 512, 512, 64),      # attention scores, 16 heads
}
TOLERANCE = 1e-4


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="output directory (created)")
    p.add_argument("--cases", default=",".join(CASES),
                   help="comma-separated names, or MxNxK (matmul) / BxMxNxK (batch_matmul)")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--tune-trials", type=int, default=0, help="0: no tuned column")
    p.add_argument("--tune-seconds", type=float, default=0, help="dltune tune --time-budget per case")
    p.add_argument("--check-max-gflop", type=float, default=5.0,
                   help="dltune --check (and tuning) only up to this many GFLOP")
    p.add_argument("--dltune-bin", help="folder of dltune (default: PATH, /opt/dltune/bin, build/bin)")
    p.add_argument("--dltune-lib", help="LD_LIBRARY_PATH for dltune (default /opt/dltune/lib if present)")
    p.add_argument("--timeout", type=float, default=300, help="seconds per dltune command")
    p.add_argument("--commit", help="the commit measured (default: git rev-parse HEAD)")
    p.add_argument("--dry-run", action="store_true", help="write the .mlir files, print the commands")
    return p.parse_args()


def case_shape(name):
    if name in CASES:
        return CASES[name]
    dims = [int(d) for d in name.split("x") if d.isdigit()]
    if len(dims) not in (3, 4) or len(dims) != len(name.split("x")):
        raise SystemExit(f"unknown case '{name}' (known: {', '.join(CASES)}; or MxNxK, BxMxNxK)")
    return tuple(dims) if len(dims) == 4 else (0, *dims)


def operand_shapes(batch, m, n, k):
    lead = [batch] if batch else []
    return lead + [m, k], lead + [k, n], lead + [m, n]


def flops(batch, m, n, k):
    return 2 * max(batch, 1) * m * n * k


def write_mlir(path, batch, m, n, k):
    a, b, c = ("tensor<%sxf32>" % "x".join(map(str, s)) for s in operand_shapes(batch, m, n, k))
    op = "linalg.batch_matmul" if batch else "linalg.matmul"
    with open(path, "w") as f:
        f.write(f"""func.func @main(%a: {a}, %b: {b}, %c: {c}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : {c}) -> {c}
  %r = {op} ins(%a, %b : {a}, {b}) outs(%init : {c}) -> {c}
  return %r : {c}
}}
""")


def dltune_env(args):
    """The folder of dltune and the environment its commands run in."""
    bin_dir = args.dltune_bin
    if not bin_dir:
        found = shutil.which("dltune")
        candidates = [os.path.dirname(found)] if found else []
        candidates += ["/opt/dltune/bin", os.path.join(ROOT, "build", "bin")]
        bin_dir = next((d for d in candidates if os.path.exists(os.path.join(d, "dltune"))), "")
    lib = args.dltune_lib or ("/opt/dltune/lib" if os.path.isdir("/opt/dltune/lib") else None)
    env = dict(os.environ, PATH=os.pathsep.join([bin_dir, os.environ.get("PATH", "")]))
    if lib:
        env["LD_LIBRARY_PATH"] = lib
    return os.path.join(bin_dir, "dltune"), env


def run_logged(cmd, env, timeout, log):
    """Runs `cmd`, writes its command line and output to `log`; returns
    (exit status, stdout, a short error text or '')."""
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 124, e.stdout or "", f"timed out after {timeout:.0f} s"
        out = out.decode() if isinstance(out, bytes) else out
    except OSError as e:
        rc, out, err = 127, "", str(e)
    with open(log, "w") as f:
        f.write(" ".join(cmd) + f"\nexit status {rc}\n--- stdout\n{out}--- stderr\n{err}")
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return rc, out, (lines[-1][:200] if lines else f"exit status {rc}") if rc else ""


def dltune_run(dltune, env, args, mlir, log, default, check, inputs, output):
    """`dltune run` on the GPU (with dltune's default config, or as the file
    says): (JSON report or None, error text)."""
    cmd = [dltune, "run", mlir, "--entry", "main", "--target", "gpu", "--json",
           "--warmup", str(args.warmup), "--repeat", str(args.repeat)]
    cmd += ["--default-config"] if default else []
    cmd += ["--check"] if check else []
    for path in inputs:
        cmd += ["--input", path]
    cmd += ["--save-output", output] if output else []
    if args.dry_run:
        print(" ".join(cmd))
        return None, ""
    rc, out, err = run_logged(cmd, env, args.timeout, log)
    lines = [l for l in out.splitlines() if l.startswith("{")]
    report = json.loads(lines[-1]) if lines else None
    if rc == 2 and report and report.get("check") == "failed":
        err = "check failed"
    return report, err


def dltune_tune(dltune, env, args, mlir, tuned, db, log):
    """`dltune tune --target gpu`, the tuned IR to `tuned`: (JSON of the task or None, error)."""
    cmd = [dltune, "tune", mlir, "--target", "gpu", "--trials", str(args.tune_trials),
           "--db", db, "-o", tuned, "--json", "--quiet"]
    cmd += ["--time-budget", str(args.tune_seconds)] if args.tune_seconds else []
    if args.dry_run:
        print(" ".join(cmd))
        return None, ""
    rc, out, err = run_logged(cmd, env, args.timeout, log)
    tasks = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return (tasks[0] if tasks else None), err


def write_npy(path, shape, data):
    """A float32 C-order .npy file (format 1.0) holding `data` (bytes-like)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %r, }" % (tuple(shape),)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data)


def read_npy(path):
    """(shape, raw bytes) of a float32 C-order .npy file."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    size, start = (struct.unpack("<H", blob[8:10])[0], 10) if blob[6] == 1 else (struct.unpack("<I", blob[8:12])[0], 12)
    header = ast.literal_eval(blob[start:start + size].decode("latin1"))
    if header["descr"] != "<f4" or header["fortran_order"]:
        raise ValueError(f"{path}: not float32 in C order: {header}")
    return header["shape"], blob[start + size:]


def load_torch():
    """(torch, note): torch with a CUDA device, or None and why not."""
    try:
        import torch
    except ImportError as e:
        return None, f"no PyTorch ({e})"
    if not torch.cuda.is_available():
        return None, f"PyTorch {torch.__version__} without a CUDA device"
    return torch, ""


def set_tf32(torch, allowed):
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):  # PyTorch >= 2.9; the old flag is deprecated there
        matmul.fp32_precision = "tf32" if allowed else "ieee"
    else:
        matmul.allow_tf32 = allowed


def make_inputs(torch, shapes, folder):
    """A and B, uniform in [-1, 1), on the GPU and as .npy files for dltune."""
    tensors, paths = [], []
    gen = torch.Generator().manual_seed(1)
    for name, shape in zip("ab", shapes):
        buf = bytearray(4 * int(torch.Size(shape).numel()))
        host = torch.frombuffer(buf, dtype=torch.float32).view(shape)  # shares buf
        host.copy_(torch.rand(shape, generator=gen) * 2 - 1)
        path = os.path.join(folder, name + ".npy")
        write_npy(path, shape, buf)
        tensors.append(host.cuda())
        paths.append(path)
    return tensors, paths


def time_cuda(torch, fn, warmup, repeat):
    """Median ms of `fn` over `repeat` calls, each between two CUDA events."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def cublas_times(torch, a, b, out, warmup, repeat):
    """(fp32 ms, TF32 ms) of torch.matmul into `out`."""
    times = []
    for allowed in (False, True):
        set_tf32(torch, allowed)
        times.append(time_cuda(torch, lambda: torch.matmul(a, b, out=out), warmup, repeat))
    set_tf32(torch, False)
    return times


def compare_with_torch(torch, path, ref):
    """max |dltune - ref| / max |ref| of the output dltune saved."""
    shape, data = read_npy(path)
    got = torch.frombuffer(bytearray(data), dtype=torch.float32).view(shape).cuda().double()
    return float((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30))


def check_text(report, torch_err, err):
    """ok / FAILED with dltune's own check and the comparison with PyTorch."""
    if err and report is None:
        return ""
    parts, ok = [], True
    if report and report.get("check") != "skipped":
        ok &= report["check"] == "ok"
        parts.append(f"ref {report.get('max_rel_error', float('nan')):.1e}")
    if torch_err is not None:
        ok &= torch_err <= TOLERANCE
        parts.append(f"torch {torch_err:.1e}")
    return (("ok" if ok else "FAILED") + f" ({', '.join(parts)})") if parts else "unchecked"


def run_case(name, shape, args, dltune, env, torch, work):
    """One row: PyTorch's columns, then dltune's default (and tuned) run."""
    batch, m, n, k = shape
    shapes = operand_shapes(batch, m, n, k)
    row = {"case": name, "shape": "x".join(map(str, shape[0:] if batch else shape[1:])),
           "gflop": round(flops(*shape) / 1e9, 3)}
    mlir = os.path.join(args.out, "mlir", name + ".mlir")
    write_mlir(mlir, *shape)
    folder = tempfile.mkdtemp(dir=work)
    inputs, output, ref = [], None, None
    if torch and not args.dry_run:
        (a, b), inputs = make_inputs(torch, shapes[:2], folder)
        out = torch.empty(shapes[2], device="cuda")
        row["cublas_fp32_ms"], row["cublas_tf32_ms"] = cublas_times(torch, a, b, out, args.warmup, args.repeat)
        ref = torch.matmul(a.double(), b.double())
        output = os.path.join(folder, "out.npy")
    check = flops(*shape) <= args.check_max_gflop * 1e9
    logs = os.path.join(args.out, "logs")
    errors, ok = [], True
    variants = [("default", mlir)]
    if args.tune_trials and check:
        tuned = os.path.join(args.out, "mlir", name + ".tuned.mlir")
        task, err = dltune_tune(dltune, env, args, mlir, tuned, os.path.join(folder, "tune.db"),
                                os.path.join(logs, name + "-tune.txt"))
        row["tuner_best_ms"] = task.get("best_ms") if task else None
        if not (err or args.dry_run or row["tuner_best_ms"]):
            err = f"no verified candidate ({task.get('failures') if task else '?'} failed)"
        if err:
            errors.append("tune: " + err)
            ok = False
        else:
            variants.append(("tuned", tuned))
    for variant, path in variants:
        report, err = dltune_run(dltune, env, args, path, os.path.join(logs, f"{name}-{variant}.txt"),
                                 variant == "default", check, inputs, output)
        vs_torch = None
        if output and report and os.path.exists(output):
            vs_torch = compare_with_torch(torch, output, ref)
            os.remove(output)
        row[f"dltune_{variant}_ms"] = report["median_ms"] if report else None
        row[f"{variant}_check"] = "" if args.dry_run else check_text(report, vs_torch, err)
        ok &= not err and not row[f"{variant}_check"].startswith("FAILED")
        if err:
            errors.append(f"{variant}: {err}")
    for col in ("cublas_fp32", "cublas_tf32", "dltune_default", "dltune_tuned"):
        ms = row.get(col + "_ms")
        row[col + "_tflops"] = round(flops(*shape) / (ms * 1e9), 3) if ms else None
    for variant in ("default", "tuned"):
        ms, base = row.get(f"dltune_{variant}_ms"), row.get("cublas_fp32_ms")
        row[f"{variant}_vs_cublas"] = round(base / ms, 4) if ms and base else None
    row["error"] = "; ".join(errors)
    shutil.rmtree(folder, ignore_errors=True)
    return row, ok or args.dry_run


COLUMNS = ["case", "shape", "gflop", "cublas_fp32_ms", "cublas_tf32_ms", "dltune_default_ms",
           "dltune_tuned_ms", "tuner_best_ms", "cublas_fp32_tflops", "cublas_tf32_tflops",
           "dltune_default_tflops", "dltune_tuned_tflops", "default_vs_cublas", "tuned_vs_cublas",
           "default_check", "tuned_check", "error"]


def cell(row, col, fmt="{:.3f}"):
    value = row.get(col)
    return "" if value is None or value == "" else fmt.format(value)


def table(rows):
    head = ["case", "GFLOP", "cuBLAS fp32 ms (TFLOP/s)", "cuBLAS TF32 ms (TFLOP/s)",
            "dltune default ms (TFLOP/s)", "dltune tuned ms (TFLOP/s)", "default/cuBLAS",
            "tuned/cuBLAS", "check (default; tuned)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        timed = [f"{cell(r, c + '_ms', '{:.4g}')} ({cell(r, c + '_tflops', '{:.2f}')})" if r.get(c + "_ms") else ""
                 for c in ("cublas_fp32", "cublas_tf32", "dltune_default", "dltune_tuned")]
        checks = "; ".join(filter(None, [r.get("default_check"), r.get("tuned_check")]))
        lines.append("| " + " | ".join([r["case"], cell(r, "gflop", "{:.2f}"), *timed,
                                        cell(r, "default_vs_cublas", "{:.4f}"),
                                        cell(r, "tuned_vs_cublas", "{:.4f}"), checks]) + " |")
    lines.append("(ms: median of the timed calls, CUDA events; x/cuBLAS: cuBLAS fp32 ms / dltune ms; "
                 "check: ref = dltune --check against its CPU lowering, torch = against a float64 matmul; "
                 "errors in gpu.csv)")
    return lines


def environment(args, dltune, env, torch, note):
    def output(cmd, **kw):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30, **kw).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    info = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": args.commit or output(["git", "-C", ROOT, "rev-parse", "HEAD"]) or "unknown",
            "dltune": dltune, "dltune_version": output([dltune, "--version"], env=env),
            "warmup": args.warmup, "repeat": args.repeat, "tune_trials": args.tune_trials,
            "check_max_gflop": args.check_max_gflop, "note": note}
    if torch:
        info.update(gpu=torch.cuda.get_device_name(), torch=torch.__version__,
                    cuda=torch.version.cuda, capability=".".join(map(str, torch.cuda.get_device_capability())))
    return info


def write_outputs(out, rows, info):
    with open(os.path.join(out, "gpu.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "gpu.md"), "w") as f:
        f.write("\n".join(table(rows)) + "\n")
    with open(os.path.join(out, "gpu.json"), "w") as f:
        json.dump({"environment": info, "rows": rows}, f, indent=1)


def main():
    args = parse_args()
    cases = [(name, case_shape(name)) for name in args.cases.split(",") if name]
    for sub in ("mlir", "logs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    dltune, env = dltune_env(args)
    torch, note = (None, "dry run") if args.dry_run else load_torch()
    if note and not args.dry_run:
        print(f"note: {note}: the PyTorch columns stay empty", file=sys.stderr)
    info = environment(args, dltune, env, torch, note)
    rows, all_ok = [], True
    with tempfile.TemporaryDirectory(prefix="dltune-gpu-bench-") as work:
        for name, shape in cases:
            row, ok = run_case(name, shape, args, dltune, env, torch, work)
            rows.append(row)
            all_ok &= ok
            if not args.dry_run:
                print(f"{name}: " + ", ".join(f"{k}={row[k]}" for k in COLUMNS[3:] if row.get(k) not in (None, "")),
                      file=sys.stderr, flush=True)
                write_outputs(args.out, rows, info)  # a killed run keeps what it measured
    if not args.dry_run:
        print(f"{info.get('gpu', 'no GPU seen by PyTorch')}, torch {info.get('torch', '-')}, "
              f"commit {info['commit'][:12]}, {info['date']}")
        print("\n".join(table(rows)))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
