#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The bad-input table (issues 17 and 31): every case a hostile user or a broken disk can hand torx,
# with the exit code it must give. Each case runs under a memory bound (ulimit -v), a file-size
# bound (ulimit -f) and a time bound (timeout); the script checks the exit code, that no case ends
# by a signal or an internal error (exit 4), that standard error and output stay below their bound,
# that no temporary output file (.NAME.torx-XXXXXX) is left behind and that a good file a failed
# write was aimed at (good.txt) is intact. Exit 0 when every case
# holds, 1 otherwise (the failing cases are listed).
#   scripts/bad_input.sh [TORX]        (default build/bin/torx)
#   MEM_KB=2097152 FSIZE_KB=262144 TIMEOUT=120 scripts/bad_input.sh
set -uo pipefail
cd "$(dirname "$0")/.."
TORX=$(realpath "${1:-build/bin/torx}")
MEM_KB=${MEM_KB:-2097152}      # 2 GiB of address space per case
FSIZE_KB=${FSIZE_KB:-262144}   # 256 MiB per written file
TIMEOUT=${TIMEOUT:-120}
MSG_MAX=${MSG_MAX:-8192}       # bytes of standard error a bad input may produce
T=$(mktemp -d /tmp/torx_bad_input_XXXXXX)
trap 'rm -rf "$T"' EXIT
[[ -x $TORX ]] || { echo "bad_input: no torx binary at $TORX" >&2; exit 2; }

# Inputs the cases read.
printf 'torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nstep\n0 -> 1 \033[31mx+\033]0;pwned\007 | 0>1\nend\n' >"$T/escape.sched"
{ printf 'torx-forwarding-tables 1\n'; head -c 8388608 /dev/zero | tr '\0' 'A'; } >"$T/longline.tab"
{ printf 'torx-forwarding-tables 1\n'; head -c 500000 /dev/zero | tr '\0' 'B'; printf ' 1\n'; } >"$T/longtoken.tab"
head -c 100000 /dev/zero | tr '\0' '[' >"$T/deep.json"
doc() {  # a result document with DIMS, extra topology keys, and a cycle_model
  printf '{"schema": "torx.result/1", "algorithm": "ring", "model": "cycle", "sync": "barrier", "topology": {"dims": %s, "wrap": true%s}, "timing": {"step_cycles": %s}, "cycles": %s, "cycle_model": %s}' "$@"
}
doc '[4294967304, 8]' '' '[1]' 20 '{"link_flits": [0]}' >"$T/huge_radix.json"
doc '[8.5, 8]' '' '[1]' 20 '{"link_flits": [0]}' >"$T/frac_radix.json"
doc '[2]' '' '[1]' 20 '{"link_flits": [1, -5, 3, 4]}' >"$T/neg_flits.json"
doc '[2]' '' '[1]' 20 '{"link_flits": [1, 1e308, 3, 4]}' >"$T/huge_flits.json"
doc '[2]' '' '[10, 10]' 20 '{"step_start": [0, 15], "step_end": [10, 12]}' >"$T/end_before_start.json"
doc '[4, 4]' ', "nodes": 17' '[1]' 20 'null' >"$T/nodes.json"
doc '[2]' '' '[1]' 1e308 'null' >"$T/huge_cycles.json"
echo good >"$T/good.txt"

# expected-code <TAB> command (run by bash in $T; $TORX is the binary)
CASES=$(cat <<'EOF'
3	$TORX run ring --topo 65536
3	$TORX stats ring --topo 65536
3	$TORX run ring --topo 65536 --max-memory 1GiB
3	$TORX stats t4 --topo 4096x4096 --max-memory 256MiB
2	$TORX tables --check /dev/zero
2	$TORX tables --check longline.tab
2	$TORX tables --check longtoken.tab
2	$TORX tables --check /nonexistent.tab
2	$TORX tables --check .
2	yes '[' | $TORX plot steps - -o out.svg
2	$TORX plot steps deep.json -o out.svg
2	$TORX plot links huge_radix.json -o out.svg
2	$TORX plot links frac_radix.json -o out.svg
2	$TORX plot links neg_flits.json -o out.svg
2	$TORX plot links huge_flits.json -o out.svg
2	$TORX plot steps end_before_start.json -o out.svg
2	$TORX plot steps nodes.json -o out.svg
2	$TORX plot steps huge_cycles.json -o out.svg
2	$TORX plot steps /dev/zero -o out.svg
2	$TORX run ring --topo 8 --json ''
2	$TORX run ring --topo 8 --trace ''
2	$TORX schedule ring --topo 8 -o ''
2	$TORX run ring --topo 8 --model cycle --trace /proc/version
2	$TORX run ring --topo 8 --model cycle --trace /dev/null
2	$TORX run ring --topo 8 --model cycle --trace -
2	$TORX run ring --topo 8 --json /dev/full
2	$TORX reproduce tseng --json /dev/full
2	$TORX reproduce tseng --json /nonexistent/r.json
2	$TORX tables ms-hc --topo 4x4 -o - --json -
2	ulimit -f 16; $TORX schedule ring --topo 1024 -o f
2	ulimit -f 16; $TORX tables ms-hc --topo 32x32 -o good.txt
2	ulimit -f 16; $TORX run direct --topo 32x32 --json good.txt
2	ulimit -f 16; $TORX run ring --topo 64 --model cycle --trace t.vcd
2	$TORX run --schedule escape.sched --topo 3
2	$TORX run ring --topo "$(printf '8\033[2J')"
2	$TORX "$(printf 'ru\033n')"
2	$TORX schedule ring --topo 8 -o /dev/full
2	$TORX run ring --topo 8 --json - >/dev/full
EOF
)

fail=0
n=0
while IFS=$'\t' read -r want cmd; do
  [[ -z $want ]] && continue
  n=$((n + 1))
  (cd "$T" && ulimit -v "$MEM_KB" && ulimit -f "$FSIZE_KB" && TORX=$TORX timeout "$TIMEOUT" bash -c "$cmd" \
      >"$T/case.out" 2>"$T/case.err")
  got=$?
  err_bytes=$(stat -c %s "$T/case.err")
  out_bytes=$(stat -c %s "$T/case.out")
  temps=$(ls -a "$T" 2>/dev/null | grep -c 'torx-' || true)
  why=""
  [[ $got != "$want" ]] && why+=" exit $got (want $want)"
  ((err_bytes > MSG_MAX)) && why+=" stderr $err_bytes bytes (> $MSG_MAX)"
  ((out_bytes > MSG_MAX)) && why+=" stdout $out_bytes bytes (> $MSG_MAX)"
  grep -q $'\033' "$T/case.err" && why+=" raw escape byte in the message"
  ((temps > 0)) && why+=" $temps temporary files left"
  [[ $(cat "$T/good.txt") == good ]] || why+=" good.txt (an earlier good output) was damaged"
  if [[ -n $why ]]; then
    fail=$((fail + 1))
    printf 'FAIL %-70s%s\n     %s\n' "$cmd" "$why" "$(head -c 300 "$T/case.err" | tr '\n' ' ')"
  else
    printf 'ok   exit %s  %5d B  %s\n' "$got" "$err_bytes" "$cmd"
  fi
  rm -f "$T/case.out" "$T/case.err" "$T/f" "$T/out.svg" "$T/t.vcd"
  echo good >"$T/good.txt"
done <<<"$CASES"
echo "bad_input: $n cases, $((n - fail)) as expected, $fail failed (ulimit -v $MEM_KB KiB, -f $FSIZE_KB KiB, timeout $TIMEOUT s)"
((fail == 0))
