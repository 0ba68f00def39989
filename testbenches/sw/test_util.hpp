// Helpers shared by the host suites: temporary files, running the torx binary, running a schedule
// text through the step model and the checker in-process.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"

namespace torx::sw::testing {

inline std::string temp_dir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/torx_test_XXXXXX";
    const char* d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return dir;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
};

// Runs `torx ARGS` (ARGS already shell-quoted) with a time limit; code is the exit status, or
// 128+signal when the process was killed.
inline CliResult run_torx(const std::string& args, int timeout_s = 120) {
  const std::string out = temp_dir() + "/cli.out", err = temp_dir() + "/cli.err";
  const std::string cmd = "timeout " + std::to_string(timeout_s) + " " + TORX_BIN + " " + args + " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

struct InProcessRun {
  StepModelResult steps;
  CheckResult check;
};

// Parses a schedule text, runs it through the step model on `topo` and checks delivery.
inline InProcessRun run_text(const std::string& text, const Topology& topo, const std::string& name = "s.sched") {
  const std::string path = write_temp(name, text);
  StepModelOptions o;
  o.origin = path;
  StepModel m(topo, o);
  read_schedule(path, &topo, m);
  return {m.result(), check_delivery(m)};
}

// Generates a registered algorithm's schedule on `topo` straight into the step model and checks it.
// With track = false the step model only counts (no holdings, no check).
struct Outcome {
  StepModelResult r;
  CheckResult c;
};

inline Outcome run_algo(const std::string& id, const Topology& topo, AlgorithmOptions opt = {}, bool track = true) {
  const Algorithm* a = find_algorithm(id);
  if (!a) throw std::invalid_argument("unknown algorithm " + id);
  a->check(topo, opt);
  StepModelOptions o;
  o.track_blocks = track;
  StepModel m(topo, o);
  a->generate(topo, opt, m);
  return {m.result(), track ? check_delivery(m) : CheckResult{}};
}

}  // namespace torx::sw::testing
