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
  /usr/bin/time -o "$tmp/w.time" -f '%e %M' "$TORX" schedule "$algo" --topo "$topo" -o "$f" 2>/dev/null
  w=$(tail -1 "$tmp/w.time")
  # Reading back: parse the whole file and count every step, without tracking blocks.
  /usr/bin/time -o "$tmp/r.time" -f '%e %M' "$TORX" stats --schedule "$f" --topo "$topo" --json "$tmp/r.json" >/dev/null
  r=$(tail -1 "$tmp/r.time")
  blocks=$(python3 -c "import json;j=json.load(open('$tmp/r.json'));n=j['topology']['nodes'];print(n*(n-1))")
  ok=$(python3 -c "import json;j=json.load(open('$tmp/r.json'));print('%d steps, %d transmission blocks, %d/%d conflicts' % (j['steps'], j['transmission_blocks'], j['port_conflicts'], j['link_conflicts']))")
  size=$(du -m "$f" | cut -f1)
  read -r ws wk <<<"$w"; read -r rs rk <<<"$r"
  printf '%-8s %-10s %10s %10s %12s %10s %10s %10s  %s\n' "$algo" "$topo" "$blocks" "$size" "$ws" $((wk/1024)) "$rs" $((rk/1024)) "$ok"
done
