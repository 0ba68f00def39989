#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's demonstration: set up (install, configure, build), then
#  1. seed 000's ring complete exchange on a ring of 64 nodes in the step model: the summary
#     (algorithm, topology, steps, blocks, formula, lower bound, check);
#  2. seed 000's T4 complete exchange on a 16x16 torus in the cycle-accurate SystemC model, beside
#     the step model's figures, with its per-step timeline (scripts/demo_cycle.sh);
#  3. the same T4 run on a network of Verilated RTL routers beside the cycle model, figure for
#     figure (scripts/demo_rtl.sh; when the build has the RTL).
set -euo pipefail
cd "$(dirname "$0")/.."
# Setup reports on standard error what it installs and builds (minutes on a fresh machine); the
# demonstration's own output stays on standard output.
scripts/setup.sh >&2
TORX="${BUILD_DIR:-build}/bin/torx"
echo
echo "== $TORX run ring --topo 64"
"$TORX" run ring --topo 64
echo
scripts/demo_cycle.sh t4 16x16
if "$TORX" run --help | grep -q 'cycle|rtl'; then
  echo
  scripts/demo_rtl.sh t4 16x16
fi
