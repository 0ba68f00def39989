// SPDX-License-Identifier: Apache-2.0
// torx traffic without a model: the rules a request must meet before any model sees it, the on-off
// parameters of a rate, the dispatch to the model's entry (models.cpp), and the table and CSV of a
// torx.traffic/1 document.
#include "app/traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/backends.hpp"
#include "core/errors.hpp"

namespace torx::app {

namespace {

using json = nlohmann::ordered_json;

constexpr uint64_t kMaxPhaseCycles = uint64_t{1} << 40;

}  // namespace

void check_rate(double v, const char* option) {
  if (!(v > 0 && v <= 1))
    throw sw::InputError(fmt::format("{} {}: a rate must be in (0, 1] flits per node and cycle", option, v));
}

bool traffic_available() { return model_entry(ModelKind::kCycle).traffic != nullptr; }

BurstParams burst_for(const TrafficRequest& r, double rate) {
  BurstParams b;
  if (r.injection != sw::InjectionKind::kOnOff) return b;
  double a = r.burst_alpha.value_or(0), be = r.burst_beta.value_or(0), r1 = r.burst_r1.value_or(0);
  if (!r.burst_r1) r1 = rate * (a + be) / a;
  else if (!r.burst_alpha) a = r1 > rate ? be * rate / (r1 - rate) : 2;
  else be = a * (r1 - rate) / rate;
  if (!(r1 > 0 && r1 <= 1 + 1e-12) || r1 < rate * (1 - 1e-12))
    throw sw::InputError(fmt::format("--injection on_off at rate {}: the on-state rate burst_r1 = {:.4g} flits per "
                                     "cycle must be in [rate, 1]",
                                     rate, r1));
  if (!(a > 0 && a <= 1) || !(be >= 0 && be <= 1))
    throw sw::InputError(fmt::format("--injection on_off at rate {}: burst_alpha = {:.4g}, burst_beta = {:.4g} must be "
                                     "probabilities",
                                     rate, a, be));
  b.alpha = a;
  b.beta = be;
  b.r1 = std::min(r1, 1.0);
  return b;
}

TrafficRequest validate_traffic(TrafficRequest r) {
  const ModelEntry& m = model_entry(r.model);
  if (!m.traffic) {
    if (r.model == ModelKind::kStep)
      throw sw::InputError(fmt::format("--model {}: synthetic traffic runs on the cycle or rtl model", model_name(r.model)));
    throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(r.model)));
  }
  if (r.pattern != sw::PatternKind::kHotSpot && (!r.hotspots.empty() || r.hotspot_fraction))
    throw sw::InputError("--hotspot and --hotspot-fraction go with --pattern hot-spot");
  if (r.pattern != sw::PatternKind::kMatrix && !r.matrix.empty())
    throw sw::InputError("--matrix FILE goes with --pattern matrix");
  if (r.pattern == sw::PatternKind::kMatrix && r.matrix.empty())
    throw sw::InputError("--pattern matrix needs --matrix FILE (docs/traffic.md, \"Matrix files\")");
  if (r.hotspot_fraction && !(*r.hotspot_fraction >= 0 && *r.hotspot_fraction <= 1))
    throw sw::InputError(fmt::format("--hotspot-fraction {}: must be in [0, 1]", *r.hotspot_fraction));
  if (r.rates.empty() && !r.search) throw sw::InputError("give --rate R, or --sweep RATES|auto");
  if (r.rates.size() > kMaxRates) throw sw::InputError(fmt::format("--sweep: more than {} rates", kMaxRates));
  for (double v : r.rates) check_rate(v, r.rates.size() == 1 && !r.search ? "--rate" : "--sweep");
  if (r.search && !(r.search_tolerance >= 0.001 && r.search_tolerance <= 0.5))
    throw sw::InputError(fmt::format("--sweep-tolerance {}: must be 0.001 to 0.5", r.search_tolerance));
  if (r.measure < 1 || r.measure > kMaxPhaseCycles || r.warmup > kMaxPhaseCycles || r.drain > kMaxPhaseCycles)
    throw sw::InputError("--warmup, --measure and --drain: 0 to 2^40 cycles (--measure at least 1)");
  if (!(r.saturation_ratio > 0 && r.saturation_ratio <= 1))
    throw sw::InputError(fmt::format("--saturation-ratio {}: must be in (0, 1]", r.saturation_ratio));
  if (r.packet_sizes.empty()) throw sw::InputError("--packet-dist: no packet length");
  if (r.injection == sw::InjectionKind::kBernoulli) {
    if (r.burst_alpha || r.burst_beta || r.burst_r1)
      throw sw::InputError("--burst-alpha, --burst-beta and --burst-r1 go with --injection on_off");
  } else {
    const int given = !!r.burst_alpha + !!r.burst_beta + !!r.burst_r1;
    if (given != 2)
      throw sw::InputError("--injection on_off: give two of --burst-alpha, --burst-beta, --burst-r1 (the third "
                           "follows from the rate: rate = r1 alpha / (alpha + beta))");
    for (const auto& [name, v] : {std::pair{"--burst-alpha", r.burst_alpha}, std::pair{"--burst-beta", r.burst_beta},
                                  std::pair{"--burst-r1", r.burst_r1}})
      if (v && !(*v > 0 && *v <= 1)) throw sw::InputError(fmt::format("{} {}: must be in (0, 1]", name, *v));
    for (double v : r.rates) burst_for(r, v);
  }
  if (r.params.priority_levels != sw::NetworkParams{}.priority_levels || r.params.order_classes != 0)
    throw sw::InputError("--param priority_levels and order_classes: synthetic traffic runs the plain router in "
                         "dimension order (one priority level, one order class)");
  m.check_traffic(r);
  return r;
}

TrafficReport run_traffic(const TrafficRequest& r, const TrafficProgressFn& progress) {
  const ModelEntry& m = model_entry(r.model);
  if (!m.traffic) throw sw::InputError(fmt::format("--model {}: no synthetic traffic", model_name(r.model)));
  return m.traffic(r, progress);
}

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
