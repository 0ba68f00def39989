#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The bookkeeping of scripts/mutate.py's co-simulation stage (docs/verification.md, "Mutation
# testing", "The co-simulation stage"), without building anything: torx cosim's exit code and stderr
# to a verdict (a model that does not build is invalid, not killed), --report's merge (a cosim record
# replaces a formal one only when it killed the mutant; a survivor keeps its formal result), the
# committed mutants-cosim*.json (every record names a mutant of today's hw/, its budget and CPU), and
# the stage's bad usage (exit 2).
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutate  # noqa: E402

from checks import check, verdict  # noqa: E402

v = mutate.cosim_verdict
check("exit 0 is a survivor", v(0, "[torx rtl] built r2d_k4 in 70 s\n")[0] == "survived")
k = v(1, "[torx rtl] built x\ntorx: mismatch at cycle 77, router 5: ovc_depth_q model 1 rtl 3\n")
check("exit 1 kills, the reason is the last line not from the cache",
      k == ("killed", "torx: mismatch at cycle 77, router 5: ovc_depth_q model 1 rtl 3"))
check("exit 4 (an RTL property) kills, naming the assertion",
      v(4, "[%Error] torx_output_unit_props.svh:40: Assertion failed in TOP.r.ou: ou_stack_owner\nx\n") ==
      ("killed", "property: [%Error] torx_output_unit_props.svh:40: Assertion failed in TOP.r.ou: ou_stack_owner"))
check("a model that does not build is invalid, not killed",
      v(1, "torx: building the RTL model r2d_k4 failed: verilator exited with 1 (log: x)\n")[0] == "invalid")
check("the watchdog (exit 3) is an error", v(3, "torx: watchdog\n")[0] == "error")
check("a signal is an error", v(-9, "")[0] == "error")

formal_rec = {"unit": "output_unit", "old": "a", "new": "b", "nth": 0, "verdict": "survived", "by": [], "id": "output_unit:1"}
budget = {"shape": "--topo 4x4", "cycles": 3000, "seed": 1}
by_key = {}
mutate.merge(by_key, formal_rec)
mutate.merge(by_key, dict(formal_rec, stage="cosim", verdict="survived", reason="no mismatch", budget=budget))
r = by_key[mutate.key(formal_rec)]
check("a cosim survivor keeps its formal result, with the cosim noted",
      r["verdict"] == "survived" and "stage" not in r and r["cosim"].startswith("survived: no mismatch"))
mutate.merge(by_key, dict(formal_rec, stage="cosim", verdict="error", reason="exit 3", budget=budget))
check("a cosim error keeps the formal result", by_key[mutate.key(formal_rec)]["verdict"] == "survived")
mutate.merge(by_key, dict(formal_rec, stage="cosim", verdict="killed", reason="mismatch", by=["cosim: mismatch"],
                          budget=budget))
check("a cosim kill replaces the formal survivor", by_key[mutate.key(formal_rec)]["verdict"] == "killed")
killed_rec = dict(formal_rec, verdict="killed", by=["output_unit_k2: fails"])
by_key3 = {}
mutate.merge(by_key3, killed_rec)
mutate.merge(by_key3, dict(formal_rec, stage="cosim", verdict="killed", reason="mismatch", by=["cosim: mismatch"],
                           budget=budget))
r = by_key3[mutate.key(formal_rec)]
check("a mutant the proofs killed keeps the proofs' kill, with the cosim noted",
      r["by"] == ["output_unit_k2: fails"] and "stage" not in r and r["cosim"].startswith("killed"))
by_key2 = {}
mutate.merge(by_key2, dict(formal_rec, stage="cosim", verdict="survived", reason="no mismatch", budget=budget))
check("a cosim record with no formal one stands", by_key2[mutate.key(formal_rec)]["verdict"] == "survived")

current = {mutate.key(m) for m in mutate.mutants()}
files = sorted(glob.glob(os.path.join(ROOT, "docs", "verification", "mutants-cosim*.json")))
check("docs/verification has the co-simulation stage's results", bool(files))
for f in files:
    recs = json.load(open(f))
    name = os.path.basename(f)
    check(f"{name}: every record is a cosim record with its budget and CPU seconds",
          all(r.get("stage") == "cosim" and {"shape", "cycles", "seed"} <= set(r.get("budget", {})) and
              isinstance(r.get("cpu_s"), (int, float)) for r in recs))
    muts = [r for r in recs if r["id"] != "unmutated"]
    check(f"{name}: every mutant is one of today's hw/", all(mutate.key(r) in current for r in muts))
    check(f"{name}: every verdict is killed, survived, invalid or error",
          all(r["verdict"] in ("killed", "survived", "invalid", "error") for r in recs))
    check(f"{name}: a kill names its reason", all(r["by"] for r in recs if r["verdict"] == "killed"))


def run(*args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "mutate.py"), *args],
                          capture_output=True, text=True).returncode


check("--cosim without --only is exit 2", run("--cosim") == 2)
check("--cosim --unmutated of a unit without a shape is exit 2", run("--cosim", "--unmutated", "barrier") == 2)
check("--cosim on a unit without a shape is exit 2", run("--cosim", "--only", "barrier:0") == 2)
check("--cosim with a missing torx is exit 2", run("--cosim", "--only", "output_unit:29", "--torx", "/nonexistent/torx") == 2)
sys.exit(verdict())
