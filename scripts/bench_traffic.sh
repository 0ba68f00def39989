#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test) of torx traffic: a sweep of 10 offered rates (0.05 to 0.5) of uniform
# traffic on a 16x16 torus, 4-flit packets, 3000 cycles of warm-up and 10,000 measured per rate,
# every packet checked, on one thread; CPU time (user + system) and wall time from /usr/bin/time,
# peak memory, and the router-cycles simulated per CPU second. The target: under a minute of CPU.
#   scripts/bench_traffic.sh
#   scripts/bench_traffic.sh --booksim PATH  # also BookSim 2 on the same sweep with the mapped
#                                            # settings (scripts/traffic_study.py --booksim-config),
#                                            # in throughput mode: 13,000 cycles per rate as torx
#   scripts/bench_traffic.sh --callgrind     # instructions of one rate (0.2) under valgrind
#   TORX=build/bin/torx scripts/bench_traffic.sh
# Figures go to docs/traffic.md and docs/performance.md by hand, with the machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
BOOKSIM=""
CALLGRIND=0
while (($#)); do
  case $1 in
    --booksim) BOOKSIM=$2; shift ;;
    --callgrind) CALLGRIND=1 ;;
    -h|--help) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_traffic.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench_traffic.sh needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[[ -z $BOOKSIM || -x $BOOKSIM ]] || { echo "bench_traffic.sh: $BOOKSIM is not an executable" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RATES=0.05:0.5:0.05
ARGS=(traffic --topo 16x16 --pattern uniform --packet-flits 4 --warmup 3000 --measure 10000 --param threads=1)

echo "torx traffic benchmark: 16x16 torus, uniform, rates $RATES, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$TORX" "${ARGS[@]}" --sweep "$RATES" --json "$tmp/t.json" >"$tmp/t.txt"
read -r user sys wall rss <"$tmp/time"
python3 - "$tmp/t.json" "$user" "$sys" "$wall" "$rss" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
user, sys_, wall, rss = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
rc = sum(x["sim"]["router_cycles"] for x in d["runs"])
fh = sum(x["sim"]["flit_hops"] for x in d["runs"])
ok = all(x["check"]["ok"] for x in d["runs"])
sat = sum(x["saturated"] for x in d["runs"])
cpu = user + sys_
print(f"torx:    {len(d['runs'])} rates ({sat} saturated), {rc} router-cycles, {fh} flit-hops, check {'ok' if ok else 'FAILED'}")
print(f"         CPU {cpu:.1f} s (user {user:.1f}, system {sys_:.1f}), wall {wall:.1f} s, peak {rss / 1024:.0f} MiB: "
      f"{rc / cpu / 1e6:.2f} M router-cycles and {fh / cpu / 1e6:.2f} M flit-hops per CPU second")
PY
if ((CALLGRIND)); then
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$TORX" "${ARGS[@]}" --rate 0.2 >/dev/null 2>"$tmp/cg.txt"
  echo "callgrind, rate 0.2 alone: $(grep -o 'Collected : [0-9]*' "$tmp/cg.txt" | sed 's/Collected : //') instructions"
fi
if [[ -n $BOOKSIM ]]; then
  total_user=0; total_sys=0; total_wall=0
  for rate in 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5; do
    # Throughput mode: the warm-up and the 10 measured periods, every rate (latency mode would give
    # up on the saturated rates early, or drain their backlog for longer than the run).
    python3 scripts/traffic_study.py --booksim-config 16 uniform 1 "$rate" |
      sed 's/^sim_type = latency;/sim_type = throughput;/' >"$tmp/b.cfg"
    # (BookSim's exit status is not 0 on success: its figures say whether it ran.)
    /usr/bin/time -f "%U %S %e" -o "$tmp/btime" "$BOOKSIM" "$tmp/b.cfg" >"$tmp/b.txt" || true
    read -r u s w < <(tail -1 "$tmp/btime")
    lat=$(grep -m1 "^Packet latency average = .*(1 samples)" "$tmp/b.txt" | awk '{print $5}' || true)
    acc=$(grep -m1 "^Accepted flit rate average = .*(1 samples)" "$tmp/b.txt" | awk '{print $6}' || true)
    [[ -n $acc ]] || { echo "bench_traffic.sh: BookSim gave no figures at rate $rate:" >&2; tail -5 "$tmp/b.txt" >&2; exit 1; }
    printf '  BookSim rate %-5s CPU %7.1f s, wall %7.1f s: packet latency %s, accepted %s\n' "$rate" \
      "$(awk "BEGIN {print $u + $s}")" "$w" "$lat" "$acc"
    total_user=$(awk "BEGIN {print $total_user + $u}"); total_sys=$(awk "BEGIN {print $total_sys + $s}")
    total_wall=$(awk "BEGIN {print $total_wall + $w}")
  done
  echo "BookSim: CPU $(awk "BEGIN {print $total_user + $total_sys}") s (user $total_user, system $total_sys), wall $total_wall s"
fi
