#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Are local synchronization's signals needed? The analysis behind docs/sync-study.md, "Are the extra
signals needed?".

For the rings of 16 to 1024 nodes and the other algorithms of the synchronization study, runs
`torx stats ALGO --topo DIMS --sync local --json` (sw/core/sync_plan.hpp: the colliding pairs, the
signals `--sync local` sends, and which of them no other ordering implies) and writes signals.csv,
with the seed's count for the ring (Section 7.2: 3n/2 - 8 signals per tree, 3n - 16 for both).
No simulation: the figures depend on the schedule only, so --param does not apply.

  scripts/sync_signals_study.py [--torx build/bin/torx] [--jobs 1] [--out DIR | --update-docs] [--work DIR]

--out DIR (default ./sync-study) receives signals.csv; --update-docs writes docs/sync-study/signals.csv
and re-renders docs/sync-study.md (scripts/doc_studies.py).
"""
import argparse
import json
import subprocess
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import study_common as sc  # noqa: E402

CASES = [("ring", f"{1 << d}", []) for d in range(4, 11)] + [
    ("t4", "16x16", []), ("t4", "32x32", []), ("t1", "16x16", []), ("c1", "8x8x8", []), ("c64", "8x8x8", []),
    ("suh", "16x16", ["--mesh"]), ("tsay-wang", "16x16", [])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_arguments(ap, "sync-study", jobs=1)
    a = ap.parse_args()
    if a.param:
        sc.fail("--param: the signals depend on the schedule only (torx stats runs no network)")
    out, _ = sc.settle(a, "sync-study")
    t0 = time.monotonic()
    todo = []
    for algo, topo, extra in CASES:
        # `torx stats` through the same cache as the runs (its document has no "check": stats checks nothing).
        todo.append(((algo, topo), ["--sync", "local", algo, "--topo", topo, *extra],
                     os.path.join(a.work, f"{algo}-{topo}-signals.json")))
    res = {}
    for key, args, path in todo:
        res[key] = stats(a.torx, args, path)
        if "error" in res[key]:
            print(f"FAILED {key}: {res[key]['stderr']}", file=sys.stderr)
            return 1
        print(f"{key[0]} {key[1]}: {res[key]['local_sync']}", file=sys.stderr)
    rows = []
    for algo, topo, _ in CASES:
        d = res[(algo, topo)]
        ls = d["local_sync"]
        nodes = d["topology"]["nodes"]
        rows.append({"algorithm": algo, "topology": topo, "nodes": nodes, "boundaries": ls["boundaries"],
                     "pairs": ls["pairs"], "signals": ls["signals"], "local_waits": ls["local_waits"],
                     "needed": ls["needed"], "implied": ls["implied"], "data_orderings": ls["data_orderings"],
                     "seed": 3 * nodes - 16 if algo == "ring" else ""})
    sc.write_csv(os.path.join(out, "signals.csv"), rows)
    if a.update_docs:
        sc.render_docs("sync")
    print(f"signals study: {len(rows)} cases, {time.monotonic() - t0:.0f} s; results in {out}", file=sys.stderr)
    return 0


def stats(torx, args, path):
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    p = subprocess.run([torx, "stats", *args, "--json", path + ".tmp"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr.strip()[-400:]}
    os.replace(path + ".tmp", path)
    with open(path) as f:
        return json.load(f)


if __name__ == "__main__":
    sys.exit(main())
