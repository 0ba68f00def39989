#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# coverage_summary.py: Verilator coverage counts (coverage.dat files of a --coverage-line
# --coverage-toggle build, scripts/coverage.sh) merged into one table per SV module: line points
# (blocks and branches) and toggle points (each bit's 0->1 and 1->0) hit by any instance of the
# module, in any run; then every line point never hit, with its source line. The property files
# (hw/props/*.svh) are counted apart from the units that include them.
#   scripts/coverage_summary.py DIR [--annotate OUTDIR]   (DIR: the *.dat files)
# Exit: 0, 2 when DIR holds no counts.
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def points(path):
    """(fields, count) of every point of one coverage.dat."""
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            fields = {}
            for kv in m.group(1).split("\x01"):
                if "\x02" in kv:
                    k, v = kv.split("\x02", 1)
                    fields[k] = v
            yield fields, int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description="Verilator coverage, per module")
    ap.add_argument("dir")
    ap.add_argument("--annotate", default="", help="also write verilator_coverage's annotated sources here")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "*.dat")))
    if not files:
        sys.stderr.write(f"coverage_summary.py: no coverage counts in {a.dir}\n")
        return 2
    hit = collections.defaultdict(int)   # (kind, module, file, line, column, comment) -> count
    for p in files:
        for f, n in points(p):
            page = f.get("page", "")
            kind, _, module = page.partition("/")
            src = os.path.basename(f.get("f", "?"))
            module = re.sub(r"__.*$", "", module)   # Verilator's parameterization suffix (__pi2, __N5_I3)
            if src.endswith(".svh"):
                module = src[:-4]   # a property file: counted apart from its unit
            k = (kind, module, src, int(f.get("l", 0)), f.get("n", ""), f.get("o", ""))
            hit[k] += n
    mods = collections.defaultdict(lambda: collections.Counter())
    missed = collections.defaultdict(list)
    for (kind, module, src, line, col, o), n in hit.items():
        short = "line" if kind == "v_line" else "toggle" if kind == "v_toggle" else kind
        mods[module][short + "_all"] += 1
        if n:
            mods[module][short + "_hit"] += 1
        elif short == "line":
            missed[(module, src)].append((line, o))
    print(f"{len(files)} coverage files\n")
    print("| module | line points hit | line coverage | toggle points hit | toggle coverage |")
    print("|---|---:|---:|---:|---:|")
    tot = collections.Counter()
    for m in sorted(mods):
        c = mods[m]
        tot.update(c)
        lp = f"{100.0 * c['line_hit'] / c['line_all']:.1f} %" if c["line_all"] else "-"
        tp = f"{100.0 * c['toggle_hit'] / c['toggle_all']:.1f} %" if c["toggle_all"] else "-"
        print(f"| {m} | {c['line_hit']} of {c['line_all']} | {lp} | {c['toggle_hit']} of {c['toggle_all']} | {tp} |")
    print(f"| all | {tot['line_hit']} of {tot['line_all']} | {100.0 * tot['line_hit'] / max(1, tot['line_all']):.1f} % | "
          f"{tot['toggle_hit']} of {tot['toggle_all']} | {100.0 * tot['toggle_hit'] / max(1, tot['toggle_all']):.1f} % |")
    if missed:
        print("\nLine points never reached:\n")
        print("| module | source line | point | code |\n|---|---|---|---|")
        cache = {}
        for (m, src), rows in sorted(missed.items()):
            path = os.path.join(ROOT, "hw", "props" if src.endswith(".svh") else "", src)
            if path not in cache:
                cache[path] = open(path).read().split("\n") if os.path.exists(path) else []
            for line, o in sorted(set(rows)):
                text = cache[path][line - 1].strip() if 0 < line <= len(cache[path]) else ""
                print(f"| {m} | {src}:{line} | {o} | `{text[:90]}` |")
    if a.annotate:
        os.makedirs(a.annotate, exist_ok=True)
        subprocess.run(["verilator_coverage", "--annotate", a.annotate, "--annotate-min", "1"] + files,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
