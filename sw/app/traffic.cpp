// SPDX-License-Identifier: Apache-2.0
#include "app/traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"

#ifdef TORX_HAVE_MODELS
#include "models/traffic_run.hpp"
#endif
#ifdef TORX_HAVE_RTL
#include "hw/rtl_router.hpp"
#endif

namespace torx::app {

namespace {

using json = nlohmann::ordered_json;

constexpr size_t kMaxRates = 1000;
constexpr uint64_t kMaxPhaseCycles = uint64_t{1} << 40;
constexpr const char* kFaults[] = {"corrupt", "misdeliver", "drop", "duplicate"};

double parse_number(const std::string& text, const char* option) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !std::isfinite(v))
    throw sw::InputError(fmt::format("{} '{}': not a number", option, text));
  return v;
}

void check_rate(double v, const char* option) {
  if (!(v > 0 && v <= 1))
    throw sw::InputError(fmt::format("{} {}: a rate must be in (0, 1] flits per node and cycle", option, v));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    const size_t q = s.find(sep, p);
    out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
}

}  // namespace

std::vector<double> parse_rates(const std::string& text, const char* option) {
  std::vector<double> rates;
  if (text.find(':') != std::string::npos) {
    const std::vector<std::string> f = split(text, ':');
    if (f.size() != 3) throw sw::InputError(fmt::format("{} {}: a range is FROM:TO:STEP (0.05:0.5:0.05)", option, text));
    const double a = parse_number(f[0], option), b = parse_number(f[1], option), s = parse_number(f[2], option);
    check_rate(a, option);
    check_rate(b, option);
    if (!(s > 0) || b < a) throw sw::InputError(fmt::format("{} {}: needs FROM <= TO and a positive STEP", option, text));
    const double n = std::floor((b - a) / s + 1e-9) + 1;
    if (n > kMaxRates) throw sw::InputError(fmt::format("{} {}: more than {} rates", option, text, kMaxRates));
    for (int k = 0; k < static_cast<int>(n); ++k) rates.push_back(std::round((a + k * s) * 1e9) / 1e9);
  } else {
    for (const std::string& w : split(text, ',')) {
      const double v = parse_number(w, option);
      check_rate(v, option);
      rates.push_back(v);
    }
    if (rates.size() > kMaxRates) throw sw::InputError(fmt::format("{}: more than {} rates", option, kMaxRates));
  }
  std::sort(rates.begin(), rates.end());
  rates.erase(std::unique(rates.begin(), rates.end()), rates.end());
  return rates;
}

std::vector<std::pair<uint32_t, double>> parse_packet_sizes(const std::string& text, const char* option) {
  std::vector<std::pair<uint32_t, double>> out;
  for (const std::string& item : split(text, ',')) {
    const size_t colon = item.find(':');
    const std::string sz = item.substr(0, colon);
    char* end = nullptr;
    errno = 0;
    const unsigned long long f = std::strtoull(sz.c_str(), &end, 10);
    if (sz.empty() || *end || errno || sz[0] == '-' || f < 1 || f > 4096)
      throw sw::InputError(fmt::format("{} {}: '{}' is not a packet length of 1 to 4096 flits", option, text, sz));
    double w = 1;
    if (colon != std::string::npos) {
      w = parse_number(item.substr(colon + 1), option);
      if (!(w > 0) || w > 1e12) throw sw::InputError(fmt::format("{} {}: weights must be positive", option, text));
    }
    out.emplace_back(static_cast<uint32_t>(f), w);
  }
  if (out.size() > 64) throw sw::InputError(fmt::format("{} {}: at most 64 packet lengths", option, text));
  return out;
}

#ifdef TORX_HAVE_MODELS

bool traffic_available() { return true; }

std::string traffic_patterns() {
  std::string s = model::pattern_names();
  for (size_t p = s.find(", "); p != std::string::npos; p = s.find(", ", p)) s.replace(p, 2, "|");
  return s;
}

