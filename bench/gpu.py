#!/usr/bin/env python3
"""dltune on the GPU beside cuBLAS (through PyTorch), side by side in one run.

    python3 bench/gpu.py --out DIR [--cases mm_1024,8x256x256x64,...] [--warmup 3]
                         [--repeat 10] [--tune-trials N [--tune-seconds S]] [--dry-run]
                         [--precision fp32,tf32,fp16] [--configs NAME:knob=v,...;...] [--rounds R]
                         [--cold]

Per case: an .mlir file (@main(A, B, C): C filled with zeros, then
linalg.matmul or linalg.batch_matmul), `dltune run --target gpu
--default-config --json` of it (with --tune-trials also `dltune tune --target
gpu` and `dltune run` of the tuned file), and torch.matmul on CUDA in fp32
without and with TF32, timed with CUDA events. --precision runs each case
at several precisions: fp32 (SIMT; baseline cuBLAS fp32), tf32 (f32
operands, `dltune --tf32`: tensor cores; baseline cuBLAS with TF32) and fp16
(f16 A and B, f32 C; baseline cuBLAS fp16, f16 out, f32 accumulation). Checks: dltune's --check (its
single-thread CPU lowering, ~0.5 GFLOP/s, so only up to --check-max-gflop;
since 2026-11-30 the tuner checks against the CPU's default configuration,
gpu-reference=scheduled, so every case can be tuned) and, with PyTorch on CUDA, every dltune
output against a float64 matmul of the same inputs. --configs adds a column per
named configuration: dltune's default configuration of the case with the given
knobs changed (e.g. "s3:stages=3;wide:block_n=256"), run as an annotated file;
a configuration outside the case's space fails that cell only. --rounds runs
the default and these configurations R times in turn and keeps each one's
median, so that they are compared within one run. --cold flushes L2 before
every timed call of dltune and cuBLAS alike (a buffer of twice L2 written,
untimed). bench/README.md, "GPU
matmuls", says more. On the lent GPU machine run it with
`env -u LD_LIBRARY_PATH` (scripts/gpu-check.sh does): dltune gets --dltune-lib
in its own environment. Exit status 0 only if every dltune run and check
succeeded. Standard library + torch (imported lazily).
"""
import argparse, ast, csv, datetime, json, os, re, shutil, statistics, struct, subprocess, sys, tempfile

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
# max |dltune - float64| / max |float64| allowed, by precision (TF32 keeps
# 10 mantissa bits, as f16 does).
TOLERANCE = {"fp32": 1e-4, "tf32": 1e-2, "fp16": 1e-2}


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
                   help="dltune --check only up to this many GFLOP")
    p.add_argument("--dltune-bin", help="folder of dltune (default: PATH, /opt/dltune/bin, build/bin)")
    p.add_argument("--dltune-lib", help="LD_LIBRARY_PATH for dltune (default /opt/dltune/lib if present)")
    p.add_argument("--timeout", type=float, default=300, help="seconds per dltune command")
    p.add_argument("--commit", help="the commit measured (default: git rev-parse HEAD)")
    p.add_argument("--dry-run", action="store_true", help="write the .mlir files, print the commands")
    p.add_argument("--precision", default="fp32",
                   help="comma-separated: fp32 (SIMT), tf32 (f32 on tensor cores), fp16 (f16 inputs)")
    p.add_argument("--configs", default="",
                   help="NAME:knob=value,...;... - the default configuration with these knobs changed")
    p.add_argument("--cold", action="store_true",
                   help="flush L2 before each timed call, dltune (--cold, tuning with "
                        "--flush-caches) and cuBLAS alike")
    p.add_argument("--rounds", type=int, default=1,
                   help="runs of the default and --configs, in turn (the median is kept)")
    args = p.parse_args()
    args.config_variants = parse_configs(args.configs)
    return args


def parse_configs(text):
    """[(name, {knob: value})] of --configs."""
    out = []
    for item in filter(None, (i.strip() for i in text.split(";"))):
        name, _, knobs = item.partition(":")
        if not name.isidentifier() or name in ("default", "tuned") or not knobs:
            raise SystemExit(f"--configs: '{item}' is not NAME:knob=value,... (NAME not default/tuned)")
        values = {}
        for kv in knobs.split(","):
            knob, _, value = kv.partition("=")
            if not knob.strip().isidentifier() or not value.strip().lstrip("-").isdigit():
                raise SystemExit(f"--configs: '{kv}' in '{item}' is not knob=integer")
            values[knob.strip()] = int(value)
        out.append((name, values))
    return out


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


