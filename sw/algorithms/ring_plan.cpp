// SPDX-License-Identifier: Apache-2.0
// Ring complete-exchange plan: overlapped positive/negative gather-scatter trees (seed 000, Sections
// 2 and 5). See ring_plan.hpp for the construction and docs/ring.md for the derivations.
#include "ring_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/int_math.hpp"

namespace torx::sw::ring {
namespace {

constexpr int kPos = 0;   // tree index of the positive gather-scatter tree
constexpr int kNeg = 1;   // tree index of the negative gather-scatter tree
constexpr int kMaxNodes = 1 << 20;

int tree_dir(int tree) { return tree == kPos ? 1 : -1; }

// One message slot of a skeleton: node -> `to`, `hop` links in the tree's direction.
struct Edge {
  int to = -1;
  int hop = 0;
};

// The communication pattern of a plan before any block is routed: per tree, per step, per node the
// (at most one) outgoing message.
struct Skeleton {
  int n = 0;
  int gather_steps = 0;  // steps [0, gather_steps) are gathering phases (they define node levels)
  std::vector<std::string> labels;
  std::vector<std::vector<Edge>> edges[2];
  std::string construction;
  bool positive_only = false;  // build_positive_tree: route only the positive blocks
};

std::vector<std::string> gather_scatter_labels(int levels) {
  std::vector<std::string> labels;
  for (int l = 0; l < levels; ++l) labels.push_back("GP" + std::to_string(l));
  for (int l = levels - 1; l >= 0; --l) labels.push_back("SP" + std::to_string(l));
  return labels;
}

Skeleton make_skeleton(int n, std::vector<std::string> labels, int gather_steps,
                       std::string construction) {
  Skeleton sk;
  sk.n = n;
  sk.gather_steps = gather_steps;
  sk.labels = std::move(labels);
  sk.construction = std::move(construction);
  for (auto& tree : sk.edges) {
    tree.assign(sk.labels.size(), std::vector<Edge>(n));
  }
  return sk;
}

void set_edge(Skeleton& sk, int tree, int step, int from, int to) {
  const int hop = floor_mod(static_cast<int64_t>(to - from) * tree_dir(tree), sk.n);
  if (hop == 0) throw std::logic_error("ring_plan: zero-hop edge");
  sk.edges[tree][step][from] = Edge{to, hop};
}

void clear_edge(Skeleton& sk, int tree, int step, int from) {
  sk.edges[tree][step][from] = Edge{};
}

// Gathering phase l and scattering phase l share their pattern (Definition 1); `step_gp` and
// `step_sp` are their step indices for `levels` = D - 1 levels.
int gp_step(int l) { return l; }
int sp_step(int levels, int l) { return 2 * levels - 1 - l; }

// Cycle over `members` (listed in the tree's travel order): each member sends to the next one, the
// last one back to the first. A single member has no edge.
void add_cycle(Skeleton& sk, int tree, int step, const std::vector<int>& members) {
  if (members.size() < 2) return;
  for (size_t a = 0; a < members.size(); ++a) {
    set_edge(sk, tree, step, members[a], members[(a + 1) % members.size()]);
  }
}

// Every 2^(l-1)-th member of a level-1 member list: the level-l members of a Section 5 tree built on
// the "virtual ring" of the level-1 members (the first entry is the root).
std::vector<int> level_members(const std::vector<int>& level1, int l) {
  std::vector<int> out;
  const size_t stride = size_t{1} << (l - 1);
  for (size_t k = 0; k < level1.size(); k += stride) out.push_back(level1[k]);
  return out;
}

// Even n (including n = 2^d, d >= 3): the positive tree of Definition 1 / Section 5 (wrap to v_0),
// the negative tree as its reflection i -> (1 - i) mod n (= the Section 2.4 shift of the negative
// phases l >= 1), and the modified GP_0 / SP_0 of Section 2.4.
Skeleton even_skeleton(int n, const std::string& construction) {
  const int levels = ceil_lg(n) - 1;
  Skeleton sk = make_skeleton(n, gather_scatter_labels(levels), levels, construction);
  auto reflect = [n](int i) { return floor_mod(1 - static_cast<int64_t>(i), n); };
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 1) {
      set_edge(sk, kPos, gp_step(0), i, floor_mod(i + 1, n));           // GP_0^+: odd senders
      set_edge(sk, kNeg, sp_step(levels, 0), i, floor_mod(i - 1, n));   // SP_0^-: odd senders
    } else {
      set_edge(sk, kPos, sp_step(levels, 0), i, floor_mod(i + 1, n));   // SP_0^+: even senders
      set_edge(sk, kNeg, gp_step(0), i, floor_mod(i - 1, n));           // GP_0^-: even senders
    }
  }
  for (int l = 1; l < levels; ++l) {
    const int stride = 1 << l;
    for (int i = 0; i < n; i += stride) {
      const int j = i + stride < n ? i + stride : 0;  // Section 5: wrap the destination to v_0
      for (int step : {gp_step(l), sp_step(levels, l)}) {
        set_edge(sk, kPos, step, i, j);
        set_edge(sk, kNeg, step, reflect(i), reflect(j));
      }
    }
  }
  return sk;
}

// The original positive phases of Definition 1 for n = 2^d (no Section 2.4 modification).
Skeleton positive_tree_skeleton(int d) {
  const int n = 1 << d;
  const int levels = d - 1;
  Skeleton sk = make_skeleton(n, gather_scatter_labels(levels), levels, "pos-tree");
  sk.positive_only = true;
  for (int l = 0; l < levels; ++l) {
    for (int i = 0; i < n; i += (1 << l)) {
      set_edge(sk, kPos, gp_step(l), i, floor_mod(i + (1 << l), n));
      set_edge(sk, kPos, sp_step(levels, l), i, floor_mod(i + (1 << l), n));
    }
  }
  return sk;
}

