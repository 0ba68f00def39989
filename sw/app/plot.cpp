// SPDX-License-Identifier: Apache-2.0
#include "app/plot.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/errors.hpp"
#include "core/quote.hpp"
#include "core/topology.hpp"

namespace torx::app {

namespace {

using json = nlohmann::json;
using sw::InputError;

constexpr int64_t kMaxPlotNodes = 65536;

// Viridis, sampled at nine points; t in [0, 1].
std::string colour(double t) {
  static constexpr double kStops[9][3] = {{68, 1, 84},     {71, 44, 122},  {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
                                          {39, 173, 129},  {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 8;
  const int i = std::min(7, static_cast<int>(t));
  const double f = t - i;
  int c[3];
  for (int k = 0; k < 3; ++k) c[k] = static_cast<int>(std::lround(kStops[i][k] + f * (kStops[i + 1][k] - kStops[i][k])));
  return fmt::format("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

// A round step for axis ticks: 1, 2 or 5 times a power of ten, giving about `ticks` ticks.
double tick_step(double range, int ticks) {
  const double raw = range / std::max(1, ticks);
  const double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

const json& need(const json& j, const char* key, const std::string& origin) {
  if (!j.contains(key)) throw InputError(fmt::format("{}: the result document has no '{}'", origin, key));
  return j[key];
}

// --- the documents' schema, checked before anything is drawn ---------------------------------------
// A document is read whole (at most kMaxPlotDocumentBytes, cli) and nested at most kMaxPlotDepth
// deep; then every field a picture uses is checked for its type and range, and the fields for their
// consistency (dims against nodes and link_flits, step_end against step_start), so that a damaged
// document is exit 2 naming the key and never a picture of something else (issue 31).
constexpr int kMaxPlotDepth = 64;
constexpr uint64_t kMaxCount = uint64_t{1} << 62;  // cycles, flits, steps: beyond any run, inside int64
constexpr uint64_t kMaxRadix = uint64_t{1} << 24;
constexpr size_t kMaxPlotSteps = 65536;  // rows of plot steps
constexpr size_t kMaxPlotRuns = 10000;   // points of a curve of plot latency

[[noreturn]] void bad_field(const std::string& origin, const std::string& key, const std::string& what) {
  throw InputError(fmt::format("{}: {}: {}", origin, key, what));
}

std::string shown(const json& v) { return sw::quote_input(v.dump(), 40); }

uint64_t want_count(const json& v, const std::string& key, const std::string& origin, uint64_t max = kMaxCount) {
  if (v.is_number_unsigned()) {
    const uint64_t x = v.get<uint64_t>();
    if (x > max) bad_field(origin, key, fmt::format("{} is above {}", x, max));
    return x;
  }
  if (v.is_number_integer()) bad_field(origin, key, fmt::format("{} is negative", v.get<int64_t>()));
  bad_field(origin, key, fmt::format("expected a whole number, not {}", shown(v)));
}

double want_real(const json& v, const std::string& key, const std::string& origin, double lo, double hi) {
  if (!v.is_number()) bad_field(origin, key, fmt::format("expected a number, not {}", shown(v)));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) bad_field(origin, key, fmt::format("{} is not in [{:g}, {:g}]", shown(v), lo, hi));
  return x;
}

const json& want_array(const json& parent, const char* name, const std::string& key, const std::string& origin) {
  if (!parent.contains(name)) bad_field(origin, key, "missing");
  const json& v = parent[name];
  if (!v.is_array()) bad_field(origin, key, fmt::format("expected an array, not {}", shown(v)));
  return v;
}

void want_type(const json& parent, const char* name, const std::string& key, const std::string& origin,
               bool (json::*is)() const noexcept, const char* type) {
  if (parent.contains(name) && !(parent[name].*is)())
    bad_field(origin, key, fmt::format("expected {}, not {}", type, shown(parent[name])));
}

// topology: dims (1 to 16 radices), wrap, and nodes (their product) when given. Returns the nodes.
uint64_t check_topology(const json& doc, const std::string& origin) {
  if (!doc.contains("topology") || !doc["topology"].is_object()) bad_field(origin, "topology", "missing or not an object");
  const json& t = doc["topology"];
  const json& dims = want_array(t, "dims", "topology.dims", origin);
  if (dims.empty() || dims.size() > static_cast<size_t>(sw::kMaxDims))
    bad_field(origin, "topology.dims", fmt::format("{} dimensions; 1 to {} are possible", dims.size(), sw::kMaxDims));
  uint64_t nodes = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const uint64_t r = want_count(dims[i], fmt::format("topology.dims[{}]", i), origin, kMaxRadix);
    if (r < 1) bad_field(origin, fmt::format("topology.dims[{}]", i), "a radix is at least 1");
    nodes = nodes > kMaxCount / r ? kMaxCount : nodes * r;
  }
  want_type(t, "wrap", "topology.wrap", origin, &json::is_boolean, "true or false");
  if (t.contains("nodes") && want_count(t["nodes"], "topology.nodes", origin) != nodes)
    bad_field(origin, "topology.nodes", fmt::format("{} contradicts topology.dims ({} nodes)", t["nodes"].dump(), nodes));
  return nodes;
}

// A torx.result/1 document: the fields plot links and plot steps read.
void check_result(const json& doc, const std::string& origin) {
  check_topology(doc, origin);
  for (const char* k : {"algorithm", "model", "sync"}) want_type(doc, k, k, origin, &json::is_string, "a string");
  if (doc.contains("cycles") && !doc["cycles"].is_null()) want_count(doc["cycles"], "cycles", origin);
  if (!doc.contains("timing") || !doc["timing"].is_object()) bad_field(origin, "timing", "missing or not an object");
  const json& costs = want_array(doc["timing"], "step_cycles", "timing.step_cycles", origin);
  if (costs.size() > kMaxPlotSteps)  // a row each: the picture would be taller than any screen and file
    bad_field(origin, "timing.step_cycles", fmt::format("{} steps; plot steps draws at most {}", costs.size(), kMaxPlotSteps));
  for (size_t k = 0; k < costs.size(); ++k) want_count(costs[k], fmt::format("timing.step_cycles[{}]", k), origin);
  if (doc.contains("step_labels") && doc["step_labels"].is_array())
    for (size_t k = 0; k < doc["step_labels"].size(); ++k)
      if (!doc["step_labels"][k].is_string() && !doc["step_labels"][k].is_null())
        bad_field(origin, fmt::format("step_labels[{}]", k), fmt::format("expected a string, not {}", shown(doc["step_labels"][k])));
  if (!doc.contains("cycle_model") || doc["cycle_model"].is_null()) return;
  const json& cm = doc["cycle_model"];
  if (!cm.is_object()) bad_field(origin, "cycle_model", "expected an object or null");
  for (const char* k : {"barriers", "barrier_latency", "priority_levels", "preemptions", "null_messages",
                        "software_barriers", "blocked_cycles"})
    if (cm.contains(k)) want_count(cm[k], std::string("cycle_model.") + k, origin);
  if (cm.contains("link_flits")) {
    const json& f = want_array(cm, "link_flits", "cycle_model.link_flits", origin);
    for (size_t l = 0; l < f.size(); ++l) want_count(f[l], fmt::format("cycle_model.link_flits[{}]", l), origin);
  }
  if (cm.contains("step_start") || cm.contains("step_end")) {
    const json& a = want_array(cm, "step_start", "cycle_model.step_start", origin);
    const json& b = want_array(cm, "step_end", "cycle_model.step_end", origin);
    for (size_t k = 0; k < std::min(a.size(), b.size()); ++k) {
      const bool has_a = !a[k].is_null(), has_b = !b[k].is_null();
      const uint64_t s = has_a ? want_count(a[k], fmt::format("cycle_model.step_start[{}]", k), origin) : 0;
      const uint64_t e = has_b ? want_count(b[k], fmt::format("cycle_model.step_end[{}]", k), origin) : 0;
      if (has_a && has_b && e < s)
        bad_field(origin, fmt::format("cycle_model.step_end[{}]", k), fmt::format("{} is before step_start {}", e, s));
    }
  }
}

// A torx.traffic/1 document: the fields plot latency reads.
void check_traffic(const json& doc, const std::string& origin) {
  check_topology(doc, origin);
  for (const char* k : {"model", "label", "routes"}) want_type(doc, k, k, origin, &json::is_string, "a string");
  if (doc.contains("mean_packet_flits")) want_real(doc["mean_packet_flits"], "mean_packet_flits", origin, 0, 1e9);
  for (const char* k : {"pattern", "injection"})
    if (!doc.contains(k) || !doc[k].is_object()) bad_field(origin, k, "missing or not an object");
  const json& runs = doc["runs"];
  if (runs.size() > kMaxPlotRuns)
    bad_field(origin, "runs", fmt::format("{} runs; plot latency draws at most {} points a curve", runs.size(), kMaxPlotRuns));
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string at = fmt::format("runs[{}]", i);
    const json& x = runs[i];
    if (!x.is_object()) bad_field(origin, at, "expected an object");
    want_real(x.contains("offered") ? x["offered"] : json(), at + ".offered", origin, 0, 1);
    want_type(x, "saturated", at + ".saturated", origin, &json::is_boolean, "true or false");
    if (!x.contains("saturated")) bad_field(origin, at + ".saturated", "missing");
    for (const char* k : {"packet_latency", "network_latency"}) {
      if (!x.contains(k) || !x[k].is_object()) bad_field(origin, at + "." + k, "missing or not an object");
      if (x[k].contains("count")) want_count(x[k]["count"], at + "." + k + ".count", origin);
      want_real(x[k].contains("mean") ? x[k]["mean"] : json(), at + "." + k + ".mean", origin, 0, 1e15);
    }
  }
}

// Parses a document, refusing one nested deeper than kMaxPlotDepth.
json parse_document(const std::string& text, const std::string& origin) {
  const json::parser_callback_t depth_cap = [&origin](int depth, json::parse_event_t, json&) {
    if (depth > kMaxPlotDepth)
      throw InputError(fmt::format("{}: nested more than {} deep: not a result document", origin, kMaxPlotDepth));
    return true;
  };
  try {
    return json::parse(text, depth_cap);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not a JSON document: {}", origin, sw::quote_input(e.what(), 160)));
  }
}

std::string title_of(const json& doc) {
  const json& t = doc["topology"];
  std::string dims;
  for (const json& r : t["dims"]) dims += (dims.empty() ? "" : "x") + std::to_string(r.get<int>());
  return fmt::format("{} on the {} {}, {} model, sync {}", doc.value("algorithm", std::string("?")), dims,
                     t.value("wrap", true) ? "torus" : "mesh", doc.value("model", std::string("?")),
                     doc.value("sync", std::string("?")));
}

std::string links_svg(const json& doc, const std::string& origin) {
  if (!doc.contains("cycle_model") || doc["cycle_model"].is_null() || !doc["cycle_model"].contains("link_flits"))
    throw InputError(fmt::format("{}: plot links needs the traffic of every link (cycle_model.link_flits): a run with "
                                 "--model cycle or rtl; the step model counts no per-link traffic",
                                 origin));
  const json& cm = doc["cycle_model"];
  const json& t = need(doc, "topology", origin);
  std::vector<int> dims = t["dims"].get<std::vector<int>>();
  const bool wrap = t.value("wrap", true);
  if (dims.size() > 3)
    throw InputError(fmt::format("{}: plot links draws networks of 1 to 3 dimensions, not {}", origin, dims.size()));
  const sw::Topology topo(dims, wrap);
  if (topo.nodes() > kMaxPlotNodes)
    throw InputError(fmt::format("{}: plot links draws networks of up to {} nodes, not {}", origin, kMaxPlotNodes,
                                 topo.nodes()));
  const std::vector<uint64_t> flits = cm["link_flits"].get<std::vector<uint64_t>>();
  if (static_cast<int64_t>(flits.size()) != static_cast<int64_t>(topo.link_count()))
    throw InputError(fmt::format("{}: cycle_model.link_flits has {} entries, the {} has {} links", origin, flits.size(),
                                 topo.to_string(), topo.link_count()));
  uint64_t top = 0, sum = 0, used = 0;
  for (sw::LinkId l = 0; l < topo.link_count(); ++l) {
    const sw::NodeId v = topo.link_source(l);
    const int port = static_cast<int>(l % topo.ports());
    if (!wrap && topo.neighbor(v, sw::Topology::port_dim(port), sw::Topology::port_dir(port)) < 0) continue;
    top = std::max(top, flits[static_cast<size_t>(l)]);
    sum += flits[static_cast<size_t>(l)];
    ++used;
  }
  const int rx = dims[0], ry = dims.size() > 1 ? dims[1] : 1, rz = dims.size() > 2 ? dims[2] : 1;
  // Cell size: the whole picture about 900 pixels wide; panels of a 3D network side by side, at
  // most four to a row.
  const int cols = std::min(rz, 4), rows = (rz + cols - 1) / cols;
  const double cell = std::clamp(880.0 / (cols * (rx + 1)), 6.0, 48.0);
  const double pw = (rx + 1) * cell, ph = (ry + 1) * cell + 18;
  const double top_margin = 64, bottom = 70;
  const double width = std::max(560.0, cols * pw + 20), height = top_margin + rows * ph + bottom;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  s += fmt::format("<text x=\"10\" y=\"20\" font-size=\"15\">{}</text>\n", escape(title_of(doc)));
  s += fmt::format("<text x=\"10\" y=\"36\">flits per directed link: busiest {}, mean {:.1f} over {} links, {} cycles"
                   "</text>\n<text x=\"10\" y=\"52\" fill=\"#555\">x to the right, y down; each link beside its "
                   "partner{}</text>\n",
                   top, used ? static_cast<double>(sum) / used : 0.0, used,
                   doc.contains("cycles") && !doc["cycles"].is_null() ? doc["cycles"].dump() : "?",
                   wrap ? "; wraparound links as stubs at the edges" : "");
  const double lw = std::max(1.0, cell * 0.16), off = cell * 0.13, node_r = std::max(1.0, cell * 0.1);
  auto link_colour = [&](uint64_t f) { return f == 0 ? std::string("#dddddd") : colour(top ? double(f) / top : 0); };
  for (int z = 0; z < rz; ++z) {
    const double ox = 10 + (z % cols) * pw, oy = top_margin + (z / cols) * ph;
    if (dims.size() == 3) s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">z = {}</text>\n", ox + cell / 2, oy + 12, z);
    const double gy = oy + 18;
    auto cx = [&](double x) { return ox + (x + 1) * cell; };
    auto cy = [&](double y) { return gy + (y + 0.5) * cell; };
    for (int y = 0; y < ry; ++y)
      for (int x = 0; x < rx; ++x) {
        const sw::NodeId v = static_cast<sw::NodeId>(x + static_cast<int64_t>(rx) * (y + static_cast<int64_t>(ry) * z));
        for (int d = 0; d < std::min<int>(2, static_cast<int>(dims.size())); ++d)
          for (int dir : {+1, -1}) {
            if (!wrap && topo.neighbor(v, d, dir) < 0) continue;
            const sw::LinkId l = topo.link_id(v, d, dir);
            const int c = d == 0 ? x : y, r = d == 0 ? rx : ry;
            const bool wraps = (dir > 0 && c == r - 1) || (dir < 0 && c == 0);
            // A link from the node's centre towards its neighbour's (or half a cell out, for a
            // wraparound), shifted to its side: + links above (x) or left of (y) the axis.
            const double len = wraps ? 0.45 : 0.92;
            const double sh = dir > 0 ? -off : off;
            double x1 = cx(x), y1 = cy(y), x2 = x1, y2 = y1;
            if (d == 0) {
              x1 += dir * cell * 0.08;
              x2 = cx(x) + dir * cell * len;
              y1 += sh;
              y2 += sh;
            } else {
              y1 += dir * cell * 0.08;
              y2 = cy(y) + dir * cell * len;
              x1 += sh;
              x2 += sh;
            }
            s += fmt::format("<line class=\"link\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
                             "stroke-width=\"{:.1f}\"><title>{} {}: {} flits</title></line>\n",
                             x1, y1, x2, y2, link_colour(flits[static_cast<size_t>(l)]), lw, topo.node_name(v),
                             sw::Topology::port_name(sw::Topology::port(d, dir)), flits[static_cast<size_t>(l)]);
          }
        if (dims.size() == 3)  // z links: two squares in the node, z+ up-right, z- down-left
          for (int dir : {+1, -1}) {
            if (!wrap && topo.neighbor(v, 2, dir) < 0) continue;
            const sw::LinkId l = topo.link_id(v, 2, dir);
            const double q = cell * 0.18;  // in the quadrant corners, clear of the x and y links
            s += fmt::format("<rect class=\"link\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
                             "fill=\"{}\"><title>{} {}: {} flits</title></rect>\n",
                             cx(x) + (dir > 0 ? 0.25 * cell : -0.43 * cell), cy(y) + (dir > 0 ? -0.43 * cell : 0.25 * cell), q, q,
                             link_colour(flits[static_cast<size_t>(l)]), topo.node_name(v),
                             sw::Topology::port_name(sw::Topology::port(2, dir)), flits[static_cast<size_t>(l)]);
          }
        s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"#444\"/>\n", cx(x), cy(y), node_r);
      }
  }
  // Colour bar.
  const double by = height - bottom + 22, bx = 10, bw = 300;
  s += "<defs><linearGradient id=\"viridis\">";
  for (int k = 0; k <= 8; ++k) s += fmt::format("<stop offset=\"{:.3f}\" stop-color=\"{}\"/>", k / 8.0, colour(k / 8.0));
  s += "</linearGradient></defs>\n";
  s += fmt::format("<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.0f}\" height=\"12\" fill=\"url(#viridis)\"/>\n", bx, by, bw);
  s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">1</text><text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"end\">{} flits"
                   "</text>\n",
                   bx, by + 28, bx + bw, by + 28, top);
  s += fmt::format("<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"12\" height=\"12\" fill=\"#dddddd\"/><text x=\"{:.0f}\" "
                   "y=\"{:.0f}\">no flit</text>\n",
                   bx + bw + 20, by, bx + bw + 36, by + 11);
  if (dims.size() == 3)
    s += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">squares in a node: its z+ (upper right) and z- (lower left) links"
                     "</text>\n",
                     bx + bw + 100, by + 11);
  return s + "</svg>\n";
}

std::string steps_svg(const json& doc, const std::string& origin) {
  const json& timing = need(doc, "timing", origin);
  const std::vector<int64_t> costs = need(timing, "step_cycles", origin).get<std::vector<int64_t>>();
  const size_t n = costs.size();
  if (n == 0) throw InputError(fmt::format("{}: the run has no steps to draw", origin));
  // Per step: start and end (cycles), and the step model's cost.
  std::vector<int64_t> start(n, -1), end(n, -1);
  const bool cycle = doc.contains("cycle_model") && !doc["cycle_model"].is_null();
  const json* cm = cycle ? &doc["cycle_model"] : nullptr;
  if (cycle) {
    const json& a = need(*cm, "step_start", origin);
    const json& b = need(*cm, "step_end", origin);
    if (a.size() != n || b.size() != n)
      throw InputError(fmt::format("{}: step_start and step_end have {} and {} entries for {} steps", origin, a.size(),
                                   b.size(), n));
    for (size_t k = 0; k < n; ++k) {
      if (!a[k].is_null()) start[k] = a[k].get<int64_t>();
      if (!b[k].is_null()) end[k] = b[k].get<int64_t>();
    }
  } else {
    int64_t t = 0;
    for (size_t k = 0; k < n; ++k) {
      start[k] = t;
      t += costs[k];
      end[k] = t;
    }
  }
  int64_t last = 0;
  for (size_t k = 0; k < n; ++k) last = std::max(last, end[k]);
  if (doc.contains("cycles") && doc["cycles"].is_number()) last = std::max(last, doc["cycles"].get<int64_t>());
  last = std::max<int64_t>(last, 1);
  // Steps are numbered from 1 everywhere (conflict reports, error messages, the watchdog; element
  // k - 1 of the document's per-step arrays: docs/cli.md, "Step numbers"), each with its label.
  std::vector<std::string> labels(n);
  if (doc.contains("step_labels") && doc["step_labels"].is_array() && doc["step_labels"].size() == n)
    for (size_t k = 0; k < n; ++k)
      if (doc["step_labels"][k].is_string()) labels[k] = doc["step_labels"][k].get<std::string>();
  auto step_name = [&](size_t k) {
    return labels[k].empty() ? fmt::format("step {}", k + 1) : fmt::format("step {} {}", k + 1, labels[k]);
  };
  size_t widest = 0;
  for (size_t k = 0; k < n; ++k) widest = std::max(widest, step_name(k).size());
  const bool barriers = doc.value("sync", std::string()) == "barrier" && cycle;
  // Room on the left for the longest "step K LABEL" (about 7 px a character at 12 px).
  const double left = std::max(70.0, 7.0 * static_cast<double>(widest) + 12), right = 20, top = 62, row = std::clamp(440.0 / n, 3.0, 20.0), bottom = 78;
  const double plot_w = 840, width = left + plot_w + right, height = top + row * n + bottom;
  auto X = [&](double c) { return left + plot_w * c / static_cast<double>(last); };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  s += fmt::format("<text x=\"10\" y=\"20\" font-size=\"15\">{}: the steps over time</text>\n", escape(title_of(doc)));
  std::string caption = fmt::format("{} steps, {} cycles", n, last);
  if (cycle) {
    // What synchronized the steps, in the words of the mode that ran.
    const std::string sync = doc.value("sync", std::string());
    if (doc.contains("gossip_hw"))
      caption += "; forwarded by the routers (--gossip-hw)";
    else if (sync == "barrier")
      caption += fmt::format("; {} barriers of {} cycles", cm->value("barriers", uint64_t{0}),
                             cm->value("barrier_latency", uint64_t{0}));
    else if (sync == "priority")
      caption += fmt::format("; no barriers: {} priority levels, {} preemptions", cm->value("priority_levels", uint64_t{0}),
                             cm->value("preemptions", uint64_t{0}));
    else if (sync == "local" || sync == "software")
      caption += fmt::format("; no barriers: {} null messages{}", cm->value("null_messages", uint64_t{0}),
                             sync == "software" ? fmt::format(" in {} software barriers", cm->value("software_barriers", uint64_t{0}))
                                                : std::string());
    else if (sync == "none")
      caption += "; no synchronization (--sync none)";
    caption += fmt::format("; {} VC-cycles blocked in all", cm->value("blocked_cycles", uint64_t{0}));
  } else {
    caption += " (step model: each step's cost t_s + m t_x, back to back)";
  }
  s += fmt::format("<text x=\"10\" y=\"38\">{}</text>\n", escape(caption));
  // Barriers: between the end of every earlier step and the start of the next.
  if (barriers) {
    int64_t done = -1;
    for (size_t k = 0; k + 1 < n; ++k) {
      if (end[k] >= 0) done = std::max(done, end[k]);
      if (done >= 0 && start[k + 1] > done)
        s += fmt::format("<rect class=\"barrier\" x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" "
                         "fill=\"#e4e4e4\"><title>barrier before {}: cycles {} to {}</title></rect>\n",
                         X(done), top, std::max(0.5, X(start[k + 1]) - X(done)), row * n, escape(step_name(k + 1)), done,
                         start[k + 1]);
    }
  }
  // Axis and grid.
  const double tick = tick_step(static_cast<double>(last), 8);
  for (double c = 0; c <= last + 0.5; c += tick) {
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#bbb\" stroke-width=\"0.5\"/>"
                     "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4:.0f}</text>\n",
                     X(c), top, top + row * n, top + row * n + 14, c);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">cycle</text>\n", left + plot_w / 2,
                   top + row * n + 30);
  const size_t label_every = std::max<size_t>(1, static_cast<size_t>(std::ceil(12.0 / row)));
  for (size_t k = 0; k < n; ++k) {
    const double y = top + row * k;
    if (k % label_every == 0 || k + 1 == n)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, y + row / 2 + 4,
                       escape(step_name(k)));
    if (start[k] < 0 || end[k] < 0) continue;  // no messages
    const double h = std::max(1.0, row * 0.75), yb = y + (row - h) / 2;
    const int64_t own = std::min(end[k], start[k] + std::max<int64_t>(costs[k], 0));
    s += fmt::format("<rect class=\"step\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"#3b6fb6\">"
                     "<title>{}: cycles {} to {} ({} cycles; the step model charges {})</title></rect>\n",
                     X(start[k]), yb, std::max(0.5, X(own) - X(start[k])), h, escape(step_name(k)), start[k], end[k],
                     end[k] - start[k], costs[k]);
    if (cycle && end[k] > own)
      s += fmt::format("<rect class=\"late\" x=\"{:.2f}\" y=\"{:.2f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"#d9534f\">"
                       "<title>{}: {} cycles beyond the step model's cost (blocking)</title></rect>\n",
                       X(own), yb, std::max(0.5, X(end[k]) - X(own)), h, escape(step_name(k)), end[k] - own);
  }
  // Legend.
  const double ly = height - 30;
  s += fmt::format("<rect x=\"{0:.0f}\" y=\"{1:.0f}\" width=\"14\" height=\"10\" fill=\"#3b6fb6\"/><text x=\"{2:.0f}\" "
                   "y=\"{3:.0f}\">a step, up to the step model's cost</text>\n",
                   left, ly, left + 20, ly + 10);
  if (cycle)
    s += fmt::format("<rect x=\"{0:.0f}\" y=\"{1:.0f}\" width=\"14\" height=\"10\" fill=\"#d9534f\"/><text x=\"{2:.0f}\" "
                     "y=\"{3:.0f}\">beyond it: blocked</text>\n",
                     left + 260, ly, left + 280, ly + 10);
  if (barriers)
    s += fmt::format("<rect x=\"{0:.0f}\" y=\"{1:.0f}\" width=\"14\" height=\"10\" fill=\"#e4e4e4\"/><text x=\"{2:.0f}\" "
                     "y=\"{3:.0f}\">barrier</text>\n",
                     left + 420, ly, left + 440, ly + 10);
  return s + "</svg>\n";
}

