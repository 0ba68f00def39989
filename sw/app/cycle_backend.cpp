// SPDX-License-Identifier: Apache-2.0
// The cycle-accurate back ends: --model cycle, the schedule on the SystemC model (models/), and
// --model rtl, the same network with every router and barrier unit a core the factories make (the
// Verilated RTL of hw/, models.cpp) behind the port-level boundary, bound to the same links and
// network interfaces. Built when the models are; which models exist is decided in models.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/registry.hpp"
#include "app/backends.hpp"
#include "app/mpi.hpp"
#include "app/report.hpp"
#include "app/tables.hpp"
#include "core/collective_stop.hpp"
#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "models/loader.hpp"
#include "models/memory_estimate.hpp"
#include "models/partitioned.hpp"
#include "models/port_router.hpp"

namespace torx::app {

namespace {

// The FST file of router v's registers: FILE's stem + ".router<v>.fst" ("run.vcd" -> "run.router5.fst").
std::string router_trace_path(const std::string& trace, sw::NodeId v) {
  const size_t slash = trace.find_last_of('/');
  const size_t dot = trace.find_last_of('.');
  const std::string stem = dot != std::string::npos && (slash == std::string::npos || dot > slash) ? trace.substr(0, dot) : trace;
  return fmt::format("{}.router{}.fst", stem, v);
}

class CycleBackend final : public Backend {
 public:
  CycleBackend(std::unique_ptr<const model::RouterFactory> routers, std::unique_ptr<const model::BarrierFactory> barriers)
      : routers_(std::move(routers)), barriers_(std::move(barriers)) {}

