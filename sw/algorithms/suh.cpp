// SPDX-License-Identifier: Apache-2.0
// Suh-Shin-Yalamanchili complete exchange on even-sided meshes (seed 002). The algorithm, the
// dimension convention and the section references are in suh.hpp; this file comments the details
// and where the implementation reads the (machine-extracted) paper in a particular way.
//
// The generator is a literal simulation of the paper's data arrays: each node owns an array of N
// block ids, a step's message is a slice of the sender's array, and the receiver writes it into the
// slots it just emptied. The slices are computed from the layout rules alone; always-on checks then
// confirm that every block leaving a node really has to leave it, so a wrong layout rule cannot
// silently produce a schedule that happens to deliver by accident. register_suh (at the end) enters it
// in the registry.
#include "algorithms/suh.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/int_math.hpp"

namespace torx::sw {
namespace {

// Position of the quarter holding the (b_first, b_second) class before two exchanges, where b = 1
// means "destined for the other member of the 2x...x2 submesh along that exchange's dimension".
// Order (0,0), (1,0), (1,1), (0,1) is Figure 2(f)'s clockwise order self, step-1 partner, diagonal,
// step-2 partner. Exchange 1 then sends quarters 1-2; it receives the partner's quarters 1-2 in
// place, which for this node hold classes (0,0) and (0,1); so exchange 2 sends quarters 2-3.
constexpr int kQuarterOf[2][2] = {{0, 3}, {1, 2}};  // [b_first][b_second]

// Validates the preconditions shared by the generator and the closed forms; returns N.
int64_t check_dims(const std::vector<int>& dims, const char* what) {
  const std::string who = std::string("suh: ") + what;
  if (dims.size() < 2) {
    // On a single line the even and the odd logical ring would share the line's links in the same
    // phase; the paper's construction starts from 2D (Section 3).
    throw std::invalid_argument(who + " needs at least 2 dimensions (Section 3 starts from a 2D mesh), got " +
                                std::to_string(dims.size()));
  }
  int64_t nodes = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 2 || dims[d] % 2 != 0) {
      throw std::invalid_argument(who + " needs every radix even and >= 2 (Section 3.1 pairs the nodes into 2x2 "
                                  "submeshes), got radix " + std::to_string(dims[d]) + " in dimension " +
                                  std::to_string(d));
    }
    if (nodes > std::numeric_limits<int32_t>::max() / dims[d]) {
      throw std::invalid_argument(who + ": the network has more than 2^31 nodes");
    }
    nodes *= dims[d];
  }
  return nodes;
}

std::vector<int> roles_of(const std::vector<int>& dims) {
  // Highest dimension first, then a stable sort by radix (descending): ties keep that order, so a
  // square 2D mesh maps c to y and r to x, like any R x C with R < C.
  std::vector<int> roles(dims.size());
  std::iota(roles.rbegin(), roles.rend(), 0);
  std::stable_sort(roles.begin(), roles.end(), [&](int a, int b) { return dims[a] > dims[b]; });
  return roles;
}

// Shape of the network and the per-node rules that depend only on coordinates.
class SuhGeometry {
 public:
  explicit SuhGeometry(const std::vector<int>& dims, const char* what)
      : dims_(dims), ndims_(static_cast<int>(dims.size())), nodes_(check_dims(dims, what)), roles_(roles_of(dims)) {
    stride_.resize(ndims_);
    int64_t s = 1;
    for (int d = 0; d < ndims_; ++d) {
      stride_[d] = s;
      s *= dims_[d];
    }
  }

  const std::vector<int>& dims() const { return dims_; }
  int ndims() const { return ndims_; }
  int64_t nodes() const { return nodes_; }
  int64_t stride(int d) const { return stride_[d]; }
  const std::vector<int>& roles() const { return roles_; }
  int a1() const { return dims_[roles_[0]]; }

