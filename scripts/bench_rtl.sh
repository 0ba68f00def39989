#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test) of whole networks of Verilated RTL routers (--model rtl) beside the C++
# cycle model on the same runs: router-cycles and flit-hops per second of simulation time (the
# result document's cycle_model.run_seconds), best of REPEAT runs, the two models alternating so
# that both see the same load; then torx cosim (both models in lock step) on an 8x8 torus. Issue
# 12's runs: direct on 8x8 and t4 on 16x16 (64-byte blocks, 16-byte flits, one thread).
#   scripts/bench_rtl.sh
#   REPEAT=5 TORX=build/bin/torx scripts/bench_rtl.sh
#   scripts/bench_rtl.sh --callgrind    # also instruction counts (valgrind), independent of load
# Figures go to docs/performance.md by hand, with the machine's load at the time.
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
REPEAT=${REPEAT:-3}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
"$TORX" run --help | grep -q 'cycle|rtl' || { echo "this build has no RTL model (Verilator)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

figures() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cycle_model"]; s = d["sim"]
t = c["run_seconds"]
print(f'{t:.3f} {d["cycles"]} {s["router_cycles"]} {s["flit_hops"]} {s["router_cycles"]/t/1e6:.3f} '
      f'{s["flit_hops"]/t/1e6:.3f} {c["router_evaluations"]} {d["check"]["ok"]}')
PY
}

bench() {
  local name=$1; shift
  local best_c="" best_r=""
  for ((i = 0; i < REPEAT; ++i)); do
    for m in cycle rtl; do
      "$TORX" run "$@" --model "$m" --param threads=1 --json "$tmp/$m.json" >/dev/null
      local line
      line=$(figures "$tmp/$m.json")
      if [[ $m == cycle ]]; then
        if [[ -z $best_c ]] || python3 -c "import sys; sys.exit(0 if float('${line%% *}') < float('${best_c%% *}') else 1)"; then best_c=$line; fi
      else
        if [[ -z $best_r ]] || python3 -c "import sys; sys.exit(0 if float('${line%% *}') < float('${best_r%% *}') else 1)"; then best_r=$line; fi
      fi
    done
  done
  for m in cycle rtl; do
    local best
    if [[ $m == cycle ]]; then best=$best_c; else best=$best_r; fi
    read -r t cycles rc fh rcs fhs ev ok <<<"$best"
    printf '%-22s %-5s %7s s %7s cycles %10s router-cycles %10s flit-hops %8s M router-cycles/s %8s M flit-hops/s (%s evaluated, check %s)\n' \
      "$name" "$m" "$t" "$cycles" "$rc" "$fh" "$rcs" "$fhs" "$ev" "$ok"
  done
}

echo "torx RTL benchmark, best of $REPEAT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
bench "direct 8x8" direct --topo 8x8
bench "t4 16x16" t4 --topo 16x16
echo
echo "== torx cosim --topo 8x8 --cycles 20000 --load 0.4 (C++ and RTL in lock step, every register compared)"
"$TORX" cosim --topo 8x8 --cycles 20000 --load 0.4 | grep -E "cycles|speed|result"

if [[ ${1:-} == --callgrind ]]; then
  # Each Verilated router has its own VerilatedContext and thread pool: valgrind's thread limit.
  for run in "direct --topo 8x8" "t4 --topo 8x8"; do
    echo
    echo "== instructions (valgrind --tool=callgrind), $run"
    for m in cycle rtl; do
      # shellcheck disable=SC2086
      valgrind --tool=callgrind --max-threads=3000 --callgrind-out-file="$tmp/cg.$m" "$TORX" run $run --model "$m" \
        --param threads=1 >/dev/null 2>"$tmp/vg.$m" || true
      printf '%-6s %s\n' "$m" "$(grep -Eo 'Collected : [0-9]+' "$tmp/vg.$m" | grep -Eo '[0-9]+')"
    done
  done
  echo
  echo "== instructions, torx cosim --topo 8x8 --cycles 1000 --load 0.4"
  valgrind --tool=callgrind --max-threads=3000 --callgrind-out-file="$tmp/cg.cosim" "$TORX" cosim --topo 8x8 \
    --cycles 1000 --load 0.4 >"$tmp/cosim.out" 2>"$tmp/vg.cosim" || true
  grep -E "cycles|result" "$tmp/cosim.out"
  printf 'cosim  %s\n' "$(grep -Eo 'Collected : [0-9]+' "$tmp/vg.cosim" | grep -Eo '[0-9]+')"
fi
