// SPDX-License-Identifier: Apache-2.0
// Edge-disjoint Hamiltonian decompositions of tori (d cycles through every node of a d-dimensional
// torus, together using every link once), the substrate of seed 003's split-packet gossip (ms-hc).
// See hamiltonian.hpp for what is built for which shape.
#include "algorithms/hamiltonian.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/int_math.hpp"

namespace torx::sw {

namespace {

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
  explicit EdgeColouring(const Topology& t) : t_(t), c_(static_cast<size_t>(t.nodes()) * t.ndims(), -1) {}
  int8_t& at(int64_t key) { return c_[key]; }
  int8_t at(int64_t key) const { return c_[key]; }
  CycleInfo cycles(int8_t colour) const {
    const int d = t_.ndims();
    return analyze_cycles(t_.nodes(), [&](int64_t v, int64_t* e, int64_t* w) {
      int k = 0;
      for (int dim = 0; dim < d; ++dim) {
        const int64_t up = v * d + dim;
        const int64_t down_node = t_.neighbor(v, dim, -1);
        const int64_t down = down_node * d + dim;
        if (c_[up] == colour) {
          if (k >= 2) throw std::logic_error("internal error: colour class is not a 2-factor");
          e[k] = up;
          w[k++] = t_.neighbor(v, dim, 1);
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
  const Topology& t_;
  std::vector<int8_t> c_;
};

std::vector<int64_t> sequence_of(const CycleInfo& ci) {
  std::vector<int64_t> seq(ci.len[0]);
  for (size_t v = 0; v < ci.pos.size(); ++v) seq[ci.pos[v]] = static_cast<int64_t>(v);
  return seq;
}

// Decomposition of the torus `dims` (in this dimension order). `swap_roles` picks the last cycle of
// the sub-decomposition as H_1; `order` is the 2D strategy order.
bool repair_colouring(const Topology& t, EdgeColouring& col, int colours);

bool product_decomposition(const std::vector<int>& dims, bool swap_roles, const std::vector<Strategy>& order,
                           bool allow_repair, std::vector<std::vector<int64_t>>& out) {
  const int d = static_cast<int>(dims.size());
  const Topology t(dims, true);
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
      col.at(undirected_edge(t, u, w)) = static_cast<int8_t>(g.color(g.hedge(x, z)));
      col.at(u * d + (d - 1)) = static_cast<int8_t>(g.color(g.vedge(x, z)));
    }
  for (int j = 1; j < d - 1; ++j) {
    const auto& h = sub[j];
    const int64_t m = static_cast<int64_t>(h.size());
    for (int z = 0; z < c; ++z)
      for (int64_t i = 0; i < m; ++i)
        col.at(undirected_edge(t, h[i] + sub_nodes * z, h[(i + 1) % m] + sub_nodes * z)) = static_cast<int8_t>(j + 1);
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
        const int64_t h0 = undirected_edge(t, u0, w0), h1k = undirected_edge(t, u1, w1);
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
          const int64_t h0 = undirected_edge(t, u0, w0), h1k = undirected_edge(t, u0 + sub_nodes, w0 + sub_nodes);
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
bool repair_colouring(const Topology& t, EdgeColouring& col, int colours) {
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
          const int64_t vp = t.neighbor(v, p, 1), vq = t.neighbor(v, q, 1), vpq = t.neighbor(vp, q, 1);
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

}  // namespace

// ---------------------------------------------------------------------------------------------
void check_cycle_torus(const std::vector<int>& dims, bool wrap, const char* who) {
  if (!wrap) throw std::invalid_argument(std::string(who) + ": needs a torus (wrap = true)");
  if (dims.empty()) throw std::invalid_argument(std::string(who) + ": needs at least one dimension");
  int64_t n = 1;
  std::string shape;
  for (size_t i = 0; i < dims.size(); ++i) shape += (i ? "x" : "") + std::to_string(dims[i]);
  for (int s : dims) {
    if (s < 3) throw std::invalid_argument(std::string(who) + ": every side must be >= 3 (got " + shape + ")");
    n *= s;
    if (n >= kMaxCycleTorusNodes) throw std::invalid_argument(std::string(who) + ": the torus must have fewer than 2^31 nodes");
  }
}

int64_t undirected_edge(const Topology& t, int64_t u, int64_t w) {
  const int p = t.port_to(static_cast<NodeId>(u), static_cast<NodeId>(w));
  if (p < 0) throw std::logic_error("internal error: edge between non-neighbours");
  const int dim = Topology::port_dim(p);
  return Topology::port_dir(p) < 0 ? w * t.ndims() + dim : u * t.ndims() + dim;
}

std::vector<std::vector<int64_t>> section21_decomposition(int n1, int n2) {
  if (n1 % 2 || n2 % 2 || n1 < 4 || n2 < 4)
    throw std::invalid_argument("section21_decomposition: needs both sides even and >= 4");
  Grid2 g(n1, n2);
  if (!decompose_section21(g)) throw std::logic_error("internal error: Section 2.1 rule failed");
  return {grid_cycle(g, 0), grid_cycle(g, 1)};  // grid ids equal torus ids (x fastest)
}

std::vector<std::vector<int64_t>> hamiltonian_decomposition(const std::vector<int>& dims) {
  check_cycle_torus(dims, true, "hamiltonian_decomposition");
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
    throw std::invalid_argument("hamiltonian_decomposition: no decomposition found for " + Topology(dims, true).dims_string());
  }
  // d >= 3: try dimension orders (the last one is the layer dimension of the top product step).
  // First pass: exact product construction in every dimension order; second pass (rare, e.g.
  // 4x4x6): the same with split switches allowed and a repair search afterwards.
  const Topology t(dims, true);
  for (bool repair : {false, true}) {
    std::vector<int> perm(d);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      std::vector<int> pd(d);
      for (int i = 0; i < d; ++i) pd[i] = dims[perm[i]];
      for (const auto& order : orders)
        for (bool swap : {false, true}) {
          if (!product_decomposition(pd, swap, order, repair, out)) continue;
          const Topology tp(pd, true);
          Coord coords{};
          for (auto& cyc : out)
            for (auto& v : cyc) {
              for (int i = 0; i < d; ++i) coords[perm[i]] = tp.coord_of(static_cast<NodeId>(v), i);
              v = t.node(coords);
            }
          return out;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  throw std::invalid_argument("hamiltonian_decomposition: the product construction found no decomposition for " +
                              Topology(dims, true).dims_string());
}

}  // namespace torx::sw
