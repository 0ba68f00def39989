#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A corpus of result documents, to prove that a refactor changes no result.

  scripts/result_corpus.py run  --torx build/bin/torx --out DIR [--jobs 2] [--filter SUBSTR]
  scripts/result_corpus.py diff OLD_DIR NEW_DIR      # exit 1 if any document differs

`run` executes every case below (step and cycle model, every algorithm, several network
parameters, both synchronisations) and writes one result document per case. `diff` compares two
corpora key by key, ignoring what measures the machine rather than the model (wall and load times,
peak memory, threads) and keys only the new documents have (additions), and reports every case
whose figures differ, with the first differing keys.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

# Keys that measure the machine, not the model.
IGNORED = {"wall_seconds", "peak_rss_bytes", "load_seconds", "run_seconds", "threads"}

CASES = []


def case(name, *args):
    CASES.append((name, list(args)))


# Step model: every algorithm once.
for algo, topo, extra in [
    ("direct", "8x8", []), ("ring", "64", []), ("ring", "30", []), ("t1", "8x8", []), ("c1", "4x4x4", []),
    ("tseng-dd", "5x6x3", []), ("t4", "16x16", []), ("c64", "8x8x8", []), ("suh", "6x10", ["--mesh"]),
    ("tsay-wang", "9x9", []), ("dimak-a2", "4x6", []), ("dimak-a3", "4x4", []), ("ms-hc", "8x8", []),
    ("ms-hc", "7x8", []), ("ms-one", "8x8", []), ("ms-one", "6x12x4", [])]:
    case(f"step-{algo}-{topo}{''.join(extra)}", algo, "--topo", topo, *extra)

# Cycle model: every algorithm under barrier and none, default parameters.
CYCLE = [("direct", "8x8", []), ("direct", "16", []), ("ring", "64", []), ("ring", "30", []), ("t1", "8x8", []),
         ("c1", "4x4x4", []), ("tseng-dd", "5x6x3", []), ("t4", "16x16", []), ("c64", "8x8x8", ["--block-bytes", "16"]),
         ("suh", "6x10", ["--mesh"]), ("tsay-wang", "9x9", []), ("tsay-wang", "4x4x4", []), ("dimak-a2", "4x6", []),
         ("dimak-a3", "4x4", []), ("ms-hc", "8x8", []), ("ms-hc", "7x8", []), ("ms-one", "8x8", []),
         ("ms-one", "6x6x3", [])]
for algo, topo, extra in CYCLE:
    for sync in ("barrier", "none"):
        case(f"cycle-{algo}-{topo}-{sync}{''.join(extra)}", algo, "--topo", topo, "--model", "cycle", "--sync", sync,
             *extra)

# Cycle model: network parameters and timing.
for params in (["buffer_depth=2"], ["buffer_depth=3"], ["vcs_per_class=2"], ["router_latency=1"],
               ["router_latency=3", "link_latency=2", "credit_latency=2", "local_latency=2"],
               ["barrier_hop_latency=4"], ["order_classes=2"], ["vcs_per_class=2", "buffer_depth=4"]):
    tag = "-".join(p.replace("=", "") for p in params)
    pargs = [a for p in params for a in ("--param", p)]
    for algo, topo in (("direct", "8x8"), ("t4", "8x8"), ("tsay-wang", "7x7")):
        for sync in ("barrier", "none"):
            case(f"cycle-{algo}-{topo}-{sync}-{tag}", algo, "--topo", topo, "--model", "cycle", "--sync", sync,
                 "--ts", "10", *pargs)
for ts, fb, bb in ((0, 16, 64), (1000, 16, 64), (10, 8, 200), (10, 32, 1024), (3, 5, 7)):
    case(f"cycle-direct-4x4-ts{ts}-f{fb}-b{bb}", "direct", "--topo", "4x4", "--model", "cycle", "--ts", str(ts),
         "--flit-bytes", str(fb), "--block-bytes", str(bb), "--sync", "none")
