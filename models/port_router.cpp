// SPDX-License-Identifier: Apache-2.0
#include "models/port_router.hpp"

#include <fmt/format.h>

#include "models/check.hpp"

namespace torx::model {

RouterPortCore::RouterPortCore(const RouterConfig& cfg, const RoutingImage& image, const sw::Topology& topo) {
  router_.emplace(cfg, image, topo, nullptr, arena_, nullptr);
}

RouterConfig CppRouterFactory::config(sw::NodeId v, const RouterShape& shape) const {
  RouterConfig cfg = base_;
  cfg.node = v;
  cfg.shape = shape;
  return cfg;
}

std::unique_ptr<RouterCore> CppRouterFactory::make(sw::NodeId v, const RouterShape& shape, const RoutingImage& image,
                                                   const sw::Topology& topo) const {
  return std::make_unique<RouterPortCore>(config(v, shape), image, topo);
}

std::unique_ptr<RouterCore> CppRouterFactory::make_gossip(sw::NodeId v, const RouterShape& shape,
                                                          const RoutingImage& image, const GossipImage& gossip,
                                                          const sw::Topology& topo) const {
  RouterConfig cfg = config(v, shape);
  cfg.gossip = &gossip;  // read while the router loads it
  return std::make_unique<RouterPortCore>(cfg, image, topo);
}

PortRouter::PortRouter(sw::NodeId node, const std::string& name, std::unique_ptr<RouterCore> core,
                       NetworkCounters* counters, Scheduler* sched)
    : node_(node), core_(std::move(core)), counters_(counters), sched_(sched), shape_(core_->shape()) {
  set_self_waking(true);
  set_name(name);
  const int n = shape_.ports();
  const int k = shape_.priority_levels;
  const int lanes = shape_.total_lanes();
  const int depth = shape_.buffer_depth;
  in_link_.assign(static_cast<size_t>(n), nullptr);
  out_link_.assign(static_cast<size_t>(n), nullptr);
  stage_regs_.resize(static_cast<size_t>(lanes));
  stage_ram_.resize(static_cast<size_t>(lanes) * depth);
  stage_.resize(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    const int f = shape_.first_vc(p) * k;
    stage_[p].configure(&stage_regs_[f], &stage_ram_[static_cast<size_t>(f) * depth], shape_.vcs(p), depth,
                        shape_.payload_words, 0, k);
  }
  out_tail_.assign(static_cast<size_t>(lanes), 0);
  shadow_.resize(static_cast<size_t>(lanes));
  for (Shadow& s : shadow_) s.ids.assign(static_cast<size_t>(depth), 0);
  in_.resize(static_cast<size_t>(n));
  out_.resize(static_cast<size_t>(n));
}

void PortRouter::connect_input(int port, Link* link) {
  in_link_[port] = link;
  link->attach(stage_[port].sink(clock_id(), counters_));
}

void PortRouter::connect_output(int port, Link* link) { out_link_[port] = link; }

void PortRouter::evaluate(uint64_t now, int lane) {
  ++stats_.evaluations;
  if (stacked_ && now > last_eval_ + 1) preempted_cycles_ += uint64_t{stacked_} * (now - last_eval_ - 1);
  last_eval_ = now;
  const int n = shape_.ports();
  const int np = shape_.network_ports();
  // Input wires: the flit that reaches each input in this cycle, the credit that reaches each output.
  for (int p = 0; p < n; ++p) {
    PortWires& w = in_[p];
    w.flit_valid = false;
    w.credit_valid = false;
    InputUnit& st = stage_[p];
    for (int v = 0; v < st.lanes(); ++v) {
      if (st.vc(v).count() == 0 || st.front(v).due > now) continue;
      TORX_MODEL_CHECK(st.front(v).due == now, "a flit reached a port-level router after its arrival cycle");
      TORX_MODEL_CHECK(!w.flit_valid, "two flits on one link in one cycle");
      w.flit_valid = true;
      copy_flit(w.flit, st.front(v), shape_.payload_words);
      Shadow& sh = shadow_[static_cast<size_t>(shape_.first_vc(p) * shape_.priority_levels + v)];
      TORX_MODEL_CHECK(sh.count < sh.ids.size(), "more flits inside a router than its buffer holds");
      sh.ids[(sh.head + sh.count++) % sh.ids.size()] = uint64_t{w.flit.msg} << 32 | w.flit.seq;
      st.pop(v);
    }
  }
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) {
    const int o = __builtin_ctzll(m);
    Link* l = out_link_[o];
    if (!l->credit_ready(now)) continue;
    const Credit c = l->take_credit();
    TORX_MODEL_CHECK(!l->credit_ready(now), "two credits on one link in one cycle");
    in_[o].credit_valid = true;
    in_[o].credit_vc = c.vc;
  }

