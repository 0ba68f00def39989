// SPDX-License-Identifier: Apache-2.0
// Run-wide figures the network interfaces record as messages start and finish: a statistics sink
// shared by the interfaces of a network (max/min/sum updates, which commute, so evaluation order
// cannot change them; the interfaces all run on one lane, scheduler.hpp).
#pragma once

#include <cstdint>
#include <vector>

namespace torx::model {

struct RunStats {
  std::vector<uint64_t> step_first_issue;  // per step: first cycle a send of the step was issued (UINT64_MAX: none)
  std::vector<uint64_t> step_end;          // per step: cycle + 1 at which its last block was stored (0: none)
  std::vector<uint32_t> step_open;         // per step: messages not yet stored
  uint64_t messages_done = 0;
  uint64_t last_store = 0;                 // cycle + 1 at which the last block was stored
  uint64_t injection_stall_cycles = 0;     // cycles an injection channel had a flit ready but no credit
  uint64_t barrier_entries = 0;            // node entries into barriers (nodes x barriers when complete)
};

}  // namespace torx::model
