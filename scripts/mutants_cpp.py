#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plants realistic faults in the C++ code one at a time and reports which tests catch each.

Every fault (a "mutant") is one exact text replacement in one file: the checker, the step model,
the router and its allocators, the network interface, the routing tables, the barrier, the
synchronization plan and the generators. The script never touches the tree it lives in: it copies
the tree's files (tracked and untracked, as git lists them) into a scratch directory, configures
one build there without the RTL (-DTORX_BUILD_RTL=OFF, ccache when installed), checks that the
unmutated tree passes the test slice, then for each mutant: writes the mutated file, rebuilds
incrementally, runs the tests of `ctest -L "sw|models|system|sc"` that the fault can reach, records
the tests that fail, and puts the file back. A test can be reached when its executable, or the torx
command it runs, is no longer byte for byte the unmutated build's (the static libraries link only
the objects an executable uses; every test is deterministic, so an identical executable gives the
identical result); the others are not run again. A mutant is killed when at least one test fails,
survives when every test passes; one that does not compile is reported and left out of the rate.

  scripts/mutants_cpp.py                       # every mutant; the table on standard output
  scripts/mutants_cpp.py --only va-vc-ptr,null-ts-late   # a few (ids from --list), in that order
  scripts/mutants_cpp.py --list                # the mutants and what each plants
  scripts/mutants_cpp.py --json out.json       # also the results as JSON
  scripts/mutants_cpp.py --work DIR            # scratch directory (default: build-mutants/ in the tree)
  scripts/mutants_cpp.py --quick               # stop each fault at the first tier of tests that catches it
  scripts/mutants_cpp.py --report a.json b.json   # the table of a run done in parts (later files win)

The baseline runs the whole slice (about four minutes on two idle cores), each mutant what it can
reach; the full list takes hours on a shared machine: run it at nice 19
(`nice -n 19 scripts/mutants_cpp.py`). It is a script, not a test.
Exit code: 0 when the kill rate meets --target (default 95 %), 1 when not, 2 for bad usage or a
mutant whose text no longer occurs exactly once in its file (the list must follow the code).
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABELS = "sw|models|system|sc"


def M(mid, area, path, find, replace, what, expect=()):
    return {"id": mid, "area": area, "file": path, "find": find, "replace": replace, "what": what,
            "expect": list(expect)}


# The tests written to catch a fault (issue 34's survivors and single detections: at least two each).
# --quick runs them first; a full run (the default) runs every reachable test regardless.
EXPECT = {
    "chk-dup-at-source": ["Checker.BroadcastOkAndDuplicateReceipt",
                          "DetectionCli.APieceSentBackToItsSourceIsADuplicateInEveryModel"],
    "content-no-index": ["Blocks.ContentIsSeededAndDistinct",
                         "DetectionCli.WordsSwappedInADeliveredBlockAreCorruption"],
    "step-corrupt-forward": ["Checker.CorruptionTravelsWithTheBlock",
                             "DetectionCli.CorruptionOnTheFirstHopOfARelayIsCaughtAtTheDestination",
                             "DetectionCli.ABlockCorruptedOnTwoHopsStaysCorrupted"],
    "step-forward-same-step": ["StepModel.SenderMustHoldBlocksAtStepStart",
                               "StepModelRules.ACopyIsForwardedFromTheStepAfterItArrives",
                               "DetectionCli.ABlockForwardedInTheStepItArrivesIsRefused"],
    "ring-sync-last-link": ["SyncMarks.RingBarriersAreTheSeedsTwoDMinusFive",
                            "SyncMarks.NoUnmarkedBoundaryLetsTwoWormsShareALink",
                            "Golden.RingOf64WithBarriersAndLocalSignals"],
    "va-vc-ptr": ["PointerCoverage.EveryArbiterPointerWrapsWithTwoAndThreeVcsPerClass",
                  "TimingModes.AHeadGetsTheNextVcOfItsClassAndPassesAStalledWorm",
                  "Golden.DirectOn8x8WithOneTwoAndThreeVcsPerClass"],
    "null-ts-late": ["TimingModes.LocalSynchronizationCostsOneNullMessagePerHandOver",
                     "TimingModes.LocalSynchronizationFollowsTheNullMessagesStartupCycleForCycle",
                     "TimingModes.SoftwareBarrierCostsItsRoundsOfNullMessages",
                     "Golden.T4On16x16UnderEverySyncMode"],
    "t4-stage-barrier": ["SyncMarks.PartitionedSchemesMarkEachStageAndEachDimensionsFirstPreparationPhase",
                         "Golden.T4On16x16UnderEverySyncMode"],
    "route-class-inverted": ["Dateline.EveryHeadTravelsInClassZeroUntilItsPathNoLongerWrapsInBothDirections",
                             "Dateline.ClassesSwappedOnNegativeLinksDeliverButTravelInTheWrongClass"],
    "tseng-barrier-everywhere": ["SyncMarks.EveryBarrierOfTheTsengFamilySeparatesWormsThatWouldMeet"],
    "step-clear-unmarks": ["SyncMarks.OtherGeneratorsMarkEveryBoundary"],
    "gossip-claim-rr-stuck": ["PointerCoverage.EveryGossipRoutersClaimPointerWraps"],
    "route-no-dateline-neg": ["Dateline.EveryHeadTravelsInClassZeroUntilItsPathNoLongerWrapsInBothDirections",
                              "Dateline.NegativeLinksWithoutTheDatelineDeadlockAndTheWatchdogNamesTheWorms"],
}