namespace {

struct Prepared {
  model::PatternSpec spec;
  model::TrafficRunConfig cfg;
};

Prepared prepare(const TrafficRequest& r) {
  Prepared p;
  if (r.model != ModelKind::kCycle && r.model != ModelKind::kRtl)
    throw sw::InputError(fmt::format("--model {}: synthetic traffic runs on the cycle or rtl model", model_name(r.model)));
  if (!model_available(r.model))
    throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(r.model)));
  const std::optional<model::PatternKind> kind = model::parse_pattern(r.pattern);
  if (!kind)
    throw sw::InputError(fmt::format("--pattern {}: not a pattern (known: {})", r.pattern, model::pattern_names()));
  p.spec.kind = *kind;
  if (*kind != model::PatternKind::kHotSpot && (!r.hotspots.empty() || r.hotspot_fraction))
    throw sw::InputError("--hotspot and --hotspot-fraction go with --pattern hot-spot");
  if (*kind != model::PatternKind::kMatrix && !r.matrix.empty())
    throw sw::InputError("--matrix FILE goes with --pattern matrix");
  if (*kind == model::PatternKind::kHotSpot) {
    if (!r.hotspots.empty()) p.spec.hotspots = r.hotspots;
    if (r.hotspot_fraction) p.spec.hotspot_fraction = *r.hotspot_fraction;
  }
  if (*kind == model::PatternKind::kMatrix) {
    if (r.matrix.empty()) throw sw::InputError("--pattern matrix needs --matrix FILE (docs/traffic.md, \"Matrix files\")");
    p.spec.matrix = model::read_traffic_matrix(r.matrix, r.topology);
  }
  if (r.rates.empty() && !r.search) throw sw::InputError("give --rate R, or --sweep RATES|auto");
  for (double v : r.rates) check_rate(v, "--rate");
  if (r.search && !(r.search_tolerance >= 0.001 && r.search_tolerance <= 0.5))
    throw sw::InputError(fmt::format("--sweep-tolerance {}: must be 0.001 to 0.5", r.search_tolerance));
  model::TrafficRunConfig& c = p.cfg;
  c.params = r.params;
  c.flit_bytes = r.flit_bytes;
  c.warmup = r.warmup;
  c.measure = r.measure;
  c.drain_limit = r.drain;
  if (r.measure < 1 || r.measure > kMaxPhaseCycles || r.warmup > kMaxPhaseCycles || r.drain > kMaxPhaseCycles)
    throw sw::InputError("--warmup, --measure and --drain: 0 to 2^40 cycles (--measure at least 1)");
  if (!(r.saturation_ratio > 0 && r.saturation_ratio <= 1))
    throw sw::InputError(fmt::format("--saturation-ratio {}: must be in (0, 1]", r.saturation_ratio));
  c.saturation_ratio = r.saturation_ratio;
  c.memory_limit = r.memory_limit;
  model::SyntheticConfig& s = c.source;
  s.seed = r.seed;
  s.random_ties = r.random_ties;
  s.queue_limit = r.queue_limit;
  if (r.packet_sizes.empty()) throw sw::InputError("--packet-dist: no packet length");
  s.sizes.clear();
  s.size_weights.clear();
  for (const auto& [f, w] : r.packet_sizes) {
    s.sizes.push_back(f);
    s.size_weights.push_back(w);
  }
  if (r.injection == "bernoulli") {
    if (r.burst_alpha || r.burst_beta || r.burst_r1)
      throw sw::InputError("--burst-alpha, --burst-beta and --burst-r1 go with --injection on_off");
  } else if (r.injection == "on_off") {
    s.injection.kind = model::InjectionKind::kOnOff;
    const int given = !!r.burst_alpha + !!r.burst_beta + !!r.burst_r1;
    if (given != 2)
      throw sw::InputError("--injection on_off: give two of --burst-alpha, --burst-beta, --burst-r1 (the third "
                           "follows from the rate: rate = r1 alpha / (alpha + beta))");
    for (const auto& [name, v] : {std::pair{"--burst-alpha", r.burst_alpha}, std::pair{"--burst-beta", r.burst_beta},
                                  std::pair{"--burst-r1", r.burst_r1}})
      if (v && !(*v > 0 && *v <= 1)) throw sw::InputError(fmt::format("{} {}: must be in (0, 1]", name, *v));
  } else {
    throw sw::InputError(fmt::format("--injection {}: must be bernoulli or on_off", r.injection));
  }
  if (!r.fault.empty() && std::find_if(std::begin(kFaults), std::end(kFaults), [&](const char* f) {
                            return r.fault == f;
                          }) == std::end(kFaults))
    throw sw::InputError(fmt::format("--fault {}: must be corrupt, misdeliver, drop or duplicate", r.fault));
  s.fault = r.fault == "corrupt"      ? model::TrafficFault::kCorrupt
            : r.fault == "misdeliver" ? model::TrafficFault::kMisdeliver
            : r.fault == "drop"       ? model::TrafficFault::kDrop
            : r.fault == "duplicate"  ? model::TrafficFault::kDuplicate
                                      : model::TrafficFault::kNone;
  if (r.params.priority_levels != sw::NetworkParams{}.priority_levels || r.params.order_classes != 0)
    throw sw::InputError("--param priority_levels and order_classes: synthetic traffic runs the plain router in "
                         "dimension order (one priority level, one order class)");
  return p;
}

