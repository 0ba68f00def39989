#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Renders the studies' documents from their CSV files, and fails when a document and its CSV disagree.

docs/priority.md, docs/sync-study.md and docs/gossip.md quote three studies (scripts/priority_study.py,
sync_study.py with sync_signals_study.py, gossip_hw_study.py). Every figure those documents give for a
study, and every figure behind a comparative sentence, is rendered here from the study's CSV in
docs/priority-study/, docs/sync-study/ and docs/gossip-hw/: the tables and the findings, between
`<!-- NAME:begin -->` and `<!-- NAME:end -->` markers (scripts/doc_tables.py). The hardware costs come
from the area data: docs/area/area.json when scripts/synth.sh has written it (torx.area schema), else
docs/area-figures.csv (the generic-cell figures of docs/area.md, copied). A finding that states a
direction ("faster", "in every case") is guarded by a claim: when a new CSV contradicts it, rendering
stops and names the sentence, so the prose is rewritten rather than left wrong.

  scripts/doc_studies.py            # check: every region equals its rendering (ctest -L docs)
  scripts/doc_studies.py --update   # rewrite the regions from the CSV files
"""
import argparse
import csv
import difflib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tables import fill  # noqa: E402

DOCS = {"priority": "docs/priority.md", "sync": "docs/sync-study.md", "gossip": "docs/gossip.md"}
AREA_JSON = ["docs/area/area.json", "docs/area.json"]
AREA_CSV = "docs/area-figures.csv"


class Unsupported(Exception):
    """A finding the CSV no longer supports."""


def claim(cond, what):
    if not cond:
        raise Unsupported(f"the data no longer supports: {what}")


# --- reading and formatting ---------------------------------------------------------------------

def number(v):
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    if re.fullmatch(r"-?\d+\.\d*(e-?\d+)?", v):
        return float(v)
    return v


def read_csv(path):
    with open(path, newline="") as f:
        return [{k: number(v) for k, v in r.items()} for r in csv.DictReader(f)]


def n(x):
    """1,455."""
    return f"{x:,}"


def r2(x):
    return f"{x:.2f}"


def span(values, fmt=r2):
    """'0.68 to 0.91', or one value when they round alike."""
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo} to {hi}"


def pct(x):
    return f"{100 * x:.0f} %" if x >= 0.095 else f"{100 * x:.1f} %"


def wrap(text):
    """A paragraph, or a bullet ('- ...'), wrapped at 100 columns as the hand-written docs are."""
    import textwrap
    bullet = text.startswith("- ")
    return textwrap.fill(text[2:] if bullet else text, width=100, initial_indent="- " if bullet else "",
                         subsequent_indent="  " if bullet else "", break_long_words=False, break_on_hyphens=False)


def prose(parts):
    """Paragraphs and bullets, wrapped; '' separates paragraphs."""
    return "\n".join(wrap(p) if p else "" for p in parts)


def pyplot():
    """matplotlib.pyplot without a display, or None (with a note) where python3-matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("matplotlib is not installed: no plots (python3-matplotlib; run the script with /usr/bin/python3)",
              file=sys.stderr)
        return None


def topo_name(algo, topo):
    return f"ring of {topo}" if algo == "ring" else f"{algo} {topo}"


# --- area ---------------------------------------------------------------------------------------

PART = {"torx_input_unit": "input units", "torx_vc_alloc": "VC allocator", "torx_sw_alloc": "switch allocator",
        "torx_output_unit": "output units", "torx_gossip_unit": "gossip unit", "torx_routing_unit": "routing unit",
        "torx_crossbar": "crossbar"}


# The configurations these documents quote, by the names of docs/area-figures.csv, and the names
# scripts/synth.sh's table gives the same routers (torx.area/2); need() takes whichever the data has.
AREA_ALIASES = {"r2d_v1_d8": ["r2d"], "r2d_v1_d8_k2": ["r2d_k2"], "r2d_v1_d8_k4": ["r2d_k4"], "r2d_v1_d8_k8": ["r2d_k8"],
                "g2d_all_d8": ["g2d"], "g3d_all_d8": ["g3d"], "r2d_all_v1_d8": ["r2d_all_f16"],
                "r3d_all_v1_d8": ["r3d_all_f16"], "barrier_2d": ["b2"], "barrier_3d": ["b3"]}
AREA_FILE = None  # --area FILE: read this torx.area document instead of docs/


def area():
    """({config: {module: {"cells", "flops", "um2"?, "torx"?}}}, where the figures come from)."""
    for rel in ([AREA_FILE] if AREA_FILE else AREA_JSON):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        out = {}
        for m in doc.get("modules", []):
            cfg = m["params"]["config"]
            mods = out.setdefault(cfg, {})
            key = "router" if not mods else PART.get(m["name"], m["name"])  # the first entry is the top
            e = {"cells": m["cells"], "flops": m["flops"], "config": cfg}
            for k in ("um2", "area_um2"):
                if k in m:
                    e["um2"] = m[k]
            if "torx" in m:
                e["torx"] = m["torx"]  # the configuration as torx options (scripts/synth.sh's table)
            mods[key] = e
        return out, f"`{rel}`, written by `scripts/synth.sh`"
    out = {}
    for r in read_csv(os.path.join(ROOT, AREA_CSV)):
        out.setdefault(r["config"], {})[r["module"]] = {"cells": r["cells"], "flops": r["flops"], "config": r["config"]}
    return out, (f"`{AREA_CSV}`: `docs/area.md`'s yosys generic cells, copied until `scripts/synth.sh` writes a "
                 "data file")


def sz(e):
    """The size a comparison uses: µm² from a standard-cell library when the area data has it, else cells."""
    return e["um2"] if "um2" in e else e["cells"]


def sz_name(e):
    return "µm²" if "um2" in e else "cells"


def cf(e):
    s = f"{n(e['cells'])} / {n(e['flops'])}"
    return s + (f" ({n(round(e['um2']))} µm²)" if "um2" in e else "")


def need(a, cfg, mod="router"):
    for name in [cfg] + AREA_ALIASES.get(cfg, []):
        if name in a and mod in a[name]:
            return a[name][mod]
    raise Unsupported(f"the area data has no {mod} of {cfg}")


def configs(a, cfgs, words):
    """What the configurations are: as the area data gives them (torx options), else WORDS."""
    opts = [need(a, c).get("torx") for c in cfgs]
    if all(opts):
        return "; ".join(f"`{o}`" for o in opts)
    return words


# --- the synchronization study ------------------------------------------------------------------

SYNC_ALGOS = [("ring", f"{1 << d}") for d in range(5, 11)] + [
    ("t4", "16x16"), ("t4", "32x32"), ("t1", "16x16"), ("c1", "8x8x8"), ("c64", "8x8x8"), ("suh", "16x16"),
    ("tsay-wang", "16x16")]
SYNC_TS = [10, 100, 1000]
SYNC_BLOCKS = [16, 64, 1024]
SYNC_MODES = ["none", "barrier h=1", "barrier h=4", "local", "local null_ts=0", "software", "priority"]


