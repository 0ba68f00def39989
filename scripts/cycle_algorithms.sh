#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every registered algorithm in the cycle-accurate model at sizes larger than the tests use (ctest
# runs them small): check, cycles beside the step model and the contention-free prediction, blocked
# VC-cycles and simulation speed. Not a test: a sweep that takes minutes.
#   scripts/cycle_algorithms.sh                 # the default sizes below
#   scripts/cycle_algorithms.sh t4:32x32 ring:256
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
cases=("$@")
if ((${#cases[@]} == 0)); then
  # The largest of a few candidate sizes each algorithm accepts (its preconditions decide).
  mapfile -t ids < <("$TORX" list --json | python3 -c "import json,sys; print('\n'.join(a['id'] for a in json.load(sys.stdin)))")
  for id in "${ids[@]}"; do
    for topo in 16x16 256 8x8x8 9x9 16x16:mesh 4x4x4x4; do
      dims=${topo%%:*}; extra=""; [[ $topo == *:mesh ]] && extra=" --mesh"
      if "$TORX" schedule "$id" --topo "$dims"$extra -o /dev/null >/dev/null 2>&1; then
        cases+=("$id:$topo"); break
      fi
    done
  done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %-12s %-6s %10s %10s %10s %12s %8s %8s\n' algo topo check step_cyc pred_cyc cycles blocked_vc run_s Mfh/s
fail=0
for c in "${cases[@]}"; do
  algo=${c%%:*}; rest=${c#*:}; topo=${rest%%:*}; extra=""
  [[ $rest == *:mesh ]] && extra="--mesh"
  code=0
  "$TORX" run "$algo" --topo "$topo" $extra --model cycle --json "$tmp/r.json" >/dev/null 2>"$tmp/err" || code=$?
  if [[ $code != 0 && $code != 1 ]]; then
    printf '%-10s %-12s exit %s: %s\n' "$algo" "$topo" "$code" "$(head -c 200 "$tmp/err")"
    fail=1
    continue
  fi
  python3 - "$tmp/r.json" "$algo" "$rest" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); c = d["cycle_model"]
ok = "ok" if d["check"]["ok"] else "FAIL"
rate = d["sim"]["flit_hops"] / max(c["run_seconds"], 1e-9) / 1e6
print(f'{sys.argv[2]:<10} {sys.argv[3]:<12} {ok:<6} {d["timing"]["step_model_cycles"]:>10} {c["predicted_cycles"]:>10} '
      f'{d["cycles"]:>10} {c["blocked_cycles"]:>12} {c["run_seconds"]:>8.2f} {rate:>8.2f}')
sys.exit(0 if d["check"]["ok"] else 1)
PY
done
exit $fail
