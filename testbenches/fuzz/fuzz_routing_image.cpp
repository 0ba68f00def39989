// SPDX-License-Identifier: Apache-2.0
// Fuzz target: RoutingUnit::load (models/routing_table.cpp) on arbitrary word arrays for small
// topologies (layout: image_input.hpp). A load either throws sw::InputError or yields a table whose
// every lookup is in range: for every destination and route class, route() ejects, reports the
// table's "no route" entry, or names an existing network port and VC class.
#include <cstdio>
#include <cstdlib>

#include "image_input.hpp"
#include "models/routing_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace torx;
  const auto in = fuzz::decode_image_input(data, size);
  if (!in) return 0;
  const sw::Topology topo(in->radix, !in->mesh);
  const sw::NodeId node = static_cast<sw::NodeId>(in->node % static_cast<uint32_t>(topo.nodes()));
  model::RoutingImage image = in->words;
  if (in->reseal && !image.empty()) model::seal_routing_image(image);
  model::RoutingUnit unit;
  try {
    unit.load(image, topo, node);
  } catch (const sw::InputError&) {
    return 0;
  }
  const int nd = topo.ndims();
  const uint32_t all = (1u << nd) - 1;
  for (sw::NodeId dest = 0; dest < topo.nodes(); ++dest) {
    for (int start = 0; start < nd; ++start) {
      for (uint32_t mask : {0u, all, in->option & all}) {
        model::Flit head;
        head.dest = dest;
        head.start_dim = static_cast<uint8_t>(start);
        head.neg_mask = mask;
        const auto r = unit.route(head);
        if (r.eject || r.invalid) continue;
        if (r.port >= 2 * nd || r.vc_class >= unit.vc_classes()) {
          std::fprintf(stderr, "route to %d (start %d, mask %u): port %d, class %d out of range\n", dest, start, mask,
                       r.port, r.vc_class);
          std::abort();
        }
      }
    }
  }
  return 0;
}