  // A pipelined core's flits in its traversal registers won the switch in the last cycle; those for
  // a network output count as in the downstream buffer from then on, as the fast path counts them
  // (its link takes them at the switch allocation). Their links count them from now on.
  counters_[lane].flits_in_buffers -= st_network_;
  core_->cycle(now, in_.data(), out_.data());
  st_network_ = core_->traversing();
  counters_[lane].flits_in_buffers += st_network_;

  // Output wires onto the links.
  const int k = shape_.priority_levels;
  uint64_t left[64];  // the flits that left in this cycle (msg << 32 | seq): which lanes they left
  int nleft = 0;
  for (int o = 0; o < n; ++o) {
    const PortWires& w = out_[o];
    if (!w.flit_valid) continue;
    Link* l = out_link_[o];
    TORX_MODEL_CHECK(l != nullptr, "a router sent a flit to an output without a link");
    TORX_MODEL_CHECK(w.flit.vc < shape_.vcs(o), "a router sent a flit on a VC its output does not have");
    TORX_MODEL_CHECK(w.flit.priority < k, "a router sent a flit of a level it does not have");
    left[nleft++] = uint64_t{w.flit.msg} << 32 | w.flit.seq;
    uint16_t& slot = out_tail_[static_cast<size_t>((shape_.first_vc(o) + w.flit.vc) * k + w.flit.priority)];
    l->send_flit(now, lane, w.flit, w.flit.vc, slot);
    slot = l->next_slot(slot);
    ++counters_[lane].flit_moves;
    if (o < np) ++stats_.flit_hops;
    else ++stats_.flits_ejected;
    if (w.flit.tail()) ++(o < np ? tails_forwarded_ : tails_ejected_);
  }
  for (int p = 0; p < n; ++p) {
    const PortWires& w = out_[p];
    if (!w.credit_valid) continue;
    TORX_MODEL_CHECK(w.credit_vc < shape_.vcs(p), "a router returned a credit for a VC its input does not have");
    const int v = w.credit_vc;
    // The lane of VC v whose front flit left in this cycle (one flit per input port and cycle).
    Shadow* found = nullptr;
    int li = 0;  // the lane within the port
    if (shape_.traversal_stage()) {
      // The flit left its lane in this cycle but leaves the router in the next: one level (the
      // pipelined organizations run without priority lanes), so the lane is the VC.
      TORX_MODEL_CHECK(k == 1, "a pipelined router with priority lanes");
      found = &shadow_[static_cast<size_t>(shape_.first_vc(p) + v)];
      TORX_MODEL_CHECK(found->count > 0, "a router returned a credit for an empty buffer");
      li = v;
    }
    for (int q = 0; q < k && !found; ++q) {
      Shadow& c = shadow_[static_cast<size_t>((shape_.first_vc(p) + v) * k + q)];
      for (int i = 0; i < nleft && !found; ++i)
        if (c.count && c.ids[c.head] == left[i]) {
          found = &c;
          li = v * k + q;
        }
    }
    TORX_MODEL_CHECK(found != nullptr, "a router returned a credit for a buffer no flit left");
    Shadow& sh = *found;
    if (p < np && shape_.gossip_packet_flits == 0) {
      // Occupancy as the C++ router counts it (router.cpp): entries of the lane before the departure,
      // counting flits on the link, but not one sent in this very cycle (its gossip cycle counts none).
      const InputUnit& st = stage_[p];
      const uint32_t staged = st.vc(li).count();
      uint32_t before = staged + sh.count;
      if (before > max_occupancy_ && before > 1 && staged > 0 &&
          st.at(li, staged - 1).due >= now + in_link_[p]->due_offset())
        --before;
      if (before > max_occupancy_) max_occupancy_ = before;
    }
    sh.head = static_cast<uint32_t>((sh.head + 1) % sh.ids.size());
    --sh.count;
    in_link_[p]->send_credit(now, lane, Credit{static_cast<uint8_t>(v)});
    --counters_[lane].flits_in_buffers;
  }
  stats_.blocked_vc_cycles += core_->blocked();
  preemptions_ += core_->preempted_last();
  stacked_ = core_->stacked();
  preempted_cycles_ += stacked_;
  awake_ = !core_->quiescent();
  if (awake_) sched_->wake(lane, clock_id());
}

