// SPDX-License-Identifier: Apache-2.0
#include "models/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <thread>

namespace torx::model {

Fabric::Fabric(const sw::Topology& topo, FabricSpec spec, Program* program, NodeMemory* memory)
    : topo_(topo), spec_(std::move(spec)), program_(program), memory_(memory) {
  const NetworkParams& p = spec_.params;
  validate(p, topo_);
  const sw::NodeId n = topo_.nodes();
  const int np = topo_.ports();
  TORX_CHECK(spec_.routing.size() == static_cast<size_t>(n), "one routing image per node");
  TORX_CHECK(spec_.barrier.images.size() == static_cast<size_t>(n), "one barrier image per node");
  if (spec_.flit_bytes < 1 || spec_.flit_bytes > kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the cycle model carries 1 to {} bytes per flit",
                                     spec_.flit_bytes, kMaxFlitBytes));
  local_ = spec_.ports == sw::PortModel::kAll ? np : 1;

  routers_.reserve(static_cast<size_t>(n));
  nis_.reserve(static_cast<size_t>(n));
  barriers_.reserve(static_cast<size_t>(n));
  for (sw::NodeId v = 0; v < n; ++v) {
    RouterConfig rc;
    rc.node = v;
    rc.ndims = topo_.ndims();
    rc.local_ports = local_;
    rc.vcs_per_class = p.vcs_per_class;
    rc.buffer_depth = p.buffer_depth;
    rc.payload_words = (spec_.flit_bytes + 7) / 8;
    Router* r = arena_.alloc<Router>(1);
    new (r) Router(rc, spec_.routing[v], topo_, counters_, arena_, &sched_);
    routers_.push_back(r);
    sched_.add(r);
  }
  for (sw::NodeId v = 0; v < n; ++v) {
    NiConfig nc;
    nc.node = v;
    nc.channels = local_;
    nc.ts_cycles = spec_.ts_cycles;
    nc.flit_bytes = spec_.flit_bytes;
    nc.block_bytes = spec_.block_bytes;
    nc.injection_depth = p.buffer_depth;
    nc.ejection_depth = p.buffer_depth;
    nis_.push_back(std::make_unique<NetworkInterface>(nc, program_, memory_, &stats_, counters_, &sched_));
    sched_.add(nis_.back().get());
  }
  for (sw::NodeId v = 0; v < n; ++v) {
    barriers_.push_back(std::make_unique<BarrierUnit>(v, spec_.barrier.images[v], topo_));
    sched_.add(barriers_.back().get());
  }
  // Barrier wires.
  const int h = p.barrier_hop_latency;
  for (sw::NodeId v = 0; v < n; ++v) {
    BarrierUnit& u = *barriers_[v];
    u.configure_wires(&sched_, h);
    nis_[v]->configure_barrier(1 + u.pad() * h);
  }
  for (sw::NodeId v = 0; v < n; ++v) {
    BarrierUnit& u = *barriers_[v];
    TokenWire* parent = nullptr;
    if (!u.root()) {
      const sw::NodeId pv = topo_.neighbor(v, sw::Topology::port_dim(u.parent_port()), sw::Topology::port_dir(u.parent_port()));
      parent = &barriers_[pv]->gather_in();
    }
    std::vector<TokenWire*> children;
    for (int q = 0; q < np; ++q)
      if ((u.child_mask() >> q) & 1u)
        children.push_back(&barriers_[topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q))]->release_in());
    u.connect(parent, std::move(children), &nis_[v]->release_in());
    nis_[v]->connect_barrier(&u.entry_in());
  }
  // Links: network links (those that exist), then injection, then ejection links.
  size_t net = 0;
  for (sw::NodeId v = 0; v < n; ++v)
    for (int q = 0; q < np; ++q) net += topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q)) >= 0;
  inj_base_ = net;
  ej_base_ = net + static_cast<size_t>(n) * local_;
  nlinks_ = ej_base_ + static_cast<size_t>(n) * local_;
  links_.reset(new Link[nlinks_]);
  Arena::advise_huge(links_.get(), nlinks_ * sizeof(Link));
  net_link_.assign(static_cast<size_t>(n) * np, nullptr);
  // A flit pushed in t is due at the far end in t + latency: into a router that is after the wire
  // and the router's P - 1 non-stalling stages plus the buffer write (docs/timing-contract.md).
  const int into_router = p.router_latency;
  const uint32_t words = (spec_.flit_bytes + 7) / 8;
  size_t k = 0;
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int q = 0; q < np; ++q) {
      const sw::NodeId u = topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      if (u < 0) continue;
      Link& l = links_[k++];
      l.configure(static_cast<uint32_t>(static_cast<size_t>(v) * np + q), p.link_latency + into_router,
                  p.credit_latency, &sched_, routers_[v]->credit_end(q), words);
      net_link_[static_cast<size_t>(v) * np + q] = &l;
    }
  }
  const uint32_t id0 = static_cast<uint32_t>(static_cast<size_t>(n) * np);
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int c = 0; c < local_; ++c) {
      const size_t i = static_cast<size_t>(v) * local_ + c;
      links_[inj_base_ + i].configure(id0 + static_cast<uint32_t>(i), p.local_latency + into_router, p.credit_latency,
                                      &sched_, nis_[v]->credit_end(c), words);
      links_[ej_base_ + i].configure(id0 + static_cast<uint32_t>(static_cast<size_t>(n) * local_ + i), p.local_latency,
                                     p.credit_latency, &sched_, routers_[v]->credit_end(np + c), words);
    }
  }
  // Per-step figures.
  const uint32_t steps = program_->steps();
  stats_.step_first_issue.assign(steps, UINT64_MAX);
  stats_.step_end.assign(steps, 0);
  stats_.step_open.assign(steps, 0);
  for (uint32_t m = 0; m < program_->messages(); ++m) ++stats_.step_open[program_->message(m).step];
  set_threads(p.threads);
  // The prefetch pipeline pays once the routers' state outgrows the caches (t4 32x32: 1.4 times
  // faster with it) and costs instructions below (direct 16x16: 1.3 times slower with it).
  sched_.set_prefetch(n >= 512);
}

