#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Partitioned runs against one process: the result documents must be the same (docs/distributed.md).

  scripts/mpi_compare.py --torx build/bin/torx [--ranks 2] [--partitions slab,block,auto] [--quick]
  scripts/mpi_compare.py --torx build/bin/torx --case t4 --topo 64x64 --ranks 2   # one case, by hand
  (--keep DIR keeps the documents and standard errors: DIR/NAME.1.json alone, DIR/NAME.R.PARTITION.json
  partitioned; --together runs them at once; --timeout S per run, 3600 s by default)
  scripts/mpi_compare.py --torx build/bin/torx --failures                          # a rank that fails

Each case runs `torx run ... --json` once alone and once under `mpirun -np R --oversubscribe` per
partition, and compares the two documents key by key with result_corpus.py's rules (wall and load
times, peak memory and threads aside). Exit 1 if any document differs or a run fails.

--failures: a rank whose MPI call fails (TORX_MPI_FAULT=1:N), a rank that dies by SIGKILL at a
collective (TORX_MPI_FAULT=1:N:kill) and one killed from outside: every rank must stop with a
message, mpirun (for the MPI error) or torx-mpirun (for a rank's death) with exit 3, within 120 s;
and a schedule file breaking a holding rule in one rank's share of the blocks: exit 2 and one process's
message on 2 and 3 ranks.
"""
import argparse
import concurrent.futures
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from result_corpus import differences, strip  # noqa: E402

MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none"]

# Every registered algorithm at a small size; every sync mode; hardwired gossip; parameters.
CASES = []


def case(name, *args):
    CASES.append((name, list(args)))


for algo, topo, extra in [("direct", "4x4", []), ("ring", "16", []), ("t1", "4x6", []), ("c1", "3x3x4", []),
                          ("tseng-dd", "3x4x2", []), ("t4", "8x8", []), ("c64", "8x8x8", ["--block-bytes", "8"]),
                          ("suh", "4x6", ["--mesh"]), ("tsay-wang", "5x5", []), ("dimak-a2", "4x6", []),
                          ("dimak-a3", "4x4", []), ("ms-hc", "6x6", []), ("ms-one", "4x6", []),
                          ("ms-hc-steps", "6x6", []), ("ms-hc-hd", "5x6", [])]:
    for sync in ("barrier", "none"):
        case(f"{algo}-{topo}-{sync}", algo, "--topo", topo, "--sync", sync, *extra)
for algo, topo, extra in [("direct", "4x4", ["--ts", "10"]), ("t4", "8x8", []), ("tsay-wang", "5x5", []),
                          ("ring", "16", [])]:
    for sync in ("local", "software", "priority"):
        case(f"{algo}-{topo}-{sync}", algo, "--topo", topo, "--sync", sync, *extra)
for algo, topo in [("ms-hc", "6x6"), ("ms-one", "4x6"), ("ms-hc", "7x8")]:
    case(f"{algo}-{topo}-gossiphw", algo, "--topo", topo, "--gossip-hw")
case("t4-8x8-latencies", "t4", "--topo", "8x8", "--param", "link_latency=3", "--param", "credit_latency=2",
     "--param", "barrier_hop_latency=4", "--param", "router_latency=3")
case("direct-4x4-allport", "direct", "--topo", "4x4", "--ports", "all", "--sync", "none")
case("direct-6x6-mesh", "direct", "--topo", "6x6", "--mesh", "--sync", "none")
case("direct-4x4-depth2-vc2", "direct", "--topo", "4x4", "--param", "buffer_depth=2", "--param", "vcs_per_class=2")
QUICK = {"direct-4x4-barrier", "t4-8x8-barrier", "t4-8x8-priority", "tsay-wang-5x5-local", "direct-4x4-software",
         "ms-hc-6x6-gossiphw", "c1-3x3x4-none", "t4-8x8-latencies"}


def run(cmd, timeout=3600, env=None):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout, env=env)


def compare(torx, model, ranks, partitions, name, args, tmp, together=False, timeout=3600, keep=False):
    """One process against each partition; with `together` the runs go at once (one thread each)."""
    base = os.path.join(tmp, f"{name}.1.json")
    runs = [("one process", [torx, "run", *args, "--model", model, "--json", base], base)]
    for part in partitions:
        out = os.path.join(tmp, f"{name}.{ranks}.{part}.json")
        runs.append((f"{ranks} ranks, {part}",
                     [*MPIRUN, "-np", str(ranks), torx, "run", *args, "--model", model, "--partition", part, "--json", out],
                     out))

    def go(r):
        t = time.time()
        p = run(r[1], timeout=timeout)
        if keep:  # the ranks' time split and peak memories, the one process's summary
            with open(r[2][:-len(".json")] + ".err", "w") as f:
                f.write(f"{' '.join(r[1])}\nexit {p.returncode} after {time.time() - t:.1f} s\n{p.stderr}")
        return p

    if together:
        with concurrent.futures.ThreadPoolExecutor(len(runs)) as ex:
            done = list(ex.map(go, runs))
    else:
        done = [go(runs[0])]
        if done[0].returncode == 0:
            done += [go(r) for r in runs[1:]]
    if done[0].returncode:
        return [f"{name}: one process: exit {done[0].returncode}: {done[0].stderr.strip()[-300:]}"]
    want = strip(json.load(open(base)))
    bad = []
    for (what, _, out), p in zip(runs[1:], done[1:]):
        if p.returncode:
            bad.append(f"{name}: {what}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
            continue
        diff = differences(want, strip(json.load(open(out))))
        if diff:
            bad.append(f"{name}: {what}: {len(diff)} differences: " + "; ".join(diff[:4]))
    return bad


def failures(torx, tmp):
    """A rank's MPI call fails, a rank is killed: every rank stops, never a hang."""
    bad = []
    args = [torx, "run", "t4", "--topo", "8x8", "--model", "cycle", "--json", os.path.join(tmp, "f.json")]
    env = dict(os.environ, TORX_MPI_FAULT="1:200")
    t = time.time()
    try:
        p = run([*MPIRUN, "-np", "2", *args], timeout=120, env=env)
        ok = p.returncode == 3 and "injected by TORX_MPI_FAULT" in p.stderr
        print(f"failures: MPI error on rank 1: exit {p.returncode} after {time.time() - t:.1f} s"
              f"{'' if ok else ': ' + p.stderr.strip()[-300:]}")
        if not ok:
            bad.append(f"MPI error on rank 1: exit {p.returncode}, want 3 and the message")
    except subprocess.TimeoutExpired:
        bad.append("MPI error on rank 1: hung (120 s)")
    # A rank that dies by SIGKILL at its 200th collective call (TORX_MPI_FAULT=1:200:kill): mpirun
    # stops rank 0 (SIGTERM: it says so and exits 3), mpirun exits 137, torx-mpirun 3.
    wrapper = torx_mpirun(torx)
    env = dict(os.environ, TORX_MPI_FAULT="1:200:kill")
    t = time.time()
    try:
        p = run([wrapper, *MPIRUN[1:], "-np", "2", *args], timeout=120, env=env)
        ok = (p.returncode == 3 and "rank 1 kills itself" in p.stderr and "stopped (rank 0): terminated by mpirun" in
              p.stderr and "torx-mpirun: a rank died by signal 9" in p.stderr)
        print(f"failures: rank 1 dies (SIGKILL) at its 200th collective: torx-mpirun exit {p.returncode} after "
              f"{time.time() - t:.1f} s{'' if ok else ': ' + p.stderr.strip()[-400:]}")
        if not ok:
            bad.append(f"rank 1 dies: exit {p.returncode}, want 3 and the messages of both ranks")
    except subprocess.TimeoutExpired:
        bad.append("rank 1 dies: hung (120 s)")
    # A rank killed from outside in the middle of a run: the same.
    big = [torx, "run", "t4", "--topo", "32x32", "--model", "cycle", "--json", os.path.join(tmp, "k.json")]
    proc = subprocess.Popen([wrapper, *MPIRUN[1:], "-np", "2", *big], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    victim = None
    for _ in range(600):
        time.sleep(0.1)
        ranks = subprocess.run(["pgrep", "-s", str(proc.pid), "-x", "torx"], capture_output=True, text=True).stdout.split()
        if len(ranks) >= 2:
            time.sleep(2.0)  # inside the run
            victim = int(ranks[-1])
            break
    if victim is None:
        os.killpg(proc.pid, signal.SIGKILL)
        return bad + ["rank kill: no ranks found"]
    t = time.time()
    try:
        os.kill(victim, signal.SIGKILL)
    except ProcessLookupError:  # the run ended before the kill (a fast machine): nothing was tested
        os.killpg(proc.pid, signal.SIGKILL)
        return bad + ["rank kill: the run ended before the rank was killed"]
    try:
        _, err = proc.communicate(timeout=120)
        ok = proc.returncode == 3 and "terminated by mpirun" in err and "died by signal 9" in err
        print(f"failures: a rank killed (SIGKILL) from outside: torx-mpirun exit {proc.returncode} after "
              f"{time.time() - t:.1f} s{'' if ok else ': ' + err.strip()[-400:]}")
        if not ok:
            bad.append(f"rank kill: exit {proc.returncode}, want 3 and the messages")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        bad.append("rank kill: hung (120 s)")
    return bad


TERMINATED = re.compile(r"torx: stopped \(rank [0-9]+\): terminated by mpirun")


def bad_schedule(torx, tmp):
    """A schedule file that breaks a holding rule: each rank's step model tracks its share of the blocks
    (docs/distributed.md, "Memory per rank"), the ranks agree on the first error: exit 2 and one
    process's message, on every partition, when the first break is in rank 1's share and a later one in
    rank 0's (block 15>3 is id 243 of 256, block 1>2 id 18)."""
    path = os.path.join(tmp, "bad.sched")
    with open(path, "w") as f:
        f.write("torx-schedule 1\ncollective alltoall\ntopology 16 torus\nports one\nswitching wormhole\n"
                "step\n0 -> 1 x+ | 0>1\nstep\n0 -> 1 x+ | 15>3 1>2\nend\n")
    args = [torx, "run", "--schedule", path, "--topo", "16", "--model", "cycle", "--json", os.path.join(tmp, "bad.json")]
    one = run(args, timeout=120)
    want = one.stderr.strip()
    bad = []
    if one.returncode != 2 or "block (15)->(3)" not in want:
        return [f"bad schedule: one process: exit {one.returncode}, want 2 naming block 15>3: {want[-300:]}"]
    for ranks in (2, 3):
        p = run([*MPIRUN, "-np", str(ranks), *args], timeout=120)
        # torx's lines, but a rank's note that mpirun terminated it: the ranks agree on the error and all
        # exit 2, but mpirun stops the job when the first of them exits, and a rank still on its way out
        # (rank 0 too, after printing the message) then says it was terminated (a race of the exits).
        got = "\n".join(l for l in p.stderr.strip().splitlines()
                        if l.startswith("torx") and not TERMINATED.match(l))
        ok = p.returncode == 2 and got == want
        print(f"failures: a schedule breaking a holding rule on {ranks} ranks: exit {p.returncode}"
              f"{', the message of one process' if ok else ': ' + got[-300:]}")
        if not ok:
            bad.append(f"bad schedule on {ranks} ranks: exit {p.returncode}, want 2 and {want!r}")
    return bad


def torx_mpirun(torx):
    """torx-mpirun beside torx (build/bin, an installed prefix), else the one in scripts/."""
    beside = os.path.join(os.path.dirname(os.path.abspath(torx)), "torx-mpirun")
    return beside if os.path.exists(beside) else os.path.join(os.path.dirname(os.path.abspath(__file__)), "torx-mpirun")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--torx", default="build/bin/torx")
    ap.add_argument("--model", default="cycle")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--partitions", default="slab,block,auto")
    ap.add_argument("--quick", action="store_true", help="a few cases (CI)")
    ap.add_argument("--filter", default="")
    ap.add_argument("--case", help="one algorithm, by hand (with --topo and extra arguments after --)")
    ap.add_argument("--topo")
    ap.add_argument("--failures", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--together", action="store_true", help="run one process and the partitioned runs of a case at once")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per run [3600]")
    ap.add_argument("--keep", metavar="DIR", help="write the documents to DIR (kept) instead of a temporary directory")
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    parts = a.partitions.split(",")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    with (contextlib.nullcontext(a.keep) if a.keep else tempfile.TemporaryDirectory()) as tmp:
        if a.failures:
            bad = bad_schedule(a.torx, tmp) + failures(a.torx, tmp)
            for b in bad:
                print(b)
            print(f"failures: {len(bad)} problems")
            return 1 if bad else 0
        if a.case:
            cases = [(f"{a.case}-{a.topo}", [a.case, "--topo", a.topo, *a.extra])]
        else:
            cases = [c for c in CASES if a.filter in c[0] and (not a.quick or c[0] in QUICK)]
        bad = []
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            for name, problems in ex.map(
                    lambda c: (c[0], compare(a.torx, a.model, a.ranks, parts, c[0], c[1], tmp, a.together, a.timeout,
                                          bool(a.keep))), cases):
                print(f"{name}: {'same' if not problems else 'DIFFERS'}", flush=True)
                bad += problems
        for b in bad:
            print(b)
        print(f"{len(cases)} cases x {len(parts)} partitions on {a.ranks} ranks ({a.model}): {len(bad)} differ or fail")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
