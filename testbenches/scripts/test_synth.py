#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Runs scripts/synth.sh's flow end to end (yosys synth, dfflibmap, abc, stat -liberty, OpenSTA) on the
# smallest unit, the 2D barrier unit, and checks its figures against what the test recomputes on its
# own from the netlist, the liberty and OpenSTA; checks that the router's parameters are torx's
# (`torx rtl params`, $TORX) with SimTag = 0, and that bad input and a missing tool are exit 2.
# Skips (exit 77) when yosys, sta or the liberty is absent (scripts/setup.sh --synth provides them),
# or when $TORX has no `torx rtl params` (built with -DTORX_BUILD_RTL=OFF).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYNTH = os.path.join(ROOT, "scripts", "synth.sh")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import synth  # noqa: E402

from checks import check, verdict  # noqa: E402


def run(args, env=None):
    return subprocess.run([SYNTH] + args, capture_output=True, text=True, env=env)


def netlist_cells(path, top):
    """Library cells per type in the design under top, every module's cells times its instances
    (the test's own count, from the netlist's text)."""
    mods, cur = {}, None
    with open(path) as fh:
        for line in fh:
            m = re.match(r"^module (\\\S+|\w+)\s*\(", line)
            if m:
                cur = mods.setdefault(m.group(1).lstrip("\\"), {})
                continue
            m = re.match(r"^\s+(\\\S+|\w+)\s+(\\\S+|\w+)\s*\($", line)
            if m and cur is not None:
                t = m.group(1).lstrip("\\")
                cur[t] = cur.get(t, 0) + 1

    def total(mod):
        out = {}
        for t, n in mods[mod].items():
            for c, k in (total(t) if t in mods else {t: 1}).items():
                out[c] = out.get(c, 0) + n * k
        return out
    return total(top), len(mods)


