// SPDX-License-Identifier: Apache-2.0
// The router's allocators (RTL twins: hw/torx_vc_alloc.sv and hw/torx_sw_alloc.sv), as policy
// objects over the router's registers. Their arbitration is stated exactly in
// docs/timing-contract.md (stage P, steps 3 to 5); this file implements that text.
//
// VcAllocator: fair VC allocation. Requesters are input lanes whose front flit is a routed head.
// Separately for every output port o and VC class c, if a VC of class c at o is free, one requester
// for (o, c) wins: the first in input-lane index order at or after va_rr_q[o][c], wrapping around
// (injection lanes included), and it gets the first free VC of the class at or after va_vc_rr_q[o][c].
// Both pointers then move past the winner. A stream of worms through one input therefore cannot
// starve another input (before this allocator, requests were served in port order from port 0 every
// cycle, and a neighbour's one-hop worm could wait for a whole stream). With priority levels
// (docs/priority.md) only the highest level among the requesters competes, and when no VC of the
// class is free it may preempt one owned by a lower level (the lowest such owner).
//
// SwitchAllocator: a separable input-first allocator with round-robin arbiters (BookSim's
// separable_input_first, one iteration), one flit per input port and per output port per cycle:
//  - input stage: each input port offers one of its VCs that can move (ACTIVE, front due, a credit at
//    its output VC), the first at or after sa_in_rr_q[p];
//  - output stage: each output port grants one of the inputs that asked for it, the first at or
//    after sa_out_rr_q[o].
// The pointers move only when their arbiter grants, and only after every decision of the cycle, so
// every decision of cycle t sees the pointers as they were at the start of t.
#pragma once

#include <cstdint>

#include "models/check.hpp"
#include "models/input_unit.hpp"
#include "models/output_unit.hpp"

namespace torx::model {

class Link;

// One router port's registers that the switch allocator and the traversal use, packed into 32
// bytes so that a router's ports share a cache line or two (the model's speed on large networks is
// bound by the cache lines an evaluation touches; docs/cycle-model.md).
struct RouterPort {
  Link* in_link = nullptr;    // flits into input p, credits back out of it (fast path)
  Link* out_link = nullptr;   // flits out of output p, credits back into it (fast path)
  uint64_t request = 0;       // output stage, this cycle: the inputs asking for output p (at the top level)
  uint16_t first_vc = 0;      // input-VC index of port p's VC 0 (its first lane is first_vc * levels)
  uint8_t vcs = 0;            // VCs of port p
  uint8_t sa_in_rr_q = 0;     // input stage pointer: the lane of input p tried first
  uint8_t sa_out_rr_q = 0;    // output stage pointer: the input output p serves first
  uint8_t offer_vc = 0;       // input stage, this cycle: the lane input p offers
  uint8_t request_level = 0;  // output stage, this cycle: the highest level asking for output p
  uint8_t lanes = 0;          // lanes of port p (vcs * priority levels)
};
static_assert(sizeof(RouterPort) == 32, "a router port's registers are 32 bytes");

// Rotating priority: the first set bit of `m` at or after position `start` (< 64), wrapping around
// to bit 0; -1 if none. The switch allocator's arbiters.
inline int first_from(uint64_t m, int start) {
  if (!m) return -1;
  const uint64_t hi = m >> start;
  return hi ? start + __builtin_ctzll(hi) : __builtin_ctzll(m);
}

class SwitchAllocator {
 public:
  void configure(RouterPort* ports, int n) {
    TORX_MODEL_CHECK(n <= 64, "switch allocator for more than 64 ports");
    ports_ = ports;
    n_ = n;
  }
  // Input stage: input port p offers the first lane of `ready` (lanes that can move, all of one
  // level, `level`) at or after its pointer, asking that lane's output port `out_of(v)` for the
  // switch. Returns the lane offered. The output stage keeps only the requests of the highest level.
  template <class OutOf>
  int offer(int p, uint64_t ready, int level, OutOf&& out_of, uint64_t& requested) {
    RouterPort& in = ports_[p];
    const int v = first_from(ready, in.sa_in_rr_q);
    in.offer_vc = static_cast<uint8_t>(v);
    const int o = out_of(v);
    RouterPort& op = ports_[o];
    const uint64_t bit = uint64_t{1} << o;
    if (!(requested & bit) || level > op.request_level) {
      op.request = 0;
      op.request_level = static_cast<uint8_t>(level);
      requested |= bit;
    }
    if (level == op.request_level) op.request |= uint64_t{1} << p;
    return v;
  }
  // Output stage: of the inputs asking for output o, the one it grants.
  int arbitrate(int o) const {
    const RouterPort& op = ports_[o];
    return first_from(op.request, op.sa_out_rr_q);
  }
  // Input p's VC v won output o: both arbiters move past their winner.
  void grant(int p, int v, int o) {
    RouterPort& in = ports_[p];
    in.sa_in_rr_q = next_input_pointer(in, v);
    ports_[o].sa_out_rr_q = static_cast<uint8_t>(p + 1 == n_ ? 0 : p + 1);
  }
  // The input-stage pointer after lane v of input port `in` won the switch: the one place its wrap
  // is stated. It wraps at the port's lane count (vcs * K), as hw/torx_sw_alloc.sv's does: with
  // priority levels K > 1 every lane takes its turn (until issue 25 it wrapped at the VC count, and
  // the lanes above it were passed over; docs/verification.md lists what that changed).
  static uint8_t next_input_pointer(const RouterPort& in, int v) {
    return static_cast<uint8_t>(v + 1 == in.lanes ? 0 : v + 1);
  }
  int ports() const { return n_; }

