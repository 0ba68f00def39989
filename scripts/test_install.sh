#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The installed package, as a user gets it (ctest label install; docs/api.md, "Installing"):
# installs the build into a temporary prefix, copies testbenches/examples to a temporary directory
# (so nothing can reach the source tree), configures each example with find_package(torx) from that
# prefix only, builds it and runs it; then checks torx.pc with pkg-config by building example (a)
# without CMake.
#   scripts/test_install.sh BUILD_DIR EXAMPLES_DIR
set -eu
build=$1
examples=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torx-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
cp -r "$examples" "$tmp/examples"
launcher=
if command -v ccache > /dev/null; then launcher=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
for ex in transpose tlm_exchange rtl_transpose; do
  echo "== $ex"
  cmake -S "$tmp/examples/$ex" -B "$tmp/build/$ex" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$tmp/prefix" \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF $launcher > "$tmp/$ex.configure.log" || { cat "$tmp/$ex.configure.log"; exit 1; }
  cmake --build "$tmp/build/$ex" -j2 > "$tmp/$ex.build.log" 2>&1 || { cat "$tmp/$ex.build.log"; exit 1; }
  SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/build/$ex/$ex"
done
echo "== pkg-config"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
echo "torx $(pkg-config --modversion torx)"
# shellcheck disable=SC2046
${CXX:-c++} -O1 -o "$tmp/transpose-pc" "$tmp/examples/transpose/main.cpp" $(pkg-config --cflags --libs torx)
"$tmp/transpose-pc" | tail -1
