// SPDX-License-Identifier: Apache-2.0
// Link: one directed channel between two blocks (router to router, network interface to router,
// router to network interface) with a fixed latency, in the BookSim manner: flits travel forward,
// credits travel back.
//
// Flits. A flit pushed in cycle t is at the far end's input port in cycle t + L (L = the link's
// latency: link_latency between routers, local_latency to and from an interface). The receiving
// block's input buffer is the far end of the link (a FlitSink the receiver hands over when it is
// wired): the flit is written straight into its VC's FIFO, stamped with the cycle in which the
// receiver can act on it, Flit::due = t + L + the receiver's own pipeline delay (FlitSink::delay: a
// router's P stages, docs/timing-contract.md; 0 for a network interface), and the receiver is
// woken for that cycle. Entries not yet due are the flits on the wire and in the receiver's
// non-stalling stages; the receiver ignores them until they are due, so the order in which sender
// and receiver are evaluated within a cycle never matters. Writing the flit once into its
// destination buffer, instead of into a wire model and then again into the buffer, halves the
// memory a flit touches per hop (docs/cycle-model.md, "Performance"). A block that takes its
// inputs as per-cycle wires (PortRouter, port_router.hpp) hands over a staging FIFO with delay 0
// and takes each flit out in the cycle it arrives.
//
// Credits. A LatencyLine carries them back: pushed in t, visible to the sender in t + Lc.
//
// The VCD trace samples, after each cycle, the flit and credit pushed in that cycle (the wire's
// value); a flit counter gives the per-link statistics.
#pragma once

#include <cstdint>

#include "models/flit.hpp"
#include "models/input_unit.hpp"
#include "models/latency_line.hpp"
#include "models/scheduler.hpp"

namespace torx::model {

// Receives every flit sent onto any link of a network (tests record traces with it).
class FlitObserver {
 public:
  virtual ~FlitObserver() = default;
  virtual void on_flit(uint64_t cycle, uint32_t link, const Flit& f) = 0;
};

// A block's end of a link, as the block exposes it: its scheduler id and a bit in one of its masks
// of ports with something in flight towards it, so that it visits only those ports.
struct LinkEnd {
  uint32_t block = 0;
  uint64_t* mask = nullptr;
  uint64_t bit = 0;
};

class Link {
 public:
  // flit_latency: pushed in t, at the far end's input port in t + flit_latency. tx: the sender, as
  // the receiver of the credits.
  void configure(uint32_t id, int flit_latency, int credit_latency, Scheduler* sched, LinkEnd tx,
                 uint32_t payload_words = kMaxFlitWords) {
    TORX_MODEL_CHECK(flit_latency >= 1, "a link needs latency >= 1");
    id_ = id;
    latency_ = static_cast<uint32_t>(flit_latency);
    credits_.configure(credit_latency);
    sched_ = sched;
    tx_ = tx;
    payload_words_ = payload_words;
  }
  // The receiver attaches its input buffer (at wiring time); its pipeline delay is added to the
  // link's latency in every flit's due cycle.
  void attach(FlitSink sink) {
    sink_ = sink;
    due_offset_ = latency_ + sink.delay;
  }
  bool attached() const { return sink_.regs != nullptr; }

