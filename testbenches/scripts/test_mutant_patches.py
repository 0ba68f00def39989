#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The hand-written RTL mutants live outside the production RTL (docs/verification.md, "Hand-written
# mutants"): hw/*.sv has no Mutant parameter and no mutant code; each patch in testbenches/rtl/mutants
# applies to today's hw/ (every hunk found exactly once, as hw/rtl_cache.cpp applies it when `torx
# cosim --mutant N` builds the model) and changes something; a hunk whose lines are no longer in the
# SV is refused; with Verilator installed, every patched router elaborates (lint, its configuration).
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import formal  # noqa: E402

from checks import check, verdict  # noqa: E402

# The configuration each mutant exists in (hw/rtl_models.cpp, check_mutant).
PARAMS = {"router_m5": ["-GPriorityLevels=2"], "router_m6": ["-GPipeline=1"], "router_m7": ["-GPipeline=1"],
          "gossip_m1": ["-GNumLocal=4", "-GPacketFlits=4", "-GMaxRules=32"],
          "gossip_m2": ["-GNumLocal=4", "-GPacketFlits=4", "-GMaxRules=32"]}

sv = sorted(glob.glob(os.path.join(ROOT, "hw", "*.sv")))
check("hw/*.sv declares no Mutant parameter",
      not [f for f in sv if re.search(r"parameter\s+int\s+unsigned\s+Mutant\b", open(f).read())])
check("hw/*.sv reads no Mutant parameter", not [f for f in sv if re.search(r"\bMutant\s*[=!<>]", open(f).read())])

patches = sorted(glob.glob(os.path.join(ROOT, "testbenches", "rtl", "mutants", "*.patch")))
check("nine mutant patches (router 1..7, gossip 1..2)",
      [os.path.basename(p) for p in patches] ==
      ["gossip_m1.patch", "gossip_m2.patch"] + [f"router_m{i}.patch" for i in range(1, 8)])
rel = ["hw/" + os.path.basename(f) for f in sv] + \
    ["hw/props/" + os.path.basename(f) for f in sorted(glob.glob(os.path.join(ROOT, "hw", "props", "*.svh")))]
verilator = shutil.which("verilator")
work = tempfile.mkdtemp(prefix="torx-mutant-patches-")
try:
    for p in patches:
        name = os.path.basename(p)[:-len(".patch")]
        d = os.path.join(work, name)
        shutil.copytree(os.path.join(ROOT, "hw"), d, ignore=shutil.ignore_patterns("*.cpp", "*.hpp", "*.in", "*.cmake",
                                                                                  "CMakeLists.txt", "examples"))
        try:
            changed = formal.apply_patch(p, rel, d)
            check(f"{name} applies to hw/ ({', '.join(sorted(os.path.basename(k) for k in changed))})", bool(changed))
        except RuntimeError as e:
            check(f"{name} applies to hw/: {e}", False)
            continue
        for k, v in changed.items():
            check(f"{name} changes {k}", open(v).read() != open(os.path.join(ROOT, k)).read())
        if verilator:
            top = "torx_gossip_router" if name.startswith("gossip") else "torx_router"
            r = subprocess.run([verilator, "--lint-only", "-Wno-fatal", "-I" + d, os.path.join(d, f"{top}.sv"),
                                "--top", top] + PARAMS.get(name, []), capture_output=True, text=True)
            check(f"{name}: the patched {top} elaborates (verilator --lint-only)", r.returncode == 0)
    # A stale patch: one hunk's removed line edited, as if the SV had changed under it.
    text = open(patches[0]).read()
    m = re.search(r"^-(?!--).*$", text, re.M)
    bad = os.path.join(work, "stale.patch")
    with open(bad, "w") as f:
        f.write(text[:m.start()] + "-  // not in the SV" + text[m.end():])
    try:
        formal.apply_patch(bad, rel, os.path.join(work, "stale"))
        check("a stale patch is refused", False)
    except (RuntimeError, OSError) as e:
        check(f"a stale patch is refused ({e})", "matches 0 times" in str(e))
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(verdict())
