// SPDX-License-Identifier: Apache-2.0
// LatencyLine<T>: a pipeline of `latency` registers, the model of a wire with registers on it (a
// link, a credit return path, a barrier wire). A value pushed in cycle t is visible at the far end
// in cycle t + latency, exactly as if it had been clocked through `latency` flops.
//
// Representation: rather than shifting `latency` registers every cycle (work proportional to wire
// length even when the wire is empty), values are kept in a small ring with the cycle they become
// visible, as BookSim's timestamped channels do. Because latency >= 1, a value pushed during
// cycle t can never be seen by a reader in cycle t, so the order in which the writer and the reader
// are evaluated within a cycle cannot change what the reader sees: a line needs no update phase.
//
// Capacity: the writer pushes at most `per_cycle` values per cycle and the reader pops every
// visible value in the cycle it becomes visible, so at most per_cycle * (latency + 1) values are
// stored. Overflow is a model bug and throws.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/check.hpp"

namespace torx::model {

template <class T>
class LatencyLine {
 public:
  // Lines of up to this many entries keep them inside the object (no heap, one or two cache lines).
  static constexpr size_t kInline = 4;

  LatencyLine() = default;
  explicit LatencyLine(int latency, int per_cycle = 1) { configure(latency, per_cycle); }
  // The inline storage is addressed by pointer: a line is configured where it lives and not moved.
  LatencyLine(const LatencyLine&) = delete;
  LatencyLine& operator=(const LatencyLine&) = delete;

  void configure(int latency, int per_cycle = 1) {
    TORX_MODEL_CHECK(latency >= 1, "a latency line needs latency >= 1");
    latency_ = static_cast<uint32_t>(latency);
    size_t cap = 1;
    while (cap < static_cast<size_t>(per_cycle) * (latency_ + 1)) cap <<= 1;
    if (cap <= kInline) {
      due_ = due_inline_;
      values_ = values_inline_;
      heap_due_.clear();
      heap_values_.clear();
    } else {
      heap_due_.assign(cap, 0);
      heap_values_.assign(cap, T{});
      due_ = heap_due_.data();
      values_ = heap_values_.data();
    }
    mask_ = cap - 1;
    head_ = tail_ = 0;
  }

  uint32_t latency() const { return latency_; }
  // One writer and one reader, possibly on different lanes (scheduler.hpp, "Two lanes"): each
  // publishes its counter with a release store and reads the other's with an acquire load.
  bool empty() const { return head() == tail(); }
  size_t size() const { return tail() - head(); }

  // Writer side: `value` becomes visible at cycle now + latency.
  void push(uint64_t now, const T& value) {
    TORX_MODEL_CHECK(tail_ - head() <= mask_, "latency line overflow");
    due_[tail_ & mask_] = now + latency_;
    values_[tail_ & mask_] = value;
    __atomic_store_n(&tail_, tail_ + 1, __ATOMIC_RELEASE);
  }
  // A value pushed by a writer on another rank (partitioned runs, models/partitioned.hpp), replayed
  // after values this side pushed later: kept in due order, so that the reader sees it in its cycle.
  void push_ordered(uint64_t now, const T& value) {
    push(now, value);
    for (size_t i = tail_ - 1; i != head_ && due_[(i - 1) & mask_] > due_[i & mask_]; --i) {
      std::swap(due_[(i - 1) & mask_], due_[i & mask_]);
      std::swap(values_[(i - 1) & mask_], values_[i & mask_]);
    }
  }
  // Reader side: whether the oldest value is visible in cycle `now`.
  bool ready(uint64_t now) const { return head_ != tail() && due_[head_ & mask_] <= now; }
  const T& front() const { return values_[head_ & mask_]; }
  uint64_t front_due() const { return due_[head_ & mask_]; }
  void pop() { __atomic_store_n(&head_, head_ + 1, __ATOMIC_RELEASE); }
  // Reader side: pops every value visible in cycle `now`, oldest first, calling take(value) for each
  // (ready/front/pop in one pass, the writer's counter read once). Returns whether the line is empty
  // afterwards (as far as that read of the writer's counter goes).
  template <class Take>
  bool drain(uint64_t now, Take&& take) {
    size_t h = head_;
    const size_t t = tail();
    while (h != t && due_[h & mask_] <= now) take(values_[h++ & mask_]);
    __atomic_store_n(&head_, h, __ATOMIC_RELEASE);
    return h == t;
  }

  // The value pushed in cycle `now`, if any (what the wire carries in that cycle: VCD traces).
  const T* pushed_in(uint64_t now) const {
    if (head() == tail()) return nullptr;
    const size_t i = (tail_ - 1) & mask_;
    return due_[i] == now + latency_ ? &values_[i] : nullptr;
  }
  // Inspection (reports, traces): the i-th oldest value in flight and its due cycle.
  const T& at(size_t i) const { return values_[(head_ + i) & mask_]; }
  uint64_t due_at(size_t i) const { return due_[(head_ + i) & mask_]; }

 private:
  size_t head() const { return __atomic_load_n(&head_, __ATOMIC_ACQUIRE); }
  size_t tail() const { return __atomic_load_n(&tail_, __ATOMIC_ACQUIRE); }

  size_t head_ = 0;
  size_t tail_ = 0;
  size_t mask_ = 0;
  uint64_t* due_ = due_inline_;  // cycle each value becomes visible
  T* values_ = values_inline_;
  uint32_t latency_ = 1;
  T values_inline_[kInline] = {};
  uint64_t due_inline_[kInline] = {};
  std::vector<uint64_t> heap_due_;
  std::vector<T> heap_values_;
};

}  // namespace torx::model
