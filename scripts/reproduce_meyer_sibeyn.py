#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reproduces Table I of seed 003 (Meyer, Sibeyn, "Oblivious Gossiping on Tori") from our measured
step counts, and regenerates the per-size tables of docs/gossip.md (steps and transmission, ours and
the paper's, for ms-hc, its variants ms-hc-steps and ms-hc-hd on tori with one odd side, and ms-one
with the orientation it picks).

Normalized time (Section 5) = routing time / (s t_feed): a step that moves packets of size s' costs
t_startup + s' t_feed, and r = t_startup / (s t_feed), so a schedule takes
    sum over steps of (r + largest message / s) = steps * r + transmission_pieces / pieces.
Ours come from `torx run` (every block checked) where the torus fits, and from the plan the
forwarding tables encode (`torx tables --json`) for 64^3 and 63^3, where the schedules have ~10^11
block transfers; the two agree wherever both exist (test Gossip.TablesAloneReproduceTheSchedule).

    scripts/reproduce_meyer_sibeyn.py [--skip-sizes]
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from doc_tables import fill_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORX = os.path.join(ROOT, "build", "bin", "torx")

# The printed Table I: per n, rows [22] (Soch-Tvrdik), Section 2, Section 4; per row (d=2, d=3)
# for r = 0.01, 0.1, 1 (the extracted header also lists r = 0, which has no column).
PRINTED = {
    4: {"[22]": [(4, 11), (4, 12), (8, 21)], "Sec. 2": [(4, 11), (5, 14), (12, 43)], "Sec. 4": [(6, 19), (7, 21), (12, 37)]},
    16: {"[22]": [(65, 689), (70, 751), (128, 1365)], "Sec. 2": [(65, 702), (77, 887), (192, 2730)],
         "Sec. 4": [(73, 818), (79, 891), (144, 1620)]},
    64: {"[22]": [(1034, 44110), (1126, 48041), (2048, 87346)], "Sec. 2": [(1044, 44958), (1229, 56754), (3072, 174719)],
         "Sec. 4": [(1067, 46152), (1162, 50264), (2112, 91390)]},
}
RS = [0.01, 0.1, 1.0]


def closed_form(row, n, d, r, third=1 / 3, sixth=1 / 6):
    """The paper's closed forms (Section 5): T_stv, T_opt, T_one."""
    p = n ** d
    if row == "[22]":
        return p / (2 * d) * (1 + r)
    if row == "Sec. 2":
        return p / 2 * (r + (third if d == 3 else 1 / d))
    # T_one = n^(d-1)/2 (n/d + 1)(1 + r)
    return n ** (d - 1) / 2 * (n * (third if d == 3 else 1 / d) + 1) * (1 + r)


def measure(algo, dims):
    topo = "x".join(map(str, dims))
    nodes = 1
    for x in dims:
        nodes *= x
    if nodes <= 4096:
        p = subprocess.run([TORX, "run", algo, "--topo", topo, "--json", "-"], capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"torx run {algo} --topo {topo}: exit {p.returncode}: {p.stderr}")
        j = json.loads(p.stdout)
        if not j["check"]["ok"] or j["link_conflicts"] or j["port_conflicts"]:
            sys.exit(f"{algo} {topo}: not clean")
        return {"steps": j["steps"], "tx": j["transmission_blocks"], "pieces": j["pieces"], "how": "run, every block checked"}
    p = subprocess.run([TORX, "tables", algo, "--topo", topo, "--json", "-"], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"torx tables {algo} --topo {topo}: exit {p.returncode}: {p.stderr}")
    j = json.loads(p.stdout)
    return {"steps": j["steps"], "tx": j["transmission_pieces"], "pieces": j["pieces"], "how": "plan from the forwarding tables"}


