// SPDX-License-Identifier: Apache-2.0
// The one place that knows which models this build has: the step model always; the cycle model when
// the models are built (SystemC: TORX_HAVE_MODELS); the rtl model and torx cosim when hw/ is too
// (Verilator: TORX_HAVE_RTL). torx traffic runs on the cycle and rtl models. Everything else asks model_entry(), model_available() or make_backend().
#include <fmt/format.h>

#include "app/backends.hpp"
#include "core/errors.hpp"

#ifdef TORX_HAVE_MODELS
#include "models/barrier_core.hpp"
#include "models/router_block.hpp"
#endif
#ifdef TORX_HAVE_RTL
#include "hw/rtl_foreign.hpp"
#include "hw/rtl_router.hpp"
#endif

namespace torx::app {

namespace {

#ifdef TORX_HAVE_MODELS
std::unique_ptr<Backend> make_cycle() { return make_cycle_backend(nullptr, nullptr); }
TrafficReport traffic_cycle(const TrafficRequest& r, const TrafficProgressFn& progress) {
  return run_synthetic(r, nullptr, progress);
}
#endif
#ifdef TORX_HAVE_RTL
// The rtl model's routers: torx_router, or the foreign top of --rtl-router.
std::unique_ptr<const model::RouterFactory> rtl_routers() {
  if (rtl::foreign_router_set()) return std::make_unique<rtl::ForeignRouterFactory>();
  return std::make_unique<rtl::RtlRouterFactory>();
}
std::unique_ptr<Backend> make_rtl() {
  return make_cycle_backend(rtl_routers(), std::make_unique<rtl::RtlBarrierFactory>());
}
TrafficReport traffic_rtl(const TrafficRequest& r, const TrafficProgressFn& progress) {
  const auto routers = rtl_routers();
  return run_synthetic(r, routers.get(), progress);
}
#endif

const ModelEntry kModels[] = {
    {ModelKind::kStep, true, "step", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
#ifdef TORX_HAVE_MODELS
    {ModelKind::kCycle, true, "cycle-accurate SystemC", make_cycle, check_cycle_sizes, check_cycle_memory, nullptr,
     check_synthetic, traffic_cycle},
#else
    {ModelKind::kCycle, false, "cycle-accurate SystemC", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
#endif
#ifdef TORX_HAVE_RTL
    {ModelKind::kRtl, true, "Verilated RTL", make_rtl, check_cycle_sizes, check_cycle_memory, run_rtl_cosim,
     check_synthetic, traffic_rtl},
#else
    {ModelKind::kRtl, false, "Verilated RTL", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
#endif
};

}  // namespace

const ModelEntry& model_entry(ModelKind m) {
  for (const ModelEntry& e : kModels)
    if (e.kind == m) return e;
  throw std::logic_error("internal error: a model kind without an entry");
}

bool model_available(ModelKind m) { return model_entry(m).built; }

std::string available_model_names(std::string_view sep, std::string_view last) {
  return sw::join_names(kModelNames, sep, last, model_available);
}

void configure_rtl_router(const NetworkRequest& r) {
#ifdef TORX_HAVE_RTL
  rtl::ForeignRouterOptions o;
  o.sources = r.rtl_router;
  o.top = r.rtl_top;
  for (const std::string& p : r.rtl_params) o.params.push_back(rtl::parse_rtl_param(p));
  o.check = r.rtl_check;
  rtl::set_foreign_router(o);
#else
  throw sw::InputError(fmt::format("--rtl-router {}: this build has no Verilated RTL (hw/ needs verilator)",
                                   r.rtl_router.front()));
#endif
}

std::optional<ForeignRouterInfo> foreign_router_info() {
#ifdef TORX_HAVE_RTL
  if (!rtl::foreign_router_set()) return std::nullopt;
  return ForeignRouterInfo{rtl::foreign_router_top(), rtl::foreign_router_sources(), rtl::foreign_router_hash()};
#else
  return std::nullopt;
#endif
}

std::unique_ptr<Backend> make_backend(ModelKind m) {
  const ModelEntry& e = model_entry(m);
  if (!e.make) throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(m)));
  return e.make();
}

}  // namespace torx::app