# The faults. Each `find` must occur exactly once in its file; the replacement is what a plausible
# slip of a programmer would leave. The first 23 follow issue 34's outside check (its three
# survivors and five single-detection faults are marked in `what`).
MUTANTS = [
    # --- checker (sw/core/checker.cpp) ---------------------------------------------------------
    M("chk-dup-at-source", "checker", "sw/core/checker.cpp",
      "const uint32_t extra = v == s ? a : (a > 1 ? a - 1 : 0);",
      "const uint32_t extra = a > 1 ? a - 1 : 0;",
      "a copy arriving back at its source is not a duplicate (issue 34: single detection)"),
    M("chk-corrupt-moved", "checker", "sw/core/checker.cpp",
      "        if (!view.intact(b, t)) {",
      "        if (false && !view.intact(b, t)) {",
      "a moved block delivered with wrong content counts as intact"),
    M("chk-ok-ignores-dups", "checker", "sw/core/checker.cpp",
      "r.ok = r.missing == 0 && r.duplicated == 0 &&",
      "r.ok = r.missing == 0 &&",
      "the verdict ignores duplicates"),
    M("chk-misdelivered", "checker", "sw/core/checker.cpp",
      "        ++r.misdelivered;\n",
      "",
      "a block that ended at the wrong node is counted missing only, not misdelivered"),
    # --- block content (sw/core/blocks.cpp) ----------------------------------------------------
    M("content-no-index", "blocks", "sw/core/blocks.cpp",
      "(b * 0x9e3779b97f4a7c15ULL + index)",
      "(b * 0x9e3779b97f4a7c15ULL)",
      "block content independent of the word index (issue 34: single detection)"),
    # --- step model (sw/core/step_model.cpp) ---------------------------------------------------
    M("step-corrupt-forward", "step model", "sw/core/step_model.cpp",
      "w = dst_word | (w & kWordCorrupt);",
      "w = dst_word;",
      "corruption lost when a block is forwarded (issue 34: single detection)"),
    M("step-forward-same-step", "step model", "sw/core/step_model.cpp",
      "if (owner != src || moved_now) {",
      "if (owner != src) {",
      "a block forwarded in the step it arrives (issue 34: single detection)"),
    M("step-copy-one-pass", "step model", "sw/core/step_model.cpp",
      "        if (!(state_[b * n + m.src] & kCopyHeld))",
      "        if (!(state_[b * n + m.src] & kCopyHeld) && false)",
      "a copy collective may send a piece its node does not hold"),
    M("step-flits-floor", "step model", "sw/core/step_model.cpp",
      "const uint64_t flits = *bytes / opt_.cost.flit_bytes + (*bytes % opt_.cost.flit_bytes != 0);",
      "const uint64_t flits = *bytes / opt_.cost.flit_bytes;",
      "the step model rounds a message's flits down"),
    M("step-link-conflicts", "step model", "sw/core/step_model.cpp",
      "    if (link_uses_[l] > 1) {\n      rec.link_conflicts",
      "    if (link_uses_[l] > 2) {\n      rec.link_conflicts",
      "a link shared by two messages is no conflict"),
    M("step-recv-port", "step model", "sw/core/step_model.cpp",
      "      if (recvs_[v] > 1) {",
      "      if (false) {",
      "one-port receive conflicts are not counted"),
    # --- allocators and router (models/allocators.hpp, models/router.cpp) ----------------------
    M("va-vc-ptr", "allocators", "models/allocators.hpp",
      "      ptr.va_vc_rr_q = static_cast<uint8_t>(take + 1 == nv ? 0 : take + 1);\n",
      "",
      "the VC allocator's pointer within a class never moves (issue 34: survivor 1)"),
    M("va-rr-ptr", "allocators", "models/allocators.hpp",
      "      ptr.va_rr_q = static_cast<uint16_t>(req[best].ivc + 1 == total_ ? 0 : req[best].ivc + 1);\n",
      "",
      "the VC allocator's input pointer never moves"),
    M("sa-in-ptr", "allocators", "models/allocators.hpp",
      "in.sa_in_rr_q = static_cast<uint8_t>(v + 1 == in.vcs ? 0 : v + 1);",
      "in.sa_in_rr_q = static_cast<uint8_t>(v);",
      "the switch allocator's input-stage pointer stays on the winner"),
    M("sa-out-ptr", "allocators", "models/allocators.hpp",
      "    ports_[o].sa_out_rr_q = static_cast<uint8_t>(p + 1 == n_ ? 0 : p + 1);\n",
      "",
      "the switch allocator's output-stage pointer never moves"),
    M("va-first-free", "allocators", "models/allocators.hpp",
      "        if (v.owner_q == kVcFree) {\n          take = x;",
      "        if (v.owner_q == kVcFree && x == 0) {\n          take = x;",
      "the VC allocator only ever grants the first VC of a class"),
    M("credit-spend-zero", "router", "models/router.cpp",
      "if (ov.owner_q == first_lane + v && ov.credits_q > reserve_[q]) {",
      "if (ov.owner_q == first_lane + v && ov.credits_q >= reserve_[q]) {",
      "a flit leaves without a downstream credit"),
    M("eject-channel", "router", "models/router.cpp",
      "o = np + (cfg_.local_ports > 1 && port < np ? port : 0);",
      "o = np;",
      "all-port routers eject every worm on channel 0"),
    M("preempt-depth", "router", "models/allocators.hpp",
      "if (levels_ > 1 && v.owner_q % levels_ < victim_level && v.depth_q + 1 < levels_) {",
      "if (levels_ > 1 && v.owner_q % levels_ < victim_level && v.depth_q < levels_) {",
      "a VC is preempted once more than its stack has room for"),
    M("preempt-pop-early", "router", "models/output_unit.hpp",
      "    --o.credits_q;\n    if (!tail) return false;",
      "    --o.credits_q;\n    if (!tail && o.depth_q == 0) return false;",
      "a preempted output VC goes back to the stacked worm at the preempting worm's first body flit"),
    M("route-class-inverted", "routing", "models/routing_table.cpp",
      "const bool crosses = dir > 0 ? a > c : a < c;",
      "const bool crosses = dir > 0 ? a > c : a > c;",
      "dateline classes inverted on negative links (issue 34: only the table tests)"),
    M("route-no-dateline-neg", "routing", "models/routing_table.cpp",
      "const uint8_t cls = cfg.dateline_classes == 2 ? (crosses ? 0 : 1) : 0;",
      "const uint8_t cls = cfg.dateline_classes == 2 && dir > 0 ? (crosses ? 0 : 1) : 0;",
      "no dateline on negative links (class 0 all the way round)"),
    # --- network interface (models/network_interface.cpp) --------------------------------------
    M("null-ts-late", "interface", "models/network_interface.cpp",
      "c.head_cycle = now + cfg_.null_ts;",
      "c.head_cycle = now + cfg_.null_ts + 1;",
      "the null message's startup one cycle late (issue 34: survivor 2)"),
    M("ts-late", "interface", "models/network_interface.cpp",
      "c.head_cycle = now + cfg_.cost.ts_cycles;",
      "c.head_cycle = now + cfg_.cost.ts_cycles + 1;",
      "a send's startup one cycle late"),
    M("corrupt-flip", "interface", "models/network_interface.cpp",
      "out[filled] = static_cast<uint8_t>((out[filled] & ~1u) | (~mem_->pristine_byte0(blocks[c.block]) & 1u));",
      "out[filled] = static_cast<uint8_t>(out[filled] ^ 1u);",
      "fault=corrupt flips bit 0 instead of setting it wrong (corrupted twice is intact again)"),
    M("barrier-early-entry", "interface", "models/network_interface.cpp",
      "        if (sends_open_ > 0 || !stored_before(kb)) return;\n        in_barrier_ = true;",
      "        if (sends_open_ > 0) return;\n        in_barrier_ = true;",
      "a node enters the barrier before its receives are stored"),
    M("holds-ignored", "interface", "models/network_interface.cpp",
      "    if (!holds_all(m)) return;  // woken again when a message is stored here",
      "    holds_all(m);",
      "a node issues a send before it holds the message's blocks"),
    M("sw-barrier-partner", "interface", "models/network_interface.cpp",
      "(cfg_.node - (sw::NodeId{1} << sw_round_) % n + n) % n",
      "(cfg_.node + (sw::NodeId{1} << sw_round_)) % n",
      "a software barrier round waits for the node it signals instead of the one signalling it"),
    # --- barrier (models/barrier.cpp, models/barrier_core.hpp) ---------------------------------
    M("barrier-pad", "barrier", "models/barrier.cpp",
      "static_cast<uint32_t>(t.height - depth[v]) << 8",
      "static_cast<uint32_t>(t.height - depth[v] + 1) << 8",
      "every barrier wire padded one hop too many"),
    M("barrier-own-entry", "barrier", "models/barrier_core.hpp",
      "expected_ = static_cast<uint32_t>(__builtin_popcount(child_mask)) + 1;",
      "expected_ = static_cast<uint32_t>(__builtin_popcount(child_mask));",
      "a barrier unit gathers its children without its own node's entry"),
    # --- synchronization (sw/core/sync_plan.cpp, models/program.cpp) ---------------------------
    M("sync-no-ejection", "sync", "sw/core/sync_plan.cpp",
      "      resources.push_back(ejection(m.dst, last_port));\n",
      "",
      "local synchronization ignores the receiver's ejection channel"),
    M("sync-last-link", "sync", "sw/core/sync_plan.cpp",
      "      const int channel = ports == PortModel::kAll && !resources.empty()",
      "      if (!resources.empty()) resources.pop_back();\n"
      "      const int channel = ports == PortModel::kAll && !resources.empty()",
      "local synchronization's collision check skips a path's last link"),
    M("sync-channel-exempt", "sync", "sw/core/sync_plan.cpp",
      "if (a.src == m.src && channel_of(a) == channel) continue;",
      "if (a.src == m.src) continue;",
      "a node's worms on other injection channels are taken to follow each other"),
    M("sync-no-reduction", "sync", "sw/core/sync_plan.cpp",
      "      if (have_later && !(gate < earliest_later)) continue;  // implied by a later signal\n",
      "",
      "signals implied by a later one are sent anyway"),
    M("program-first-barrier", "sync", "models/program.cpp",
      "if (k > 0 && step.sync == sw::SyncMark::kBarrier) {",
      "if (k > 1 && step.sync == sw::SyncMark::kBarrier) {",
      "the barrier before step 1 is dropped"),
    M("priority-levels", "sync", "models/program.cpp",
      "static_cast<uint8_t>(n <= k ? k - 1 - i : k - 1 - (i * k) / n);",
      "static_cast<uint8_t>(n <= k ? i : (i * k) / n);",
      "--sync priority gives later phases the higher levels"),
    # --- generators (sw/algorithms) ------------------------------------------------------------
    M("t4-stage-barrier", "generators", "sw/algorithms/tseng.cpp",
      "bool barrier = p == 0;",
      "bool barrier = p == 0 && g == 1;",
      "partitioned schemes stop marking a stage's first phase as a barrier (issue 34: survivor 3)"),
    M("prep-barrier", "generators", "sw/algorithms/tseng.cpp",
      "step.sync = ph > 1 ? SyncMark::kNone : SyncMark::kBarrier;",
      "step.sync = SyncMark::kNone;",
      "the preparation phases carry no barrier mark"),
    M("ring-sync-last-link", "generators", "sw/algorithms/ring_plan.cpp",
      "      const int hops = floor_mod(static_cast<int64_t>(t2.to - t2.from) * t2.dir, n);\n"
      "      for (int h = 0; h < hops; ++h) {",
      "      const int hops = floor_mod(static_cast<int64_t>(t2.to - t2.from) * t2.dir, n);\n"
      "      for (int h = 0; h + 1 < hops; ++h) {",
      "the ring's phase-sync check skips a path's last link (issue 34: single detection)"),
    M("ring-sync-owner-last-link", "generators", "sw/algorithms/ring_plan.cpp",
      "      const int hops = floor_mod(static_cast<int64_t>(t.to - t.from) * t.dir, n);\n"
      "      for (int h = 0; h < hops; ++h) {",
      "      const int hops = floor_mod(static_cast<int64_t>(t.to - t.from) * t.dir, n);\n"
      "      for (int h = 0; h + 1 < hops; ++h) {",
      "the ring's phase-sync check forgets the last link an earlier phase's worm uses"),
    M("suh-short-rings", "generators", "sw/algorithms/suh.cpp",
      "if (2 * s >= radix) continue;",
      "if (2 * s > radix) continue;",
      "suh: a ring shorter than the longest keeps sending one phase too many"),
    M("tsay-wang-extra", "generators", "sw/algorithms/tsay_wang.cpp",
      "if (n_ % 2 == 0 && !improved_) extra_phase();",
      "if (n_ % 2 == 1 && !improved_) extra_phase();",
      "tsay-wang: the paper's extra phase for even n taken for odd n"),
    M("phase-priority", "generators", "sw/algorithms/registry.cpp",
      "const int64_t p = total - 1 - k;",
      "const int64_t p = k;",
      "generators give later phases the higher priority"),
    # Added after the run in docs/mutants.md, each to show a test no earlier fault reached can fail.
    M("tseng-barrier-everywhere", "generators", "sw/algorithms/tseng.cpp",
      "step.sync = barrier ? SyncMark::kBarrier : SyncMark::kNone;",
      "step.sync = SyncMark::kBarrier;",
      "partitioned schemes mark every step a barrier (correct, slower: barriers that separate nothing)"),
    M("step-clear-unmarks", "generators", "sw/core/schedule.hpp",
      "    label.clear();\n    sync = SyncMark::kBarrier;",
      "    label.clear();\n    sync = SyncMark::kNone;",
      "a reused step loses its barrier mark"),
    M("gossip-claim-rr-stuck", "router", "models/router.cpp",
      "gossip_rr_q_ = static_cast<uint16_t>(c.cand[i].lane + 1 == total ? 0 : c.cand[i].lane + 1);",
      "gossip_rr_q_ = 0;",
      "the gossip router's claim pointer is not advanced"),
]


