// SPDX-License-Identifier: Apache-2.0
#include "models/traffic.hpp"

#include <fmt/format.h>

#include <cstring>

#include "models/check.hpp"
#include "models/link.hpp"

namespace torx::model {

const char* traffic_pattern_name(TrafficPattern p) {
  switch (p) {
    case TrafficPattern::kUniform: return "uniform";
    case TrafficPattern::kHotspot: return "hotspot";
    case TrafficPattern::kNeighbour: return "neighbour";
  }
  return "?";
}

uint64_t TrafficSource::payload_word(uint32_t msg, uint32_t seq, uint32_t w) {
  return traffic_mix((uint64_t{msg} << 32) ^ (uint64_t{seq} << 6) ^ w);
}

void fill_traffic_payload(Flit& f, uint32_t msg, uint32_t seq, uint32_t flit_bytes) {
  std::memset(f.payload, 0, sizeof(f.payload));
  for (uint32_t i = 0; i < (flit_bytes + 7) / 8; ++i) f.payload[i] = TrafficSource::payload_word(msg, seq, i);
  if (flit_bytes % 8) f.payload[flit_bytes / 8] &= (uint64_t{1} << (8 * (flit_bytes % 8))) - 1;
}

bool traffic_payload_ok(const Flit& f, uint32_t flit_bytes) {
  uint64_t want[kMaxFlitWords] = {};
  for (uint32_t w = 0; w < (flit_bytes + 7) / 8; ++w) want[w] = TrafficSource::payload_word(f.msg, f.seq, w);
  if (flit_bytes % 8) want[flit_bytes / 8] &= (uint64_t{1} << (8 * (flit_bytes % 8))) - 1;
  return std::memcmp(want, f.payload, (flit_bytes + 7) / 8 * 8) == 0;
}

TrafficSource::TrafficSource(const sw::Topology& topo, sw::NodeId node, int channels, const TrafficConfig& cfg,
                             NetworkCounters* counters, Scheduler* sched)
    : topo_(topo),
      node_(node),
      cfg_(cfg),
      counters_(counters),
      sched_(sched),
      rng_(traffic_mix(cfg.seed ^ traffic_mix(node))) {
  TORX_MODEL_CHECK(cfg.load > 0 && cfg.load <= 1 && cfg.max_worm_flits >= 1 && cfg.queue_limit >= 1,
                   "traffic configuration out of range");
  TORX_MODEL_CHECK(cfg.flit_bytes >= 1 && cfg.flit_bytes <= kMaxFlitBytes, "flit width out of range");
  inj_.resize(static_cast<size_t>(channels));
  for (Injection& c : inj_) {
    c.queue.resize(static_cast<size_t>(cfg.queue_limit));
    c.credits = cfg.injection_depth;
  }
  const int k = cfg.priority_levels;
  ej_.resize(static_cast<size_t>(channels) * k);
  ej_buf_.resize(static_cast<size_t>(channels));
  ej_regs_.resize(ej_.size());
  ej_ram_.resize(ej_.size() * static_cast<size_t>(cfg.ejection_depth));
  for (size_t c = 0; c < ej_buf_.size(); ++c)
    ej_buf_[c].configure(&ej_regs_[c * k], &ej_ram_[c * k * cfg.ejection_depth], 1, cfg.ejection_depth, kMaxFlitWords,
                         0, k);
  next_barrier_ = cfg.barrier_every ? cfg.barrier_every : UINT64_MAX;
}

void TrafficSource::connect_ejection(int ch, Link* link) {
  for (int q = 0; q < cfg_.priority_levels; ++q) ej_[static_cast<size_t>(ch) * cfg_.priority_levels + q].link = link;
  link->attach(ej_buf_[ch].sink(clock_id(), nullptr));
}

void TrafficSource::configure_barrier(int latency) { release_in_.configure(latency, 1, sched_, clock_id()); }

void TrafficSource::start() {
  awake_ = true;
  if (finished() && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[0].endpoints_finished;
  }
}

bool TrafficSource::finished() const {
  if (generated_until_ < cfg_.cycles || in_barrier_ || draining_) return false;
  for (const Injection& c : inj_)
    if (c.count) return false;
  return true;
}

std::string TrafficSource::describe() const {
  size_t queued = 0;
  for (const Injection& c : inj_) queued += c.count;
  return fmt::format("node {}: traffic source, {} of {} generation cycles, {} worms queued{}", node_, generated_until_,
                     cfg_.cycles, queued, in_barrier_ ? ", in the barrier" : draining_ ? ", draining for a barrier" : "");
}

void TrafficSource::generate(uint64_t) {
  ++generated_until_;
  const double mean = (1.0 + cfg_.max_worm_flits) / 2.0;
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= cfg_.load / mean) return;
  const sw::NodeId n = topo_.nodes();
  Worm w;
  w.flits = static_cast<uint32_t>(std::uniform_int_distribution<int>(1, cfg_.max_worm_flits)(rng_));
  if (cfg_.priority_levels > 1)
    w.level = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, cfg_.priority_levels - 1)(rng_));
  const int nd = topo_.ndims();
  switch (cfg_.pattern) {
    case TrafficPattern::kNeighbour: {
      int port = 0;
      sw::NodeId dst = -1;
      for (int tries = 0; dst < 0 || dst == node_; ++tries) {
        TORX_MODEL_CHECK(tries < 1000, "no neighbour to send to");
        port = std::uniform_int_distribution<int>(0, 2 * nd - 1)(rng_);
        dst = topo_.neighbor(node_, sw::Topology::port_dim(port), sw::Topology::port_dir(port));
      }
      w.dst = dst;
      w.route.start_dim = static_cast<uint8_t>(sw::Topology::port_dim(port));
      w.route.neg_mask = sw::Topology::port_dir(port) < 0 ? 1u << sw::Topology::port_dim(port) : 0u;
      break;
    }
    case TrafficPattern::kHotspot:
      if (node_ != 0 && std::uniform_int_distribution<int>(0, 1)(rng_)) {
        w.dst = 0;
        break;
      }
      [[fallthrough]];
    case TrafficPattern::kUniform: {
      sw::NodeId d = std::uniform_int_distribution<sw::NodeId>(0, n - 2)(rng_);
      w.dst = d >= node_ ? d + 1 : d;
      break;
    }
  }
  if (cfg_.pattern != TrafficPattern::kNeighbour) {
    const int start = cfg_.mixed_orders ? std::uniform_int_distribution<int>(0, nd - 1)(rng_) : 0;
    w.route = topo_.shortest_route(node_, w.dst, start);
  }
  // The channel of the first link (all-port), else the only one.
  w.channel = 0;
  if (inj_.size() > 1) {
    int first = -1;
    topo_.for_each_link(node_, w.dst, w.route, [&](sw::LinkId l) {
      if (first < 0) first = topo_.link_port(l);
    });
    w.channel = static_cast<uint8_t>(first);
  }
  Injection& c = inj_[w.channel];
  if (c.count == c.queue.size()) {
    ++totals_.worms_refused;
    return;
  }
  w.msg = next_msg_++ * static_cast<uint32_t>(n) + static_cast<uint32_t>(node_);
  c.queue[(c.head + c.count++) % c.queue.size()] = w;
  ++totals_.worms_offered;
}

