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
#include <memory>
#include <string>

#include "models/barrier.hpp"
#include "models/check.hpp"

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

// The C++ unit's logic at this boundary (BarrierUnit runs it inline; port mode and the lock-step
// harness through this class). Gather pulses are counted only from children (mask bits outside the
// child mask are ignored, as the RTL does).
class CppBarrierCore final : public BarrierCore {
 public:
  CppBarrierCore() = default;
  CppBarrierCore(uint32_t child_mask, bool root) : child_mask_(child_mask), root_(root) {
    expected_ = static_cast<uint32_t>(__builtin_popcount(child_mask)) + 1;
  }
  const char* kind() const override { return "c++"; }
  void reset() override { gathered_q_ = 0; }
  void cycle(uint64_t, const BarrierWiresIn& in, BarrierWiresOut& out) override { step(in, out); }
  uint32_t gathered() const override { return gathered_q_; }
  // The logic, non-virtual (the fast path).
  void step(const BarrierWiresIn& in, BarrierWiresOut& out) {
    uint32_t g = gathered_q_ + static_cast<uint32_t>(in.entry) +
                 static_cast<uint32_t>(__builtin_popcount(in.gather_mask & child_mask_));
    TORX_MODEL_CHECK(g <= expected_, "barrier unit gathered more pulses than it has children");
    out.gather = out.release = false;
    if (g == expected_) {
      g = 0;
      if (root_) out.release = true;
      else out.gather = true;
    }
    if (in.release) out.release = true;
    gathered_q_ = g;
  }

 private:
  uint32_t child_mask_ = 0;
  bool root_ = true;
  uint32_t expected_ = 1;
  uint32_t gathered_q_ = 0;
};

// Makes the barrier unit of node `v` from its image (the Verilated one, a lock-step pair).
class BarrierFactory {
 public:
  virtual ~BarrierFactory() = default;
  virtual std::unique_ptr<BarrierCore> make(sw::NodeId v, const BarrierImage& image, const sw::Topology& topo) const = 0;
};

class CppBarrierFactory final : public BarrierFactory {
 public:
  std::unique_ptr<BarrierCore> make(sw::NodeId v, const BarrierImage& image, const sw::Topology& topo) const override;
};

// Two barrier cores on the same inputs each cycle; the first one's outputs drive the network.
// Throws LockstepMismatch (lockstep.hpp) at the first difference in outputs or gathered_q.
class LockstepBarrierCore final : public BarrierCore {
 public:
  LockstepBarrierCore(int node, std::unique_ptr<BarrierCore> a, std::unique_ptr<BarrierCore> b)
      : node_(node), a_(std::move(a)), b_(std::move(b)) {}
  const char* kind() const override { return "lockstep"; }
  void reset() override {
    a_->reset();
    b_->reset();
  }
  void cycle(uint64_t now, const BarrierWiresIn& in, BarrierWiresOut& out) override;
  uint32_t gathered() const override { return a_->gathered(); }
  uint64_t cycles() const { return cycles_; }
  uint64_t episodes() const { return episodes_; }

 private:
  int node_;
  std::unique_ptr<BarrierCore> a_, b_;
  uint64_t cycles_ = 0, episodes_ = 0;
};

class LockstepBarrierFactory final : public BarrierFactory {
 public:
  LockstepBarrierFactory(const BarrierFactory& a, const BarrierFactory& b) : a_(a), b_(b) {}
  std::unique_ptr<BarrierCore> make(sw::NodeId v, const BarrierImage& image, const sw::Topology& topo) const override {
    return std::make_unique<LockstepBarrierCore>(static_cast<int>(v), a_.make(v, image, topo), b_.make(v, image, topo));
  }

 private:
  const BarrierFactory& a_;
  const BarrierFactory& b_;
};

}  // namespace torx::model
