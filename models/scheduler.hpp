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
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <queue>
#include <random>
#include <thread>
#include <vector>

#include "models/check.hpp"

namespace torx::model {

class Scheduler;

class Clocked {
 public:
  virtual ~Clocked() = default;
  // `lane`: the lane (thread) evaluating the block, 0 or 1 (see "Two lanes" below). A block that
  // wakes another block, counts something or sends on a link passes it on, so that each lane writes
  // only its own wake-up wheel and counters.
  virtual void evaluate(uint64_t cycle, int lane) = 0;
  virtual void update(uint64_t cycle, int lane) = 0;
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

// Lanes: 0 is the thread that calls Scheduler::step, 1 its worker. Every evaluate() and update()
// receives its lane; blocks that count or wake something use their lane's copy, so two lanes never
// write the same counter or wake-up word. Code outside a cycle (wiring, start, tests) uses lane 0.
inline constexpr int kMaxLanes = 2;

// Two lanes. Because blocks see each other only through latency lines, the blocks due in a cycle
// can be evaluated by two threads at once: blocks with ids below a split are lane 0's (the caller),
// the others lane 1's (a worker thread); each lane evaluates and then updates its own blocks, and
// the two meet once at the end of the cycle. What a block writes that a block of the other lane
// reads in the same cycle is only the far end of a latency line (a flit into an input buffer, a
// credit, a credit bit, a pulse), published with release stores or atomic read-modify-writes and
// read with acquire loads, and never due before the next cycle; wake-ups and counters are kept per
// lane and summed. So the results, cycle for cycle and flit for flit, are those of one lane,
// wherever the split lies (the tests compare them), and balance() may move the split during a run
// to even out the lanes' time. The waiting lane spins for a while and then yields, so an
// oversubscribed machine is slowed, not stalled.
class Scheduler {
 public:
  // Wake-ups closer than this many cycles go into the wheel; the wheel has one bit per block and
  // slot, so a block is evaluated at most once per cycle however often it is woken, and the blocks
  // of a cycle are visited in ascending id order (routers, then interfaces, then barrier units:
  // memory order, which is kind to the caches of a 4096-router network).
  static constexpr uint64_t kWheel = 128;

  Scheduler() = default;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  ~Scheduler() { stop_worker(); }

  uint32_t add(Clocked* c) {
    TORX_MODEL_CHECK(pending() == 0, "blocks must be added before the first wake-up");
    const uint32_t id = static_cast<uint32_t>(blocks_.size());
    c->set_clock_id(id);
    blocks_.push_back(c);
    self_waking_.push_back(c->self_waking());
    const size_t words = (blocks_.size() + 63) / 64;
    if (words != words_) {
      words_ = words;
      for (Lane& l : lanes_) l.wheel.assign(kWheel * words_, 0);
    }
    return id;
  }

  void set_order(EvalOrder order, uint64_t seed = 1) {
    order_ = order;
    rng_.seed(seed);
  }
  // Evaluates with `n` lanes (1 or 2). Blocks with ids from `split` on are lane 1's. With two
  // lanes the split moves between `split_min` and `split_max` during the run so that the lanes take
  // equally long (the results do not depend on where it is). Call before the first step.
  void set_lanes(int n, uint32_t split, uint32_t split_min, uint32_t split_max) {
    TORX_MODEL_CHECK(n >= 1 && n <= kMaxLanes, "one or two lanes");
    TORX_MODEL_CHECK(split_min <= split && split <= split_max && split_max <= blocks_.size(), "lane split out of range");
    TORX_MODEL_CHECK(cycle_ == 0, "lanes are set before the first cycle");
    stop_worker();
    nlanes_ = n;
    split_ = n > 1 ? split : static_cast<uint32_t>(blocks_.size());
    split_min_ = split_min;
    split_max_ = split_max;
  }
  uint32_t split() const { return split_; }
  // Whether to run the prefetch pipeline (Clocked::prefetch): it pays on networks whose state
  // outgrows the caches and costs instructions on small ones.
  void set_prefetch(bool on) { prefetch_ = on; }
  int lanes() const { return nlanes_; }

