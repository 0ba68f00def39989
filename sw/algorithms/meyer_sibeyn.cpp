// SPDX-License-Identifier: Apache-2.0
// Meyer and Sibeyn's oblivious gossiping (seed 003). See meyer_sibeyn.hpp for the algorithms; the
// comments here explain the constructions and every departure from the paper's text. The
// Hamiltonian decompositions are in hamiltonian.cpp, the table format in core/forwarding_table.cpp.
// register_meyer_sibeyn (at the end) enters ms-hc, ms-hc-steps, ms-hc-hd and ms-one in the registry.
#include "algorithms/meyer_sibeyn.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "algorithms/hamiltonian.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/int_math.hpp"

namespace torx::sw {

namespace {

constexpr int kHcPiecesOneOdd = 6;  // Section 2.2 with re-packing: 3 pieces per cycle share

std::string dims_string(const std::vector<int>& dims) { return Topology(dims, true).dims_string(); }

// The node at coordinates `c` (x first), each taken modulo its side.
int64_t torus_node(const Topology& t, const std::vector<int>& c) {
  Coord k{};
  for (size_t i = 0; i < c.size(); ++i) k[i] = floor_mod(c[i], t.radix(static_cast<int>(i)));
  return t.node(k);
}

// A single-hop message from src to its neighbour dst (route: the one dimension, +1 or -1).
PlainMessage hop_message(const Topology& t, int64_t src, int64_t dst, std::vector<uint64_t> blocks) {
  PlainMessage msg;
  msg.src = src;
  msg.dst = dst;
  const int p = t.port_to(static_cast<NodeId>(src), static_cast<NodeId>(dst));
  msg.route.start_dim = Topology::port_dim(p);
  msg.route.dir.assign(t.ndims(), 0);
  msg.route.dir[Topology::port_dim(p)] = static_cast<int8_t>(Topology::port_dir(p));
  std::sort(blocks.begin(), blocks.end());
  msg.blocks = std::move(blocks);
  return msg;
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
std::vector<std::vector<int64_t>> trails_from_pairing(const Topology& t, const std::vector<std::array<int, 4>>& pairing,
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
        const int back = Topology::opposite_port(p);
        in = static_cast<int>(std::find(ports.begin(), ports.end(), back) - ports.begin());
        v = w;
        out = pairing[v][in];
        if (out < 0) throw std::logic_error("internal error: trail enters a port without partner");
      }
      trails.push_back(std::move(seq));
    }
  return trails;
}

void require_simple(const Topology& t, const std::vector<int64_t>& cyc, const char* what) {
  std::vector<uint8_t> seen(t.nodes(), 0);
  for (int64_t v : cyc) {
    if (seen[v]) throw std::logic_error(std::string("internal error: ") + what + " visits a node twice");
    seen[v] = 1;
  }
  for (size_t k = 0; k < cyc.size(); ++k)
    if (t.port_to(cyc[k], cyc[(k + 1) % cyc.size()]) < 0)
      throw std::logic_error(std::string("internal error: ") + what + " has a non-edge");
}

void require_edge_disjoint(const Topology& t, const std::vector<CycleSpec>& cycles, std::vector<int8_t>& edge_cycle) {
  edge_cycle.assign(t.nodes() * t.ndims(), -1);
  for (size_t c = 0; c < cycles.size(); ++c) {
    const auto& n = cycles[c].nodes;
    for (size_t k = 0; k < n.size(); ++k) {
      const int64_t key = undirected_edge(t, n[k], n[(k + 1) % n.size()]);
      if (edge_cycle[key] >= 0) throw std::logic_error("internal error: cycles share an edge");
      edge_cycle[key] = static_cast<int8_t>(c);
    }
  }
}

void check_torus(const PlainTopology& topo, const char* algo) { check_cycle_torus(topo.dims, topo.wrap, algo); }

// Cycles from a Hamiltonian decomposition: piece c of every node runs on cycle c.
Scheme hamiltonian_scheme(const Topology& t, const std::vector<std::vector<int64_t>>& cyc, std::string algorithm,
                          std::string construction) {
  Scheme s;
  s.algorithm = std::move(algorithm);
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
Scheme section22_scheme(const Topology& t, std::string algorithm) {
  const int o = (t.radix(0) % 2 == 1) ? 0 : 1;
  const int e = 1 - o;
  const int no = t.radix(o), ne = t.radix(e);
  const int col_c = no - 2;
  auto node_at = [&](int row, int col) {
    std::vector<int> c(2);
    c[o] = col;
    c[e] = row;
    return torus_node(t, c);
  };
  // Port indices in the order R, B, L, T (R = +odd, B = +even, L = -odd, T = -even).
  const std::array<int, 4> ports = {Topology::port(o, +1), Topology::port(e, +1), Topology::port(o, -1),
                                     Topology::port(e, -1)};
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
  s.algorithm = std::move(algorithm);
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
void assign_feeds(const Topology& t, Scheme& s) {
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
    for (int p = 0; p < t.ports(); ++p) {
      const int64_t u = t.neighbor(v, p);
      if (edge_cycle[undirected_edge(t, v, u)] < 0) free_nbrs.push_back(u);
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
void place_home_blocks(const Topology& t, Scheme& s) {
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
CycleSpec lap_cycle(const Topology& t, int64_t start, int laps, const char* what, LapMoves lap_moves) {
  CycleSpec cs;
  std::vector<int> moves;
  int64_t v = start;
  for (int lap = 0; lap < laps; ++lap) {
    lap_moves(lap, moves);
    for (int dim : moves) {
      cs.nodes.push_back(v);
      v = t.neighbor(static_cast<NodeId>(v), dim, 1);
    }
  }
  if (v != start) throw std::logic_error(std::string("internal error: ") + what + " does not close");
  require_simple(t, cs.nodes, what);
  set_uniform_windows(cs);
  return cs;
}

// Section 4.1: axis x1 = dimension a1 (size n1, even) and x2 (size n2). Cycle j starts at (j, 0); a
// lap is the zigzag +x1, +x2, +x1 followed by n2-1 moves +x2 (the last over the wraparound), n1/2
// laps.
Scheme ms_one_2d_scheme(const Topology& t, int a1) {
  const int a2 = 1 - a1;
  const int n1 = t.radix(a1), n2 = t.radix(a2);
  Scheme s;
  s.algorithm = "ms-one";
  s.construction = std::string("Section 4.1 partial cycles, x1 = dimension ") + std::to_string(a1);
  s.pieces = 1;
  for (int j = 0; j < 2; ++j) {
    std::vector<int> c(2, 0);
    c[a1] = j;
    s.cycles.push_back(lap_cycle(t, torus_node(t, c), n1 / 2, "Section 4.1 cycle", [&](int, std::vector<int>& moves) {
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
Scheme ms_one_rods_scheme(const Topology& t) {
  const int n1 = t.radix(0), n2 = t.radix(1), n3 = t.radix(2);
  if (n1 % 3) throw std::invalid_argument("ms-one: 3D needs n1 a multiple of 3 (Theorem 4); got " + t.dims_string());
  if (n2 % n1) throw std::invalid_argument("ms-one: 3D needs n2 a multiple of n1 (Theorem 4); got " + t.dims_string());
  Scheme s;
  s.algorithm = "ms-one";
  s.construction = "Section 4.2 rods (three partial cycles)";
  s.pieces = 1;
  const int laps = n1 / 3 * n2;
  for (int j = 0; j < 3; ++j) {
    s.cycles.push_back(lap_cycle(t, torus_node(t, {j, 0, 0}), laps, "rod cycle", [&](int lap, std::vector<int>& moves) {
      const bool second_type = lap % (n1 / 3) == n1 / 3 - 1;
      moves = {0, 2, 0, 2, second_type ? 1 : 0};
      moves.insert(moves.end(), n3 - 2, 2);
    }));
  }
  place_home_blocks(t, s);
  assign_feeds(t, s);
  return s;
}

GossipPlan plan_of(const Topology& t, const Scheme& s);

Scheme build_ms_hc(const PlainTopology& topo, const MsHcOptions& options) {
  const std::string id = ms_hc_id(options.variant);
  check_torus(topo, id.c_str());
  const Topology t(topo.dims, true);
  const int d = t.ndims();
  if (d == 2 && options.variant != MsHcVariant::kHamiltonian) {
    const bool odd0 = t.radix(0) % 2, odd1 = t.radix(1) % 2;
    if (!odd0 && !odd1) {
      return hamiltonian_scheme(t, section21_decomposition(t.radix(0), t.radix(1)), id,
                                "Section 2.1 Hamiltonian cycles (Fig. 1 rule)");
    }
  }
  Scheme hd = [&] {
    try {
      return hamiltonian_scheme(t, hamiltonian_decomposition(topo.dims), id,
                                d == 1 ? "the ring" : "Hamiltonian decomposition (square switching / product construction)");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(id + ": " + e.what());
    }
  }();
  if (d == 2 && options.variant == MsHcVariant::kFewestSteps && t.radix(0) % 2 != t.radix(1) % 2) {
    // Section 2.2 takes 1 + floor((P - n_even/2)/2) steps against the decomposition's P/2: fewer
    // unless n_even = 4, where they tie and the decomposition's smaller messages win.
    Scheme partial = section22_scheme(t, id);
    const GossipPlan a = plan_of(t, partial), b = plan_of(t, hd);
    if (std::make_pair(a.table.steps, a.transmission_pieces) < std::make_pair(b.table.steps, b.transmission_pieces))
      return partial;
  }
  return hd;
}

// 2D: an even side plays x1 (Theorem 3 needs n1 even). With both sides even the two orientations
// differ (floor(n1 n2 / 4 + n1 / 2) steps: 6x12 takes 21 steps with n1 = 6 and 24 with n1 = 12); both
// are planned and the one with fewer steps, then the smaller transmission, then x1 = x is kept.
Scheme ms_one_2d_best(const Topology& t) {
  std::vector<std::pair<Scheme, GossipPlan>> options;
  for (int a1 : {0, 1}) {
    if (t.radix(a1) % 2) continue;
    Scheme s = ms_one_2d_scheme(t, a1);
    GossipPlan p = plan_of(t, s);
    options.emplace_back(std::move(s), std::move(p));
  }
  if (options.empty())
    throw std::invalid_argument("ms-one: 2D needs an even side (Theorem 3 assumes n1 even); got " + t.dims_string());
  auto key = [](const GossipPlan& p) { return std::make_pair(p.table.steps, p.transmission_pieces); };
  size_t best = 0;
  for (size_t k = 1; k < options.size(); ++k)
    if (key(options[k].second) < key(options[best].second)) best = k;
  Scheme s = std::move(options[best].first);
  s.construction += fmt::format(" ({} steps, transmission {} pieces", options[best].second.table.steps,
                                options[best].second.transmission_pieces);
  if (options.size() == 2) {
    const GossipPlan& other = options[1 - best].second;
    s.construction += fmt::format("; x1 = dimension {} would take {} steps, {} pieces", 1 - static_cast<int>(best),
                                  other.table.steps, other.transmission_pieces);
  }
  s.construction += ")";
  return s;
}

Scheme build_ms_one(const PlainTopology& topo) {
  check_torus(topo, "ms-one");
  const Topology t(topo.dims, true);
  if (t.ndims() == 2) return ms_one_2d_best(t);
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

void emit_scheme(const Topology& t, const Scheme& s, const PlainStepSink& emit) {
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
GossipPlan plan_of(const Topology& t, const Scheme& s) {
  const int d = t.ndims();
  const int local = Topology::local_port(d);
  GossipPlan plan;
  ForwardingTable& tab = plan.table;
  tab.algorithm = s.algorithm;
  tab.construction = s.construction;
  tab.dims = t.radices();
  tab.pieces = s.pieces;
  tab.inject_step = s.inject_step;
  tab.out_mask.assign(t.nodes(), std::vector<uint32_t>(local + 1, 0));
  tab.deliver.assign(t.nodes(), std::vector<uint8_t>(local + 1, 0));
  tab.rules.assign(t.nodes(), {});
  tab.inject.assign(t.nodes(), {});
  for (const PlainMessage& m : s.prologue)
    tab.prologue.push_back(
        PrologueMessage{m.src, m.dst, t.port_to(static_cast<NodeId>(m.src), static_cast<NodeId>(m.dst)), m.blocks});
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
  tab.steps = (s.prologue.empty() ? 0 : 1) + slots;
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

GossipPlan plan_ms_hc(const PlainTopology& topo) { return plan_ms_hc(topo, MsHcOptions{}); }

GossipPlan plan_ms_hc(const PlainTopology& topo, const MsHcOptions& options) {
  const Scheme s = build_ms_hc(topo, options);
  return plan_of(Topology(topo.dims, true), s);
}

GossipPlan plan_ms_one(const PlainTopology& topo) {
  const Scheme s = build_ms_one(topo);
  return plan_of(Topology(topo.dims, true), s);
}

void generate_ms_hc(const PlainTopology& topo, const PlainStepSink& emit) { generate_ms_hc(topo, MsHcOptions{}, emit); }

void generate_ms_hc(const PlainTopology& topo, const MsHcOptions& options, const PlainStepSink& emit) {
  const Scheme s = build_ms_hc(topo, options);
  emit_scheme(Topology(topo.dims, true), s, emit);
}

void generate_ms_one(const PlainTopology& topo, const PlainStepSink& emit) {
  const Scheme s = build_ms_one(topo);
  emit_scheme(Topology(topo.dims, true), s, emit);
}

void schedule_from_tables(const ForwardingTable& tab, const PlainStepSink& emit, int64_t max_transfers) {
  const Topology t(tab.dims, true);
  if (static_cast<int64_t>(tab.rules.size()) != t.nodes() || static_cast<int64_t>(tab.inject.size()) != t.nodes())
    throw std::invalid_argument("schedule_from_tables: the tables do not match the topology");
  StepEmitter out(emit);
  int64_t transfers = 0;
  auto count = [&](size_t blocks) {
    transfers += static_cast<int64_t>(blocks);
    if (max_transfers >= 0 && transfers > max_transfers)
      throw InputError("forwarding tables: the schedule they encode sends more than " + std::to_string(max_transfers) +
                       " block copies, more than a gossip delivers: some piece arrives twice");
  };
  const int64_t s0 = tab.inject_step;
  if (!tab.prologue.empty()) {
    if (s0 != 2) throw std::invalid_argument("schedule_from_tables: a prologue needs inject_step 2");
    PlainStep repack{"repack", {}};
    for (const PrologueMessage& m : tab.prologue) {
      count(m.blocks.size());
      repack.messages.push_back(hop_message(t, m.src, m.dst, m.blocks));
    }
    out.push(std::move(repack));
  } else if (s0 != 1) {
    throw std::invalid_argument("schedule_from_tables: inject_step must be 1 without a prologue");
  }
  int64_t last = s0;
  for (const auto& rs : tab.rules)
    for (const auto& r : rs) last = std::max(last, r.last);
  const int np = t.ports();
  // arrived[v * np + in_port]: blocks that came in through in_port in the previous step.
  std::vector<std::vector<uint64_t>> arrived(t.nodes() * np), next(t.nodes() * np);
  std::vector<std::vector<uint64_t>> payload(np);
  for (int64_t step_no = s0; step_no <= last; ++step_no) {
    PlainStep step;
    step.label = tab.algorithm;
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
        count(payload[p].size());
        const int64_t w = t.neighbor(static_cast<NodeId>(v), p);
        step.messages.push_back(hop_message(t, v, w, payload[p]));
        auto& dst = next[w * np + Topology::opposite_port(p)];
        dst.insert(dst.end(), payload[p].begin(), payload[p].end());
      }
    }
    std::swap(arrived, next);
    out.push(std::move(step));
  }
}

std::string ms_hc_id(MsHcVariant variant) {
  switch (variant) {
    case MsHcVariant::kDefault: return "ms-hc";
    case MsHcVariant::kFewestSteps: return "ms-hc-steps";
    case MsHcVariant::kHamiltonian: return "ms-hc-hd";
  }
  return "ms-hc";
}

int64_t ms_hc_formula_steps(const PlainTopology& topo) {
  check_torus(topo, "ms-hc");
  int64_t p = 1;
  for (int s : topo.dims) p *= s;
  if (topo.dims.size() == 2) {
    const int n1 = topo.dims[0], n2 = topo.dims[1];
    const bool odd1 = n1 % 2, odd2 = n2 % 2;
    if (!odd1 && !odd2) return p / 2;                           // Theorem 1
    if (odd1 != odd2) return p / 2 + 1 + (odd1 ? n1 : n2);       // Section 2.2
  }
  return p / 2;  // ceil((P-1)/2)
}

Fraction ms_hc_formula_transmission(const PlainTopology& topo) {
  const int64_t steps = ms_hc_formula_steps(topo);
  const int d = static_cast<int>(topo.dims.size());
  if (d == 2 && topo.dims[0] % 2 != topo.dims[1] % 2) {
    const int64_t n_odd = topo.dims[0] % 2 ? topo.dims[0] : topo.dims[1];
    return Fraction{steps * (n_odd + 1), 2 * n_odd};  // packets of (1 + 1/n_odd) s/2 (Section 2.2)
  }
  return Fraction{steps, d};  // packets of s/d
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
    return ceil_div(a * (dm[2] + 3), 6);
  }
  throw std::invalid_argument("ms-one: implemented for 2D and 3D tori (Section 4); got " + dims_string(dm));
}

Fraction ms_one_formula_transmission(const PlainTopology& topo) {
  return Fraction{ms_one_formula_steps(topo), 1};  // one whole packet (s) per message
}


namespace {

// One oblivious gossip of seed 003 in the registry: three ms-hc variants (MsHcVariant) and ms-one.
struct GossipEntry {
  const char* id;
  bool hc;
  MsHcVariant variant;
  const char* preconditions;
  const char* paper;
  const char* summary;
};

const char* const kHcPreconditions =
    "a torus, every side >= 3 (2D any parity; 3D and more where an edge-disjoint Hamiltonian decomposition is found)";
const GossipEntry kGossips[] = {
    {"ms-hc", true, MsHcVariant::kDefault, kHcPreconditions,
     "seed 003 (Meyer, Sibeyn) Section 2: split packets on edge-disjoint Hamiltonian cycles (Section 2.1's rule, "
     "a Hamiltonian decomposition elsewhere)",
     "oblivious full-port gossip: d shares both ways around d edge-disjoint Hamiltonian cycles, floor(P/2) steps"},
    {"ms-hc-steps", true, MsHcVariant::kFewestSteps, kHcPreconditions,
     "seed 003 (Meyer, Sibeyn) Section 2.2: partial cycles with a re-packing step on 2D tori with one odd side "
     "(elsewhere as ms-hc)",
     "ms-hc with the fewest steps: 1 + floor((P - n_even/2)/2) with one odd side, for larger messages"},
    {"ms-hc-hd", true, MsHcVariant::kHamiltonian, kHcPreconditions,
     "seed 003 (Meyer, Sibeyn) Section 2 on a Hamiltonian decomposition found by square switching (2D) or a "
     "product construction (3D and more), for every shape",
     "ms-hc on the full Hamiltonian decomposition, also where Section 2.1's rule applies"},
    {"ms-one", false, MsHcVariant::kDefault,
     "a 2D torus with an even side >= 4, or a 3D torus n1 x n2 x n3 with n1 % 3 == 0, n2 % n1 == 0, n3 >= 3",
     "seed 003 (Meyer, Sibeyn) Section 4: one packet per node on partial cycles (2D, 3D rods)",
     "oblivious full-port gossip with one packet per node on d partial cycles"},
};

// The paper's steps and its transmission (steps times its packet size), the latter in this
// schedule's pieces, rounded up.
Bound gossip_formula(bool hc, const Topology& topo, int64_t pieces) {
  Bound b;
  const PlainTopology pt = plain_topology(topo);
  b.steps = hc ? ms_hc_formula_steps(pt) : ms_one_formula_steps(pt);
  const Fraction tx = hc ? ms_hc_formula_transmission(pt) : ms_one_formula_transmission(pt);
  b.transmission_blocks = ceil_div(tx.num * pieces, tx.den);
  b.source = hc ? "seed 003 Theorem 1 (n1 n2 / 2 steps of s/2), Section 2.2 (n1 n2 / 2 + 1 + n_odd steps of "
                  "(1 + 1/n_odd) s/2), (P-1)/2 steps of s/d for a Hamiltonian decomposition; transmission in "
                  "pieces, rounded up"
                : "seed 003 Theorem 3 (n1 n2 / 4 + n1 / 2 + n2 / 2 + 2), Theorem 4 without its O(n1 n3) term; "
                  "packets of s";
  return b;
}

// Every piece must travel the diameter; and a node receives (P-1) pieces-worth of every other
// node's data through its 2d links, at most the step's largest message per link.
Bound gossip_lower_bound(const Topology& topo, int64_t pieces) {
  Bound b;
  int64_t diameter = 0;
  for (int r : topo.radices()) diameter += r / 2;
  b.steps = diameter;
  const int64_t need = (int64_t{topo.nodes()} - 1) * pieces;
  b.transmission_blocks = ceil_div(need, 2 * topo.ndims());
  b.source = "diameter (steps); (P-1) x pieces received over 2d links (transmission, seed 003 Section 1)";
  return b;
}

Algorithm gossip_algorithm(const GossipEntry& g) {
  Algorithm a = make_algorithm(g.id, Collective::kAllgather, PortModel::kAll, Switching::kStoreAndForward,
                               g.preconditions, g.paper, g.summary);
  const std::string id = g.id;
  const bool hc = g.hc;
  MsHcOptions hc_options;
  hc_options.variant = g.variant;
  auto plan = [id, hc, hc_options](const Topology& topo) {
    return preconditions(
        id, [&] { return hc ? plan_ms_hc(plain_topology(topo), hc_options) : plan_ms_one(plain_topology(topo)); });
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
    return gossip_formula(hc, topo, plan(topo).table.pieces);
  };
  a.lower_bound = [plan](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    return gossip_lower_bound(topo, plan(topo).table.pieces);
  };
  a.facts = [plan](const Topology& topo, const AlgorithmOptions&) {
    const GossipPlan p = plan(topo);
    return std::vector<std::pair<std::string, int64_t>>{{"pieces", p.table.pieces},
                                                        {"largest_message_pieces", p.max_message_pieces},
                                                        {"injection_step", p.table.inject_step}};
  };
  return a;
}

}  // namespace

// The oblivious gossips of seed 003 in the registry (registry.cpp): ms-hc, ms-hc-steps, ms-hc-hd,
// ms-one, in that order.
void register_meyer_sibeyn(std::vector<Algorithm>& out) {
  for (const GossipEntry& g : kGossips) out.push_back(gossip_algorithm(g));
}

}  // namespace torx::sw