for _m in MUTANTS:
    _m["expect"] = EXPECT.get(_m["id"], _m["expect"])


def run(cmd, cwd, log, timeout=None, env=None):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, env=env).returncode


def copy_tree(src, dst):
    """The tree's files as git lists them (tracked and untracked, not ignored). A file whose content
    the scratch copy already has is left alone; any other is written with the current time, so that
    make rebuilds from it even where the scratch copy held a newer, mutated version (a run stopped
    half-way): keeping the source's older time would leave objects of the mutant behind."""
    out = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout.decode()
    files = [f for f in out.split("\0") if f]
    for rel in files:
        a, b = os.path.join(src, rel), os.path.join(dst, rel)
        if not os.path.isfile(a):
            continue  # deleted in the work tree
        with open(a, "rb") as f:
            data = f.read()
        if os.path.isfile(b):
            with open(b, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(b), exist_ok=True)
        with open(b, "wb") as f:
            f.write(data)
        shutil.copymode(a, b)
    # A file the tree no longer has (deleted or renamed since the last run) goes from the copy too.
    keep = set(files)
    for root, dirs, names in os.walk(dst):
        if root == dst:
            dirs[:] = [d for d in dirs if d != "build"]
        for name in names:
            rel = os.path.relpath(os.path.join(root, name), dst)
            if rel not in keep:
                os.remove(os.path.join(root, name))
    return len(files)


