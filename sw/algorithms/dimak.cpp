// SPDX-License-Identifier: Apache-2.0
// Seed 004 (Dimakopoulos, Dimopoulos): total exchange on products of rings and linear arrays.
// See dimak.hpp for the algorithms, the bounds and the paper references. register_dimak (at the end)
// enters dimak-a2 and dimak-a3 in the registry.
#include "algorithms/dimak.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/int_math.hpp"

namespace torx::sw {
namespace {

// Block ids are src * N + dst in 64 bits and node ids travel as int64; 2^31 nodes keeps N^2 < 2^62.
constexpr int64_t kMaxNodes = int64_t{1} << 31;

std::string dims_text(const PlainTopology& topo) {
  std::string text;
  for (size_t i = 0; i < topo.dims.size(); ++i) {
    if (i > 0) text += 'x';
    text += std::to_string(topo.dims[i]);
  }
  return text + (topo.wrap ? " torus" : " mesh");
}

// Validates the shape shared by every function here and returns the node count.
int64_t checked_node_count(const PlainTopology& topo, const char* who) {
  if (topo.dims.empty()) {
    throw std::invalid_argument(std::string(who) + ": the topology has no dimensions");
  }
  int64_t nodes = 1;
  for (size_t i = 0; i < topo.dims.size(); ++i) {
    if (topo.dims[i] < 1) {
      throw std::invalid_argument(std::string(who) + ": dimension " + std::to_string(i) + " has size " +
                                  std::to_string(topo.dims[i]) + "; every dimension needs at least one node");
    }
    nodes *= topo.dims[i];
    if (nodes > kMaxNodes) {
      throw std::invalid_argument(std::string(who) + ": " + dims_text(topo) + " has more than 2^31 nodes");
    }
  }
  return nodes;
}

// A3's precondition (Section 5): G = H^d with d a power of two, so that G splits into H' x H' at every
// level of the recursion. Returns n = |H|.
int checked_a3_radix(const PlainTopology& topo) {
  checked_node_count(topo, "dimak-a3");
  const size_t d = topo.dims.size();
  if ((d & (d - 1)) != 0) {
    throw std::invalid_argument("dimak-a3: the number of dimensions must be a power of two (1, 2, 4, ...), got " +
                                std::to_string(d) + " (" + dims_text(topo) + ")");
  }
  for (int radix : topo.dims) {
    if (radix != topo.dims[0]) {
      throw std::invalid_argument("dimak-a3: the network must be homogeneous (all dimensions equal), got " +
                                  dims_text(topo));
    }
  }
  return topo.dims[0];
}

using LineSteps = std::vector<std::vector<DimakLineHop>>;

// Pipelined distance phases on a ring, all in direction `dir`: in phase d (d = 1..floor((n-1)/2), then
// n/2 if `antipodal`), sub-step k, node v forwards the block that left node v - k*dir k steps ago for
// v - k*dir + d*dir. Every node sends and receives exactly once per step, so the phases add up to
// sum d steps with every link of that direction busy -- the per-direction hop count of a node.
LineSteps ring_pipeline(int n, int dir, bool antipodal) {
  LineSteps steps;
  const int last = antipodal && n % 2 == 0 ? n / 2 : (n - 1) / 2;
  for (int d = 1; d <= last; ++d) {
    for (int k = 0; k < d; ++k) {
      std::vector<DimakLineHop> hops;
      hops.reserve(n);
      for (int v = 0; v < n; ++v) {
        const int src = static_cast<int>(floor_mod(v - int64_t{k} * dir, n));
        hops.push_back({v, dir, src, static_cast<int>(floor_mod(src + int64_t{d} * dir, n))});
      }
      steps.push_back(std::move(hops));
    }
  }
  return steps;
}

struct Transit {
  int pos;
  int src;
  int dst;
  int left;  // hops still to go
};

// One-directional store-and-forward routing with farthest-to-go first: every node forwards, each
// step, the held block with the most hops left (ties: the smaller origin). On a linear array and on the
// even-ring traffic used here this finishes in exactly the largest link load (checked by the callers
// against the closed forms), i.e. it meets the cut bound of one direction.
LineSteps farthest_first(int n, bool ring, int dir, std::vector<Transit> blocks) {
  LineSteps steps;
  std::vector<int> best(n);
  size_t pending = blocks.size();
  while (pending > 0) {
    std::fill(best.begin(), best.end(), -1);
    for (size_t b = 0; b < blocks.size(); ++b) {
      const Transit& x = blocks[b];
      if (x.left == 0) continue;
      int& cur = best[x.pos];
      if (cur < 0 || x.left > blocks[cur].left || (x.left == blocks[cur].left && x.src < blocks[cur].src)) {
        cur = static_cast<int>(b);
      }
    }
    std::vector<DimakLineHop> hops;
    for (int v = 0; v < n; ++v) {
      if (best[v] < 0) continue;
      Transit& x = blocks[best[v]];
      hops.push_back({v, dir, x.src, x.dst});
      x.pos = ring ? static_cast<int>(floor_mod(x.pos + dir, n)) : x.pos + dir;
      if (--x.left == 0) --pending;
    }
    steps.push_back(std::move(hops));
  }
  return steps;
}

// Reflection v -> n-1-v: turns a schedule of one direction into one of the other direction for the
// mirrored blocks.
LineSteps mirrored(const LineSteps& steps, int n) {
  LineSteps out;
  out.reserve(steps.size());
  for (const auto& step : steps) {
    std::vector<DimakLineHop> hops;
    hops.reserve(step.size());
    for (const DimakLineHop& h : step) hops.push_back({n - 1 - h.from, -h.dir, n - 1 - h.block_src, n - 1 - h.block_dst});
    out.push_back(std::move(hops));
  }
  return out;
}

// Time reversal of a rightward linear-array schedule: a block's hops k -> k+1 at times t become hops
// k+1 -> k at times L-1-t, so block (i, j) of the original becomes block (j, i) travelling leftward.
// Each directed link is still used at most once per step, and a block still only leaves a node after
// it arrived there. The result delivers exactly the leftward traffic.
LineSteps time_reversed(const LineSteps& steps) {
  LineSteps out;
  out.reserve(steps.size());
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    std::vector<DimakLineHop> hops;
    hops.reserve(it->size());
    for (const DimakLineHop& h : *it) hops.push_back({h.from + h.dir, -h.dir, h.block_dst, h.block_src});
    out.push_back(std::move(hops));
  }
  return out;
}

// Step-wise union of two schedules that use disjoint links (the two directions under multiport).
LineSteps zipped(LineSteps a, const LineSteps& b) {
  if (a.size() < b.size()) a.resize(b.size());
  for (size_t t = 0; t < b.size(); ++t) a[t].insert(a[t].end(), b[t].begin(), b[t].end());
  return a;
}

LineSteps line_rightward(int n) {
  std::vector<Transit> blocks;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) blocks.push_back({i, i, j, j - i});
  }
  return farthest_first(n, /*ring=*/false, +1, std::move(blocks));
}

