#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerates the tables of docs/reproduction/suh.md (seed 002, Suh, Shin, Yalamanchili) from real
runs of `torx run suh`: start-ups, transmission blocks and data rearrangements of our schedules
beside the paper's Table 1 formulas and Table 2 rows. Every run must check ok with zero conflicts.

    scripts/reproduce_suh.py
"""
import json
import os
import subprocess
import sys

from doc_tables import fill_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TORX = os.path.join(ROOT, "build", "bin", "torx")
PAGE = os.path.join(ROOT, "docs", "reproduction", "suh.md")


def run(dims, mesh=True):
    cmd = [TORX, "run", "suh", "--topo", "x".join(map(str, dims)), "--json", "-"] + (["--mesh"] if mesh else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr}")
    j = json.loads(p.stdout)
    if not j["check"]["ok"] or j["port_conflicts"] or j["link_conflicts"]:
        sys.exit(f"{' '.join(cmd)}: not clean: {j['check']}, conflicts {j['port_conflicts']}/{j['link_conflicts']}")
    return j


def paper_table1(dims):
    a = sorted(dims, reverse=True)
    n, N = len(a), 1
    for x in a:
        N *= x
    if n == 2:
        r, c = a[1], a[0]
        return c, r * c * c // 2, 2 * r * c
    return n * a[0] // 2, n * a[0] * N // 4, n * N


def main():
    rows = ["| mesh | start-ups: paper / ours | transmission blocks: paper / ours | rearranged blocks: paper / ours | conflicts | check |",
            "|---|---|---|---|---|---|"]
    for dims in ([6, 10], [6, 6], [2, 16], [16, 16], [10, 14], [8, 8, 8], [4, 6, 8], [6, 6, 6], [4, 4, 4, 4], [2, 4, 6, 8]):
        j = run(dims)
        p = paper_table1(dims)
        f = j["facts"]
        mark = lambda a, b: f"{a} / {b}" if a == b else f"{a} / **{b}**"
        rows.append(f"| {'x'.join(map(str, dims))} | {mark(p[0], j['steps'])} | {mark(p[1], j['transmission_blocks'])} | "
                    f"{mark(p[2], f['rearranged_blocks'])} ({f['rearrangements']} re-sorts) | "
                    f"{j['port_conflicts']}/{j['link_conflicts']} | ok ({j['check']['delivered']} blocks) |")
    table1 = "\n".join(rows)
    rows = ["| d | mesh | [2] Bokhari-Berryman (paper) | [10] Sundar et al. (paper) | proposed (paper) | proposed (ours, measured) |",
            "|---:|---|---|---|---|---|"]
    for d in range(1, 7):
        n = 2 ** d
        j = run([n, n])
        b2 = (3 * (n - 1), 3 * (n - 1) * 2 ** (2 * d - 2), (d - 1) * 2 ** (2 * d))
        s10 = (n, 2 ** (3 * d - 1), (d - 1) * 2 ** (2 * d))
        prop = (n, 2 ** (3 * d - 1), 2 * 2 ** (2 * d))
        ours = (j["steps"], j["transmission_blocks"], j["facts"]["rearranged_blocks"])
        cell = lambda t: " / ".join(map(str, t))
        ours_cell = " / ".join(str(o) if o == q else f"**{o}**" for o, q in zip(ours, prop))
        rows.append(f"| {d} | {n}x{n} | {cell(b2)} | {cell(s10)} | {cell(prop)} | {ours_cell} |")
    table2 = "\n".join(rows)
    torus = run([6, 10], mesh=False)
    fill_file(PAGE, [("suh-table1", table1), ("suh-table2", table2),
                     ("suh-torus", f"On the 6x10 *torus* the same schedule gives {torus['steps']} steps, "
                                   f"{torus['transmission_blocks']} transmission blocks, "
                                   f"{torus['port_conflicts']}/{torus['link_conflicts']} conflicts, check "
                                   f"{'ok' if torus['check']['ok'] else 'FAILED'}.")])
    print(f"wrote {PAGE}")


if __name__ == "__main__":
    main()