def write_mlir(path, batch, m, n, k, precision="fp32"):
    elem = "f16" if precision == "fp16" else "f32"
    a, b, c = ("tensor<%sx%s>" % ("x".join(map(str, s)), e)
               for s, e in zip(operand_shapes(batch, m, n, k), (elem, elem, "f32")))
    op = "linalg.batch_matmul" if batch else "linalg.matmul"
    with open(path, "w") as f:
        f.write(f"""func.func @main(%a: {a}, %b: {b}, %c: {c}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : {c}) -> {c}
  %r = {op} ins(%a, %b : {a}, {b}) outs(%init : {c}) -> {c}
  return %r : {c}
}}
""")


def write_variant(dltune, env, args, mlir, path, knobs, precision, log):
    """`mlir` annotated with dltune's default GPU configuration, `knobs`
    changed, to `path`: an error text, or '' when written."""
    opt = os.path.join(os.path.dirname(dltune), "dltune-opt")
    sms = ""
    try:
        import torch
        props = torch.cuda.get_device_properties(0)
        sms = f" gpu-sms={props.multi_processor_count} gpu-cc={props.major * 10 + props.minor}"
    except Exception:
        pass
    source = mlir
    if precision == "tf32":  # the opt-in dltune run --tf32 would set
        source = path + ".in.mlir"
        with open(mlir) as f, open(source, "w") as g:
            g.write("module attributes {dltune.allow_tf32} {\n" + f.read() + "}\n")
    cmd = [opt, source, f"--dltune-annotate=target=gpu default-config=true{sms}"]
    if args.dry_run:
        print(" ".join(cmd))
        return ""
    rc, out, err = run_logged(cmd, env, args.timeout, log)
    if rc:
        return err
    configs = re.findall(r"#dltune\.config<[^>]*>", out)
    if len(configs) != 1:
        return f"expected one configured op, found {len(configs)}"
    config = configs[0]
    for knob, value in knobs.items():
        config, n = re.subn(rf"\b{knob} = -?\d+", f"{knob} = {value}", config)
        if not n:
            return f"the default configuration has no knob '{knob}'"
    with open(path, "w") as f:
        f.write(out.replace(configs[0], config))
    return ""


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


def dltune_run(dltune, env, args, mlir, log, default, check, inputs, output, precision="fp32"):
    """`dltune run` on the GPU (with dltune's default config, or as the file
    says): (JSON report or None, error text)."""
    cmd = [dltune, "run", mlir, "--entry", "main", "--target", "gpu", "--json",
           "--warmup", str(args.warmup), "--repeat", str(args.repeat)]
    cmd += ["--cold"] if args.cold else []
    cmd += ["--tf32"] if precision == "tf32" else []
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


def dltune_tune(dltune, env, args, mlir, tuned, db, log, precision="fp32"):
    """`dltune tune --target gpu`, the tuned IR to `tuned`: (JSON of the task or None, error)."""
    cmd = [dltune, "tune", mlir, "--target", "gpu", "--trials", str(args.tune_trials),
           "--db", db, "-o", tuned, "--json", "--quiet"]
    cmd += ["--flush-caches"] if args.cold else []
    cmd += ["--tf32"] if precision == "tf32" else []
    cmd += ["--time-budget", str(args.tune_seconds)] if args.tune_seconds else []
    if args.dry_run:
        print(" ".join(cmd))
        return None, ""
    rc, out, err = run_logged(cmd, env, args.timeout, log)
    tasks = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return (tasks[0] if tasks else None), err


