// SPDX-License-Identifier: Apache-2.0
// torx rtl (rtl_cmd.hpp). With the RTL (TORX_HAVE_RTL): the cache and the catalog of hw/rtl_router.hpp;
// without it, each command says that this build has no RTL model.
#include "app/rtl_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
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

namespace {
std::string loaded_text(size_t from) {
  std::string out;
  const auto v = rtl::rtl_loaded_models();
  for (size_t i = from; i < v.size(); ++i)
    out += fmt::format("{} {}: {}\n", v[i].built ? "built" : "cached", v[i].name, v[i].path);
  return out;
}
}  // namespace

std::string rtl_build_run(RunRequest req) {
  req.model = ModelKind::kRtl;
  req.trace.clear();
  req.trace_routers.clear();
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kBuildOnly);
  const RunReport rep = run(req);
  rtl::set_rtl_factory_mode(rtl::RtlFactoryMode::kSimulate);
  (void)rep;
  return loaded_text(0);
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
