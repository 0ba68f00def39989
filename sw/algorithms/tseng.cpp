// SPDX-License-Identifier: Apache-2.0
// Seed 000 on tori: ring, t1, t4, c1, c64 and tseng-dd, all as one partitioned
// dimension-by-dimension scheme over ring plans (tseng.hpp explains the block bookkeeping).
#include "algorithms/tseng.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "algorithms/ring_plan.hpp"
#include "core/int_math.hpp"

namespace torx::sw::tseng {

namespace {


// Ring plans by length, built once per generation.
class PlanCache {
 public:
  const ring::Plan& get(int n) {
    auto it = plans_.find(n);
    if (it == plans_.end()) it = plans_.emplace(n, ring::build_plan(n)).first;
    return it->second;
  }

 private:
  std::map<int, ring::Plan> plans_;
};

// A ring transmission's blocks as rectangles: sources [src, src + src_count) (cyclic) to the
// destinations [dst, dst + dst_count). The plan's runs are per source; late scattering phases carry
// one destination from many sources, so merging equal destination runs of consecutive sources turns
// 16.8 million runs of the 4096-ring into about 110 thousand boxes.
struct RunBox {
  int src;
  int src_count;
  int dst;
  int dst_count;
};

std::vector<RunBox> merge_runs(const std::vector<ring::BlockRun>& runs, int n) {
  std::vector<ring::BlockRun> v = runs;
  std::sort(v.begin(), v.end(), [](const ring::BlockRun& a, const ring::BlockRun& b) {
    return std::tie(a.first_dst, a.count, a.src) < std::tie(b.first_dst, b.count, b.src);
  });
  std::vector<RunBox> out;
  for (size_t i = 0; i < v.size();) {
    // One group: the runs with the same destinations, sources ascending.
    size_t end = i;
    while (end < v.size() && v[end].first_dst == v[i].first_dst && v[end].count == v[i].count) ++end;
    const size_t group_begin = out.size();
    for (size_t a = i; a < end;) {
      size_t b = a + 1;
      while (b < end && v[b].src == v[b - 1].src + 1) ++b;
      out.push_back({v[a].src, static_cast<int>(b - a), v[a].first_dst, v[a].count});
      a = b;
    }
    // Sources that run up to n-1 and continue at 0 form one cyclic range.
    if (out.size() - group_begin >= 2 && out[group_begin].src == 0 && out.back().src + out.back().src_count == n) {
      out[group_begin].src = out.back().src;
      out[group_begin].src_count += out.back().src_count;
      out.pop_back();
    }
    i = end;
  }
  return out;
}

int stage_count(const PartitionedScheme& s) {
  size_t n = 0;
  for (const LogicalTorus& t : s.tori) n = std::max(n, t.stages.size());
  return static_cast<int>(n);
}

int stage_steps(const Topology& topo, const PartitionedScheme& s, int stage, PlanCache& plans) {
  size_t steps = 0;
  for (const LogicalTorus& t : s.tori) {
    if (stage >= static_cast<int>(t.stages.size()) || t.stages[stage] < 0) continue;
    steps = std::max(steps, plans.get(topo.radix(t.stages[stage]) / s.g).phases.size());
  }
  return static_cast<int>(steps);
}

}  // namespace

int64_t t1d_blocks(int d) { return ring::theorem1_transmission_blocks(d); }

PartitionedScheme plain_scheme(const Topology& topo) {
  PartitionedScheme s;
  s.g = 1;
  LogicalTorus t;
  t.offset.assign(topo.ndims(), 0);
  for (int d = 0; d < topo.ndims(); ++d) t.stages.push_back(d);
  s.tori.push_back(t);
  return s;
}

PartitionedScheme t4_scheme() {
  PartitionedScheme s;
  s.g = 2;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      LogicalTorus t;
      t.offset = {i, j};
      // Table 1: P_{0,0}, P_{1,1}: X-stage then Y-stage; P_{0,1}, P_{1,0}: Y-stage then X-stage.
      t.stages = (i + j) % 2 == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0};
      s.tori.push_back(t);
    }
  return s;
}

