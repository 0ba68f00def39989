#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerates the tables of docs/dimakopoulos.md from real runs of `torx run dimak-a2/dimak-a3`:
our steps against the lower bounds (average status for single-port A2, the bisection cut for
multiport A3) for every size 1..12 per dimension in 1 to 3 dimensions, on tori and meshes.

A2's step count and its bound do not depend on the order of the sizes (seed 004, Corollaries 1
and 2), so sizes are taken in non-decreasing order (454 networks per wrap; `--all-orders` runs every
ordering). A dimension of size 1 adds no node or link: 1x5 is the ring of 5, and 1x1x1 is a single
node (no steps). Every run must check ok with zero conflicts.

    scripts/dimak_table.py [--jobs 2] [--max 12]
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from doc_tables import fill_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "dimakopoulos.md")


def run(torx, algo, sizes, wrap):
    dims = [s for s in sizes if s > 1]
    if not dims:
        return {"steps": 0, "lower": 0, "ok": True, "note": "one node"}
    cmd = [torx, "run", algo, "--topo", "x".join(map(str, dims)), "--json", "-"] + ([] if wrap else ["--mesh"])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return {"error": f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}"}
    j = json.loads(p.stdout)
    return {"steps": j["steps"], "lower": j["lower_bound"]["steps"],
            "ok": j["check"]["ok"] and j["port_conflicts"] == 0 and j["link_conflicts"] == 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default=os.path.join(ROOT, "build", "bin", "torx"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--max", type=int, default=12)
    ap.add_argument("--all-orders", action="store_true")
    a = ap.parse_args()
    sizes = range(1, a.max + 1)
    nets = []
    for d in (1, 2, 3):
        gen = itertools.product(sizes, repeat=d) if a.all_orders else itertools.combinations_with_replacement(sizes, d)
        nets += [list(t) for t in gen]
    jobs = [(n, w) for n in nets for w in (True, False)]
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        res = list(pool.map(lambda nw: run(a.torx, "dimak-a2", nw[0], nw[1]), jobs))
    bad = [(j, r) for j, r in zip(jobs, res) if "error" in r or not r["ok"]]
    by = {(tuple(n), w): r for (n, w), r in zip(jobs, res)}
    rows = ["| sizes | torus: A2 steps | average status | ratio | mesh: A2 steps | average status | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    met_torus = sum(1 for n in nets if by[(tuple(n), True)].get("steps") == by[(tuple(n), True)].get("lower"))
    for n in nets:
        t, m = by[(tuple(n), True)], by[(tuple(n), False)]
        ratio = lambda r: "-" if not r.get("lower") else f"{r['steps'] / r['lower']:.3f}"
        rows.append(f"| {'x'.join(map(str, n))} | {t.get('steps')} | {t.get('lower')} | {ratio(t)} | {m.get('steps')} | "
                    f"{m.get('lower')} | {ratio(m)} |")
    rows.append("")
    rows.append(f"{len(nets)} networks per wrap flag, {len(jobs) - len(bad)} of {len(jobs)} runs checked ok with zero "
                f"conflicts; A2 meets the average-status bound on {met_torus} of {len(nets)} tori. "
                f"({time.time() - t0:.0f} s with {a.jobs} jobs.)")
    a2 = "\n".join(rows)
    # A3: H x H and H^4 for rings and linear arrays (the precondition: equal sides, 2^k dimensions).
    rows = ["| network | torus: A3 steps | cut bound | ratio | mesh: A3 steps | cut bound | ratio |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    a3jobs = [([n] * d, w) for d in (1, 2) for n in range(2, a.max + 1) for w in (True, False)]
    a3jobs += [([n] * 4, w) for n in range(2, 7) for w in (True, False)]
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        res3 = list(pool.map(lambda nw: run(a.torx, "dimak-a3", nw[0], nw[1]), a3jobs))
    bad += [(j, r) for j, r in zip(a3jobs, res3) if "error" in r or not r["ok"]]
    by3 = {(tuple(n), w): r for (n, w), r in zip(a3jobs, res3)}
    for n in sorted({tuple(n) for n, _ in a3jobs}, key=lambda t: (len(t), t)):
        t, m = by3[(n, True)], by3[(n, False)]
        ratio = lambda r: "-" if not r.get("lower") else f"{r['steps'] / r['lower']:.3f}"
        rows.append(f"| {'x'.join(map(str, n))} | {t.get('steps')} | {t.get('lower')} | {ratio(t)} | {m.get('steps')} | "
                    f"{m.get('lower')} | {ratio(m)} |")
    a3 = "\n".join(rows)
    fill_file(PAGE, [("dimak-a2", a2), ("dimak-a3", a3)])
    for (n, w), r in bad:
        print(f"FAIL {'x'.join(map(str, n))} {'torus' if w else 'mesh'}: {r}")
    print(f"wrote {PAGE}: {len(jobs) + len(a3jobs)} runs, {len(bad)} failing, {time.time() - t0:.0f} s")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