case("cycle-direct-8x8-allport", "direct", "--topo", "8x8", "--model", "cycle", "--ports", "all", "--sync", "none")
case("cycle-direct-6x6-mesh", "direct", "--topo", "6x6", "--mesh", "--model", "cycle", "--sync", "none")
case("cycle-direct-16x16-b128", "direct", "--topo", "16x16", "--model", "cycle", "--block-bytes", "128")

# Cycle model: the other synchronization modes (local, software, priority) and priority parameters.
for algo, topo, extra in (("direct", "8x8", ["--ts", "10"]), ("t4", "8x8", []), ("ring", "32", []),
                          ("tsay-wang", "7x7", []), ("c1", "4x4x4", []), ("suh", "6x10", ["--mesh"]),
                          ("dimak-a2", "4x6", []), ("t1", "8x8", ["--ports", "all"])):
    for sync in ("local", "software", "priority"):
        case(f"cycle-{algo}-{topo}-{sync}{''.join(extra)}", algo, "--topo", topo, "--model", "cycle", "--sync", sync,
             *extra)
for params in (["priority_levels=2"], ["priority_levels=8", "buffer_depth=9"], ["vcs_per_class=2"],
               ["priority_levels=3", "priority_reserve=2", "buffer_depth=6"], ["null_ts=0"]):
    tag = "-".join(p.replace("=", "") for p in params)
    pargs = [a for p in params for a in ("--param", p)]
    for algo, topo in (("t4", "8x8"), ("ring", "64")):
        sync = "local" if params == ["null_ts=0"] else "priority"
        case(f"cycle-{algo}-{topo}-{sync}-{tag}", algo, "--topo", topo, "--model", "cycle", "--sync", sync, *pargs)
# Cycle model: hardwired gossip.
for algo, topo, extra in (("ms-hc", "8x8", []), ("ms-hc", "7x8", []), ("ms-one", "8x8", []), ("ms-one", "6x6x3", []),
                          ("ms-hc-steps", "6x6", []), ("ms-hc", "8x8", ["--block-bytes", "32", "--ts", "10"])):
    case(f"cycle-{algo}-{topo}-gossiphw{''.join(extra)}", algo, "--topo", topo, "--model", "cycle", "--gossip-hw",
         *extra)


def run_case(torx, out, name, args):
    path = os.path.join(out, name + ".json")
    p = subprocess.run([torx, "run", *args, "--json", path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    return name, p.returncode, p.stderr.strip().splitlines()[-1:] if p.returncode else []


def strip(doc):
    if isinstance(doc, dict):
        return {k: strip(v) for k, v in doc.items() if k not in IGNORED}
    if isinstance(doc, list):
        return [strip(v) for v in doc]
    return doc


def differences(a, b, path=""):
    if type(a) != type(b):
        return [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in b:
                out.append(f"{path}.{k}: present vs missing")
            elif k in a:
                out += differences(a[k], b[k], f"{path}.{k}")
            # A key only the new document has is an addition, not a change.
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} entries"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--torx", default="build/bin/torx")
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--filter", default="")
    d = sub.add_parser("diff")
    d.add_argument("old")
    d.add_argument("new")
    a = ap.parse_args()
    if a.cmd == "run":
        os.makedirs(a.out, exist_ok=True)
        cases = [c for c in CASES if a.filter in c[0]]
        bad = 0
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            for name, rc, err in ex.map(lambda c: run_case(a.torx, a.out, *c), cases):
                if rc:
                    bad += 1
                    print(f"{name}: exit {rc} {' '.join(err)}")
        print(f"{len(cases)} cases, {bad} failed, documents in {a.out}")
        return 1 if bad else 0
    names = sorted(f for f in os.listdir(a.old) if f.endswith(".json"))
    changed = 0
    for f in names:
        nf = os.path.join(a.new, f)
        if not os.path.exists(nf):
            print(f"{f}: missing in {a.new}")
            changed += 1
            continue
        da = strip(json.load(open(os.path.join(a.old, f))))
        db = strip(json.load(open(nf)))
        diff = differences(da, db)
        if diff:
            changed += 1
            print(f"{f}: {len(diff)} differences: " + "; ".join(diff[:4]))
    print(f"{len(names)} documents compared, {changed} differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
