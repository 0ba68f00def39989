#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What hardwiring the gossip buys: the study behind docs/gossip.md, "Hardwired forwarding, measured".

For ms-hc and ms-one on 8x8, 16x16, 32x32 and 6x6x6 tori, at t_s 10, 100 and 1000 cycles and
per-node data of 96, 384 and 1536 bytes (split into the scheme's pieces), runs the cycle model
three ways: the routers forwarding by their tables (`--gossip-hw`), the same scheme driven step by
step by the interfaces (with barriers), and the best wormhole baseline torx has for the same
exchange: the all-to-all personalized exchange of the same per-node data (t4 on square 2D tori,
tseng-dd on 6x6x6), which delivers every node's data to every node as an allgather must (it does not
combine the copies, so it is an upper bound on a wormhole allgather). Every run must check ok.
Buffers hold two whole packets (gossip mode is store-and-forward, double-buffered): buffer_depth =
max(8, 2 x the flits of the largest piece), the same for all three ways.

  scripts/gossip_hw_study.py [--torx build/bin/torx] [--work /tmp/torx-gossip-study] [--jobs 1]
                             [--quick] [--out docs]

Runs are cached per case in the work directory (an interrupted study resumes). Writes the table
between the markers of docs/gossip.md, docs/gossip-hw/runs.csv and docs/gossip-hw/speedup.svg
(python3-matplotlib; the plot is skipped without it).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tables import fill_file  # noqa: E402

TOPOS = ["8x8", "16x16", "32x32", "6x6x6"]
TS = [10, 100, 1000]
DATA = [96, 384, 1536]
FLIT = 16


def pieces(algo, topo):
    return 1 if algo == "ms-one" else len(topo.split("x"))


def baseline(topo):
    return "tseng-dd" if len(topo.split("x")) == 3 else "t4"


def depth(data):
    return max(8, 2 * -(-data // FLIT))  # two packets of the largest piece (ms-one's: the whole data)


def run(torx, args, path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    tmp = path + ".tmp"
    p = subprocess.run([torx, "run", *args, "--json", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr.strip()[-400:]}
    os.replace(tmp, path)
    with open(path) as f:
        return json.load(f)


def cases(quick):
    out = []
    for topo in TOPOS:
        for ts in TS:
            for data in DATA:
                # The largest tori at the middle size only: the schedule-driven and baseline runs cost minutes.
                if topo in ("32x32", "6x6x6") and data != 384:
                    continue
                if quick and (topo != "8x8" or data != 384):
                    continue
                d = depth(data)
                common = ["--model", "cycle", "--topo", topo, "--ts", str(ts), "--flit-bytes", str(FLIT),
                          "--param", f"buffer_depth={d}"]
                for algo in ("ms-hc", "ms-one"):
                    if algo == "ms-one" and len(topo.split("x")) == 3 and int(topo.split("x")[0]) % 3:
                        continue
                    blk = data // pieces(algo, topo)
                    for way, extra in (("hw", ["--gossip-hw"]), ("driven", [])):
                        out.append((algo, topo, ts, data, way, [algo, *common, "--block-bytes", str(blk), *extra]))
                b = baseline(topo)
                out.append((b, topo, ts, data, "wormhole", [b, *common, "--block-bytes", str(data)]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default="build/bin/torx")
    ap.add_argument("--work", default="/tmp/torx-gossip-study")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="8x8 at 384 bytes only")
    ap.add_argument("--out", default="docs")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    todo = cases(a.quick)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {}
        for algo, topo, ts, data, way, args in todo:
            key = (algo, topo, ts, data, way)
            path = os.path.join(a.work, f"{algo}-{topo}-ts{ts}-m{data}-{way}.json")
            futs[ex.submit(run, a.torx, args, path)] = key
        for i, f in enumerate(concurrent.futures.as_completed(futs), 1):
            key = futs[f]
            results[key] = f.result()
            print(f"[{i}/{len(futs)}] {' '.join(map(str, key))}: "
                  f"{results[key].get('cycles', results[key].get('stderr'))}", file=sys.stderr, flush=True)
    bad = [k for k, r in results.items() if "error" in r or not r.get("check", {}).get("ok")]
    for k in bad:
        print(f"FAILED: {k}: {results[k]}", file=sys.stderr)
    rows = []
    for (algo, topo, ts, data, way), r in sorted(results.items()):
        if way != "hw":
            continue
        drv = results.get((algo, topo, ts, data, "driven"), {})
        base = results.get((baseline(topo), topo, ts, data, "wormhole"), {})
        g = r.get("gossip_hw", {})
        rows.append({"algorithm": algo, "torus": topo, "ts": ts, "data_bytes": data, "pieces": r.get("pieces"),
                     "hw_cycles": r.get("cycles"), "driven_cycles": drv.get("cycles"),
                     "baseline": baseline(topo), "baseline_cycles": base.get("cycles"),
                     "steps": g.get("steps_equivalent"), "host_sends": g.get("host_sends"),
                     "router_copies": g.get("router_copies")})
    os.makedirs(os.path.join(a.out, "gossip-hw"), exist_ok=True)
    with open(os.path.join(a.out, "gossip-hw", "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    lines = ["| scheme | torus | t_s | bytes per node | steps | hardwired | schedule-driven | speedup | "
             "wormhole baseline | hardwired vs baseline |", "|---|---|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        sp = r["driven_cycles"] / r["hw_cycles"] if r["driven_cycles"] and r["hw_cycles"] else float("nan")
        vb = r["baseline_cycles"] / r["hw_cycles"] if r["baseline_cycles"] and r["hw_cycles"] else float("nan")
        lines.append(f"| {r['algorithm']} | {r['torus']} | {r['ts']} | {r['data_bytes']} | {r['steps']} | "
                     f"{r['hw_cycles']} | {r['driven_cycles']} | {sp:.1f}x | {r['baseline']} {r['baseline_cycles']} | "
                     f"{vb:.1f}x |")
    fill_file(os.path.join(a.out, "gossip.md"), [("gossip-hw", "\n".join(lines))])
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("gossip_hw_study: python3-matplotlib missing: no plot", file=sys.stderr)
        return 1 if bad else 0
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, algo in zip(axes, ("ms-hc", "ms-one")):
        for topo in TOPOS:
            pts = sorted((r["ts"], r["driven_cycles"] / r["hw_cycles"]) for r in rows
                         if r["algorithm"] == algo and r["torus"] == topo and r["data_bytes"] == 384
                         and r["driven_cycles"] and r["hw_cycles"])
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=topo)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("t_s (cycles)")
        ax.set_title(f"{algo}, 384 bytes per node")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    axes[0].set_ylabel("schedule-driven cycles / hardwired cycles")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "gossip-hw", "speedup.svg"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
