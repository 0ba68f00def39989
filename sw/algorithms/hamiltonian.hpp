// SPDX-License-Identifier: Apache-2.0
// Edge-disjoint Hamiltonian decompositions of tori: d cycles through every node of a d-dimensional
// torus (every side >= 3) that together use every link exactly once. Seed 003 (Meyer and Sibeyn,
// Section 2) gossips on them with split packets; it gives the rule of Section 2.1 for 2D tori with
// both sides even and defers the other shapes to its technical report and to [2] (Aubert and
// Schneider). What is built:
//   - 1D: the ring.
//   - 2D: square switching from the row/column colouring: the "diagonal" family (colour of a node's
//     +x edge a function of (x+y) mod gcd), a "staircase" of switches followed by twists (shorter
//     side odd), greedy merges from a diagonal start, or Section 2.1's rule; the first that gives
//     two single cycles wins.
//   - d >= 3: a product construction in the spirit of [2]: decompose the first d-1 dimensions into
//     H_1..H_{d-1}, decompose the 2D torus H_1 x C_{n_d} into two cycles, then splice the n_d layer
//     copies of every other H_j into one cycle by "twist" switches on unit squares; the dimension
//     orders are tried in turn, then the same with a bounded repair search (unit-square switches)
//     for shapes where no twist exists (e.g. 4x4x6).
// Verified: every 2D shape 3..16, every 3D shape 3..8, 4D/5D examples, the cubes 4^3, 16^3, 64^3.
#pragma once

#include <cstdint>
#include <vector>

#include "core/topology.hpp"

namespace torx::sw {

// Node limit of the cycle constructions (node ids and edge keys are int64, cycles are walked as
// int32 node ids of a Topology, which is smaller still).
inline constexpr int64_t kMaxCycleTorusNodes = int64_t{1} << 31;

// The tori the cycle constructions accept: a torus, at least one dimension, every side >= 3 (so a
// node's + and - neighbours differ), fewer than 2^31 nodes. Throws std::invalid_argument naming
// `who` and the violated condition.
void check_cycle_torus(const std::vector<int>& dims, bool wrap, const char* who);

// d edge-disjoint Hamiltonian cycles of the torus `dims`, each as the sequence of node ids it
// visits (node ids as in core/topology.hpp). Throws std::invalid_argument if the shape is refused
// or no decomposition is found.
std::vector<std::vector<int64_t>> hamiltonian_decomposition(const std::vector<int>& dims);

// Section 2.1's rule (Fig. 1) for an n1 x n2 torus with both sides even: its two Hamiltonian
// cycles. Throws std::invalid_argument for an odd side.
std::vector<std::vector<int64_t>> section21_decomposition(int n1, int n2);

// Key of the undirected link {u, w} between neighbours u and w (sides >= 3): the lower endpoint (in
// the + sense) times ndims plus the dimension. Throws std::logic_error if they are not neighbours.
int64_t undirected_edge(const Topology& t, int64_t u, int64_t w);

}  // namespace torx::sw
