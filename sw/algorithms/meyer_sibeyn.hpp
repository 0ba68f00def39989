// SPDX-License-Identifier: Apache-2.0
// Oblivious gossiping (allgather) on full-port store-and-forward tori, after seed 003: Meyer and
// Sibeyn, "Oblivious Gossiping on Tori", J. Algorithms 2002.
//
// Model: every node starts with `pieces` blocks (block id = node * pieces + piece); a message goes to
// a neighbour, takes one step and carries copies of one or more blocks; a node sends only blocks it
// holds at the start of a step; a directed link carries at most one message per step; every node
// receives every foreign block exactly once and never one of its own.
//
// Both algorithms are OBLIVIOUS (the paper's "time-independent"): every router applies one fixed
// rule for the whole run, "a packet that came in through port i goes to the local node and out of
// the ports F(i)". Blocks travel in lock step, so a packet's age (hops) equals the step number
// minus the injection step; the only time-related entry of a router's table is, per forwarding
// rule (input port -> output port), the age window in which the rule applies (a hop limit, as a
// TTL). That window is how the paper's "each packet is forwarded for P/2 steps" is made exact:
// without it the two directions of a cycle deliver the antipodal packet twice (Theorem 1's proof
// says so), and the out-of-cycle nodes of Sections 2.2 and 4 get "double-receives" (Section 2.2's
// table). The exactly-once rule forbids both. A router holds at most 2 rules per cycle through it
// plus 2 per node it feeds; nothing in a table depends on the step except through these windows.
//
// ms-hc (Section 2): the data is split into one share per cycle; each share runs both ways around
// one of d edge-disjoint cycles for floor(m/2) steps (forward) and floor((m-1)/2) (backward), m the
// cycle length, so every node receives every position of a cycle exactly once.
//   - 2D, both sides even: the routing rule of Section 2.1 (Fig. 1), two Hamiltonian cycles;
//     pieces = 2, P/2 steps (Theorem 1).
//   - 2D, one side odd, ms-hc (the default): a Hamiltonian decomposition (see hamiltonian.hpp):
//     pieces = 2, P/2 steps, one piece per message, so transmission P s/4. The paper's Section 2.2
//     takes n1*n2/2 + 1 + n_odd steps with packets of (1 + 1/n_odd) s/2: more of both.
//   - 2D, one side odd, ms-hc-steps: the partial cycles of Section 2.2 (Fig. 2). A "special column"
//     (a line along the even dimension at coordinate n_odd - 2 of the odd one) passes both cycles
//     straight through (L<->R). Each of its nodes lies on one cycle only and is an out-of-cycle node
//     (OOC) of the other, fed by its two neighbours in the special column over the vertical links no
//     cycle uses. Step 1 is the paper's re-packing step, the one non-oblivious step: pieces = 6. An
//     OOC node C puts 4 pieces on its own cycle and hands 2 to a horizontal neighbour N, and N sends
//     C 2 of its own (see meyer_sibeyn.cpp for why exactly-once rules out the paper's row-wide
//     shift). Cycle length m = P - n_even/2; steps 1 + floor(m/2), the fewest, below the paper's
//     n1*n2/2 + 1 + n2 (whose n2 must be read as the ODD side; the paper's indexing is garbled).
//     Largest message 7 pieces, a merged feed message (see below); on cycle links 4: the
//     transmission exceeds the paper's (16x15: 86.7 s against 72.5 s).
//   - ms-hc-hd: the Hamiltonian decomposition on every shape, 2D with both sides even included.
//   - 2D, both sides odd (the paper defers to its technical report [14]): a Hamiltonian
//     decomposition found by square switching (see hamiltonian_decomposition); pieces = 2,
//     (P-1)/2 steps.
//   - d >= 3: a Hamiltonian decomposition built by the product construction in the spirit of [2]
//     (Aubert and Schneider): decompose the first d-1 dimensions into H_1..H_{d-1}, decompose the
//     2D torus H_1 x C_{n_d} into two cycles, then splice the n_d layer copies of every other H_j
//     into one cycle by "twist" switches on unit squares. pieces = d, floor(P/2) steps.
// ms-one (Section 4): one packet per node (pieces = 1), d edge-disjoint PARTIAL cycles; a node that
//   is not on a cycle gets that cycle's packets from two neighbours on it. Every packet circulates
//   only on its node's "home" cycle (the first cycle through the node), so each packet reaches each
//   node exactly once.
//   - 2D (Section 4.1, Fig. 3): an even side plays n1 (an odd n1 with an even n2 is transposed;
//     with both sides even both orientations are planned and the one with fewer steps, then the
//     smaller transmission, is kept: the smaller side as n1). Two cycles of n1/2 laps: a zigzag (+x1, +x2, +x1) in rows 0-1 followed by a
//     run along x2. m = n1*(n2+2)/2; steps floor(m/2) = floor(n1*n2/4 + n1/2), n2/2 + 2 below
//     Theorem 3 because the feeds merge messages instead of waiting out double-receives.
//   - 3D (Section 4.2, Figs. 4-5, "rods"): n1 a multiple of 3, n2 a multiple of n1, n3 >= 3. Three
//     cycles of n1*n2/3 laps: a zigzag (1,3,1,3,1) or, every (n1/3)-th lap, (1,3,1,3,2), followed by
//     n3-2 moves along x3. m = n1*n2*(n3+3)/3; steps floor(m/2) = floor(n1*n2*n3/6 + n1*n2/2),
//     Theorem 4 without its O(n1*n3) term.
//
// Feeding an OOC node C (why it differs from the paper): C has two neighbours X, Y on the cycle
// (length m), Y at l positions after X (l <= m - l). The paper lets X pass on only the packets
// walking backward and Y only those walking forward, for (m+l)/2 steps, and accepts the
// double-receives. Exactly-once makes that impossible: with one direction per feeder, X's packets
// form the arc [x, x+B_x] and Y's the arc [y-F_y, y], which cover the cycle only if
// B_x + F_y >= m + l - 1; every on-cycle node has B + F = m - 1 (it receives each position once);
// and every feeder of the paper's layouts serves two OOC nodes around a ring, so summing the
// inequality over the ring gives a contradiction. So both feeders pass
// on BOTH directions: X sends the packets walking backward from the inner arc (the positions
// between X and Y) and those walking forward from the outer arc, and Y does the mirror image.
// The inner arc is split between X and Y, the outer arc too, and the two splits are balanced.
// Every position reaches C exactly once, by step ~(m-l)/2 + 1 (<= the cycle's own floor(m/2)).
// For about l/2 steps a side link carries two positions in one message. Those merged messages are
// the cost; the paper instead pays about l/2 extra steps.
//
// The forwarding tables (core/forwarding_table.hpp, docs/forwarding-tables.md) are built from the
// same geometry as the schedule; schedule_from_tables() derives the schedule from them alone. The
// Hamiltonian decompositions are in hamiltonian.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/plain_schedule.hpp"
#include "core/forwarding_table.hpp"

