#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiles every C++ source of a configured build with clang++ (syntax and semantics, no code
# generation) so that the tree stays portable beyond g++ (issue 17, item 12: clang++ 14 rejected a
# lambda capturing a structured binding in models/program.cpp). Reads BUILD/compile_commands.json
# (CMake writes it); exit 1 if any file fails, with clang's message.
#   scripts/check_clang.sh [BUILD]                 # default build/
#   CLANGXX=clang++-14 JOBS=2 scripts/check_clang.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
CLANGXX=${CLANGXX:-clang++}
JOBS=${JOBS:-2}
command -v "$CLANGXX" >/dev/null || { echo "[clang] $CLANGXX is not installed (apt-get install clang)" >&2; exit 2; }
[[ -f $BUILD/compile_commands.json ]] || { echo "[clang] no $BUILD/compile_commands.json: configure first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One script per source of the repository: its command with the compiler (and ccache) replaced by
# clang++, without -o/-c, with -fsyntax-only.
python3 - "$BUILD/compile_commands.json" "$CLANGXX" "$PWD" "$work" <<'PY'
import json, os, shlex, sys
cmds, clang, root, work = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
n = 0
for c in cmds:
    f = os.path.realpath(c["file"])
    if not f.startswith(root + "/") or "/_deps/" in f or not f.endswith(".cpp"):
        continue
    args = shlex.split(c["command"]) if "command" in c else c["arguments"]
    while args and (os.path.basename(args[0]) in ("ccache", "c++", "g++", "clang++") or "g++" in os.path.basename(args[0])):
        args = args[1:]
    out, skip = [clang], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    out += ["-fsyntax-only", "-Wno-unknown-warning-option"]
    n += 1
    with open(f"{work}/{n:04d}.sh", "w") as s:
        s.write(f"cd {shlex.quote(c['directory'])} && {shlex.join(out)} || {{ echo '[clang] FAILED: {f}'; exit 1; }}\n")
PY
n=$(ls "$work" | wc -l)
echo "[clang] $n sources with $("$CLANGXX" --version | head -1), $JOBS jobs"
if (cd "$work" && ls | xargs -P "$JOBS" -n 1 bash); then
  echo "[clang] all $n sources compile with $CLANGXX"
else
  echo "[clang] some sources do not compile (above)" >&2
  exit 1
fi
