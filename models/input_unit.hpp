// SPDX-License-Identifier: Apache-2.0
// InputUnit: one input port of a router (RTL twin: hw/torx_input_unit.sv; the network interface's
// ejection buffers use it too). It holds one FIFO per virtual channel and, per VC, the state of the
// worm at the FIFO's front (docs/timing-contract.md, "Registers"):
//   state_q      IDLE (no worm being forwarded; a head at the front needs a route and a VC),
//                WAIT_VC (routed, waiting for an output VC), ACTIVE (owns out_port_q / out_vc_q)
//   out_port_q, out_class_q, out_vc_q, msg_q    the worm's route, VC class, output VC and id
//   head_q       the FIFO's read pointer (advanced by the router)
//   tail         its write pointer (advanced by whoever writes the flit: the link on the fast path,
//                the unit itself in port mode)
//
// Timing. A flit reaches the input port in cycle t and can leave in cycle t + P (P stages, the
// first P - 1 of which never stall). The unit stores it at once, stamped with that cycle
// (Flit::due): entries not yet due are the flits in the input pipeline (and, on the fast path, still
// on the wire: links write a flit into the FIFO when it is sent, link.hpp). The router only looks at
// the front entry and only once it is due, so it never sees a flit written in the same cycle; the
// writer only advances `tail` and the reader only `head_q`, so neither can disturb what the other
// reads in a cycle, whatever order they are evaluated in.
//
// Storage: the VC registers and the buffer RAM live in arrays owned by the router (all input units
// of a router side by side, so that a router's hot state spans few cache lines); this class is the
// port's view of them and its behaviour.
#pragma once

#include <cstdint>

#include "models/check.hpp"
#include "models/flit.hpp"

namespace torx::model {

enum class VcState : uint8_t { kIdle = 0, kWaitVc = 1, kActive = 2 };
struct InputVc;

// Counters shared by all blocks of a network, one copy per lane (scheduler.hpp: blocks add to
// counters[lane]; the sums commute, so neither the evaluation order nor the lanes matter).
struct alignas(64) NetworkCounters {
  uint64_t flit_moves = 0;        // flits that advanced this run (links, injection and ejection)
  uint64_t flits_in_buffers = 0;  // flits in router input buffers now (counting those on the links into them;
                                  // one lane's copy may wrap below zero, the sum over lanes does not)
  uint64_t flits_injected = 0;    // flits the endpoints pushed into the network
  uint64_t flits_ejected = 0;     // flits the endpoints took out of it
  uint64_t endpoints_finished = 0;  // endpoints with nothing left to do (endpoint.hpp)
};

// What a link needs to write into an input buffer, copied into the link when it is attached so that
// a send touches only the receiving VC's register line and the buffer slot.
struct FlitSink {
  InputVc* regs = nullptr;       // the buffer's VC registers
  Flit* ram = nullptr;           // its RAM: vcs * depth flits
  uint32_t depth = 0;
  uint32_t vcs = 0;
  uint32_t block = 0;            // the receiver's scheduler id
  uint32_t delay = 0;            // cycles from arrival at the port to the cycle the receiver may act on
                                 // the flit (a router: its P stages; an interface: 0)
  NetworkCounters* counters = nullptr;  // the network's counters, one per lane (may be null)
  uint64_t* occupied = nullptr;  // the receiver's mask of input ports holding flits (may be null): a
  uint64_t occupied_bit = 0;     // write sets occupied_bit in it, so the receiver visits only those ports
};

struct InputVc {
  uint32_t head_q = 0;     // FIFO read count (free-running), advanced by the router
  uint32_t tail = 0;       // FIFO write count (free-running), advanced by the writer
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
  // `delay`: the cycles a flit spends in the port's pipeline before it can leave (a router's P).
  void configure(InputVc* regs, Flit* ram, int vcs, int depth, uint32_t payload_words, uint32_t delay = 0) {
    payload_words_ = payload_words;
    vcs_ = vcs;
    depth_ = depth;
    delay_ = delay;
    vc_ = regs;
    buf_ = ram;
    reset();
  }
  // Empty FIFOs, every VC IDLE.
  void reset() {
    for (int v = 0; v < vcs_; ++v) vc_[v] = InputVc{};
  }

