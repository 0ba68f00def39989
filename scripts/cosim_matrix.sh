#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The co-simulation matrix (docs/cosim.md): every Verilated configuration in lock step with the C++
# model under seeded random traffic, barrier units included, each for at least a million compared
# router-cycles (a router-cycle is compared when the router is clocked: quiescent routers are not),
# the pipelined organizations (lookahead, classic) among them, then the RTL mutants (1 to 4; 6 and 7
# of the lookahead router), each of which must be caught. Prints a Markdown table; exits 1 if any
# configuration differs or any mutant goes uncaught.
#   scripts/cosim_matrix.sh                  # the whole matrix (about 10 to 20 minutes on one core)
#   scripts/cosim_matrix.sh --quick          # a tenth of the cycles (a smoke run)
#   scripts/cosim_matrix.sh --json out.jsonl # also every torx.cosim/1 document, one per line
#   scripts/cosim_matrix.sh --only r3d       # one configuration (and the mutants)
#   scripts/cosim_matrix.sh --only pipelined # the lookahead and classic rows (and mutants 6, 7)
#   scripts/cosim_matrix.sh --only lookahead # one organization's rows (lookahead: and mutants 6, 7)
#   TORX=build/bin/torx MIN=2000000 scripts/cosim_matrix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
MIN=${MIN:-1000000}
JSON=""
ONLY=""
while (($#)); do
  case $1 in
    --quick) MIN=$((MIN / 10)) ;;
    --only) ONLY=$2; shift ;;
    --json) JSON=$2; shift ;;
    -h|--help) sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cosim_matrix.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
"$TORX" cosim --help >/dev/null 2>&1 || { echo "$TORX has no cosim command (built without verilator?)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -n $JSON ]] && : >"$JSON"

# name | nodes | torx cosim arguments (the name is the configuration the shape must select)
matrix=(
  "r1d_v2|8|--topo 8 --param vcs_per_class=2 --param buffer_depth=3 --param router_latency=3 --load 0.5"
  "r1d|16|--topo 16 --load 0.5 --pattern hotspot"
  "r1d_all|8|--topo 8 --ports all --load 0.6"
  "r2d|64|--topo 8x8 --load 0.4"
  "m2d_p1|30|--topo 6x5 --mesh --param router_latency=1 --load 0.4"
  "m2d|16|--topo 4x4 --mesh --pattern hotspot --load 0.4"
  "r2d_all|36|--topo 6x6 --ports all --load 0.6"
  "r2d_all_o2|16|--topo 4x4 --ports all --mixed-orders --load 0.6"
  "r3d|48|--topo 4x4x3 --pattern neighbour --load 0.6"
  "r3d_o3|64|--topo 4x4x4 --mixed-orders --param buffer_depth=4 --load 0.4"
  "m3d_v2_d2|27|--topo 3x3x3 --mesh --param vcs_per_class=2 --param buffer_depth=2 --param router_latency=1 --load 0.4"
  "r3d_all_o3|27|--topo 3x3x3 --ports all --mixed-orders --load 0.5"
  "r2d_la|64|--topo 8x8 --param pipeline=lookahead --load 0.4"
  "r2d_cl|64|--topo 8x8 --param pipeline=classic --load 0.4"
  "r2d_c1_v1_d8_p2_la|16|--topo 4x4 --mesh --param pipeline=lookahead --load 0.4"
  "r2d_c1_v1_d8_p2_cl|16|--topo 4x4 --mesh --param pipeline=classic --load 0.4"
  "r3d_c6_v1_d4_p2_la|64|--topo 4x4x4 --mixed-orders --param buffer_depth=4 --param pipeline=lookahead --load 0.4"
  "r3d_c6_v1_d4_p2_cl|64|--topo 4x4x4 --mixed-orders --param buffer_depth=4 --param pipeline=classic --load 0.4"
  "r2d_all_v1_d8_p2_la|16|--topo 4x4 --ports all --param pipeline=lookahead --load 0.5"
  "r2d_all_v1_d8_p2_cl|16|--topo 4x4 --ports all --param pipeline=classic --load 0.5"
)
# Shapes drawn from a seed (as TorxOnDemand's OnDemand.CosimOnShapesDrawnFromASeedHasNoMismatch draws
# them), in each pipelined organization: 1 to 3 dimensions, radices 3 to 8 (a ring) or 3 to 4, a
# quarter meshes, a third all-port, V 1..2, P 1..3, D 2..6 (below the pipelined credit loop of 5 at
# D <= 4). Named "*": the configuration is whatever the shape selects (each Verilated on first use).
while IFS= read -r row; do matrix+=("$row"); done < <(python3 - <<'PY'
import random
rng = random.Random(26)
for org in ("lookahead", "classic"):
    for _ in range(2):
        dims = rng.randint(1, 3)
        radices = [rng.randint(3, 8 if dims == 1 else 4) for _ in range(dims)]
        mesh, allp = rng.randint(0, 3) == 0, rng.randint(0, 2) == 0
        v, p, d = rng.randint(1, 2), rng.randint(1, 3), rng.randint(2, 6)
        nodes = 1
        for r in radices:
            nodes *= r
        args = (f"--topo {'x'.join(map(str, radices))}{' --mesh' if mesh else ''}{' --ports all' if allp else ''} "
                f"--param vcs_per_class={v} --param buffer_depth={d} --param router_latency={p} "
                f"--param pipeline={org} --load 0.5")
        print(f"*|{nodes}|{args}")
PY
)

fail=0
echo "| configuration | network | cycles | router-cycles | compared | flits | barrier releases | mismatches | router-cycles/s | coverage |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
for entry in "${matrix[@]}"; do
  IFS='|' read -r name nodes args <<<"$entry"
  case $ONLY in
    "") ;;
    pipelined) [[ $args == *pipeline=* ]] || continue ;;
    lookahead|classic) [[ $args == *pipeline=$ONLY* ]] || continue ;;
    *) [[ $name == "$ONLY" ]] || continue ;;
  esac
  # Cycles for MIN compared router-cycles: routers are clocked most of the time at these loads; the
  # run repeats with twice the cycles until the floor is reached.
  cycles=$(((MIN + nodes - 1) / nodes * 5 / 4))
  for attempt in 1 2 3; do
    set +e
    # shellcheck disable=SC2086
    "$TORX" cosim $args --cycles "$cycles" --barrier-every $((cycles / 4 + 1)) --seed 7 --json "$tmp/d.json" >/dev/null 2>"$tmp/err"
    rc=$?
    set -e
    if ((rc != 0 && rc != 1)); then
      echo "| $name | error (exit $rc): $(tr '\n' ' ' <"$tmp/err") |"
      fail=1
      continue 2
    fi
    compared=$(python3 -c "import json; print(json.load(open('$tmp/d.json'))['compared'])")
    ((compared >= MIN || rc == 1)) && break
    cycles=$((cycles * 2))
  done
  [[ -n $JSON ]] && python3 -c "import json; print(json.dumps(json.load(open('$tmp/d.json'))))" >>"$JSON"
  python3 - "$tmp/d.json" "$name" "$MIN" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); name = sys.argv[2]; floor = int(sys.argv[3])