def sync_tables(rows, skipped, extra=()):
    by = {(r["algorithm"], str(r["topology"]), r["ts"], r["block_bytes"], r["mode"]): r for r in rows}
    labels = [m for m in SYNC_MODES if any(k[4] == m for k in by)]
    md = ["Generated by `scripts/sync_study.py` from cycle-model runs (every run checked: every block at its",
          "destination with its content). Cycles until the last block is stored; in parentheses, for `local` and",
          "`software`, the null messages sent; `wait` is the node-cycles spent waiting for synchronization.",
          "Default network (`torx run --help-params`): 2-stage routers, 1-cycle links, 8-flit buffers, 16-byte",
          "flits; the null message's startup equals t_s (`null_ts = -1`), except in `local null_ts=0`: a signal",
          "that costs no startup, as a hardware signal would (it still travels as a one-flit worm)."]
    if extra:
        md.append(f"Every run with `{' '.join(extra)}`.")
    md.append("")
    for algo, topo in SYNC_ALGOS:
        keys = [k for k in by if k[0] == algo and k[1] == topo]
        if not keys:
            continue
        md.append(f"\n### {algo} on {topo} ({by[keys[0]]['nodes']} nodes)\n")
        md.append("| t_s | block | step model | " + " | ".join(labels) + " | local wait | software wait |")
        md.append("|---:|---:|---:|" + "---:|" * len(labels) + "---:|---:|")
        for block in SYNC_BLOCKS:
            for ts in SYNC_TS:
                if (algo, topo, ts, block, labels[0]) not in by:
                    continue
                cells = []
                for lab in labels:
                    r = by.get((algo, topo, ts, block, lab))
                    if not r:
                        cells.append("-")
                    elif lab.startswith("local") or lab == "software":
                        cells.append(f"{r['cycles']} ({r['null_messages']})")
                    else:
                        cells.append(str(r["cycles"]))
                lw = by.get((algo, topo, ts, block, "local"), {}).get("sync_wait_cycles", "-")
                sw = by.get((algo, topo, ts, block, "software"), {}).get("sync_wait_cycles", "-")
                smc = by[(algo, topo, ts, block, labels[0])]["step_model_cycles"]
                md.append(f"| {ts} | {block} | {smc} | " + " | ".join(cells) + f" | {lw} | {sw} |")
    if skipped:
        md.append("\n### Runs over the budget\n")
        md.append("Each of these would take more than the study's budget of router-cycles (the step model's cycles at "
                  "t_s = 100 times the routers: an hour or more of simulation per mode); the step model's cycles are "
                  "given instead:\n")
        for s in skipped:
            md.append(f"- {s['algorithm']} {s['topology']}, t_s {s['ts']}, {s['block_bytes']}-byte blocks: step model "
                      f"{s['step_model_cycles']} cycles")
    return "\n".join(md)


class Sync:
    def __init__(self, rows):
        self.by = {(r["algorithm"], str(r["topology"]), r["ts"], r["block_bytes"], r["mode"]): r for r in rows}
        self.cases = sorted({k[:4] for k in self.by if k[4] == "barrier h=1"},
                            key=lambda c: (SYNC_ALGOS.index((c[0], c[1])), c[3], c[2]))

    def c(self, case, mode):
        return self.by[case + (mode,)]["cycles"]

    def rel(self, case, mode):
        return self.c(case, mode) / self.c(case, "barrier h=1")

    def where(self, algo=None, topo=None, ts=None, block=None, test=None):
        return [c for c in self.cases if (algo is None or c[0] == algo) and (topo is None or c[1] == topo)
                and (ts is None or c[2] == ts) and (block is None or c[3] == block) and (test is None or test(c))]


def case_words(c):
    return f"{topo_name(c[0], c[1])}, t_s = {c[2]}, {c[3]}-byte blocks"