LineSteps line_single_port(int n) {
  LineSteps right = line_rightward(n);
  LineSteps left = time_reversed(right);
  if (n % 2 != 0 || right.empty()) {
    right.insert(right.end(), std::make_move_iterator(left.begin()), std::make_move_iterator(left.end()));
    return right;
  }
  // n even: the middle node pair is the bottleneck and the only way to reach n-1+floor((n-1)^2/2) is
  // to let the last rightward step and the first leftward step share a step. The shared step is
  // single-port exactly when the last rightward step uses pairwise non-adjacent links (then every
  // link pair k <-> k+1 is a swap). Farthest-first leaves only the middle link for the last step.
  std::vector<int> used;
  for (const DimakLineHop& h : right.back()) used.push_back(h.from);
  std::sort(used.begin(), used.end());
  for (size_t i = 1; i < used.size(); ++i) {
    if (used[i] == used[i - 1] + 1) {
      throw std::logic_error("dimak: rightward linear-array schedule for n=" + std::to_string(n) +
                             " ends on adjacent links; cannot overlap its reverse");
    }
  }
  right.back().insert(right.back().end(), left.front().begin(), left.front().end());
  right.insert(right.end(), std::make_move_iterator(left.begin() + 1), std::make_move_iterator(left.end()));
  return right;
}

LineSteps ring_multiport(int n) {
  if (n % 2 != 0) return zipped(ring_pipeline(n, +1, false), ring_pipeline(n, -1, false));
  // Even n: the n antipodal blocks are split -- even origins clockwise, odd origins (the mirror
  // images of the even ones) counter-clockwise -- which balances both directions to ceil(n^2/8).
  std::vector<Transit> blocks;
  for (int s = 0; s < n; ++s) {
    for (int d = 1; d <= n / 2; ++d) {
      if (d == n / 2 && s % 2 != 0) continue;
      blocks.push_back({s, s, (s + d) % n, d});
    }
  }
  LineSteps cw = farthest_first(n, /*ring=*/true, +1, std::move(blocks));
  return zipped(cw, mirrored(cw, n));
}