// Odd n = 2m+1 >= 9, "odd-gadget". Level 1: positive tree on the evens (cycle 0,2,..,2m; the seam
// hop 2m -> 0 is one link), negative tree on the odds (cycle 1, 2m-1, .., 3; the seam hop 1 -> 2m-1
// is three links). Levels >= 2: Section 5 trees on those virtual rings; the positive root is v_0
// when m is odd and v_2 when m is even, so that v_2m is a level-1-only positive node. v_0 is a leaf
// of the negative tree that has no level-1 node to gather into (the parity defect of odd rings):
// in GP_1 it sends its negative blocks to v_2m (the Case-2 edges 0->2 and 2m-2->2m, which carry
// few blocks, and the seam edge 1->2m-1 are dropped in GP_1 to free the ports and links), and v_2m
// joins the negative tree on every level l >= 2 by splitting the level-l edge 1 -> X_l that crosses
// v_0 into 1 -> 2m -> X_l (in GP_2 the second half is 2m -> 2m-1, which serves v_0's nearest
// destinations). SP_0^- serves v_0 from v_1; v_2m gets its negative blocks through the split edges.
Skeleton odd_gadget_skeleton(int n) {
  const int m = (n - 1) / 2;
  const int levels = ceil_lg(n) - 1;
  const int last = 2 * m;  // v_{n-1}
  Skeleton sk = make_skeleton(n, gather_scatter_labels(levels), levels, "odd-gadget");
  std::vector<int> evens;
  for (int i = 0; i < n; i += 2) evens.push_back(i);
  const size_t root = (m % 2 == 1) ? 0 : 1;
  std::vector<int> pos_level1(evens.begin() + static_cast<std::ptrdiff_t>(root), evens.end());
  pos_level1.insert(pos_level1.end(), evens.begin(),
                    evens.begin() + static_cast<std::ptrdiff_t>(root));
  std::vector<int> neg_level1{1};
  for (int j = last - 1; j >= 3; j -= 2) neg_level1.push_back(j);

  for (int i = 1; i < n; i += 2) set_edge(sk, kPos, gp_step(0), i, i + 1);
  for (int i = 0; i < last; i += 2) set_edge(sk, kPos, sp_step(levels, 0), i, i + 1);
  for (int j = 2; j <= last; j += 2) set_edge(sk, kNeg, gp_step(0), j, j - 1);
  for (int j = 3; j < last; j += 2) set_edge(sk, kNeg, sp_step(levels, 0), j, j - 1);
  set_edge(sk, kNeg, sp_step(levels, 0), 1, 0);

  for (int l = 1; l < levels; ++l) {
    const int gp = gp_step(l);
    const int sp = sp_step(levels, l);
    for (int step : {gp, sp}) {
      add_cycle(sk, kPos, step, level_members(pos_level1, l));
      add_cycle(sk, kNeg, step, level_members(neg_level1, l));
    }
    if (l == 1) {
      clear_edge(sk, kPos, gp, 0);
      clear_edge(sk, kPos, gp, last - 2);
      clear_edge(sk, kNeg, gp, 1);
      set_edge(sk, kNeg, gp, 0, last);
      continue;
    }
    const Edge crossing = sk.edges[kNeg][sp][1];
    if (crossing.to < 0) continue;
    const int x = crossing.to;
    set_edge(sk, kNeg, gp, 1, last);
    set_edge(sk, kNeg, gp, last, l == 2 ? last - 1 : x);
    set_edge(sk, kNeg, sp, 1, last);
    set_edge(sk, kNeg, sp, last, x);
  }
  return sk;
}

// Odd n = 2m+1 >= 9, "odd-s1": the Section 5 positive tree and a negative tree on the odd nodes
// (level-1 cycle 2m-1, 2m-3, .., 1 rooted at v_{2m-1}); v_0 has no negative gathering edge and v_2m
// no negative scattering edge, so their negative traffic goes the other way round.
Skeleton odd_s1_skeleton(int n) {
  const int m = (n - 1) / 2;
  const int levels = ceil_lg(n) - 1;
  const int last = 2 * m;
  Skeleton sk = make_skeleton(n, gather_scatter_labels(levels), levels, "odd-s1");
  std::vector<int> evens;
  for (int i = 0; i < n; i += 2) evens.push_back(i);
  std::vector<int> odds;
  for (int j = last - 1; j >= 1; j -= 2) odds.push_back(j);
  for (int i = 1; i < n; i += 2) set_edge(sk, kPos, gp_step(0), i, i + 1);
  for (int i = 0; i < last; i += 2) set_edge(sk, kPos, sp_step(levels, 0), i, i + 1);
  for (int j = 2; j <= last; j += 2) set_edge(sk, kNeg, gp_step(0), j, j - 1);
  for (int j = 1; j < last; j += 2) set_edge(sk, kNeg, sp_step(levels, 0), j, j - 1);
  for (int l = 1; l < levels; ++l) {
    for (int step : {gp_step(l), sp_step(levels, l)}) {
      add_cycle(sk, kPos, step, level_members(evens, l));
      add_cycle(sk, kNeg, step, level_members(odds, l));
    }
  }
  return sk;
}

// Explicit skeletons for n = 2, 3, 4, 5, 7. Each entry is (node, signed hop) for one step.
Skeleton small_skeleton(int n) {
  using StepList = std::vector<std::pair<int, int>>;
  std::vector<StepList> steps;
  switch (n) {
    case 2: steps = {{{0, 1}, {1, 1}}}; break;
    case 3: steps = {{{0, 1}, {1, 1}, {2, 1}}, {{0, -1}, {1, -1}, {2, -1}}}; break;
    // Antipodal exchange, then neighbour exchange. With shortest paths only no 2-step plan exists
    // (checked exhaustively); here b_0^3, b_1^2, b_2^1, b_3^0 go the long way (3 hops).
    case 4: steps = {{{0, 2}, {2, 2}, {1, -2}, {3, -2}}, {{0, 1}, {2, 1}, {1, -1}, {3, -1}}}; break;
    // Found by exhaustive SAT search (shortest paths, one-port, link-disjoint).
    case 5:
      steps = {{{0, -2}, {1, -1}, {2, 2}, {3, -1}, {4, 2}},
               {{0, 1}, {1, 2}, {2, -2}, {3, 1}, {4, -2}},
               {{0, 2}, {1, -2}, {2, 1}, {3, -2}, {4, 1}},
               {{0, -1}, {1, 1}, {2, -1}, {3, 2}, {4, -1}}};
      break;
    case 7:
      steps = {{{0, -1}, {1, 2}, {2, -1}, {3, -1}, {4, 1}, {5, -1}, {6, 1}},
               {{0, 2}, {1, -1}, {2, 1}, {3, 1}, {4, -3}, {5, 1}},
               {{0, 3}, {1, -2}, {2, -1}, {3, 2}, {4, -2}, {5, 2}, {6, -2}},
               {{0, 1}, {1, 1}, {2, 2}, {3, -3}, {4, -1}, {5, 1}, {6, -1}}};
      break;
    default: throw std::logic_error("ring_plan: no small skeleton");
  }
  const int levels = static_cast<int>(steps.size()) / 2;
  std::vector<std::string> labels =
      n == 2 ? std::vector<std::string>{"GP0"} : gather_scatter_labels(levels);
  Skeleton sk = make_skeleton(n, std::move(labels), std::max(levels, 1), "small");
  for (size_t p = 0; p < steps.size(); ++p) {
    for (auto [node, hop] : steps[p]) {
      set_edge(sk, hop > 0 ? kPos : kNeg, static_cast<int>(p), node, floor_mod(node + hop, n));
    }
  }
  return sk;
}

