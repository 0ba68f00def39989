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
// Priority lanes (docs/priority.md). With K priority levels every VC buffer holds one lane per level:
// a FIFO with the worm state above, for the flits of that level (Flit::priority). Lane i of a port is
// VC i / K, level i % K; with K = 1 a lane is a VC. The D slots of a VC are shared by its lanes: the
// sender's credits count the whole VC, and its throttle keeps lower levels out of the room reserved
// for higher ones, so no lane ever holds more than D flits and the lanes together never more than D.
//
// Storage: the lane registers and the buffer RAM live in arrays owned by the router (all input units
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
  InputVc* regs = nullptr;       // the buffer's lane registers (vcs * lanes)
  Flit* ram = nullptr;           // its RAM: vcs * lanes * depth flits
  uint32_t depth = 0;
  uint32_t vcs = 0;
  uint32_t lanes = 1;            // priority levels: lanes per VC (lane = vc * lanes + flit priority)
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
  // `lanes`: priority levels, lanes per VC.
  void configure(InputVc* regs, Flit* ram, int vcs, int depth, uint32_t payload_words, uint32_t delay = 0,
                 int lanes = 1) {
    payload_words_ = payload_words;
    vcs_ = vcs;
    lanes_ = lanes;
    depth_ = depth;
    delay_ = delay;
    vc_ = regs;
    buf_ = ram;
    reset();
  }
  // Empty FIFOs, every lane IDLE.
  void reset() {
    for (int v = 0; v < vcs_ * lanes_; ++v) vc_[v] = InputVc{};
  }

  int vcs() const { return vcs_; }
  int lanes_per_vc() const { return lanes_; }
  int lanes() const { return vcs_ * lanes_; }
  int depth() const { return depth_; }
  uint32_t delay() const { return delay_; }
  // Lane i (VC i / lanes_per_vc(), level i % lanes_per_vc()); with one level, VC i.
  const InputVc& vc(int i) const { return vc_[i]; }
  InputVc& vc_mut(int i) { return vc_[i]; }
  const Flit& front(int i) const { return buf_[static_cast<size_t>(i) * depth_ + vc_[i].head_slot]; }
  // k-th entry of lane i counted from the head (inspection).
  const Flit& at(int i, uint32_t k) const { return buf_[static_cast<size_t>(i) * depth_ + (vc_[i].head_q + k) % depth_]; }

  // Bit i set: lane i's front flit can leave in cycle `now` (it is due). A lane whose front is still
  // in the pipeline (or on the wire) is skipped.
  uint64_t due_mask(uint64_t now) const {
    uint64_t m = 0;
    for (int i = 0; i < lanes(); ++i) {
      const InputVc& r = vc_[i];
      if (r.tail_acquire() != r.head_q && buf_[static_cast<size_t>(i) * depth_ + r.head_slot].due <= now)
        m |= uint64_t{1} << i;
    }
    return m;
  }
  // Entries of lane i that can leave by cycle `now` (the RTL's buffer occupancy: entries past the
  // input pipeline).
  uint32_t due_count(int i, uint64_t now) const {
    uint32_t n = 0;
    const uint32_t c = vc_[i].count();
    for (uint32_t k = 0; k < c; ++k) n += at(i, k).due <= now;
    return n;
  }

  // Port mode: a flit reaches the port in cycle `now` on its VC (flit.vc), into the lane of its level
  // (flit.priority). It can leave in now + delay(). The credit protocol guarantees room; a full FIFO
  // means the upstream credit counter is wrong.
  void accept(const Flit& f, uint64_t now) {
    TORX_MODEL_CHECK(f.vc < vcs_, "flit arrived on a VC the input port does not have");
    TORX_MODEL_CHECK(f.priority < lanes_, "flit of a priority level the router does not have");
    const int i = f.vc * lanes_ + f.priority;
    InputVc& r = vc_[i];
    TORX_MODEL_CHECK(r.count() < static_cast<uint32_t>(depth_), "input buffer overflow: upstream credit counter out of step");
    Flit& g = buf_[static_cast<size_t>(i) * depth_ + r.tail_slot];
    copy_flit(g, f, payload_words_);
    g.due = now + delay_;
    r.tail_slot = static_cast<uint16_t>(r.tail_slot + 1 == depth_ ? 0 : r.tail_slot + 1);
    r.publish_tail();
  }
  // The front flit of lane i has left. Returns whether the lane is now empty.
  bool pop(int i) {
    InputVc& r = vc_[i];
    r.head_slot = static_cast<uint16_t>(r.head_slot + 1 == depth_ ? 0 : r.head_slot + 1);
    r.advance_head();
    return r.head_q == r.tail_acquire();
  }
  uint32_t payload_words() const { return payload_words_; }
  // The buffer as a link's far end, for the block with scheduler id `block`; a write sets `bit` in
  // `*occupied` if given.
  FlitSink sink(uint32_t block, NetworkCounters* counters, uint64_t* occupied = nullptr, uint64_t bit = 0) {
    FlitSink s;
    s.regs = vc_;
    s.ram = buf_;
    s.depth = static_cast<uint32_t>(depth_);
    s.vcs = static_cast<uint32_t>(vcs_);
    s.lanes = static_cast<uint32_t>(lanes_);
    s.block = block;
    s.delay = delay_;
    s.counters = counters;
    s.occupied = occupied;
    s.occupied_bit = bit;
    return s;
  }
  // Whether every lane is empty (flits on the wire or in the pipeline count as entries).
  bool empty() const {
    for (int i = 0; i < lanes(); ++i)
      if (vc_[i].count()) return false;
    return true;
  }

 private:
  int vcs_ = 0;
  int lanes_ = 1;
  int depth_ = 0;
  uint32_t delay_ = 0;
  uint32_t payload_words_ = kMaxFlitWords;
  InputVc* vc_ = nullptr;
  Flit* buf_ = nullptr;
};

}  // namespace torx::model
