#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what torx needs on a fresh Debian machine (apt-get), then configures and builds it.
# Safe to run again: it installs only what is missing and rebuilds incrementally.
#   scripts/setup.sh            # Release build in ./build
#   BUILD_DIR=out scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# libgmock-dev: Debian's GTest CMake package refers to it; libsystemc-dev: the cycle-accurate model
# (models/); python3-matplotlib: the reproduction plots; verilator: the RTL router (hw/); yosys: its
# area figures (scripts/synth.sh).
packages=(build-essential cmake pkg-config libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev
          libfmt-dev libsystemc-dev python3 python3-matplotlib verilator yosys)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "[setup] installing: ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "[setup] configuring ${BUILD_DIR}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "[setup] building with ${JOBS} jobs"
cmake --build "$BUILD_DIR" -j "$JOBS"
echo "[setup] built ${BUILD_DIR}/bin/torx"
