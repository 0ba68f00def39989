// SPDX-License-Identifier: Apache-2.0
// OutputUnit: one router output port (RTL twin: the output block and credit counters of
// torx_router). Per output VC it keeps
//   credits_q   the per-output mirror of the downstream VC buffer's free slots (BookSim's
//               per-output credit mirror): decremented when a flit is sent, incremented when a
//               credit comes back;
//   owner_q     which input VC holds this output VC for its worm (kVcFree when none).
// Contract (router.hpp gives the order of the phases): credits that arrive in cycle t are counted
// before allocation and may be spent in cycle t (docs/timing-contract.md); a VC is claimed during
// allocation (VcAllocator) and released when its worm's tail leaves, after every allocation of the
// cycle, so a VC released in cycle t can be claimed again from cycle t + 1.
//
// Storage: the per-VC registers live in an array owned by the router, which updates them in its
// traversal phase; this class is the port's view of them (configuration, inspection).
#pragma once

#include <cstdint>

#include "models/check.hpp"

namespace torx::model {

inline constexpr uint16_t kVcFree = 0xffff;

struct OutputVc {
  int32_t credits_q = 0;
  uint16_t owner_q = kVcFree;
  // Where the next flit on this VC goes in the downstream buffer: the sender's mirror of the
  // downstream FIFO's write pointer (only this output writes that FIFO), so that the slot's address
  // is known without reading the downstream registers (Clocked::prefetch can fetch it early).
  uint16_t tail_slot = 0;
};

class OutputUnit {
 public:
  void configure(OutputVc* regs, int vcs, int downstream_depth) {
    vcs_ = vcs;
    depth_ = downstream_depth;
    vc_ = regs;
    for (int v = 0; v < vcs; ++v) {
      vc_[v] = OutputVc{};
      vc_[v].credits_q = downstream_depth;
    }
  }
  int vcs() const { return vcs_; }
  const OutputVc& vc(int v) const { return vc_[v]; }

  uint32_t depth() const { return static_cast<uint32_t>(depth_); }

 private:
  int vcs_ = 0;
  int depth_ = 0;
  OutputVc* vc_ = nullptr;
};

}  // namespace torx::model
