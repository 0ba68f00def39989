// SPDX-License-Identifier: Apache-2.0
// The RTL models a process uses (rtl_router.hpp): a router shape (or a barrier unit's dimensions)
// becomes the parameters of one Verilated model, the cache (rtl_cache.hpp) builds it on first use,
// and its shared object is loaded once per process and kept loaded (the instances' code lives in it).
// A loaded shared object is process state, so the table of loaded models is process-wide, behind a
// mutex; nothing about a network is kept in it.
#include <dlfcn.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "core/errors.hpp"
#include "hw/rtl_cache.hpp"
#include "hw/rtl_factory_abi.hpp"
#include "hw/rtl_router.hpp"
#include "hw/rtl_wires.hpp"
#include "models/port_router.hpp"

namespace torx::rtl {

// --- the catalog (docs/rtl.md, "Configurations") -----------------------------------------------------
// Named shapes: what the RTL tests build by name, lint checks with their parameters (torx rtl
// params), and the names reports use for them. Any other shape works as well (built on first use);
// the catalog only names these. Fields: name, NumDims, NumLocal, NumClasses, VcsPerClass,
// BufferDepth, PipelineStages, Mutant, MaxRadix, FlitBytes, PriorityLevels, PriorityReserve,
// PacketFlits, MaxRules.
namespace {
// A catalog row: name, N, K (local ports), C, V, D, P, mutant, priority levels, gossip packet
// flits, MaxRules.
RtlRouterConfig row(const char* name, int n, int local, int c, int v, int d, int p, int mutant = 0, int levels = 1,
                    int packet = 0, int rules = 0, model::Pipeline org = model::Pipeline::kSingle) {
  RtlRouterConfig r;
  r.shape.organization = org;
  r.name = name;
  r.shape.ndims = n;
  r.shape.local_ports = local;
  r.shape.vc_classes = c;
  r.shape.vcs_per_class = v;
  r.shape.buffer_depth = d;
  r.shape.pipeline = p;
  r.shape.priority_levels = levels;
  r.shape.gossip_packet_flits = static_cast<uint32_t>(packet);
  r.mutant = mutant;
  r.max_rules = rules;
  return r;
}
}  // namespace

const std::vector<RtlRouterConfig>& rtl_router_configs() {
  static const std::vector<RtlRouterConfig> k = {
      // The default router: 2D torus, one-port, dateline classes, D = 8, P = 2; and its four mutants.
      row("r2d", 2, 1, 2, 1, 8, 2),
      row("r2d_m1", 2, 1, 2, 1, 8, 2, 1),
      row("r2d_m2", 2, 1, 2, 1, 8, 2, 2),
      row("r2d_m3", 2, 1, 2, 1, 8, 2, 3),
      row("r2d_m4", 2, 1, 2, 1, 8, 2, 4),
      row("m2d_p1", 2, 1, 1, 1, 8, 1),      // mesh, P = 1
      row("r2d_all", 2, 4, 2, 1, 8, 2),     // all-port 2D torus
      row("r1d_v2", 1, 1, 2, 2, 3, 3),      // ring, V = 2, D = 3 < L + P + Lc, P = 3
      row("r3d_o3", 3, 1, 6, 1, 4, 2),      // 3D, order classes (C = 2 x 3)
      row("r1d", 1, 1, 2, 1, 8, 2),
      row("m2d", 2, 1, 1, 1, 8, 2),
      row("r3d", 3, 1, 2, 1, 8, 2),
      row("r1d_all", 1, 2, 2, 1, 8, 2),
      row("r2d_all_o2", 2, 4, 4, 1, 8, 2),
      row("r3d_all_o3", 3, 6, 6, 1, 8, 2),
      row("r1d_nodl", 1, 1, 1, 2, 8, 2),   // no datelines: the watchdog's deadlock
      row("m3d_v2_d2", 3, 1, 1, 2, 2, 1),  // the co-simulation matrix's corner
      // Priority throttle-and-preempt (docs/priority.md, "In the RTL"): K = 4 (--sync priority's
      // default), K = 2, and mutant 5 (a tail frees its VC instead of returning it) at K = 2.
      row("r2d_k4", 2, 1, 2, 1, 8, 2, 0, 4),
      row("r2d_k2", 2, 1, 2, 1, 8, 2, 0, 2),
      row("r2d_k2_m5", 2, 1, 2, 1, 8, 2, 5, 2),
      // The pipelined organizations (docs/timing-contract.md, "Router organizations"): lookahead and
      // classic on the default router, and lookahead's mutants 6 (a speculation not cancelled) and 7
      // (the lookahead route read from the wrong table entry).
      row("r2d_la", 2, 1, 2, 1, 8, 2, 0, 1, 0, 0, model::Pipeline::kLookahead),
      row("r2d_cl", 2, 1, 2, 1, 8, 2, 0, 1, 0, 0, model::Pipeline::kClassic),
      row("r2d_la_m6", 2, 1, 2, 1, 8, 2, 6, 1, 0, 0, model::Pipeline::kLookahead),
      row("r2d_la_m7", 2, 1, 2, 1, 8, 2, 7, 1, 0, 0, model::Pipeline::kLookahead),
  };
  return k;
}

const std::vector<RtlRouterConfig>& rtl_gossip_router_configs() {
  // Gossip-mode routers at a gossip run's defaults (all-port, dateline classes, V = 1, P = 2,
  // 4-flit packets, D = 8 = two packets), and the 2D one's mutant (a copy keeps its age).
  static const std::vector<RtlRouterConfig> k = {
      row("g2d", 2, 4, 2, 1, 8, 2, 0, 1, 4, 32),
      row("g2d_m1", 2, 4, 2, 1, 8, 2, 1, 1, 4, 32),
      row("g3d", 3, 6, 2, 1, 8, 2, 0, 1, 4, 64),
  };
  return k;
}

const std::vector<RtlBarrierConfig>& rtl_barrier_configs() {
  static const std::vector<RtlBarrierConfig> k = {{"b1", 1}, {"b2", 2}, {"b3", 3}};
  return k;
}

namespace {

// A loaded model: its name and entry point.
struct Loaded {
  std::string name;
  void* make = nullptr;
  bool built = false;
  std::string path;
};

struct Models {
  std::mutex mu;
  RtlCacheOptions options;
  std::unique_ptr<RtlCache> cache;
  std::map<std::string, std::unique_ptr<Loaded>> loaded;  // by entry name (NAME-KEY)
  std::vector<const Loaded*> order;                       // in the order loaded
  RtlFactoryMode mode = RtlFactoryMode::kSimulate;
  std::vector<RtlModelSpec> planned;
};

Models& models() {
  static Models m;
  return m;
}

RtlCache& cache_locked(Models& m) {
  if (!m.cache) m.cache = std::make_unique<RtlCache>(m.options);
  return *m.cache;
}

// The rule count of a gossip image (models/gossip_table.hpp: word 2, bits 31:8).
int64_t gossip_rules(const model::GossipImage& gossip) { return gossip.size() > 2 ? (gossip[2] >> 8) : 0; }

int pow2_at_least(int64_t v, int floor) {
  int p = floor;
  while (p < v) p *= 2;
  return p;
}

// The Verilated parameters of a router of `shape` (see rtl_router_spec).
RtlRouterConfig router_config(const model::RouterShape& s, int mutant, int max_radix, int max_rules) {
  RtlRouterConfig c;
  c.shape = s;
  c.shape.payload_words = model::kMaxFlitWords;  // the model's flit: FlitBytes
  if (s.gossip_packet_flits) c.shape.priority_levels = 1;
  if (c.shape.priority_levels == 1) c.shape.priority_reserve = 1;  // not a parameter without levels
  c.mutant = mutant;
  c.max_radix = max_radix;
  c.flit_bytes = static_cast<int>(model::kMaxFlitBytes);
  c.max_rules = s.gossip_packet_flits ? max_rules : 0;
  return c;
}

bool same_model(const RtlRouterConfig& a, const RtlRouterConfig& b) {
  return a.shape.ndims == b.shape.ndims && a.shape.local_ports == b.shape.local_ports && a.shape.vc_classes == b.shape.vc_classes &&
         a.shape.vcs_per_class == b.shape.vcs_per_class && a.shape.buffer_depth == b.shape.buffer_depth && a.shape.pipeline == b.shape.pipeline &&
         a.shape.organization == b.shape.organization &&
         a.mutant == b.mutant && a.max_radix == b.max_radix && a.flit_bytes == b.flit_bytes &&
         a.shape.priority_levels == b.shape.priority_levels && (a.shape.priority_levels == 1 || a.shape.priority_reserve == b.shape.priority_reserve) &&
         a.shape.gossip_packet_flits == b.shape.gossip_packet_flits && (a.shape.gossip_packet_flits == 0 || a.max_rules == b.max_rules);
}

// A model's name: the catalog's when the catalog names it (so "r2d" stays "r2d"), else one that
// spells the parameters ("r3d_v3_d5_p3").
std::string model_name(const RtlRouterConfig& c) {
  for (const auto* table : {&rtl_router_configs(), &rtl_gossip_router_configs()})
    for (const RtlRouterConfig& k : *table)
      if (same_model(k, c)) return k.name;
  std::string n = fmt::format("{}{}d{}", c.shape.gossip_packet_flits ? "g" : "r", c.shape.ndims, c.shape.local_ports > 1 ? "_all" : "");
  if (c.shape.vc_classes != 2) n += fmt::format("_c{}", c.shape.vc_classes);
  n += fmt::format("_v{}_d{}_p{}", c.shape.vcs_per_class, c.shape.buffer_depth, c.shape.pipeline);
  if (c.shape.organization == model::Pipeline::kLookahead) n += "_la";
  if (c.shape.organization == model::Pipeline::kClassic) n += "_cl";
  if (c.shape.priority_levels > 1)
    n += fmt::format("_k{}{}", c.shape.priority_levels, c.shape.priority_reserve != 1 ? fmt::format("r{}", c.shape.priority_reserve) : "");
  if (c.shape.gossip_packet_flits) n += fmt::format("_pf{}_rules{}", c.shape.gossip_packet_flits, c.max_rules);
  if (c.max_radix != 64) n += fmt::format("_x{}", c.max_radix);
  if (c.flit_bytes != 32) n += fmt::format("_f{}", c.flit_bytes);
  if (c.mutant) n += fmt::format("_m{}", c.mutant);
  return n;
}

RtlModelSpec spec_of(const RtlRouterConfig& c) {
  RtlModelSpec s;
  s.name = model_name(c);
  s.top = c.shape.gossip_packet_flits ? "torx_gossip_router" : "torx_router";
  s.params = {{"NumDims", c.shape.ndims},         {"NumLocal", c.shape.local_ports},   {"NumClasses", c.shape.vc_classes},
              {"VcsPerClass", c.shape.vcs_per_class}, {"BufferDepth", c.shape.buffer_depth}, {"PipelineStages", c.shape.pipeline},
              {"FlitBytes", c.flit_bytes},  {"MaxRadix", c.max_radix}};
  if (c.shape.gossip_packet_flits) {
    s.params.insert(s.params.end(), {{"PacketFlits", c.shape.gossip_packet_flits}, {"MaxRules", c.max_rules}});
  } else {
    s.params.insert(s.params.end(), {{"Pipeline", static_cast<int>(c.shape.organization)},
                                     {"PriorityLevels", c.shape.priority_levels},
                                     {"PriorityReserve", c.shape.priority_reserve}});
  }
  // A hand-written mutant: the production SV with the mutant's patch (testbenches/rtl/mutants/).
  if (c.mutant) s.patch = fmt::format("{}_m{}.patch", c.shape.gossip_packet_flits ? "gossip" : "router", c.mutant);
  return s;
}

// The table's MaxRadix for a topology: 64 (one build serves every radix up to 64), else 256.
int max_radix_for(const sw::Topology& topo) {
  if (topo.max_radix() > kRtlMaxRadix)
    throw sw::InputError(fmt::format("the {} has a radix of {}; the RTL router's routing table holds radices up to "
                                     "{} (MaxRadix, torx_routing_unit; docs/rtl.md, \"Limits\")",
                                     topo.to_string(), topo.max_radix(), kRtlMaxRadix));
  return topo.max_radix() <= 64 ? 64 : kRtlMaxRadix;
}

// The loaded model of `spec` (built first if needed) and its entry point `symbol`.
Loaded& load(const RtlModelSpec& spec, const char* symbol) {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  RtlCache& cache = cache_locked(m);
  const std::string entry = cache.entry_name(spec);
  auto it = m.loaded.find(entry);
  if (it != m.loaded.end()) return *it->second;
  bool built = false;
  const std::filesystem::path so = cache.ensure(spec, &built);
  // RTLD_LOCAL: the model's own symbols stay out of the process's namespace; what it needs from
  // outside (the Verilator runtime, fmt, the harness's helpers) resolves to the executable's.
  void* h = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) throw std::runtime_error(fmt::format("cannot load the RTL model {} ({}): {}", spec.name, so.string(), ::dlerror()));
  auto abi = reinterpret_cast<RtlAbiFn>(::dlsym(h, kRtlAbiSymbol));
  if (!abi || abi() != kRtlFactoryAbi)
    throw std::runtime_error(fmt::format("the RTL model {} ({}) was built for another torx (factory ABI {}, this "
                                         "torx {}): torx rtl clean removes it",
                                         spec.name, so.string(), abi ? abi() : -1, kRtlFactoryAbi));
  auto l = std::make_unique<Loaded>();
  l->name = spec.name;
  l->make = ::dlsym(h, symbol);
  l->built = built;
  l->path = so.string();
  if (!l->make) throw std::runtime_error(fmt::format("the RTL model {} ({}) has no {}", spec.name, so.string(), symbol));
  Loaded& ref = *l;
  m.order.push_back(&ref);
  m.loaded.emplace(entry, std::move(l));
  return ref;
}

void check_mutant(const RtlRouterConfig& c) {
  const bool la = c.shape.organization == model::Pipeline::kLookahead;
  const int most = c.shape.gossip_packet_flits ? 2 : c.shape.priority_levels > 1 ? 5 : la ? 7 : 4;
  if (c.mutant < 0 || c.mutant > most || (la && c.mutant == 5))
    throw sw::InputError(fmt::format("mutant {} does not exist for the {} router (mutants 1..{}{}; docs/rtl.md, "
                                     "\"Mutants\")",
                                     c.mutant,
                                     c.shape.gossip_packet_flits ? "gossip"
                                     : c.shape.priority_levels > 1 ? "priority"
                                     : la                          ? "lookahead"
                                                                   : "plain",
                                     la ? 4 : most, la ? ", 6, 7" : ""));
}

}  // namespace

