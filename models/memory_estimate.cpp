// SPDX-License-Identifier: Apache-2.0
#include "models/memory_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/memory_limit.hpp"
#include "models/barrier.hpp"
#include "models/link.hpp"
#include "models/network_interface.hpp"
#include "models/program.hpp"
#include "models/router.hpp"
#include "models/routing_table.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

namespace {

// Saturating byte counts: an estimate that does not fit in 64 bits stays UINT64_MAX.
uint64_t add(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}
uint64_t mul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
uint64_t mul(uint64_t a, uint64_t b, uint64_t c) { return mul(mul(a, b), c); }

// One heap allocation of `n` bytes as glibc's malloc lays it out: an 8-byte header, 16-byte
// granules, 32 bytes at least. (Large blocks are mmapped whole pages; the difference is small.)
uint64_t heap(uint64_t n) {
  if (n == 0) return 0;
  if (n > UINT64_MAX - 32) return UINT64_MAX;
  return std::max<uint64_t>(32, (n + 8 + 15) & ~uint64_t{15});
}
// A std::vector of `n` elements of `size` bytes, allocated once (assign/resize).
uint64_t vec(uint64_t n, uint64_t size) { return heap(mul(n, size)); }

// The SystemC elaboration, per object (measured with heaptrack on 2D and 3D tori, one- and
// all-port, libsystemc 2.3.4: each sc_object keeps its name, its place in the object hierarchy and
// the kernel's registries; a port also its binding list; a channel its event and update request).
constexpr uint64_t kScModuleBytes = 2200;   // RouterModule / NiModule, with their port vectors
constexpr uint64_t kScPortBytes = 330;      // an sc_port bound to one channel
constexpr uint64_t kScChannelBytes = 820;   // a LinkChannel (sc_prim_channel) and its name

}  // namespace

uint64_t MemoryEstimate::total() const {
  uint64_t t = 0;
  for (uint64_t p : {routers, links, interfaces, barrier, images, scheduler, node_memory, program, kernel}) t = add(t, p);
  return t;
}

std::string MemoryEstimate::parts() const {
  std::vector<std::pair<uint64_t, const char*>> ps = {
      {routers, "routers"},   {links, "links"},         {interfaces, "network interfaces"},
      {barrier, "barrier"},   {images, "routing images"}, {scheduler, "scheduler"},
      {node_memory, "node memory"}, {program, "program"}, {kernel, "SystemC elaboration"}};
  std::stable_sort(ps.begin(), ps.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string s;
  for (const auto& [bytes, name] : ps)
    if (bytes) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, sw::format_bytes(bytes));
  return s;
}

