// Helpers shared by the kernel-free model suites: schedules from text, generated schedules, runs.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/checker.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"
#include "models/loader.hpp"

namespace torx::model::testing {

inline std::string temp_path(const std::string& name) {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/torx_model_test_XXXXXX";
    const char* d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  return dir + "/" + name;
}

// Parses schedule text (docs/schedule-format.md) into an in-memory schedule.
inline sw::Schedule parse_schedule(const std::string& text, const sw::Topology& topo) {
  const std::string path = temp_path("s.sched");
  std::ofstream(path) << text;
  sw::Schedule s;
  sw::read_schedule(path, &topo, s);
  return s;
}

// The schedule an algorithm generates.
inline sw::Schedule generate(const std::string& algo, const sw::Topology& topo) {
  const sw::Algorithm* a = sw::find_algorithm(algo);
  if (!a) throw std::runtime_error("no algorithm " + algo);
  sw::AlgorithmOptions o;
  a->check(topo, o);
  sw::Schedule s;
  a->generate(topo, o, s);
  return s;
}

// Step-model figures of a schedule (conflicts, cycles) and its check.
struct StepFigures {
  sw::StepModelResult result;
  sw::CheckResult check;
};
inline StepFigures step_model(const sw::Schedule& s, const sw::Topology& topo, const CycleOptions& opt) {
  sw::StepModelOptions so;
  so.cost = opt.cost;
  sw::StepModel m(topo, so);
  s.replay(m);
  return {m.result(), sw::check_delivery(m)};
}

// A text schedule header for an all-to-all on `dims`.
inline std::string header(const std::string& dims, bool mesh = false, const std::string& ports = "one") {
  return "torx-schedule 1\ncollective alltoall\ntopology " + dims + (mesh ? " mesh" : " torus") + "\nports " + ports +
         "\nswitching wormhole\n";
}

// Every node of a ring of n sends, in one step, one message to each other node travelling +x (the
// sends of a node are serialised by its one-port interface; worms of `block_bytes` bytes). All
// worms wrap around the ring: the classic dateline test.
inline std::string ring_all_to_all_plus(int n) {
  std::string s = header(std::to_string(n)) + "step\n";
  for (int i = 0; i < n; ++i)
    for (int k = 1; k < n; ++k) {
      const int j = (i + k) % n;
      s += std::to_string(i) + " -> " + std::to_string(j) + " x+ | " + std::to_string(i) + ">" + std::to_string(j) + "\n";
    }
  return s + "end\n";
}

// The first of `candidates` (dimensions, wrap) that meets the algorithm's preconditions, so that
// algorithms landing later are picked up automatically.
inline std::optional<sw::Topology> first_accepted(const sw::Algorithm& a,
                                                  const std::vector<std::pair<std::vector<int>, bool>>& candidates) {
  for (const auto& [dims, wrap] : candidates) {
    const sw::Topology t(dims, wrap);
    try {
      a.check(t, sw::AlgorithmOptions{});
      return t;
    } catch (const sw::PreconditionError&) {
    }
  }
  return std::nullopt;
}

}  // namespace torx::model::testing