// The on-off parameters of one rate: the one not given follows from the rate (BookSim's
// OnOffInjectionProcess); each must be a probability.
model::InjectionSpec injection_for(const TrafficRequest& r, double rate) {
  model::InjectionSpec in;
  if (r.injection != "on_off") return in;
  in.kind = model::InjectionKind::kOnOff;
  double a = r.burst_alpha.value_or(0), b = r.burst_beta.value_or(0), r1 = r.burst_r1.value_or(0);
  if (!r.burst_r1) r1 = rate * (a + b) / a;
  else if (!r.burst_alpha) a = r1 > rate ? b * rate / (r1 - rate) : 2;
  else b = a * (r1 - rate) / rate;
  if (!(r1 > 0 && r1 <= 1 + 1e-12) || r1 < rate * (1 - 1e-12))
    throw sw::InputError(fmt::format("--injection on_off at rate {}: the on-state rate burst_r1 = {:.4g} flits per "
                                     "cycle must be in [rate, 1]",
                                     rate, r1));
  if (!(a > 0 && a <= 1) || !(b >= 0 && b <= 1))
    throw sw::InputError(fmt::format("--injection on_off at rate {}: burst_alpha = {:.4g}, burst_beta = {:.4g} must be "
                                     "probabilities",
                                     rate, a, b));
  in.alpha = a;
  in.beta = b;
  in.r1 = std::min(r1, 1.0);
  return in;
}

json latency_json(const model::LatencyFigures& f) {
  return json{{"count", f.count},
              {"mean", f.mean},
              {"min", f.min},
              {"p50", f.p50},
              {"p99", f.p99},
              {"max", f.max},
              {"histogram", {{"bin_width", f.bin_width}, {"counts", f.histogram}}}};
}

json run_json(const model::TrafficRunResult& x, const sw::Topology& topo, const model::InjectionSpec& in) {
  json j;
  j["rate"] = x.rate;
  if (in.kind == model::InjectionKind::kOnOff)
    j["burst"] = {{"burst_alpha", in.alpha}, {"burst_beta", in.beta}, {"burst_r1", in.r1}};
  j["offered"] = x.offered;
  j["injected"] = x.injected;
  j["accepted"] = x.accepted;
  j["saturated"] = x.saturated;
  j["saturation_reason"] = x.saturation_reason;
  j["packet_latency"] = latency_json(x.packet_latency);
  j["network_latency"] = latency_json(x.network_latency);
  j["latency_complete"] = x.latency_complete;
  j["hops_mean"] = x.hops_mean;
  j["packets"] = {{"created", x.packets_created},       {"tagged", x.packets_tagged},
                  {"tagged_delivered", x.tagged_delivered}, {"delivered", x.packets_delivered},
                  {"refused", x.packets_refused},       {"never_injected", x.never_injected}};
  j["links"] = {{"utilization_mean", x.link_utilization_mean},
                {"utilization_max", x.link_utilization_max},
                {"busiest", x.busiest_link >= 0 ? topo.link_name(x.busiest_link) : std::string()},
                {"flits", x.link_flits}};
  j["cycles"] = {{"total", x.cycles}, {"drain", x.drain_cycles}, {"flush", x.flush_cycles}};
  j["check"] = {{"ok", x.check_ok()},
                {"flits", x.check.flits},
                {"lost", x.lost},
                {"corrupted", x.check.corrupted},
                {"misdelivered", x.check.misdelivered},
                {"duplicated", x.check.duplicated},
                {"out_of_order", x.check.out_of_order},
                {"unknown", x.check.unknown},
                {"summary", x.check_summary()}};
  j["sim"] = {{"router_cycles", x.router_cycles}, {"flit_hops", x.flit_hops}, {"wall_seconds", x.wall_seconds}};
  return j;
}

}  // namespace

