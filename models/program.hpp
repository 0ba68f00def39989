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
};

struct ProgramOptions {
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;  // kBarrier: honour SyncMark::kBarrier boundaries
  sw::PortModel ports = sw::PortModel::kOne;
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
  const std::vector<uint32_t>& barrier_steps() const { return barrier_steps_; }

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
  std::vector<uint32_t> barrier_steps_;
};

}  // namespace torx::model
