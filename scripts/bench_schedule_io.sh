#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark (not a test): write and read back the large schedules, recording wall time, peak memory
# and file size. Issue targets: the ring on 4096 nodes (16.7 million blocks), and the 2D and 3D
# schedules of the same scale, write and read in seconds and well under 1 GiB.
#   scripts/bench_schedule_io.sh [ALGO:TOPO ...]     (default: the list below)
set -euo pipefail
cd "$(dirname "$0")/.."
TORX=${TORX:-build/bin/torx}
[[ -x $TORX ]] || { echo "build first: scripts/setup.sh" >&2; exit 2; }
cases=("$@")
((${#cases[@]})) || cases=(ring:4096 t1:64x64 t4:64x64 c1:16x16x16 c64:32x32x32)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %-10s %10s %10s %12s %10s %10s %10s\n' algo topo blocks file_MB write_s write_MB read_s read_MB
for c in "${cases[@]}"; do
  algo=${c%%:*}; topo=${c#*:}
  f="$tmp/$algo.sched"
  w=$( { /usr/bin/time -f '%e %M' "$TORX" schedule "$algo" --topo "$topo" -o "$f" 2>/dev/null >/dev/null; } 2>&1 | tail -1)
  r=$( { /usr/bin/time -f '%e %M' "$TORX" run --schedule "$f" --topo "$topo" --json "$tmp/r.json" >/dev/null; } 2>&1 | tail -1)
  blocks=$(python3 -c "import json;print(json.load(open('$tmp/r.json'))['check']['expected'])")
  ok=$(python3 -c "import json;print(json.load(open('$tmp/r.json'))['check']['ok'])")
  size=$(du -m "$f" | cut -f1)
  read -r ws wk <<<"$w"; read -r rs rk <<<"$r"
  printf '%-8s %-10s %10s %10s %12s %10s %10s %10s  check=%s\n' "$algo" "$topo" "$blocks" "$size" "$ws" $((wk/1024)) "$rs" $((rk/1024)) "$ok"
done
