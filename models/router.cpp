// SPDX-License-Identifier: Apache-2.0
#include "models/router.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "models/check.hpp"

namespace torx::model {

namespace {
constexpr uint64_t bit(int i) { return uint64_t{1} << i; }
}  // namespace

// The fast path's I/O: credits from the output links' credit lines, flits and credits onto links.
// St: the organization's switch-traversal stage (0 single, 1 lookahead and classic): a flit that wins
// the switch in cycle t is pushed onto its link in t + St (the link stamps it from that cycle).
template <int St, bool Multi>
struct Router::LinkIo {
  static constexpr bool kPortMode = false;
  Router& r;
  uint64_t now;
  int lane;

  template <class Add>
  void credits(Add&& add) {
    for (uint64_t m = Link::credit_bits(r.credit_mask_); m; m &= m - 1) {
      const int o = __builtin_ctzll(m);
      r.port_[o].out_link->take_credits(now, [&](const Credit& c) { add(o, c.vc); });
    }
  }
  void send_flit(int o, const Flit& f, int ov) {
    RouterPort& op = r.port_[o];
    uint16_t& tail = r.out_tail_[Multi ? (op.first_vc + ov) * r.levels_ + f.priority : op.first_vc + ov];
    op.out_link->send_flit(now + St, lane, f, static_cast<uint8_t>(ov), tail);
    tail = op.out_link->next_slot(tail);
  }
  // A flit out of an input buffer of this router onto output o (the traversal): one move; the
  // buffer count drops only if the receiver's buffer is not counted (Link::forward_flit).
  void forward(int o, const Flit& f, int ov) {
    RouterPort& op = r.port_[o];
    uint16_t& tail = r.out_tail_[Multi ? (op.first_vc + ov) * r.levels_ + f.priority : op.first_vc + ov];
    NetworkCounters& c = r.counters_[lane];
    if (!op.out_link->forward_flit(now + St, lane, f, static_cast<uint8_t>(ov), tail)) --c.flits_in_buffers;
    ++c.flit_moves;
  }
  void send_credit(int p, int v) { r.port_[p].in_link->send_credit(now, lane, Credit{static_cast<uint8_t>(v)}); }
  void left_buffer() {
    --r.counters_[lane].flits_in_buffers;
    ++r.counters_[lane].flit_moves;
  }
};

// Port mode's I/O: one cycle's wires (router_core.hpp). In a pipelined organization a flit that
// wins the switch goes into the output's traversal register (st_*), driven out in the next cycle.
struct Router::PortIo {
  static constexpr bool kPortMode = true;
  const PortWires* in;
  PortWires* out;
  int ports;
  Router* r;

