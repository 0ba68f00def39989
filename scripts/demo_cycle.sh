#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Demonstration of the cycle-accurate model: seed 000's T4 complete exchange on a 16x16 torus, flit by
# flit, beside the step model's figures, with the contention-free prediction and the per-step
# timeline. Builds first if needed (scripts/setup.sh).
#   scripts/demo_cycle.sh [ALGO [DIMS]]        (default: t4 16x16)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
TORX="$BUILD_DIR/bin/torx"
[[ -x $TORX ]] || scripts/setup.sh >&2
ALGO=${1:-t4}
DIMS=${2:-16x16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== $TORX run $ALGO --topo $DIMS --model cycle"
"$TORX" run "$ALGO" --topo "$DIMS" --model cycle --json "$tmp/r.json"
echo
python3 - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cycle_model"]
p = c["params"]
steps = d["steps"]
sm = d["timing"]["step_model_cycles"]
print(f'{d["algorithm"]} on {"x".join(map(str, d["topology"]["dims"]))}: {steps} steps, '
      f'{d["block_bytes"]}-byte blocks, {d["timing"]["flit_bytes"]}-byte flits, t_s {d["timing"]["ts_cycles"]} cycles')
print(f'  router: {p["router_latency"]} stages, links {p["link_latency"]} cycle(s), {p["buffer_depth"]}-flit buffers, '
      f'{p["vcs_per_class"]} VC per class; barrier {c["barrier_latency"]} cycles')
print()
print(f'  {"":34} {"cycles":>9}   {"vs step model":>13}')
print(f'  {"step model (t_s + m t_x per step)":34} {sm:>9}')
print(f'  {"cycle model, contention-free":34} {c["predicted_cycles"]:>9}   {c["predicted_cycles"] / sm:>12.3f}x')
print(f'  {"cycle model, as run":34} {d["cycles"]:>9}   {d["cycles"] / sm:>12.3f}x')
print()
print(f'  {"step":>4} {"label":<12} {"step model":>10} {"start":>8} {"end":>8} {"cycle model":>11}')
for k in range(steps):
    s, e = c["step_start"][k], c["step_end"][k]
    dur = "-" if s is None else e - s
    print(f'  {k:>4} {d["step_labels"][k]:<12} {d["timing"]["step_cycles"][k]:>10} {str(s):>8} {str(e):>8} {str(dur):>11}')
print()
busiest = max(c["link_flits"]) if c["link_flits"] else 0
print(f'  {c["blocked_cycles"]} VC-cycles blocked, busiest link {busiest} flits, '
      f'{d["sim"]["flit_hops"]} flit-hops in {c["run_seconds"]:.2f} s '
      f'({d["sim"]["flit_hops"] / max(c["run_seconds"], 1e-9) / 1e6:.2f} M flit-hops/s)')
print(f'  check: {"ok" if d["check"]["ok"] else "FAILED"}, {d["check"]["delivered"]} of {d["check"]["expected"]} blocks delivered')
PY