 private:
  RouterPort* ports_ = nullptr;
  int n_ = 0;
};

// A head asking for an output VC in this cycle.
struct VaRequest {
  uint16_t ivc;       // input lane index (docs/timing-contract.md: the input-VC index with one level)
  uint8_t port, vc;   // input port and lane within it
  uint8_t out_port, out_class;
  uint8_t level;      // priority level of the worm
  uint8_t decided;    // arbitrated already (allocate's scratch)
};

// The VC allocator's registers for one (output port, class).
struct VaPointers {
  uint16_t va_rr_q = 0;    // input-VC index served first
  uint8_t va_vc_rr_q = 0;  // VC within the class tried first
  uint8_t spare = 0;
};

class VcAllocator {
 public:
  // `pointers`: classes_per_port entries per output port (ejection ports use entry 0 of theirs);
  // `total_lanes`: the number of input lanes (the range of the input-lane index); `levels`: priority
  // levels (the owner of an output VC has level owner % levels).
  void configure(VaPointers* pointers, int classes_per_port, int vcs_per_class, int total_lanes, int levels = 1) {
    ptr_ = pointers;
    classes_ = classes_per_port;
    vpc_ = vcs_per_class;
    total_ = total_lanes;
    levels_ = levels;
  }
  VaPointers& pointers(int o, int c) { return ptr_[o * classes_ + c]; }
  const VaPointers& pointers(int o, int c) const { return ptr_[o * classes_ + c]; }

  // Grants the requests req[0 .. n) per the contract: at most one per (output, class). For each
  // grant calls granted(request, output VC, preempted). `out[o]` is output o's unit.
  template <class Granted>
  void allocate(VaRequest* req, int n, OutputUnit* out, Granted&& granted) {
    for (int i = 0; i < n; ++i) {
      if (req[i].decided) continue;
      const int o = req[i].out_port, c = req[i].out_class;
      VaPointers& ptr = pointers(o, c);
      // The winner of (o, c): the highest level, then the smallest rotating distance from the pointer.
      int best = i;
      int best_d = distance(req[i].ivc, ptr.va_rr_q);
      for (int j = i + 1; j < n; ++j) {
        if (req[j].out_port != o || req[j].out_class != c) continue;
        req[j].decided = 1;
        const int d = distance(req[j].ivc, ptr.va_rr_q);
        if (req[j].level > req[best].level || (req[j].level == req[best].level && d < best_d)) {
          best = j;
          best_d = d;
        }
      }
      // A free VC of the class, from the class pointer; else, with priority levels, the VC whose
      // owner has the lowest level below the winner's (the first from the pointer among equals).
      OutputUnit& u = out[o];
      const int nv = u.vcs() == 1 ? 1 : vpc_;
      const int base = u.vcs() == 1 ? 0 : c * vpc_;
      int take = -1;
      bool preempt = false;
      int victim_level = req[best].level;
      for (int k = 0, x = ptr.va_vc_rr_q; k < nv; ++k, x = (x + 1 == nv ? 0 : x + 1)) {
        const OutputVc& v = u.vc(base + x);
        if (v.owner_q == kVcFree) {
          take = x;
          preempt = false;
          break;
        }
        if (levels_ > 1 && v.owner_q % levels_ < victim_level && v.depth_q + 1 < levels_) {
          take = x;
          preempt = true;
          victim_level = v.owner_q % levels_;
        }
      }
      if (take < 0) continue;
      if (preempt) u.preempt(base + take, req[best].ivc);
      else u.claim(base + take, req[best].ivc);
      ptr.va_rr_q = static_cast<uint16_t>(req[best].ivc + 1 == total_ ? 0 : req[best].ivc + 1);
      ptr.va_vc_rr_q = static_cast<uint8_t>(take + 1 == nv ? 0 : take + 1);
      granted(req[best], base + take, preempt);
    }
  }

 private:
  int distance(int ivc, int from) const { return ivc >= from ? ivc - from : ivc + total_ - from; }

  VaPointers* ptr_ = nullptr;
  int classes_ = 1;
  int vpc_ = 1;
  int total_ = 1;
  int levels_ = 1;
};

}  // namespace torx::model
