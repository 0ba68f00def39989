// SPDX-License-Identifier: Apache-2.0
// The result document (schema torx.result/1, docs/cli.md) and the human summary of a run: assembled
// here, in one place, from what the step model and the back ends (step, cycle, rtl) report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bounds.hpp"
#include "core/checker.hpp"
#include "core/run_config.hpp"
#include "core/step_model.hpp"

namespace torx::app {

using sw::Bound;
using sw::CheckResult;
using sw::NamedBound;

struct SimFigures {
  double wall_seconds = 0;
  std::optional<uint64_t> router_cycles;  // cycle and rtl models
  std::optional<uint64_t> flit_hops;
  uint64_t peak_rss_bytes = 0;
};

// Figures only the cycle-accurate models produce (docs/cli.md, "cycle_model").
struct CycleFigures {
  std::vector<std::pair<std::string, int64_t>> params;  // network parameters as run
  uint64_t predicted_cycles = 0;        // contention-free formula of docs/cycle-model.md
  uint64_t barriers = 0;                // barrier episodes executed
  uint64_t barrier_latency = 0;         // cycles from the last node's entry to the release
  std::vector<int64_t> step_start;      // per step: cycle its first send was issued (-1: no messages)
  std::vector<int64_t> step_end;        // per step: cycles until its last block was stored (-1: none)
  std::vector<uint64_t> link_flits;     // per directed network link, in LinkId order (node * ports + port)
  uint64_t blocked_cycles = 0;          // sum over cycles of router VCs holding a flit that could not advance
  uint64_t injection_stall_cycles = 0;  // sum over cycles of injection channels waiting for a credit
  double mean_buffer_flits = 0;         // flits in router input buffers (and the links into them), mean over cycles
  uint32_t max_vc_occupancy = 0;        // fullest VC buffer, in flits
  uint64_t router_evaluations = 0;      // router-cycles actually evaluated (idle routers are skipped)
  int threads = 1;                      // threads that evaluated the network (results do not depend on it)
  uint64_t null_messages = 0;           // null messages sent (--sync local, software)
  uint64_t null_flit_hops = 0;          // their flits' hops between routers
  uint64_t sync_wait_cycles = 0;        // node-cycles spent waiting for a barrier or a signal
  uint64_t software_barriers = 0;       // software barrier episodes
  uint64_t priority_levels = 1;         // levels the routers ran with (docs/priority.md)
  uint64_t preemptions = 0;             // output-VC takeovers by a higher level
  uint64_t preempted_cycles = 0;        // worm-cycles spent preempted
  double load_seconds = 0;              // programming the network: tables, programs, memories, elaboration
  double run_seconds = 0;               // simulating it, up to the last block stored
};

// Hardwired gossip (--gossip-hw; docs/gossip.md): "gossip_hw" in the JSON.
struct GossipHwFigures {
  uint64_t host_sends = 0;        // packets the interfaces injected: their own pieces and the prologue
  uint64_t router_copies = 0;     // packet copies the routers sent on network links
  uint64_t deliveries = 0;        // packets the routers handed to their nodes
  uint64_t steps_equivalent = 0;  // steps of the schedule-driven run (each a startup per sending node)
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
  std::optional<uint64_t> cycles;
  SimFigures sim;
  std::optional<CycleFigures> cycle_model;
  std::optional<GossipHwFigures> gossip_hw;
  std::optional<LocalSyncFigures> local_sync;
};

std::string report_json(const RunReport& r, int indent = 2);
std::string report_text(const RunReport& r);
uint64_t peak_rss_bytes();

}  // namespace torx::app