Fabric::~Fabric() {
  for (Router* r : routers_) r->~Router();
}

void Fabric::connect_all() {
  const sw::NodeId n = topo_.nodes();
  const int np = topo_.ports();
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int q = 0; q < np; ++q) {
      Link* l = net_link_[static_cast<size_t>(v) * np + q];
      if (!l) continue;
      const sw::NodeId u = topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      routers_[v]->connect_output(q, l);
      routers_[u]->connect_input(q ^ 1, l);  // arrives through the port facing back towards v
    }
    for (int c = 0; c < local_; ++c) {
      nis_[v]->connect_injection(c, &injection_link(v, c));
      routers_[v]->connect_input(np + c, &injection_link(v, c));
      routers_[v]->connect_output(np + c, &ejection_link(v, c));
      nis_[v]->connect_ejection(c, &ejection_link(v, c));
    }
  }
}

void Fabric::set_observer(FlitObserver* o) {
  for (size_t i = 0; i < nlinks_; ++i) links_[i].set_observer(o);
  observed_ = o != nullptr;
  if (observed_) set_threads(1);  // the observer sees flits in one order
}

int Fabric::set_threads(int threads) {
  int n = threads;
  if (n == 0) n = routers_.size() >= 1024 && std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  if (observed_) n = 1;
  // Lane 1 takes the network interfaces and barrier units (ids after the routers'), which meet the
  // routers only at the injection and ejection links, and as many of the last routers as balance
  // the two lanes' time (the scheduler moves the split; at least an eighth of the routers stay on
  // lane 0). The interfaces share the run's statistics and node memory, so they stay together.
  const uint32_t nr = static_cast<uint32_t>(routers_.size());
  sched_.set_lanes(n, nr, nr / 8, nr);
  for (size_t i = 0; i < nlinks_; ++i) links_[i].set_shared(n > 1);
  return n;
}

NetworkCounters Fabric::counters() const {
  NetworkCounters s;
  for (const NetworkCounters& c : counters_) {
    s.flit_moves += c.flit_moves;
    s.flits_in_buffers += c.flits_in_buffers;
  }
  return s;
}

void Fabric::start() {
  for (auto& ni : nis_) {
    ni->start();
    sched_.wake(ni->clock_id());
  }
  status_ = done() ? RunStatus::kDone : RunStatus::kRunning;
}

void Fabric::step() {
  const uint64_t now = sched_.cycle();
  evaluations_ += sched_.step();
  const NetworkCounters c = counters();
  occupancy_sum_ += c.flits_in_buffers;
  if (c.flit_moves != last_moves_) {
    last_moves_ = c.flit_moves;
    last_move_cycle_ = now;
  }
  if (status_ != RunStatus::kRunning) return;
  if (done()) {
    status_ = RunStatus::kDone;
    return;
  }
  const NetworkParams& p = spec_.params;
  const bool in_flight = stats_.flits_injected > stats_.flits_ejected;
  if (in_flight && now - last_move_cycle_ >= p.watchdog_cycles) {
    status_ = RunStatus::kStalled;
    stop_reason_ = fmt::format("watchdog: no flit moved for {} cycles (cycle {}) with {} flits in flight",
                               p.watchdog_cycles, now, stats_.flits_injected - stats_.flits_ejected);
  } else if (!in_flight && sched_.idle()) {
    status_ = RunStatus::kStalled;
    stop_reason_ = fmt::format("no block can advance (cycle {}): {} of {} messages delivered and nothing in flight",
                               now, stats_.messages_done, program_->messages());
  } else if (p.max_cycles && sched_.cycle() >= p.max_cycles) {
    status_ = RunStatus::kLimit;
    stop_reason_ = fmt::format("cycle limit max_cycles = {} reached with {} of {} messages delivered", p.max_cycles,
                               stats_.messages_done, program_->messages());
  }
}

