// SPDX-License-Identifier: Apache-2.0
#include "models/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "models/memory_estimate.hpp"
#include "models/network_interface.hpp"

namespace torx::model {

CycleNetwork::CycleNetwork(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt, bool connect,
                           const RouterFactory* routers, const BarrierFactory* barriers)
    : schedule_(schedule), topo_(topo), opt_(opt) {
  check_options();
  const sw::ScheduleHeader& h = schedule.header;
  const sw::PortModel ports = opt_.ports.value_or(h.ports);
  space_ = std::make_unique<sw::BlockSpace>(h.collective, topo_, h.pieces, h.root);
  derive_routing(ports);
  check_memory(ports, /*systemc=*/!connect);
  load_program(ports);
  FabricSpec spec = fabric_spec(ports);
  const EndpointFactory make_endpoints = opt_.gossip ? gossip_endpoints(spec) : endpoints();
  fabric_ = std::make_unique<Fabric>(topo_, std::move(spec), make_endpoints, routers, barriers);
  if (connect) fabric_->connect_all();
}

// The options as the application settled them (app::validate_request): sanity checks only.
void CycleNetwork::check_options() const {
  TORX_CHECK(opt_.cost.block_bytes >= 1 && opt_.cost.block_bytes <= kMaxBlockBytes, "block size out of range");
  TORX_CHECK(opt_.cost.flit_bytes >= 1 && opt_.cost.flit_bytes <= kMaxFlitBytes, "flit size out of range");
  if (opt_.params.priority_levels > 1 && opt_.sync != sw::SyncMode::kPriority)
    throw sw::InputError(fmt::format("priority_levels = {} with sync {}: the routers have priority lanes only under sync "
                                     "priority (set priority_levels = 1)",
                                     opt_.params.priority_levels, sw::sync_mode_name(opt_.sync)));
  sw::validate(opt_.params, topo_);
  const sw::ScheduleHeader& h = schedule_.header;
  if (sw::Topology(h.dims, h.wrap) != topo_)
    throw sw::InputError(fmt::format("the schedule is for the {} but the run is on the {}",
                                     sw::Topology(h.dims, h.wrap).to_string(), topo_.to_string()));
}

// Routing configuration: dateline classes on tori; order classes when worms that turn start in
// different dimensions (their dimension-order dependencies would otherwise form a cycle).
void CycleNetwork::derive_routing(sw::PortModel ports) {
  routing_.dateline_classes = topo_.wrap() && opt_.params.dateline ? 2 : 1;
  routing_.all_port = ports == sw::PortModel::kAll;
  if (opt_.params.order_classes > 0) {
    routing_.order_classes = opt_.params.order_classes;
  } else {
    int first_start = -1;
    bool mixed = false;
    for (const sw::Step& st : schedule_.steps)
      for (const sw::Message& m : st.messages) {
        int dims = 0;
        for (int d = 0; d < topo_.ndims(); ++d) dims += topo_.coord_of(m.src, d) != topo_.coord_of(m.dst, d);
        if (dims < 2) continue;
        if (first_start < 0) first_start = m.route.start_dim;
        else if (first_start != m.route.start_dim) mixed = true;
      }
    routing_.order_classes = mixed ? topo_.ndims() : 1;
  }
  opt_.params.order_classes = routing_.order_classes;  // as run
  sw::validate(opt_.params, topo_);
  sw::validate_priority(opt_.params, topo_);
}

// Memory, estimated before anything large is allocated (memory_estimate.hpp).
// A rank's part (opt_.partition): its node memories (`part_slots` moved blocks) instead of all.
void CycleNetwork::check_memory(sw::PortModel ports, bool systemc, uint64_t part_slots) const {
  MemoryEstimate e = estimate_network(topo_, opt_.params, ports, opt_.cost.flit_bytes,
                                      routing_.dateline_classes * routing_.order_classes, systemc);
  if (opt_.partition) {
    std::vector<uint8_t> owned(static_cast<size_t>(topo_.nodes()), 0);
    uint64_t count = 0;
    for (sw::NodeId v = 0; v < topo_.nodes(); ++v) count += owned[static_cast<size_t>(v)] = opt_.partition->owns(opt_.rank, v);
    add_node_memory_part(e, *space_, opt_.cost.block_bytes, part_slots, count);
    add_program(e, schedule_, *space_, opt_.sync, ports, &owned);
  } else {
    add_node_memory(e, *space_, opt_.cost.block_bytes);
    add_program(e, schedule_, *space_, opt_.sync, ports);
  }
  const sw::MemoryLimit limit = opt_.memory_limit ? *opt_.memory_limit : sw::default_memory_limit();
  sw::require_memory(limit, e.total(), fmt::format("the cycle model of the {}", topo_.to_string()), e.parts());
}

// The node programs, the node memories with every node's own blocks, and the per-step figures.
void CycleNetwork::load_program(sw::PortModel ports) {
  ProgramOptions po;
  po.cost = opt_.cost;
  po.sync = opt_.sync;
  po.ports = ports;
  po.priority_levels = opt_.params.priority_levels;
  program_ = std::make_unique<Program>(schedule_, topo_, *space_, po);
  if (opt_.partition) {
    // A rank's part: the blocks its nodes may hold, counted, estimated (now exactly), then allocated.
    std::vector<uint8_t> owned(static_cast<size_t>(topo_.nodes()), 0);
    for (sw::NodeId v = 0; v < topo_.nodes(); ++v) owned[static_cast<size_t>(v)] = opt_.partition->owns(opt_.rank, v);
    BlockSubset needed = needed_blocks(owned);
    check_memory(ports, /*systemc=*/false, needed.size());
    memory_ = std::make_unique<NodeMemory>(*space_, opt_.cost.block_bytes, opt_.seed, std::move(owned),
                                           std::move(needed));
  } else {
    memory_ = std::make_unique<NodeMemory>(*space_, opt_.cost.block_bytes, opt_.seed);
  }
  const uint32_t steps = program_->steps();
  stats_.step_first_issue.assign(steps, UINT64_MAX);
  stats_.step_end.assign(steps, 0);
  stats_.step_open.assign(steps, 0);
  for (uint32_t m = 0; m < program_->messages(); ++m) ++stats_.step_open[program_->message(m).step];
}

// The moved blocks a rank's nodes may ever hold: their own, those destined to them, and those of
// every message they send or receive (a relay stores what it forwards). Copied blocks: none needed
// (the part is a slot per block and owned node).
BlockSubset CycleNetwork::needed_blocks(const std::vector<uint8_t>& owned) const {
  if (!sw::moves_blocks(space_->collective())) return {};
  const uint64_t u = space_->universe();
  BlockSubset needed(u);
  for (sw::BlockId b = 0; b < u; ++b)
    if (space_->exists(b) && (owned[static_cast<size_t>(space_->source(b))] ||
                              owned[static_cast<size_t>(space_->destination(b))]))
      needed.insert(b);
  std::vector<sw::BlockId> blocks;
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    if (!owned[static_cast<size_t>(r.src)] && !owned[static_cast<size_t>(r.dst)]) continue;
    program_->expand_blocks(m, blocks);
    for (sw::BlockId b : blocks) needed.insert(b);
  }
  needed.seal();
  return needed;
}

