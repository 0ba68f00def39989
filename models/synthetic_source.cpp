// SPDX-License-Identifier: Apache-2.0
#include "models/synthetic_source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/check.hpp"
#include "models/link.hpp"
#include "models/traffic.hpp"

namespace torx::model {

double SyntheticConfig::mean_size() const {
  double w = 0, s = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    w += size_weights[i];
    s += size_weights[i] * sizes[i];
  }
  return w > 0 ? s / w : 1.0;
}

// --- LatencyHistogram ------------------------------------------------------------------------------

void LatencyHistogram::add(uint64_t latency) {
  const uint64_t bin = std::min(latency, kMaxBins - 1);
  if (bin >= bins_.size()) bins_.resize(std::min<uint64_t>(kMaxBins, std::max<uint64_t>(bin + 1, 2 * bins_.size())), 0);
  ++bins_[bin];
  if (count_ == 0 || latency < min_) min_ = latency;
  max_ = std::max(max_, latency);
  sum_ += latency;
  ++count_;
}

uint64_t LatencyHistogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (size_t b = 0; b < bins_.size(); ++b) {
    seen += bins_[b];
    if (seen >= rank) return b + 1 == kMaxBins ? max_ : b;
  }
  return max_;
}

// --- PacketTable -----------------------------------------------------------------------------------

PacketTable::PacketTable(const sw::Topology& topo, uint32_t queue_limit, uint64_t window_begin, uint64_t window_end)
    : nodes_(topo.nodes()),
      span_((uint64_t{1} << 32) / static_cast<uint64_t>(topo.nodes())),
      limit_(queue_limit),
      begin_(window_begin),
      end_(window_end),
      rings_(static_cast<size_t>(topo.nodes())) {
  TORX_MODEL_CHECK(queue_limit >= 1 && uint64_t{queue_limit} * 2 <= span_, "source queue limit out of range");
}

uint64_t PacketTable::bytes_bound(const sw::Topology& topo, uint32_t queue_limit) {
  uint64_t cap = 16;
  while (cap < queue_limit) cap *= 2;
  return static_cast<uint64_t>(topo.nodes()) * (cap * sizeof(PacketRecord) + sizeof(Ring)) +
         2 * LatencyHistogram::kMaxBins * sizeof(uint64_t);
}

uint32_t PacketTable::create(sw::NodeId src, const PacketRecord& rec) {
  Ring& r = rings_[src];
  TORX_MODEL_CHECK(r.next - r.base < limit_, "source queue over its limit");
  if (r.next - r.base >= r.slots.size()) {
    // Grow by doubling, every outstanding record to its slot in the larger ring.
    std::vector<PacketRecord> bigger(std::max<size_t>(16, 2 * r.slots.size()));
    for (uint64_t s = r.base; s < r.next; ++s) bigger[s & (bigger.size() - 1)] = r.slots[s & (r.slots.size() - 1)];
    r.slots.swap(bigger);
  }
  const uint64_t seq = r.next++;
  at(src, seq) = rec;
  ++totals_.created;
  if (rec.flags & PacketRecord::kTagged) ++totals_.tagged;
  return msg_of(src, seq);
}

void PacketTable::injected_head(sw::NodeId src, uint64_t now) {
  PacketRecord& p = front(src);
  p.injected = now;
  p.flags |= PacketRecord::kInjected;
}

void PacketTable::left_queue(sw::NodeId src) {
  Ring& r = rings_[src];
  TORX_MODEL_CHECK(r.inject < r.next, "no packet in the source queue");
  ++r.inject;
  retire(src);
}

void PacketTable::retire(sw::NodeId src) {
  Ring& r = rings_[src];
  while (r.base < r.inject && (at(src, r.base).flags & PacketRecord::kDelivered)) ++r.base;
}