void validate_traffic(const TrafficRequest& r) {
  const Prepared p = prepare(r);
  const model::DestinationPattern pattern(p.spec, r.topology);
  model::validate_traffic_run(r.topology, p.cfg);
  for (double v : r.rates) injection_for(r, v);
}

TrafficReport run_traffic(const TrafficRequest& r, const TrafficProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const Prepared p = prepare(r);
  const model::DestinationPattern pattern(p.spec, r.topology);
#ifdef TORX_HAVE_RTL
  const rtl::RtlRouterFactory rtl_routers;
  const model::RouterFactory* routers = r.model == ModelKind::kRtl ? &rtl_routers : nullptr;
#else
  const model::RouterFactory* routers = nullptr;
#endif
  std::vector<std::pair<double, json>> runs;
  TrafficReport rep;
  auto run_one = [&](double rate) -> const model::TrafficRunResult {
    model::TrafficRunConfig c = p.cfg;
    c.source.rate = rate;
    c.source.injection = injection_for(r, rate);
    const model::TrafficRunResult x = model::run_traffic(r.topology, c, pattern, routers);
    runs.emplace_back(rate, run_json(x, r.topology, c.source.injection));
    if (!x.check_ok()) {
      rep.check_ok = false;
      rep.check_failures += fmt::format("rate {}: {}\n", rate, x.check_summary());
    }
    if (progress) progress(TrafficPointProgress{runs.size(), rate, x.saturated, x.wall_seconds});
    return x;
  };
  json saturation = nullptr;
  for (double rate : r.rates) run_one(rate);
  if (r.search) {
    // Bisection on the offered rate between an unsaturated and a saturated one (the stated
    // criterion), from (0, 1], until they are within the tolerance.
    double lo = 0, hi = 1, lo_accepted = 0;
    const model::TrafficRunResult top = run_one(1.0);
    if (!top.saturated) {
      lo = 1.0;
      lo_accepted = top.accepted;
    } else {
      while (hi - lo > r.search_tolerance) {
        const double mid = (lo + hi) / 2;
        const model::TrafficRunResult x = run_one(mid);
        if (x.saturated) {
          hi = mid;
        } else {
          lo = mid;
          lo_accepted = x.accepted;
        }
      }
    }
    saturation = {{"method", "bisection on the offered rate with the saturation criterion"},
                  {"tolerance", r.search_tolerance},
                  {"highest_unsaturated", lo},
                  {"lowest_saturated", top.saturated ? json(hi) : json(nullptr)},
                  {"throughput", lo_accepted}};
  }
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });

  json doc;
  doc["schema"] = "torx.traffic/1";
  doc["label"] = r.label;
  doc["topology"] = {{"dims", r.topology.radices()}, {"wrap", r.topology.wrap()}, {"nodes", r.topology.nodes()}};
  doc["model"] = std::string(model_name(r.model));
  json pat = {{"name", r.pattern}, {"description", pattern.describe(r.topology)}};
  if (p.spec.kind == model::PatternKind::kHotSpot) {
    json hs = json::array();
    for (sw::NodeId h : p.spec.hotspots) hs.push_back(r.topology.node_name(h));
    pat["hotspots"] = hs;
    pat["hotspot_fraction"] = p.spec.hotspot_fraction;
  }
  if (p.spec.kind == model::PatternKind::kMatrix) {
    pat["matrix"] = r.matrix;
    pat["entries"] = p.spec.matrix.entries;
  }
  doc["pattern"] = pat;
  json inj = {{"process", r.injection}};
  if (r.burst_alpha) inj["burst_alpha"] = *r.burst_alpha;
  if (r.burst_beta) inj["burst_beta"] = *r.burst_beta;
  if (r.burst_r1) inj["burst_r1"] = *r.burst_r1;
  doc["injection"] = inj;
  json sizes = json::array();
  for (const auto& [f, w] : r.packet_sizes) sizes.push_back({{"flits", f}, {"weight", w}});
  doc["packet_sizes"] = sizes;
  doc["mean_packet_flits"] = p.cfg.source.mean_size();
  doc["flit_bytes"] = r.flit_bytes;
  doc["routes"] = fmt::format("dimension order from x, the shorter way round each ring, ties {}",
                              r.random_ties ? "random" : "+");
  doc["phases"] = {{"warmup", r.warmup}, {"measure", r.measure}, {"drain_limit", r.drain}};
  doc["saturation_criterion"] = {
      {"ratio", r.saturation_ratio},
      {"queue_limit", r.queue_limit},
      {"text", fmt::format("saturated if accepted < {:g} x offered in the window, a source queue reached {} packets, "
                           "or a measured packet had not arrived {} cycles after the window",
                           r.saturation_ratio, r.queue_limit, r.drain)}};
  doc["seed"] = r.seed;
  sw::NetworkParams params = r.params;
  params.order_classes = 1;
  params.priority_levels = 1;
  json pj = json::object();
  for (const auto& [name, value] : sw::param_values(params)) pj[name] = value;
  doc["params"] = pj;
  if (!r.fault.empty()) doc["fault"] = r.fault;
  doc["sweep"] = r.search ? "search" : r.rates.size() > 1 ? "list" : "single";
  json arr = json::array();
  for (auto& [rate, j] : runs) arr.push_back(std::move(j));
  doc["runs"] = arr;
  doc["saturation"] = saturation;
  doc["check"] = {{"ok", rep.check_ok}};
  doc["wall_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.json = doc.dump(2) + "\n";
  rep.table = traffic_table(rep.json, "the run");
  rep.csv = traffic_csv(rep.json, "the run");
  return rep;
}