  // --- transmitter (upstream) side ---------------------------------------------------------------
  // Sends a copy of `f` on VC `vc` of this link into slot `slot` of the receiving VC's FIFO (the
  // sender's mirror of the FIFO's write pointer, OutputVc::tail_slot; checked).
  // `lane`: the sender's lane (scheduler.hpp). The flit goes into the receiver's buffer lane of its VC
  // and priority level (f.priority), at `slot`, the sender's mirror of that lane's write pointer.
  void send_flit(uint64_t now, int lane, const Flit& f, uint8_t vc, uint16_t slot) {
    const uint32_t li = lane_of(vc, f.priority);
    Flit& g = slot_ref(li, slot);
    copy_flit(g, f, payload_words_);
    finish(now, lane, g, vc, li);
  }
  // A router forwarding a flit it takes out of one of its own input buffers (Router::traverse): the
  // write send_flit makes, but the network's buffer count is left alone when the receiver is a
  // router too (the flit leaves one counted buffer and enters another in the same evaluation, on the
  // same lane, so the count and its per-cycle sum are those of a decrement and an increment). `slot`
  // is the sender's mirror of the receiving lane's write pointer; it moves to the next slot. Returns
  // whether the receiving buffer is counted (if not, the sender takes the flit off the count).
  bool forward_flit(uint64_t now, int lane, const Flit& f, uint8_t vc, uint16_t& slot) {
    const uint32_t li = lane_of(vc, f.priority);
    Flit& g = slot_ref(li, slot);
    copy_flit(g, f, payload_words_);
    g.vc = vc;
    g.due = now + due_offset_;
    const uint16_t next = next_slot(slot);
    slot = next;
    InputVc& r = sink_.regs[li];
    r.tail_slot = next;
    publish(now, lane, g, r);
    return sink_.counters != nullptr;
  }
  // Builds the flit in place in the receiver's buffer: fill(Flit&) writes sideband and payload (its
  // priority must be `priority`).
  template <class Fill>
  void send_flit_with(uint64_t now, int lane, uint8_t vc, uint8_t priority, uint16_t slot, Fill&& fill) {
    const uint32_t li = lane_of(vc, priority);
    Flit& g = slot_ref(li, slot);
    fill(g);
    finish(now, lane, g, vc, li);
  }
  // The write pointer that follows `slot` in the receiving buffer (for the sender's mirror).
  uint16_t next_slot(uint16_t slot) const { return static_cast<uint16_t>(slot + 1u == sink_.depth ? 0 : slot + 1); }
  // For tests that play a sender without a mirror: the receiving lane's current write pointer.
  uint16_t tail_slot(uint8_t vc, uint8_t priority = 0) const { return sink_.regs[lane_of(vc, priority)].tail_slot; }
  bool credit_ready(uint64_t now) const { return credits_.ready(now); }
  // Prefetch hints for a router about to evaluate (Clocked::prefetch).
  void prefetch_flit_path() const { __builtin_prefetch(this); }
  void prefetch_credit_path() const { __builtin_prefetch(&credits_); }
  // The receiving VC's register line and the slot the next flit goes into (for a flit about to be
  // sent on vc into `slot`). Reads only this link's first line, which stage 2 fetched.
  void prefetch_sink(uint8_t vc, uint16_t slot, uint8_t priority = 0) const {
    if (vc >= sink_.vcs || priority >= sink_.lanes) return;
    const uint32_t li = vc * sink_.lanes + priority;
    __builtin_prefetch(&sink_.regs[li], 1);
    __builtin_prefetch(&sink_.ram[static_cast<size_t>(li) * sink_.depth + slot], 1);
  }
  // The sender's credit bit (LinkEnd::mask) may be set by the receiver's lane while the sender's
  // lane clears it: both sides use atomic read-modify-writes, and the sender clears the bit first
  // and then looks again, so a credit pushed meanwhile keeps its bit (scheduler.hpp, "Two lanes").
  Credit take_credit() {
    const Credit c = credits_.front();
    credits_.pop();
    if (credits_.empty()) {
      if (!shared_) {
        *tx_.mask &= ~tx_.bit;
      } else {
        __atomic_fetch_and(tx_.mask, ~tx_.bit, __ATOMIC_SEQ_CST);
        if (!credits_.empty()) __atomic_fetch_or(tx_.mask, tx_.bit, __ATOMIC_RELAXED);
      }
    }
    return c;
  }
  // Takes every credit visible in cycle `now`, calling take(credit) for each, and clears the sender's
  // credit bit when the line is empty (with two lanes: clear, then look again, as take_credit does).
  template <class Take>
  void take_credits(uint64_t now, Take&& take) {
    if (!credits_.drain(now, take)) return;
    if (!shared_) {
      *tx_.mask &= ~tx_.bit;
    } else {
      __atomic_fetch_and(tx_.mask, ~tx_.bit, __ATOMIC_SEQ_CST);
      if (!credits_.empty()) __atomic_fetch_or(tx_.mask, tx_.bit, __ATOMIC_RELAXED);
    }
  }
  // Whether the two ends may be evaluated by different threads (set for every link when a network
  // runs on two lanes): only then do the credit bits need atomic read-modify-writes.
  void set_shared(bool shared) { shared_ = shared; }
  bool shared() const { return shared_; }
  // The credit bits of a sender (read at the start of its evaluation).
  static uint64_t credit_bits(const uint64_t& mask) { return __atomic_load_n(&mask, __ATOMIC_ACQUIRE); }

  // --- receiver (downstream) side ----------------------------------------------------------------
  void send_credit(uint64_t now, int lane, Credit c) {
    credits_.push(now, c);
    if (!shared_) *tx_.mask |= tx_.bit;
    else __atomic_fetch_or(tx_.mask, tx_.bit, __ATOMIC_SEQ_CST);
    sched_->wake_at(lane, tx_.block, now + credits_.latency());
  }