PartitionedScheme c64_scheme() {
  // Table 2, one column per group G_s (rows are stages; -1 = the group idles in that stage).
  static const int kTable2[4][4] = {
      {0, -1, 2, 1},   // G_0: X, -, Z, Y
      {1, 0, -1, 2},   // G_1: Y, X, -, Z
      {2, 1, 0, -1},   // G_2: Z, Y, X, -
      {-1, 2, 1, 0},   // G_3: -, Z, Y, X
  };
  PartitionedScheme s;
  s.g = 4;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        LogicalTorus t;
        t.offset = {i, j, k};
        const int group = (i + j + k) % 4;
        t.stages.assign(kTable2[group], kTable2[group] + 4);
        s.tori.push_back(t);
      }
  return s;
}

int64_t scheme_steps(const Topology& topo, const PartitionedScheme& scheme) {
  PlanCache plans;
  int64_t steps = scheme.g > 1 ? int64_t{topo.ndims()} * (scheme.g - 1) : 0;
  for (int s = 0; s < stage_count(scheme); ++s) steps += stage_steps(topo, scheme, s, plans);
  return steps;
}

SchemeCounts scheme_counts(const std::vector<int>& dims, const PartitionedScheme& scheme) {
  const int nd = static_cast<int>(dims.size());
  const int g = scheme.g;
  int64_t n_total = 1;
  for (int r : dims) n_total *= r;
  SchemeCounts out;
  auto push = [&](int64_t blocks, std::string label) {
    out.step_max_blocks.push_back(blocks);
    out.labels.push_back(std::move(label));
    out.transmission_blocks += blocks;
  };
  if (g > 1)
    for (int d = 0; d < nd; ++d)
      for (int ph = 1; ph < g; ++ph) push(n_total / g * (g - ph), fmt::format("prep-{}{}", Topology::dim_name(d), ph));
  std::map<int, std::vector<int64_t>> phase_max;  // ring length -> per-phase largest transmission
  auto plan_max = [&](int m) -> const std::vector<int64_t>& {
    auto it = phase_max.find(m);
    if (it == phase_max.end()) it = phase_max.emplace(m, ring::phase_max_blocks(ring::build_plan(m))).first;
    return it->second;
  };
  for (int s = 0; s < stage_count(scheme); ++s) {
    size_t phases = 0;
    for (const LogicalTorus& t : scheme.tori)
      if (s < static_cast<int>(t.stages.size()) && t.stages[s] >= 0)
        phases = std::max(phases, plan_max(dims[t.stages[s]] / g).size());
    for (size_t p = 0; p < phases; ++p) {
      int64_t best = 0;
      for (const LogicalTorus& t : scheme.tori) {
        if (s >= static_cast<int>(t.stages.size()) || t.stages[s] < 0) continue;
        const int d = t.stages[s];
        const auto& pm = plan_max(dims[d] / g);
        if (p < pm.size()) best = std::max(best, int64_t{g} * (n_total / dims[d]) * pm[p]);
      }
      push(best, fmt::format("S{}.{}", s + 1, p));
    }
  }
  return out;
}