#else

bool traffic_available() { return false; }
std::string traffic_patterns() { return ""; }
void validate_traffic(const TrafficRequest&) {
  throw sw::InputError("traffic: this build has no cycle model (TORX_BUILD_MODELS=OFF)");
}
TrafficReport run_traffic(const TrafficRequest& r, const TrafficProgressFn&) {
  validate_traffic(r);
  return {};
}

#endif

namespace {

json parse_traffic_doc(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw sw::InputError(fmt::format("{}: not a JSON document: {}", origin, e.what()));
  }
  if (!doc.is_object() || doc.value("schema", std::string()) != "torx.traffic/1" || !doc.contains("runs") ||
      !doc["runs"].is_array())
    throw sw::InputError(fmt::format("{}: not a traffic document (schema torx.traffic/1, written by torx traffic --json)",
                                     origin));
  return doc;
}

std::string topology_words(const json& doc) {
  std::string dims;
  for (const json& r : doc["topology"]["dims"]) dims += (dims.empty() ? "" : "x") + std::to_string(r.get<int>());
  return dims + (doc["topology"].value("wrap", true) ? " torus" : " mesh");
}

}  // namespace

std::string traffic_table(const std::string& text, const std::string& origin) {
  const json doc = parse_traffic_doc(text, origin);
  try {
    std::string s = fmt::format(
        "torx traffic on the {}: {}, {} model, {:g}-flit packets on average, warm-up {}, measured {} cycles\n",
        topology_words(doc), doc["pattern"]["description"].get<std::string>(), doc["model"].get<std::string>(),
        doc["mean_packet_flits"].get<double>(), doc["phases"]["warmup"].get<uint64_t>(),
        doc["phases"]["measure"].get<uint64_t>());
    s += "  rates and throughputs in flits/node/cycle; latencies in cycles (packet: created to tail ejected;\n"
         "  network: head injected to tail ejected)\n";
    s += fmt::format("  {:>7} {:>8} {:>8}  {:>8} {:>6} {:>6} {:>6}  {:>8} {:>5}  {:>5}\n", "rate", "offered",
                     "accepted", "pkt lat", "p50", "p99", "max", "net lat", "hops", "link");
    for (const json& x : doc["runs"]) {
      const json& pl = x["packet_latency"];
      std::string note;
      if (x["saturated"].get<bool>()) note = "saturated";
      if (!x["check"]["ok"].get<bool>()) note += (note.empty() ? "" : ", ") + std::string("CHECK FAILED");
      s += fmt::format("  {:>7.4f} {:>8.4f} {:>8.4f}  {:>8.2f} {:>6} {:>6} {:>6}  {:>8.2f} {:>5.2f}  {:>5.3f}  {}\n",
                       x["rate"].get<double>(), x["offered"].get<double>(), x["accepted"].get<double>(),
                       pl["mean"].get<double>(), pl["p50"].get<uint64_t>(), pl["p99"].get<uint64_t>(),
                       pl["max"].get<uint64_t>(), x["network_latency"]["mean"].get<double>(),
                       x["hops_mean"].get<double>(), x["links"]["utilization_max"].get<double>(), note);
    }
    if (doc.contains("saturation") && !doc["saturation"].is_null()) {
      const json& sat = doc["saturation"];
      s += sat["lowest_saturated"].is_null()
               ? fmt::format("  saturation: not reached at rate 1 (accepted {:.4f})\n", sat["throughput"].get<double>())
               : fmt::format("  saturation: between rates {:.4f} and {:.4f}; accepted {:.4f} at {:.4f}\n",
                             sat["highest_unsaturated"].get<double>(), sat["lowest_saturated"].get<double>(),
                             sat["throughput"].get<double>(), sat["highest_unsaturated"].get<double>());
    }
    s += "  (link: the busiest link's utilization; " + doc["saturation_criterion"]["text"].get<std::string>() + ")\n";
    // No trailing blanks (empty last columns).
    std::string out;
    for (size_t p = 0; p < s.size();) {
      size_t q = s.find('\n', p);
      std::string line = s.substr(p, q - p);
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
      p = q + 1;
    }
    return out;
  } catch (const json::exception& e) {
    throw sw::InputError(fmt::format("{}: a field of the traffic document is missing or of the wrong type: {}", origin,
                                     e.what()));
  }
}