// Axis ticks for any positive range (fractions included): 1, 2 or 5 times a power of ten.
double axis_step(double range, int ticks) {
  const double raw = range / std::max(1, ticks);
  if (!(raw > 0)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

std::string tick_label(double v, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return fmt::format("{:.{}f}", v, decimals);
}

// Ten colours that stay apart for one another and for colour-blind readers (Tableau 10).
const char* series_colour(size_t i) {
  static constexpr const char* kColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                             "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kColours[i % 10];
}

struct Series {
  std::string label;
  struct Point {
    double offered, plat, nlat;
    bool saturated;
  };
  std::vector<Point> points;
};

// What the settings of a traffic document are, as "name value" words (for labels from differences).
std::vector<std::pair<std::string, std::string>> traffic_settings(const json& d) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string dims;
  for (const json& r : d["topology"]["dims"]) dims += (dims.empty() ? "" : "x") + std::to_string(r.get<int>());
  out.emplace_back("topology", dims + (d["topology"].value("wrap", true) ? " torus" : " mesh"));
  out.emplace_back("pattern", d["pattern"].value("description", d["pattern"].value("name", std::string("?"))));
  out.emplace_back("model", d.value("model", std::string("?")));
  out.emplace_back("injection", d["injection"].value("process", std::string("?")));
  out.emplace_back("packet", fmt::format("{:g} flits", d.value("mean_packet_flits", 0.0)));
  out.emplace_back("routes", d.value("routes", std::string()));
  if (d.contains("params") && d["params"].is_object())
    for (const auto& [k, v] : d["params"].items())
      if (k != "threads" && k != "watchdog_cycles" && k != "max_cycles") out.emplace_back(k, v.dump());
  return out;
}

std::string latency_svg(const std::vector<std::pair<std::string, json>>& docs) {
  // Labels: a document's own, else the settings in which the documents differ.
  std::vector<std::vector<std::pair<std::string, std::string>>> settings;
  for (const auto& [origin, d] : docs) settings.push_back(traffic_settings(d));
  std::vector<Series> series;
  for (size_t i = 0; i < docs.size(); ++i) {
    const json& d = docs[i].second;
    Series s;
    s.label = d.value("label", std::string());
    if (s.label.empty()) {
      for (const auto& [k, v] : settings[i]) {
        bool differs = false;
        for (size_t j = 0; j < docs.size() && !differs; ++j) {
          if (j == i) continue;
          bool found = false;
          for (const auto& [k2, v2] : settings[j])
            if (k2 == k) found = true, differs |= v2 != v;
          differs |= !found;
        }
        if (differs) s.label += (s.label.empty() ? "" : ", ") + (k == "topology" || k == "pattern" || k == "model" ? v : k + " " + v);
      }
      if (s.label.empty()) s.label = docs.size() == 1 ? settings[i][1].second + " on the " + settings[i][0].second
                                                      : docs[i].first;
    }
    for (const json& x : d["runs"]) {
      const json& pl = x["packet_latency"];
      if (pl.value("count", uint64_t{0}) == 0) continue;
      s.points.push_back({x["offered"].get<double>(), pl["mean"].get<double>(),
                          x["network_latency"]["mean"].get<double>(), x["saturated"].get<bool>()});
    }
    std::sort(s.points.begin(), s.points.end(), [](const auto& a, const auto& b) { return a.offered < b.offered; });
    series.push_back(std::move(s));
  }
  // Scales: x from 0 to the largest offered load; y from 0 to a little above the largest latency
  // of an unsaturated run, but at most 6 times the lowest latency (the knee stays readable; points
  // beyond are drawn at the top edge, the curve leaving through it).
  double xmax = 0, ymax = 0, yall = 0, ymin = 0;
  for (const Series& s : series)
    for (const auto& p : s.points) {
      xmax = std::max(xmax, p.offered);
      yall = std::max(yall, p.plat);
      ymin = ymin == 0 ? p.plat : std::min(ymin, p.plat);
      if (!p.saturated) ymax = std::max(ymax, p.plat);
    }
  if (ymax == 0) ymax = yall;
  ymax = std::max(std::min(ymax, 6 * ymin) * 1.1, 1.0);
  xmax = std::max(xmax * 1.05, 0.01);
  const double left = 70, right = 20, top = 66, plot_w = 760, plot_h = 420, legend_h = 18.0 * series.size() + 24;
  const double width = left + plot_w + right, height = top + plot_h + 50 + legend_h;
  auto X = [&](double v) { return left + plot_w * v / xmax; };
  auto Y = [&](double v) { return top + plot_h * (1 - std::min(v, ymax) / ymax); };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  // Title: what every curve has in common.
  std::string common;
  for (const auto& [k, v] : settings[0]) {
    if (k != "topology" && k != "pattern" && k != "model") continue;
    bool same = true;
    for (const auto& st : settings)
      for (const auto& [k2, v2] : st)
        if (k2 == k && v2 != v) same = false;
    if (same) common += (common.empty() ? "" : ", ") + v;
  }
  out += fmt::format("<text x=\"10\" y=\"20\" font-size=\"15\">Latency against offered load{}{}</text>\n",
                     common.empty() ? "" : ": ", escape(common));
  out += "<text x=\"10\" y=\"36\" fill=\"#555\">solid: packet latency (created to tail ejected); dashed: network "
         "latency (head injected to tail ejected)</text>\n<text x=\"10\" y=\"51\" fill=\"#555\">open markers: "
         "saturated runs; on the top edge: beyond the scale</text>\n";
  const double xs = axis_step(xmax, 10), ys = axis_step(ymax, 8);
  for (double v = 0; v <= xmax + 1e-12; v += xs)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
                       X(v), top, top + plot_h, top + plot_h + 16, tick_label(v, xs));
  for (double v = 0; v <= ymax + 1e-12; v += ys)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
                       left, Y(v), left + plot_w, left - 6, Y(v) + 4, tick_label(v, ys));
  out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#444\"/>\n",
                     left, top, plot_w, plot_h);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">offered load (flits per node and cycle)"
                     "</text>\n<text x=\"16\" y=\"{:.1f}\" transform=\"rotate(-90 16 {:.1f})\" text-anchor=\"middle\">"
                     "latency (cycles)</text>\n",
                     left + plot_w / 2, top + plot_h + 36, top + plot_h / 2, top + plot_h / 2);
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    const char* c = series_colour(i);
    for (int net = 0; net < 2; ++net) {
      std::string path;
      for (const auto& p : s.points) {
        if (p.saturated) continue;
        path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", X(p.offered), Y(net ? p.nlat : p.plat));
      }
      if (!path.empty())
        out += fmt::format("<path class=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                           net ? "nlat" : "plat", path, c, net ? 1.2 : 2, net ? " stroke-dasharray=\"5 3\"" : "");
    }
    for (const auto& p : s.points) {
      const bool clipped = p.plat > ymax;
      out += fmt::format("<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\" stroke=\"{}\">"
                         "<title>{}: offered {:.4f}, packet latency {:.2f}, network latency {:.2f}{}</title></circle>\n",
                         X(p.offered), clipped ? top : Y(p.plat), p.saturated ? "white" : c, c, escape(s.label),
                         p.offered, p.plat, p.nlat, p.saturated ? " (saturated)" : "");
    }
    const double ly = top + plot_h + 56 + 18.0 * i;
    out += fmt::format("<line x1=\"{0:.0f}\" y1=\"{1:.1f}\" x2=\"{2:.0f}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"2\"/>"
                       "<text x=\"{4:.0f}\" y=\"{5:.1f}\">{6}</text>\n",
                       left, ly, left + 26, c, left + 34, ly + 4, escape(s.label));
  }
  return out + "</svg>\n";
}

}  // namespace

