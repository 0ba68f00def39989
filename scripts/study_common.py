# SPDX-License-Identifier: Apache-2.0
"""What the three study scripts share (scripts/sync_study.py, priority_study.py, gossip_hw_study.py):
their command line (--param, --out, --update-docs, --work, --jobs, --budget), the cached runs of
`torx run`, and the check that every run ended ok.

A study writes its CSV file and plots into --out (a folder of its own, default under the current
directory); only with --update-docs does it write them into docs/ and re-render the document from
them (scripts/doc_studies.py). The documents hold the default network's figures, so --update-docs
refuses --param. A run is cached in --work under a name that includes every --param, so runs with
other parameters never reuse each other's results; delete --work after rebuilding torx with a change
that moves figures.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARAM = re.compile(r"^([a-z_][a-z0-9_]*)=(\S+)$")


def add_arguments(ap, name, jobs=1, budget=None):
    """The options every study takes; `name` is the study's folder under docs/ (sync-study, ...)."""
    ap.add_argument("--torx", default="build/bin/torx", help="the torx executable [build/bin/torx]")
    ap.add_argument("--work", default=f"/tmp/torx-{name}", help=f"cache of the runs' result documents [/tmp/torx-{name}]")
    ap.add_argument("--jobs", type=int, default=jobs, help=f"runs at a time [{jobs}]")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="network parameter passed to every `torx run` (torx run --help-params), repeatable")
    ap.add_argument("--out", default=None, help=f"folder for the CSV file, the tables and the plots [./{name}]")
    ap.add_argument("--update-docs", action="store_true",
                    help=f"write into docs/{name}/ and re-render the document from it (default network only)")
    if budget is not None:
        ap.add_argument("--budget", type=float, default=budget,
                        help=f"skip runs above this many router-cycles (step-model cycles x nodes) [{budget:.0e}]")


def fail(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(2)


def settle(a, name, own=()):
    """Validates the common options; returns (output folder, the --param arguments for torx run).
    `own`: parameter names the study sets itself (refused from --param: they are its factors)."""
    seen = {}
    for p in a.param:
        m = PARAM.match(p)
        if not m:
            fail(f"--param {p}: expected NAME=VALUE (torx run --help-params lists the names)")
        if m.group(1) in seen:
            fail(f"--param {m.group(1)} given twice ({seen[m.group(1)]} and {p}): give it once")
        if m.group(1) in own:
            fail(f"--param {m.group(1)}: this study sets it itself ({', '.join(own)} are its factors)")
        seen[m.group(1)] = p
    if a.update_docs and a.param:
        fail("--update-docs writes the documents, which hold the default network's figures: "
             "drop --param, or write to --out")
    if a.update_docs and a.out:
        fail("give --out or --update-docs, not both")
    if a.jobs < 1:
        fail(f"--jobs {a.jobs}: at least 1")
    if not os.access(a.torx, os.X_OK):
        fail(f"{a.torx} is not an executable torx (build it, or give --torx)")
    out = os.path.join(ROOT, "docs", name) if a.update_docs else (a.out or name)
    for d in (out, a.work):
        try:
            os.makedirs(d, exist_ok=True)
        except OSError as e:
            fail(f"cannot create {d}: {e.strerror}")
        if not os.access(d, os.W_OK):
            fail(f"cannot write into {d}")
    # A bad parameter fails once here, not in every run.
    extra = [x for p in a.param for x in ("--param", p)]
    if extra:
        p = subprocess.run([a.torx, "run", "ring", "--topo", "4", "--model", "cycle", *extra],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            fail(p.stderr.strip().split("\n")[0])
    return out, extra


def tag(extra):
    """A short name for the --param set, part of every cached run's file name ('' when none)."""
    if not extra:
        return ""
    return "-p" + hashlib.sha1(" ".join(extra).encode()).hexdigest()[:10]


def run(torx, args, path):
    """`torx run ARGS --json` with the document cached at `path`; {"error": ...} when torx failed."""
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    tmp = path + ".tmp"
    t0 = time.monotonic()
    p = subprocess.run([torx, "run", *args, "--json", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr.strip()[-400:], "args": args}
    with open(tmp) as f:
        d = json.load(f)
    d["study_seconds"] = round(time.monotonic() - t0, 2)
    with open(tmp, "w") as f:
        json.dump(d, f)
    os.replace(tmp, path)
    return d


def run_all(torx, jobs, todo):
    """Runs [(key, args, path)] with `jobs` at a time; returns {key: document}. Progress on stderr."""
    res = {}
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(run, torx, args, path): key for key, args, path in todo}
        for i, f in enumerate(concurrent.futures.as_completed(futs), 1):
            key = futs[f]
            res[key] = f.result()
            d = res[key]
            what = d.get("cycles") if "error" not in d else f"FAILED {d['stderr']}"
            print(f"[{i}/{len(futs)} {time.monotonic() - t0:.0f} s] {' '.join(map(str, key))}: {what}",
                  file=sys.stderr, flush=True)
    return res


def failures(res):
    """Keys of the runs that did not end with every block checked ok."""
    return [k for k, d in res.items() if "error" in d or not d.get("check", {}).get("ok")]


def write_csv(path, rows, fields=None):
    import csv
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields or list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def render_docs(study):
    """Re-renders the document of `study` from its CSV in docs/ (scripts/doc_studies.py)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import doc_studies
    for path in doc_studies.update(study):
        print(f"rewrote {os.path.relpath(path, ROOT)}", file=sys.stderr)