std::vector<int64_t> strides_of(const std::vector<int>& dims) {
  std::vector<int64_t> stride(dims.size() + 1, 1);
  for (size_t e = 0; e < dims.size(); ++e) stride[e + 1] = stride[e] * dims[e];
  return stride;
}

std::string dim_label(int e) {
  constexpr const char* kNames[] = {"x", "y", "z"};
  return e < 3 ? kNames[e] : "d" + std::to_string(e);
}

PlainMessage single_hop(int64_t src, int64_t dst, int dims, int dim, int dir, uint64_t block) {
  PlainMessage m;
  m.src = src;
  m.dst = dst;
  m.route.start_dim = dim;
  m.route.dir.assign(dims, 0);
  m.route.dir[dim] = static_cast<int8_t>(dir);
  m.blocks.push_back(block);
  return m;
}

// Algorithm A2 (Fig. 4) unrolled over the recursion A = dims[0..e), B = dims[e]. At level e+1 phase 1
// runs prod(dims[0..e)) exchanges of dimension e ("row batches" r), then phase 2 runs dims[e] rounds
// k of level e. A leaf step is one step of a one-dimensional exchange in dimension e, run in every
// copy of that dimension at once; the block a hop carries is fixed by the row r and by the rounds k
// of the enclosing levels (kept as their linear contribution `k_part` to the block's origin id):
//   origin      = (x_0..x_{e-1}, hop.block_src, k_{e+1}..k_{D-1})
//   destination = (r_0..r_{e-1}, hop.block_dst, x_{e+1}..x_{D-1})
// where x is the sending node. Node ids with x fastest make a prefix's local id equal to its share of
// the global id, so both are sums of strided terms.
class A2Generator {
 public:
  A2Generator(const PlainTopology& topo, const PlainStepSink& emit)
      : topo_(topo), emit_(emit), stride_(strides_of(topo.dims)), nodes_(stride_.back()) {
    // One 1-D schedule per distinct size (a k-ary n-cube needs a single one).
    for (size_t e = 0; e < topo.dims.size(); ++e) {
      const auto same = std::find(topo.dims.begin(), topo.dims.begin() + e, topo.dims[e]);
      if (same == topo.dims.begin() + e) {
        line_of_dim_.push_back(lines_.size());
        lines_.push_back(dimak_line_schedule(topo.dims[e], topo.wrap, DimakPorts::kSinglePort));
      } else {
        line_of_dim_.push_back(line_of_dim_[same - topo.dims.begin()]);
      }
    }
  }

  void run() { run_level(static_cast<int>(topo_.dims.size()), 0); }

 private:
  void run_level(int level, int64_t k_part) {
    const int e = level - 1;
    for (int64_t r = 0; r < stride_[e]; ++r) {
      for (size_t s = 0; s < line(e).steps.size(); ++s) emit_leaf(e, r, s, k_part);
    }
    if (e == 0) return;
    for (int64_t k = 0; k < topo_.dims[e]; ++k) run_level(e, k_part + k * stride_[e]);
  }

  void emit_leaf(int e, int64_t r, size_t s, int64_t k_part) const {
    const int n = topo_.dims[e];
    const int ndims = static_cast<int>(topo_.dims.size());
    const std::vector<DimakLineHop>& hops = line(e).steps[s];
    PlainStep step;
    step.label = "A2-" + dim_label(e);
    step.messages.reserve(hops.size() * static_cast<size_t>(nodes_ / n));
    for (const DimakLineHop& hop : hops) {
      const int to = topo_.wrap ? static_cast<int>(floor_mod(hop.from + hop.dir, n)) : hop.from + hop.dir;
      for (int64_t suf = 0; suf < nodes_; suf += stride_[e + 1]) {
        for (int64_t pre = 0; pre < stride_[e]; ++pre) {
          const int64_t origin = pre + hop.block_src * stride_[e] + k_part;
          const int64_t target = r + hop.block_dst * stride_[e] + suf;
          step.messages.push_back(single_hop(pre + hop.from * stride_[e] + suf, pre + to * stride_[e] + suf, ndims,
                                             e, hop.dir, static_cast<uint64_t>(origin * nodes_ + target)));
        }
      }
    }
    emit_(std::move(step));
  }

  const DimakLineSchedule& line(int e) const { return lines_[line_of_dim_[e]]; }

