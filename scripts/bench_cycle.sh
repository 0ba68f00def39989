#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test) of the cycle-accurate model: router-cycles and flit-hops per second of
# simulation time (the result document's cycle_model.run_seconds: loading the network and running
# the step model are not counted), best of REPEAT runs; (a) on one core, (b) on one and on two
# (--param threads, docs/cycle-model.md).
#   (a) direct on a 16x16 torus with 8-flit blocks (--block-bytes 128 --flit-bytes 16): every node
#       sends 255 worms of 8 flits, like BookSim's batch run of 255 8-flit packets per node;
#   (b) t4 on a 32x32 torus (64-byte blocks, 16-byte flits).
#   scripts/bench_cycle.sh            # (a) and (b)
#   scripts/bench_cycle.sh --scale    # also t4 on 64x64 (4096 routers, 16.7 million blocks) under
#                                     # /usr/bin/time -v: wall time and peak memory
#   REPEAT=5 TORX=build/bin/torx scripts/bench_cycle.sh
# Figures go to docs/performance.md by hand, with the machine's load at the time.
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
REPEAT=${REPEAT:-3}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bench() {
  local name=$1; shift
  local best=""
  for ((i = 0; i < REPEAT; ++i)); do
    "$TORX" run "$@" --model cycle --json "$tmp/r.json" >/dev/null
    local line
    line=$(python3 - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cycle_model"]; s = d["sim"]
t = c["run_seconds"]
print(f'{t:.3f} {d["cycles"]} {s["router_cycles"]} {s["flit_hops"]} {s["router_cycles"]/t/1e6:.2f} '
      f'{s["flit_hops"]/t/1e6:.2f} {c["load_seconds"]:.2f} {d["check"]["ok"]}')
PY
)
    if [[ -z $best ]] || python3 -c "import sys; sys.exit(0 if float('${line%% *}') < float('${best%% *}') else 1)"; then
      best=$line
    fi
  done
  read -r t cycles rc fh rcs fhs load ok <<<"$best"
  printf '%-34s %8s s %9s cycles %12s router-cycles %11s flit-hops  %6s M router-cycles/s  %6s M flit-hops/s  (load %s s, check %s)\n' \
    "$name" "$t" "$cycles" "$rc" "$fh" "$rcs" "$fhs" "$load" "$ok"
}

echo "torx cycle model benchmark, best of $REPEAT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
bench "(a) direct 16x16, 8-flit blocks" direct --topo 16x16 --block-bytes 128 --flit-bytes 16 --param threads=1
bench "(b) t4 32x32, 1 thread" t4 --topo 32x32 --param threads=1
bench "(b) t4 32x32, 2 threads" t4 --topo 32x32 --param threads=2

if [[ ${1:-} == --scale ]]; then
  echo
  echo "== t4 on 64x64 (4096 routers, 16.7 million blocks; threads automatic: 2 on a 2-core machine)"
  /usr/bin/time -v "$TORX" run t4 --topo 64x64 --model cycle --json "$tmp/s.json" >"$tmp/s.txt" 2>"$tmp/time.txt" || true
  cat "$tmp/s.txt"
  grep -E "Elapsed \(wall|Maximum resident|Exit status" "$tmp/time.txt"
fi
