#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The router organizations study (docs/pipelines.md): cycles per organization (--param
pipeline=single|lookahead|classic) for the architect's workloads, the credit loop (one VC's
throughput against buffer depth), and the BookSim 2 comparison when given its binary.

  scripts/pipeline_study.py [--torx build/bin/torx] [--out DIR] [--jobs 2] [--booksim PATH]
                            [--synth DIR|run] [--skip workloads,loop,booksim,time]

Writes into --out (default ./pipeline-study): workloads.csv, loop.csv, booksim.csv (with --booksim),
time.csv (with --synth) and tables.md (the Markdown tables docs/pipelines.md quotes), and the plots.
The time part joins the workloads' cycles (workloads.csv, just run or left in --out by an earlier run)
with each organization's clock period from the standard-cell flow: --synth DIR reads
DIR/single.json, DIR/lookahead.json, DIR/classic.json (torx.area/2 documents of `scripts/synth.sh
--topo 8x8 --flit-bytes 32 --param pipeline=ORG --json DIR/ORG.json`); --synth run makes them in
--out/synth first (yosys and OpenSTA, minutes each); DIR/gossip.json, if there, is the gossip-mode
router's (torx_gossip_router, single only), whose period times the --gossip-hw run. Time in ns = cycles x the period of the
router's worst path into a register that moves flits or credits (the datapath path of
docs/area.md). BookSim is not part of torx: build it yourself (https://github.com/booksim/booksim2);
without --booksim its part is skipped.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

ORGS = ("single", "lookahead", "classic")

# (name, torx run arguments, whether the run is refused for the pipelined organizations)
WORKLOADS = [
    ("t4 16x16", ["t4", "--topo", "16x16"], False),
    ("c64 8x8x8", ["c64", "--topo", "8x8x8", "--block-bytes", "16"], False),
    ("ring 256", ["ring", "--topo", "256"], False),
    ("ms-hc 16x16", ["ms-hc", "--topo", "16x16"], False),
    ("ms-hc 16x16 --gossip-hw", ["ms-hc", "--topo", "16x16", "--gossip-hw"], True),
]
# Random uniform traffic (torx traffic): two offered loads, flits per node per cycle.
LOADS = (0.1, 0.3)


def fail(msg):
    print(f"pipeline_study.py: {msg}", file=sys.stderr)
    sys.exit(2)


def torx(binary, args):
    p = subprocess.run(["nice", "-n", "19", binary] + args + ["--json", "-"], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def run_workload(binary, name, args, org):
    rc, out, err = torx(binary, ["run"] + args + ["--model", "cycle", "--param", f"pipeline={org}"])
    if rc == 2:
        return dict(workload=name, organization=org, cycles="", ok="", note="refused: " + err.strip().splitlines()[-1])
    if rc != 0:
        fail(f"torx run {' '.join(args)} pipeline={org}: exit {rc}: {err.strip()}")
    d = json.loads(out)
    return dict(workload=name, organization=org, cycles=d["cycles"], ok=d["check"]["ok"], note="")


def run_traffic(binary, load, org):
    args = ["traffic", "--topo", "8x8", "--pattern", "uniform", "--rate", str(load), "--packet-flits", "4",
            "--param", f"pipeline={org}"]
    rc, out, err = torx(binary, args)
    if rc != 0:
        fail(f"torx {' '.join(args)}: exit {rc}: {err.strip()}")
    d = json.loads(out)
    r = d["runs"][0]
    return dict(workload=f"uniform 8x8 load {load}", organization=org,
                cycles=round(r["packet_latency"]["mean"], 2), ok=r["check"]["ok"],
                note=f"mean packet latency; accepted {r['accepted']:.3f}")


def one_message(binary, org, depth, flits, hops=1):
    """Cycles of one message of `flits` 16-byte flits over `hops` links of a 16-node ring."""
    sched = ("torx-schedule 1\ncollective alltoall\ntopology 16 torus\nports one\nswitching wormhole\n"
             f"step\n0 -> {hops} x+ | 0>{hops}\nend\n")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(sched)
        path = f.name
    try:
        rc, out, err = torx(binary, ["run", "--schedule", path, "--topo", "16", "--model", "cycle", "--ts", "0",
                                     "--block-bytes", str(16 * flits), "--param", f"pipeline={org}",
                                     "--param", f"buffer_depth={depth}"])
    finally:
        os.unlink(path)
    if rc not in (0, 1):  # 1: the check fails, one message is not a complete exchange (it is delivered)
        fail(f"one message, {org}, D={depth}: exit {rc}: {err.strip()}")
    return json.loads(out)["cycles"]


def loop_rows(binary, jobs):
    """One VC's throughput against buffer depth: the slope of cycles over flits between worms of 100
    and 300 flits on one hop."""
    jobs_ = [(org, d) for org in ORGS for d in range(1, 9)]

    def one(j):
        org, d = j
        a, b = one_message(binary, org, d, 100), one_message(binary, org, d, 300)
        return dict(organization=org, buffer_depth=d, flits_per_cycle=round(200 / (b - a), 4))

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(one, jobs_))


# --- BookSim 2 ---------------------------------------------------------------------------------------
# The settings that should agree with each organization (docs/pipelines.md, "BookSim 2"), with
# torx's credit_latency = 2 (BookSim's credit path is one cycle longer than torx's default).
BOOKSIM = {
    "single": dict(routing_delay=0, vc_alloc_delay=1, sw_alloc_delay=1, speculative=1, router_latency=2),
    "lookahead": dict(routing_delay=0, vc_alloc_delay=1, sw_alloc_delay=1, speculative=1, router_latency=1),
    "classic": dict(routing_delay=1, vc_alloc_delay=1, sw_alloc_delay=1, speculative=0, router_latency=1),
}


def booksim_config(org, traffic, sim_type, rate=0.0, k=8):
    s = BOOKSIM[org]
    cfg = f"""topology = torus;
k = {k};
n = 2;
routing_function = dim_order;
router = iq;
num_vcs = 2;
vc_buf_size = 8;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters = 1;
credit_delay = 0;
routing_delay = {s['routing_delay']};
vc_alloc_delay = {s['vc_alloc_delay']};
sw_alloc_delay = {s['sw_alloc_delay']};
speculative = {s['speculative']};
use_noc_latency = 0;
traffic = {traffic};
packet_size = 4;
seed = 1;
sim_type = {sim_type};
"""
    if sim_type == "batch":
        cfg += "batch_size = 1;\nbatch_count = 1;\ninjection_rate_uses_flits = 1;\n"
    else:
        cfg += (f"injection_rate_uses_flits = 1;\ninjection_rate = {rate};\nwarmup_periods = 3;\n"
                "sample_period = 1000;\nmax_samples = 13;\nstopping_thres = 0.0;\nacc_stopping_thres = 0.0;\n"
                "latency_thres = 500.0;\n")
    return cfg


def booksim(binary, cfg):
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(cfg)
        path = f.name
    p = subprocess.run(["nice", "-n", "19", binary, path], capture_output=True, text=True)
    os.unlink(path)
    return p.stdout


def grab(out, name):
    m = re.search(rf"^{name} = ([0-9.e+-]+) \(1 samples\)", out, re.M)
    return float(m.group(1)) if m else float("nan")


def permutation_schedule(pattern, k):
    """One message per node on a k x k torus, to the node BookSim's pattern names, dimension order."""
    lines = []
    for y in range(k):
        for x in range(k):
            if pattern == "transpose":
                dx, dy = y, x
            elif pattern == "tornado":
                dx, dy = (x + k // 2 - 1) % k, (y + k // 2 - 1) % k
            elif pattern == "neighbor":
                dx, dy = (x + 1) % k, (y + 1) % k
            else:
                raise ValueError(pattern)
            if (dx, dy) != (x, y):
                lines.append(f"{x},{y} -> {dx},{dy} | {x},{y}>{dx},{dy}")
    return ("torx-schedule 1\ncollective alltoall\ntopology {0}x{0} torus\nports one\nswitching wormhole\nstep\n"
            .format(k) + "\n".join(lines) + "\nend\n")


def torx_batch(binary, org, pattern, k=8):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(permutation_schedule(pattern, k))
        path = f.name
    try:
        p = BOOKSIM[org]
        rc, out, err = torx(binary, ["run", "--schedule", path, "--topo", f"{k}x{k}", "--model", "cycle", "--ts", "0",
                                     "--block-bytes", "64", "--param", f"pipeline={org}",
                                     "--param", f"router_latency={p['router_latency']}",
                                     "--param", "credit_latency=2", "--param", "vcs_per_class=1"])
    finally:
        os.unlink(path)
    if rc not in (0, 1):  # 1: the check fails, one permutation is not a complete exchange
        fail(f"torx batch {org} {pattern}: exit {rc}: {err.strip()}")
    return json.loads(out)["cycles"]


def torx_latency(binary, org, pattern, rate):
    p = BOOKSIM[org]
    rc, out, err = torx(binary, ["traffic", "--topo", "8x8", "--pattern", pattern, "--rate", str(rate),
                                 "--packet-flits", "4", "--param", f"pipeline={org}",
                                 "--param", f"router_latency={p['router_latency']}", "--param", "credit_latency=2"])
    if rc != 0:
        fail(f"torx traffic {org} {pattern}: exit {rc}: {err.strip()}")
    r = json.loads(out)["runs"][0]
    return r["packet_latency"]["mean"], r["hops_mean"]


def booksim_rows(binary, bs, jobs):
    jobs_ = [(org, kind, pat) for org in ORGS for kind, pat in
             [("batch", "transpose"), ("batch", "tornado"), ("batch", "neighbor"),
              ("latency", "neighbor"), ("latency", "tornado"), ("latency", "uniform")]]

    def one(j):
        org, kind, pat = j
        if kind == "batch":
            out = booksim(bs, booksim_config(org, pat, "batch"))
            m = re.search(r"^Packet latency average = [0-9.e+-]+ \(1 samples\)\n\s*minimum = \d+ \(1 samples\)\n"
                          r"\s*maximum = (\d+) \(1 samples\)", out, re.M)
            return dict(organization=org, case=f"one packet per node, {pat}", booksim=int(m.group(1)) if m else "",
                        torx=torx_batch(binary, org, pat),
                        unit="last packet: BookSim its latency, torx the cycles to its store")
        rate = 0.004
        out = booksim(bs, booksim_config(org, pat, "latency", rate))
        lat, _ = torx_latency(binary, org, pat, rate)
        return dict(organization=org, case=f"packets at load {rate}, {pat}", booksim=grab(out, "Packet latency average"),
                    torx=round(lat, 3), unit="mean packet latency")

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(one, jobs_))


# --- clock period and time --------------------------------------------------------------------------

def synth_org(out_dir, org):
    """Run the standard-cell flow on the 8x8 torus router of one organization (torx.area/2 into
    out_dir/ORG.json)."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(out_dir, f"{org}.json")
    p = subprocess.run(["nice", "-n", "19", os.path.join(here, "synth.sh"), "--topo", "8x8", "--flit-bytes", "32",
                        "--param", f"pipeline={org}", "--json", path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"scripts/synth.sh --param pipeline={org}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
    return path


def read_synth(path, org):
    """Area, worst path and datapath path of one organization's router from a torx.area/2 document."""
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        fail(f"--synth: {path}: {e}")
    if not isinstance(doc, dict) or doc.get("schema") != "torx.area/2":
        fail(f"--synth: {path} is not a torx.area/2 document")
    rows = [m for m in doc.get("modules", []) if "critical_path_ns" in m]
    if len(rows) != 1:
        fail(f"--synth: {path} holds {len(rows)} routers, not one")
    r = rows[0]
    want = {"single": 0, "lookahead": 1, "classic": 2}[org]
    if int(r["params"].get("Pipeline", 0)) != want:
        fail(f"--synth: {path} is the router of Pipeline = {r['params'].get('Pipeline', 0)}, not {org} ({want})")
    d = r.get("datapath") or r
    return dict(organization=org, um2=r["um2"], nand2_eq=r["nand2_eq"], flops=r["flops"],
                worst_ns=r["critical_path_ns"], worst_end=r["critical_path"]["end"].get("register", ""),
                period_ns=d["critical_path_ns"], fmax_mhz=d["fmax_mhz"],
                path=" → ".join(u["unit"] for u in d["critical_path"]["units"]),
                clock_ns=doc.get("clock_ns"), liberty=os.path.basename(str(doc.get("tools", {}).get("liberty", ""))))


def read_gossip(path):
    """The gossip-mode router's area and periods (torx_gossip_router: a router of its own, in the
    single organization only) from a torx.area/2 document, or None without one."""
    if not os.path.exists(path):
        return None
    doc = json.load(open(path))
    rows = [m for m in doc.get("modules", []) if "critical_path_ns" in m and m["name"] == "torx_gossip_router"]
    if doc.get("schema") != "torx.area/2" or len(rows) != 1:
        fail(f"--synth: {path} is not a torx.area/2 document of one torx_gossip_router")
    r = rows[0]
    d = r.get("datapath") or r
    return dict(organization="gossip", um2=r["um2"], nand2_eq=r["nand2_eq"], flops=r["flops"],
                worst_ns=r["critical_path_ns"], worst_end=r["critical_path"]["end"].get("register", ""),
                period_ns=d["critical_path_ns"], fmax_mhz=d["fmax_mhz"],
                path=" → ".join(u["unit"] for u in d["critical_path"]["units"]),
                clock_ns=doc.get("clock_ns"), liberty="")


def time_rows(workloads, synth):
    """Every workload's cycles (or mean latency) times each organization's period; a --gossip-hw run
    times the gossip router's period (synth["gossip"]; left out without it)."""
    rows = []
    for w in workloads:
        if w["cycles"] == "":
            continue
        s = synth[w["organization"]]
        if "--gossip-hw" in w["workload"]:
            if not synth.get("gossip"):
                continue
            s = synth["gossip"]
        rows.append(dict(workload=w["workload"], organization=w["organization"], cycles=w["cycles"],
                         period_ns=s["period_ns"], ns=round(float(w["cycles"]) * s["period_ns"], 1)))
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def table(rows, key, cols, value):
    keys = list(dict.fromkeys(r[key] for r in rows))
    out = ["| " + key + " | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for k in keys:
        cells = []
        for c in cols:
            r = next((r for r in rows if r[key] == k and r["organization"] == c), None)
            cells.append(value(r) if r else "")
        out.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def plot(out):
    """docs/pipelines' two plots from the CSV files in `out` (skipped without matplotlib or the files)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("pipeline_study.py: no matplotlib, no plots", file=sys.stderr)
        return
    loop = os.path.join(out, "loop.csv")
    if os.path.exists(loop):
        rows = list(csv.DictReader(open(loop)))
        fig, ax = plt.subplots(figsize=(5.5, 3.5))
        for org, mark in zip(ORGS, "os^"):
            pts = sorted((int(r["buffer_depth"]), float(r["flits_per_cycle"])) for r in rows if r["organization"] == org)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=mark, label=org)
        ax.set_xlabel("buffer depth D (flits)")
        ax.set_ylabel("one VC's throughput (flits/cycle)")
        ax.set_title("credit loop: L = 1, P = 2, Lc = 1")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "loop.svg"))
        plt.close(fig)
    wl = os.path.join(out, "workloads.csv")
    if os.path.exists(wl):
        rows = [r for r in csv.DictReader(open(wl)) if r["cycles"] != ""]
        relative_bars(plt, rows, "cycles", "cycles / single's (traffic: latency)", None, False,
                      os.path.join(out, "workloads.svg"))
    tm = os.path.join(out, "time.csv")
    if os.path.exists(tm):
        relative_bars(plt, list(csv.DictReader(open(tm))), "ns", "time / single's (cycles x period)",
                      "time in ns relative to single (OSU 0.18 µm periods of the 8x8 router)", True,
                      os.path.join(out, "time.svg"))


def relative_bars(plt, rows, key, ylabel, title, unit_line, path):
    """One group of bars per workload: each organization's `key` over single's (workloads.svg, time.svg)."""
    names = list(dict.fromkeys(r["workload"] for r in rows))
    fig, ax = plt.subplots(figsize=(7, 3.8))
    width = 0.27
    for i, org in enumerate(ORGS):
        vals = []
        for n in names:
            base = next(float(r[key]) for r in rows if r["workload"] == n and r["organization"] == "single")
            r = next((r for r in rows if r["workload"] == n and r["organization"] == org), None)
            vals.append(float(r[key]) / base if r else 0)
        ax.bar([k + (i - 1) * width for k in range(len(names))], vals, width, label=org)
    if unit_line:
        ax.axhline(1.0, color="black", lw=0.6)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=9)
    else:
        ax.set_ylim(0.9, None)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default="build/bin/torx")
    ap.add_argument("--out", default="pipeline-study")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--booksim", default="")
    ap.add_argument("--synth", default="", metavar="DIR|run",
                    help="the organizations' synthesis (DIR/ORG.json, torx.area/2), or run: make them in --out/synth")
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: workloads, loop, booksim, time")
    a = ap.parse_args()
    if not os.access(a.torx, os.X_OK):
        fail(f"--torx {a.torx}: not an executable")
    if a.booksim and not os.access(a.booksim, os.X_OK):
        fail(f"--booksim {a.booksim}: not an executable")
    skip = set(filter(None, a.skip.split(",")))
    if skip - {"workloads", "loop", "booksim", "time"}:
        fail(f"--skip {a.skip}: the parts are workloads, loop, booksim, time")
    if a.synth and a.synth != "run" and not os.path.isdir(a.synth):
        fail(f"--synth {a.synth}: not a directory (or 'run')")
    os.makedirs(a.out, exist_ok=True)
    md = []
    if "workloads" not in skip:
        jobs = [(n, args, org) for n, args, _ in WORKLOADS for org in ORGS]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            rows = list(ex.map(lambda j: run_workload(a.torx, *j), jobs))
            rows += list(ex.map(lambda j: run_traffic(a.torx, *j), [(l, o) for l in LOADS for o in ORGS]))
        write_csv(os.path.join(a.out, "workloads.csv"), rows)

        def cell(r):
            if r["cycles"] == "":
                return "refused"
            base = next(x for x in rows if x["workload"] == r["workload"] and x["organization"] == "single")
            rel = "" if r["organization"] == "single" or base["cycles"] == "" else \
                f" ({100 * (float(r['cycles']) / float(base['cycles']) - 1):+.1f} %)"
            return f"{r['cycles']:,}{rel}" if isinstance(r["cycles"], int) else f"{r['cycles']}{rel}"

        md += ["## Workloads (cycles; traffic: mean packet latency)", "", table(rows, "workload", ORGS, cell), ""]
    if "loop" not in skip:
        rows = loop_rows(a.torx, a.jobs)
        write_csv(os.path.join(a.out, "loop.csv"), rows)
        depths = sorted({r["buffer_depth"] for r in rows})
        md += ["## One VC's throughput (flits per cycle) against buffer depth D", "",
               "| organization | " + " | ".join(f"D={d}" for d in depths) + " |", "|---" * (len(depths) + 1) + "|"]
        for org in ORGS:
            md.append(f"| {org} | " + " | ".join(
                f"{next(r for r in rows if r['organization'] == org and r['buffer_depth'] == d)['flits_per_cycle']:.3f}"
                for d in depths) + " |")
        md.append("")
    if "booksim" not in skip and a.booksim:
        rows = booksim_rows(a.torx, a.booksim, a.jobs)
        write_csv(os.path.join(a.out, "booksim.csv"), rows)
        md += ["## BookSim 2 against torx", "", "| organization | case | BookSim | torx | measure |", "|---|---|---|---|---|"]
        for r in rows:
            md.append(f"| {r['organization']} | {r['case']} | {r['booksim']} | {r['torx']} | {r['unit']} |")
        md.append("")
    if "time" not in skip and a.synth:
        sdir = a.synth
        if sdir == "run":
            sdir = os.path.join(a.out, "synth")
            os.makedirs(sdir, exist_ok=True)
            for org in ORGS:
                synth_org(sdir, org)
        synth = {org: read_synth(os.path.join(sdir, f"{org}.json"), org) for org in ORGS}
        synth["gossip"] = read_gossip(os.path.join(sdir, "gossip.json"))
        wl = os.path.join(a.out, "workloads.csv")
        if not os.path.exists(wl):
            fail(f"the time part needs {wl} (run the workloads part first)")
        rows = time_rows(list(csv.DictReader(open(wl))), synth)
        write_csv(os.path.join(a.out, "time.csv"), rows)
        write_csv(os.path.join(a.out, "synth.csv"), [synth[o] for o in ORGS + ("gossip",) if synth[o]])
        md += ["## The routers (8x8 torus, 32-byte flits, OSU 0.18 µm)", "",
               "| organization | area µm² | flops | worst path ns (ends at) | datapath path ns | fmax MHz | datapath path |",
               "|---|---:|---:|---|---:|---:|---|"]
        for o in ORGS + ("gossip",):
            x = synth[o]
            if not x:
                continue
            md.append(f"| {o} | {x['um2']:,.0f} | {x['flops']:,} | {x['worst_ns']:.2f} ({x['worst_end']}) | "
                      f"{x['period_ns']:.2f} | {x['fmax_mhz']:.1f} | {x['path']} |")
        md += ["", "## Time (ns = cycles x datapath period; traffic: mean packet latency in ns)", ""]

        def tcell(r):
            base = next(x for x in rows if x["workload"] == r["workload"] and x["organization"] == "single")
            rel = "" if r["organization"] == "single" else f" ({100 * (r['ns'] / base['ns'] - 1):+.1f} %)"
            return f"{r['ns']:,.1f}{rel}"

        md += [table(rows, "workload", ORGS, tcell), ""]
    if md:
        with open(os.path.join(a.out, "tables.md"), "w") as f:
            f.write("\n".join(md))
        print("\n".join(md))
    plot(a.out)


if __name__ == "__main__":
    main()
