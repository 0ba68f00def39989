#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Area and timing of the RTL (hw/) in a standard-cell library: yosys (synth, dfflibmap, abc, stat
# -liberty) and OpenSTA per configuration, µm², NAND2 equivalents, the critical path and fmax
# (docs/area.md). The flow and its reports are scripts/synth.py; `scripts/synth.sh --help` lists the
# options:
#   scripts/synth.sh --topo 8x8x8 --param vcs_per_class=2   # one router, in torx run's terms
#   scripts/synth.sh --only r2d,b2 --json -                  # two of the table's, torx.area/2 on stdout
#   scripts/synth.sh --out DIR                               # the whole table; netlists and reports kept
#   scripts/synth.sh --update-docs                           # the whole table into docs/area.md
# Exit codes: 0 done, 1 a tool failed on a configuration, 2 bad arguments or a missing tool.
set -euo pipefail
command -v python3 >/dev/null || { echo "synth.sh: python3 is not installed (Debian package python3)" >&2; exit 2; }
exec python3 "$(dirname "$0")/synth.py" "$@"
