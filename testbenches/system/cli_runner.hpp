// SPDX-License-Identifier: Apache-2.0
// Runs the torx binary (TORX_BIN) as a user would, under a time limit, and returns its exit code
// and what it wrote: shared by the system suites (test_cycle_cli, test_rtl_cli).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "model_test_util.hpp"

namespace torx::model::testing {

struct Cli {
  int code = -1;
  std::string out, err;
};

inline Cli run_torx(const std::string& args, int timeout_s) {
  const std::string out = temp_path("cli.out"), err = temp_path("cli.err");
  const std::string cmd =
      "timeout " + std::to_string(timeout_s) + " " + TORX_BIN + " " + args + " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  Cli r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::ifstream o(out), e(err);
  std::stringstream so, se;
  so << o.rdbuf();
  se << e.rdbuf();
  r.out = so.str();
  r.err = se.str();
  return r;
}

}  // namespace torx::model::testing
