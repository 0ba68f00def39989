#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seed 000's claim for prioritized messages as a factorial experiment: docs/priority.md, "The seed's
claim, measured".

"The overall latency will not be degraded even if some transmissions of posterior phases start before
prior phases" (Section 7.3), "provided at least a number of priority levels equal to the number of
phases". Factors, for ring (2^5 .. 2^9), t4 (16x16, 32x32), t1 (16x16), c1 and c64 (8x8x8) with
64-byte blocks:

  levels K        2, 4, and P (one level per phase: the schedule's distinct priorities)
  buffer depth D  8 (the default), 17, and D_K = (K - 1) r + L + P_r + Lc, the depth at which the
                  throttle leaves the lowest level the credit loop's slots (full throughput;
                  docs/timing-contract.md; r = priority_reserve: D_4 = 7 with the defaults r = 1,
                  L + P_r + Lc = 4)
  t_s             10, 100, 1000 cycles

`--sync priority` runs every (K, D) with D > (K - 1) r (a smaller D leaves the lowest level no slot and
is refused by torx); the hardware barrier (`--sync barrier`) runs at every depth that occurs (its own
sensitivity to depth) and `--sync none` at 8 and 17 flits. Every run must check ok.

  scripts/priority_study.py [--torx build/bin/torx] [--jobs 1] [--param NAME=VALUE ...]
                            [--out DIR | --update-docs] [--budget 1e8] [--work DIR]

--out DIR (default ./priority-study) receives runs.csv, tables.md and priority.png; --update-docs
writes them into docs/priority-study/ and re-renders docs/priority.md (scripts/doc_studies.py).
--param is passed to every run (buffer_depth and priority_levels are the study's factors and are
refused). --budget skips cases whose step-model cycles at t_s = 100 times the nodes exceed it; they
are listed in tables.md and the document.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_common as sc  # noqa: E402

CASES = [("ring", f"{1 << d}") for d in range(5, 10)] + [("t4", "16x16"), ("t4", "32x32"), ("t1", "16x16"),
                                                          ("c1", "8x8x8"), ("c64", "8x8x8")]
TS = [10, 100, 1000]
BLOCK = 64
DEPTHS = [8, 17]
DEFAULTS = {"priority_reserve": 1, "link_latency": 1, "router_latency": 2, "credit_latency": 1}


def phases(torx, algo, topo, work):
    """The schedule's distinct priorities (a message without prio= has priority 0)."""
    path = os.path.join(work, f"{algo}-{topo}.sched")
    if not os.path.exists(path):
        subprocess.run([torx, "schedule", algo, "--topo", topo, "-o", path + ".tmp"], check=True,
                       stdout=subprocess.DEVNULL)
        os.replace(path + ".tmp", path)
    prios = set()
    with open(path) as f:
        for line in f:
            if " -> " in line and not line.startswith("#"):
                m = re.search(r"\bprio=(\d+)", line)
                prios.add(int(m.group(1)) if m else 0)
    return len(prios)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_arguments(ap, "priority-study", jobs=1, budget=1e8)
    a = ap.parse_args()
    out, extra = sc.settle(a, "priority-study", own=("buffer_depth", "priority_levels"))
    given = dict(p.split("=", 1) for p in a.param)
    num = {k: int(given.get(k, v)) for k, v in DEFAULTS.items()}
    r = num["priority_reserve"]
    loop = num["link_latency"] + num["router_latency"] + num["credit_latency"]
    t0 = time.monotonic()
    todo, skipped, meta = [], [], {}
    for algo, topo in CASES:
        step = sc.run(a.torx, [algo, "--topo", topo, "--ts", "100", "--block-bytes", str(BLOCK)],
                      os.path.join(a.work, f"{algo}-{topo}-ts100-b{BLOCK}-step.json"))
        if "error" in step:
            sc.fail(f"{algo} {topo}: {step['stderr']}")
        work = step["timing"]["step_model_cycles"] * step["topology"]["nodes"]
        p = phases(a.torx, algo, topo, a.work)
        meta[(algo, topo)] = {"phases": p, "work": work, "steps": step["steps"]}
        if work > a.budget:
            skipped.append((algo, topo, step["timing"]["step_model_cycles"], work))
            continue
        levels = sorted({2, 4, p})
        dk = {k: (k - 1) * r + loop for k in levels}
        cells = []
        for k in levels:
            for d in sorted(set(DEPTHS + [dk[k]])):
                if d > (k - 1) * r:
                    cells.append(("priority", k, d))
        for d in sorted(set(DEPTHS + list(dk.values()))):
            cells.append(("barrier", 1, d))
        for d in DEPTHS:
            cells.append(("none", 1, d))
        for ts in TS:
            for mode, k, d in cells:
                args = [algo, "--topo", topo, "--model", "cycle", "--sync", mode, "--ts", str(ts),
                        "--block-bytes", str(BLOCK), "--param", f"buffer_depth={d}", *extra]
                if mode == "priority":
                    args += ["--param", f"priority_levels={k}"]
                name = f"{algo}-{topo}-ts{ts}-b{BLOCK}-{mode}-k{k}-d{d}{sc.tag(extra)}.json"
                todo.append(((algo, topo, ts, mode, k, d), args, os.path.join(a.work, name), work))
    todo.sort(key=lambda t: t[3])  # cheapest cases first: an interrupted study has the most cases
    res = sc.run_all(a.torx, a.jobs, [t[:3] for t in todo])
    bad = sc.failures(res)
    if bad:
        for k in bad:
            print(f"FAILED {k}: {res[k]}", file=sys.stderr)
        return 1
    rows = []
    for algo, topo in CASES:
        for ts in TS:
            for key in sorted(k for k in res if k[:3] == (algo, topo, ts)):
                _, _, _, mode, k, d = key
                doc = res[key]
                c = doc["cycle_model"]
                rows.append({"algorithm": algo, "topology": topo, "nodes": doc["topology"]["nodes"],
                             "phases": meta[(algo, topo)]["phases"], "ts": ts, "mode": mode, "levels": k,
                             "depth": d, "throttle_depth": (k - 1) * r + loop if mode == "priority" else "",
                             "cycles": doc["cycles"], "steps": doc["steps"],
                             "preemptions": c.get("preemptions", 0), "preempted_cycles": c.get("preempted_cycles", 0),
                             "blocked_cycles": c["blocked_cycles"], "barriers": c["barriers"]})
    sc.write_csv(os.path.join(out, "runs.csv"), rows)
    sc.write_csv(os.path.join(out, "skipped.csv"),
                 [{"algorithm": s[0], "topology": s[1], "step_model_cycles_ts100": s[2], "router_cycles": s[3]}
                  for s in skipped],
                 ["algorithm", "topology", "step_model_cycles_ts100", "router_cycles"])
    import doc_studies
    if not a.update_docs:  # the document holds the tables
        with open(os.path.join(out, "tables.md"), "w") as f:
            f.write(doc_studies.priority_tables(doc_studies.read_csv(os.path.join(out, "runs.csv")),
                                                doc_studies.read_csv(os.path.join(out, "skipped.csv")), extra) + "\n")
    doc_studies.priority_plot(doc_studies.read_csv(os.path.join(out, "runs.csv")), os.path.join(out, "priority.png"))
    if a.update_docs:
        sc.render_docs("priority")
    print(f"priority study: {len(res)} runs checked ok, {len(skipped)} cases over the budget, "
          f"{time.monotonic() - t0:.0f} s; results in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
