#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""torx's latency-throughput curves beside BookSim 2's: the study behind docs/traffic.md.

On an 8x8 torus, uniform and transpose traffic, 1 and 2 VCs per dateline class, 4-flit packets,
8-flit buffers, Bernoulli injection, 3000 cycles of warm-up and 10000 measured, it runs
`torx traffic` (one sweep per case, every packet checked) and, given a BookSim 2 binary, BookSim
with the mapped settings (the config is written into the document), and writes:

  docs/traffic/torx.csv, docs/traffic/booksim.csv   one line per case and rate
  docs/traffic/torx-variants.csv                    torx with one mapped setting changed
  docs/traffic/latency.png, throughput.png          both simulators' curves, one panel per case
  docs/traffic/torx-uniform.svg, torx-transpose.svg `torx plot latency` of torx's documents
  docs/traffic.md                                   the generated regions (config, summary, tables)

  scripts/traffic_study.py [--torx build/bin/torx] [--booksim PATH/TO/booksim] [--jobs 2]
  scripts/traffic_study.py --render-only      # tables and plots from the CSV files as they are
  scripts/traffic_study.py --skip-torx --booksim PATH   # BookSim's runs only
  scripts/traffic_study.py --booksim-config 16 uniform 1 0.1   # BookSim's config for one run

Without --booksim the BookSim figures are read from docs/traffic/booksim.csv as they are (BookSim is
not part of torx: build it yourself, https://github.com/booksim/booksim2, commit 28f43299; this
script only runs a binary it is given). BookSim runs take minutes each near saturation (it drains
every measured packet), so --jobs runs several at once. Needs python3-matplotlib for the PNGs.
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
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tables import fill_file  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("uniform", 1), ("uniform", 2), ("transpose", 1), ("transpose", 2)]
RATES = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.42, 0.44, 0.46, 0.48, 0.5, 0.55, 0.6, 0.7, 0.8]
WARMUP, MEASURE, PACKET, DEPTH, SEED = 3000, 10000, 4, 8, 1
FIELDS = ["pattern", "vcs_per_class", "rate", "offered", "accepted", "plat_mean", "nlat_mean", "hops", "saturated"]
# torx beside itself on uniform traffic, V = 1, with one mapped setting changed: how much each of the
# choices the mapping makes weighs (docs/traffic.md, "Where the two differ").
VARIANTS = [("as mapped (credit_latency 2, ties random)", []),
            ("credit_latency 1 (torx's default)", ["--param", "credit_latency=1"]),
            ("ties + (torx's schedules)", ["--ties", "plus"]),
            ("buffer_depth 4", ["--param", "buffer_depth=4"])]
VARIANT_RATES = [0.02, 0.1, 0.3, 0.4, 0.42, 0.44, 0.46, 0.48, 0.5, 0.55, 0.6]
# Zero load: every packet of neighbor 2 links from its source, of tornado 6 (8x8 torus), at a rate
# where packets almost never meet: what a hop and the ends of a path cost in each simulator.
ZERO_LOAD = [("neighbor", 2), ("tornado", 6)]
ZERO_RATE = 0.004


def booksim_config(pattern, vcs, rate, k=8, n=2, sim_type="latency"):
    """BookSim 2's configuration for one case and rate: the settings docs/timing-contract.md maps to
    torx's defaults with credit_latency = 2, and torx traffic's phases (warm-up 3 x 1000 cycles, then
    10 x 1000 measured: the stopping thresholds of 0 keep it from ending before max_samples). In
    latency mode BookSim drains every measured packet, and gives up on a run whose average latency
    passes latency_thres (its own saturation criterion); such a run is repeated in throughput mode,
    which measures the accepted throughput without the drain."""
    return f"""// torx traffic comparison (scripts/traffic_study.py)
topology = torus;
k = {k};
n = {n};
routing_function = dim_order;
router = iq;
num_vcs = {2 * vcs};
vc_buf_size = {DEPTH};
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters = 1;
credit_delay = 0;
routing_delay = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
speculative = 1;
use_noc_latency = 0;
traffic = {pattern};
packet_size = {PACKET};
injection_rate_uses_flits = 1;
injection_rate = {rate};
sim_type = {sim_type};
warmup_periods = {WARMUP // 1000};
sample_period = 1000;
max_samples = {(WARMUP + MEASURE) // 1000};
stopping_thres = 0.0;
acc_stopping_thres = 0.0;
latency_thres = 500.0;
seed = {SEED};
"""


def booksim_output(binary, config):
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(config)
        path = f.name
    p = subprocess.run(["nice", "-n", "19", binary, path], capture_output=True, text=True)
    os.unlink(path)
    return p.stdout