c = d["coverage"]
cov = (f'VCs full {c["input_vcs_full"]}/{c["input_vcs"]}, waited {c["input_vcs_waited"]}, '
       f'no credit {c["output_vcs_no_credit"]}/{c["output_vcs"]}, SA wraps {c["sa_out_wraps"]}/{c["output_ports"]}, '
       f'VA wraps {c["va_wraps"]}/{c["va_groups"]}, classes used '
       + ",".join(k.split("_")[1] for k in c if k.startswith("class_")))
net = d["topology"].replace("the ", "")
print(f'| {d["rtl_router"]} | {net}, {d["traffic"]} | {d["cycles"]} | {d["router_cycles"]} | {d["compared"]} | {d["flits"]} | '
      f'{d["barrier"]["releases"]} | {d["mismatches"]} | {d["router_cycles"] / d["wall_seconds"]:.0f} | {cov} |')
ok = d["mismatches"] == 0 and name in (d["rtl_router"], "*") and d["compared"] >= floor
if d["mismatches"]:
    print(f'  mismatch: {d["first_mismatch"]["text"]}', file=sys.stderr)
sys.exit(0 if ok else 1)
PY
done

echo
echo "| mutant | caught at | field | first difference |"
echo "|---|---:|---|---|"
mutants=(1 2 3 4 6 7)
[[ $ONLY == pipelined || $ONLY == lookahead ]] && mutants=(6 7)
[[ $ONLY == classic ]] && mutants=()
for m in "${mutants[@]+"${mutants[@]}"}"; do
  org=single
  ((m >= 6)) && org=lookahead
  set +e
  "$TORX" cosim --topo 8x8 --load 0.4 --cycles 20000 --seed 7 --param pipeline=$org --mutant "$m" --json "$tmp/m.json" >/dev/null 2>"$tmp/err"
  rc=$?
  set -e
  if ((rc == 4)) && grep -q "an RTL assertion" "$tmp/err"; then
    # A property (hw/props, docs/verification.md) stopped the mutant before the outputs differed; its
    # message is on standard error. (Every grep here may find nothing: no `set -e` exit on that.)
    prop=$(grep -o "Assertion failed in [^:]*: [a-z_]*" "$tmp/err" | head -1 | sed 's/.*: //' || true)
    what=$(grep -m1 -o 'Assertion failed in .*' "$tmp/err" | cut -c1-160 || true)
    echo "| $m | stopped by a property | ${prop:-(no message)} | ${what:-$(grep -m1 'RTL assertion' "$tmp/err" | cut -c1-160)} |"
    continue
  fi
  if ((rc != 1)); then
    echo "| $m | NOT CAUGHT (exit $rc) | | |"
    fail=1
    continue
  fi
  python3 - "$tmp/m.json" "$m" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["first_mismatch"]
print(f'| {sys.argv[2]} | cycle {m["cycle"]} | {m["field"]} | {m["text"]} |')
PY
done
exit $fail