  int coord(int64_t node, int d) const { return static_cast<int>((node / stride_[d]) % dims_[d]); }
  // Ring direction of `node` in dimension d: + for an even coordinate, - for an odd one (see suh.hpp).
  int sigma(int64_t node, int d) const { return coord(node, d) % 2 == 0 ? +1 : -1; }
  // Offset of `dst` from `node` along d, counted in the node's ring direction, in [0, radix).
  int64_t offset(int64_t node, int64_t dst, int d) const {
    return floor_mod(sigma(node, d) * (coord(dst, d) - coord(node, d)), dims_[d]);
  }
  // 1 if `dst` is the other member of node's 2x...x2 submesh along d (phase n+1 class bit).
  int other_bit(int64_t node, int64_t dst, int d) const { return coord(dst, d) != coord(node, d) ? 1 : 0; }

  std::vector<int> phase_dims(int64_t node) const {
    // 2D base (Section 3.2): equal parities (EE, OO) start along c = paper dimension 1.
    const int c = roles_[0];
    const int r = roles_[1];
    std::vector<int> order;
    if (coord(node, c) % 2 == coord(node, r) % 2) {
      order = {c, r};
    } else {
      order = {r, c};
    }
    // Section 4's recursion: even in paper dimension k -> (k-1)-D order then k; odd -> k first.
    // It keeps the property that two groups differing only in dimension d never both use d in the
    // same phase (the 2D base has it: flipping either parity swaps the order). It must start from
    // the 2D rule, not from 1D: in 1D both parity classes of a line would use the line at once.
    for (int k = 2; k < ndims_; ++k) {
      const int d = roles_[k];
      if (coord(node, d) % 2 == 0) {
        order.push_back(d);
      } else {
        order.insert(order.begin(), d);
      }
    }
    return order;
  }

 private:
  std::vector<int> dims_;
  int ndims_ = 0;
  int64_t nodes_ = 0;
  std::vector<int> roles_;
  std::vector<int64_t> stride_;
};

class SuhGenerator {
 public:
  explicit SuhGenerator(const std::vector<int>& dims) : geo_(dims, "generate_suh"), nodes_(geo_.nodes()) {
    if (nodes_ > kSuhMaxNodes) {
      throw std::invalid_argument("suh: generate_suh holds every node's data array (N^2 block ids) and accepts "
                                  "at most " + std::to_string(kSuhMaxNodes) + " nodes, got " + std::to_string(nodes_));
    }
    ndims_ = geo_.ndims();
    order_.resize(nodes_);
    for (int64_t v = 0; v < nodes_; ++v) order_[v] = geo_.phase_dims(v);
  }

