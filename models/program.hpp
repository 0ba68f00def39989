// SPDX-License-Identifier: Apache-2.0
// What the host loads into the network interfaces before a run: the packet table (one record per
// message of the schedule), each node's program (the messages it sends, in order, and the steps of
// the messages it receives), and the steps whose boundary holds a barrier. Built from an in-memory
// Schedule by compile_program(); shared read-mostly by all network interfaces.
//
// A message's block list is expanded from the schedule's boxes when its sender first looks at it
// and freed when its tail has been stored, so memory holds only the lists of messages in flight.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

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
  uint8_t issued = 0;      // the source has issued it (startup begun)
  uint8_t done = 0;        // tail stored at the destination
};

struct ProgramOptions {
  uint32_t block_bytes = 64;
  uint32_t flit_bytes = 16;
  bool barriers = true;           // --sync barrier: honour SyncMark::kBarrier boundaries
  sw::PortModel ports = sw::PortModel::kOne;
};

class Program {
 public:
  Program(const sw::Schedule& schedule, const sw::Topology& topo, const sw::BlockSpace& space, const ProgramOptions& opt);

  const sw::Schedule& schedule() const { return *schedule_; }
  const sw::BlockSpace& space() const { return *space_; }
  const ProgramOptions& options() const { return opt_; }
  uint32_t messages() const { return static_cast<uint32_t>(msgs_.size()); }
  MessageRecord& message(uint32_t m) { return msgs_[m]; }
  const MessageRecord& message(uint32_t m) const { return msgs_[m]; }
  const sw::Message& schedule_message(uint32_t m) const {
    return schedule_->steps[msgs_[m].step].messages[msgs_[m].index];
  }
  uint32_t steps() const { return static_cast<uint32_t>(schedule_->steps.size()); }

  // Node programs (compressed rows by node).
  const uint32_t* sends_begin(sw::NodeId v) const { return sends_.data() + send_begin_[v]; }
  const uint32_t* sends_end(sw::NodeId v) const { return sends_.data() + send_begin_[v + 1]; }
  // Messages node v receives in steps < k.
  uint32_t receives_before(sw::NodeId v, uint32_t k) const;
  uint32_t receives(sw::NodeId v) const { return recv_begin_[v + 1] - recv_begin_[v]; }
  const std::vector<uint32_t>& barrier_steps() const { return barrier_steps_; }

  // Block lists of messages in flight.
  const std::vector<sw::BlockId>& acquire_blocks(uint32_t m);
  const std::vector<sw::BlockId>* blocks(uint32_t m) const {
    auto it = lists_.find(m);
    return it == lists_.end() ? nullptr : &it->second;
  }
  void release_blocks(uint32_t m) { lists_.erase(m); }
  size_t lists_in_flight() const { return lists_.size(); }

 private:
  const sw::Schedule* schedule_;
  const sw::BlockSpace* space_;
  ProgramOptions opt_;
  std::vector<MessageRecord> msgs_;
  std::vector<uint32_t> send_begin_, sends_;
  std::vector<uint32_t> recv_begin_, recv_steps_;
  std::vector<uint32_t> barrier_steps_;
  std::unordered_map<uint32_t, std::vector<sw::BlockId>> lists_;
};

}  // namespace torx::model
