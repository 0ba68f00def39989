// SPDX-License-Identifier: Apache-2.0
// Total exchange (personalized all-to-all) on Cartesian products of rings and linear arrays, after
// seed 004: Dimakopoulos and Dimopoulos, "A Theory for Total Exchange in Multidimensional
// Interconnection Networks". Store-and-forward, constant model: a message is one block and takes one
// step between neighbours; a directed link carries at most one message per step.
//
// Lower bounds (Section 3)
//   Single-port (Eq. 3): every step moves at most N blocks one hop, and the blocks need
//   sum_v status(v) hops in all, so T >= ceil(AS(G)), AS = average status. Theorem 1 / Corollary 1
//   give the status of a product from its factors: s(v) = sum_i s_i(v_i) * N / n_i and
//   AS(G) = sum_i AS(G_i) * N / n_i. For a ring AS = floor(n^2/4), for a linear array (n^2-1)/3.
//   Multiport (Eq. 4): for a partition V1 | V2 joined by C links, |V1||V2| blocks cross C links in
//   each direction, so T >= ceil(|V1||V2| / C). We evaluate it for the bisections that cut one
//   dimension in half and keep the largest.
//
// One dimension (the building block; seed 004 cites [7] for it, we construct it here)
//   Ring, single-port: all nodes send clockwise for floor((n-1)/2) pipelined distance phases plus the
//     antipodal phase (n even), then counter-clockwise: floor(n^2/4) steps = the average status.
//   Ring, multiport: both directions at once; for even n the antipodal blocks of even nodes go
//     clockwise and of odd nodes counter-clockwise: ceil(floor(n^2/4)/2) steps = the cut bound.
//   Linear array, multiport: rightward and (mirrored) leftward traffic at once, each scheduled
//     farthest-destination-first: floor(n^2/4) steps = the cut bound of the middle link.
//   Linear array, single-port: rightward schedule, then its time reverse (which is a leftward
//     schedule); for even n the two meet in one shared step across the middle link:
//     n - 1 + floor((n-1)^2/2) steps. This exceeds the average status; it equals the load of the
//     middle node (it must send its own n-1 blocks plus every block that passes it), so it is optimal.
//
// Algorithm A2 (Section 4, Fig. 4; single-port; any product G = A x B, recursively)
//   Phase 1: n_A total exchanges inside every copy B_i of the last dimension. In exchange r (the row
//     batch R_r of Table 1) node (a, u) hands to each (a, w) of its B-copy the block destined for
//     (r, w), for every A-coordinate r in turn.
//   Phase 2: n_B total exchanges inside every copy A_j. In exchange k node (a, j) distributes the
//     blocks that originated in copy A_k (its own for k = j, the ones phase 1 brought otherwise).
//   The exchanges inside A_j are A2 again on the remaining dimensions. Time (Theorem 2, Corollary 2):
//   T = sum_i (N / n_i) T_i. With T_i = AS(G_i) this is AS(G) (Theorem 3): optimal on tori and
//   hypercubes. On meshes T_i exceeds AS(G_i), so A2 is about 3/2 of the bound.
//
// Algorithm A3 (Section 5, Fig. 6; multiport; G = H x H, recursively H^(2^k))
//   n rounds; in round r every copy A_j and every copy B_i run a total exchange of H at the same time
//   (they use different dimensions). B round r (r < n-1) sends from (i, j) to (i, j+l) the block for
//   (i + g_r(l), j+l), g_r(l) = 1 + ((l - 1 + r) mod (n-1)) (Eqs. 7-8: the destinations rotate by one
//   each round); A round r+1 forwards exactly what B round r delivered; A round 0 sends the node's own
//   blocks of its copy, B round n-1 the blocks for its own copy of B. Time (Theorem 4, Corollary 3):
//   n^(d-1) T_H. When T_H equals the cut bound exactly (not after rounding up) so does the product
//   (Theorem 5): rings with n odd or n % 4 == 0 and linear arrays of every length.
//
// Topologies: `PlainTopology` per whole network, a torus (rings) or a mesh (linear arrays); a
// dimension of size 1 is allowed and idle. A hypercube is a mesh 2x2x...x2 (one link each way per
// pair). A torus 2x2x...x2 is a hypercube whose pairs are joined by two links each way ("+" and "-"):
// the same distances, so A2 and its bound are unchanged, but the cut bound counts both links.
//
// Output: one message per block, single hop between neighbours, route.start_dim = the dimension
// travelled and route.dir = +1/-1 in that dimension (0 elsewhere); block id = src * N + dst.
// Steps stream through the sink; the generators hold the one-dimensional schedules and one step.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/plain_schedule.hpp"

namespace torx::sw {

enum class DimakPorts { kSinglePort, kMultiport };

// One hop of a one-dimensional total exchange on nodes 0..n-1 (a ring or a linear array).
struct DimakLineHop {
  int from = 0;       // sender; the receiver is from + dir (mod n on a ring)
  int dir = 0;        // +1 or -1
  int block_src = 0;  // origin and destination of the carried block, as 1-D coordinates
  int block_dst = 0;
};

struct DimakLineSchedule {
  int n = 0;
  bool ring = true;
  std::vector<std::vector<DimakLineHop>> steps;
};

// The optimal one-dimensional total exchange under `ports` (see the header comment).
// Throws std::invalid_argument if n < 1.
DimakLineSchedule dimak_line_schedule(int n, bool ring, DimakPorts ports);
// Its length in closed form: ring single-port floor(n^2/4); linear array single-port
// n-1+floor((n-1)^2/2); ring multiport ceil(floor(n^2/4)/2); linear array multiport floor(n^2/4).
int64_t dimak_line_steps(int n, bool ring, DimakPorts ports);
// Single-port lower bound for one dimension that also counts forwarding: max over nodes of the blocks
// the node must send (own n-1 plus all that pass it). Equals the average status on a ring.
int64_t line_single_port_node_bound(int n, bool ring);

// Status (sum of distances to all other nodes) of one node, by Theorem 1: s(v) = sum_i s_i(v_i) * N / n_i,
// with s_i(x) = floor(n^2/4) on a ring and x(x+1)/2 + (n-1-x)(n-x)/2 on a linear array.
int64_t node_status(const PlainTopology& topo, int64_t node);
// Sum over ordered node pairs of the distance (= sum of all statuses), by Theorem 1 / Corollary 1.
int64_t total_status(const PlainTopology& topo);
// Single-port lower bound: ceil(average status) = ceil(total_status / N).
int64_t average_status_bound(const PlainTopology& topo);
// Multiport lower bound: max over dimensions of ceil(|V1||V2| / C) for the bisection across it.
int64_t bisection_cut_bound(const PlainTopology& topo);

// Closed forms of the generators' lengths (Corollaries 2 and 3).
int64_t dimak_a2_steps(const PlainTopology& topo);
int64_t dimak_a3_steps(const PlainTopology& topo);  // throws like generate_dimak_a3

// Algorithm A2, single-port, any torus or mesh. Throws std::invalid_argument on an empty dimension
// list or a dimension < 1.
void generate_dimak_a2(const PlainTopology& topo, const PlainStepSink& emit);
// Algorithm A3, multiport. Precondition: all dimensions equal and their number a power of two
// (1, 2, 4, ...); throws std::invalid_argument naming the violated precondition.
void generate_dimak_a3(const PlainTopology& topo, const PlainStepSink& emit);

}  // namespace torx::sw
