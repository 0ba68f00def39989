// SPDX-License-Identifier: Apache-2.0
// Seed 000 (Tseng, Ni, Sheu) beyond one ring: complete exchange on tori as ring exchanges run
// dimension by dimension on logical tori.
//
// A *partitioned* scheme with grouping factor g splits every dimension into g residue classes:
// the logical torus with offset o = (o_x, o_y, ...) holds the nodes v with v_d = o_d (mod g) and
// links that are physically dilated by g (Sections 3.2 and 4). g = 1 is the plain scheme (T1, C1,
// and the any-size dimension-by-dimension scheme of Section 5); g = 2 in 2D is T4; g = 4 in 3D is
// C64.
//
// Preparation (g > 1): for each dimension d in turn, g-1 phases v -> v + e_d, phase k carrying the
// blocks of source v - (k-1) e_d aimed at the next g-k residue classes of d, so that afterwards
// every node v holds the blocks of the g^D sources v - [0, g)^D aimed at its own logical torus
// (T4's Pre1/Pre2; C64's nine phases).
//
// Stages: each logical torus runs ring exchanges along its dimensions in its own order (Table 1
// for T4, the cyclic Table 2 for C64, x, y, z, ... otherwise); a stage on dimension d exchanges, on
// every logical ring along d, "ring blocks" that stand for all the blocks a node holds for one
// destination coordinate. With P the dimensions already done, a node v holds the blocks b_s^t with
//   s_j in [v_j - g + 1, v_j], t_j = o_j (mod g)   for j not in P,
//   s_j anything,              t_j = v_j           for j in P,
// so the ring block from logical position A to C on dimension d is one box:
//   s_d in [gA + o_d - g + 1, gA + o_d],  t_d = gC + o_d,  the other axes as above.
// Every logical torus performing a stage advances through the ring plan's phases in lock step, so
// one step of the schedule holds the same phase of every logical ring that is busy.
#pragma once

#include <string>
#include <vector>

#include "algorithms/registry.hpp"

namespace torx::sw::tseng {

struct LogicalTorus {
  std::vector<int> offset;  // o_d, 0 <= o_d < g
  std::vector<int> stages;  // dimension per stage; -1 = idle in that stage
};

struct PartitionedScheme {
  int g = 1;
  std::vector<LogicalTorus> tori;
};

// The plain scheme: one torus, stages x, y, z, ... (T1, C1, tseng-dd, and ring in 1D).
PartitionedScheme plain_scheme(const Topology& topo);
// T4 (2D, g = 2): P_{0,0} and P_{1,1} run X then Y, P_{0,1} and P_{1,0} run Y then X (Table 1).
PartitionedScheme t4_scheme();
// C64 (3D, g = 4): group G_s = {C_ijk : (i+j+k) mod 4 = s} follows column s of Table 2.
PartitionedScheme c64_scheme();

// Number of steps the scheme takes on `topo`.
int64_t scheme_steps(const Topology& topo, const PartitionedScheme& scheme);
// Streams the schedule (header included) into `sink`.
void generate_scheme(const Topology& topo, const PartitionedScheme& scheme, const ScheduleHeader& header,
                     ScheduleSink& sink);

// Per-step largest message, in blocks, of the scheme on a torus with these sides, computed from the
// ring plans alone: every logical ring of a step is a translate of the others, and a ring
// transmission carrying k ring blocks is a message of g * (N / n_d) * k blocks (each ring block
// stands for g sources along d times N / n_d combinations of the other axes); a preparation phase
// ph of dimension d carries (g - ph) / g * N blocks. Needs no Topology, so it reaches sizes whose
// schedules cannot be generated (C64 at d = 10 has 2^30 nodes); tests check it against generated
// schedules.
struct SchemeCounts {
  std::vector<int64_t> step_max_blocks;
  std::vector<std::string> labels;
  int64_t transmission_blocks = 0;
};
SchemeCounts scheme_counts(const std::vector<int>& dims, const PartitionedScheme& scheme);

// Closed forms of seed 000 in blocks (b t_x units) and startups.
int64_t t1d_blocks(int d);  // Theorem 1: T_1D(d, b) / (b t_x), d >= 3

}  // namespace torx::sw::tseng
