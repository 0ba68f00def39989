#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# mutate.py: mutation testing of the router's units against their properties (docs/verification.md,
# "Mutation testing").
#
# Generates mutants of hw/*.sv systematically, one textual change each, over the logic of the units
# that have a formal proof (scripts/formal.py): the round-robin arbiter, the VC FIFO, the output
# unit, the VC and switch allocators and the barrier unit. Operators, applied to every site of the
# unit's logic (comments, the simulation-only `ifndef SYNTHESIS` blocks and the property include are
# left alone):
#   rel     a relational operator replaced (== and !=, < and <=, > and >=)
#   logic   && and || swapped
#   not     a logical negation dropped
#   const   a one-bit or fill constant flipped ('0 and '1, 1'b0 and 1'b1), which covers reset values
#   obo     an off-by-one: + 1 / - 1 / + W'(1) / - W'(1) in an expression becomes 2
#   arith   + and - swapped in a counter update
# Each mutant is written into a scratch directory (never into hw/), and the unit's proofs run on it
# (yosys + ABC: BMC at the proof's depth, then the unbounded pdr if BMC finds nothing). A mutant is
# killed when a proof fails; it survives when every proof passes; it is invalid when yosys refuses it
# (left out of the rate). The kill criterion is the property checks alone: the same properties are
# compiled into every Verilated model, so a mutant the proofs kill also stops a simulation that
# reaches the failing state (docs/verification.md).
#
# Usage:
#   scripts/mutate.py --list                      the mutants (id, unit, operator, line, change)
#   nice -n 19 scripts/mutate.py --json m.json    all of them (-j 2 by default), a table at the end
#   scripts/mutate.py --only output_unit:3,barrier:0
#   scripts/mutate.py --report m.json r.json      the table of finished runs (a later file's result of
#                                                 a mutant replaces an earlier one: a re-run)
#   nice -n 5 scripts/mutate.py --cosim --only output_unit:29 --json c.json
#                                                 the second stage: a fixed budget of `torx cosim`
# The co-simulation stage (--cosim) reaches what the proofs' configurations do not (the output
# unit's stack at K >= 3, the VC allocator with three VCs per class): it copies the staged RTL kit
# (build/share/torx/rtl), writes the mutant into the copy's sv/, and runs `torx cosim` with
# TORX_RTL_KIT at the copy (the model key covers the SV content, so the mutant builds its own
# model, in a cache directory of its own under /tmp unless --cosim-cache) on the unit's shape
# (COSIM_SHAPES) for --cosim-cycles cycles from --cosim-seed. Killed: exit 1 (a register or output
# mismatch or a failed check) or exit 4 (an RTL property's assertion), the reason recorded;
# survived: exit 0; invalid: the model does not build; anything else is an error. A mutant the
# stage does not kill keeps its formal result (--report: a cosim record replaces an earlier one only
# when it killed a mutant the proofs did not kill).
# --cosim --unmutated runs the same budget on the kit as staged (the control: no mismatch).
# Exit: 0 done (whatever the rate), 2 bad usage or a missing tool.
import argparse
import concurrent.futures
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import formal  # noqa: E402

ROOT = formal.ROOT

# unit: (source file, the proofs that check it)
UNITS = {
    "rr_arbiter": ("hw/torx_rr_arbiter.sv", ["rr_arbiter"]),
    "vc_fifo": ("hw/torx_vc_fifo.sv", ["vc_fifo"]),
    "output_unit": ("hw/torx_output_unit.sv", ["output_unit", "output_unit_k2", "output_unit_p1"]),
    "vc_alloc": ("hw/torx_vc_alloc.sv", ["vc_alloc_m", "vc_alloc_k2_m", "vc_alloc_k2_v2", "vc_alloc_k2"]),
    "sw_alloc": ("hw/torx_sw_alloc.sv", ["sw_alloc", "sw_alloc_la", "sw_alloc_k2", "sw_alloc_l2"]),
    "barrier": ("hw/torx_barrier.sv", ["barrier"]),
}

# A smaller VC allocator for the mutants (one class, two VCs: 5 lanes), so yosys reads it in seconds.
formal.PROOFS["vc_alloc_m"] = ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                               {"NumDims": 1, "NumLocal": 1, "NumClasses": 1, "VcsPerClass": 2}, [], 12, "pdr",
                               "va_* (5 lanes)")