def failed_tests(junit):
    """(names of failed tests, number of tests) from ctest's JUnit file."""
    try:
        root = ET.parse(junit).getroot()
    except (ET.ParseError, FileNotFoundError):
        return None, 0
    failed, total = [], 0
    for case in root.iter("testcase"):
        total += 1
        status = case.get("status", "")
        bad = status in ("fail", "failed") or case.find("failure") is not None or case.find("error") is not None
        if bad:
            failed.append(case.get("name"))
    return sorted(failed), total


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Runner:
    """The scratch tree and its build. Tests run only where a mutant can change their result: a test
    whose executable (and, for the suites that run the torx command, torx itself) is byte for byte
    the unmutated build's gives the unmutated result, because every test is deterministic (the tree
    tests that too); the static libraries link only the objects an executable uses, so a fault in
    the checker does not touch the router's suites. Tests outside the gtest executables always run."""

    def __init__(self, args):
        self.args = args
        self.work = os.path.abspath(args.work)
        self.src = os.path.join(self.work, "src")
        self.build = os.path.join(self.src, "build")
        self.log = os.path.join(self.work, "log.txt")
        self.hashes = {}
        self.tests = []          # (number, name, executable or None) of the labelled tests
        self.runs_torx = set()   # test executables that run the torx command

    def prepare(self):
        os.makedirs(self.src, exist_ok=True)
        n = copy_tree(ROOT, self.src)
        print(f"[mutants] {n} files copied to {self.src}", file=sys.stderr)
        cfg = ["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release", "-DTORX_BUILD_RTL=OFF"]
        if shutil.which("ccache"):
            cfg.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        if run(cfg, self.src, self.log) != 0:
            sys.exit(f"[mutants] configuring the scratch build failed: see {self.log}")
        if self.compile() != 0:
            sys.exit(f"[mutants] the unmutated scratch tree does not build: see {self.log}")
        self.hashes = self.binaries()
        for root, _, files in os.walk(os.path.join(self.src, "testbenches")):
            for name in files:
                if name.startswith("test_") and name.endswith(".cpp"):
                    with open(os.path.join(root, name)) as f:
                        if "run_torx(" in f.read():
                            self.runs_torx.add(name[:-4])
        out = subprocess.run(["ctest", "-N", "--show-only=json-v1"], cwd=self.build, capture_output=True, text=True)
        labels = re.compile(self.args.labels)
        for i, t in enumerate(json.loads(out.stdout)["tests"], 1):
            props = {p["name"]: p["value"] for p in t.get("properties", [])}
            if not any(labels.search(label) for label in props.get("LABELS", [])):
                continue
            cmd = t.get("command") or [""]
            exe = os.path.basename(cmd[0]) if os.path.dirname(cmd[0]) == os.path.join(self.build, "tests") else None
            self.tests.append((i, t["name"], exe))

    def compile(self):
        return run(["cmake", "--build", "build", "-j", str(self.args.jobs)], self.src, self.log)

    def binaries(self):
        out = {}
        for d in ("tests", "bin"):
            path = os.path.join(self.build, d)
            for name in sorted(os.listdir(path)) if os.path.isdir(path) else []:
                out[name] = file_hash(os.path.join(path, name))
        return out

    def costs(self):
        """Seconds each test took in the last run ctest recorded (its own cost file), for --quick's tiers."""
        out = {}
        try:
            with open(os.path.join(self.build, "Testing", "Temporary", "CTestCostData.txt")) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 3:
                        out[parts[0]] = float(parts[2])
        except OSError:
            pass
        return out

    def ctest(self, tag, numbers):
        """Runs the given tests; (failed names, number run) or a status string when there is no result."""
        junit = os.path.join(self.work, f"junit-{tag}.xml")
        if os.path.exists(junit):
            os.remove(junit)
        select = "0,0,0," + ",".join(str(n) for n in numbers)
        try:
            run(["ctest", "-I", select, "-j", str(self.args.jobs), "--timeout", str(self.args.timeout),
                 "--output-junit", junit], self.build, self.log, timeout=self.args.timeout * 20)
        except subprocess.TimeoutExpired:
            return "timeout", 0
        failed, total = failed_tests(junit)
        if failed is None:
            return "no-result", 0
        return failed, total

    def build_and_test(self, tag, everything=False, expect=(), quick=False):
        t0 = time.time()
        if self.compile() != 0:
            return {"status": "build", "failed": [], "tests": 0, "seconds": round(time.time() - t0)}
        now = self.binaries()
        changed = {name for name, h in now.items() if self.hashes.get(name) != h}
        torx = "torx" in changed
        chosen = [num for num, _, exe in self.tests
                  if everything or exe is None or exe in changed or (torx and exe in self.runs_torx)]
        res = {"changed": sorted(changed), "ran": len(chosen), "of": len(self.tests), "complete": True}
        if not chosen:
            res.update({"status": "survived", "failed": [], "tests": 0, "seconds": round(time.time() - t0)})
            return res
        # Tiers: one run of everything, or (--quick) the tests written for the fault, then the reachable
        # tests by their last cost (under 5 s, under 20 s, the rest), stopping after a tier with a failure.
        if quick and not everything:
            names = {num: name for num, name, _ in self.tests}
            cost = self.costs()
            first = [num for num in chosen if names[num] in set(expect)]
            rest = [num for num in chosen if num not in first]
            tiers = [first,
                     [n for n in rest if cost.get(names[n], 0.0) < 5.0],
                     [n for n in rest if 5.0 <= cost.get(names[n], 0.0) < 20.0],
                     [n for n in rest if cost.get(names[n], 0.0) >= 20.0]]
            tiers = [t for t in tiers if t]
        else:
            tiers = [chosen]
        failed_all, total, ran = [], 0, 0
        for k, tier in enumerate(tiers):
            failed, n = self.ctest(f"{tag}-{k}" if len(tiers) > 1 else tag, tier)
            if isinstance(failed, str):
                res.update({"status": failed, "failed": failed_all, "tests": total,
                            "seconds": round(time.time() - t0)})
                return res
            failed_all += failed
            total += n
            ran += len(tier)
            if failed and k + 1 < len(tiers):
                res["complete"] = False  # --quick: the later tiers were not run
                break
        res.update({"status": "killed" if failed_all else "survived", "failed": sorted(failed_all),
                    "tests": total, "ran": ran, "seconds": round(time.time() - t0)})
        return res

    def mutate(self, m):
        path = os.path.join(self.src, m["file"])
        with open(path) as f:
            text = f.read()
        if text.count(m["find"]) != 1:
            sys.exit(f"[mutants] {m['id']}: its text occurs {text.count(m['find'])} times in {m['file']} "
                     "(the list must follow the code)")
        with open(path, "w") as f:
            f.write(text.replace(m["find"], m["replace"]))
        return path, text


