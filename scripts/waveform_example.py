#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The worked example of docs/waveforms.md: one message followed through a VCD, from a real run.

Writes seed-free baseline `direct` on the 8-node ring as a schedule (`torx schedule`), runs it in
the cycle model with `--trace` (32-byte blocks, 16-byte flits: every worm of one block is a head and
a tail flit), picks the first message that takes three hops and crosses the ring's wrap-around link
(the dateline), and lists every wire its flits were driven onto, cycle by cycle, with the credits
that came back for them; then the VCD's own lines for the head's first hop. Everything is read from
the VCD and the schedule, nothing is computed by hand, so the page stays true when the model changes.

  scripts/waveform_example.py [--torx build/bin/torx]                  # print the example
  scripts/waveform_example.py [--torx build/bin/torx] --update-docs    # write it into docs/waveforms.md
  scripts/waveform_example.py [--torx build/bin/torx] --check          # exit 1 if the page differs (ctest)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doc_tables import fill  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "docs", "waveforms.md")
N = 8
RUN = ["--topo", str(N), "--model", "cycle", "--block-bytes", "32", "--flit-bytes", "16"]


def messages(path):
    """(src, dst, dir) of every message, in schedule order (the index is the VCD's flit_msg)."""
    out = []
    for line in open(path):
        m = re.match(r"^(\d+) -> (\d+) x([+-])", line)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), 1 if m.group(3) == "+" else -1))
    return out


def path_of(src, dst, d):
    """The routers a message visits on the ring, source first."""
    nodes = [src]
    while nodes[-1] != dst:
        nodes.append((nodes[-1] + d) % N)
    return nodes


def read_vcd(path):
    """{scope: [(time, {signal: value})...]}: each scope's values after every time it changed."""
    ids, scope, changes = {}, [], {}
    current, touched, time = {}, set(), 0
    lines = []

    def flush():
        for s in touched:
            changes.setdefault(s, []).append((time, dict(current[s])))
        touched.clear()

    with open(path) as f:
        header = True
        for raw in f:
            lines.append(raw.rstrip("\n"))
            tok = raw.split()
            if not tok:
                continue
            if header:
                if tok[0] == "$scope":
                    scope.append(tok[2])
                elif tok[0] == "$upscope":
                    scope.pop()
                elif tok[0] == "$var":
                    ids.setdefault(tok[3], []).append((scope[-1], tok[4]))
                    current.setdefault(scope[-1], {})[tok[4]] = 0
                elif tok[0] == "$enddefinitions":
                    header = False
                continue
            if tok[0].startswith("#"):
                flush()
                time = int(tok[0][1:])
            elif tok[0].startswith("b"):
                for s, name in ids.get(tok[1], []):
                    current[s][name] = int(tok[0][1:], 2)
                    touched.add(s)
            elif tok[0][0] in "01" and len(tok) == 1:
                for s, name in ids.get(tok[0][1:], []):
                    current[s][name] = int(tok[0][0])
                    touched.add(s)
    flush()
    return changes, ids, lines


def state_at(seq, cycle):
    """A scope's values during `cycle`: its last change at or before the cycle's time."""
    v = {}
    for t, state in seq:
        if t > cycle * 10:
            break
        v = state
    return v


def wire_words(scope):
    kind, v, tag = scope.split("_")
    v = int(v)
    if kind == "inj":
        return f"injection channel {tag} of node {v} (interface -> router {v})"
    if kind == "ej":
        return f"ejection channel {tag} of node {v} (router {v} -> interface)"
    d = 1 if tag == "px" else -1
    return f"router {v} -> router {(v + d) % N} ({'+' if d > 0 else '-'}x{', the wrap-around link' if (v + d) % N != v + d else ''})"


