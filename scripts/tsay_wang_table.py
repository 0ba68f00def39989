#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerates the per-size table of docs/tsay-wang.md from real runs of `torx run tsay-wang`:
d = 2 for every n from 3 to 64, d = 3 for n = 3..16 (the improvement: d ceil(log_{2d+1} n) steps),
d = 4 for n = 3..8 (and d = 5, 6 at small n: the paper's construction), each from two roots. Every
run must check ok: every node receives exactly once, zero link conflicts, zero port conflicts
(distinct first links); for d <= 3 the steps must equal the improved count.

    scripts/tsay_wang_table.py [--jobs 2]
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from doc_tables import fill_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "tsay-wang.md")


def run(torx, d, n, root):
    topo = "x".join([str(n)] * d)
    p = subprocess.run([torx, "run", "tsay-wang", "--topo", topo, "--root", str(root), "--json", "-"],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return {"error": p.stderr.strip()}
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default=os.path.join(ROOT, "build", "bin", "torx"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    sizes = [(2, n) for n in range(3, 65)] + [(3, n) for n in range(3, 17)] + [(4, n) for n in range(3, 9)] + \
            [(5, n) for n in range(3, 6)] + [(6, n) for n in (3, 4)]
    jobs = [(d, n, root) for d, n in sizes for root in (0, (n ** d) * 2 // 3)]
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        res = list(pool.map(lambda j: run(a.torx, *j), jobs))
    rows = ["| d | n | steps | d ceil(log_{2d+1} n) | paper formula | lower bound | link conflicts | port conflicts | "
            "duplicates | missing | roots | check |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    bad = 0
    met = {2: 0, 3: 0}
    count = {2: 0, 3: 0}
    for i in range(0, len(jobs), 2):
        (d, n, r0), (_, _, r1) = jobs[i], jobs[i + 1]
        js = res[i:i + 2]
        if any("error" in j for j in js):
            bad += 1
            rows.append(f"| {d} | {n} | error: {js[0].get('error') or js[1].get('error')} |")
            continue
        ok = all(j["check"]["ok"] and j["link_conflicts"] == 0 and j["port_conflicts"] == 0 for j in js)
        j = js[0]
        target = "-"
        if d <= 3:
            target = j["improved"]["steps"]
            count[d] += 1
            hit = all(x["steps"] == target for x in js)
            met[d] += hit
            ok = ok and hit
        bad += not ok
        rows.append(f"| {d} | {n} | {j['steps']} | {target} | {j['formula']['steps']} | {j['lower_bound']['steps']} | "
                    f"{sum(x['link_conflicts'] for x in js)} | {sum(x['port_conflicts'] for x in js)} | "
                    f"{sum(x['check']['duplicated'] for x in js)} | {sum(x['check']['missing'] for x in js)} | "
                    f"{r0}, {r1} | {'ok' if ok else 'FAILED'} |")
    rows.append("")
    rows.append(f"{len(sizes)} sizes, {len(jobs)} runs, {bad} failing. The improved count d ceil(log_(2d+1) n) is met "
                f"for {met[2]} of {count[2]} sizes in 2D (n = 3..64) and {met[3]} of {count[3]} in 3D (n = 3..16).")
    fill_file(PAGE, [("tsay-wang-table", "\n".join(rows))])
    print(f"wrote {PAGE}: {len(jobs)} runs, {bad} failing")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