  // The block is evaluated in cycle `at` (at the earliest in the next cycle not yet stepped). `lane`:
  // the caller's lane.
  void wake_at(int lane, uint32_t id, uint64_t at) {
    if (at < first_) at = first_;
    Lane& l = lanes_[lane];
    if (at >= horizon_) return push_timer(l, at, id);
    uint64_t& w = l.wheel[(at & (kWheel - 1)) * words_ + (id >> 6)];
    const uint64_t b = uint64_t{1} << (id & 63);
    if (w & b) return;
    w |= b;
    ++l.pending;
  }
  // The block is evaluated in the next cycle.
  void wake(int lane, uint32_t id) { wake_at(lane, id, first_); }

  // Runs cycle `cycle()`: every due block is evaluated, then every due block is updated.
  // Returns the number of blocks evaluated.
  size_t step() {
    Lane& l0 = lanes_[0];
    uint64_t* slot = &l0.wheel[(cycle_ & (kWheel - 1)) * words_];
    // Lane 1's wake-ups for this cycle join lane 0's.
    if (nlanes_ > 1) {
      Lane& l1 = lanes_[1];
      uint64_t* s1 = &l1.wheel[(cycle_ & (kWheel - 1)) * words_];
      for (size_t i = 0; i < words_; ++i) {
        if (!s1[i]) continue;
        l1.pending -= static_cast<size_t>(__builtin_popcountll(s1[i]));
        l0.pending += static_cast<size_t>(__builtin_popcountll(s1[i] & ~slot[i]));
        slot[i] |= s1[i];
        s1[i] = 0;
      }
    }
    for (Lane& l : lanes_) {
      while (!l.timers.empty() && l.timers.top().first <= cycle_) {
        const uint32_t id = l.timers.top().second;
        l.timers.pop();
        --l.pending;
        uint64_t& w = slot[id >> 6];
        const uint64_t b = uint64_t{1} << (id & 63);
        if (!(w & b)) {
          w |= b;
          ++l0.pending;
        }
      }
    }
    stepping_ = true;
    set_cycle_bounds();  // first_ is now cycle_ + 1
    std::vector<uint32_t>& cur = l0.current;
    cur.clear();
    if (nlanes_ > 1) lanes_[1].current.clear();
    for (size_t i = 0; i < words_; ++i) {
      for (uint64_t w = slot[i]; w; w &= w - 1) {
        const uint32_t id = static_cast<uint32_t>(i * 64 + __builtin_ctzll(w));
        lanes_[id >= split_].current.push_back(id);
      }
      slot[i] = 0;
    }
    if (order_ == EvalOrder::kReversed) std::reverse(cur.begin(), cur.end());
    else if (order_ == EvalOrder::kShuffled) std::shuffle(cur.begin(), cur.end(), rng_);
    const size_t n = cur.size() + (nlanes_ > 1 ? lanes_[1].current.size() : 0);
    l0.pending -= n;
    if (nlanes_ > 1 && !lanes_[1].current.empty()) {
      start_worker();
      epoch_.store(++epoch_seen_, std::memory_order_release);  // the worker runs lane 1
      std::exception_ptr mine;
      try {
        run_lane(0);
      } catch (...) {
        mine = std::current_exception();
      }
      for (int spins = 0; done_.load(std::memory_order_acquire) != epoch_seen_; ++spins)  // never leave it running
        backoff(spins);
      if (mine) std::rethrow_exception(mine);
      balance();
      if (worker_error_) {
        std::exception_ptr e = worker_error_;
        worker_error_ = nullptr;
        std::rethrow_exception(e);
      }
    } else {
      run_lane(0);
    }
    stepping_ = false;
    ++cycle_;
    set_cycle_bounds();
    return n;
  }

