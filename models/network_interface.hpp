// SPDX-License-Identifier: Apache-2.0
// NetworkInterface: a node's network interface (RTL twin: the NI block of the system model). It
// executes the node's program, packetizes and injects worms, and stores arriving blocks.
//
// Injection. One injection channel (one-port nodes) or one per network direction (all-port; a
// message uses the channel of its first link). The program is issued in order: the next send is
// issued when its channel is free (its previous worm's tail has left, seen from the next cycle)
// and the node holds every block the message carries. Issuing takes the blocks out of memory
// (moved blocks) and starts the startup: the head flit leaves t_s cycles later (in the issue cycle
// itself if t_s = 0); then one flit per cycle while the router's injection buffer has room
// (credits). Flit k carries bytes [k F, (k+1) F) of the message's payload, the blocks' contents
// in block-list order (F = flit_bytes); a fault=corrupt message sets bit 0 of every block it packs to
// the opposite of what the block's identity prescribes (sticky: a block corrupted on two hops stays
// corrupted, as in the step model).
//
// Ejection. One ejection channel (one-port) or one per direction. Each arriving flit's payload is
// written into the node memory slot of the block it belongs to, in the cycle it arrives; when a
// block's last byte is written the block is stored (DeliveryView counts the arrival). The slot's
// credit goes back to the router at once: the interface always sinks one flit per cycle.
//
// Barriers. Before the first send of a step k that follows a barrier boundary the interface waits
// until all its earlier sends have left (tails injected) and all messages it receives in steps < k
// have been stored, pulses the barrier unit, and waits for the release.
//
// Evaluate/update contract: evaluate(t) does, in this order, ejection, credit intake, the barrier
// release, the program (issue or barrier entry) and injection, reading the channel registers
// *_q and writing *_d; update(t) commits them. The node memory is written in evaluate(t) like a
// synchronous SRAM: only this interface writes this node's slots, and a moved block's slot is
// written by its receiver only with bytes that left the sender in an earlier cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/run_config.hpp"
#include "models/endpoint.hpp"
#include "models/input_unit.hpp"
#include "models/link.hpp"
#include "models/node_memory.hpp"
#include "models/program.hpp"
#include "models/run_stats.hpp"
#include "models/token_wire.hpp"

namespace torx::model {

struct NiConfig {
  sw::NodeId node = 0;
  int channels = 1;            // injection and ejection channels (1, or 2 * ndims for all-port)
  sw::CostModel cost;          // t_s, flit and block sizes
  uint64_t null_ts = 100;      // startup of a null message (local and software synchronization)
  int injection_depth = 8;     // the router's injection buffer: the channel's initial credits
  int ejection_depth = 8;      // this interface's ejection buffer (the router's credits for it)
  int priority_levels = 1;     // lanes per buffer, throttle (docs/priority.md); messages carry their level
  int priority_reserve = 1;
};

class NetworkInterface final : public Endpoint {
 public:
  NetworkInterface(const NiConfig& cfg, const Program& program, NodeMemory* memory, RunStats* stats,
                   NetworkCounters* counters, Scheduler* sched);

  // --- Endpoint ------------------------------------------------------------------------------------
  sw::NodeId node() const override { return cfg_.node; }
  int channels() const override { return static_cast<int>(inj_.size()); }
  void connect_injection(int ch, Link* link) override { inj_[ch].link = link; }
  void connect_ejection(int ch, Link* link) override {
    for (int q = 0; q < cfg_.priority_levels; ++q) ej_[static_cast<size_t>(ch) * cfg_.priority_levels + q].link = link;
    link->attach(ej_buf_[ch].sink(clock_id(), nullptr));
  }
  LinkEnd credit_end(int c) override { return LinkEnd{clock_id(), &credit_mask_, uint64_t{1} << c}; }
  void configure_barrier(int latency) override { release_in_.configure(latency, 1, sched_, clock_id()); }
  TokenWire& release_in() override { return release_in_; }
  void connect_barrier(TokenWire* entry) override { barrier_entry_ = entry; }
  void start() override;
  // Every send issued and injected, every receive stored, no barrier pending.
  bool finished() const override {
    return next_send_ == sends_end_ && sends_open_ == 0 && received_ == recv_done_.size() &&
           next_barrier_ == prog_.barrier_steps().size() && next_out_ == out_end_ && ready_signals_.empty() &&
           next_sw_barrier_ == prog_.software_barrier_steps().size();
  }
  std::string describe() const override;

  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t cycle, int lane) override;
  bool busy() const override;
  void prefetch(int stage) const override;

  // --- progress, for stall reports ------------------------------------------------------------------
  // This node (the sender) has issued message m.
  bool issued(uint32_t m) const;
  // This node (the receiver) has stored message m.
  bool stored(uint32_t m) const;
  // Flits of message m not yet injected (0 if its channel is past it).
  uint32_t flits_left(uint32_t m) const;
  // Synchronization figures of this interface (cycle_model.null_messages, null_flit_hops,
  // sync_wait_cycles).
  struct SyncFigures {
    uint64_t null_messages = 0;   // null messages sent
    uint64_t null_flit_hops = 0;  // their flits' router-to-router hops
    uint64_t wait_cycles = 0;     // cycles spent waiting for a barrier or a signal
  };
  const SyncFigures& sync_figures() const { return sync_; }

