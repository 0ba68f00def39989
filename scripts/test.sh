#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command: set up (install, configure, build; with the synthesis flow, so that
# ctest -L synth runs it), then run every test with ctest.
# Extra arguments go to ctest, e.g. scripts/test.sh -L sw
# The RTL properties (hw/props) are compiled into the routers of at most 5 ports (1D and 2D one-port,
# 1D all-port: the mutants, priority levels, the organizations), not into the 3D and all-port 2D
# routers, whose generated C++ they double (docs/rtl.md, "Build time"); TORX_RTL_PROPS_PORTS= (empty)
# compiles them into every model, as a plain ctest or torx run does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --synth
export TORX_RTL_PROPS_PORTS=${TORX_RTL_PROPS_PORTS-5}
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