std::string RtlRouterConfig::describe() const {
  const model::RouterShape& s = shape;
  return fmt::format("{}: {} dims, {} local port{}, C={}, V={}, D={}, P={}{}, MaxRadix {}, {}-byte flits{}{}", name,
                     s.ndims, s.local_ports, s.local_ports == 1 ? "" : "s", s.vc_classes, s.vcs_per_class,
                     s.buffer_depth, s.pipeline,
                     s.organization == model::Pipeline::kSingle
                         ? ""
                         : fmt::format(", {}", sw::pipeline_name(static_cast<int>(s.organization))),
                     max_radix, flit_bytes,
                     s.priority_levels > 1
                         ? fmt::format(", {} priority levels (reserve {})", s.priority_levels, s.priority_reserve)
                         : "",
                     mutant ? fmt::format(", mutant {}", mutant) : "") +
         (s.gossip_packet_flits ? fmt::format(", gossip: {}-flit packets, {} rules", s.gossip_packet_flits, max_rules)
                                : "");
}

const char* cfg_error_text(CfgImage kind, unsigned code) {
  const bool gossip = kind == CfgImage::kGossip;
  switch (code) {
    case 0: return "no error";
    case 1: return "the image has the wrong number of words";
    case 2: return "wrong magic";
    case 3: return "version is not supported";
    case 4: return "checksum mismatch (the image is damaged)";
    case 5: return "the number of dimensions differs from the router's";
    case 6: return "dateline classes must be 1 or 2";
    case 7: return "order classes must be 1..dimensions";
    case 8: return gossip ? "more rules than the router's MaxRules"
                          : "the VC classes or the all-port bit differ from the router's parameters";
    case 9: return "the image is for another node";
    case 10: return "a radix is 0 or above the router's MaxRadix";
    case 11: return "reserved bits 31:16 must be zero";
    case 12: return gossip ? "a rule names a port that is not a network port" : "a port that does not exist";
    case 13: return "VC class is out of range";
    case 14: return gossip ? "the deliver mask names ports the router does not have"
                           : "child mask names ports the unit does not have";
    case 15: return gossip ? "an empty or zero age window" : "unknown error";
    default: return "unknown error";
  }
}

