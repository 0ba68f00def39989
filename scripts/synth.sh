#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Area of the RTL (hw/) with Debian's yosys: generic `synth` (yosys's internal cell library, no
# technology mapping) of torx_router and torx_barrier for a table of configurations, hierarchy kept,
# so that every module's cells and flip-flops can be counted. Writes docs/area.md.
#   scripts/synth.sh                  # synthesise, write docs/area.md, print the table
#   scripts/synth.sh --json -         # also print {"schema": "torx.area/1", "modules": [...]} on stdout
#   scripts/synth.sh --json FILE      # ... into FILE
#   scripts/synth.sh --only r2d_v1_d8 # one configuration (docs/area.md is not rewritten)
#   scripts/synth.sh --no-doc         # do not rewrite docs/area.md
#   JOBS=2 scripts/synth.sh           # yosys runs in parallel (default 2)
# Exit codes: 0 done, 1 yosys failed, 2 bad arguments or yosys missing.
#
# The configurations are the CONFIGS table below, one line each: adding one (a priority router, a
# gossip router) is one more line.
set -euo pipefail
cd "$(dirname "$0")/.."

# name | top module | parameters (NAME=VALUE ...)
CONFIGS=(
  "r2d_v1_d8|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r2d_v1_d4|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=1 BufferDepth=4 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r2d_v2_d8|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=2 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r2d_v2_d4|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=2 BufferDepth=4 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r3d_v1_d8|torx_router|NumDims=3 NumLocal=1 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r3d_v2_d4|torx_router|NumDims=3 NumLocal=1 NumClasses=2 VcsPerClass=2 BufferDepth=4 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r2d_v1_d8_k2|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16 PriorityLevels=2 PriorityReserve=1"
  "r2d_v1_d8_k4|torx_router|NumDims=2 NumLocal=1 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16 PriorityLevels=4 PriorityReserve=1"
  "r2d_all_v1_d8|torx_router|NumDims=2 NumLocal=4 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "r3d_all_v1_d8|torx_router|NumDims=3 NumLocal=6 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16"
  "g2d_all_d8|torx_gossip_router|NumDims=2 NumLocal=4 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16 PacketFlits=4 MaxRules=16"
  "g3d_all_d8|torx_gossip_router|NumDims=3 NumLocal=6 NumClasses=2 VcsPerClass=1 BufferDepth=8 PipelineStages=2 FlitBytes=16 MaxRadix=16 PacketFlits=4 MaxRules=16"
  "barrier_2d|torx_barrier|NumDims=2"
  "barrier_3d|torx_barrier|NumDims=3"
)
SOURCES=(hw/torx_pkg.sv hw/torx_rr_arbiter.sv hw/torx_routing_unit.sv hw/torx_input_unit.sv
         hw/torx_output_unit.sv hw/torx_vc_alloc.sv hw/torx_sw_alloc.sv hw/torx_crossbar.sv
         hw/torx_router.sv hw/torx_barrier.sv hw/torx_gossip_pkg.sv hw/torx_gossip_unit.sv
         hw/torx_gossip_router.sv)

