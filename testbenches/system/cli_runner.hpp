// SPDX-License-Identifier: Apache-2.0
// Runs the torx binary (TORX_BIN) as a user would, under a time limit, and returns its exit code
// and what it wrote, and the result document's figures without what describes the simulator: shared
// by the system suites (test_cycle_cli, test_rtl_cli, test_rtl_on_demand).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "model_test_util.hpp"

namespace torx::model::testing {

struct Cli {
  int code = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// torx `args` under `timeout_s`; `env` (NAME=VALUE ... or -u NAME, as env(1) takes them) in front when
// given; its outputs in temporary files named after `tag`.
inline Cli run_torx(const std::string& args, int timeout_s, const std::string& env = "",
                    const std::string& tag = "cli") {
  const std::string out = temp_path(tag + ".out"), err = temp_path(tag + ".err");
  const std::string cmd = (env.empty() ? "" : "/usr/bin/env " + env + " ") + "/usr/bin/timeout " +
                          std::to_string(timeout_s) + " " + TORX_BIN + " " + args + " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  Cli r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// Every key of the result document but those that describe the simulator rather than the network:
// the model's name, wall times, memory, router evaluations (the port-level routers are evaluated
// while not quiescent, the C++ fast path while awake: the same cycles, a different count of calls).
inline nlohmann::json figures(nlohmann::json j) {
  j.erase("model");
  j.erase("sim");
  j["cycle_model"].erase("load_seconds");
  j["cycle_model"].erase("run_seconds");
  j["cycle_model"].erase("router_evaluations");
  j["cycle_model"].erase("threads");
  return j;
}

}  // namespace torx::model::testing
