// SPDX-License-Identifier: Apache-2.0
// Clocked blocks and the scheduler that steps them.
//
// Every hardware block of the model (router, network interface, barrier unit) is a Clocked:
//   evaluate(t)  reads the block's registers (*_q_) and what its input lines show in cycle t, and
//                computes next values (*_d_) and pushes outputs into its output lines;
//   update(t)    commits *_d_ into *_q_ (the clock edge at the end of cycle t);
//   busy()       after update: whether the block must be evaluated in cycle t + 1 although no line
//                wakes it (its state changed, so its next evaluation may differ from this one).
// A block reads other blocks only through latency lines (latency >= 1), so the order in which
// blocks are evaluated within a cycle cannot change any result; the tests step the same scenario
// in as-woken, reversed and shuffled orders and compare every flit movement.
//
// Activity (BookSim's and SST's idle routers, made exact): a block is evaluated in cycle t only if
//  - it was busy after cycle t - 1, or
//  - a value pushed into one of its input lines becomes visible in cycle t (lines call wake_at
//    with the value's due cycle), or
//  - it set a timer for cycle t (a startup t_s, a barrier wire).
// A block whose evaluation changed nothing would evaluate identically until an input arrives, so
// it sleeps; idle and blocked routers cost nothing. Near wake-ups go into a timing wheel of bit
// sets (O(1), duplicates free), far ones (long startups) into a heap.
//
// This is the "one process stepping many routers" design: a SystemC process per router would pay
// a kernel dispatch per router per cycle whether busy or not, which would dominate the few tens of
// nanoseconds a router evaluation costs (docs/cycle-model.md, "Why one process").
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "models/check.hpp"

namespace torx::model {

class Scheduler;

class Clocked {
 public:
  virtual ~Clocked() = default;
  virtual void evaluate(uint64_t cycle) = 0;
  virtual void update(uint64_t cycle) = 0;
  virtual bool busy() const = 0;
  // Memory-level parallelism for large networks: the scheduler calls prefetch(1), (2) and (3) at
  // decreasing distances ahead of evaluating this block; stage 1 prefetches the block's registers,
  // stage 2 what they point to (buffer slots at the VC fronts, links), stage 3 what those point to
  // (the downstream buffer a flit will be written into). Optional; hints only.
  virtual void prefetch(int /*stage*/) const {}
  uint32_t clock_id() const { return clock_id_; }
  void set_clock_id(uint32_t id) { clock_id_ = id; }
  // A block whose update() would only decide busy() may instead commit nothing and call
  // Scheduler::wake itself at the end of evaluate() (routers do: their registers change only after
  // every read of the cycle, router.hpp); the scheduler then skips its update() and busy().
  bool self_waking() const { return self_waking_; }

 protected:
  void set_self_waking(bool v) { self_waking_ = v; }

 private:
  uint32_t clock_id_ = 0;
  bool self_waking_ = false;
};

// Evaluation order within a cycle. Results never depend on it; kShuffled and kReversed exist so that
// the tests can prove it.
enum class EvalOrder { kAsWoken, kReversed, kShuffled };

class Scheduler {
 public:
  // Wake-ups closer than this many cycles go into the wheel; the wheel has one bit per block and
  // slot, so a block is evaluated at most once per cycle however often it is woken, and the blocks
  // of a cycle are visited in ascending id order (routers, then interfaces, then barrier units:
  // memory order, which is kind to the caches of a 4096-router network).
  static constexpr uint64_t kWheel = 128;

  uint32_t add(Clocked* c) {
    TORX_MODEL_CHECK(pending_ == 0, "blocks must be added before the first wake-up");
    const uint32_t id = static_cast<uint32_t>(blocks_.size());
    c->set_clock_id(id);
    blocks_.push_back(c);
    self_waking_.push_back(c->self_waking());
    const size_t words = (blocks_.size() + 63) / 64;
    if (words != words_) {
      words_ = words;
      wheel_.assign(kWheel * words_, 0);
    }
    return id;
  }

  void set_order(EvalOrder order, uint64_t seed = 1) {
    order_ = order;
    rng_.seed(seed);
  }

  // The block is evaluated in cycle `at` (at the earliest in the next cycle not yet stepped).
  void wake_at(uint32_t id, uint64_t at) {
    const uint64_t first = cycle_ + stepping_;
    if (at < first) at = first;
    if (at - cycle_ >= kWheel) return push_timer(at, id);
    uint64_t& w = wheel_[(at & (kWheel - 1)) * words_ + (id >> 6)];
    const uint64_t b = uint64_t{1} << (id & 63);
    if (w & b) return;
    w |= b;
    ++pending_;
  }
  // The block is evaluated in the next cycle.
  void wake(uint32_t id) { wake_at(id, cycle_ + stepping_); }

