// SPDX-License-Identifier: Apache-2.0
#include "models/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "models/port_router.hpp"
#include "models/router.hpp"

namespace torx::model {

Fabric::Fabric(const sw::Topology& topo, FabricSpec spec, const EndpointFactory& endpoints, const RouterFactory* routers,
               const BarrierFactory* barrier_cores)
    : topo_(topo), spec_(std::move(spec)) {
  sw::validate(spec_.params, topo_);
  const sw::NodeId n = topo_.nodes();
  TORX_CHECK(spec_.routing.size() == static_cast<size_t>(n), "one routing image per node");
  TORX_CHECK(spec_.barrier.images.size() == static_cast<size_t>(n), "one barrier image per node");
  TORX_CHECK(spec_.gossip.empty() || spec_.gossip.size() == static_cast<size_t>(n), "one gossip image per node");
  // The flit size is the application's rule (app::validate_request); here only its sanity check.
  TORX_CHECK(spec_.flit_bytes >= 1 && spec_.flit_bytes <= kMaxFlitBytes, "flit size out of range");
  if (!spec_.gossip.empty() && spec_.params.pipeline != 0)
    throw sw::InputError(fmt::format("gossip mode with --param pipeline={}: the gossip routers have the single "
                                     "organization only (docs/timing-contract.md, \"Router organizations\")",
                                     sw::pipeline_name(spec_.params.pipeline)));
  local_ = spec_.ports == sw::PortModel::kAll ? topo_.ports() : 1;
  make_routers(routers);
  make_endpoints(endpoints);
  make_barriers(barrier_cores);
  make_links();
  set_threads(spec_.params.threads);
  // The prefetch pipeline pays once the routers' state outgrows the caches (t4 32x32: 1.4 times
  // faster with it) and costs instructions below (direct 16x16: 1.3 times slower with it).
  sched_.set_prefetch(n >= 512 && !routers);
}

RouterConfig Fabric::router_config(sw::NodeId v) const {
  const sw::NetworkParams& p = spec_.params;
  RouterConfig rc;
  rc.node = v;
  // The VC classes: the router reads them from its routing image (make_core below, Router).
  rc.shape = router_shape(p, topo_.ndims(), local_, /*vc_classes=*/0, spec_.flit_bytes,
                          spec_.gossip.empty() ? 0 : spec_.gossip_packet_flits);
  if (!spec_.gossip.empty()) rc.gossip = &spec_.gossip[v];
  return rc;
}

// The core a factory makes for node v (port mode: the RTL, a lock-step pair), with the shape the
// routing image asks for (its classes, checked as the C++ router would).
std::unique_ptr<RouterCore> Fabric::make_core(const RouterFactory& routers, const RouterConfig& rc) const {
  const sw::NodeId v = rc.node;
  RoutingUnit unit;
  unit.load(spec_.routing[v], topo_, v);
  RouterShape shape = rc.shape;
  shape.vc_classes = unit.vc_classes();
  if (shape.organization == Pipeline::kLookahead) return routers.make(v, shape, lookahead_image(spec_.routing, topo_, v), topo_);
  if (!rc.gossip) return routers.make(v, shape, spec_.routing[v], topo_);
  return routers.make_gossip(v, shape, spec_.routing[v], *rc.gossip, topo_);
}

void Fabric::make_routers(const RouterFactory* routers) {
  const sw::NodeId n = topo_.nodes();
  routers_.reserve(static_cast<size_t>(n));
  for (sw::NodeId v = 0; v < n; ++v) {
    const RouterConfig rc = router_config(v);
    if (!routers) {
      Router* r = arena_.alloc<Router>(1);
      if (rc.shape.organization == Pipeline::kLookahead)
        new (r) Router(rc, lookahead_image(spec_.routing, topo_, v), topo_, counters_, arena_, &sched_);
      else
        new (r) Router(rc, spec_.routing[v], topo_, counters_, arena_, &sched_);
      native_.push_back(r);
      routers_.push_back(r);
    } else {
      port_routers_.push_back(
          std::make_unique<PortRouter>(v, topo_.node_name(v), make_core(*routers, rc), counters_, &sched_));
      routers_.push_back(port_routers_.back().get());
    }
    sched_.add(routers_.back());
  }
}

void Fabric::make_endpoints(const EndpointFactory& endpoints) {
  const sw::NodeId n = topo_.nodes();
  endpoints_.reserve(static_cast<size_t>(n));
  for (sw::NodeId v = 0; v < n; ++v) {
    endpoints_.push_back(endpoints(v, local_, counters_, &sched_));
    TORX_CHECK(endpoints_.back() && endpoints_.back()->channels() == local_, "endpoint with the wrong channels");
    sched_.add(endpoints_.back().get());
  }
}

// The barrier units (a core each when `barrier_cores` makes them) and their wires: gather up the
// tree to the parent, release down to the children and to the node.
void Fabric::make_barriers(const BarrierFactory* barrier_cores) {
  const sw::NodeId n = topo_.nodes();
  const int np = topo_.ports();
  barriers_.reserve(static_cast<size_t>(n));
  for (sw::NodeId v = 0; v < n; ++v) {
    barriers_.push_back(std::make_unique<BarrierUnit>(v, spec_.barrier.images[v], topo_));
    if (barrier_cores) barriers_.back()->use_core(barrier_cores->make(v, spec_.barrier.images[v], topo_));
    sched_.add(barriers_.back().get());
  }
  const int h = spec_.params.barrier_hop_latency;
  for (sw::NodeId v = 0; v < n; ++v) {
    BarrierUnit& u = *barriers_[v];
    u.configure_wires(&sched_, h);
    endpoints_[v]->configure_barrier(1 + u.pad() * h);
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
    u.connect(parent, std::move(children), &endpoints_[v]->release_in());
    endpoints_[v]->connect_barrier(&u.entry_in());
  }
}

// Links: network links (those that exist), then injection, then ejection links.
void Fabric::make_links() {
  const sw::NetworkParams& p = spec_.params;
  const sw::NodeId n = topo_.nodes();
  const int np = topo_.ports();
  const uint32_t words = (spec_.flit_bytes + 7) / 8;
  size_t net = 0;
  for (sw::NodeId v = 0; v < n; ++v)
    for (int q = 0; q < np; ++q) net += topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q)) >= 0;
  inj_base_ = net;
  ej_base_ = net + static_cast<size_t>(n) * local_;
  nlinks_ = ej_base_ + static_cast<size_t>(n) * local_;
  links_.reset(new Link[nlinks_]);
  Arena::advise_huge(links_.get(), nlinks_ * sizeof(Link));
  net_link_.assign(static_cast<size_t>(n) * np, nullptr);
  size_t k = 0;
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int q = 0; q < np; ++q) {
      const sw::NodeId u = topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      if (u < 0) continue;
      Link& l = links_[k++];
      l.configure(static_cast<uint32_t>(static_cast<size_t>(v) * np + q), p.link_latency, p.credit_latency, &sched_,
                  routers_[v]->credit_end(q), words);
      net_link_[static_cast<size_t>(v) * np + q] = &l;
    }
  }
  const uint32_t id0 = static_cast<uint32_t>(static_cast<size_t>(n) * np);
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int c = 0; c < local_; ++c) {
      const size_t i = static_cast<size_t>(v) * local_ + c;
      links_[inj_base_ + i].configure(id0 + static_cast<uint32_t>(i), p.local_latency, p.credit_latency, &sched_,
                                      endpoints_[v]->credit_end(c), words);
      links_[ej_base_ + i].configure(id0 + static_cast<uint32_t>(static_cast<size_t>(n) * local_ + i), p.local_latency,
                                     p.credit_latency, &sched_, routers_[v]->credit_end(np + c), words);
    }
  }
}