void configure_rtl_models(const RtlCacheOptions& options) {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  m.options = options;
  m.cache.reset();
}

RtlCache& rtl_cache() {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  return cache_locked(m);
}

void check_rtl_shape(const model::RouterShape& s, const sw::Topology& topo) {
  auto limit = [](const std::string& what) {
    throw sw::InputError(fmt::format("the RTL router cannot serve this network: {} (docs/rtl.md, \"Limits\")", what));
  };
  if (s.organization != model::Pipeline::kSingle && (s.priority_levels > 1 || s.gossip_packet_flits))
    throw sw::InputError(fmt::format("--param pipeline={}: {} run with the single organization only "
                                     "(docs/timing-contract.md, \"Router organizations\")",
                                     sw::pipeline_name(static_cast<int>(s.organization)),
                                     s.gossip_packet_flits ? "the hardwired gossip routers" : "priority lanes"));
  if (s.ndims < 1 || s.ndims > kRtlMaxDims)
    limit(fmt::format("{} dimensions, the SV holds 1..{} (start_dim is a 4-bit field)", s.ndims, kRtlMaxDims));
  if (topo.ndims() != s.ndims)
    throw sw::InputError(fmt::format("the {} has {} dimensions, the router shape {}", topo.to_string(), topo.ndims(),
                                     s.ndims));
  if (s.network_vcs() * (s.gossip_packet_flits ? 1 : s.priority_levels) > 64)
    limit(fmt::format("{} lanes per port, the SV holds 64", s.network_vcs() * s.priority_levels));
  if (s.gossip_packet_flits && s.buffer_depth < 2 * static_cast<int>(s.gossip_packet_flits))
    limit(fmt::format("buffer_depth {} holds fewer than two {}-flit gossip packets", s.buffer_depth,
                      s.gossip_packet_flits));
  if (s.payload_words * 8 > model::kMaxFlitBytes) limit("flits above 32 bytes");
  max_radix_for(topo);
}

