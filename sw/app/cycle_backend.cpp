// SPDX-License-Identifier: Apache-2.0
// The cycle-accurate back ends: --model cycle, the schedule on the SystemC model (models/), and
// --model rtl, the same network with every router and barrier unit a Verilated RTL instance (hw/)
// behind the port-level boundary, bound to the same links and network interfaces. Built when the
// models are (TORX_BUILD_MODELS; the rtl back end when hw/ is too: TORX_HAVE_RTL);
// backends_none.cpp stands in otherwise.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "app/run.hpp"
#include "core/errors.hpp"
#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/registry.hpp"
#include "app/tables_check.hpp"
#include "models/loader.hpp"
#include "models/port_router.hpp"
#ifdef TORX_HAVE_RTL
#include "hw/rtl_router.hpp"
#endif
#include "models/memory_estimate.hpp"

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
  explicit CycleBackend(bool rtl) : rtl_(rtl) {}
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
    o.memory_limit = req.memory_limit;
    if (req.gossip_hw) {
      // Gossip routers store two whole packets per input buffer (docs/gossip.md): a default depth
      // below that grows to it; an explicit one is refused by the router.
      const uint32_t flits = (req.cost.block_bytes + req.cost.flit_bytes - 1) / req.cost.flit_bytes;
      const bool named = std::find(req.params_named.begin(), req.params_named.end(), "buffer_depth") !=
                         req.params_named.end();
      if (!named && o.params.buffer_depth < static_cast<int>(2 * flits)) o.params.buffer_depth = static_cast<int>(2 * flits);
      // The routers forward by forwarding tables: a file's (checked like torx tables --check, and
      // against the run), or the algorithm's own (the same torx tables writes).
      if (!req.gossip_tables.empty()) {
        tables_ = read_forwarding_file(req.gossip_tables);
        verify_forwarding_table(*tables_, req.gossip_tables);
        const sw::Topology t(tables_->dims, true);
        if (!(t == req.topology))
          throw sw::InputError(fmt::format("--gossip-tables {}: the tables are for the {}, the run is on the {}",
                                           req.gossip_tables, t.to_string(), req.topology.to_string()));
        if (tables_->pieces != schedule.header.pieces)
          throw sw::InputError(fmt::format("--gossip-tables {}: the tables move {} pieces per node, the schedule {}",
                                           req.gossip_tables, tables_->pieces, schedule.header.pieces));
        o.gossip = &*tables_;
      } else {
        const sw::Algorithm* algo = sw::find_algorithm(req.algorithm);
        sw::AlgorithmOptions aopt;
        aopt.seed = req.seed;
        plan_ = std::make_unique<sw::GossipPlan>(algo->gossip_plan(req.topology, aopt));
        o.gossip = &plan_->table;
      }
    }
    if (progress)
      o.progress = [&progress](const model::Progress& p) { progress(RunProgress{p.cycle, p.messages_done, p.messages}); };
#ifdef TORX_HAVE_RTL
    if (rtl_) {
      net_ = std::make_unique<model::CycleNetwork>(schedule, req.topology, o, /*connect=*/false, &rtl_routers_,
                                                   &rtl_barriers_);
      for (sw::NodeId v : req.trace_routers) {
        auto* r = dynamic_cast<rtl::RtlRouter*>(&net_->fabric().port_router(v)->core());
        if (!r) throw std::logic_error("internal error: an rtl network with a router that is not RTL");
        r->open_trace(router_trace_path(req.trace, v));
      }
    }
#endif
    if (!net_) net_ = std::make_unique<model::CycleNetwork>(schedule, req.topology, o, /*connect=*/false);
    rep.cycle_model = model::run_cycle_model(*net_, o);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rep.cycle_model->load_seconds = total - rep.cycle_model->run_seconds;
    return net_->memory();
  }

 private:
  bool rtl_;
  std::unique_ptr<sw::GossipPlan> plan_;
  std::optional<sw::ForwardingTable> tables_;
#ifdef TORX_HAVE_RTL
  rtl::RtlRouterFactory rtl_routers_;
  rtl::RtlBarrierFactory rtl_barriers_;
#endif
  std::unique_ptr<model::CycleNetwork> net_;
};

}  // namespace

bool model_available(ModelKind m) {
#ifdef TORX_HAVE_RTL
  if (m == ModelKind::kRtl) return true;
#endif
  return m == ModelKind::kStep || m == ModelKind::kCycle;
}

void check_model_limits(const RunRequest& r) {
  if (r.model == ModelKind::kStep) return;
  if (r.cost.flit_bytes > model::kMaxFlitBytes)
    throw sw::InputError(fmt::format("--flit-bytes {}: the {} model carries 1 to {} bytes per flit", r.cost.flit_bytes,
                                     model_name(r.model), model::kMaxFlitBytes));
  if (r.cost.block_bytes > model::kMaxBlockBytes)
    throw sw::InputError(fmt::format("--block-bytes {}: the {} model takes blocks of up to {} bytes", r.cost.block_bytes,
                                     model_name(r.model), model::kMaxBlockBytes));
  // The network alone (routers, links, interfaces, images, elaboration), before the schedule is
  // generated: a network too large for the memory stops here, at once. The loader checks the whole
  // estimate (node memories and program included) before it allocates.
  sw::NetworkParams params = r.params;
  if (r.sync != sw::SyncMode::kPriority) params.priority_levels = 1;  // as the loader does
  sw::validate(params, r.topology);
  const int classes = (r.topology.wrap() && params.dateline ? 2 : 1) * std::max(1, params.order_classes);
  const model::MemoryEstimate e = model::estimate_network(r.topology, params, r.ports.value_or(sw::PortModel::kOne),
                                                          r.cost.flit_bytes, classes, /*systemc=*/true);
  sw::require_memory(r.memory_limit ? *r.memory_limit : sw::default_memory_limit(), e.total(),
                     fmt::format("the {} model of the {}", model_name(r.model), r.topology.to_string()), e.parts());
}

std::unique_ptr<Backend> make_backend(ModelKind m) {
  if (m == ModelKind::kCycle) return std::make_unique<CycleBackend>(false);
  if (m == ModelKind::kRtl && model_available(m)) return std::make_unique<CycleBackend>(true);
  throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(m)));
}

}  // namespace torx::app
