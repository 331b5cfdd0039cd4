#!/usr/bin/env bash
# Writes ResNet-18, MobileNet-v2, VGG-16, SqueezeNet 1.0 and a 2-layer
# BERT-style encoder to ONNX (random weights, fixed seeds) with PyTorch's
# outputs and CPU latency, into models/ (or $1). Needs Debian's
# python3-torchvision; CI does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-models}
dpkg-query -W -f='${Status}' python3-torchvision 2>/dev/null | grep -q "install ok installed" ||
  { echo "make-models: needs python3-torchvision (apt-get install python3-torchvision)"; exit 1; }
/usr/bin/python3 scripts/make_models.py "$out" "${@:2}"
