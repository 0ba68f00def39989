// SPDX-License-Identifier: Apache-2.0
#include "models/check.hpp"
#include "models/router.hpp"

#include <fmt/format.h>

namespace torx::model {

namespace {
constexpr uint64_t bit(int i) { return uint64_t{1} << i; }
uint16_t requester_id(int port, int vc) { return static_cast<uint16_t>(port * 64 + vc); }
}  // namespace

Router::Router(const RouterConfig& cfg, const RoutingImage& table, const sw::Topology& topo, NetworkCounters* counters,
               Arena& arena, Scheduler* sched)
    : counters_(counters), sched_(sched), cfg_(cfg) {
  set_self_waking(true);
  routing_.load(table, topo, cfg.node);
  vc_classes_ = routing_.vc_classes();
  const int np = 2 * cfg.ndims;
  nports_ = np + cfg.local_ports;
  depth_ = cfg.buffer_depth;
  TORX_MODEL_CHECK(nports_ <= 64, "router radix above 64 ports");
  const int net_vcs = vc_classes_ * cfg.vcs_per_class;
  TORX_MODEL_CHECK(net_vcs <= 64, "more than 64 VCs per port");
  // Hot registers first and together (ports, VC registers), then the buffer RAM, then the views.
  port_ = arena.make<RouterPort>(static_cast<size_t>(nports_));
  int total = 0;
  for (int p = 0; p < nports_; ++p) {
    port_[p].first_vc = static_cast<uint16_t>(total);
    port_[p].vcs = static_cast<uint8_t>(p < np ? net_vcs : 1);
    total += port_[p].vcs;
  }
  in_vc_ = arena.make<InputVc>(static_cast<size_t>(total));
  out_vc_ = arena.make<OutputVc>(static_cast<size_t>(total));
  in_ram_ = arena.make<Flit>(static_cast<size_t>(total) * depth_);
  in_ = arena.make<InputUnit>(static_cast<size_t>(nports_));
  out_ = arena.make<OutputUnit>(static_cast<size_t>(nports_));
  for (int p = 0; p < nports_; ++p) {
    const int f = port_[p].first_vc;
    in_[p].configure(&in_vc_[f], &in_ram_[static_cast<size_t>(f) * depth_], port_[p].vcs, depth_, cfg.payload_words);
    out_[p].configure(&out_vc_[f], port_[p].vcs, depth_);
  }
  sw_alloc_.configure(port_, nports_);
  vc_alloc_.configure(port_, cfg.vcs_per_class);
}

void Router::fail_order(int port, const Flit& f, uint32_t worm) const {
  throw std::logic_error(fmt::format("internal error: router {} input {}: flit of message {} inside the worm of "
                                     "message {} (wormhole order broken)",
                                     cfg_.node, port_name(port, true), f.msg, worm));
}

void Router::route_head(int port, InputVc& r, const Flit& head) {
  if (!head.head())
    throw std::logic_error(fmt::format("internal error: router {} input {} VC: flit {} of message {} reached the "
                                       "front of an idle VC without a head (wormhole order broken)",
                                       cfg_.node, port_name(port, true), head.seq, head.msg));
  const RoutingUnit::Result res = routing_.route(head);
  int o = 0, cls = 0;
  if (res.invalid)
    throw std::logic_error(fmt::format("internal error: router {}: the routing table has no route for message {} "
                                       "to node {}",
                                       cfg_.node, head.msg, head.dest));
  if (res.eject) {
    const int np = network_ports();
    o = np + (cfg_.local_ports > 1 && port < np ? port : 0);
  } else {
    o = res.port;
    cls = res.vc_class;
    if (!port_[o].out_link)
      throw std::logic_error(fmt::format("internal error: router {}: the routing table sends message {} to port {}, "
                                         "which has no link",
                                         cfg_.node, head.msg, port_name(o, false)));
    TORX_MODEL_CHECK(cls < vc_classes_, "VC class out of range");
  }
  r.out_port_q = static_cast<uint8_t>(o);
  r.out_class_q = static_cast<uint8_t>(cls);
  r.msg_q = head.msg;
  r.state_q = VcState::kWaitVc;
}

void Router::evaluate(uint64_t now) {
  ++stats_.evaluations;
  stats_.blocked_vc_cycles += slept_blocked(now);
  last_eval_ = now;
  changed_ = false;
  uint32_t blocked = 0;

  // 1. Credits that reach this router in this cycle can be spent in this cycle.
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) {
    const int o = __builtin_ctzll(m);
    Link* l = port_[o].out_link;
    OutputVc* ovc = out_vc_ + port_[o].first_vc;
    while (l->credit_ready(now)) {
      const int v = l->take_credit().vc;
      TORX_MODEL_CHECK(v < port_[o].vcs && ovc[v].credits_q < depth_, "credit beyond the downstream buffer");
      ++ovc[v].credits_q;
      changed_ = true;
    }
  }

