#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An installed torx builds its RTL models from its own prefix (issue 22 item 4; docs/rtl.md, "Models
# on demand"): install the build tree to a temporary prefix, run one RTL shape there with an empty
# cache and no TORX_RTL_KIT, and check that the model was built from PREFIX/share/torx/rtl and gives
# the figures of the cycle model. Usage: test_rtl_install.sh CMAKE BUILD_DIR
set -eu
cmake_bin=$1
build=$2
prefix=$(mktemp -d /tmp/torx_install_XXXXXX)
trap 'rm -rf "$prefix"' EXIT
"$cmake_bin" --install "$build" --prefix "$prefix" > "$prefix/install.log"
test -f "$prefix/share/torx/rtl/rtl_factory.cpp.in"
test -f "$prefix/share/torx/rtl/sv/torx_router.sv"
test -f "$prefix/share/torx/rtl/include/hw/verilated_router.hpp"
run() { env -u TORX_RTL_KIT -u TORX_RTL_CACHE "$prefix/bin/torx" --rtl-cache "$prefix/cache" "$@"; }
run run direct --topo 3 --model rtl --sync none --json "$prefix/rtl.json" 2> "$prefix/rtl.err" > /dev/null
grep -q "Verilating r1d" "$prefix/rtl.err"
"$prefix/bin/torx" run direct --topo 3 --model cycle --sync none --json "$prefix/cycle.json" > /dev/null
run rtl list --json > "$prefix/list.json"
python3 - "$prefix" <<'PY'
import json, sys
p = sys.argv[1]
entries = json.load(open(p + "/list.json"))["entries"]
# The ring's router and its barrier unit (built whatever --sync says: the fabric has them).
assert sorted(e["name"] for e in entries) == ["b1", "r1d"], entries
for e in entries:
    assert e["valid"] and e["kit"] == p + "/share/torx/rtl", e
a, b = json.load(open(p + "/cycle.json")), json.load(open(p + "/rtl.json"))
assert a["cycles"] == b["cycles"] and a["cycle_model"]["link_flits"] == b["cycle_model"]["link_flits"], (a["cycles"], b["cycles"])
print("installed torx built", ", ".join(e["name"] for e in entries), "from", entries[0]["kit"] + ";", b["cycles"],
      "cycles as the cycle model")
PY
