// SPDX-License-Identifier: Apache-2.0
// The application layer: one run of torx, from a validated request to the result document.
//
//   RunRequest     every option of `torx run|check|stats`, typed and validated once
//                  (validate_request); the command line (sw/cli) builds it from its words
//   Backend        a model that runs a whole schedule and returns figures and a DeliveryView:
//                  the cycle model (SystemC), later the RTL network; the step model runs for every
//                  run anyway (its figures are in every document) and judges the step-model runs
//   run()          generates or reads the schedule (streaming it into the step model, and keeping it
//                  whole for a back end), runs the back end, checks every block through the chosen
//                  model's DeliveryView, and assembles the result document (report.hpp)
// Neither sw/core nor models/ knows any of this: no model includes the report, names a command-line
// option or draws a progress bar; progress comes back through a callback the caller renders.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/report.hpp"
#include "core/delivery.hpp"
#include "core/memory_limit.hpp"
#include "core/network_params.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::app {

enum class ModelKind : uint8_t { kStep, kCycle, kRtl };
std::string_view model_name(ModelKind m);
std::optional<ModelKind> parse_model(std::string_view text);
// Whether this build has the model (the cycle model needs SystemC, the rtl model Verilator).
bool model_available(ModelKind m);

struct RunRequest {
  std::string algorithm;                // an algorithm id (torx list), or empty with `schedule`
  std::string schedule;                 // a schedule file instead of an algorithm
  sw::Topology topology{{2}, true};
  std::optional<sw::PortModel> ports;   // count conflicts (and build interfaces) under this port model
  ModelKind model = ModelKind::kStep;
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;
  sw::NodeId root = 0;                  // broadcast source
  bool gossip_hw = false;
  std::string gossip_tables;            // --gossip-hw: the routers' forwarding tables from this file
  uint64_t seed = 1;
  std::string trace;                    // waveform file (cycle and rtl models)
  std::vector<sw::NodeId> trace_routers;  // rtl model: routers whose internal registers go to FST files
  sw::NetworkParams params;             // cycle and rtl models
  bool params_given = false;            // some network parameter was set explicitly
  std::vector<std::string> params_named;  // the names of the parameters set explicitly
  bool count_only = false;              // torx stats: count without tracking blocks (no check)
  std::optional<sw::MemoryLimit> memory_limit;  // --max-memory; none: what the machine has available
};

// Throws sw::InputError unless `path` names a file torx may write: an existing regular file, or a
// new name in an existing, writable directory (`option` names it in the message, with the
// operating system's reason). A directory or a device (/dev/null) is refused, never replaced.
void check_output_file(const char* option, const std::string& path);

// Throws sw::InputError naming the option (as the command line spells it) that is wrong or does
// not apply to the chosen model.
void validate_request(const RunRequest& r);

// Progress of a long simulation, for the caller to render.
struct RunProgress {
  uint64_t cycle = 0;
  uint64_t messages_done = 0;
  uint64_t messages = 0;
};
using ProgressFn = std::function<void(const RunProgress&)>;
// Schedule generation progress: steps done, steps declared (-1 if unknown).
using StepProgressFn = std::function<void(int64_t done, int64_t total)>;

// A model that runs a whole schedule (cycle, rtl). Fills the model's parts of the report (cycles,
// sim figures, cycle_model) and returns the view the checker judges; the view lives as long as the
// back end.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const sw::DeliveryView& run(const sw::Schedule& schedule, const RunRequest& req, const ProgressFn& progress,
                                      RunReport& rep) = 0;
};
// Limits of the request's model this build knows (flit and block sizes, network parameters against
// the topology); throws sw::InputError naming the option. Part of validate_request.
void check_model_limits(const RunRequest& r);
// The back end of `m` (not kStep); throws sw::InputError if this build does not have it.
std::unique_ptr<Backend> make_backend(ModelKind m);

struct RunHooks {
  ProgressFn progress;           // simulation progress (may be empty)
  StepProgressFn step_progress;  // schedule generation / reading progress (may be empty)
};

// Runs the request (after validate_request). Throws sw::InputError (bad input, exit 2),
// sw::WatchdogError (the simulation stopped, exit 3); anything else is an internal error.
RunReport run(const RunRequest& req, const RunHooks& hooks = {});

}  // namespace torx::app
