#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# scripts/pipeline_study.py's time part (docs/pipelines.md, the architect's table): ns = cycles x the
# datapath period of each organization's torx.area/2 document (a --gossip-hw run: the gossip router's),
# the routers' table from the same documents, and exit 2 for a document of the wrong organization, a
# missing one or a bad --synth.
import csv
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "pipeline_study.py")


def area_doc(pipeline, um2, worst, datapath):
    params = {"config": "r2d", "NumDims": 2}
    if pipeline:
        params["Pipeline"] = pipeline
    unit = [{"unit": "torx_input_unit", "instance": "gen_port[0]"}, {"unit": "torx_sw_alloc", "instance": ""}]
    return {"schema": "torx.area/2", "clock_ns": 5.0, "tools": {"liberty": "osu018_stdcells"},
            "modules": [{"name": "torx_router", "params": params, "um2": um2, "nand2_eq": um2 / 24, "flops": 100 + pipeline,
                         "critical_path_ns": worst, "fmax_mhz": round(1000 / worst, 1),
                         "critical_path": {"end": {"register": "stat_blocked_q"}, "units": unit},
                         "datapath": {"critical_path_ns": datapath, "fmax_mhz": round(1000 / datapath, 1),
                                      "critical_path": {"end": {"register": "ivc_count_q"}, "units": unit}}},
                        {"name": "torx_crossbar", "params": params, "um2": 1.0}]}


def run(out, synth):
    return subprocess.run([sys.executable, SCRIPT, "--torx", sys.executable, "--out", out, "--synth", synth,
                           "--skip", "workloads,loop,booksim"], capture_output=True, text=True)


def main():
    fails = []
    with tempfile.TemporaryDirectory() as d:
        out, syn = os.path.join(d, "out"), os.path.join(d, "synth")
        os.makedirs(out)
        os.makedirs(syn)
        with open(os.path.join(out, "workloads.csv"), "w") as f:
            f.write("workload,organization,cycles,ok,note\n"
                    "t4,single,1000,True,\nt4,lookahead,1010,True,\nt4,classic,1030,True,\n"
                    "g --gossip-hw,single,50,True,\ng --gossip-hw,lookahead,,,refused\ng --gossip-hw,classic,,,refused\n")
        for org, pl, um2, worst, dp in (("single", 0, 5e6, 8.0, 7.0), ("lookahead", 1, 5.5e6, 7.5, 5.0),
                                        ("classic", 2, 5.2e6, 7.0, 4.0)):
            json.dump(area_doc(pl, um2, worst, dp), open(os.path.join(syn, f"{org}.json"), "w"))
        g = area_doc(0, 3e6, 40.0, 40.0)   # the gossip router: its own period times the --gossip-hw run
        g["modules"][0]["name"] = "torx_gossip_router"
        json.dump(g, open(os.path.join(syn, "gossip.json"), "w"))
        p = run(out, syn)
        if p.returncode != 0:
            fails.append(f"time part: exit {p.returncode}: {p.stderr}")
        else:
            rows = {(r["workload"], r["organization"]): r for r in csv.DictReader(open(os.path.join(out, "time.csv")))}
            want = {("t4", "single"): 7000.0, ("t4", "lookahead"): 5050.0, ("t4", "classic"): 4120.0,
                    ("g --gossip-hw", "single"): 2000.0}
            for k, v in want.items():
                if k not in rows or float(rows[k]["ns"]) != v:
                    fails.append(f"time.csv {k}: {rows.get(k)} (want ns {v})")
            if ("g --gossip-hw", "lookahead") in rows:
                fails.append("a refused run has a time")
            md = open(os.path.join(out, "tables.md")).read()
            for line in ("| t4 | 7,000.0 | 5,050.0 (-27.9 %) | 4,120.0 (-41.1 %) |",
                         "| lookahead | 5,500,000 | 101 | 7.50 (stat_blocked_q) | 5.00 | 200.0 |"):
                if line not in md:
                    fails.append(f"tables.md lacks {line!r}:\n{md}")
        # The wrong organization's document, a missing one, a --synth that is no directory: exit 2.
        os.rename(os.path.join(syn, "classic.json"), os.path.join(syn, "c.json"))
        json.dump(area_doc(1, 1.0, 1.0, 1.0), open(os.path.join(syn, "classic.json"), "w"))
        p = run(out, syn)
        if p.returncode != 2 or "not classic" not in p.stderr:
            fails.append(f"classic.json of Pipeline 1: exit {p.returncode}, {p.stderr.strip()}")
        os.remove(os.path.join(syn, "classic.json"))
        p = run(out, syn)
        if p.returncode != 2 or "classic.json" not in p.stderr:
            fails.append(f"no classic.json: exit {p.returncode}, {p.stderr.strip()}")
        p = run(out, os.path.join(d, "nowhere"))
        if p.returncode != 2 or "not a directory" not in p.stderr:
            fails.append(f"--synth nowhere: exit {p.returncode}, {p.stderr.strip()}")
    for f in fails:
        print("FAIL:", f)
    print("pipeline_study time part:", "ok" if not fails else f"{len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