  template <class Add>
  void credits(Add&& add) {
    for (int o = 0; o < ports; ++o)
      if (in[o].credit_valid) add(o, in[o].credit_vc);
  }
  void send_flit(int o, const Flit& f, int ov) {
    Flit* d = &out[o].flit;
    if (r->org_ != Pipeline::kSingle && r->cfg_.mutation != RouterMutation::kTraversalBypass) {
      d = &r->st_flit_[o];
      r->st_valid_ |= bit(o);
    } else {
      out[o].flit_valid = true;
    }
    *d = f;
    d->vc = static_cast<uint8_t>(ov);
    d->due = 0;
  }
  void forward(int o, const Flit& f, int ov) { send_flit(o, f, ov); }
  void send_credit(int p, int v) {
    out[p].credit_valid = true;
    out[p].credit_vc = static_cast<uint8_t>(v);
  }
  void left_buffer() {}
};

Router::Router(const RouterConfig& cfg, const RoutingImage& table, const sw::Topology& topo, NetworkCounters* counters,
               Arena& arena, Scheduler* sched)
    : counters_(counters), sched_(sched), cfg_(cfg) {
  set_self_waking(true);
  set_name(topo.node_name(cfg.node));
  org_ = cfg.shape.organization;
  if (org_ == Pipeline::kLookahead) {
    // The lookahead image: this node's table, then the neighbours' in port order (routing_table.hpp).
    const size_t words = routing_image_words(topo);
    size_t need = words;
    for (int p = 0; p < topo.ports(); ++p) need += topo.neighbor(cfg.node, p) >= 0 ? words : 0;
    if (table.size() != need)
      throw sw::InputError(fmt::format("lookahead routing image of node {}: {} words, the {} needs {} (its own table "
                                       "and each neighbour's)",
                                       topo.node_name(cfg.node), table.size(), topo.to_string(), need));
    routing_.load(RoutingImage(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(words)), topo, cfg.node);
    la_routing_.resize(static_cast<size_t>(topo.ports()));
    size_t at = words;
    for (int p = 0; p < topo.ports(); ++p) {
      const sw::NodeId n = topo.neighbor(cfg.node, p);
      if (n < 0) continue;
      la_routing_[p].load(RoutingImage(table.begin() + static_cast<std::ptrdiff_t>(at),
                                       table.begin() + static_cast<std::ptrdiff_t>(at + words)),
                          topo, n);
      at += words;
    }
  } else {
    routing_.load(table, topo, cfg.node);
  }
  shape_ = cfg.shape;
  shape_.vc_classes = routing_.vc_classes();
  shape_.gossip_packet_flits = 0;  // set below in gossip mode
  nports_ = shape_.ports();
  depth_ = shape_.buffer_depth;
  TORX_MODEL_CHECK(nports_ <= 64, "router radix above 64 ports");
  TORX_MODEL_CHECK(shape_.network_vcs() <= 64, "more than 64 VCs per port");
  TORX_MODEL_CHECK(shape_.pipeline >= 1, "a router has at least one stage");
  TORX_MODEL_CHECK(org_ == Pipeline::kSingle || shape_.priority_levels == 1,
                   "priority lanes run with the single organization only");
  TORX_MODEL_CHECK(org_ == Pipeline::kSingle || !cfg.gossip, "gossip mode runs with the single organization only");
  levels_ = shape_.priority_levels;
  TORX_MODEL_CHECK(levels_ >= 1 && levels_ <= 16, "priority levels out of range");
  TORX_MODEL_CHECK(shape_.network_vcs() * levels_ <= 64, "more than 64 lanes per port");
  TORX_MODEL_CHECK(shape_.buffer_depth > (levels_ - 1) * shape_.priority_reserve,
                   "the throttle leaves the lowest level no slot");
  for (int q = 0; q < levels_; ++q) reserve_[q] = (levels_ - 1 - q) * shape_.priority_reserve;
  const int total = shape_.total_vcs();
  const int lanes = shape_.total_lanes();
  TORX_MODEL_CHECK(lanes < kVcFree, "too many input lanes for 16-bit owner registers");
  // Hot registers first and together (ports, lane registers), then the buffer RAM, then the views.
  port_ = arena.make<RouterPort>(static_cast<size_t>(nports_));
  for (int p = 0; p < nports_; ++p) {
    port_[p].first_vc = static_cast<uint16_t>(shape_.first_vc(p));
    port_[p].vcs = static_cast<uint8_t>(shape_.vcs(p));
    port_[p].lanes = static_cast<uint8_t>(shape_.vcs(p) * levels_);
  }
  in_vc_ = arena.make<InputVc>(static_cast<size_t>(lanes));
  out_vc_ = arena.make<OutputVc>(static_cast<size_t>(total));
  out_tail_ = arena.make<uint16_t>(static_cast<size_t>(lanes));
  stack_ = levels_ > 1 ? arena.make<uint16_t>(static_cast<size_t>(total) * (levels_ - 1)) : nullptr;
  in_ram_ = arena.make<Flit>(static_cast<size_t>(lanes) * depth_);
  in_ = arena.make<InputUnit>(static_cast<size_t>(nports_));
  out_ = arena.make<OutputUnit>(static_cast<size_t>(nports_));
  va_req_ = arena.make<VaRequest>(static_cast<size_t>(lanes));
  va_ptr_ = arena.make<VaPointers>(static_cast<size_t>(nports_) * shape_.vc_classes);
  if (org_ != Pipeline::kSingle) {
    st_flit_ = arena.make<Flit>(static_cast<size_t>(nports_));
    st_lane_ = arena.make<uint16_t>(static_cast<size_t>(nports_));
  }
  for (int p = 0; p < nports_; ++p) {
    const int f = port_[p].first_vc;
    in_[p].configure(&in_vc_[f * levels_], &in_ram_[static_cast<size_t>(f) * levels_ * depth_], port_[p].vcs, depth_,
                     shape_.payload_words, static_cast<uint32_t>(shape_.pipeline), levels_);
    out_[p].configure(&out_vc_[f], port_[p].vcs, depth_, levels_, stack_ ? &stack_[f * (levels_ - 1)] : nullptr,
                      &out_tail_[f * levels_]);
  }
  sw_alloc_.configure(port_, nports_);
  vc_alloc_.configure(va_ptr_, shape_.vc_classes, shape_.vcs_per_class, lanes, levels_);
  if (cfg.gossip) {
    TORX_MODEL_CHECK(levels_ == 1, "gossip mode runs without priority levels");
    gossip_.load(*cfg.gossip, topo, cfg.node);
    gossip_mode_ = true;
    gossip_flits_ = cfg.shape.gossip_packet_flits;
    shape_.gossip_packet_flits = cfg.shape.gossip_packet_flits;
    // Store-and-forward with double buffering: a packet is forwarded while the next one arrives
    // behind it (the seed's lock step: one packet per link per step). With room for one packet only,
    // a ring of full buffers each waiting for the next deadlocks. (The application sizes the buffers:
    // app::params_as_run.)
    TORX_MODEL_CHECK(static_cast<uint32_t>(depth_) >= 2 * gossip_flits_, "gossip buffers below two packets");
    gossip_targets_ = arena.make<uint64_t>(static_cast<size_t>(lanes));
  }
}

void Router::reset() {
  for (int p = 0; p < nports_; ++p) {
    in_[p].reset();
    out_[p].reset();
    RouterPort& port = port_[p];
    port.request = 0;
    port.sa_in_rr_q = port.sa_out_rr_q = port.offer_vc = port.request_level = 0;
  }
  for (int i = 0; i < nports_ * shape_.vc_classes; ++i) va_ptr_[i] = VaPointers{};
  credit_mask_ = 0;
  occupied_ = 0;
  blocked_last_ = 0;
  preempted_now_ = 0;
  awake_ = false;
  gossip_rr_q_ = 0;
  st_valid_ = 0;
}

bool Router::quiescent() const {
  if (st_valid_) return false;
  for (int i = 0; i < shape_.total_lanes(); ++i)
    if (in_vc_[i].count()) return false;
  return true;
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
  const int np = network_ports();
  if (res.eject) {
    o = np + (cfg_.shape.local_ports > 1 && port < np ? port : 0);
  } else {
    o = res.port;
    cls = res.vc_class;
    TORX_MODEL_CHECK(cls < shape_.vc_classes, "VC class out of range");
  }
  r.out_port_q = static_cast<uint8_t>(o);
  r.out_class_q = static_cast<uint8_t>(cls);
  r.msg_q = head.msg;
  r.state_q = VcState::kWaitVc;
}

void Router::la_route_head(int port, InputVc& r, const Flit& head) {
  const int np = network_ports();
  if (port >= np || !head.head()) {
    route_head(port, r, head);  // an injected head: this router's table (input stage P - 1)
    return;
  }
  if (head.la_port == kLaNone)
    throw std::logic_error(fmt::format("internal error: router {}: the upstream router found no route for message {} "
                                       "to node {} in this router's table",
                                       cfg_.node, head.msg, head.dest));
  int o = 0, cls = 0;
  if (head.la_port == kLaEject) {
    o = np + (cfg_.shape.local_ports > 1 ? port : 0);
  } else {
    o = head.la_port;
    cls = head.la_class;
    TORX_MODEL_CHECK(o < np && cls < shape_.vc_classes, "lookahead route out of range");
  }
  r.out_port_q = static_cast<uint8_t>(o);
  r.out_class_q = static_cast<uint8_t>(cls);
  r.msg_q = head.msg;
  r.state_q = VcState::kWaitVc;
}

void Router::la_write(Flit& h, int o) const {
  if (o >= network_ports()) {
    h.la_port = 0;
    h.la_class = 0;
    return;
  }
  const RoutingUnit& unit = cfg_.mutation == RouterMutation::kLookaheadOwnTable ? routing_ : la_routing_[o];
  const RoutingUnit::Result res = unit.route(h);
  h.la_port = res.invalid ? kLaNone : res.eject ? kLaEject : res.port;
  h.la_class = res.invalid || res.eject ? 0 : res.vc_class;
}

// What the route/ready stage leaves for the allocation stages. (The arrays are not initialised: a
// port's entries are written when the port is visited, and only visited ports are read.)
struct Router::Fronts {
  uint64_t ready[64];        // per input port: the lanes that can move, all of one level
  uint8_t ready_level[64];   // ... and that level (the highest among them)
  uint64_t requested = 0;    // outputs some input asks for (switch allocator, output stage)
  uint64_t deferred = 0;     // ports that asked for an output VC: they offer after VC allocation
  int nreq = 0;              // VC requests in va_req_
  // Lookahead: outputs asked for speculatively, and per such output the input ports asking.
  uint64_t spec_requested = 0;
  uint64_t spec_req[64];
  // Classic: due heads that completed their RC or VA stage in this cycle (not blocked: a stage of
  // the pipeline, not a wait).
  uint32_t progressed = 0;
};

template <class Io>
[[gnu::always_inline]] inline bool Router::take_credits(Io& io) {
  bool changed = false;
  io.credits([&](int o, int v) {
    out_[o].credit(v);
    changed = true;
  });
  return changed;
}

// Only ports holding flits are visited. A lane is ready when it is ACTIVE, owns its output VC (it
// is not preempted) and the throttle lets its level through; a new head gets its route and asks for
// an output VC. A port whose lanes asked for no output VC offers its ready lane to the switch at
// once; the others offer after the VC allocation has added its grants (allocate_vcs).
template <Pipeline Org, bool Multi>
[[gnu::always_inline]] inline void Router::scan_fronts(uint64_t now, Fronts& fr, uint32_t& due) {
  due = 0;
  const int K = lanes_per_vc<Multi>();
  const auto out_port_of = [this, K](int p) {
    const InputVc* regs = in_vc_ + port_[p].first_vc * K;
    return [regs](int v) { return regs[v].out_port_q; };
  };
  for (uint64_t pm = __atomic_load_n(&occupied_, __ATOMIC_ACQUIRE); pm; pm &= pm - 1) {
    const int p = __builtin_ctzll(pm);
    const RouterPort& port = port_[p];
    const int first_lane = port.first_vc * K;
    InputVc* regs = in_vc_ + first_lane;
    uint64_t rdy = 0;
    int top = 0;  // the highest level among the ready lanes
    const int asked = fr.nreq;
    uint64_t spec = 0;  // lookahead: heads asking for a VC, each may ask for the switch speculatively
    for (int v = 0, q = 0; v < port.lanes; ++v, q = (!Multi || q + 1 == K ? 0 : q + 1)) {
      InputVc& r = regs[v];
      if (r.tail_acquire() == r.head_q) continue;
      const Flit& f = in_ram_[(static_cast<size_t>(first_lane) + v) * depth_ + r.head_slot];
      // Still on the link or in the input pipeline: the link woke this router for the cycle it is
      // due. (Only due fronts keep the router awake, so a flit published in this cycle by a block of
      // the other lane cannot change what the router does: scheduler.hpp, "Two lanes".)
      if (f.due > now) continue;
      ++due;
      if (r.state_q == VcState::kActive) {
        const OutputVc& ov = out_vc_[port_[r.out_port_q].first_vc + r.out_vc_q];
        if (ov.owner_q == first_lane + v && ov.credits_q > (Multi ? reserve_[q] : 0)) {
          if (Multi && q > top) {
            rdy = 0;
            top = q;
          }
          if (!Multi || q == top) rdy |= bit(v);
        }
        continue;
      }
      if (r.state_q == VcState::kIdle) {
        if constexpr (Org == Pipeline::kLookahead) {
          la_route_head(p, r, f);
        } else {
          route_head(p, r, f);
          if constexpr (Org == Pipeline::kClassic) {
            ++fr.progressed;
            // RC in this cycle, VA from the next (the mutant, port mode only, asks at once).
            if (__builtin_expect(cfg_.mutation != RouterMutation::kClassicRcVaMerged, 1)) continue;
          }
        }
      }
      va_req_[fr.nreq++] = VaRequest{static_cast<uint16_t>(first_lane + v), static_cast<uint8_t>(p),
                                     static_cast<uint8_t>(v), r.out_port_q, r.out_class_q, static_cast<uint8_t>(q), 0};
      if constexpr (Org == Pipeline::kLookahead) spec |= bit(v);
    }
    fr.ready[p] = rdy;
    fr.ready_level[p] = static_cast<uint8_t>(top);
    if constexpr (Org == Pipeline::kSingle) {
      if (fr.nreq != asked) fr.deferred |= bit(p);
      else if (rdy) sw_alloc_.offer(p, rdy, top, out_port_of(p), fr.requested);
    } else {
      (void)asked;
      if (rdy) {
        sw_alloc_.offer(p, rdy, top, out_port_of(p), fr.requested);  // non-speculative first
      } else if (spec) {
        // Speculative: the first VC-requesting head at or after the input-stage pointer.
        const int v = first_from(spec, port.sa_in_rr_q);
        port_[p].offer_vc = static_cast<uint8_t>(v);
        const int o = regs[v].out_port_q;
        fr.spec_req[o] = (fr.spec_requested & bit(o) ? fr.spec_req[o] : 0) | bit(p);
        fr.spec_requested |= bit(o);
      }
    }
  }
}

// Fair, per output and class; the highest level first, which may preempt a lower one. A failed
// request changes nothing, so a router whose heads all wait sleeps.
template <Pipeline Org, bool Multi>
[[gnu::always_inline]] inline bool Router::allocate_vcs(Fronts& fr) {
  bool changed = false;
  vc_alloc_.allocate(va_req_, fr.nreq, out_, [&](const VaRequest& q, int ov, bool preempted) {
    InputVc& r = in_vc_[q.ivc];
    r.state_q = VcState::kActive;
    r.out_vc_q = static_cast<uint8_t>(ov);
    changed = true;
    if (preempted) {
      ++preemptions_;
      ++preempted_now_;
    }
    if constexpr (Org == Pipeline::kClassic) ++fr.progressed;
    if constexpr (Org != Pipeline::kSingle) return;  // a new owner asks for the switch from the next cycle
    if (out_vc_[port_[q.out_port].first_vc + ov].credits_q > reserve_[q.level]) {
      const int p = q.port;
      if (q.level > fr.ready_level[p]) {
        fr.ready[p] = 0;
        fr.ready_level[p] = q.level;
      }
      if (q.level == fr.ready_level[p]) fr.ready[p] |= bit(q.vc);
    }
  });
  if constexpr (Org != Pipeline::kSingle) return changed;
  for (uint64_t pm = fr.deferred; pm; pm &= pm - 1) {
    const int p = __builtin_ctzll(pm);
    if (fr.ready[p]) {
      const InputVc* regs = in_vc_ + port_[p].first_vc * lanes_per_vc<Multi>();
      sw_alloc_.offer(p, fr.ready[p], fr.ready_level[p], [regs](int v) { return regs[v].out_port_q; }, fr.requested);
    }
  }
  return changed;
}

template <class Io>
[[gnu::always_inline]] inline int Router::allocate_switch(int o) {
  const int p = sw_alloc_.arbitrate(o);
  const int v = port_[p].offer_vc;
  if constexpr (Io::kPortMode) {
    if (cfg_.mutation == RouterMutation::kSaPointerStuck) {
      const uint8_t keep = port_[o].sa_out_rr_q;
      sw_alloc_.grant(p, v, o);
      port_[o].sa_out_rr_q = keep;
      return p;
    }
  }
  sw_alloc_.grant(p, v, o);
  return p;
}

// Lookahead (docs/timing-contract.md, "Lookahead"): output o had no non-speculative request; of the
// speculative ones it picks the first input at or after sa_out_rr_q[o]. The grant stands if the VC
// allocation of the same cycle gave that head an output VC (it is ACTIVE now) and the VC has a
// credit; otherwise it is cancelled: nothing crosses the switch and no pointer moves.
template <class Io>
[[gnu::always_inline]] inline int Router::speculative_grant(const Fronts& fr, int o) {
  const int p = first_from(fr.spec_req[o], port_[o].sa_out_rr_q);
  const int v = port_[p].offer_vc;
  const InputVc& r = in_vc_[port_[p].first_vc + v];  // one level: a lane is a VC
  if (r.state_q != VcState::kActive) return -1;      // the VC allocation did not grant it
  bool credit = out_vc_[port_[o].first_vc + r.out_vc_q].credits_q > 0;
  if constexpr (Io::kPortMode) {
    if (cfg_.mutation == RouterMutation::kSpecNotCancelled) credit = true;
  }
  if (!credit) return -1;
  sw_alloc_.grant(p, v, o);
  return p;
}

template <class Io, bool Count>
[[gnu::always_inline]] inline void Router::pop(Io& io, int p, InputVc& r) {
  r.head_slot = static_cast<uint16_t>(r.head_slot + 1 == depth_ ? 0 : r.head_slot + 1);
  r.advance_head();
  if (r.head_q == r.tail_acquire() && in_[p].empty()) {
    // The port emptied: stop visiting it. With two lanes a link may be writing into it right now:
    // clear first, then look again (the link publishes the flit before it sets the bit).
    if (!Io::kPortMode && port_[p].in_link->shared()) {
      __atomic_fetch_and(&occupied_, ~bit(p), __ATOMIC_SEQ_CST);
      if (!in_[p].empty()) __atomic_fetch_or(&occupied_, bit(p), __ATOMIC_SEQ_CST);
    } else {
      occupied_ &= ~bit(p);
    }
  }
  if constexpr (Count) io.left_buffer();
}

// The flit leaves on its output VC and its slot's credit goes upstream, both in this cycle.
template <class Io, Pipeline Org, bool Multi>
[[gnu::always_inline]] inline void Router::traverse(uint64_t now, Io& io, int p, int o, int np) {
  RouterPort& ip = port_[p];
  const int v = ip.offer_vc;
  const size_t li = static_cast<size_t>(ip.first_vc) * lanes_per_vc<Multi>() + v;
  InputVc& r = in_vc_[li];
  const Flit& f = in_ram_[li * depth_ + r.head_slot];
  const int ov = r.out_vc_q;
  if (__builtin_expect(f.msg != r.msg_q, 0)) fail_order(p, f, r.msg_q);
  if constexpr (Org == Pipeline::kLookahead) {
    if (f.head()) {
      // The next router's route, computed beside this router's allocation, rides in the head.
      Flit h;
      copy_flit(h, f, shape_.payload_words);
      la_write(h, o);
      io.forward(o, h, ov);
    } else {
      io.forward(o, f, ov);
    }
  } else {
    io.forward(o, f, ov);
  }
  if constexpr (Io::kPortMode && Org != Pipeline::kSingle) st_lane_[o] = static_cast<uint16_t>(li);
  if (out_[o].send(ov, f.tail(), static_cast<uint16_t>(li))) --preempted_now_;  // a worm left a stack
  io.send_credit(p, Multi ? v / levels_ : v);
  if (f.tail()) r.state_q = VcState::kIdle;
  if constexpr (!Io::kPortMode) {
    // The occupancy figure (network ports; entries before the pop, counting flits still on the
    // link) leaves out a flit the upstream router sent in this very cycle: whether it is visible
    // yet depends on evaluation order and lanes (scheduler.hpp), so counting it would make the
    // figure depend on them.
    if (p < np) {
      uint32_t before = r.tail_acquire() - r.head_q;
      // (With a traversal stage the upstream router sends a flit onto the link one cycle after it won
      // the switch: the flit pushed in this cycle and the one that won the switch in it, if already
      // written, are left out; the port-level router sees neither on its input link.)
      while (before > max_occupancy_ && before > 1 &&
             in_ram_[li * depth_ + (r.head_slot + before - 1) % depth_].due >= now + ip.in_link->due_offset())
        --before;  // sent in this cycle
      if (before > max_occupancy_) max_occupancy_ = before;
    }
  }
  pop<Io, false>(io, p, r);  // after the last read of f (its slot may be rewritten from now on)
  if (o < np) ++stats_.flit_hops;
  else ++stats_.flits_ejected;
}

[[gnu::always_inline]] inline void Router::end_cycle(uint32_t blocked) {
  stats_.blocked_vc_cycles += blocked;
  blocked_last_ = blocked;
  preempted_cycles_ += preempted_now_;
}

// The router's cycle: stage P of docs/timing-contract.md, steps 1 to 6, as calls of its stages.
// Returns whether any register changed; `due` gets the number of input VCs with a due front flit.
// Lookahead and classic run the same calls with their stages' differences (see scan_fronts,
// allocate_vcs, speculative_grant, traverse and the I/O's traversal register).
template <class Io, Pipeline Org, bool Multi>
bool Router::cycle(uint64_t now, Io& io, uint32_t& due) {
  bool changed = take_credits(io);   // 1
  Fronts fronts;
  scan_fronts<Org, Multi>(now, fronts, due);     // 2, and 4 (switch offers) for ports without VC requests
  if (fronts.nreq) changed |= allocate_vcs<Org, Multi>(fronts);  // 3, and 4 for the others
  const int np = network_ports();
  uint32_t moved = 0;
  for (uint64_t m = fronts.requested; m; m &= m - 1) {
    const int o = __builtin_ctzll(m);
    traverse<Io, Org, Multi>(now, io, allocate_switch<Io>(o), o, np);  // 5, 6
    ++moved;
  }
  if constexpr (Org == Pipeline::kLookahead) {
    for (uint64_t m = fronts.spec_requested & ~fronts.requested; m; m &= m - 1) {
      const int o = __builtin_ctzll(m);
      const int p = speculative_grant<Io>(fronts, o);
      if (p < 0) continue;
      traverse<Io, Org, Multi>(now, io, p, o, np);
      ++moved;
    }
  }
  changed |= moved != 0;
  changed |= fronts.progressed != 0;  // classic: a head routed in RC asks for a VC in the next cycle
  end_cycle(due - moved - fronts.progressed);  // due fronts that did not leave (classic: nor advance)
  return changed;
}

void Router::evaluate(uint64_t now, int lane) {
  ++stats_.evaluations;
  stats_.blocked_vc_cycles += slept_blocked(now);
  if (preempted_now_ && now > last_eval_ + 1) preempted_cycles_ += uint64_t{preempted_now_} * (now - last_eval_ - 1);
  last_eval_ = now;
  uint32_t due = 0;
  bool changed = false;
  // Priority levels, gossip mode and the pipelined organizations exclude each other (the
  // constructor checks), so only the single organization has a K > 1 instance.
  if (__builtin_expect(org_ == Pipeline::kSingle, 1)) {
    if (__builtin_expect(levels_ > 1, 0)) {
      LinkIo<0, true> io{*this, now, lane};
      changed = cycle<LinkIo<0, true>, Pipeline::kSingle, true>(now, io, due);
    } else {
      LinkIo<0, false> io{*this, now, lane};
      changed = __builtin_expect(gossip_mode_, 0) ? gossip_cycle(now, io, due)
                                                  : cycle<LinkIo<0, false>, Pipeline::kSingle, false>(now, io, due);
    }
  } else {
    LinkIo<1, false> io{*this, now, lane};
    changed = org_ == Pipeline::kLookahead ? cycle<LinkIo<1, false>, Pipeline::kLookahead, false>(now, io, due)
                                           : cycle<LinkIo<1, false>, Pipeline::kClassic, false>(now, io, due);
  }
  // A router whose state did not change would evaluate identically next cycle: it sleeps until a
  // flit becomes due or a credit reaches it (both wake it).
  awake_ = changed && due != 0;
  if (awake_) sched_->wake(lane, clock_id());
}

void Router::port_cycle(uint64_t now, const PortWires* in, PortWires* out) {
  for (int p = 0; p < nports_; ++p) {
    out[p].flit_valid = false;
    out[p].credit_valid = false;
    if (in[p].flit_valid) {
      in_[p].accept(in[p].flit, now);
      occupied_ |= bit(p);
    }
  }
  // Switch traversal: the flits that won the switch in the last cycle cross it onto the outputs.
  for (uint64_t m = st_valid_; m; m &= m - 1) {
    const int o = __builtin_ctzll(m);
    out[o].flit_valid = true;
    out[o].flit = st_flit_[o];
  }
  st_valid_ = 0;
  ++stats_.evaluations;
  last_eval_ = now;
  PortIo io{in, out, nports_, this};  // evaluated every cycle: no slept cycles to account
  uint32_t due = 0;
  if (gossip_mode_) gossip_cycle(now, io, due);
  else if (org_ == Pipeline::kSingle) cycle<PortIo, Pipeline::kSingle, true>(now, io, due);
  else if (org_ == Pipeline::kLookahead) cycle<PortIo, Pipeline::kLookahead, false>(now, io, due);
  else cycle<PortIo, Pipeline::kClassic, false>(now, io, due);
}

// Gossip mode (docs/gossip.md, "Hardwired forwarding"). Every packet is one block, gossip_flits_ flits,
// on VC 0 of every link. In each cycle, from the registers at its start:
//  1. credits arriving now are counted;
//  2. a packet whose every flit is in its input buffer (store-and-forward) and that has no outputs yet
//     computes its targets: the outputs of the rules for its input port and age and the ejection
//     channel if the port delivers (an injected packet: the outputs its node named; a prologue packet:
//     the ejection channel only);
//  3. such packets claim their targets, oldest (largest age) first and in rotating order among equal
//     ages from gossip_rr_q_: a packet takes all its targets at once, or none, and only outputs that are
//     free and whose downstream buffer has room for the whole packet;
//  4. every packet holding its targets sends its front flit to all of them (the age in the head of a
//     copy on a network link is one more); after the tail the targets are free from the next cycle.
// Claims reserve whole packets downstream, so a packet never waits once it has started.
struct Router::GossipClaims {
  struct Candidate {
    int lane, port;
    uint32_t age;
  };
  Candidate cand[64];
  int n = 0;
};

// 2. The packets at the fronts that are whole and have no outputs yet, with their targets.
void Router::gossip_fronts(uint64_t now, GossipClaims& c, uint32_t& due) {
  const int np = network_ports();
  due = 0;
  for (uint64_t pm = __atomic_load_n(&occupied_, __ATOMIC_ACQUIRE); pm; pm &= pm - 1) {
    const int p = __builtin_ctzll(pm);
    const RouterPort& port = port_[p];
    for (int v = 0; v < port.lanes; ++v) {
      const int li = port.first_vc * levels_ + v;
      InputVc& r = in_vc_[li];
      if (r.tail_acquire() == r.head_q) continue;
      const Flit& f = in_ram_[static_cast<size_t>(li) * depth_ + r.head_slot];
      if (f.due > now) continue;
      ++due;
      if (r.state_q == VcState::kActive) continue;  // streaming: step 4
      if (!f.head() || !(f.kind & kFlitGossip))
        throw std::logic_error(fmt::format("internal error: router {} input {}: flit {} of message {} is not the head "
                                           "of a gossip packet (gossip mode carries gossip packets only)",
                                           cfg_.node, port_name(p, true), f.seq, f.msg));
      if (in_[p].due_count(v, now) < gossip_flits_) continue;  // store-and-forward: the whole packet first
      uint64_t targets = 0;
      const int ej = np + (cfg_.shape.local_ports > 1 && p < np ? p : 0);
      if (p >= np) {
        targets = f.neg_mask;  // injected: the node's own output mask
      } else if (f.start_dim == kGossipPrologue) {
        targets = uint64_t{1} << ej;
      } else {
        targets = gossip_.forward(p, static_cast<uint32_t>(f.dest));
        if (gossip_.deliver(p)) targets |= uint64_t{1} << ej;
      }
      if (!targets)
        throw std::logic_error(fmt::format("internal error: router {}: gossip packet of block {} (age {}) arriving "
                                           "through {} goes nowhere",
                                           cfg_.node, f.msg, f.dest, port_name(p, true)));
      gossip_targets_[li] = targets;
      c.cand[c.n++] = {li, p, p >= np ? 0u : static_cast<uint32_t>(f.dest)};
    }
  }
}

// 3. Claims: oldest first, rotating among equal ages; all of a packet's targets or none.
bool Router::gossip_claim(GossipClaims& c) {
  const int total = shape_.total_lanes();
  std::sort(c.cand, c.cand + c.n, [&](const GossipClaims::Candidate& a, const GossipClaims::Candidate& b) {
    if (a.age != b.age) return a.age > b.age;
    const int da = a.lane >= gossip_rr_q_ ? a.lane - gossip_rr_q_ : a.lane + total - gossip_rr_q_;
    const int db = b.lane >= gossip_rr_q_ ? b.lane - gossip_rr_q_ : b.lane + total - gossip_rr_q_;
    return da < db;
  });
  bool changed = false;
  for (int i = 0; i < c.n; ++i) {
    const uint64_t t = gossip_targets_[c.cand[i].lane];
    bool ok = true;
    for (uint64_t m = t; m && ok; m &= m - 1) {
      const OutputVc& o = out_vc_[port_[__builtin_ctzll(m)].first_vc];
      ok = o.owner_q == kVcFree && o.credits_q >= static_cast<int32_t>(gossip_flits_);
    }
    if (!ok) continue;
    for (uint64_t m = t; m; m &= m - 1) out_[__builtin_ctzll(m)].claim(0, static_cast<uint16_t>(c.cand[i].lane));
    in_vc_[c.cand[i].lane].state_q = VcState::kActive;
    gossip_rr_q_ = static_cast<uint16_t>(c.cand[i].lane + 1 == total ? 0 : c.cand[i].lane + 1);
    changed = true;
  }
  return changed;
}

// 4. Every packet holding its targets sends its front flit to all of them (one flit per input port
// and cycle). Returns the flits that left.
template <class Io>
uint32_t Router::gossip_stream(uint64_t now, Io& io) {
  const int np = network_ports();
  uint32_t moved = 0;
  for (uint64_t pm = __atomic_load_n(&occupied_, __ATOMIC_ACQUIRE); pm; pm &= pm - 1) {
    const int p = __builtin_ctzll(pm);
    const RouterPort& ip = port_[p];
    for (int v = 0; v < ip.lanes; ++v) {
      const int li = ip.first_vc * levels_ + v;
      InputVc& r = in_vc_[li];
      if (r.state_q != VcState::kActive || r.tail_acquire() == r.head_q) continue;
      const Flit& f = in_ram_[static_cast<size_t>(li) * depth_ + r.head_slot];
      if (f.due > now) continue;
      const uint64_t t = gossip_targets_[li];
      Flit copy;
      copy_flit(copy, f, cfg_.shape.payload_words);
      const bool head = f.head(), tail = f.tail();
      if (head) copy.dest = f.dest + 1;  // one more link crossed
      for (uint64_t m = t; m; m &= m - 1) {
        const int o = __builtin_ctzll(m);
        io.send_flit(o, o < np ? copy : f, 0);
        out_[o].send(0, tail, static_cast<uint16_t>(li));
        if (tail) {
          if (o < np) ++gossip_copies_;
          else ++gossip_deliveries_;
        }
        if (o < np) ++stats_.flit_hops;
        else ++stats_.flits_ejected;
      }
      io.send_credit(p, v / levels_);
      if (tail) r.state_q = VcState::kIdle;
      pop(io, p, r);
      ++moved;
      break;  // one flit per input port and cycle
    }
  }
  return moved;
}

template <class Io>
bool Router::gossip_cycle(uint64_t now, Io& io, uint32_t& due) {
  bool changed = take_credits(io);                  // 1
  GossipClaims claims;
  gossip_fronts(now, claims, due);                  // 2
  if (claims.n) changed |= gossip_claim(claims);    // 3
  const uint32_t moved = gossip_stream(now, io);    // 4
  changed |= moved != 0;
  end_cycle(due - moved);
  return changed;
}

void Router::snapshot(RouterSnapshot& s, uint64_t now) const {
  if (s.fields.size() != RouterSnapshot::kFieldCount) s.layout(shape_);
  const int total = shape_.total_vcs();
  for (int p = 0, i = 0; p < nports_; ++p) {
    for (int v = 0; v < port_[p].lanes; ++v, ++i) {
      const InputVc& r = in_vc_[i];
      const bool routed = r.state_q != VcState::kIdle;
      s.fields[RouterSnapshot::kIvcState].values[i] = static_cast<int64_t>(r.state_q);
      s.fields[RouterSnapshot::kIvcOutPort].values[i] = routed ? r.out_port_q : 0;
      s.fields[RouterSnapshot::kIvcOutClass].values[i] = routed ? r.out_class_q : 0;
      s.fields[RouterSnapshot::kIvcOutVc].values[i] = r.state_q == VcState::kActive ? r.out_vc_q : 0;
      s.fields[RouterSnapshot::kIvcCount].values[i] = in_[p].due_count(v, now + 1);
    }
  }
  for (int i = 0; i < total; ++i) {
    const OutputVc& o = out_vc_[i];
    s.fields[RouterSnapshot::kOvcCredits].values[i] = o.credits_q;
    s.fields[RouterSnapshot::kOvcOwner].values[i] = o.owner_q == kVcFree ? -1 : o.owner_q;
    s.fields[RouterSnapshot::kOvcDepth].values[i] = o.depth_q;
    for (int k = 0; k < levels_ - 1; ++k)
      s.fields[RouterSnapshot::kOvcStack].values[static_cast<size_t>(i) * (levels_ - 1) + k] =
          k < o.depth_q ? stack_[i * (levels_ - 1) + k] : 0;
  }
  for (int p = 0; p < nports_; ++p) {
    s.fields[RouterSnapshot::kSaInRr].values[p] = port_[p].sa_in_rr_q;
    s.fields[RouterSnapshot::kSaOutRr].values[p] = port_[p].sa_out_rr_q;
  }
  for (int o = 0, k = 0; o < nports_; ++o)
    for (int c = 0; c < shape_.classes(o); ++c, ++k) {
      const VaPointers& ptr = vc_alloc_.pointers(o, c);
      s.fields[RouterSnapshot::kVaRr].values[k] = ptr.va_rr_q;
      s.fields[RouterSnapshot::kVaVcRr].values[k] = ptr.va_vc_rr_q;
    }
  if (gossip_mode_) {
    // The targets register matters only while a packet holds them (ACTIVE).
    for (int i = 0; i < shape_.total_lanes(); ++i)
      s.fields[RouterSnapshot::kGossipTargets].values[i] =
          in_vc_[i].state_q == VcState::kActive ? static_cast<int64_t>(gossip_targets_[i]) : 0;
    s.fields[RouterSnapshot::kGossipRr].values[0] = gossip_rr_q_;
  }
  if (org_ != Pipeline::kSingle) {
    for (int o = 0; o < nports_; ++o) {
      const bool valid = (st_valid_ >> o) & 1u;
      s.fields[RouterSnapshot::kStValid].values[o] = valid;
      s.fields[RouterSnapshot::kStVc].values[o] = valid ? st_flit_[o].vc : 0;
      s.fields[RouterSnapshot::kStLane].values[o] = valid ? st_lane_[o] : 0;
    }
  }
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
      for (int v = 0; v < port.lanes; ++v) {
        const InputVc& r = in_vc_[port.first_vc * levels_ + v];
        if (r.tail_relaxed() != r.head_q && r.state_q == VcState::kActive) {
          const RouterPort& out = port_[r.out_port_q];
          const int q = v % levels_;
          out.out_link->prefetch_sink(r.out_vc_q, out_tail_[(out.first_vc + r.out_vc_q) * levels_ + q],
                                      static_cast<uint8_t>(q));
        }
      }
    }
    return;
  }
  // The buffer slots at the fronts of the non-empty VCs; for worms in flight the output link (where
  // the flit goes) and the input link (where its credit goes); the credit lines arriving now.
  for (int p = 0; p < nports_; ++p) {
    const RouterPort& port = port_[p];
    for (int v = 0; v < port.lanes; ++v) {
      const size_t li = static_cast<size_t>(port.first_vc) * levels_ + v;
      const InputVc& r = in_vc_[li];
      if (r.tail_relaxed() == r.head_q) continue;
      __builtin_prefetch(&in_ram_[li * depth_ + r.head_slot]);
      if (r.state_q == VcState::kActive) {
        port_[r.out_port_q].out_link->prefetch_flit_path();
        port.in_link->prefetch_credit_path();
      }
    }
  }
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) port_[__builtin_ctzll(m)].out_link->prefetch_credit_path();
}

