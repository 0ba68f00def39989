// SPDX-License-Identifier: Apache-2.0
// Integer helpers shared by the whole host library: floor modulo, ceiling division, integer
// logarithms and overflow-checked arithmetic. One definition each, so that generators, the file
// readers and the memory estimates agree on rounding and on what overflows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/errors.hpp"

namespace torx::sw {

// a mod m in [0, m) for m > 0, whatever the sign of a (C++'s % truncates toward zero). The result
// has the modulus's type: it is below m, so it fits.
template <class A, class M>
constexpr M floor_mod(A a, M m) {
  static_assert(std::is_integral_v<A> && std::is_integral_v<M>, "floor_mod: integers only");
  const int64_t mm = static_cast<int64_t>(m);
  const int64_t r = static_cast<int64_t>(a) % mm;
  return static_cast<M>(r < 0 ? r + mm : r);
}

// ceil(a / b) for a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

constexpr bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The smallest k >= 0 with base^k >= value: ceil(log_base value) for value >= 1, and 0 for
// value <= 1. base >= 2. Exact (no floating point) and overflow-free for every int64 value.
constexpr int ceil_log(int64_t base, int64_t value) {
  int k = 0;
  int64_t p = 1;
  while (p < value) {
    ++k;
    if (p > INT64_MAX / base) break;  // base * p exceeds every int64 value
    p *= base;
  }
  return k;
}

// ceil(lg value): the smallest k with 2^k >= value (0 for value <= 1).
constexpr int ceil_lg(int64_t value) { return ceil_log(2, value); }

// a * b and a + b, or std::nullopt if the result does not fit in T.
template <class T>
constexpr std::optional<T> checked_mul(T a, T b) {
  T out{};
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <class T>
constexpr std::optional<T> checked_add(T a, T b) {
  T out{};
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// The same, throwing InputError("<what>: ... does not fit in N bits") on overflow: for sizes that
// come from user input (a topology, a file header, a memory estimate).
template <class T>
T mul_or_throw(T a, T b, std::string_view what) {
  if (const auto r = checked_mul(a, b)) return *r;
  throw InputError(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) + " does not fit in " +
                   std::to_string(8 * sizeof(T)) + " bits");
}

template <class T>
T add_or_throw(T a, T b, std::string_view what) {
  if (const auto r = checked_add(a, b)) return *r;
  throw InputError(std::string(what) + ": " + std::to_string(a) + " + " + std::to_string(b) + " does not fit in " +
                   std::to_string(8 * sizeof(T)) + " bits");
}

}  // namespace torx::sw
