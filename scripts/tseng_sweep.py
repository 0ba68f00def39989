#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sweeps seed 000's schedules beyond what ctest runs (ctest runs a sample; CI has 90 minutes).

- tseng-dd on every torus with 2, 3 and 4 dimensions and sides 3..12: all ordered 2D and 3D tori,
  and the 4D tori with sides in non-decreasing order (715; `--all` runs all 10,000 orderings);
- the large tracked runs of issue 3: t4 on 64x64 and c64 on 32x32x32 (2^30 blocks), with time and memory.
Each run must check ok with zero port and link conflicts. Exit code 1 if any does not.

    scripts/tseng_sweep.py [--all] [--jobs 2] [--skip-large]
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(torx, algo, dims, timed=False):
    topo = "x".join(map(str, dims))
    cmd = [torx, "run", algo, "--topo", topo, "--json", "-"]
    if timed:
        cmd = ["/usr/bin/time", "-f", "%e %M", "-o", "/dev/stderr"] + cmd
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return topo, None, f"exit {p.returncode}: {p.stderr.strip()}", time.time() - t0
    j = json.loads(p.stdout)
    return topo, j, p.stderr.strip().splitlines()[-1] if timed else "", time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default=os.path.join(ROOT, "build", "bin", "torx"))
    ap.add_argument("--all", action="store_true", help="every ordering of the 4D sides (10,000 tori)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--skip-large", action="store_true")
    a = ap.parse_args()
    sides = range(3, 13)
    tori = [list(t) for t in itertools.product(sides, repeat=2)] + [list(t) for t in itertools.product(sides, repeat=3)]
    tori += [list(t) for t in (itertools.product(sides, repeat=4) if a.all else itertools.combinations_with_replacement(sides, 4))]
    bad = 0
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for k, (topo, j, err, dt) in enumerate(pool.map(lambda d: run(a.torx, "tseng-dd", d), tori)):
            ok = j is not None and j["check"]["ok"] and j["port_conflicts"] == 0 and j["link_conflicts"] == 0
            if not ok:
                bad += 1
                print(f"FAIL tseng-dd {topo}: {err or (j['check'], j['port_conflicts'], j['link_conflicts'])}")
            if (k + 1) % 200 == 0:
                print(f"  {k + 1}/{len(tori)} tori, {bad} failing, {time.time() - t0:.0f} s", file=sys.stderr)
    print(f"tseng-dd: {len(tori)} tori with 2-4 dimensions and sides 3..12: {len(tori) - bad} ok, {bad} failing "
          f"({time.time() - t0:.0f} s)")
    if not a.skip_large:
        for algo, dims in (("t4", [64, 64]), ("c64", [32, 32, 32])):
            topo, j, timing, dt = run(a.torx, algo, dims, timed=True)
            if j is None:
                bad += 1
                print(f"FAIL {algo} {topo}: {timing}")
                continue
            wall, rss_kb = timing.split()
            ok = j["check"]["ok"] and j["port_conflicts"] == 0 and j["link_conflicts"] == 0
            bad += not ok
            print(f"{algo} {topo}: {j['steps']} steps, {j['transmission_blocks']} transmission blocks, "
                  f"{j['port_conflicts']}/{j['link_conflicts']} conflicts, check {'ok' if j['check']['ok'] else 'FAILED'} "
                  f"({j['check']['delivered']} of {j['check']['expected']} blocks); {wall} s, {int(rss_kb) / 1048576:.2f} GiB")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