# The proofs of a mutant run cheapest first and stop at the first that fails (a kill in any
# configuration is a kill); the larger configuration runs only on what the small ones do not kill.
# One class, one VC, two levels (6 lanes): yosys 5 s of CPU instead of 11 s for vc_alloc_k2.
formal.PROOFS["vc_alloc_k2_m"] = ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                                  {"NumDims": 1, "NumLocal": 1, "NumClasses": 1, "VcsPerClass": 1,
                                   "PriorityLevels": 2}, [], 12, "pdr", "va_* with two levels (6 lanes)")
# Three levels (not a power of two: the owner-level search), one class, one VC (9 lanes); the proof
# vc_alloc_k3 (two VCs, 15 lanes) costs 75 s of CPU in yosys alone.
formal.PROOFS["vc_alloc_k3_m"] = ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                                  {"NumDims": 1, "NumLocal": 1, "NumClasses": 1, "VcsPerClass": 1,
                                   "PriorityLevels": 3}, [], 12, "pdr", "va_* with three levels (9 lanes)")
# Two VCs per class with two levels (10 lanes): the choice among victims by their owners' levels.
formal.PROOFS["vc_alloc_k2_v2"] = ("torx_vc_alloc", ["hw/torx_rr_arbiter.sv", "hw/torx_vc_alloc.sv"],
                                   {"NumDims": 1, "NumLocal": 1, "NumClasses": 1, "VcsPerClass": 2,
                                    "PriorityLevels": 2}, [], 12, "pdr", "va_* with two levels, 2 VCs (10 lanes)")

OPERATORS = [
    ("rel", r"(?<![=!<>])==(?!=)", "!="),
    ("rel", r"!=", "=="),
    ("rel", r"(?<=\s)<(?=\s)", "<="),
    ("rel", r"(?<=\s)>(?=\s)", ">="),
    ("rel", r"(?<=\s)>=(?=\s)", ">"),
    ("logic", r"&&", "||"),
    ("logic", r"\|\|", "&&"),
    ("not", r"!(?=[A-Za-z_(])", ""),
    ("const", r"(?<![\w'])'0\b", "'1"),
    ("const", r"(?<![\w'])'1\b", "'0"),
    ("const", r"1'b0", "1'b1"),
    ("const", r"1'b1", "1'b0"),
    ("obo", r"(?<=[+-] )1(?![\w'])", "2"),
    ("obo", r"(?<=\w'\()1(?=\))", "2"),
    ("arith", r"(?<=\w) \+ (?=\w)", " - "),
    ("arith", r"(?<=\w) - (?=\w)", " + "),
]


def logic_lines(text):
    """Indices of the lines that hold the unit's logic: not comments, not simulation-only blocks,
    not declarations of parameters or ports, not the property include, not a loop's header (its
    bounds: one past a vector's end only drops a write or reads X, equivalent by construction). (The
    hand-written mutants are patches outside hw/, testbenches/rtl/mutants/.)"""
    lines = text.split("\n")
    keep = []
    in_module = False
    skip_depth = 0
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("module "):
            in_module = True
        if not in_module:
            continue
        code = s.split("//")[0]
        if re.match(r"for \(", code):
            continue
        if s.startswith("`ifndef SYNTHESIS") or s.startswith("`ifdef SYNTHESIS"):
            skip_depth += 1
            continue
        if skip_depth:
            if s.startswith("`ifdef") or s.startswith("`ifndef"):
                skip_depth += 1
            elif s.startswith("`endif"):
                skip_depth -= 1
            continue
        if (not s or s.startswith("//") or s.startswith("`") or s.startswith("parameter") or
                s.startswith("localparam") or s.startswith("input") or s.startswith("output") or
                s.startswith("module") or s.startswith(")") or "$fatal" in s):
            continue
        keep.append(i)
    return lines, keep


def key(m):
    """A mutant's identity across runs and edits elsewhere in the file: unit, original line, mutated
    line and which of several identical such pairs in the unit (the id and line number change when
    lines are excluded or added)."""
    return (m["unit"], m["old"], m["new"], m.get("nth", 0))