void generate_scheme(const Topology& topo, const PartitionedScheme& scheme, const ScheduleHeader& header_in,
                     ScheduleSink& sink) {
  const int nd = topo.ndims();
  const int g = scheme.g;
  PlanCache plans;
  ScheduleHeader header = header_in;
  header.steps = scheme_steps(topo, scheme);
  sink.begin(header);
  const BlockSpace space(Collective::kAlltoall, topo, 1, 0);
  Step step;
  std::vector<AxisRange> box(2 * nd);
  int64_t k = 0;
  auto prio = [&]() { return phase_priority(k, header.steps); };
  auto finish = [&]() {
    sink.step(step);
    ++k;
  };

  // Preparation: after the phases of dimension d, node v holds the blocks of sources
  // v - [0, g) along the dimensions done so far, aimed at its own residue classes there.
  if (g > 1) {
    for (int d = 0; d < nd; ++d) {
      const int nd_radix = topo.radix(d);
      for (int ph = 1; ph < g; ++ph) {
        step.clear();
        step.label = fmt::format("prep-{}{}", Topology::dim_name(d), ph);
        // Within one dimension the phases are self-synchronised: v's phase-ph send uses the link
        // and the receiver its phase-(ph-1) send used, and needs the blocks v received in it.
        step.sync = ph > 1 ? SyncMark::kNone : SyncMark::kBarrier;
        StepBuilder b(space, step);
        Route route;
        route.start_dim = static_cast<uint8_t>(d);
        for (NodeId v = 0; v < topo.nodes(); ++v) {
          const NodeId to = topo.neighbor(v, d, +1);
          b.message(v, to, route, prio());
          for (int e = 0; e < nd; ++e) {
            const int ve = topo.coord_of(v, e);
            const uint32_t re = static_cast<uint32_t>(topo.radix(e));
            if (e < d) {
              box[e] = {static_cast<uint32_t>(floor_mod(ve - g + 1, re)), static_cast<uint32_t>(g), 1};
              box[nd + e] = {static_cast<uint32_t>(ve % g), re / g, static_cast<uint32_t>(g)};
            } else if (e == d) {
              box[e] = {static_cast<uint32_t>(floor_mod(ve - (ph - 1), re)), 1, 1};
            } else {
              box[e] = {static_cast<uint32_t>(ve), 1, 1};
              box[nd + e] = {0, re, 1};
            }
          }
          // Phase ph carries the classes v_d + 1 .. v_d + g - ph of dimension d: one box each.
          const int vd = topo.coord_of(v, d);
          for (int c = 1; c <= g - ph; ++c) {
            box[nd + d] = {static_cast<uint32_t>((vd + c) % g), static_cast<uint32_t>(nd_radix / g), static_cast<uint32_t>(g)};
            b.add_box(box.data());
          }
        }
        finish();
      }
    }
  }

  // Stages.
  const int stages = stage_count(scheme);
  for (int s = 0; s < stages; ++s) {
    const int phases = stage_steps(topo, scheme, s, plans);
    for (int p = 0; p < phases; ++p) {
      step.clear();
      std::string label;
      // The boundary before phase p needs a barrier if any busy ring's plan says so (Section 7.1);
      // a stage's first phase always follows a barrier.
      bool barrier = p == 0;
      for (const LogicalTorus& t : scheme.tori) {
        if (s >= static_cast<int>(t.stages.size()) || t.stages[s] < 0) continue;
        const int d = t.stages[s];
        const int rd = topo.radix(d);
        const ring::Plan& plan = plans.get(rd / g);
        if (p >= static_cast<int>(plan.phases.size())) continue;
        const ring::Phase& phase = plan.phases[p];
        if (p > 0 && plan.barrier_after[p - 1]) barrier = true;
        if (label.empty()) {
          label = scheme.tori.size() == 1 && nd == 1 ? phase.label
                  : scheme.tori.size() == 1          ? fmt::format("{}.{}", Topology::dim_name(d), phase.label)
                                                     : fmt::format("S{}.{}", s + 1, phase.label);
        }
        uint32_t done_mask = 0;  // dimensions this torus has already exchanged
        for (int q = 0; q < s; ++q)
          if (q < static_cast<int>(t.stages.size()) && t.stages[q] >= 0) done_mask |= 1u << t.stages[q];
        Route route;
        route.start_dim = static_cast<uint8_t>(d);
        // Every logical ring along d: the torus's nodes whose d-coordinate is o_d.
        for (NodeId v = 0; v < topo.nodes(); ++v) {
          bool in_torus = topo.coord_of(v, d) == t.offset[d];
          for (int e = 0; e < nd && in_torus; ++e) in_torus = topo.coord_of(v, e) % g == t.offset[e];
          if (!in_torus) continue;
          StepBuilder b(space, step);
          for (const ring::Transmission& tx : phase.tx) {
            const NodeId from = v + static_cast<NodeId>(g * tx.from) * topo.stride(d);
            const NodeId to = v + static_cast<NodeId>(g * tx.to) * topo.stride(d);
            route.neg_mask = tx.dir < 0 ? (1u << d) : 0u;
            b.message(from, to, route, prio());
            for (const RunBox& run : merge_runs(tx.blocks, rd / g)) {
              for (int e = 0; e < nd; ++e) {
                const uint32_t re = static_cast<uint32_t>(topo.radix(e));
                const int ve = topo.coord_of(v, e);
                if (e == d) {
                  // Logical sources [A, A+k) stand for the physical sources [gA + o - g + 1, g(A+k-1) + o].
                  box[e] = {static_cast<uint32_t>(floor_mod(int64_t{g} * run.src + t.offset[d] - g + 1, re)),
                            static_cast<uint32_t>(g * run.src_count), 1};
                  box[nd + e] = {static_cast<uint32_t>(floor_mod(int64_t{g} * run.dst + t.offset[d], re)),
                                 static_cast<uint32_t>(run.dst_count), static_cast<uint32_t>(g)};
                } else if (done_mask & (1u << e)) {
                  box[e] = {0, re, 1};
                  box[nd + e] = {static_cast<uint32_t>(ve), 1, 1};
                } else {
                  box[e] = {static_cast<uint32_t>(floor_mod(ve - g + 1, re)), static_cast<uint32_t>(g), 1};
                  box[nd + e] = {static_cast<uint32_t>(t.offset[e]), re / g, static_cast<uint32_t>(g)};
                }
              }
              b.add_box(box.data());
            }
          }
        }
      }
      step.label = label;
      step.sync = barrier ? SyncMark::kBarrier : SyncMark::kNone;
      finish();
    }
  }
  sink.end();
}

