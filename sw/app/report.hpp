// SPDX-License-Identifier: Apache-2.0
// The result document (schema torx.result/1, docs/cli.md) and the human summary of a run: assembled
// here, in one place, from what the step model and the back ends (cycle, rtl) report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bounds.hpp"
#include "core/checker.hpp"
#include "core/cycle_figures.hpp"
#include "core/run_config.hpp"
#include "core/step_model.hpp"

namespace torx::app {

using sw::Bound;
using sw::CheckResult;
using sw::NamedBound;

struct SimFigures {
  double wall_seconds = 0;
  uint64_t peak_rss_bytes = 0;
};

struct RunReport {
  std::string algorithm;
  std::string origin;            // "generated" or the schedule file
  sw::ScheduleHeader header;
  sw::PortModel ports = sw::PortModel::kOne;
  std::string model = "step";    // step, cycle, rtl; "count" for torx stats
  sw::SyncMode sync = sw::SyncMode::kBarrier;
  sw::CostModel cost;
  uint64_t seed = 1;
  sw::StepModelResult steps;
  CheckResult check;
  bool checked = true;           // false for `torx stats`: no block was tracked, "check" is null
  std::optional<Bound> formula;
  std::optional<Bound> lower_bound;
  std::vector<NamedBound> extras;
  std::vector<std::pair<std::string, int64_t>> facts;  // algorithm-specific figures, "facts" in the JSON
  SimFigures sim;
  // The cycle and rtl models' figures as they report them: "cycles", the "sim" counters,
  // "cycle_model" and (hardwired gossip) "gossip_hw" in the JSON; none for the step model.
  std::optional<sw::CycleFigures> cycle_model;
};

std::string report_json(const RunReport& r, int indent = 2);
std::string report_text(const RunReport& r);
uint64_t peak_rss_bytes();

}  // namespace torx::app