Fabric::~Fabric() {
  for (Router* r : native_) r->~Router();
}

PortRouter* Fabric::port_router(sw::NodeId v) {
  return port_routers_.empty() ? nullptr : port_routers_[static_cast<size_t>(v)].get();
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
      endpoints_[v]->connect_injection(c, &injection_link(v, c));
      routers_[v]->connect_input(np + c, &injection_link(v, c));
      routers_[v]->connect_output(np + c, &ejection_link(v, c));
      endpoints_[v]->connect_ejection(c, &ejection_link(v, c));
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
  if (n == 0) {
    // Automatic: two threads pay off on 1024 routers or more, and only when two cores are free for
    // them (the load average, which counts this process, leaves one core besides its own).
    double load = 0;
    const unsigned cores = std::thread::hardware_concurrency();
    const bool idle = cores >= 2 && getloadavg(&load, 1) == 1 && load + 1.0 <= static_cast<double>(cores) - 0.5;
    n = routers_.size() >= 1024 && idle ? 2 : 1;
  }
  if (observed_ || !port_routers_.empty()) n = 1;  // observers see one order; port cores need not be thread-safe
  // Lane 1 takes the endpoints and barrier units (ids after the routers'), which meet the routers
  // only at the injection and ejection links, and as many of the last routers as balance the two
  // lanes' time (the scheduler moves the split; at least an eighth of the routers stay on lane 0).
  // The interfaces share the run's statistics and node memory, so they stay together.
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
    s.flits_injected += c.flits_injected;
    s.flits_ejected += c.flits_ejected;
    s.endpoints_finished += c.endpoints_finished;
  }
  return s;
}

