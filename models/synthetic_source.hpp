// SPDX-License-Identifier: Apache-2.0
// SyntheticSource: the endpoint of `torx traffic` (docs/traffic.md), BookSim's traffic manager at one
// node: it creates packets by an injection process and a destination pattern, queues them in an
// unbounded (up to a memory limit) source queue, injects them flit by flit as credits allow, and
// receives, checks and times every packet that arrives. PacketTable keeps what the measurement
// needs of every packet between its creation and its delivery.
//
// Per cycle t, in this order (as BookSim's _Step: eject, generate, inject):
//   1. Ejection: the flit at the front of the ejection buffer, if due, is taken (its credit
//      returned at once: the node sinks one flit per cycle) and checked: it belongs to a packet the
//      table knows, the packet was meant for this node, its flits arrive in order (head, then
//      consecutive sequence numbers, tail at the packet's length), every payload byte is the one its
//      identity prescribes (fill_traffic_payload), and no packet arrives twice. A violation is
//      counted (PacketTable::Check), not thrown: the run reports it and fails (exit code 1).
//      At the tail the packet's latencies are recorded (see PacketTable).
//   2. Credits from the router's injection buffer.
//   3. Generation, while the run generates: the injection process decides whether a packet is
//      created in cycle t (Bernoulli: probability rate / mean packet length; on-off: BookSim's
//      two-state Markov process, parameters burst_alpha, burst_beta, burst_r1); if so, its length,
//      destination and route are drawn and it joins the source queue with creation cycle t. A
//      source whose queue holds queue_limit packets refuses new ones (counted: the run is
//      saturated).
//   4. Injection: one flit per cycle of the packet at the queue's front while credits last; the
//      cycle its head is pushed onto the injection link is its injection cycle.
//
// Routes: dimension order from x (BookSim's dim_order_torus and dim_order_mesh), the shorter way
// round each torus ring; at a tie (radix even, distance radix / 2) the direction is drawn at random,
// as BookSim does (random_ties = false sends ties the + way, as the algorithms' schedules do).
//
// Randomness comes from one generator per source seeded by (seed, node): the same seed gives the same
// packets, cycles and figures. All sources of a network are evaluated in one lane (fabric.hpp), and
// they share the PacketTable; nothing else is shared.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "core/traffic_names.hpp"
#include "models/endpoint.hpp"
#include "models/input_unit.hpp"
#include "models/traffic_pattern.hpp"

namespace torx::model {

using sw::InjectionKind;

struct InjectionSpec {
  InjectionKind kind = InjectionKind::kBernoulli;
  // On-off (BookSim's OnOffInjectionProcess): per cycle an off source turns on with probability
  // alpha, an on source turns off with probability beta; an on source offers r1 flits per cycle.
  // The long-run rate is r1 alpha / (alpha + beta); given the rate, r1 follows from alpha and beta.
  double alpha = 0, beta = 0, r1 = 0;
};

using sw::TrafficFault;  // planted faults, for proving the checker

struct SyntheticConfig {
  double rate = 0.1;                     // offered flits per node and cycle, (0, 1]
  InjectionSpec injection;
  std::vector<uint32_t> sizes{4};        // packet lengths in flits ...
  std::vector<double> size_weights{1};   // ... and their relative weights
  uint64_t seed = 1;
  uint32_t flit_bytes = 16;
  int injection_depth = 8;               // the router's injection buffer: initial credits
  int ejection_depth = 8;                // this node's ejection buffer
  bool random_ties = true;
  uint32_t queue_limit = 1024;           // packets per source between creation and delivery
  TrafficFault fault = TrafficFault::kNone;

