// SPDX-License-Identifier: Apache-2.0
// Complete exchange (personalized all-to-all) on meshes with even sides, after seed 002: Suh, Shin,
// Yalamanchili, "Complete Exchange in General Multidimensional Mesh Networks". One-port, wormhole,
// message combining: every message is one contiguous slice of the sender's data array.
//
// Dimension roles (our convention; the paper sorts its dimensions a1 >= a2 >= ... >= an)
//   Paper dimension i is our dimension with the i-th largest radix; ties go to the higher-numbered
//   dimension first. In 2D the paper's P(r, c) of an R x C mesh (R <= C) is therefore our (x, y):
//   `--topo 6x10` is R = 6 rows along x and C = 10 columns along y, and c (the paper's a1) is y.
//   Any order of the radices is accepted: 10x6 runs the same algorithm with the roles of x and y
//   swapped. Putting the largest radix in the paper's first role matters in n-D (see below).
//
// Node groups (Section 3.1): a node's group is the parity of its coordinates (EE, OE, EO, OO in 2D,
//   2^n groups in n-D). A group is an (a1/2) x ... x (an/2) submesh; consecutive members of a group
//   along one dimension (two hops apart) form a logical ring.
//
// Phases 1..n (Sections 3.2, 4): in phase j a node scatters along a logical ring in ONE dimension,
//   always to the same neighbour 2 hops away, for a1/2 - 1 steps (a node whose ring is shorter idles
//   once it is done). The phase order of the dimensions depends on the group:
//     2D (Section 3.2): EE and OO (equal parities) go along c (paper dim 1) then r (paper dim 2);
//       EO and OE go along r then c.
//     n-D (Section 4), recursively: a node whose coordinate in paper dimension k is even follows the
//       (k-1)-dimensional order and then dimension k; an odd one goes along dimension k first.
//   Together these guarantee that on every line of the mesh only one parity class of nodes uses the
//   line in a phase, so the rings of one phase never share a directed link. The ring direction of a
//   node in dimension d is + if its coordinate is even and - if it is odd: only then does the node
//   that keeps a block after 2k hops also own the block's partner offset (0 and +1 for even, 0 and -1
//   for odd coordinates, the two members of its 2x...x2 submesh along d), which is what makes
//   Section 3.3's "send columns 2i .. C-1" exact for every group. The ring's closing hop (from the
//   last member back to the first) runs the other way across the whole line: the mesh has no
//   wraparound link, and that hop's links are used by nobody else on the line.
// Phase n+1 (Sections 3.2, 4): n pairwise exchanges inside each 2 x ... x 2 submesh, along paper
//   dimension 1 (c in 2D) first, then 2, ..., n; every message carries N/2 blocks.
//
// Data array (Section 3.3): node s holds N slots (its N-1 blocks plus one empty slot for its "block
//   to itself", reported as block id s*N + s and never sent). Initially slot = mixed-radix index of
//   the destination's offsets (o_1, ..., o_n) along the node's phase dimensions in phase order, o_1
//   most significant, where o is counted in the node's ring direction (2D: column-major B[u, v] with
//   v the phase-1 offset: the paper's Figure 2(a)). Step s of a phase sends the slots whose phase
//   offset is >= 2s (a suffix), and the message received in the same step is written into exactly
//   those slots, in order. Before each later phase the node stably re-sorts its array by the new
//   phase's offset (the paper's rearrangement "between two consecutive phases", Section 3.4(c)).
//   Before phase n+1 the array is re-sorted into four quarters for the first two exchanges:
//   [self | partner of exchange 1 | diagonal | partner of exchange 2] (the clockwise quadrants of
//   Figure 2(f)); exchange 1 sends the middle half, exchange 2 the last half. For n >= 3 the array is
//   re-sorted the same way before exchanges 3, 5, ...: with in-place receives no single layout makes
//   three exchanges contiguous (argument in the .cpp), so n-D uses ceil(n/2) - 1 more rearrangements
//   than the paper's n.
//
// Cost (Section 3.4, Section 4, Table 1): steps = (n/2) a1, transmission (sum over steps of the
//   largest message) = (n/4) a1^2 a2 ... an blocks; 2D: C steps and R C^2 / 2 blocks. These hold
//   exactly because the largest radix takes the paper's first role, which every phase uses.
//
// Topologies: meshes (the paper's target). On a torus of the same sizes the identical schedule is
//   emitted (topo.wrap is ignored): every route is legal there and uses the same links.
//
// Output: one message per sending node per step, route.start_dim = the dimension travelled,
//   route.dir[d] = +1/-1 for that dimension (+1, i.e. irrelevant, for the others); block ids are
//   src * N + dst, in the order of the sender's array slice. Memory: the generator keeps every
//   node's data array (N^2 block ids), hence kSuhMaxNodes.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "algorithms/plain_schedule.hpp"