  uint64_t cycle() const { return cycle_; }
  // Nothing is due in any future cycle: no block busy, no line carrying anything, no timer.
  bool idle() const { return pending() == 0; }
  // Cycles until something is due (0: the coming cycle; UINT64_MAX: never).
  uint64_t cycles_until_due() const {
    if (pending() == 0) return UINT64_MAX;
    uint64_t far = UINT64_MAX;
    for (int k = 0; k < nlanes_; ++k) {
      const Lane& l = lanes_[k];
      if (!l.timers.empty()) far = std::min(far, l.timers.top().first > cycle_ ? l.timers.top().first - cycle_ : 0);
    }
    for (uint64_t i = 0; i < kWheel && i < far; ++i) {
      for (int k = 0; k < nlanes_; ++k) {
        const uint64_t* slot = &lanes_[k].wheel[((cycle_ + i) & (kWheel - 1)) * words_];
        for (size_t w = 0; w < words_; ++w)
          if (slot[w]) return i;
      }
    }
    return far;
  }
  // Skips `n` cycles in which nothing is due (the caller checked cycles_until_due()).
  void skip(uint64_t n) {
    cycle_ += n;
    set_cycle_bounds();
  }
  size_t blocks() const { return blocks_.size(); }

 private:
  using Timer = std::pair<uint64_t, uint32_t>;
  struct alignas(64) Lane {
    std::vector<uint64_t> wheel;    // kWheel slots of words_ words: bit = block due in that cycle
    std::priority_queue<Timer, std::vector<Timer>, std::greater<Timer>> timers;
    size_t pending = 0;             // wheel bits set plus heap entries (lane 1: until merged)
    std::vector<uint32_t> current;  // this lane's blocks due in the cycle being stepped
    uint64_t busy_ns = 0;           // time spent evaluating since the last balance()
  };

  size_t pending() const {
    size_t p = 0;
    for (const Lane& l : lanes_) p += l.pending;
    return p;
  }
  [[gnu::noinline]] static void push_timer(Lane& l, uint64_t at, uint32_t id) {
    l.timers.push({at, id});
    ++l.pending;
  }
  // Waiting for the other lane: spin briefly (a cycle's work is microseconds), then let the other
  // thread have the core (ctest -j2, a loaded machine).
  static void backoff(int spins) {
    if (spins < 4000) pause();
    else std::this_thread::yield();
  }
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }

  // Evaluates, then updates, the lane's blocks of the current cycle, with a software pipeline of
  // prefetches: a block's registers kAhead1 blocks ahead, what they point to kAhead2 ahead, and
  // what that points to kAhead3 ahead (each stage's addresses come from lines the previous stage
  // fetched).
  // Moves the split every kBalance cycles so that both lanes spend the same time evaluating: the
  // blocks below the split are lane 0's, and each is assumed to cost lane 0's mean.
  static constexpr uint64_t kBalance = 256;
  void balance() {
    if ((cycle_ & (kBalance - 1)) != kBalance - 1) return;
    const uint64_t t0 = lanes_[0].busy_ns, t1 = lanes_[1].busy_ns;
    lanes_[0].busy_ns = lanes_[1].busy_ns = 0;
    if (t0 + t1 < 1000000 || split_ == 0) return;  // too little work to tell
    const double per_block = static_cast<double>(t0) / split_;
    const double move = (static_cast<double>(t0) - static_cast<double>(t1)) / (4 * per_block);  // half way, damped
    const double target = std::clamp(static_cast<double>(split_) - move, static_cast<double>(split_min_),
                                     static_cast<double>(split_max_));
    split_ = static_cast<uint32_t>(target);
  }
  static uint64_t now_ns() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
  }

