// SPDX-License-Identifier: Apache-2.0
// What the host loads into the network interfaces before a run: the packet table (one record per
// message of the schedule), each node's program (the messages it sends, in order, and the messages
// it receives), and the steps whose boundary holds a barrier. Built from an in-memory Schedule and
// immutable afterwards: every network interface reads it and keeps its own progress (which sends
// it has issued, which receives it has stored), so no two blocks write the same state.
//
// A message's block list is expanded from the schedule's boxes when a sender packs it and again
// when its receiver stores it (expand_blocks), so memory holds only the lists of messages in flight.
#pragma once

#include <cstdint>
#include <vector>

#include "core/run_config.hpp"
#include "core/schedule.hpp"

namespace torx::model {

inline constexpr uint32_t kNoStep = 0xffffffffu;

struct MessageRecord {
  uint32_t step = 0;
  uint32_t index = 0;      // position in the step's message list
  sw::NodeId src = 0;
  sw::NodeId dst = 0;
  uint32_t flits = 1;      // ceil(bytes / flit_bytes), at least 1 (a null message is one flit)
  uint16_t hops = 0;       // network links on its route
  uint8_t channel = 0;     // injection channel at the source (all-port: its first link's port)
  uint8_t level = 0;       // priority level (--sync priority; docs/priority.md, property 6), else 0
};

// A null message: a one-flit worm on the data network that carries no block, only the fact that it
// was sent (local synchronization signals and the rounds of a software barrier).
struct SignalRecord {
  sw::NodeId src = 0;
  sw::NodeId dst = 0;
  uint32_t trigger_step = 0;  // local signals: sent once src has stored every receive of steps < this
  uint32_t gate_step = 0;     // the step of the first send it gates (reports)
  sw::Route route;            // shortest dimension-order route
  uint16_t hops = 0;
  uint8_t channel = 0;        // injection channel at src
};

struct ProgramOptions {
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;  // how the schedule's marked boundaries are honoured
  sw::PortModel ports = sw::PortModel::kOne;
  int priority_levels = 1;                     // routers' levels under --sync priority
};

class Program {
 public:
  Program(const sw::Schedule& schedule, const sw::Topology& topo, const sw::BlockSpace& space, const ProgramOptions& opt);

  const sw::Schedule& schedule() const { return *schedule_; }
  const sw::BlockSpace& space() const { return *space_; }
  const ProgramOptions& options() const { return opt_; }
  uint32_t messages() const { return static_cast<uint32_t>(msgs_.size()); }
  const MessageRecord& message(uint32_t m) const { return msgs_[m]; }
  const sw::Message& schedule_message(uint32_t m) const {
    return schedule_->steps[msgs_[m].step].messages[msgs_[m].index];
  }
  uint32_t steps() const { return static_cast<uint32_t>(schedule_->steps.size()); }

  // Node programs (compressed rows by node), message ids ascending (= program order).
  const uint32_t* sends_begin(sw::NodeId v) const { return sends_.data() + send_begin_[v]; }
  const uint32_t* sends_end(sw::NodeId v) const { return sends_.data() + send_begin_[v + 1]; }
  const uint32_t* receives_begin(sw::NodeId v) const { return recvs_.data() + recv_begin_[v]; }
  const uint32_t* receives_end(sw::NodeId v) const { return recvs_.data() + recv_begin_[v + 1]; }
  // Messages node v receives in steps < k.
  uint32_t receives_before(sw::NodeId v, uint32_t k) const;
  uint32_t receives(sw::NodeId v) const { return recv_begin_[v + 1] - recv_begin_[v]; }
  // Marked boundaries honoured by the hardware barrier network (--sync barrier), and by software
  // barriers of null messages (--sync software): each is the first step after the boundary.
  const std::vector<uint32_t>& barrier_steps() const { return barrier_steps_; }
  const std::vector<uint32_t>& software_barrier_steps() const { return software_barrier_steps_; }

  // --- null messages (--sync local, --sync software) -------------------------------------------------
  // Signal ids index signals(); a null message's flits carry message id messages() + signal id.
  uint32_t signals() const { return static_cast<uint32_t>(signals_.size()); }
  const SignalRecord& signal(uint32_t s) const { return signals_[s]; }
  // Local signals node v sends, ordered by trigger step.
  const uint32_t* outgoing_begin(sw::NodeId v) const { return out_.data() + out_begin_[v]; }
  const uint32_t* outgoing_end(sw::NodeId v) const { return out_.data() + out_begin_[v + 1]; }
  // Signals addressed to node v (local signals and software-barrier rounds), ids ascending.
  const uint32_t* incoming_begin(sw::NodeId v) const { return in_.data() + in_begin_[v]; }
  const uint32_t* incoming_end(sw::NodeId v) const { return in_.data() + in_begin_[v + 1]; }
  // Send m may be issued only after these signals have arrived at its sender ...
  const uint32_t* gates_begin(uint32_t m) const { return gates_.data() + gate_begin_[m]; }
  const uint32_t* gates_end(uint32_t m) const { return gates_.data() + gate_begin_[m + 1]; }
  // ... and after its sender has stored every receive of steps < local_wait(m) (0: no wait).
  uint32_t local_wait(uint32_t m) const { return local_wait_.empty() ? 0 : local_wait_[m]; }
  // Software barriers: rounds per barrier (ceil(log2 N)), and the signal node i sends in round r of
  // software barrier k (to node i + 2^r mod N); it waits for the one of node i - 2^r mod N.
  uint32_t software_rounds() const { return sw_rounds_; }
  uint32_t software_signal(uint32_t k, uint32_t r, sw::NodeId i) const {
    return sw_base_ + (k * sw_rounds_ + r) * static_cast<uint32_t>(nodes_) + static_cast<uint32_t>(i);
  }
  // Pairs and local waits the local-synchronization plan found (reports, tests).
  uint32_t local_waits() const { return local_waits_; }
  // Distinct priorities of the schedule's messages (--sync priority maps them onto the levels).
  uint32_t priorities_used() const { return priorities_used_; }

  // How many blocks message m carries.
  uint64_t message_blocks(uint32_t m) const {
    const MessageRecord& r = msgs_[m];
    return sw::message_blocks(*space_, schedule_->steps[r.step], schedule_->steps[r.step].messages[r.index]);
  }
  // The blocks message m carries, in the order their bytes travel (replaces `out`).
  void expand_blocks(uint32_t m, std::vector<sw::BlockId>& out) const;

 private:
  const sw::Schedule* schedule_;
  const sw::BlockSpace* space_;
  ProgramOptions opt_;
  std::vector<MessageRecord> msgs_;
  std::vector<uint32_t> send_begin_, sends_;
  std::vector<uint32_t> recv_begin_, recvs_, recv_steps_;
  std::vector<uint32_t> barrier_steps_, software_barrier_steps_;
  sw::NodeId nodes_ = 0;
  std::vector<SignalRecord> signals_;
  std::vector<uint32_t> out_begin_, out_, in_begin_, in_;
  std::vector<uint32_t> gate_begin_, gates_, local_wait_;
  uint32_t sw_rounds_ = 0, sw_base_ = 0, local_waits_ = 0, priorities_used_ = 0;

  void plan_signals(const sw::Schedule& schedule, const sw::Topology& topo);
  SignalRecord make_signal(const sw::Topology& topo, sw::NodeId src, sw::NodeId dst) const;
};

}  // namespace torx::model
