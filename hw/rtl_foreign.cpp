// SPDX-License-Identifier: Apache-2.0
// A foreign router top on torx's testbench (rtl_foreign.hpp): the contract's tables, the check of an
// elaborated top against them (Verilator's XML), the model spec and the factory.
#include "hw/rtl_foreign.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "hw/rtl_factory_abi.hpp"
#include "hw/rtl_foreign_layout.hpp"
#include "hw/rtl_router.hpp"
#include "hw/rtl_wires.hpp"

namespace fs = std::filesystem;

namespace torx::rtl {

// --- the contract (docs/router-interface.md; test_router_interface checks the document against these
// tables and torx_router against both) ---------------------------------------------------------------
const std::vector<ContractPort>& router_contract_ports() {
  static const std::vector<ContractPort> k = {
      {"clk_i", "input", "1", true, "clock; every output is a register loaded at its rising edge"},
      {"rst_ni", "input", "1", true, "reset, active low, held low for 4 clock cycles"},
      {"flit_valid_i", "input", "P", true, "bit p: a flit arrives at input port p in this cycle"},
      {"flit_i", "input", "P*FlitW", true, "the flit at input p, bits [p*FlitW +: FlitW]"},
      {"credit_valid_i", "input", "P", true, "bit p: a credit arrives at output port p"},
      {"credit_vc_i", "input", "P*VcW", true, "its VC, bits [p*VcW +: VcW]"},
      {"flit_valid_o", "output", "P", true, "bit p: a flit leaves on output port p"},
      {"flit_o", "output", "P*FlitW", true, "the flit, its vc field the output VC"},
      {"credit_valid_o", "output", "P", true, "bit p: a slot of an input VC of port p was freed"},
      {"credit_vc_o", "output", "P*VcW", true, "that input VC"},
      {"node_id_i", "input", "32", false, "static: the router's node id"},
      {"coord_i", "input", "N*CW", false, "static: the router's coordinates, dimension d at [d*CW +: CW]"},
      {"cfg_valid_i", "input", "1", false, "configuration port: a routing-image word"},
      {"cfg_data_i", "input", "32", false, "the word"},
      {"cfg_last_i", "input", "1", false, "it is the image's last word"},
      {"cfg_done_o", "output", "1", false, "after the last word: image accepted"},
      {"cfg_error_o", "output", "1", false, "after the last word: image refused"},
      {"cfg_error_word_o", "output", "16", false, "the word it was refused at"},
      {"cfg_error_code_o", "output", "4", false, "why (docs/routing-tables.md)"},
      {"cfg_sel_i", "input", "1..32", false,
       "the table the configuration port loads; torx drives 0 (the router's own: lookahead's 1 + p are not served)"},
      {"la_node_id_i", "input", "2N*32", false, "static: the neighbours' node ids (lookahead's tables); torx drives 0"},
      {"quiescent_o", "output", "1", false, "no flit inside and no credit owed"},
      {"stat_blocked_o", "output", "1..32", false, "input VCs whose front flit could not leave in the cycle"},
      {"route_error_o", "output", "1", false, "sticky: a head found no route (the run stops, exit 1)"},
  };
  return k;
}

const std::vector<ContractParam>& router_contract_params() {
  static const std::vector<ContractParam> k = {
      {"NumDims", true, "N, network dimensions (2N network ports)"},
      {"NumLocal", true, "K, local ports: 1 (one-port) or 2N (all-port)"},
      {"NumClasses", true, "C, VC classes per network port (dateline x order classes)"},
      {"VcsPerClass", true, "V, VCs per class"},
      {"BufferDepth", true, "D, flits per input VC buffer, and per downstream VC buffer (credits at reset)"},
      {"FlitBytes", true, "payload bytes per flit (32)"},
      {"MaxRadix", true, "largest radix per dimension the coordinates serve (64 or 256)"},
      {"PipelineStages", false, "torx's router_latency (a router may ignore it)"},
      {"PriorityLevels", false, "priority levels (1 unless --sync priority; then required)"},
      {"PriorityReserve", false, "slots per level above reserved by the throttle"},
      {"DatelineClasses", false, "C_d: 2 on a torus with datelines, else 1"},
      {"OrderClasses", false, "C_o: 1, or N when worms start in different dimensions (C = C_d x C_o)"},
      {"SimTag", false, "1: the flit carries the 64-bit simulation tag (torx always sets it)"},
  };
  return k;
}

namespace {

struct Foreign {
  std::mutex mu;
  bool set = false;
  ForeignRouterOptions o;
  std::string hash;
  std::map<std::string, RtlModelSpec> checked;  // by shape key
};

Foreign& foreign() {
  static Foreign f;
  return f;
}

// A port of the elaborated top.
struct TopPort {
  std::string dir;
  int width = -1;  // -1: a type torx cannot size
};
struct Top {
  std::set<std::string> params;
  std::map<std::string, TopPort> ports;
};

std::string attr(const std::string& tag, const char* name) {
  const std::string key = std::string(" ") + name + "=\"";
  const size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const size_t b = at + key.size();
  return tag.substr(b, tag.find('"', b) - b);
}

// The parameters and ports of the top module in Verilator's XML.
Top parse_top(const std::string& xml, const std::string& top) {
  Top t;
  std::map<std::string, int> widths;  // dtype id -> bits
  for (size_t at = xml.find("<basicdtype "); at != std::string::npos; at = xml.find("<basicdtype ", at + 1)) {
    const std::string tag = xml.substr(at, xml.find('>', at) - at);
    const std::string l = attr(tag, "left"), r = attr(tag, "right");
    widths[attr(tag, "id")] = l.empty() ? 1 : std::abs(std::stoi(l) - std::stoi(r)) + 1;
  }
  const size_t mod = xml.find("topModule=\"1\"");
  if (mod == std::string::npos) throw sw::InputError(fmt::format("--rtl-router: Verilator found no top {}", top));
  const size_t end = xml.find("</module>", mod);
  for (size_t at = xml.find("<var ", mod); at != std::string::npos && at < end; at = xml.find("<var ", at + 1)) {
    const std::string tag = xml.substr(at, xml.find('>', at) - at);
    const std::string name = attr(tag, "name");
    if (attr(tag, "param") == "true") t.params.insert(name);
    const std::string dir = attr(tag, "dir");
    if (!dir.empty() && !attr(tag, "pinIndex").empty()) {
      auto w = widths.find(attr(tag, "dtype_id"));
      t.ports[name] = TopPort{dir, w == widths.end() ? -1 : w->second};
    }
  }
  return t;
}

// The contract's width of `port` for routers of `shape` (-1: 1..32).
int contract_width(const ContractPort& c, const model::RouterShape& s, const FlitLayout& l) {
  const std::string w = c.width;
  const int p = s.ports();
  if (w == "P") return p;
  if (w == "P*FlitW") return p * static_cast<int>(l.width());
  if (w == "P*VcW") return p * static_cast<int>(clog2w(static_cast<unsigned>(s.network_vcs())));
  if (w == "N*CW") return s.ndims * static_cast<int>(l.coord_w);
  if (w == "2N*32") return 2 * s.ndims * 32;
  if (w == "1..32") return -1;
  return std::stoi(w);
}

int max_radix_of(const sw::Topology& topo) {
  if (topo.max_radix() > kRtlMaxRadix)
    throw sw::InputError(fmt::format("--rtl-router: the {} has a radix of {}; the contract's coordinates serve "
                                     "radices up to {} (MaxRadix)",
                                     topo.to_string(), topo.max_radix(), kRtlMaxRadix));
  return topo.max_radix() <= 64 ? 64 : kRtlMaxRadix;
}

std::string hash_sources(const std::vector<std::string>& sources) {
  uint64_t v = 0xcbf29ce484222325ull;
  for (const auto& f : sources) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    const std::string body = s.str();
    v = fnv1a64(body.data(), body.size(), v);
  }
  return fmt::format("{:016x}", v);
}

}  // namespace

