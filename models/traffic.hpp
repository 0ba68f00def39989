// SPDX-License-Identifier: Apache-2.0
// TrafficSource: an endpoint (endpoint.hpp) that offers seeded random traffic instead of executing a
// schedule: torx cosim's --traffic random, and the lock-step tests' million cycles.
//
// Each node, in every cycle of the generation period, starts a new worm with probability
// load / mean worm length (so `load` flits per cycle per node are offered), with a length drawn
// uniformly from 1 .. max_worm_flits and a destination drawn by the pattern:
//   uniform     any other node;
//   hotspot     node 0 with probability 1/2 (itself excepted), else uniform;
//   neighbour   a neighbour one hop away in a random direction.
// The route is the shortest dimension-order route (ties go +); with mixed_orders the first dimension
// is drawn too (the routing tables must then have one order class per dimension). Worms wait in a
// source queue of queue_limit worms (a new worm finding it full is not offered: the source is
// saturated) and are injected one flit per cycle as credits allow, on the injection channel of
// their first link (all-port) or the only one. Every `barrier_every` cycles of generation each
// node finishes injecting its queue and enters the barrier network; it resumes on the release.
//
// With priority levels every worm gets a random level, injected under the throttle (docs/priority.md),
// and the ejection buffers have a lane per level, so interleaved worms of different levels are
// received each in order.
//
// Every delivered flit is checked: it arrives at its destination, in wormhole order (head, then
// consecutive sequence numbers of one worm per ejection channel and level), with the payload its
// identity prescribes (a hash of message and flit index). A violation throws std::logic_error.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "models/endpoint.hpp"
#include "models/input_unit.hpp"

namespace torx::model {

// SplitMix64's finaliser: seeds the sources' generators from (seed, node) and hashes payloads.
inline uint64_t traffic_mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The payload of flit `seq` of message `msg`: flit_bytes bytes of TrafficSource::payload_word
// (the rest of the flit's payload zero). TrafficSource and SyntheticSource (synthetic_source.hpp)
// fill their flits with it and check every delivered flit against it.
void fill_traffic_payload(Flit& f, uint32_t msg, uint32_t seq, uint32_t flit_bytes);
bool traffic_payload_ok(const Flit& f, uint32_t flit_bytes);

enum class TrafficPattern : uint8_t { kUniform, kHotspot, kNeighbour };
const char* traffic_pattern_name(TrafficPattern p);

// A worm's tail delivered (torx cosim --rtl-router compares these between two networks).
struct TrafficArrival {
  uint32_t msg = 0;
  sw::NodeId dst = 0;
  uint16_t channel = 0;  // ejection channel
  uint8_t level = 0;     // priority level (the ejection lane)
  uint32_t flits = 0;
  uint64_t cycle = 0;    // the cycle its tail was ejected
};

struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::kUniform;
  double load = 0.3;              // offered flits per cycle per node, 0 < load <= 1
  int max_worm_flits = 16;        // worm lengths 1 .. this
  uint64_t cycles = 10000;        // generation period
  uint64_t seed = 1;
  uint64_t barrier_every = 0;     // 0: no barriers
  bool mixed_orders = false;      // random first dimension (needs order classes = dimensions)
  int queue_limit = 64;           // worms waiting at a source
  uint32_t flit_bytes = 16;       // payload bytes per flit
  int injection_depth = 8;        // the router's injection buffer: initial credits
  int ejection_depth = 8;         // this endpoint's ejection buffer
  int priority_levels = 1;        // worms get a random level 0 .. K-1 (docs/priority.md)
  int priority_reserve = 1;       // the throttle's room per level above
  std::vector<TrafficArrival>* arrivals = nullptr;  // if set: every delivered worm, in delivery order
};

// What every source of a network adds up to.
struct TrafficTotals {
  uint64_t worms_offered = 0;     // worms generated and queued
  uint64_t worms_refused = 0;     // worms not offered because the queue was full
  uint64_t flits_sent = 0;
  uint64_t worms_delivered = 0;
  uint64_t flits_delivered = 0;
  uint64_t barriers = 0;          // barrier episodes entered (per node)
};

class TrafficSource final : public Endpoint {
 public:
  TrafficSource(const sw::Topology& topo, sw::NodeId node, int channels, const TrafficConfig& cfg,
                NetworkCounters* counters, Scheduler* sched);

  sw::NodeId node() const override { return node_; }
  int channels() const override { return static_cast<int>(inj_.size()); }
  void connect_injection(int ch, Link* link) override { inj_[ch].link = link; }
  void connect_ejection(int ch, Link* link) override;
  LinkEnd credit_end(int ch) override { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << ch}; }
  void configure_barrier(int latency) override;
  TokenWire& release_in() override { return release_in_; }
  void connect_barrier(TokenWire* entry) override { entry_ = entry; }
  void start() override;
  bool finished() const override;
  std::string describe() const override;

  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return awake_; }

  const TrafficTotals& totals() const { return totals_; }
  // The payload word `w` of flit `seq` of message `msg` (what the receiver checks).
  static uint64_t payload_word(uint32_t msg, uint32_t seq, uint32_t w);

 private:
  struct Worm {
    uint32_t msg = 0;
    sw::NodeId dst = 0;
    sw::Route route;
    uint32_t flits = 1;
    uint8_t channel = 0;
    uint8_t level = 0;
  };
  struct Injection {
    std::vector<Worm> queue;  // ring of queue_limit worms
    size_t head = 0, count = 0;
    uint32_t next_flit = 0;
    int32_t credits = 0;
    uint16_t tail_slot[16] = {};  // per level: mirror of the router's injection lane write pointer
    Link* link = nullptr;
  };
  struct Ejection {
    bool busy = false;
    uint32_t msg = 0;
    uint32_t next_seq = 0;
    Link* link = nullptr;
  };

  void generate(uint64_t now);
  void receive(const Flit& f, Ejection& e);

  sw::Topology topo_;
  sw::NodeId node_;
  TrafficConfig cfg_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  std::mt19937_64 rng_;
  std::vector<Injection> inj_;
  std::vector<Ejection> ej_;  // per ejection channel and priority level
  std::vector<InputUnit> ej_buf_;
  std::vector<InputVc> ej_regs_;
  std::vector<Flit> ej_ram_;
  uint64_t credit_mask_ = 0;
  uint32_t next_msg_ = 0;
  TokenWire release_in_;
  TokenWire* entry_ = nullptr;
  bool in_barrier_ = false;
  bool draining_ = false;         // finishing the queue before a barrier
  uint64_t next_barrier_ = 0;     // generation cycle of the next barrier
  uint64_t generated_until_ = 0;  // generation cycles done (excluding those spent in barriers)
  bool awake_ = true;
  bool counted_finished_ = false;
  TrafficTotals totals_;
};

}  // namespace torx::model