PacketRecord* PacketTable::find(uint32_t msg, sw::NodeId* src_out) {
  const sw::NodeId src = static_cast<sw::NodeId>(msg % static_cast<uint32_t>(nodes_));
  const uint64_t low = msg / static_cast<uint32_t>(nodes_);
  if (low >= span_) return nullptr;
  Ring& r = rings_[src];
  const uint64_t d = (low + span_ - r.base % span_) % span_;  // sequence numbers ahead of the oldest
  if (src_out) *src_out = src;
  if (d >= r.next - r.base) return nullptr;
  // Outstanding, and its head sent (a packet's head can arrive before its tail has left the queue).
  PacketRecord& p = at(src, r.base + d);
  return (p.flags & PacketRecord::kInjected) ? &p : nullptr;
}

void PacketTable::delivered(uint32_t msg, sw::NodeId node, uint64_t now) {
  sw::NodeId src = 0;
  PacketRecord* p = find(msg, &src);
  if (!p) {
    // Not outstanding: a packet delivered (and retired) before, or never created.
    const uint64_t low = msg / static_cast<uint32_t>(nodes_);
    const Ring& r = rings_[src];
    const uint64_t back = (r.base % span_ + span_ - low) % span_;  // sequence numbers behind the oldest
    if (low < span_ && back >= 1 && back <= r.base && back <= span_ - limit_) ++check_.duplicated;
    else ++check_.unknown;
    return;
  }
  if (p->flags & PacketRecord::kDelivered) {
    ++check_.duplicated;
    return;
  }
  if (p->dst != node) ++check_.misdelivered;
  p->flags |= PacketRecord::kDelivered;
  ++totals_.delivered;
  if (p->flags & PacketRecord::kTagged) {
    ++totals_.tagged_delivered;
    totals_.hops_tagged += p->hops;
    plat_.add(now - p->created);
    nlat_.add(now - p->injected);
  }
  retire(src);
}

uint64_t PacketTable::lost() const {
  uint64_t n = 0;
  for (const Ring& r : rings_)
    for (uint64_t s = r.base; s < r.inject; ++s) {
      const PacketRecord& p = r.slots[s & (r.slots.size() - 1)];
      if ((p.flags & PacketRecord::kInjected) && !(p.flags & PacketRecord::kDelivered)) ++n;
    }
  return n;
}

uint64_t PacketTable::never_injected() const {
  uint64_t n = 0;
  for (const Ring& r : rings_) n += r.next - r.inject;
  return n;
}

// --- SyntheticSource -------------------------------------------------------------------------------

SyntheticSource::SyntheticSource(const sw::Topology& topo, sw::NodeId node, const SyntheticConfig& cfg,
                                 const DestinationPattern& pattern, PacketTable* table, NetworkCounters* counters,
                                 Scheduler* sched)
    : topo_(topo),
      node_(node),
      cfg_(cfg),
      pattern_(pattern),
      table_(table),
      counters_(counters),
      sched_(sched),
      rng_(traffic_mix(cfg.seed ^ traffic_mix(static_cast<uint64_t>(node) + 0x5EED))) {
  TORX_MODEL_CHECK(cfg.rate > 0 && cfg.rate <= 1, "offered rate out of range");
  TORX_MODEL_CHECK(!cfg.sizes.empty() && cfg.sizes.size() == cfg.size_weights.size(), "packet sizes");
  TORX_MODEL_CHECK(cfg.flit_bytes >= 1 && cfg.flit_bytes <= kMaxFlitBytes, "flit width out of range");
  double total = 0;
  for (size_t i = 0; i < cfg.sizes.size(); ++i) {
    TORX_MODEL_CHECK(cfg.sizes[i] >= 1 && cfg.sizes[i] <= 0xFFFF && cfg.size_weights[i] >= 0, "packet size");
    total += cfg.size_weights[i];
    size_cdf_.push_back(total);
  }
  TORX_MODEL_CHECK(total > 0, "packet size weights");
  const double mean = cfg.mean_size();
  if (cfg.injection.kind == InjectionKind::kOnOff) {
    alpha_ = cfg.injection.alpha;
    beta_ = cfg.injection.beta;
    packet_probability_ = cfg.injection.r1 / mean;
    on_ = std::uniform_int_distribution<int>(0, 1)(rng_) == 1;  // BookSim: each source starts on or off at random
  } else {
    packet_probability_ = cfg.rate / mean;
  }
  sends_ = pattern.sends(node);
  credits_ = cfg.injection_depth;
  ej_ram_.resize(static_cast<size_t>(cfg.ejection_depth));
  ej_buf_.configure(&ej_regs_, ej_ram_.data(), 1, cfg.ejection_depth, kMaxFlitWords, 0, 1);
  fault_pending_ = cfg.fault != TrafficFault::kNone && node == 0;
}

