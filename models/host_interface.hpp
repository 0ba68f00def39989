// SPDX-License-Identifier: Apache-2.0
// HostInterface: a node's network interface driven by a host program instead of a schedule: the
// endpoint behind the public API (include/torx/network.hpp, torx::Network) and its SystemC component
// (torx::sc::Network, whose TLM-2.0 target sockets hand their writes to it).
//
// Messages are handed in between two cycles (HostInterface::post) and queue in order. Injection has
// NetworkInterface's timing exactly (network_interface.hpp), so that a message posted in the cycle the
// schedule-driven interface would issue it leaves in the same cycles:
//   - the message at the queue's front is issued in cycle t when the injection channel is free (its
//     previous worm's tail left in a cycle before t); its head leaves t_s cycles later (in t itself
//     with t_s = 0), then one flit per cycle while the router's injection buffer has room (credits;
//     with priority levels the throttle's reserve of network_interface.cpp);
//   - flit k carries bytes [k F, (k+1) F) of the message (F = flit_bytes); a message of b bytes is
//     max(1, ceil(b / F)) flits; the route is the one given at post() (sw::Topology::shortest_route,
//     ties the + way, unless the caller gives another).
// Ejection: one flit per lane and cycle, written into the arriving message's buffer in the cycle it
// arrives (its credit goes back at once); when the tail is written the message is delivered
// (HostTraffic::delivered: the cycle is the one the tail was written in).
//
// HostTraffic is shared by the interfaces of one network: the table of messages in flight (what was
// sent, so that the receiver can check every byte), the deliveries, and the callback. The interfaces
// all run on one lane (the API's networks run with threads = 1).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/topology.hpp"
#include "models/endpoint.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"

namespace torx::model {

struct HostMessage {
  uint32_t id = 0;          // the flits' msg field
  sw::NodeId src = 0, dst = 0;
  sw::Route route;
  uint8_t priority = 0;     // level (0: lowest)
  uint32_t flits = 1;
  uint64_t posted = 0;      // cycle it was handed in (the first cycle it may be issued in)
  uint64_t issued = 0;      // cycle the interface issued it (startup begins)
  uint64_t head = 0;        // cycle its head flit left
  std::vector<uint8_t> bytes;
};

struct HostDelivery {
  uint32_t id = 0;
  sw::NodeId src = 0, dst = 0;
  uint8_t priority = 0;
  uint64_t posted = 0, issued = 0, head = 0;
  uint64_t delivered = 0;   // cycle the tail flit was written at the destination
  bool intact = true;       // every byte as sent
  std::vector<uint8_t> bytes;  // as they arrived
};

class HostTraffic {
 public:
  using DeliverFn = std::function<void(HostDelivery&&)>;
  using SentFn = std::function<void(const HostMessage&, uint64_t cycle)>;
  explicit HostTraffic(DeliverFn deliver) : deliver_(std::move(deliver)) {}
  // Called in the cycle a message's tail flit leaves its source (may be empty).
  void on_sent(SentFn sent) { sent_ = std::move(sent); }
  void sent(const HostMessage& m, uint64_t now) {
    if (sent_) sent_(m, now);
  }
  // Registers a message (its id must be new) and returns it as stored.
  HostMessage& add(HostMessage m);
  HostMessage* find(uint32_t id);
  // The tail of `id` was written at `node` in cycle `now`, with these bytes.
  void delivered(uint32_t id, sw::NodeId node, uint64_t now, std::vector<uint8_t>&& got);
  uint64_t in_flight() const { return table_.size(); }
  uint64_t corrupted() const { return corrupted_; }

 private:
  DeliverFn deliver_;
  SentFn sent_;
  std::unordered_map<uint32_t, HostMessage> table_;
  uint64_t corrupted_ = 0;
};

struct HostInterfaceConfig {
  sw::NodeId node = 0;
  uint32_t flit_bytes = 16;
  uint64_t ts_cycles = 0;     // startup of a send
  int injection_depth = 8;    // the router's injection buffer: initial credits
  int ejection_depth = 8;     // this interface's ejection buffer
  int priority_levels = 1;
  int priority_reserve = 1;
};

class HostInterface final : public Endpoint {
 public:
  HostInterface(const HostInterfaceConfig& cfg, HostTraffic* traffic, NetworkCounters* counters, Scheduler* sched);

  // Between two cycles: queue message `id` (registered in the HostTraffic) for injection from the
  // next cycle on.
  void post(uint32_t id);
  uint64_t queued() const { return queue_.size() + (state_q_ != ChState::kIdle ? 1 : 0); }

  // --- Endpoint ------------------------------------------------------------------------------------
  sw::NodeId node() const override { return cfg_.node; }
  int channels() const override { return 1; }
  void connect_injection(int, Link* link) override { inj_link_ = link; }
  void connect_ejection(int, Link* link) override;
  LinkEnd credit_end(int) override { return LinkEnd{clock_id(), &credit_mask_, 1}; }
  void configure_barrier(int latency) override { release_in_.configure(latency, 1, sched_, clock_id()); }
  TokenWire& release_in() override { return release_in_; }
  void connect_barrier(TokenWire*) override {}
  void start() override;
  bool finished() const override { return queue_.empty() && state_q_ == ChState::kIdle && state_d_ == ChState::kIdle; }
  std::string describe() const override;

  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t cycle, int lane) override;
  bool busy() const override;

 private:
  enum class ChState : uint8_t { kIdle, kStartup, kStreaming };
  struct Reassembly {
    bool busy = false;
    uint32_t msg = 0;
    uint32_t next_seq = 0;
    uint32_t flits = 0;
    std::vector<uint8_t> bytes;
  };
  void receive(uint64_t now, Reassembly& r, const Flit& f);
  void note_finished(int lane);

  HostInterfaceConfig cfg_;
  HostTraffic* traffic_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  std::deque<uint32_t> queue_;
  // Injection channel (NetworkInterface::InjectionChannel's registers).
  ChState state_q_ = ChState::kIdle, state_d_ = ChState::kIdle;
  HostMessage* cur_ = nullptr;
  uint32_t next_flit_ = 0;
  uint64_t head_cycle_ = 0;
  int32_t credits_q_ = 0, credit_delta_ = 0;
  uint16_t tail_slot_[16] = {};
  Link* inj_link_ = nullptr;
  bool pending_ = false;      // something was posted or a tail left: issue may be possible
  // Ejection: one single-VC buffer with a lane per level.
  InputUnit ej_buf_;
  std::vector<InputVc> ej_regs_;
  std::vector<Flit> ej_ram_;
  std::vector<Reassembly> ej_;
  Link* ej_link_ = nullptr;
  uint64_t credit_mask_ = 0;
  TokenWire release_in_;
  bool counted_finished_ = false;
};

}  // namespace torx::model