  double mean_size() const;
};

// One packet between its creation and its delivery.
struct PacketRecord {
  uint64_t created = 0;   // cycle the source created it
  uint64_t injected = 0;  // cycle its head was pushed onto the injection link
  sw::NodeId dst = 0;
  uint32_t neg_mask = 0;
  uint16_t flits = 0;
  uint8_t start_dim = 0;
  uint8_t flags = 0;      // kTagged | kInjected | kDelivered
  uint16_t hops = 0;
  static constexpr uint8_t kTagged = 1, kInjected = 2, kDelivered = 4;
};

// Exact latency histogram: one bin per cycle up to kMaxBins - 1 (latencies beyond count in the last
// bin; the maximum is kept exactly).
class LatencyHistogram {
 public:
  static constexpr uint64_t kMaxBins = uint64_t{1} << 20;
  void add(uint64_t latency);
  uint64_t count() const { return count_; }
  uint64_t sum() const { return sum_; }
  uint64_t max() const { return max_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  // The smallest latency L with at least q of the samples <= L (nearest rank), 0 if empty.
  uint64_t quantile(double q) const;
  const std::vector<uint64_t>& bins() const { return bins_; }

 private:
  std::vector<uint64_t> bins_;
  uint64_t count_ = 0, sum_ = 0, max_ = 0, min_ = 0;
};

// The packets of every source of a network, and what their deliveries measured. Packets created in
// the measurement window [window_begin, window_end) are tagged; the latencies of tagged packets go
// into the histograms (packet latency: creation to tail ejected, BookSim's plat; network latency:
// head injected to tail ejected, nlat), and the flits offered, injected and ejected in the window
// are counted (offered, injected and accepted throughput).
//
// A packet is identified in its flits by msg = (sequence number mod S) * N + source, S = 2^32 / N:
// a source never has more than queue_limit < S packets outstanding, so the pair is unique.
class PacketTable {
 public:
  PacketTable(const sw::Topology& topo, uint32_t queue_limit, uint64_t window_begin, uint64_t window_end);

  // Sources.
  bool full(sw::NodeId src) const { return rings_[src].next - rings_[src].base >= limit_; }
  // Appends a record (the table must not be full); returns the packet's msg.
  uint32_t create(sw::NodeId src, const PacketRecord& r);
  uint64_t queued(sw::NodeId src) const { return rings_[src].next - rings_[src].inject; }
  // The packet at the front of src's queue (queued(src) > 0), and its msg.
  PacketRecord& front(sw::NodeId src) { return at(src, rings_[src].inject); }
  uint32_t front_msg(sw::NodeId src) const { return msg_of(src, rings_[src].inject); }
  // Its head was pushed in cycle `now` (first flit) / its tail (it leaves the queue).
  void injected_head(sw::NodeId src, uint64_t now);
  void left_queue(sw::NodeId src);

  // Receivers. The record of the packet of `msg` if the table knows it (outstanding, its head
  // sent), else null.
  PacketRecord* find(uint32_t msg, sw::NodeId* src = nullptr);
  // Its tail arrived at `node` in cycle `now`: latencies, delivery, and the record retired when it
  // is the oldest outstanding of its source.
  void delivered(uint32_t msg, sw::NodeId node, uint64_t now);

  bool in_window(uint64_t cycle) const { return cycle >= begin_ && cycle < end_; }

  struct Check {
    uint64_t flits = 0;          // flits checked
    uint64_t corrupted = 0;      // flits whose payload differs from the prescribed one
    uint64_t misdelivered = 0;   // packets that arrived at another node than their destination
    uint64_t duplicated = 0;     // packets that arrived a second time
    uint64_t out_of_order = 0;   // flits out of wormhole order (a head inside a packet, a gap, a short packet)
    uint64_t unknown = 0;        // heads of packets the table does not know
  };
  struct Totals {
    uint64_t created = 0, tagged = 0, refused = 0, refused_in_window = 0;
    uint64_t delivered = 0, tagged_delivered = 0;
    uint64_t flits_offered = 0, flits_injected = 0, flits_accepted = 0;  // in the window
    uint64_t hops_tagged = 0;  // summed over the tagged packets delivered
  };
  Check& check() { return check_; }
  const Check& check() const { return check_; }
  Totals& totals() { return totals_; }
  const Totals& totals() const { return totals_; }
  const LatencyHistogram& packet_latency() const { return plat_; }
  const LatencyHistogram& network_latency() const { return nlat_; }
  uint64_t tagged_outstanding() const { return totals_.tagged - totals_.tagged_delivered; }
  // Packets injected (head pushed) but never delivered, and packets created but never injected.
  uint64_t lost() const;
  uint64_t never_injected() const;
  // Bytes a table for `topo` can grow to (memory estimate).
  static uint64_t bytes_bound(const sw::Topology& topo, uint32_t queue_limit);

