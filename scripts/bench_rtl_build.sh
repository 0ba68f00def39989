#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a first use of an RTL model costs (issue 22, docs/rtl.md "First use"): for each shape class
# (1D/2D/3D, one-port/all-port, V = 1/2, priority K = 2/4/8, gossip, barrier unit), `torx rtl build`
# into an empty cache, then the same run on the Verilated routers. A benchmark, not a test: it prints
# a table and asserts nothing. Per shape:
#   verilator  Verilator's CPU seconds, summed over the models (the manifests' verilator_cpu_seconds)
#   compile    the compilers' CPU seconds (the manifests' cpu_seconds minus Verilator's), summed
#   wall       torx rtl build's wall seconds (every model the run needs: routers, barrier units)
#   cpu        its CPU seconds with its children (Verilator, the compilers, the run on C++ routers)
#   idle~      the wall seconds this would take on an idle 2-core machine, estimated: (cpu + verilator)
#              / 2 (Verilator is one process per model, the compilers and the models run two at a time)
#   rss        the largest resident size of any process of the build (MB)
#   so         the shared objects' size (KB, summed)
#   Mrc/s      the run on the RTL (--block-bytes SIM_BYTES): router-cycles per CPU second, in millions
# and the machine's load average before the shape. Wall seconds depend on the load: quote it.
#   scripts/bench_rtl_build.sh [--torx PATH] [--only REGEX] [--no-sim] [--keep DIR]
#   TORX_RTL_TUNE="vflags=-fno-inline;fast=-O2" scripts/bench_rtl_build.sh    (docs/rtl.md, "Build time")
#   TORX_CXX=g++ TORX_RTL_TUNE="trace=-O1" scripts/bench_rtl_build.sh         (the default before clang++)
# Run it at nice -n 19 on a shared machine; a full table is about 10 to 30 minutes of CPU.
set -uo pipefail
cd "$(dirname "$0")/.."
TORX=build/bin/torx
ONLY=.
SIM=1
KEEP=
while [[ $# -gt 0 ]]; do
  case $1 in
    --torx) TORX=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --no-sim) SIM=0; shift ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '3,21p' "$0"; exit 0 ;;
    *) echo "bench_rtl_build: unknown argument '$1' (--torx PATH, --only REGEX, --no-sim, --keep DIR)" >&2; exit 2 ;;
  esac