def write_npy(path, shape, data, descr="<f4"):
    """A C-order .npy file (format 1.0) of `descr` elements holding `data` (bytes-like)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, tuple(shape))
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


def make_inputs(torch, shapes, folder, precision="fp32"):
    """A and B, uniform in [-1, 1), on the GPU and as .npy files for dltune
    (f16 for fp16, else f32)."""
    tensors, paths = [], []
    gen = torch.Generator().manual_seed(1)
    dtype, size, descr = (torch.float16, 2, "<f2") if precision == "fp16" else (torch.float32, 4, "<f4")
    for name, shape in zip("ab", shapes):
        buf = bytearray(size * int(torch.Size(shape).numel()))
        host = torch.frombuffer(buf, dtype=dtype).view(shape)  # shares buf
        host.copy_(torch.rand(shape, generator=gen) * 2 - 1)
        path = os.path.join(folder, name + ".npy")
        write_npy(path, shape, buf, descr)
        tensors.append(host.cuda())
        paths.append(path)
    return tensors, paths


def flush_bytes(torch):
    """What `dltune run --target gpu --cold` writes: twice L2, at least 32 MiB."""
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0)
    return max(2 * l2, 32 << 20) if l2 else 256 << 20


def time_cuda(torch, fn, warmup, repeat, cold=False):
    """Median ms of `fn` over `repeat` calls, each between two CUDA events;
    with `cold`, L2 is flushed before each timed call as dltune's --cold
    does (a buffer of twice L2 written on the stream before the start
    event)."""
    for _ in range(warmup):
        fn()
    flush = torch.empty(flush_bytes(torch) // 4, dtype=torch.int32, device="cuda") if cold else None
    torch.cuda.synchronize()
    times = []
    for i in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        if flush is not None:
            flush.fill_(i + 1)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def cublas_times(torch, a, b, out, warmup, repeat, cold=False):
    """(fp32 ms, TF32 ms) of torch.matmul into `out`."""
    times = []
    for allowed in (False, True):
        set_tf32(torch, allowed)
        times.append(time_cuda(torch, lambda: torch.matmul(a, b, out=out), warmup, repeat, cold))
    set_tf32(torch, False)
    return times


def compare_with_torch(torch, path, ref):
    """max |dltune - ref| / max |ref| of the output dltune saved."""
    shape, data = read_npy(path)
    got = torch.frombuffer(bytearray(data), dtype=torch.float32).view(shape).cuda().double()
    return float((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30))


def check_text(report, torch_err, err, precision="fp32"):
    """ok / FAILED with dltune's own check and the comparison with PyTorch."""
    if err and report is None:
        return ""
    parts, ok = [], True
    if report and report.get("check") != "skipped":
        ok &= report["check"] == "ok"
        parts.append(f"ref {report.get('max_rel_error', float('nan')):.1e}")
    if torch_err is not None:
        ok &= torch_err <= TOLERANCE[precision]
        parts.append(f"torch {torch_err:.1e}")
    return (("ok" if ok else "FAILED") + f" ({', '.join(parts)})") if parts else "unchecked"