RtlModelSpec rtl_router_spec(const model::RouterShape& shape, int mutant, const sw::Topology& topo, int max_rules) {
  check_rtl_shape(shape, topo);
  RtlRouterConfig c = router_config(shape, mutant, max_radix_for(topo), max_rules);
  check_mutant(c);
  return spec_of(c);
}

RtlModelSpec rtl_barrier_spec(int ndims) {
  if (ndims < 1 || ndims > kRtlMaxDims)
    throw sw::InputError(fmt::format("the RTL barrier unit cannot serve {} dimensions: it holds 1..{} (docs/rtl.md, "
                                     "\"Limits\")",
                                     ndims, kRtlMaxDims));
  RtlModelSpec s;
  s.name = fmt::format("b{}", ndims);
  s.top = "torx_barrier";
  s.params = {{"NumDims", ndims}};
  return s;
}

std::unique_ptr<RtlRouter> make_rtl_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                           sw::NodeId node, const model::RoutingImage& image) {
  if (shape.gossip_packet_flits)
    throw std::logic_error("internal error: make_rtl_router on a gossip shape (make_rtl_gossip_router)");
  check_rtl_shape(shape, topo);
  RtlRouterConfig c = router_config(shape, mutant, max_radix_for(topo), 0);
  check_mutant(c);
  const RtlModelSpec spec = spec_of(c);
  Loaded& l = load(spec, kRtlMakeRouterSymbol);
  c.name = l.name.c_str();
  return std::unique_ptr<RtlRouter>(reinterpret_cast<RtlMakeRouterFn>(l.make)(&c, &shape, &topo, node, &image));
}

