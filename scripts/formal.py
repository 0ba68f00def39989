#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# formal.py: the formal proofs of the router's units (docs/verification.md, "Formal proofs").
#
# SymbiYosys is not packaged on Debian 12, so this script drives the two tools directly: yosys 0.23
# reads a unit (or its harness in testbenches/formal/) with `read_verilog -sv -formal`, which compiles
# the unit's property file (hw/props/*_props.svh: assertions, and the assumptions of a proof under
# FORMAL), flattens it and writes an AIGER file whose outputs are the assertions (assumptions become
# constraints); ABC (yosys-abc) then runs
#   bmc3 -F DEPTH   bounded model checking: no assertion fails in the first DEPTH cycles from reset;
#   pdr             property-directed reachability (IC3): no assertion fails in any reachable state,
#                   an unbounded proof (it subsumes k-induction), or a counterexample;
#   iprove          for a combinational unit (the arbiter): the assertions hold for every input.
# yosys-smtbmc with z3 was the first plan; on this machine z3 4.8 did not finish step 0 of the
# smallest unit (the FIFO) in minutes, and boolector 3.2 refuses yosys-smtbmc's set-option, so the
# SAT-based engines of ABC, which prove each unit here in seconds, do the work.
#
# Usage:
#   scripts/formal.py                   every proof, a table on standard output (exit 1 if one fails)
#   scripts/formal.py --quick           the BMC runs only, at their depths (ctest -L formal)
#   scripts/formal.py --only vc_fifo,barrier
#   scripts/formal.py --markdown        the table as docs/verification.md shows it
#   scripts/formal.py --list            the proofs
# Exit: 0 all pass, 1 a proof fails (the failing assertion's file and line printed), 2 bad usage or a
# missing tool.
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hw")
TB = os.path.join(ROOT, "testbenches", "formal")

