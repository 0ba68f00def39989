#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes every reader of outside input for a bounded time (testbenches/fuzz/CMakeLists.txt lists
# the targets): builds them with clang++, libFuzzer and the address and undefined-behaviour
# sanitizers in build-fuzz/, seeds each corpus from real files (schedules written by
# `torx schedule`, routing and barrier images made by the model's builders, the checked-in seeds),
# then runs each target for SECONDS (default 60). Exit 1 if a target found a crash, a hang (10 s
# per input) or an allocation beyond 2 GiB; the input is in build-fuzz/artifacts/. Copy it into
# testbenches/fuzz/regressions/TARGET/ with the fix: `ctest -L fuzz` replays it in every build.
#   scripts/fuzz.sh [SECONDS]
#   FUZZ_BUILD_DIR=dir JOBS=n scripts/fuzz.sh 600
# Needs clang++ and libFuzzer (Debian: apt-get install clang libclang-rt-14-dev); the ordinary build
# (scripts/setup.sh) does not.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-2}
if ! command -v clang++ >/dev/null; then
  echo "[fuzz] clang++ is not installed: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi

echo "[fuzz] configuring $BUILD: clang++, libFuzzer, address and undefined-behaviour sanitizers"
# Without the SystemC model: the image targets compile the two loaders' sources themselves.
mkdir -p "$BUILD"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DTORX_FUZZ=ON \
  -DTORX_BUILD_TESTS=OFF -DTORX_BUILD_MODELS=OFF >"$BUILD/configure.log" 2>&1 ||
  { cat "$BUILD/configure.log"; exit 2; }
targets=(fuzz_schedule fuzz_forwarding_tables fuzz_routing_image fuzz_barrier_image fuzz_plot fuzz_large_input)
echo "[fuzz] building ${targets[*]} (and torx, image_seeds for the seeds) with $JOBS jobs"
cmake --build "$BUILD" -j "$JOBS" --target torx image_seeds "${targets[@]}"

corpus=$BUILD/corpus
mkdir -p "$corpus"/{fuzz_schedule,fuzz_forwarding_tables,fuzz_routing_image,fuzz_barrier_image,fuzz_plot,fuzz_large_input}.{seeds,work} "$BUILD/artifacts"
echo "[fuzz] seeding the corpora"
# Small schedules of every algorithm and collective, as `torx schedule` writes them.
for spec in "ring 8" "ring 6" "direct 3x3" "direct 3x3 --mesh" "t1 4x4" "t4 8x8" "c1 4x4x4" "tseng-dd 3x5" \
            "suh 4x4" "suh 4x6 --mesh" "dimak-a2 3x3" "dimak-a3 3x3 --mesh" "tsay-wang 3x3" "tsay-wang 4x4" \
            "ms-hc 4x4" "ms-one 4x4"; do
  set -- $spec
  "$BUILD/bin/torx" schedule "$1" --topo "$2" ${3:-} -o "$corpus/fuzz_schedule.seeds/$1_$2${3:-}.sched" 2>/dev/null
done
cp testbenches/fuzz/seeds/schedule/* "$corpus/fuzz_schedule.seeds/"
# Forwarding tables of every gossip planner in 2D and 3D, with and without a prologue, as
# `torx tables -o` writes them, and the checked-in ones (damaged files among them).
for spec in "ms-hc 3x3" "ms-hc 4x4" "ms-hc 5x6" "ms-hc 3x4x5" "ms-hc-steps 5x6" "ms-hc-hd 6x6" "ms-one 4x4" \
            "ms-one 6x9" "ms-one 3x3x3"; do
  set -- $spec
  "$BUILD/bin/torx" tables "$1" --topo "$2" -o "$corpus/fuzz_forwarding_tables.seeds/$1_$2.tab" >/dev/null 2>&1
done
cp testbenches/fuzz/seeds/tables/* "$corpus/fuzz_forwarding_tables.seeds/"
"$BUILD/bin/image_seeds" "$corpus/fuzz_routing_image.seeds" "$corpus/fuzz_barrier_image.seeds"
# Result documents of the step model (torx plot steps) and traffic documents come from the checked-in
# seeds (this build has no cycle model to write link traffic), with the recipes of the large inputs.
"$BUILD/bin/torx" run ring --topo 8 --json "$corpus/fuzz_plot.seeds/ring_8.json" >/dev/null 2>&1
"$BUILD/bin/torx" run t4 --topo 8x8 --json "$corpus/fuzz_plot.seeds/t4_8x8.json" >/dev/null 2>&1
cp testbenches/fuzz/seeds/plot/* "$corpus/fuzz_plot.seeds/"
cp testbenches/fuzz/seeds/large/* "$corpus/fuzz_large_input.seeds/"

status=0
for t in "${targets[@]}"; do
  extra=()
  [[ $t == fuzz_schedule ]] && extra=(-dict=testbenches/fuzz/schedule.dict)
  [[ $t == fuzz_forwarding_tables ]] && extra=(-dict=testbenches/fuzz/tables.dict)
  [[ $t == fuzz_plot ]] && extra=(-dict=testbenches/fuzz/plot.dict)
  # A recipe may expand to 1 GiB read byte by byte under the sanitizers: seconds, not a hang.
  [[ $t == fuzz_large_input ]] && extra=(-timeout=60)
  echo "[fuzz] $t for $SECS s"
  log=$BUILD/$t.log
  if "$BUILD/bin/$t" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$BUILD/artifacts/$t-" "${extra[@]}" "$corpus/$t.work" "$corpus/$t.seeds" >"$log" 2>&1; then
    echo "[fuzz] $t: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}') inputs, no failure;" \
         "corpus $(ls "$corpus/$t.work" | wc -l) + $(ls "$corpus/$t.seeds" | wc -l) seeds"
  else
    status=1
    echo "[fuzz] $t FAILED (log: $log):"
    grep -E "ERROR|SUMMARY|Test unit written|runtime error|internal error|refused|differs" "$log" | head -20
  fi
done
exit $status