std::unique_ptr<RtlRouter> make_rtl_gossip_router(const model::RouterShape& shape, int mutant, const sw::Topology& topo,
                                                  sw::NodeId node, const model::GossipImage& gossip) {
  if (!shape.gossip_packet_flits)
    throw std::logic_error("internal error: make_rtl_gossip_router on a plain shape");
  check_rtl_shape(shape, topo);
  // The rule registers: 32, or the image's rule count rounded up to a power of two.
  const int64_t rules = gossip_rules(gossip);
  if (rules > kRtlMaxRules)
    throw sw::InputError(fmt::format("the gossip image of node {} has {} rules; the RTL gossip unit holds at most {} "
                                     "(docs/rtl.md, \"Limits\")",
                                     node, rules, kRtlMaxRules));
  RtlRouterConfig c = router_config(shape, mutant, max_radix_for(topo), pow2_at_least(rules, 32));
  check_mutant(c);
  const RtlModelSpec spec = spec_of(c);
  Loaded& l = load(spec, kRtlMakeGossipRouterSymbol);
  c.name = l.name.c_str();
  return std::unique_ptr<RtlRouter>(
      reinterpret_cast<RtlMakeGossipRouterFn>(l.make)(&c, &shape, &topo, node, &gossip));
}

std::unique_ptr<RtlBarrier> make_rtl_barrier(const sw::Topology& topo, sw::NodeId node, const model::BarrierImage& image) {
  const RtlModelSpec spec = rtl_barrier_spec(topo.ndims());
  Loaded& l = load(spec, kRtlMakeBarrierSymbol);
  RtlBarrierConfig c;
  c.name = l.name.c_str();
  c.ndims = topo.ndims();
  return std::unique_ptr<RtlBarrier>(reinterpret_cast<RtlMakeBarrierFn>(l.make)(&c, node, &image));
}