bool Fabric::done() const {
  const NetworkCounters c = counters();
  return c.endpoints_finished == static_cast<uint64_t>(topo_.nodes()) && c.flits_injected == c.flits_ejected;
}

void Fabric::start() {
  for (auto& e : endpoints_) {
    e->start();
    sched_.wake(0, e->clock_id());
  }
  status_ = done() ? RunStatus::kDone : RunStatus::kRunning;
}

void Fabric::step() {
  const uint64_t now = sched_.cycle();
  evaluations_ += sched_.step();
  const NetworkCounters c = counters();
  occupancy_sum_ += c.flits_in_buffers;
  judge(now, c, nullptr);
}

void Fabric::step_local() {
  evaluations_ += sched_.step();
  occupancy_sum_ += counters().flits_in_buffers;
}

void Fabric::judge(uint64_t now, const NetworkCounters& c, const bool* idle) {
  if (c.flit_moves != last_moves_) {
    last_moves_ = c.flit_moves;
    last_move_cycle_ = now;
  }
  if (status_ != RunStatus::kRunning) return;
  const bool in_flight = c.flits_injected > c.flits_ejected;
  if (!in_flight && c.endpoints_finished == static_cast<uint64_t>(topo_.nodes())) {
    status_ = RunStatus::kDone;
    return;
  }
  const sw::NetworkParams& p = spec_.params;
  if (in_flight && now - last_move_cycle_ >= p.watchdog_cycles) {
    status_ = RunStatus::kStalled;
    stop_reason_ = fmt::format("watchdog: no flit moved for {} cycles (cycle {}) with {} flits in flight",
                               p.watchdog_cycles, now, c.flits_injected - c.flits_ejected);
  } else if (!in_flight && (idle ? *idle : sched_.idle())) {
    status_ = RunStatus::kStalled;
    stop_reason_ = fmt::format("nothing can advance (cycle {}): {} of {} endpoints finished and nothing in flight", now,
                               c.endpoints_finished, topo_.nodes());
  } else if (p.max_cycles && sched_.cycle() >= p.max_cycles) {
    status_ = RunStatus::kLimit;
    stop_reason_ = fmt::format("cycle limit max_cycles = {} reached with {} of {} endpoints finished", p.max_cycles,
                               c.endpoints_finished, topo_.nodes());
  }
}

uint64_t Fabric::skip_idle(uint64_t max_skip) {
  if (status_ != RunStatus::kRunning) return 0;
  const uint64_t skip = std::min(idle_cycles(sched_.cycles_until_due(), nullptr), max_skip);
  skip_cycles(skip);
  return skip;
}

