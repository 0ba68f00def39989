#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Barrier versus local synchronization versus software barriers: the study behind docs/sync-study.md.

For each algorithm and size, t_s and block size, runs the cycle model under every synchronization
mode (`--sync none`, `barrier` with barrier hop latency 1 and 4, `local` with the null message's
startup t_s and 0, `software`, and `priority` where the build has it), plus the EXTRA runs below that
the document quotes. Every run must check ok (every block at its destination with its content).
Results are cached per run in --work, so an interrupted study resumes where it stopped.

  scripts/sync_study.py [--torx build/bin/torx] [--jobs 2] [--param NAME=VALUE ...]
                        [--out DIR | --update-docs] [--budget 2e8] [--only ALGO] [--work DIR]

--out DIR (default ./sync-study) receives runs.csv, skipped.csv, tables.md and the plots;
--update-docs writes them into docs/sync-study/ and re-renders docs/sync-study.md from them
(scripts/doc_studies.py). --param is passed to every run. --budget caps the work of one case in
router-cycles (the step model's cycles at t_s = 100 times the routers); the cases above it are
listed with their step-model cycles instead. The plots need python3-matplotlib (/usr/bin/python3).
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_common as sc  # noqa: E402

ALGOS = [("ring", f"{1 << d}", []) for d in range(5, 11)] + [
    ("t4", "16x16", []), ("t4", "32x32", []), ("t1", "16x16", []), ("c1", "8x8x8", []), ("c64", "8x8x8", []),
    ("suh", "16x16", ["--mesh"]), ("tsay-wang", "16x16", [])]
TS = [10, 100, 1000]
BLOCKS = [16, 64, 1024]
MODES = [("none", "none", []), ("barrier h=1", "barrier", []), ("barrier h=4", "barrier", ["--param", "barrier_hop_latency=4"]),
         ("local", "local", []), ("local null_ts=0", "local", ["--param", "null_ts=0"]), ("software", "software", []),
         ("priority", "priority", [])]
# Runs outside the grid that the document quotes: (algo, topo, ts, block, label, sync, extra args).
EXTRA = [("ring", "32", 100, 1024, "local vcs_per_class=2", "local", ["--param", "vcs_per_class=2"]),
         ("ring", "32", 100, 1024, "barrier vcs_per_class=2", "barrier", ["--param", "vcs_per_class=2"])]


def case_name(algo, topo, ts, block, mode):
    return f"{algo}-{topo}-ts{ts}-b{block}-{mode.replace(' ', '').replace('=', '')}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_arguments(ap, "sync-study", jobs=2, budget=2e8)
    ap.add_argument("--only", default="", help="one algorithm only")
    a = ap.parse_args()
    out, extra = sc.settle(a, "sync-study")
    own = {p.split("=", 1)[0] for p in a.param}
    t0 = time.monotonic()
    # Which modes this build runs; a mode that sets a parameter the user gives is left out.
    modes = []
    for label, sync, mextra in MODES:
        if any(x.split("=", 1)[0] in own for x in mextra[1::2]):
            print(f"sync_study: leaving out `{label}` (its parameter is given by --param)", file=sys.stderr)
            continue
        p = subprocess.run([a.torx, "run", "ring", "--topo", "8", "--model", "cycle", "--sync", sync, *mextra, *extra],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if p.returncode == 0:
            modes.append((label, sync, mextra))
    tag = sc.tag(extra)
    # Step-model figures decide what fits the budget.
    jobs, skipped, step = [], [], {}
    for algo, topo, aextra in ALGOS:
        if a.only and a.only != algo:
            continue
        for block in BLOCKS:
            for ts in TS:
                path = os.path.join(a.work, case_name(algo, topo, ts, block, "step") + ".json")
                d = sc.run(a.torx, [algo, "--topo", topo, *aextra, "--ts", str(ts), "--block-bytes", str(block)], path)
                if "error" in d:
                    sc.fail(f"{algo} {topo}: {d['stderr']}")
                step[(algo, topo, ts, block)] = d
            d = step[(algo, topo, TS[1], block)]
            work = d["timing"]["step_model_cycles"] * d["topology"]["nodes"]  # router-cycles, roughly
            for ts in TS:
                if work > a.budget:
                    skipped.append({"algorithm": algo, "topology": topo, "ts": ts, "block_bytes": block,
                                    "step_model_cycles": step[(algo, topo, ts, block)]["timing"]["step_model_cycles"],
                                    "router_cycles": work})
                    continue
                for label, sync, mextra in modes:
                    args = [algo, "--topo", topo, *aextra, "--model", "cycle", "--sync", sync, *mextra, *extra,
                            "--ts", str(ts), "--block-bytes", str(block)]
                    jobs.append(((algo, topo, ts, block, label), args,
                                 os.path.join(a.work, case_name(algo, topo, ts, block, label) + tag + ".json"), work))
    for algo, topo, ts, block, label, sync, mextra in EXTRA:
        if (a.only and a.only != algo) or any(x.split("=", 1)[0] in own for x in mextra[1::2]):
            continue
        args = [algo, "--topo", topo, "--model", "cycle", "--sync", sync, *mextra, *extra, "--ts", str(ts),
                "--block-bytes", str(block)]
        jobs.append(((algo, topo, ts, block, label), args,
                     os.path.join(a.work, case_name(algo, topo, ts, block, label) + tag + ".json"), 0))
    jobs.sort(key=lambda j: j[3])
    results = sc.run_all(a.torx, a.jobs, [j[:3] for j in jobs])
    bad = sc.failures(results)
    if bad:
        for k in bad:
            print(f"FAILED {k}: {results[k]}", file=sys.stderr)
        print(f"{len(bad)} runs failed", file=sys.stderr)
        return 1
    write_outputs(out, results, skipped, extra)
    if a.update_docs:
        sc.render_docs("sync")
    print(f"sync study: {len(results)} runs checked ok, {len(skipped)} cases over the budget, "
          f"{time.monotonic() - t0:.0f} s; results in {out}", file=sys.stderr)
    return 0


def write_outputs(out, results, skipped, extra):
    rows = []
    for (algo, topo, ts, block, label), d in sorted(results.items()):
        c = d["cycle_model"]
        rows.append({"algorithm": algo, "topology": topo, "nodes": d["topology"]["nodes"], "ts": ts, "block_bytes": block,
                     "mode": label, "cycles": d["cycles"], "step_model_cycles": d["timing"]["step_model_cycles"],
                     "barriers": c["barriers"], "barrier_latency": c["barrier_latency"],
                     "null_messages": c.get("null_messages", 0), "null_flit_hops": c.get("null_flit_hops", 0),
                     "sync_wait_cycles": c.get("sync_wait_cycles", 0), "blocked_cycles": c["blocked_cycles"],
                     "steps": d["steps"]})
    sc.write_csv(os.path.join(out, "runs.csv"), rows)
    sc.write_csv(os.path.join(out, "skipped.csv"), skipped,
                 ["algorithm", "topology", "ts", "block_bytes", "step_model_cycles", "router_cycles"])
    import doc_studies
    rows = doc_studies.read_csv(os.path.join(out, "runs.csv"))
    skipped = doc_studies.read_csv(os.path.join(out, "skipped.csv"))
    if not a.update_docs:  # the document holds the tables
        with open(os.path.join(out, "tables.md"), "w") as f:
            f.write(doc_studies.sync_tables(rows, skipped, extra) + "\n")
    doc_studies.sync_plots(rows, out)


if __name__ == "__main__":
    sys.exit(main())
