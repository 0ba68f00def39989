// SPDX-License-Identifier: Apache-2.0
// The result document (schema torx.result/1, docs/cli.md) and the human summary of a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/bounds.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"

namespace torx::sw {

struct SimFigures {
  double wall_seconds = 0;
  std::optional<uint64_t> router_cycles;  // cycle and rtl models
  std::optional<uint64_t> flit_hops;
  uint64_t peak_rss_bytes = 0;
};

struct RunReport {
  std::string algorithm;
  std::string origin;            // "generated" or the schedule file
  ScheduleHeader header;
  PortModel ports = PortModel::kOne;
  std::string model = "step";
  std::string sync = "barrier";
  uint32_t block_bytes = 64;
  uint32_t flit_bytes = 16;
  uint64_t ts_cycles = 100;
  uint64_t seed = 1;
  NodeId nodes = 0;
  StepModelResult steps;
  CheckResult check;
  std::optional<Bound> formula;
  std::optional<Bound> lower_bound;
  std::vector<NamedBound> extras;
  std::optional<uint64_t> cycles;
  SimFigures sim;
};

std::string report_json(const RunReport& r, int indent = 2);
std::string report_text(const RunReport& r);
uint64_t peak_rss_bytes();

}  // namespace torx::sw
