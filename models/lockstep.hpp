// SPDX-License-Identifier: Apache-2.0
// The lock-step harness: two router cores fed the same input wires every cycle, their output wires
// and their named registers (router_core.hpp) compared every cycle, the first difference reported as
// "cycle N, router R, port P, field F: A vs B". torx cosim runs a network of such pairs (the C++
// router in port mode against the Verilated RTL router); the tests run the C++ router against
// itself and against a deliberately mutated copy.
//
// A LockstepCore is itself a RouterCore: it returns the first core's outputs, so a network of pairs
// (PortRouter over LockstepCore, port_router.hpp) runs exactly as a network of first cores would,
// and each pair sees what its neighbours' first cores sent. Because the two cores agree until the
// first mismatch, which stops the run, every core sees exactly the inputs it would see in its own
// network.
//
// Coverage: a quiet million cycles must not pass for coverage, so the pair also records which
// router states its inputs drove it through (LockstepCoverage): VC buffers that were full, output
// VCs out of credits, heads that waited for a VC, each VC class used, arbiter pointers that wrapped.
// Every arbiter pointer of the contract is covered (switch input and output stages, the VC
// allocator's input pointer and its pointer within a class, the gossip claim pointer): a pointer
// that never moves in the C++ router is in both cores of a C++-against-C++ run, so the comparison
// cannot see it, but its wrap count stays at zero (testbenches/models/test_pointer_coverage.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/router_core.hpp"

namespace torx::model {

// The first difference, thrown out of the cycle in which it happened.
class LockstepMismatch : public std::runtime_error {
 public:
  LockstepMismatch(const Mismatch& m, const std::string& text) : std::runtime_error(text), mismatch_(m) {}
  const Mismatch& mismatch() const { return mismatch_; }

 private:
  Mismatch mismatch_;
};

// States reached, summed over the pairs of a network: "reached / possible" per kind.
struct LockstepCoverage {
  uint64_t cycles = 0;            // router-cycles compared
  uint64_t flits = 0;             // output flits compared
  uint64_t registers = 0;         // register values compared
  uint64_t blocked = 0;           // blocked VC-cycles seen
  // Distinct input VCs / output VCs / ports / (port, class) pairs, and how many of them reached:
  uint64_t input_vcs = 0, input_vcs_full = 0, input_vcs_waited = 0;      // buffer full; head in WAIT_VC
  uint64_t output_vcs = 0, output_vcs_used = 0, output_vcs_no_credit = 0;  // owned by a worm; credits at 0
  uint64_t output_ports = 0, sa_out_wraps = 0;   // output-stage pointer came back to a lower input
  uint64_t input_ports = 0, sa_in_wraps = 0;     // input-stage pointer came back to a lower VC
  uint64_t va_groups = 0, va_wraps = 0;          // VC allocator pointers that wrapped
  // The VC allocator's pointers within a class (va_vc_rr_q) that can move (network ports with 2 or
  // more VCs per class) and those that wrapped; gossip routers' claim pointers (gossip_rr_q).
  uint64_t va_vc_groups = 0, va_vc_wraps = 0;
  uint64_t gossip_routers = 0, gossip_rr_wraps = 0;
  uint64_t class_vcs_used[8] = {};               // output VCs used per VC class (dateline 0/1, order)
  uint64_t output_vcs_preempted = 0, output_vcs_nested = 0;  // preempted once; twice at a time (priority)
  void merge(const LockstepCoverage& o);
  std::string describe() const;
};

class LockstepCore final : public RouterCore {
 public:
  // `router`: the node id for reports; `port_names`: names of the ports for reports.
  LockstepCore(int router, std::vector<std::string> port_names, std::unique_ptr<RouterCore> a,
               std::unique_ptr<RouterCore> b);
  const char* kind() const override { return "lockstep"; }
  const RouterShape& shape() const override { return a_->shape(); }
  void reset() override;
  // Runs both cores on `in`; `out` gets the first core's outputs. Throws LockstepMismatch at the
  // first difference in outputs or registers.
  void cycle(uint64_t now, const PortWires* in, PortWires* out) override;
  void snapshot(RouterSnapshot& s) const override { a_->snapshot(s); }
  bool quiescent() const override { return a_->quiescent(); }
  uint32_t blocked() const override { return a_->blocked(); }
  uint32_t preempted_last() const override { return a_->preempted_last(); }
  uint32_t stacked() const override { return a_->stacked(); }
  uint32_t traversing() const override { return a_->traversing(); }

  const LockstepCoverage& coverage() const;
  RouterCore& first() { return *a_; }
  RouterCore& second() { return *b_; }

 private:
  int router_;
  std::vector<std::string> port_names_;
  std::unique_ptr<RouterCore> a_, b_;
  std::vector<PortWires> out_b_;
  RouterSnapshot snap_a_, snap_b_, prev_;
  // Coverage flags per input VC / output VC / port / (port, class); summed in coverage().
  std::vector<uint8_t> ivc_full_, ivc_waited_, ovc_used_, ovc_dry_, ovc_preempted_, in_wrap_, out_wrap_, va_wrap_;
  std::vector<uint8_t> va_vc_movable_, va_vc_wrap_;  // per (port, class): V >= 2 on a network port; wrapped
  uint8_t gossip_wrap_ = 0;
  mutable LockstepCoverage cov_;
};

}  // namespace torx::model
