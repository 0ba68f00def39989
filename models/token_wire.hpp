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
  uint32_t latency() const { return line_.latency(); }

 private:
  LatencyLine<uint8_t> line_;
  Scheduler* sched_ = nullptr;
  uint32_t rx_ = 0;
};

}  // namespace torx::model