void* rtl_model_symbol(const RtlModelSpec& spec, const char* symbol) { return load(spec, symbol).make; }

std::string rtl_model_name(const model::RouterShape& shape, int mutant, const sw::Topology& topo) {
  return rtl_router_spec(shape, mutant, topo, shape.gossip_packet_flits ? 32 : 0).name;
}

}  // namespace torx::rtl

namespace torx::rtl {

void set_rtl_factory_mode(RtlFactoryMode mode) {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  m.mode = mode;
}

std::vector<RtlModelSpec> rtl_planned_models() {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  return m.planned;
}

std::vector<RtlLoadedModel> rtl_loaded_models() {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  std::vector<RtlLoadedModel> v;
  for (const Loaded* l : m.order) v.push_back({l->name, l->built, l->path});
  return v;
}

namespace {
RtlFactoryMode factory_mode() {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  return m.mode;
}

void note(const RtlModelSpec& spec) {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mu);
  for (const auto& s : m.planned)
    if (s.name == spec.name && s.param_args() == spec.param_args()) return;
  m.planned.push_back(spec);
}

}  // namespace

std::unique_ptr<model::RouterCore> RtlRouterFactory::make(sw::NodeId v, const model::RouterShape& shape,
                                                          const model::RoutingImage& image,
                                                          const sw::Topology& topo) const {
  const RtlFactoryMode mode = factory_mode();
  if (mode == RtlFactoryMode::kPlan) note(rtl_router_spec(shape, mutant_, topo, 0));
  else if (std::unique_ptr<RtlRouter> r = make_rtl_router(shape, mutant_, topo, v, image); mode == RtlFactoryMode::kSimulate)
    return r;
  return model::CppRouterFactory(model::RouterConfig{}).make(v, shape, image, topo);
}

std::unique_ptr<model::RouterCore> RtlRouterFactory::make_gossip(sw::NodeId v, const model::RouterShape& shape,
                                                                 const model::RoutingImage& image,
                                                                 const model::GossipImage& gossip,
                                                                 const sw::Topology& topo) const {
  const RtlFactoryMode mode = factory_mode();
  if (mode == RtlFactoryMode::kPlan)
    note(rtl_router_spec(shape, mutant_, topo, pow2_at_least(gossip_rules(gossip), 32)));
  else if (std::unique_ptr<RtlRouter> r = make_rtl_gossip_router(shape, mutant_, topo, v, gossip);
           mode == RtlFactoryMode::kSimulate)
    return r;
  return model::CppRouterFactory(model::RouterConfig{}).make_gossip(v, shape, image, gossip, topo);
}

std::unique_ptr<model::BarrierCore> RtlBarrierFactory::make(sw::NodeId v, const model::BarrierImage& image,
                                                            const sw::Topology& topo) const {
  const RtlFactoryMode mode = factory_mode();
  if (mode == RtlFactoryMode::kPlan) note(rtl_barrier_spec(topo.ndims()));
  else if (std::unique_ptr<RtlBarrier> b = make_rtl_barrier(topo, v, image); mode == RtlFactoryMode::kSimulate)
    return b;
  return model::CppBarrierFactory().make(v, image, topo);
}

RtlModelSpec rtl_config_spec(const RtlRouterConfig& config) {
  RtlModelSpec s = spec_of(config);
  s.name = config.name;
  return s;
}

const RtlRouterConfig* find_rtl_router(const model::RouterShape& shape, int mutant) {
  const RtlRouterConfig c = router_config(shape, mutant, 64, shape.gossip_packet_flits ? 32 : 0);
  for (const auto* table : {&rtl_router_configs(), &rtl_gossip_router_configs()})
    for (const RtlRouterConfig& k : *table)
      if (same_model(k, c)) return &k;
  return nullptr;
}

}  // namespace torx::rtl