uint64_t Fabric::idle_cycles(uint64_t until_due, const NetworkCounters* given) const {
  // If nothing will ever be due while flits are in flight, skip to the cycle the watchdog fires
  // (what clocking the idle network would reach).
  uint64_t skip = until_due;
  if (skip == UINT64_MAX) {
    const NetworkCounters c = given ? *given : counters();
    const bool in_flight = c.flits_injected > c.flits_ejected;
    const uint64_t fire = last_move_cycle_ + spec_.params.watchdog_cycles;
    skip = in_flight && fire > sched_.cycle() ? fire - sched_.cycle() : 0;
  }
  if (spec_.params.max_cycles && sched_.cycle() + skip > spec_.params.max_cycles)
    skip = spec_.params.max_cycles - std::min(spec_.params.max_cycles, sched_.cycle());
  return skip;
}

void Fabric::skip_cycles(uint64_t skip) {
  if (skip == 0) return;
  // Nothing moves in the skipped cycles, but the flits in the buffers are there in each of them.
  occupancy_sum_ += skip * counters().flits_in_buffers;
  sched_.skip(skip);
}

RunStatus Fabric::run() {
  while (status_ == RunStatus::kRunning) {
    skip_idle();
    step();
  }
  return status_;
}

uint64_t Fabric::flit_hops() const {
  uint64_t s = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += routers_[v]->stats().flit_hops;
  return s;
}

uint64_t Fabric::router_evaluations() const {
  uint64_t s = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += routers_[v]->stats().evaluations;
  return s;
}

uint64_t Fabric::blocked_vc_cycles() const {
  uint64_t s = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += routers_[v]->blocked_vc_cycles(sched_.cycle());
  return s;
}

uint64_t Fabric::preemptions() const {
  uint64_t s = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += routers_[v]->preemptions();
  return s;
}