def main():
    r = run(["--check-tools"])
    if r.returncode != 0:
        print(f"skipped: {r.stderr.strip()}")
        return 77
    lib = re.search(r"^liberty (.*)$", r.stdout, re.M).group(1)
    cells = synth.parse_liberty(lib)
    tmp = tempfile.mkdtemp(prefix="torx-test-synth-")
    try:
        out = os.path.join(tmp, "out")
        r = run(["--topo", "8x8", "--barrier", "--out", out, "--json", os.path.join(tmp, "area.json")])
        check("the flow exits 0", r.returncode == 0)
        if r.returncode != 0:
            print(r.stderr)
            return 1
        doc = json.load(open(os.path.join(tmp, "area.json")))
        check("schema torx.area/2", doc["schema"] == "torx.area/2")
        top = doc["modules"][0]
        check("one row, the barrier unit", len(doc["modules"]) == 1 and top["name"] == "torx_barrier")
        check("torx.area/1 fields kept", all(k in top for k in ("name", "params", "cells", "flops", "instances")))
        check("area > 0", top["um2"] > 0)

        # Area: the netlist's cells times their liberty areas, counted here.
        counts, _ = netlist_cells(os.path.join(out, "barrier_2d", "netlist.v"), "torx_barrier")
        area = sum(n * cells[c]["area"] for c, n in counts.items() if c in cells)
        check(f"µm² = the netlist's cells x the liberty's areas ({area:g})", abs(area - top["um2"]) < 0.5)
        check("NAND2 eq. = µm² / NAND2X1", abs(top["nand2_eq"] - top["um2"] / cells["NAND2X1"]["area"]) < 0.1)
        ffs = sum(n for c, n in counts.items() if c in cells and cells[c]["seq"])
        check(f"flip-flops: every generic flop mapped, the netlist's count ({ffs})",
              top["lib_flops"] == ffs == top["flops"] > 0)

        # Timing: a named path, fmax its inverse, and the path is the clock period minus the slack,
        # whatever the period: OpenSTA on the kept netlist at 0.5 ns (the path violates) and 50 ns
        # (it meets) gives the same critical path as the flow's 5 ns.
        cp = top["critical_path"]
        check("the critical path has a delay", top["critical_path_ns"] > 0)
        check("fmax = 1 / critical path", abs(top["fmax_mhz"] - 1000 / top["critical_path_ns"]) < 0.051)
        netlist = open(os.path.join(out, "barrier_2d", "netlist.v")).read()
        for end in ("start", "end"):
            reg = cp[end]["register"]
            check(f"the path's {end} is a register of the netlist ({reg})",
                  cp[end]["unit"] == "torx_barrier" and bool(reg)
                  and any(f".Q({q})" in netlist.replace(" ", "") for q in (reg, "\\" + reg)))  # escaped if flattened in
            check(f"the path's {end} has a stage ({cp[end]['stage']})", cp[end]["stage"] != "register")
        check("the path crosses the barrier unit", [u["unit"] for u in cp["units"]] == ["torx_barrier"])
        check("the path has logic cells", cp["logic_cells"] > 0)
        # The path includes the capturing flip-flop's setup time: period - required + arrival.
        log = open(os.path.join(out, "barrier_2d", "sta.log")).read().partition("=== endpoints")[0]
        req = float(re.search(r"^\s*(-?[0-9.]+)\s+data required time", log, re.M).group(1))
        arr = float(re.search(r"^\s*(-?[0-9.]+)\s+data arrival time", log, re.M).group(1))
        check(f"critical path = arrival + setup ({arr} + {5.0 - req:.3f} ns)",
              abs(top["critical_path_ns"] - (5.0 - req + arr)) < 0.002 and req < 5.0)
        tcl = open(os.path.join(out, "barrier_2d", "sta.tcl")).read()
        facts = synth.library_facts(lib)
        hier = synth.Hierarchy(synth.parse_netlist(os.path.join(out, "barrier_2d", "netlist.v")), "torx_barrier", facts)
        for period in (0.5, 50.0):
            path = os.path.join(out, "barrier_2d", f"sta_{period}.tcl")
            with open(path, "w") as fh:
                fh.write(tcl.replace("-period 5.0 ", f"-period {period} "))
            r = subprocess.run(["sta", "-no_splash", "-exit", path], cwd=os.path.join(out, "barrier_2d"),
                               capture_output=True, text=True)
            ns, _, cp2, ends = synth.parse_sta(r.stdout, hier, period)
            slack = float(re.search(r"^\s*(-?[0-9.]+)\s+slack", r.stdout, re.M).group(1))
            check(f"at a {period} ns clock ({'VIOLATED' if slack < 0 else 'MET'}) the same path, "
                  f"{ns} ns", abs(ns - top["critical_path_ns"]) < 0.002 and cp2["end"] == cp["end"])
            check(f"at a {period} ns clock every register endpoint is listed", len(ends) == ffs)

        # A unit with submodules (the switch allocator of a 2D router and its nine arbiters): its area
        # includes theirs, instance by instance.
        r = run(["--topo", "8x8", "--unit", "torx_sw_alloc", "--out", out, "--json", os.path.join(tmp, "sa.json")])
        check("the switch allocator: exit 0", r.returncode == 0)
        if r.returncode == 0:
            sa = json.load(open(os.path.join(tmp, "sa.json")))["modules"]
            counts, nmods = netlist_cells(os.path.join(out, "sw_alloc_2d", "netlist.v"), "torx_sw_alloc")
            area = sum(n * cells[c]["area"] for c, n in counts.items() if c in cells)
            check(f"the switch allocator is hierarchical ({nmods} modules)", nmods > 1)
            check(f"its µm² counts its arbiters' ({area:g})", abs(area - sa[0]["um2"]) < 0.5)
            arb = [x for x in sa if x["name"] == "torx_rr_arbiter"]
            check("a row for its arbiters, with their instances", len(arb) == 1 and arb[0]["instances"] >= 2 and
                  0 < arb[0]["um2"] < sa[0]["um2"])
            check("its parameters are the router's (NumDims 2, one local port)",
                  sa[0]["params"].get("NumDims") == 2 and sa[0]["params"].get("NumLocal") == 1 and
                  "FlitBytes" not in sa[0]["params"])
            check("its path starts and ends at switch allocation pointers",
                  all(sa[0]["critical_path"][e]["register"].startswith("sa_") for e in ("start", "end")))

        # The table of the report names the figures.
        r2 = run(["--render", os.path.join(tmp, "area.json")])
        check("--render renders the document", r2.returncode == 0 and "barrier_2d" in r2.stdout)

        # Bad input and missing tools: exit 2, naming what is wrong, before any synthesis.
        bad = [(["--topo", "8x8", "--param", "vcs_per_class=2", "--param", "vcs_per_class=3"], "given twice"),
               (["--topo", "8x8", "--param", "buffer_depth=0"], "out of range"),
               (["--topo", "8x8", "--param", "bogus=1"], "unknown"),
               (["--topo", "8x1"], "at least 2"),
               (["--topo", "8x8", "--flit-bytes", "12"], "8-byte words"),
               (["--topo", "8x8", "--sync", "priority", "--param", "priority_levels=8", "--param", "buffer_depth=4"],
                "no slot"),
               (["--only", "nosuch"], "not in the table"),
               (["--topo", "8x8", "--liberty", os.path.join(tmp, "missing.lib")], "no such file"),
               (["--topo", "8x8", "--out", os.path.join(tmp, "area.json")], "--out"),
               (["--topo", "8x8", "--update-docs"], "--update-docs"),
               (["--topo", "8x8", "--barrier", "--sync", "none"], "--sync barrier"),
               (["--render", os.path.join(tmp, "missing.json")], "No such file"),
               (["--render", os.path.join(tmp, "broken.json")], "not JSON"),
               (["--render", os.path.join(tmp, "hollow.json")], "without what the page needs"),
               (["--retime", tmp], "no synthesized configuration"),
               (["--topo", "8x8", "--barrier", "--unit", "torx_sw_alloc"], "--unit and --barrier")]
        with open(os.path.join(tmp, "broken.json"), "w") as fh:
            fh.write('{"schema": "torx.area/2",')
        with open(os.path.join(tmp, "hollow.json"), "w") as fh:
            fh.write('{"schema": "torx.area/2", "modules": []}')
        r = run(["--topo", "8x8", "--param", "vcs_per_class=2", "--dry-run"])
        check("--dry-run of a good configuration: exit 0, its parameters, no simulation tag",
              r.returncode == 0 and "torx_router" in r.stdout and "VcsPerClass=2" in r.stdout and "SimTag=0" in r.stdout)
        # The parameters are torx's own derivation (`torx rtl params`): order classes x dateline
        # classes, the priority router's levels, the gossip router's packet.
        tx = subprocess.run([synth.find_torx(), "rtl", "params", "tseng-dd", "--topo", "8x8", "--param", "order_classes=2",
                             "--sync", "priority", "--param", "priority_levels=4"], capture_output=True, text=True)
        r = run(["--topo", "8x8", "--param", "order_classes=2", "--sync", "priority", "--param", "priority_levels=4",
                 "--dry-run"])
        want = [w for w in tx.stdout.split("\n")[0].split()[2:] if not w.startswith(("-GMutant", "-GFlitBytes"))]
        check(f"the router's parameters are torx rtl params' ({' '.join(want)})",
              r.returncode == 0 and tx.returncode == 0 and
              all(w[2:] in r.stdout.split() for w in want) and "NumClasses=4" in r.stdout)
        r = run(["--topo", "8x8", "--gossip-hw", "--block-bytes", "128", "--dry-run"])
        check("the gossip router: PacketFlits from the block (128 / 16 bytes), SimTag=0",
              r.returncode == 0 and "PacketFlits=8" in r.stdout and "SimTag=0" in r.stdout)
        r = run(["--topo", "8x8", "--dry-run"], env=dict(os.environ, TORX=os.path.join(tmp, "no-torx")))
        check("TORX naming no torx: exit 2 naming it", r.returncode == 2 and "TORX" in r.stderr)
        # A torx built without the RTL has no `torx rtl` (as -DTORX_BUILD_RTL=OFF's says): exit 2 saying so.
        nortl = os.path.join(tmp, "torx-nortl")
        with open(nortl, "w") as fh:
            fh.write("#!/bin/sh\necho \"torx: error: unknown command 'rtl': did you mean 'run'?\" >&2\nexit 2\n")
        os.chmod(nortl, 0o755)
        for args in (["--topo", "8x8", "--dry-run"], ["--check-tools"]):
            r = run(args, env=dict(os.environ, TORX=nortl))
            check(f"{' '.join(args)} with a torx without the RTL: exit 2 saying TORX_BUILD_RTL=OFF",
                  r.returncode == 2 and "TORX_BUILD_RTL=OFF" in r.stderr)
        for args, says in bad:
            r = run(args + ["--dry-run"])
            check(f"{' '.join(args)}: exit 2 saying '{says}'", r.returncode == 2 and says in r.stderr)
        # A liberty without a NAND2: nothing to count equivalents with.
        nonand = os.path.join(tmp, "nonand.lib")
        with open(lib) as src, open(nonand, "w") as dst:
            dst.write(src.read().replace("NAND2X1", "NOTANAND"))
        r = run(["--topo", "8x8", "--barrier", "--liberty", nonand])
        check("a liberty without NAND2: exit 2", r.returncode == 2 and "NAND2" in r.stderr)
        # No OpenSTA on PATH: exit 2 naming the Debian package.
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(sys.executable, os.path.join(bindir, "python3"))
        # yosys where the flow finds it: on PATH, or where scripts/setup.sh --synth extracted it (the
        # cache, which the liberty check below empties: there only this PATH can find it).
        for tool, path in (("yosys", synth.find_yosys()), ("dirname", shutil.which("dirname"))):
            if path:
                os.symlink(path, os.path.join(bindir, tool))
        env = dict(os.environ, PATH=bindir)
        r = subprocess.run([shutil.which("bash"), SYNTH, "--topo", "8x8", "--barrier"], capture_output=True, text=True,
                           env=env)
        check("no sta: exit 2 naming opensta", r.returncode == 2 and "opensta" in r.stderr)
        # No liberty installed, none in the cache, and no apt-get to fetch it with: exit 2 naming
        # the Debian package (with apt-get the flow extracts it: scripts/synth.sh --fetch).
        if not os.path.exists(synth.LIB_SYSTEM):
            os.symlink(shutil.which("sta"), os.path.join(bindir, "sta"))
            env = dict(os.environ, PATH=bindir, XDG_CACHE_HOME=os.path.join(tmp, "empty-cache"))
            env.pop("TORX_LIBERTY", None)
            r = subprocess.run([shutil.which("bash"), SYNTH, "--topo", "8x8", "--barrier"], capture_output=True,
                               text=True, env=env)
            check("no liberty and no apt-get: exit 2 naming qflow-tech-osu018",
                  r.returncode == 2 and "qflow-tech-osu018" in r.stderr and "apt-get" in r.stderr)
            r = subprocess.run([shutil.which("bash"), SYNTH, "--topo", "8x8", "--barrier", "--dry-run"],
                               capture_output=True, text=True, env=env)
            check("--dry-run fetches nothing: exit 2 naming qflow-tech-osu018",
                  r.returncode == 2 and "qflow-tech-osu018" in r.stderr and "extracting" not in r.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