  int vcs() const { return vcs_; }
  int depth() const { return depth_; }
  uint32_t delay() const { return delay_; }
  const InputVc& vc(int v) const { return vc_[v]; }
  InputVc& vc_mut(int v) { return vc_[v]; }
  const Flit& front(int v) const { return buf_[static_cast<size_t>(v) * depth_ + vc_[v].head_slot]; }
  // i-th entry of VC v counted from the head (inspection).
  const Flit& at(int v, uint32_t i) const { return buf_[static_cast<size_t>(v) * depth_ + (vc_[v].head_q + i) % depth_]; }

  // Bit v set: VC v's front flit can leave in cycle `now` (it is due). The router's first look at
  // every cycle; a VC whose front is still in the pipeline (or on the wire) is skipped.
  uint64_t due_mask(uint64_t now) const {
    uint64_t m = 0;
    for (int v = 0; v < vcs_; ++v) {
      const InputVc& r = vc_[v];
      if (r.tail_acquire() != r.head_q && buf_[static_cast<size_t>(v) * depth_ + r.head_slot].due <= now)
        m |= uint64_t{1} << v;
    }
    return m;
  }
  // Entries of VC v that can leave by cycle `now` (the RTL's buffer occupancy: entries past the
  // input pipeline).
  uint32_t due_count(int v, uint64_t now) const {
    uint32_t n = 0;
    const uint32_t c = vc_[v].count();
    for (uint32_t i = 0; i < c; ++i) n += at(v, i).due <= now;
    return n;
  }

  // Port mode: a flit reaches the port in cycle `now` on its VC (flit.vc). It can leave in
  // now + delay(). The credit protocol guarantees room; a full FIFO means the upstream credit
  // counter is wrong.
  void accept(const Flit& f, uint64_t now) {
    TORX_MODEL_CHECK(f.vc < vcs_, "flit arrived on a VC the input port does not have");
    InputVc& r = vc_[f.vc];
    TORX_MODEL_CHECK(r.count() < static_cast<uint32_t>(depth_), "input buffer overflow: upstream credit counter out of step");
    Flit& g = buf_[static_cast<size_t>(f.vc) * depth_ + r.tail_slot];
    copy_flit(g, f, payload_words_);
    g.due = now + delay_;
    r.tail_slot = static_cast<uint16_t>(r.tail_slot + 1 == depth_ ? 0 : r.tail_slot + 1);
    r.publish_tail();
  }
  // The front flit of VC v has left. Returns whether the VC is now empty.
  bool pop(int v) {
    InputVc& r = vc_[v];
    r.head_slot = static_cast<uint16_t>(r.head_slot + 1 == depth_ ? 0 : r.head_slot + 1);
    r.advance_head();
    return r.head_q == r.tail_acquire();
  }
  uint32_t payload_words() const { return payload_words_; }
  // The buffer as a link's far end, for the block with scheduler id `block`; a write sets `bit` in
  // `*occupied` if given.
  FlitSink sink(uint32_t block, NetworkCounters* counters, uint64_t* occupied = nullptr, uint64_t bit = 0) {
    return FlitSink{vc_,   buf_,     static_cast<uint32_t>(depth_), static_cast<uint32_t>(vcs_), block, delay_,
                    counters, occupied, bit};
  }
  // Whether every VC is empty (flits on the wire or in the pipeline count as entries).
  bool empty() const {
    for (int v = 0; v < vcs_; ++v)
      if (vc_[v].count()) return false;
    return true;
  }

 private:
  int vcs_ = 0;
  int depth_ = 0;
  uint32_t delay_ = 0;
  uint32_t payload_words_ = kMaxFlitWords;
  InputVc* vc_ = nullptr;
  Flit* buf_ = nullptr;
};

}  // namespace torx::model