usage() {
  sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//' >&2
}
json=""
only=""
doc=1
while (($#)); do
  case $1 in
    --json)
      [[ $# -ge 2 && -n $2 ]] || { echo "synth.sh: --json needs FILE or -" >&2; usage; exit 2; }
      json=$2; shift 2 ;;
    --only)
      [[ $# -ge 2 && -n $2 ]] || { echo "synth.sh: --only needs a configuration name" >&2; usage; exit 2; }
      only=$2; doc=0; shift 2 ;;
    --no-doc) doc=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "synth.sh: unknown argument '$1'" >&2; usage; exit 2 ;;
  esac
done
if [[ -n $json && $json != - && -d $json ]]; then
  echo "synth.sh: --json $json is a directory" >&2; exit 2
fi
command -v yosys >/dev/null || { echo "synth.sh: yosys is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
JOBS=${JOBS:-2}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "synth.sh: JOBS must be a positive number" >&2; exit 2; }

selected=()
for c in "${CONFIGS[@]}"; do
  [[ -z $only || ${c%%|*} == "$only" ]] && selected+=("$c")
done
if ((${#selected[@]} == 0)); then
  echo "synth.sh: no configuration '$only'; known: $(printf '%s ' "${CONFIGS[@]%%|*}")" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One yosys run per configuration: chparam on the top, generic synth, per-module statistics.
synth_one() {
  local line=$1 name top params chp=""
  IFS='|' read -r name top params <<<"$line"
  for p in $params; do chp+=" -set ${p%%=*} ${p#*=}"; done
  local start=$SECONDS
  if ! yosys -q -l "$tmp/$name.log" -p "read_verilog -sv -Ihw ${SOURCES[*]}; chparam$chp $top; synth -top $top; tee -q -o $tmp/$name.stat stat" \
      >/dev/null 2>"$tmp/$name.err"; then
    echo "synth.sh: yosys failed on $name:" >&2
    tail -n 20 "$tmp/$name.err" "$tmp/$name.log" >&2
    return 1
  fi
  echo "$((SECONDS - start))" >"$tmp/$name.seconds"
  echo "[synth] $name: $((SECONDS - start)) s" >&2
}
fail=0
running=0
for c in "${selected[@]}"; do
  synth_one "$c" &
  running=$((running + 1))
  if ((running >= JOBS)); then
    wait -n || fail=1
    running=$((running - 1))
  fi
done
while ((running > 0)); do
  wait -n || fail=1
  running=$((running - 1))
done
((fail == 0)) || exit 1

printf '%s\n' "${selected[@]}" >"$tmp/configs"
yosys -V >"$tmp/version"
python3 - "$tmp" "$json" "$doc" <<'PY'
import json, re, sys
tmp, json_out, write_doc = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

DOC = """# Area of the RTL router

Generated by `scripts/synth.sh` (do not edit by hand): @VERSION@, generic `synth` per configuration,
hierarchy kept; `scripts/synth.sh --json -` prints the same figures as a `torx.area/1` document.
Every entry is **cells / flip-flops**. A module's figure includes its submodules (the allocators
their round-robin arbiters) and sums all its instances in the router (five input units in a 2D
one-port router: four network ports with C x V VCs each and the injection port with one).

Common parameters: 16-byte flits (`FlitBytes=16`: 224 wires per 2D link, 229 per 3D link),
`MaxRadix=16` (radices up to 16), P = 2, C = 2 dateline classes. N = dimensions, L = local ports
(1 one-port, 2N all-port), V = VCs per class, D = buffer depth in flits, K = priority levels (lanes
per VC, `docs/priority.md`; 1: the plain router), reserve r = 1. abc's gate counts move by a few
cells from run to run and with unrelated changes; flip-flop counts do not.

@TABLE@

Synthesis time per configuration (2-core VM, two yosys runs at a time): @SECONDS@.

The gossip-mode router (`torx_gossip_router`, `docs/gossip.md`, "In the RTL") is compared with the
plain all-port router of the same N, K and D. It has no routing table, no VC or switch allocator and
no crossbar, and one buffer per input port (VC 0: gossip packets use no other), where the plain
router buffers both dateline classes; it adds a 21-bit (2D; 23-bit 3D) gossip extension to every
buffered and registered flit (gossip bit, age, output mask), the gossip unit (the image's rules:
`MaxRules` x (two ports, two 16-bit ages) flip-flops and, per network input, a window comparison per
rule; 16 rules hold every image torx builds, which have at most 6 rules per node in 2D and 10 in
3D), the claim logic (oldest first with rotating ties: an age comparison per pair of inputs and a
chain of all-or-nothing claims over the ports) and the replicating output multiplexers.

## What a generic cell count tells, and what it does not

yosys's `synth` without a technology library maps the design onto its internal gate set: simple
gates (`$_AND_`, `$_OR_`, `$_XOR_`, `$_MUX_`, ...) and flip-flop types (`$_DFF_*`, `$_DFFE_*`,
with or without reset). Every cell counts one, whatever it is.

Reading the table: the input units, that is the VC buffers (C x V x D flits per network port, D
for the injection port, about 220 bits each), hold most of the flip-flops and most of the cells,
and they grow with V x D; the crossbar grows with the square of the ports and the flit width; the
VC allocator with (ports x classes) x (input VCs), so it is the part that grows fastest with V and
N; the routing table is 2 x 16 entries per dimension here (MaxRadix); switch allocator and output
units (credit counters, owners, output registers) are small.

It tells **how the cost is spread and how it scales**: which module dominates (the input units:
their VC buffers are flip-flops here), how area grows with V, D and N, what the allocators and the
crossbar cost relative to the buffers, and the exact number of state bits (the flip-flop count: a
register needs its bits in any technology, except that buffers can become RAM). It is a fair way to
compare configurations of this router with each other, and the priority and gossip routers that
later join this table.

It does **not** tell silicon area or speed. There is no standard-cell library behind it, so no
µm², no gate sizes (a 2-input NAND and a flip-flop with enable and reset are one cell each), no
timing, clock frequency or power; abc optimises for size, not for a critical path. Buffers and the
routing table are built from flip-flops and multiplexers, where an ASIC would use SRAM or
register-file macros and an FPGA LUT-RAM or block RAM, so the input units look larger here than they
would be. For FPGA resources run yosys's `synth_ice40`/`synth_ecp5`/`synth_xilinx` on the same
sources; for ASIC area a technology library (e.g. an open PDK with OpenROAD).
"""

FLOP = re.compile(r"^\$_(S?DFF|DFFE|SDFF|DFFSR|DFFSRE|ALDFF|DLATCH|SR)")

def parse_stat(path):
    """Per module: its own primitive cells by type and its submodule instances."""
    mods, cur, hier = {}, None, False
    for line in open(path):
        m = re.match(r"^=== (.*) ===$", line.strip())
        if m:
            cur = m.group(1)
            hier = cur == "design hierarchy"
            if not hier:
                mods[cur] = {"cells": {}, "subs": {}}
            continue
        if cur is None or hier:
            continue
        m = re.match(r"^\s+(\S+)\s+(\d+)$", line)
        if not m or line.strip().startswith("Number"):
            continue
        typ, n = m.group(1), int(m.group(2))
        if typ.startswith("$_"):
            mods[cur]["cells"][typ] = n
        else:
            mods[cur]["subs"][typ] = n
    return mods

def base(modname):
    return modname.split("\\")[-1] if "\\" in modname else modname

def inclusive(mods, name, memo):
    if name in memo:
        return memo[name]
    c = sum(mods[name]["cells"].values())
    f = sum(n for t, n in mods[name]["cells"].items() if FLOP.match(t))
    for sub, k in mods[name]["subs"].items():
        sc, sf = inclusive(mods, sub, memo)
        c += k * sc
        f += k * sf
    memo[name] = (c, f)
    return c, f

def value(v):
    return int(v) if re.fullmatch(r"-?\d+", v) else v

rows = []
for line in open(f"{tmp}/configs").read().split("\n"):
    if not line:
        continue
    name, top, params = line.split("|")
    p = {"config": name}
    p.update({k: value(v) for k, v in (x.split("=") for x in params.split())})
    mods = parse_stat(f"{tmp}/{name}.stat")
    seconds = int(open(f"{tmp}/{name}.seconds").read())
    memo = {}
    topname = next(m for m in mods if base(m) == top)
    c, f = inclusive(mods, topname, memo)
    rows.append({"name": top, "params": p, "cells": c, "flops": f, "instances": 1, "seconds": seconds})
    # The top's direct submodules, merged by module (all instances; allocators with their arbiters).
    per = {}
    for sub, k in mods[topname]["subs"].items():
        sc, sf = inclusive(mods, sub, memo)
        e = per.setdefault(base(sub), [0, 0, 0])
        e[0] += k * sc
        e[1] += k * sf
        e[2] += k
    for b in sorted(per):
        rows.append({"name": b, "params": p, "cells": per[b][0], "flops": per[b][1], "instances": per[b][2]})

doc = {"schema": "torx.area/1",
       "modules": [{k: r[k] for k in ("name", "params", "cells", "flops", "instances")} for r in rows]}
if json_out == "-":
    print(json.dumps(doc, indent=1))
elif json_out:
    with open(json_out, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")

# --- the markdown table ---
ROUTER_PARTS = ["torx_input_unit", "torx_routing_unit", "torx_vc_alloc", "torx_sw_alloc", "torx_crossbar",
                "torx_output_unit"]
def cf(r):
    return f"{r['cells']:,} / {r['flops']:,}"
lines = []
routers = [r for r in rows if r["name"] == "torx_router"]
if routers:
    lines.append("| configuration | N | L | V | D | K | **router** | input units | routing unit | VC allocator | "
                 "switch allocator | crossbar | output units |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in routers:
        p = r["params"]
        parts = {x["name"]: x for x in rows if x["params"]["config"] == p["config"] and x is not r}
        cols = [cf(parts[n]) if n in parts else "-" for n in ROUTER_PARTS]
        lines.append(f"| {p['config']} | {p['NumDims']} | {p.get('NumLocal', 1)} | {p['VcsPerClass']} | "
                     f"{p['BufferDepth']} | {p.get('PriorityLevels', 1)} | **{cf(r)}** | " + " | ".join(cols) + " |")
gossips = [r for r in rows if r["name"] == "torx_gossip_router"]
if gossips:
    # The gossip-mode router (docs/gossip.md, "In the RTL") against the plain all-port router of the
    # same N, L, D (its buffers, pipeline and output registers are the same size; it has no routing
    # table, allocators or crossbar, and a forwarding-rule unit and the claim logic instead).
    lines.append("")
    lines.append("| configuration | N | L | D | packet flits | rules | **gossip router** | gossip unit | "
                 "plain router (same N, L, D) | gossip / plain |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in gossips:
        p = r["params"]
        unit = next((x for x in rows if x["params"]["config"] == p["config"] and x["name"] == "torx_gossip_unit"), None)
        plain = next((x for x in routers if x["params"]["NumDims"] == p["NumDims"] and
                      x["params"].get("NumLocal", 1) == p["NumLocal"] and x["params"]["BufferDepth"] == p["BufferDepth"]
                      and x["params"]["VcsPerClass"] == p["VcsPerClass"]
                      and x["params"].get("PriorityLevels", 1) == 1), None)
        ratio = (f"{r['cells'] / plain['cells']:.2f} / {r['flops'] / plain['flops']:.2f}" if plain else "-")
        lines.append(f"| {p['config']} | {p['NumDims']} | {p['NumLocal']} | {p['BufferDepth']} | {p['PacketFlits']} | "
                     f"{p['MaxRules']} | **{cf(r)}** | {cf(unit) if unit else '-'} | "
                     f"{(plain['params']['config'] + ': ' + cf(plain)) if plain else '-'} | {ratio} |")
barriers = [r for r in rows if r["name"] == "torx_barrier"]
if barriers:
    lines.append("")
    lines.append("| configuration | N | **barrier unit** |")
    lines.append("|---|---:|---:|")
    for r in barriers:
        lines.append(f"| {r['params']['config']} | {r['params']['NumDims']} | **{cf(r)}** |")
table = "\n".join(lines)
print(table, file=sys.stderr)
if write_doc:
    version = open(f"{tmp}/version").read().strip().split(" (")[0]
    secs = ", ".join(f"{r['params']['config']} {r['seconds']} s" for r in rows if "seconds" in r)
    text = DOC.replace("@TABLE@", table).replace("@SECONDS@", secs).replace("@VERSION@", version)
    with open("docs/area.md", "w") as fh:
        fh.write(text)
PY