def mutants():
    """Every mutant: (id 'unit:n', unit, operator, line number, original line, mutated line)."""
    out = []
    for unit, (path, _) in UNITS.items():
        text = open(os.path.join(ROOT, path)).read()
        lines, keep = logic_lines(text)
        n = 0
        for i in keep:
            code = lines[i].split("//")[0]
            for op, pat, rep in OPERATORS:
                for m in re.finditer(pat, code):
                    new = code[:m.start()] + rep + code[m.end():]
                    rest = lines[i][len(code):]
                    mut = {"id": f"{unit}:{n}", "unit": unit, "op": op, "line": i + 1,
                           "old": lines[i].strip(), "new": (new + rest).strip(), "_new_line": new + rest}
                    mut["nth"] = sum(1 for o in out if key(o)[:3] == key(mut)[:3])
                    out.append(mut)
                    n += 1
    return out


def run_one(mut, timeout, only_proofs=None):
    path, proofs = UNITS[mut["unit"]]
    proofs = only_proofs or proofs
    work = tempfile.mkdtemp(prefix="torx-mutant-")
    try:
        lines = open(os.path.join(ROOT, path)).read().split("\n")
        lines[mut["line"] - 1] = mut["_new_line"]
        mfile = os.path.join(work, os.path.basename(path))
        with open(mfile, "w") as f:
            f.write("\n".join(lines))
        t0 = time.monotonic()
        verdict, by, cpu = "survived", [], 0.0
        for p in proofs:
            r = formal.prove(p, False, work, subst={path: mfile}, timeout=timeout)
            cpu += r.get("cpu_s", 0.0)
            if r["status"] == "error":
                verdict = "invalid"
                by = [r.get("detail", "")]
                break
            if r["status"] == "fail":
                verdict = "killed"
                by.append(f"{p}: {r['bmc'] if r['bmc'].startswith('fails') else 'pdr ' + r['full']}")
                break
        res = {k: v for k, v in mut.items() if not k.startswith("_")}
        res.update(verdict=verdict, by=by, seconds=round(time.monotonic() - t0, 1), cpu_s=round(cpu, 1))
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


# The co-simulation stage's shape per unit: `torx cosim` options that elaborate the mutated logic (the
# output unit's preemption stack needs K >= 3 levels; the VC allocator's owner-level search needs K not
# a power of two, with more than one class and VC, and its VC pointer V >= 3). Random traffic without
# barrier episodes, so every cycle carries worms.
COSIM_SHAPES = {
    "output_unit": ["--topo", "4x4", "--param", "priority_levels=4", "--load", "0.6", "--barrier-every", "0"],
    "vc_alloc": ["--topo", "4x4", "--param", "vcs_per_class=3", "--param", "priority_levels=3",
                 "--load", "0.6", "--barrier-every", "0"],
}


def kit_dir(torx):
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(torx)), "..", "share", "torx", "rtl"))


def cosim_verdict(rc, err):
    """The stage's verdict from torx cosim's exit code and output (stdout and stderr): (verdict, reason). A model that
    does not build (Verilator or the compiler refuses the mutant) is invalid, whatever the exit code."""
    lines = [l for l in err.splitlines() if l.strip() and not l.startswith("[torx rtl]")]
    reason = lines[-1].strip() if lines else f"exit {rc}"
    if re.search(r"building the RTL model \S+ failed", err):
        return "invalid", reason
    if rc == 0:
        return "survived", "no mismatch"
    if rc == 1:   # a register or output mismatch, or a failed delivery check
        return "killed", reason
    if rc == 4:   # an RTL property's assertion (docs/verification.md, "Properties")
        fired = [l.strip() for l in lines if re.search(r"[Aa]ssert|property", l)]
        return "killed", "property: " + (fired[0] if fired else reason)
    return "error", f"exit {rc}: {reason}"