def sync_findings(rows):
    s = Sync(rows)
    N = len(s.cases)
    other = ["local", "local null_ts=0", "software"]
    # The barrier against the modes that need no new router logic.
    best = {c: min(other, key=lambda m: s.c(c, m)) for c in s.cases}
    beaten = [c for c in s.cases if s.rel(c, best[c]) < 0.95]
    claim(len(beaten) < N / 4, "the barrier is the fastest mode without new router logic in most cases")
    groups = {}
    for c in beaten:
        groups.setdefault((c[0], c[1]), []).append(c)
    exc = []
    for (algo, topo), cs in groups.items():
        w = min(cs, key=lambda c: s.rel(c, best[c]))
        exc.append(f"{topo_name(algo, topo)} ({len(cs)} of {len(s.where(algo, topo))}, down to "
                   f"{r2(s.rel(w, best[w]))} with `{best[w]}` at t_s = {w[2]}, {w[3]}-byte blocks)")
    pr = {c: s.rel(c, "priority") for c in s.cases}
    pwin = [c for c in s.cases if pr[c] < 0.95]
    plose = [c for c in s.cases if pr[c] > 1.05]

    def extremes(cs, key, rev):
        per = {}
        for c in cs:
            k = (c[0], c[1])
            if k not in per or (key(c) > key(per[k])) == rev:
                per[k] = c
        top = sorted(per.values(), key=key, reverse=rev)[:3]
        return ", ".join(f"{r2(key(c))} on {case_words(c)}" for c in top)

    lat = s.by[("t4", "16x16", 100, 64, "barrier h=1")]["barrier_latency"]
    h4 = {c: s.rel(c, "barrier h=4") for c in s.cases}
    h4_1k = [h4[c] for c in s.where(block=1024, test=lambda c: c[0] != "tsay-wang")]
    h4_16 = max(s.where(block=16, ts=10, test=lambda c: c[0] != "tsay-wang"), key=lambda c: h4[c])
    tw = s.where("tsay-wang")
    out = []
    out.append(f"Figures below are cycles relative to `barrier` (h = 1), over the {N} cases of the tables that follow "
               "(algorithm and size, t_s, block size); every run was checked block by block. "
               "`scripts/doc_studies.py` renders this section from `sync-study/runs.csv`.")
    out.append("")
    out.append(
        "- **The barrier network is the fastest way to keep the phases apart without new router logic, in most "
        f"cases.** Against `local` (either null-message startup) and `software` it is the fastest or within 5 % of "
        f"the fastest in {N - len(beaten)} of {N} cases; the exceptions: " + "; ".join(exc) + ". "
        f"Priority routers (`priority`: 4 levels, 8-flit buffers) beat it by more than 5 % in {len(pwin)} cases "
        f"(best: {extremes(pwin, lambda c: pr[c], False)}) and lose by more than 5 % in {len(plose)} (worst: "
        f"{extremes(plose, lambda c: pr[c], True)}); `docs/priority.md` separates what their levels and their "
        f"buffers do. The barrier's latency is 2 H h + 2 cycles ({lat} on 16x16 with h = 1); a four times slower "
        f"barrier wire (h = 4) costs {span(h4_1k)} with 1 KiB blocks (tsay-wang aside), up to {r2(h4[h4_16])} with "
        f"16-byte blocks at t_s = 10 ({topo_name(h4_16[0], h4_16[1])}), and {span([h4[c] for c in tw])} on "
        f"tsay-wang, whose whole broadcast takes {n(s.c(tw[0], 'barrier h=1'))} to "
        f"{n(max(s.c(c, 'barrier h=1') for c in tw))} cycles.")
    no = {c: s.rel(c, "none") for c in s.cases}
    small_rings = s.where("ring", block=16, test=lambda c: int(c[1]) <= 256)
    wins = [("rings of up to 256 nodes with 16-byte blocks", small_rings), ("tsay-wang", s.where("tsay-wang")),
            ("suh", s.where("suh"))]
    loses = [("c64", s.where("c64")), ("t1 16x16", s.where("t1")), ("t4 32x32", s.where("t4", "32x32")),
             ("rings with 1 KiB blocks", s.where("ring", block=1024))]
    for what, cs in wins:
        claim(all(no[c] < 1 for c in cs), f"`none` is faster than the barrier on {what}")
    for what, cs in loses[::3]:
        claim(all(no[c] > 1 for c in cs), f"`none` is slower than the barrier on {what}")
    out.append(
        "- **`none` is not a free lunch.** It is faster than the barrier where the phases do not collide and startups "
        "dominate (" + "; ".join(f"{w} {span([no[c] for c in cs])}" for w, cs in wins) + "), and slower where they "
        f"collide: c64 {span([no[c] for c in loses[0][1]])}, t1 16x16 up to {r2(max(no[c] for c in loses[1][1]))}, "
        f"t4 32x32 up to {r2(max(no[c] for c in loses[2][1]))}, rings with 1 KiB blocks "
        f"{span([no[c] for c in loses[3][1]])}.")
    lo = {c: s.rel(c, "local") for c in s.cases}
    lo0 = {c: s.rel(c, "local null_ts=0") for c in s.cases}
    lwin = [c for c in s.cases if lo[c] < 0.99]
    lworst = max(s.cases, key=lambda c: lo[c])
    ex = ("ring", "32", 100, 1024)
    claim(lo[ex] > 1 and s.by[ex + ("local",)]["blocked_cycles"] > 10 * s.by[ex + ("barrier h=1",)]["blocked_cycles"],
          "local signals wait behind data worms on the ring of 32 with 1 KiB blocks")
    vc2 = (s.by.get(ex + ("local vcs_per_class=2",)), s.by.get(ex + ("barrier vcs_per_class=2",)))
    hw_ok = [c for c in s.cases if lo0[c] <= 1.05]
    hw_groups = [("tsay-wang", s.where("tsay-wang")), ("suh", s.where("suh")), ("c1", s.where("c1")),
                 ("c64", s.where("c64")), ("t4 16x16", s.where("t4", "16x16"))]
    long_ring = [c for c in s.where("ring", block=1024)]
    claim(min(lo0[c] for c in long_ring) > 1.05, "a hardware signal is slower than the barrier on rings with 1 KiB blocks")
    out.append(
        "- **Local synchronization with null messages on the data network is rarely enough.** With the null "
        f"message's startup equal to t_s it is slower than the barrier in {sum(lo[c] > 1 for c in s.cases)} of {N} "
        f"cases (up to {r2(lo[lworst])}, {case_words(lworst)}) and faster by more than 1 % in {len(lwin)} ("
        + ", ".join(sorted({topo_name(c[0], c[1]) for c in lwin}, key=lambda t: t)) + "). Two costs add up: each "
        "signal pays a startup on the sender's one injection port, serialized with its data sends; and a signal is a "
        "worm on the same virtual channels as the data, so it waits behind the long worms of the phase it is "
        f"coordinating ({case_words(ex)}: {n(s.c(ex, 'local'))} cycles and "
        f"{n(s.by[ex + ('local',)]['blocked_cycles'])} blocked VC-cycles under `local`, against "
        f"{n(s.c(ex, 'barrier h=1'))} and {n(s.by[ex + ('barrier h=1',)]['blocked_cycles'])} under the barrier"
        + (f"; with two VCs per class, {n(vc2[0]['cycles'])} against {n(vc2[1]['cycles'])}" if all(vc2) else "")
        + "). **A hardware signal** (`local null_ts=0`: no startup, still a one-flit worm) is faster than the barrier "
        f"or within 5 % of it in {len(hw_ok)} of {N} cases; per algorithm " + ", ".join(
            f"{w} {span([lo0[c] for c in cs])}" for w, cs in hw_groups)
        + "; it is slower with long messages on rings (1 KiB blocks: " + span([lo0[c] for c in long_ring])
        + "), t1 16x16 (" + span([lo0[c] for c in s.where("t1")]) + ") and t4 32x32 ("
        + span([lo0[c] for c in s.where("t4", "32x32")]) + "), where the signals still queue behind data worms and "
        "the dependencies chain along the ring. Local synchronization would need the signals on their own virtual "
        "channel or wires to compete (not measured).")
    so = {c: s.rel(c, "software") for c in s.cases}
    smin, smax = min(s.cases, key=lambda c: so[c]), max(s.cases, key=lambda c: so[c])
    r256 = ("ring", "256", 10, 1024)
    r1024 = max(s.where("ring", "1024"), key=lambda c: so[c])
    out.append(
        "- **The software barrier costs ceil(log2 N) startups per boundary**, and its null messages wait behind the "
        f"data too: from {r2(so[smin])} ({case_words(smin)}, where the data dominates) to {r2(so[smax])} "
        f"({case_words(smax)}); on rings with many boundaries it reaches {r2(so[r256])} ({case_words(r256)}) and "
        f"{r2(so[r1024])} ({case_words(r1024)}).")
    startup = s.where(test=lambda c: c[3] == 16 or c[2] == 1000)
    longm = s.where(block=1024)
    lwin_s = [c for c in startup if s.c(c, "local") < s.c(c, "software")]
    llose = [c for c in longm if s.c(c, "local") > s.c(c, "software")]
    claim(len(lwin_s) > 0.8 * len(startup), "local beats software where startups dominate")
    claim(llose, "local loses to software in some cases with 1 KiB blocks")
    e1, e2 = ("ring", "32", 1000, 16), ("suh", "16x16", 1000, 16)
    f1, f2 = ("ring", "256", 100, 1024), ("t1", "16x16", 100, 1024)
    claim(all(c in llose for c in (f1, f2)), "local loses to software on the ring of 256 and t1 with 1 KiB blocks")

    def vs(c):
        return f"{case_words(c)}: {r2(lo[c])} against {r2(so[c])}"

    lost = {}
    for c in llose:
        lost.setdefault(topo_name(c[0], c[1]), []).append(str(c[2]))
    cheap = {b: (sum(s.c(c, "local null_ts=0") < s.c(c, "software") for c in s.where(block=b)), len(s.where(block=b)))
             for b in SYNC_BLOCKS}
    out.append(
        "- **The seed's claim that local synchronization costs \"much less\" than software barriers holds where "
        f"startups dominate**: with 16-byte blocks or t_s = 1000, `local` is faster than `software` in {len(lwin_s)} "
        f"of {len(startup)} cases ({vs(e1)}; {vs(e2)}). **With 1 KiB blocks it fails** in {len(llose)} of "
        f"{len(longm)} cases: " + "; ".join(f"{t} at t_s = {', '.join(ts)}" for t, ts in lost.items())
        + f" (e.g. {vs(f1)}; {vs(f2)}), for the reason above: torx's null messages share the data network's channels and "
        "wait behind the data (the seed does not say how its signals travel). With a cheap signal (`null_ts=0`) "
        "local beats software with " + ", ".join(f"{b}-byte blocks in {k} of {m} cases" for b, (k, m) in cheap.items())
        + ". The seed's count of 2d-5 synchronizations on the ring of 2^d nodes holds (above).")
    t4 = s.where("t4", "16x16")
    c1 = s.where("c1")
    out.append(
        "- **Priority throttle-and-preempt** with the default 4 levels and 8-flit buffers: t4 16x16 "
        f"{span([pr[c] for c in t4])}, c1 {span([pr[c] for c in c1])}; slower on long rings with long messages "
        f"(ring of 256, 1 KiB: up to {r2(max(pr[c] for c in s.where('ring', '256', block=1024)))}) and on c64 (up to "
        f"{r2(max(pr[c] for c in s.where('c64')))}). `docs/priority.md` measures levels and buffer depth as separate "
        "factors.")
    return prose(out)


def sync_cost(a, source):
    b2, b3, r = need(a, "barrier_2d"), need(a, "barrier_3d"), need(a, "r2d_v1_d8")
    k2, k4 = need(a, "r2d_v1_d8_k2"), need(a, "r2d_v1_d8_k4")
    return wrap(f"From the area data ({source}; cells / flip-flops): the barrier unit is **{cf(b2)}** in 2D "
            f"and {cf(b3)} in 3D, against {cf(r)} for the 2D router it sits beside: {pct(sz(b2) / sz(r))} of "
            f"the router's {sz_name(r)} and {pct(b2['flops'] / r['flops'])} of its flip-flops, plus one wire per link direction "
            "for gathers and releases (`docs/rtl.md`). Local and software synchronization need nothing beyond the data "
            f"network; priority routers cost {pct(sz(k2) / sz(r) - 1)} (K = 2) to "
            f"{pct(sz(k4) / sz(r) - 1)} (K = 4) more {sz_name(r)} (`docs/priority.md`, \"In the RTL\").")