done
TORX=$(realpath "$TORX" 2>/dev/null) || { echo "bench_rtl_build: no torx binary" >&2; exit 2; }
[[ -x $TORX ]] || { echo "bench_rtl_build: no torx binary at $TORX" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench_rtl_build: needs GNU time (apt-get install time)" >&2; exit 2; }
T=$(mktemp -d /tmp/torx_bench_rtl_build_XXXXXX)
trap 'rm -rf "$T"' EXIT

# name | the run (torx run's arguments) | --block-bytes of the timed run on the RTL
SHAPES=(
  "1d one-port V1 (r1d)|direct --topo 16|4096"
  "1d all-port V2 D5 P3|tsay-wang --topo 8 --param vcs_per_class=2 --param buffer_depth=5 --param router_latency=3|4096"
  "2d one-port V1 (r2d)|t4 --topo 8x8|4096"
  "2d one-port V2|t4 --topo 8x8 --param vcs_per_class=2|4096"
  "2d one-port V3 D5 P3|t4 --topo 4x4 --param vcs_per_class=3 --param buffer_depth=5 --param router_latency=3|4096"
  "2d all-port V1 (r2d_all_o2)|tsay-wang --topo 5x5|4096"
  "2d all-port V2|tsay-wang --topo 5x5 --param vcs_per_class=2|4096"
  "2d priority K2|direct --topo 4x4 --sync priority --param priority_levels=2 --ts 10|1024"
  "2d priority K4|direct --topo 4x4 --sync priority --param priority_levels=4 --ts 10|1024"
  "3d one-port V1 (r3d)|direct --topo 4x4x4 --ts 10|1024"
  "3d one-port V2|direct --topo 4x4x4 --ts 10 --param vcs_per_class=2|1024"
  "3d priority K8|direct --topo 4x4x4 --sync priority --param priority_levels=8 --ts 10|1024"
  "3d all-port V1 (r3d_all_o3)|tsay-wang --topo 3x3x3|4096"
  "3d all-port V2|tsay-wang --topo 3x3x3 --param vcs_per_class=2|16384"
  "3d all-port K4|tsay-wang --topo 3x3x3 --sync priority --param priority_levels=4|1024"
  "4d one-port V1|direct --topo 3x3x2x2 --ts 20|1024"
  "gossip 2d 4-flit (g2d)|ms-hc --topo 6x6 --gossip-hw --block-bytes 128|"
  "gossip 2d 2-flit|ms-hc --topo 6x6 --gossip-hw --block-bytes 32|"
  "gossip 2d 12-flit|ms-hc --topo 4x4 --gossip-hw --block-bytes 192|"
  "gossip 3d 4-flit|ms-hc --topo 4x4x4 --gossip-hw --block-bytes 128|"
  "barrier unit 3d (b3)|--catalog b3|"
)

printf '# torx %s; TORX_CXX=%s; TORX_RTL_TUNE=%s; %s CPUs; %s\n' "$("$TORX" --version 2>/dev/null | head -1)" \
  "${TORX_CXX:-}" "${TORX_RTL_TUNE:-}" "$(nproc)" "$(date -u +%FT%TZ)"
printf '%-30s %-26s %6s %9s %7s %6s %7s %6s %6s %7s %8s %7s\n' shape models load verilator compile wall cpu idle~ rss so 'Mrc/s' 'sim cpu'
for row in "${SHAPES[@]}"; do
  IFS='|' read -r name run bytes <<<"$row"
  [[ $name =~ $ONLY ]] || continue
  cache=$T/cache
  rm -rf "$cache"
  load=$(cut -d' ' -f1 /proc/loadavg)
  # shellcheck disable=SC2086
  if ! /usr/bin/time -f '%e %U %S %M' -o "$T/time" "$TORX" --rtl-cache "$cache" rtl build $run >"$T/out" 2>"$T/err"; then
    printf '%-30s FAILED: %s\n' "$name" "$(tail -2 "$T/err" | tr '\n' ' ')"
    continue
  fi
  read -r wall user sys rss <"$T/time"
  models=$(grep -h '^name ' "$cache"/*/manifest.txt | cut -d' ' -f2 | paste -sd+)
  vsec=$(grep -h '^verilator_cpu_seconds ' "$cache"/*/manifest.txt | cut -d' ' -f2 | paste -sd+ | bc)
  csec=$(echo "$(grep -h '^cpu_seconds ' "$cache"/*/manifest.txt | cut -d' ' -f2 | paste -sd+) - $vsec" | bc)
  so_kb=$(( $(cat "$cache"/*/model.so | wc -c) / 1024 ))
  mrc=- simcpu=-
  if [[ $SIM == 1 && $run != --catalog* ]]; then
    sim_run=$run
    [[ -n $bytes ]] && sim_run="$run --block-bytes $bytes"
    # shellcheck disable=SC2086
    if /usr/bin/time -f '%U %S' -o "$T/stime" "$TORX" --rtl-cache "$cache" run $sim_run --model rtl >"$T/sout" 2>"$T/serr"; then
      read -r su ss <"$T/stime"
      cycles=$(sed -n 's/^  rtl model *\([0-9]*\) cycles.*/\1/p' "$T/sout" | head -1)
      topo=$(sed -n 's/.*--topo \([0-9x]*\).*/\1/p' <<<"$run")
      nodes=$(( ${topo//x/*} ))
      simcpu=$(echo "$su + $ss" | bc)
      mrc=$(echo "scale=3; $cycles * $nodes / ($simcpu + 0.001) / 1000000" | bc)
    else
      mrc=FAIL
    fi
  fi
  cpu=$(echo "$user + $sys" | bc)
  printf '%-30s %-26s %6s %9s %7s %6.0f %7.1f %6.0f %6d %7d %8s %7s\n' "$name" "$models" "$load" "$vsec" "$csec" "$wall" \
    "$cpu" "$(echo "($cpu + $vsec) / 2" | bc -l)" $((rss / 1024)) "$so_kb" "$mrc" "$simcpu"
  if [[ -n $KEEP ]]; then mkdir -p "$KEEP" && cp -a "$cache"/. "$KEEP"/; fi
done