  void run(const PlainStepSink& emit, const SuhArraySink* trace) {
    init_arrays();
    const int64_t ring_steps = geo_.a1() / 2 - 1;  // steps of each of phases 1..n
    bool any_step = false;                    // a phase before this one emitted steps

    // Phases 1..n.
    for (int j = 0; j < ndims_; ++j) {
      if (ring_steps == 0) break;  // a1 == 2: every ring has one member, phases 1..n are empty
      if (any_step) {
        // Section 3.4(c): the next phase sends a suffix in ITS offset, so that offset must become the
        // most significant sort key. A stable sort keeps the old order inside each key (in 2D this
        // is exactly the column-major -> row-major transposition of B[u, v]).
        rearrange([&](int64_t node, int64_t dst) {
          return static_cast<int>(geo_.offset(node, dst, order_[node][j]));
        });
      }
      for (int64_t s = 1; s <= ring_steps; ++s) {
        run_ring_step(j, s, emit, trace);
        any_step = true;
      }
    }

    // Phase n+1: exchanges inside each 2 x ... x 2 submesh along paper dimensions 1, 2, ..., n.
    // One re-sort serves two exchanges (Figure 2(f)'s quadrants), so 2D needs only the paper's one.
    // For n >= 3 the paper's single rearrangement before phase n+1 cannot make all n sends contiguous
    // while receives land in place, in order: with one layout shared by all nodes, slot i's class
    // after exchange k is its initial class with bits 1..k cleared, so exchange k sends the slots
    // whose initial class has bit k set; n such half-size intervals have at most 2n inner endpoints
    // but the 2^n classes need 2^n - 1 changes (n = 3: 7 > 6). An exhaustive search for n = 3 with a
    // separate layout per node (class granularity) finds none either. Hence a re-sort before
    // exchanges 1, 3, 5, ...
    for (int k = 0; k < ndims_; ++k) {
      const int d = geo_.roles()[k];
      if (k % 2 == 0) {
        if (k + 1 < ndims_) {
          const int d2 = geo_.roles()[k + 1];
          rearrange([&](int64_t node, int64_t dst) {
            return kQuarterOf[geo_.other_bit(node, dst, d)][geo_.other_bit(node, dst, d2)];
          });
        } else {
          rearrange([&](int64_t node, int64_t dst) { return geo_.other_bit(node, dst, d); });
        }
      }
      run_exchange_step(k, emit, trace);
    }

    // Every slot must now hold a block for its node (the empty slot is the node's own id).
    for (int64_t v = 0; v < nodes_; ++v) {
      for (uint64_t id : arrays_[v]) {
        if (static_cast<int64_t>(id % nodes_) != v) throw std::logic_error("suh: a block ended at the wrong node");
      }
    }
  }

 private:
  void init_arrays() {
    // Section 3.3: B[u, v], column-major, v = offset along the phase-1 ring. Generalised: the slot is
    // the mixed-radix number of the destination's offsets in phase order, phase 1 most significant.
    arrays_.assign(nodes_, std::vector<uint64_t>(nodes_));
    for (int64_t v = 0; v < nodes_; ++v) {
      const std::vector<int>& order = order_[v];
      for (int64_t t = 0; t < nodes_; ++t) {
        int64_t slot = 0;
        for (int d : order) slot = slot * geo_.dims()[d] + geo_.offset(v, t, d);
        arrays_[v][slot] = static_cast<uint64_t>(v * nodes_ + t);
      }
    }
    pending_layout_ = true;  // the first emitted step reports the initial layout
    pending_rearranged_ = false;
  }

  // Stable counting sort of every node's array by key(node, dst); keys lie in [0, max(radix, 4)).
  template <class Key>
  void rearrange(Key key) {
    int max_key = 0;
    for (int d : geo_.dims()) max_key = std::max(max_key, d);
    max_key = std::max(max_key, 4);
    std::vector<int64_t> count(max_key + 1);
    std::vector<uint64_t> sorted(nodes_);
    std::vector<int> keys(nodes_);
    for (int64_t v = 0; v < nodes_; ++v) {
      std::fill(count.begin(), count.end(), 0);
      std::vector<uint64_t>& arr = arrays_[v];
      for (int64_t i = 0; i < nodes_; ++i) {
        keys[i] = key(v, static_cast<int64_t>(arr[i] % nodes_));
        ++count[keys[i] + 1];
      }
      for (int k = 0; k < max_key; ++k) count[k + 1] += count[k];
      for (int64_t i = 0; i < nodes_; ++i) sorted[count[keys[i]]++] = arr[i];
      arr.swap(sorted);
    }
    pending_layout_ = true;
    pending_rearranged_ = true;
  }