std::pair<std::string, int64_t> parse_rtl_param(const std::string& text) {
  static const std::regex re(R"(([A-Za-z_][A-Za-z0-9_]*)=(-?[0-9]{1,18}))");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw sw::InputError(fmt::format("--rtl-param '{}': expected NAME=VALUE with a whole number (DataW=64)", text));
  for (const ContractParam& c : router_contract_params())
    if (m[1] == c.name)
      throw sw::InputError(fmt::format("--rtl-param {}: torx sets {} from the network (docs/router-interface.md, "
                                       "\"Parameters\"); use --param or the topology instead",
                                       c.name, c.name));
  return {m[1], std::stoll(m[2])};
}

void set_foreign_router(const ForeignRouterOptions& o) {
  ForeignRouterOptions r = o;
  if (r.sources.empty()) throw sw::InputError("--rtl-router: no source file");
  for (auto& f : r.sources) {
    std::error_code ec;
    if (!fs::is_regular_file(f, ec) || ::access(f.c_str(), R_OK) != 0)
      throw sw::InputError(fmt::format("--rtl-router {}: no such readable file", f));
    f = fs::absolute(f).lexically_normal().string();
  }
  if (r.top.empty()) r.top = fs::path(r.sources.front()).stem().string();
  static const std::regex id(R"([A-Za-z_][A-Za-z0-9_$]*)");
  if (!std::regex_match(r.top, id))
    throw sw::InputError(fmt::format("--rtl-top '{}': not a SystemVerilog module name", r.top));
  Foreign& f = foreign();
  std::lock_guard<std::mutex> lock(f.mu);
  f.o = r;
  f.hash = hash_sources(r.sources);
  f.set = true;
  f.checked.clear();
}

