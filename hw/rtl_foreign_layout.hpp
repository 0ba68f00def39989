// SPDX-License-Identifier: Apache-2.0
// The flit layout a foreign router top (docs/router-interface.md) gets: torx_router's, from the one
// place that computes it (rtl_wires.hpp, FlitLayout::of), with the simulation tag (SimTag = 1) and
// no gossip extension. Read by the contract check (rtl_foreign.cpp) and the harness
// (verilated_foreign_router.hpp).
#pragma once

#include "hw/rtl_wires.hpp"
#include "models/router_core.hpp"

namespace torx::rtl {

inline FlitLayout foreign_flit_layout(const model::RouterShape& s, unsigned max_radix, unsigned flit_bytes) {
  return FlitLayout::of(s, max_radix, flit_bytes, /*ext_w=*/0, /*sim_tag=*/true);
}

}  // namespace torx::rtl