  const PlainTopology& topo_;
  const PlainStepSink& emit_;
  std::vector<int64_t> stride_;
  int64_t nodes_;
  std::vector<DimakLineSchedule> lines_;
  std::vector<size_t> line_of_dim_;
};

// Algorithm A3 (Fig. 6) for H^D, D = 2^levels, unrolled. Level L (1..levels) joins two halves X x X of
// h = 2^(L-1) dimensions each (|X| = n^h); its round rho_L = 0..|X|-1 runs one total exchange of X in
// every copy of both halves at once. All dimensions therefore step in lockstep through the same
// one-dimensional step s, and a step t decomposes into (rho_levels, ..., rho_1, s). A hop of dimension e
// carries the one-dimensional block (P, Q); going up the levels, each level re-labels it as a block
// of X x X (X-labels are local ids, and the paper's +/- mod n act on them):
//   e in the low half (copy A_j, j = node's id in the high half):
//     round 0: (P, j) -> (Q, j)                      the node's own blocks of A_j;
//     round rho > 0: (P, j - l) -> (Q, j) with g_{rho-1}(l) = Q - P, what B round rho-1 delivered;
//   e in the high half (copy B_i, i = node's id in the low half), l = Q - P:
//     round rho < |X|-1: (i, P) -> (i + g_rho(l), Q);  round |X|-1: (i, P) -> (i, Q);
//   g_rho(l) = 1 + ((l - 1 + rho) mod (|X| - 1))   (Section 5: the destinations rotate by one per round).
class A3Generator {
 public:
  A3Generator(const PlainTopology& topo, int radix, const PlainStepSink& emit)
      : topo_(topo), emit_(emit), n_(radix), ndims_(static_cast<int>(topo.dims.size())) {
    line_ = dimak_line_schedule(n_, topo.wrap, DimakPorts::kMultiport);
    while ((1 << levels_) < ndims_) ++levels_;
    power_.assign(ndims_ + 1, 1);
    for (int i = 1; i <= ndims_; ++i) power_[i] = power_[i - 1] * n_;
    nodes_ = power_[ndims_];
    span_.assign(levels_ + 1, static_cast<int64_t>(line_.steps.size()));
    for (int L = 1; L <= levels_; ++L) span_[L] = power_[1 << (L - 1)] * span_[L - 1];
    // hops_from_[s][p]: the hops of one-dimensional step s that leave coordinate p (at most two).
    hops_from_.resize(line_.steps.size(), std::vector<std::vector<DimakLineHop>>(n_));
    for (size_t s = 0; s < line_.steps.size(); ++s) {
      for (const DimakLineHop& h : line_.steps[s]) hops_from_[s][h.from].push_back(h);
    }
  }

  void run() {
    std::vector<int64_t> rho(levels_ + 1, 0);
    for (int64_t t = 0; t < span_[levels_]; ++t) {
      int64_t rest = t;
      for (int L = levels_; L >= 1; --L) {
        rho[L] = rest / span_[L - 1];
        rest %= span_[L - 1];
      }
      emit_step(rho, static_cast<size_t>(rest), levels_ >= 1 ? rho[levels_] : 0);
    }
  }

 private:
  void emit_step(const std::vector<int64_t>& rho, size_t s, int64_t top_round) const {
    PlainStep step;
    step.label = "A3-r" + std::to_string(top_round);
    step.messages.reserve(static_cast<size_t>(nodes_) * ndims_ * 2);
    for (int64_t id = 0; id < nodes_; ++id) {
      for (int e = 0; e < ndims_; ++e) {
        const int x = static_cast<int>((id / power_[e]) % n_);
        for (const DimakLineHop& hop : hops_from_[s][x]) {
          const int to = topo_.wrap ? static_cast<int>(floor_mod(x + hop.dir, n_)) : x + hop.dir;
          int64_t origin = hop.block_src;
          int64_t target = hop.block_dst;
          relabel(id, e, rho, &origin, &target);
          step.messages.push_back(single_hop(id, id + (to - x) * power_[e], ndims_, e, hop.dir,
                                             static_cast<uint64_t>(origin * nodes_ + target)));
        }
      }
    }
    emit_(std::move(step));
  }

