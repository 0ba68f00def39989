// SPDX-License-Identifier: Apache-2.0
// Closed forms and bounds as the result document carries them ("formula", "lower_bound", ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace torx::sw {

// A closed form or a bound. Either figure may be absent where the seed does not give it.
struct Bound {
  std::optional<int64_t> steps;
  std::optional<int64_t> transmission_blocks;
  std::string source;
};

// An extra figure for the result document, e.g. the seed's conjectured bound for rings of any length.
struct NamedBound {
  std::string key;
  Bound bound;
};

}  // namespace torx::sw
