#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Area and timing of the RTL (hw/) in a standard-cell library (docs/area.md; run as scripts/synth.sh).

Per configuration: yosys `synth` with the hierarchy kept (per-unit figures), `dfflibmap`, `abc` with
the liberty and a delay target (which buffers high fanouts and sizes gates), `stat -liberty` (µm²,
and NAND2 equivalents: µm² / the library's smallest NAND2), then OpenSTA on the mapped netlist: one
clock on clk_i, the inputs driven by a link register (the upstream router's) and the outputs loading
one: the worst path, its start and end (unit, register, stage), the units it crosses, and fmax.

A configuration is given with torx's own options (`--topo`, `--mesh`, `--ports`, `--flit-bytes`,
`--block-bytes`, `--sync priority`, `--gossip-hw`, `--param NAME=VALUE`), or is one of the table's
(`--list`, `--only`); without either the whole table runs. The library: `--liberty FILE`, else
$TORX_LIBERTY, else the OSU 0.18 µm cells of Debian's qflow-tech-osu018 (installed, or extracted
from the package into the cache by `--fetch`, which setup.sh --synth runs).
"""
import argparse
import concurrent.futures
import datetime
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hw")
SCHEMA = "torx.area/2"

# --- tools and the library ------------------------------------------------------------------------
LIB_PACKAGE = "qflow-tech-osu018"
LIB_REL = "usr/share/qflow/tech/osu018/osu018_stdcells.lib"
LIB_SYSTEM = "/" + LIB_REL


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "torx", "synth")


class Fail(Exception):
    """A bad argument or a missing tool: the message names it, exit code 2."""


def find_yosys():
    """yosys on PATH, else the one scripts/setup.sh --synth extracted into the cache."""
    y = shutil.which("yosys")
    if y:
        return y
    c = os.path.join(cache_dir(), "yosys", "usr", "bin", "yosys")
    return c if os.access(c, os.X_OK) else None


def find_liberty(arg):
    """--liberty, $TORX_LIBERTY, the installed package, the cache; None if none of them."""
    for what, path in (("--liberty", arg), ("TORX_LIBERTY", os.environ.get("TORX_LIBERTY"))):
        if path:
            if not os.path.isfile(path):
                raise Fail(f"{what} {path}: no such file")
            return path
    for path in (LIB_SYSTEM, os.path.join(cache_dir(), "osu018", LIB_REL)):
        if os.path.isfile(path):
            return path
    return None


def apt_extract(package, dest):
    """apt-get download PACKAGE and dpkg -x it into dest (no root, no dependencies)."""
    for tool in ("apt-get", "dpkg"):
        if not shutil.which(tool):
            raise Fail(f"cannot fetch {package}: {tool} is not on PATH (a Debian machine has it)")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["apt-get", "download", package], cwd=tmp, capture_output=True, text=True)
        debs = [f for f in os.listdir(tmp) if f.endswith(".deb")]
        if r.returncode != 0 or not debs:
            raise Fail(f"apt-get download {package} failed: {(r.stderr or r.stdout).strip()}")
        part = dest + ".part"
        shutil.rmtree(part, ignore_errors=True)
        subprocess.run(["dpkg", "-x", os.path.join(tmp, debs[0]), part], check=True)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(part, dest)


def fetch():
    """What setup.sh --synth runs: the liberty and (unless on PATH) yosys into the cache."""
    os.makedirs(cache_dir(), exist_ok=True)
    if not find_liberty(None):
        apt_extract(LIB_PACKAGE, os.path.join(cache_dir(), "osu018"))
        print(f"[synth] {LIB_PACKAGE} extracted into {cache_dir()}/osu018", file=sys.stderr)
    if not find_yosys():
        # Debian's yosys depends on xdot (GTK, graphviz: about 140 MB) for `show`, which the flow
        # never runs; the binary needs only libtcl8.6 and berkeley-abc (setup.sh installs both).
        dest = os.path.join(cache_dir(), "yosys")
        apt_extract("yosys", dest)
        abc_link = os.path.join(dest, "usr", "bin", "yosys-abc")
        if os.path.lexists(abc_link):
            os.remove(abc_link)
        os.symlink(shutil.which("berkeley-abc") or "/usr/bin/berkeley-abc", abc_link)
        print(f"[synth] yosys extracted into {dest}", file=sys.stderr)
    print(f"[synth] yosys {find_yosys()}, liberty {find_liberty(None)}", file=sys.stderr)


def tools(liberty_arg, fetch_missing=True):
    """(yosys, sta, liberty) or Fail naming the Debian package that is missing. Without a liberty
    (and without --liberty or TORX_LIBERTY) the package is extracted into the cache first, as
    --fetch does, unless fetch_missing is off (--check-tools, --dry-run)."""
    yosys = find_yosys()
    if not yosys:
        raise Fail("yosys is not installed (Debian package yosys; scripts/setup.sh --synth provides it)")
    sta = shutil.which("sta")
    if not sta:
        raise Fail("OpenSTA (sta) is not installed (Debian package opensta; scripts/setup.sh --synth installs it)")
    lib = find_liberty(liberty_arg)
    if not lib and fetch_missing:
        print(f"[synth] no liberty installed: extracting {LIB_PACKAGE} into {cache_dir()}/osu018 "
              "(apt-get download, dpkg -x)", file=sys.stderr)
        try:
            os.makedirs(cache_dir(), exist_ok=True)
            apt_extract(LIB_PACKAGE, os.path.join(cache_dir(), "osu018"))
        except (Fail, OSError, subprocess.CalledProcessError) as e:
            raise Fail(f"no liberty file ({LIB_SYSTEM}, Debian package {LIB_PACKAGE}) and fetching it failed: {e}")
        lib = find_liberty(liberty_arg)
    if not lib:
        raise Fail(f"no liberty file: neither --liberty, TORX_LIBERTY, {LIB_SYSTEM} (Debian package {LIB_PACKAGE}) "
                   f"nor the cache {cache_dir()}; `scripts/synth.sh --fetch` extracts the package there")
    return yosys, sta, lib


# --- the liberty ----------------------------------------------------------------------------------
def parse_liberty(path):
    """Cells of a liberty file: area, whether sequential (ff/latch group), clear/preset, pins with
    direction, capacitance and the clock flag. Enough of the format for the flow's choices."""
    cells, stack, cell, pin = {}, [], None, None
    group = re.compile(r'^\s*(\w+)\s*\(\s*"?([^")]*)"?\s*\)\s*\{')
    attr = re.compile(r'^\s*(\w+)\s*:\s*"?([^";]*)"?\s*;')
    with open(path, errors="replace") as fh:
        for line in fh:
            line = re.sub(r"/\*.*?\*/", "", line)
            m = group.match(line)
            if m:
                kind, name = m.group(1), m.group(2).strip()
                stack.append(kind)
                if kind == "cell" and len(stack) == 2:
                    cell = cells.setdefault(name, {"area": 0.0, "seq": False, "ff": {}, "pins": {}})
                elif kind in ("ff", "latch") and cell is not None and len(stack) == 3:
                    cell["seq"] = True
                    cell["ff"]["kind"] = kind
                elif kind == "pin" and cell is not None and len(stack) == 3:
                    pin = cell["pins"].setdefault(name, {})
                closes = line.count("}") - (line.count("{") - 1)
            else:
                m = attr.match(line)
                if m and cell is not None:
                    key, val = m.group(1), m.group(2).strip()
                    if len(stack) == 2 and key == "area":
                        cell["area"] = float(val)
                    elif len(stack) == 3 and stack[-1] in ("ff", "latch"):
                        cell["ff"][key] = val
                    elif len(stack) == 3 and stack[-1] == "pin" and pin is not None and \
                            key in ("direction", "capacitance", "clock", "function"):
                        pin[key] = val
                closes = line.count("}") - line.count("{")
                stack += ["?"] * max(-closes, 0)  # a group this reader does not name
            for _ in range(max(closes, 0)):
                if stack:
                    kind = stack.pop()
                    if kind == "cell":
                        cell = None
                    elif kind == "pin":
                        pin = None
    return cells


def library_facts(path):
    """The NAND2 reference and the link register of the library (Fail if it has neither)."""
    cells = parse_liberty(path)
    nand2 = [(c["area"], n) for n, c in cells.items() if re.search(r"nand2", n, re.I) and c["area"] > 0]
    if not nand2:
        raise Fail(f"{path}: no NAND2 cell (a cell named like NAND2X1) to count NAND2 equivalents with")
    nand2_area, nand2_name = min(nand2)
    if "NAND2X1" in cells and cells["NAND2X1"]["area"] > 0:
        nand2_area, nand2_name = cells["NAND2X1"]["area"], "NAND2X1"
    # The link register: the smallest flip-flop without clear or preset.
    ffs = []
    for n, c in cells.items():
        f = c["ff"]
        if c["seq"] and f.get("kind") == "ff" and "clear" not in f and "preset" not in f:
            clk = next((p for p, a in c["pins"].items() if a.get("clock") == "true"), None)
            q = next((p for p, a in c["pins"].items() if a.get("direction") == "output"), None)
            d = next((p for p, a in c["pins"].items()
                      if a.get("direction") == "input" and a.get("clock") != "true"), None)
            if clk and q and d and "!" not in f.get("clocked_on", ""):
                ffs.append((c["area"], n, clk, q, d, float(c["pins"][d].get("capacitance", 0))))
    if not ffs:
        raise Fail(f"{path}: no plain rising-edge flip-flop to model the link registers with")
    _, ff, ff_clk, ff_q, ff_d, ff_d_cap = min(ffs)
    with open(path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    return {"cells": cells, "nand2_cell": nand2_name, "nand2_um2": nand2_area, "link_ff": ff,
            "link_ff_clk": ff_clk, "link_ff_q": ff_q, "link_ff_d": ff_d, "link_ff_d_cap": ff_d_cap, "sha256": digest,
            "latch_cells": sorted(n for n, c in cells.items() if c["ff"].get("kind") == "latch"),
            "seq_cells": sorted(n for n, c in cells.items() if c["seq"])}


# --- configurations from torx's options -----------------------------------------------------------
# The network parameters that shape the router's hardware, with torx run's ranges (`torx run
# --help-params`, the one table the model validates against). The others are accepted and ignored:
# they are timings of links, interfaces and the simulation, not hardware of the router.
HW_PARAMS = {
    "vcs_per_class": (1, 8, 1),
    "buffer_depth": (1, 1024, 8),
    "router_latency": (1, 64, 2),
    "dateline": (0, 1, 1),
    "order_classes": (0, 16, 0),
    "priority_levels": (1, 16, 4),
    "priority_reserve": (1, 64, 1),
    "pipeline": (0, 2, 0),  # the router organization: 0 single, 1 lookahead, 2 classic (or the names)
}
PIPELINE_NAMES = {"single": 0, "lookahead": 1, "classic": 2}
OTHER_PARAMS = ("link_latency", "credit_latency", "local_latency", "barrier_hop_latency", "null_ts",
                "watchdog_cycles", "max_cycles", "threads")


def add_config_options(p):
    g = p.add_argument_group("one configuration, in torx run's terms")
    g.add_argument("--topo", metavar="DIMS", help="16 (a ring), 16x16, 8x8x8, ...: the number of dimensions (and the "
                   "largest radix, if above --max-radix)")
    g.add_argument("--mesh", action="store_true", help="no wraparound: one VC class instead of two dateline classes")
    g.add_argument("--ports", choices=("one", "all"), default="one", help="one injection/ejection port or 2N (all-port)")
    g.add_argument("--flit-bytes", type=int, metavar="F", default=16, help="payload bytes per flit [16, torx run's default; "
                   "the Verilated routers are 32]")
    g.add_argument("--block-bytes", type=int, metavar="B", default=64, help="with --gossip-hw: a block, one packet [64]")
    g.add_argument("--sync", choices=("none", "barrier", "local", "software", "priority"), default="barrier",
                   help="priority: the throttle-and-preempt router (priority_levels lanes, default 4)")
    g.add_argument("--gossip-hw", action="store_true", help="the gossip-mode router (all-port)")
    g.add_argument("--barrier", action="store_true", help="the barrier unit of such a network instead of its router")
    g.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a network parameter, as torx run takes it: " + ", ".join(HW_PARAMS) +
                   " (others are accepted and change no hardware)")
    g.add_argument("--max-radix", type=int, metavar="R", help="largest radix the routing table holds [torx's: 64, "
                   "256 above radix 64; raised to cover --topo]")
    g.add_argument("--max-rules", type=int, metavar="R", help="with --gossip-hw: rule registers [torx's: 32]")
    g.add_argument("--unit", metavar="MODULE", help="one module of hw/ (torx_sw_alloc, torx_crossbar, ...) instead of the "
                   "router: the parameters it shares with the router take the router's values, the others its defaults")
    g.add_argument("--name", help="the configuration's name in the report [derived from the options]")