  void relabel(int64_t id, int e, const std::vector<int64_t>& rho, int64_t* origin, int64_t* target) const {
    for (int L = 1; L <= levels_; ++L) {
      const int h = 1 << (L - 1);
      const int64_t size = power_[h];  // |X|
      const int own_start = (e >> (L - 1)) << (L - 1);
      const int64_t p = *origin;
      const int64_t q = *target;
      if (((e >> (L - 1)) & 1) == 0) {
        const int64_t j = (id / power_[own_start + h]) % size;
        if (rho[L] == 0) {
          *origin = p + size * j;
        } else {
          const int64_t l = floor_mod(floor_mod(q - p, size) - rho[L], size - 1) + 1;
          *origin = p + size * floor_mod(j - l, size);
        }
        *target = q + size * j;
      } else {
        const int64_t i = (id / power_[own_start - h]) % size;
        *origin = i + size * p;
        if (rho[L] < size - 1) {
          const int64_t g = floor_mod(floor_mod(q - p, size) - 1 + rho[L], size - 1) + 1;
          *target = floor_mod(i + g, size) + size * q;
        } else {
          *target = i + size * q;
        }
      }
    }
  }

  const PlainTopology& topo_;
  const PlainStepSink& emit_;
  int n_;
  int ndims_;
  int levels_ = 0;
  int64_t nodes_ = 1;
  DimakLineSchedule line_;
  std::vector<int64_t> power_;  // n^i
  std::vector<int64_t> span_;   // span_[L]: steps of a total exchange on H^(2^L)
  std::vector<std::vector<std::vector<DimakLineHop>>> hops_from_;
};

}  // namespace

int64_t dimak_line_steps(int n, bool ring, DimakPorts ports) {
  if (n < 1) throw std::invalid_argument("dimak: a dimension needs at least one node, got " + std::to_string(n));
  const int64_t m = n;
  if (ports == DimakPorts::kSinglePort) return ring ? m * m / 4 : (m - 1) + (m - 1) * (m - 1) / 2;
  return ring ? (m * m / 4 + 1) / 2 : m * m / 4;
}

int64_t line_single_port_node_bound(int n, bool ring) {
  if (n < 1) throw std::invalid_argument("dimak: a dimension needs at least one node, got " + std::to_string(n));
  const int64_t m = n;
  if (ring) return m * m / 4;
  // Node i sends its own m-1 blocks and forwards the i*(m-1-i) blocks crossing it each way.
  const int64_t i = (m - 1) / 2;
  return (m - 1) + 2 * i * (m - 1 - i);
}

DimakLineSchedule dimak_line_schedule(int n, bool ring, DimakPorts ports) {
  const int64_t expected = dimak_line_steps(n, ring, ports);
  DimakLineSchedule out;
  out.n = n;
  out.ring = ring;
  if (n == 1) return out;
  if (ports == DimakPorts::kSinglePort) {
    if (ring) {
      out.steps = ring_pipeline(n, +1, /*antipodal=*/true);
      LineSteps ccw = ring_pipeline(n, -1, /*antipodal=*/false);
      out.steps.insert(out.steps.end(), std::make_move_iterator(ccw.begin()), std::make_move_iterator(ccw.end()));
    } else {
      out.steps = line_single_port(n);
    }
  } else {
    if (ring) {
      out.steps = ring_multiport(n);
    } else {
      const LineSteps right = line_rightward(n);
      out.steps = zipped(right, mirrored(right, n));
    }
  }
  if (static_cast<int64_t>(out.steps.size()) != expected) {
    throw std::logic_error("dimak: one-dimensional schedule for n=" + std::to_string(n) + (ring ? " ring" : " array") +
                           " has " + std::to_string(out.steps.size()) + " steps, closed form " +
                           std::to_string(expected));
  }
  return out;
}

int64_t node_status(const PlainTopology& topo, int64_t node) {
  const int64_t nodes = checked_node_count(topo, "node_status");
  if (node < 0 || node >= nodes) {
    throw std::invalid_argument("node_status: node " + std::to_string(node) + " is not in " + dims_text(topo));
  }
  int64_t status = 0;
  int64_t rest = node;
  for (int radix : topo.dims) {
    const int64_t m = radix;
    const int64_t x = rest % m;
    rest /= m;
    const int64_t dim_status = topo.wrap ? m * m / 4 : x * (x + 1) / 2 + (m - 1 - x) * (m - x) / 2;
    status += dim_status * (nodes / m);
  }
  return status;
}

int64_t total_status(const PlainTopology& topo) {
  const int64_t nodes = checked_node_count(topo, "total_status");
  int64_t sum = 0;
  for (int radix : topo.dims) {
    const int64_t m = radix;
    // Sum of distances over ordered pairs of one dimension: ring m*floor(m^2/4), array m(m^2-1)/3.
    const int64_t dim_sum = topo.wrap ? m * (m * m / 4) : m * (m * m - 1) / 3;
    const int64_t copies = nodes / m;  // Theorem 1: each pair of coordinates occurs (N/m)^2 times
    sum += dim_sum * copies * copies;
  }
  return sum;
}