// ---------------------------------------------------------------------------------------------
// Registration.

namespace {

void need_torus(const Topology& topo, const char* id) {
  if (!topo.wrap()) throw PreconditionError(fmt::format("{}: needs a torus (wraparound links); the network is a mesh", id));
}

Bound ring_formula(int n) {
  Bound b;
  const int d = ceil_lg(n);
  b.steps = n == 2 ? 1 : 2 * d - 2;
  if (is_pow2(n) && d >= 3) {
    b.transmission_blocks = t1d_blocks(d);
    b.source = d == 3 ? "seed 000 Theorem 1: Lemma 6 + 3 (d = 3); 2d-2 startups"
                      : "seed 000 Theorem 1: Lemma 6 + 2 (d >= 4); 2d-2 startups";
  } else {
    b.source = "seed 000 Section 5: 2(ceil(lg n)-1) phases; the transmission of non-power-of-2 rings is open in the seed";
  }
  return b;
}

std::vector<NamedBound> ring_conjecture(int n) {
  const int d = ceil_lg(n);
  if (is_pow2(n) || d < 3) return {};
  Bound b;
  b.steps = 2 * d - 2;
  b.transmission_blocks = t1d_blocks(d);
  b.source = "seed 000 Section 5 conjecture: bounded by T_1D(ceil(lg n))";
  return {NamedBound{"conjecture", b}};
}

// Dimension by dimension with plain rings: stage d carries N / n_d blocks per ring block.
std::optional<Bound> dd_formula(const Topology& topo, const std::string& source) {
  Bound b;
  int64_t steps = 0, tx = 0;
  for (int d = 0; d < topo.ndims(); ++d) {
    const int n = topo.radix(d);
    if (!is_pow2(n) || ceil_lg(n) < 3) return std::nullopt;
    steps += 2 * ceil_lg(n) - 2;
    tx += (topo.nodes() / n) * t1d_blocks(ceil_lg(n));
  }
  b.steps = steps;
  b.transmission_blocks = tx;
  b.source = source;
  return b;
}

void generate_plain(const std::string& id, const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
  const Algorithm& a = *find_algorithm(id);
  generate_scheme(topo, plain_scheme(topo), make_header(a, topo, opt, -1), sink);
}

// The fields every algorithm of this file shares; generate defaults to the plain dimension-by-dimension
// scheme (ring, t1, c1, tseng-dd), which t4 and c64 replace.
Algorithm base(const char* id, const char* pre, const char* paper, const char* summary) {
  Algorithm a;
  a.id = id;
  a.collective = Collective::kAlltoall;
  a.ports = PortModel::kOne;
  a.switching = Switching::kWormhole;
  a.preconditions = pre;
  a.paper = paper;
  a.summary = summary;
  a.lower_bound = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    return alltoall_lower_bound(topo, PortModel::kOne);
  };
  a.generate = [name = std::string(id)](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
    generate_plain(name, topo, opt, sink);
  };
  // The ring plans of every side length (PlanCache keeps each once; t4 and c64 plan shorter rings
  // than their sides, so this bounds them from above).
  a.plan_bytes = [](const Topology& topo, const AlgorithmOptions&) {
    std::set<int> sides;
    for (int d = 0; d < topo.ndims(); ++d) sides.insert(topo.radix(d));
    uint64_t bytes = 0;
    for (int n : sides) bytes += ring::plan_bytes(n);
    return bytes;
  };
  return a;
}