void TrafficSource::receive(const Flit& f, Ejection& e) {
  if (f.dest != node_)
    throw std::logic_error(fmt::format("traffic: flit {} of message {} for node {} arrived at node {}", f.seq, f.msg,
                                       f.dest, node_));
  if (f.head()) {
    if (e.busy)
      throw std::logic_error(fmt::format("traffic: node {}: head of message {} arrived inside message {}", node_, f.msg,
                                         e.msg));
    e.busy = true;
    e.msg = f.msg;
    e.next_seq = 0;
  }
  if (!e.busy || f.msg != e.msg || f.seq != e.next_seq)
    throw std::logic_error(fmt::format("traffic: node {}: flit {} of message {} arrived, expected flit {} of message {}",
                                       node_, f.seq, f.msg, e.next_seq, e.msg));
  ++e.next_seq;
  if (!traffic_payload_ok(f, cfg_.flit_bytes))
    throw std::logic_error(fmt::format("traffic: node {}: flit {} of message {} arrived with a corrupted payload",
                                       node_, f.seq, f.msg));
  ++totals_.flits_delivered;
  if (f.tail()) {
    e.busy = false;
    ++totals_.worms_delivered;
  }
}

void TrafficSource::evaluate(uint64_t now, int lane) {
  // Ejection: one flit per channel and cycle (in the lane of its level), checked, its credit returned
  // at once.
  for (size_t c = 0; c < ej_buf_.size(); ++c) {
    InputUnit& buf = ej_buf_[c];
    for (int q = 0; q < buf.lanes(); ++q) {
      if (buf.vc(q).count() == 0 || buf.front(q).due > now) continue;
      Ejection& e = ej_[c * buf.lanes() + q];
      receive(buf.front(q), e);
      if (cfg_.arrivals && buf.front(q).tail())
        cfg_.arrivals->push_back(TrafficArrival{buf.front(q).msg, node_, static_cast<uint16_t>(c), static_cast<uint8_t>(q),
                                                buf.front(q).seq + 1, now});
      buf.pop(q);
      e.link->send_credit(now, lane, Credit{0});
      ++counters_[lane].flit_moves;
      ++counters_[lane].flits_ejected;
    }
  }
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) {
    Injection& c = inj_[__builtin_ctzll(m)];
    while (c.link->credit_ready(now)) {
      c.link->take_credit();
      ++c.credits;
    }
  }
  // Barriers and generation.
  if (release_in_.take(now)) {
    TORX_MODEL_CHECK(in_barrier_, "barrier release without entry");
    in_barrier_ = false;
    next_barrier_ += cfg_.barrier_every;
  }
  if (!in_barrier_) {
    if (!draining_ && generated_until_ == next_barrier_ && generated_until_ < cfg_.cycles) draining_ = true;
    if (draining_) {
      bool empty = true;
      for (const Injection& c : inj_) empty &= c.count == 0;
      if (empty) {
        draining_ = false;
        in_barrier_ = true;
        ++totals_.barriers;
        entry_->send(now, lane);
      }
    } else if (generated_until_ < cfg_.cycles) {
      generate(now);
    }
  }
  // Injection: one flit per channel and cycle while credits last (above the throttle's reserve for
  // the worm's level).
  for (Injection& c : inj_) {
    if (!c.count) continue;
    const Worm& w = c.queue[c.head];
    if (c.credits <= (cfg_.priority_levels - 1 - w.level) * cfg_.priority_reserve) continue;
    const bool head = c.next_flit == 0, tail = c.next_flit + 1 == w.flits;
    uint16_t& slot = c.tail_slot[w.level];
    c.link->send_flit_with(now, lane, 0, w.level, slot, [&](Flit& f) {
      f.msg = w.msg;
      f.seq = c.next_flit;
      f.kind = static_cast<uint8_t>((head ? kFlitHead : 0) | (tail ? kFlitTail : 0));
      f.dest = w.dst;
      f.start_dim = w.route.start_dim;
      f.neg_mask = w.route.neg_mask;
      f.priority = w.level;
      fill_traffic_payload(f, w.msg, c.next_flit, cfg_.flit_bytes);
    });
    slot = c.link->next_slot(slot);
    --c.credits;
    ++totals_.flits_sent;
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_injected;
    if (tail) {
      c.next_flit = 0;
      c.head = (c.head + 1) % c.queue.size();
      --c.count;
    } else {
      ++c.next_flit;
    }
  }
  const bool done = finished();
  if (done && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[lane].endpoints_finished;
  }
  // Awake while generating or injecting; flits, credits and the release wake it otherwise.
  awake_ = !done && !in_barrier_;
}

}  // namespace torx::model