def example(torx):
    with tempfile.TemporaryDirectory() as work:
        sched, vcd = os.path.join(work, "direct8.sched"), os.path.join(work, "direct8.vcd")
        subprocess.run([torx, "schedule", "direct", "--topo", str(N), "-o", sched], check=True, capture_output=True)
        msgs = messages(sched)
        def wrap_hop(s, t, d):  # index of the hop over the wrap-around link, or None
            p = path_of(s, t, d)
            return next((k for k, (a, b) in enumerate(zip(p, p[1:])) if abs(a - b) != 1), None)

        pick = next(i for i, (s, t, d) in enumerate(msgs)
                    if len(path_of(s, t, d)) >= 4 and wrap_hop(s, t, d) is not None
                    and wrap_hop(s, t, d) < len(path_of(s, t, d)) - 2)
        src, dst, d = msgs[pick]
        run = subprocess.run([torx, "run", "--schedule", sched, *RUN, "--trace", vcd], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"torx run failed ({run.returncode}): {run.stderr}")
        changes, ids, lines = read_vcd(vcd)
    rows = []
    for scope, seq in changes.items():
        for t, v in seq:
            if v.get("flit_valid") and v.get("flit_msg") == pick:
                rows.append((t // 10, scope, "flit", v["flit_seq"], v["flit_vc"], v["flit_head"], v["flit_tail"]))
    # The wires in the order the head crossed them: injection, links, ejection.
    order = sorted({r[1] for r in rows}, key=lambda w: min(r[0] for r in rows if r[1] == w))
    flit_at = {(r[1], r[3]): r[0] for r in rows}
    for i, wire in enumerate(order):
        vc = next(r[4] for r in rows if r[1] == wire)
        for k in (0, 1):
            # A flit's buffer slot downstream frees when it leaves that buffer: on the next wire in
            # that cycle (the interface at the end stores it a cycle after it arrives).
            when = flit_at[(order[i + 1], k)] if i + 1 < len(order) else flit_at[(wire, k)] + 1
            v = state_at(changes[wire], when)
            if v.get("credit_valid") and v.get("credit_vc") == vc:
                rows.append((when, wire, "credit", k, vc, None, None))
    rows.sort(key=lambda r: (r[0], r[2] != "flit", r[1]))
    route = " -> ".join(str(x) for x in path_of(src, dst, d))
    out = [f"Generated by `scripts/waveform_example.py`: `torx schedule direct --topo {N}`, then `torx run --schedule "
           f"direct8.sched {' '.join(RUN)} --trace direct8.vcd`. Message {pick} of the schedule (`flit_msg` = {pick}) "
           f"goes {src} -> {dst} in the x{'+' if d > 0 else '-'} direction through routers {route}, crossing the "
           f"wrap-around link; one 32-byte block in 16-byte flits is a head (`flit_seq` 0) and a tail (1).",
           "",
           "| cycle | wire (VCD scope) | what | flit_seq | flit_vc | head | tail |",
           "|---:|---|---|---:|---:|---:|---:|"]
    for c, scope, what, seq, vc, head, tail in rows:
        if what == "flit":
            out.append(f"| {c} | `{scope}`: {wire_words(scope)} | flit | {seq} | {vc} | {head} | {tail} |")
        else:
            out.append(f"| {c} | `{scope}`: {wire_words(scope)} | credit for flit {seq} (`credit_valid`, `credit_vc`) | | {vc} | | |")
    # The VCD's own lines for the head on its first router-to-router link.
    first_link = next(r for r in rows if r[1].startswith("link_") and r[2] == "flit")
    names = {name: code for code, uses in ids.items() for s, name in uses if s == first_link[1]}
    stamp = f"#{first_link[0] * 10}"
    start = lines.index(stamp)
    block = [stamp]
    for ln in lines[start + 1:]:
        if ln.startswith("#"):
            break
        code = ln.split()[-1] if ln.startswith("b") else ln[1:]
        if code in names.values():
            block.append(ln)
    legend = ", ".join(f"`{code}` = {name}" for name, code in sorted(names.items(), key=lambda kv: kv[1]))
    out += ["", f"The VCD's lines for the head on `{first_link[1]}` in cycle {first_link[0]} (time {first_link[0] * 10} "
                f"in units of 100 ps; {legend}):", "", "```", *block, "```"]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default=os.path.join(ROOT, "build", "bin", "torx"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--update-docs", action="store_true", help="write the example into docs/waveforms.md")
    g.add_argument("--check", action="store_true", help="exit 1 if docs/waveforms.md holds another example")
    a = ap.parse_args()
    text = example(a.torx)
    if not (a.update_docs or a.check):
        print(text)
        return 0
    page = open(PAGE).read()
    new = fill(page, "waveform-example", text)
    if a.check:
        if new != page:
            print("docs/waveforms.md: the worked example drifted from a fresh run; "
                  "scripts/waveform_example.py --update-docs rewrites it (then read the diff)", file=sys.stderr)
            return 1
        print("docs/waveforms.md: the worked example matches a fresh run")
        return 0
    open(PAGE, "w").write(new)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