def run_booksim(binary, pattern, vcs, rate):
    t0 = time.time()
    out = booksim_output(binary, booksim_config(pattern, vcs, rate))
    unstable = "Simulation unstable" in out
    if unstable:
        out = booksim_output(binary, booksim_config(pattern, vcs, rate, sim_type="throughput"))

    def grab(name):
        m = re.search(rf"^{name} = ([0-9.e+-]+) \(1 samples\)", out, re.M)
        if not m:
            raise RuntimeError(f"BookSim at {pattern} V={vcs} rate {rate}: no '{name}' in its output\n{out[-2000:]}")
        return float(m.group(1))

    nan = float("nan")
    return {"pattern": pattern, "vcs_per_class": vcs, "rate": rate,
            "offered": grab("Injected flit rate average"), "accepted": grab("Accepted flit rate average"),
            "plat_mean": nan if unstable else grab("Packet latency average"),
            "nlat_mean": nan if unstable else grab("Network latency average"),
            "hops": grab("Hops average") - 1,  # BookSim counts routers, torx links
            "saturated": int(unstable), "seconds": round(time.time() - t0, 2)}


def run_torx(torx, pattern, vcs, work, extra=(), rates=RATES, name=""):
    doc = os.path.join(work, f"torx-{pattern}-v{vcs}{name}.json")
    cmd = [torx, "traffic", "--topo", "8x8", "--pattern", pattern, "--sweep", ",".join(map(str, rates)),
           "--packet-flits", str(PACKET), "--warmup", str(WARMUP), "--measure", str(MEASURE), "--seed", str(SEED),
           "--param", "credit_latency=2", "--param", f"vcs_per_class={vcs}", "--param", f"buffer_depth={DEPTH}",
           "--label", f"{vcs} VC{'s' if vcs > 1 else ''} per class", "--json", doc, *extra]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr}")
    d = json.load(open(doc))
    rows = []
    for x in d["runs"]:
        rows.append({"pattern": pattern, "vcs_per_class": vcs, "rate": x["rate"], "offered": x["offered"],
                     "accepted": x["accepted"], "plat_mean": x["packet_latency"]["mean"],
                     "nlat_mean": x["network_latency"]["mean"], "hops": x["hops_mean"],
                     "saturated": int(x["saturated"])})
    return rows, doc, d["wall_seconds"]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in FIELDS})


def read_csv(path):
    rows = []
    for r in csv.DictReader(open(path)):
        for k in ("rate", "offered", "accepted", "plat_mean", "nlat_mean", "hops"):
            r[k] = float(r[k])
        r["vcs_per_class"] = int(r["vcs_per_class"])
        rows.append(r)
    return rows


def case_rows(rows, pattern, vcs):
    return sorted((r for r in rows if r["pattern"] == pattern and r["vcs_per_class"] == vcs), key=lambda r: r["rate"])


def pct(a, b):
    return f"{100 * (a - b) / b:+.1f} %"