# name: (top, sources (hw/ or testbenches/formal/), chparam, defines, BMC depth, unbounded engine,
#        properties proven (docs/verification.md names))
PROOFS = {
    "rr_arbiter": ("torx_rr_arbiter", ["hw/torx_rr_arbiter.sv"], {"NumReq": 5, "IdxW": 3}, [], 1, "iprove",
                   "rr_valid, rr_grant, rr_first"),
    "vc_fifo": ("torx_vc_fifo_fv", ["hw/torx_vc_fifo.sv", "testbenches/formal/torx_vc_fifo_fv.sv"], {}, [], 12, "pdr",
                "fifo_* and FIFO order, no drop, no duplicate (sequence numbers)"),
    "output_unit": ("torx_output_unit_fv", ["hw/torx_output_unit.sv", "testbenches/formal/torx_output_unit_fv.sv"],
                    {"PriorityLevels": 1}, ["TORX_FV_LINK"], 20, "pdr",
                    "ou_* (K = 1) and credit conservation across the link"),
    "output_unit_k2": ("torx_output_unit_fv", ["hw/torx_output_unit.sv", "testbenches/formal/torx_output_unit_fv.sv"],
                       {"PriorityLevels": 2}, ["TORX_FV_LINK"], 20, "pdr",
                       "ou_* with a stack (ou_stack_owner, ou_resume), credit conservation"),
    "output_unit_k3": ("torx_output_unit_fv", ["hw/torx_output_unit.sv", "testbenches/formal/torx_output_unit_fv.sv"],
                       {"PriorityLevels": 3}, ["TORX_FV_LINK"], 20, "pdr",
                       "ou_* with a two-entry stack (depth 0 .. 2), credit conservation"),
    "output_unit_p1": ("torx_output_unit_fv", ["hw/torx_output_unit.sv", "testbenches/formal/torx_output_unit_fv.sv"],
                       {"PriorityLevels": 1, "Pipeline": 1}, ["TORX_FV_LINK"], 20, "pdr",
                       "ou_* at Pipeline 1 (ou_st_reg: the traversal register), credit conservation"),
    "vc_alloc": ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                 {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 2}, [], 12, "pdr",
                 "va_reset, va_requested, va_exclusive, va_fair (9 lanes)"),
    "vc_alloc_k2": ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 1, "PriorityLevels": 2}, [], 12, "pdr",
                    "va_* with two priority levels (preemption)"),
    "vc_alloc_k3": ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 1, "NumClasses": 1, "VcsPerClass": 2, "PriorityLevels": 3}, [], 12, "pdr",
                    "va_* with three levels (not a power of two: the owner-level search), 2 VCs per class"),
    "sw_alloc": ("torx_sw_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_sw_alloc.sv"],
                 {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 1}, [], 12, "pdr",
                 "sa_reset, sa_requested, sa_exclusive, sa_fair (3 ports)"),
    "sw_alloc_k2": ("torx_sw_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_sw_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 1, "PriorityLevels": 2}, [], 12, "pdr",
                    "sa_* with two priority levels"),
    "sw_alloc_l2": ("torx_sw_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_sw_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 2, "NumClasses": 2, "VcsPerClass": 1}, [], 12, "pdr",
                    "sa_* with two local ports (a one-lane port that is not the last)"),
    "sw_alloc_la": ("torx_sw_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_sw_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 1, "Pipeline": 1}, [], 12, "pdr",
                    "sa_* in the lookahead organization (speculative offers, cancelled grants)"),
    "barrier": ("torx_barrier", ["hw/torx_cfg_loader.sv", "hw/torx_barrier.sv"], {"NumDims": 2}, [], 12, "pdr",
                "bar_reset, bar_after_all, bar_complete, bar_release"),
    # Planted faults, the hand-written mutants (testbenches/rtl/mutants/, MUTANT_PATCHES below): each
    # must make its proof fail (--expect-fail).
    "sw_alloc_m3": ("torx_sw_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_sw_alloc.sv"],
                    {"NumDims": 1, "NumLocal": 1, "NumClasses": 2, "VcsPerClass": 1}, [], 12, "pdr",
                    "mutant 3 (sa_out_rr_q does not move): sa_fair must fail"),
    "output_unit_m5": ("torx_output_unit_fv", ["hw/torx_output_unit.sv", "testbenches/formal/torx_output_unit_fv.sv"],
                       {"PriorityLevels": 2}, ["TORX_FV_LINK"], 12, "pdr",
                       "mutant 5 (a tail frees a preempted VC): ou_stack_owner / ou_resume must fail"),
}
# The proofs of a hand-written mutant: its patch of hw/ (testbenches/rtl/mutants/NAME.patch, the one
# `torx cosim --mutant N` builds) applied to copies of the proof's sources.
MUTANT_PATCHES = {"sw_alloc_m3": "router_m3", "output_unit_m5": "router_m5"}
MUTANTS = os.path.join(ROOT, "testbenches", "rtl", "mutants")
# Proofs that do not hold with today's harness, run only by name (docs/verification.md, "Formal proofs").
OPEN = {"output_unit_k3"}
# The planted faults and the open proofs are not part of the default run.
DEFAULT = [n for n in PROOFS if not re.search(r"_m\d+$", n) and n not in OPEN]

# (No `opt -fast` between techmap and abc: ABC's own AIG optimization does that work, and the pass was
# a third of yosys's CPU time on the VC allocator, 17 s -> 11 s user for vc_alloc_k2.)
YOSYS_FLOW = ("prep -top {top}; flatten; memory_map; opt -full; async2sync; dffunmap; techmap; "
              "abc -fast -g AND; opt_clean; setundef -anyseq; opt -keepdc -fast; dffunmap; "
              "delete -output; opt_clean; write_aiger -I -B -zinit -map {aim} {aig}")


def need(tool):
    if shutil.which(tool) is None:
        sys.stderr.write(f"formal.py: {tool} not found (apt-get install yosys)\n")
        sys.exit(2)




def run_cpu(cmd, timeout=None, cwd=None):
    """subprocess.run with the child's CPU seconds (user + system, by /usr/bin/time when installed, else
    0): the cost of a proof or a mutant is measured in CPU time, not wall time, on a shared machine.
    The child runs in its own process group, killed whole on a timeout. Returns (CompletedProcess, cpu
    seconds); raises subprocess.TimeoutExpired."""
    timer = os.path.exists("/usr/bin/time")
    fd, tfile = tempfile.mkstemp(prefix="torx-cpu-")
    os.close(fd)
    full = (["/usr/bin/time", "-o", tfile, "-f", "%U %S"] if timer else []) + cmd
    try:
        p = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise
        cpu = 0.0
        if timer:
            try:
                u, s_ = open(tfile).read().split()[-2:]
                cpu = float(u) + float(s_)
            except (ValueError, OSError):
                pass
        return subprocess.CompletedProcess(cmd, p.returncode, out, err), cpu
    finally:
        os.unlink(tfile)