def check_list(mutants):
    ids = set()
    for m in mutants:
        if m["id"] in ids:
            sys.exit(f"[mutants] duplicate id {m['id']}")
        ids.add(m["id"])
        with open(os.path.join(ROOT, m["file"])) as f:
            count = f.read().count(m["find"])
        if count != 1:
            print(f"[mutants] {m['id']}: its text occurs {count} times in {m['file']}", file=sys.stderr)
            sys.exit(2)


def short(names, limit):
    return ", ".join(names[:limit]) + (f", ... ({len(names)} in all)" if len(names) > limit else "")


def report(rows, target, out=sys.stdout):
    """The table of results (one dict per mutant, in list order) and the kill rate; exit code by target."""
    # A mutant that does not compile is no test's kill: it is reported and left out of the rate.
    broken = [x for x in rows if x["status"] == "build"]
    rows = [x for x in rows if x["status"] != "build"]
    killed = [x for x in rows if x["status"] in ("killed", "timeout")]
    survived = [x for x in rows if x["status"] == "survived"]
    print("| mutant | area | result | tests run | failing | which |", file=out)
    print("|---|---|---|---:|---:|---|", file=out)
    for x in rows:
        part = "" if x.get("complete", True) else " (quick: the first tier that failed)"
        print(f"| {x['id']} | {x['area']} | {x['status']} | {x.get('ran', 0)} of {x.get('of', 0)} | "
              f"{len(x['failed'])} | {short(x['failed'], 6)}{part} |", file=out)
    rate = 100.0 * len(killed) / len(rows) if rows else 0.0
    print(f"\n{len(killed)} of {len(rows)} mutants killed ({rate:.1f} %)", file=out)
    single = [x for x in rows if x["status"] == "killed" and len(x["failed"]) == 1]
    if single:
        print("one failing test in the tiers run: " + "; ".join(f"{x['id']} ({x['failed'][0]})" for x in single),
              file=out)
    if survived:
        print("survivors: " + "; ".join(f"{x['id']} ({x['what']})" for x in survived), file=out)
    if broken:
        print("do not compile (left out): " + ", ".join(x["id"] for x in broken), file=out)
    return killed, rows, rate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutants"), help="scratch directory")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--labels", default=LABELS)
    ap.add_argument("--timeout", type=int, default=900, help="per test, seconds")
    ap.add_argument("--json", default="", help="write the results here too")
    ap.add_argument("--target", type=float, default=95.0, help="kill rate in percent for exit code 0")
    ap.add_argument("--quick", action="store_true",
                    help="per mutant, stop after the first tier of tests that catches it (the tests written for "
                         "it, then the reachable ones from the fastest): the kill rate is the same, the list "
                         "of catching tests may be shorter")
    ap.add_argument("--skip-baseline", action="store_true", help="trust that the unmutated tree passes")
    ap.add_argument("--report", nargs="+", metavar="JSON",
                    help="print the table of earlier runs' JSON files (a later file's result for a mutant wins)")
    args = ap.parse_args()

    if args.report:
        results = {}
        for path in args.report:
            with open(path) as f:
                results.update({k: v for k, v in json.load(f)["results"].items() if k != "baseline"})
        rows = [results[m["id"]] for m in MUTANTS if m["id"] in results]
        missing = [m["id"] for m in MUTANTS if m["id"] not in results]
        _, _, rate = report(rows, args.target)
        if missing:
            print(f"not run: {', '.join(missing)}")
        return 0 if rate >= args.target and not missing else 1

    check_list(MUTANTS)
    chosen = MUTANTS
    if args.only:
        want = [x.strip() for x in args.only.split(",") if x.strip()]
        unknown = [w for w in want if w not in {m["id"] for m in MUTANTS}]
        if unknown:
            print(f"[mutants] unknown mutant ids: {', '.join(unknown)} (see --list)", file=sys.stderr)
            sys.exit(2)
        by_id = {m["id"]: m for m in MUTANTS}
        chosen = [by_id[w] for w in dict.fromkeys(want)]  # in the order given
    if args.list:
        for m in chosen:
            print(f"{m['id']:24} {m['area']:12} {m['file']:32} {m['what']}")
        return 0

    r = Runner(args)
    r.prepare()
    results = {}
    if not args.skip_baseline:
        print("[mutants] baseline: the unmutated tree", file=sys.stderr)
        base = r.build_and_test("baseline", everything=True)
        if base["status"] != "survived":
            print(f"[mutants] the unmutated tree does not pass ({base['status']}: {short(base['failed'], 10)}); "
                  f"see {r.log}", file=sys.stderr)
            return 2
        print(f"[mutants] baseline: {base['tests']} tests pass ({base['seconds']} s)", file=sys.stderr)
        results["baseline"] = base
    for i, m in enumerate(chosen, 1):
        path, original = r.mutate(m)
        try:
            res = r.build_and_test(m["id"], expect=m["expect"], quick=args.quick)
        finally:
            with open(path, "w") as f:
                f.write(original)
        res.update({k: m[k] for k in ("id", "area", "file", "what")})
        results[m["id"]] = res
        print(f"[mutants] {i}/{len(chosen)} {m['id']}: {res['status']} ({len(res['failed'])} tests failed of "
              f"{res.get('ran', 0)} run, {res['seconds']} s)", file=sys.stderr, flush=True)
        if args.json:  # after every mutant, so that a stopped run leaves what it found
            with open(args.json, "w") as f:
                json.dump({"labels": args.labels, "quick": args.quick, "results": results}, f, indent=1)
    # Rebuild the unmutated tree so that the scratch build is left as the code is; its binaries must be
    # the ones the comparisons were made against (the build is reproducible), or the skipping was unsound.
    r.compile()
    drift = sorted(name for name, h in r.binaries().items() if r.hashes.get(name) != h)
    if drift:
        print(f"[mutants] warning: rebuilt unmutated binaries differ from the first build: {', '.join(drift)}",
              file=sys.stderr)

    killed, rows, rate = report([results[m["id"]] for m in chosen], args.target)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"labels": args.labels, "quick": args.quick, "results": results, "killed": len(killed),
                       "total": len(rows), "rate": rate}, f, indent=1)
    return 0 if rate >= args.target else 1


if __name__ == "__main__":
    sys.exit(main())
