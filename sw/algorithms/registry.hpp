// SPDX-License-Identifier: Apache-2.0
// The algorithm registry: every schedule generator with its collective, port and switching model,
// preconditions, source paper, closed forms and lower bounds. `torx list` prints it; `torx run` and
// `torx schedule` look algorithms up here. The registry is immutable once built.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bounds.hpp"
#include "core/schedule.hpp"

namespace torx::sw {

struct GossipPlan;  // algorithms/meyer_sibeyn.hpp

struct AlgorithmOptions {
  NodeId root = 0;      // broadcast source
  uint64_t seed = 1;
};

struct Algorithm {
  std::string id;
  Collective collective = Collective::kAlltoall;
  PortModel ports = PortModel::kOne;
  Switching switching = Switching::kWormhole;
  std::string preconditions;  // in words, as `torx list` prints them
  std::string paper;          // source paper and sections
  std::string summary;        // one line
  // Throws PreconditionError naming the violated precondition.
  std::function<void(const Topology&, const AlgorithmOptions&)> check;
  // Streams the schedule into the sink (begin, steps, end). Call check() first.
  std::function<void(const Topology&, const AlgorithmOptions&, ScheduleSink&)> generate;
  std::function<std::optional<Bound>(const Topology&, const AlgorithmOptions&)> formula;
  std::function<std::optional<Bound>(const Topology&, const AlgorithmOptions&)> lower_bound;
  std::function<std::vector<NamedBound>(const Topology&, const AlgorithmOptions&)> extras;
  // Algorithm-specific figures for the result document's "facts" (e.g. seed 002's rearrangements).
  std::function<std::vector<std::pair<std::string, int64_t>>(const Topology&, const AlgorithmOptions&)> facts;
  // Pieces per node (gossip) or of the message (broadcast); 1 if unset.
  std::function<int(const Topology&, const AlgorithmOptions&)> pieces;
  // Oblivious gossip only: the per-router forwarding tables and the plan they encode (torx tables).
  std::function<GossipPlan(const Topology&, const AlgorithmOptions&)> gossip_plan;
  // The bytes the generator holds while it plans, beyond the step it hands over (the ring plans of
  // the Tseng family grow with the square of a side); checked against the memory limit before
  // generate() by torx run, stats and schedule. Unset: nothing beyond a step.
  std::function<uint64_t(const Topology&, const AlgorithmOptions&)> plan_bytes;
};

// An entry with what `torx list` prints; the registration sets its functions after.
Algorithm make_algorithm(std::string id, Collective collective, PortModel ports, Switching switching,
                         std::string preconditions, std::string paper, std::string summary);

const std::vector<Algorithm>& algorithms();
// nullptr if unknown.
const Algorithm* find_algorithm(const std::string& id);
// The algorithm `id`; throws InputError "unknown algorithm 'id' (known: direct, ring, ...)".
const Algorithm& lookup_algorithm(const std::string& id);
// The ids in registry order, joined by `sep` (the last by `last` if given: "a, b or c");
// `gossip_only`: those with forwarding tables.
std::string algorithm_ids(std::string_view sep, bool gossip_only = false, std::string_view last = {});

// Registration functions: each algorithm registers itself in its own source file; algorithms()
// calls them in this order (the order of `torx list`).
void register_direct(std::vector<Algorithm>& out);        // direct.cpp
void register_ring(std::vector<Algorithm>& out);          // tseng.cpp: ring, t1, t4, c1, c64, tseng-dd
void register_suh(std::vector<Algorithm>& out);           // suh.cpp
void register_tsay_wang(std::vector<Algorithm>& out);     // tsay_wang.cpp
void register_dimak(std::vector<Algorithm>& out);         // dimak.cpp: dimak-a2, dimak-a3
void register_meyer_sibeyn(std::vector<Algorithm>& out);  // meyer_sibeyn.cpp: ms-hc, ms-hc-steps, ms-hc-hd, ms-one

// Helpers shared by generators.
ScheduleHeader make_header(const Algorithm& algo, const Topology& topo, const AlgorithmOptions& opt, int64_t steps);
// Priority of step k (0-based) out of `total`: earlier phases are more urgent (seed 000, Section 7.3).
uint8_t phase_priority(int64_t k, int64_t total);
// A box holding the single block id `b` (alltoall: one source and one destination).
std::vector<AxisRange> single_block_box(const BlockSpace& space, BlockId b);

// Lower bounds for a complete exchange on `topo`, after seed 000 Lemma 8: startups ceil(log2 N)
// (one-port) or ceil(log_{2D+1} N) (all-port); transmission from the bisection (blocks that must
// cross the cut of the largest dimension, divided by the links crossing it in one direction) and,
// one-port, from the N-1 blocks every node must receive.
Bound alltoall_lower_bound(const Topology& topo, PortModel ports);

}  // namespace torx::sw
