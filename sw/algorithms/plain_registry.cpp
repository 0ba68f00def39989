// SPDX-License-Identifier: Apache-2.0
// Registration of the algorithms whose generators speak the plain interface (plain_schedule.hpp):
// seed 002 (suh), seed 004 (dimak-a2, dimak-a3), seed 001 (tsay-wang), seed 003 (ms-hc, ms-hc-steps,
// ms-hc-hd, ms-one).
// Each entry adapts the generator's std::invalid_argument into a PreconditionError (exit code 2)
// and its explicit block lists into compact boxes (plain_adapter.hpp).
#include <fmt/format.h>

#include <stdexcept>

#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/dimak.hpp"
#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/suh.hpp"
#include "algorithms/tsay_wang.hpp"
#include "core/int_math.hpp"

namespace torx::sw {

namespace {

// Runs `fn`, turning the generators' std::invalid_argument into a PreconditionError named after `id`.
template <class F>
auto preconditions(const std::string& id, F&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::invalid_argument& e) {
    throw PreconditionError(fmt::format("{}: {}", id, e.what()));
  }
}

// Streams a plain generator through the adapter into `sink`.
template <class Gen>
void stream_plain(const Algorithm& algo, const Topology& topo, const AlgorithmOptions& opt, int64_t steps,
                  ScheduleSink& sink, Gen&& gen) {
  ScheduleHeader h = make_header(algo, topo, opt, steps);
  sink.begin(h);
  const BlockSpace space(h.collective, topo, h.pieces, h.root);
  PlainStepAdapter adapter(topo, space, sink, steps);
  gen([&](PlainStep&& s) { adapter(std::move(s)); });
  sink.end();
}

}  // namespace