 private:
  struct Ring {
    std::vector<PacketRecord> slots;  // power-of-two capacity, grown by doubling up to the limit
    uint64_t base = 0;                // oldest not yet retired
    uint64_t inject = 0;              // next to inject (front of the source queue)
    uint64_t next = 0;                // next to create
  };
  PacketRecord& at(sw::NodeId src, uint64_t seq) {
    Ring& r = rings_[src];
    return r.slots[seq & (r.slots.size() - 1)];
  }
  uint32_t msg_of(sw::NodeId src, uint64_t seq) const {
    return static_cast<uint32_t>((seq % span_) * static_cast<uint64_t>(nodes_) + static_cast<uint64_t>(src));
  }
  void retire(sw::NodeId src);

  sw::NodeId nodes_;
  uint64_t span_;  // S
  uint32_t limit_;
  uint64_t begin_, end_;
  std::vector<Ring> rings_;
  Check check_;
  Totals totals_;
  LatencyHistogram plat_, nlat_;
};

class SyntheticSource final : public Endpoint {
 public:
  SyntheticSource(const sw::Topology& topo, sw::NodeId node, const SyntheticConfig& cfg,
                  const DestinationPattern& pattern, PacketTable* table, NetworkCounters* counters, Scheduler* sched);

  sw::NodeId node() const override { return node_; }
  int channels() const override { return 1; }
  void connect_injection(int, Link* link) override { inj_link_ = link; }
  void connect_ejection(int ch, Link* link) override;
  LinkEnd credit_end(int) override { return LinkEnd{clock_id(), &credit_mask_, 1}; }
  void configure_barrier(int latency) override { release_in_.configure(latency, 1, sched_, clock_id()); }
  TokenWire& release_in() override { return release_in_; }
  void connect_barrier(TokenWire*) override {}
  void start() override;
  bool finished() const override;
  std::string describe() const override;

  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return awake_; }

  // Between two cycles: stop creating packets and, once the packet being injected is complete,
  // injecting (the run's flush: what is in the network is delivered and checked, what waits in the
  // queue stays there).
  void stop();

 private:
  void generate(uint64_t now);
  void inject(uint64_t now, int lane);
  void receive(const Flit& f, uint64_t now);
  sw::Route route_to(sw::NodeId dst);

  sw::Topology topo_;
  sw::NodeId node_;
  SyntheticConfig cfg_;
  const DestinationPattern& pattern_;
  PacketTable* table_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  std::mt19937_64 rng_;
  std::vector<double> size_cdf_;
  double packet_probability_ = 0;  // per cycle (Bernoulli), or per on-cycle (on-off)
  double alpha_ = 0, beta_ = 0;
  bool on_ = false;
  bool sends_ = true;
  // Injection channel.
  Link* inj_link_ = nullptr;
  int32_t credits_ = 0;
  uint16_t tail_slot_ = 0;
  uint32_t next_flit_ = 0;        // of the packet at the queue's front
  bool fault_pending_ = false;    // node 0 with a planted fault: its first tagged packet
  bool fault_active_ = false;     // the front packet is the damaged one
  bool resend_ = false;           // kDuplicate: the front packet goes again
  // Ejection channel: one VC, one lane.
  InputUnit ej_buf_;
  InputVc ej_regs_;
  std::vector<Flit> ej_ram_;
  Link* ej_link_ = nullptr;
  bool ej_busy_ = false;
  uint32_t ej_msg_ = 0, ej_next_ = 0;
  uint64_t credit_mask_ = 0;
  TokenWire release_in_;
  bool generating_ = true;
  bool awake_ = true;
  bool counted_finished_ = false;
};

}  // namespace torx::model
