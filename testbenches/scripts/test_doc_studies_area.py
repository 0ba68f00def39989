#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Covers scripts/doc_studies.py reading its hardware costs from a torx.area/2 document (the table
scripts/synth.sh writes: its own configuration names r2d, r2d_k2, g2d, b2 ..., the top first, µm²):
a document of that shape, built here from docs/area-figures.csv, renders all three studies' documents,
and one missing a configuration the documents quote is refused naming it."""
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYNTH_NAME = {"r2d_v1_d8": "r2d", "r2d_v1_d8_k2": "r2d_k2", "r2d_v1_d8_k4": "r2d_k4", "g2d_all_d8": "g2d",
              "g3d_all_d8": "g3d", "r2d_all_v1_d8": "r2d_all_f16", "r3d_all_v1_d8": "r3d_all_f16",
              "barrier_2d": "b2", "barrier_3d": "b3"}
MODULE = {"input units": "torx_input_unit", "VC allocator": "torx_vc_alloc", "switch allocator": "torx_sw_alloc",
          "output units": "torx_output_unit", "gossip unit": "torx_gossip_unit"}


def area_doc(drop=None):
    rows = list(csv.DictReader(open(os.path.join(ROOT, "docs/area-figures.csv"))))
    mods = []
    for cfg in dict.fromkeys(r["config"] for r in rows):
        if cfg == drop:
            continue
        for r in sorted((r for r in rows if r["config"] == cfg), key=lambda r: r["module"] != "router"):
            m = {"name": "torx_router" if r["module"] == "router" else MODULE[r["module"]],
                 "params": {"config": SYNTH_NAME[cfg]}, "cells": int(r["cells"]), "flops": int(r["flops"]),
                 "um2": 10.0 * int(r["cells"])}
            if r["module"] == "router":
                m.update({"torx": f"--topo 8x8 ({SYNTH_NAME[cfg]})", "critical_path_ns": 1.0})
            mods.append(m)
    return {"schema": "torx.area/2", "modules": mods}


def render(doc):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    try:
        return subprocess.run([sys.executable, os.path.join(ROOT, "scripts/doc_studies.py"), "--render-only",
                               "--area", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


def main():
    fails = 0
    r = render(area_doc())
    ok = r.returncode == 0 and "3 of 3 documents rendered" in r.stdout
    print(("ok  " if ok else "FAIL") + " a torx.area/2 table renders the three documents")
    fails += not ok
    if not ok:
        print(r.stdout + r.stderr)
    r = render(area_doc(drop="barrier_2d"))
    ok = r.returncode != 0 and "no router of barrier_2d" in r.stderr
    print(("ok  " if ok else "FAIL") + " a table without the 2D barrier is refused, naming it")
    fails += not ok
    if not ok:
        print(r.stdout + r.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
