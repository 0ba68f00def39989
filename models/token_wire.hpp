// SPDX-License-Identifier: Apache-2.0
// TokenWire: a one-bit pulse wire with a fixed latency (barrier gather and release wires, the
// barrier's entry and release wires to a network interface). A pulse sent in cycle t is seen by
// the receiver in cycle t + latency; the receiver is woken for exactly that cycle (a timer), so a
// long wire costs nothing while the pulse travels. Owned by its receiver.
#pragma once

#include <cstdint>

#include "models/latency_line.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

class TokenWire {
 public:
  // per_cycle: how many senders may pulse in the same cycle (several children share one input).
  void configure(int latency, int per_cycle, Scheduler* sched, uint32_t receiver) {
    line_.configure(latency, per_cycle);
    sched_ = sched;
    rx_ = receiver;
  }
  // `lane`: the sender's lane (scheduler.hpp).
  void send(uint64_t now, int lane) {
    line_.push(now, 1);
    sched_->wake_at(lane, rx_, now + line_.latency());
  }
  // A pulse tagged with the port it arrives through (a gather wire shared by several children).
  void send_tagged(uint64_t now, int lane, uint8_t port) {
    line_.push(now, port);
    sched_->wake_at(lane, rx_, now + line_.latency());
  }
  // The ports of the tagged pulses visible in cycle `now` (consumed), one bit each.
  uint32_t take_mask(uint64_t now) {
    uint32_t m = 0;
    while (line_.ready(now)) {
      m |= 1u << line_.front();
      line_.pop();
    }
    return m;
  }
  // Pulses visible in cycle `now` (consumed).
  int take(uint64_t now) {
    int n = 0;
    while (line_.ready(now)) {
      line_.pop();
      ++n;
    }
    return n;
  }
  bool empty() const { return line_.empty(); }
  // Partitioned runs (models/partitioned.hpp): on a rank that does not own the receiver, the wire
  // wakes `receiver` (the rank's exporter) instead, and the exporter drains line() after each cycle;
  // on the receiver's rank, deliver() replays a pulse a sender on another rank sent.
  void redirect(uint32_t receiver) { rx_ = receiver; }
  LatencyLine<uint8_t>& line() { return line_; }
  void deliver(uint64_t due, uint8_t value) {
    line_.push_ordered(due - line_.latency(), value);
    sched_->wake_at(0, rx_, due);
  }
  uint32_t latency() const { return line_.latency(); }

 private:
  LatencyLine<uint8_t> line_;
  Scheduler* sched_ = nullptr;
  uint32_t rx_ = 0;
};

}  // namespace torx::model