def summary(torx, bs, local):
    # The columns of BookSim with torx's local ports only when there are such runs.
    lines = ["| case | latency at 0.02: torx | BookSim | torx + 1 vs BookSim | at 0.1: torx | BookSim | torx + 1 vs "
             "BookSim | peak accepted: torx | BookSim | torx vs BookSim |"
             + (" BookSim, torx's local ports | torx vs it |" if local else ""),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if local else "")]
    for pattern, vcs in CASES:
        t, b, l = case_rows(torx, pattern, vcs), case_rows(bs, pattern, vcs), case_rows(local, pattern, vcs)
        if not t or not b:
            continue
        tl = {r["rate"]: r for r in t}
        bl = {r["rate"]: r for r in b}
        cells = [f"{pattern}, V = {vcs}"]
        for rate in (0.02, 0.1):
            x, y = tl[rate]["plat_mean"], bl[rate]["plat_mean"]
            cells += [f"{x:.2f}", f"{y:.2f}", pct(x + 1, y)]
        st, sb = max(r["accepted"] for r in t), max(r["accepted"] for r in b)
        cells += [f"{st:.3f}", f"{sb:.3f}", pct(st, sb)]
        if l:
            sl = max(r["accepted"] for r in l)
            cells += [f"{sl:.3f}", pct(st, sl)]
        elif local:
            cells += ["", ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def zero_load(torx, bs):
    lines = ["| pattern (8x8 torus, rate 0.004) | links | torx network latency | BookSim | BookSim - torx |",
             "|---|---:|---:|---:|---:|"]
    for pattern, hops in ZERO_LOAD:
        t = [r for r in torx if r["pattern"] == pattern]
        b = [r for r in bs if r["pattern"] == pattern]
        if t and b:
            lines.append(f"| {pattern} | {hops} | {t[0]['nlat_mean']:.2f} | {b[0]['nlat_mean']:.2f} | "
                         f"{b[0]['nlat_mean'] - t[0]['nlat_mean']:+.2f} |")
    return "\n".join(lines)


def sensitivity(rows):
    """Latency at 0.02 and 0.1 and the highest accepted throughput of each variant."""
    lines = ["| torx, uniform, V = 1 | latency at 0.02 | at 0.1 | peak accepted |", "|---|---:|---:|---:|"]
    for name, _ in VARIANTS:
        v = {float(r["rate"]): r for r in rows if r["variant"] == name}
        if not v:
            continue
        lines.append(f"| {name} | {float(v[0.02]['plat_mean']):.2f} | {float(v[0.1]['plat_mean']):.2f} | "
                     f"{max(float(r['accepted']) for r in v.values()):.3f} |")
    return "\n".join(lines)


def full_table(torx, bs, local):
    out = []
    for pattern, vcs in CASES:
        t = case_rows(torx, pattern, vcs)
        b = {r["rate"]: r for r in case_rows(bs, pattern, vcs)}
        lp = {r["rate"]: r for r in case_rows(local, pattern, vcs)}
        out.append(f"**{pattern}, {vcs} VC{'s' if vcs > 1 else ''} per class** (packet latency, network latency, "
                   "accepted throughput; `*`: saturated by torx's criterion; unstable: BookSim gave the run up, its "
                   "accepted throughput from throughput mode)\n")
        out.append("| offered | torx plat | nlat | accepted | BookSim plat | nlat | accepted |"
                   + (" BookSim, torx's local ports: plat | accepted |" if local else ""))
        out.append("|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if local else ""))

        def cells(y, n):
            if not y:
                return [""] * n
            lat = "unstable" if y["plat_mean"] != y["plat_mean"] else f"{y['plat_mean']:.2f}"
            nl = "" if y["nlat_mean"] != y["nlat_mean"] else f"{y['nlat_mean']:.2f}"
            return [lat, nl, f"{y['accepted']:.4f}"] if n == 3 else [lat, f"{y['accepted']:.4f}"]

        for r in t:
            star = "*" if str(r["saturated"]) == "1" else ""
            out.append(f"| {r['rate']:g}{star} | {r['plat_mean']:.2f} | {r['nlat_mean']:.2f} | {r['accepted']:.4f} | "
                       + " | ".join(cells(b.get(r["rate"]), 3) + (cells(lp.get(r["rate"]), 2) if local else [])) + " |")
        out.append("")
    return "\n".join(out).rstrip()


def plots(torx, bs, local, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("traffic_study.py: no matplotlib (apt-get install python3-matplotlib): no PNG plots", file=sys.stderr)
        return
    for kind in ("latency", "throughput"):
        fig, axes = plt.subplots(2, 2, figsize=(10, 7.5))
        for ax, (pattern, vcs) in zip(axes.flat, CASES):
            t, b, l = case_rows(torx, pattern, vcs), case_rows(bs, pattern, vcs), case_rows(local, pattern, vcs)
            series = [(t, "o-", "C0", "torx"), (b, "s--", "C1", "BookSim"),
                      (l, "^:", "C2", "BookSim, one injection and one ejection VC")]
            if kind == "latency":
                zero = min(r["plat_mean"] for r in t)
                for rows, style, colour, name in series:
                    pts = [(r["offered"], r["plat_mean"]) for r in rows
                           if r["plat_mean"] == r["plat_mean"] and r["plat_mean"] < 6 * zero]
                    if pts:
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colour, ms=4, label=name)
                pts = [(r["offered"], r["plat_mean"] + 1) for r in t if r["plat_mean"] < 6 * zero]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color="C0", lw=0.8, alpha=0.5,
                        label="torx + 1 cycle (BookSim's ejection)")
                ax.set_ylabel("packet latency (cycles)")
                ax.set_xlabel("offered load (flits/node/cycle)")
            else:
                for rows, style, colour, name in series:
                    if rows:
                        ax.plot([r["rate"] for r in rows], [r["accepted"] for r in rows], style, color=colour, ms=4,
                                label=name)
                ax.plot([0, max(RATES)], [0, max(RATES)], ":", color="grey", lw=1)
                ax.set_ylabel("accepted (flits/node/cycle)")
                ax.set_xlabel("offered rate (flits/node/cycle)")
            ax.set_title(f"8x8 torus, {pattern}, {vcs} VC{'s' if vcs > 1 else ''} per class", fontsize=10)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"{kind}.png"), dpi=90)
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default="build/bin/torx")
    ap.add_argument("--booksim", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--skip-torx", action="store_true", help="keep docs/traffic/torx.csv and the SVGs as they are")
    ap.add_argument("--only", choices=["zero-load"], help="BookSim: only the zero-load runs (kept beside the others)")
    ap.add_argument("--booksim-local-ports", default="",
                    help="a BookSim binary whose routing function gives one VC at the injection and one at the "
                         "ejection port, as torx's routers have (docs/traffic.md, \"Where the two differ\"): its "
                         "runs go to docs/traffic/booksim-local-ports.csv")
    ap.add_argument("--booksim-config", nargs=4, metavar=("K", "PATTERN", "VCS", "RATE"),
                    help="print BookSim's config for a k x k torus and exit (scripts/bench_traffic.sh)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    a = ap.parse_args()
    if a.booksim_config:
        k, pattern, vcs, rate = a.booksim_config
        sys.stdout.write(booksim_config(pattern, int(vcs), float(rate), k=int(k)))
        return
    outdir = os.path.join(a.out, "traffic")
    os.makedirs(outdir, exist_ok=True)
    torx_csv, bs_csv = os.path.join(outdir, "torx.csv"), os.path.join(outdir, "booksim.csv")
    variants_csv = os.path.join(outdir, "torx-variants.csv")
    local_csv = os.path.join(outdir, "booksim-local-ports.csv")
    if not a.render_only and not a.skip_torx:
        work = tempfile.mkdtemp(prefix="torx-traffic-study-")
        torx_rows, docs, secs = [], {}, 0.0
        for pattern, vcs in CASES:
            rows, doc, s = run_torx(a.torx, pattern, vcs, work)
            torx_rows += rows
            docs.setdefault(pattern, []).append(doc)
            secs += s
            print(f"torx {pattern} V={vcs}: {len(rows)} rates, {s:.1f} s", file=sys.stderr)
        for pattern, _ in ZERO_LOAD:
            rows, _, _ = run_torx(a.torx, pattern, 1, work, (), [ZERO_RATE], "-zero")
            torx_rows += rows
        write_csv(torx_csv, torx_rows)
        variant_rows = []
        for k, (name, extra) in enumerate(VARIANTS):
            rows, _, _ = run_torx(a.torx, "uniform", 1, work, extra, VARIANT_RATES, f"-variant{k}")
            variant_rows += [dict(r, variant=name) for r in rows]
        with open(variants_csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["variant"] + FIELDS, extrasaction="ignore", lineterminator="\n")
            w.writeheader()
            for r in variant_rows:
                w.writerow({k: (f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in ["variant"] + FIELDS})
        for pattern, paths in docs.items():
            subprocess.run([a.torx, "plot", "latency", *paths, "-o", os.path.join(outdir, f"torx-{pattern}.svg")],
                           check=True, stderr=subprocess.DEVNULL)
    if not a.render_only and a.booksim:
        jobs = [(p, 1, ZERO_RATE) for p, _ in ZERO_LOAD]
        if a.only != "zero-load":
            jobs += [(p, v, r) for p, v in CASES for r in RATES]
        # Rows of other runs stay (--only zero-load adds to a file of the comparison's runs).
        keep = [r for r in (read_csv(bs_csv) if os.path.exists(bs_csv) else [])
                if (r["pattern"], r["vcs_per_class"], r["rate"]) not in set(jobs)]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            bs_rows = []
            for row in ex.map(lambda j: run_booksim(a.booksim, *j), jobs):
                bs_rows.append(row)
                print(f"BookSim {row['pattern']} V={row['vcs_per_class']} rate {row['rate']}: "
                      f"{row['seconds']} s{' (unstable)' if row['saturated'] else ''}", file=sys.stderr)
        write_csv(bs_csv, keep + bs_rows)
    if not a.render_only and a.booksim_local_ports:
        jobs = [(p, v, r) for p, v in CASES for r in RATES]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            rows = list(ex.map(lambda j: run_booksim(a.booksim_local_ports, *j), jobs))
        write_csv(local_csv, rows)
    torx_rows = read_csv(torx_csv)
    bs_rows = read_csv(bs_csv) if os.path.exists(bs_csv) else []
    local_rows = read_csv(local_csv) if os.path.exists(local_csv) else []
    plots(torx_rows, bs_rows, local_rows, outdir)
    config = booksim_config("uniform", 1, 0.1)
    fill_file(os.path.join(a.out, "traffic.md"), [
        ("booksim-config", "```\n" + config.rstrip() + "\n```"),
        ("comparison-summary", summary(torx_rows, bs_rows, local_rows)),
        ("comparison-table", full_table(torx_rows, bs_rows, local_rows)),
        ("zero-load", zero_load(torx_rows, bs_rows)),
        ("sensitivity", sensitivity(list(csv.DictReader(open(variants_csv)))) if os.path.exists(variants_csv) else ""),
    ])
    print(f"wrote {torx_csv}, {bs_csv}, the plots in {outdir} and the tables of {os.path.join(a.out, 'traffic.md')}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