void register_plain(std::vector<Algorithm>& out) {
  {
    Algorithm a;
    a.id = "suh";
    a.collective = Collective::kAlltoall;
    a.ports = PortModel::kOne;
    a.switching = Switching::kWormhole;
    a.preconditions = "a mesh (or torus) of 2 or more dimensions, every side even, at most 8192 nodes";
    a.paper = "seed 002 (Suh, Shin, Yalamanchili) Sections 3 and 4: node groups, three phases, data array";
    a.summary = "complete exchange on meshes: (n/2) a1 steps, every send a contiguous slice of the data array";
    a.check = [](const Topology& topo, const AlgorithmOptions&) {
      preconditions("suh", [&] { return suh_formula(topo.radices()); });
      if (topo.nodes() > kSuhMaxNodes)
        throw PreconditionError(fmt::format("suh: {} nodes; at most {} are supported (the data arrays hold N^2 block ids)",
                                            topo.nodes(), kSuhMaxNodes));
    };
    a.generate = [](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      const SuhFormula f = preconditions("suh", [&] { return suh_formula(topo.radices()); });
      stream_plain(*find_algorithm("suh"), topo, opt, f.steps, sink, [&](const PlainStepSink& emit) {
        preconditions("suh", [&] {
          generate_suh(plain_topology(topo), emit);
          return 0;
        });
      });
    };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      const SuhFormula f = suh_formula(topo.radices());
      Bound b;
      b.steps = f.steps;
      b.transmission_blocks = f.transmission_blocks;
      b.source = topo.ndims() == 2 ? "seed 002 Section 3.4 / Table 1: C steps, R C^2 / 2 blocks"
                                   : "seed 002 Section 4: (n/2) a1 steps, (n/4) a1^2 a2 ... an blocks";
      return b;
    };
    a.facts = [](const Topology& topo, const AlgorithmOptions&) {
      // Data rearrangements: local re-sorts of a node's whole array of N blocks (Section 3.4(c)).
      const int64_t ours = suh_rearrangements(topo.radices()), paper = suh_paper_rearrangements(topo.radices());
      return std::vector<std::pair<std::string, int64_t>>{{"rearrangements", ours},
                                                          {"rearranged_blocks", ours * topo.nodes()},
                                                          {"rearrangements_paper", paper},
                                                          {"rearranged_blocks_paper", paper * topo.nodes()}};
    };
    a.lower_bound = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      return alltoall_lower_bound(topo, PortModel::kOne);
    };
    out.push_back(std::move(a));
  }
  {
    Algorithm a;
    a.id = "tsay-wang";
    a.collective = Collective::kBroadcast;
    a.ports = PortModel::kAll;
    a.switching = Switching::kWormhole;
    a.preconditions = "a torus n^d (all sides equal, n >= 2, any d >= 1); any root";
    a.paper = "seed 001 (Tsay, Wang) Sections 3-7: main diagonal, diagonal to diagonal, final phase, cyclic dimension order";
    a.summary = "all-port broadcast without link contention: d ceil(log_{2d+1} n) steps for d <= 3 (the seed's "
                "improvement), the paper's d ceil(log_{2d+1} n) + 1 (n odd) above";
    a.check = [](const Topology& topo, const AlgorithmOptions& opt) {
      if (!topo.wrap()) throw PreconditionError("tsay-wang: needs a torus (wraparound links); the network is a mesh");
      for (int d = 1; d < topo.ndims(); ++d)
        if (topo.radix(d) != topo.radix(0))
          throw PreconditionError(fmt::format("tsay-wang: needs a torus n^d with all sides equal; --topo gives {}",
                                              topo.dims_string()));
      if (!topo.valid(opt.root)) throw PreconditionError("tsay-wang: the root is not a node of the network");
    };
    a.generate = [](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      const int64_t steps = -1;  // empty steps are dropped, so the count is known only at the end
      TsayWangOptions twopt;
      twopt.keep_empty_steps = false;
      stream_plain(*find_algorithm("tsay-wang"), topo, opt, steps, sink, [&](const PlainStepSink& emit) {
        preconditions("tsay-wang", [&] {
          generate_tsay_wang(plain_topology(topo), opt.root, emit, twopt);
          return 0;
        });
      });
    };
    a.formula = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      Bound b;
      const int n = topo.radix(0), d = topo.ndims();
      b.steps = tsay_wang_steps(d, n);
      b.transmission_blocks = b.steps;  // one block per message
      b.source = n % 2 ? "seed 001 Theorem 5: d ceil(log_{2d+1} n) + 1 (n odd)"
                       : "seed 001 Section 7: d ceil(log_{2d+1}(n-1)) + ceil(d/2) + 1 (n even)";
      return b;
    };
    a.lower_bound = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      Bound b;
      b.steps = broadcast_lower_bound(topo.ndims(), topo.radix(0));
      b.source = "seed 001 Lemma 1: ceil(d log_{2d+1} n) (a node reaches at most 2d new nodes per step)";
      return b;
    };
    a.extras = [](const Topology& topo, const AlgorithmOptions&) {
      std::vector<NamedBound> out;
      if (topo.ndims() <= 3) {
        Bound b;
        b.steps = tsay_wang_improved_steps(topo.ndims(), topo.radix(0));
        b.transmission_blocks = b.steps;
        b.source = "seed 001 abstract: for d = 2 or 3, d ceil(log_{2d+1} n) for any n (docs/tsay-wang.md)";
        out.push_back({"improved", b});
      }
      return out;
    };
    out.push_back(std::move(a));
  }
  for (const bool multiport : {false, true}) {
    Algorithm a;
    a.id = multiport ? "dimak-a3" : "dimak-a2";
    a.collective = Collective::kAlltoall;
    a.ports = multiport ? PortModel::kAll : PortModel::kOne;
    a.switching = Switching::kStoreAndForward;
    a.preconditions = multiport ? "a torus or mesh H^(2^k): all sides equal, 1, 2, 4, ... dimensions"
                                : "any torus or mesh (products of rings or linear arrays; 2x...x2 is a hypercube)";
    a.paper = multiport ? "seed 004 (Dimakopoulos, Dimopoulos) Section 5: Algorithm A3, H x H exchanges overlapped"
                        : "seed 004 (Dimakopoulos, Dimopoulos) Section 4: Algorithm A2, row batches per dimension";
    a.summary = multiport ? "multiport store-and-forward total exchange: n T_H steps, meets the cut bound where H does"
                          : "single-port store-and-forward total exchange: the average-status bound on tori and hypercubes";
    a.check = [multiport](const Topology& topo, const AlgorithmOptions&) {
      const char* id = multiport ? "dimak-a3" : "dimak-a2";
      preconditions(id, [&] { return multiport ? dimak_a3_steps(plain_topology(topo)) : dimak_a2_steps(plain_topology(topo)); });
    };
    a.generate = [multiport](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      const char* id = multiport ? "dimak-a3" : "dimak-a2";
      const PlainTopology pt = plain_topology(topo);
      const int64_t steps = multiport ? dimak_a3_steps(pt) : dimak_a2_steps(pt);
      stream_plain(*find_algorithm(id), topo, opt, steps, sink, [&](const PlainStepSink& emit) {
        preconditions(id, [&] {
          multiport ? generate_dimak_a3(pt, emit) : generate_dimak_a2(pt, emit);
          return 0;
        });
      });
    };
    a.formula = [multiport](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      Bound b;
      const PlainTopology pt = plain_topology(topo);
      b.steps = multiport ? dimak_a3_steps(pt) : dimak_a2_steps(pt);
      b.transmission_blocks = b.steps;  // constant model: one block per message
      b.source = multiport ? "seed 004 Theorem 4 / Corollary 3: n^(d-1) T_H (reconstructed, docs/dimakopoulos.md)"
                           : "seed 004 Theorem 2 / Corollary 2: sum_i (N/n_i) T_i (reconstructed, docs/dimakopoulos.md)";
      return b;
    };
    a.lower_bound = [multiport](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      Bound b;
      const PlainTopology pt = plain_topology(topo);
      b.steps = multiport ? bisection_cut_bound(pt) : average_status_bound(pt);
      b.transmission_blocks = b.steps;
      b.source = multiport ? "seed 004 Eq. 4: cut bound |V1||V2|/C(V1,V2) over the bisections"
                           : "seed 004 Theorem 1 / Eq. 3: the average status of the network";
      return b;
    };
    out.push_back(std::move(a));
  }
  // Seed 003: three ms-hc variants (meyer_sibeyn.hpp, MsHcVariant) and ms-one.
  struct Gossip {
    const char* id;
    bool hc;
    MsHcVariant variant;
    const char* preconditions;
    const char* paper;
    const char* summary;
  };
  const char* hc_pre = "a torus, every side >= 3 (2D any parity; 3D and more where an edge-disjoint Hamiltonian "
                       "decomposition is found)";
  const Gossip gossips[] = {
      {"ms-hc", true, MsHcVariant::kDefault, hc_pre,
       "seed 003 (Meyer, Sibeyn) Section 2: split packets on edge-disjoint Hamiltonian cycles (Section 2.1's rule, "
       "a Hamiltonian decomposition elsewhere)",
       "oblivious full-port gossip: d shares both ways around d edge-disjoint Hamiltonian cycles, floor(P/2) steps"},
      {"ms-hc-steps", true, MsHcVariant::kFewestSteps, hc_pre,
       "seed 003 (Meyer, Sibeyn) Section 2.2: partial cycles with a re-packing step on 2D tori with one odd side "
       "(elsewhere as ms-hc)",
       "ms-hc with the fewest steps: 1 + floor((P - n_even/2)/2) with one odd side, for larger messages"},
      {"ms-hc-hd", true, MsHcVariant::kHamiltonian, hc_pre,
       "seed 003 (Meyer, Sibeyn) Section 2 on a Hamiltonian decomposition found by square switching (2D) or a "
       "product construction (3D and more), for every shape",
       "ms-hc on the full Hamiltonian decomposition, also where Section 2.1's rule applies"},
      {"ms-one", false, MsHcVariant::kDefault,
       "a 2D torus with an even side >= 4, or a 3D torus n1 x n2 x n3 with n1 % 3 == 0, n2 % n1 == 0, n3 >= 3",
       "seed 003 (Meyer, Sibeyn) Section 4: one packet per node on partial cycles (2D, 3D rods)",
       "oblivious full-port gossip with one packet per node on d partial cycles"},
  };
  for (const Gossip& g : gossips) {
    Algorithm a;
    a.id = g.id;
    a.collective = Collective::kAllgather;
    a.ports = PortModel::kAll;
    a.switching = Switching::kStoreAndForward;
    a.preconditions = g.preconditions;
    a.paper = g.paper;
    a.summary = g.summary;
    const std::string id = g.id;
    const bool hc = g.hc;
    MsHcOptions hc_options;
    hc_options.variant = g.variant;
    auto plan = [id, hc, hc_options](const Topology& topo) {
      return preconditions(id, [&] { return hc ? plan_ms_hc(plain_topology(topo), hc_options) : plan_ms_one(plain_topology(topo)); });
    };
    a.check = [plan](const Topology& topo, const AlgorithmOptions&) { plan(topo); };
    a.gossip_plan = [plan](const Topology& topo, const AlgorithmOptions&) { return plan(topo); };
    a.pieces = [plan](const Topology& topo, const AlgorithmOptions&) { return plan(topo).table.pieces; };
    a.generate = [id, hc, hc_options, plan](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
      const GossipPlan p = plan(topo);
      stream_plain(*find_algorithm(id), topo, opt, p.table.steps, sink, [&](const PlainStepSink& emit) {
        preconditions(id, [&] {
          hc ? generate_ms_hc(plain_topology(topo), hc_options, emit) : generate_ms_one(plain_topology(topo), emit);
          return 0;
        });
      });
    };
    a.formula = [hc, plan](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      // The paper's steps and its transmission (steps times its packet size), the latter in this
      // schedule's pieces, rounded up.
      Bound b;
      const PlainTopology pt = plain_topology(topo);
      b.steps = hc ? ms_hc_formula_steps(pt) : ms_one_formula_steps(pt);
      const Fraction tx = hc ? ms_hc_formula_transmission(pt) : ms_one_formula_transmission(pt);
      b.transmission_blocks = ceil_div(tx.num * plan(topo).table.pieces, tx.den);
      b.source = hc ? "seed 003 Theorem 1 (n1 n2 / 2 steps of s/2), Section 2.2 (n1 n2 / 2 + 1 + n_odd steps of "
                      "(1 + 1/n_odd) s/2), (P-1)/2 steps of s/d for a Hamiltonian decomposition; transmission in "
                      "pieces, rounded up"
                    : "seed 003 Theorem 3 (n1 n2 / 4 + n1 / 2 + n2 / 2 + 2), Theorem 4 without its O(n1 n3) term; "
                      "packets of s";
      return b;
    };
    a.lower_bound = [plan](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
      // Every piece must travel the diameter; and a node receives (P-1) pieces-worth of every
      // other node's data through its 2d links, at most the step's largest message per link.
      Bound b;
      int64_t diameter = 0;
      for (int r : topo.radices()) diameter += r / 2;
      b.steps = diameter;
      const int64_t pieces = plan(topo).table.pieces;
      const int64_t need = (int64_t{topo.nodes()} - 1) * pieces;
      b.transmission_blocks = ceil_div(need, 2 * topo.ndims());
      b.source = "diameter (steps); (P-1) x pieces received over 2d links (transmission, seed 003 Section 1)";
      return b;
    };
    a.facts = [plan](const Topology& topo, const AlgorithmOptions&) {
      const GossipPlan p = plan(topo);
      return std::vector<std::pair<std::string, int64_t>>{{"pieces", p.table.pieces},
                                                          {"largest_message_pieces", p.max_message_pieces},
                                                          {"injection_step", p.table.inject_step}};
    };
    out.push_back(std::move(a));
  }
}

}  // namespace torx::sw
