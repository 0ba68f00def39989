#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The RTL on the largest shapes of issue 22's list, which ctest leaves out for CI's time (their
# models take minutes of CPU each; docs/rtl.md "First use"): the held-out shapes priority K = 8 on a
# 3D torus and the all-port 3D router with V = 2, figure for figure against the cycle model
# (DISABLED_BigShapes/HeldOut.* of test_rtl_on_demand), then torx cosim on shapes drawn from the seed
# with all-port 3D routers allowed (TORX_COSIM_DRAW_ALL_PORT_3D=1). Models go to the build tree's
# cache (build/rtl-cache), so a second run builds nothing. Every model here has the RTL properties
# (TORX_RTL_PROPS_PORTS unset). The seeded cosim builds its all-port 3D model inside the test, whose
# torx runs stop at 900 s: on a machine loaded far past its cores, build it first or run again.
#   scripts/rtl_big_shapes.sh [BUILD_DIR]      # default build; at nice -n 19 on a shared machine
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
T=$BUILD_DIR/tests/test_rtl_on_demand
[[ -x $T ]] || { echo "rtl_big_shapes: no $T (configure and build with the RTL first)" >&2; exit 2; }
export TORX_RTL_CACHE=${TORX_RTL_CACHE:-$(realpath "$BUILD_DIR")/rtl-cache}
unset TORX_RTL_PROPS_PORTS
say() { echo "[rtl_big_shapes $(date +%H:%M:%S)] $*"; }
TORX=$BUILD_DIR/bin/torx
# The models first, without the test's 900 s limit on one torx run (a loaded machine can take longer).
say "building the models (cache $TORX_RTL_CACHE; minutes of CPU each on first use)"
"$TORX" rtl build direct --topo 4x4x4 --sync priority --param priority_levels=8 --ts 10 --block-bytes 256
"$TORX" rtl build tsay-wang --topo 3x3x3 --param vcs_per_class=2
say "held-out shapes K = 8 on 4x4x4 and all-port 3x3x3 with V = 2"
"$T" --gtest_also_run_disabled_tests --gtest_filter='DISABLED_BigShapes/HeldOut.*'
say "torx cosim on the seed's shapes, all-port 3D routers allowed"
TORX_COSIM_DRAW_ALL_PORT_3D=1 "$T" --gtest_filter='OnDemand.CosimOnShapesDrawnFromASeedHasNoMismatch'
say "done"
