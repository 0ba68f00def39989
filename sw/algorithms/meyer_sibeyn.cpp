// SPDX-License-Identifier: Apache-2.0
// Meyer and Sibeyn's oblivious gossiping (seed 003). See meyer_sibeyn.hpp for the algorithms; the
// comments here explain the constructions and every departure from the paper's text.
#include "algorithms/meyer_sibeyn.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <istream>
#include <limits>
#include <numeric>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace torx::sw {

namespace {

constexpr int64_t kMaxNodes = int64_t{1} << 31;
constexpr int kHcPiecesOneOdd = 6;  // Section 2.2 with re-packing: 3 pieces per cycle share

int64_t floor_mod(int64_t a, int64_t m) {
  const int64_t r = a % m;
  return r < 0 ? r + m : r;
}

std::string dims_string(const std::vector<int>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// The torus: node ids with x fastest, ports 2*dim + (0: +, 1: -).
class Torus {
 public:
  explicit Torus(std::vector<int> dims) : dims_(std::move(dims)), strides_(dims_.size()) {
    int64_t s = 1;
    for (size_t i = 0; i < dims_.size(); ++i) {
      strides_[i] = s;
      s *= dims_[i];
    }
    nodes_ = s;
  }
  int ndims() const { return static_cast<int>(dims_.size()); }
  int64_t nodes() const { return nodes_; }
  int size(int dim) const { return dims_[dim]; }
  const std::vector<int>& dims() const { return dims_; }
  int coord(int64_t v, int dim) const { return static_cast<int>((v / strides_[dim]) % dims_[dim]); }
  int64_t step(int64_t v, int dim, int delta) const {
    const int c = coord(v, dim);
    const int n = static_cast<int>(floor_mod(c + delta, dims_[dim]));
    return v + (n - c) * strides_[dim];
  }
  int64_t neighbor(int64_t v, int port) const { return step(v, port / 2, (port & 1) ? -1 : 1); }
  // The port of u facing its neighbour w (sides >= 3, so + and - neighbours differ).
  int port_to(int64_t u, int64_t w) const {
    for (int p = 0; p < 2 * ndims(); ++p)
      if (neighbor(u, p) == w) return p;
    return -1;
  }
  int64_t id(const std::vector<int>& c) const {
    int64_t v = 0;
    for (size_t i = 0; i < c.size(); ++i) v += floor_mod(c[i], dims_[i]) * strides_[i];
    return v;
  }
  // Key of the undirected edge {u, w}: lower endpoint (in the + sense) * D + dim.
  int64_t edge_key(int64_t u, int64_t w) const {
    const int p = port_to(u, w);
    if (p < 0) throw std::logic_error("internal error: edge between non-neighbours");
    return (p & 1) ? w * ndims() + p / 2 : u * ndims() + p / 2;
  }

 private:
  std::vector<int> dims_;
  std::vector<int64_t> strides_;
  int64_t nodes_ = 1;
};

// A single-hop message from src to its neighbour dst (route: the one dimension, +1 or -1).
PlainMessage hop_message(const Torus& t, int64_t src, int64_t dst, std::vector<uint64_t> blocks) {
  PlainMessage msg;
  msg.src = src;
  msg.dst = dst;
  const int p = t.port_to(src, dst);
  msg.route.start_dim = p / 2;
  msg.route.dir.assign(t.ndims(), 0);
  msg.route.dir[p / 2] = (p & 1) ? -1 : 1;
  std::sort(blocks.begin(), blocks.end());
  msg.blocks = std::move(blocks);
  return msg;
}

// ---------------------------------------------------------------------------------------------
// Cycles of a 2-factor given by an "incident edges" function: id, position along the walk, length.
struct CycleInfo {
  std::vector<int32_t> id;
  std::vector<int64_t> pos;
  std::vector<int64_t> len;
};

// `incident(v, e[2], w[2])` fills the two edges of the colour class at v and their other ends.
template <class Incident>
CycleInfo analyze_cycles(int64_t n, Incident incident) {
  CycleInfo ci;
  ci.id.assign(n, -1);
  ci.pos.assign(n, 0);
  for (int64_t s = 0; s < n; ++s) {
    if (ci.id[s] >= 0) continue;
    const int32_t cid = static_cast<int32_t>(ci.len.size());
    int64_t v = s, prev_edge = -1, k = 0;
    while (ci.id[v] < 0) {
      ci.id[v] = cid;
      ci.pos[v] = k++;
      int64_t e[2], w[2];
      incident(v, e, w);
      // Leave through the edge we did not come in by (the first one at the start).
      const int i = (e[0] == prev_edge) ? 1 : 0;
      prev_edge = e[i];
      v = w[i];
    }
    ci.len.push_back(k);
  }
  return ci;
}

// Replacing the edges a1-b1 and a2-b2 of one colour by a1-a2 and b1-b2 (a "switch" on a unit
// square) merges two cycles, keeps one cycle whole ("twist": the two edges are traversed in the
// same sense) or splits it.
enum class SwitchEffect { kMerge, kTwist, kSplit };

SwitchEffect switch_effect(const CycleInfo& ci, int64_t a1, int64_t b1, int64_t a2, int64_t b2) {
  if (ci.id[a1] != ci.id[a2]) return SwitchEffect::kMerge;
  const int64_t len = ci.len[ci.id[a1]];
  const int64_t d1 = floor_mod(ci.pos[b1] - ci.pos[a1], len);
  const int64_t d2 = floor_mod(ci.pos[b2] - ci.pos[a2], len);
  return d1 == d2 ? SwitchEffect::kTwist : SwitchEffect::kSplit;
}

// ---------------------------------------------------------------------------------------------
// Two-colourings of the abstract M x N torus grid: node (x, y) = x + M*y, edge 2*node + d with d = 0
// the edge to (x+1, y) and d = 1 the edge to (x, y+1). Colour 0/1 per edge; a decomposition is valid
// when each colour class is a single (Hamiltonian) cycle.
class Grid2 {
 public:
  Grid2(int64_t m, int64_t n) : m_(m), n_(n), color_(static_cast<size_t>(2 * m * n), 0) {}
  int64_t M() const { return m_; }
  int64_t N() const { return n_; }
  int64_t node(int64_t x, int64_t y) const { return floor_mod(x, m_) + m_ * floor_mod(y, n_); }
  int64_t hedge(int64_t x, int64_t y) const { return 2 * node(x, y); }
  int64_t vedge(int64_t x, int64_t y) const { return 2 * node(x, y) + 1; }
  uint8_t& color(int64_t e) { return color_[e]; }
  uint8_t color(int64_t e) const { return color_[e]; }

  CycleInfo cycles(uint8_t c) const {
    return analyze_cycles(m_ * n_, [&](int64_t v, int64_t* e, int64_t* w) {
      const int64_t x = v % m_, y = v / m_;
      const int64_t cand_e[4] = {hedge(x, y), vedge(x, y), hedge(x - 1, y), vedge(x, y - 1)};
      const int64_t cand_w[4] = {node(x + 1, y), node(x, y + 1), node(x - 1, y), node(x, y - 1)};
      int k = 0;
      for (int i = 0; i < 4; ++i)
        if (color_[cand_e[i]] == c) {
          if (k >= 2) throw std::logic_error("internal error: colour class is not a 2-factor");
          e[k] = cand_e[i];
          w[k] = cand_w[i];
          ++k;
        }
      if (k != 2) throw std::logic_error("internal error: colour class is not a 2-factor");
    });
  }
  // Cell (x, y) has the horizontal edges h0 = (x,y)-(x+1,y), h1 = (x,y+1)-(x+1,y+1) and the vertical
  // edges v0 = (x,y)-(x,y+1), v1 = (x+1,y)-(x+1,y+1). It is switchable when h0, h1 share one colour
  // and v0, v1 the other; switching swaps the two pairs' colours.
  bool switchable(int64_t x, int64_t y) const {
    const uint8_t a = color_[hedge(x, y)], b = color_[hedge(x, y + 1)];
    const uint8_t c = color_[vedge(x, y)], d = color_[vedge(x + 1, y)];
    return a == b && c == d && a != c;
  }
  void do_switch(int64_t x, int64_t y) {
    for (int64_t e : {hedge(x, y), hedge(x, y + 1), vedge(x, y), vedge(x + 1, y)}) color_[e] ^= 1;
  }
  // Effects of switching cell (x, y) on the colour of its horizontal and of its vertical pair.
  std::pair<SwitchEffect, SwitchEffect> effects(int64_t x, int64_t y, const CycleInfo ci[2]) const {
    const uint8_t hc = color_[hedge(x, y)];
    const int64_t p00 = node(x, y), p10 = node(x + 1, y), p01 = node(x, y + 1), p11 = node(x + 1, y + 1);
    const SwitchEffect h = switch_effect(ci[hc], p00, p10, p01, p11);
    const SwitchEffect v = switch_effect(ci[hc ^ 1], p00, p01, p10, p11);
    return {h, v};
  }
  bool single_cycles() const {
    return cycles(0).len.size() == 1 && cycles(1).len.size() == 1;
  }
  Grid2 transposed() const {
    Grid2 t(n_, m_);
    for (int64_t x = 0; x < m_; ++x)
      for (int64_t y = 0; y < n_; ++y) {
        t.color(t.vedge(y, x)) = color(hedge(x, y));
        t.color(t.hedge(y, x)) = color(vedge(x, y));
      }
    return t;
  }

 private:
  int64_t m_, n_;
  std::vector<uint8_t> color_;
};

int64_t element_order(int64_t a, int64_t m) {
  a = floor_mod(a, m);
  return a == 0 ? 1 : m / std::gcd(a, m);
}

// The "diagonal" family: colour f(x,y) = g((x+y) mod k), k = gcd(M,N), on the +x edge and 1-f on
// the +y edge. Every node then has one out-edge of each colour, each colour class is a permutation,
// and k consecutive moves translate by (a, k-a) (a = number of zeros of g). The class is a single
// cycle iff that translation has order lcm(M,N) in Z_M x Z_N (and likewise (k-a, a)).
bool decompose_diagonal(Grid2& g) {
  const int64_t m = g.M(), n = g.N();
  const int64_t k = std::gcd(m, n), lcm = m / k * n;
  for (int64_t a = 1; a < k; ++a) {
    auto order = [&](int64_t s, int64_t t) {
      const int64_t o1 = element_order(s, m), o2 = element_order(t, n);
      return o1 / std::gcd(o1, o2) * o2;
    };
    if (order(a, k - a) != lcm || order(k - a, a) != lcm) continue;
    for (int64_t x = 0; x < m; ++x)
      for (int64_t y = 0; y < n; ++y) {
        const uint8_t f = ((x + y) % k) < a ? 0 : 1;
        g.color(g.hedge(x, y)) = f;
        g.color(g.vedge(x, y)) = f ^ 1;
      }
    return true;
  }
  return false;
}

void colour_rows_and_columns(Grid2& g) {
  for (int64_t x = 0; x < g.M(); ++x)
    for (int64_t y = 0; y < g.N(); ++y) {
      g.color(g.hedge(x, y)) = 0;
      g.color(g.vedge(x, y)) = 1;
    }
}

// Greedy completion: repeatedly apply a switch that merges in one colour and does not split the
// other, until both colours are single cycles (or no such switch exists).
bool greedy_switches(Grid2& g, int64_t max_rounds) {
  for (int64_t round = 0; round < max_rounds; ++round) {
    const CycleInfo ci[2] = {g.cycles(0), g.cycles(1)};
    if (ci[0].len.size() == 1 && ci[1].len.size() == 1) return true;
    bool applied = false;
    for (int64_t x = 0; x < g.M() && !applied; ++x)
      for (int64_t y = 0; y < g.N() && !applied; ++y) {
        if (!g.switchable(x, y)) continue;
        const auto [h, v] = g.effects(x, y, ci);
        if (h == SwitchEffect::kSplit || v == SwitchEffect::kSplit) continue;
        if (h != SwitchEffect::kMerge && v != SwitchEffect::kMerge) continue;
        g.do_switch(x, y);
        applied = true;
      }
    if (!applied) return false;
  }
  return false;
}

// Staircase: rows in colour 0, columns in colour 1; switching the cells (i, i), i < N-1, merges all
// N rows and the first N columns (every switch joins two different cycles of both colours). The
// remaining columns are merged by twists of the row cycle (cells whose two horizontal edges the row
// cycle traverses in the same sense). Works when the shorter side N is odd (then rows N-1 and 0 are
// traversed in the same sense); for an even N every pair of neighbouring rows runs in opposite
// senses and no twist exists.
bool decompose_staircase(Grid2& g) {
  if (g.M() < g.N()) {
    Grid2 t(g.N(), g.M());
    if (!decompose_staircase(t)) return false;
    g = t.transposed();
    return true;
  }
  colour_rows_and_columns(g);
  for (int64_t i = 0; i + 1 < g.N(); ++i) g.do_switch(i, i);
  return greedy_switches(g, g.M() + 2);
}

// Diagonal start (cells (x, x mod N)), then greedy merges and twists.
bool decompose_greedy(Grid2& g) {
  colour_rows_and_columns(g);
  if (g.M() >= g.N()) {
    for (int64_t x = 0; x + 1 < g.M(); ++x) g.do_switch(x, x % g.N());
  } else {
    for (int64_t y = 0; y + 1 < g.N(); ++y) g.do_switch(y % g.M(), y);
  }
  return greedy_switches(g, g.M() * g.N());
}

// Section 2.1's rule (Fig. 1) for both sides even: in column j (paper: PU (i, j) is row i, column j)
//   j < n2-1, j even: T<->R, B<->L;  j < n2-1, j odd: T<->L, B<->R;  j = n2-1: T<->R, B<->L.
// Columns are x (size M), rows y (size N); T = -y, B = +y, L = -x, R = +x.
bool decompose_section21(Grid2& g) {
  const int64_t m = g.M(), n = g.N();
  if (m % 2 || n % 2) return false;
  // Follow the trail that starts by leaving (0,0) to the right; it gets colour 0, the rest colour 1.
  for (int64_t e = 0; e < 2 * m * n; ++e) g.color(e) = 1;
  enum Dir { kR = 0, kB = 1, kL = 2, kT = 3 };
  auto partner = [&](int64_t x, Dir in) -> Dir {
    const bool tr_bl = (x == m - 1) || (x % 2 == 0);
    if (tr_bl) {
      switch (in) {
        case kT: return kR;
        case kR: return kT;
        case kB: return kL;
        default: return kB;
      }
    }
    switch (in) {
      case kT: return kL;
      case kL: return kT;
      case kB: return kR;
      default: return kB;
    }
  };
  int64_t x = 0, y = 0;
  Dir out = kR;
  for (int64_t k = 0; k < m * n; ++k) {
    int64_t nx = x, ny = y;
    int64_t e = 0;
    Dir in = kL;
    switch (out) {
      case kR: e = g.hedge(x, y); nx = floor_mod(x + 1, m); in = kL; break;
      case kL: e = g.hedge(x - 1, y); nx = floor_mod(x - 1, m); in = kR; break;
      case kB: e = g.vedge(x, y); ny = floor_mod(y + 1, n); in = kT; break;
      case kT: e = g.vedge(x, y - 1); ny = floor_mod(y - 1, n); in = kB; break;
    }
    g.color(e) = 0;
    x = nx;
    y = ny;
    out = partner(x, in);
  }
  return g.single_cycles();
}

enum class Strategy { kDiagonal, kStaircase, kGreedy, kSection21 };

bool decompose_2d(Grid2& g, const std::vector<Strategy>& order) {
  for (Strategy s : order) {
    bool ok = false;
    switch (s) {
      case Strategy::kDiagonal: ok = decompose_diagonal(g); break;
      case Strategy::kStaircase: ok = (std::min(g.M(), g.N()) % 2 == 1) && decompose_staircase(g); break;
      case Strategy::kGreedy: ok = decompose_greedy(g); break;
      case Strategy::kSection21: ok = decompose_section21(g); break;
    }
    if (ok && g.single_cycles()) return true;
  }
  return false;
}

// The cycle of colour c of a 2D colouring as a sequence of grid nodes, starting at node 0.
std::vector<int64_t> grid_cycle(const Grid2& g, uint8_t c) {
  const CycleInfo ci = g.cycles(c);
  std::vector<int64_t> seq(ci.len[0]);
  for (int64_t v = 0; v < g.M() * g.N(); ++v) seq[ci.pos[v]] = v;
  return seq;
}

// ---------------------------------------------------------------------------------------------
// d >= 3: the product construction. Colours live on the torus edges (key v*D + dim).
class EdgeColouring {
 public:
  explicit EdgeColouring(const Torus& t) : t_(t), c_(t.nodes() * t.ndims(), -1) {}
  int8_t& at(int64_t key) { return c_[key]; }
  int8_t at(int64_t key) const { return c_[key]; }
  CycleInfo cycles(int8_t colour) const {
    const int d = t_.ndims();
    return analyze_cycles(t_.nodes(), [&](int64_t v, int64_t* e, int64_t* w) {
      int k = 0;
      for (int dim = 0; dim < d; ++dim) {
        const int64_t up = v * d + dim;
        const int64_t down_node = t_.step(v, dim, -1);
        const int64_t down = down_node * d + dim;
        if (c_[up] == colour) {
          if (k >= 2) throw std::logic_error("internal error: colour class is not a 2-factor");
          e[k] = up;
          w[k++] = t_.step(v, dim, 1);
        }
        if (c_[down] == colour) {
          if (k >= 2) throw std::logic_error("internal error: colour class is not a 2-factor");
          e[k] = down;
          w[k++] = down_node;
        }
      }
      if (k != 2) throw std::logic_error("internal error: colour class is not a 2-factor");
    });
  }

 private:
  const Torus& t_;
  std::vector<int8_t> c_;
};

std::vector<int64_t> sequence_of(const CycleInfo& ci) {
  std::vector<int64_t> seq(ci.len[0]);
  for (size_t v = 0; v < ci.pos.size(); ++v) seq[ci.pos[v]] = static_cast<int64_t>(v);
  return seq;
}

// Decomposition of the torus `dims` (in this dimension order). `swap_roles` picks the last cycle of
// the sub-decomposition as H_1; `order` is the 2D strategy order.
bool repair_colouring(const Torus& t, EdgeColouring& col, int colours);

bool product_decomposition(const std::vector<int>& dims, bool swap_roles, const std::vector<Strategy>& order,
                           bool allow_repair, std::vector<std::vector<int64_t>>& out) {
  const int d = static_cast<int>(dims.size());
  const Torus t(dims);
  if (d == 1) {
    std::vector<int64_t> ring(dims[0]);
    std::iota(ring.begin(), ring.end(), 0);
    out = {ring};
    return true;
  }
  if (d == 2) {
    Grid2 g(dims[0], dims[1]);
    if (!decompose_2d(g, order)) return false;
    out = {grid_cycle(g, 0), grid_cycle(g, 1)};  // grid ids equal torus ids (x fastest)
    return true;
  }
  std::vector<std::vector<int64_t>> sub;
  const std::vector<int> sub_dims(dims.begin(), dims.end() - 1);
  if (!product_decomposition(sub_dims, swap_roles, order, allow_repair, sub)) return false;
  if (swap_roles) std::reverse(sub.begin(), sub.end());
  const int64_t sub_nodes = static_cast<int64_t>(sub[0].size());
  const int c = dims[d - 1];
  const std::vector<int64_t>& h1 = sub[0];
  // H_1 x C_c is a 2D torus (position along H_1, layer); decompose it into K_0, K_1.
  Grid2 g(sub_nodes, c);
  if (!decompose_2d(g, order)) return false;
  EdgeColouring col(t);
  for (int64_t x = 0; x < sub_nodes; ++x)
    for (int z = 0; z < c; ++z) {
      const int64_t u = h1[x] + sub_nodes * z;
      const int64_t w = h1[(x + 1) % sub_nodes] + sub_nodes * z;
      col.at(t.edge_key(u, w)) = static_cast<int8_t>(g.color(g.hedge(x, z)));
      col.at(u * d + (d - 1)) = static_cast<int8_t>(g.color(g.vedge(x, z)));
    }
  for (int j = 1; j < d - 1; ++j) {
    const auto& h = sub[j];
    const int64_t m = static_cast<int64_t>(h.size());
    for (int z = 0; z < c; ++z)
      for (int64_t i = 0; i < m; ++i)
        col.at(t.edge_key(h[i] + sub_nodes * z, h[(i + 1) % m] + sub_nodes * z)) = static_cast<int8_t>(j + 1);
  }
  // Splice the layer copies of H_j (colour j+1) together: for layers z and z+1 find an edge uv of
  // H_j whose two vertical edges (u,z)-(u,z+1), (v,z)-(v,z+1) lie on the same K and are traversed
  // by it in the same sense; swapping the four edges merges the two layers and twists K.
  for (int j = 1; j < d - 1; ++j) {
    const auto& h = sub[j];
    const int64_t m = static_cast<int64_t>(h.size());
    const int8_t hc = static_cast<int8_t>(j + 1);
    for (int z = 0; z + 1 < c; ++z) {
      const CycleInfo k[2] = {col.cycles(0), col.cycles(1)};
      bool done = false;
      for (int64_t i = 0; i < m && !done; ++i) {
        const int64_t u0 = h[i] + sub_nodes * z, w0 = h[(i + 1) % m] + sub_nodes * z;
        const int64_t u1 = u0 + sub_nodes, w1 = w0 + sub_nodes;
        const int64_t h0 = t.edge_key(u0, w0), h1k = t.edge_key(u1, w1);
        const int64_t eu = u0 * d + (d - 1), ew = w0 * d + (d - 1);
        if (col.at(h0) != hc || col.at(h1k) != hc) continue;
        const int8_t kc = col.at(eu);
        if ((kc != 0 && kc != 1) || col.at(ew) != kc) continue;
        if (switch_effect(k[kc], u0, u1, w0, w1) != SwitchEffect::kTwist) continue;
        col.at(eu) = hc;
        col.at(ew) = hc;
        col.at(h0) = kc;
        col.at(h1k) = kc;
        done = true;
      }
      if (!done && allow_repair) {
        // No twist: splice anyway through a square whose verticals lie on one K (this splits K)
        // and leave the repair pass below to join the pieces again.
        for (int64_t i = 0; i < m && !done; ++i) {
          const int64_t u0 = h[i] + sub_nodes * z, w0 = h[(i + 1) % m] + sub_nodes * z;
          const int64_t h0 = t.edge_key(u0, w0), h1k = t.edge_key(u0 + sub_nodes, w0 + sub_nodes);
          const int64_t eu = u0 * d + (d - 1), ew = w0 * d + (d - 1);
          const int8_t kc = col.at(eu);
          if (col.at(h0) != hc || col.at(h1k) != hc || (kc != 0 && kc != 1) || col.at(ew) != kc) continue;
          col.at(eu) = hc;
          col.at(ew) = hc;
          col.at(h0) = kc;
          col.at(h1k) = kc;
          done = true;
        }
      }
      if (!done) return false;
    }
  }
  if (allow_repair && !repair_colouring(t, col, d)) return false;
  out.clear();
  for (int c2 = 0; c2 < d; ++c2) {
    const CycleInfo ci = col.cycles(static_cast<int8_t>(c2));
    if (ci.len.size() != 1) return false;
    out.push_back(sequence_of(ci));
  }
  return true;
}

// Repair pass (last resort): unit-square switches on the whole torus. A square v, v+e_p, v+e_p+e_q,
// v+e_q whose opposite edges share colours a and b may swap them; a move is taken if it merges
// cycles of one colour and splits none, otherwise (stuck) a deterministic pseudo-random move that
// merges one colour and splits the other, so the search can leave a plateau. Bounded effort.
bool repair_colouring(const Torus& t, EdgeColouring& col, int colours) {
  const int d = t.ndims();
  const int64_t n = t.nodes();
  uint64_t lcg = 0x2545F4914F6CDD1DULL;
  const int64_t max_iter = 50 * n + 1000;
  for (int64_t iter = 0; iter < max_iter; ++iter) {
    std::vector<CycleInfo> ci;
    bool single = true;
    for (int c = 0; c < colours; ++c) {
      ci.push_back(col.cycles(static_cast<int8_t>(c)));
      single = single && ci.back().len.size() == 1;
    }
    if (single) return true;
    struct Move {
      int64_t e[4];
    };
    std::vector<Move> sideways;
    bool applied = false;
    for (int64_t v = 0; v < n && !applied; ++v)
      for (int p = 0; p < d && !applied; ++p)
        for (int q = p + 1; q < d && !applied; ++q) {
          const int64_t vp = t.step(v, p, 1), vq = t.step(v, q, 1), vpq = t.step(vp, q, 1);
          const int64_t e1 = v * d + p, e2 = vp * d + q, e3 = vq * d + p, e4 = v * d + q;
          const int8_t a = col.at(e1), b = col.at(e2);
          if (a != col.at(e3) || b != col.at(e4) || a == b) continue;
          const SwitchEffect ea = switch_effect(ci[a], v, vp, vq, vpq);
          const SwitchEffect eb = switch_effect(ci[b], v, vq, vp, vpq);
          const int merges = (ea == SwitchEffect::kMerge) + (eb == SwitchEffect::kMerge);
          const int splits = (ea == SwitchEffect::kSplit) + (eb == SwitchEffect::kSplit);
          if (merges == 0) continue;
          if (splits == 0) {
            col.at(e1) = b;
            col.at(e3) = b;
            col.at(e2) = a;
            col.at(e4) = a;
            applied = true;
          } else {
            sideways.push_back(Move{{e1, e2, e3, e4}});
          }
        }
    if (applied) continue;
    if (sideways.empty()) return false;
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    const Move& mv = sideways[(lcg >> 33) % sideways.size()];
    const int8_t a = col.at(mv.e[0]), b = col.at(mv.e[1]);
    col.at(mv.e[0]) = b;
    col.at(mv.e[2]) = b;
    col.at(mv.e[1]) = a;
    col.at(mv.e[3]) = a;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The gossip schemes: cycles with the blocks each position injects, feeds of OOC nodes, prologue.
struct CycleSpec {
  std::vector<int64_t> nodes;                  // the cycle, in its forward sense
  std::vector<std::vector<uint64_t>> blocks;   // per position: blocks injected there
  int64_t fwd = 0;  // the forward stream (increasing positions) runs slots 1..fwd
  int64_t bwd = 0;  // the backward stream runs slots 1..bwd; fwd + bwd = m - 1
};

// Feeding of OOC node `target` from X (position x) and Y (position y = x + l): X sends its own
// position at slot 1, the packets walking backward from positions x+1..x+gamma (slots
// 2..gamma+1) and those walking forward from x-1..x-alpha (slots 2..alpha+1); Y sends its own,
// forward-walking y-1..y-delta and backward-walking y+1..y+beta. The inner arc x+1..y-1 is split
// at x+gamma | y-delta, the outer arc y+1..x-1 at y+beta | x-alpha; an excluded position (Section
// 2.2) sits in the gap between the two parts of its arc. In the slots where both of a feeder's
// relays run, its message to the target carries two positions.
struct FeedSpec {
  int cycle = 0;
  int64_t target = 0;
  int64_t x = 0, y = 0;
  int64_t gamma = 0, alpha = 0, delta = 0, beta = 0;
  int64_t completion() const { return 1 + std::max({gamma, alpha, delta, beta, int64_t{0}}); }
};

struct Scheme {
  std::string algorithm;
  std::string construction;
  int pieces = 0;
  int64_t inject_step = 1;
  std::vector<CycleSpec> cycles;
  std::vector<FeedSpec> feeds;
  std::vector<PlainMessage> prologue;
};

void set_uniform_windows(CycleSpec& c) {
  const int64_t m = static_cast<int64_t>(c.nodes.size());
  c.fwd = m / 2;        // = ceil((m-1)/2)
  c.bwd = (m - 1) / 2;  // = floor((m-1)/2)
}

// Balanced feed windows for OOC node `target` (positions relative to X: Y at l, 0 < l < m;
// `excluded` relative to X, in (0, l) or (l, m), or -1). Returns false if the windows would need
// more than the cycle streams provide (then the caller tries another choice).
bool make_feed(const CycleSpec& c, int cycle, int64_t target, int64_t x, int64_t l, int64_t excluded, FeedSpec& f) {
  const int64_t m = static_cast<int64_t>(c.nodes.size());
  f = FeedSpec{};
  f.cycle = cycle;
  f.target = target;
  f.x = x;
  f.y = floor_mod(x + l, m);
  const int64_t inner = l - 1, outer = m - l - 1;
  // Inner arc: X ascending gamma positions, Y descending delta. Outer: Y ascending beta, X
  // descending alpha. An exclusion sits between the two parts of its arc.
  if (excluded > 0 && excluded < l) {
    f.gamma = excluded - 1;
    f.delta = l - 1 - excluded;
  } else {
    f.gamma = (inner + 1) / 2;
    f.delta = inner / 2;
  }
  if (excluded > l && excluded < m) {
    f.beta = excluded - l - 1;
    f.alpha = m - 1 - excluded;
  } else {
    f.alpha = (outer + 1) / 2;
    f.beta = outer / 2;
  }
  // X receives backward-walking packets from distance <= bwd, forward-walking from <= fwd.
  return f.gamma <= c.bwd && f.alpha <= c.fwd && f.delta <= c.fwd && f.beta <= c.bwd;
}

// ---------------------------------------------------------------------------------------------
// Trails of a port pairing (Sections 2.1 and 2.2 give the routing rule as pairs of ports per node).
std::vector<std::vector<int64_t>> trails_from_pairing(const Torus& t, const std::vector<std::array<int, 4>>& pairing,
                                                      const std::array<int, 4>& ports) {
  // pairing[v][i] = index (0..3) of the partner of ports[i] at v, or -1.
  std::vector<std::array<uint8_t, 4>> used(t.nodes(), {0, 0, 0, 0});
  std::vector<std::vector<int64_t>> trails;
  for (int64_t s = 0; s < t.nodes(); ++s)
    for (int i0 = 0; i0 < 4; ++i0) {
      if (pairing[s][i0] < 0 || used[s][i0]) continue;
      std::vector<int64_t> seq;
      int64_t v = s;
      int out = pairing[s][i0];  // leave s through ports[out]; we "entered" through ports[i0]
      int in = i0;
      while (!used[v][in]) {
        used[v][in] = used[v][out] = 1;
        seq.push_back(v);
        const int p = ports[out];
        const int64_t w = t.neighbor(v, p);
        const int back = p ^ 1;
        in = static_cast<int>(std::find(ports.begin(), ports.end(), back) - ports.begin());
        v = w;
        out = pairing[v][in];
        if (out < 0) throw std::logic_error("internal error: trail enters a port without partner");
      }
      trails.push_back(std::move(seq));
    }
  return trails;
}

void require_simple(const Torus& t, const std::vector<int64_t>& cyc, const char* what) {
  std::vector<uint8_t> seen(t.nodes(), 0);
  for (int64_t v : cyc) {
    if (seen[v]) throw std::logic_error(std::string("internal error: ") + what + " visits a node twice");
    seen[v] = 1;
  }
  for (size_t k = 0; k < cyc.size(); ++k)
    if (t.port_to(cyc[k], cyc[(k + 1) % cyc.size()]) < 0)
      throw std::logic_error(std::string("internal error: ") + what + " has a non-edge");
}

void require_edge_disjoint(const Torus& t, const std::vector<CycleSpec>& cycles, std::vector<int8_t>& edge_cycle) {
  edge_cycle.assign(t.nodes() * t.ndims(), -1);
  for (size_t c = 0; c < cycles.size(); ++c) {
    const auto& n = cycles[c].nodes;
    for (size_t k = 0; k < n.size(); ++k) {
      const int64_t key = t.edge_key(n[k], n[(k + 1) % n.size()]);
      if (edge_cycle[key] >= 0) throw std::logic_error("internal error: cycles share an edge");
      edge_cycle[key] = static_cast<int8_t>(c);
    }
  }
}

void check_torus(const PlainTopology& topo, const char* algo) {
  if (!topo.wrap) throw std::invalid_argument(std::string(algo) + ": needs a torus (wrap = true)");
  if (topo.dims.empty()) throw std::invalid_argument(std::string(algo) + ": needs at least one dimension");
  int64_t n = 1;
  for (int s : topo.dims) {
    if (s < 3) throw std::invalid_argument(std::string(algo) + ": every side must be >= 3 (got " + dims_string(topo.dims) + ")");
    n *= s;
    if (n >= kMaxNodes) throw std::invalid_argument(std::string(algo) + ": the torus must have fewer than 2^31 nodes");
  }
}

// Cycles from a Hamiltonian decomposition: piece c of every node runs on cycle c.
Scheme hamiltonian_scheme(const Torus& t, const std::vector<std::vector<int64_t>>& cyc, std::string construction) {
  Scheme s;
  s.algorithm = "ms-hc";
  s.construction = std::move(construction);
  s.pieces = static_cast<int>(cyc.size());
  for (size_t c = 0; c < cyc.size(); ++c) {
    CycleSpec cs;
    cs.nodes = cyc[c];
    require_simple(t, cs.nodes, "Hamiltonian cycle");
    if (static_cast<int64_t>(cs.nodes.size()) != t.nodes()) throw std::logic_error("internal error: cycle is not Hamiltonian");
    cs.blocks.resize(cs.nodes.size());
    for (size_t k = 0; k < cs.nodes.size(); ++k)
      cs.blocks[k] = {static_cast<uint64_t>(cs.nodes[k]) * s.pieces + c};
    set_uniform_windows(cs);
    s.cycles.push_back(std::move(cs));
  }
  std::vector<int8_t> edge_cycle;
  require_edge_disjoint(t, s.cycles, edge_cycle);
  return s;
}

// Section 2.2: one side odd (o), the other even (e). Paper frame: column j = coordinate along the
// odd dimension (n_o columns), row i = coordinate along the even one. Columns other than
// c = n_o - 2 follow Section 2.1's rule (column n_o - 1 as the "last" column); column c passes
// L<->R only, so its node in row i lies on one cycle, and the rows of column c alternate between
// the two cycles (n_e even). A node C = (i, c) is OOC for the other cycle g; its feeders are its
// neighbours (i-1, c) and (i+1, c), both on g, over the otherwise unused vertical links.
//
// Re-packing (step 1, not oblivious). C cannot inject its g-share on g. The paper spreads it over
// C's row by a cascade of partial transfers; under exactly-once that fails: a block handed to a
// node that lies on both cycles comes back to its owner, because every node on a cycle receives
// every position of it. Only the OOC node C can skip a position: its feeds can leave a gap
// where an arc is split, and the other arc's split point is fixed by timing. So the data goes to ONE horizontal
// neighbour N of C that lies on g (its g-position inside the inner arc), and C's feeds skip N's
// g-position. With 6 pieces per node (3 per cycle): C puts 4 pieces on its own cycle g' and
// sends 2 to N; N's g-position carries those 2 plus 2 of N's own g-share, its g'-position the
// other 4 of N's pieces; N sends its 2 g-pieces to C in the same step (C skips N's g-position).
// Cycle messages carry at most 4 pieces, 4/3 of a share. The paper's (1 + 1/n2) would need C to
// skip the positions of a whole row. Merged feed messages carry up to 4 + 3 = 7.
Scheme section22_scheme(const Torus& t) {
  const int o = (t.size(0) % 2 == 1) ? 0 : 1;
  const int e = 1 - o;
  const int no = t.size(o), ne = t.size(e);
  const int col_c = no - 2;
  auto node_at = [&](int row, int col) {
    std::vector<int> c(2);
    c[o] = col;
    c[e] = row;
    return t.id(c);
  };
  // Port indices in the order R, B, L, T (R = +odd, B = +even, L = -odd, T = -even).
  const std::array<int, 4> ports = {2 * o, 2 * e, 2 * o + 1, 2 * e + 1};
  enum { kR = 0, kB = 1, kL = 2, kT = 3 };
  std::vector<std::array<int, 4>> pairing(t.nodes(), {-1, -1, -1, -1});
  for (int row = 0; row < ne; ++row)
    for (int col = 0; col < no; ++col) {
      auto& p = pairing[node_at(row, col)];
      if (col == col_c) {
        p[kL] = kR;
        p[kR] = kL;
      } else if (col == no - 1 || col % 2 == 0) {  // T<->R, B<->L
        p[kT] = kR; p[kR] = kT; p[kB] = kL; p[kL] = kB;
      } else {  // T<->L, B<->R
        p[kT] = kL; p[kL] = kT; p[kB] = kR; p[kR] = kB;
      }
    }
  auto trails = trails_from_pairing(t, pairing, ports);
  if (trails.size() != 2) throw std::logic_error("internal error: Section 2.2 rule does not give two cycles");
  Scheme s;
  s.algorithm = "ms-hc";
  s.construction = "Section 2.2 partial cycles (special column at odd-dimension coordinate " + std::to_string(col_c) +
                   ") with a re-packing step";
  s.pieces = kHcPiecesOneOdd;
  s.inject_step = 2;
  std::vector<std::vector<int64_t>> pos(2, std::vector<int64_t>(t.nodes(), -1));
  for (int c = 0; c < 2; ++c) {
    CycleSpec cs;
    cs.nodes = trails[c];
    require_simple(t, cs.nodes, "Section 2.2 cycle");
    if (static_cast<int64_t>(cs.nodes.size()) != t.nodes() - ne / 2)
      throw std::logic_error("internal error: Section 2.2 cycle length is not N - n_even/2");
    cs.blocks.resize(cs.nodes.size());
    for (size_t k = 0; k < cs.nodes.size(); ++k) pos[c][cs.nodes[k]] = static_cast<int64_t>(k);
    set_uniform_windows(cs);
    s.cycles.push_back(std::move(cs));
  }
  std::vector<int8_t> edge_cycle;
  require_edge_disjoint(t, s.cycles, edge_cycle);
  // Default loads: pieces 0..2 on cycle 0, 3..5 on cycle 1.
  auto share = [&](int64_t v, int c) {
    std::vector<uint64_t> b;
    for (int p = 3 * c; p < 3 * c + 3; ++p) b.push_back(static_cast<uint64_t>(v) * kHcPiecesOneOdd + p);
    return b;
  };
  std::vector<std::array<std::vector<uint64_t>, 2>> load(t.nodes());
  for (int64_t v = 0; v < t.nodes(); ++v)
    for (int c = 0; c < 2; ++c)
      if (pos[c][v] >= 0) load[v][c] = share(v, c);
  for (int row = 0; row < ne; ++row) {
    const int64_t cnode = node_at(row, col_c);
    const int home = pos[0][cnode] >= 0 ? 0 : 1;  // C's cycle g'
    const int g = 1 - home;  // the cycle C is out of
    if (pos[g][cnode] >= 0 || pos[home][cnode] < 0) throw std::logic_error("internal error: special node on both cycles");
    const int64_t above = node_at(row - 1, col_c), below = node_at(row + 1, col_c);
    const int64_t left = node_at(row, col_c - 1), right = node_at(row, col_c + 1);
    for (int64_t f : {above, below, left, right})
      if (pos[g][f] < 0) throw std::logic_error("internal error: Section 2.2 neighbour not on the other cycle");
    const CycleSpec& cg = s.cycles[g];
    const int64_t m = static_cast<int64_t>(cg.nodes.size());
    // Choose X (the feeder the inner arc ascends from) and N to minimise completion, then the
    // number of merged slots.
    FeedSpec best;
    int64_t best_n = -1;
    std::pair<int64_t, int64_t> best_key{std::numeric_limits<int64_t>::max(), 0};
    for (int orient = 0; orient < 2; ++orient) {
      const int64_t xn = orient ? below : above, yn = orient ? above : below;
      const int64_t x = pos[g][xn];
      const int64_t l = floor_mod(pos[g][yn] - x, m);
      for (int64_t nn : {left, right}) {
        const int64_t ex = floor_mod(pos[g][nn] - x, m);
        FeedSpec f;
        if (!make_feed(cg, g, cnode, x, l, ex, f)) continue;
        const std::pair<int64_t, int64_t> key{f.completion(), std::min(f.gamma, f.alpha) + std::min(f.delta, f.beta)};
        if (key < best_key) {
          best_key = key;
          best = f;
          best_n = nn;
        }
      }
    }
    if (best_n < 0) throw std::logic_error("internal error: no feasible feed for a Section 2.2 OOC node");
    s.feeds.push_back(best);
    // Re-packing: C puts its 3 g'-pieces and its first g-piece on g' (4 pieces) and sends its
    // other 2 g-pieces to N.
    std::vector<uint64_t> c_g = share(cnode, g);
    load[cnode][home].push_back(c_g[0]);
    std::sort(load[cnode][home].begin(), load[cnode][home].end());
    const std::vector<uint64_t> to_n = {c_g[1], c_g[2]};
    std::vector<uint64_t> n_g = share(best_n, g);
    const std::vector<uint64_t> to_c = {n_g[0], n_g[1]};
    load[best_n][g] = {c_g[1], c_g[2], n_g[0], n_g[1]};
    load[best_n][home].push_back(n_g[2]);
    std::sort(load[best_n][g].begin(), load[best_n][g].end());
    std::sort(load[best_n][home].begin(), load[best_n][home].end());
    s.prologue.push_back(hop_message(t, cnode, best_n, to_n));
    s.prologue.push_back(hop_message(t, best_n, cnode, to_c));
  }
  for (int c = 0; c < 2; ++c)
    for (size_t k = 0; k < s.cycles[c].nodes.size(); ++k) s.cycles[c].blocks[k] = load[s.cycles[c].nodes[k]][c];
  return s;
}

// Generic feed assignment for the one-packet schemes: every node gets, for every cycle it is not
// on, two feeders among its neighbours on that cycle over links no cycle uses, all distinct.
void assign_feeds(const Torus& t, Scheme& s) {
  const int ncyc = static_cast<int>(s.cycles.size());
  std::vector<std::vector<int64_t>> pos(ncyc, std::vector<int64_t>(t.nodes(), -1));
  for (int c = 0; c < ncyc; ++c)
    for (size_t k = 0; k < s.cycles[c].nodes.size(); ++k) pos[c][s.cycles[c].nodes[k]] = static_cast<int64_t>(k);
  std::vector<int8_t> edge_cycle;
  require_edge_disjoint(t, s.cycles, edge_cycle);
  for (int64_t v = 0; v < t.nodes(); ++v) {
    std::vector<int> missing;
    for (int c = 0; c < ncyc; ++c)
      if (pos[c][v] < 0) missing.push_back(c);
    if (missing.empty()) continue;
    if (static_cast<int>(missing.size()) == ncyc) throw std::logic_error("internal error: node on no cycle");
    std::vector<int64_t> free_nbrs;
    for (int p = 0; p < 2 * t.ndims(); ++p) {
      const int64_t u = t.neighbor(v, p);
      if (edge_cycle[t.edge_key(v, u)] < 0) free_nbrs.push_back(u);
    }
    // Enumerate feeder pairs per missing cycle (tiny: at most 6 neighbours); prefer the lowest
    // completion, then the fewest merged slots.
    std::vector<FeedSpec> best, cur;
    std::pair<int64_t, int64_t> best_key{std::numeric_limits<int64_t>::max(), 0};
    std::vector<uint8_t> taken(free_nbrs.size(), 0);
    std::function<void(size_t, std::pair<int64_t, int64_t>)> rec = [&](size_t i, std::pair<int64_t, int64_t> key) {
      if (i == missing.size()) {
        if (key < best_key) {
          best_key = key;
          best = cur;
        }
        return;
      }
      const int c = missing[i];
      const CycleSpec& cs = s.cycles[c];
      const int64_t m = static_cast<int64_t>(cs.nodes.size());
      for (size_t a = 0; a < free_nbrs.size(); ++a)
        for (size_t b = 0; b < free_nbrs.size(); ++b) {
          if (a == b || taken[a] || taken[b]) continue;
          const int64_t xa = pos[c][free_nbrs[a]], yb = pos[c][free_nbrs[b]];
          if (xa < 0 || yb < 0) continue;
          const int64_t l = floor_mod(yb - xa, m);
          if (2 * l > m) continue;  // X is the end the shorter (inner) arc ascends from
          FeedSpec f;
          if (!make_feed(cs, c, v, xa, l, -1, f)) continue;
          taken[a] = taken[b] = 1;
          cur.push_back(f);
          rec(i + 1, {std::max(key.first, f.completion()),
                      key.second + std::min(f.gamma, f.alpha) + std::min(f.delta, f.beta)});
          cur.pop_back();
          taken[a] = taken[b] = 0;
        }
    };
    rec(0, {0, 0});
    if (best.size() != missing.size()) throw std::logic_error("internal error: no feeders for an OOC node");
    for (auto& f : best) s.feeds.push_back(f);
  }
}

// One packet per node, on its home cycle (the first cycle through it).
void place_home_blocks(const Torus& t, Scheme& s) {
  std::vector<uint8_t> placed(t.nodes(), 0);
  for (auto& c : s.cycles) {
    c.blocks.assign(c.nodes.size(), {});
    for (size_t k = 0; k < c.nodes.size(); ++k)
      if (!placed[c.nodes[k]]) {
        placed[c.nodes[k]] = 1;
        c.blocks[k] = {static_cast<uint64_t>(c.nodes[k])};
      }
  }
  for (int64_t v = 0; v < t.nodes(); ++v)
    if (!placed[v]) throw std::logic_error("internal error: node on no cycle");
}

// A partial cycle of `laps` laps from node `start`: lap_moves(lap, moves) gives the dimensions of the
// lap's unit steps in the + direction. Checked to close and to visit no node twice.
template <class LapMoves>
CycleSpec lap_cycle(const Torus& t, int64_t start, int laps, const char* what, LapMoves lap_moves) {
  CycleSpec cs;
  std::vector<int> moves;
  int64_t v = start;
  for (int lap = 0; lap < laps; ++lap) {
    lap_moves(lap, moves);
    for (int dim : moves) {
      cs.nodes.push_back(v);
      v = t.step(v, dim, 1);
    }
  }
  if (v != start) throw std::logic_error(std::string("internal error: ") + what + " does not close");
  require_simple(t, cs.nodes, what);
  set_uniform_windows(cs);
  return cs;
}

// Section 4.1: axis x1 (size n1, even) and x2 (size n2). Cycle j starts at (j, 0); a lap is the
// zigzag +x1, +x2, +x1 followed by n2-1 moves +x2 (the last over the wraparound), n1/2 laps.
Scheme ms_one_2d_scheme(const Torus& t) {
  const int a1 = (t.size(0) % 2 == 0) ? 0 : 1;  // the even side plays x1
  const int a2 = 1 - a1;
  if (t.size(a1) % 2) throw std::invalid_argument("ms-one: 2D needs an even side (Theorem 3 assumes n1 even); got " + dims_string(t.dims()));
  const int n1 = t.size(a1), n2 = t.size(a2);
  Scheme s;
  s.algorithm = "ms-one";
  s.construction = std::string("Section 4.1 partial cycles, x1 = dimension ") + std::to_string(a1);
  s.pieces = 1;
  for (int j = 0; j < 2; ++j) {
    std::vector<int> c(2, 0);
    c[a1] = j;
    s.cycles.push_back(lap_cycle(t, t.id(c), n1 / 2, "Section 4.1 cycle", [&](int, std::vector<int>& moves) {
      moves = {a1, a2, a1};
      moves.insert(moves.end(), n2 - 1, a2);
    }));
  }
  place_home_blocks(t, s);
  assign_feeds(t, s);
  return s;
}

// Section 4.2 ("rods"): cycle j starts at (j, 0, 0); lap = zigzag (1,3,1,3,1) or, for every
// (n1/3)-th lap, (1,3,1,3,2), followed by n3-2 moves along x3; n1/3 * n2 laps.
Scheme ms_one_rods_scheme(const Torus& t) {
  const int n1 = t.size(0), n2 = t.size(1), n3 = t.size(2);
  if (n1 % 3) throw std::invalid_argument("ms-one: 3D needs n1 a multiple of 3 (Theorem 4); got " + dims_string(t.dims()));
  if (n2 % n1) throw std::invalid_argument("ms-one: 3D needs n2 a multiple of n1 (Theorem 4); got " + dims_string(t.dims()));
  Scheme s;
  s.algorithm = "ms-one";
  s.construction = "Section 4.2 rods (three partial cycles)";
  s.pieces = 1;
  const int laps = n1 / 3 * n2;
  for (int j = 0; j < 3; ++j) {
    s.cycles.push_back(lap_cycle(t, t.id({j, 0, 0}), laps, "rod cycle", [&](int lap, std::vector<int>& moves) {
      const bool second_type = lap % (n1 / 3) == n1 / 3 - 1;
      moves = {0, 2, 0, 2, second_type ? 1 : 0};
      moves.insert(moves.end(), n3 - 2, 2);
    }));
  }
  place_home_blocks(t, s);
  assign_feeds(t, s);
  return s;
}

Scheme build_ms_hc(const PlainTopology& topo, const MsHcOptions& options) {
  check_torus(topo, "ms-hc");
  const Torus t(topo.dims);
  const int d = t.ndims();
  if (d == 2) {
    const bool odd0 = t.size(0) % 2, odd1 = t.size(1) % 2;
    if (!odd0 && !odd1) {
      Grid2 g(t.size(0), t.size(1));
      if (!decompose_section21(g)) throw std::logic_error("internal error: Section 2.1 rule failed");
      return hamiltonian_scheme(t, {grid_cycle(g, 0), grid_cycle(g, 1)}, "Section 2.1 Hamiltonian cycles (Fig. 1 rule)");
    }
    if (odd0 != odd1 && !options.full_decomposition_for_one_odd) return section22_scheme(t);
  }
  return hamiltonian_scheme(t, hamiltonian_decomposition(topo.dims),
                            d == 1 ? "the ring" : "Hamiltonian decomposition (square switching / product construction)");
}

Scheme build_ms_one(const PlainTopology& topo) {
  check_torus(topo, "ms-one");
  const Torus t(topo.dims);
  if (t.ndims() == 2) return ms_one_2d_scheme(t);
  if (t.ndims() == 3) return ms_one_rods_scheme(t);
  throw std::invalid_argument("ms-one: implemented for 2D and 3D tori (Section 4); got " + dims_string(topo.dims));
}

// ---------------------------------------------------------------------------------------------
// Direct emission from the geometry.
void canonicalize(PlainStep& step) {
  for (auto& m : step.messages) std::sort(m.blocks.begin(), m.blocks.end());
  std::sort(step.messages.begin(), step.messages.end(), [](const PlainMessage& a, const PlainMessage& b) {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  });
}

// Streams steps to `emit`, holding back empty steps until a later non-empty one appears (so both
// derivations end with their last non-empty step).
class StepEmitter {
 public:
  explicit StepEmitter(const PlainStepSink& emit) : emit_(emit) {}
  void push(PlainStep&& step) {
    if (step.messages.empty()) {
      ++pending_empty_;
      pending_label_ = step.label;
      return;
    }
    for (; pending_empty_ > 0; --pending_empty_) emit_(PlainStep{pending_label_, {}});
    canonicalize(step);
    emit_(std::move(step));
  }

 private:
  const PlainStepSink& emit_;
  int64_t pending_empty_ = 0;
  std::string pending_label_;
};

int64_t scheme_relative_slots(const Scheme& s) {
  int64_t last = 0;
  for (const auto& c : s.cycles) last = std::max({last, c.fwd, c.bwd});
  for (const auto& f : s.feeds) last = std::max(last, f.completion());
  return last;
}

void emit_scheme(const Torus& t, const Scheme& s, const PlainStepSink& emit) {
  StepEmitter out(emit);
  if (!s.prologue.empty()) out.push(PlainStep{"repack", s.prologue});
  const int64_t slots = scheme_relative_slots(s);
  const std::string label = s.algorithm;
  for (int64_t tau = 1; tau <= slots; ++tau) {
    PlainStep step;
    step.label = label;
    for (const auto& c : s.cycles) {
      const int64_t m = static_cast<int64_t>(c.nodes.size());
      for (int64_t k = 0; k < m; ++k) {
        if (tau <= c.fwd) {
          const auto& b = c.blocks[floor_mod(k - tau + 1, m)];
          if (!b.empty()) step.messages.push_back(hop_message(t, c.nodes[k], c.nodes[(k + 1) % m], b));
        }
        if (tau <= c.bwd) {
          const auto& b = c.blocks[floor_mod(k + tau - 1, m)];
          if (!b.empty()) step.messages.push_back(hop_message(t, c.nodes[k], c.nodes[floor_mod(k - 1, m)], b));
        }
      }
    }
    for (const auto& f : s.feeds) {
      const auto& c = s.cycles[f.cycle];
      const int64_t m = static_cast<int64_t>(c.nodes.size());
      std::vector<uint64_t> bx, by;
      auto add = [&](std::vector<uint64_t>& dst, int64_t p) {
        const auto& b = c.blocks[floor_mod(p, m)];
        dst.insert(dst.end(), b.begin(), b.end());
      };
      if (tau == 1) add(bx, f.x);
      if (tau >= 2 && tau <= f.gamma + 1) add(bx, f.x + tau - 1);
      if (tau >= 2 && tau <= f.alpha + 1) add(bx, f.x - tau + 1);
      if (tau == 1) add(by, f.y);
      if (tau >= 2 && tau <= f.delta + 1) add(by, f.y - tau + 1);
      if (tau >= 2 && tau <= f.beta + 1) add(by, f.y + tau - 1);
      if (!bx.empty()) step.messages.push_back(hop_message(t, c.nodes[f.x], f.target, std::move(bx)));
      if (!by.empty()) step.messages.push_back(hop_message(t, c.nodes[f.y], f.target, std::move(by)));
    }
    out.push(std::move(step));
  }
}

// ---------------------------------------------------------------------------------------------
// Tables from the geometry.
GossipPlan plan_of(const Torus& t, const Scheme& s) {
  const int d = t.ndims();
  const int local = 2 * d;
  GossipPlan plan;
  plan.algorithm = s.algorithm;
  plan.construction = s.construction;
  plan.pieces = s.pieces;
  ForwardingTable& tab = plan.table;
  tab.ndims = d;
  tab.pieces = s.pieces;
  tab.inject_step = s.inject_step;
  tab.out_mask.assign(t.nodes(), std::vector<uint32_t>(local + 1, 0));
  tab.deliver.assign(t.nodes(), std::vector<uint8_t>(local + 1, 0));
  tab.rules.assign(t.nodes(), {});
  tab.inject.assign(t.nodes(), {});
  tab.prologue = s.prologue;
  const int64_t s0 = s.inject_step;
  // Per node: block -> injection mask (a node injects each block at one position only).
  std::vector<std::vector<std::pair<uint64_t, uint32_t>>> inj(t.nodes());
  auto inject_at = [&](int64_t v, const std::vector<uint64_t>& blocks, int port) {
    for (uint64_t b : blocks) {
      auto it = std::find_if(inj[v].begin(), inj[v].end(), [&](const auto& e) { return e.first == b; });
      if (it == inj[v].end()) inj[v].push_back({b, 1u << port});
      else it->second |= 1u << port;
    }
  };
  std::vector<uint32_t> port_used(t.nodes(), 0);  // each out port has one role
  auto claim = [&](int64_t v, int port) {
    if (port_used[v] & (1u << port)) throw std::logic_error("internal error: an output port has two roles");
    port_used[v] |= 1u << port;
  };
  auto rule = [&](int64_t v, int in, int out, int64_t first, int64_t last) {
    if (last < first) return;
    tab.rules[v].push_back(ForwardRule{static_cast<uint8_t>(in), static_cast<uint8_t>(out), first, last});
    tab.out_mask[v][in] |= 1u << out;
  };
  int64_t max_pieces = 0;
  for (const auto& m : s.prologue) max_pieces = std::max<int64_t>(max_pieces, static_cast<int64_t>(m.blocks.size()));
  for (const auto& c : s.cycles) {
    const int64_t m = static_cast<int64_t>(c.nodes.size());
    for (int64_t k = 0; k < m; ++k) {
      const int64_t v = c.nodes[k], succ = c.nodes[(k + 1) % m], pred = c.nodes[floor_mod(k - 1, m)];
      const int ps = t.port_to(v, succ), pp = t.port_to(v, pred);
      max_pieces = std::max<int64_t>(max_pieces, static_cast<int64_t>(c.blocks[k].size()));
      if (c.fwd >= 1) {
        claim(v, ps);
        inject_at(v, c.blocks[k], ps);
        rule(v, pp, ps, s0 + 1, s0 + c.fwd - 1);  // forward-walking packets come in from pred
        tab.deliver[succ][t.port_to(succ, v)] = 1;
      }
      if (c.bwd >= 1) {
        claim(v, pp);
        inject_at(v, c.blocks[k], pp);
        rule(v, ps, pp, s0 + 1, s0 + c.bwd - 1);
        tab.deliver[pred][t.port_to(pred, v)] = 1;
      }
    }
  }
  for (const auto& f : s.feeds) {
    const auto& c = s.cycles[f.cycle];
    const int64_t m = static_cast<int64_t>(c.nodes.size());
    for (int side = 0; side < 2; ++side) {
      const int64_t k = side == 0 ? f.x : f.y;
      const int64_t v = c.nodes[k];
      const int q = t.port_to(v, f.target);
      const int ps = t.port_to(v, c.nodes[(k + 1) % m]), pp = t.port_to(v, c.nodes[floor_mod(k - 1, m)]);
      claim(v, q);
      // X: ascending (backward-walking, in from succ) for gamma, descending (in from pred) for alpha.
      // Y: descending for delta, ascending for beta.
      const int64_t asc = side == 0 ? f.gamma : f.beta;
      const int64_t desc = side == 0 ? f.alpha : f.delta;
      inject_at(v, c.blocks[k], q);
      rule(v, ps, q, s0 + 1, s0 + asc);
      rule(v, pp, q, s0 + 1, s0 + desc);
      tab.deliver[f.target][t.port_to(f.target, v)] = 1;
      // Largest merged message: slots 2..min(asc, desc)+1 carry two positions.
      const int64_t both = std::min(asc, desc);
      for (int64_t tau = 2; tau <= both + 1; ++tau) {
        const int64_t a = static_cast<int64_t>(c.blocks[floor_mod(k + tau - 1, m)].size());
        const int64_t b = static_cast<int64_t>(c.blocks[floor_mod(k - tau + 1, m)].size());
        max_pieces = std::max(max_pieces, a + b);
      }
      max_pieces = std::max<int64_t>(max_pieces, static_cast<int64_t>(c.blocks[k].size()));
    }
  }
  for (int64_t v = 0; v < t.nodes(); ++v) {
    for (const auto& [b, mask] : inj[v]) {
      tab.inject[v].push_back(InjectionEntry{b, mask});
      tab.out_mask[v][local] |= mask;
    }
    std::sort(tab.inject[v].begin(), tab.inject[v].end(),
              [](const InjectionEntry& a, const InjectionEntry& b) { return a.block < b.block; });
  }
  plan.max_message_pieces = max_pieces;
  const int64_t slots = scheme_relative_slots(s);
  plan.steps = (s.prologue.empty() ? 0 : 1) + slots;
  // Largest message per slot: cycle streams carry one position each (the largest position of a
  // cycle whose stream still runs); a feed carries one position per relay direction, so only its
  // slots where both relays run (and its slots beyond the cycle streams) can exceed that.
  std::vector<int64_t> slot_max(slots + 1, 0);
  for (const auto& c : s.cycles) {
    int64_t biggest = 0;
    for (const auto& b : c.blocks) biggest = std::max<int64_t>(biggest, static_cast<int64_t>(b.size()));
    for (int64_t tau = 1; tau <= std::max(c.fwd, c.bwd); ++tau) slot_max[tau] = std::max(slot_max[tau], biggest);
  }
  const int64_t stream_slots = [&] {
    int64_t r = 0;
    for (const auto& c : s.cycles) r = std::max({r, c.fwd, c.bwd});
    return r;
  }();
  for (const auto& f : s.feeds) {
    const auto& c = s.cycles[f.cycle];
    const int64_t m = static_cast<int64_t>(c.nodes.size());
    auto size_at = [&](int64_t p) { return static_cast<int64_t>(c.blocks[floor_mod(p, m)].size()); };
    for (int side = 0; side < 2; ++side) {
      const int64_t k = side == 0 ? f.x : f.y;
      const int64_t asc = side == 0 ? f.gamma : f.beta, desc = side == 0 ? f.alpha : f.delta;
      auto msg = [&](int64_t tau) {
        int64_t n = 0;
        if (tau == 1) n += size_at(k);
        if (tau >= 2 && tau <= asc + 1) n += size_at(k + tau - 1);
        if (tau >= 2 && tau <= desc + 1) n += size_at(k - tau + 1);
        return n;
      };
      const int64_t both = std::min(asc, desc) + 1;
      for (int64_t tau = 2; tau <= both; ++tau) slot_max[tau] = std::max(slot_max[tau], msg(tau));
      for (int64_t tau = std::max<int64_t>(stream_slots + 1, 1); tau <= f.completion(); ++tau)
        slot_max[tau] = std::max(slot_max[tau], msg(tau));
    }
  }
  plan.transmission_pieces = 0;
  for (int64_t tau = 1; tau <= slots; ++tau) plan.transmission_pieces += slot_max[tau];
  if (!s.prologue.empty()) {
    int64_t pm = 0;
    for (const auto& m : s.prologue) pm = std::max<int64_t>(pm, static_cast<int64_t>(m.blocks.size()));
    plan.transmission_pieces += pm;
  }
  return plan;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
std::vector<std::vector<int64_t>> hamiltonian_decomposition(const std::vector<int>& dims) {
  PlainTopology topo{dims, true};
  check_torus(topo, "hamiltonian_decomposition");
  const int d = static_cast<int>(dims.size());
  const std::vector<std::vector<Strategy>> orders = {
      {Strategy::kDiagonal, Strategy::kStaircase, Strategy::kGreedy, Strategy::kSection21},
      {Strategy::kStaircase, Strategy::kGreedy, Strategy::kDiagonal, Strategy::kSection21},
      {Strategy::kGreedy, Strategy::kStaircase, Strategy::kDiagonal, Strategy::kSection21},
      {Strategy::kSection21, Strategy::kDiagonal, Strategy::kStaircase, Strategy::kGreedy}};
  std::vector<std::vector<int64_t>> out;
  if (d <= 2) {
    for (const auto& order : orders)
      if (product_decomposition(dims, false, order, false, out)) return out;
    throw std::invalid_argument("hamiltonian_decomposition: no decomposition found for " + dims_string(dims));
  }
  // d >= 3: try dimension orders (the last one is the layer dimension of the top product step).
  // First pass: exact product construction in every dimension order; second pass (rare, e.g.
  // 4x4x6): the same with split switches allowed and a repair search afterwards.
  const Torus t(dims);
  for (bool repair : {false, true}) {
    std::vector<int> perm(d);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      std::vector<int> pd(d);
      for (int i = 0; i < d; ++i) pd[i] = dims[perm[i]];
      for (const auto& order : orders)
        for (bool swap : {false, true}) {
          if (!product_decomposition(pd, swap, order, repair, out)) continue;
          const Torus tp(pd);
          std::vector<int> coords(d);
          for (auto& cyc : out)
            for (auto& v : cyc) {
              for (int i = 0; i < d; ++i) coords[perm[i]] = tp.coord(v, i);
              v = t.id(coords);
            }
          return out;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  throw std::invalid_argument("hamiltonian_decomposition: the product construction found no decomposition for " +
                              dims_string(dims));
}

GossipPlan plan_ms_hc(const PlainTopology& topo) { return plan_ms_hc(topo, MsHcOptions{}); }

GossipPlan plan_ms_hc(const PlainTopology& topo, const MsHcOptions& options) {
  const Scheme s = build_ms_hc(topo, options);
  return plan_of(Torus(topo.dims), s);
}

GossipPlan plan_ms_one(const PlainTopology& topo) {
  const Scheme s = build_ms_one(topo);
  return plan_of(Torus(topo.dims), s);
}

void generate_ms_hc(const PlainTopology& topo, const PlainStepSink& emit) { generate_ms_hc(topo, MsHcOptions{}, emit); }

void generate_ms_hc(const PlainTopology& topo, const MsHcOptions& options, const PlainStepSink& emit) {
  const Scheme s = build_ms_hc(topo, options);
  emit_scheme(Torus(topo.dims), s, emit);
}

void generate_ms_one(const PlainTopology& topo, const PlainStepSink& emit) {
  const Scheme s = build_ms_one(topo);
  emit_scheme(Torus(topo.dims), s, emit);
}

void schedule_from_tables(const PlainTopology& topo, const GossipPlan& plan, const PlainStepSink& emit) {
  const Torus t(topo.dims);
  const ForwardingTable& tab = plan.table;
  const int d = t.ndims();
  if (tab.ndims != d || static_cast<int64_t>(tab.rules.size()) != t.nodes() ||
      static_cast<int64_t>(tab.inject.size()) != t.nodes())
    throw std::invalid_argument("schedule_from_tables: the tables do not match the topology");
  StepEmitter out(emit);
  const int64_t s0 = tab.inject_step;
  if (!tab.prologue.empty()) {
    if (s0 != 2) throw std::invalid_argument("schedule_from_tables: a prologue needs inject_step 2");
    out.push(PlainStep{"repack", tab.prologue});
  } else if (s0 != 1) {
    throw std::invalid_argument("schedule_from_tables: inject_step must be 1 without a prologue");
  }
  int64_t last = s0;
  for (const auto& rs : tab.rules)
    for (const auto& r : rs) last = std::max(last, r.last);
  const int np = 2 * d;
  // arrived[v * np + in_port]: blocks that came in through in_port in the previous step.
  std::vector<std::vector<uint64_t>> arrived(t.nodes() * np), next(t.nodes() * np);
  std::vector<std::vector<uint64_t>> payload(np);
  for (int64_t step_no = s0; step_no <= last; ++step_no) {
    PlainStep step;
    step.label = plan.algorithm;
    for (auto& a : next) a.clear();
    for (int64_t v = 0; v < t.nodes(); ++v) {
      for (auto& p : payload) p.clear();
      if (step_no == s0)
        for (const auto& e : tab.inject[v])
          for (int p = 0; p < np; ++p)
            if (e.out_mask & (1u << p)) payload[p].push_back(e.block);
      for (const auto& r : tab.rules[v]) {
        if (step_no < r.first || step_no > r.last) continue;
        const auto& a = arrived[v * np + r.in_port];
        payload[r.out_port].insert(payload[r.out_port].end(), a.begin(), a.end());
      }
      for (int p = 0; p < np; ++p) {
        if (payload[p].empty()) continue;
        const int64_t w = t.neighbor(v, p);
        step.messages.push_back(hop_message(t, v, w, payload[p]));
        auto& dst = next[w * np + (p ^ 1)];
        dst.insert(dst.end(), payload[p].begin(), payload[p].end());
      }
    }
    std::swap(arrived, next);
    out.push(std::move(step));
  }
}

int64_t ms_hc_formula_steps(const PlainTopology& topo) { return ms_hc_formula_steps(topo, MsHcOptions{}); }

int64_t ms_hc_formula_steps(const PlainTopology& topo, const MsHcOptions& options) {
  check_torus(topo, "ms-hc");
  int64_t p = 1;
  for (int s : topo.dims) p *= s;
  if (topo.dims.size() == 2) {
    const int n1 = topo.dims[0], n2 = topo.dims[1];
    const bool odd1 = n1 % 2, odd2 = n2 % 2;
    if (!odd1 && !odd2) return p / 2;  // Theorem 1
    if (odd1 != odd2 && !options.full_decomposition_for_one_odd) return p / 2 + 1 + (odd1 ? n1 : n2);  // Section 2.2
  }
  return p / 2;  // ceil((P-1)/2)
}

int64_t ms_one_formula_steps(const PlainTopology& topo) {
  check_torus(topo, "ms-one");
  const auto& dm = topo.dims;
  if (dm.size() == 2) {
    const int n1 = dm[0] % 2 == 0 ? dm[0] : dm[1];
    const int n2 = dm[0] % 2 == 0 ? dm[1] : dm[0];
    if (n1 % 2) throw std::invalid_argument("ms-one: 2D needs an even side (Theorem 3 assumes n1 even); got " + dims_string(dm));
    // n1*n2/4 + n1/2 + n2/2 + 2 = ((n1+2)(n2+2) + 4)/4, floor'ed for odd n2.
    return (static_cast<int64_t>(n1 + 2) * (n2 + 2)) / 4 + 1;
  }
  if (dm.size() == 3) {
    if (dm[0] % 3) throw std::invalid_argument("ms-one: 3D needs n1 a multiple of 3 (Theorem 4); got " + dims_string(dm));
    if (dm[1] % dm[0]) throw std::invalid_argument("ms-one: 3D needs n2 a multiple of n1 (Theorem 4); got " + dims_string(dm));
    const int64_t a = static_cast<int64_t>(dm[0]) * dm[1];
    // ceil(n1 n2 n3 / 6 + n1 n2 / 2) = ceil(n1 n2 (n3 + 3) / 6)
    return (a * (dm[2] + 3) + 5) / 6;
  }
  throw std::invalid_argument("ms-one: implemented for 2D and 3D tori (Section 4); got " + dims_string(dm));
}

// ---------------------------------------------------------------------------------------------
void write_forwarding_tables(std::ostream& out, const PlainTopology& topo, const GossipPlan& plan) {
  const ForwardingTable& tab = plan.table;
  out << "torx-forwarding-tables 1\n";
  out << "# " << plan.construction << "\n";
  out << "algorithm " << plan.algorithm << "\n";
  out << "dims";
  for (int s : topo.dims) out << ' ' << s;
  out << "\npieces " << tab.pieces << "\nsteps " << plan.steps << "\ninject_step " << tab.inject_step << "\n";
  const int64_t nodes = static_cast<int64_t>(tab.rules.size());
  for (int64_t v = 0; v < nodes; ++v) {
    for (size_t i = 0; i < tab.out_mask[v].size(); ++i)
      if (tab.out_mask[v][i] || tab.deliver[v][i])
        out << "D " << v << ' ' << i << ' ' << tab.out_mask[v][i] << ' ' << int(tab.deliver[v][i]) << '\n';
    for (const auto& r : tab.rules[v])
      out << "R " << v << ' ' << int(r.in_port) << ' ' << int(r.out_port) << ' ' << r.first << ' ' << r.last << '\n';
    for (const auto& e : tab.inject[v]) out << "I " << v << ' ' << e.block << ' ' << e.out_mask << '\n';
  }
  for (const auto& m : tab.prologue) {
    int dim = m.route.start_dim;
    out << "P " << m.src << ' ' << m.dst << ' ' << dim << ' ' << int(m.route.dir[dim]);
    for (uint64_t b : m.blocks) out << ' ' << b;
    out << '\n';
  }
  out << "end\n";
}

std::pair<PlainTopology, GossipPlan> read_forwarding_tables(std::istream& in) {
  PlainTopology topo;
  topo.wrap = true;
  GossipPlan plan;
  ForwardingTable& tab = plan.table;
  std::string line;
  int64_t lineno = 0;
  bool header = false, ended = false, sized = false;
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("forwarding tables, line " + std::to_string(lineno) + ": " + what);
  };
  auto ensure_sized = [&]() {
    if (sized) return;
    if (topo.dims.empty()) fail("'dims' must come before the records");
    const Torus t(topo.dims);
    const int np = 2 * t.ndims();
    tab.ndims = t.ndims();
    tab.out_mask.assign(t.nodes(), std::vector<uint32_t>(np + 1, 0));
    tab.deliver.assign(t.nodes(), std::vector<uint8_t>(np + 1, 0));
    tab.rules.assign(t.nodes(), {});
    tab.inject.assign(t.nodes(), {});
    sized = true;
  };
  while (std::getline(in, line)) {
    ++lineno;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key)) continue;
    if (ended) fail("text after 'end'");
    if (!header) {
      int version = 0;
      if (key != "torx-forwarding-tables" || !(ls >> version) || version != 1) fail("expected 'torx-forwarding-tables 1'");
      header = true;
      continue;
    }
    auto node_ok = [&](int64_t v) {
      if (v < 0 || v >= static_cast<int64_t>(tab.rules.size())) fail("node out of range");
    };
    const int np = 2 * static_cast<int>(topo.dims.size());
    if (key == "algorithm") {
      if (!(ls >> plan.algorithm)) fail("missing algorithm name");
    } else if (key == "dims") {
      int s;
      while (ls >> s) topo.dims.push_back(s);
      check_torus(topo, "forwarding tables");
    } else if (key == "pieces") {
      if (!(ls >> tab.pieces) || tab.pieces < 1) fail("bad pieces");
      plan.pieces = tab.pieces;
    } else if (key == "steps") {
      if (!(ls >> plan.steps)) fail("bad steps");
    } else if (key == "inject_step") {
      if (!(ls >> tab.inject_step) || tab.inject_step < 1) fail("bad inject_step");
    } else if (key == "D") {
      ensure_sized();
      int64_t v;
      int i, dl;
      uint32_t mask;
      if (!(ls >> v >> i >> mask >> dl)) fail("malformed D record");
      node_ok(v);
      if (i < 0 || i > np || (dl != 0 && dl != 1)) fail("bad D record");
      tab.deliver[v][i] = static_cast<uint8_t>(dl);
      tab.out_mask[v][i] = mask;
    } else if (key == "R") {
      ensure_sized();
      int64_t v, first, last;
      int i, o;
      if (!(ls >> v >> i >> o >> first >> last)) fail("malformed R record");
      node_ok(v);
      if (i < 0 || i >= np || o < 0 || o >= np) fail("bad port in R record");
      tab.rules[v].push_back(ForwardRule{static_cast<uint8_t>(i), static_cast<uint8_t>(o), first, last});
    } else if (key == "I") {
      ensure_sized();
      int64_t v;
      uint64_t b;
      uint32_t mask;
      if (!(ls >> v >> b >> mask)) fail("malformed I record");
      node_ok(v);
      tab.inject[v].push_back(InjectionEntry{b, mask});
    } else if (key == "P") {
      ensure_sized();
      PlainMessage m;
      int dim, dir;
      if (!(ls >> m.src >> m.dst >> dim >> dir)) fail("malformed P record");
      if (dim < 0 || dim >= static_cast<int>(topo.dims.size()) || (dir != 1 && dir != -1)) fail("bad P route");
      m.route.start_dim = dim;
      m.route.dir.assign(topo.dims.size(), 0);
      m.route.dir[dim] = static_cast<int8_t>(dir);
      uint64_t b;
      while (ls >> b) m.blocks.push_back(b);
      if (m.blocks.empty()) fail("P record without blocks");
      tab.prologue.push_back(std::move(m));
    } else if (key == "end") {
      ended = true;
    } else {
      fail("unknown record '" + key + "'");
    }
  }
  if (!header || !ended) throw std::invalid_argument("forwarding tables: missing header or 'end'");
  ensure_sized();
  // Only what the routers need is stored; max_message_pieces and transmission_pieces stay 0
  // (run schedule_from_tables to measure them).
  plan.construction = "read from forwarding tables";
  for (int64_t v = 0; v < static_cast<int64_t>(tab.rules.size()); ++v)
    for (const auto& r : tab.rules[v])
      if (!(tab.out_mask[v][r.in_port] & (1u << r.out_port)))
        throw std::invalid_argument("forwarding tables: rule of node " + std::to_string(v) +
                                    " is missing from its D record's out_mask");
  return {topo, plan};
}

}  // namespace torx::sw
