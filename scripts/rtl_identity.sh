#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Identity of the RTL network and the cycle model at sizes too large for ctest (docs/rtl.md,
# "Whole networks"): each run twice, `--model cycle` and `--model rtl`, and the result documents
# compared figure for figure (every key but the model's name, wall times, memory and router
# evaluations: cycles, per-step start and end, per-link flits, blocked cycles, the check). Prints a
# Markdown table; exits 1 on any difference.
#   scripts/rtl_identity.sh              # t4 16x16, ring 256, c64 8x8x8, ms-one 16x16, tsay-wang 9x9, suh 8x8 mesh
#   scripts/rtl_identity.sh t4:16x16     # chosen runs (ALGO:DIMS[:extra options])
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh (or TORX=path/to/torx)" >&2; exit 2; }
runs=("$@")
((${#runs[@]})) || runs=("t4:16x16" "ring:256" "c64:8x8x8" "ms-one:16x16" "tsay-wang:9x9" "suh:8x8:--mesh")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
echo "| run | cycle model | rtl model | figures | rtl run time | rtl router-cycles/s |"
echo "|---|---:|---:|---|---:|---:|"
for r in "${runs[@]}"; do
  IFS=':' read -r algo dims extra <<<"$r"
  # shellcheck disable=SC2086
  "$TORX" run "$algo" --topo "$dims" $extra --model cycle --json "$tmp/c.json" >/dev/null
  # shellcheck disable=SC2086
  "$TORX" run "$algo" --topo "$dims" $extra --model rtl --json "$tmp/r.json" >/dev/null
  python3 - "$tmp/c.json" "$tmp/r.json" "$algo $dims $extra" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def figures(j):
    j = dict(j); j.pop("model"); j.pop("sim")
    c = dict(j["cycle_model"])
    for k in ("load_seconds", "run_seconds", "router_evaluations", "threads"): c.pop(k, None)
    j["cycle_model"] = c
    return j
fa, fb = figures(a), figures(b)
diff = [k for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]
diff += [f"cycle_model.{k}" for k in sorted(set(fa["cycle_model"]) | set(fb["cycle_model"]))
         if fa["cycle_model"].get(k) != fb["cycle_model"].get(k)]
t = b["cycle_model"]["run_seconds"]
ok = not diff and a["check"]["ok"] and b["check"]["ok"]
print(f'| {sys.argv[3].strip()} | {a["cycles"]} | {b["cycles"]} | {"identical" if ok else "DIFFER: " + ", ".join(diff)} | '
      f'{t:.1f} s | {b["sim"]["router_cycles"] / t / 1e6:.2f} M |')
sys.exit(0 if ok else 1)
PY
done
exit $fail