def run_case(name, shape, args, dltune, env, torch, work, precision="fp32"):
    """One row: PyTorch's columns, then dltune's default (and tuned) run, at
    `precision`."""
    batch, m, n, k = shape
    shapes = operand_shapes(batch, m, n, k)
    row = {"case": name, "precision": precision,
           "shape": "x".join(map(str, shape[0:] if batch else shape[1:])),
           "gflop": round(flops(*shape) / 1e9, 3)}
    stem = name if precision == "fp32" else f"{name}-{precision}"
    mlir = os.path.join(args.out, "mlir", stem + ".mlir")
    write_mlir(mlir, *shape, precision)
    folder = tempfile.mkdtemp(dir=work)
    inputs, output, ref = [], None, None
    if torch and not args.dry_run:
        (a, b), inputs = make_inputs(torch, shapes[:2], folder, precision)
        if precision == "fp16":
            out = torch.empty(shapes[2], device="cuda", dtype=torch.float16)
            row["cublas_ms"] = time_cuda(torch, lambda: torch.matmul(a, b, out=out), args.warmup, args.repeat,
                                         args.cold)
        else:
            out = torch.empty(shapes[2], device="cuda")
            row["cublas_fp32_ms"], row["cublas_tf32_ms"] = cublas_times(torch, a, b, out, args.warmup, args.repeat,
                                                                          args.cold)
            row["cublas_ms"] = row["cublas_tf32_ms" if precision == "tf32" else "cublas_fp32_ms"]
        ref = torch.matmul(a.double(), b.double())
        output = os.path.join(folder, "out.npy")
    check = flops(*shape) <= args.check_max_gflop * 1e9
    logs = os.path.join(args.out, "logs")
    errors, ok = [], True
    variants = [("default", mlir)]
    if args.tune_trials:  # the tuner checks against the scheduled CPU reference
        tuned = os.path.join(args.out, "mlir", stem + ".tuned.mlir")
        task, err = dltune_tune(dltune, env, args, mlir, tuned, os.path.join(folder, "tune.db"),
                                os.path.join(logs, stem + "-tune.txt"), precision)
        row["tuner_best_ms"] = task.get("best_ms") if task else None
        if not (err or args.dry_run or row["tuner_best_ms"]):
            err = f"no verified candidate ({task.get('failures') if task else '?'} failed)"
        if err:
            errors.append("tune: " + err)
            ok = False
        else:
            variants.append(("tuned", tuned))
    for variant, knobs in args.config_variants:
        path = os.path.join(args.out, "mlir", f"{stem}.{variant}.mlir")
        err = write_variant(dltune, env, args, mlir, path, knobs, precision,
                            os.path.join(logs, f"{stem}-{variant}-annotate.txt"))
        if err:
            errors.append(f"{variant}: {err}")
            row[f"{variant}_check"] = "FAILED (not built)"
            ok = False
        else:
            variants.append((variant, path))
    times = {}
    for round_no in range(max(1, args.rounds)):
        for variant, path in variants:
            if variant in times and times[variant] is None:
                continue  # failed in an earlier round
            report, err = dltune_run(dltune, env, args, path,
                                     os.path.join(logs, f"{stem}-{variant}-r{round_no}.txt"),
                                     variant == "default", check and round_no == 0, inputs,
                                     output if round_no == 0 else None, precision)
            times.setdefault(variant, [])
            if report is None:
                times[variant] = None
            else:
                times[variant].append(report["median_ms"])
            if round_no:
                if err:
                    errors.append(f"{variant} (round {round_no + 1}): {err}")
                    ok = False
                continue
            vs_torch = None
            if output and report and os.path.exists(output):
                vs_torch = compare_with_torch(torch, output, ref)
                os.remove(output)
            row[f"{variant}_check"] = "" if args.dry_run else check_text(report, vs_torch, err, precision)
            ok &= not err and not row[f"{variant}_check"].startswith("FAILED")
            if err:
                errors.append(f"{variant}: {err}")
    for variant, _ in variants:
        row[f"dltune_{variant}_ms"] = statistics.median(times[variant]) if times.get(variant) else None
    names = ["default", "tuned"] + [v for v, _ in args.config_variants]
    for col in ["cublas", "cublas_fp32", "cublas_tf32"] + [f"dltune_{v}" for v in names]:
        ms = row.get(col + "_ms")
        row[col + "_tflops"] = round(flops(*shape) / (ms * 1e9), 3) if ms else None
    for variant in names:
        ms, base = row.get(f"dltune_{variant}_ms"), row.get("cublas_ms")
        row[f"{variant}_vs_cublas"] = round(base / ms, 4) if ms and base else None
    row["error"] = "; ".join(errors)
    shutil.rmtree(folder, ignore_errors=True)
    return row, ok or args.dry_run


COLUMNS = ["case", "precision", "shape", "gflop", "cublas_ms", "cublas_tflops", "cublas_fp32_ms", "cublas_tf32_ms", "dltune_default_ms",
           "dltune_tuned_ms", "tuner_best_ms", "cublas_fp32_tflops", "cublas_tf32_tflops",
           "dltune_default_tflops", "dltune_tuned_tflops", "default_vs_cublas", "tuned_vs_cublas",
           "default_check", "tuned_check", "error"]


def cell(row, col, fmt="{:.3f}"):
    value = row.get(col)
    return "" if value is None or value == "" else fmt.format(value)


def columns(configs=()):
    """The CSV columns, with those of the --configs variants."""
    extra = []
    for v in configs:
        extra += [f"dltune_{v}_ms", f"dltune_{v}_tflops", f"{v}_vs_cublas", f"{v}_check"]
    return COLUMNS[:-1] + extra + COLUMNS[-1:]


