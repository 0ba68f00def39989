#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The same collective on a network of Verilated RTL routers and barrier units (--model rtl) beside
# the C++ cycle model: the cycles, per-step start and end, per-link flits, blocked cycles and the
# block-by-block check must agree figure for figure (docs/rtl.md, "Whole networks"). Exit 1 if any
# figure differs. Builds first if needed (scripts/setup.sh).
#   scripts/demo_rtl.sh [ALGO [DIMS]]        (default: t4 16x16)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
TORX="$BUILD_DIR/bin/torx"
[[ -x $TORX ]] || scripts/setup.sh >&2
ALGO=${1:-t4}
DIMS=${2:-16x16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== $TORX run $ALGO --topo $DIMS --model rtl   (beside --model cycle)"
"$TORX" run "$ALGO" --topo "$DIMS" --model cycle --json "$tmp/cycle.json" >/dev/null
"$TORX" run "$ALGO" --topo "$DIMS" --model rtl --json "$tmp/rtl.json" >/dev/null
python3 - "$tmp/cycle.json" "$tmp/rtl.json" <<'PY'
import json, sys
c, r = (json.load(open(p)) for p in sys.argv[1:3])
cc, rc = c["cycle_model"], r["cycle_model"]
rows = [("cycles", c["cycles"], r["cycles"]),
        ("per-step start and end", f'{len(cc["step_start"])} steps', cc["step_start"] == rc["step_start"] and cc["step_end"] == rc["step_end"]),
        ("flits per link", f'{len(cc["link_flits"])} links, {sum(cc["link_flits"])} flits', cc["link_flits"] == rc["link_flits"]),
        ("blocked VC-cycles", cc["blocked_cycles"], rc["blocked_cycles"]),
        ("barriers", cc["barriers"], rc["barriers"]),
        ("check", f'{c["check"]["delivered"]} of {c["check"]["expected"]} ok' if c["check"]["ok"] else "FAILED",
         f'{r["check"]["delivered"]} of {r["check"]["expected"]} ok' if r["check"]["ok"] else "FAILED")]
print(f'  {"":24} {"cycle model (C++)":>26} {"RTL (Verilated)":>26}')
same = True
for name, a, b in rows:
    if isinstance(b, bool):
        shown, ok = ("identical" if b else "DIFFERENT"), b
    else:
        shown, ok = b, a == b
    same &= ok
    print(f'  {name:24} {str(a):>26} {str(shown):>26}')
rate = lambda d: d["sim"]["router_cycles"] / max(d["cycle_model"]["run_seconds"], 1e-9) / 1e6
print(f'  {"speed (M router-cycles/s)":24} {rate(c):>26.2f} {rate(r):>26.2f}')
print("  the RTL network gives the cycle model's figures" if same else "  FIGURES DIFFER: a bug in one of the two models")
sys.exit(0 if same else 1)
PY