void SyntheticSource::connect_ejection(int, Link* link) {
  ej_link_ = link;
  link->attach(ej_buf_.sink(clock_id(), nullptr));
}

void SyntheticSource::start() {
  awake_ = true;
  if (finished() && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[0].endpoints_finished;
  }
}

void SyntheticSource::stop() {
  generating_ = false;
  awake_ = true;
  sched_->wake(0, clock_id());
}

bool SyntheticSource::finished() const { return !generating_ && next_flit_ == 0 && !resend_; }

std::string SyntheticSource::describe() const {
  return fmt::format("node {}: traffic source, {}{} packets queued", node_,
                     generating_ ? "generating, " : "", table_->queued(node_));
}

sw::Route SyntheticSource::route_to(sw::NodeId dst) {
  sw::Route r = topo_.shortest_route(node_, dst, 0);
  if (cfg_.random_ties && topo_.wrap()) {
    for (int d = 0; d < topo_.ndims(); ++d) {
      const int k = topo_.radix(d);
      const int a = topo_.coord_of(node_, d), b = topo_.coord_of(dst, d);
      if (k % 2 == 0 && a != b && 2 * ((b - a + k) % k) == k && std::uniform_int_distribution<int>(0, 1)(rng_))
        r.neg_mask ^= 1u << d;
    }
  }
  return r;
}

void SyntheticSource::generate(uint64_t now) {
  if (cfg_.injection.kind == InjectionKind::kOnOff) {
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    on_ = on_ ? u >= beta_ : u < alpha_;
    if (!on_) return;
  }
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= packet_probability_) return;
  PacketRecord p;
  p.created = now;
  const double u = std::uniform_real_distribution<double>(0.0, size_cdf_.back())(rng_);
  size_t k = static_cast<size_t>(std::upper_bound(size_cdf_.begin(), size_cdf_.end(), u) - size_cdf_.begin());
  k = std::min(k, cfg_.sizes.size() - 1);
  p.flits = static_cast<uint16_t>(cfg_.sizes[k]);
  p.dst = pattern_.dest(node_, rng_);
  const sw::Route r = route_to(p.dst);
  p.neg_mask = r.neg_mask;
  p.start_dim = r.start_dim;
  p.hops = static_cast<uint16_t>(std::min(topo_.distance(node_, p.dst), 0xFFFF));
  const bool tagged = table_->in_window(now);
  if (tagged) {
    p.flags |= PacketRecord::kTagged;
    table_->totals().flits_offered += p.flits;
  }
  if (table_->full(node_)) {
    ++table_->totals().refused;
    if (tagged) ++table_->totals().refused_in_window;
    return;
  }
  table_->create(node_, p);
}