// Precondition of t1 and c1: a torus of exactly `dims` dimensions.
void need_torus_dims(const Topology& topo, const char* id, int dims) {
  need_torus(topo, id);
  if (topo.ndims() != dims)
    throw PreconditionError(fmt::format("{}: needs a {}D torus; --topo gives {} dimensions", id, dims, topo.ndims()));
}


}  // namespace
}  // namespace torx::sw::tseng

namespace torx::sw {

void register_ring(std::vector<Algorithm>& out) {
  using namespace tseng;
  {
    Algorithm a = base("ring", "a ring (1D torus) of any length n >= 2",
                       "seed 000 Sections 2 and 5: gather-scatter trees, positive and negative overlapped one-port",
                       "gather-scatter complete exchange on a ring; 2 ceil(lg n) - 2 steps");
    a.check = [](const Topology& topo, const AlgorithmOptions&) {
      need_torus(topo, "ring");
      if (topo.ndims() != 1)
        throw PreconditionError(fmt::format("ring: needs a ring (one dimension); --topo gives {} dimensions (use "
                                            "tseng-dd, t1 or c1 on tori)",
                                            topo.ndims()));
      if (topo.radix(0) > 65536) throw PreconditionError("ring: rings longer than 65536 nodes are not supported");
    };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      return ring_formula(topo.radix(0));
    };
    a.extras = [](const Topology& topo, const AlgorithmOptions&) { return ring_conjecture(topo.radix(0)); };
    out.push_back(std::move(a));
  }
  {
    Algorithm a = base("t1", "a 2D torus of any sides >= 2",
                       "seed 000 Section 3.1 (Algorithm T1, Lemma 7): X-stage then Y-stage of ring exchanges",
                       "ring exchange along x, then along y, with combined blocks");
    a.check = [](const Topology& topo, const AlgorithmOptions&) { need_torus_dims(topo, "t1", 2); };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) {
      return dd_formula(topo, "seed 000 Lemma 7: T_2D,T1(d, b) = 2 T_1D(d, 2^d b) (sides 2^d; per dimension otherwise)");
    };
    out.push_back(std::move(a));
  }
  {
    Algorithm a = base("c1", "a 3D torus of any sides >= 2",
                       "seed 000 Section 4 (Algorithm C1): X-, Y- then Z-stage of ring exchanges",
                       "ring exchange along x, y, then z, with combined blocks");
    a.check = [](const Topology& topo, const AlgorithmOptions&) { need_torus_dims(topo, "c1", 3); };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) {
      return dd_formula(topo, "seed 000 Section 4: C1 takes 3 T_1D(d, n^2 b) (sides 2^d; per dimension otherwise)");
    };
    out.push_back(std::move(a));
  }
  {
    Algorithm a = base("tseng-dd", "any torus: any number of dimensions, any sides >= 2",
                       "seed 000 Section 5: dimension-by-dimension ring exchanges on rings of any length",
                       "ring exchange dimension by dimension on any torus");
    a.check = [](const Topology& topo, const AlgorithmOptions&) { need_torus(topo, "tseng-dd"); };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) {
      return dd_formula(topo, "seed 000 Lemma 7 generalised: sum over dimensions of (N/n_d) T_1D(lg n_d)");
    };
    out.push_back(std::move(a));
  }
  {
    Algorithm a = base("t4", "a square 2D torus n x n, n even >= 4 (the seed: n = 2^d, d >= 4)",
                       "seed 000 Section 3.2 (Algorithm T4, Theorem 2, Table 1): four dilated logical tori",
                       "network partitioning: four link-disjoint copies of T1 after Pre1/Pre2");
    a.check = [](const Topology& topo, const AlgorithmOptions&) {
      need_torus(topo, "t4");
      if (topo.ndims() != 2 || topo.radix(0) != topo.radix(1))
        throw PreconditionError(fmt::format("t4: needs a square 2D torus n x n; --topo gives {}", topo.dims_string()));
      if (topo.radix(0) % 2 != 0 || topo.radix(0) < 4)
        throw PreconditionError(fmt::format("t4: the side must be even and at least 4 (four logical tori of side n/2); "
                                            "--topo gives {}",
                                            topo.dims_string()));
    };
    a.generate = [](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      generate_scheme(topo, t4_scheme(), make_header(*find_algorithm("t4"), topo, opt, -1), sink);
    };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      const int n = topo.radix(0);
      const int d = ceil_lg(n);
      if (!is_pow2(n) || d < 4) return std::nullopt;
      Bound b;
      b.steps = 4 * d - 6;
      b.transmission_blocks = (int64_t{1} << (2 * d)) + (int64_t{1} << (d + 2)) * t1d_blocks(d - 1);
      b.source = "seed 000 Theorem 2: 2 t_s + 2^(2d) b t_x + T_2D,T1(d-1, 4b)";
      return b;
    };
    out.push_back(std::move(a));
  }
  {
    Algorithm a = base("c64", "a cubic 3D torus n x n x n, n a multiple of 4, n >= 8 (the seed: n = 2^d, d >= 5)",
                       "seed 000 Section 4 (Algorithm C64, Theorem 3, Table 2): 64 dilated logical tori in 4 groups",
                       "network partitioning: nine preparation phases, then four cyclic stages");
    a.check = [](const Topology& topo, const AlgorithmOptions&) {
      need_torus(topo, "c64");
      if (topo.ndims() != 3 || topo.radix(0) != topo.radix(1) || topo.radix(1) != topo.radix(2))
        throw PreconditionError(fmt::format("c64: needs a cubic 3D torus n x n x n; --topo gives {}", topo.dims_string()));
      if (topo.radix(0) % 4 != 0 || topo.radix(0) < 8)
        throw PreconditionError(fmt::format("c64: the side must be a multiple of 4 and at least 8 (64 logical tori of "
                                            "side n/4); --topo gives {}",
                                            topo.dims_string()));
    };
    a.generate = [](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      generate_scheme(topo, c64_scheme(), make_header(*find_algorithm("c64"), topo, opt, -1), sink);
    };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      const int n = topo.radix(0);
      const int d = ceil_lg(n);
      if (!is_pow2(n) || d < 5) return std::nullopt;
      Bound b;
      b.steps = 8 * d - 15;
      b.transmission_blocks = 9 * (int64_t{1} << (3 * d - 1)) + (int64_t{1} << (2 * d + 4)) * t1d_blocks(d - 2);
      b.source = "seed 000 Theorem 3: 9 t_s + 9 2^(3d-1) b t_x + 4 T_1D(d-2, 64 2^(2(d-2)) b)";
      return b;
    };
    out.push_back(std::move(a));
  }
}

}  // namespace torx::sw
