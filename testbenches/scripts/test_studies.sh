#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the study scripts' command line (issue 33, item 3): bad options are refused with exit 2
# before anything runs (a malformed or repeated --param, a --param the study sets itself, --param
# with --update-docs, an unwritable --out), and a study writes into --out, never into docs/ unless
# asked (scripts/gossip_hw_study.py --quick: 8x8 at 384 bytes, fifteen cycle-model runs, a few
# seconds), with every --param passed to torx run.
# Usage: test_studies.sh BUILD_DIR
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TORX=$1/bin/torx
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}
refused() {  # refused PATTERN SCRIPT ARGS...: exit 2 and PATTERN on stderr
  local pattern=$1
  shift
  local rc=0
  "$PY" "$ROOT/scripts/$1" --torx "$TORX" --work "$tmp/work" "${@:2}" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [[ $rc == 2 ]] && grep -q -- "$pattern" "$tmp/err" || { echo "  exit $rc: $(cat "$tmp/err")"; return 1; }
}

for s in sync_study.py priority_study.py gossip_hw_study.py; do
  check "$s: a malformed --param" refused "expected NAME=VALUE" $s --param vcs_per_class --out "$tmp/o"
  check "$s: a repeated --param" refused "given twice" $s --param null_ts=0 --param null_ts=5 --out "$tmp/o"
  check "$s: an unknown parameter" refused "no_such" $s --param no_such=1 --out "$tmp/o"
  check "$s: --param with --update-docs" refused "default network" $s --param vcs_per_class=2 --update-docs
  check "$s: an unwritable --out" refused "cannot" $s --out /proc/torx-study
done
check "priority_study.py: its own factors are not parameters" refused "sets it itself" priority_study.py \
  --param buffer_depth=17 --out "$tmp/o"
check "gossip_hw_study.py: its own buffer depth is not a parameter" refused "sets it itself" gossip_hw_study.py \
  --param buffer_depth=64 --out "$tmp/o"
check "sync_signals_study.py: no network to parameterize" refused "schedule only" sync_signals_study.py \
  --param vcs_per_class=2 --out "$tmp/o"

# A real (small) study into --out: docs/ untouched, the parameter in every run, every run checked ok.
before=$(cd "$ROOT" && git status --porcelain -- docs 2>/dev/null | md5sum || true)
rc=0
"$PY" "$ROOT/scripts/gossip_hw_study.py" --torx "$TORX" --work "$tmp/work" --quick --out "$tmp/gossip" \
  --param vcs_per_class=2 >"$tmp/out" 2>"$tmp/err" || rc=$?
check "gossip_hw_study.py --quick --out DIR exits 0" test $rc = 0
check "it writes runs.csv and tables.md into DIR" test -s "$tmp/gossip/runs.csv" -a -s "$tmp/gossip/tables.md"
check "runs.csv has the four ways of 8x8 at t_s 10, 100, 1000 for both schemes" \
  test "$(grep -c '^ms-\(hc\|one\),8x8,' "$tmp/gossip/runs.csv")" = 6
check "every cycle-model run had --param vcs_per_class=2 (27 of them)" bash -c \
  "cat '$tmp'/work/*-p*.json | grep -o '\"vcs_per_class\": *2' | wc -l | grep -qx 27"
after=$(cd "$ROOT" && git status --porcelain -- docs 2>/dev/null | md5sum || true)
check "docs/ is untouched" test "$before" = "$after"

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "study scripts: all checks passed"
