// SPDX-License-Identifier: Apache-2.0
// GossipInterface: a node's network interface when the routers forward gossip by themselves
// (--gossip-hw; docs/gossip.md, "Hardwired forwarding"). It does what seed 003 leaves to a node: it
// injects the node's own packets at the start (each block of its injection list, with the output
// mask the tables give it) and stores every packet its router delivers. It also sends the tables'
// prologue (explicit one-hop messages, one packet per block, delivered and never forwarded), and
// injects a block it received in the prologue once it holds it. No step, no schedule: the routers'
// forwarding images do the rest.
//
// Each packet costs its startup t_s at the interface (it is a host send), then one flit per cycle
// as the router's injection buffer has credits. A packet leaves on the injection channel of its first
// output port (the channels are per direction: gossip is full-port). Arriving packets are stored
// flit by flit into the node memory; a block is stored when its tail is.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/forwarding_table.hpp"
#include "core/run_config.hpp"
#include "models/endpoint.hpp"
#include "models/input_unit.hpp"
#include "models/node_memory.hpp"

namespace torx::model {

// What the interfaces of a network add up to (the result document's gossip_hw).
struct GossipTotals {
  uint64_t host_sends = 0;   // packets the interfaces injected (own blocks and prologue)
  uint64_t deliveries = 0;   // packets stored
  uint64_t last_store = 0;   // cycle + 1 in which the last block was stored
};

struct GossipInterfaceConfig {
  sw::NodeId node = 0;
  int channels = 1;
  sw::CostModel cost;
  uint32_t packet_flits = 4;
  int injection_depth = 8;
  int ejection_depth = 8;
  uint64_t expected = 0;     // packets this node must store: every foreign piece once
};

class GossipInterface final : public Endpoint {
 public:
  GossipInterface(const GossipInterfaceConfig& cfg, const sw::ForwardingTable& table, const sw::Topology& topo,
                  NodeMemory* memory, GossipTotals* totals, NetworkCounters* counters, Scheduler* sched);

  sw::NodeId node() const override { return cfg_.node; }
  int channels() const override { return static_cast<int>(inj_.size()); }
  void connect_injection(int ch, Link* link) override { inj_[ch].link = link; }
  void connect_ejection(int ch, Link* link) override {
    ej_[ch].link = link;
    link->attach(ej_buf_[ch].sink(clock_id(), nullptr));
  }
  LinkEnd credit_end(int ch) override { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << ch}; }
  void configure_barrier(int latency) override { release_in_.configure(latency, 1, sched_, clock_id()); }
  TokenWire& release_in() override { return release_in_; }
  void connect_barrier(TokenWire*) override {}
  void start() override;
  bool finished() const override;
  std::string describe() const override;
  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return awake_; }

 private:
  struct Send {
    uint64_t block = 0;
    uint32_t mask = 0;      // network ports the router copies it to
    bool prologue = false;
  };
  struct Channel {
    std::vector<Send> queue;  // in order
    size_t next = 0;
    bool busy = false;
    uint64_t head_cycle = 0;
    uint32_t next_flit = 0;
    int32_t credits = 0;
    uint16_t tail_slot = 0;
    Link* link = nullptr;
  };
  struct Ejection {
    bool busy = false;
    uint64_t block = 0;
    uint32_t next_seq = 0;
    Link* link = nullptr;
  };

  GossipInterfaceConfig cfg_;
  const sw::Topology& topo_;
  NodeMemory* mem_;
  GossipTotals* totals_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  std::vector<Channel> inj_;
  std::vector<Ejection> ej_;
  std::vector<InputUnit> ej_buf_;
  std::vector<InputVc> ej_regs_;
  std::vector<Flit> ej_ram_;
  uint64_t credit_mask_ = 0;
  uint64_t stored_ = 0;
  bool awake_ = true;
  bool counted_finished_ = false;
  TokenWire release_in_;
};

}  // namespace torx::model