// The images the host writes (routing tables, barrier tree, gossip tables), checked against the
// schedule's routes unless a test edits them.
FabricSpec CycleNetwork::fabric_spec(sw::PortModel ports) const {
  FabricSpec spec;
  spec.params = opt_.params;
  spec.ports = ports;
  spec.flit_bytes = opt_.cost.flit_bytes;
  spec.routing.reserve(static_cast<size_t>(topo_.nodes()));
  for (sw::NodeId v = 0; v < topo_.nodes(); ++v) spec.routing.push_back(build_routing_image(topo_, v, routing_));
  spec.barrier = build_barrier_tree(topo_);
  if (opt_.edit_routing) opt_.edit_routing(spec.routing);
  else if (!opt_.gossip) check_routes(spec.routing);
  if (opt_.gossip) {
    // Hardwired gossip: every router forwards by its image; packets of one block each.
    const sw::ScheduleHeader& h = schedule_.header;
    if (h.collective != sw::Collective::kAllgather || ports != sw::PortModel::kAll)
      throw sw::InputError("--gossip-hw: hardwired forwarding runs an all-port allgather (ms-hc, ms-one)");
    spec.gossip = build_gossip_images(*opt_.gossip, topo_);
    if (opt_.edit_gossip) opt_.edit_gossip(spec.gossip);
    spec.gossip_packet_flits = (opt_.cost.block_bytes + opt_.cost.flit_bytes - 1) / opt_.cost.flit_bytes;
  }
  return spec;
}

