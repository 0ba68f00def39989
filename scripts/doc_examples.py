#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Re-runs the commands whose output the README and the docs quote, and fails when a quote drifts.

A quote is a fenced code block right after an HTML comment that names the command:

    <!-- doc-example: build/bin/torx run ring --topo 64 -->
    <!-- doc-example[json]: torx run ring --topo 64 --json - -->
    <!-- doc-example[cycle,excerpt]: scripts/demo_cycle.sh t4 16x16 -->

and a block can be a file that later commands of the same document read:

    <!-- doc-file: ring3.sched -->

Each document's commands run in order, with bash, in a scratch directory that holds the document's
files and links to the repository's build/, scripts/ and docs/ (so `build/bin/torx` and
`scripts/...` work as written) and with `torx` on PATH; standard output and standard error are
compared together. Leading `$ ...` lines of a block show the command and are not compared.
Options: `excerpt` (the block is a contiguous part of the output), `json` (compared as JSON, so the
block may be laid out compactly), `cycle` (needs the cycle model; skipped in a build without it),
`rtl` (needs the Verilated RTL: torx cosim, --model rtl; skipped in a build without it).
Machine-dependent numbers are normalised on both sides: seconds, M .../s rates (or the words of a run
too short for one), and the JSON keys wall_seconds, peak_rss_bytes, load_seconds and run_seconds.

It also checks that every file the Markdown documents name (`*.md`, `*.sh`, `*.py`, `*.cpp`,
`*.hpp`) is in the repository: relative to the root or the document, or by its file name.

  scripts/doc_examples.py [--build DIR]             # check (ctest -L docs)
  scripts/doc_examples.py [--build DIR] --update    # rewrite every quote from a fresh run
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTS = ["README.md", "docs/cli.md", "docs/schedule-format.md"]
MARKER = re.compile(r"^<!-- doc-(example|file)(?:\[([a-z,]*)\])?: (.*?) -->\s*$")
VOLATILE_KEYS = {"wall_seconds", "peak_rss_bytes", "load_seconds", "run_seconds", "router_cycles_per_second"}
VOLATILE_TEXT = [
    # A rate, or the words a run too short for one gets instead (sw/app/report.hpp, kMinRateSeconds).
    (re.compile(r"(: \d+(\.\d+)? M router-cycles/s(, \d+(\.\d+)? M flit-hops/s)?"
                r"| \(too short for a rate: rates from \d+(\.\d+)? s\))"), ": # rates"),
    (re.compile(r"\b\d+(\.\d+)? s\b"), "# s"),
    (re.compile(r"\b\d+(\.\d+)? M (router-cycles|flit-hops)/s"), r"# M \2/s"),
    (re.compile(r"\b\d+(\.\d+)? s:"), "# s:"),
]


