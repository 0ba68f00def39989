// SPDX-License-Identifier: Apache-2.0
// Typed errors of the host library. Library code never calls exit(); the CLI maps each type to the
// exit code of docs/cli.md: InputError (and PreconditionError) -> 2, WatchdogError -> 3, anything
// else -> 4. Messages name what is wrong (file, line, field) so a user can fix the input.
#pragma once

#include <stdexcept>
#include <string>

namespace torx::sw {

// Bad input: usage, topology, schedule file, an impossible request. Exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An algorithm asked to run outside its declared preconditions. Exit code 2.
class PreconditionError : public InputError {
 public:
  using InputError::InputError;
};

// A simulation stopped making progress or hit a limit. Exit code 3.
class WatchdogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Always-on invariant check (assert() disappears in release builds). A failure is a bug: exit code 4.
#define TORX_CHECK(cond, msg)                                                                  \
  do {                                                                                         \
    if (!(cond)) throw std::logic_error(std::string("internal error: ") + (msg) + " [" #cond "]"); \
  } while (0)

}  // namespace torx::sw