void SyntheticSource::inject(uint64_t now, int lane) {
  if (!table_->queued(node_) || credits_ <= 0) return;
  PacketRecord& p = table_->front(node_);
  const uint32_t msg = table_->front_msg(node_);
  if (next_flit_ == 0 && !resend_) {
    table_->injected_head(node_, now);
    if (fault_pending_ && (p.flags & PacketRecord::kTagged)) {
      fault_pending_ = false;
      fault_active_ = true;
      if (cfg_.fault == TrafficFault::kDrop) {  // taken as injected, never sent
        fault_active_ = false;
        table_->left_queue(node_);
        return;
      }
    }
  }
  const bool head = next_flit_ == 0, tail = next_flit_ + 1 == p.flits;
  const bool damage = fault_active_ && head;
  sw::NodeId dst = p.dst;
  sw::Route route{p.start_dim, p.neg_mask};
  if (damage && cfg_.fault == TrafficFault::kMisdeliver) {
    dst = (p.dst + 1) % topo_.nodes();
    route = topo_.shortest_route(node_, dst, 0);
  }
  inj_link_->send_flit_with(now, lane, 0, 0, tail_slot_, [&](Flit& f) {
    f.msg = msg;
    f.seq = next_flit_;
    f.kind = static_cast<uint8_t>((head ? kFlitHead : 0) | (tail ? kFlitTail : 0));
    f.dest = dst;
    f.start_dim = route.start_dim;
    f.neg_mask = route.neg_mask;
    f.priority = 0;
    fill_traffic_payload(f, msg, next_flit_, cfg_.flit_bytes);
    if (damage && cfg_.fault == TrafficFault::kCorrupt) f.payload[0] ^= 1;
  });
  tail_slot_ = inj_link_->next_slot(tail_slot_);
  --credits_;
  if (table_->in_window(now)) ++table_->totals().flits_injected;
  ++counters_[lane].flit_moves;
  ++counters_[lane].flits_injected;
  if (!tail) {
    ++next_flit_;
    return;
  }
  next_flit_ = 0;
  if (fault_active_ && cfg_.fault == TrafficFault::kDuplicate && !resend_) {
    resend_ = true;  // the same packet once more, msg and all
    return;
  }
  resend_ = false;
  fault_active_ = false;
  table_->left_queue(node_);
}

void SyntheticSource::receive(const Flit& f, uint64_t now) {
  PacketTable::Check& chk = table_->check();
  ++chk.flits;
  if (!traffic_payload_ok(f, cfg_.flit_bytes)) ++chk.corrupted;
  if (f.head()) {
    if (ej_busy_) ++chk.out_of_order;  // a head inside a packet: the one before lost its tail
    ej_busy_ = true;
    ej_msg_ = f.msg;
    ej_next_ = 0;
  }
  if (!ej_busy_ || f.msg != ej_msg_ || f.seq != ej_next_) {
    ++chk.out_of_order;
    ej_next_ = f.seq;
    ej_msg_ = f.msg;
  }
  ++ej_next_;
  if (table_->in_window(now)) ++table_->totals().flits_accepted;
  if (!f.tail()) return;
  ej_busy_ = false;
  if (const PacketRecord* p = table_->find(f.msg)) {
    if (ej_next_ != p->flits) ++chk.out_of_order;  // a packet of another length than it was sent with
  }
  table_->delivered(f.msg, node_, now);
}

void SyntheticSource::evaluate(uint64_t now, int lane) {
  // 1. Ejection: one flit per cycle, checked, its credit returned at once.
  if (ej_buf_.vc(0).count() != 0 && ej_buf_.front(0).due <= now) {
    receive(ej_buf_.front(0), now);
    ej_buf_.pop(0);
    ej_link_->send_credit(now, lane, Credit{0});
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_ejected;
  }
  // 2. Credits.
  if (Link::credit_bits(credit_mask_)) {
    while (inj_link_->credit_ready(now)) {
      inj_link_->take_credit();
      ++credits_;
    }
  }
  // 3. Generation; 4. injection (stopped: only the rest of a packet begun).
  if (generating_ && sends_) generate(now);
  if (generating_ || next_flit_ != 0 || resend_) inject(now, lane);
  const bool done = finished();
  if (done && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[lane].endpoints_finished;
  }
  // Awake while generating or injecting; flits and credits wake it otherwise.
  awake_ = generating_ || !done;
}

}  // namespace torx::model
