#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test) of the step model with every block tracked and checked: wall time, CPU
# time (user + system: the figure to compare on a shared machine) and peak memory of `torx run` on
# the largest schedules. The issue targets: c64 on 32x32x32 (2^30 blocks)
# in under 10 minutes and 16 GiB on a 2-core machine.
#   scripts/bench_step.sh                  # ring 4096, t4 64x64, c1 16x16x16
#   scripts/bench_step.sh --c64            # also c64 on 32x32x32 (about 5 minutes, 5 GiB)
#   scripts/bench_step.sh ALGO:TOPO ...    # your own cases
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
cases=()
big=0
for a in "$@"; do
  if [[ $a == --c64 ]]; then big=1; else cases+=("$a"); fi
done
((${#cases[@]})) || cases=(ring:4096 t4:64x64 c1:16x16x16)
((big)) && cases+=(c64:32x32x32)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "torx step model benchmark, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-10s %14s %8s %12s %10s %8s %10s  %s\n' algo topo blocks steps trans_blocks wall_s cpu_s peak_MB check
for c in "${cases[@]}"; do
  algo=${c%%:*}; topo=${c#*:}
  code=0
  /usr/bin/time -o "$tmp/t" -f '%e %M %U %S' "$TORX" run "$algo" --topo "$topo" --json "$tmp/r.json" >/dev/null 2>"$tmp/err" || code=$?
  if [[ $code != 0 && $code != 1 ]]; then
    printf '%-8s %-10s exit %s: %s\n' "$algo" "$topo" "$code" "$(head -c 200 "$tmp/err")"
    continue
  fi
  read -r wall kib usr sys < <(tail -1 "$tmp/t")
  python3 - "$tmp/r.json" "$algo" "$topo" "$wall" "$((kib / 1024))" "$usr" "$sys" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); c = d["check"]
ok = "ok" if c["ok"] else "FAILED"
print(f'{sys.argv[2]:<8} {sys.argv[3]:<10} {c["expected"]:>14} {d["steps"]:>8} {d["transmission_blocks"]:>12} '
      f'{sys.argv[4]:>10} {float(sys.argv[6]) + float(sys.argv[7]):>8.2f} {sys.argv[5]:>10}  {ok}, {d["port_conflicts"]}/{d["link_conflicts"]} conflicts')
PY
done
