// SPDX-License-Identifier: Apache-2.0
// Arena: the memory of a network's blocks, in 2 MiB chunks that the kernel may back with huge pages
// (madvise(MADV_HUGEPAGE)). A 4096-router network touches a few MiB of router state every cycle;
// packed in allocation order (which is node order, the order in which blocks are evaluated) and
// on huge pages, that state streams through the caches and the TLB instead of being scattered over
// thousands of 4 KiB heap pages. Objects are never freed one by one: the arena releases everything
// when it is destroyed (blocks in it must be trivially destructible, or destroyed by their owner).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace torx::model {

class Arena {
 public:
  static constexpr size_t kChunk = size_t{2} << 20;

  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    for (void* c : chunks_) std::free(c);
  }

  // Uninitialised storage for `n` objects of type T (value-initialise them before use).
  template <class T>
  T* alloc(size_t n) {
    return static_cast<T*>(raw(n * sizeof(T), alignof(T) < 64 ? alignof(T) : 64));
  }
  // `n` value-initialised objects of a trivially destructible type T.
  template <class T>
  T* make(size_t n) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    T* p = alloc<T>(n);
    for (size_t i = 0; i < n; ++i) new (p + i) T();
    return p;
  }
  size_t bytes() const { return chunks_.size() * kChunk + big_; }

  // Asks the kernel to back [p, p + bytes) with huge pages where it can (a hint; harmless if not).
  static void advise_huge(void* p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    const uintptr_t a = (reinterpret_cast<uintptr_t>(p) + 4095) & ~uintptr_t{4095};
    const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes) & ~uintptr_t{4095};
    if (e > a) ::madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
  }

 private:
  void* raw(size_t bytes, size_t align) {
    used_ = (used_ + align - 1) & ~(align - 1);
    if (bytes > kChunk) {
      void* c = std::aligned_alloc(kChunk, (bytes + kChunk - 1) / kChunk * kChunk);
      if (!c) throw std::bad_alloc();
      advise_huge(c, bytes);
      chunks_.push_back(c);
      big_ += bytes;
      return c;
    }
    if (chunks_.empty() || cur_ == nullptr || used_ + bytes > kChunk) {
      cur_ = static_cast<std::byte*>(std::aligned_alloc(kChunk, kChunk));
      if (!cur_) throw std::bad_alloc();
      advise_huge(cur_, kChunk);
      chunks_.push_back(cur_);
      used_ = 0;
    }
    void* p = cur_ + used_;
    used_ += bytes;
    return p;
  }

  std::vector<void*> chunks_;
  std::byte* cur_ = nullptr;
  size_t used_ = 0;
  size_t big_ = 0;
};

}  // namespace torx::model