def parse_topo(text):
    if not re.fullmatch(r"\d+(x\d+)*", text or ""):
        raise Fail(f"--topo '{text}': expected radices joined by x, e.g. 16, 16x16, 8x8x8")
    dims = [int(x) for x in text.split("x")]
    if any(r < 2 for r in dims):
        raise Fail(f"--topo {text}: every radix must be at least 2")
    if len(dims) > 15:
        raise Fail(f"--topo {text}: {len(dims)} dimensions; the router has at most 15")
    if math.prod(dims) > 1 << 24:
        raise Fail(f"--topo {text}: more than 2^24 nodes")
    return dims


def parse_params(items):
    """--param NAME=VALUE list -> dict; a repeated or unknown name, a value out of range: Fail."""
    out, ignored = {}, []
    for item in items:
        m = re.fullmatch(r"(pipeline)=(single|lookahead|classic)", item)
        if m:
            item = f"pipeline={PIPELINE_NAMES[m.group(2)]}"
        m = re.fullmatch(r"([a-z_]+)=(-?\d+)", item)
        if not m:
            raise Fail(f"--param '{item}': expected NAME=INTEGER")
        name, value = m.group(1), int(m.group(2))
        if name in out or name in ignored:
            raise Fail(f"--param {name} given twice")
        if name in HW_PARAMS:
            lo, hi, _ = HW_PARAMS[name]
            if not lo <= value <= hi:
                raise Fail(f"--param {name}={value}: out of range {lo}..{hi}")
            out[name] = value
        elif name in OTHER_PARAMS:
            ignored.append(name)
        else:
            raise Fail(f"--param {name}: unknown (known: {', '.join(list(HW_PARAMS) + list(OTHER_PARAMS))})")
    return out, ignored


def pow2_at_least(n):
    return 1 << max(0, (n - 1).bit_length())


def find_torx():
    """The torx whose `torx rtl params` derives the router's parameters: $TORX, else the build tree's
    (build/bin/torx), else PATH's; Fail if none."""
    env = os.environ.get("TORX")
    if env:
        if not os.access(env, os.X_OK):
            raise Fail(f"TORX {env}: not an executable torx")
        return env
    for path in (os.path.join(ROOT, "build", "bin", "torx"), shutil.which("torx")):
        if path and os.access(path, os.X_OK):
            return path
    raise Fail("no torx to read the router's parameters from (`torx rtl params`): build it (scripts/setup.sh) "
               "or set TORX=path/to/torx")


