#!/usr/bin/env bash
# Installs every Debian package dltune needs to build, test and benchmark.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
PKGS=(
  cmake ninja-build g++ git
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22
  libeigen3-dev libgtest-dev googletest libgmock-dev
  libsqlite3-dev libpq-dev nlohmann-json3-dev libxgboost-dev libnlopt-dev
  libonnx-dev libprotobuf-dev
  libopenblas-dev libdnnl-dev libomp-22-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
  python3
  # Tests: ONNX test models are written by Python at test time, their
  # reference outputs computed with NumPy.
  python3-onnx python3-numpy
  # The PostgreSQL back-end's tests start a throw-away server (pg_virtualenv).
  postgresql postgresql-common
  # A study's workers launched by mpirun (OpenMPI only as a launcher; test
  # postgres-study).
  openmpi-bin
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
