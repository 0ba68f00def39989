#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Barrier versus local synchronization versus software barriers: the study behind docs/sync-study.md.

For each algorithm and size, t_s and block size, runs the cycle model under every synchronization
mode (`--sync none`, `barrier` with barrier hop latency 1 and 4, `local`, `software`, and `priority`
where the build has it) and writes docs/sync-study.md with the tables, CSV files and plots
(docs/sync-study/). Every run is checked (exit 0 required). Results are cached per run in the work
directory, so an interrupted study resumes where it stopped.

  scripts/sync_study.py [--torx build/bin/torx] [--work /tmp/torx-sync-study] [--jobs 2]
                        [--budget 4e9] [--only ALGO] [--out docs]

--budget caps the work of one run in router-cycles (the step model's cycles at t_s = 100 times the
routers); the runs above it are listed in the document with their step-model cycles instead, and
why. The tables go between the markers of docs/sync-study.md (the prose around them is written by
hand from them); runs.csv and the plots into docs/sync-study/. Needs python3-matplotlib for the
plots.
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

ALGOS = [("ring", f"{1 << d}", []) for d in range(5, 11)] + [
    ("t4", "16x16", []), ("t4", "32x32", []), ("t1", "16x16", []), ("c1", "8x8x8", []), ("c64", "8x8x8", []),
    ("suh", "16x16", ["--mesh"]), ("tsay-wang", "16x16", [])]
TS = [10, 100, 1000]
BLOCKS = [16, 64, 1024]
MODES = [("none", "none", []), ("barrier h=1", "barrier", []), ("barrier h=4", "barrier", ["--param", "barrier_hop_latency=4"]),
         ("local", "local", []), ("local null_ts=0", "local", ["--param", "null_ts=0"]), ("software", "software", []),
         ("priority", "priority", [])]


def run(torx, args, path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    tmp = path + ".tmp"
    p = subprocess.run([torx, "run", *args, "--json", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr.strip()[-400:]}
    os.replace(tmp, path)
    with open(path) as f:
        return json.load(f)


def case_name(algo, topo, ts, block, mode):
    return f"{algo}-{topo}-ts{ts}-b{block}-{mode.replace(' ', '').replace('=', '')}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default="build/bin/torx")
    ap.add_argument("--work", default="/tmp/torx-sync-study")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=float, default=2e8)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="docs")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    # Which modes this build runs.
    modes = []
    for label, sync, extra in MODES:
        p = subprocess.run([a.torx, "run", "ring", "--topo", "8", "--model", "cycle", "--sync", sync, *extra],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if p.returncode == 0:
            modes.append((label, sync, extra))
    # Step-model figures decide what fits the budget.
    jobs, skipped, step = [], [], {}
    for algo, topo, extra in ALGOS:
        if a.only and a.only != algo:
            continue
        for block in BLOCKS:
            for ts in TS:
                path = os.path.join(a.work, case_name(algo, topo, ts, block, "step") + ".json")
                d = run(a.torx, [algo, "--topo", topo, *extra, "--ts", str(ts), "--block-bytes", str(block)], path)
                step[(algo, topo, ts, block)] = d
            d = step[(algo, topo, TS[1], block)]
            work = d["timing"]["step_model_cycles"] * d["topology"]["nodes"]  # router-cycles, roughly
            for ts in TS:
                for label, sync, mextra in modes:
                    key = (algo, topo, ts, block, label)
                    if work > a.budget:
                        skipped.append(key)
                        continue
                    args = [algo, "--topo", topo, *extra, "--model", "cycle", "--sync", sync, *mextra, "--ts", str(ts),
                            "--block-bytes", str(block)]
                    jobs.append((key, args, os.path.join(a.work, case_name(algo, topo, ts, block, label) + ".json")))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(run, a.torx, args, path): key for key, args, path in jobs}
        for i, f in enumerate(concurrent.futures.as_completed(futs)):
            key = futs[f]
            results[key] = f.result()
            if "error" in results[key]:
                print(f"FAILED {key}: {results[key]}", file=sys.stderr)
            print(f"\r{i + 1}/{len(jobs)} runs", end="", file=sys.stderr)
    print(file=sys.stderr)
    bad = [k for k, v in results.items() if "error" in v or not v["check"]["ok"]]
    if bad:
        print(f"{len(bad)} runs failed: {bad[:5]}", file=sys.stderr)
        return 1
    write_outputs(a, modes, results, step, skipped)
    return 0


