// SPDX-License-Identifier: Apache-2.0
// One table of names per enumerated option (--sync, --ports, --model, --pattern, ...): a constexpr
// array of {value, name} that parsing, the command line's help ("a|b|c") and error messages ("a, b or
// c") all read, so that a name is spelt exactly once. The tables themselves stand next to their enums
// (core/run_config.hpp, core/schedule.hpp, app/run.hpp, ...).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace torx::sw {

template <class E>
struct Named {
  E value;
  std::string_view name;
};

// The name of `v` in `table` ("?" if the table lacks it).
template <class E, size_t N>
constexpr std::string_view name_of(const Named<E> (&table)[N], E v) {
  for (const Named<E>& n : table)
    if (n.value == v) return n.name;
  return "?";
}

// The value named `text`, or nullopt.
template <class E, size_t N>
constexpr std::optional<E> value_named(const Named<E> (&table)[N], std::string_view text) {
  for (const Named<E>& n : table)
    if (n.name == text) return n.value;
  return std::nullopt;
}

// The names joined by `sep` ("none|barrier|local"), or, with `last`, as a list in words ("none,
// barrier or local"); `keep` filters the entries (the models a build has).
template <class E, size_t N, class Keep>
std::string join_names(const Named<E> (&table)[N], std::string_view sep, std::string_view last, Keep&& keep) {
  std::string out;
  size_t kept = 0, total = 0;
  for (const Named<E>& n : table) total += keep(n.value) ? 1 : 0;
  for (const Named<E>& n : table) {
    if (!keep(n.value)) continue;
    if (kept) out += kept + 1 == total && !last.empty() ? last : sep;
    out += n.name;
    ++kept;
  }
  return out;
}
template <class E, size_t N>
std::string join_names(const Named<E> (&table)[N], std::string_view sep, std::string_view last = {}) {
  return join_names(table, sep, last, [](E) { return true; });
}

}  // namespace torx::sw
