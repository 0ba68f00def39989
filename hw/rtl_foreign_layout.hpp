// SPDX-License-Identifier: Apache-2.0
// The flit layout a foreign router top (docs/router-interface.md) gets: torx_router's, from the one
// place that computes it (rtl_wires.hpp, FlitLayout), with the tag (SimTag = 1) and no gossip
// extension. Read by the contract check (rtl_foreign.cpp) and the harness
// (verilated_foreign_router.hpp). Before issue 24's layout (FlitLayout::of) the older FlitLayout
// (a fixed 86-bit sideband) is sized from its three fields.
#pragma once

#include "hw/rtl_wires.hpp"
#include "models/router_core.hpp"

namespace torx::rtl {

namespace detail {
template <class L>
auto foreign_layout(const model::RouterShape& s, unsigned max_radix, unsigned flit_bytes, int)
    -> decltype(L::of(s, max_radix, flit_bytes, 0u, true)) {
  return L::of(s, max_radix, flit_bytes, 0u, true);
}
template <class L>
L foreign_layout(const model::RouterShape& s, unsigned max_radix, unsigned flit_bytes, long) {
  L l;
  l.ndims = static_cast<unsigned>(s.ndims);
  l.coord_w = clog2w(max_radix);
  l.flit_bytes = flit_bytes;
  return l;
}
}  // namespace detail

inline FlitLayout foreign_flit_layout(const model::RouterShape& s, unsigned max_radix, unsigned flit_bytes) {
  return detail::foreign_layout<FlitLayout>(s, max_radix, flit_bytes, 0);
}

}  // namespace torx::rtl
