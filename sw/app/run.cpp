// SPDX-License-Identifier: Apache-2.0
#include "app/run.hpp"

#include <fmt/format.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "algorithms/registry.hpp"
#include "app/backends.hpp"
#include "app/mpi.hpp"
#include "app/options.hpp"
#include "core/checker.hpp"
#include "core/errors.hpp"
#include "core/forwarding_table.hpp"
#include "core/output_file.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"
#include "core/sync_plan.hpp"

namespace torx::app {

namespace {

// Reports schedule generation progress to a callback while forwarding every step.
class StepProgressSink : public sw::ScheduleSink {
 public:
  StepProgressSink(sw::ScheduleSink& inner, const StepProgressFn& fn) : inner_(inner), fn_(fn) {}
  void begin(const sw::ScheduleHeader& h) override {
    total_ = h.steps;
    inner_.begin(h);
  }
  void step(const sw::Step& s) override {
    inner_.step(s);
    ++done_;
    if (fn_) fn_(done_, total_);
  }
  void end() override { inner_.end(); }

 private:
  sw::ScheduleSink& inner_;
  const StepProgressFn& fn_;
  int64_t total_ = -1;
  int64_t done_ = 0;
};

}  // namespace

void check_output_file(const char* option, const std::string& path) {
  // A regular file (or a new one) in a directory where a file can be created: a temporary file is
  // made beside it and removed again (core/output_file.hpp), so every reason (no directory, no
  // permission, /proc, a read-only file system) shows before the work.
  sw::TempOutputPath probe(option, path);
}

sw::NetworkParams params_as_run(const sw::NetworkParams& given, const std::vector<std::string>& named, sw::SyncMode sync,
                                bool gossip_hw, const sw::CostModel& cost) {
  sw::NetworkParams p = given;
  // Priority lanes only under --sync priority; every other mode runs the plain router.
  if (sync != sw::SyncMode::kPriority) p.priority_levels = 1;
  if (gossip_hw) {
    // Gossip routers store two whole packets per input buffer (docs/gossip.md): a default depth
    // below that grows to it; an explicit one is refused.
    const int two = static_cast<int>(2 * ((cost.block_bytes + cost.flit_bytes - 1) / cost.flit_bytes));
    if (p.buffer_depth < two) {
      if (std::find(named.begin(), named.end(), "buffer_depth") != named.end())
        throw sw::InputError(fmt::format("--gossip-hw: buffer_depth {} is below two packets of {} flits (gossip mode "
                                         "stores whole packets, double-buffered): --param buffer_depth={} or more",
                                         p.buffer_depth, two / 2, two));
      p.buffer_depth = two;
    }
  }
  return p;
}

namespace {

// The options that configure the cycle and rtl models' networks: refused in the step model.
void check_step_request(const RunRequest& r) {
  if (!r.params_named.empty())
    throw sw::InputError("--param and --watchdog configure the cycle and rtl models, not the step model");
  if (!r.trace.empty()) throw sw::InputError("--trace: waveforms come from the cycle and rtl models, not the step model");
  if (r.gossip_hw) throw sw::InputError("--gossip-hw: the step model has no routers to forward gossip (use --model cycle)");
  // `torx stats --sync local` is the local-sync analysis (which signals are needed), not a run mode.
  if (r.sync != sw::SyncMode::kBarrier && !(r.count_only && r.sync == sw::SyncMode::kLocal))
    throw sw::InputError(fmt::format("--sync {}: the step model has no synchronization (each step costs t_s + m t_x); "
                                     "--sync applies to the cycle and rtl models{}",
                                     sw::sync_mode_name(r.sync),
                                     r.count_only ? " (torx stats takes --sync local: the local-sync analysis)" : ""));
}

void check_gossip_request(const RunRequest& r) {
  const sw::Algorithm* a = r.algorithm.empty() ? nullptr : sw::find_algorithm(r.algorithm);
  if (r.gossip_tables.empty() && (!a || !a->gossip_plan))
    throw sw::InputError(fmt::format("--gossip-hw: the routers forward by an oblivious gossip's forwarding tables "
                                     "({}, or --gossip-tables FILE), not {}",
                                     sw::algorithm_ids(", ", true), r.algorithm.empty() ? "a schedule file" : r.algorithm));
  if (r.sync != sw::SyncMode::kBarrier && r.sync != sw::SyncMode::kNone)
    throw sw::InputError("--gossip-hw: the routers need no synchronization; --sync does not apply");
  if (r.count_only) throw sw::InputError("--gossip-hw: torx stats counts schedules; use torx run");
  if (r.params.pipeline != 0)
    throw sw::InputError(fmt::format("--gossip-hw with --param pipeline={}: the gossip routers have the single "
                                     "organization only (docs/timing-contract.md, \"Router organizations\")",
                                     sw::pipeline_name(r.params.pipeline)));
}

void check_traces(const RunRequest& r) {
  if (!r.trace.empty()) {
    // The waveform is written beside FILE and renamed to it: FILE must be a regular file (a device
    // such as /dev/null would be replaced) in a directory where a file can be created.
    if (r.trace == "-")
      throw sw::InputError("--trace -: a waveform is written to a file (gtkwave reads it from there); give its name");
    check_output_file("--trace", r.trace);
  }
  if (r.trace_routers.empty()) return;
  if (r.model != ModelKind::kRtl)
    throw sw::InputError("--trace-routers: register waveforms come from the RTL routers (--model rtl)");
  if (r.trace.empty()) throw sw::InputError("--trace-routers needs --trace FILE (the routers' files are named after it)");
  for (sw::NodeId v : r.trace_routers)
    if (v < 0 || v >= r.topology.nodes())
      throw sw::InputError(fmt::format("--trace-routers {}: the {} has nodes 0 to {}", v, r.topology.to_string(),
                                       r.topology.nodes() - 1));
}

}  // namespace

std::string priority_throttle_warning(const sw::NetworkParams& p, const sw::CostModel& cost) {
  const int k = p.priority_levels, r = p.priority_reserve, d = p.buffer_depth;
  if (k <= 1) return {};
  const int64_t packet = (cost.block_bytes + cost.flit_bytes - 1) / cost.flit_bytes;
  const int64_t lowest = d - static_cast<int64_t>(k - 1) * r;
  if (lowest >= packet) return {};
  // What would leave a packet's worth: a deeper buffer, fewer levels, a smaller reserve.
  std::string fix = fmt::format("--param buffer_depth={} or more", packet + static_cast<int64_t>(k - 1) * r);
  if (d - r >= packet) fix += fmt::format(", or priority_levels={} or fewer", 1 + (d - packet) / r);
  if (r > 1 && d - (k - 1) >= packet) fix += fmt::format(", or priority_reserve={} or less", (d - packet) / (k - 1));
  return fmt::format("--sync priority: the throttle leaves the lowest of {} priority levels {} of the {} slots of a VC "
                     "buffer (buffer_depth {} - (priority_levels {} - 1) x priority_reserve {}), fewer than a packet of "
                     "{} flits ({}-byte blocks, {}-byte flits), so its worms advance a few flits per credit round trip "
                     "and the run can take longer than under --sync barrier (t4 16x16, vcs_per_class=2, buffer_depth=4: "
                     "1.71 x); for a packet's worth: {} (docs/priority.md, \"The throttle\")",
                     k, lowest, d, d, k, r, packet, cost.block_bytes, cost.flit_bytes, fix);
}

RunRequest validate_request(RunRequest r) {
  if (r.algorithm.empty() == r.schedule.empty())
    throw sw::InputError(r.algorithm.empty() ? "run: give an algorithm (torx run ring ...) or --schedule FILE"
                                             : "run: give an algorithm or --schedule FILE, not both");
  if (!r.algorithm.empty()) sw::lookup_algorithm(r.algorithm);
  if (!model_available(r.model))
    throw sw::InputError(fmt::format("--model {}: this build has no {} model; the step model (--model step) is available",
                                     model_name(r.model), model_entry(r.model).what));
  check_count(kBlockBytesOption, r.cost.block_bytes);
  check_count(kFlitBytesOption, r.cost.flit_bytes);
  check_count(kTsOption, r.cost.ts_cycles);
  if (r.count_only && r.model != ModelKind::kStep)
    throw sw::InputError("stats counts with the step model; --model does not apply");
  if (!r.gossip_tables.empty() && !r.gossip_hw)
    throw sw::InputError("--gossip-tables: the routers forward by tables only with --gossip-hw");
  if (!r.partition.empty() && r.partition != "slab" && r.partition != "block" && r.partition != "auto")
    throw sw::InputError(fmt::format("--partition {}: give slab, block or auto", r.partition));
  if (mpi_size() > 1) {
    // A partitioned run (docs/distributed.md): the cycle-accurate models only, no waveforms.
    if (r.model == ModelKind::kStep || r.count_only)
      throw sw::InputError(fmt::format("under mpirun ({} ranks) torx run partitions the cycle and rtl models: give "
                                       "--model cycle or rtl (the step model runs in one process)",
                                       mpi_size()));
    if (!r.trace.empty())
      throw sw::InputError("--trace: a partitioned run writes no waveform; run it in one process (without mpirun)");
  } else if (!r.partition.empty()) {
    throw sw::InputError(fmt::format("--partition: this run is not partitioned (start it with mpirun -np R, R > 1; "
                                     "{} rank{} here)",
                                     launched_ranks(), launched_ranks() == 1 ? "" : "s"));
  }
  if (r.model == ModelKind::kStep) {
    check_step_request(r);
    return r;
  }
  if (r.gossip_hw) check_gossip_request(r);
  check_traces(r);
  const ModelEntry& e = model_entry(r.model);
  if (e.check_sizes) e.check_sizes(model_name(r.model), r.cost);
  r.params = params_as_run(r.params, r.params_named, r.sync, r.gossip_hw, r.cost);
  sw::validate(r.params, r.topology);
  if (r.sync == sw::SyncMode::kPriority) {
    sw::validate_priority(r.params, r.topology);
    if (std::string w = priority_throttle_warning(r.params, r.cost); !w.empty()) r.warnings.push_back(std::move(w));
  }
  if (e.check_memory) e.check_memory(r);
  return r;
}

RunReport run(const RunRequest& req, const RunHooks& hooks) {
  const sw::Topology& topo = req.topology;
  sw::AlgorithmOptions aopt;
  aopt.root = req.root;
  aopt.seed = req.seed;
  sw::StepModelOptions smo;
  smo.cost = req.cost;
  smo.ports = req.ports;
  smo.origin = req.schedule.empty() ? req.algorithm + " (generated)" : req.schedule;
  smo.track_blocks = !req.count_only;
  // A partitioned run: each rank tracks its share of the blocks (the holding rules), and the ranks
  // agree on the first error below (docs/distributed.md, "Memory per rank").
  const int ranks = req.model != ModelKind::kStep ? mpi_size() : 1;
  if (ranks > 1) {
    smo.track_part = static_cast<uint32_t>(mpi_rank());
    smo.track_parts = static_cast<uint32_t>(ranks);
  }
  // The step model's counters and block tracking are held to the same limit as the cycle model.
  const sw::MemoryLimit memory_limit = req.memory_limit ? *req.memory_limit : sw::default_memory_limit();
  smo.memory_limit_bytes = memory_limit.bytes;
  sw::StepModel step_model(topo, smo);
  // A back end needs the whole schedule in memory (it programs every node before the run).
  // (`torx stats --sync local` derives the local synchronization from the whole schedule too.)
  const bool local_sync = req.count_only && req.sync == sw::SyncMode::kLocal;
  const bool whole = req.model != ModelKind::kStep || local_sync;
  sw::Schedule schedule;
  sw::TeeSink both({&step_model, &schedule});
  StepProgressSink sink(whole ? static_cast<sw::ScheduleSink&>(both) : step_model, hooks.step_progress);
  const auto t0 = std::chrono::steady_clock::now();
  const sw::Algorithm* algo = nullptr;
  // A partitioned run: the first error any rank's share of the blocks shows, agreed on below.
  std::optional<std::string> schedule_error;
  const auto feed = [&](const auto& produce) {
    try {
      produce();
    } catch (const sw::InputError& e) {
      if (ranks <= 1) throw;
      schedule_error = e.what();
    }
    if (ranks > 1) agree_on_schedule_error(step_model.failure_position(), schedule_error ? &*schedule_error : nullptr);
  };
  if (!req.algorithm.empty()) {
    algo = &sw::lookup_algorithm(req.algorithm);
    if (algo->gossip_plan)  // the precondition check plans the forwarding tables: estimated first
      sw::require_memory(memory_limit, sw::gossip_tables_peak_bytes(topo.radices()),
                         fmt::format("planning the {} forwarding tables of the {}", req.algorithm, topo.to_string()));
    algo->check(topo, aopt);
    // The step model's counters and block state, one step in flight and the generator's plan:
    // estimated before any of it is allocated (exit 3 naming the estimate and the limit).
    const int pieces = algo->pieces ? algo->pieces(topo, aopt) : 1;
    const uint64_t model_bytes = sw::step_model_bytes(topo, algo->collective, pieces, aopt.root, smo.track_blocks,
                                                      static_cast<uint64_t>(ranks));
    const uint64_t plan_bytes = algo->plan_bytes ? algo->plan_bytes(topo, aopt) : 0;
    sw::require_memory(memory_limit, model_bytes > UINT64_MAX - plan_bytes ? UINT64_MAX : model_bytes + plan_bytes,
                       fmt::format("{} {} on the {}", req.count_only ? "counting" : "running", req.algorithm, topo.to_string()),
                       fmt::format("step model {}{}", sw::format_bytes(model_bytes),
                                   plan_bytes ? ", the generator's plan " + sw::format_bytes(plan_bytes) : std::string()));
    feed([&] { algo->generate(topo, aopt, sink); });
  } else {
    sw::ScheduleHeader h;
    feed([&] { h = sw::read_schedule(req.schedule, &topo, sink); });
    algo = sw::find_algorithm(h.algorithm);
    if (algo && h.collective == sw::Collective::kBroadcast) aopt.root = h.root;
    if (algo) {
      try {
        algo->check(topo, aopt);
      } catch (const sw::PreconditionError&) {
        algo = nullptr;  // a custom schedule named after an algorithm but outside its domain: no formula
      }
    }
  }
  RunReport rep;
  rep.checked = !req.count_only;
  rep.algorithm = step_model.header().algorithm;
  rep.origin = req.schedule.empty() ? "generated" : req.schedule;
  rep.header = step_model.header();
  rep.ports = step_model.port_model();
  rep.model = req.count_only ? "count" : std::string(model_name(req.model));
  rep.sync = req.sync;
  rep.cost = req.cost;
  rep.seed = req.seed;
  rep.warnings = req.warnings;
  rep.steps = step_model.result();
  if (local_sync) {
    // The analysis visits every block of every message once (the forwarding orderings): bounded here.
    constexpr uint64_t kMaxTransfers = uint64_t{1} << 27;
    if (rep.steps.block_transfers > kMaxTransfers)
      throw sw::InputError(fmt::format("--sync local: the schedule moves {} blocks, more than the local-sync analysis "
                                       "of `torx stats` takes ({}): try a smaller torus",
                                       rep.steps.block_transfers, kMaxTransfers));
    const sw::LocalSyncPlan plan = sw::derive_local_sync(schedule, topo, rep.ports);
    // Its reachability sets grow with messages x pairs: capped so that it answers in minutes, not hours.
    const sw::SyncReduction red =
        sw::reduce_local_sync(plan, schedule, topo, std::min<uint64_t>(memory_limit.bytes, uint64_t{512} << 20));
    rep.local_sync = LocalSyncFigures{plan.boundaries, plan.pairs.size(),   plan.signals.size(), plan.local_waits.size(),
                                      red.kept.size(), red.implied.size(), red.data_orderings};
  }
  if (req.model == ModelKind::kStep) {
    if (rep.checked) rep.check = sw::check_delivery(step_model);
    rep.sim.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } else {
    // The back end's memories replace the step model's as what the checker judges.
    std::unique_ptr<Backend> backend = make_backend(req.model);
    const sw::DeliveryView& view = backend->run(schedule, req, hooks.progress, rep);
    rep.check = sw::check_delivery(view);
    if (!req.rtl_router.empty()) rep.rtl_router = foreign_router_info();
    if (view.partial()) reduce_partial_check(rep.check);  // a partitioned run: each rank checked its nodes
    rep.sim.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  rep.sim.peak_rss_bytes = peak_rss_bytes();
  if (algo) {
    if (algo->formula) rep.formula = algo->formula(topo, aopt);
    if (algo->lower_bound) rep.lower_bound = algo->lower_bound(topo, aopt);
    if (algo->extras) rep.extras = algo->extras(topo, aopt);
    if (algo->facts) rep.facts = algo->facts(topo, aopt);
  }
  return rep;
}

}  // namespace torx::app