def write_outputs(a, modes, results, step, skipped):
    out_dir = os.path.join(a.out, "sync-study")
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for (algo, topo, ts, block, label), d in sorted(results.items()):
        c = d["cycle_model"]
        rows.append({"algorithm": algo, "topology": topo, "nodes": d["topology"]["nodes"], "ts": ts, "block_bytes": block,
                     "mode": label, "cycles": d["cycles"], "step_model_cycles": d["timing"]["step_model_cycles"],
                     "barriers": c["barriers"], "barrier_latency": c["barrier_latency"],
                     "null_messages": c.get("null_messages", 0), "null_flit_hops": c.get("null_flit_hops", 0),
                     "sync_wait_cycles": c.get("sync_wait_cycles", 0), "blocked_cycles": c["blocked_cycles"],
                     "steps": d["steps"]})
    with open(os.path.join(out_dir, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    by = {(r["algorithm"], r["topology"], r["ts"], r["block_bytes"], r["mode"]): r for r in rows}
    labels = [m[0] for m in modes]
    md = []
    md.append("Generated by `scripts/sync_study.py` from cycle-model runs (every run checked: every block at its\n"
              "destination with its content). Cycles until the last block is stored; in parentheses, for `local` and\n"
              "`software`, the null messages sent; `wait` is the node-cycles spent waiting for synchronization.\n"
              "Default network (`torx run --help-params`): 2-stage routers, 1-cycle links, 8-flit buffers, 16-byte\n"
              "flits; the null message's startup equals t_s (`null_ts = -1`), except in `local null_ts=0`: a signal\n"
              "that costs no startup, as a hardware signal would (it still travels as a one-flit worm).\n")
    for algo, topo, _ in ALGOS:
        keys = [k for k in by if k[0] == algo and k[1] == topo]
        if not keys:
            continue
        n = by[keys[0]]["nodes"]
        md.append(f"\n### {algo} on {topo} ({n} nodes)\n")
        md.append("| t_s | block | step model | " + " | ".join(labels) + " | local wait | software wait |")
        md.append("|---:|---:|---:|" + "---:|" * len(labels) + "---:|---:|")
        for block in BLOCKS:
            for ts in TS:
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
        md.append(f"Each of these would take more than {a.budget:.0e} router-cycles (the step model's cycles at t_s = 100 "
                  "times the routers: an hour or more of simulation per mode); the step model's cycles are given instead:\n")
        seen = set()
        for algo, topo, ts, block, _ in skipped:
            if (algo, topo, ts, block) in seen:
                continue
            seen.add((algo, topo, ts, block))
            d = step[(algo, topo, ts, block)]
            md.append(f"- {algo} {topo}, t_s {ts}, {block}-byte blocks: step model {d['timing']['step_model_cycles']} cycles")
    fill_file(os.path.join(a.out, "sync-study.md"), [("sync-study-tables", "\n".join(md))])
    plot(out_dir, by, labels)


def plot(out_dir, by, labels):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots (scripts/setup.sh --plots installs it; run the script with /usr/bin/python3)", file=sys.stderr)
        return
    # Ring: cycles relative to the hardware barrier, against n, per mode, at t_s 100 and 64-byte blocks.
    for ts in TS:
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for lab in labels:
            xs, ys = [], []
            for algo, topo, _ in ALGOS:
                if algo != "ring":
                    continue
                r, b = by.get((algo, topo, ts, 64, lab)), by.get((algo, topo, ts, 64, "barrier h=1"))
                if r and b:
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
    # Every algorithm: relative cycles per mode at t_s 100, 64-byte blocks.
    fig, ax = plt.subplots(figsize=(9, 4.5))
    cases = [(a, t) for a, t, _ in ALGOS if (a, t, 100, 64, "barrier h=1") in by]
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


if __name__ == "__main__":
    sys.exit(main())
