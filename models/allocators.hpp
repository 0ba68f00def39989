// SPDX-License-Identifier: Apache-2.0
// The router's allocators (RTL twins: torx_vc_alloc and torx_sw_alloc).
//
// SwitchAllocator: a separable input-first allocator with round-robin arbiters (BookSim's
// separable_input_first, one iteration), one flit per input port and per output port per cycle:
//  - input stage: each input port offers one of its VCs that can move (holds an output VC with a
//    credit), trying its VCs in rotating order starting after the last VC that won (vc_rr_q);
//  - output stage: each output port grants one of the inputs that asked for it, in rotating order
//    starting after the last input it granted (out_rr_q).
// A pointer moves only when its arbiter grants, and only after that arbiter has decided for the
// cycle, so every decision of cycle t sees the pointers as they were at the start of t.
//
// VcAllocator: a worm's head gets an output VC of the class its route asks for; the candidates of
// the class are tried starting at rr_q[output] so that successive worms spread over the class's VCs.
// A VC claimed in this cycle is no longer free, so two heads never get the same VC (moving the
// pointer at the claim gives the same choices as moving it at the end of the cycle: every VC the
// first claim skipped was taken).
#pragma once

#include <cstdint>
#include <vector>

#include "models/check.hpp"
#include "models/output_unit.hpp"

namespace torx::model {

class Link;

// One router port's registers that the allocators and the traversal use, packed into 32 bytes so
// that a router's ports share a cache line or two (the model's speed on large networks is bound by
// the cache lines an evaluation touches; docs/cycle-model.md).
struct RouterPort {
  Link* in_link = nullptr;    // flits into input p, credits back out of it
  Link* out_link = nullptr;   // flits out of output p, credits back into it
  uint64_t request = 0;       // output stage, this cycle: the inputs asking for output p
  uint16_t first_vc = 0;      // index of port p's first VC in the router's VC arrays
  uint8_t vcs = 0;            // VCs of port p
  uint8_t vc_rr_q = 0;        // input stage pointer: the VC of input p with the highest priority
  uint8_t out_rr_q = 0;       // output stage pointer: the input output p serves first
  uint8_t va_rr_q = 0;        // VC allocator pointer: first candidate within a class at output p
  uint8_t offer_vc = 0;       // input stage, this cycle: the VC input p offers
  uint8_t requests = 0;       // output stage, this cycle: how many inputs ask for output p
};
static_assert(sizeof(RouterPort) == 32, "a router port's registers are 32 bytes");

class SwitchAllocator {
 public:
  void configure(RouterPort* ports, int n) {
    TORX_MODEL_CHECK(n <= 64, "switch allocator for more than 64 ports");
    ports_ = ports;
    n_ = n;
  }
  // Input stage: the VC to try first at `port`.
  int first_vc(int port) const { return ports_[port].vc_rr_q; }
  // Output stage: of the inputs in `requests` (bit per input port), the one `output` grants.
  int arbitrate(int output, uint64_t requests) const {
    const int s = ports_[output].out_rr_q;
    const uint64_t rot = s ? (requests >> s) | (requests << (n_ - s)) : requests;
    const int p = __builtin_ctzll(rot) + s;
    return p >= n_ ? p - n_ : p;
  }
  // (port, vc) won `output`: both arbiters move past their winner.
  void grant(int port, int vc, int output) {
    RouterPort& in = ports_[port];
    in.vc_rr_q = static_cast<uint8_t>(vc + 1 == in.vcs ? 0 : vc + 1);
    ports_[output].out_rr_q = static_cast<uint8_t>(port + 1 == n_ ? 0 : port + 1);
  }

 private:
  RouterPort* ports_ = nullptr;
  int n_ = 0;
};

class VcAllocator {
 public:
  void configure(RouterPort* ports, int vcs_per_class) {
    ports_ = ports;
    vpc_ = vcs_per_class;
  }
  // Claims a free VC of class `cls` among `out` (the `nvcs` VCs of output `port`) for `requester`;
  // returns it, or -1 if none is free. Output ports with a single VC (ejection) ignore the class.
  int allocate(OutputVc* out, int nvcs, int port, int cls, uint16_t requester) {
    const int n = nvcs == 1 ? 1 : vpc_;
    const int base = nvcs == 1 ? 0 : cls * vpc_;
    uint8_t& rr = ports_[port].va_rr_q;
    for (int i = 0; i < n; ++i) {
      int k = rr + i;
      if (k >= n) k -= n;
      OutputVc& v = out[base + k];
      if (v.owner_q == kVcFree) {
        v.owner_q = requester;
        rr = static_cast<uint8_t>(k + 1 == n ? 0 : k + 1);
        return base + k;
      }
    }
    return -1;
  }

 private:
  RouterPort* ports_ = nullptr;
  int vpc_ = 1;
};

}  // namespace torx::model
