// SPDX-License-Identifier: Apache-2.0
// ProtocolError: a router broke the link protocol of docs/router-interface.md (a flit without a
// credit, a credit beyond the buffer depth, interleaved worms, ...), "cycle N, router R, port P:
// what". The CLI maps it to exit code 1, like a failed block check: the router under test is wrong,
// not the input (core/errors.hpp has the other exit codes).
#pragma once

#include <stdexcept>

namespace torx::sw {

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace torx::sw