EndpointFactory CycleNetwork::gossip_endpoints(const FabricSpec& spec) {
  const uint32_t packet_flits = spec.gossip_packet_flits;
  return [this, packet_flits](sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched) {
    GossipInterfaceConfig gc;
    gc.node = v;
    gc.channels = channels;
    gc.cost = opt_.cost;
    gc.packet_flits = packet_flits;
    gc.injection_depth = opt_.params.buffer_depth;
    gc.ejection_depth = opt_.params.buffer_depth;
    gc.expected = static_cast<uint64_t>(topo_.nodes() - 1) * static_cast<uint64_t>(schedule_.header.pieces);
    return std::make_unique<GossipInterface>(gc, *opt_.gossip, topo_, memory_.get(), &gossip_totals_, counters, sched);
  };
}

EndpointFactory CycleNetwork::endpoints() {
  return [this](sw::NodeId v, int channels, NetworkCounters* counters, Scheduler* sched) {
    const sw::NetworkParams& params = opt_.params;
    NiConfig nc;
    nc.node = v;
    nc.channels = channels;
    nc.cost = opt_.cost;
    nc.null_ts = params.null_ts < 0 ? opt_.cost.ts_cycles : static_cast<uint64_t>(params.null_ts);
    nc.injection_depth = params.buffer_depth;
    nc.ejection_depth = params.buffer_depth;
    nc.priority_levels = params.priority_levels;
    nc.priority_reserve = params.priority_reserve;
    return std::make_unique<NetworkInterface>(nc, *program_, memory_.get(), &stats_, counters, sched);
  };
}

NetworkInterface& CycleNetwork::ni(sw::NodeId v) { return static_cast<NetworkInterface&>(fabric_->endpoint(v)); }
const NetworkInterface& CycleNetwork::ni(sw::NodeId v) const {
  return static_cast<const NetworkInterface&>(fabric_->endpoint(v));
}

void CycleNetwork::check_routes(const std::vector<RoutingImage>& images) const {
  std::vector<RoutingUnit> units(static_cast<size_t>(topo_.nodes()));
  for (sw::NodeId v = 0; v < topo_.nodes(); ++v) units[v].load(images[v], topo_, v);
  std::vector<sw::LinkId> want;
  const int np = topo_.ports();
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    const sw::Message& sm = program_->schedule_message(m);
    want.clear();
    topo_.for_each_link(r.src, r.dst, sm.route, [&](sw::LinkId l) { want.push_back(l); });
    Flit head;
    head.kind = kFlitHead;
    head.dest = r.dst;
    head.start_dim = sm.route.start_dim;
    head.neg_mask = sm.route.neg_mask;
    sw::NodeId v = r.src;
    size_t hop = 0;
    while (true) {
      const RoutingUnit::Result res = units[v].route(head);
      if (res.eject) {
        TORX_CHECK(v == r.dst && hop == want.size(), fmt::format("routing tables end message {} at node {}", m, v));
        break;
      }
      const sw::LinkId l = static_cast<sw::LinkId>(v) * np + res.port;
      TORX_CHECK(!res.invalid && hop < want.size() && want[hop] == l,
                 fmt::format("routing tables take message {} off its route {} at node {}", m,
                             topo_.route_string(sm.route), topo_.node_name(v)));
      v = topo_.neighbor(v, sw::Topology::port_dim(res.port), sw::Topology::port_dir(res.port));
      ++hop;
    }
  }
}

void CycleNetwork::run() {
  fabric_->start();
  if (fabric_->run() != RunStatus::kDone) throw sw::WatchdogError(stall_report());
}

