#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what torx needs on a Debian machine (apt-get), then configures and builds it, saying what
# it does as it goes. Safe to run again: it installs only what is missing and rebuilds
# incrementally.
#   scripts/setup.sh              # Release build in ./build
#   scripts/setup.sh --plots      # also python3-matplotlib, for the figures of scripts/reproduce_tseng.py
#   scripts/setup.sh --synth      # also the synthesis flow of scripts/synth.sh: OpenSTA and ABC
#                                 # (apt), yosys and the OSU 0.18 um liberty (extracted into ~/.cache/torx)
#   BUILD_DIR=out JOBS=4 scripts/setup.sh
# Installing needs root: run it as root (a bare Debian machine has no sudo), or as a user who may
# run `sudo apt-get`. A user with neither can have an administrator run the apt-get line it prints,
# then run it again: with every package present it only builds.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}

# libgmock-dev: Debian's GTest CMake package refers to it; libsystemc-dev: the cycle-accurate model
# (models/); verilator: the RTL router (hw/); libopenmpi-dev and openmpi-bin: partitioned runs under
# mpirun (TORX_WITH_MPI, docs/distributed.md); clang: the compiler of the RTL models built on first use
# (about 0.75 of g++'s CPU time for the same model, docs/rtl.md "Build time"; without it, g++).
packages=(build-essential cmake pkg-config libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev
          libfmt-dev libsystemc-dev python3 verilator libopenmpi-dev openmpi-bin clang)
synth=0
for arg in "$@"; do
  case $arg in
    # Optional: only the reproduction figures need matplotlib, and it brings numpy, scipy, pythran
    # and the Boost headers with it.
    --plots) packages+=(python3-matplotlib) ;;
    # Optional: the synthesis flow (scripts/synth.sh, docs/area.md). Debian's yosys package depends on
    # xdot (GTK, graphviz: about 140 MB) for `yosys show`, which the flow never runs: yosys and the
    # liberty (qflow-tech-osu018, which depends on all of qflow) are extracted from their packages
    # into the cache instead (scripts/synth.sh --fetch; a yosys on PATH is used first), next to
    # OpenSTA and ABC from apt (about 10 MB in all).
    --synth) packages+=(opensta berkeley-abc); synth=1 ;;
    -h|--help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "[setup] unknown option '$arg' (known: --plots, --synth)" >&2; exit 2 ;;
  esac
done

say() { echo "[setup $(date +%H:%M:%S)] $*"; }
started=$SECONDS

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "[setup] these packages are missing: ${missing[*]}" >&2
    echo "[setup] installing them needs root, and this user is not root and has no sudo. Ask an administrator" >&2
    echo "[setup] to run (as root):  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "[setup] then run scripts/setup.sh again." >&2
    exit 2
  fi
  say "installing ${#missing[@]} packages and what they depend on: ${missing[*]}"
  say "(a few minutes on a fresh machine; apt-get reports each package)"
  "${as_root[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  say "packages installed ($((SECONDS - started)) s so far)"
else
  say "every package is installed"
fi

if ((synth)); then
  say "fetching yosys and the OSU 0.18 um liberty for scripts/synth.sh (apt-get download, dpkg -x)"
  python3 scripts/synth.py --fetch
fi

say "configuring ${BUILD_DIR} (cmake, Release)"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DTORX_WITH_MPI=ON
say "building with ${JOBS} jobs (the first build takes a few minutes; cmake shows its progress)"
cmake --build "$BUILD_DIR" -j "$JOBS"
say "built ${BUILD_DIR}/bin/torx ($((SECONDS - started)) s in all)"