// One-port and directed-link check of a skeleton (internal consistency; cheap).
void check_skeleton(const Skeleton& sk) {
  const int n = sk.n;
  const size_t steps = sk.labels.size();
  for (size_t p = 0; p < steps; ++p) {
    std::vector<int> sends(n, 0), recvs(n, 0), links(2 * static_cast<size_t>(n), 0);
    for (int tree : {kPos, kNeg}) {
      for (int i = 0; i < n; ++i) {
        const Edge& e = sk.edges[tree][p][i];
        if (e.to < 0) continue;
        ++sends[i];
        ++recvs[e.to];
        for (int k = 0; k < e.hop; ++k) {
          const int a = floor_mod(i + static_cast<int64_t>(tree_dir(tree)) * k, n);
          ++links[static_cast<size_t>(tree) * n + a];
        }
      }
    }
    for (int v : sends) if (v > 1) throw std::logic_error("ring_plan: skeleton sends twice");
    for (int v : recvs) if (v > 1) throw std::logic_error("ring_plan: skeleton receives twice");
    for (int v : links) if (v > 1) throw std::logic_error("ring_plan: skeleton link conflict");
  }
}

// ---- reachability: for every (tree, step p, node i) the set of remaining distances r such that a
// block at i before step p can still be delivered exactly with the tree's edges of steps >= p.
// The sets are unions of very few intervals, stored row by row.
using Interval = std::pair<int, int>;  // inclusive

struct ReachRow {
  std::vector<int> begin;  // n + 1 offsets into data
  std::vector<Interval> data;
};

struct Reach {
  std::vector<ReachRow> rows;  // rows[p], p = 0..steps

  static bool contains(const Interval* first, const Interval* last, int r) {
    for (const Interval* it = first; it != last; ++it) {
      if (r < it->first) return false;
      if (r <= it->second) return true;
    }
    return false;
  }
};

Reach compute_reach(const Skeleton& sk, int tree) {
  const int n = sk.n;
  const int steps = static_cast<int>(sk.labels.size());
  Reach reach;
  reach.rows.resize(steps + 1);
  ReachRow& final_row = reach.rows[steps];
  final_row.begin.resize(n + 1);
  for (int i = 0; i <= n; ++i) final_row.begin[i] = i;
  final_row.data.assign(n, Interval{0, 0});
  std::vector<Interval> merged;
  for (int p = steps - 1; p >= 0; --p) {
    const ReachRow& next = reach.rows[p + 1];
    ReachRow& row = reach.rows[p];
    row.begin.assign(n + 1, 0);
    for (int i = 0; i < n; ++i) {
      row.begin[i] = static_cast<int>(row.data.size());
      const Edge& e = sk.edges[tree][p][i];
      merged.assign(next.data.begin() + next.begin[i], next.data.begin() + next.begin[i + 1]);
      if (e.to >= 0) {
        for (int k = next.begin[e.to]; k < next.begin[e.to + 1]; ++k) {
          const int lo = next.data[k].first + e.hop;
          const int hi = std::min(next.data[k].second + e.hop, n - 1);
          if (lo <= hi) merged.emplace_back(lo, hi);
        }
        std::sort(merged.begin(), merged.end());
      }
      for (const Interval& iv : merged) {
        if (row.data.size() > static_cast<size_t>(row.begin[i]) &&
            iv.first <= row.data.back().second + 1) {
          row.data.back().second = std::max(row.data.back().second, iv.second);
        } else {
          row.data.push_back(iv);
        }
      }
    }
    row.begin[n] = static_cast<int>(row.data.size());
  }
  return reach;
}

// ---- routing ----------------------------------------------------------------------------------
// For every (tree, step, node) with an outgoing edge i -> j of hop h, the remaining distances r are
// cut into segments on which the decision is constant: stay, move, or (never for a feasible block)
// stuck. A block moves when staying would strand it, stays when moving would, and otherwise follows
// the tie rule. kLevelLE (move iff level(j) <= level(i): the block waits at the less busy node,
// Observation 1) is the paper's Case 1 / Case 2 rule for n = 2^d; kLevelLT, kAlwaysMove and
// kNeverMove are also tried for the irregular trees of other n, one rule per (tree, step).
enum class TieRule { kLevelLE, kLevelLT, kAlwaysMove, kNeverMove };

// One tie rule per (tree, step): index tree * steps + step.
using TieTable = std::vector<TieRule>;
TieTable uniform_ties(const Skeleton& sk, TieRule tie) { return TieTable(2 * sk.labels.size(), tie); }

constexpr unsigned char kStay = 0;
constexpr unsigned char kMove = 1;
constexpr unsigned char kStuck = 2;

struct DecisionTable {
  std::vector<int> begin;               // n + 1 offsets into the two arrays below
  std::vector<int> start;               // segment start r; a segment ends where the next starts
  std::vector<unsigned char> decision;  // decision of the segment
};

