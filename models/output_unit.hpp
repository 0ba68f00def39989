// SPDX-License-Identifier: Apache-2.0
// OutputUnit: one router output port (RTL twin: hw/torx_output_unit.sv). Per output VC it keeps
//   credits_q   the per-output mirror of the downstream VC buffer's free slots (BookSim's
//               per-output credit mirror): spent when a flit is sent, returned by a credit;
//   owner_q     the input-VC index (docs/timing-contract.md) of the worm that holds this output VC,
//               kVcFree when none;
//   tail_slot   the sender's mirror of the downstream FIFO's write pointer (fast path only: the link
//               writes the flit straight into that slot, link.hpp; not a hardware register).
// Contract (docs/timing-contract.md, stage P): credits that arrive in cycle t are counted before
// allocation and may be spent in cycle t; a VC is claimed by the VC allocator and released when its
// worm's tail leaves, after every allocation of the cycle, so a VC released in cycle t can be
// claimed again from cycle t + 1.
//
// Storage: the per-VC registers live in an array owned by the router (every output of a router side
// by side); this class is the port's view of them and its behaviour.
#pragma once

#include <cstdint>

#include "models/check.hpp"

namespace torx::model {

inline constexpr uint16_t kVcFree = 0xffff;

struct OutputVc {
  int32_t credits_q = 0;
  uint16_t owner_q = kVcFree;
  uint16_t tail_slot = 0;
};

class OutputUnit {
 public:
  void configure(OutputVc* regs, int vcs, int downstream_depth) {
    vcs_ = vcs;
    depth_ = downstream_depth;
    vc_ = regs;
    reset();
  }
  // Every VC free, every credit counter at the downstream depth (the downstream buffer is empty).
  void reset() {
    for (int v = 0; v < vcs_; ++v) {
      vc_[v] = OutputVc{};
      vc_[v].credits_q = depth_;
    }
  }
  int vcs() const { return vcs_; }
  uint32_t depth() const { return static_cast<uint32_t>(depth_); }
  const OutputVc& vc(int v) const { return vc_[v]; }

  // A credit for VC v arrived (usable in this cycle). More credits than the downstream buffer has
  // slots means a credit was duplicated: a model bug.
  void credit(int v) {
    TORX_MODEL_CHECK(v < vcs_ && vc_[v].credits_q < depth_, "credit beyond the downstream buffer");
    ++vc_[v].credits_q;
  }
  bool has_credit(int v) const { return vc_[v].credits_q > 0; }
  bool free(int v) const { return vc_[v].owner_q == kVcFree; }
  // The VC allocator gives VC v to input VC `owner`.
  void claim(int v, uint16_t owner) { vc_[v].owner_q = owner; }
  // A flit leaves on VC v: one credit spent; a tail frees the VC.
  void send(int v, bool tail) {
    --vc_[v].credits_q;
    if (tail) vc_[v].owner_q = kVcFree;
  }
  OutputVc& vc_mut(int v) { return vc_[v]; }

 private:
  int vcs_ = 0;
  int depth_ = 0;
  OutputVc* vc_ = nullptr;
};

}  // namespace torx::model
