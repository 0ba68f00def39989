#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The build configured without the Verilated router (-DTORX_BUILD_RTL=OFF), as a user without
# verilator gets it, tested where it differs from the default build: the torx binary (its rtl model
# and torx cosim are absent and must say so, exit 2) and the suites that run it (test_cli,
# test_cycle_cli). The libraries and the other suites are the same code in both configurations,
# so they are neither built nor run twice. CI runs this after scripts/test.sh (.ci/run); it adds
# about 3 minutes on a 2-core machine without ccache (most of it compiling the model again).
#   scripts/test_rtl_off.sh                  # build-nortl/, two jobs
#   BUILD_DIR=out JOBS=4 scripts/test_rtl_off.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-nortl}
JOBS=${JOBS:-$(nproc)}
say() { echo "[test_rtl_off $(date +%H:%M:%S)] $*"; }
started=$SECONDS
say "configuring ${BUILD_DIR} without the RTL (-DTORX_BUILD_RTL=OFF)"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DTORX_BUILD_RTL=OFF "${launcher[@]}"
say "building torx and the suites that run it (${JOBS} jobs)"
cmake --build "$BUILD_DIR" -j "$JOBS" --target torx test_cli test_cycle_cli
say "testing"
# Only the tests of the executables built above (ctest lists the others as NOT_BUILT).
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" \
  --no-tests=error -R '^(Cli|CycleCli|MemoryLimit)\.|/(BadInput|EveryAlgorithm)\.' "$@"
say "done ($((SECONDS - started)) s)"