std::string PortRouter::wait_reason(const RouterSnapshot& s, int port, int vc) const {
  // A router with no named registers (someone else's RTL, docs/router-interface.md) says nothing
  // about why a flit waits.
  if (std::string(core_->kind()) == "foreign") return "in the router's buffer (a foreign router: no registers to read)";
  const int k = shape_.priority_levels;
  const int i = shape_.first_vc(port) * k + vc;  // vc: a lane of the port
  const auto field = [&](size_t f, int k) { return s.fields[f].values[static_cast<size_t>(k)]; };
  const int64_t state = field(RouterSnapshot::kIvcState, i);
  if (state == 0) return "head waiting for route computation (or still in the input pipeline)";
  const int o = static_cast<int>(field(RouterSnapshot::kIvcOutPort, i));
  if (state == 1) {
    const int cls = static_cast<int>(field(RouterSnapshot::kIvcOutClass, i));
    const int n = shape_.vcs(o) == 1 ? 1 : shape_.vcs_per_class;
    const int base = shape_.vcs(o) == 1 ? 0 : cls * shape_.vcs_per_class;
    std::string owners;
    for (int j = 0; j < n; ++j) {
      const int64_t own = field(RouterSnapshot::kOvcOwner, shape_.first_vc(o) + base + j);
      if (own < 0) continue;
      int op = 0;
      while (op + 1 < shape_.ports() && shape_.first_vc(op + 1) * k <= own) ++op;
      const Shadow& sh = shadow_[static_cast<size_t>(own)];
      const std::string who = sh.count ? fmt::format("message {}", sh.ids[sh.head] >> 32) : "a worm";
      owners += fmt::format("{}VC {} held by {} (from input {})", owners.empty() ? "" : ", ", base + j, who,
                            port_name(op, true));
    }
    return fmt::format("head waiting for a free VC of class {} on output {}{}", cls, port_name(o, false),
                       owners.empty() ? "" : ": " + owners);
  }
  const int ov = static_cast<int>(field(RouterSnapshot::kIvcOutVc, i));
  if (field(RouterSnapshot::kOvcOwner, shape_.first_vc(o) + ov) != i)
    return fmt::format("preempted on output {} VC {} by a worm of a higher priority", port_name(o, false), ov);
  if (field(RouterSnapshot::kOvcCredits, shape_.first_vc(o) + ov) <= (k - 1 - vc % k) * shape_.priority_reserve)
    return fmt::format("waiting for a credit on output {} VC {} (the downstream buffer is full)", port_name(o, false), ov);
  return fmt::format("waiting for the switch to output {} VC {}", port_name(o, false), ov);
}

void PortRouter::visit_flits(uint64_t now, const FlitVisitor& visit) const {
  RouterSnapshot snap;
  core_->snapshot(snap);
  for (int p = 0; p < shape_.ports(); ++p) {
    const InputUnit& st = stage_[p];
    for (int v = 0; v < st.lanes(); ++v) {
      const Shadow& sh = shadow_[static_cast<size_t>(shape_.first_vc(p) * shape_.priority_levels + v)];
      Flit f;
      for (uint32_t i = 0; i < sh.count; ++i) {
        const uint64_t id = sh.ids[(sh.head + i) % sh.ids.size()];
        f.msg = static_cast<uint32_t>(id >> 32);
        f.seq = static_cast<uint32_t>(id);
        const std::string place =
            fmt::format("router {} input {} VC {}{}", name(), port_name(p, true), v, i ? fmt::format(" (slot {})", i) : "");
        const uint64_t first = sh.ids[sh.head];
        visit(f, place,
              i == 0 ? wait_reason(snap, p, v)
                     : fmt::format("behind flit {} of message {} in the same buffer", static_cast<uint32_t>(first),
                                   first >> 32));
      }
      for (uint32_t i = 0; i < st.vc(v).count(); ++i)
        visit(st.at(v, i), fmt::format("the link into router {} input {}", name(), port_name(p, true)),
              now < st.at(v, i).due ? "in flight on the link" : "arrived");
    }
  }
}

}  // namespace torx::model
