# -*- Python -*-
import os
import subprocess
import lit.formats

config.name = "dltune"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dltune_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs", "tools"]

path = [config.dltune_tools_dir, config.llvm_tools_dir, os.environ.get("PATH", "")]
config.environment["PATH"] = os.pathsep.join(path)
for var in ["HOME", "TMPDIR", "OMP_NUM_THREADS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%dltune_src", config.dltune_src_root))
# A libcuda stand-in for host-side tests (host memory; it runs no kernel).
config.substitutions.append(("%fake_cuda", config.fake_cuda))

# GPU compile tests that produce a cubin need ptxas; GPU run tests need a
# driver. Both are marked so they skip cleanly elsewhere.
if config.ptxas:
    config.available_features.add("ptxas")
    config.environment["PATH"] = os.pathsep.join(
        [os.path.dirname(config.ptxas), config.environment["PATH"]])
if os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl"):
    config.available_features.add("cuda-driver")

# ONNX import tests write their models with onnx.helper and compute reference
# outputs with NumPy (Debian's python3-onnx, python3-numpy): a Python that has
# both, preferring the system's (a pyenv shim may shadow it).
for candidate in ["/usr/bin/python3", "python3"]:
    try:
        subprocess.run([candidate, "-c", "import onnx, numpy"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        continue
    config.available_features.add("onnx-python")
    config.substitutions.append(("%python", candidate))
    break
