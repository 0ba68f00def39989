// SPDX-License-Identifier: Apache-2.0
// torx::Error: every failure of the public API (include/torx/), with the message the torx command
// line prints for the same mistake ("--topo 0x4: ...", "--param buffer_depth=0: ..."), and the exit
// code the command line would give it (docs/cli.md: 2 bad input, 3 the simulation stopped, 4 a bug).
#pragma once

#include <stdexcept>
#include <string>

namespace torx {

class Error : public std::runtime_error {
 public:
  enum class Kind {
    kInput,     // bad input: topology, parameter, node, size, schedule file (exit code 2)
    kStopped,   // the simulation stopped making progress or hit its cycle limit (exit code 3)
    kInternal,  // a bug in torx (exit code 4)
  };
  Error(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }
  int exit_code() const { return kind_ == Kind::kInput ? 2 : kind_ == Kind::kStopped ? 3 : 4; }

 private:
  Kind kind_;
};

}  // namespace torx
