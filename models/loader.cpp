// SPDX-License-Identifier: Apache-2.0
#include "models/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>

#include "core/checker.hpp"

namespace torx::model {

void validate_cycle_options(const CycleOptions& opt) {
  if (opt.sync == "local" || opt.sync == "priority" || opt.sync == "software")
    throw sw::InputError(fmt::format("--sync {}: not available in the cycle model yet (use barrier or none)", opt.sync));
  if (opt.sync != "barrier" && opt.sync != "none")
    throw sw::InputError(fmt::format("--sync {}: must be none, barrier, local, priority or software", opt.sync));
  if (opt.block_bytes == 0) throw sw::InputError("--block-bytes must be at least 1");
  if (opt.block_bytes > (1u << 20)) throw sw::InputError("--block-bytes: the cycle model takes blocks up to 1 MiB");
  if (opt.flit_bytes == 0 || opt.flit_bytes > kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the cycle model carries 1 to {} bytes per flit", opt.flit_bytes,
                                     kMaxFlitBytes));
}

CycleNetwork::CycleNetwork(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt, bool connect)
    : schedule_(schedule), topo_(topo), opt_(opt) {
  validate_cycle_options(opt_);
  validate(opt_.params, topo_);
  const sw::ScheduleHeader& h = schedule.header;
  if (sw::Topology(h.dims, h.wrap) != topo_)
    throw sw::InputError(fmt::format("the schedule is for the {} but the run is on the {}",
                                     sw::Topology(h.dims, h.wrap).to_string(), topo_.to_string()));
  const sw::PortModel ports = opt_.ports.value_or(h.ports);
  space_ = std::make_unique<sw::BlockSpace>(h.collective, topo_, h.pieces, h.root);

  // Routing configuration: dateline classes on tori; order classes when worms that turn start in
  // different dimensions (their dimension-order dependencies would otherwise form a cycle).
  routing_.dateline_classes = topo_.wrap() && opt_.params.dateline ? 2 : 1;
  routing_.all_port = ports == sw::PortModel::kAll;
  if (opt_.params.order_classes > 0) {
    routing_.order_classes = opt_.params.order_classes;
  } else {
    int first_start = -1;
    bool mixed = false;
    for (const sw::Step& st : schedule.steps)
      for (const sw::Message& m : st.messages) {
        int dims = 0;
        for (int d = 0; d < topo_.ndims(); ++d) dims += topo_.coord_of(m.src, d) != topo_.coord_of(m.dst, d);
        if (dims < 2) continue;
        if (first_start < 0) first_start = m.route.start_dim;
        else if (first_start != m.route.start_dim) mixed = true;
      }
    routing_.order_classes = mixed ? topo_.ndims() : 1;
  }
  NetworkParams params = opt_.params;
  params.order_classes = routing_.order_classes;
  validate(params, topo_);

  ProgramOptions po;
  po.block_bytes = opt_.block_bytes;
  po.flit_bytes = opt_.flit_bytes;
  po.barriers = opt_.sync == "barrier";
  po.ports = ports;
  program_ = std::make_unique<Program>(schedule, topo_, *space_, po);
  memory_ = std::make_unique<NodeMemory>(*space_, opt_.block_bytes, opt_.seed);

  FabricSpec spec;
  spec.params = params;
  spec.ports = ports;
  spec.ts_cycles = opt_.ts_cycles;
  spec.flit_bytes = opt_.flit_bytes;
  spec.block_bytes = opt_.block_bytes;
  spec.routing.reserve(static_cast<size_t>(topo_.nodes()));
  for (sw::NodeId v = 0; v < topo_.nodes(); ++v) spec.routing.push_back(build_routing_image(topo_, v, routing_));
  spec.barrier = build_barrier_tree(topo_);
  fabric_ = std::make_unique<Fabric>(topo_, std::move(spec), program_.get(), memory_.get());
  check_routes();
  if (connect) fabric_->connect_all();
}

void CycleNetwork::check_routes() const {
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
      const RoutingUnit::Result res = fabric_->router(v).routing().route(head);
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
  if (fabric_->run() != RunStatus::kDone) throw sw::WatchdogError(fabric_->stall_report());
}

uint64_t CycleNetwork::predicted_cycles() const {
  // docs/cycle-model.md: on an idle network a message of F flits over h links, issued in cycle s,
  // has its last block stored at the end of cycle s + t_s + F + h (L + P) + 2 L_loc + P - 1; every
  // node issues a step's sends in the cycle the barrier before it releases, B cycles after the last
  // node entered it, and a node enters in the cycle its last receive of the phase is stored.
  const NetworkParams& p = fabric_->spec().params;
  const uint64_t per_hop = static_cast<uint64_t>(p.link_latency + p.router_latency);
  const uint64_t c = 2 * static_cast<uint64_t>(p.local_latency) + p.router_latency;
  const uint64_t B = static_cast<uint64_t>(fabric_->barrier_latency());
  const std::vector<uint32_t>& barriers = program_->barrier_steps();
  std::vector<uint64_t> span(program_->steps(), 0);  // 0: no messages
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    span[r.step] = std::max(span[r.step], opt_.ts_cycles + r.flits + r.hops * per_hop + c);
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

void CycleNetwork::fill_report(sw::RunReport& rep, double wall_seconds) const {
  const Fabric& f = *fabric_;
  const RunStats& st = f.stats();
  rep.cycles = st.last_store;
  rep.check = sw::check_delivery(*memory_);
  rep.sim.wall_seconds = wall_seconds;
  rep.sim.router_cycles = f.cycle() * static_cast<uint64_t>(topo_.nodes());
  rep.sim.flit_hops = f.flit_hops();
  rep.sim.peak_rss_bytes = sw::peak_rss_bytes();
  sw::CycleFigures c;
  c.params = param_values(f.spec().params);
  c.predicted_cycles = predicted_cycles();
  c.barriers = program_->barrier_steps().size();
  c.barrier_latency = static_cast<uint64_t>(f.barrier_latency());
  for (uint32_t k = 0; k < program_->steps(); ++k) {
    c.step_start.push_back(st.step_first_issue[k] == UINT64_MAX ? -1 : static_cast<int64_t>(st.step_first_issue[k]));
    c.step_end.push_back(st.step_end[k] == 0 ? -1 : static_cast<int64_t>(st.step_end[k]));
  }
  c.link_flits = f.link_flits();
  c.blocked_cycles = f.blocked_vc_cycles();
  c.injection_stall_cycles = st.injection_stall_cycles;
  c.mean_buffer_flits = f.cycle() ? static_cast<double>(f.buffer_flit_cycles()) / static_cast<double>(f.cycle()) : 0.0;
  c.max_vc_occupancy = f.max_vc_occupancy();
  uint64_t evals = 0;
  for (sw::NodeId v = 0; v < topo_.nodes(); ++v) evals += f.router(v).stats().evaluations;
  c.router_evaluations = evals;
  c.threads = f.threads();
  rep.cycle_model = std::move(c);
}

}  // namespace torx::model
