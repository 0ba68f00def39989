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

// `torx stats --sync local`: the local synchronization derived for the schedule and which of its
// signals are needed (sw/core/sync_plan.hpp, docs/sync-study.md): "local_sync" in the JSON.
struct LocalSyncFigures {
  uint64_t boundaries = 0;      // marked boundaries (epochs - 1)
  uint64_t pairs = 0;           // colliding message pairs across a boundary (m1 must end before m2 starts)
  uint64_t signals = 0;         // null messages --sync local sends (after its own reduction)
  uint64_t local_waits = 0;     // signaller = waiter: a wait for the node's own receives, no message
  uint64_t needed = 0;          // signals no other ordering implies (an irreducible subset)
  uint64_t implied = 0;         // signals implied by the needed ones, program order and the data
  uint64_t data_orderings = 0;  // orderings from blocks forwarded (a send waits for the block)
};

// The router RTL of a --rtl-router run ("rtl_router" in the JSON): its top, its sources and the
// FNV-1a 64 hash of their content, in order.
struct ForeignRouterInfo {
  std::string top;
  std::vector<std::string> sources;
  std::string hash;
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
  std::optional<LocalSyncFigures> local_sync;  // torx stats --sync local: "local_sync" in the JSON
  std::vector<std::string> warnings;  // what ran but probably not as meant ("warnings" in the JSON)
  // The cycle and rtl models' figures as they report them: "cycles", the "sim" counters,
  // "cycle_model" and (hardwired gossip) "gossip_hw" in the JSON; none for the step model.
  std::optional<sw::CycleFigures> cycle_model;
  std::optional<ForeignRouterInfo> rtl_router;  // --rtl-router runs only
};

// Rates (M router-cycles/s, M flit-hops/s) are printed only for runs of at least this many seconds:
// below it the clock, the first touches of memory and the scheduler dominate (a run of 0.000 s
// reported 127.49 M router-cycles/s), so the summary gives the time and says it is too short.
inline constexpr double kMinRateSeconds = 0.01;
// "load 0.027 s, run 0.005 s" and then ": 4.17 M router-cycles/s, ..." or the words for too short.
std::string rate_text(double seconds, uint64_t router_cycles, std::optional<uint64_t> flit_hops);

std::string report_json(const RunReport& r, int indent = 2);
std::string report_text(const RunReport& r);
uint64_t peak_rss_bytes();

}  // namespace torx::app