uint64_t CycleNetwork::predicted_cycles() const {
  // docs/cycle-model.md: on an idle network a message of F flits over h links, issued in cycle s,
  // has its last block stored at the end of cycle s + t_s + F + h (L + P) + 2 L_loc + P - 1; every
  // node issues a step's sends in the cycle the barrier before it releases, B cycles after the last
  // node entered it, and a node enters in the cycle its last receive of the phase is stored.
  const sw::NetworkParams& p = fabric_->spec().params;
  // (P: the head's cycles in a router, the organization's stages included.)
  const uint64_t per_hop = static_cast<uint64_t>(p.link_latency + sw::router_head_cycles(p));
  const uint64_t c = 2 * static_cast<uint64_t>(p.local_latency) + sw::router_head_cycles(p);
  const uint64_t B = static_cast<uint64_t>(fabric_->barrier_latency());
  const std::vector<uint32_t>& barriers = program_->barrier_steps();
  std::vector<uint64_t> span(program_->steps(), 0);  // 0: no messages
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    span[r.step] = std::max(span[r.step], opt_.cost.ts_cycles + r.flits + r.hops * per_hop + c);
  }
  uint64_t s = 0, entry = 0, end = 0;
  size_t nb = 0;
  for (uint32_t k = 0; k < span.size(); ++k) {
    if (k > 0) {
      const bool barrier = nb < barriers.size() && barriers[nb] == k;
      if (barrier) ++nb;
      s = barrier ? entry + B : entry + 1;
    }
    entry = span[k] ? s + span[k] - 1 : s;
    if (span[k]) end = entry + 1;
  }
  return end;
}

sw::CycleFigures CycleNetwork::result() const {
  const Fabric& f = *fabric_;
  sw::CycleFigures c;
  c.cycles = stats_.last_store;
  if (opt_.gossip) {
    // Hardwired gossip: no steps, no barriers, no schedule executed; the figures of the network.
    c.cycles = gossip_totals_.last_store;
    c.simulated_cycles = f.cycle();
    c.router_cycles = f.cycle() * static_cast<uint64_t>(topo_.nodes());
    c.flit_hops = f.flit_hops();
    c.params = sw::param_values(f.spec().params);
    c.link_flits = f.link_flits();
    c.blocked_cycles = f.blocked_vc_cycles();
    c.mean_buffer_flits = f.cycle() ? static_cast<double>(f.buffer_flit_cycles()) / static_cast<double>(f.cycle()) : 0.0;
    c.max_vc_occupancy = f.max_vc_occupancy();
    c.router_evaluations = f.router_evaluations();
    c.threads = f.threads();
    c.priority_levels = 1;
    c.gossip_hw = true;
    c.gossip_host_sends = gossip_totals_.host_sends;
    c.gossip_router_copies = f.gossip_copies();
    c.gossip_deliveries = gossip_totals_.deliveries;
    c.gossip_steps_equivalent = static_cast<uint64_t>(opt_.gossip->steps);
    return c;
  }
  c.simulated_cycles = f.cycle();
  c.router_cycles = f.cycle() * static_cast<uint64_t>(topo_.nodes());
  c.flit_hops = f.flit_hops();
  c.params = sw::param_values(f.spec().params);
  c.predicted_cycles = predicted_cycles();
  c.barriers = program_->barrier_steps().size();
  c.barrier_latency = static_cast<uint64_t>(f.barrier_latency());
  for (uint32_t k = 0; k < program_->steps(); ++k) {
    c.step_start.push_back(stats_.step_first_issue[k] == UINT64_MAX ? -1 : static_cast<int64_t>(stats_.step_first_issue[k]));
    c.step_end.push_back(stats_.step_end[k] == 0 ? -1 : static_cast<int64_t>(stats_.step_end[k]));
  }
  c.link_flits = f.link_flits();
  c.blocked_cycles = f.blocked_vc_cycles();
  c.injection_stall_cycles = stats_.injection_stall_cycles;
  c.mean_buffer_flits = f.cycle() ? static_cast<double>(f.buffer_flit_cycles()) / static_cast<double>(f.cycle()) : 0.0;
  c.max_vc_occupancy = f.max_vc_occupancy();
  c.router_evaluations = f.router_evaluations();
  c.threads = f.threads();
  for (sw::NodeId v = 0; v < topo_.nodes(); ++v) {
    if (!f.owns(v)) continue;  // a partitioned run: another rank's
    const NetworkInterface::SyncFigures& s = ni(v).sync_figures();
    c.null_messages += s.null_messages;
    c.null_flit_hops += s.null_flit_hops;
    c.sync_wait_cycles += s.wait_cycles;
  }
  c.software_barriers = program_->software_barrier_steps().size();
  c.priority_levels = static_cast<uint64_t>(f.spec().params.priority_levels);
  c.preemptions = f.preemptions();
  c.preempted_cycles = f.preempted_cycles();
  return c;
}