std::string Router::wait_reason(int port, int vc) const {
  const InputVc& r = in_[port].vc(vc);  // vc: a lane of the port
  if (r.count() == 0) return "empty";
  switch (r.state_q) {
    case VcState::kIdle: return "head waiting for route computation";
    case VcState::kWaitVc: {
      const OutputUnit& o = out_[r.out_port_q];
      std::string owners;
      const int base = o.vcs() == 1 ? 0 : r.out_class_q * cfg_.shape.vcs_per_class;
      const int n = o.vcs() == 1 ? 1 : cfg_.shape.vcs_per_class;
      for (int i = 0; i < n; ++i) {
        const uint16_t own = o.vc(base + i).owner_q;
        if (own == kVcFree) continue;
        int op = 0;
        while (op + 1 < nports_ && port_[op + 1].first_vc * levels_ <= own) ++op;
        const InputVc& h = in_vc_[own];
        owners += fmt::format("{}VC {} held by message {} (from input {})", owners.empty() ? "" : ", ", base + i, h.msg_q,
                              port_name(op, true));
      }
      return fmt::format("head waiting for a free VC of class {} on output {}{}", r.out_class_q,
                         port_name(r.out_port_q, false), owners.empty() ? "" : ": " + owners);
    }
    case VcState::kActive: {
      const OutputUnit& o = out_[r.out_port_q];
      const int lane = port_[port].first_vc * levels_ + vc;
      if (o.vc(r.out_vc_q).owner_q != lane)
        return fmt::format("preempted on output {} VC {} by a worm of a higher priority", port_name(r.out_port_q, false),
                           r.out_vc_q);
      if (o.vc(r.out_vc_q).credits_q <= reserve_[vc % levels_])
        return fmt::format("waiting for a credit on output {} VC {} (the downstream buffer is full)",
                           port_name(r.out_port_q, false), r.out_vc_q);
      return fmt::format("waiting for the switch to output {} VC {}", port_name(r.out_port_q, false), r.out_vc_q);
    }
  }
  return "?";
}

void Router::visit_flits(uint64_t now, const FlitVisitor& visit) const {
  for (int p = 0; p < nports_; ++p) {
    const InputUnit& iu = in_[p];
    for (int v = 0; v < iu.lanes(); ++v) {
      const uint32_t cnt = iu.vc(v).count();
      for (uint32_t i = 0; i < cnt; ++i) {
        const Flit& f = iu.at(v, i);
        if (f.due > now) {
          visit(f, fmt::format("the link into router {} input {}", name(), port_name(p, true)),
                "in flight on the link or in the input pipeline");
          continue;
        }
        const std::string place =
            fmt::format("router {} input {} VC {}{}{}", name(), port_name(p, true), v / levels_,
                        levels_ > 1 ? fmt::format(" level {}", v % levels_) : "", i ? fmt::format(" (slot {})", i) : "");
        visit(f, place,
              i == 0 ? wait_reason(p, v)
                     : fmt::format("behind flit {} of message {} in the same buffer", iu.front(v).seq, iu.front(v).msg));
      }
    }
  }
}

}  // namespace torx::model