def table_one():
    lines = ["| n | row | d | measured on | r = 0 (ours) | r = 0.01: printed / form / ours | r = 0.1: printed / form / ours | "
             "r = 1: printed / form / ours | how |", "|---:|---|---:|---|---:|---|---|---|---|"]
    for n in (4, 16, 64):
        for row in ("[22]", "Sec. 2", "Sec. 4"):
            for di, d in enumerate((2, 3)):
                printed = [PRINTED[n][row][k][di] for k in range(3)]
                form = [closed_form(row, n, d, r) for r in RS]
                if row == "[22]":
                    cells = " | ".join(f"{pr} / {fo:.0f} / -" for pr, fo in zip(printed, form))
                    lines.append(f"| {n} | {row} | {d} | - | - | {cells} | the paper's formula only |")
                    continue
                algo = "ms-hc" if row == "Sec. 2" else "ms-one"
                dims = [n] * d
                if algo == "ms-one" and d == 3:
                    dims = [n - 1] * 3  # rods need n1 % 3 == 0
                m = measure(algo, dims)
                ours = [m["steps"] * r + m["tx"] / m["pieces"] for r in RS]
                zero = m["tx"] / m["pieces"]
                cells = " | ".join(f"{pr} / {fo:.0f} / **{o:.0f}**" for pr, fo, o in zip(printed, form, ours))
                lines.append(f"| {n} | {row} | {d} | {'x'.join(map(str, dims))} | {zero:.0f} | {cells} | {m['how']}: "
                             f"{m['steps']} steps, {m['tx']} pieces of 1/{m['pieces']} |")
    return "\n".join(lines)