  // --- partitioned runs (models/partitioned.hpp) --------------------------------------------------
  // A link whose sender is on another rank: the credits its receiver sends wake `end` (the rank's
  // exporter, which drains credit_line_mut() after each cycle) instead of the sender.
  void redirect_credits(LinkEnd end) { tx_ = end; }
  LatencyLine<Credit>& credit_line_mut() { return credits_; }
  // Replays on the receiver's rank a flit its sender (on another rank) wrote into slot `slot` of
  // lane `li`, visible in cycle `due`: the write send_flit makes, with the same checks (free slot,
  // write pointer in step); the flit was counted in the buffers and on the link by the sender.
  void deliver_flit(uint64_t due, uint32_t li, uint16_t slot, const Flit& f) {
    TORX_MODEL_CHECK(li < sink_.vcs * sink_.lanes, "replayed flit on a lane the receiver does not have");
    Flit& g = slot_ref(li, slot);
    copy_flit(g, f, payload_words_);
    g.vc = f.vc;
    g.due = due;
    InputVc& r = sink_.regs[li];
    r.tail_slot = static_cast<uint16_t>(r.tail_slot + 1u == sink_.depth ? 0 : r.tail_slot + 1);
    r.publish_tail();
    if (sink_.occupied) *sink_.occupied |= sink_.occupied_bit;
    sched_->wake_at(0, sink_.block, due);
  }
  // Replays on the sender's rank a credit the receiver (on another rank) sent, visible in `due`.
  void deliver_credit(uint64_t due, Credit c) { send_credit(due - credits_.latency(), 0, c); }

  // --- inspection -------------------------------------------------------------------------------
  uint32_t id() const { return id_; }
  uint32_t latency() const { return latency_; }
  // Cycles from a send to the far end's due cycle: latency() plus the receiver's pipeline delay.
  uint32_t due_offset() const { return due_offset_; }
  uint64_t flit_count() const { return flit_count_; }
  const LatencyLine<Credit>& credit_line() const { return credits_; }
  const FlitSink& sink() const { return sink_; }
  // What was driven onto the wire in cycle `now`, if anything (VCD trace; call right after the
  // cycle: a flit cannot leave the far end's buffer before it is due, so the slot still holds it).
  const Flit* wire_flit(uint64_t now) const { return last_cycle_ == now + 1 ? last_ : nullptr; }
  const Credit* wire_credit(uint64_t now) const { return credits_.pushed_in(now); }
  void set_observer(FlitObserver* o) { observer_ = o; }

 private:
  uint32_t lane_of(uint8_t vc, uint8_t priority) const {
    TORX_MODEL_CHECK(vc < sink_.vcs, "flit sent on a VC the input port does not have");
    TORX_MODEL_CHECK(priority < sink_.lanes, "flit of a priority level the receiver does not have");
    return vc * sink_.lanes + priority;
  }
  // The receiving lane's next free slot. The credit protocol guarantees one; a full FIFO (or a write
  // pointer mirror out of step) means the sender's counters are wrong, a model bug.
  Flit& slot_ref(uint32_t li, uint16_t slot) {
    const InputVc& r = sink_.regs[li];
    TORX_MODEL_CHECK(r.tail - r.head_acquire() < sink_.depth, "input buffer overflow: upstream credit counter out of step");
    TORX_MODEL_CHECK(r.tail_slot == slot, "sender's write pointer mirror out of step");
    return sink_.ram[static_cast<size_t>(li) * sink_.depth + slot];
  }
  void finish(uint64_t now, int lane, Flit& g, uint8_t vc, uint32_t li) {
    g.vc = vc;
    g.due = now + due_offset_;
    InputVc& r = sink_.regs[li];
    r.tail_slot = static_cast<uint16_t>(r.tail_slot + 1u == sink_.depth ? 0 : r.tail_slot + 1);
    if (sink_.counters) ++sink_.counters[lane].flits_in_buffers;
    publish(now, lane, g, r);
  }
  // The written slot becomes visible: the write pointer, the receiver's port bit, its wake-up.
  void publish(uint64_t now, int lane, Flit& g, InputVc& r) {
    r.publish_tail();  // after the slot is written (release: a reader that sees the count sees the flit)
    if (sink_.occupied) {
      // After the tail is published: a receiver that clears the bit and then finds the VC empty has
      // not yet seen this flit, and sets the bit again when it does (Router::evaluate).
      if (!shared_) *sink_.occupied |= sink_.occupied_bit;
      else __atomic_fetch_or(sink_.occupied, sink_.occupied_bit, __ATOMIC_SEQ_CST);
    }
    sched_->wake_at(lane, sink_.block, g.due);
    ++flit_count_;
    last_ = &g;
    last_cycle_ = now + 1;
    if (observer_) observer_->on_flit(now, id_, g);
  }

  // Flit path first: the fields a send touches share the first cache line.
  FlitSink sink_;
  Scheduler* sched_ = nullptr;
  uint32_t latency_ = 1;
  uint32_t due_offset_ = 1;  // latency_ + the receiver's pipeline delay
  uint32_t payload_words_ = kMaxFlitWords;
  bool shared_ = false;
  uint64_t flit_count_ = 0;
  // Credit path.
  LinkEnd tx_;
  LatencyLine<Credit> credits_;
  // Inspection.
  uint32_t id_ = 0;
  const Flit* last_ = nullptr;
  uint64_t last_cycle_ = 0;  // cycle + 1 of the last flit sent
  FlitObserver* observer_ = nullptr;
};

}  // namespace torx::model