bool foreign_router_set() {
  Foreign& f = foreign();
  std::lock_guard<std::mutex> lock(f.mu);
  return f.set;
}
std::string foreign_router_top() {
  Foreign& f = foreign();
  std::lock_guard<std::mutex> lock(f.mu);
  return f.o.top;
}
std::string foreign_router_hash() {
  Foreign& f = foreign();
  std::lock_guard<std::mutex> lock(f.mu);
  return f.hash;
}
std::vector<std::string> foreign_router_sources() {
  Foreign& f = foreign();
  std::lock_guard<std::mutex> lock(f.mu);
  return f.o.sources;
}

RtlModelSpec foreign_router_spec(const model::RouterShape& shape, const sw::Topology& topo, uint32_t shape_word) {
  Foreign& f = foreign();
  ForeignRouterOptions o;
  {
    std::lock_guard<std::mutex> lock(f.mu);
    if (!f.set) throw std::logic_error("internal error: foreign_router_spec without --rtl-router");
    o = f.o;
  }
  if (shape.gossip_packet_flits)
    throw sw::InputError("--rtl-router with --gossip-hw: a foreign router has no gossip forwarding (torx_gossip_router "
                         "only)");
  if (shape.organization == model::Pipeline::kLookahead)
    throw sw::InputError("--rtl-router with --param pipeline=lookahead: the router interface's flit has no lookahead "
                         "route (la_port, la_class; docs/router-interface.md)");
  if (topo.ndims() > kRtlMaxDims)
    throw sw::InputError(fmt::format("--rtl-router: {} dimensions; the flit's start_dim field serves 1..{}",
                                     topo.ndims(), kRtlMaxDims));
  const int max_radix = max_radix_of(topo);
  const int64_t dateline_classes = (shape_word >> 8) & 0xFF, order_classes = (shape_word >> 16) & 0xFF;
  const std::string key = fmt::format("{} {} {} {} {} {} {} {} {} {}", shape_word, shape.ndims, shape.local_ports, shape.vc_classes,
                                      shape.vcs_per_class, shape.buffer_depth, shape.pipeline, shape.priority_levels,
                                      shape.priority_reserve, max_radix);
  {
    std::lock_guard<std::mutex> lock(f.mu);
    auto it = f.checked.find(key);
    if (it != f.checked.end()) return it->second;
  }
  RtlModelSpec spec;
  spec.top = o.top;
  spec.sources = o.sources;
  spec.name = fmt::format("{}_{}d{}_c{}_v{}_d{}", o.top, shape.ndims, shape.local_ports > 1 ? "_all" : "",
                          shape.vc_classes, shape.vcs_per_class, shape.buffer_depth);
  const std::string where = fmt::format("top {} ({})", o.top, o.sources.front());
  // 1. The parameters the top declares (elaborated with its defaults).
  const Top plain = parse_top(rtl_cache().inspect(spec), o.top);
  const std::map<std::string, int64_t> values = {
      {"NumDims", shape.ndims},
      {"NumLocal", shape.local_ports},
      {"NumClasses", shape.vc_classes},
      {"VcsPerClass", shape.vcs_per_class},
      {"BufferDepth", shape.buffer_depth},
      {"FlitBytes", static_cast<int64_t>(model::kMaxFlitBytes)},
      {"MaxRadix", max_radix},
      {"PipelineStages", shape.pipeline},
      {"PriorityLevels", shape.priority_levels},
      {"PriorityReserve", shape.priority_reserve},
      {"DatelineClasses", dateline_classes},
      {"OrderClasses", order_classes},
      {"SimTag", 1},
  };
  for (const ContractParam& c : router_contract_params()) {
    const bool has = plain.params.count(c.name) != 0;
    const bool needed = c.required || (std::string(c.name) == "PriorityLevels" && shape.priority_levels > 1);
    if (!has && needed)
      throw sw::InputError(fmt::format("--rtl-router: {} has no parameter {} ({}; docs/router-interface.md, "
                                       "\"Parameters\"){}",
                                       where, c.name, c.meaning,
                                       c.required ? "" : fmt::format(": this run needs {} = {}", c.name, values.at(c.name))));
    if (has) spec.params.emplace_back(c.name, values.at(c.name));
  }
  for (const auto& [name, v] : o.params) {
    if (!plain.params.count(name))
      throw sw::InputError(fmt::format("--rtl-param {}={}: {} has no parameter {}", name, v, where, name));
    spec.params.emplace_back(name, v);
    spec.name += fmt::format("_{}{}", name, v);  // the cache listing tells the builds apart
  }
  // 2. The ports, elaborated with those parameters.
  const Top top = parse_top(rtl_cache().inspect(spec), o.top);
  const FlitLayout layout = foreign_flit_layout(shape, static_cast<unsigned>(max_radix), model::kMaxFlitBytes);
  std::set<std::string> known;
  int cfg_ports = 0, cfg_have = 0;
  for (const ContractPort& c : router_contract_ports()) {
    known.insert(c.name);
    // The configuration port proper (cfg_sel_i, lookahead's table select, may be absent on its own).
    const bool cfg = std::string(c.name).rfind("cfg_", 0) == 0 && std::string(c.name) != "cfg_sel_i";
    cfg_ports += cfg;
    auto it = top.ports.find(c.name);
    if (it == top.ports.end()) {
      if (c.required)
        throw sw::InputError(fmt::format("--rtl-router: {} has no port {} ({} [{}]: {}; docs/router-interface.md, "
                                         "\"Ports\")",
                                         where, c.name, c.dir, c.width, c.meaning));
      continue;
    }
    cfg_have += cfg;
    if (it->second.dir != c.dir)
      throw sw::InputError(fmt::format("--rtl-router: {}: port {} is an {}, the contract's is an {}", where, c.name,
                                       it->second.dir, c.dir));
    const int want = contract_width(c, shape, layout);
    const int got = it->second.width;
    if (got < 0 || (want >= 0 && got != want) || (want < 0 && (got < 1 || got > 32)))
      throw sw::InputError(fmt::format(
          "--rtl-router: {}: port {} has {} bits, the contract's {} is {} = {} bits for this network ({} ports; "
          "docs/router-interface.md, \"Ports\")",
          where, c.name, got < 0 ? std::string("an unsized type of") : std::to_string(got), c.name, c.width,
          want < 0 ? std::string("1..32") : std::to_string(want), shape.ports()));
  }
  if (cfg_have != 0 && cfg_have != cfg_ports)
    throw sw::InputError(fmt::format("--rtl-router: {} has only part of the configuration port (cfg_*): all {} "
                                     "ports or none (docs/router-interface.md, \"Configuration port\")",
                                     where, cfg_ports));
  for (const auto& [name, p] : top.ports)
    if (p.dir == "input" && !known.count(name))
      throw sw::InputError(fmt::format("--rtl-router: {}: input {} is not in the contract (torx would leave it "
                                       "undriven; docs/router-interface.md, \"Ports\")",
                                       where, name));
  std::lock_guard<std::mutex> lock(f.mu);
  f.checked[key] = spec;
  return spec;
}