int64_t average_status_bound(const PlainTopology& topo) {
  const int64_t nodes = checked_node_count(topo, "average_status_bound");
  return ceil_div(total_status(topo), nodes);
}

int64_t bisection_cut_bound(const PlainTopology& topo) {
  const int64_t nodes = checked_node_count(topo, "bisection_cut_bound");
  int64_t best = 0;
  for (int radix : topo.dims) {
    if (radix < 2) continue;
    const int64_t low = radix / 2;
    const int64_t high = radix - low;
    const int64_t copies = nodes / radix;
    // |V1||V2| = low*high*copies^2 blocks cross C = links*copies directed links (2 on a ring, also on a
    // 2-ring whose "+" and "-" links are distinct; 1 on a linear array).
    const int64_t links = topo.wrap ? 2 : 1;
    const int64_t num = low * high * copies;
    best = std::max(best, ceil_div(num, links));
  }
  return best;
}

int64_t dimak_a2_steps(const PlainTopology& topo) {
  const int64_t nodes = checked_node_count(topo, "dimak-a2");
  int64_t steps = 0;
  for (int radix : topo.dims) steps += nodes / radix * dimak_line_steps(radix, topo.wrap, DimakPorts::kSinglePort);
  return steps;
}

int64_t dimak_a3_steps(const PlainTopology& topo) {
  const int n = checked_a3_radix(topo);
  const int64_t nodes = checked_node_count(topo, "dimak-a3");
  return nodes / n * dimak_line_steps(n, topo.wrap, DimakPorts::kMultiport);
}

void generate_dimak_a2(const PlainTopology& topo, const PlainStepSink& emit) {
  checked_node_count(topo, "dimak-a2");
  A2Generator(topo, emit).run();
}

void generate_dimak_a3(const PlainTopology& topo, const PlainStepSink& emit) {
  const int n = checked_a3_radix(topo);
  A3Generator(topo, n, emit).run();
}

namespace {

// Algorithm A2 (single-port) or A3 (multiport) of seed 004 in the registry.
Algorithm dimak_algorithm(bool multiport) {
  Algorithm a = make_algorithm(
      multiport ? "dimak-a3" : "dimak-a2", Collective::kAlltoall, multiport ? PortModel::kAll : PortModel::kOne,
      Switching::kStoreAndForward,
      multiport ? "a torus or mesh H^(2^k): all sides equal, 1, 2, 4, ... dimensions"
                : "any torus or mesh (products of rings or linear arrays; 2x...x2 is a hypercube)",
      multiport ? "seed 004 (Dimakopoulos, Dimopoulos) Section 5: Algorithm A3, H x H exchanges overlapped"
                : "seed 004 (Dimakopoulos, Dimopoulos) Section 4: Algorithm A2, row batches per dimension",
      multiport ? "multiport store-and-forward total exchange: n T_H steps, meets the cut bound where H does"
                : "single-port store-and-forward total exchange: the average-status bound on tori and hypercubes");
  const auto steps = [multiport](const PlainTopology& pt) {
    return multiport ? dimak_a3_steps(pt) : dimak_a2_steps(pt);
  };
  a.check = [id = a.id, steps](const Topology& topo, const AlgorithmOptions&) {
    preconditions(id, [&] { return steps(plain_topology(topo)); });
  };
  a.generate = [id = a.id, multiport, steps](const Topology& topo, const AlgorithmOptions& opt, ScheduleSink& sink) {
    const PlainTopology pt = plain_topology(topo);
    stream_plain(*find_algorithm(id), topo, opt, steps(pt), sink, [&](const PlainStepSink& emit) {
      preconditions(id, [&] {
        multiport ? generate_dimak_a3(pt, emit) : generate_dimak_a2(pt, emit);
        return 0;
      });
    });
  };
  a.formula = [multiport, steps](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    Bound b;
    b.steps = steps(plain_topology(topo));
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
  return a;
}

}  // namespace

// `dimak-a2` and `dimak-a3` in the registry (registry.cpp), in that order.
void register_dimak(std::vector<Algorithm>& out) {
  out.push_back(dimak_algorithm(false));
  out.push_back(dimak_algorithm(true));
}

}  // namespace torx::sw
