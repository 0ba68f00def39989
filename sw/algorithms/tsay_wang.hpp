// SPDX-License-Identifier: Apache-2.0
// Tsay and Wang's all-port broadcast on a d-dimensional n^d wormhole-routed torus (seed 001,
// "Nearly Optimal Algorithms for Broadcast on d-Dimensional All-Port and Wormhole-Routed Torus").
//
// Model: the root holds one block (piece 0); a message copies it; in one step every node may start
// one message on each of its 2d outgoing links (first links distinct), every message follows a
// cyclic-dimension-order route (a start dimension, then the following dimensions cyclically, ONE
// direction for all of them), and no directed link carries two messages of the same step.
//
// The construction, for odd n (N = n below), root translated to the origin:
//   r = ceil(log_{2d+1} N). Every phase grows, along one "column" per subtorus, a set of ranked
//   positions p_c (rank c, 0 <= c < (2d+1)^k after k steps): step k keeps the sources (ranks that
//   are multiples of 2d+1) and cuts every gap between consecutive sources into 2d+1 parts whose
//   sizes differ by at most 1 (Lemma 2). A gap shorter than 2d+1 only happens in the last step; it
//   is filled completely and the ranks that would coincide are simply absent.
//   - Phase 1 (Section 4): the main diagonal (i, ..., i). The source of rank c sends to ranks c +- j
//     (1 <= j <= d) along a route that starts in dimension j, positive for c + j, negative for c - j.
//   - Phases h = 2 .. d-1 (Section 5): D = d-h+1. Every D-dimensional subtorus (last h-1
//     coordinates fixed) holds one source (z0, ..., z0, z1, ..., z_{h-1}) of D_{h,0}; its column is
//     the diagonal with direction (1, ..., 1, -1, 0, ..., 0) (Section 5.1). Section 5.2: the source
//     of rank c keeps ranks c +- j, 1 <= j <= D, in its own column (route starting in dimension j)
//     and gives ranks c +- (D + j), 1 <= j <= h-1, in the column of the D_{h,0} node that differs in
//     z0 and z_j only (Lemma 7), routed as two segments: dimension D + j first, then dimension D.
//   - Phase d (Section 6): every x-line holds one node of D_{d,0}. One step moves the block on every
//     line to the node with x = (x_2 + ... + x_d) mod N (the set S, Lemma 9); r more steps grow the
//     ranks along x, rank c +- 1 over dimension 1, ranks c -+ j over dimension j >= 2 (moving + in
//     dimension j lowers the rank because S is a diagonal in every x1-xj plane).
//   Steps: d*r + 1 (Theorem 5).
// For even n (Section 7) the odd algorithm runs on the (n-1)^d subtorus of the nodes whose offsets
// from the root are <= n-2 (a wraparound of that subtorus is the two-link path through offset n-1,
// so routes keep their start dimension and direction and stay conflict-free), then ceil(d/2) extra
// steps reach the nodes with some offset n-1, two dimensions per step (see the .cpp for why this
// differs from the paper's text). Steps: d*ceil(log_{2d+1}(n-1)) + ceil(d/2) + 1.
//
// Departures from the paper's text, all needed for exactly-once delivery or conflict freedom, are
// listed in the .cpp comments and in docs/tsay-wang.md: the final phase does not re-send to the
// D_{d,0} nodes; the even-n extra phase pairs dimensions; for d <= 2 the alignment step of phase d
// is empty (D_{d,0} = S) and is still emitted so the step count is the paper's (configurable).
//
// The improvement for d <= 3 (the abstract: "for d = 2 or 3 ... T(n) = d ceil(log_{2d+1} n) for any
// n", details in a report we do not have), on by default, designed here:
//   - No (n-1)^d subtorus and no extra phase for even n: the ranked positions of Lemma 2 tile a
//     cycle of any length, and for d <= 3 every construction below is conflict-free with N = n
//     (the paper needs n odd for the uniqueness of Lemma 7's columns in phases 2 .. d-1, which
//     d <= 3 no longer uses).
//   - d = 1, 2: the paper's phases (in 2D the main diagonal is already S, the alignment is empty).
//   - d = 3: phases 1 and 2 are chosen so that they end exactly on S = {x = y + z}, which makes the
//     alignment step empty. Phase 1 grows the line (2p, p, p) (it lies in S, one node per z-plane)
//     with the main diagonal's routes; phase 2 grows, in every z-plane t, the column
//     (2t + m, t + m, t) with ranks c +- 1, c +- 2 on the own column (routes starting in x, y) and
//     ranks c -+ 3 in another plane's column over a z-then-x route that keeps y. The columns are S.
//   Steps: d ceil(log_{2d+1} n), every n >= 2 (tsay_wang_improved_steps). Link-disjointness of
//   phases 1 and 2 follows as for the paper's phases: in each step a row (or column) of links of a
//   dimension is used by at most one route per direction, identified by its source or destination
//   (docs/tsay-wang.md gives the case analysis); the step model checks every size it is run on.
#pragma once

#include <cstdint>

#include "plain_schedule.hpp"

namespace torx::sw {

struct TsayWangOptions {
  // d <= 3: the improvement above (d ceil(log_{2d+1} n) steps). False: the paper's construction
  // for every d (its formula tsay_wang_steps()).
  bool improved_low_dimensions = true;
  // The first step of the final phase (the alignment) has no messages when d <= 2, for n = 2, and
  // with the improvement for d = 3. Keeping it makes the schedule's length exactly tsay_wang_steps()
  // (the paper's construction) or tsay_wang_improved_steps() + 1; dropping it gives one step less.
  bool keep_empty_steps = true;
};

// Emits the broadcast of piece 0 from `root` on the torus `topo`, one step at a time.
// Preconditions (std::invalid_argument naming the one violated): topo.wrap (torus), at least one
// dimension, all radices equal n >= 2, n^d representable, 0 <= root < n^d.
// n = 2 is handled as an even radix: the odd part runs on the 1^d subtorus (the root alone, so only
// the empty alignment step remains) and the extra phase does the rest; on a radix-2 torus the "+"
// and "-" links of a dimension are distinct channels (core/topology.hpp), and the extra phase uses
// both of them out of the same node.
void generate_tsay_wang(const PlainTopology& topo, int64_t root, const PlainStepSink& emit);
void generate_tsay_wang(const PlainTopology& topo, int64_t root, const PlainStepSink& emit,
                        const TsayWangOptions& options);

// The paper's step count: d*ceil(log_{2d+1} n) + 1 for odd n, d*ceil(log_{2d+1}(n-1)) + ceil(d/2) + 1
// for even n (integer arithmetic). Throws std::invalid_argument for d < 1 or n < 2.
int64_t tsay_wang_steps(int d, int n);

// The improvement's step count for d <= 3: d*ceil(log_{2d+1} n), any n >= 2. Throws
// std::invalid_argument for d < 1, d > 3 or n < 2.
int64_t tsay_wang_improved_steps(int d, int n);

// Lemma 1's lower bound ceil(d * log_{2d+1} n): the least T with (2d+1)^T >= n^d, compared exactly.
// Throws std::invalid_argument for d < 1 or n < 1.
int64_t broadcast_lower_bound(int d, int n);

}  // namespace torx::sw