MemoryEstimate estimate_network(const sw::Topology& topo, const sw::NetworkParams& params, sw::PortModel ports,
                                uint32_t flit_bytes, int vc_classes, bool systemc) {
  MemoryEstimate e;
  const uint64_t n = static_cast<uint64_t>(topo.nodes());
  const int np = topo.ports();
  const uint64_t local = ports == sw::PortModel::kAll ? static_cast<uint64_t>(np) : 1;
  const uint64_t levels = static_cast<uint64_t>(std::max(1, params.priority_levels));
  const uint64_t depth = static_cast<uint64_t>(params.buffer_depth);
  (void)flit_bytes;  // a Flit carries the widest payload whatever the link width (flit.hpp)

  // Router (router.cpp's constructor): the object and its arena allocations, each aligned to at
  // most 64 bytes; then its routing unit's entries (2 per coordinate of every dimension).
  const uint64_t nports = static_cast<uint64_t>(np) + local;
  const uint64_t classes = static_cast<uint64_t>(std::max(1, vc_classes));
  const uint64_t net_vcs = classes * static_cast<uint64_t>(params.vcs_per_class);
  const uint64_t total_vcs = static_cast<uint64_t>(np) * net_vcs + local;
  const uint64_t lanes = total_vcs * levels;
  uint64_t router = sizeof(Router);
  router = add(router, nports * sizeof(RouterPort));
  router = add(router, lanes * sizeof(InputVc));
  router = add(router, total_vcs * sizeof(OutputVc));
  router = add(router, lanes * sizeof(uint16_t));
  if (levels > 1) router = add(router, total_vcs * (levels - 1) * sizeof(uint16_t));
  router = add(router, mul(lanes, depth, sizeof(Flit)));
  router = add(router, nports * (sizeof(InputUnit) + sizeof(OutputUnit)));
  router = add(router, lanes * sizeof(VaRequest));
  router = add(router, nports * classes * sizeof(VaPointers));
  router = add(router, 10 * 32);  // alignment of the ten arena allocations
  uint64_t radices = 0;
  for (int d = 0; d < topo.ndims(); ++d) radices += static_cast<uint64_t>(topo.radix(d));
  router = add(router, vec(2 * radices, sizeof(uint16_t)));
  router = add(router, heap(32));  // its name
  e.routers = mul(n, router);

  // Links: every network link that exists, and one injection and one ejection link per channel; a
  // credit line longer than its inline slots goes to the heap.
  uint64_t net_links = 0;
  for (int d = 0; d < topo.ndims(); ++d) {
    const uint64_t r = static_cast<uint64_t>(topo.radix(d));
    net_links += 2 * (topo.wrap() ? r : r - 1) * (n / r);
  }
  const uint64_t all_links = add(net_links, 2 * n * local);
  uint64_t link = sizeof(Link);
  uint64_t cap = 1;
  while (cap < static_cast<uint64_t>(params.credit_latency) + 1) cap <<= 1;
  if (cap > LatencyLine<Credit>::kInline) link = add(link, vec(cap, sizeof(uint64_t)) + vec(cap, sizeof(Credit)));
  e.links = mul(all_links, link);

  // Network interfaces: the object, one injection and one ejection channel per port channel (a lane
  // per level), each ejection lane with its buffer of depth flits.
  uint64_t ni = heap(sizeof(NetworkInterface));
  ni = add(ni, vec(local, 128));                           // injection channels
  ni = add(ni, vec(local * levels, 96));                   // ejection channels
  ni = add(ni, vec(local, sizeof(InputUnit)));             // ejection buffers
  ni = add(ni, vec(local * levels, sizeof(InputVc)));
  ni = add(ni, vec(mul(local * levels, depth), sizeof(Flit)));
  ni = add(ni, heap(sizeof(void*) * 4));                   // the endpoint factory's closure
  e.interfaces = mul(n, ni);

  // Barrier units: the object, its image (3 words), its child list, its wires.
  e.barrier = mul(n, add(heap(sizeof(BarrierUnit)), heap(3 * sizeof(uint32_t)) + heap(np * sizeof(void*))));

  // Images the fabric keeps: one routing image per node (header, radices, 2 entries per coordinate,
  // checksum) and one barrier image per node.
  const uint64_t words = 4 + static_cast<uint64_t>(topo.ndims()) + 2 * radices + 1;
  e.images = mul(n, add(add(vec(words, sizeof(uint32_t)), 24), add(vec(3, sizeof(uint32_t)), 24)));

  // Scheduler and fabric indexes: three blocks per node (router, interface, barrier unit), each in
  // the block list (which doubles as it grows) and a bit in every lane's wheel; per node the
  // fabric's pointers to its blocks and to its network links.
  const uint64_t blocks = 3 * n;
  e.scheduler = add(mul(blocks, 2 * sizeof(void*) + 2), mul(kMaxLanes * Scheduler::kWheel, (blocks + 63) / 64, 8));
  e.scheduler = add(e.scheduler, mul(n, 5 * sizeof(void*) + static_cast<uint64_t>(np) * sizeof(void*)));

  if (systemc) {
    // Per node a router module and an interface module; a port at each end of every link; a
    // channel per link.
    e.kernel = add(mul(2 * n, kScModuleBytes), add(mul(2 * all_links, kScPortBytes), mul(all_links, kScChannelBytes)));
  }
  return e;
}

void add_node_memory(MemoryEstimate& e, const sw::BlockSpace& space, uint32_t block_bytes) {
  // node_memory.cpp: payload slots of whole 8-byte words and a state byte per slot; the personalized
  // collectives one slot and an owner word per block, the copy collectives a slot per (block, node).
  const uint64_t stride = (static_cast<uint64_t>(block_bytes) + 7) / 8 * 8;
  const uint64_t u = space.universe();
  if (sw::moves_blocks(space.collective())) {
    e.node_memory = add(e.node_memory, mul(u, stride + 1 + sizeof(uint32_t)));
  } else {
    const uint64_t slots = mul(u, static_cast<uint64_t>(space.topology().nodes()));
    e.node_memory = add(e.node_memory, mul(slots, stride + 1));
  }
}