std::string plot_latency_svg(const std::vector<std::pair<std::string, std::string>>& texts) {
  if (texts.empty()) throw InputError("plot latency: give one or more traffic documents (torx traffic --json FILE)");
  if (texts.size() > 10) throw InputError("plot latency: at most 10 documents on one plot");
  std::vector<std::pair<std::string, json>> docs;
  for (const auto& [origin, text] : texts) {
    json doc = parse_document(text, origin);
    if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != "torx.traffic/1" || !doc.contains("runs") ||
        !doc["runs"].is_array())
      throw InputError(fmt::format("{}: not a traffic document (schema torx.traffic/1, written by torx traffic --json)",
                                   origin));
    if (doc["runs"].empty()) throw InputError(fmt::format("{}: the traffic document has no runs", origin));
    check_traffic(doc, origin);
    docs.emplace_back(origin, std::move(doc));
  }
  try {
    return latency_svg(docs);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: a field of a traffic document is missing or has the wrong type: {}",
                                 docs.size() == 1 ? docs[0].first : std::string("plot latency"), e.what()));
  }
}

std::string plot_svg(PlotKind kind, const std::string& json_text, const std::string& origin) {
  if (kind == PlotKind::kLatency) return plot_latency_svg({{origin, json_text}});
  const json doc = parse_document(json_text, origin);
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != "torx.result/1")
    throw InputError(fmt::format("{}: not a result document (schema torx.result/1, written by torx run --json)", origin));
  check_result(doc, origin);
  try {
    return kind == PlotKind::kLinks ? links_svg(doc, origin) : steps_svg(doc, origin);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: a field of the result document has the wrong type: {}", origin, e.what()));
  }
}

