// SPDX-License-Identifier: Apache-2.0
// The application layer: one run of torx, from a validated request to the result document.
//
//   RunRequest     every option of `torx run|check|stats`, typed (app/options.hpp parses the
//                  command line's words into it) and validated once (validate_request), which also
//                  settles what the options imply for the models (params_as_run)
//   Backend        a model that runs a whole schedule and returns figures and a DeliveryView:
//                  the cycle model (SystemC), the RTL network; the step model runs for every run
//                  anyway (its figures are in every document) and judges the step-model runs.
//                  Which models this build has, and their back ends, is decided in one table
//                  (models.cpp)
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
#include "core/names.hpp"
#include "core/network_params.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::app {

enum class ModelKind : uint8_t { kStep, kCycle, kRtl };
// --model's names: parsing, help and errors read this table (core/names.hpp).
inline constexpr sw::Named<ModelKind> kModelNames[] = {
    {ModelKind::kStep, "step"}, {ModelKind::kCycle, "cycle"}, {ModelKind::kRtl, "rtl"}};
constexpr std::string_view model_name(ModelKind m) { return sw::name_of(kModelNames, m); }
constexpr std::optional<ModelKind> parse_model(std::string_view text) { return sw::value_named(kModelNames, text); }
// Whether this build has the model (the cycle model needs SystemC, the rtl model Verilator): the
// one place that knows is models.cpp.
bool model_available(ModelKind m);
// The models this build has, as --help and errors list them: "step|cycle|rtl" with `sep` "|".
std::string available_model_names(std::string_view sep, std::string_view last = {});

// What torx run (check, stats) and torx cosim share: the network and how it runs. One parser
// (app/options.hpp) reads both from the command line's words.
struct NetworkRequest {
  sw::Topology topology{{2}, true};
  std::optional<sw::PortModel> ports;   // network interface channels (run: count conflicts under it too)
  sw::CostModel cost;
  sw::SyncMode sync = sw::SyncMode::kBarrier;
  uint64_t seed = 1;
  bool gossip_hw = false;               // hardwired gossip (docs/gossip.md)
  sw::NetworkParams params;             // cycle and rtl models: as given, then as run (params_as_run)
  std::vector<std::string> params_named;  // the parameters set explicitly (--param NAME=..., --watchdog)
  // rtl model: someone else's router top instead of torx_router (docs/router-interface.md).
  std::vector<std::string> rtl_router;  // its SV sources; empty: torx_router
  std::string rtl_top;                  // empty: the first source's name
  std::vector<std::string> rtl_params;  // NAME=VALUE, passed to the top
  bool rtl_check = true;                // the link-protocol checker on its ports
};

// Makes the request's foreign router (--rtl-router) the one the rtl model builds networks of, after
// checking that its files exist (models.cpp; sw::InputError when this build has no rtl model).
void configure_rtl_router(const NetworkRequest& r);
// The foreign router a run used, for the result document: its top, sources and their content hash.
std::optional<ForeignRouterInfo> foreign_router_info();

struct RunRequest : NetworkRequest {
  std::string algorithm;                // an algorithm id (torx list), or empty with `schedule`
  std::string schedule;                 // a schedule file instead of an algorithm
  ModelKind model = ModelKind::kStep;
  sw::NodeId root = 0;                  // broadcast source
  std::string gossip_tables;            // --gossip-hw: the routers' forwarding tables from this file
  std::string trace;                    // waveform file (cycle and rtl models)
  std::string partition;                // --partition slab|block|auto under mpirun (empty: auto; docs/distributed.md)
  std::vector<sw::NodeId> trace_routers;  // rtl model: routers whose internal registers go to FST files
  bool count_only = false;              // torx stats: count without tracking blocks (no check)
  // The library's run_schedule (include/torx/network.hpp): the cycle and rtl models step their
  // network without the SystemC kernel (which elaborates once per process), so that a program may run
  // any number of schedules. The same cycles and figures; no --trace.
  bool kernel_free = false;
  std::optional<sw::MemoryLimit> memory_limit;  // --max-memory; none: what the machine has available
  // Set by validate_request: what runs but probably not as the user meant (the CLI prints each on
  // stderr, the result document lists them as "warnings").
  std::vector<std::string> warnings;
};

// Throws sw::InputError unless `path` names a file torx may write: an existing regular file, or a
// new name in an existing, writable directory (`option` names it in the message, with the
// operating system's reason). A directory or a device (/dev/null) is refused, never replaced.
void check_output_file(const char* option, const std::string& path);

// Throws sw::InputError naming the option (as the command line spells it) that is wrong or does
// not apply to the chosen model. Returns the request as the models run it: the network parameters
// as params_as_run() settles them. Every rule about which options go together lives here.
RunRequest validate_request(RunRequest r);

// The warning for --sync priority when the throttle leaves the lowest level fewer slots than a
// packet (one block's worm, ceil(block_bytes / flit_bytes) flits): its worms then advance a few
// flits per credit round trip (t4 16x16, vcs_per_class 2, buffer_depth 4: 1.71 x the barrier's
// cycles). Empty when the network as run (params_as_run) leaves a packet's worth or more.
std::string priority_throttle_warning(const sw::NetworkParams& p, const sw::CostModel& cost);

// The network parameters a network is built with, settled here once for torx run, check, stats and
// cosim (the models take them as they are): the routers have priority lanes only under --sync
// priority (one level, the plain router, otherwise: docs/priority.md); with --gossip-hw the input
// buffers hold two whole packets (a default depth grows to that; an explicit smaller one is refused:
// docs/gossip.md). `named` lists the parameters set explicitly.
sw::NetworkParams params_as_run(const sw::NetworkParams& given, const std::vector<std::string>& named, sw::SyncMode sync,
                                bool gossip_hw, const sw::CostModel& cost);

// Progress of a long simulation, for the caller to render.
struct RunProgress {
  uint64_t cycle = 0;
  uint64_t messages_done = 0;
  uint64_t messages = 0;
};
using ProgressFn = std::function<void(const RunProgress&)>;
// Schedule generation progress: steps done, steps declared (-1 if unknown).
using StepProgressFn = std::function<void(int64_t done, int64_t total)>;

// A model that runs a whole schedule (cycle, rtl). Fills the model's part of the report
// (cycle_model) and returns the view the checker judges; the view lives as long as the back end.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual const sw::DeliveryView& run(const sw::Schedule& schedule, const RunRequest& req, const ProgressFn& progress,
                                      RunReport& rep) = 0;
};
// The back end of `m` (not kStep); throws sw::InputError if this build does not have it.
std::unique_ptr<Backend> make_backend(ModelKind m);

struct RunHooks {
  ProgressFn progress;           // simulation progress (may be empty)
  StepProgressFn step_progress;  // schedule generation / reading progress (may be empty)
};

// Runs the request (as validate_request returned it). Throws sw::InputError (bad input, exit 2),
// sw::WatchdogError (the simulation stopped, exit 3); anything else is an internal error.
RunReport run(const RunRequest& req, const RunHooks& hooks = {});

}  // namespace torx::app