namespace torx::sw {

// Largest network generate_suh() accepts: the data arrays hold N^2 block ids (512 MiB at 8192).
inline constexpr int64_t kSuhMaxNodes = 8192;

struct SuhFormula {
  int64_t steps = 0;
  int64_t transmission_blocks = 0;
};

// One sending node's message as a slice [begin, end) of its data array.
struct SuhSend {
  int64_t node = 0;
  int64_t begin = 0;
  int64_t end = 0;
};

// The data-array view of one emitted step.
struct SuhArrayStep {
  // True if every node re-sorted its array (locally, no communication) just before this step.
  bool rearranged = false;
  // Every node's array (slot -> block id; id s*N + s is node s's empty slot) as it stands before the
  // step: filled for the first step (the initial layout) and whenever `rearranged`, empty otherwise.
  // Between two filled layouts the arrays evolve only by the sends and in-place receives below.
  std::vector<std::vector<uint64_t>> layout;
  // One entry per message, in the order of PlainStep::messages: sends[i].node is messages[i].src and
  // messages[i].blocks equals that node's slots [begin, end). The receiver writes the message into
  // its own send slice of the same step, which has the same length.
  std::vector<SuhSend> sends;
};

using SuhArraySink = std::function<void(SuhArrayStep&&)>;

// Emits the complete exchange on `topo`, one step at a time. Preconditions (std::invalid_argument
// naming the violated one): at least 2 dimensions; every radix even and >= 2; at most kSuhMaxNodes
// nodes. The same schedule is emitted for a mesh and a torus.
void generate_suh(const PlainTopology& topo, const PlainStepSink& emit);
// The same, also reporting the data arrays: `arrays` is called for each step just before `emit`.
void generate_suh(const PlainTopology& topo, const PlainStepSink& emit, const SuhArraySink& arrays);

// The paper's closed forms (Section 3.4, Section 4, Table 1) with a1 = the largest radix and
// n = dims.size(): steps = n*a1/2, transmission_blocks = n*a1*N/4. Same preconditions as
// generate_suh() except the node limit.
SuhFormula suh_formula(const std::vector<int>& dims);

// Data rearrangements (local re-sorts of the whole array): the paper's count (Section 3.4(c),
// Section 4, Table 1: 2 in 2D, n in n-D) and the count of this implementation, which is the same in
// 2D and (n-1) + ceil(n/2) for n >= 3 (when a1 = 2, phases 1..n are empty and only the ceil(n/2)
// re-sorts of phase n+1 remain).
int64_t suh_paper_rearrangements(const std::vector<int>& dims);
int64_t suh_rearrangements(const std::vector<int>& dims);

// role[i] = our dimension that plays the paper's dimension i+1 (a1 first).
std::vector<int> suh_dimension_roles(const std::vector<int>& dims);
// The dimensions `node` travels in phases 1..n, in order (see "Phases 1..n" above).
std::vector<int> suh_phase_dims(const std::vector<int>& dims, int64_t node);

}  // namespace torx::sw
