// SPDX-License-Identifier: Apache-2.0
// A fixed-size array for per-block state of the step model (up to 2^30 entries): anonymous mmap
// with transparent huge pages requested, so that the random-ish accesses of block movement do not
// miss the TLB on every row of a box (measured: the owner-word load dominated the step model's
// profile). Falls back to ordinary pages where huge pages are unavailable.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace torx::sw {

template <class T>
class BigArray {
  static_assert(std::is_trivially_copyable_v<T>, "BigArray holds plain values");

 public:
  BigArray() = default;
  BigArray(const BigArray&) = delete;
  BigArray& operator=(const BigArray&) = delete;
  ~BigArray() { release(); }

  // Resizes to n elements, all equal to `value` (fresh anonymous pages are zero, so 0 is free).
  void assign(size_t n, T value) {
    release();
    if (n == 0) return;
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    bytes_ = n * sizeof(T);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, bytes_, MADV_HUGEPAGE);
#endif
    data_ = static_cast<T*>(p);
    size_ = n;
    if (value != T{}) std::fill(data_, data_ + n, value);
  }

  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  size_t size() const { return size_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }

 private:
  void release() {
    if (data_) munmap(data_, bytes_);
    data_ = nullptr;
    size_ = bytes_ = 0;
  }
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t bytes_ = 0;
};

}  // namespace torx::sw
