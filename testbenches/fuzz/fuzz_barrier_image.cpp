// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the BarrierUnit constructor (models/barrier.cpp) on arbitrary word arrays for small
// topologies (layout: image_input.hpp), then the wiring the fabric does with an accepted image
// (configure_wires at a barrier hop latency of 1 to 1024, the range of --param
// barrier_hop_latency). An image is refused with sw::InputError or accepted with a parent port and
// child mask that exist and lead to neighbours.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "image_input.hpp"
#include "models/barrier.hpp"
#include "models/scheduler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace torx;
  const auto in = fuzz::decode_image_input(data, size);
  if (!in) return 0;
  const sw::Topology topo(in->radix, !in->mesh);
  const sw::NodeId node = static_cast<sw::NodeId>(in->node % static_cast<uint32_t>(topo.nodes()));
  const model::BarrierImage image = in->words;
  std::unique_ptr<model::BarrierUnit> unit;
  try {
    unit = std::make_unique<model::BarrierUnit>(node, image, topo);
  } catch (const sw::InputError&) {
    return 0;
  }
  const int ports = topo.ports();
  if (unit->parent_port() < -1 || unit->parent_port() >= ports || (unit->child_mask() >> ports) != 0) {
    std::fprintf(stderr, "accepted image: parent port %d, child mask %#x on %d ports\n", unit->parent_port(),
                 unit->child_mask(), ports);
    std::abort();
  }
  for (int p = 0; p < ports; ++p) {
    if (!((unit->child_mask() >> p) & 1u) && p != unit->parent_port()) continue;
    if (topo.neighbor(node, sw::Topology::port_dim(p), sw::Topology::port_dir(p)) < 0) {
      std::fprintf(stderr, "accepted image uses port %d, which has no neighbour\n", p);
      std::abort();
    }
  }
  model::Scheduler sched;
  sched.add(unit.get());
  unit->configure_wires(&sched, 1 + (in->option % 128) * 8);
  return 0;
}