namespace torx::sw {

struct GossipPlan {
  // Algorithm ("ms-hc" or "ms-one"), construction in words, dims, pieces, steps (prologue
  // included), injection step and the per-router tables.
  ForwardingTable table;
  int64_t max_message_pieces = 0;  // largest message, in pieces
  // Sum over the steps of the largest message of the step, in pieces: the feeding volume the
  // step model charges (seed 003's "normalized time" is steps * r + transmission_pieces / pieces).
  int64_t transmission_pieces = 0;
};

// Which ms-hc construction to use where there is a choice. Each is a registered algorithm id.
enum class MsHcVariant {
  // "ms-hc": Section 2.1's rule on 2D tori with both sides even, a Hamiltonian decomposition on
  // every other shape. On 2D tori with one odd side this takes P/2 steps with messages of one piece
  // of two (transmission P s/4), below the paper's Section 2.2 figure in steps and in transmission.
  kDefault,
  // "ms-hc-steps": as kDefault, but on 2D tori with one odd side the partial cycles of Section 2.2
  // with the re-packing step: 1 + floor(m/2) steps (m = P - n_even/2), the fewest of the three, for
  // larger messages (6 pieces per node, cycle messages of 4, merged feed messages of up to 7).
  kFewestSteps,
  // "ms-hc-hd": the Hamiltonian decomposition of hamiltonian.hpp on every shape, also where
  // Section 2.1's rule applies (different cycles, the same counts).
  kHamiltonian,
};

struct MsHcOptions {
  MsHcVariant variant = MsHcVariant::kDefault;
};

// The registry id of a variant: "ms-hc", "ms-hc-steps", "ms-hc-hd".
std::string ms_hc_id(MsHcVariant variant);

// An exact non-negative rational, for the paper's transmission in units of s (a node's data).
struct Fraction {
  int64_t num = 0;
  int64_t den = 1;
};

// Plans (tables + step count). Preconditions (std::invalid_argument naming the one violated):
// a torus (wrap), every side >= 3, node count below 2^31; ms-hc: any dimension count (for d >= 3 a
// decomposition must be found, see hamiltonian.hpp); ms-one: 2D with at least one even
// side, or 3D with n1 % 3 == 0, n2 % n1 == 0 (n3 >= 3 follows from the side rule).
GossipPlan plan_ms_hc(const PlainTopology& topo);
GossipPlan plan_ms_hc(const PlainTopology& topo, const MsHcOptions& options);
GossipPlan plan_ms_one(const PlainTopology& topo);

// The whole schedule derived from the tables alone: step 1 is the prologue if any; in step t >=
// inject_step a node sends on out port p the blocks injected with bit p (t == inject_step only)
// plus, for every rule (i -> p) whose window contains t, the blocks that arrived through in port i
// in step t-1. Empty messages are not sent; the schedule ends with its last non-empty step.
// `max_transfers` >= 0 bounds the block copies sent in all (a gossip sends N (N - 1) pieces): tables
// that copy more (a duplicate, or copies multiplying around a loop) throw InputError as soon as the
// bound is passed, before the payloads grow. -1: no bound (tests that want the checker to see the
// duplicates).
void schedule_from_tables(const ForwardingTable& table, const PlainStepSink& emit, int64_t max_transfers = -1);

// The schedules generated directly from the cycle geometry (closed-form stream positions).
void generate_ms_hc(const PlainTopology& topo, const PlainStepSink& emit);
void generate_ms_hc(const PlainTopology& topo, const MsHcOptions& options, const PlainStepSink& emit);
void generate_ms_one(const PlainTopology& topo, const PlainStepSink& emit);

// The paper's step counts: ms-hc 2D both even n1*n2/2 (Theorem 1); one side odd n1*n2/2 + 1 + n_odd
// (Section 2.2, its n2 being the odd side); both odd and d >= 3: ceil((P-1)/2) (the split-packet
// optimum of Section 2 for a Hamiltonian decomposition). ms-one 2D: floor(n1*n2/4 + n1/2 + n2/2) + 2
// with n1 the even side (Theorem 3); 3D: ceil(n1*n2*n3/6 + n1*n2/2), Theorem 4 without its
// O(n1*n3) double-receive term (the "T_one" of Section 5). Same preconditions as the plans.
int64_t ms_hc_formula_steps(const PlainTopology& topo);
int64_t ms_one_formula_steps(const PlainTopology& topo);
// The paper's transmission, in units of s: its steps times its packet size, s/2 (Theorem 1), s/d
// (Section 2, d cycles), (1 + 1/n_odd) s/2 (Section 2.2, one odd side), s (ms-one).
Fraction ms_hc_formula_transmission(const PlainTopology& topo);
Fraction ms_one_formula_transmission(const PlainTopology& topo);

}  // namespace torx::sw