def sync_signals(rows):
    md = [wrap("Generated by `scripts/sync_signals_study.py` (`torx stats ALGO --topo DIMS --sync local` per case; "
               "`sync-study/signals.csv`). *signals*: the null messages `--sync local` sends; *needed*: those no "
               "other ordering implies; *seed*: Section 7.2's pairs for both trees on the ring of n nodes "
               "(3n/2 - 8 per tree)."),
          "",
          "| algorithm | topology | boundaries | colliding pairs | signals | needed | implied | seed |",
          "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        md.append(f"| {r['algorithm']} | {r['topology']} | {r['boundaries']} | {n(r['pairs'])} | {n(r['signals'])} | "
                  f"{n(r['needed'])} | {n(r['implied'])} | {n(r['seed']) if r['seed'] != '' else '-'} |")
    rings = [r for r in rows if r["algorithm"] == "ring"]
    claim(rings and all(r["signals"] == 4 * r["nodes"] - 16 and r["needed"] == r["signals"] for r in rings),
          "on every ring torx sends 4n - 16 signals and every one is needed")
    implied = [r for r in rows if r["implied"]]
    md.append("")
    md.append(wrap(
        f"On the rings ({span([r['nodes'] for r in rings], str)} nodes) the derivation sends 4n - 16 signals, n more "
        "than the seed's 3n - 16, and the reduction drops none: every signal orders some colliding pair that nothing "
        "else orders, the n extra ones included (the shared-ejection pairs above). So the extra signals are needed "
        "for the pairs torx derives; the seed's set leaves those collisions to chance. "
        + ("Elsewhere some signals are implied: " + ", ".join(
            f"{r['algorithm']} {r['topology']} {n(r['implied'])} of {n(r['signals'])}" for r in implied)
           + " (`--sync local` still sends them; the runs above measure the full set)." if implied else "")))
    return "\n".join(md)


def sync_plots(rows, out_dir):
    plt = pyplot()
    if not plt:
        return
    by = {(r["algorithm"], str(r["topology"]), r["ts"], r["block_bytes"], r["mode"]): r for r in rows}
    labels = [m for m in SYNC_MODES if any(k[4] == m for k in by)]
    for ts in SYNC_TS:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for lab in labels:
            xs, ys = [], []
            for algo, topo in SYNC_ALGOS:
                r, b = by.get((algo, topo, ts, 64, lab)), by.get((algo, topo, ts, 64, "barrier h=1"))
                if algo == "ring" and r and b:
                    xs.append(int(topo))
                    ys.append(r["cycles"] / b["cycles"])
            if xs:
                ax.plot(xs, ys, marker="o", label=lab)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ring length n")
        ax.set_ylabel("cycles / cycles with the hardware barrier")
        ax.set_title(f"Ring complete exchange, t_s = {ts}, 64-byte blocks")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"ring-ts{ts}.png"), dpi=110)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    cases = [(a, t) for a, t in SYNC_ALGOS if (a, t, 100, 64, "barrier h=1") in by]
    width = 0.8 / max(1, len(labels))
    for i, lab in enumerate(labels):
        ys = []
        for a, t in cases:
            r, b = by.get((a, t, 100, 64, lab)), by[(a, t, 100, 64, "barrier h=1")]
            ys.append(r["cycles"] / b["cycles"] if r else 0)
        ax.bar([k + i * width for k in range(len(cases))], ys, width, label=lab)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(cases))])
    ax.set_xticklabels([f"{a}\n{t}" for a, t in cases], fontsize=7)
    ax.set_ylabel("cycles / hardware barrier")
    ax.set_title("All algorithms, t_s = 100, 64-byte blocks")
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "all-ts100-b64.png"), dpi=110)
    plt.close(fig)


# --- the priority study -------------------------------------------------------------------------

def k8_sentence(a, plain):
    """What the area data says beyond K = 4: K = 8 when synthesized (scripts/synth.sh's r2d_k8), else that it is not."""
    try:
        k8 = need(a, "r2d_v1_d8_k8")
    except Unsupported:
        return ("K = 8 (`r2d_k8`) is not in the area data (`docs/area.md` names the configurations its run left "
                "out) and 16 levels are not synthesized: how the cost grows beyond K = 4 is not measured here.")
    return (f"At K = 8 (`{k8['config']}`) the router is +{100 * (sz(k8) / sz(plain) - 1):.1f} % {sz_name(k8)} and "
            f"+{100 * (k8['flops'] / plain['flops'] - 1):.1f} % flip-flops over the plain router; 16 levels are not "
            "synthesized.")


def priority_area(a, source):
    plain, k2, k4 = need(a, "r2d_v1_d8"), need(a, "r2d_v1_d8_k2"), need(a, "r2d_v1_d8_k4")
    parts = ["input units", "VC allocator", "switch allocator", "output units"]
    cfgs = configs(a, ["r2d_v1_d8", "r2d_v1_d8_k2", "r2d_v1_d8_k4"], "2D, V = 1, D = 8, 16-byte flits")
    md = [wrap(f"Area ({source}; cells / flip-flops; {cfgs}):"), "",
          "| router | K | **router** | " + " | ".join(parts) + " |",
          "|---|---:|---:|" + "---:|" * len(parts)]
    for name, cfg, k in (("plain", "r2d_v1_d8", 1), ("priority", "r2d_v1_d8_k2", 2), ("priority", "r2d_v1_d8_k4", 4)):
        r = need(a, cfg)
        grow = "" if k == 1 else f" (+{100 * (sz(r) / sz(plain) - 1):.1f} % {sz_name(r)} / +{100 * (r['flops'] / plain['flops'] - 1):.1f} % flip-flops)"
        md.append(f"| {name} (`{r['config']}`) | {k} | **{cf(r)}**{grow} | " + " | ".join(cf(need(a, cfg, p)) for p in parts) + " |")
    va = [need(a, c, "VC allocator")["cells"] / need(a, "r2d_v1_d8", "VC allocator")["cells"] for c in ("r2d_v1_d8_k2", "r2d_v1_d8_k4")]
    claim(k4["cells"] > k2["cells"] > plain["cells"], "the priority router's cells grow with K")
    md.append("")
    md.append(wrap(
        "The buffers keep their D slots per VC (the lanes share them), so the flip-flops grow only by the lane "
        "registers, the slots' next pointers and the owners' stacks "
        f"(+{100 * (k2['flops'] / plain['flops'] - 1):.1f} % at K = 2, +{100 * (k4['flops'] / plain['flops'] - 1):.1f} % "
        f"at K = 4); the logic grows more (+{100 * (k2['cells'] / plain['cells'] - 1):.0f} %, "
        f"+{100 * (k4['cells'] / plain['cells'] - 1):.0f} % cells; {sz_name(k2)} +{100 * (sz(k2) / sz(plain) - 1):.1f} %, "
        f"+{100 * (sz(k4) / sz(plain) - 1):.1f} %), most of it in the VC allocator (the highest-level "
        f"filter over every input lane and the victim search, per output and class: {va[0]:.1f} x at K = 2, "
        f"{va[1]:.1f} x at K = 4) and in the input units' lane bookkeeping. The routing unit and the crossbar do not "
        "change. " + k8_sentence(a, plain)))
    return "\n".join(md)


PRIORITY_CASES = [("ring", f"{1 << d}") for d in range(5, 10)] + [("t4", "16x16"), ("t4", "32x32"), ("t1", "16x16"),
                                                                  ("c1", "8x8x8"), ("c64", "8x8x8")]
PRIORITY_TS = [10, 100, 1000]


class Prio:
    """The factorial grid: cycles[(algo, topo, ts, mode, K, D)]; per case its phases P and the depths."""

    def __init__(self, rows):
        self.cyc = {(r["algorithm"], str(r["topology"]), r["ts"], r["mode"], r["levels"], r["depth"]): r["cycles"]
                    for r in rows}
        self.row = {(r["algorithm"], str(r["topology"]), r["ts"], r["mode"], r["levels"], r["depth"]): r for r in rows}
        self.phases = {(r["algorithm"], str(r["topology"])): r["phases"] for r in rows}
        self.cases = [c for c in PRIORITY_CASES if c in self.phases]
        self.throttle = {(r["algorithm"], str(r["topology"]), r["levels"]): r["throttle_depth"] for r in rows
                         if r["mode"] == "priority"}

    def dk(self, case, k):
        """D_K: the depth at which the throttle leaves the lowest level the credit loop's slots (as run)."""
        return self.throttle[case + (k,)]

    def levels(self, case):
        return sorted({2, 4, self.phases[case]})

    def depths(self, case, k):
        return sorted({8, 17, self.dk(case, k)})

    def get(self, case, ts, mode, k, d):
        return self.cyc.get(case + (ts, mode, k, d))

    def ratio(self, case, ts, k, d):
        """Priority (K levels, depth D) against the barrier at the same depth; None when not run."""
        p, b = self.get(case, ts, "priority", k, d), self.get(case, ts, "barrier", 1, d)
        return p / b if p and b else None