std::string read_plot_stream(std::FILE* f, const std::string& name) {
  std::string text;
  char buf[1 << 16];
  size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (text.size() + got > kMaxPlotDocumentBytes)
      throw InputError(fmt::format("plot {}: larger than {} MiB, the limit for a document", name, kMaxPlotDocumentBytes >> 20));
    text.append(buf, got);
  }
  if (std::ferror(f)) throw InputError(fmt::format("plot {}: read error: {}", name, std::strerror(errno)));
  return text;
}

std::string read_plot_input(const std::string& path) {
  if (path == "-") return read_plot_stream(stdin, "standard input");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(fmt::format("plot {}: not a regular file (a result document: torx run or torx traffic --json)", path));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw InputError(fmt::format("plot {}: cannot open: {}", path, std::strerror(errno)));
  return read_plot_stream(f.get(), path);
}

std::string plot_documents(PlotKind kind, const std::vector<std::pair<std::string, std::string>>& docs) {
  const std::string_view name = sw::name_of(kPlotKinds, kind);
  if (docs.empty()) throw InputError(fmt::format("plot {}: no document", name));
  if (kind == PlotKind::kLatency) {
    for (size_t i = 0; i < docs.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (docs[i].first == docs[j].first)
          throw InputError(fmt::format("plot latency: {} given twice", docs[i].first));
    return plot_latency_svg(docs);
  }
  if (docs.size() != 1) throw InputError(fmt::format("plot {}: one result document, not {}", name, docs.size()));
  return plot_svg(kind, docs[0].second, docs[0].first);
}

}  // namespace torx::app