def apply_patch(patch, files, out_dir):
    """Applies a mutant's patch (a unified diff of hw/, as hw/rtl_cache.cpp applies it: each hunk's old
    lines must occur exactly once in its file; line numbers are not used) to copies of `files` (paths
    relative to ROOT, under hw/) in out_dir (at their path under hw/); returns {path: patched copy}
    for the files it changed."""
    hunks, fname, in_hunk = [], None, False
    for line in open(patch).read().split("\n"):
        if line.startswith("+++ "):
            f = line[4:].split("\t")[0]
            fname, in_hunk = (f[f.index("hw/") + 3:] if "hw/" in f else os.path.basename(f)), False
        elif line.startswith("--- "):
            in_hunk = False
        elif line.startswith("@@"):
            hunks.append([fname, "", ""])
            in_hunk = True
        elif in_hunk and line[:1] in (" ", "-", "+"):
            if line[0] != "+":
                hunks[-1][1] += line[1:] + "\n"
            if line[0] != "-":
                hunks[-1][2] += line[1:] + "\n"
        elif not line.startswith("\\"):
            in_hunk = False
    by_name = {os.path.relpath(f, "hw"): f for f in files}
    out = {}
    for i, (fn, old, new) in enumerate(hunks):
        if fn not in by_name:
            continue   # a hunk of a file this proof does not read
        src = out.get(by_name[fn], os.path.join(ROOT, by_name[fn]))
        text = open(src).read()
        if text.count(old) != 1:
            raise RuntimeError(f"{os.path.basename(patch)}: hunk {i + 1} matches {text.count(old)} times in {fn}")
        dst = os.path.join(out_dir, fn)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w") as f:
            f.write(text.replace(old, new))
        out[by_name[fn]] = dst
    if not out:
        raise RuntimeError(f"{os.path.basename(patch)} changes none of {', '.join(files)}")
    return out


def build_aiger(work, name, top, files, chparam, defines, subst=None):
    """Writes work/name.aig; `subst` maps a source path to a replacement file (a mutant)."""
    paths = []
    for f in files:
        paths.append((subst or {}).get(f, os.path.join(ROOT, f)))
    defs = " ".join(f"-D{d}" for d in defines)
    chp = ""
    if chparam:
        chp = "chparam " + " ".join(f"-set {k} {v}" for k, v in chparam.items()) + f" {top}; "
    aig = os.path.join(work, name + ".aig")
    aim = os.path.join(work, name + ".aim")
    script = (f"read_verilog -sv -formal -DSYNTHESIS {defs} -I{HW} " + " ".join(paths) + "; " + chp +
              YOSYS_FLOW.format(top=top, aim=aim, aig=aig))
    r, cpu = run_cpu(["yosys", "-q", "-p", script], cwd=work)
    if r.returncode != 0 or not os.path.exists(aig):
        return None, {"detail": (r.stdout + r.stderr).strip().splitlines()[-1:] or ["yosys failed"], "cpu": cpu}
    # The AIGER header "aig M I L O A B C ...": B bad-state properties (the assertions), C constraints.
    with open(aig, "rb") as f:
        header = f.readline().decode(errors="replace").split()
    return aig, {"asserts": int(header[6]) if len(header) > 6 else 0,
                 "assumes": int(header[7]) if len(header) > 7 else 0, "cpu": cpu}