  // Runs cycle `cycle()`: every due block is evaluated, then every due block is updated.
  // Returns the number of blocks evaluated.
  size_t step() {
    uint64_t* slot = &wheel_[(cycle_ & (kWheel - 1)) * words_];
    while (!timers_.empty() && timers_.top().first <= cycle_) {
      const uint32_t id = timers_.top().second;
      timers_.pop();
      --pending_;
      uint64_t& w = slot[id >> 6];
      const uint64_t b = uint64_t{1} << (id & 63);
      if (!(w & b)) {
        w |= b;
        ++pending_;
      }
    }
    stepping_ = true;
    current_.clear();
    for (size_t i = 0; i < words_; ++i) {
      for (uint64_t w = slot[i]; w; w &= w - 1) current_.push_back(static_cast<uint32_t>(i * 64 + __builtin_ctzll(w)));
      slot[i] = 0;
    }
    if (order_ == EvalOrder::kReversed) std::reverse(current_.begin(), current_.end());
    else if (order_ == EvalOrder::kShuffled) std::shuffle(current_.begin(), current_.end(), rng_);
    const size_t n = current_.size();
    // Evaluate with a software pipeline of prefetches: a block's registers kAhead1 blocks ahead,
    // what they point to kAhead2 ahead, and what that points to kAhead3 ahead (each stage's
    // addresses come from lines the previous stage fetched).
    constexpr size_t kAhead1 = 8, kAhead2 = 5, kAhead3 = 2;
    for (size_t i = 0; i < n && i < kAhead1; ++i) blocks_[current_[i]]->prefetch(1);
    for (size_t i = 0; i < n && i < kAhead2; ++i) blocks_[current_[i]]->prefetch(2);
    for (size_t i = 0; i < n && i < kAhead3; ++i) blocks_[current_[i]]->prefetch(3);
    for (size_t i = 0; i < n; ++i) {
      if (i + kAhead1 < n) blocks_[current_[i + kAhead1]]->prefetch(1);
      if (i + kAhead2 < n) blocks_[current_[i + kAhead2]]->prefetch(2);
      if (i + kAhead3 < n) blocks_[current_[i + kAhead3]]->prefetch(3);
      blocks_[current_[i]]->evaluate(cycle_);
    }
    for (uint32_t id : current_) {
      if (self_waking_[id]) continue;  // committed and woke itself in evaluate()
      Clocked* blk = blocks_[id];
      blk->update(cycle_);
      if (blk->busy()) wake(id);  // reads only the block's own, now committed, state
    }
    pending_ -= n;
    stepping_ = false;
    ++cycle_;
    return n;
  }

  uint64_t cycle() const { return cycle_; }
  // Nothing is due in any future cycle: no block busy, no line carrying anything, no timer.
  bool idle() const { return pending_ == 0; }
  // Cycles until something is due (0: the coming cycle; UINT64_MAX: never).
  uint64_t cycles_until_due() const {
    if (pending_ == 0) return UINT64_MAX;
    const uint64_t far = timers_.empty() ? UINT64_MAX : (timers_.top().first > cycle_ ? timers_.top().first - cycle_ : 0);
    for (uint64_t i = 0; i < kWheel && i < far; ++i) {
      const uint64_t* slot = &wheel_[((cycle_ + i) & (kWheel - 1)) * words_];
      for (size_t k = 0; k < words_; ++k)
        if (slot[k]) return i;
    }
    return far;
  }
  // Skips `n` cycles in which nothing is due (the caller checked cycles_until_due()).
  void skip(uint64_t n) { cycle_ += n; }
  size_t blocks() const { return blocks_.size(); }

 private:
  [[gnu::noinline]] void push_timer(uint64_t at, uint32_t id) {
    timers_.push({at, id});
    ++pending_;
  }

  using Timer = std::pair<uint64_t, uint32_t>;
  std::vector<Clocked*> blocks_;
  std::vector<uint8_t> self_waking_;
  size_t words_ = 0;
  std::vector<uint64_t> wheel_;    // kWheel slots of words_ words: bit = block due in that cycle
  std::vector<uint32_t> current_;  // the blocks due in the cycle being stepped
  std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers_;
  size_t pending_ = 0;             // wheel bits set plus heap entries
  uint64_t cycle_ = 0;
  bool stepping_ = false;
  EvalOrder order_ = EvalOrder::kAsWoken;
  std::mt19937_64 rng_{1};
};

}  // namespace torx::model