  // Step s (1-based) of phase j (0-based): every node whose phase-j ring has more than s members
  // sends the slots with phase offset >= 2s ("columns 2s .. C-1") to the next ring member.
  void run_ring_step(int j, int64_t s, const PlainStepSink& emit, const SuhArraySink* trace) {
    PlainStep step;
    step.label = "phase" + std::to_string(j + 1) + ".step" + std::to_string(s);
    std::vector<SuhSend> sends;
    for (int64_t v = 0; v < nodes_; ++v) {
      const int d = order_[v][j];
      const int64_t radix = geo_.dims()[d];
      if (2 * s >= radix) continue;  // this ring is done (Section 3.2: shorter rings idle)
      const int64_t per_offset = nodes_ / radix;  // slots per offset value: the other dimensions
      const int64_t begin = 2 * s * per_offset;
      const int64_t c = geo_.coord(v, d);
      const int64_t next = floor_mod(c + 2 * geo_.sigma(v, d), radix);
      const int64_t dst = v + (next - c) * geo_.stride(d);
      // The closing hop of the ring (e.g. C-2 -> 0) runs backwards over the line: no wraparound.
      const int dir = next > c ? +1 : -1;
      PlainMessage m = make_message(v, dst, d, dir, begin, nodes_);
      for (uint64_t id : m.blocks) {
        // A block leaves v only if neither v nor v's submesh partner along d is its destination.
        if (geo_.offset(v, static_cast<int64_t>(id % nodes_), d) < 2) {
          throw std::logic_error("suh: phase " + std::to_string(j + 1) + " would forward a block its holder keeps");
        }
      }
      sends.push_back({v, begin, nodes_});
      step.messages.push_back(std::move(m));
    }
    finish_step(step, sends, emit, trace);
  }

  // Exchange k (0-based) of phase n+1 along paper dimension k+1; slices follow kQuarterOf.
  void run_exchange_step(int k, const PlainStepSink& emit, const SuhArraySink* trace) {
    PlainStep step;
    step.label = "phase" + std::to_string(ndims_ + 1) + ".step" + std::to_string(k + 1);
    std::vector<SuhSend> sends;
    const int d = geo_.roles()[k];
    int64_t begin = nodes_ / 2;
    int64_t end = nodes_;
    if (k % 2 == 0 && k + 1 < ndims_) {
      begin = nodes_ / 4;
      end = 3 * nodes_ / 4;
    }
    for (int64_t v = 0; v < nodes_; ++v) {
      const int dir = geo_.coord(v, d) % 2 == 0 ? +1 : -1;
      PlainMessage m = make_message(v, v + dir * geo_.stride(d), d, dir, begin, end);
      for (uint64_t id : m.blocks) {
        if (geo_.other_bit(v, static_cast<int64_t>(id % nodes_), d) != 1) {
          throw std::logic_error("suh: phase n+1 would send a block that belongs on this side of the submesh");
        }
      }
      sends.push_back({v, begin, end});
      step.messages.push_back(std::move(m));
    }
    finish_step(step, sends, emit, trace);
  }

  PlainMessage make_message(int64_t src, int64_t dst, int d, int dir, int64_t begin, int64_t end) const {
    PlainMessage m;
    m.src = src;
    m.dst = dst;
    m.route.start_dim = d;
    m.route.dir.assign(ndims_, int8_t{+1});  // explicit; only dimension d has hops
    m.route.dir[d] = static_cast<int8_t>(dir);
    m.blocks.assign(arrays_[src].begin() + begin, arrays_[src].begin() + end);
    return m;
  }

  // Receives in place (all messages were copied out before any slot is overwritten), reports the
  // data arrays, emits the step.
  void finish_step(PlainStep& step, const std::vector<SuhSend>& sends, const PlainStepSink& emit,
                   const SuhArraySink* trace) {
    if (trace != nullptr) {
      SuhArrayStep info;
      info.rearranged = pending_rearranged_;
      if (pending_layout_) info.layout = arrays_;
      info.sends = sends;
      (*trace)(std::move(info));
    }
    pending_layout_ = false;
    pending_rearranged_ = false;

    std::vector<int64_t> slice_of(nodes_, -1);
    for (size_t i = 0; i < sends.size(); ++i) slice_of[sends[i].node] = static_cast<int64_t>(i);
    for (size_t i = 0; i < step.messages.size(); ++i) {
      const PlainMessage& m = step.messages[i];
      const int64_t r = slice_of[m.dst];
      // Every receiver sends a message of the same length in the same step (same ring or pair).
      if (r < 0 || sends[r].end - sends[r].begin != static_cast<int64_t>(m.blocks.size())) {
        throw std::logic_error("suh: a receiver has no free slice of the message's length");
      }
      std::copy(m.blocks.begin(), m.blocks.end(), arrays_[m.dst].begin() + sends[r].begin);
    }
    emit(std::move(step));
  }