 private:
  enum class ChState : uint8_t { kIdle, kStartup, kStreaming };
  struct InjectionChannel {
    ChState state_q = ChState::kIdle, state_d = ChState::kIdle;
    uint32_t msg = 0;
    uint32_t next_flit = 0;
    uint64_t head_cycle = 0;        // issue cycle + t_s
    int32_t credits_q = 0;
    int32_t credit_delta = 0;
    uint16_t tail_slot[16] = {};    // per level: mirror of the router's injection lane write pointer
    std::vector<sw::BlockId> blocks;  // the message's blocks (packetizer)
    size_t block = 0;
    uint32_t offset = 0;
    uint8_t* src = nullptr;         // memory slot of blocks[block] (prefetched just before pack())
    bool corrupt = false;
    bool null = false;              // the worm is a null message (signal id msg - messages)
    Link* link = nullptr;
  };
  struct EjectionChannel {
    bool busy = false;
    uint32_t msg = 0;
    uint32_t next_seq = 0;
    std::vector<sw::BlockId> blocks;  // the arriving message's blocks (depacketizer)
    size_t block = 0;
    uint32_t offset = 0;
    sw::BlockId cur = 0;            // blocks[block] while busy (its memory is prefetched just before eject())
    bool discard = false;           // a copy of a block this node already holds: keep the first
    Link* link = nullptr;
  };

  void eject(uint64_t now, EjectionChannel& e, const Flit& f);
  void run_program(uint64_t now, int lane);
  bool holds_all(uint32_t m);
  void issue(uint64_t now, int lane, uint32_t m);
  // Whether every message this node receives in steps < k has been stored.
  bool stored_before(uint32_t k) const { return first_unstored_ >= prog_.receives_before(cfg_.node, k); }
  // A null message: queued until its injection channel is free (ahead of the program's sends).
  void queue_signal(uint32_t s) { ready_signals_.push_back(s); }
  void send_signals(uint64_t now, int lane);
  bool signal_arrived(uint32_t s) const;
  // Waiting for synchronization from `now` on (no-op while already waiting), and done waiting.
  void wait_from(uint64_t now) {
    if (wait_since_ == kNotWaiting) wait_since_ = now;
  }
  void wait_over(uint64_t now) {
    if (wait_since_ != kNotWaiting) sync_.wait_cycles += now - wait_since_;
    wait_since_ = kNotWaiting;
  }
  static constexpr uint64_t kNotWaiting = UINT64_MAX;
  // Fills the next flit of channel c's message r (`tail`: its last flit) from node memory.
  void pack(InjectionChannel& c, const MessageRecord& r, bool tail, Flit& f);
  // Counts this interface as finished once (endpoint.hpp).
  void note_finished(int lane) {
    if (!counted_finished_ && finished()) {
      counted_finished_ = true;
      ++counters_[lane].endpoints_finished;
    }
  }

  NiConfig cfg_;
  const Program& prog_;
  NodeMemory* mem_;
  RunStats* stats_;
  NetworkCounters* counters_;
  Scheduler* sched_;
  std::vector<InjectionChannel> inj_;
  std::vector<EjectionChannel> ej_;  // per ejection channel and priority level
  // Ejection buffers: one single-VC buffer per ejection channel (a lane per level), written by the
  // ejection link.
  std::vector<InputUnit> ej_buf_;
  std::vector<InputVc> ej_regs_;
  std::vector<Flit> ej_ram_;
  uint64_t credit_mask_ = 0;        // injection channels with credits on their link

  // Program state (this node's progress through the shared, immutable Program).
  const uint32_t* next_send_;       // next message to issue
  const uint32_t* sends_end_;
  std::vector<sw::BlockId> next_blocks_;  // blocks of *next_send_ (expanded when first looked at)
  uint32_t next_blocks_msg_ = 0xffffffffu;
  size_t check_pos_ = 0;            // blocks of *next_send_ known to be held
  uint32_t sends_open_ = 0;         // issued, tail not yet injected
  uint32_t received_ = 0;           // messages stored at this node
  std::vector<uint8_t> recv_done_;  // per receive of this node (Program::receives_begin order)
  size_t next_barrier_ = 0;         // index into Program::barrier_steps()
  bool in_barrier_ = false;
  uint32_t barrier_needs_ = 0;      // receives that must be stored before entering
  bool dirty_ = false;              // something changed that may let the program advance
  bool counted_finished_ = false;
  size_t first_unstored_ = 0;       // receives (row order) before this index are all stored
  // Null messages: local signals this node sends (trigger order), those ready to go, the ones that
  // arrived (per incoming signal of this node), and the software barrier in progress.
  const uint32_t* next_out_ = nullptr;
  const uint32_t* out_end_ = nullptr;
  std::vector<uint32_t> ready_signals_;
  std::vector<uint8_t> signal_arrived_;
  size_t next_sw_barrier_ = 0;      // index into Program::software_barrier_steps()
  bool in_sw_barrier_ = false;
  uint32_t sw_round_ = 0;           // round of the software barrier in progress
  bool sw_round_sent_ = false;      // this round's null message is queued or sent
  uint64_t wait_since_ = kNotWaiting;
  SyncFigures sync_;
  TokenWire release_in_;
  TokenWire* barrier_entry_ = nullptr;
};

}  // namespace torx::model