def priority_tables(rows, skipped, extra=()):
    g = Prio(rows)
    d2, d4 = g.dk(g.cases[0], 2), g.dk(g.cases[0], 4)
    md = ["Generated by `scripts/priority_study.py` (64-byte blocks, default network otherwise"
          + (f", `{' '.join(extra)}`" if extra else "") + "; every run checked ok) and rendered by "
          "`scripts/doc_studies.py` from `priority-study/runs.csv`. P is the schedule's phases (distinct "
          "priorities); D_K = (K - 1) r + 4 is the depth at which the throttle leaves the lowest of K levels the 4 "
          "slots of the credit loop (link, router and credit latency with their defaults; r = 1).",
          "",
          "**The barrier and `none` at each depth** (cycles until the last block is stored):",
          "",
          f"| algorithm | topology | P | t_s | barrier D={d2} | D={d4} | D=8 | D=17 | D=D_P | none D=8 | none D=17 |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case in g.cases:
        p = g.phases[case]
        dp = g.dk(case, p)
        for ts in PRIORITY_TS:
            cells = [g.get(case, ts, "barrier", 1, d) for d in (d2, d4, 8, 17)]
            cells.append(f"{g.get(case, ts, 'barrier', 1, dp)} ({dp})")
            cells += [g.get(case, ts, "none", 1, d) for d in (8, 17)]
            md.append(f"| {case[0]} | {case[1]} | {p} | {ts} | " + " | ".join(str(c) for c in cells) + " |")
    md += ["",
           "**`--sync priority` against the barrier at the same depth** (cycles / barrier cycles; in parentheses "
           "the preemptions; `-`: D <= (K - 1) r, the lowest level would have no slot):",
           "",
           f"| algorithm | topology | t_s | K=2 D={d2} | K=2 D=8 | K=2 D=17 | K=4 D={d4} | K=4 D=8 | K=4 D=17 | K=P D=8 | "
           "K=P D=17 | K=P D=D_P |",
           "|---|---|---:|" + "---:|" * 9]
    for case in g.cases:
        p = g.phases[case]
        for ts in PRIORITY_TS:
            cells = []
            for k, ds in ((2, (d2, 8, 17)), (4, (d4, 8, 17)), (p, (8, 17, g.dk(case, p)))):
                for d in ds:
                    r = g.ratio(case, ts, k, d)
                    cells.append(f"{r:.2f} ({g.row[case + (ts, 'priority', k, d)]['preemptions']})" if r else "-")
            md.append(f"| {case[0]} | {case[1]} | {ts} | " + " | ".join(cells) + " |")
    if skipped:
        md += ["", "Cases over the study's budget of router-cycles (step-model cycles at t_s = 100 times the nodes), "
               "not run: " + ", ".join(f"{s['algorithm']} {s['topology']} ({n(s['router_cycles'])})" for s in skipped)
               + "."]
    return "\n".join(wrap(x) if x and not x.startswith("|") else x for x in md)


def priority_findings(rows, a):
    g = Prio(rows)
    cells = [(c, ts) for c in g.cases for ts in PRIORITY_TS]
    N = len(cells)

    def ratios(kd):
        """{(case, ts): ratio} for the (K, D) that kd(case) gives."""
        out = {}
        for c, ts in cells:
            r = g.ratio(c, ts, *kd(c))
            if r is not None:
                out[(c, ts)] = r
        return out

    def where(rs, test):
        return [x for x, r in rs.items() if test(r)]

    def names(xs):
        per = {}
        for c, ts in xs:
            per.setdefault(topo_name(*c), []).append(str(ts))
        return "; ".join(f"{t} at t_s = {', '.join(v)}" for t, v in per.items())

    own = ratios(lambda c: (g.phases[c], g.dk(c, g.phases[c])))      # one level per phase, the throttle's depth
    own17 = ratios(lambda c: (g.phases[c], 17))
    k4_17, k2_17, k4_8 = ratios(lambda c: (4, 17)), ratios(lambda c: (2, 17)), ratios(lambda c: (4, 8))
    own8 = ratios(lambda c: (g.phases[c], 8))
    out = []
    out.append("`scripts/doc_studies.py` renders this section from `priority-study/runs.csv`; ratios are "
               "`--sync priority` cycles over the barrier's at the same buffer depth, over the "
               f"{N} cells (case, t_s) of the tables above.")
    out.append("")
    # The audit's figures, verified.
    r64, c64 = ("ring", "64"), ("c64", "8x8x8")
    if r64 in g.phases and c64 in g.phases:
        def trio(c):
            b = g.get(c, 10, "barrier", 1, 17)
            return (f"barrier {n(b)}, 4 levels {n(g.get(c, 10, 'priority', 4, 17))} ({g.ratio(c, 10, 4, 17):.2f}), "
                    f"one level per phase {n(g.get(c, 10, 'priority', g.phases[c], 17))} "
                    f"({g.ratio(c, 10, g.phases[c], 17):.2f})")
        out.append(
            "- **Levels and buffer depth are separate factors.** The earlier version of this study ran its one-level-per-"
            "phase column with 17-flit buffers and its 4-level column with 8-flit buffers; at equal depth (17 flits, "
            f"t_s = 10) the ring of 64 gives {trio(r64)} and c64 8x8x8 {trio(c64)}: the 4-level penalty quoted then "
            f"for the ring of 64 (4 levels at 8 flits: {g.ratio(r64, 10, 4, 8):.2f}) came from the 8-flit buffers, and "
            f"on c64 {'4 levels beat' if g.ratio(c64, 10, 4, 17) < g.ratio(c64, 10, g.phases[c64], 17) else '4 levels do not beat'}"
            " one level per phase.")
    beat_own = where(own, lambda r: r < 1)
    claim(len(beat_own) > N / 2, "one level per phase with the throttle's depth beats the barrier in most cells")
    out.append(
        f"- **When priorities beat the barrier.** With one level per phase and buffers deep enough for the throttle "
        f"(D = D_P) `--sync priority` is below the barrier in {len(beat_own)} of {len(own)} cells ({span(own.values())}); "
        f"at 17 flits in {len(where(own17, lambda r: r < 1))} of {len(own17)}. Where it is not: "
        f"{names(where(own, lambda r: r >= 1)) or 'nowhere'}. With 4 levels at 17 flits it is below in "
        f"{len(where(k4_17, lambda r: r < 1))} of {len(k4_17)} ({span(k4_17.values())}), with 2 levels in "
        f"{len(where(k2_17, lambda r: r < 1))} of {len(k2_17)} ({span(k2_17.values())}), and with the defaults (4 "
        f"levels, 8 flits: the synchronization study's setting) in {len(where(k4_8, lambda r: r < 1))} of "
        f"{len(k4_8)} ({span(k4_8.values())}).")
    # Levels at a fixed depth.
    more = [x for x in k4_17 if x in own17 and own17[x] < k4_17[x] - 0.05]
    fewer = [x for x in k4_17 if x in own17 and own17[x] > k4_17[x] + 0.05]
    two = [x for x in k2_17 if x in k4_17 and k4_17[x] < k2_17[x] - 0.05]
    out.append(
        f"- **What levels buy** (17-flit buffers): going from 2 to 4 levels lowers the ratio by more than 0.05 in "
        f"{len(two)} of {len(k2_17)} cells ({names(two) or 'none'}); from 4 levels to one per phase in {len(more)} "
        f"({names(more) or 'none'}); one per phase is worse than 4 levels by more than 0.05 in {len(fewer)} "
        f"({names(fewer) or 'none'}). Phases that share a level neither preempt nor wait for each other: the later "
        "phase's worms block the earlier one's as under `--sync none`, which is what the extra levels remove.")
    # Buffers at a fixed number of levels.
    k4_gain = {x: k4_8[x] - k4_17[x] for x in k4_8 if x in k4_17}
    big = [x for x, v in k4_gain.items() if v > 0.05]
    starve = [x for x in own8 if x in own and own8[x] > own[x] + 0.05]
    out.append(
        f"- **What buffers buy**: with 4 levels, 17 flits instead of 8 lower the ratio by more than 0.05 in "
        f"{len(big)} of {len(k4_gain)} cells ({names(big) or 'none'}; at most by "
        f"{max(k4_gain.values()):.2f}). One level per phase needs D > (P - 1) r flits to run at all: 8-flit buffers "
        "refuse it for schedules of more than 8 phases, and where they allow it (P = 8 leaves the lowest level one "
        f"slot) it is worse than with the throttle's depth in {len(starve)} of {len(own8)} cells "
        f"({'; '.join(f'{topo_name(*c)} at t_s = {ts}: {own8[(c, ts)]:.2f} against {own[(c, ts)]:.2f}' for c, ts in starve) or 'none'}).")
    sens = []
    for c in g.cases:
        for ts in PRIORITY_TS:
            bs = [g.get(c, ts, "barrier", 1, d) for d in sorted({g.dk(c, 2), g.dk(c, 4), 8, 17, g.dk(c, g.phases[c])})]
            bs = [b for b in bs if b]
            if bs:
                sens.append((max(bs) / min(bs) - 1, c, ts))
    worst = max(sens)
    flat = [x for x in sens if x[0] == 0]
    claim(worst[0] < 0.05, "the barrier's cycles move by less than 5 % with the buffer depth")
    out.append(
        f"- **The barrier's own sensitivity to depth** is small: from {g.dk(g.cases[0], 2)} to "
        f"{max(17, max(g.dk(c, g.phases[c]) for c in g.cases))} flits its cycles move by at most "
        f"{pct(worst[0])} ({topo_name(*worst[1])}, t_s = {worst[2]}), and not at all in {len(flat)} of {len(sens)} "
        f"cells ({names([(c, ts) for _, c, ts in flat])}). The priority router's gains at equal depth are therefore "
        "not the barrier's losses.")
    t1000 = {x: r for x, r in own.items() if x[1] == 1000}
    t10 = {x: r for x, r in own.items() if x[1] == 10}
    out.append(
        "- **t_s**: the gain is the overlap of phases (startups and the barrier's own latency), largest with short "
        f"phases: one level per phase at the throttle's depth gives {span(t10.values())} at t_s = 10 and "
        f"{span(t1000.values())} at t_s = 1000.")
    k2, k4, plain = need(a, "r2d_v1_d8_k2"), need(a, "r2d_v1_d8_k4"), need(a, "r2d_v1_d8")
    out.append(
        "- **What it costs** (\"In the RTL\" above): 2 levels "
        f"+{100 * (sz(k2) / sz(plain) - 1):.1f} % {sz_name(k2)}, 4 levels +{100 * (sz(k4) / sz(plain) - 1):.1f} %"
        f" over the plain router; one level per phase ({span([g.phases[c] for c in g.cases], str)} levels here): "
        + re.sub(r"^At ", "at ", k8_sentence(a, plain)) + " The barrier unit is "
        f"{pct(sz(need(a, 'barrier_2d')) / sz(plain))} of the router's {sz_name(plain)} (`docs/sync-study.md`).")
    # With fewer levels than phases: per cell, does priority win at every depth tried, lose at every one, or
    # does the depth decide?
    def verdict(k):
        win, lose, mixed = [], [], []
        for c, ts in cells:
            rs = [g.ratio(c, ts, k, d) for d in g.depths(c, k)]
            rs = [r for r in rs if r is not None]
            if not rs:
                continue
            (win if max(rs) < 1 else lose if min(rs) >= 1 else mixed).append((c, ts))
        return win, lose, mixed

    out.append("")
    claim(min(g.phases.values()) > 4, "every schedule here has more phases than 4 levels")
    own_lose = where(own, lambda r: r >= 1)
    text = ("**The seed's claim, restated from the grid.** \"The overall latency will not be degraded\" holds, and "
            "priorities beat the barrier, when every phase has its own level and the buffers leave the throttle its "
            f"room (D >= (P - 1) r + 4): in {len(beat_own)} of {len(own)} cells"
            + (f"; not in {names(own_lose)}" if own_lose else "") + ".")
    # Where one level per phase loses: the best (K, D) the grid has there.
    rescue = []
    for c, ts in own_lose:
        best = min(((g.ratio(c, ts, k, d), k, d) for k in g.levels(c) for d in g.depths(c, k)
                    if g.ratio(c, ts, k, d) is not None), default=None)
        if best and best[0] < 1:
            rescue.append(f"{topo_name(*c)} at t_s = {ts}: K = {best[1]}, D = {best[2]} gives {best[0]:.2f} where "
                          f"one level per phase gives {own[(c, ts)]:.2f}")
    if rescue:
        text += " Where it loses, fewer levels win (" + "; ".join(rescue) + ")."
    for k in (4, 2):
        win, lose, mixed = verdict(k)
        text += (f" With {k} levels (fewer than the phases everywhere here) priorities beat the barrier at every "
                 f"depth tried in {len(win)} cells ({names(win) or 'none'}), lose at every depth in {len(lose)} "
                 f"({names(lose) or 'none'}), and the depth decides in {len(mixed)} ({names(mixed) or 'none'}).")
    out.append(text)
    return prose(out)


def priority_plot(rows, path):
    plt = pyplot()
    if not plt:
        return
    g = Prio(rows)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=True)
    series = [("K=4, D=8 (the defaults)", lambda c: (4, 8), "-"), ("K=2, D=17", lambda c: (2, 17), "--"),
              ("K=4, D=17", lambda c: (4, 17), "-"), ("K=P, D=17", lambda c: (g.phases[c], 17), "-"),
              ("K=P, D=D_P", lambda c: (g.phases[c], g.dk(c, g.phases[c])), ":")]
    for ax, ts in zip(axes, PRIORITY_TS):
        for label, kd, ls in series:
            xs, ys = [], []
            for i, c in enumerate(g.cases):
                r = g.ratio(c, ts, *kd(c))
                if r:
                    xs.append(i)
                    ys.append(r)
            ax.plot(xs, ys, marker="o", ls=ls, label=label)
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xticks(range(len(g.cases)))
        ax.set_xticklabels([f"{a}\n{t}" for a, t in g.cases], fontsize=7, rotation=90)
        ax.set_title(f"t_s = {ts}")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("priority cycles / barrier cycles at the same depth")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- hardwired gossip ---------------------------------------------------------------------------