def table(rows, configs=()):
    head = ["case", "precision", "GFLOP", "cuBLAS same precision ms (TFLOP/s)",
            "cuBLAS fp32 ms (TFLOP/s)", "cuBLAS TF32 ms (TFLOP/s)",
            "dltune default ms (TFLOP/s)", "dltune tuned ms (TFLOP/s)", "default/cuBLAS",
            "tuned/cuBLAS"] + [f"{v} ms (x cuBLAS)" for v in configs] + ["check (default; tuned; configs)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        timed = [f"{cell(r, c + '_ms', '{:.4g}')} ({cell(r, c + '_tflops', '{:.2f}')})" if r.get(c + "_ms") else ""
                 for c in ("cublas", "cublas_fp32", "cublas_tf32", "dltune_default", "dltune_tuned")]
        variants = [f"{cell(r, f'dltune_{v}_ms', '{:.4g}')} ({cell(r, f'{v}_vs_cublas', '{:.3f}')})"
                    if r.get(f"dltune_{v}_ms") else "" for v in configs]
        checks = "; ".join(filter(None, [r.get(f"{v}_check") for v in ("default", "tuned", *configs)]))
        lines.append("| " + " | ".join([r["case"], r.get("precision", "fp32"), cell(r, "gflop", "{:.2f}"), *timed,
                                        cell(r, "default_vs_cublas", "{:.4f}"),
                                        cell(r, "tuned_vs_cublas", "{:.4f}"), *variants, checks]) + " |")
    lines.append("(ms: median of the timed calls, CUDA events, L2 flushed before each with --cold "
                 "(gpu.json's environment says); x/cuBLAS: cuBLAS ms at the same precision "
                 "(fp32: fp32; tf32: TF32; fp16: fp16 in and out) / dltune ms; "
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
            "check_max_gflop": args.check_max_gflop, "cold": args.cold, "note": note}
    if torch:
        info.update(gpu=torch.cuda.get_device_name(), torch=torch.__version__,
                    cuda=torch.version.cuda, capability=".".join(map(str, torch.cuda.get_device_capability())))
    return info


def write_outputs(out, rows, info, configs=()):
    with open(os.path.join(out, "gpu.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns(configs), extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "gpu.md"), "w") as f:
        f.write("\n".join(table(rows, configs)) + "\n")
    with open(os.path.join(out, "gpu.json"), "w") as f:
        json.dump({"environment": info, "rows": rows}, f, indent=1)


def main():
    args = parse_args()
    cases = [(name, case_shape(name)) for name in args.cases.split(",") if name]
    precisions = [p for p in args.precision.split(",") if p]
    for p in precisions:
        if p not in TOLERANCE:
            raise SystemExit(f"unknown precision '{p}' (known: {', '.join(TOLERANCE)})")
    for sub in ("mlir", "logs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    dltune, env = dltune_env(args)
    torch, note = (None, "dry run") if args.dry_run else load_torch()
    if note and not args.dry_run:
        print(f"note: {note}: the PyTorch columns stay empty", file=sys.stderr)
    info = environment(args, dltune, env, torch, note)
    configs = [v for v, _ in args.config_variants]
    info["configs"] = args.configs
    info["rounds"] = args.rounds
    rows, all_ok = [], True
    with tempfile.TemporaryDirectory(prefix="dltune-gpu-bench-") as work:
        for precision, (name, shape) in ((p, c) for p in precisions for c in cases):
            row, ok = run_case(name, shape, args, dltune, env, torch, work, precision)
            rows.append(row)
            all_ok &= ok
            if not args.dry_run:
                print(f"{name} {precision}: " + ", ".join(f"{k}={row[k]}" for k in columns(configs)[3:]
                                                         if row.get(k) not in (None, "")),
                      file=sys.stderr, flush=True)
                write_outputs(args.out, rows, info, configs)  # a killed run keeps what it measured
    if not args.dry_run:
        print(f"{info.get('gpu', 'no GPU seen by PyTorch')}, torch {info.get('torch', '-')}, "
              f"commit {info['commit'][:12]}, {info['date']}")
        print("\n".join(table(rows, configs)))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