uint64_t Fabric::gossip_copies() const {
  uint64_t s = 0;
  for (size_t v = 0; v < native_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += native_[v]->gossip_copies();
  for (size_t v = 0; v < port_routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += port_routers_[v]->tails_forwarded();
  return s;
}

uint64_t Fabric::gossip_deliveries() const {
  uint64_t s = 0;
  for (size_t v = 0; v < native_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += native_[v]->gossip_deliveries();
  for (size_t v = 0; v < port_routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += port_routers_[v]->tails_ejected();
  return s;
}

uint64_t Fabric::preempted_cycles() const {
  uint64_t s = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) s += routers_[v]->preempted_cycles(sched_.cycle());
  return s;
}

uint32_t Fabric::max_vc_occupancy() const {
  uint32_t m = 0;
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) m = std::max(m, routers_[v]->max_vc_occupancy());
  return m;
}

std::vector<uint64_t> Fabric::link_flits() const {
  std::vector<uint64_t> out(net_link_.size(), 0);
  for (size_t i = 0; i < net_link_.size(); ++i)
    if (net_link_[i] && owns(static_cast<sw::NodeId>(i / static_cast<size_t>(topo_.ports()))))
      out[i] = net_link_[i]->flit_count();
  return out;
}

void Fabric::visit_flits(const FlitVisitor& visit) const {
  for (size_t v = 0; v < routers_.size(); ++v)
    if (owns(static_cast<sw::NodeId>(v))) routers_[v]->visit_flits(sched_.cycle(), visit);
}

// --- partitioned runs -----------------------------------------------------------------------------

void Fabric::start_owned() {
  for (auto& e : endpoints_) {
    if (!owns(e->node())) continue;
    e->start();
    sched_.wake(0, e->clock_id());
  }
}

void Fabric::set_partition(const Partition& part, int rank) {
  const sw::NodeId n = topo_.nodes();
  TORX_CHECK(part.owner.size() == static_cast<size_t>(n), "a partition of another network");
  TORX_CHECK(rank >= 0 && rank < part.ranks, "rank out of range");
  TORX_CHECK(!observed_ && sched_.cycle() == 0 && owned_.empty(), "partition a fabric once, before it runs, without observers");
  owned_.assign(static_cast<size_t>(n), 0);
  for (sw::NodeId v = 0; v < n; ++v) owned_[static_cast<size_t>(v)] = part.owner[static_cast<size_t>(v)] == rank;
  sched_.add(&exporter_);
  sched_.set_lanes(1, static_cast<uint32_t>(sched_.blocks()), 0, static_cast<uint32_t>(sched_.blocks()));
  for (size_t i = 0; i < nlinks_; ++i) links_[i].set_shared(false);
  const LinkEnd exporter_end{exporter_.clock_id(), &exporter_mask_, 1};
  const int np = topo_.ports();
  for (sw::NodeId v = 0; v < n; ++v)
    for (int q = 0; q < np; ++q) {
      Link* l = net_link_[static_cast<size_t>(v) * np + q];
      if (!l) continue;
      const sw::NodeId u = topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      const int rv = part.owner[static_cast<size_t>(v)], ru = part.owner[static_cast<size_t>(u)];
      const uint32_t index = static_cast<uint32_t>(l - links_.get());
      if (rv == rank && ru != rank) {
        // This rank sends on the link: its flits go into a proxy of the receiver's buffer (same
        // shape, same write pointer), which wakes the exporter instead of the receiver.
        Proxy px;
        px.link = l;
        px.rank = ru;
        px.index = index;
        FlitSink sink = l->sink();
        px.regs.assign(static_cast<size_t>(sink.vcs) * sink.lanes, InputVc{});
        px.ram.assign(static_cast<size_t>(sink.vcs) * sink.lanes * sink.depth, Flit{});
        proxies_.push_back(std::move(px));
      } else if (ru == rank && rv != rank) {
        // This rank receives on the link: its credits go back to the sender's rank.
        l->redirect_credits(exporter_end);
        cut_lines_.push_back(CutLine{rv, index, l, nullptr});
      }
    }
  for (Proxy& px : proxies_) {  // (attached once proxies_ no longer moves)
    FlitSink sink = px.link->sink();
    sink.regs = px.regs.data();
    sink.ram = px.ram.data();
    sink.block = exporter_.clock_id();
    sink.occupied = nullptr;
    sink.occupied_bit = 0;
    px.link->attach(sink);
  }
  // Barrier wires: a unit of this rank pulses its parent's gather wire and its children's release
  // wires; those of units on other ranks wake the exporter.
  std::vector<char> seen(2 * static_cast<size_t>(n), 0);
  auto cut_wire = [&](sw::NodeId to, bool release) {
    const size_t id = 2 * static_cast<size_t>(to) + release;
    if (owns(to) || seen[id]) return;
    seen[id] = 1;
    TokenWire& w = release ? barriers_[static_cast<size_t>(to)]->release_in() : barriers_[static_cast<size_t>(to)]->gather_in();
    w.redirect(exporter_.clock_id());
    cut_lines_.push_back(CutLine{part.owner[static_cast<size_t>(to)], static_cast<uint32_t>(id), nullptr, &w});
  };
  for (sw::NodeId v = 0; v < n; ++v) {
    if (!owns(v)) continue;
    const BarrierUnit& u = *barriers_[static_cast<size_t>(v)];
    if (!u.root())
      cut_wire(topo_.neighbor(v, sw::Topology::port_dim(u.parent_port()), sw::Topology::port_dir(u.parent_port())), false);
    for (int q = 0; q < np; ++q)
      if ((u.child_mask() >> q) & 1u) cut_wire(topo_.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q)), true);
  }
}