  // 2a. Route computation and VC allocation for heads; input stage of the switch allocator: each
  // input port offers one VC whose front flit is due and holds an output VC with a credit. The
  // non-empty VCs are found from the VC registers.
  uint64_t requested = 0;
  uint64_t occupied = 0;
  for (int p = 0; p < nports_; ++p) {
    RouterPort& port = port_[p];
    InputVc* regs = in_vc_ + port.first_vc;
    const int nv = port.vcs;
    bool offered = false;
    const int vstart = port.vc_rr_q;
    for (int j = 0, v = vstart; j < nv; ++j, v = (v + 1 == nv ? 0 : v + 1)) {
      InputVc& r = regs[v];
      if (r.tail_acquire() == r.head_q) continue;
      const Flit& f = in_ram_[(static_cast<size_t>(port.first_vc) + v) * depth_ + r.head_slot];
      // Still on the link or in the pipeline: the link woke this router for the cycle it is due.
      // (Only VCs with a due front keep the router awake, so a flit published in this cycle by a
      // block of the other lane cannot change what the router does: scheduler.hpp, "Two lanes".)
      if (f.due > now) continue;
      occupied |= bit(p);
      if (r.state_q != VcState::kActive) {
        // A head at the front: route computation (once), then VC allocation (until it succeeds).
        // A failed request changes nothing, so a router whose heads all wait sleeps.
        if (r.state_q == VcState::kIdle) route_head(p, r, f);
        const RouterPort& out = port_[r.out_port_q];
        const int ov = vc_alloc_.allocate(out_vc_ + out.first_vc, out.vcs, r.out_port_q, r.out_class_q, requester_id(p, v));
        if (ov < 0) {
          ++blocked;
          continue;
        }
        r.state_q = VcState::kActive;
        r.out_vc_q = static_cast<uint8_t>(ov);
        changed_ = true;
      }
      const int o = r.out_port_q;
      if (offered || out_vc_[port_[o].first_vc + r.out_vc_q].credits_q <= 0) {
        ++blocked;
        continue;
      }
      offered = true;
      port.offer_vc = static_cast<uint8_t>(v);
      RouterPort& op = port_[o];
      if (!(requested & bit(o))) {
        op.request = 0;
        op.requests = 0;
      }
      op.request |= bit(p);
      ++op.requests;
      requested |= bit(o);
    }
  }

  // 2b/3. Output stage and switch traversal: each requested output grants one input; the flit
  // leaves on its output VC and its slot's credit goes upstream, both in this cycle.
  const int np = network_ports();
  for (uint64_t m = requested; m; m &= m - 1) {
    const int o = __builtin_ctzll(m);
    RouterPort& op = port_[o];
    const int p = sw_alloc_.arbitrate(o, op.request);
    blocked += op.requests - 1u;  // the losers wait
    RouterPort& ip = port_[p];
    const int v = ip.offer_vc;
    InputVc& r = in_vc_[ip.first_vc + v];
    const Flit& f = in_ram_[(static_cast<size_t>(ip.first_vc) + v) * depth_ + r.head_slot];
    const int ov = r.out_vc_q;
    if (__builtin_expect(f.msg != r.msg_q, 0)) fail_order(p, f, r.msg_q);
    sw_alloc_.grant(p, v, o);
    OutputVc& out = out_vc_[op.first_vc + ov];
    op.out_link->send_flit(now, f, static_cast<uint8_t>(ov), out.tail_slot);
    out.tail_slot = op.out_link->next_slot(out.tail_slot);
    --out.credits_q;
    ip.in_link->send_credit(now, Credit{static_cast<uint8_t>(v)});
    if (f.tail()) {
      r.state_q = VcState::kIdle;
      out.owner_q = kVcFree;
    }
    // Pop, after the last read of f (its slot may be rewritten from now on). The occupancy figure
    // (network ports; entries before the pop, counting flits still on the link) leaves out a flit
    // the upstream router sent in this very cycle: whether it is visible yet depends on evaluation
    // order and lanes (scheduler.hpp), so counting it would make the figure depend on them.
    if (p < np) {
      uint32_t before = r.tail_acquire() - r.head_q;
      if (before > max_occupancy_ && before > 1) {
        const Flit& last = in_ram_[(static_cast<size_t>(ip.first_vc) + v) * depth_ + (r.head_slot + before - 1) % depth_];
        if (last.due >= now + ip.in_link->latency()) --before;  // sent in this cycle
      }
      if (before > max_occupancy_) max_occupancy_ = before;
    }
    r.head_slot = static_cast<uint16_t>(r.head_slot + 1 == depth_ ? 0 : r.head_slot + 1);
    r.advance_head();
    --counters_[tl_lane].flits_in_buffers;
    if (o < np) ++stats_.flit_hops;
    else ++stats_.flits_ejected;
    ++counters_[tl_lane].flit_moves;
    changed_ = true;
  }
  stats_.blocked_vc_cycles += blocked;
  blocked_last_ = blocked;
  // A router whose state did not change would evaluate identically next cycle: it sleeps until a
  // flit becomes due or a credit reaches it (both wake it).
  awake_ = changed_ && occupied != 0;
  if (awake_) sched_->wake(clock_id());
}

