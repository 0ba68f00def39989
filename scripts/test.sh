#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command: set up (install, configure, build; with the synthesis flow, so that
# ctest -L synth runs it), then run every test with ctest.
# Extra arguments go to ctest, e.g. scripts/test.sh -L sw
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --synth
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