std::string CycleNetwork::stall_report(size_t max_worms) const {
  const Fabric& f = *fabric_;
  std::string s = f.stop_reason().empty() ? std::string("stopped") : f.stop_reason();
  if (opt_.gossip) {
    // Hardwired gossip: packets, not scheduled messages; every packet still in the network, and
    // what each unfinished interface still has to do.
    size_t shown = 0;
    f.visit_flits([&](const Flit& fl, const std::string& place, const std::string& reason) {
      if (!fl.head() || shown >= max_worms) return;
      ++shown;
      s += fmt::format("\n  gossip packet of block {} (age {}) at {}: {}", fl.msg, fl.dest, place, reason);
    });
    for (sw::NodeId v = 0; v < topo_.nodes(); ++v)
      if (f.owns(v) && !f.endpoint(v).finished()) s += "\n  " + f.endpoint(v).describe();
    return s;
  }
  // Locate every flit still in the network: per message the frontmost (lowest index) and the
  // rearmost flit, and where they are.
  struct Where {
    uint32_t seq = 0;
    std::string place;
    std::string reason;
  };
  struct Worm {
    Where head, tail;
    bool seen = false;
  };
  std::map<uint32_t, Worm> worms;
  f.visit_flits([&](const Flit& fl, const std::string& place, const std::string& reason) {
    Worm& w = worms[fl.msg];
    if (!w.seen || fl.seq < w.head.seq) w.head = {fl.seq, place, reason};
    if (!w.seen || fl.seq > w.tail.seq) w.tail = {fl.seq, place, reason};
    w.seen = true;
  });
  size_t shown = 0;
  size_t stuck = 0;
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    // A partitioned run: each rank reports the worms into its own nodes; one from another rank's
    // node only when some of its flits are in this rank's routers (its source is not known here).
    if (!f.owns(r.dst) || ni(r.dst).stored(m)) continue;
    if (f.owns(r.src) ? !ni(r.src).issued(m) : worms.find(m) == worms.end()) continue;
    ++stuck;
    if (shown >= max_worms) continue;
    ++shown;
    const sw::Message& sm = program_->schedule_message(m);
    const uint32_t left = ni(r.src).flits_left(m);
    s += fmt::format("\n  message {} (step {}, {} -> {}, route {}, {} flits):", m, r.step + 1, topo_.node_name(r.src),
                     topo_.node_name(r.dst), topo_.route_string(sm.route), r.flits);
    auto it = worms.find(m);
    if (it == worms.end()) {
      s += left ? fmt::format(" all {} flits still at the source interface (startup or no credit)", left)
                : " no flit in the network";
      continue;
    }
    const Worm& w = it->second;
    s += fmt::format("\n    head: flit {} at {}: {}", w.head.seq, w.head.place, w.head.reason);
    if (left) s += fmt::format("\n    tail: {} flits not yet injected at node {}", left, topo_.node_name(r.src));
    else s += fmt::format("\n    tail: flit {} at {}", w.tail.seq, w.tail.place);
  }
  if (shown < stuck) s += fmt::format("\n  ... and {} more worms", stuck - shown);
  if (stuck == 0) {
    size_t listed = 0;
    for (sw::NodeId v = 0; v < topo_.nodes(); ++v) {
      const Endpoint& e = f.endpoint(v);
      if (!f.owns(v) || e.finished()) continue;
      if (listed++ < 16) s += "\n  " + e.describe();
    }
    if (listed > 16) s += fmt::format("\n  ... and {} more nodes", listed - 16);
  }
  return s;
}

}  // namespace torx::model