std::unique_ptr<model::RouterCore> ForeignRouterFactory::make(sw::NodeId v, const model::RouterShape& shape,
                                                              const model::RoutingImage& image,
                                                              const sw::Topology& topo) const {
  const RtlModelSpec spec = foreign_router_spec(shape, topo, image.size() > 2 ? image[2] : 0);
  auto make = reinterpret_cast<RtlMakeForeignRouterFn>(rtl_model_symbol(spec, kRtlMakeForeignRouterSymbol));
  // The name outlives the instance: the loaded model's table keeps one per spec.
  static std::mutex mu;
  static std::set<std::string> names;
  const char* name = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    name = names.insert(spec.name).first->c_str();
  }
  RtlForeignConfig c;
  c.router.name = name;
  c.router.shape = shape;
  c.router.max_radix = max_radix_of(topo);
  c.router.flit_bytes = static_cast<int>(model::kMaxFlitBytes);
  {
    Foreign& f = foreign();
    std::lock_guard<std::mutex> lock(f.mu);
    c.check = f.o.check;
  }
  return std::unique_ptr<model::RouterCore>(make(&c, &shape, &topo, v, &image));
}

std::unique_ptr<model::RouterCore> ForeignRouterFactory::make_gossip(sw::NodeId, const model::RouterShape&,
                                                                     const model::RoutingImage&,
                                                                     const model::GossipImage&,
                                                                     const sw::Topology&) const {
  throw sw::InputError("--rtl-router with --gossip-hw: a foreign router has no gossip forwarding (torx_gossip_router "
                       "only)");
}

}  // namespace torx::rtl