std::string traffic_csv(const std::string& text, const std::string& origin) {
  const json doc = parse_traffic_doc(text, origin);
  try {
    std::string s =
        "label,topology,pattern,model,rate,offered,injected,accepted,plat_mean,plat_p50,plat_p99,plat_max,nlat_mean,"
        "nlat_p50,nlat_p99,nlat_max,hops_mean,link_util_mean,link_util_max,saturated,check_ok\n";
    std::string label = doc.value("label", std::string());
    for (char& c : label)
      if (c == ',' || c == '"' || c == '\n') c = ' ';
    for (const json& x : doc["runs"]) {
      const json& pl = x["packet_latency"];
      const json& nl = x["network_latency"];
      s += fmt::format("{},{},{},{},{:.6g},{:.6f},{:.6f},{:.6f},{:.4f},{},{},{},{:.4f},{},{},{},{:.4f},{:.6f},{:.6f},{},{}\n",
                       label, topology_words(doc), doc["pattern"]["name"].get<std::string>(),
                       doc["model"].get<std::string>(), x["rate"].get<double>(), x["offered"].get<double>(),
                       x["injected"].get<double>(), x["accepted"].get<double>(), pl["mean"].get<double>(),
                       pl["p50"].get<uint64_t>(), pl["p99"].get<uint64_t>(), pl["max"].get<uint64_t>(),
                       nl["mean"].get<double>(), nl["p50"].get<uint64_t>(), nl["p99"].get<uint64_t>(),
                       nl["max"].get<uint64_t>(), x["hops_mean"].get<double>(),
                       x["links"]["utilization_mean"].get<double>(), x["links"]["utilization_max"].get<double>(),
                       x["saturated"].get<bool>() ? 1 : 0, x["check"]["ok"].get<bool>() ? 1 : 0);
    }
    return s;
  } catch (const json::exception& e) {
    throw sw::InputError(fmt::format("{}: a field of the traffic document is missing or of the wrong type: {}", origin,
                                     e.what()));
  }
}

}  // namespace torx::app