def normalise(lines):
    out = []
    for line in lines:
        for pat, rep in VOLATILE_TEXT:
            line = pat.sub(rep, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def scrub(value):
    if isinstance(value, dict):
        return {k: (None if k in VOLATILE_KEYS else scrub(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def compact_json(value, indent=0):
    """JSON with objects one key a line and arrays of plain values on one line."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad}  {json.dumps(k)}: {compact_json(v, indent + 2)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(pad + "  " + compact_json(v, indent + 2) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


class Quote:
    def __init__(self, doc, kind, options, arg, first, last, lines):
        self.doc, self.kind, self.options, self.arg = doc, kind, options, arg
        self.first, self.last = first, last  # the block's content lines are [first, last)
        self.lines = lines


def quotes_of(doc, text):
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or not lines[j].startswith("```"):
            sys.exit(f"{doc}:{i + 1}: a doc-{m.group(1)} marker must be followed by a fenced block")
        k = j + 1
        while k < len(lines) and not lines[k].startswith("```"):
            k += 1
        if k >= len(lines):
            sys.exit(f"{doc}:{j + 1}: the fenced block is not closed")
        options = set(filter(None, (m.group(2) or "").split(",")))
        found.append(Quote(doc, m.group(1), options, m.group(3), j + 1, k, lines[j + 1:k]))
        i = k + 1
    return found


def scratch(build):
    d = tempfile.mkdtemp(prefix="torx_doc_")
    os.symlink(os.path.abspath(build), os.path.join(d, "build"))
    os.symlink(os.path.join(ROOT, "scripts"), os.path.join(d, "scripts"))
    os.symlink(os.path.join(ROOT, "docs"), os.path.join(d, "docs"))
    os.makedirs(os.path.join(d, ".bin"))
    os.symlink(os.path.join(os.path.abspath(build), "bin", "torx"), os.path.join(d, ".bin", "torx"))
    return d


def run(command, cwd):
    env = dict(os.environ, PATH=os.path.join(cwd, ".bin") + os.pathsep + os.environ.get("PATH", ""), BUILD_DIR="build")
    r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    if r.returncode >= 124:
        raise RuntimeError(f"'{command}' ended with status {r.returncode}:\n{r.stdout}")
    # An on-demand RTL build's progress ("[torx rtl] Verilating ...", docs/rtl.md) depends on what the
    # model cache already holds, not on the command: it is not part of what the docs quote.
    lines = r.stdout.rstrip("\n").split("\n") if r.stdout else []
    return [l for l in lines if not l.startswith("[torx rtl] ")]


def shown(q):
    """The block without its leading '$ command' lines."""
    k = 0
    while k < len(q.lines) and q.lines[k].startswith("$ "):
        k += 1
    return k, q.lines[k:]


def compare(q, output):
    """(ok, new block lines for --update, diff text)."""
    prompt, block = shown(q)
    head = q.lines[:prompt]
    if "json" in q.options:
        try:
            want = scrub(json.loads("\n".join(block)))
        except json.JSONDecodeError as e:
            return False, None, f"the quoted block is not JSON: {e}"
        got_doc = json.loads("\n".join(output))
        new = head + compact_json(got_doc).split("\n")
        if want == scrub(got_doc):
            return True, new, ""
        diff = difflib.unified_diff(compact_json(want).split("\n"), compact_json(scrub(got_doc)).split("\n"),
                                    "quoted", "run", lineterm="")
        return False, new, "\n".join(diff)
    a, b = normalise(block), normalise(output)
    if "excerpt" in q.options:
        for s in range(0, len(b) - len(a) + 1):
            if b[s:s + len(a)] == a:
                return True, head + output[s:s + len(a)], ""
        # Where the excerpt would start: the output line most like its first line.
        s = max(range(len(b)), key=lambda i: difflib.SequenceMatcher(None, a[0] if a else "", b[i]).ratio()) if b else 0
        diff = difflib.unified_diff(a, b[s:s + len(a)], "quoted", "run", lineterm="")
        return False, head + output[s:s + len(a)], "\n".join(diff)
    if a == b:
        return True, head + output, ""
    return False, head + output, "\n".join(difflib.unified_diff(a, b, "quoted", "run", lineterm=""))


FILE_NAME = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:md|sh|py|cpp|hpp))(?!\w)(?!\.\w)")  # not x.cpp.in


def missing_files():
    """(document, line, name) for every file a document names that the repository lacks."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not tracked:  # not a git checkout (an unpacked archive): every file on disk
        tracked = [os.path.relpath(os.path.join(d, f), ROOT) for d, _, fs in os.walk(ROOT) for f in fs]
    names = {os.path.basename(t) for t in tracked}
    docs = [t for t in tracked if t.endswith(".md")]
    out = []
    for doc in docs:
        for n, line in enumerate(open(os.path.join(ROOT, doc)), 1):
            for m in FILE_NAME.finditer(line):
                name = m.group(1)
                where = [name, os.path.normpath(os.path.join(os.path.dirname(doc), name))]
                if not any(os.path.exists(os.path.join(ROOT, w)) for w in where) and os.path.basename(name) not in names:
                    out.append((doc, n, name))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory with bin/torx [build]")
    ap.add_argument("--update", action="store_true", help="rewrite the quotes from fresh runs")
    a = ap.parse_args()
    torx = os.path.join(a.build, "bin", "torx")
    if not os.access(torx, os.X_OK):
        sys.exit(f"{torx} is not built (scripts/setup.sh)")
    probe = subprocess.run([torx, "run", "ring", "--topo", "4", "--model", "cycle"], capture_output=True, text=True)
    have_cycle = probe.returncode == 0
    have_rtl = subprocess.run([torx, "cosim", "--help"], capture_output=True, text=True).returncode == 0
    checked = skipped = drifted = 0
    for doc in DOCUMENTS:
        path = os.path.join(ROOT, doc)
        text = open(path).read()
        quotes = quotes_of(doc, text)
        lines = text.split("\n")
        work = scratch(a.build)
        replace = []
        for q in quotes:
            if q.kind == "file":
                with open(os.path.join(work, q.arg), "w") as f:
                    f.write("\n".join(q.lines) + "\n")
                continue
            if ("cycle" in q.options and not have_cycle) or ("rtl" in q.options and not have_rtl):
                skipped += 1
                continue
            output = run(q.arg, work)
            ok, new, diff = compare(q, output)
            checked += 1
            if not ok:
                drifted += 1
                print(f"{doc}:{q.first}: the quote of `{q.arg}` drifted from a fresh run:\n{diff}\n")
            if not ok and new is not None:
                replace.append((q.first, q.last, new))
        if a.update and replace:
            for first, last, new in reversed(replace):
                lines[first:last] = new
            open(path, "w").write("\n".join(lines))
            print(f"rewrote {len(replace)} quote(s) in {doc}")
        subprocess.run(["rm", "-rf", work])
    print(f"doc examples: {checked} checked, {drifted} drifted, {skipped} skipped (no cycle model or no RTL in this build)")
    missing = missing_files()
    for doc, n, name in missing:
        print(f"{doc}:{n}: names {name}, which is not in the repository")
    if missing:
        sys.exit(1)
    if drifted and not a.update:
        print("Rewrite them from fresh runs with scripts/doc_examples.py --update (then read the diff).")
        sys.exit(1)


if __name__ == "__main__":
    main()
