// SPDX-License-Identifier: Apache-2.0
// Checked unsigned arithmetic for size and memory estimates. An estimate that wraps around (a
// 4096x4096 gossip of 65536 pieces per node tracks 2^64 (block, node) pairs, which wrapped to 0)
// would pass every limit and then crash; these return std::nullopt instead, and the caller says
// which quantity did not fit. (To be unified with sw/core/int_math.hpp when that lands.)
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace torx::sw {

inline std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of every factor, or nullopt if it does not fit in 64 bits.
inline std::optional<uint64_t> checked_product(std::initializer_list<uint64_t> factors) {
  uint64_t r = 1;
  for (uint64_t f : factors) {
    if (__builtin_mul_overflow(r, f, &r)) return std::nullopt;
  }
  return r;
}

}  // namespace torx::sw
