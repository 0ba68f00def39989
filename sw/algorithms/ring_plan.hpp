// SPDX-License-Identifier: Apache-2.0
// Ring complete exchange by overlapped gather-scatter trees (Tseng, Ni, Sheu, "Toward Optimal
// Complete Exchange on Wormhole-Routed Tori", IEEE TC 48(10), 1999; seed 000 of this project).
//
// Model. n nodes v_0..v_{n-1} on a bidirectional ring; node s owns one block b_s^t for every t != s.
// A step is one phase: every node sends at most one message and receives at most one message
// (one-port), a message is one wormhole worm that may travel several hops in one direction, and two
// messages of a step never share a directed link. Sending MOVES blocks; a node only sends blocks it
// holds when the step starts. A block on the positive tree only travels in + direction, a block on
// the negative tree only in - direction, and never past its destination.
//
// Construction (docs/ring.md gives the derivations):
//  * n = 2^d, d >= 3 (Section 2): the positive gather-scatter tree of Definition 1
//    (GP_l = SP_l = {v_i -> v_{i+2^l} : i mod 2^l = 0}) overlapped with the negative tree obtained by
//    reflecting it with i -> (1 - i) mod n. That reflection is exactly the Section 2.4 shift of the
//    negative phases l >= 1 by one position. GP_0/SP_0 are the modified phases of Section 2.4
//    (GP_0^+: odd senders, SP_0^+: even senders, GP_0^-: even senders, SP_0^-: odd senders).
//    Steps 2d-2, transmission = Lemma 6 + 3 (d = 3) or + 2 (d >= 4), i.e. Theorem 1.
//  * build_positive_tree(d): the ORIGINAL positive phases of Definition 1 (no Section 2.4 change),
//    positive blocks b_s^{s+1..s+2^{d-1}} only; its per-phase maxima are Lemmas 2-5 (Corollary 1).
//  * Even n, "pow2-pairs": the 2^D plan (D = ceil(lg n)) with (2^D - n)/2 virtual pairs {4q+2, 4q+3}
//    removed and every real block routed along the image of its virtual route; each real message is a
//    subset of one virtual message, so the transmission is at most T_1D(D) (Theorem 1) for every even
//    n (2^D <= 2048).
//  * Even n, "even": the positive tree with destinations past n-1 wrapped to v_0 (Section 5), the
//    negative tree its reflection i -> 1 - i, GP_0/SP_0 as above.
//  * Odd n (not covered by the paper, which leaves the one-port overlap open): both full trees cannot
//    share level 1 (the parity defect, docs/ring.md). Candidates:
//      - "odd-gadget": positive tree on the evens (rooted so that v_{n-1} is a level-1-only node),
//        negative tree on the odd nodes with v_0 left out; v_0 hands its negative blocks to v_{n-1}
//        in GP_1 (freed by dropping the cheap Case-2 edges v_0 -> v_2 and v_{n-3} -> v_{n-1}), and
//        v_{n-1} joins the negative tree on levels >= 2 by splitting the level edge that crosses v_0;
//        SP_0^- delivers v_1 -> v_0.
//      - "odd-s1": positive tree of Section 5, negative tree on the odd nodes (rooted at v_{n-2});
//        blocks whose own tree cannot reach them (v_0's negative blocks, negative blocks for v_{n-1})
//        travel the other way round the ring.
//      - "contracted": the 2^D skeleton contracted onto the nodes left after removing pairs as above
//        and one single phantom (at 2^D/4 - 1 or 2^D - 1); images of edges touching a phantom are
//        kept only where their real sender and receiver are free (2^D <= 2048).
//    Any block that its own tree cannot deliver takes the other tree (the long way); its hops then
//    equal its distance in that direction (no overshoot), so the plan stays conflict-free.
//  * n = 2, 3, 4, 5, 7: small explicit skeletons (n = 4 needs long-way blocks: a 2-step exchange
//    with shortest paths only does not exist; n = 5, 7 were found by exhaustive SAT search).
//
// Routing. Every skeleton is routed by one rule, which for n = 2^d reproduces the paper's Case 1 /
// Case 2 rules of Section 2.2-2.3 exactly (inner test v_i in V_{l+1}; all of GP_{d-2} uses Case 2):
// a block at node i with remaining distance r, facing this step's edge i -> j of hop h in its tree,
// moves if it can no longer be delivered by staying, stays if moving would make it undeliverable,
// and when both are possible follows a tie rule: move iff level(j) <= level(i), where level(x) is
// the highest gathering phase in which x sends in that tree (Observation 1: leave the block at the
// less busy node), or "<", "always move", "always stay". For n not a power of two every candidate
// skeleton is routed with each rule, and a plan still above Theorem 1's count (n <= 1024) is refined
// one (tree, step) rule at a time; the plan with the smallest transmission, then the fewest long-way
// blocks, then the first candidate is kept (deterministic). Reachability is precomputed backwards as
// interval sets; blocks move as runs of consecutive destinations of one source; for n = 2^d only
// the sources 0..n/4-1 are routed and the rest follows by rotation. build_plan(4096) takes a few
// hundred milliseconds and yields ~17 million runs (~200 MB): in SP_0 every message carries single
// blocks of n/2 sources, so the run count is inherent to the BlockRun interface.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace torx::sw::ring {