def check_torx():
    """The torx find_torx() gives, if it has `torx rtl params` (a build configured with
    -DTORX_BUILD_RTL=OFF has no `torx rtl`); Fail naming what is wrong otherwise."""
    torx = find_torx()
    try:
        r = subprocess.run([torx, "rtl", "params", "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Fail(f"{torx}: cannot run it ({e})")
    if r.returncode != 0:
        raise Fail(no_rtl_message(torx))
    return torx


def no_rtl_message(torx):
    return (f"{torx} has no `torx rtl params` (a build configured with -DTORX_BUILD_RTL=OFF, or without "
            "Verilator), which derives the router's parameters: use a torx built with the RTL (the default; "
            "TORX=path/to/torx)")


def torx_rtl_params(a, want_top):
    """The Verilator parameters torx derives for the unit `want_top` of a network given by torx
    options (`torx rtl params ALGO ...`: model::router_shape, the one derivation; issue 22). The
    algorithm only has to run on the network: tseng-dd on a torus, direct on a mesh, ms-hc with
    --gossip-hw, with 1-byte blocks (gossip: --block-bytes, which sizes the packet)."""
    algo = "ms-hc" if a.gossip_hw else ("direct" if a.mesh else "tseng-dd")
    cmd = [find_torx(), "rtl", "params", algo, "--topo", a.topo, "--ts", "1"]
    if a.mesh:
        cmd.append("--mesh")
    if a.gossip_hw:
        cmd += ["--gossip-hw", "--flit-bytes", str(a.flit_bytes), "--block-bytes", str(a.block_bytes)]
    else:
        cmd += ["--block-bytes", "1"]
        if a.ports == "all":
            cmd += ["--ports", "all"]
    if a.sync != "barrier":
        cmd += ["--sync", a.sync]
    for item in a.param:
        cmd += ["--param", item]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 and re.search(r"unknown command 'rtl'|has no RTL model", r.stderr):
        raise Fail(no_rtl_message(cmd[0]))
    if r.returncode != 0:
        raise Fail(f"`{' '.join(cmd[1:])}` refused the configuration: "
                   f"{(r.stderr.strip().splitlines() or ['exit ' + str(r.returncode)])[-1]}")
    for line in r.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[1] == want_top:
            params = {}
            for w in words[2:]:
                m = re.fullmatch(r"-G(\w+)=(-?\d+)", w)
                if not m:
                    raise Fail(f"torx rtl params: cannot read '{w}' in '{line}'")
                params[m.group(1)] = int(m.group(2))
            return params
    raise Fail(f"a network of these options has no {want_top} (`{' '.join(cmd[1:])}` lists: "
               f"{', '.join(l.split()[1] for l in r.stdout.splitlines() if len(l.split()) > 1) or 'nothing'})")


def resolve(a, name=None):
    """torx-style options (an argparse namespace) -> a configuration: top module and RTL parameters.
    The parameters are torx's (torx_rtl_params); synthesis then sets what only it decides: the
    payload of --flit-bytes (a Verilated model carries 32 bytes, which serves every run's flit),
    --max-radix and --max-rules when given, and SimTag = 0 (no simulation tag in silicon)."""
    if not a.topo:
        raise Fail("a configuration needs --topo DIMS (e.g. --topo 8x8)")
    dims = parse_topo(a.topo)
    params, ignored = parse_params(a.param)
    n = len(dims)
    if a.unit and a.barrier:
        raise Fail("--unit and --barrier: the barrier unit is --barrier")
    if a.barrier:
        if a.gossip_hw:
            raise Fail("--barrier and --gossip-hw: choose one unit")
        if a.sync != "barrier":
            raise Fail(f"--barrier with --sync {a.sync}: the barrier unit exists with --sync barrier")
        rtl = torx_rtl_params(a, "torx_barrier")
        return {"name": name or a.name or f"barrier_{n}d", "top": "torx_barrier", "rtl": rtl,
                "torx": torx_args(a), "ignored": ignored}
    if a.flit_bytes < 8 or a.flit_bytes % 8 or a.flit_bytes > 1024:
        raise Fail(f"--flit-bytes {a.flit_bytes}: the router's payload is whole 8-byte words, 8 .. 1024")
    if a.max_radix is not None and (a.max_radix < 2 or a.max_radix > 1 << 24):
        raise Fail(f"--max-radix {a.max_radix}: out of range 2 .. 2^24")
    if a.max_rules is not None and not 1 <= a.max_rules <= 1024:
        raise Fail(f"--max-rules {a.max_rules}: out of range 1 .. 1024")
    if "priority_levels" in params and a.sync != "priority":
        raise Fail("--param priority_levels without --sync priority: the plain router has one level")
    if a.gossip_hw and a.block_bytes % a.flit_bytes:
        raise Fail(f"--block-bytes {a.block_bytes} is not a whole number of {a.flit_bytes}-byte flits")
    top = "torx_gossip_router" if a.gossip_hw else "torx_router"
    rtl = torx_rtl_params(a, top)
    if rtl.pop("Mutant", 0) != 0:
        raise Fail("torx rtl params gave a mutant: synthesis takes the real router only")
    if rtl.get("PriorityLevels", 1) == 1:
        rtl.pop("PriorityLevels", None)
        rtl.pop("PriorityReserve", None)
    rtl["FlitBytes"] = a.flit_bytes
    if a.max_radix is not None:
        rtl["MaxRadix"] = max(a.max_radix, pow2_at_least(max(dims)))
    if a.gossip_hw and a.max_rules is not None:
        rtl["MaxRules"] = a.max_rules
    rtl["SimTag"] = 0
    levels = rtl.get("PriorityLevels", 1)
    if not name and not a.name and a.unit:
        name = f"{a.unit.replace('torx_', '')}_{n}d"
    if not name and not a.name:
        kind = "g" if a.gossip_hw else ("m" if rtl["NumClasses"] == 1 else "r")
        name = f"{kind}{n}d" + ("_all" if rtl["NumLocal"] > 1 and not a.gossip_hw else "") + \
            f"_v{rtl['VcsPerClass']}_d{rtl['BufferDepth']}" + (f"_k{levels}" if levels > 1 else "") + \
            f"_f{a.flit_bytes}"
    if a.unit:
        declared = module_parameters(a.unit)
        rtl = {k: v for k, v in rtl.items() if k in declared}
        top = a.unit
    return {"name": name or a.name, "top": top, "rtl": rtl, "torx": torx_args(a), "ignored": ignored}


def module_parameters(module):
    """The parameters a module of hw/ declares (Fail if there is no such module)."""
    if not re.fullmatch(r"torx_\w+", module or "") or not os.path.isfile(os.path.join(HW, module + ".sv")):
        known = sorted(f[:-3] for f in os.listdir(HW) if f.endswith(".sv") and not f.endswith("_pkg.sv"))
        raise Fail(f"--unit {module}: no such module in hw/ (known: {' '.join(known)})")
    with open(os.path.join(HW, module + ".sv")) as fh:
        text = fh.read()
    m = re.search(r"^module\s+" + module + r"\s*#\((.*?)\)\s*\(", text, re.M | re.S)
    return set(re.findall(r"^\s*parameter\s+int\s+unsigned\s+(\w+)", m.group(1), re.M)) if m else set()


def torx_args(a):
    """The options as a torx run command line would carry them (for the report)."""
    out = [f"--topo {a.topo}"]
    if a.mesh:
        out.append("--mesh")
    if a.barrier:
        out.append("--barrier")
    if a.unit:
        out.append(f"--unit {a.unit}")
    if not a.barrier:
        if a.ports == "all" and not a.gossip_hw:
            out.append("--ports all")
        out.append(f"--flit-bytes {a.flit_bytes}")
        if a.gossip_hw:
            out.append(f"--gossip-hw --block-bytes {a.block_bytes}")
            if a.max_rules is not None:
                out.append(f"--max-rules {a.max_rules}")
        if a.max_radix is not None:
            out.append(f"--max-radix {a.max_radix}")
        if a.sync == "priority":
            out.append("--sync priority")
        out += [f"--param {p}" for p in a.param]
    return " ".join(out)


# The table of docs/area.md: what the Verilated routers simulate (hw/CMakeLists.txt: 32-byte flits,
# MaxRadix 64, rings 256; the gossip routers 16-byte flits), with torx's options. A line is one
# configuration; the group says which table of docs/area.md shows it.
TABLE = [
    ("plain", "r1d", "--topo 16 --flit-bytes 32 --max-radix 256"),
    ("plain", "r1d_all", "--topo 16 --ports all --flit-bytes 32"),
    ("plain", "r2d", "--topo 8x8 --flit-bytes 32"),
    ("plain", "r2d_d4", "--topo 8x8 --flit-bytes 32 --param buffer_depth=4"),
    ("plain", "r2d_v2", "--topo 8x8 --flit-bytes 32 --param vcs_per_class=2"),
    ("plain", "r2d_v2_d4", "--topo 8x8 --flit-bytes 32 --param vcs_per_class=2 --param buffer_depth=4"),
    ("plain", "r2d_all", "--topo 8x8 --ports all --flit-bytes 32"),
    ("plain", "r3d", "--topo 8x8x8 --flit-bytes 32"),
    ("plain", "r3d_v2_d4", "--topo 8x8x8 --flit-bytes 32 --param vcs_per_class=2 --param buffer_depth=4"),
    ("plain", "r3d_all", "--topo 8x8x8 --ports all --flit-bytes 32"),
    ("priority", "r2d_k2", "--topo 8x8 --flit-bytes 32 --sync priority --param priority_levels=2"),
    ("priority", "r2d_k4", "--topo 8x8 --flit-bytes 32 --sync priority --param priority_levels=4"),
    ("priority", "r2d_k8", "--topo 8x8 --flit-bytes 32 --sync priority --param priority_levels=8"),
    ("gossip", "g2d", "--topo 8x8 --gossip-hw --flit-bytes 16"),
    ("gossip", "g3d", "--topo 8x8x8 --gossip-hw --flit-bytes 16 --max-rules 64"),
    ("gossip", "r2d_all_f16", "--topo 8x8 --ports all --flit-bytes 16"),
    ("gossip", "r3d_all_f16", "--topo 8x8x8 --ports all --flit-bytes 16"),
    ("barrier", "b1", "--topo 16 --barrier"),
    ("barrier", "b2", "--topo 8x8 --barrier"),
    ("barrier", "b3", "--topo 8x8x8 --barrier"),
]


def table_configs(only=None):
    """The table's configurations (those named in `only`, if given), resolved through torx."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    add_config_options(p)
    out = []
    for group, name, args in TABLE:
        if only is not None and name not in only:
            continue
        cfg = resolve(p.parse_args(args.split()), name)
        cfg["group"] = group
        out.append(cfg)
    return out


# --- the flow -------------------------------------------------------------------------------------
def sources(top=None):
    """The hw/ files the unit `top` needs: its own and, transitively, every hw/ file its code names
    (a module it instantiates, a package, an include; comments do not count), in name order. The
    files are include-guarded, so a subset reads as the whole set does; a plain router does not
    parse the gossip router (11 s of yosys's 106 s for r2d). Without top: every file."""
    every = sorted(f[:-3] for f in os.listdir(HW) if f.endswith(".sv"))
    if top is None or top not in every:
        return [os.path.join(HW, f + ".sv") for f in every]
    need, todo = set(), [top]
    while todo:
        name = todo.pop()
        if name in need:
            continue
        need.add(name)
        with open(os.path.join(HW, name + ".sv"), errors="replace") as fh:
            code = re.sub(r"//[^\n]*|/\*.*?\*/", "", fh.read(), flags=re.S)
        todo += [t for t in set(re.findall(r"\b(torx_\w+)", code)) if t in every and t not in need]
    return [os.path.join(HW, f + ".sv") for f in every if f in need]


def rtl_digest(top):
    """sha256 of the RTL a synthesis of `top` reads (sources(top)): each file's code without comments
    and with runs of white space as one space, so that a comment or layout change keeps it. A
    document's row keeps it (`rtl_sha256`); docs/area.md names the rows whose RTL is not this tree's."""
    h = hashlib.sha256()
    for path in sources(top):
        with open(path, errors="replace") as fh:
            code = re.sub(r"//[^\n]*|/\*.*?\*/", "", fh.read(), flags=re.S)
        h.update(os.path.basename(path).encode() + b"\0" + " ".join(code.split()).encode() + b"\0")
    return h.hexdigest()


# Sub-units that exist so that one piece of RTL serves several units; synthesized inside their users.
INLINED = ("torx_cfg_loader", "torx_input_pipe", "torx_vc_fifo", "torx_router_status")


def yosys_script(cfg, lib, clock_ns, flatten):
    chp = " ".join(f"-set {k} {v}" for k, v in cfg["rtl"].items())
    return "\n".join([
        f"read_verilog -sv -I{HW} " + " ".join(sources(cfg["top"])),
        f"chparam {chp} {cfg['top']}",
        # The shared sub-units (docs/rtl.md: the configuration loader, the input pipeline, the VC
        # buffer) are mapped inside the unit that uses them, as before they were shared: a unit's
        # figures are its whole logic, optimized across those boundaries.
        f"hierarchy -top {cfg['top']}",
        # yosys 0.23 may give the top a $paramod name (torx_router since its Pipeline parameter):
        # the steps below and OpenSTA name it by its own.
        f"rename -top {cfg['top']}",
        "setattr -mod -set keep_hierarchy 1 *",
        "setattr -mod -unset keep_hierarchy " + " ".join(f"*{m}*" for m in INLINED),
        "flatten",
        "setattr -mod -unset keep_hierarchy *",
        f"synth -top {cfg['top']}" + (" -flatten" if flatten else ""),
        "tee -q -o generic.stat stat",
        f"dfflibmap -liberty {lib}",
        # -D: abc maps for this delay target and then buffers high fanouts and sizes gates (without
        # it a decoded buffer-read select drives a thousand gates from one NAND2).
        f"abc -D {int(round(clock_ns * 1000))} -constr abc.constr -liberty {lib}",
        "opt_clean",
        f"tee -q -o lib.stat stat -liberty {lib}",
        "write_verilog -noattr -noexpr -simple-lhs netlist.v",
        ""])


def sta_script(cfg, lib, facts, clock_ns, to_pin=None, clocked=True):
    """OpenSTA: the constraints, then the worst path and every endpoint's worst slack; with to_pin
    the worst path into that pin only. A unit without clk_i (the crossbar, an arbiter) is timed
    from its inputs to its outputs against a virtual clock."""
    ff, clk, q = facts["link_ff"], facts["link_ff_clk"], facts["link_ff_q"]
    if to_pin:
        pattern = re.sub(r"([\[\]*?])", r"\\\1", to_pin)
        report = ["puts \"=== worst path\"",
                  f"report_checks -path_delay max -path_group clk -to [get_pins {{{pattern}}}] -fields {{fanout net}} -digits 3"]
    else:
        report = ["puts \"=== worst path\"",
                  "report_checks -path_delay max -path_group clk -group_count 1 -fields {fanout net} -digits 3",
                  "puts \"=== endpoints\"",
                  "report_checks -path_delay max -path_group clk -group_count 1000000 -endpoint_count 1 -format end -digits 3"]
    return "\n".join([
        f"read_liberty {lib}",
        "read_verilog netlist.v",
        f"link_design {cfg['top']}",
        f"create_clock -name clk -period {clock_ns}" + (" [get_ports clk_i]" if clocked else ""),
        "set ins [delete_from_list [all_inputs] [get_ports clk_i]]" if clocked else "set ins [all_inputs]",
        # Inputs come from the upstream router's link registers (flit_o, credit_valid_o, ...), at
        # the clock edge through a flip-flop's Q; outputs load the downstream link register's D.
        "set_input_delay 0 -clock clk $ins",
        f"set_driving_cell -lib_cell {ff} -from_pin {clk} -pin {q} $ins",
        "set_output_delay 0 -clock clk [all_outputs]",
        f"set_load {facts['link_ff_d_cap']} [all_outputs]"] + report + [""])


def run_tool(cmd, cwd):
    """Runs a tool to completion: (exit code, stdout, stderr, CPU seconds of it and its children:
    yosys's are abc's too), the CPU time from wait4, which the load of the machine does not inflate
    as it does the wall time."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, text=True)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read(), round(ru.ru_utime + ru.ru_stime, 1)


def run_config(cfg, yosys, sta, lib, facts, clock_ns, flatten, workdir):
    """Synthesise and time one configuration in workdir; return its rows (parse_results)."""
    os.makedirs(workdir, exist_ok=True)
    # The constraint file abc reads: the cell that drives every input of a module, the load on its
    # outputs (femtofarads: one link-register D pin).
    with open(os.path.join(workdir, "abc.constr"), "w") as fh:
        drive = "BUFX2" if "BUFX2" in facts["cells"] else facts["nand2_cell"]
        fh.write(f"set_driving_cell {drive}\nset_load {facts['link_ff_d_cap'] * 1000:.2f}\n")
    with open(os.path.join(workdir, "synth.ys"), "w") as fh:
        fh.write(yosys_script(cfg, lib, clock_ns, flatten))
    digest = rtl_digest(cfg["top"])
    t0 = time.monotonic()
    code, _, err, cpu = run_tool([yosys, "-q", "-l", "yosys.log", "-s", "synth.ys"], workdir)
    if code != 0:
        raise RuntimeError(f"yosys failed on {cfg['name']}:\n{tail(os.path.join(workdir, 'yosys.log'))}{err[-2000:]}")
    with open(os.path.join(workdir, "config.json"), "w") as fh:
        json.dump({"config": cfg, "clock_ns": clock_ns, "flatten": flatten, "rtl_sha256": digest,
                   "yosys_seconds": round(time.monotonic() - t0, 1), "yosys_cpu_seconds": cpu}, fh, indent=1)
    return time_config(workdir, sta, lib, facts)


def time_config(workdir, sta, lib, facts):
    """OpenSTA and the reports on a synthesized configuration (workdir/config.json, the netlist)."""
    with open(os.path.join(workdir, "config.json")) as fh:
        saved = json.load(fh)
    cfg, clock_ns = saved["config"], saved["clock_ns"]
    t1 = time.monotonic()

    clocked = has_clock(os.path.join(workdir, "netlist.v"), cfg["top"])
    reused, cpu = [], []

    def run_sta(stem, to_pin=None):
        script = sta_script(cfg, lib, facts, clock_ns, to_pin, clocked)
        tcl, log = os.path.join(workdir, stem + ".tcl"), os.path.join(workdir, stem + ".log")
        netlist = os.path.join(workdir, "netlist.v")
        # --retime: an STA log of the same script on the same netlist is read again, not re-run.
        if os.path.isfile(tcl) and os.path.isfile(log) and os.path.getmtime(log) > os.path.getmtime(netlist):
            with open(tcl) as fh:
                same = fh.read() == script
            if same:
                with open(log) as fh:
                    text = fh.read()
                if not re.search(r"^(Error|Warning)", text, re.M):
                    reused.append(stem)
                    return text
        with open(tcl, "w") as fh:
            fh.write(script)
        code, out, err, secs = run_tool([sta, "-no_splash", "-exit", stem + ".tcl"], workdir)
        cpu.append(secs)
        with open(os.path.join(workdir, stem + ".log"), "w") as fh:
            fh.write(out + err)
        if code != 0 or re.search(r"^(Error|Warning)", out + err, re.M):
            raise RuntimeError(f"sta failed on {cfg['name']} ({stem}.tcl):\n{(out + err)[-3000:]}")
        return out

    rows = parse_results(cfg, workdir, facts, clock_ns, run_sta)
    if reused and "sta_seconds" in saved:
        sta_seconds = saved["sta_seconds"]  # the run that wrote the logs
    else:
        sta_seconds = round(time.monotonic() - t1, 1)
        saved["sta_seconds"] = sta_seconds
        saved["sta_cpu_seconds"] = round(sum(cpu), 1)
        with open(os.path.join(workdir, "config.json"), "w") as fh:
            json.dump(saved, fh, indent=1)
    if "rtl_sha256" in saved:  # the RTL the netlist was synthesized from (also with --retime)
        rows[0]["rtl_sha256"] = saved["rtl_sha256"]
    rows[0]["seconds"] = {"yosys": saved["yosys_seconds"], "sta": sta_seconds}
    for tool in ("yosys", "sta"):  # CPU seconds (run_tool), where the run measured them
        if f"{tool}_cpu_seconds" in saved:
            rows[0]["seconds"][f"{tool}_cpu"] = saved[f"{tool}_cpu_seconds"]
    return rows


def has_clock(netlist, top):
    """Whether the top module of the netlist has a clk_i port."""
    with open(netlist) as fh:
        m = re.search(r"^module " + re.escape(top) + r"\((.*?)\);", fh.read(), re.M | re.S)
    return bool(m and re.search(r"\bclk_i\b", m.group(1)))


def tail(path, n=20):
    try:
        with open(path, errors="replace") as fh:
            return "".join(fh.readlines()[-n:])
    except OSError:
        return ""


# --- parsing yosys and OpenSTA --------------------------------------------------------------------
GENERIC_FLOP = re.compile(r"^\$_(S?DFF|DFFE|SDFF|DFFSR|DFFSRE|ALDFF|DLATCH|SR)")


def base(modname):
    """torx_input_unit from $paramod$<hash>\\torx_input_unit."""
    return modname.split("\\")[-1]


def parse_stat(path):
    """Per module of a `stat` (generic or -liberty) report: its own cells by type and its own area."""
    mods, cur = {}, None
    with open(path) as fh:
        for line in fh:
            s = line.strip()
            m = re.match(r"^=== (.*) ===$", s)
            if m:
                cur = None if m.group(1) == "design hierarchy" else mods.setdefault(m.group(1), {"cells": {}, "area": 0.0})
                continue
            if cur is None:
                continue
            m = re.match(r"^Chip area for module '(.*)': ([0-9.]+)$", s)
            if m:
                cur["area"] = float(m.group(2))
                continue
            m = re.match(r"^(\S+)\s+(\d+)$", s)
            if m and not s.startswith("Number"):
                cur["cells"][m.group(1)] = int(m.group(2))
    return mods


class Totals:
    """Inclusive figures of a module (its submodules' counted with their instances)."""

    def __init__(self, generic, lib, facts):
        self.g, self.l, self.facts, self.memo = generic, lib, facts, {}

    def of(self, name):
        if name in self.memo:
            return self.memo[name]
        g = self.g.get(name, {"cells": {}})
        lib = self.l.get(name, {"cells": {}, "area": 0.0})
        cells = sum(n for t, n in g["cells"].items() if t.startswith("$_"))
        flops = sum(n for t, n in g["cells"].items() if GENERIC_FLOP.match(t))
        seq = set(self.facts["seq_cells"])
        own_lib = {t: n for t, n in lib["cells"].items() if t in self.facts["cells"]}
        t = {"cells": cells, "flops": flops, "um2": lib["area"],
             "lib_cells": sum(own_lib.values()), "lib_flops": sum(n for c, n in own_lib.items() if c in seq),
             "latches": sum(n for c, n in own_lib.items() if c in self.facts["latch_cells"])}
        for sub, k in lib["cells"].items():
            if sub in self.l and sub not in self.facts["cells"]:
                st = self.of(sub)
                for key in t:
                    t[key] += k * st[key]
        self.memo[name] = t
        return t


def parse_netlist(path):
    """Per module of the mapped netlist: instances (name -> (type, {pin: net}))."""
    mods, cur, inst = {}, None, None
    head = re.compile(r"^\s*module\s+(\\\S+|\w+)\s*\(")
    cell = re.compile(r"^\s+(\\\S+|\w+)\s+(\\\S+|\w+)\s*\($")
    conn = re.compile(r"^\s+\.(\w+)\((.*)\),?$")
    unesc = lambda s: s[1:] if s.startswith("\\") else s  # noqa: E731
    with open(path) as fh:
        for line in fh:
            m = head.match(line)
            if m:
                cur = mods.setdefault(unesc(m.group(1)), {})
                continue
            if cur is None:
                continue
            m = cell.match(line)
            if m and m.group(1) not in ("module", "input", "output", "wire", "assign"):
                inst = cur.setdefault(unesc(m.group(2)), (unesc(m.group(1)), {}))
                continue
            if inst is not None:
                m = conn.match(line)
                if m:
                    inst[1][m.group(1)] = unesc(m.group(2).strip()).strip()
                    continue
                if line.strip() == ");":
                    inst = None
    return mods


class Hierarchy:
    """Resolves STA instance paths (gen_port[4].u_input_unit/_20712_) against the netlist."""

    def __init__(self, netlist, top, facts):
        self.mods, self.top, self.facts = netlist, top, facts

    def module_of(self, path):
        mod = self.top
        for part in [p for p in path.split("/") if p]:
            inst = self.mods.get(mod, {}).get(part)
            if inst is None or inst[0] not in self.mods:
                return None
            mod = inst[0]
        return mod

    def register(self, cell_path):
        """The register a flip-flop instance holds: its Q net, e.g. gen_fifo.rd_ptr_q[2]."""
        parent, _, name = cell_path.rpartition("/")
        mod = self.module_of(parent)
        inst = self.mods.get(mod, {}).get(name) if mod else None
        if not inst:
            return None
        pins = self.facts["cells"].get(inst[0], {}).get("pins", {})
        out = next((p for p, a in pins.items() if a.get("direction") == "output"), "Q")
        net = (inst[1].get(out) or "").replace(" [", "[")
        if net.startswith("_"):
            # yosys left the Q net unnamed (a re-encoded register): name it after its D, the
            # project's `_d` -> `_q` convention.
            d = (inst[1].get(self.facts["link_ff_d"]) or "").replace(" [", "[")
            m = re.fullmatch(r"(.*)_d(\[\d+\])?", d)
            net = f"{m.group(1)}_q{m.group(2) or ''}" if m else net
        return net or None

    def unit(self, inst_path):
        """(unit module, top-level instance) of a path inside the design; the top for its own cells."""
        first = inst_path.split("/")[0] if inst_path else ""
        if not first:
            return base(self.top), ""
        inst = self.mods.get(self.top, {}).get(first)
        if inst is None or inst[0] not in self.mods:
            return base(self.top), ""
        return base(inst[0]), first


# Pipeline stage of a register (docs/timing-contract.md, "Router pipeline"), by unit and name.
STAGES = [
    (r"input_unit|input_pipe|gossip_router", r"pipe_(valid|flit)_q", "input pipeline"),
    (r"input_unit|vc_fifo|gossip_router|rf_1r1w", r"(fifo|next|peek|mem)_q|(rd|wr)_ptr_q|used_q|head_q|tail_q", "VC buffer"),
    (r"input_unit|gossip_router", r"ivc_\w+_q|gossip_targets_q", "input VC state"),
    (r"input_unit|gossip_router", r"(late_)?(credit_valid|credit_vc|late_valid|late_vc)_q", "credit out register"),
    (r"vc_alloc", r"va_\w+_q", "VC allocator pointer"),
    (r"sw_alloc", r"sa_\w+_q", "switch allocator pointer"),
    (r"gossip_router", r"gossip_rr_q", "gossip claim pointer"),
    (r"output_unit|gossip_router", r"ovc_\w+_q", "output VC state"),
    (r"output_unit|gossip_router", r"flit_(valid_|body_)?q", "output link register"),
    (r"routing_unit", r"table_q", "routing table"),
    (r"routing_unit|gossip_unit|barrier|cfg_loader", r"(word|sum|err|err_word|radix_err|radix|end_word|dim|idx|entries_done|"
     r"two_dl|order_max|done|error|out_word|out_code|mutated|rules|overrun|hdr_\w+|oth_\w+|code|pad)_q",
     "configuration loader"),
    (r"barrier", r"(parent|child_mask)_q", "barrier tree (static once loaded)"),
    (r"gossip_unit", r"rule_\w+_q|deliver_q", "gossip rules"),
    (r"barrier", r"(gathered|gather|release)_q", "barrier gather/release"),
    (r"router", r"stat_\w+_q|route_error_q", "status counter"),
]


def classify(unit, reg):
    name = re.sub(r"\[\d+\]", "", reg or "").split(".")[-1].strip()
    for u, r, stage in STAGES:
        if re.search(u, unit) and re.fullmatch(r, name):
            return stage
    return "register"


def on_datapath(stage):
    """Whether a register moves flits, credits or barrier signals: not statistics, not the loader
    of the configuration images nor what it writes (routing table, barrier tree, gossip rules:
    static once loaded), which a design could pipeline or clock slower."""
    return stage not in ("status counter", "configuration loader", "routing table",
                         "barrier tree (static once loaded)", "gossip rules")


def point(hier, text):
    """A path's start or end, as STA names it: a port, or a flip-flop instance."""
    m = re.match(r"^(\S+) \((input port|output port|rising edge-triggered flip-flop|falling edge-triggered flip-flop)", text)
    if not m:
        return {"unit": base(hier.top), "instance": "", "register": text.split()[0] if text else "", "stage": "register"}
    name, kind = m.group(1), m.group(2)
    if kind.endswith("port"):
        link = base(hier.top) in ("torx_router", "torx_gossip_router", "torx_barrier")
        stage = ("link in" if kind == "input port" else "link out") if link else kind
        return {"unit": base(hier.top), "instance": "", "register": name, "stage": stage}
    parent = name.rpartition("/")[0]
    unit, inst = hier.unit(parent)
    reg = hier.register(name) or name.rpartition("/")[2]
    return {"unit": unit, "instance": inst, "register": reg, "stage": classify(unit, reg)}


def parse_sta(text, hier, clock_ns):
    """The worst path of the report: (critical_path_ns, fmax_mhz, critical_path), and the endpoints
    [(instance path, required, arrival, slack)]."""
    worst, _, ends = text.partition("=== endpoints")
    _, _, worst = worst.partition("=== worst path")
    sp = re.search(r"^Startpoint: (.*?)\n(?:\s+\((.*?)\)\n)?", worst, re.M)
    ep = re.search(r"^Endpoint: (.*?)\n(?:\s+\((.*?)\)\n)?", worst, re.M)
    slack = re.search(r"^\s*(-?[0-9.]+)\s+slack \((MET|VIOLATED)\)", worst, re.M)
    arrival = re.search(r"^\s*([0-9.]+)\s+data arrival time", worst, re.M)
    if not (sp and ep and slack and arrival):
        raise RuntimeError("OpenSTA reported no constrained path (is clk_i the clock?)")
    def full(m):
        return m.group(1).strip() + (" (" + m.group(2).strip() + ")" if m.group(2) else "")
    start, end = point(hier, full(sp)), point(hier, full(ep))
    units, cells = [], 0
    for m in re.finditer(r"^\s+-?[0-9.]+\s+-?[0-9.]+ [v^] (\S+) \((\w+)\)$", worst, re.M):
        pin, celltype = m.group(1), m.group(2)
        if celltype in ("in", "out"):
            continue
        inst = pin.rpartition("/")[0]
        unit, where = hier.unit(inst.rpartition("/")[0])
        step = {"unit": unit, "instance": where}
        if not units or units[-1] != step:
            units.append(step)
        if celltype not in hier.facts["seq_cells"]:
            cells += 1
    path_ns = round(clock_ns - float(slack.group(1)), 3)
    endpoints = []
    for m in re.finditer(r"^(\S+/\S+) \(\w+\)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+) \((?:MET|VIOLATED)\)$", ends, re.M):
        endpoints.append((m.group(1), float(m.group(2)), float(m.group(3)), float(m.group(4))))
    cp = {"start": start, "end": end, "units": units, "logic_cells": cells,
          "arrival_ns": float(arrival.group(1))}
    return path_ns, round(1000.0 / path_ns, 1), cp, endpoints


def parse_results(cfg, workdir, facts, clock_ns, run_sta):
    """The rows of one configuration: the top (area, flops, timing) and its direct submodules."""
    generic = parse_stat(os.path.join(workdir, "generic.stat"))
    lib = parse_stat(os.path.join(workdir, "lib.stat"))
    top = next((m for m in lib if base(m) == cfg["top"]), None)
    if top is None:
        raise RuntimeError(f"{cfg['name']}: {cfg['top']} is not in yosys's statistics")
    totals = Totals(generic, lib, facts)
    hier = Hierarchy(parse_netlist(os.path.join(workdir, "netlist.v")), top, facts)
    path_ns, fmax, cp, endpoints = parse_sta(run_sta("sta"), hier, clock_ns)
    # A status register, the configuration loader or a register it writes at the end of the worst
    # path: also the worst path into the registers that move flits, credits and barrier signals.
    datapath = {"critical_path_ns": path_ns, "fmax_mhz": fmax, "critical_path": cp}
    if not on_datapath(cp["end"]["stage"]):
        for pin, _, _, _ in endpoints:
            inst = pin.rpartition("/")[0]
            unit, _ = hier.unit(inst.rpartition("/")[0])
            if on_datapath(classify(unit, hier.register(inst))):
                d_ns, d_fmax, d_cp, _ = parse_sta(run_sta("sta_datapath", pin), hier, clock_ns)
                datapath = {"critical_path_ns": d_ns, "fmax_mhz": d_fmax, "critical_path": d_cp}
                break
    params = {"config": cfg["name"], **cfg["rtl"]}
    nand2 = facts["nand2_um2"]

    def row(name, t, instances):
        return {"name": name, "params": params, "cells": t["cells"], "flops": t["flops"], "instances": instances,
                "um2": round(t["um2"], 1), "nand2_eq": round(t["um2"] / nand2, 1), "lib_cells": t["lib_cells"],
                "lib_flops": t["lib_flops"]}

    t = totals.of(top)
    if t["latches"]:
        print(f"[synth] warning: {cfg['name']} maps {t['latches']} latches (their area may be missing from the "
              "library)", file=sys.stderr)
    first = row(cfg["top"], t, 1)
    first.update({"group": cfg.get("group", "custom"), "torx": cfg["torx"], "critical_path_ns": path_ns,
                  "fmax_mhz": fmax, "critical_path": cp, "datapath": datapath})
    rows = [first]
    # The top's direct submodules, merged by module (all instances, with their own submodules).
    per, worst = {}, {}
    for sub, k in lib[top]["cells"].items():
        if sub in lib and sub not in facts["cells"]:
            st = totals.of(sub)
            e = per.setdefault(base(sub), {"t": {key: 0 for key in st}, "n": 0})
            for key in st:
                e["t"][key] += k * st[key]
            e["n"] += k
    # The worst path into each unit's registers.
    for pin, _, _, slack in endpoints:
        unit, _ = hier.unit(pin.rpartition("/")[0].rpartition("/")[0])
        worst[unit] = max(worst.get(unit, 0.0), round(clock_ns - slack, 3))
    glue = dict(t)
    for b in sorted(per):
        r = row(b, per[b]["t"], per[b]["n"])
        r["worst_path_ns"] = worst.get(b)
        rows.append(r)
        for key in glue:
            glue[key] -= per[b]["t"][key]
    first["own"] = {"um2": round(glue["um2"], 1), "flops": glue["flops"], "lib_flops": glue["lib_flops"],
                    "worst_path_ns": worst.get(base(top))}
    # The buffers' register files (torx_rf_1r1w, wherever they sit), summed over their instances:
    # the part a memory compiler's 1R1W register file would replace (docs/area.md, "Buffers").
    rf = {"instances": 0, "um2": 0.0, "flops": 0}
    for mod, k in instances_below(lib, top, facts).items():
        if base(mod) == "torx_rf_1r1w":
            st = totals.of(mod)
            rf["instances"] += k
            rf["um2"] += k * st["um2"]
            rf["flops"] += k * st["flops"]
    rf["bits"] = rf["flops"]   # memory_map makes one flop of every bit (no write-enable flops: none)
    if rf["instances"]:
        rf["um2"] = round(rf["um2"], 1)
        first["rf"] = rf
    return rows


def instances_below(lib, top, facts):
    """Instances of every module under top (a module's count times its parents'), from `stat`."""
    out = {}

    def walk(mod, mult):
        for sub, k in lib.get(mod, {"cells": {}})["cells"].items():
            if sub in lib and sub not in facts["cells"]:
                out[sub] = out.get(sub, 0) + mult * k
                walk(sub, mult * k)
    walk(top, 1)
    return out


# --- reports --------------------------------------------------------------------------------------
def num(x, nd=0):
    return f"{x:,.{nd}f}"


def mm2(um2):
    return f"{um2 / 1e6:.3f}"


ROUTER_PARTS = [("torx_input_unit", "input units"), ("torx_routing_unit", "routing unit"),
                ("torx_vc_alloc", "VC allocator"), ("torx_sw_alloc", "switch allocator"),
                ("torx_crossbar", "crossbar"), ("torx_output_unit", "output units")]


def tops(doc):
    return [r for r in doc["modules"] if "critical_path_ns" in r]


def parts(doc, top):
    return {r["name"]: r for r in doc["modules"] if r["params"]["config"] == top["params"]["config"] and r is not top}


def describe_point(p):
    where = p["unit"].replace("torx_", "")
    m = re.search(r"gen_port\[(\d+)\]", p["instance"])
    where += f"[{m.group(1)}]" if m else ""
    return f"{where} `{p['register']}` ({p['stage']})"


def path_text(cp, top):
    units = []
    for u in cp["units"]:
        short = "top" if u["unit"] == top and not u["instance"] else u["unit"].replace("torx_", "")
        m = re.search(r"gen_port\[(\d+)\]", u["instance"])
        units.append(short + (f"[{m.group(1)}]" if m else ""))
    return " → ".join(units)


def render_tables(doc):
    """The markdown tables of docs/area.md (also what synth.sh prints)."""
    return area_tables(doc) + "\n\n" + path_table(doc)


def fmax_cols(r):
    d = r.get("datapath", r)
    return f"{r['fmax_mhz']:.0f} | {d['fmax_mhz']:.0f}"


def rf_col(r):
    """The buffers' register files: share of the router's µm² and bits (- before they existed)."""
    rf = r.get("rf")
    return f"{100 * rf['um2'] / r['um2']:.1f} % ({num(rf['bits'])})" if rf else "-"


def area_tables(doc):
    """Area, NAND2 equivalents, flip-flops and fmax per configuration; per unit for the routers."""
    out = []
    rows = tops(doc)
    plain = [r for r in rows if r["name"] == "torx_router"]
    if plain:
        # The router organization (issue 26, `--param pipeline=`): a column once a row is not the
        # single-cycle router, so that such a row does not read as its single-cycle twin.
        orgs = any(r["params"].get("Pipeline", 0) for r in plain)
        names = {v: k for k, v in PIPELINE_NAMES.items()}
        out.append("| configuration | N | L | V | D | K | F | " + ("organization | " if orgs else "") +
                   "**router µm²** | **NAND2 eq.** | flops | fmax MHz | "
                   "datapath fmax | " + " | ".join(lbl for _, lbl in ROUTER_PARTS) + " | buffer RF (bits) |")
        out.append("|---|---:|---:|---:|---:|---:|---:|" + ("---|" if orgs else "") + "---:|---:|---:|---:|---:|" +
                   "---:|" * (len(ROUTER_PARTS) + 1))
        for r in plain:
            p, sub = r["params"], parts(doc, r)
            cols = [f"{100 * sub[n]['um2'] / r['um2']:.1f} %" if n in sub else "-" for n, _ in ROUTER_PARTS]
            org = f"{names.get(p.get('Pipeline', 0), p.get('Pipeline'))} | " if orgs else ""
            out.append(f"| {p['config']} | {p['NumDims']} | {p['NumLocal']} | {p['VcsPerClass']} | {p['BufferDepth']} | "
                       f"{p.get('PriorityLevels', 1)} | {p['FlitBytes']} | {org}**{num(r['um2'])}** | **{num(r['nand2_eq'])}** | "
                       f"{num(r['flops'])} | {fmax_cols(r)} | " + " | ".join(cols) + f" | {rf_col(r)} |")
    other = [r for r in rows if r["name"] != "torx_router"]
    if other:
        if out:
            out.append("")
        out.append("| configuration | unit | N | F | **µm²** | **NAND2 eq.** | flops | fmax MHz | datapath fmax | "
                   "largest part | buffer RF (bits) |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
        for r in other:
            sub = sorted(parts(doc, r).values(), key=lambda x: -x["um2"])
            big = f"{sub[0]['name']}: {100 * sub[0]['um2'] / r['um2']:.1f} %" if sub else "-"
            out.append(f"| {r['params']['config']} | {r['name']} | {r['params'].get('NumDims', '-')} | "
                       f"{r['params'].get('FlitBytes', '-')} | **{num(r['um2'])}** | **{num(r['nand2_eq'])}** | "
                       f"{num(r['flops'])} | {fmax_cols(r)} | {big} | {rf_col(r)} |")
    return "\n".join(out)


def path_table(doc):
    """The critical path of each configuration (and of its datapath, when that is another path):
    its delay, start, end and the units it crosses."""
    rows, out = tops(doc), []
    out.append("| configuration | path | ns | start | end | units crossed | gates |")
    out.append("|---|---|---:|---|---|---|---:|")
    for r in rows:
        paths = [("worst", r["critical_path_ns"], r["critical_path"])]
        d = r.get("datapath")
        if d and d["critical_path"] != r["critical_path"]:
            paths.append(("datapath", d["critical_path_ns"], d["critical_path"]))
        for kind, ns, cp in paths:
            out.append(f"| {r['params']['config']} | {kind} | {ns:.2f} | {describe_point(cp['start'])} | "
                       f"{describe_point(cp['end'])} | {path_text(cp, r['name'])} | {cp['logic_cells']} |")
    return "\n".join(out)


def by_config(doc):
    return {r["params"]["config"]: r for r in tops(doc)}


def frac(a, b):
    return f"{100 * a / b:.1f} %"


def render_costs(doc):
    """Item 4 of issue 24: what each feature costs, from the same flow."""
    c = by_config(doc)
    out = []
    pairs = [(b, r) for b, r in (("b1", "r1d"), ("b2", "r2d"), ("b3", "r3d")) if b in c and r in c]
    if pairs:
        out += ["### Barrier unit against the router of its node", "",
                "| barrier unit | µm² | NAND2 eq. | flops | router | router µm² | barrier / router | fmax MHz (unit / router) |",
                "|---|---:|---:|---:|---|---:|---:|---:|"]
        for b, r in pairs:
            out.append(f"| {b} (N = {c[b]['params']['NumDims']}) | {num(c[b]['um2'])} | {num(c[b]['nand2_eq'])} | "
                       f"{num(c[b]['flops'])} | {r} | {num(c[r]['um2'])} | {frac(c[b]['um2'], c[r]['um2'])} | "
                       f"{c[b]['fmax_mhz']:.0f} / {c[r]['fmax_mhz']:.0f} |")
        out.append("")
    ks = [k for k in ("r2d_k2", "r2d_k4", "r2d_k8") if k in c]
    if ks and "r2d" in c:
        base_r = c["r2d"]
        out += ["### Priority lanes (throttle and preempt) against the plain router", "",
                "| configuration | K | µm² | added µm² | added / plain router | flops (added) | fmax MHz | "
                "added in: input units | VC allocator | switch allocator | output units |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        out.append(f"| r2d | 1 | {num(base_r['um2'])} | - | - | {num(base_r['flops'])} | {base_r['fmax_mhz']:.0f} | - | - | - | - |")
        pb = parts(doc, base_r)
        for k in ks:
            r, pk = c[k], parts(doc, c[k])
            add = r["um2"] - base_r["um2"]
            cols = []
            for n in ("torx_input_unit", "torx_vc_alloc", "torx_sw_alloc", "torx_output_unit"):
                d = pk[n]["um2"] - pb[n]["um2"] if n in pk and n in pb else 0
                cols.append(f"{num(d)}")
            out.append(f"| {k} | {r['params']['PriorityLevels']} | {num(r['um2'])} | {num(add)} | {frac(add, base_r['um2'])} | "
                       f"{num(r['flops'])} (+{num(r['flops'] - base_r['flops'])}) | {r['fmax_mhz']:.0f} | " + " | ".join(cols) + " |")
        out.append("")
    gp = [(g, p) for g, p in (("g2d", "r2d_all_f16"), ("g3d", "r3d_all_f16")) if g in c and p in c]
    if gp:
        out += ["### Gossip-mode router against the plain all-port router (same N, D, flit)", "",
                "| gossip router | µm² | NAND2 eq. | flops | gossip unit µm² | plain router | plain µm² | gossip / plain µm² | "
                "gossip / plain flops | fmax MHz (gossip / plain) |",
                "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
        for g, p in gp:
            unit = parts(doc, c[g]).get("torx_gossip_unit")
            out.append(f"| {g} | {num(c[g]['um2'])} | {num(c[g]['nand2_eq'])} | {num(c[g]['flops'])} | "
                       f"{num(unit['um2']) if unit else '-'} | {p} | {num(c[p]['um2'])} | {c[g]['um2'] / c[p]['um2']:.2f} | "
                       f"{c[g]['flops'] / c[p]['flops']:.2f} | {c[g]['fmax_mhz']:.0f} / {c[p]['fmax_mhz']:.0f} |")
        out.append("")
    return "\n".join(out)


DOC_HEAD = """# Area and timing of the RTL in a standard-cell library

Generated by `scripts/synth.sh --update-docs` from `docs/area/area.json` (the `torx.area/2`
document of the same run; do not edit by hand: `scripts/synth.sh --render docs/area/area.json`
renders this page from it). @TOOLS@

**Read the figures as relative truths.** A 0.18 µm library tells which unit holds the area, which
stage and which units the critical path runs through, what a feature costs against the router, and
how area and delay scale with N, V, D, K and the flit; it does not tell a modern node's µm², MHz or
power. NAND2 equivalents (µm² / @NAND2@) are the figure to scale by: a NAND2 of a current node's
library times these counts gives a first estimate, and gate delays scale too, unevenly (wires do not
shrink like gates).

## What was synthesized

@WHAT@
Columns: N dimensions, L local ports (1 one-port, 2N all-port), V VCs per class, D flits per VC
buffer, K priority levels (1: the plain router), F payload bytes per flit. Each configuration is the
torx options in `docs/area/area.json` (`"torx"`): `scripts/synth.sh --topo 8x8 --flit-bytes 32
--param vcs_per_class=2` synthesizes one of them, or any other.

The flow (`scripts/synth.py`): yosys `synth` with the hierarchy kept (each unit is mapped on its
own, so its area is its own), `dfflibmap`, `abc -D @TARGET@` (maps for a @CLOCK@ ns target, then
buffers high fanouts and sizes gates), `stat -liberty`; OpenSTA on the netlist with a @CLOCK@ ns
clock on `clk_i`, every input driven by a @LINKFF@ at the clock edge (the upstream router's link
register: flits, credits and the configuration port all come from registers) and every output
loading a @LINKFF@'s D pin (the downstream link register). The critical path is the clock period
minus the worst slack (setup time included), fmax its inverse; @CLOCK@ ns is only a target: a
slower path shows as a negative slack, not as a wrong fmax. No wire load model (the library has
none), no clock tree, no placement: the delays are gate delays with pin loads.

## Area and fmax

Per unit: share of the router's µm² (all instances: five input units in a 2D one-port router).

@TABLE@

## Critical path

Start and end are registers (or a port: its link register upstream), with the unit instance
(`gen_port[p]` is port p: network ports 0 .. 2N-1, then the local ports) and the pipeline stage of
`docs/timing-contract.md`; "units crossed" follows the path; logic cells counts its gates.

@PATHS@

@SIMONLY@@BUFFERS@## What the features cost

@COSTS@
## What the tables tell

@READING@

Synthesis time per configuration, wall seconds of yosys + OpenSTA on the shared 2-core VM while
other engineers' builds and tests ran beside (up to @JOBS@ configurations at a time), and in
parentheses the CPU seconds of the tools (yosys with its abc), which the load does not inflate:
@SECONDS@. The table is a script, not CI: `ctest -L synth` runs the flow on two small units.
"""

def reading(doc):
    """What the tables tell, with the figures of this document (a bullet is left out when its
    configurations did not run)."""
    c, out = by_config(doc), []
    plain = [r for r in tops(doc) if r["name"] == "torx_router" and r["group"] == "plain"]
    if plain:
        share = [100 * parts(doc, r)["torx_input_unit"]["um2"] / r["um2"] for r in plain]
        fshare = [100 * parts(doc, r)["torx_input_unit"]["flops"] / r["flops"] for r in plain]
        rt = [100 * parts(doc, r)["torx_routing_unit"]["um2"] / r["um2"] for r in plain]
        out.append(f"- **The buffers are the router.** The input units hold {min(share):.0f} to {max(share):.0f} % of "
                   f"the plain routers' µm² and {min(fshare):.0f} to {max(fshare):.0f} % of their flip-flops: every "
                   + ("VC buffer slot is a flit-wide row of flip-flops (the flit less its link VC field, plus the route) "
                      "read through a multiplexer tree, where a design team would use a register file (issue 24, "
                      "item 3)" if before_issue24(doc) else
                      "VC buffer slot is a flit-wide row (the flit less its link VC field, plus the route), here mapped "
                      "to flip-flops and a read multiplexer; its data part is a register file a memory compiler would "
                      "replace (\"Buffers\" above)") +
                   f". The routing table (2 x MaxRadix entries per dimension: 64, the ring 256) is next, {min(rt):.0f} "
                   f"to {max(rt):.0f} %; crossbar and output registers follow the flit width, the allocators are "
                   "below 2 % each.")
    scale = []
    for a, b_, what in (("r2d_d4", "r2d", "D = 4 instead of 8"), ("r2d_v2", "r2d", "V = 2 instead of 1"),
                        ("r3d", "r2d", "3D instead of 2D"), ("r2d_all", "r2d", "all-port instead of one-port (2D)"),
                        ("r3d_all", "r3d", "all-port instead of one-port (3D)")):
        if a in c and b_ in c:
            scale.append(f"{what} x {c[a]['um2'] / c[b_]['um2']:.2f}")
    if scale:
        out.append("- **Scaling** (µm² against the default router): " + "; ".join(scale) + ".")
    routers = [r for r in tops(doc) if r["name"] == "torx_router"]
    if routers:
        through = [r for r in routers if {"torx_vc_alloc", "torx_sw_alloc"} <=
                   {u["unit"] for u in r["datapath"]["critical_path"]["units"]}]
        ns = [r["datapath"]["critical_path_ns"] for r in routers]
        out.append(f"- **Stage P is the critical stage.** The route is looked up as a flit is written (stage P-1), so "
                   "stage P holds VC allocation, switch allocation and traversal in one cycle, as the timing "
                   f"contract says; in {len(through)} of the {len(routers)} routers the datapath's worst path "
                   "starts at a buffer or lane register, asks the VC allocator, and its grant goes on through the "
                   f"switch allocator, {min(ns):.1f} to {max(ns):.1f} ns. It grows with the ports and the lanes "
                   "(3D, all-port, V, K): a deeper pipeline (`router_latency`) would split it there. The status "
                   "counter of blocked lanes (`stat_blocked_q`, a popcount after switch allocation, for the "
                   "statistics) is often the worst path of all; a design would pipeline or drop it.")
    ks = [k for k in ("r2d_k2", "r2d_k4", "r2d_k8") if k in c]
    if ks and "r2d" in c:
        b = c["r2d"]
        figs = "; ".join(f"K = {c[k]['params']['PriorityLevels']}: +{frac(c[k]['um2'] - b['um2'], b['um2'])} µm², "
                         f"{c[k]['datapath']['critical_path_ns']:.1f} ns ({c[k]['fmax_mhz']:.0f} MHz)" for k in ks)
        out.append(f"- **Priority lanes cost clock more than area.** Against r2d ({b['datapath']['critical_path_ns']:.1f} ns "
                   f"datapath, {b['fmax_mhz']:.0f} MHz): {figs}. The lanes share the VC's slots through linked lists "
                   "(`gen_shared.head_q`, `next_q`), and the datapath's path runs from a lane's head pointer through "
                   "the priority-first VC and switch allocation back into the lists: it grows with K, the area "
                   "(flip-flops above all) much less.")
    gossip = [(g, c[g]) for g in ("g2d", "g3d") if g in c]
    if gossip:
        figs = "; ".join(f"{g}: {r['critical_path_ns']:.1f} ns, {r['critical_path']['logic_cells']} gates, "
                         f"{r['fmax_mhz']:.0f} MHz" for g, r in gossip)
        plain = [f"{p} {c[p]['critical_path_ns']:.1f} ns" for p in ("r2d_all_f16", "r3d_all_f16") if p in c]
        out.append(f"- **The gossip router's claim is a chain.** Its worst path ({figs}; the plain all-port routers "
                   f"{', '.join(plain) or '-'}) runs from a buffer's front through the rule lookup of the gossip "
                   "unit into the claim of `torx_gossip_router.sv`, which grants the ports one after another in "
                   "age order, each seeing the outputs the earlier ones took (`busy`, chained over (2N + L)^2 "
                   "steps), and ends at an output link register. A single-cycle claim of that width is what the "
                   "cycle model specifies; hardware would claim in a tree (a prefix over the ranks) or over two "
                   "cycles. The area figures stand; this fmax is the RTL's, not the design's.")
    if before_issue24(doc):
        out.append("- **Simulation-only fields.** Every buffered and registered flit carries the 64-bit block tag and "
                   "an 8-bit priority (a plain router needs none of it, a priority router log2 K bits), which only the "
                   "checker and the statistics read in full, and the pipeline and output registers an 8-bit VC field "
                   "where 1 or 2 bits would do (`torx_pkg.sv`); the figures above include "
                   "them (issue 24, item 2, removes them). Measured on `r2d` with those fields cut to one bit each in a "
                   "copy of `torx_pkg.sv` (generic flip-flops): 30,670 -> 24,895, so at least 5,775 flip-flops "
                   "(18.8 %) at 32-byte flits; at the former table's 16-byte flits and MaxRadix 16, 18,880 -> 13,105 "
                   "(30.6 %).")
    else:
        out.append("- **No simulation-only fields.** The synthesized flit carries the header at its hardware widths "
                   "and the payload; the 64-bit block tag that the checker and the lock-step comparison read exists "
                   "only in simulation builds (`SimTag=1`), and the VC, start_dim and priority fields are as wide as "
                   "the router's C·V, N and K need (\"Simulation-only fields\" above compares with the RTL before).")
    out.append("- **What the flow leaves out.** abc maps each unit alone, its inputs arriving at time 0, so a path "
               "through five units is not optimized as a whole (`--flatten` maps the router as one module, and "
               "loses the per-unit figures); no wire load model, placement or clock tree, so the delays are gate "
               "delays with pin loads and long crossbar and buffer-read wires cost nothing here; abc's mapping "
               "moves by a few cells with unrelated changes of the RTL or of what yosys reads, the flip-flop counts do "
               "not (reading only the files a unit needs instead of all of hw/, the same RTL: r2d +0.03 % µm², "
               "its VC allocator -1.4 %, the worst path 7.92 -> 7.85 ns; b2 -1.3 % µm²).")
    return "\n".join(out)


def render_baseline(doc):
    """Issue 24, item 2: the routers against the same configurations of an earlier RTL (the
    document's "baseline", from --baseline FILE): before, the flit with its simulation-only fields."""
    base = doc.get("baseline")
    if not base:
        return ""
    c, out = by_config(doc), []
    rows = [(n, b, c[n]) for n, b in base["tops"].items() if n in c]
    if not rows:
        return ""
    out += ["## Simulation-only fields", "",
            f"Before: {base['label']}. After: this document's RTL with `SimTag=0`: the flit is the header "
            "(VC index of clog2(C·V) bits, head, tail, start_dim of clog2(N), priority of clog2(K) bits and "
            "none at K = 1, route class, destination) and the payload; the 64-bit tag `{seq, msg}` exists only "
            "in simulation builds (`SimTag=1`, the default of every Verilated model), so the lock-step "
            "comparison and the checker see what they saw.", "",
            "| configuration | flit bits before | after | µm² before | after | change | flops before | after | change | "
            "fmax MHz before | after |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n, b, r in rows:
        out.append(f"| {n} | {b.get('flit_bits', '-')} | {flit_bits(r['params'])} | {num(b['um2'])} | {num(r['um2'])} | "
                   f"{100 * (r['um2'] - b['um2']) / b['um2']:+.1f} % | {num(b['flops'])} | {num(r['flops'])} | "
                   f"{100 * (r['flops'] - b['flops']) / b['flops']:+.1f} % | {b['fmax_mhz']:.0f} | {r['fmax_mhz']:.0f} |")
    out.append("")
    return "\n".join(out) + "\n"


def clog2w(n):
    return max(1, (n - 1).bit_length())


def flit_bits(p):
    """Bits of a router's flit from its RTL parameters (torx_pkg::flit_w). Parameters without SimTag
    are of the RTL before it (issue 24): an 86-bit sideband of fixed fields and the tag."""
    if "NumLocal" not in p:
        return "-"
    n, levels = p["NumDims"], p.get("PriorityLevels", 1)
    ext = 1 + 16 + 2 * n if "PacketFlits" in p else 0
    if "SimTag" not in p:
        return 86 + n + n * clog2w(p["MaxRadix"]) + 8 * p["FlitBytes"] + ext
    hdr = clog2w(p["NumClasses"] * p["VcsPerClass"]) + 2 + clog2w(n) + (clog2w(levels) if levels > 1 else 0) + \
        n + n * clog2w(p["MaxRadix"])
    if p.get("Pipeline", 0) == 1:  # lookahead: la_port, la_class (torx_pkg::la_w)
        hdr += clog2w(2 * n) + 2 + clog2w(p["NumClasses"])
    return hdr + 8 * p["FlitBytes"] + ext + (64 if p.get("SimTag", 1) else 0)


def render_buffers(doc):
    """Issue 24, item 3: the buffers' register files."""
    rows = [r for r in tops(doc) if r.get("rf")]
    if not rows:
        return ""
    out = ["## Buffers", "",
           "Each input port keeps, per buffer slot, what the lanes read at every front in every cycle (the route "
           "stored with the flit, the head and tail bits; with priority levels also the lists' pointers) in "
           "flip-flops, and the rest of the flit (payload, the header fields no allocator reads) in one "
           "register file with one write port and one read port (`torx_rf_1r1w`, a behavioural array without "
           "reset that a memory compiler's 1R1W register file can replace). One read port is what the "
           "micro-architecture needs: an input sends at most one flit per cycle, the front of the lane the "
           "switch allocator picked. The flow maps the register file to flip-flops and a read multiplexer "
           "like the rest (yosys infers it as `$mem` and `memory_map` expands it); this column is that part:", "",
           "| configuration | register files | bits | RF µm² | of the router | RF flops | the router's other flops |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        rf = r["rf"]
        out.append(f"| {r['params']['config']} | {rf['instances']} | {num(rf['bits'])} | {num(rf['um2'])} | "
                   f"{frac(rf['um2'], r['um2'])} | {num(rf['flops'])} | {num(r['flops'] - rf['flops'])} |")
    out += ["", "**What a compiled register file would change.** Here every bit is a DFFPOSX1 (96 µm², four "
            "NAND2X1s) plus its share of a Words:1 multiplexer per read bit. A compiled 1R1W register file "
            "of the same words and width stores a bit in a latch or 8-transistor cell with shared decoders "
            "and sense or read logic, several times smaller per bit than a flip-flop and its multiplexer at any node; "
            "the \"RF µm²\" column is the part that shrinks, the rest of the router stays. "
            "**The read is flow-through**: the switch allocator chooses the lane in stage P and the flit "
            "goes through the crossbar into the output register in the same cycle (docs/timing-contract.md), "
            "so the register file must deliver data within the cycle its address settles, as latch- and "
            "flop-based register files do. A synchronous-read SRAM would need the address one cycle earlier: "
            "an extra stage (switch traversal after allocation, router_latency + 1 on every hop) or a "
            "prefetched front flit per lane (a flit-wide register per lane, which is most of what the "
            "register file saves); more read ports are not needed in either case.", ""]
    return "\n".join(out) + "\n"


WHAT_NOW = """The routers as silicon would carry them: the parameters are torx's own (`torx rtl params`, the
one derivation of a router's hardware from a network; issue 22), with `SimTag=0`, so the flit is
the header and the payload only (docs/rtl.md, "The flit on the wires": 274 bits per 2D flit of 32
bytes, 282 per 3D flit; the Verilated builds carry the 64-bit simulation tag besides). Plain and
priority routers with 32-byte flits (`FlitBytes=32`) and a routing table for radices up to 64
(`MaxRadix=64`; the ring `r1d` 256, as its Verilated build); the gossip routers and the plain
all-port routers they are compared with at 16-byte flits, as the gossip builds; P = 2, dateline
classes (C = 2) throughout."""

# A document whose routers have no SimTag parameter was synthesized from the RTL before issue 24.
WHAT_BEFORE = """**These figures are of the RTL before issue 24's hardware flit and buffers**: the flit with the
86-bit sideband of the former `torx_pkg` (an 8-bit VC, an 8-bit priority, a 4-bit start_dim and the
64-bit simulation tag in every flit) and the buffers as flip-flop arrays; `scripts/synth.sh
--update-docs --baseline docs/area/area.json` re-synthesizes the table from today's RTL (`SimTag=0`,
the buffers' register files) and compares. What was synthesized then: plain and priority routers
with 32-byte flits (`FlitBytes=32`: 356 bits per 2D flit, 363 per 3D flit) and a routing table for
radices up to 64 (`MaxRadix=64`; the ring `r1d` 256, as its Verilated build); the gossip routers
and the plain all-port routers they are compared with at 16-byte flits, as the gossip builds; P = 2,
dateline classes (C = 2) throughout."""


def before_issue24(doc):
    """Whether the document's routers were synthesized from the RTL before SimTag existed."""
    return any("SimTag" not in r["params"] for r in tops(doc) if r["name"] in ("torx_router", "torx_gossip_router"))


def render_doc(doc):
    t = doc["tools"]
    tools_line = (f"{t['yosys']}, OpenSTA {t['sta']}, the {t['liberty']} liberty ({t['liberty_package']}), "
                  f"NAND2 = {t['nand2_cell']}, {t['nand2_um2']:g} µm².")
    secs = ", ".join(f"{r['params']['config']} {r['seconds']['yosys']:.0f} + {r['seconds']['sta']:.0f} s" +
                     (f" ({r['seconds']['yosys_cpu']:.0f} + {r['seconds']['sta_cpu']:.0f} s CPU)"
                      if "yosys_cpu" in r["seconds"] and "sta_cpu" in r["seconds"] else "")
                     for r in tops(doc) if "seconds" in r)
    text = DOC_HEAD.replace("@WHAT@", (WHAT_BEFORE if before_issue24(doc) else WHAT_NOW) + "@COVER@")
    have = {r["params"]["config"] for r in tops(doc)}
    missing = [n for _, n, _ in TABLE if n not in have]
    cover = ("" if not missing else
             f" This page covers {len(TABLE) - len(missing)} of the table's {len(TABLE)} configurations; the "
             + ("other has" if len(missing) == 1 else "others have") + " not been synthesized since the RTL last changed: "
             + ", ".join(f"`{n}`" for n in missing) + " (`scripts/synth.sh --only NAME --out DIR` synthesizes "
             "one, `--combine` joins its document to this one's).")
    # Rows of an earlier RTL: their recorded digest is not this tree's hw/ (or none was recorded).
    known = {}
    stale = []
    for r in tops(doc):
        if r["name"] not in known:
            known[r["name"]] = rtl_digest(r["name"]) if os.path.isfile(os.path.join(HW, r["name"] + ".sv")) else None
        if known[r["name"]] and r.get("rtl_sha256") != known[r["name"]]:
            stale.append(r["params"]["config"])
    if stale:
        cover += (f" {'Every row was' if len(stale) == len(tops(doc)) else f'{len(stale)} of the {len(tops(doc))} rows were'}"
                  " synthesized from an earlier RTL than this tree's `hw/` (the digest of the files the "
                  "synthesis read, `rtl_sha256` in the data, differs or was not recorded): "
                  + ", ".join(f"`{n}`" for n in stale) + "; their figures are that RTL's, and a comparison "
                  "with a row of today's RTL mixes the two (`scripts/synth.sh --only NAME,...` synthesizes them again).")
    text = text.replace("@COVER@", cover)
    for key, val in (("@TOOLS@", tools_line), ("@NAND2@", f"{t['nand2_um2']:g} µm², the {t['nand2_cell']}"),
                     ("@TARGET@", str(int(round(doc['clock_ns'] * 1000)))), ("@CLOCK@", f"{doc['clock_ns']:g}"),
                     ("@LINKFF@", t["link_ff"]), ("@TABLE@", area_tables(doc)), ("@PATHS@", path_table(doc)),
                     ("@COSTS@", render_costs(doc)), ("@SIMONLY@", render_baseline(doc)),
                     ("@BUFFERS@", render_buffers(doc)), ("@READING@", reading(doc)), ("@JOBS@", str(doc.get("jobs", 2))),
                     ("@SECONDS@", secs)):
        text = text.replace(key, val)
    return text


def tool_versions(yosys, sta, lib, facts):
    yv = subprocess.run([yosys, "-V"], capture_output=True, text=True).stdout.strip().split(" (")[0]
    sv = subprocess.run([sta, "-version"], capture_output=True, text=True).stdout.strip()
    package = LIB_PACKAGE if "osu018" in os.path.basename(lib) else "--liberty"
    return {"yosys": yv, "sta": sv, "liberty": os.path.basename(lib).replace(".lib", ""), "liberty_package": package,
            "liberty_sha256": facts["sha256"], "nand2_cell": facts["nand2_cell"], "nand2_um2": facts["nand2_um2"],
            "link_ff": facts["link_ff"]}


# --- the command line -----------------------------------------------------------------------------
def main(argv):
    p = argparse.ArgumentParser(
        prog="scripts/synth.sh", formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
        description="Area (µm², NAND2 equivalents) and timing (critical path, fmax) of the RTL in a standard-cell "
                    "library: yosys + abc + OpenSTA. Without a configuration: the table of docs/area.md.",
        epilog="Exit codes: 0 done, 1 a tool failed on a configuration, 2 bad arguments or a missing tool.\n"
               "Examples:\n"
               "  scripts/synth.sh --topo 8x8x8 --param vcs_per_class=2      # one router, table on stdout\n"
               "  scripts/synth.sh --only r2d,b2 --json -                   # two of the table's, torx.area/2\n"
               "  scripts/synth.sh --out /tmp/area                          # the table; netlists, logs, area.json, area.md\n"
               "  scripts/synth.sh --update-docs                            # the table into docs/area.md, docs/area/area.json")
    add_config_options(p)
    g = p.add_argument_group("the run")
    g.add_argument("--only", metavar="NAME[,NAME]", help="these configurations of the table (--list)")
    g.add_argument("--list", action="store_true", help="print the table's configurations and exit")
    g.add_argument("--out", metavar="DIR", help="keep each configuration's netlist, logs and reports here, with "
                   "area.json and area.md [a temporary directory, removed]")
    g.add_argument("--json", metavar="FILE|-", help="write the torx.area/2 document (- = stdout, then nothing else there)")
    g.add_argument("--update-docs", action="store_true", help="write docs/area.md and docs/area/area.json (the whole table only)")
    g.add_argument("--retime", metavar="DIR", help="re-run OpenSTA and the reports on the netlists an earlier --out DIR "
                   "kept (after a change of the reports, not of the RTL); writes as a synthesis would")
    g.add_argument("--render", metavar="FILE", help="print docs/area.md as rendered from a torx.area/2 document and exit")
    g.add_argument("--combine", metavar="FILE", nargs="+", help="instead of synthesizing, join these torx.area/2 documents "
                   "(runs of parts of the table; a configuration in a later one replaces an earlier one's) and write "
                   "the result as a run would (--json, --update-docs)")
    g.add_argument("--baseline", metavar="FILE", help="a torx.area/2 document of an earlier RTL: its figures of the "
                   "same configurations go into the document (\"baseline\") and docs/area.md compares them")
    g.add_argument("--baseline-label", metavar="TEXT", default="the baseline document's RTL",
                   help="what the baseline is, for docs/area.md")
    g.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")), help="configurations at a time [2]")
    g.add_argument("--clock-ns", type=float, default=5.0, help="abc's delay target and STA's clock period [5]")
    g.add_argument("--flatten", action="store_true", help="map each configuration as one module (no per-unit figures)")
    g.add_argument("--liberty", metavar="FILE", help="the cell library [$TORX_LIBERTY, else the OSU 0.18 µm cells]")
    g.add_argument("--fetch", action="store_true", help="extract the liberty (and yosys, if not on PATH) from their "
                   "Debian packages into the cache and exit (scripts/setup.sh --synth runs it)")
    g.add_argument("--dry-run", action="store_true", help="check the arguments and tools, print the configurations "
                   "with their RTL parameters and exit")
    g.add_argument("--check-tools", action="store_true", help="print the yosys, sta, liberty and torx (with `torx rtl "
                   "params`) the flow uses; exit 2 if one is missing")
    a = p.parse_args(argv)

    if a.render:
        try:
            with open(a.render) as fh:
                doc = json.load(fh)
        except OSError as e:
            raise Fail(f"--render {a.render}: {e.strerror}")
        except ValueError as e:
            raise Fail(f"--render {a.render}: not JSON ({e})")
        if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
            raise Fail(f"{a.render}: not a {SCHEMA} document")
        try:
            text = render_doc(doc)
        except (KeyError, TypeError, IndexError, ValueError, ZeroDivisionError) as e:
            raise Fail(f"--render {a.render}: a {SCHEMA} document without what the page needs ({type(e).__name__}: {e})")
        sys.stdout.write(text)
        return 0
    baseline = read_area_doc(a.baseline, "--baseline") if a.baseline else None
    if a.combine:
        docs = [read_area_doc(f, "--combine") for f in a.combine]
        rows = {}
        for d in docs:
            for cfg in {r["params"]["config"] for r in d["modules"]}:
                rows[cfg] = [r for r in d["modules"] if r["params"]["config"] == cfg]
        table_order = [n for _, n, _ in TABLE]
        order = sorted(rows, key=lambda n: (table_order.index(n) if n in table_order else len(table_order), n))
        doc = dict(docs[-1])
        doc["modules"] = [r for cfg in order for r in rows[cfg]]
        doc["wall_seconds"] = sum(d.get("wall_seconds", 0) for d in docs)
        return write_doc(a, add_baseline(doc, baseline, a.baseline_label), None, [])
    if a.list:
        for group, name, args in TABLE:
            print(f"{name:<14} {group:<9} {args}")
        return 0
    if a.fetch:
        fetch()
        return 0
    if a.check_tools:
        yosys, sta, lib = tools(a.liberty, fetch_missing=False)
        facts = library_facts(lib)
        torx = check_torx()
        print(f"yosys   {yosys}\nsta     {sta}\nliberty {lib}\nNAND2   {facts['nand2_cell']} {facts['nand2_um2']:g}\n"
              f"link register {facts['link_ff']}\ntorx    {torx}")
        return 0
    if a.jobs < 1 or a.jobs > 64:
        raise Fail(f"--jobs {a.jobs}: out of range 1 .. 64")
    if not 0.05 <= a.clock_ns <= 1000:
        raise Fail(f"--clock-ns {a.clock_ns}: out of range 0.05 .. 1000")
    single = bool(a.topo or a.param or a.barrier or a.gossip_hw or a.mesh or a.name or a.unit or a.max_radix or
                  a.ports != "one" or a.flit_bytes != 16 or a.block_bytes != 64 or a.sync != "barrier" or a.max_rules is not None)
    if single and a.only:
        raise Fail("--only picks from the table; --topo/--param give one configuration: not both")
    if single:
        configs = [resolve(a)]
        for n in configs[0]["ignored"]:
            print(f"[synth] --param {n}: not a parameter of the router's hardware, ignored", file=sys.stderr)
    else:
        want = None
        if a.only:
            want = a.only.split(",")
            known = {name for _, name, _ in TABLE}
            bad = [w for w in want if w not in known]
            if bad:
                raise Fail(f"--only {','.join(bad)}: not in the table (known: {' '.join(sorted(known))})")
        configs = table_configs(want)
    if a.retime:
        if single or a.only:
            raise Fail("--retime re-times the configurations DIR holds: no --topo/--param/--only")
        configs = retime_configs(a.retime, a)
    if a.update_docs and (single or a.flatten or a.clock_ns != 5.0 or a.liberty):
        raise Fail("--update-docs writes docs/area.md from the table (all of it, or the --only part), the OSU "
                   "0.18 µm library, the 5 ns clock and the hierarchical flow: drop --topo/--param/--flatten/"
                   "--clock-ns/--liberty")
    json_path = None
    if a.json and a.json != "-":
        json_path = os.path.abspath(a.json)
        if os.path.isdir(json_path) or not os.path.isdir(os.path.dirname(json_path)):
            raise Fail(f"--json {a.json}: not a file in an existing directory")
        if not os.access(os.path.dirname(json_path), os.W_OK) or \
                (os.path.exists(json_path) and not os.access(json_path, os.W_OK)):
            raise Fail(f"--json {a.json}: not writable")
    out = os.path.abspath(a.out) if a.out else None
    if out:
        if os.path.exists(out) and not os.path.isdir(out):
            raise Fail(f"--out {a.out}: exists and is not a directory")
        parent = out
        while not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.access(parent, os.W_OK):
            raise Fail(f"--out {a.out}: {parent} is not writable")
    # The arguments are good: now the tools (a missing liberty is fetched, except by --dry-run).
    yosys, sta, lib = tools(a.liberty, fetch_missing=not a.dry_run)
    facts = library_facts(lib)
    if a.update_docs and os.path.basename(lib) != os.path.basename(LIB_SYSTEM):
        raise Fail(f"--update-docs writes docs/area.md from the OSU 0.18 µm library, not {lib}")
    if a.dry_run:
        for c in configs:
            print(f"{c['name']}: {c['top']} " + " ".join(f"{k}={v}" for k, v in c["rtl"].items()))
        return 0
    if out:
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as e:
            raise Fail(f"--out {a.out}: {e.strerror}")
    if a.retime:
        doc = run_all(configs, a, yosys, sta, lib, facts, os.path.abspath(a.retime), retime=True)
    else:
        work = out or tempfile.mkdtemp(prefix="torx-synth-")
        try:
            doc = run_all(configs, a, yosys, sta, lib, facts, work)
        finally:
            if not out:
                shutil.rmtree(work, ignore_errors=True)
    if doc is None:
        return 1
    return write_doc(a, add_baseline(doc, baseline, a.baseline_label), out, configs)


def read_area_doc(path, what):
    try:
        with open(path) as fh:
            doc = json.load(fh)
    except OSError as e:
        raise Fail(f"{what} {path}: {e.strerror}")
    except ValueError as e:
        raise Fail(f"{what} {path}: not JSON ({e})")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or not isinstance(doc.get("modules"), list):
        raise Fail(f"{what} {path}: not a {SCHEMA} document")
    return doc


def add_baseline(doc, baseline, label):
    """The baseline's figures of the configurations doc has (their tops)."""
    if baseline is None:
        return doc
    have = {r["params"]["config"] for r in tops(doc)}
    rows = {}
    for r in tops(baseline):
        n = r["params"]["config"]
        if n in have:
            rows[n] = {k: r[k] for k in ("um2", "nand2_eq", "flops", "fmax_mhz")}
            rows[n]["flit_bits"] = flit_bits(r["params"])
    doc = dict(doc)
    doc["baseline"] = {"label": label, "tops": rows}
    return doc


def write_doc(a, doc, out, configs):
    """Writes a document as --out, --json, --update-docs ask; prints the tables otherwise."""
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    json_path = os.path.abspath(a.json) if a.json and a.json != "-" else None
    if out:
        with open(os.path.join(out, "area.json"), "w") as fh:
            fh.write(text)
        with open(os.path.join(out, "area.md"), "w") as fh:
            fh.write(render_doc(doc))
    if json_path:
        with open(json_path, "w") as fh:
            fh.write(text)
    if a.update_docs:
        os.makedirs(os.path.join(ROOT, "docs", "area"), exist_ok=True)
        with open(os.path.join(ROOT, "docs", "area", "area.json"), "w") as fh:
            fh.write(text)
        with open(os.path.join(ROOT, "docs", "area.md"), "w") as fh:
            fh.write(render_doc(doc))
    if a.json == "-":
        sys.stdout.write(text)
    else:
        if configs:
            print("torx.area/2 figures; " + ", ".join(f"{c['name']}: {c['top']} "
                                                     f"{' '.join(f'{k}={v}' for k, v in c['rtl'].items())}" for c in configs))
        print(render_tables(doc))
        costs = render_costs(doc)
        if costs:
            print("\n" + costs)
    return 0


def retime_configs(folder, a):
    """The configurations an earlier --out folder holds, in the table's order; their clock and flow."""
    found = {}
    for d in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        path = os.path.join(folder, d, "config.json")
        if os.path.isfile(path) and os.path.isfile(os.path.join(folder, d, "netlist.v")):
            with open(path) as fh:
                saved = json.load(fh)
            found[saved["config"]["name"]] = saved
    if not found:
        raise Fail(f"--retime {folder}: no synthesized configuration (config.json and netlist.v) in it")
    clocks = {s["clock_ns"] for s in found.values()}
    flows = {s["flatten"] for s in found.values()}
    if len(clocks) > 1 or len(flows) > 1:
        raise Fail(f"--retime {folder}: its configurations were synthesized with different clocks or flows")
    a.clock_ns, a.flatten = clocks.pop(), flows.pop()
    order = [n for _, n, _ in TABLE]
    return [found[n]["config"] for n in sorted(found, key=lambda n: (order.index(n) if n in order else len(order), n))]


def cost(cfg):
    """A rough size, to start the largest configurations first (the run ends with the small ones)."""
    r = cfg["rtl"]
    ports = 2 * r.get("NumDims", 1) + r.get("NumLocal", 1)
    lanes = r.get("NumClasses", 1) * r.get("VcsPerClass", 1) * r.get("PriorityLevels", 1)
    return ports * (ports + lanes * r.get("BufferDepth", 1) * r.get("PriorityLevels", 1)) * r.get("FlitBytes", 1)


def run_all(configs, a, yosys, sta, lib, facts, work, retime=False):
    """Every configuration, a.jobs at a time; the torx.area/2 document, or None if one failed."""
    rows, failed = {}, False
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futs = {}
        for c in sorted(configs, key=cost, reverse=True):
            wd = os.path.join(work, c["name"])
            f = (pool.submit(time_config, wd, sta, lib, facts) if retime else
                 pool.submit(run_config, c, yosys, sta, lib, facts, a.clock_ns, a.flatten, wd))
            futs[f] = c
        for f in concurrent.futures.as_completed(futs):
            c = futs[f]
            try:
                rows[c["name"]] = f.result()
                r = rows[c["name"]][0]
                print(f"[synth] {c['name']}: yosys {r['seconds']['yosys']:.0f} s ({r['seconds'].get('yosys_cpu', 0):.0f} s CPU), "
                      f"sta {r['seconds']['sta']:.0f} s ({r['seconds'].get('sta_cpu', 0):.0f} s CPU): "
                      f"{num(r['um2'])} µm², {num(r['nand2_eq'])} NAND2 eq., {r['critical_path_ns']:.2f} ns "
                      f"({r['fmax_mhz']:.0f} MHz)", file=sys.stderr)
            except Exception as e:  # noqa: BLE001 - reported, the other configurations go on
                failed = True
                print(f"[synth] {e}", file=sys.stderr)
    if failed:
        return None
    t = tool_versions(yosys, sta, lib, facts)
    return {"schema": SCHEMA, "tools": t, "clock_ns": a.clock_ns, "flow": "flat" if a.flatten else "hierarchical",
            "jobs": a.jobs, "wall_seconds": round(time.monotonic() - start),
            "modules": [r for c in configs for r in rows[c["name"]]]}


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"synth.sh: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