DecisionTable build_decisions(const Skeleton& sk, int tree, int p, const Reach& reach,
                              const std::vector<int>& level, TieRule tie) {
  const int n = sk.n;
  const ReachRow& next = reach.rows[static_cast<size_t>(p) + 1];
  DecisionTable table;
  table.begin.assign(n + 1, 0);
  std::vector<int> cuts;
  for (int i = 0; i < n; ++i) {
    table.begin[i] = static_cast<int>(table.start.size());
    const Edge& e = sk.edges[tree][p][i];
    if (e.to < 0) continue;
    const Interval* s_first = next.data.data() + next.begin[i];
    const Interval* s_last = next.data.data() + next.begin[i + 1];
    const Interval* t_first = next.data.data() + next.begin[e.to];
    const Interval* t_last = next.data.data() + next.begin[e.to + 1];
    cuts.assign(1, 0);
    for (const Interval* it = s_first; it != s_last; ++it) {
      cuts.push_back(it->first);
      cuts.push_back(it->second + 1);
    }
    for (const Interval* it = t_first; it != t_last; ++it) {
      cuts.push_back(it->first + e.hop);
      cuts.push_back(it->second + e.hop + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    const bool prefer_move = tie == TieRule::kAlwaysMove  ? true
                             : tie == TieRule::kNeverMove ? false
                             : tie == TieRule::kLevelLT   ? level[e.to] < level[i]
                                                          : level[e.to] <= level[i];
    for (int c : cuts) {
      if (c >= n) break;
      const bool can_stay = Reach::contains(s_first, s_last, c);
      const bool can_move = c >= e.hop && Reach::contains(t_first, t_last, c - e.hop);
      const unsigned char d = !can_stay && !can_move ? kStuck
                              : (can_move && (!can_stay || prefer_move)) ? kMove
                                                                         : kStay;
      if (table.start.size() > static_cast<size_t>(table.begin[i]) && table.decision.back() == d) {
        continue;
      }
      table.start.push_back(c);
      table.decision.push_back(d);
    }
  }
  table.begin[n] = static_cast<int>(table.start.size());
  return table;
}

// Blocks of one source on one tree that sit at `node` and whose distance from the source (in the
// tree's direction) is lo..hi. A source's pieces are kept sorted by distance and maximal.
struct Piece {
  int node;
  int lo;
  int hi;
};

struct Routed {
  std::vector<Phase> phases;
  std::vector<int64_t> phase_max;  // count_only routing: largest message per phase
  int64_t long_way_blocks = 0;
};

// Intersect [lo, hi] with an interval row; calls f(a, b) for each part (in increasing order).
template <class F>
void for_each_part(const Interval* first, const Interval* last, int lo, int hi, F f) {
  for (const Interval* it = first; it != last; ++it) {
    const int a = std::max(lo, it->first);
    const int b = std::min(hi, it->second);
    if (a <= b) f(a, b);
  }
}

// Complement of the interval row within [lo, hi].
template <class F>
void for_each_gap(const Interval* first, const Interval* last, int lo, int hi, F f) {
  int cur = lo;
  for (const Interval* it = first; it != last && cur <= hi; ++it) {
    if (it->second < cur) continue;
    if (it->first > cur) f(cur, std::min(hi, it->first - 1));
    cur = std::max(cur, it->second + 1);
  }
  if (cur <= hi) f(cur, hi);
}

// Smallest T dividing n such that rotating the skeleton by T maps it onto itself (n if none). Routes
// are then translation invariant: only sources 0..T-1 need routing (T = n/4 for n = 2^d).
int rotation_period(const Skeleton& sk) {
  const int n = sk.n;
  const int steps = static_cast<int>(sk.labels.size());
  for (int t = 1; t < n; ++t) {
    if (n % t != 0) continue;
    bool same = true;
    for (int tree = 0; tree < 2 && same; ++tree) {
      for (int p = 0; p < steps && same; ++p) {
        const auto& row = sk.edges[tree][p];
        for (int i = 0; i < n && same; ++i) {
          const Edge& a = row[i];
          const Edge& b = row[(i + t) % n];
          same = (a.to < 0) == (b.to < 0) && (a.to < 0 || (a.hop == b.hop && (a.to + t) % n == b.to));
        }
      }
    }
    if (same) return t;
  }
  return n;
}

// Routes every block through the skeleton, source by source (the route of a block depends only on
// its tree, position and remaining distance). Returns false if some block cannot be delivered.
// With `count_only` no runs are stored: only out.phase_max (largest message per phase, in blocks) and
// out.long_way_blocks are filled, to compare candidate skeletons and tie rules cheaply.
bool route(const Skeleton& sk, const TieTable& ties, bool count_only, Routed& out) {
  const int n = sk.n;
  const int steps = static_cast<int>(sk.labels.size());
  const Reach reach[2] = {compute_reach(sk, kPos), compute_reach(sk, kNeg)};
  std::vector<DecisionTable> decisions[2];
  for (int tree : {kPos, kNeg}) {
    std::vector<int> level(n, -1);  // highest gathering step in which the node sends on this tree
    for (int p = 0; p < sk.gather_steps && p < steps; ++p) {
      for (int i = 0; i < n; ++i) {
        if (sk.edges[tree][p][i].to >= 0) level[i] = p;
      }
    }
    for (int p = 0; p < steps; ++p) {
      decisions[tree].push_back(build_decisions(sk, tree, p, reach[tree], level, ties[tree * steps + p]));
    }
  }

  // One (possibly empty) transmission per edge, in node order; empty ones are dropped at the end.
  out.phases.assign(steps, Phase{});
  std::vector<std::vector<int>> tx_of(steps, std::vector<int>(n, -1));
  for (int p = 0; p < steps; ++p) {
    out.phases[p].label = sk.labels[p];
    for (int i = 0; i < n; ++i) {
      for (int tree : {kPos, kNeg}) {
        const Edge& e = sk.edges[tree][p][i];
        if (e.to < 0) continue;
        tx_of[p][i] = static_cast<int>(out.phases[p].tx.size());
        out.phases[p].tx.push_back(Transmission{i, e.to, tree_dir(tree), {}});
      }
    }
  }

  out.long_way_blocks = 0;

  // Initial pieces of source s on `tree`: its own blocks (positive b_s^{s+1..s+floor(n/2)},
  // negative b_s^{s-1..s-floor((n-1)/2)}) that this tree delivers, plus the blocks of the other
  // direction that only this tree can deliver (distance r there is n - r here: the long way).
  auto init_pieces = [&](int s, int tree, std::vector<Piece>& pieces) {
    pieces.clear();
    const int other = 1 - tree;
    const ReachRow& own0 = reach[tree].rows[0];
    const ReachRow& oth0 = reach[other].rows[0];
    const Interval* own_first = own0.data.data() + own0.begin[s];
    const Interval* own_last = own0.data.data() + own0.begin[s + 1];
    if (!(sk.positive_only && tree == kNeg)) {
      const int own_max = tree == kPos ? n / 2 : (n - 1) / 2;
      for_each_part(own_first, own_last, 1, own_max,
                    [&](int a, int b) { pieces.push_back(Piece{s, a, b}); });
    }
    bool ok = true;
    if (!(sk.positive_only && other == kNeg)) {
      const int other_max = other == kPos ? n / 2 : (n - 1) / 2;
      for_each_gap(oth0.data.data() + oth0.begin[s], oth0.data.data() + oth0.begin[s + 1], 1,
                   other_max, [&](int a, int b) {
                     if (sk.positive_only) { ok = false; return; }
                     const int lo = n - b, hi = n - a;
                     int covered = 0;
                     for_each_part(own_first, own_last, lo, hi,
                                   [&](int x, int y) { covered += y - x + 1; });
                     if (covered != hi - lo + 1) { ok = false; return; }
                     pieces.push_back(Piece{s, lo, hi});
                     for (int r = a; r <= b; ++r) out.long_way_blocks += (n - r > r) ? 1 : 0;
                   });
    }
    std::sort(pieces.begin(), pieces.end(),
              [](const Piece& x, const Piece& y) { return x.lo < y.lo; });
    // Own and long-way distances may touch (e.g. k = n/2 and n/2 + 1): keep the pieces maximal.
    size_t w = 0;
    for (size_t k = 1; k < pieces.size(); ++k) {
      if (pieces[k].lo == pieces[w].hi + 1) pieces[w].hi = pieces[k].hi;
      else pieces[++w] = pieces[k];
    }
    if (!pieces.empty()) pieces.resize(w + 1);
    return ok;
  };

  // Step p for the pieces of source s on `tree`: split by the decision tables, emit the moving runs
  // into the step's transmissions, keep the pieces sorted by distance and maximal.
  std::vector<Piece> next_pieces;
  std::vector<std::vector<int64_t>> tx_blocks(count_only ? steps : 0);  // count_only: blocks per tx
  for (size_t p = 0; p < tx_blocks.size(); ++p) tx_blocks[p].assign(out.phases[p].tx.size(), 0);
  auto advance = [&](int s, int tree, int p, std::vector<Piece>& pieces) {
    const int dir = tree_dir(tree);
    const DecisionTable& table = decisions[tree][p];
    next_pieces.clear();
    for (const Piece& pc : pieces) {
      const Edge& e = sk.edges[tree][p][pc.node];
      if (e.to < 0) {
        next_pieces.push_back(pc);
        continue;
      }
      int travelled = dir > 0 ? pc.node - s : s - pc.node;  // distance from s in this direction
      if (travelled < 0) travelled += n;
      const int* starts = table.start.data() + table.begin[pc.node];
      const int segs = table.begin[pc.node + 1] - table.begin[pc.node];
      const unsigned char* dec = table.decision.data() + table.begin[pc.node];
      const int tx = tx_of[p][pc.node];
      int r = pc.lo - travelled;
      const int r_end = pc.hi - travelled;
      int seg = -1;  // the segment holding r (tables have very few segments: scan linearly)
      while (seg + 1 < segs && starts[seg + 1] <= r) ++seg;
      while (r <= r_end) {
        const int seg_end = seg + 1 < segs ? std::min(r_end, starts[seg + 1] - 1) : r_end;
        if (seg < 0 || dec[seg] == kStuck) return false;
        if (dec[seg] == kStay) {
          next_pieces.push_back(Piece{pc.node, r + travelled, seg_end + travelled});
        } else {
          int first = dir > 0 ? s + r + travelled : s - seg_end - travelled;  // in (-n, 2n)
          if (first >= n) first -= n;
          if (first < 0) first += n;
          if (count_only) {
            tx_blocks[p][tx] += seg_end - r + 1;
          } else {
            out.phases[p].tx[tx].blocks.push_back(BlockRun{s, first, seg_end - r + 1});
          }
          const int lo = (r == e.hop ? r + 1 : r) + travelled;  // r == hop: delivered at e.to
          if (lo <= seg_end + travelled) next_pieces.push_back(Piece{e.to, lo, seg_end + travelled});
        }
        r = seg_end + 1;
        ++seg;
      }
    }
    pieces.clear();
    for (const Piece& pc : next_pieces) {
      if (!pieces.empty() && pieces.back().node == pc.node && pieces.back().hi + 1 == pc.lo) {
        pieces.back().hi = pc.hi;
      } else {
        pieces.push_back(pc);
      }
    }
    return true;
  };

  // Sources are routed in batches, step by step inside a batch: the runs written in one step go to
  // that step's transmissions only (a small working set), and every transmission still receives its
  // runs in increasing source order.
  constexpr int kBatch = 64;
  const int period = rotation_period(sk);
  std::vector<std::vector<Piece>> batch_pieces(2 * kBatch);
  for (int s0 = 0; s0 < period; s0 += kBatch) {
    const int s1 = std::min(period, s0 + kBatch);
    for (int s = s0; s < s1; ++s) {
      for (int tree : {kPos, kNeg}) {
        if (!init_pieces(s, tree, batch_pieces[2 * (s - s0) + tree])) return false;
      }
    }
    for (int p = 0; p < steps; ++p) {
      for (int s = s0; s < s1; ++s) {
        for (int tree : {kPos, kNeg}) {
          auto& pieces = batch_pieces[2 * (s - s0) + tree];
          if (!pieces.empty() && !advance(s, tree, p, pieces)) return false;
        }
      }
    }
    for (int s = s0; s < s1; ++s) {
      for (int tree : {kPos, kNeg}) {
        if (!batch_pieces[2 * (s - s0) + tree].empty()) return false;
      }
    }
  }

  if (count_only) {
    // Message of x in the full plan = sum over the translated representatives x - kT.
    const int copies = n / period;
    out.long_way_blocks *= copies;
    out.phase_max.assign(steps, 0);
    for (int p = 0; p < steps; ++p) {
      for (const Transmission& t : out.phases[p].tx) {
        int64_t total = 0;
        for (int k = 0; k < copies; ++k) {
          total += tx_blocks[p][tx_of[p][floor_mod(t.from - static_cast<int64_t>(k) * period, n)]];
        }
        out.phase_max[p] = std::max(out.phase_max[p], total);
      }
    }
    out.phases.clear();
    return true;
  }
  // Runs are grouped by source (sources were routed in order); negative runs of one source were
  // produced with decreasing destinations: reverse each group to increasing order.
  for (Phase& ph : out.phases) {
    for (Transmission& t : ph.tx) {
      if (t.dir > 0) continue;
      for (size_t a = 0; a < t.blocks.size();) {
        size_t b = a;
        while (b < t.blocks.size() && t.blocks[b].src == t.blocks[a].src) ++b;
        std::reverse(t.blocks.begin() + static_cast<std::ptrdiff_t>(a),
                     t.blocks.begin() + static_cast<std::ptrdiff_t>(b));
        a = b;
      }
    }
  }
  // Translation symmetry: the runs of source s' = s + kT sent by node x are the runs of source s
  // sent by node x - kT, shifted by kT. Assemble every transmission in increasing source order.
  if (period < n) {
    const int copies = n / period;
    out.long_way_blocks *= copies;
    for (int p = 0; p < steps; ++p) {
      std::vector<Transmission>& reps = out.phases[p].tx;
      std::vector<Transmission> full;
      full.reserve(reps.size());
      for (const Transmission& t : reps) {
        Transmission f{t.from, t.to, t.dir, {}};
        size_t total = 0;
        for (int k = 0; k < copies; ++k) {
          total += reps[tx_of[p][floor_mod(t.from - static_cast<int64_t>(k) * period, n)]].blocks.size();
        }
        f.blocks.reserve(total);
        for (int k = 0; k < copies; ++k) {
          const int shift = k * period;
          for (const BlockRun& b : reps[tx_of[p][floor_mod(t.from - static_cast<int64_t>(shift), n)]].blocks) {
            int first = b.first_dst + shift;
            if (first >= n) first -= n;
            f.blocks.push_back(BlockRun{b.src + shift, first, b.count});
          }
        }
        full.push_back(std::move(f));
      }
      reps = std::move(full);
    }
  }
  for (Phase& ph : out.phases) {
    ph.tx.erase(std::remove_if(ph.tx.begin(), ph.tx.end(),
                               [](const Transmission& t) { return t.blocks.empty(); }),
                ph.tx.end());
  }
  return true;
}

// ---- Section 7 synchronization ----------------------------------------------------------------
// A phase-(p+1) message T' can contend with a phase-p message T for a directed link (Section 7) unless
// the sender of T' is the sender of T (its own send finished first) or the receiver of T (it finishes
// its phase-p receive before its phase-(p+1) send). Such a boundary needs a barrier; locally, the
// receiver of T signals the sender of T' with a null message. (Two messages meeting only at a receive
// port do not disturb each other: the later worm just waits for the port.)
void add_synchronization(Plan& plan) {
  const int n = plan.n;
  const size_t steps = plan.phases.size();
  plan.barrier_after.assign(steps, false);
  plan.signals.assign(steps, {});
  std::vector<int> link_owner(2 * static_cast<size_t>(n));
  for (size_t p = 0; p + 1 < steps; ++p) {
    const auto& cur = plan.phases[p].tx;
    std::fill(link_owner.begin(), link_owner.end(), -1);
    auto link_id = [n](int node, int dir) {
      return static_cast<size_t>(dir > 0 ? 0 : 1) * n + static_cast<size_t>(node);
    };
    for (size_t k = 0; k < cur.size(); ++k) {
      const Transmission& t = cur[k];
      const int hops = floor_mod(static_cast<int64_t>(t.to - t.from) * t.dir, n);
      for (int h = 0; h < hops; ++h) {
        link_owner[link_id(floor_mod(t.from + static_cast<int64_t>(t.dir) * h, n), t.dir)] =
            static_cast<int>(k);
      }
    }
    std::vector<SignalPair> pairs;
    for (const Transmission& t2 : plan.phases[p + 1].tx) {
      auto consider = [&](int owner) {
        if (owner < 0) return;
        const Transmission& t1 = cur[static_cast<size_t>(owner)];
        if (t2.from == t1.from || t2.from == t1.to) return;
        pairs.push_back(SignalPair{t1.to, t2.from});
      };
      const int hops = floor_mod(static_cast<int64_t>(t2.to - t2.from) * t2.dir, n);
      for (int h = 0; h < hops; ++h) {
        consider(link_owner[link_id(floor_mod(t2.from + static_cast<int64_t>(t2.dir) * h, n), t2.dir)]);
      }
    }
    std::sort(pairs.begin(), pairs.end(), [](const SignalPair& a, const SignalPair& b) {
      return a.from != b.from ? a.from < b.from : a.to < b.to;
    });
    pairs.erase(std::unique(pairs.begin(), pairs.end(),
                            [](const SignalPair& a, const SignalPair& b) {
                              return a.from == b.from && a.to == b.to;
                            }),
                pairs.end());
    plan.barrier_after[p] = !pairs.empty();
    plan.signals[p] = std::move(pairs);
  }
}

Plan finish(const Skeleton& sk, Routed&& routed) {
  Plan plan;
  plan.n = sk.n;
  plan.phases = std::move(routed.phases);
  plan.construction = sk.construction;
  plan.long_way_blocks = routed.long_way_blocks;
  add_synchronization(plan);
  return plan;
}

int64_t max_blocks_of(const Phase& phase) {
  int64_t best = 0;
  for (const Transmission& t : phase.tx) {
    int64_t sum = 0;
    for (const BlockRun& b : t.blocks) sum += b.count;
    best = std::max(best, sum);
  }
  return best;
}

int64_t total_of(const std::vector<Phase>& phases) {
  int64_t sum = 0;
  for (const Phase& ph : phases) sum += max_blocks_of(ph);
  return sum;
}

int64_t pow2(int e) { return int64_t{1} << e; }

// ---- lengths below a power of two by contraction of the 2^D plan ------------------------------
// The real ring is the virtual ring of N = 2^D nodes with a set of "phantom" nodes removed; a kept
// virtual node keeps its place in the cyclic order. A position of the positive tree maps to the
// first kept node at or after it, one of the negative tree to the first kept node at or before it,
// so a block never overshoots: its real position stays between its source and its destination.
struct Contraction {
  int n = 0;
  std::vector<int> real;      // virtual -> real index, -1 for a phantom
  std::vector<int> up, down;  // virtual -> the kept node at or after / at or before it
};

Contraction make_contraction(const std::vector<char>& phantom) {
  const int big = static_cast<int>(phantom.size());
  Contraction c;
  c.real.assign(big, -1);
  for (int v = 0; v < big; ++v)
    if (!phantom[v]) c.real[v] = c.n++;
  c.up.resize(big);
  c.down.resize(big);
  for (int v = 0; v < big; ++v) {
    int u = v, d = v;
    while (phantom[u]) u = (u + 1) % big;
    while (phantom[d]) d = (d - 1 + big) % big;
    c.up[v] = u;
    c.down[v] = d;
  }
  return c;
}

// k phantom pairs {4q+2, 4q+3} spread evenly over q = 0 .. N/4 - 1 from `offset`, and `single`
// (-1: none) as one more phantom. Empty if two of them collide.
std::vector<char> phantom_set(int big, int k, int offset, int single) {
  std::vector<char> ph(big, 0);
  if (single >= 0) ph[single] = 1;
  const int quarters = big / 4;
  for (int j = 0; j < k; ++j) {
    const int q = static_cast<int>((offset + static_cast<int64_t>(j) * quarters / k) % quarters);
    if (ph[4 * q + 2] || ph[4 * q + 3]) return {};
    ph[4 * q + 2] = ph[4 * q + 3] = 1;
  }
  return ph;
}

// Even n: the 2^D plan with k = (2^D - n)/2 phantom pairs {4q+2, 4q+3}, every real block routed along
// the image of its virtual route. Why it is a plan and within Theorem 1 (docs/ring.md): 4q+2 is a
// level-1-only node of the positive tree and a leaf of the negative one, 4q+3 the reverse, so every
// message a phantom sends maps onto a self-loop (its real blocks already sit at the image), every
// message into a phantom maps onto the real edge that replaces the removed one (4q+1 -> 4q+4 in GP_0,
// 4q -> 4q+4 in GP_1 and SP_1, and the mirror images), no real node sends or receives twice, and a
// real link stands for the virtual links it replaces, of which each step's messages used at most one.
// Every real message carries a subset of the blocks of one virtual message: each phase's largest
// message, and so the transmission, is at most the 2^D plan's, T_1D(D).
Plan embedded_plan(const Plan& virt, const std::vector<char>& phantom, const std::string& construction) {
  const Contraction c = make_contraction(phantom);
  const int big = virt.n, n = c.n;
  Plan plan;
  plan.n = n;
  plan.construction = construction;
  for (const Phase& vph : virt.phases) {
    Phase ph;
    ph.label = vph.label;
    for (const Transmission& t : vph.tx) {
      const std::vector<int>& image = t.dir > 0 ? c.up : c.down;
      const int a = image[t.from], b = image[t.to];
      if (a == b) continue;  // the real blocks already sit at the image of the destination
      Transmission rt{c.real[a], c.real[b], t.dir, {}};
      for (const BlockRun& run : t.blocks) {
        if (phantom[run.src]) continue;
        int first = -1, count = 0;
        for (int k = 0; k < run.count; ++k) {
          const int dst = (run.first_dst + k) % big;
          if (phantom[dst]) continue;
          if (first < 0) first = c.real[dst];
          ++count;  // kept destinations of one run are consecutive real nodes
        }
        if (count) rt.blocks.push_back(BlockRun{c.real[run.src], first, count});
      }
      if (!rt.blocks.empty()) ph.tx.push_back(std::move(rt));
    }
    plan.phases.push_back(std::move(ph));
  }
  // Blocks against their real shortest direction: a block travels + iff its virtual distance is at
  // most N/2 (the positive tree's share).
  for (int s = 0; s < big; ++s) {
    if (phantom[s]) continue;
    for (int t = 0; t < big; ++t) {
      if (t == s || phantom[t]) continue;
      const int vd = floor_mod(t - s, big), rd = floor_mod(c.real[t] - c.real[s], n);
      const bool positive = vd <= big / 2;
      if (positive ? 2 * rd > n : 2 * rd < n) ++plan.long_way_blocks;
    }
  }
  return plan;
}

// Odd n: the 2^D skeleton contracted onto the nodes left after removing k pairs and one single
// phantom (the parity defect of odd rings, docs/ring.md, has to sit somewhere). Edges between kept
// nodes stay; the image of an edge touching a phantom is added only where it leaves its real
// sender and receiver free in that step (otherwise it gives way). Routed by the routing rule, like
// the other skeletons, so the choice of the single phantom is tried and infeasible ones dropped.
Skeleton contracted_skeleton(const Skeleton& virt, const std::vector<char>& phantom, const std::string& construction) {
  const Contraction c = make_contraction(phantom);
  const int big = virt.n;
  Skeleton sk = make_skeleton(c.n, virt.labels, virt.gather_steps, construction);
  const int steps = static_cast<int>(virt.labels.size());
  for (int p = 0; p < steps; ++p) {
    std::vector<char> sends(c.n, 0), recvs(c.n, 0);
    for (int pass = 0; pass < 2; ++pass)
      for (int tree : {kPos, kNeg})
        for (int v = 0; v < big; ++v) {
          const Edge& e = virt.edges[tree][p][v];
          if (e.to < 0 || (phantom[v] || phantom[e.to]) != (pass == 1)) continue;
          const std::vector<int>& image = tree == kPos ? c.up : c.down;
          const int a = c.real[image[v]], b = c.real[image[e.to]];
          if (a == b || sends[a] || recvs[b]) continue;
          sends[a] = recvs[b] = 1;
          set_edge(sk, tree, p, a, b);
        }
  }
  return sk;
}

// Largest N for which lengths below N are also built by contraction of the N plan (the 2^D plan
// with its runs is built whole: 2048 nodes take about 60 MB and a tenth of a second).
constexpr int kMaxContraction = 2048;
constexpr int kMaxRefinement = 1024;

}  // namespace

Plan build_plan(int n) {
  if (n < 2 || n > kMaxNodes) {
    throw std::invalid_argument("build_plan: n must satisfy 2 <= n <= 1048576");
  }
  const int d = ceil_lg(n);
  const int big = 1 << d;
  // Candidates: routed skeletons (with their construction names) and, for even n, the embedded
  // 2^D plan. The smallest transmission wins, then the fewest long-way blocks, then the first
  // listed (deterministic). n = 2^d keeps the paper's plan.
  std::vector<Skeleton> skeletons;
  if (n <= 5 || n == 7) {
    skeletons.push_back(small_skeleton(n));
  } else if (n % 2 == 0) {
    skeletons.push_back(even_skeleton(n, is_pow2(n) ? "pow2" : "even"));
  } else {
    skeletons.push_back(odd_gadget_skeleton(n));
    skeletons.push_back(odd_s1_skeleton(n));
    if (big <= kMaxContraction) {
      // The single phantom just before a top-level node (N/4 - 1 or N - 1) and the pairs spread
      // from four offsets: the feasible placements found by the search documented in docs/ring.md.
      const Skeleton virt = even_skeleton(big, "pow2");
      const int k = (big - n) / 2;
      for (int single : {big / 4 - 1, big - 1})
        for (int offset = 0; offset < 4; ++offset) {
          const std::vector<char> ph = phantom_set(big, k, offset, single);
          if (ph.empty()) continue;
          skeletons.push_back(contracted_skeleton(virt, ph, "contracted"));
        }
    }
  }
  if (is_pow2(n)) {
    const Skeleton& sk = skeletons.front();
    check_skeleton(sk);
    Routed routed;
    if (!route(sk, uniform_ties(sk, TieRule::kLevelLE), false, routed))
      throw std::logic_error("build_plan: undeliverable block");
    return finish(sk, std::move(routed));
  }
  struct Choice {
    int skeleton = -1;  // -1: the embedded plan
    TieTable ties;
    int64_t total = 0, long_way = 0;
  };
  auto better = [](const Choice& a, const Choice& b) {
    return a.total != b.total ? a.total < b.total : a.long_way < b.long_way;
  };
  std::vector<Choice> feasible;
  for (size_t k = 0; k < skeletons.size(); ++k) {
    const Skeleton& sk = skeletons[k];
    check_skeleton(sk);
    for (TieRule tie : {TieRule::kLevelLE, TieRule::kLevelLT, TieRule::kAlwaysMove, TieRule::kNeverMove}) {
      Routed counted;
      const TieTable ties = uniform_ties(sk, tie);
      if (!route(sk, ties, true, counted)) continue;
      int64_t total = 0;
      for (int64_t v : counted.phase_max) total += v;
      feasible.push_back(Choice{static_cast<int>(k), ties, total, counted.long_way_blocks});
    }
  }
  std::optional<Plan> embedded;
  if (n % 2 == 0 && big <= kMaxContraction) {
    const Plan virt = build_plan(big);
    const int k = (big - n) / 2;
    for (int offset = 0; offset < 4; ++offset) {
      const std::vector<char> ph = phantom_set(big, k, offset, -1);
      if (ph.empty()) continue;
      Plan p = embedded_plan(virt, ph, "pow2-pairs");
      if (!embedded || transmission_blocks(p) < transmission_blocks(*embedded)) embedded = std::move(p);
    }
    feasible.push_back(Choice{-1, {}, transmission_blocks(*embedded), embedded->long_way_blocks});
  }
  if (feasible.empty()) throw std::logic_error("build_plan: no skeleton delivers every block");
  std::stable_sort(feasible.begin(), feasible.end(), better);
  // Above Theorem 1's count, refine the two best routed candidates one (tree, step) at a time (up
  // to kMaxRefinement nodes: each pass routes the skeleton 6 (D - 1) times).
  if (d >= 3 && n <= kMaxRefinement && feasible.front().total > theorem1_transmission_blocks(d)) {
    std::vector<Choice> refined;
    for (size_t c = 0; c < feasible.size() && refined.size() < 2; ++c) {
      if (feasible[c].skeleton < 0) continue;
      Choice ch = feasible[c];
      const Skeleton& sk = skeletons[ch.skeleton];
      for (size_t q = 0; q < ch.ties.size(); ++q) {
        TieRule keep = ch.ties[q];
        for (TieRule tie : {TieRule::kLevelLE, TieRule::kLevelLT, TieRule::kAlwaysMove, TieRule::kNeverMove}) {
          if (tie == keep) continue;
          ch.ties[q] = tie;
          Routed counted;
          if (!route(sk, ch.ties, true, counted)) continue;
          int64_t total = 0;
          for (int64_t v : counted.phase_max) total += v;
          if (total < ch.total) {
            ch.total = total;
            ch.long_way = counted.long_way_blocks;
            keep = tie;
          }
        }
        ch.ties[q] = keep;
      }
      refined.push_back(std::move(ch));
    }
    for (Choice& ch : refined) feasible.push_back(std::move(ch));
    std::stable_sort(feasible.begin(), feasible.end(), better);
  }
  const Choice& best = feasible.front();
  if (best.skeleton < 0) {
    Plan plan = std::move(*embedded);
    add_synchronization(plan);
    return plan;
  }
  const Skeleton& sk = skeletons[best.skeleton];
  Routed routed;
  if (!route(sk, best.ties, false, routed)) throw std::logic_error("build_plan: routing changed between passes");
  Plan plan = finish(sk, std::move(routed));
  bool uniform = true;
  for (TieRule t : best.ties) uniform = uniform && t == best.ties.front();
  const TieRule t0 = best.ties.front();
  if (!uniform) plan.construction += "/per-step";
  else if (t0 == TieRule::kLevelLT) plan.construction += "/lt";
  else if (t0 == TieRule::kAlwaysMove) plan.construction += "/move";
  else if (t0 == TieRule::kNeverMove) plan.construction += "/stay";
  return plan;
}

Plan build_positive_tree(int d) {
  if (d < 3 || d > 20) throw std::invalid_argument("build_positive_tree: d must satisfy 3 <= d <= 20");
  const Skeleton sk = positive_tree_skeleton(d);
  check_skeleton(sk);
  Routed routed;
  if (!route(sk, uniform_ties(sk, TieRule::kLevelLE), false, routed)) {
    throw std::logic_error("build_positive_tree: undeliverable block");
  }
  return finish(sk, std::move(routed));
}

std::vector<int64_t> lemma_phase_blocks(int d) {
  if (d < 3 || d > 30) throw std::invalid_argument("lemma_phase_blocks: d must satisfy 3 <= d <= 30");
  std::vector<int64_t> gp;
  for (int l = 0; l <= d - 3; ++l) {
    // Lemma 2 / 5: Case 1 = 2^(d+l-1) - 5*2^(2l-1) + 3*2^(l-1) (exact as (..)/2), Case 2 = 7*2^(2l-2)
    // for l >= 1 and 2 blocks for l = 0 (proof of Lemma 2); the phase takes the larger (Cor. 1).
    const int64_t case1 = (pow2(d + l) - 5 * pow2(2 * l) + 3 * pow2(l)) / 2;
    const int64_t case2 = l == 0 ? 2 : 7 * pow2(2 * l - 2);
    gp.push_back(std::max(case1, case2));
  }
  std::vector<int64_t> out = gp;
  out.push_back(pow2(2 * d - 6) + 3 * pow2(d - 3));  // Lemma 3: GP_{d-2}
  out.push_back(1);                                   // Lemma 4: SP_{d-2}
  for (auto it = gp.rbegin(); it != gp.rend(); ++it) out.push_back(*it);  // Lemma 5
  return out;
}

int64_t lemma6_transmission_blocks(int d) {
  if (d < 3 || d > 30) {
    throw std::invalid_argument("lemma6_transmission_blocks: d must satisfy 3 <= d <= 30");
  }
  // (1/3)(31/32)2^(2d-1) + 2^(d-3) - 1/3 for 3 <= d <= 5; (1/3)(65/64)2^(2d-1) - 2^(d-2) - 1/3 else.
  if (d <= 5) return (31 * pow2(2 * d - 6) - 1) / 3 + pow2(d - 3);
  return (65 * pow2(2 * d - 7) - 1) / 3 - pow2(d - 2);
}

int64_t theorem1_transmission_blocks(int d) {
  if (d < 3 || d > 30) {
    throw std::invalid_argument("theorem1_transmission_blocks: d must satisfy 3 <= d <= 30");
  }
  return lemma6_transmission_blocks(d) + (d == 3 ? 3 : 2);
}

int64_t transmission_blocks(const Plan& plan) { return total_of(plan.phases); }

std::vector<int64_t> phase_max_blocks(const Plan& plan) {
  std::vector<int64_t> out;
  out.reserve(plan.phases.size());
  for (const Phase& ph : plan.phases) out.push_back(max_blocks_of(ph));
  return out;
}

}  // namespace torx::sw::ring