struct BlockRun {
  int src = 0;
  int first_dst = 0;  // destinations first_dst, first_dst+1, ... (mod n), `count` of them
  int count = 0;
};

struct Transmission {
  int from = 0;
  int to = 0;
  int dir = 1;  // +1 or -1: direction travelled; hops = (to - from) * dir mod n
  std::vector<BlockRun> blocks;
};

struct Phase {
  std::string label;  // "GP0".."GP{D-2}", "SP{D-2}".."SP0"
  std::vector<Transmission> tx;
};

// A null-message signal (Section 7.2): after its step-p receive completes, `from` notifies `to`,
// which must not start its step p+1 send before the signal arrives.
struct SignalPair {
  int from = 0;
  int to = 0;
};

struct Plan {
  int n = 0;
  std::vector<Phase> phases;
  // Section 7: barrier_after[p] is true when the boundary between phase p and p+1 is not
  // self-synchronized (some phase-(p+1) message may contend for a directed link or a receive port
  // with a phase-p message whose sender or receiver it is not). Always false for the last phase.
  std::vector<bool> barrier_after;
  // signals[p]: the local-synchronization pairs that replace barrier p (empty when no barrier).
  std::vector<std::vector<SignalPair>> signals;
  // "pow2", "pow2-pairs", "even", "odd-gadget", "odd-s1", "contracted", "small", "pos-tree", with the
  // tie rule appended where it is not the paper's ("/lt", "/move", "/stay", "/per-step").
  std::string construction;
  int64_t long_way_blocks = 0;   // blocks routed on the tree of the longer direction
};

// The full overlapped one-port complete exchange; n >= 2. Steps: 2*ceil(lg n) - 2 for n >= 3,
// one step for n = 2.
Plan build_plan(int n);
// The peak bytes build_plan(n) holds: its block runs grow with n^2 (the peak resident set of
// `torx stats ring --topo N`, less the program's own, was 16.2 n^2 bytes at n = 3000 and 15.3 at
// 6000, 13.9 at 8192): 18 n^2 bytes, an upper bound checked before planning (issue 31).
inline uint64_t plan_bytes(int n) { return uint64_t{18} * static_cast<uint64_t>(n) * static_cast<uint64_t>(n); }

// The original positive phases of Definition 1 (no Section 2.4 change) for n = 2^d, d >= 3, carrying
// only the positive blocks b_s^{s+1..s+2^{d-1}}.
Plan build_positive_tree(int d);

// T_1D(d, b) / (b t_x): Theorem 1 (= Lemma 6 + 3 for d = 3, Lemma 6 + 2 for d >= 4); d >= 3.
int64_t theorem1_transmission_blocks(int d);

// T^+_1D(d, b) / (b t_x) of Lemma 6; d >= 3.
int64_t lemma6_transmission_blocks(int d);

// Per phase of the original positive tree, in the order GP_0..GP_{d-2}, SP_{d-2}..SP_0:
// Lemma 2 (max resolved as in Corollary 1), Lemma 3, Lemma 4, Lemma 5; d >= 3.
std::vector<int64_t> lemma_phase_blocks(int d);

// Sum over phases of the largest message, in blocks.
int64_t transmission_blocks(const Plan& plan);

// Largest message of each phase, in blocks.
std::vector<int64_t> phase_max_blocks(const Plan& plan);

}  // namespace torx::sw::ring
