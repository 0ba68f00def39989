#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What hardwiring the gossip buys, split into startups and synchronization: the study behind
docs/gossip.md, "Hardwired forwarding, measured".

For ms-hc and ms-one on 8x8, 16x16, 32x32 and 6x6x6 tori, at t_s 10, 100 and 1000 cycles and
per-node data of 96, 384 and 1536 bytes (split into the scheme's pieces; 32x32 and 6x6x6 at 384
bytes only), runs the cycle model five ways: the routers forwarding by their tables (`--gossip-hw`);
the same scheme driven step by step by the interfaces with the hardware barrier between steps
(`--sync barrier`), without any synchronization (`--sync none`: the schedule is still correct, the
store-and-forward data dependencies order it) and with local synchronization (`--sync local`); and
the best wormhole baseline torx has for the same exchange: the all-to-all personalized exchange of
the same per-node data (t4 on square 2D tori, tseng-dd on 6x6x6, with barriers), which delivers every
node's data to every node as an allgather must (it does not combine the copies, so it is an upper
bound on a wormhole allgather). Barrier -> none is what synchronization costs; none -> hardwired is
what the startups and the interfaces' step-by-step issue cost. Every run must check ok. Buffers hold
two whole packets (gossip mode is store-and-forward, double-buffered): buffer_depth = max(8, 2 x the
flits of the largest piece), the same for every way.

  scripts/gossip_hw_study.py [--torx build/bin/torx] [--jobs 1] [--param NAME=VALUE ...]
                             [--out DIR | --update-docs] [--budget 1e9] [--quick] [--work DIR]

--out DIR (default ./gossip-hw) receives runs.csv, tables.md and speedup.svg; --update-docs writes
them into docs/gossip-hw/ and re-renders docs/gossip.md (scripts/doc_studies.py). --param is passed to
every run (buffer_depth is set by the study and refused). --budget skips cases whose step-model
cycles times nodes exceed it (listed in tables.md). Runs are cached per case in --work.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_common as sc  # noqa: E402

TOPOS = ["8x8", "16x16", "32x32", "6x6x6"]
TS = [10, 100, 1000]
DATA = [96, 384, 1536]
FLIT = 16
# The schedule-driven ways: label, --sync mode.
DRIVEN = [("driven", "barrier"), ("driven-none", "none"), ("driven-local", "local")]


def pieces(algo, topo):
    return 1 if algo == "ms-one" else len(topo.split("x"))


def baseline(topo):
    return "tseng-dd" if len(topo.split("x")) == 3 else "t4"


def depth(data):
    return max(8, 2 * -(-data // FLIT))  # two packets of the largest piece (ms-one's: the whole data)


def cases(quick):
    """(algo, topo, data, block bytes) per scheme and the baseline, and (way, extra args) per run."""
    out = []
    for topo in TOPOS:
        for data in DATA:
            # The largest tori at the middle size only: the schedule-driven and baseline runs cost minutes.
            if topo in ("32x32", "6x6x6") and data != 384:
                continue
            if quick and (topo != "8x8" or data != 384):
                continue
            for algo in ("ms-hc", "ms-one"):
                if algo == "ms-one" and len(topo.split("x")) == 3 and int(topo.split("x")[0]) % 3:
                    continue
                ways = [("hw", ["--gossip-hw"])] + [(w, ["--sync", m]) for w, m in DRIVEN]
                out.append((algo, topo, data, data // pieces(algo, topo), ways))
            out.append((baseline(topo), topo, data, data, [("wormhole", [])]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_arguments(ap, "gossip-hw", jobs=1, budget=1e9)
    ap.add_argument("--quick", action="store_true", help="8x8 at 384 bytes only")
    a = ap.parse_args()
    out, extra = sc.settle(a, "gossip-hw", own=("buffer_depth",))
    t0 = time.monotonic()
    todo, skipped = [], []
    for algo, topo, data, blk, ways in cases(a.quick):
        common = ["--topo", topo, "--flit-bytes", str(FLIT), "--param", f"buffer_depth={depth(data)}", *extra,
                  "--block-bytes", str(blk)]
        step = sc.run(a.torx, [algo, "--topo", topo, "--flit-bytes", str(FLIT), "--block-bytes", str(blk), "--ts", "100"],
                      os.path.join(a.work, f"{algo}-{topo}-m{data}-step{sc.tag(extra)}.json"))
        if "error" in step:
            sc.fail(f"{algo} {topo}: {step['stderr']}")
        work = step["timing"]["step_model_cycles"] * step["topology"]["nodes"]
        if work > a.budget:
            skipped.append({"algorithm": algo, "torus": topo, "data_bytes": data,
                            "step_model_cycles_ts100": step["timing"]["step_model_cycles"], "router_cycles": work})
            continue
        for ts in TS:
            for way, wargs in ways:
                key = (algo, topo, ts, data, way)
                path = os.path.join(a.work, f"{algo}-{topo}-ts{ts}-m{data}-{way}{sc.tag(extra)}.json")
                todo.append((key, [algo, "--model", "cycle", *common, "--ts", str(ts), *wargs], path, work))
    todo.sort(key=lambda t: t[3])
    results = sc.run_all(a.torx, a.jobs, [t[:3] for t in todo])
    bad = sc.failures(results)
    for k in bad:
        print(f"FAILED: {k}: {results[k]}", file=sys.stderr)
    if bad:
        return 1
    rows = []
    for (algo, topo, ts, data, way), r in sorted(results.items()):
        if way != "hw":
            continue
        base = results.get((baseline(topo), topo, ts, data, "wormhole"), {})
        drv = {w: results[(algo, topo, ts, data, w)] for w, _ in DRIVEN}
        g = r["gossip_hw"]
        rows.append({"algorithm": algo, "torus": topo, "ts": ts, "data_bytes": data, "pieces": r["pieces"],
                     "hw_cycles": r["cycles"], "driven_cycles": drv["driven"]["cycles"],
                     "driven_none_cycles": drv["driven-none"]["cycles"],
                     "driven_local_cycles": drv["driven-local"]["cycles"],
                     "local_null_messages": drv["driven-local"]["cycle_model"]["null_messages"],
                     "barriers": drv["driven"]["cycle_model"]["barriers"],
                     "barrier_latency": drv["driven"]["cycle_model"]["barrier_latency"],
                     "baseline": baseline(topo), "baseline_cycles": base.get("cycles", ""),
                     "steps": g["steps_equivalent"], "host_sends": g["host_sends"],
                     "router_copies": g["router_copies"], "buffer_depth": depth(data)})
    sc.write_csv(os.path.join(out, "runs.csv"), rows)
    sc.write_csv(os.path.join(out, "skipped.csv"), skipped,
                 ["algorithm", "torus", "data_bytes", "step_model_cycles_ts100", "router_cycles"])
    import doc_studies
    rows = doc_studies.read_csv(os.path.join(out, "runs.csv"))
    if not a.update_docs:  # the document holds the tables
        with open(os.path.join(out, "tables.md"), "w") as f:
            f.write(doc_studies.gossip_table(rows, doc_studies.read_csv(os.path.join(out, "skipped.csv"))) + "\n")
    doc_studies.gossip_plot(rows, os.path.join(out, "speedup.svg"))
    if a.update_docs:
        sc.render_docs("gossip")
    print(f"gossip study: {len(results)} runs checked ok, {len(skipped)} cases over the budget, "
          f"{time.monotonic() - t0:.0f} s; results in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