RunStatus Fabric::run() {
  while (status_ == RunStatus::kRunning) {
    // Skip cycles in which nothing is due; if nothing will ever be due while flits are in flight,
    // skip to the cycle the watchdog fires (what clocking the idle network would reach).
    uint64_t skip = sched_.cycles_until_due();
    if (skip == UINT64_MAX) {
      const bool in_flight = stats_.flits_injected > stats_.flits_ejected;
      const uint64_t fire = last_move_cycle_ + spec_.params.watchdog_cycles;
      skip = in_flight && fire > sched_.cycle() ? fire - sched_.cycle() : 0;
    }
    if (spec_.params.max_cycles && sched_.cycle() + skip > spec_.params.max_cycles)
      skip = spec_.params.max_cycles - std::min(spec_.params.max_cycles, sched_.cycle());
    sched_.skip(skip);
    step();
  }
  return status_;
}

uint64_t Fabric::flit_hops() const {
  uint64_t s = 0;
  for (const auto& r : routers_) s += r->stats().flit_hops;
  return s;
}

uint64_t Fabric::blocked_vc_cycles() const {
  uint64_t s = 0;
  for (const auto& r : routers_) s += r->blocked_vc_cycles(sched_.cycle());
  return s;
}

uint32_t Fabric::max_vc_occupancy() const {
  uint32_t m = 0;
  for (const auto& r : routers_) m = std::max(m, r->max_vc_occupancy());
  return m;
}

std::vector<uint64_t> Fabric::link_flits() const {
  std::vector<uint64_t> out(net_link_.size(), 0);
  for (size_t i = 0; i < net_link_.size(); ++i)
    if (net_link_[i]) out[i] = net_link_[i]->flit_count();
  return out;
}

std::string Fabric::stall_report(size_t max_worms) const {
  std::string s = stop_reason_.empty() ? std::string("stopped") : stop_reason_;
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
  auto see = [&](uint32_t msg, uint32_t seq, const std::string& place, const std::string& reason) {
    Worm& w = worms[msg];
    if (!w.seen || seq < w.head.seq) w.head = {seq, place, reason};
    if (!w.seen || seq > w.tail.seq) w.tail = {seq, place, reason};
    w.seen = true;
  };
  const uint64_t now = sched_.cycle();
  for (const auto& rp : routers_) {
    const Router& r = *rp;
    for (int p = 0; p < r.inputs(); ++p) {
      const InputUnit& iu = r.input(p);
      for (int v = 0; v < iu.vcs(); ++v) {
        const uint32_t cnt = iu.vc(v).count();
        for (uint32_t i = 0; i < cnt; ++i) {
          const Flit& f = iu.at(v, i);
          if (f.due > now) {
            see(f.msg, f.seq, fmt::format("the link into router {} input {}", topo_.node_name(r.node()), r.port_name(p, true)),
                "in flight on the link");
            continue;
          }
          const std::string place = fmt::format("router {} input {} VC {}{}", topo_.node_name(r.node()),
                                                r.port_name(p, true), v, i ? fmt::format(" (slot {})", i) : "");
          std::string reason;
          if (i == 0) reason = r.wait_reason(p, v);
          else reason = fmt::format("behind flit {} of message {} in the same buffer", iu.front(v).seq, iu.front(v).msg);
          see(f.msg, f.seq, place, reason);
        }
      }
    }
  }
  size_t shown = 0;
  size_t stuck = 0;
  for (uint32_t m = 0; m < program_->messages(); ++m) {
    const MessageRecord& r = program_->message(m);
    if (!r.issued || r.done) continue;
    ++stuck;
    if (shown >= max_worms) continue;
    ++shown;
    const sw::Message& sm = program_->schedule_message(m);
    const uint32_t left = nis_[r.src]->flits_left(m);
    s += fmt::format("\n  message {} (step {}, {} -> {}, route {}, {} flits):", m, r.step, topo_.node_name(r.src),
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
    for (const auto& ni : nis_) {
      if (ni->finished()) continue;
      if (listed++ < 16) s += "\n  " + ni->describe();
    }
    if (listed > 16) s += fmt::format("\n  ... and {} more nodes", listed - 16);
  }
  return s;
}

}  // namespace torx::model
