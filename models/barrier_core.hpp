// SPDX-License-Identifier: Apache-2.0
// The barrier unit's boundary (docs/timing-contract.md, "Barrier network"; models/barrier.hpp): the
// gather/release logic of one node, one clock cycle at a time, as the C++ BarrierUnit (port mode)
// and the RTL torx_barrier implement it. The wires between units, with their hop latencies and the
// equalisation pads, belong to the network (TokenWire), not to the unit.
//
// Per cycle t:
//   in   entry         the node's interface entered the barrier (its entry wire delivers a pulse)
//        gather_mask   bit p: the child behind network port p finished its subtree (one pulse each)
//        release       the parent's release pulse arrives (never at the root)
//   out  gather        this subtree is complete: pulse the parent's gather input (never at the root)
//        release       release every child and the node's interface (the root releases when its own
//                      count completes; other units when their parent's release arrives)
// Register: gathered_q, the pulses counted in the current episode (entry + children).
#pragma once

#include <cstdint>

#include "models/barrier.hpp"

namespace torx::model {

struct BarrierWiresIn {
  bool entry = false;
  uint32_t gather_mask = 0;
  bool release = false;
};

struct BarrierWiresOut {
  bool gather = false;
  bool release = false;
};

class BarrierCore {
 public:
  virtual ~BarrierCore() = default;
  virtual const char* kind() const = 0;
  virtual void reset() = 0;
  virtual void cycle(uint64_t now, const BarrierWiresIn& in, BarrierWiresOut& out) = 0;
  virtual uint32_t gathered() const = 0;  // gathered_q after the last cycle
};

}  // namespace torx::model