void Router::prefetch(int stage) const {
  if (stage == 1) {
    __builtin_prefetch(this);
    __builtin_prefetch(port_);
    __builtin_prefetch(reinterpret_cast<const char*>(port_) + 64);
    __builtin_prefetch(in_vc_);
    __builtin_prefetch(reinterpret_cast<const char*>(in_vc_) + 64);
    __builtin_prefetch(reinterpret_cast<const char*>(in_vc_) + 128);
    __builtin_prefetch(out_vc_);
    return;
  }
  if (stage == 3) {
    // The downstream buffers the front flits of worms in flight will be written into.
    for (int p = 0; p < nports_; ++p) {
      const RouterPort& port = port_[p];
      for (int v = 0; v < port.vcs; ++v) {
        const InputVc& r = in_vc_[port.first_vc + v];
        if (r.tail_relaxed() != r.head_q && r.state_q == VcState::kActive) {
          const RouterPort& out = port_[r.out_port_q];
          out.out_link->prefetch_sink(r.out_vc_q, out_vc_[out.first_vc + r.out_vc_q].tail_slot);
        }
      }
    }
    return;
  }
  // The buffer slots at the fronts of the non-empty VCs; for worms in flight the output link (where
  // the flit goes) and the input link (where its credit goes); the credit lines arriving now.
  for (int p = 0; p < nports_; ++p) {
    const RouterPort& port = port_[p];
    for (int v = 0; v < port.vcs; ++v) {
      const InputVc& r = in_vc_[port.first_vc + v];
      if (r.tail_relaxed() == r.head_q) continue;
      __builtin_prefetch(&in_ram_[(static_cast<size_t>(port.first_vc) + v) * depth_ + r.head_slot]);
      if (r.state_q == VcState::kActive) {
        port_[r.out_port_q].out_link->prefetch_flit_path();
        port.in_link->prefetch_credit_path();
      }
    }
  }
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) port_[__builtin_ctzll(m)].out_link->prefetch_credit_path();
}

std::string Router::port_name(int port, bool input) const {
  const int np = network_ports();
  if (port < np) return sw::Topology::port_name(port);
  return fmt::format("{}{}", input ? "inj" : "ej", port - np);
}

std::string Router::wait_reason(int port, int vc) const {
  const InputVc& r = in_[port].vc(vc);
  if (r.count() == 0) return "empty";
  switch (r.state_q) {
    case VcState::kIdle: return "head waiting for route computation";
    case VcState::kWaitVc: {
      const OutputUnit& o = out_[r.out_port_q];
      std::string owners;
      const int base = o.vcs() == 1 ? 0 : r.out_class_q * cfg_.vcs_per_class;
      const int n = o.vcs() == 1 ? 1 : cfg_.vcs_per_class;
      for (int i = 0; i < n; ++i) {
        const uint16_t own = o.vc(base + i).owner_q;
        if (own == kVcFree) continue;
        const InputVc& h = in_[own / 64].vc(own % 64);
        owners += fmt::format("{}VC {} held by message {} (from input {})", owners.empty() ? "" : ", ", base + i, h.msg_q,
                              port_name(own / 64, true));
      }
      return fmt::format("head waiting for a free VC of class {} on output {}{}", r.out_class_q,
                         port_name(r.out_port_q, false), owners.empty() ? "" : ": " + owners);
    }
    case VcState::kActive: {
      const OutputUnit& o = out_[r.out_port_q];
      if (o.vc(r.out_vc_q).credits_q <= 0)
        return fmt::format("waiting for a credit on output {} VC {} (the downstream buffer is full)",
                           port_name(r.out_port_q, false), r.out_vc_q);
      return fmt::format("waiting for the switch to output {} VC {}", port_name(r.out_port_q, false), r.out_vc_q);
    }
  }
  return "?";
}

}  // namespace torx::model
