// SPDX-License-Identifier: Apache-2.0
// torx rtl (rtl_cmd.hpp). With the RTL (TORX_HAVE_RTL): the cache and the catalog of hw/rtl_router.hpp;
// without it, each command says that this build has no RTL model.
#include "app/rtl_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <set>
#include <thread>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

#ifdef TORX_HAVE_RTL
#include "hw/rtl_router.hpp"
#endif

namespace torx::app {

#ifdef TORX_HAVE_RTL

bool rtl_available() { return true; }

void set_rtl_cache(const std::string& dir) {
  rtl::RtlCacheOptions o;
  o.dir = dir;
  rtl::configure_rtl_models(o);
}

std::string rtl_list(bool json) {
  rtl::RtlCache& c = rtl::rtl_cache();
  const auto entries = c.list();
  if (json) {
    nlohmann::ordered_json j;
    j["format"] = "torx.rtl-cache/1";
    j["dir"] = c.dir().string();
    j["entries"] = nlohmann::ordered_json::array();
    for (const auto& e : entries)
      j["entries"].push_back({{"entry", e.dir_name},
                              {"name", e.name},
                              {"top", e.top},
                              {"params", e.params},
                              {"bytes", e.bytes},
                              {"build_seconds", e.build_seconds},
                              {"built_at", e.built_at},
                              {"kit", e.kit},
                              {"valid", e.valid},
                              {"problem", e.problem}});
    return j.dump(2) + "\n";
  }
  std::string out = fmt::format("RTL model cache {}: {} entr{}\n", c.dir().string(), entries.size(),
                                entries.size() == 1 ? "y" : "ies");
  for (const auto& e : entries)
    out += fmt::format("  {:<24} {:<19} {:>6.1f} MB  built in {:>4.0f} s at {}  {}\n    {}\n", e.name, e.top,
                       static_cast<double>(e.bytes) / 1e6, e.build_seconds, e.built_at,
                       e.valid ? "ok" : "DAMAGED (" + e.problem + "; rebuilt on next use)", e.params);
  return out;
}

std::string rtl_clean(const std::string& filter) {
  rtl::RtlCache& c = rtl::rtl_cache();
  const int n = c.clean(filter);
  return fmt::format("removed {} entr{} from {}\n", n, n == 1 ? "y" : "ies", c.dir().string());
}

// Builds the models of `specs` that the cache does not hold, one thread each (each build runs its
// own Verilator and compilers; the entries' locks keep another torx from building one twice);
// returns a line per model, "built NAME: PATH" or "cached NAME: PATH".
static std::string ensure_all(const std::vector<rtl::RtlModelSpec>& specs) {
  rtl::RtlCache& c = rtl::rtl_cache();
  if (specs.empty()) return "";
  c.make_writable();  // a fallback directory is chosen before the threads start
  std::vector<std::exception_ptr> errors(specs.size());
  std::vector<std::string> paths(specs.size());
  std::vector<char> built(specs.size(), 0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < specs.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        bool b = false;
        paths[i] = c.ensure(specs[i], &b).string();
        built[i] = b;
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i)
    out += fmt::format("{} {}: {}\n", built[i] ? "built" : "cached", specs[i].name, paths[i]);
  return out;
}

std::string rtl_build_run(RunRequest req) {
  req.model = ModelKind::kRtl;
  req.trace.clear();
  req.trace_routers.clear();
  // The models the run needs (noted by a run on C++ routers; one run per process: SystemC cannot
  // elaborate twice), then built at the same time: the barrier unit compiles while the router is
  // still in Verilator (one process), so a first use costs about the CPU time over two cores, not
  // the router's build plus the barrier unit's.
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kPlan);
  const RunReport rep = run(req);
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kSimulate);
  (void)rep;
  return ensure_all(rtl::rtl_planned_models());
}

std::string rtl_params_run(RunRequest req) {
  req.model = ModelKind::kRtl;
  req.trace.clear();
  req.trace_routers.clear();
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kPlan);
  const RunReport rep = run(req);
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kSimulate);
  (void)rep;
  std::string out;
  for (const auto& s : rtl::rtl_planned_models()) out += fmt::format("{} {} {}\n", s.name, s.top, s.param_args());
  return out;
}

std::string rtl_build_catalog(const std::vector<std::string>& given) {
  std::vector<std::string> names;  // `--catalog` alone gives one empty word
  for (const std::string& n : given)
    if (!n.empty()) names.push_back(n);
  rtl::RtlCache& c = rtl::rtl_cache();
  std::vector<rtl::RtlModelSpec> specs;
  for (const auto* table : {&rtl::rtl_router_configs(), &rtl::rtl_gossip_router_configs()})
    for (const auto& k : *table) specs.push_back(rtl::rtl_config_spec(k));
  for (const auto& b : rtl::rtl_barrier_configs()) specs.push_back(rtl::rtl_barrier_spec(b.ndims));
  std::string out;
  for (const std::string& n : names) {
    bool known = false;
    for (const auto& s : specs) known = known || s.name == n;
    if (!known) {
      std::string all;
      for (const auto& s : specs) all += (all.empty() ? "" : ", ") + s.name;
      throw sw::InputError(fmt::format("--catalog: no catalog configuration '{}' (catalog: {})", n, all));
    }
  }
  for (const auto& s : specs) {
    if (!names.empty() && std::find(names.begin(), names.end(), s.name) == names.end()) continue;
    bool built = false;
    const auto path = c.ensure(s, &built);
    out += fmt::format("{} {}: {}\n", built ? "built" : "cached", s.name, path.string());
  }
  return out;
}

std::string rtl_catalog_params() {
  std::string out;
  for (const auto* table : {&rtl::rtl_router_configs(), &rtl::rtl_gossip_router_configs()})
    for (const auto& k : *table) {
      const rtl::RtlModelSpec s = rtl::rtl_config_spec(k);
      out += fmt::format("{} {} {}\n", s.name, s.top, s.param_args());
    }
  for (const auto& b : rtl::rtl_barrier_configs()) {
    const rtl::RtlModelSpec s = rtl::rtl_barrier_spec(b.ndims);
    out += fmt::format("{} {} {}\n", s.name, s.top, s.param_args());
  }
  return out;
}

#else

namespace {
[[noreturn]] void no_rtl() {
  throw sw::InputError("torx rtl: this build has no RTL model (configured with -DTORX_BUILD_RTL=OFF or without "
                       "Verilator)");
}
}  // namespace

bool rtl_available() { return false; }
void set_rtl_cache(const std::string&) {}
std::string rtl_list(bool) { no_rtl(); }
std::string rtl_clean(const std::string&) { no_rtl(); }
std::string rtl_build_run(RunRequest) { no_rtl(); }
std::string rtl_params_run(RunRequest) { no_rtl(); }
std::string rtl_build_catalog(const std::vector<std::string>&) { no_rtl(); }
std::string rtl_catalog_params() { no_rtl(); }

#endif

}  // namespace torx::app