uint64_t Fabric::cut_deadline() const {
  uint64_t d = UINT64_MAX;
  for (const Proxy& px : proxies_) {
    const FlitSink& sink = px.link->sink();
    for (size_t li = 0; li < px.regs.size(); ++li) {
      const InputVc& r = px.regs[li];
      if (r.tail == r.head_q) continue;
      const Flit& f = px.ram[li * sink.depth + r.head_slot];
      d = std::min(d, f.due - px.link->due_offset() + 1);
    }
  }
  for (const CutLine& c : cut_lines_) {
    if (c.link && !c.link->credit_line().empty()) d = std::min(d, c.link->credit_line().front_due());
    if (c.wire && !c.wire->empty()) d = std::min(d, c.wire->line().front_due());
  }
  return d;
}

namespace {

enum : uint8_t { kRecFlit = 1, kRecCredit = 2, kRecPulse = 3 };

template <class T>
void put(std::vector<uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}

template <class T>
T get(const uint8_t*& p, const uint8_t* end) {
  if (static_cast<size_t>(end - p) < sizeof(T)) throw std::runtime_error("partitioned run: truncated exchange record");
  T v;
  std::memcpy(static_cast<void*>(&v), p, sizeof(T));
  p += sizeof(T);
  return v;
}

}  // namespace

void Fabric::export_cut(std::vector<std::vector<uint8_t>>& out) {
  for (Proxy& px : proxies_) {
    const uint32_t depth = px.link->sink().depth;
    for (size_t li = 0; li < px.regs.size(); ++li) {
      InputVc& r = px.regs[li];
      while (r.tail != r.head_q) {
        const Flit& f = px.ram[li * depth + r.head_slot];
        std::vector<uint8_t>& o = out[static_cast<size_t>(px.rank)];
        put(o, kRecFlit);
        put(o, px.index);
        put(o, static_cast<uint32_t>(li));
        put(o, r.head_slot);
        put(o, f);
        r.head_slot = static_cast<uint16_t>(r.head_slot + 1u == depth ? 0 : r.head_slot + 1);
        r.advance_head();
      }
    }
  }
  for (CutLine& c : cut_lines_) {
    std::vector<uint8_t>& o = out[static_cast<size_t>(c.rank)];
    if (c.link) {
      LatencyLine<Credit>& line = c.link->credit_line_mut();
      while (!line.empty()) {
        put(o, kRecCredit);
        put(o, c.index);
        put(o, line.front_due());
        put(o, line.front());
        line.pop();
      }
    } else {
      LatencyLine<uint8_t>& line = c.wire->line();
      while (!line.empty()) {
        put(o, kRecPulse);
        put(o, c.index);
        put(o, line.front_due());
        put(o, line.front());
        line.pop();
      }
    }
  }
}

void Fabric::import_cut(const uint8_t* p, size_t n) {
  const uint8_t* end = p + n;
  while (p < end) {
    const uint8_t tag = get<uint8_t>(p, end);
    const uint32_t index = get<uint32_t>(p, end);
    if (tag == kRecFlit) {
      const uint32_t li = get<uint32_t>(p, end);
      const uint16_t slot = get<uint16_t>(p, end);
      const Flit f = get<Flit>(p, end);
      TORX_MODEL_CHECK(index < nlinks_, "exchange record for a link that does not exist");
      links_[index].deliver_flit(f.due, li, slot, f);
    } else if (tag == kRecCredit) {
      const uint64_t due = get<uint64_t>(p, end);
      const Credit c = get<Credit>(p, end);
      TORX_MODEL_CHECK(index < nlinks_, "exchange record for a link that does not exist");
      links_[index].deliver_credit(due, c);
    } else if (tag == kRecPulse) {
      const uint64_t due = get<uint64_t>(p, end);
      const uint8_t value = get<uint8_t>(p, end);
      const size_t v = index / 2;
      TORX_MODEL_CHECK(v < barriers_.size() && owns(static_cast<sw::NodeId>(v)), "exchange record for a wire of another rank");
      (index & 1 ? barriers_[v]->release_in() : barriers_[v]->gather_in()).deliver(due, value);
    } else {
      throw std::runtime_error("partitioned run: unknown exchange record");
    }
  }
}

}  // namespace torx::model
