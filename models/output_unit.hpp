// SPDX-License-Identifier: Apache-2.0
// OutputUnit: one router output port (RTL twin: hw/torx_output_unit.sv). Per output VC it keeps
//   credits_q   the per-output mirror of the downstream VC buffer's free slots (BookSim's
//               per-output credit mirror): spent when a flit is sent, returned by a credit;
//   owner_q     the input lane (docs/timing-contract.md: the input-VC index with one priority level)
//               of the worm that holds this output VC, kVcFree when none;
//   depth_q, stack_q   with priority levels (docs/priority.md): the owners this VC was preempted
//               from, most recent last; popped when the current owner's tail leaves.
// and, per output VC and level, the sender's mirror of the downstream lane's write pointer (fast path
// only: the link writes the flit straight into that slot, link.hpp; not a hardware register).
// Contract (docs/timing-contract.md, stage P): credits that arrive in cycle t are counted before
// allocation and may be spent in cycle t; a VC is claimed by the VC allocator and released when its
// worm's tail leaves, after every allocation of the cycle, so a VC released in cycle t can be
// claimed again from cycle t + 1.
//
// Storage: the per-VC registers live in arrays owned by the router (every output of a router side by
// side); this class is the port's view of them and its behaviour.
#pragma once

#include <cstdint>

#include "models/check.hpp"

namespace torx::model {

inline constexpr uint16_t kVcFree = 0xffff;

struct OutputVc {
  int32_t credits_q = 0;
  uint16_t owner_q = kVcFree;
  uint8_t depth_q = 0;  // preempted owners on the stack
  uint8_t spare = 0;
};

class OutputUnit {
 public:
  // `stack`: vcs * (levels - 1) entries; `tails`: vcs * levels write-pointer mirrors.
  void configure(OutputVc* regs, int vcs, int downstream_depth, int levels = 1, uint16_t* stack = nullptr,
                 uint16_t* tails = nullptr) {
    vcs_ = vcs;
    depth_ = downstream_depth;
    levels_ = levels;
    vc_ = regs;
    stack_ = stack;
    tails_ = tails;
    reset();
  }
  // Every VC free, every credit counter at the downstream depth (the downstream buffer is empty).
  void reset() {
    for (int v = 0; v < vcs_; ++v) {
      vc_[v] = OutputVc{};
      vc_[v].credits_q = depth_;
    }
    if (tails_)
      for (int i = 0; i < vcs_ * levels_; ++i) tails_[i] = 0;
  }
  int vcs() const { return vcs_; }
  uint32_t depth() const { return static_cast<uint32_t>(depth_); }
  const OutputVc& vc(int v) const { return vc_[v]; }
  // The owner preempted `k`-th (0: the first) of VC v.
  uint16_t stacked(int v, int k) const { return stack_[v * (levels_ - 1) + k]; }

  // A credit for VC v arrived (usable in this cycle). More credits than the downstream buffer has
  // slots means a credit was duplicated: a model bug.
  void credit(int v) {
    TORX_MODEL_CHECK(v < vcs_ && vc_[v].credits_q < depth_, "credit beyond the downstream buffer");
    ++vc_[v].credits_q;
  }
  bool has_credit(int v) const { return vc_[v].credits_q > 0; }
  bool free(int v) const { return vc_[v].owner_q == kVcFree; }
  // The VC allocator gives VC v to input lane `owner`.
  void claim(int v, uint16_t owner) { vc_[v].owner_q = owner; }
  // Input lane `owner` takes VC v from its current owner, which waits on the stack.
  void preempt(int v, uint16_t owner) {
    OutputVc& o = vc_[v];
    TORX_MODEL_CHECK(o.owner_q != kVcFree && o.depth_q + 1 < levels_, "preemption beyond the priority levels");
    stack_[v * (levels_ - 1) + o.depth_q++] = o.owner_q;
    o.owner_q = owner;
  }
  // A flit of input lane `lane` leaves on VC v: one credit spent; a tail frees the VC, or gives it
  // back to the worm it was taken from. Returns whether a worm left the stack. A lane offered to the
  // switch before the VC allocation of its cycle may be preempted in that very cycle and still send
  // (docs/priority.md): if that flit is its tail, the worm leaves the top of the stack and the new
  // owner keeps the VC.
  bool send(int v, bool tail, uint16_t lane) {
    OutputVc& o = vc_[v];
    --o.credits_q;
    if (!tail) return false;
    if (o.owner_q != lane && o.depth_q > 0 && stack_[v * (levels_ - 1) + o.depth_q - 1] == lane) {
      --o.depth_q;
      return true;
    }
    if (o.depth_q == 0) {
      o.owner_q = kVcFree;
      return false;
    }
    o.owner_q = stack_[v * (levels_ - 1) + --o.depth_q];
    return true;
  }
  // The sender's mirror of the downstream write pointer of VC v's lane `level`.
  uint16_t& tail_slot(int v, int level) { return tails_[v * levels_ + level]; }
  uint16_t tail_slot(int v, int level) const { return tails_[v * levels_ + level]; }
  OutputVc& vc_mut(int v) { return vc_[v]; }

 private:
  int vcs_ = 0;
  int depth_ = 0;
  int levels_ = 1;
  OutputVc* vc_ = nullptr;
  uint16_t* stack_ = nullptr;
  uint16_t* tails_ = nullptr;
};

}  // namespace torx::model