  void run_lane(int lane) {
    const uint64_t t_start = nlanes_ > 1 ? now_ns() : 0;
    const std::vector<uint32_t>& cur = lanes_[lane].current;
    const size_t n = cur.size();
    if (!prefetch_) {
      for (size_t i = 0; i < n; ++i) blocks_[cur[i]]->evaluate(cycle_, lane);
    } else {
    constexpr size_t kAhead1 = 8, kAhead2 = 5, kAhead3 = 2;
    for (size_t i = 0; i < n && i < kAhead1; ++i) blocks_[cur[i]]->prefetch(1);
    for (size_t i = 0; i < n && i < kAhead2; ++i) blocks_[cur[i]]->prefetch(2);
    for (size_t i = 0; i < n && i < kAhead3; ++i) blocks_[cur[i]]->prefetch(3);
    for (size_t i = 0; i < n; ++i) {
      if (i + kAhead1 < n) blocks_[cur[i + kAhead1]]->prefetch(1);
      if (i + kAhead2 < n) blocks_[cur[i + kAhead2]]->prefetch(2);
      if (i + kAhead3 < n) blocks_[cur[i + kAhead3]]->prefetch(3);
      blocks_[cur[i]]->evaluate(cycle_, lane);
    }
    }
    // A block's update commits only its own registers, which no block of the other lane reads in
    // this cycle (they read latency lines), so each lane updates as soon as it has evaluated.
    for (uint32_t id : cur) {
      if (self_waking_[id]) continue;  // committed and woke itself in evaluate()
      Clocked* blk = blocks_[id];
      blk->update(cycle_, lane);
      if (blk->busy()) wake(lane, id);  // reads only the block's own, now committed, state
    }
    if (nlanes_ > 1) lanes_[lane].busy_ns += now_ns() - t_start;
  }

  void start_worker() {
    if (worker_.joinable()) return;
    quit_.store(false, std::memory_order_relaxed);
    worker_ = std::thread([this] {
      uint64_t seen = done_.load(std::memory_order_relaxed);
      for (;;) {
        uint64_t e;
        for (int spins = 0; (e = epoch_.load(std::memory_order_acquire)) == seen; ++spins) {
          if (quit_.load(std::memory_order_acquire)) return;
          backoff(spins);
        }
        seen = e;
        try {
          run_lane(1);
        } catch (...) {
          worker_error_ = std::current_exception();
        }
        done_.store(e, std::memory_order_release);
      }
    });
  }
  void stop_worker() {
    if (!worker_.joinable()) return;
    quit_.store(true, std::memory_order_release);
    worker_.join();
  }

  std::vector<Clocked*> blocks_;
  std::vector<uint8_t> self_waking_;
  uint32_t split_ = UINT32_MAX, split_min_ = 0, split_max_ = 0;  // blocks from split_ on are lane 1's
  size_t words_ = 0;
  Lane lanes_[kMaxLanes];
  int nlanes_ = 1;
  bool prefetch_ = true;
  uint64_t cycle_ = 0;
  bool stepping_ = false;
  // What wake_at compares with, kept beside cycle_: the first cycle a wake-up may name (cycle_ +
  // stepping_) and the first one that goes into the timer heap (cycle_ + kWheel).
  uint64_t first_ = 0;
  uint64_t horizon_ = kWheel;
  void set_cycle_bounds() {
    first_ = cycle_ + stepping_;
    horizon_ = cycle_ + kWheel;
  }
  EvalOrder order_ = EvalOrder::kAsWoken;
  std::mt19937_64 rng_{1};
  // Lane 1's thread: the caller publishes a cycle in epoch_, the worker answers in done_.
  std::thread worker_;
  alignas(64) std::atomic<uint64_t> epoch_{0};
  alignas(64) std::atomic<uint64_t> done_{0};
  std::atomic<bool> quit_{false};
  uint64_t epoch_seen_ = 0;
  std::exception_ptr worker_error_;
};

}  // namespace torx::model
