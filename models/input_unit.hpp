// SPDX-License-Identifier: Apache-2.0
// InputUnit: one input port's buffers (RTL twin: the input block of torx_router; the network
// interface's ejection buffers use it too). It holds one FIFO per virtual channel and, per VC, the
// state of the worm at the FIFO's head:
//   state_q   kIdle (no worm being forwarded; a head flit at the front needs routing and a VC),
//             kWaitVc (routed, waiting for a free output VC), kActive (owns out_port_q/out_vc_q)
//   out_port_q, out_class_q, out_vc_q, msg_q   the worm's route, VC class, output VC and id
//   head_q                                     the FIFO's read pointer (owned by this port)
//   tail                                       its write pointer (advanced by the link)
//
// The link feeding the port writes each flit straight into its VC's FIFO with the cycle it becomes
// visible (Flit::due: pushed in t, visible in t + link latency + router stages 1..P-1 + 1, see
// link.hpp); entries not yet due are the flits still on the wire and in the non-stalling pipeline
// stages. The router only ever looks at the front entry and only once it is due, so it never sees a
// flit written in the same cycle; the writer only advances `tail` and the reader only `head_q`, so
// neither can disturb what the other reads in a cycle, whatever order they are evaluated in.
//
// Storage: the VC registers and the buffer RAM live in arrays owned by the router (all input units
// of a router side by side, so that a router's hot state spans few cache lines).
#pragma once

#include <cstdint>

#include "models/check.hpp"
#include "models/flit.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

enum class VcState : uint8_t { kIdle, kWaitVc, kActive };
struct InputVc;

// Counters shared by all blocks of a network, one copy per lane (scheduler.hpp: blocks add to
// counters[tl_lane]; the sums commute, so neither the evaluation order nor the lanes matter).
struct alignas(64) NetworkCounters {
  uint64_t flit_moves = 0;        // flits that advanced this run (links, injection and ejection)
  uint64_t flits_in_buffers = 0;  // flits in router input buffers now (counting those on the links into them;
                                  // one lane's copy may wrap below zero, the sum over lanes does not)
};

// What a link needs to write into an input buffer, copied into the link when it is attached so that
// a send touches only the receiving VC's register line and the buffer slot.
struct FlitSink {
  InputVc* regs = nullptr;       // the buffer's VC registers
  Flit* ram = nullptr;           // its RAM: vcs * depth flits
  uint32_t depth = 0;
  uint32_t vcs = 0;
  uint32_t block = 0;            // the receiver's scheduler id
  NetworkCounters* counters = nullptr;  // the network's counters, one per lane (may be null)
};

struct InputVc {
  uint32_t head_q = 0;     // FIFO read count (free-running), advanced by the router
  uint32_t tail = 0;       // FIFO write count (free-running), advanced by the link
  uint16_t head_slot = 0;  // head_q modulo the depth
  uint16_t tail_slot = 0;  // tail modulo the depth
  VcState state_q = VcState::kIdle;
  uint8_t out_port_q = 0;
  uint8_t out_class_q = 0;
  uint8_t out_vc_q = 0;
  uint32_t msg_q = 0;
  // head_q and tail are the two ends' only shared words: with two lanes (scheduler.hpp) the writer
  // and the reader may be different threads, so each end publishes its counter with a release
  // store and reads the other's with an acquire load (plain moves on x86). A flit published in
  // cycle t is never due before t + 1, so seeing it or not in cycle t changes nothing.
  uint32_t tail_acquire() const { return __atomic_load_n(&tail, __ATOMIC_ACQUIRE); }
  uint32_t head_acquire() const { return __atomic_load_n(&head_q, __ATOMIC_ACQUIRE); }
  uint32_t tail_relaxed() const { return __atomic_load_n(&tail, __ATOMIC_RELAXED); }  // hints (prefetch) only
  void publish_tail() { __atomic_store_n(&tail, tail + 1, __ATOMIC_RELEASE); }   // writer only
  void advance_head() { __atomic_store_n(&head_q, head_q + 1, __ATOMIC_RELEASE); }  // reader only
  uint32_t count() const { return tail_acquire() - head_acquire(); }
};

class InputUnit {
 public:
  void configure(InputVc* regs, Flit* ram, int vcs, int depth, uint32_t payload_words) {
    payload_words_ = payload_words;
    vcs_ = vcs;
    depth_ = depth;
    vc_ = regs;
    buf_ = ram;
    for (int v = 0; v < vcs; ++v) vc_[v] = InputVc{};
  }

  int vcs() const { return vcs_; }
  int depth() const { return depth_; }
  const InputVc& vc(int v) const { return vc_[v]; }
  InputVc& vc_mut(int v) { return vc_[v]; }
  // Bit v set: VC v holds at least one entry (due or not). Computed from the VC registers, which the
  // router reads anyway: the link writes only the VC's own register line and the buffer slot.
  uint64_t vc_mask() const {
    uint64_t m = 0;
    for (int v = 0; v < vcs_; ++v)
      if (vc_[v].count() != 0) m |= uint64_t{1} << v;
    return m;
  }
  const Flit& front(int v) const { return buf_[static_cast<size_t>(v) * depth_ + vc_[v].head_slot]; }
  // i-th entry of VC v counted from the head (inspection).
  const Flit& at(int v, uint32_t i) const { return buf_[static_cast<size_t>(v) * depth_ + (vc_[v].head_q + i) % depth_]; }

  // Link side: the slot the next flit of VC v goes into, then commit it. The credit protocol
  // guarantees room; a full FIFO means the upstream credit counter is wrong (a model bug).
  Flit& push_slot(int v) {
    TORX_MODEL_CHECK(v < vcs_, "flit sent on a VC the input port does not have");
    InputVc& r = vc_[v];
    TORX_MODEL_CHECK(r.count() < static_cast<uint32_t>(depth_), "input buffer overflow: upstream credit counter out of step");
    return buf_[static_cast<size_t>(v) * depth_ + r.tail_slot];
  }
  void pushed(int v) {
    InputVc& r = vc_[v];
    r.tail_slot = static_cast<uint16_t>(r.tail_slot + 1 == depth_ ? 0 : r.tail_slot + 1);
    r.publish_tail();
  }
  // Router side: the head flit of VC v has left. Returns whether the VC is now empty.
  bool pop(int v) {
    InputVc& r = vc_[v];
    r.head_slot = static_cast<uint16_t>(r.head_slot + 1 == depth_ ? 0 : r.head_slot + 1);
    r.advance_head();
    return r.head_q == r.tail_acquire();
  }
  uint32_t payload_words() const { return payload_words_; }
  // The buffer as a link's far end, for the block with scheduler id `block`.
  FlitSink sink(uint32_t block, NetworkCounters* counters) {
    return FlitSink{vc_, buf_, static_cast<uint32_t>(depth_), static_cast<uint32_t>(vcs_), block, counters};
  }

 private:
  int vcs_ = 0;
  int depth_ = 0;
  uint32_t payload_words_ = kMaxFlitWords;
  InputVc* vc_ = nullptr;
  Flit* buf_ = nullptr;
};

}  // namespace torx::model
