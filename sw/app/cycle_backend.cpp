// SPDX-License-Identifier: Apache-2.0
// The cycle-accurate back end (--model cycle): the schedule on the SystemC model (models/). Built
// when the models are (TORX_BUILD_MODELS); backends_none.cpp stands in otherwise.
#include <fmt/format.h>

#include <chrono>

#include "app/run.hpp"
#include "core/errors.hpp"
#include "models/loader.hpp"

namespace torx::app {

namespace {

// The cycle model's figures as the result document's keys (docs/cli.md, "cycle_model").
void fill_report(const model::CycleResult& c, double load_seconds, RunReport& rep) {
  rep.cycles = c.cycles;
  rep.sim.router_cycles = c.router_cycles;
  rep.sim.flit_hops = c.flit_hops;
  CycleFigures f;
  f.params = c.params;
  f.predicted_cycles = c.predicted_cycles;
  f.barriers = c.barriers;
  f.barrier_latency = c.barrier_latency;
  f.step_start = c.step_start;
  f.step_end = c.step_end;
  f.link_flits = c.link_flits;
  f.blocked_cycles = c.blocked_cycles;
  f.injection_stall_cycles = c.injection_stall_cycles;
  f.mean_buffer_flits = c.mean_buffer_flits;
  f.max_vc_occupancy = c.max_vc_occupancy;
  f.router_evaluations = c.router_evaluations;
  f.threads = c.threads;
  f.null_messages = c.null_messages;
  f.null_flit_hops = c.null_flit_hops;
  f.sync_wait_cycles = c.sync_wait_cycles;
  f.software_barriers = c.software_barriers;
  f.priority_levels = c.priority_levels;
  f.preemptions = c.preemptions;
  f.preempted_cycles = c.preempted_cycles;
  f.load_seconds = load_seconds;
  f.run_seconds = c.run_seconds;
  rep.cycle_model = std::move(f);
}

class CycleBackend final : public Backend {
 public:
  const sw::DeliveryView& run(const sw::Schedule& schedule, const RunRequest& req, const ProgressFn& progress,
                              RunReport& rep) override {
    const auto t0 = std::chrono::steady_clock::now();
    model::CycleOptions o;
    o.params = req.params;
    o.cost = req.cost;
    o.sync = req.sync;
    o.seed = req.seed;
    o.ports = req.ports;
    o.trace = req.trace;
    if (progress)
      o.progress = [&progress](const model::Progress& p) { progress(RunProgress{p.cycle, p.messages_done, p.messages}); };
    net_ = std::make_unique<model::CycleNetwork>(schedule, req.topology, o, /*connect=*/false);
    const model::CycleResult c = model::run_cycle_model(*net_, o);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fill_report(c, total - c.run_seconds, rep);
    return net_->memory();
  }

 private:
  std::unique_ptr<model::CycleNetwork> net_;
};

}  // namespace

bool model_available(ModelKind m) { return m == ModelKind::kStep || m == ModelKind::kCycle; }

void check_model_limits(const RunRequest& r) {
  if (r.model == ModelKind::kStep) return;
  if (r.cost.flit_bytes > model::kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the {} model carries 1 to {} bytes per flit", r.cost.flit_bytes,
                                     model_name(r.model), model::kMaxFlitBytes));
  if (r.cost.block_bytes > model::kMaxBlockBytes)
    throw sw::InputError(fmt::format("--block-bytes {}: the {} model takes blocks of up to {} bytes", r.cost.block_bytes,
                                     model_name(r.model), model::kMaxBlockBytes));
}

std::unique_ptr<Backend> make_backend(ModelKind m) {
  if (m == ModelKind::kCycle) return std::make_unique<CycleBackend>();
  throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(m)));
}

}  // namespace torx::app