  SuhGeometry geo_;
  int64_t nodes_ = 0;
  int ndims_ = 0;
  std::vector<std::vector<int>> order_;          // per node: phase dimensions
  std::vector<std::vector<uint64_t>> arrays_;    // per node: slot -> block id
  bool pending_layout_ = false;
  bool pending_rearranged_ = false;
};

}  // namespace

void generate_suh(const PlainTopology& topo, const PlainStepSink& emit) {
  SuhGenerator gen(topo.dims);
  gen.run(emit, nullptr);
}

void generate_suh(const PlainTopology& topo, const PlainStepSink& emit, const SuhArraySink& arrays) {
  SuhGenerator gen(topo.dims);
  gen.run(emit, arrays ? &arrays : nullptr);
}

SuhFormula suh_formula(const std::vector<int>& dims) {
  const int64_t nodes = check_dims(dims, "suh_formula");
  const int64_t n = static_cast<int64_t>(dims.size());
  const int64_t a1 = *std::max_element(dims.begin(), dims.end());
  SuhFormula f;
  f.steps = n * a1 / 2;                          // n phases of a1/2 - 1 steps plus n exchanges
  f.transmission_blocks = n * a1 * nodes / 4;    // (n/4) a1^2 a2 ... an; N is a multiple of 4
  return f;
}

int64_t suh_paper_rearrangements(const std::vector<int>& dims) {
  check_dims(dims, "suh_paper_rearrangements");
  return static_cast<int64_t>(dims.size());
}

int64_t suh_rearrangements(const std::vector<int>& dims) {
  check_dims(dims, "suh_rearrangements");
  const int64_t n = static_cast<int64_t>(dims.size());
  const int a1 = *std::max_element(dims.begin(), dims.end());
  const int64_t between_phases = a1 >= 4 ? n - 1 : 0;  // before phases 2..n (empty when a1 == 2)
  return between_phases + (n + 1) / 2;                 // before exchanges 1, 3, 5, ... of phase n+1
}

std::vector<int> suh_dimension_roles(const std::vector<int>& dims) {
  check_dims(dims, "suh_dimension_roles");
  return roles_of(dims);
}

std::vector<int> suh_phase_dims(const std::vector<int>& dims, int64_t node) {
  const SuhGeometry geo(dims, "suh_phase_dims");
  if (node < 0 || node >= geo.nodes()) throw std::invalid_argument("suh_phase_dims: node out of range");
  return geo.phase_dims(node);
}

// `suh` in the registry (registry.cpp): the plain generator behind the adapter (plain_adapter.hpp).
void register_suh(std::vector<Algorithm>& out) {
  Algorithm a =
      make_algorithm("suh", Collective::kAlltoall, PortModel::kOne, Switching::kWormhole,
                     "a mesh (or torus) of 2 or more dimensions, every side even, at most 8192 nodes",
                     "seed 002 (Suh, Shin, Yalamanchili) Sections 3 and 4: node groups, three phases, data array",
                     "complete exchange on meshes: (n/2) a1 steps, every send a contiguous slice of the data array");
  a.check = [](const Topology& topo, const AlgorithmOptions&) {
    preconditions("suh", [&] { return suh_formula(topo.radices()); });
    if (topo.nodes() > kSuhMaxNodes)
      throw PreconditionError(fmt::format(
          "suh: {} nodes; at most {} are supported (the data arrays hold N^2 block ids)", topo.nodes(), kSuhMaxNodes));
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

}  // namespace torx::sw