void add_node_memory_part(MemoryEstimate& e, const sw::BlockSpace& space, uint32_t block_bytes, uint64_t slots,
                          uint64_t owned_nodes) {
  // node_memory.cpp, a rank's part: moved blocks through a BlockSubset of the network's blocks (a
  // bit and an eighth of a byte per block) and, per block the rank's nodes may hold, an owner word,
  // a flags byte and an arrival count byte; payload only for the blocks moving (one per injection
  // and ejection channel of an owned node at the most, all-port: 2n + 1 each way; a hash entry
  // each) in chunks of 1024 slots; copied blocks a slot per (block, owned node).
  const uint64_t stride = (static_cast<uint64_t>(block_bytes) + 7) / 8 * 8;
  const uint64_t u = space.universe();
  if (sw::moves_blocks(space.collective())) {
    const uint64_t channels = 2 * (2 * static_cast<uint64_t>(space.topology().ndims()) + 1);
    const uint64_t moving = add(mul(owned_nodes, channels), 1024);
    e.node_memory = add(e.node_memory, add(add(u / 8 + u / 64 + 16, mul(slots, sizeof(uint32_t) + 2)),
                                           mul(moving, stride + 64)));
  } else {
    e.node_memory = add(e.node_memory, mul(mul(u, owned_nodes), stride + 1));
  }
}

void add_program(MemoryEstimate& e, const sw::Schedule& schedule, const sw::BlockSpace& space, sw::SyncMode sync,
                 sw::PortModel ports, const std::vector<uint8_t>* owned) {
  // program.cpp: a record, a send entry, a receive entry and its step, and a gate row per message
  // (while it is built, an empty gate list per message too); row starts per node; the interfaces'
  // done flag per receive. Local synchronization adds a wait per message and its signals; software
  // barriers a signal per node and round of every barrier.
  const sw::Topology& topo = space.topology();
  const uint64_t n = static_cast<uint64_t>(topo.nodes());
  uint64_t msgs = 0, barriers = 0;
  // The interfaces expand a message's block list when they send it (twice: the next send, and the
  // injection channel streaming it) and when they receive it (once per ejection channel busy with
  // it): per node the largest message it sends and the largest it receives, in block ids.
  std::vector<uint64_t> send_max(n, 0), recv_max(n, 0);
  for (size_t k = 0; k < schedule.steps.size(); ++k) {
    const sw::Step& step = schedule.steps[k];
    msgs = add(msgs, step.messages.size());
    if (k > 0 && step.sync == sw::SyncMark::kBarrier) ++barriers;
    for (const sw::Message& m : step.messages) {
      const uint64_t b = sw::message_blocks(space, step, m);
      send_max[static_cast<size_t>(m.src)] = std::max(send_max[static_cast<size_t>(m.src)], b);
      recv_max[static_cast<size_t>(m.dst)] = std::max(recv_max[static_cast<size_t>(m.dst)], b);
    }
  }
  const uint64_t channels = ports == sw::PortModel::kAll ? static_cast<uint64_t>(topo.ports()) : 1;
  uint64_t lists = 0;
  for (uint64_t v = 0; v < n; ++v)
    if (!owned || (*owned)[static_cast<size_t>(v)])
      lists = add(lists, add(mul(2, vec(send_max[v], sizeof(sw::BlockId))), mul(channels, vec(recv_max[v], sizeof(sw::BlockId)))));
  uint64_t p = mul(msgs, sizeof(MessageRecord) + 4 * sizeof(uint32_t) + 1 + 3 * sizeof(void*));
  p = add(p, mul(n + 1, 6 * sizeof(uint32_t)));
  if (sync == sw::SyncMode::kLocal) p = add(p, mul(msgs, sizeof(uint32_t) + 2 * (sizeof(SignalRecord) + 8)));
  if (sync == sw::SyncMode::kSoftware) {
    uint64_t rounds = 0;
    while ((uint64_t{1} << rounds) < n) ++rounds;
    p = add(p, mul(mul(barriers, rounds, n), sizeof(SignalRecord) + 2 * sizeof(uint32_t) + 1));
  }
  e.program = add(e.program, p);
  e.interfaces = add(e.interfaces, lists);
}

}  // namespace torx::model
