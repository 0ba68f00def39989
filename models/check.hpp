// SPDX-License-Identifier: Apache-2.0
// Always-on invariant checks for the model's hot paths. Like TORX_CHECK (core/errors.hpp) they throw
// std::logic_error ("internal error", exit code 4) and never disappear in release builds, but the
// failure path is a cold out-of-line call, so a check costs one predictable branch in a router's
// inner loop and does not crowd its registers.
#pragma once

namespace torx::model {

[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void check_failed(const char* what, const char* condition);

}  // namespace torx::model

#define TORX_MODEL_CHECK(cond, what)                                                   \
  do {                                                                                 \
    if (__builtin_expect(!(cond), 0)) ::torx::model::check_failed((what), #cond);      \
  } while (0)
