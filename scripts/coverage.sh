#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Code coverage of the RTL under co-simulation (docs/verification.md, "Coverage"): the Verilated
# routers and barrier units are built with Verilator's line and toggle coverage (TORX_RTL_COVERAGE:
# another cache entry than the normal models, hw/rtl_cache.cpp), a few torx cosim runs drive them in
# lock step with the C++ model (so the properties are checked as well), every harness writes its
# counts, and scripts/coverage_summary.py merges them into one table per module: line points hit,
# toggle points hit, the lines never reached. Not a ctest: the coverage builds take minutes each.
#   scripts/coverage.sh                    the runs below, the table on standard output
#   scripts/coverage.sh --quick            a tenth of the cycles
#   scripts/coverage.sh --out DIR          keep the counts and verilator_coverage's annotated sources
#   scripts/coverage.sh --only r2d_k2      one run (the counts of earlier runs in DIR/dat are kept)
# Exit: 0 done, 1 a run failed (a mismatch or an assertion), 2 bad usage or a missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
CYCLES=5000
OUT=""
ONLY=""
while (($#)); do
  case $1 in
    --quick) CYCLES=1000 ;;
    --out) OUT=$2; shift ;;
    --only) ONLY=$2; shift ;;
    -h|--help) sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "coverage.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ -x $TORX ]] || { echo "coverage.sh: build first ($TORX missing; or TORX=path/to/torx)" >&2; exit 2; }
command -v verilator_coverage >/dev/null || { echo "coverage.sh: verilator_coverage not found (apt-get install verilator)" >&2; exit 2; }
if [[ -z $OUT ]]; then
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
fi
mkdir -p "$OUT/dat"
OUT=$(cd "$OUT" && pwd)

# name | torx cosim arguments: the default router (dateline classes, barrier units) under uniform
# traffic and under hotspot traffic of one-flit worms (a claim and a release in one cycle), two VCs
# per class with a shallow buffer and a three-stage pipeline, priority levels with preemption.
runs=(
  "r2d|--topo 4x4 --load 0.4 --barrier-every 1000"
  "r2d_hotspot|--topo 4x4 --load 0.6 --pattern hotspot --max-worm-flits 1 --barrier-every 700"
  "r1d_v2|--topo 8 --param vcs_per_class=2 --param buffer_depth=3 --param router_latency=3 --load 0.5"
  "r2d_k2|--topo 4x4 --param priority_levels=2 --load 0.6 --barrier-every 0"
)
fail=0
for entry in "${runs[@]}"; do
  IFS='|' read -r name args <<<"$entry"
  [[ -n $ONLY && $name != "$ONLY" ]] && continue
  t0=$(date +%s)
  set +e
  # shellcheck disable=SC2086
  TORX_RTL_COVERAGE="$OUT/dat" "$TORX" cosim $args --cycles "$CYCLES" --seed 7 --json "$OUT/$name.json" >/dev/null 2>"$OUT/$name.err"
  rc=$?
  set -e
  echo "coverage.sh: $name: exit $rc, $(($(date +%s) - t0)) s" >&2
  if ((rc != 0)); then
    tail -5 "$OUT/$name.err" >&2
    fail=1
  fi
done
python3 scripts/coverage_summary.py "$OUT/dat" --annotate "$OUT/annotated"
exit $fail