def run_abc(aig, cmd, timeout):
    t0 = time.monotonic()
    try:
        r, cpu = run_cpu(["yosys-abc", "-c", f"read_aiger {aig}; {cmd}"], timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, "", 0.0
    out = r.stdout
    dt = time.monotonic() - t0
    if "Property proved" in out or "UNSATISFIABLE" in out or "Networks are equivalent" in out:
        return "proven", dt, out, cpu
    m = re.search(r"Output (\d+) of miter .* was asserted in frame (\d+)", out)
    if m:
        return f"fails (output {m.group(1)}, cycle {m.group(2)})", dt, out, cpu
    if "SATISFIABLE" in out:
        m = re.search(r"output = (\d+)", out)
        return f"fails (output {m.group(1) if m else '?'})", dt, out, cpu
    if "No output asserted in" in out:
        m = re.search(r"No output asserted in (\d+) frames", out)
        return f"holds to depth {m.group(1)}", dt, out, cpu
    return "unknown", dt, out, cpu


def prove(name, quick, work, subst=None, timeout=300, depth=None):
    """Runs one proof; returns a dict with the results (status 'pass' / 'fail' / 'error')."""
    top, files, chparam, defines, bmc_depth, engine, props = PROOFS[name]
    depth = depth or bmc_depth
    t0 = time.monotonic()
    if name in MUTANT_PATCHES:
        pdir = os.path.join(work, name + "-src")
        os.makedirs(pdir, exist_ok=True)
        subst = dict(subst or {}, **apply_patch(os.path.join(MUTANTS, MUTANT_PATCHES[name] + ".patch"), files, pdir))
    aig, asserts = build_aiger(work, name, top, files, chparam, defines, subst)
    res = {"name": name, "top": top, "config": " ".join(f"{k}={v}" for k, v in chparam.items()),
           "props": props, "depth": depth, "engine": engine}
    if aig is None:
        res.update(status="error", detail=" ".join(asserts["detail"]), cpu_s=asserts["cpu"], bmc="", bmc_s=0.0, full="", full_s=0.0, asserts=0,
                   build_s=time.monotonic() - t0)
        return res
    res["asserts"] = asserts["asserts"]
    res["assumes"] = asserts["assumes"]
    res["build_s"] = time.monotonic() - t0
    res["cpu_s"] = asserts["cpu"]   # yosys, then each ABC run's CPU seconds added
    if engine == "iprove":
        st, dt, _, cpu = run_abc(aig, "iprove", timeout)
        res["cpu_s"] += cpu
        res.update(bmc=st, bmc_s=dt, full=st, full_s=dt)
    else:
        st, dt, _, cpu = run_abc(aig, f"fold; bmc3 -F {depth}", timeout)
        res["cpu_s"] += cpu
        res.update(bmc=st, bmc_s=dt)
        if quick or st.startswith("fails"):
            res.update(full="", full_s=0.0)
        else:
            st2, dt2, _, cpu = run_abc(aig, "fold; pdr", timeout)
            res["cpu_s"] += cpu
            res.update(full=st2, full_s=dt2)
    failed = res["bmc"].startswith("fails") or res["full"].startswith("fails")
    res["status"] = "fail" if failed else "pass"
    return res


def main():
    ap = argparse.ArgumentParser(description="formal proofs of the router's units (yosys + ABC)")
    ap.add_argument("--quick", action="store_true", help="BMC only (ctest -L formal)")
    ap.add_argument("--only", default="", help="comma-separated proof names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--names", action="store_true", help="the default proofs' names, one a line (ctest)")
    ap.add_argument("--markdown", action="store_true", help="the table in docs/verification.md's format")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per engine run (300)")
    ap.add_argument("--expect-fail", action="store_true",
                    help="exit 0 only if every selected proof fails (planted faults)")
    a = ap.parse_args()
    if a.names:
        print("\n".join(DEFAULT))
        return 0
    if a.list:
        for n, p in PROOFS.items():
            print(f"{n:16} {p[0]:22} BMC {p[4]:3} + {p[5]:6}  {p[6]}")
        return 0
    need("yosys")
    need("yosys-abc")
    names = [n for n in a.only.split(",") if n] or DEFAULT
    for n in names:
        if n not in PROOFS:
            sys.stderr.write(f"formal.py: no proof named {n!r} (--list)\n")
            return 2
    work = tempfile.mkdtemp(prefix="torx-formal-")
    bad = 0
    if a.markdown:
        print("| unit (proof) | configuration | properties | assertions | BMC depth: result | time | unbounded (ABC pdr / iprove) | time |")
        print("|---|---|---|---|---|---|---|---|")
    for n in names:
        r = prove(n, a.quick, work, timeout=a.timeout)
        if r["status"] != ("fail" if a.expect_fail else "pass"):
            bad += 1
        if a.markdown:
            print(f"| `{r['top']}` ({n}) | {r['config'] or 'default'} | {r['props']} | {r.get('asserts', '-')} | "
                  f"{r['depth']}: {r['bmc']} | {r['bmc_s']:.1f} s | {r['full'] or '-'} | "
                  f"{r['full_s']:.1f} s |")
        else:
            print(f"{n:16} {r['status']:5} bmc {r['depth']:3}: {r['bmc']:28} {r['bmc_s']:6.1f} s   "
                  f"{r['engine']}: {r['full'] or '-':28} {r['full_s']:6.1f} s   (yosys {r['build_s']:.1f} s, {r.get('cpu_s', 0):.1f} s CPU, "
                  f"{r.get('asserts', '?')} assertions) {r.get('detail', '')}")
        sys.stdout.flush()
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
