#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks scripts/setup.sh (issue 17, items 14-15) without installing or building anything: stub
# commands on a PATH of their own (id, sudo, dpkg-query, apt-get, cmake, nproc) record what it runs.
#  - as root on a machine without sudo it runs apt-get itself;
#  - as a user without sudo it stops (exit 2) and prints the apt-get line for an administrator;
#  - as a user with sudo it uses sudo;
#  - it says what it does (installing, configuring, building) and lets apt-get and cmake talk;
#  - python3-matplotlib is installed only with --plots;
#  - --synth installs OpenSTA and ABC and has scripts/synth.py fetch yosys and the liberty;
#  - the demonstration scripts do not silence it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASH_BIN=$(command -v bash)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

# stubs UID SUDO(0|1) INSTALLED(0|1)
stubs() {
  local bin=$tmp/bin
  rm -rf "$bin"
  mkdir -p "$bin"
  : >"$tmp/calls"
  for tool in dirname grep sed date cat; do ln -s "$(command -v $tool)" "$bin/$tool"; done
  printf '#!/bin/sh\n[ "$1" = -u ] && echo %s\n' "$1" >"$bin/id"
  printf '#!/bin/sh\necho 2\n' >"$bin/nproc"
  printf '#!/bin/sh\necho "apt-get $*" >>%s\necho "apt-get is talking"\n' "$tmp/calls" >"$bin/apt-get"
  printf '#!/bin/sh\necho "cmake $*" >>%s\necho "cmake is talking"\n' "$tmp/calls" >"$bin/cmake"
  printf '#!/bin/sh\necho "python3 $*" >>%s\n' "$tmp/calls" >"$bin/python3"
  if [ "$3" = 1 ]; then
    printf '#!/bin/sh\necho "install ok installed"\n' >"$bin/dpkg-query"
  else
    printf '#!/bin/sh\nexit 1\n' >"$bin/dpkg-query"
  fi
  if [ "$2" = 1 ]; then printf '#!/bin/sh\necho "sudo $*" >>%s\nexec "$@"\n' "$tmp/calls" >"$bin/sudo"; fi
  chmod +x "$bin"/*
}

run_setup() {  # run_setup ARGS...: sets rc; output in $tmp/out, $tmp/err
  set +e
  PATH=$tmp/bin "$BASH_BIN" "$ROOT/scripts/setup.sh" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
}
has() { grep -q -- "$1" "$2"; }
hasnt() { ! grep -q -- "$1" "$2"; }

# Root, no sudo on the machine (bare Debian), every package missing.
stubs 0 0 0
run_setup
check "root without sudo: exit 0" test "$rc" = 0
check "root without sudo: apt-get install runs, not through sudo" has "^apt-get install -y --no-install-recommends build-essential" "$tmp/calls"
check "root without sudo: no sudo" hasnt "^sudo" "$tmp/calls"
check "says it installs" has "installing .* packages" "$tmp/out"
check "lets apt-get speak" has "apt-get is talking" "$tmp/out"
check "says it configures" has "configuring build" "$tmp/out"
check "says it builds" has "building with 2 jobs" "$tmp/out"
check "lets cmake speak" has "cmake is talking" "$tmp/out"
check "configures and builds" has "^cmake --build build -j 2" "$tmp/calls"
check "matplotlib is not installed by default" hasnt "python3-matplotlib" "$tmp/calls"

run_setup --plots
check "--plots installs python3-matplotlib" has "^apt-get install .*python3-matplotlib" "$tmp/calls"
check "the synthesis flow is not installed by default" hasnt "opensta\|synth.py" "$tmp/calls"

run_setup --synth
check "--synth: exit 0" test "$rc" = 0
check "--synth installs OpenSTA and ABC, not yosys's package" \
  bash -c "grep -q '^apt-get install .*opensta berkeley-abc' '$tmp/calls' && ! grep -q '^apt-get install.* yosys' '$tmp/calls'"
check "--synth fetches yosys and the liberty" has "^python3 scripts/synth.py --fetch" "$tmp/calls"
check "--synth says so" has "fetching yosys and the OSU" "$tmp/out"

# A user without sudo.
stubs 1000 0 0
run_setup
check "user without sudo: exit 2" test "$rc" = 2
check "user without sudo: nothing installed, nothing built" test ! -s "$tmp/calls"
check "user without sudo: prints the line for an administrator" has "apt-get install -y --no-install-recommends build-essential" "$tmp/err"

# A user with sudo.
stubs 1000 1 0
run_setup
check "user with sudo: exit 0" test "$rc" = 0
check "user with sudo: apt-get through sudo" has "^sudo apt-get install" "$tmp/calls"

# Everything installed: a user without sudo just builds.
stubs 1000 0 1
run_setup
check "installed: exit 0" test "$rc" = 0
check "installed: no apt-get" hasnt "apt-get" "$tmp/calls"
check "installed: says so" has "every package is installed" "$tmp/out"

# The demonstrations show setup's output (on standard error, to keep their own output clean).
check "demo scripts do not silence setup" bash -c "! grep -nE 'setup\.sh[^#]*>[[:space:]]*/dev/null' '$ROOT'/scripts/*.sh"

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
