// SPDX-License-Identifier: Apache-2.0
// Tsay-Wang all-port broadcast on n^d wormhole-routed tori (seed 001). The algorithm and its
// section references are summarised in tsay_wang.hpp; this file comments the details and the places
// where the implementation departs from the paper's text, with the reason for each. register_tsay_wang
// (at the end) enters it in the registry.
#include "algorithms/tsay_wang.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/int_math.hpp"

namespace torx::sw {
namespace {

// Coordinates of one node, dimension 0 (x) first. In the generator they are offsets from the root
// in the "virtual" torus of side N (N = n for odd n, n - 1 for even n).
using Coords = std::vector<int64_t>;

// Exact arbitrary-precision unsigned integer, just enough for Lemma 1's comparison
// (2d+1)^T >= n^d, whose operands overflow 64 bits long before the schedules become too large.
class BigUnsigned {
 public:
  explicit BigUnsigned(uint32_t value) : limbs_{value} {}

  void multiply(uint32_t factor) {
    uint64_t carry = 0;
    for (uint32_t& limb : limbs_) {
      const uint64_t product = static_cast<uint64_t>(limb) * factor + carry;
      limb = static_cast<uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<uint32_t>(carry));
    trim();
  }

  // Three-way comparison: -1, 0, +1.
  int compare(const BigUnsigned& other) const {
    if (limbs_.size() != other.limbs_.size()) return limbs_.size() < other.limbs_.size() ? -1 : 1;
    for (size_t i = limbs_.size(); i-- > 0;) {
      if (limbs_[i] != other.limbs_[i]) return limbs_[i] < other.limbs_[i] ? -1 : 1;
    }
    return 0;
  }