  const sw::DeliveryView& run(const sw::Schedule& schedule, const RunRequest& req, const ProgressFn& progress,
                              RunReport& rep) override {
    const auto t0 = std::chrono::steady_clock::now();
    model::CycleOptions o = cycle_options(req);
    o.trace = req.trace;
    o.memory_limit = req.memory_limit;
    if (req.gossip_hw) o.gossip = &gossip_table(schedule, req);
    if (progress)
      o.progress = [&progress](const model::Progress& p) { progress(RunProgress{p.cycle, p.messages_done, p.messages}); };
    if (model::RankComm* world = mpi_world()) return run_partitioned(schedule, req, o, *world, t0, rep);
    const bool kernel_free = req.kernel_free && req.trace.empty();
    net_ = std::make_unique<model::CycleNetwork>(schedule, req.topology, o, /*connect=*/kernel_free, routers_.get(),
                                                 barriers_.get());
    // Each router's FST file is written beside its name and renamed when the run is complete
    // (core/output_file.hpp): a failed or interrupted run leaves none half-written.
    std::vector<std::unique_ptr<sw::TempOutputPath>> router_traces;
    for (sw::NodeId v : req.trace_routers) {
      model::PortRouter* r = net_->fabric().port_router(v);
      TORX_CHECK(r != nullptr, "--trace-routers on a network of C++ routers");
      router_traces.push_back(std::make_unique<sw::TempOutputPath>("--trace-routers", router_trace_path(req.trace, v)));
      r->core().open_trace(router_traces.back()->file());
    }
    if (kernel_free) {
      const auto t1 = std::chrono::steady_clock::now();
      net_->run();
      rep.cycle_model = net_->result();
      rep.cycle_model->run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    } else {
      rep.cycle_model = model::run_cycle_model(*net_, o);
    }
    for (size_t i = 0; i < router_traces.size(); ++i) {
      net_->fabric().port_router(req.trace_routers[i])->core().close_trace();
      router_traces[i]->commit();
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.cycle_model->load_seconds = total - rep.cycle_model->run_seconds;
    return net_->memory();
  }

 private:
  // mpirun -np R (docs/distributed.md): every rank builds the network, simulates its part of it and
  // ends with the figures and memories of the whole; rank 0 says on standard error how the time went
  // and what each rank's peak memory was (not in the document, which is one process's).
  const sw::DeliveryView& run_partitioned(const sw::Schedule& schedule, const RunRequest& req, model::CycleOptions& o,
                                          model::RankComm& world, std::chrono::steady_clock::time_point t0,
                                          RunReport& rep) {
    part_ = model::make_partition(req.topology, world.size(),
                                  model::partition_kind(req.partition.empty() ? "auto" : req.partition));
    const model::Partition& part = part_;
    o.partition = &part_;
    o.rank = world.rank();
    net_ = std::make_unique<model::CycleNetwork>(schedule, req.topology, o, /*connect=*/true, routers_.get(),
                                                 barriers_.get());
    model::PartitionedStats ps;
    const auto t_run = std::chrono::steady_clock::now();
    try {
      rep.cycle_model = model::run_partitioned(*net_, part, world, o, &ps);
    } catch (const sw::CollectiveStop&) {
      // Every rank stops together (a stall, a cycle limit): the time split and memories still said.
      report_ranks(world, ps, std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count(), true);
      throw;
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.cycle_model->load_seconds = total - rep.cycle_model->run_seconds;
    report_ranks(world, ps, rep.cycle_model->run_seconds, false);
    return net_->memory();
  }

  // Rank 0 says on standard error how each rank's time went and what its peak memory was (the
  // document is one process's: timings aside, it has neither).
  void report_ranks(model::RankComm& world, const model::PartitionedStats& ps, double run_seconds, bool stopped) {
    const uint64_t mine[] = {peak_rss_bytes(), ps.cycles_stepped, ps.exchanges, ps.bytes_sent,
                             static_cast<uint64_t>(ps.step_seconds * 1e6), static_cast<uint64_t>(ps.sync_seconds * 1e6),
                             static_cast<uint64_t>(ps.exchange_seconds * 1e6), net_->memory().payload_peak_bytes()};
    constexpr size_t kw = std::size(mine);
    std::vector<uint64_t> all(kw * static_cast<size_t>(world.size()));
    world.allgather(mine, kw, all.data());
    if (world.rank() != 0) return;
    std::string s = fmt::format("torx: partitioned over {}: {} cycles stepped, {} exchanges; per rank: peak memory "
                                "(node memories' payload at most), bytes sent, stepping / cycle sync / exchange seconds (of "
                                "{:.3f} s run{}):",
                                part_.describe(), ps.cycles_stepped, ps.exchanges, run_seconds,
                                stopped ? ", stopped" : "");
    for (int r = 0; r < world.size(); ++r) {
      const uint64_t* w = &all[static_cast<size_t>(r) * kw];
      s += fmt::format("\n  rank {}: {:.1f} MiB ({:.1f} MiB), {} bytes, {:.3f} / {:.3f} / {:.3f} s", r,
                       w[0] / 1048576.0, w[7] / 1048576.0, w[3], w[4] / 1e6, w[5] / 1e6, w[6] / 1e6);
    }
    std::fprintf(stderr, "%s\n", s.c_str());
  }

  // The forwarding tables the routers forward by (--gossip-hw): a file's (checked like torx tables
  // --check, and against the run), or the algorithm's own (the same torx tables writes).
  const sw::ForwardingTable& gossip_table(const sw::Schedule& schedule, const RunRequest& req) {
    if (req.gossip_tables.empty()) {
      sw::AlgorithmOptions aopt;
      aopt.seed = req.seed;
      plan_ = std::make_unique<sw::GossipPlan>(sw::find_algorithm(req.algorithm)->gossip_plan(req.topology, aopt));
      return plan_->table;
    }
    tables_ = read_forwarding_file(req.gossip_tables);
    verify_forwarding_table(*tables_, req.gossip_tables);
    const sw::Topology t(tables_->dims, true);
    if (!(t == req.topology))
      throw sw::InputError(fmt::format("--gossip-tables {}: the tables are for the {}, the run is on the {}",
                                       req.gossip_tables, t.to_string(), req.topology.to_string()));
    if (tables_->pieces != schedule.header.pieces)
      throw sw::InputError(fmt::format("--gossip-tables {}: the tables move {} pieces per node, the schedule {}",
                                       req.gossip_tables, tables_->pieces, schedule.header.pieces));
    return *tables_;
  }

  std::unique_ptr<const model::RouterFactory> routers_;    // null: the C++ routers
  std::unique_ptr<const model::BarrierFactory> barriers_;  // null: the C++ barrier logic
  std::unique_ptr<sw::GossipPlan> plan_;
  std::optional<sw::ForwardingTable> tables_;
  std::unique_ptr<model::CycleNetwork> net_;
  model::Partition part_;  // a partitioned run's
};

}  // namespace

model::CycleOptions cycle_options(const NetworkRequest& r) {
  model::CycleOptions o;
  o.params = r.params;  // as run (validate_request, validate_cosim)
  o.cost = r.cost;
  o.sync = r.sync;
  o.seed = r.seed;
  o.ports = r.ports;
  return o;
}

std::unique_ptr<Backend> make_cycle_backend(std::unique_ptr<const model::RouterFactory> routers,
                                            std::unique_ptr<const model::BarrierFactory> barriers) {
  return std::make_unique<CycleBackend>(std::move(routers), std::move(barriers));
}

void check_cycle_sizes(std::string_view model, const sw::CostModel& cost) {
  if (cost.flit_bytes > model::kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the {} model carries 1 to {} bytes per flit", cost.flit_bytes,
                                     model, model::kMaxFlitBytes));
  if (cost.block_bytes > model::kMaxBlockBytes)
    throw sw::InputError(fmt::format("--block-bytes {}: the {} model takes blocks of up to {} bytes", cost.block_bytes,
                                     model, model::kMaxBlockBytes));
}

void check_cycle_memory(const RunRequest& r) {
  // The network alone (routers, links, interfaces, images, elaboration), before the schedule is
  // generated: a network too large for the memory stops here, at once. The loader checks the whole
  // estimate (node memories and program included) before it allocates.
  const int classes = (r.topology.wrap() && r.params.dateline ? 2 : 1) * std::max(1, r.params.order_classes);
  const model::MemoryEstimate e = model::estimate_network(r.topology, r.params, r.ports.value_or(sw::PortModel::kOne),
                                                          r.cost.flit_bytes, classes, /*systemc=*/true);
  sw::require_memory(r.memory_limit ? *r.memory_limit : sw::default_memory_limit(), e.total(),
                     fmt::format("the {} model of the {}", model_name(r.model), r.topology.to_string()), e.parts());
}

}  // namespace torx::app