def run_json(algo, dims):
    p = subprocess.run([TORX, "run", algo, "--topo", "x".join(map(str, dims)), "--json", "-"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None
    return json.loads(p.stdout)


def tables_json(algo, dims):
    p = subprocess.run([TORX, "tables", algo, "--topo", "x".join(map(str, dims)), "--json", "-"], capture_output=True,
                       text=True)
    if p.returncode:
        sys.exit(f"torx tables {algo} --topo {'x'.join(map(str, dims))}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def paper_hc(dims, steps):
    """Seed 003's transmission for ms-hc in units of s: its steps times its packet size (Theorem 1:
    s/2; Section 2.2 with one odd side: (1 + 1/n_odd) s/2; a decomposition into d cycles: s/d)."""
    if len(dims) == 2 and dims[0] % 2 != dims[1] % 2:
        n_odd = dims[0] if dims[0] % 2 else dims[1]
        return steps * (1 + 1 / n_odd) / 2
    return steps / len(dims)


def tx_s(j):
    """Our transmission in units of s: transmission blocks (pieces) / pieces per node."""
    return j["transmission_blocks"] / j["facts"]["pieces"]


def clean(j):
    return j is not None and j["check"]["ok"] and not j["link_conflicts"] and not j["port_conflicts"]


def sizes_tables(jobs):
    hc = [[a, b] for a in range(3, 17) for b in range(3, 17)]
    odd = [[a, b] for a in range(3, 17) for b in range(3, 17) if a % 2 != b % 2 and a <= b] + \
          [[16, 15], [32, 31], [31, 32], [64, 63]]
    one = [[a, b] for a in range(3, 17) for b in range(3, 17) if a % 2 == 0 or b % 2 == 0]
    rods = [[3, 3, 3], [3, 3, 6], [3, 6, 4], [6, 6, 3], [6, 6, 6], [6, 12, 5], [9, 9, 9], [12, 12, 12], [15, 15, 15]]
    orient = [[6, 12], [12, 6], [4, 16], [16, 4], [8, 14], [14, 8], [10, 16], [16, 10], [4, 4]]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        r_hc = list(pool.map(lambda d: run_json("ms-hc", d), hc))
        r_odd = list(pool.map(lambda d: [run_json(a, d) for a in ("ms-hc", "ms-hc-steps", "ms-hc-hd")], odd))
        r_one = list(pool.map(lambda d: run_json("ms-one", d), one + rods))
        t_orient = list(pool.map(lambda d: tables_json("ms-one", d), orient))
    bad = 0

    # ms-hc: a matrix of "steps, transmission (paper's steps, paper's transmission)" per n1 x n2.
    t = ["| n1 \\ n2 | " + " | ".join(str(b) for b in range(3, 17)) + " |", "|---:|" + "---|" * 14]
    for a in range(3, 17):
        cells = []
        for b in range(3, 17):
            j = r_hc[(a - 3) * 14 + (b - 3)]
            bad += not clean(j)
            f = j["formula"]["steps"] if j else 0
            cells.append(f"{j['steps']}, {tx_s(j):.1f} ({f}, {paper_hc([a, b], f):.1f})" if clean(j) else "FAIL")
        t.append(f"| {a} | " + " | ".join(cells) + " |")
    hc_table = "\n".join(t)

    # One odd side: the three variants against the paper, steps and transmission (units of s).
    t = ["| torus | paper: steps, transmission | ms-hc: steps, transmission | ms-hc-steps: steps, transmission, "
         "largest message (pieces per node) | ms-hc-hd: steps, transmission |", "|---|---|---|---|---|"]
    for dims, js in zip(odd, r_odd):
        name = "x".join(map(str, dims))
        if not all(clean(j) for j in js):
            bad += 1
            t.append(f"| {name} | FAIL | | | |")
            continue
        hc_j, st_j, hd_j = js
        f = hc_j["formula"]["steps"]
        pt = paper_hc(dims, f)
        t.append(f"| {name} | {f}, {pt:.1f} s | {hc_j['steps']}, **{tx_s(hc_j):.1f} s** | {st_j['steps']}, "
                 f"{tx_s(st_j):.1f} s, {st_j['facts']['largest_message_pieces']} ({st_j['facts']['pieces']}) | "
                 f"{hd_j['steps']}, {tx_s(hd_j):.1f} s |")
    odd_table = "\n".join(t)

    t = ["| torus | steps | transmission | paper: steps, transmission | n1 n2 n3 / 6 | largest message | check |",
         "|---|---:|---:|---|---:|---:|---|"]
    for dims, j in zip(one + rods, r_one):
        bad += not clean(j)
        if not clean(j):
            t.append(f"| {'x'.join(map(str, dims))} | FAIL | | | | | |")
            continue
        p = 1
        for x in dims:
            p *= x
        sixth = f"{p / 6:.1f}" if len(dims) == 3 else "-"
        f = j["formula"]["steps"]
        t.append(f"| {'x'.join(map(str, dims))} | {j['steps']} | {tx_s(j):.0f} s | {f}, {f} s | {sixth} | "
                 f"{j['facts']['largest_message_pieces']} | ok |")
    one_table = "\n".join(t)

    t = ["| torus | kept | steps, transmission (pieces) | the other orientation: steps, transmission |", "|---|---|---|---|"]
    for dims, j in zip(orient, t_orient):
        c = j["construction"]
        kept = c[c.index("x1 = dimension"):].split(" (")[0]
        other = c[c.index("would take") + len("would take "):c.rindex(")")] if "would take" in c else "-"
        t.append(f"| {'x'.join(map(str, dims))} | {kept} | {j['steps']}, {j['transmission_pieces']} | {other} |")
    orient_table = "\n".join(t)
    total = len(hc) + 3 * len(odd) + len(one) + len(rods)
    return hc_table, odd_table, one_table, orient_table, bad, total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--skip-sizes", action="store_true", help="only Table I")
    a = ap.parse_args()
    page = os.path.join(ROOT, "docs", "reproduction", "meyer-sibeyn.md")
    fill_file(page, [("table-one", table_one())])
    print(f"wrote {page}")
    if not a.skip_sizes:
        hc, odd, one, orient, bad, total = sizes_tables(a.jobs)
        gpage = os.path.join(ROOT, "docs", "gossip.md")
        fill_file(gpage, [("ms-hc-sizes", hc + f"\n\n{total} runs in this page's tables, {total - bad} checked ok with zero conflicts."),
                          ("ms-hc-one-odd", odd), ("ms-one-sizes", one), ("ms-one-orientation", orient)])
        print(f"wrote {gpage}: {total} runs, {bad} failing")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