GOSSIP_TOPOS = ["8x8", "16x16", "32x32", "6x6x6"]


def gossip_rows(rows):
    return sorted(rows, key=lambda r: (r["algorithm"], GOSSIP_TOPOS.index(r["torus"]), r["ts"], r["data_bytes"]))


def gossip_table(rows, skipped=()):
    md = ["| scheme | torus | t_s | bytes per node | steps | hardwired | driven, barriers | driven, none | "
          "driven, local | barriers (barrier / none) | startups (none / hardwired) | speedup (barrier / hardwired) | "
          "wormhole baseline | hardwired vs baseline |",
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in gossip_rows(rows):
        hw, b, no = r["hw_cycles"], r["driven_cycles"], r["driven_none_cycles"]
        base = r["baseline_cycles"]
        md.append(f"| {r['algorithm']} | {r['torus']} | {r['ts']} | {r['data_bytes']} | {r['steps']} | {hw} | {b} | "
                  f"{no} | {r['driven_local_cycles']} | {b / no:.2f} | {no / hw:.2f} | {b / hw:.1f}x | "
                  f"{r['baseline']} {base if base != '' else '-'} | "
                  f"{(f'{base / hw:.1f}x') if base != '' else '-'} |")
    if skipped:
        md += ["", wrap("Cases over the study's budget of router-cycles (step-model cycles at t_s = 100 times the "
                        "nodes), not run: " + ", ".join(f"{s['algorithm']} {s['torus']} with {s['data_bytes']} bytes "
                                                        f"({n(s['router_cycles'])})" for s in skipped) + ".")]
    return "\n".join(md)


def gossip_findings(rows):
    rows = gossip_rows(rows)
    key = {(r["algorithm"], r["torus"], r["ts"], r["data_bytes"]): r for r in rows}
    sp = [r["driven_cycles"] / r["hw_cycles"] for r in rows]
    sync = [r["driven_cycles"] / r["driven_none_cycles"] for r in rows]
    start = [r["driven_none_cycles"] / r["hw_cycles"] for r in rows]
    claim(all(r["driven_none_cycles"] < r["driven_cycles"] for r in rows), "dropping the barriers speeds every run up")
    slower = [f"{r['algorithm']} {r['torus']} at t_s = {r['ts']} with {r['data_bytes']} bytes" for r in rows
              if r["hw_cycles"] > r["driven_none_cycles"]]
    same_local = all(r["driven_local_cycles"] == r["driven_none_cycles"] and r["local_null_messages"] == 0 for r in rows)
    e = key[("ms-hc", "8x8", 10, 384)]
    e2 = key[("ms-hc", "16x16", 10, 384)]

    def split(r):
        return (f"{n(r['driven_cycles'])} cycles with barriers, {n(r['driven_none_cycles'])} without, "
                f"{n(r['hw_cycles'])} hardwired: {r['driven_cycles'] / r['driven_none_cycles']:.2f} x "
                f"{r['driven_none_cycles'] / r['hw_cycles']:.2f} = {r['driven_cycles'] / r['hw_cycles']:.2f}")

    out = ["What it shows (every run checked ok; `docs/gossip-hw/runs.csv` has every figure; "
           "`scripts/doc_studies.py` renders this section from it):", ""]
    out.append(
        "- **Hardwiring gains twice: it drops the barriers and the per-step startups, and the fair baseline splits "
        "the two.** The schedule runs correctly without any synchronization (`--sync none`: each node forwards a "
        "piece only once it holds it, which keeps the store-and-forward steps in order)"
        + ("; `--sync local` derives no signal for these schedules (0 null messages) and takes exactly the cycles "
           "of `--sync none`" if same_local else "")
        + f". Dropping the barriers alone is {span(sync)} times faster; hardwiring the rest, the startups and the "
        f"interfaces' step-by-step issue, another {span(start)}"
        + (f" (below 1, hardwired slower than the unsynchronized schedule, in {len(slower)} of {len(rows)} cases: "
           f"{', '.join(slower)})" if slower else "")
        + f"; together {span(sp)} "
        f"(ms-hc 8x8, t_s = 10, 384 bytes per node: {split(e)}; 16x16: {split(e2)}). The barriers' share is "
        f"largest at small t_s: at t_s = 10 barrier / none is {span([r['driven_cycles'] / r['driven_none_cycles'] for r in rows if r['ts'] == 10])}"
        f", at t_s = 1000 {span([r['driven_cycles'] / r['driven_none_cycles'] for r in rows if r['ts'] == 1000])}.")
    # The largest torus the study ran ms-hc on at 384 bytes (32x32 unless its budget skipped it).
    big_topo = max((r["torus"] for r in rows if r["algorithm"] == "ms-hc" and r["data_bytes"] == 384
                    and len(r["torus"].split("x")) == 2), key=lambda t: int(t.split("x")[0]))
    big = key[("ms-hc", big_topo, 1000, 384)]
    link = [key[(a, "8x8", 10, 1536)] for a in ("ms-hc", "ms-one")]
    out.append(
        "- **The startups' share is largest where they dominate**: large t_s, small data, many steps. ms-hc on "
        f"{big_topo} at t_s = 1000 takes {n(big['driven_cycles'])} cycles with barriers and {n(big['driven_none_cycles'])} without "
        f"({big['steps']} steps, each paying t_s), {n(big['hw_cycles'])} hardwired (one t_s, then the routers): "
        f"{big['driven_none_cycles'] / big['hw_cycles']:.1f} times faster than the unsynchronized run. On 8x8 at "
        f"t_s = 10 with 1536 bytes per node the unsynchronized run over the hardwired one is only "
        f"{link[0]['driven_none_cycles'] / link[0]['hw_cycles']:.2f} (ms-hc) and "
        f"{link[1]['driven_none_cycles'] / link[1]['hw_cycles']:.2f} (ms-one): there the links, not the startups, "
        "bound it.")
    h = [key[("ms-hc", "16x16", ts, 384)] for ts in (10, 100, 1000)]
    flits = -(-h[0]["data_bytes"] // h[0]["pieces"] // 16)
    per = [(r["hw_cycles"] - r["ts"]) / r["steps"] for r in h]
    drv = [(r["driven_cycles"] - r["steps"] * r["ts"]) / r["steps"] for r in h]
    none = [(r["driven_none_cycles"] - r["steps"] * r["ts"]) / r["steps"] for r in h]
    claim(max(per) - min(per) < 2, "the hardwired time does not grow with t_s")
    out.append(
        "- **The hardwired time grows with the data, not with t_s**: ms-hc 16x16 takes "
        f"{', '.join(n(r['hw_cycles']) for r in h)} cycles at t_s 10, 100, 1000 (384 bytes): one startup plus "
        f"{span(per, lambda x: f'{x:.1f}')} cycles per step, close to the packet's {flits} flits per step plus the "
        f"pipeline. Driven step by step it costs t_s + {span(drv, lambda x: f'{x:.0f}')} cycles per step with "
        f"barriers (the packet, the hops, a barrier of {h[0]['barrier_latency']} cycles) and t_s + "
        f"{span(none, lambda x: f'{x:.0f}')} without.")
    pairs = [(key[("ms-hc", r["torus"], r["ts"], 384)], r) for r in rows
             if r["algorithm"] == "ms-one" and r["data_bytes"] == 384 and ("ms-hc", r["torus"], r["ts"], 384) in key]
    hc_one = [o["hw_cycles"] / c["hw_cycles"] for c, o in pairs]
    claim(all(x > 1 for x in hc_one), "ms-hc beats ms-one in hardware at 384 bytes")
    one_drv = sum(o["driven_cycles"] < c["driven_cycles"] for c, o in pairs)
    one_none = sum(o["driven_none_cycles"] < c["driven_none_cycles"] for c, o in pairs)
    out.append(
        f"- **ms-hc beats ms-one in hardware in every case measured at 384 bytes**, by {span(hc_one)}: it sends "
        "half-size packets both ways round the cycles, so its store-and-forward hops are shorter, which outweighs "
        f"ms-one's fewer steps ({key[('ms-one', '8x8', 10, 384)]['steps']} against "
        f"{key[('ms-hc', '8x8', 10, 384)]['steps']} on 8x8). Driven step by step, ms-one is the faster one in "
        f"{one_drv} of {len(pairs)} cases with barriers and {one_none} of {len(pairs)} without (fewer steps, fewer "
        "startups).")
    based = [r for r in rows if r["baseline_cycles"] != ""]
    vb = [r["baseline_cycles"] / r["hw_cycles"] for r in based]
    win = [r for r in based if r["driven_cycles"] < r["baseline_cycles"]]
    lose = [r for r in based if r["driven_cycles"] >= r["baseline_cycles"]]
    claim(all(r in win for r in based if r["data_bytes"] >= 384 and r["ts"] <= 100),
          "schedule-driven gossip beats the wormhole baseline with 384 and 1536 bytes at t_s <= 100")
    claim(all(r in lose for r in based if r["data_bytes"] == 96 and r["ts"] >= 100),
          "schedule-driven gossip loses to the wormhole baseline with 96 bytes at t_s >= 100")

    def where_cases(rs):
        """The cases grouped by (t_s, bytes): 't_s = 1000, 384 bytes: ms-hc 8x8, ...'."""
        per = {}
        for r in rs:
            per.setdefault((r["ts"], r["data_bytes"]), []).append(f"{r['algorithm']} {r['torus']}")
        return "; ".join(f"t_s = {ts}, {b} bytes: {', '.join(v)}" for (ts, b), v in sorted(per.items()))

    lose_none = [r for r in lose if r["driven_none_cycles"] > r["baseline_cycles"]]
    odd = [r for r in win if r["ts"] == 1000 or (r["data_bytes"] == 96 and r["ts"] == 100)]
    out.append(
        "- **Against the wormhole baseline** (the all-to-all exchange of the same data, which does not combine "
        f"copies) the hardwired gossip is {span(vb, lambda x: f'{x:.1f}')} times faster. Schedule-driven with "
        f"barriers, ms-hc and ms-one beat it in {len(win)} of {len(based)} cases: every case with 384 or 1536 bytes "
        "at t_s <= 100, where the data is large against t_s"
        + (f", and {where_cases(odd)}, where t4's personalized exchange moves {odd[0]['data_bytes']} bytes per "
           "node to every node in long worms" if odd else "")
        + f". They lose in the other {len(lose)} ({where_cases(lose)}): their tens to hundreds of startups "
        f"cost more than t4's few long worms (ms-hc {big_topo} at t_s = 1000: {n(big['driven_cycles'])} against "
        f"{n(big['baseline_cycles'])}); without barriers they still lose in {len(lose_none)} of those {len(lose)}. "
        "That baseline is an upper bound on a wormhole allgather: a broadcast-based one would combine copies; "
        "torx has no such algorithm, so the comparison says how far ahead the hardware is of the best wormhole "
        "schedule torx runs, not of the best one possible.")
    return prose(out)


def gossip_area(a, source):
    g2, p2 = need(a, "g2d_all_d8"), need(a, "r2d_all_v1_d8")
    u2 = need(a, "g2d_all_d8", "gossip unit")
    try:  # the 3D pair: a run of part of the table may lack it (docs/area.md names what it leaves out)
        g3, p3 = need(a, "g3d_all_d8"), need(a, "r3d_all_v1_d8")
    except Unsupported:
        g3 = p3 = None
    pairs = ["g2d_all_d8", "r2d_all_v1_d8"] + (["g3d_all_d8", "r3d_all_v1_d8"] if g3 else [])
    cfgs = configs(a, pairs, "yosys generic synthesis, 16-byte flits, D = 8, 16 rules")
    three = (f", in 3D {cf(g3)} against {cf(p3)} ({sz_name(g3)} {sz(g3) / sz(p3):.2f}, flip-flops "
             f"{g3['flops'] / p3['flops']:.2f})" if g3 else
             " (the 3D pair, `g3d` and `r3d_all_f16`, is not in the area data: `docs/area.md` names what its run "
             "left out)")
    smaller = sz(g2) < sz(p2) and (g3 is None or sz(g3) < sz(p3))
    return wrap(f"Its area against the plain router's ({source}; {cfgs}; cells / flip-flops): in 2D {cf(g2)} against the plain all-port router's {cf(p2)} "
            f"({sz_name(g2)} {sz(g2) / sz(p2):.2f}, flip-flops {g2['flops'] / p2['flops']:.2f}){three}; the gossip unit (rules and lookups) "
            f"is {cf(u2)} of the 2D router. The gossip router is "
            + ("smaller" if smaller else "not smaller")
            + ": it drops the routing table, allocators, crossbar and the second dateline class's buffers, and pays "
            "for the rules, the oldest-first claims and a 21-bit wider flit.")


def gossip_plot(rows, path):
    plt = pyplot()
    if not plt:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, algo in zip(axes, ("ms-hc", "ms-one")):
        for topo in GOSSIP_TOPOS:
            sel = sorted((r for r in rows if r["algorithm"] == algo and r["torus"] == topo and r["data_bytes"] == 384),
                         key=lambda r: r["ts"])
            if not sel:
                continue
            line = ax.plot([r["ts"] for r in sel], [r["driven_cycles"] / r["hw_cycles"] for r in sel], marker="o",
                           label=f"{topo}: barriers / hardwired")
            ax.plot([r["ts"] for r in sel], [r["driven_none_cycles"] / r["hw_cycles"] for r in sel], marker="s",
                    ls="--", color=line[0].get_color(), label=f"{topo}: none / hardwired")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("t_s (cycles)")
        ax.set_title(f"{algo}, 384 bytes per node")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("schedule-driven cycles / hardwired cycles")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# --- documents ----------------------------------------------------------------------------------

def data(rel):
    return read_csv(os.path.join(ROOT, rel))


def regions(study):
    """[(name, content)] of the study's document, rendered from docs/."""
    a, source = area()
    if study == "sync":
        rows = data("docs/sync-study/runs.csv")
        return [("sync-cost", sync_cost(a, source)), ("sync-findings", sync_findings(rows)),
                ("sync-signals", sync_signals(data("docs/sync-study/signals.csv"))),
                ("sync-study-tables", sync_tables(rows, data("docs/sync-study/skipped.csv")))]
    if study == "priority":
        rows = data("docs/priority-study/runs.csv")
        return [("priority-area", priority_area(a, source)),
                ("priority-study", priority_tables(rows, data("docs/priority-study/skipped.csv"))),
                ("priority-findings", priority_findings(rows, a))]
    if study == "gossip":
        rows = data("docs/gossip-hw/runs.csv")
        return [("gossip-area", gossip_area(a, source)), ("gossip-hw", gossip_table(rows, data("docs/gossip-hw/skipped.csv"))),
                ("gossip-findings", gossip_findings(rows))]
    raise ValueError(study)


def render(study):
    path = os.path.join(ROOT, DOCS[study])
    with open(path) as f:
        old = f.read()
    new = old
    for name, content in regions(study):
        new = fill(new, name, content)
    return path, old, new


def update(study):
    """Rewrites the study's document from its CSV; returns the paths that changed."""
    path, old, new = render(study)
    if new == old:
        return []
    with open(path, "w") as f:
        f.write(new)
    return [path]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--update", action="store_true", help="rewrite the documents' generated regions")
    ap.add_argument("--render-only", action="store_true",
                    help="render every region and compare nothing (exit 0 when every document renders)")
    ap.add_argument("--area", metavar="FILE", help="a torx.area document to take the hardware costs from "
                    "[docs/area/area.json, else docs/area-figures.csv]")
    ap.add_argument("studies", nargs="*", default=list(DOCS), help=f"of {', '.join(DOCS)} [all]")
    a = ap.parse_args()
    global AREA_FILE
    AREA_FILE = os.path.abspath(a.area) if a.area else None
    if AREA_FILE and not os.path.isfile(AREA_FILE):
        print(f"doc_studies: --area {a.area}: no such file", file=sys.stderr)
        return 2
    bad = 0
    for study in a.studies:
        if study not in DOCS:
            print(f"doc_studies: {study}: not one of {', '.join(DOCS)}", file=sys.stderr)
            return 2
        try:
            path, old, new = render(study)
        except (Unsupported, ValueError, KeyError, OSError) as e:
            print(f"{DOCS[study]}: cannot render: {type(e).__name__}: {e}", file=sys.stderr)
            bad += 1
            continue
        if new == old or a.render_only:
            continue
        if a.update:
            with open(path, "w") as f:
                f.write(new)
            print(f"rewrote {DOCS[study]}")
            continue
        bad += 1
        diff = difflib.unified_diff(old.split("\n"), new.split("\n"), f"{DOCS[study]} (as written)",
                                    f"{DOCS[study]} (rendered from its CSV)", lineterm="", n=1)
        print("\n".join(diff))
        print(f"{DOCS[study]}: differs from its CSV files (above). A figure edited by hand is overwritten by "
              "`scripts/doc_studies.py --update`; a new CSV needs the same (then read the diff).")
    if a.render_only:
        print(f"doc studies: {len(a.studies) - bad} of {len(a.studies)} documents rendered")
    elif not a.update:
        print(f"doc studies: {len(a.studies)} documents checked, {bad} differ from their CSV files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
