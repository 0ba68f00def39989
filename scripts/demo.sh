#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's demonstration: set up, then run seed 000's ring complete exchange on a ring of 64
# nodes and print the summary (algorithm, topology, steps, blocks, formula, lower bound, check).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
TORX="${BUILD_DIR:-build}/bin/torx"
echo
echo "== $TORX run ring --topo 64"
"$TORX" run ring --topo 64
