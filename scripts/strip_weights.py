#!/usr/bin/env python3
"""strip_weights.py IN.mlir OUT.mlir: an imported model with its weights
replaced by splat constants, for timing where the real weights cannot travel
(a lent GPU machine takes 64 MiB with dltune's bundle; MobileNet-v2's weights
alone are 14 MB).

Every `arith.constant dense_resource<...> : tensor<...xf32>` (what `dltune
import` writes for ONNX initializers) becomes `arith.constant dense<v>`, and
the dialect_resources section is dropped. v keeps activations in range: 1 /
fan-in for filters and matrices (rank >= 2: the product of all dimensions but
the last, for HWCF filters H*W*C; for the transposed [F, C] matrix of a Gemm
the larger dimension), 0 for biases (rank 1). Speed does not depend on the
values; the outputs are meaningful only against the same stripped model
(dltune's --check compares the GPU with its CPU lowering of it).
Standard library only.
"""
import re
import sys

CONSTANT = re.compile(r"dense_resource<[A-Za-z0-9_.$-]+> : tensor<([0-9x]+)x(f32|f16|bf16)>")


def splat_value(dims):
    if len(dims) < 2:
        return 0.0
    fan_in = 1
    for d in dims[:-1]:
        fan_in *= d
    if len(dims) == 2:
        fan_in = max(dims)
    return 1.0 / max(fan_in, 1)


def strip(text):
    def replace(match):
        dims = [int(d) for d in match.group(1).split("x")]
        return f"dense<{splat_value(dims):.9e}> : tensor<{match.group(1)}x{match.group(2)}>"

    start = text.find("{-#")
    body = text if start < 0 else text[:start]
    stripped, count = CONSTANT.subn(replace, body)
    if "dense_resource<" in stripped:
        raise ValueError("a dense_resource constant of a type this script does not handle is left")
    return stripped, count


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n")[0], file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        text = f.read()
    try:
        stripped, count = strip(text)
    except ValueError as e:
        print(f"strip_weights.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(sys.argv[2], "w") as f:
        f.write(stripped)
    print(f"{sys.argv[2]}: {count} constants made splats, {len(text) >> 20} -> {len(stripped) >> 10} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
