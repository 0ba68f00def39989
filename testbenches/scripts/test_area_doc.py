#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks docs/area.md against its data, docs/area/area.json, without running any tool: the page is
# what `scripts/synth.sh --render` makes of the data (no hand edits), the data holds configurations
# of synth.py's TABLE (all of them, or the part a run covered, which the page names) with the RTL
# parameters the table gives today through torx (`torx rtl params`, $TORX; a changed table or a
# changed derivation needs `scripts/synth.sh --update-docs`), and each row's figures are sane
# (µm² > 0, NAND2 eq. = µm² / the NAND2's, fmax = 1000 / the path, a named start and end). A row
# synthesized from an earlier RTL than hw/ (its rtl_sha256) must be named on the page. With a
# torx built without the RTL (no `torx rtl params`) the parameters are not checked: exit 77, skipped.
# Usage: test_area_doc.py [AREA_MD AREA_JSON] (default: the tree's).
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import synth  # noqa: E402

from checks import check, verdict  # noqa: E402


def main(argv):
    md = argv[0] if argv else os.path.join(ROOT, "docs", "area.md")
    data = argv[1] if len(argv) > 1 else os.path.join(ROOT, "docs", "area", "area.json")
    with open(data) as fh:
        doc = json.load(fh)
    with open(md) as fh:
        page = fh.read()
    check(f"{os.path.basename(data)} is {synth.SCHEMA}", doc.get("schema") == synth.SCHEMA)
    rendered = synth.render_doc(doc)
    if rendered != page:
        a, b = rendered.splitlines(), page.splitlines()
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        print(f"     first difference at line {first + 1}:\n     rendered: {a[first] if first < len(a) else '<end>'}"
              f"\n     page:     {b[first] if first < len(b) else '<end>'}")
    check("the page is the rendering of its data (scripts/synth.sh --render)", rendered == page)

    tops = {r["params"]["config"]: r for r in doc["modules"] if "critical_path_ns" in r}
    table = [name for _, name, _ in synth.TABLE]
    check(f"the data's configurations are the table's ({len(tops)} of {len(table)})",
          0 < len(tops) and set(tops) <= set(table))
    missing = [n for n in table if n not in tops]
    check("the page names the table's configurations it leaves out" if missing else "the whole table",
          not missing or all(f"`{n}`" in page for n in missing))
    old = synth.before_issue24(doc)
    check("data of the RTL before issue 24 (no SimTag): the page says so" if old else "data of today's RTL (SimTag=0)",
          not old or "RTL before issue 24" in page)
    # Today's parameters come from torx (`torx rtl params`); a torx built without the RTL has none:
    # then the figures are checked, the parameters not, and the test says it skipped that (exit 77).
    try:
        synth.check_torx()
        want = {c["name"]: c for c in synth.table_configs(set(tops) & set(table))}
        no_params = None
    except synth.Fail as e:
        want = {name: None for name in tops if name in table}
        no_params = str(e)
    nand2 = doc["tools"]["nand2_um2"]
    for name, c in want.items():
        r = tops.get(name)
        if r is None:
            continue
        params = {k: v for k, v in r["params"].items() if k != "config"}
        if c is None:
            c = {"rtl": params, "top": r["name"]}
        want_rtl = dict(c["rtl"])
        if old:  # the RTL before issue 24: no SimTag parameter (the page says so)
            want_rtl.pop("SimTag", None)
        # A row of an earlier RTL than the tree's (its rtl_sha256): the page names it, and its
        # parameters are today's but for those that RTL did not have (Pipeline before issue 26).
        stale = r.get("rtl_sha256") != synth.rtl_digest(r["name"])
        same = (all(want_rtl.get(k) == v for k, v in params.items()) and f"`{name}`" in page if stale
                else params == want_rtl)
        ok = (same and r["name"] == c["top"] and r["um2"] > 0 and
              abs(r["nand2_eq"] - r["um2"] / nand2) < 0.1 and r["critical_path_ns"] > 0 and
              abs(r["fmax_mhz"] - 1000 / r["critical_path_ns"]) < 0.051 and r["flops"] > 0 and
              all(r["critical_path"][e]["register"] and r["critical_path"][e]["stage"] for e in ("start", "end")) and
              r["datapath"]["critical_path_ns"] <= r["critical_path_ns"] + 1e-9)
        check(f"{name}: {c['top']}" + (" with today's parameters" if no_params is None else "") +
              (" (an earlier RTL's row, the page says so)" if stale else "") +
              f", {r['um2']:,.0f} µm², {r['critical_path_ns']} ns", ok)
    rc = verdict()
    if rc == 0 and no_params is not None:
        print(f"skipped: the parameters against today's table ({no_params})")
        return 77
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