def run_cosim(mut, a):
    """One mutant (or the unmutated kit when mut is None) through a fixed budget of `torx cosim`."""
    unit = mut["unit"] if mut else a.unmutated
    shape = COSIM_SHAPES[unit]
    work = tempfile.mkdtemp(prefix="torx-cosim-mutant-")
    try:
        kit = os.path.join(work, "kit")
        shutil.copytree(kit_dir(a.torx), kit, symlinks=True)
        if mut:
            path = UNITS[unit][0]
            src = os.path.join(kit, "sv", os.path.basename(path))
            lines = open(src).read().split("\n")
            if lines != open(os.path.join(ROOT, path)).read().split("\n"):
                raise RuntimeError(f"the kit's {os.path.basename(path)} is not {path}: rebuild torx_rtl_kit")
            lines[mut["line"] - 1] = mut["_new_line"]
            with open(src, "w") as f:
                f.write("\n".join(lines))
        env = dict(os.environ, TORX_RTL_KIT=kit,
                   TORX_RTL_CACHE=a.cosim_cache or os.path.join(work, "cache"))
        seeds = [int(x) for x in str(a.cosim_seed).split(",")]
        t0 = time.monotonic()
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        totals = {"cycles": 0, "compared": 0, "flits": 0, "preemptions": 0, "output_vcs_nested": 0}
        for seed in seeds:   # one model (the first run builds it into the cache), the seeds in turn
            cmd = [a.torx, "cosim", *shape, "--cycles", str(a.cosim_cycles), "--seed", str(seed),
                   "--json", os.path.join(work, "cosim.json")]
            if os.path.exists(cmd[-1]):
                os.remove(cmd[-1])
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            try:
                err, _ = p.communicate(timeout=a.timeout * 10)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                p.kill()
                err, _ = p.communicate()
                rc, err = -1, err + "\ntimed out"
            doc = {}
            try:
                doc = json.load(open(cmd[-1]))
            except (OSError, ValueError):
                pass
            cov = doc.get("coverage") or {}
            for k2, v2 in (("cycles", doc.get("cycles")), ("compared", doc.get("compared")), ("flits", doc.get("flits")),
                           ("preemptions", cov.get("preemptions")), ("output_vcs_nested", cov.get("output_vcs_nested"))):
                totals[k2] += v2 or 0
            verdict, reason = cosim_verdict(rc, err)
            if verdict == "killed" and doc.get("first_mismatch"):   # the register or wire that differed
                reason = "mismatch: " + doc["first_mismatch"].get("text", json.dumps(doc["first_mismatch"]))
            if verdict != "survived":
                break
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)   # the stage runs one mutant at a time
        cpu = (ru.ru_utime + ru.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
        res = {k: v for k, v in (mut or {"id": "unmutated", "unit": unit, "op": "-", "line": 0,
                                         "old": "-", "new": "-"}).items() if not k.startswith("_")}
        res.update(verdict=verdict, by=[f"cosim: seed {seed}: {reason}"] if verdict == "killed" else [],
                   stage="cosim", reason=reason if len(seeds) == 1 or verdict == "survived" else f"seed {seed}: {reason}",
                   exit=rc, budget={"shape": " ".join(shape), "cycles": a.cosim_cycles,
                                    "seed": seeds[0] if len(seeds) == 1 else ",".join(map(str, seeds))},
                   seeds_run=seeds.index(seed) + 1, cycles=totals["cycles"], compared_router_cycles=totals["compared"],
                   flits=totals["flits"], preemptions=totals["preemptions"],
                   output_vcs_nested=totals["output_vcs_nested"],
                   seconds=round(time.monotonic() - t0, 1), cpu_s=round(cpu, 1),
                   command="TORX_RTL_KIT=KIT " + " ".join([os.path.relpath(a.torx, ROOT)] + cmd[1:-4]) +
                           " --seed " + ",".join(map(str, seeds)))
        return res
    finally:
        shutil.rmtree(work, ignore_errors=True)


def merge(by_key, r):
    """A later result of a mutant replaces an earlier one, except a co-simulation that did not kill it or
    that ran on a mutant the proofs killed: the mutant keeps its formal result, with the co-simulation's
    noted."""
    k = key(r)
    if r.get("stage") == "cosim" and k in by_key and (r["verdict"] != "killed" or by_key[k]["verdict"] == "killed"):
        by_key[k] = dict(by_key[k], cosim=f"{r['verdict']}: {r.get('reason', '')} ({r['budget']['shape']}, "
                                       f"{r['budget']['cycles']} cycles, seed {r['budget']['seed']})")
    else:
        by_key[k] = r


def report(results, out=sys.stdout):
    valid = [r for r in results if r["verdict"] != "invalid"]
    killed = [r for r in valid if r["verdict"] == "killed"]
    out.write("| unit | mutants | invalid | killed | survived | kill rate |\n|---|---|---|---|---|---|\n")
    for unit in UNITS:
        rs = [r for r in results if r["unit"] == unit]
        if not rs:
            continue
        v = [r for r in rs if r["verdict"] != "invalid"]
        k = [r for r in v if r["verdict"] == "killed"]
        out.write(f"| {unit} | {len(rs)} | {len(rs) - len(v)} | {len(k)} | {len(v) - len(k)} | "
                  f"{100.0 * len(k) / len(v) if v else 0:.1f} % |\n")
    out.write(f"| all | {len(results)} | {len(results) - len(valid)} | {len(killed)} | {len(valid) - len(killed)} | "
              f"{100.0 * len(killed) / len(valid) if valid else 0:.1f} % |\n")
    surv = [r for r in valid if r["verdict"] == "survived"]
    if surv:
        cos = any("cosim" in r for r in surv)   # the co-simulation stage ran on a survivor: say what it saw
        out.write("\nSurvivors:\n\n| mutant | operator | line | original | mutated |" + (" co-simulation |" if cos else "") +
                  "\n|---|---|---|---|---|" + ("---|" if cos else "") + "\n")
        for r in surv:
            esc = lambda t: t.replace("|", "\\|")   # a table cell: || in the code
            out.write(f"| {r['id']} | {r['op']} | {r['line']} | `{esc(r['old'])}` | `{esc(r['new'])}` |" +
                      (f" {r.get('cosim', 'not run')} |" if cos else "") + "\n")
    ck = [r for r in killed if r.get("stage") == "cosim"]
    if ck:
        out.write(f"\nKilled by the co-simulation stage ({len(ck)}):\n\n| mutant | budget | reason | CPU s |\n|---|---|---|---|\n")
        for r in ck:
            b = r["budget"]
            out.write(f"| {r['id']} | `{b['shape']} --cycles {b['cycles']} --seed {b['seed']}` | {r['reason']} | {r['cpu_s']} |\n")


def cosim_main(a, ms):
    if not re.fullmatch(r"\d+(,\d+)*", str(a.cosim_seed)) or a.cosim_cycles < 1:
        sys.stderr.write(f"mutate.py: --cosim-seed wants S or S1,S2,... and --cosim-cycles a positive count\n")
        return 2
    if not os.access(a.torx, os.X_OK):
        sys.stderr.write(f"mutate.py: no torx at {a.torx} (--torx)\n")
        return 2
    if not os.path.isdir(os.path.join(kit_dir(a.torx), "sv")):
        sys.stderr.write(f"mutate.py: no RTL kit at {kit_dir(a.torx)} (build the target torx_rtl_kit)\n")
        return 2
    if a.unmutated:
        if a.unmutated not in COSIM_SHAPES:
            sys.stderr.write(f"mutate.py: no co-simulation shape for {a.unmutated!r} ({', '.join(COSIM_SHAPES)})\n")
            return 2
        todo = [None]
    else:
        if ms is None:
            sys.stderr.write("mutate.py: --cosim needs --only or --rerun-survivors (a Verilated build per mutant)\n")
            return 2
        todo = [m for m in ms if m["unit"] in COSIM_SHAPES]
        if len(todo) != len(ms):
            sys.stderr.write(f"mutate.py: no co-simulation shape for {sorted({m['unit'] for m in ms} - set(COSIM_SHAPES))}\n")
            return 2
    results = []
    for m in todo:   # one at a time: each runs a Verilated build of its own with two compiler jobs
        r = run_cosim(m, a)
        results.append(r)
        print(f"{r['id']:16} {r['verdict']:8} {r['seconds']:6.1f} s {r['cpu_s']:6.1f} s CPU  {r['old']}  ->  {r['new']}  "
              f"{r['reason']}", flush=True)
        if a.json:
            with open(a.json, "w") as out:
                json.dump(results, out, indent=1)
    return 0


def main():
    ap = argparse.ArgumentParser(description="mutation testing of the units against their properties")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", default="", help="comma-separated mutant ids or unit names")
    ap.add_argument("--json", default="", help="write the results here (rewritten after every mutant)")
    ap.add_argument("--report", nargs="*", help="print the table of finished runs")
    ap.add_argument("--pending", action="store_true", help="with --report: the ids of the mutants not run yet")
    ap.add_argument("--rerun-survivors", nargs="*", default=None,
                    help="run again the survivors of these result files (after a property was added)")
    ap.add_argument("--proofs", default="",
                    help="comma-separated proofs to run instead of the unit's (e.g. vc_alloc_k3_m for the "
                         "VC allocator's owner-level search, elaborated only with a level count that is not "
                         "a power of two)")
    ap.add_argument("--cosim", action="store_true",
                    help="the co-simulation stage: a fixed budget of torx cosim on each mutant (-j 1)")
    ap.add_argument("--unmutated", default="", metavar="UNIT",
                    help="with --cosim: run the budget of UNIT's shape on the kit as staged (the control)")
    ap.add_argument("--torx", default=os.path.join(ROOT, "build", "bin", "torx"), help="with --cosim (build/bin/torx)")
    ap.add_argument("--cosim-cycles", type=int, default=3000, help="with --cosim: cycles of traffic (3000)")
    ap.add_argument("--cosim-seed", default="1",
                    help="with --cosim: the traffic's seed, or seeds S1,S2,... run in turn on the one model until "
                         "one kills (1)")
    ap.add_argument("--cosim-cache", default="",
                    help="with --cosim: the RTL cache (default: one of its own per mutant, removed after)")
    ap.add_argument("-j", type=int, default=2, help="parallel mutants (2)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per engine run (120)")
    a = ap.parse_args()
    if a.report:
        # A later file's result of a mutant replaces an earlier one (a re-run); results are matched to
        # today's mutants by key(), so a mutant no longer generated (an excluded line) is left out.
        current = {key(m): m for m in mutants()}
        by_key = {}
        for f in a.report:
            seen = {}
            for r in sorted(json.load(open(f)), key=lambda x: x["line"]):
                if "nth" not in r:   # runs before "nth" existed: the order of the lines
                    r["nth"] = seen.get(key(r)[:3], 0)
                    seen[key(r)[:3]] = r["nth"] + 1
                if key(r) in current:
                    r = dict(r, id=current[key(r)]["id"], line=current[key(r)]["line"])
                    merge(by_key, r)
        results = sorted(by_key.values(), key=lambda x: (list(UNITS).index(x["unit"]), int(x["id"].split(":")[1])))
        report(results)
        if a.pending:
            done = set(by_key)
            print("\npending: " + ",".join(m["id"] for m in current.values() if key(m) not in done))
        return 0
    ms = mutants()
    if a.rerun_survivors is not None:
        surv = set()
        for f in a.rerun_survivors:
            for r in json.load(open(f)):
                if r["verdict"] == "survived":
                    surv.add(key(r))
                elif key(r) in surv:
                    surv.discard(key(r))
        ms = [m for m in ms if key(m) in surv]
    if a.only:
        want = set(a.only.split(","))
        ms = [m for m in ms if m["id"] in want or m["unit"] in want]
        if not ms:
            sys.stderr.write(f"mutate.py: no mutant matches {a.only!r} (--list)\n")
            return 2
    if a.list:
        for m in ms:
            print(f"{m['id']:16} {m['op']:6} {UNITS[m['unit']][0]}:{m['line']}: {m['old']}  ->  {m['new']}")
        print(f"{len(ms)} mutants")
        return 0
    if a.cosim:
        return cosim_main(a, ms if (a.only or a.rerun_survivors is not None) else None)
    formal.need("yosys")
    formal.need("yosys-abc")
    results = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        only = [p for p in a.proofs.split(",") if p]
        for p in only:
            if p not in formal.PROOFS:
                sys.stderr.write(f"mutate.py: no proof named {p!r}\n")
                return 2
        futs = {ex.submit(run_one, m, a.timeout, only): m for m in ms}
        for f in concurrent.futures.as_completed(futs):
            r = f.result()
            results.append(r)
            print(f"{r['id']:16} {r['verdict']:8} {r['seconds']:6.1f} s {r['cpu_s']:6.1f} s CPU  {r['old']}  ->  {r['new']}  "
                  f"{'; '.join(r['by'])}", flush=True)
            if a.json:
                results.sort(key=lambda x: (list(UNITS).index(x["unit"]), int(x["id"].split(":")[1])))
                with open(a.json, "w") as out:
                    json.dump(results, out, indent=1)
    results.sort(key=lambda x: (list(UNITS).index(x["unit"]), int(x["id"].split(":")[1])))
    print(f"\n{len(results)} mutants in {time.monotonic() - t0:.0f} s\n")
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