 private:
  void trim() {
    while (limbs_.size() > 1 && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<uint32_t> limbs_;  // little-endian base 2^32
};

// The ranked positions p_c of one column (a cycle of `length` nodes whose node 0 is the column's
// source at the start of the phase), after k = 0 .. steps growth steps.
//
// Lemma 2: step k keeps the ranks of step k-1 as ranks (2d+1)*c and cuts the gap g between the
// sources of ranks c and c+1 into 2d+1 parts whose sizes differ by at most 1, by placing rank
// (2d+1)*c + t at p_c + floor(t*g/(2d+1)). The parts have sizes floor(g/(2d+1)) and ceil(g/(2d+1)),
// so gaps in {l-1, l} become gaps in {floor((l-1)/(2d+1)), ceil(l/(2d+1))}: the maximum gap after
// k steps is ceil(length/(2d+1)^k) and every node is a rank after ceil(log_{2d+1} length) steps.
// When g < 2d+1 (only possible in the last step: the maximum gap is then <= 2d+1 and every gap
// becomes 1) some parts are empty; the rank whose part is empty would coincide with its
// predecessor and is absent (kAbsent): its sender simply sends nothing on that link.
class RankedPositions {
 public:
  static constexpr int64_t kAbsent = -1;

  RankedPositions(int64_t length, int64_t fan, int64_t steps) : length_(length) {
    levels_.push_back({0});
    for (int64_t k = 1; k <= steps; ++k) {
      const std::vector<int64_t>& prev = levels_.back();
      std::vector<int64_t> next(prev.size() * static_cast<size_t>(fan), kAbsent);
      for (size_t c = 0; c < prev.size(); ++c) {
        // Every rank of a non-final level is present (see above), so gaps are well defined.
        if (prev[c] == kAbsent) throw std::logic_error("tsay_wang: absent rank before the last step");
        const int64_t start = prev[c];
        const int64_t end = (c + 1 < prev.size()) ? prev[c + 1] : length;
        const int64_t gap = end - start;
        for (int64_t t = 0; t < fan; ++t) {
          const int64_t off = t * gap / fan;
          const bool coincides = t > 0 && off == (t - 1) * gap / fan;
          next[c * static_cast<size_t>(fan) + static_cast<size_t>(t)] = coincides ? kAbsent : start + off;
        }
      }
      levels_.push_back(std::move(next));
    }
    // The last level must be the whole cycle, each node once, in rank order.
    int64_t expect = 0;
    for (int64_t p : levels_.back()) {
      if (p == kAbsent) continue;
      if (p != expect) throw std::logic_error("tsay_wang: ranked positions do not tile the column");
      ++expect;
    }
    if (expect != length_) throw std::logic_error("tsay_wang: ranked positions do not cover the column");
  }

  int64_t ranks(int64_t k) const { return static_cast<int64_t>(levels_[static_cast<size_t>(k)].size()); }
  // Position of `rank` (taken cyclically) after step k, or kAbsent.
  int64_t position(int64_t k, int64_t rank) const {
    const std::vector<int64_t>& level = levels_[static_cast<size_t>(k)];
    return level[static_cast<size_t>(floor_mod(rank, static_cast<int64_t>(level.size())))];
  }

 private:
  int64_t length_;
  std::vector<std::vector<int64_t>> levels_;
};

// Turns virtual coordinates (offsets from the root in the N^d subtorus, or any offset in [0, n)
// in the extra phase) into node ids of the real torus and collects the messages of one step.
class StepBuilder {
 public:
  StepBuilder(int d, int64_t n, const Coords& root) : d_(d), n_(n), root_(root), stride_(static_cast<size_t>(d), 1) {
    for (size_t q = 1; q < stride_.size(); ++q) stride_[q] = stride_[q - 1] * n;
  }

  void begin(std::string label) {
    step_ = PlainStep{};
    step_.label = std::move(label);
  }

  // One message from `src` to `dst` (offsets from the root). The route starts in `start_dim` and
  // uses direction `dir` in every dimension. Translating by the root keeps routes and link
  // disjointness; for even n an offset <= n-2 wraps through offset n-1, which is exactly the
  // two-link simulation of the subtorus wraparound that Section 7 assumes.
  void add(const Coords& src, const Coords& dst, int start_dim, int dir) {
    PlainMessage message;
    message.src = node_id(src);
    message.dst = node_id(dst);
    message.route.start_dim = start_dim;
    message.route.dir.assign(static_cast<size_t>(d_), static_cast<int8_t>(dir));
    message.blocks.push_back(0);  // broadcast: the block id is the piece index
    step_.messages.push_back(std::move(message));
  }

  PlainStep& step() { return step_; }

 private:
  int64_t node_id(const Coords& offset) const {
    int64_t id = 0;
    for (int q = 0; q < d_; ++q) id += floor_mod(root_[static_cast<size_t>(q)] + offset[static_cast<size_t>(q)], n_) * stride_[static_cast<size_t>(q)];
    return id;
  }

  int d_;
  int64_t n_;
  Coords root_;
  std::vector<int64_t> stride_;
  PlainStep step_;
};

// Encodes a tuple of values in [0, base) as one integer (fits: base^len <= n^d was checked).
int64_t encode(const Coords& values, int64_t base) {
  int64_t key = 0;
  for (size_t i = values.size(); i-- > 0;) key = key * base + values[i];
  return key;
}

class TsayWangGenerator {
 public:
  TsayWangGenerator(int d, int64_t n, const Coords& root, const PlainStepSink& emit, const TsayWangOptions& options)
      : d_(d),
        n_(n),
        improved_(options.improved_low_dimensions && d <= 3),
        big_n_(n % 2 == 1 || improved_ ? n : n - 1),
        fan_(2 * static_cast<int64_t>(d) + 1),
        steps_(ceil_log(fan_, big_n_)),
        positions_(big_n_, fan_, steps_),
        builder_(d, n, root),
        emit_(emit),
        options_(options) {}

  void run() {
    if (improved_ && d_ == 3) {
      final_phase(plane_phase(line_phase()));
      return;
    }
    // D_{1,0}: the root alone. A node of D_{h,0} is stored reduced, as (z0, z1, ..., z_{h-1}): its
    // first d-h+1 coordinates all equal z0 and coordinate d-h+j (0-based) is z_j (Section 5.1).
    std::vector<Coords> sources{Coords{0}};
    for (int h = 1; h <= d_ - 1; ++h) sources = diagonal_phase(h, sources);
    final_phase(sources);
    if (n_ % 2 == 0 && !improved_) extra_phase();
  }

  int64_t emitted() const { return emitted_; }

 private:
  // Full coordinates of the node of rank position `p` in the column of the D_{h,0} node `base`:
  // the first D-1 coordinates move by +p and coordinate D-1 by sigma*p, where the column is the
  // main diagonal (sigma = +1) in phase 1 and the diagonal (1, ..., 1, -1, 0, ..., 0) of Section 5.1
  // (sigma = -1) in phases 2 .. d-1; the last h-1 coordinates are the subtorus's.
  Coords column_node(int h, const Coords& base, int64_t p) const {
    const int big_d = d_ - h + 1;
    const int64_t sigma = (h == 1) ? 1 : -1;
    Coords c(static_cast<size_t>(d_));
    for (int q = 0; q < big_d - 1; ++q) c[static_cast<size_t>(q)] = floor_mod(base[0] + p, big_n_);
    c[static_cast<size_t>(big_d - 1)] = floor_mod(base[0] + sigma * p, big_n_);
    for (int j = 1; j <= h - 1; ++j) c[static_cast<size_t>(big_d - 1 + j)] = base[static_cast<size_t>(j)];
    return c;
  }

  // Phases 1 .. d-1 (Sections 4 and 5): r steps that inform the column of every source; returns
  // D_{h+1,0}, the columns' nodes in reduced form.
  std::vector<Coords> diagonal_phase(int h, const std::vector<Coords>& sources) {
    const int big_d = d_ - h + 1;

    // Lemma 7: a node of D_{h,0} is determined by z0 and all z_i but one. lookup[j] maps the tuple
    // with z_j zeroed to z_j. Uniqueness (Lemma 6, n odd) is checked rather than assumed.
    std::vector<std::unordered_map<int64_t, int64_t>> lookup(static_cast<size_t>(h));
    for (int j = 1; j <= h - 1; ++j) {
      auto& map = lookup[static_cast<size_t>(j)];
      map.reserve(sources.size());
      for (const Coords& s : sources) {
        Coords key = s;
        key[static_cast<size_t>(j)] = 0;
        if (!map.emplace(encode(key, big_n_), s[static_cast<size_t>(j)]).second) {
          throw std::logic_error("tsay_wang: Lemma 7 completion is not unique");
        }
      }
    }

    for (int64_t k = 1; k <= steps_; ++k) {
      builder_.begin("phase" + std::to_string(h) + ".step" + std::to_string(k));
      for (const Coords& base : sources) {
        for (int64_t c = 0; c < positions_.ranks(k); c += fan_) {
          const int64_t pc = positions_.position(k, c);  // sources are never absent
          const Coords s = column_node(h, base, pc);
          // Section 5.2, N1/N2: ranks c +- j of the own column; the route starts in dimension j
          // (1-based), positive for c + j and negative for c - j. All D diagonal coordinates differ,
          // so the route's first link is in dimension j and the 2D first links are distinct.
          for (int j = 1; j <= big_d; ++j) {
            for (int dir : {+1, -1}) {
              const int64_t p = positions_.position(k, c + dir * j);
              if (p == RankedPositions::kAbsent) continue;
              builder_.add(s, column_node(h, base, p), j - 1, dir);
            }
          }
          // Section 5.2, N3/N4: ranks c +- (D + j) in the column of the D_{h,0} node s2 that
          // differs from `base` in z0 and z_j only. z0(s2) is chosen so that the destination keeps
          // the first D-1 coordinates of s (the paper's y0 = x0 - (D+j) l_k, written with the
          // Lemma 2 positions instead of the uniform gap l_k): the route is then one segment in
          // dimension D + j (1-based; from z_j to y(j)) and one in dimension D.
          for (int j = 1; j <= h - 1; ++j) {
            for (int dir : {+1, -1}) {
              const int64_t rank = c + dir * (big_d + j);
              const int64_t p = positions_.position(k, rank);
              if (p == RankedPositions::kAbsent) continue;
              Coords other = base;
              other[0] = floor_mod(base[0] + pc - p, big_n_);
              other[static_cast<size_t>(j)] = 0;
              const auto it = lookup[static_cast<size_t>(j)].find(encode(other, big_n_));
              if (it == lookup[static_cast<size_t>(j)].end()) {
                throw std::logic_error("tsay_wang: Lemma 7 completion does not exist");
              }
              other[static_cast<size_t>(j)] = it->second;
              builder_.add(s, column_node(h, other, p), big_d - 1 + j, dir);
            }
          }
        }
      }
      flush();
    }

    // D_{h+1,0} (Lemma 3): every node of every column.
    std::vector<Coords> next;
    next.reserve(sources.size() * static_cast<size_t>(big_n_));
    const int64_t sigma = (h == 1) ? 1 : -1;
    for (const Coords& base : sources) {
      for (int64_t m = 0; m < big_n_; ++m) {
        Coords z;
        z.reserve(static_cast<size_t>(h) + 1);
        z.push_back(floor_mod(base[0] + m, big_n_));
        z.push_back(floor_mod(base[0] + sigma * m, big_n_));
        for (int j = 1; j <= h - 1; ++j) z.push_back(base[static_cast<size_t>(j)]);
        next.push_back(std::move(z));
      }
    }
    return next;
  }

  // The improvement for d = 3 (see tsay_wang.hpp), phase 1: the line (2p, p, p) of the ranked
  // positions p, grown from the root in r steps. The source of rank c at p_c sends ranks c +- j
  // (j = 1, 2, 3) on a route that starts in dimension j, positive for c + j and negative for
  // c - j, exactly as on the paper's main diagonal; the line lies in S = {x = y + z}, one node in
  // every z-plane. Returns the line's nodes.
  std::vector<Coords> line_phase() {
    auto node = [&](int64_t p) { return Coords{floor_mod(2 * p, big_n_), p, p}; };
    for (int64_t k = 1; k <= steps_; ++k) {
      builder_.begin("phase1.step" + std::to_string(k));
      for (int64_t c = 0; c < positions_.ranks(k); c += fan_) {
        const Coords s = node(positions_.position(k, c));
        for (int j = 1; j <= 3; ++j)
          for (int dir : {+1, -1}) {
            const int64_t p = positions_.position(k, c + dir * j);
            if (p != RankedPositions::kAbsent) builder_.add(s, node(p), j - 1, dir);
          }
      }
      flush();
    }
    std::vector<Coords> line;
    for (int64_t p = 0; p < big_n_; ++p) line.push_back(node(p));
    return line;
  }

  // The improvement for d = 3, phase 2: in every z-plane t the column (2t + m, t + m, t) of the
  // line's node (2t, t, t), grown in r steps; the columns together are S. The source of rank c at
  // (2t + p_c, t + p_c, t) sends ranks c +- 1 of its own column on routes starting in x and ranks
  // c +- 2 on routes starting in y (both coordinates move by the same amount, one direction), and
  // ranks c -+ 3 of the column in plane t' = t + p_c - p (p the rank's position) on a route that
  // starts in z: it keeps y, so it is one z segment and one x segment of p_c - p hops each, both
  // negative for rank c + 3 and positive for c - 3 (Section 5.2's N3/N4 with the paper's second
  // column replaced by the plane). Returns S, one node per x-line.
  std::vector<Coords> plane_phase(const std::vector<Coords>& line) {
    auto node = [&](int64_t t, int64_t p) { return Coords{floor_mod(2 * t + p, big_n_), floor_mod(t + p, big_n_), t}; };
    for (int64_t k = 1; k <= steps_; ++k) {
      builder_.begin("phase2.step" + std::to_string(k));
      for (int64_t t = 0; t < big_n_; ++t)
        for (int64_t c = 0; c < positions_.ranks(k); c += fan_) {
          const int64_t pc = positions_.position(k, c);
          const Coords s = node(t, pc);
          for (int j = 1; j <= 2; ++j)
            for (int dir : {+1, -1}) {
              const int64_t p = positions_.position(k, c + dir * j);
              if (p != RankedPositions::kAbsent) builder_.add(s, node(t, p), j - 1, dir);
            }
          for (int dir : {+1, -1}) {
            const int64_t p = positions_.position(k, c + dir * 3);
            if (p == RankedPositions::kAbsent) continue;
            builder_.add(s, node(floor_mod(t + pc - p, big_n_), p), 2, -dir);
          }
        }
      flush();
    }
    std::vector<Coords> plane;
    for (const Coords& base : line)
      for (int64_t m = 0; m < big_n_; ++m) plane.push_back(node(base[2], m));
    return plane;
  }

  // Phase d (Section 6). `sources` is D_{d,0}: (z0, z1, ..., z_{d-1}) = the node (z0, z1, ...),
  // one per x-line.
  void final_phase(const std::vector<Coords>& sources) {
    // x-line (coordinates 1 .. d-1) -> x of its D_{d,0} node.
    std::unordered_map<int64_t, int64_t> informed_x;
    informed_x.reserve(sources.size());
    for (const Coords& s : sources) {
      const Coords line(s.begin() + 1, s.end());
      if (!informed_x.emplace(encode(line, big_n_), s[0]).second) {
        throw std::logic_error("tsay_wang: two D_{d,0} nodes on one x-line");
      }
    }

    // Alignment step: the D_{d,0} node of every x-line sends to the line's node of S, whose x is
    // (x_2 + ... + x_d) mod N (the paper's S, Lemma 9), along x in the positive direction (one
    // message per line, so no two messages share a link). For d <= 2, D_{d,0} = S: nothing moves.
    builder_.begin("phase" + std::to_string(d_) + ".align");
    for (const Coords& s : sources) {
      const int64_t sx = line_sum(s);
      if (sx == s[0]) continue;
      Coords dst = s;
      dst[0] = sx;
      builder_.add(s, dst, 0, +1);
    }
    flush();

    // r steps growing the ranks of S along every x-line. A node of rank c on the line with
    // coordinates (x_2, ..., x_d) has x = sum + p_c. Moving + in x raises the rank; moving + in
    // dimension j >= 2 raises the sum and so lowers the rank: the j-th new node met going + in
    // dimension j has rank c - j and the one going - has rank c + j (Lemma 11; for j = 1 it is
    // c + 1 going +). Ranks c +- 1 .. c +- d are each reached exactly once.
    //
    // Departure from the paper: the D_{d,0} node of each line is a rank of some S_k but already
    // holds the block since phase d-1; the paper would send it a second copy, so that message is
    // omitted (dropping messages cannot create a link conflict).
    const int64_t lines = power(big_n_, d_ - 1);
    for (int64_t k = 1; k <= steps_; ++k) {
      builder_.begin("phase" + std::to_string(d_) + ".step" + std::to_string(k));
      Coords line(static_cast<size_t>(d_ - 1), 0);
      for (int64_t li = 0; li < lines; ++li) {
        decode(li, line);
        Coords s(static_cast<size_t>(d_));
        for (int q = 1; q < d_; ++q) s[static_cast<size_t>(q)] = line[static_cast<size_t>(q - 1)];
        s[0] = 0;
        const int64_t sum = line_sum(s);
        for (int64_t c = 0; c < positions_.ranks(k); c += fan_) {
          const int64_t pc = positions_.position(k, c);
          s[0] = floor_mod(sum + pc, big_n_);
          for (int q = 0; q < d_; ++q) {
            for (int dir : {+1, -1}) {
              const int64_t rank = (q == 0) ? c + dir : c - dir * (q + 1);
              const int64_t p = positions_.position(k, rank);
              if (p == RankedPositions::kAbsent) continue;
              Coords dst = s;
              if (q == 0) {
                dst[0] = floor_mod(sum + p, big_n_);
              } else {
                const int64_t hops = floor_mod(dir * (pc - p), big_n_);  // = |sum change|, same x
                dst[static_cast<size_t>(q)] = floor_mod(s[static_cast<size_t>(q)] + dir * hops, big_n_);
              }
              const Coords dst_line(dst.begin() + 1, dst.end());
              if (informed_x.at(encode(dst_line, big_n_)) == dst[0]) continue;  // already holds it
              builder_.add(s, dst, q, dir);
            }
          }
        }
      }
      flush();
    }
  }

  // Even n (Section 7): after the odd algorithm every node whose offsets from the root are all
  // <= n-2 holds the block. Step t handles dimensions A = 2t-2 and B = 2t-1 (0-based): in every
  // A-B plane whose dimensions above B are <= n-2 (dimensions below A are arbitrary: earlier steps
  // completed them), the informed (n-1) x (n-1) square sends to the L-shaped rest:
  //   (n-1, y) <- (n-2, y) over one + link in A, (x, n-1) <- (x, n-2) over one + link in B,
  //   (n-1, n-1) <- (0, 0) over - links, A then B (cyclic order: B follows A).
  // Each plane's links are its own and each link carries at most one message; (n-2, n-2) sends two
  // messages and (0, 0) one more, all on distinct first links (for n = 2 these three nodes are one
  // node, whose +A, +B and -A links are three distinct channels). For odd d the last step has
  // dimension A only. ceil(d/2) steps.
  //
  // Departure from the paper: its extra phase sends the nodes with offset n-1 in two dimensions
  // i < j from the node with 0 in both over two - links. A node with z zeros would then have to
  // start C(z,2) messages on its z negative links, impossible for z >= 4 (d >= 4), and its
  // "k+1 or k+2 from k-1 or k" induction is only sketched. Pairing the dimensions keeps the
  // ceil(d/2) steps and is conflict-free for every d.
  void extra_phase() {
    const int64_t total = power(n_, d_);
    Coords u(static_cast<size_t>(d_));
    for (int a = 0; a < d_; a += 2) {
      const int b = a + 1;
      builder_.begin("extra.step" + std::to_string(a / 2 + 1));
      for (int64_t id = 0; id < total; ++id) {
        int64_t rest = id;
        bool inside = true;
        for (int q = 0; q < d_; ++q) {
          u[static_cast<size_t>(q)] = rest % n_;
          rest /= n_;
          if (q >= a && u[static_cast<size_t>(q)] == n_ - 1) inside = false;
        }
        if (!inside) continue;
        const int64_t ua = u[static_cast<size_t>(a)];
        if (ua == n_ - 2) {
          Coords dst = u;
          dst[static_cast<size_t>(a)] = n_ - 1;
          builder_.add(u, dst, a, +1);
        }
        if (b < d_) {
          const int64_t ub = u[static_cast<size_t>(b)];
          if (ub == n_ - 2) {
            Coords dst = u;
            dst[static_cast<size_t>(b)] = n_ - 1;
            builder_.add(u, dst, b, +1);
          }
          if (ua == 0 && ub == 0) {
            Coords dst = u;
            dst[static_cast<size_t>(a)] = n_ - 1;
            dst[static_cast<size_t>(b)] = n_ - 1;
            builder_.add(u, dst, a, -1);
          }
        }
      }
      flush();
    }
  }

  int64_t line_sum(const Coords& s) const {
    int64_t sum = 0;
    for (int q = 1; q < d_; ++q) sum += s[static_cast<size_t>(q)];
    return floor_mod(sum, big_n_);
  }

  void decode(int64_t index, Coords& out) const {
    for (int64_t& v : out) {
      v = index % big_n_;
      index /= big_n_;
    }
  }

  static int64_t power(int64_t base, int e) {
    int64_t p = 1;
    for (int i = 0; i < e; ++i) p *= base;
    return p;
  }

  void flush() {
    PlainStep& step = builder_.step();
    if (step.messages.empty() && !options_.keep_empty_steps) return;
    ++emitted_;
    emit_(std::move(step));
  }

  int d_;
  int64_t n_;
  bool improved_;  // d <= 3 with options.improved_low_dimensions: the whole torus, no extra phase
  int64_t big_n_;  // side of the subtorus the odd algorithm runs on (n when improved_)
  int64_t fan_;    // 2d + 1
  int64_t steps_;  // r = ceil(log_{2d+1} N) steps per phase
  RankedPositions positions_;
  StepBuilder builder_;
  const PlainStepSink& emit_;
  TsayWangOptions options_;
  int64_t emitted_ = 0;
};

void check_dimension_and_radix(int d, int n) {
  if (d < 1) throw std::invalid_argument("tsay_wang: need at least one dimension (d >= 1), got d = " + std::to_string(d));
  if (n < 2) throw std::invalid_argument("tsay_wang: radix n must be >= 2, got n = " + std::to_string(n));
}

}  // namespace

int64_t tsay_wang_steps(int d, int n) {
  check_dimension_and_radix(d, n);
  const int64_t fan = 2 * static_cast<int64_t>(d) + 1;
  if (n % 2 == 1) return d * ceil_log(fan, n) + 1;                      // Theorem 5
  return d * ceil_log(fan, n - 1) + (d + 1) / 2 + 1;                     // Section 7 / abstract
}

int64_t tsay_wang_improved_steps(int d, int n) {
  check_dimension_and_radix(d, n);
  if (d > 3) throw std::invalid_argument("tsay_wang_improved_steps: the improvement is for d <= 3");
  return d * ceil_log(2 * static_cast<int64_t>(d) + 1, n);
}

int64_t broadcast_lower_bound(int d, int n) {
  if (d < 1) throw std::invalid_argument("broadcast_lower_bound: need d >= 1, got d = " + std::to_string(d));
  if (n < 1) throw std::invalid_argument("broadcast_lower_bound: need n >= 1, got n = " + std::to_string(n));
  // Lemma 1: after T steps at most (2d+1)^T nodes hold the block, so T >= ceil(d log_{2d+1} n) is
  // the least T with (2d+1)^T >= n^d. Both sides are exact big integers.
  BigUnsigned nodes(1);
  for (int i = 0; i < d; ++i) nodes.multiply(static_cast<uint32_t>(n));
  const uint32_t fan = static_cast<uint32_t>(2 * d + 1);
  BigUnsigned reach(1);
  int64_t t = 0;
  while (reach.compare(nodes) < 0) {
    reach.multiply(fan);
    ++t;
  }
  return t;
}

void generate_tsay_wang(const PlainTopology& topo, int64_t root, const PlainStepSink& emit) {
  generate_tsay_wang(topo, root, emit, TsayWangOptions{});
}

void generate_tsay_wang(const PlainTopology& topo, int64_t root, const PlainStepSink& emit,
                        const TsayWangOptions& options) {
  if (!topo.wrap) throw std::invalid_argument("tsay_wang: needs a torus (wrap = true), got a mesh");
  if (topo.dims.empty()) throw std::invalid_argument("tsay_wang: needs at least one dimension (d >= 1)");
  const int d = static_cast<int>(topo.dims.size());
  const int n = topo.dims[0];
  for (int radix : topo.dims) {
    if (radix != n) throw std::invalid_argument("tsay_wang: needs all radices equal (an n^d torus)");
  }
  check_dimension_and_radix(d, n);
  if (!emit) throw std::invalid_argument("tsay_wang: the step sink is empty");
  int64_t total = 1;
  for (int q = 0; q < d; ++q) {
    if (total > std::numeric_limits<int64_t>::max() / n) {
      throw std::invalid_argument("tsay_wang: n^d does not fit in 64 bits");
    }
    total *= n;
  }
  if (root < 0 || root >= total) {
    throw std::invalid_argument("tsay_wang: root " + std::to_string(root) + " is not a node (0 <= root < n^d)");
  }

  Coords root_coords(static_cast<size_t>(d));
  int64_t rest = root;
  for (int q = 0; q < d; ++q) {
    root_coords[static_cast<size_t>(q)] = rest % n;
    rest /= n;
  }

  TsayWangGenerator generator(d, n, root_coords, emit, options);
  generator.run();
  const int64_t expected = options.improved_low_dimensions && d <= 3 ? tsay_wang_improved_steps(d, n) + 1
                                                                      : tsay_wang_steps(d, n);
  if (options.keep_empty_steps && generator.emitted() != expected) {
    throw std::logic_error("tsay_wang: emitted step count differs from the construction's count");
  }
}

namespace {

void check_tsay_wang(const Topology& topo, const AlgorithmOptions& opt) {
  if (!topo.wrap()) throw PreconditionError("tsay-wang: needs a torus (wraparound links); the network is a mesh");
  for (int d = 1; d < topo.ndims(); ++d)
    if (topo.radix(d) != topo.radix(0))
      throw PreconditionError(
          fmt::format("tsay-wang: needs a torus n^d with all sides equal; --topo gives {}", topo.dims_string()));
  if (!topo.valid(opt.root)) throw PreconditionError("tsay-wang: the root is not a node of the network");
}

std::optional<Bound> tsay_wang_formula(const Topology& topo, const AlgorithmOptions&) {
  Bound b;
  const int n = topo.radix(0), d = topo.ndims();
  b.steps = tsay_wang_steps(d, n);
  b.transmission_blocks = b.steps;  // one block per message
  b.source = n % 2 ? "seed 001 Theorem 5: d ceil(log_{2d+1} n) + 1 (n odd)"
                   : "seed 001 Section 7: d ceil(log_{2d+1}(n-1)) + ceil(d/2) + 1 (n even)";
  return b;
}

std::vector<NamedBound> tsay_wang_extras(const Topology& topo, const AlgorithmOptions&) {
  std::vector<NamedBound> out;
  if (topo.ndims() <= 3) {
    Bound b;
    b.steps = tsay_wang_improved_steps(topo.ndims(), topo.radix(0));
    b.transmission_blocks = b.steps;
    b.source = "seed 001 abstract: for d = 2 or 3, d ceil(log_{2d+1} n) for any n (docs/tsay-wang.md)";
    out.push_back({"improved", b});
  }
  return out;
}

}  // namespace

// `tsay-wang` in the registry (registry.cpp): the plain generator behind the adapter (plain_adapter.hpp).
void register_tsay_wang(std::vector<Algorithm>& out) {
  Algorithm a = make_algorithm(
      "tsay-wang", Collective::kBroadcast, PortModel::kAll, Switching::kWormhole,
      "a torus n^d (all sides equal, n >= 2, any d >= 1); any root",
      "seed 001 (Tsay, Wang) Sections 3-7: main diagonal, diagonal to diagonal, final phase, cyclic dimension "
      "order",
      "all-port broadcast without link contention: d ceil(log_{2d+1} n) steps for d <= 3 (the seed's "
      "improvement), the paper's d ceil(log_{2d+1} n) + 1 (n odd) above");
  a.check = check_tsay_wang;
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
  a.formula = tsay_wang_formula;
  a.lower_bound = [](const Topology& topo, const AlgorithmOptions&) -> std::optional<Bound> {
    Bound b;
    b.steps = broadcast_lower_bound(topo.ndims(), topo.radix(0));
    b.source = "seed 001 Lemma 1: ceil(d log_{2d+1} n) (a node reaches at most 2d new nodes per step)";
    return b;
  };
  a.extras = tsay_wang_extras;
  out.push_back(std::move(a));
}

}  // namespace torx::sw
