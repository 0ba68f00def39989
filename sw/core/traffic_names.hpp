// SPDX-License-Identifier: Apache-2.0
// The vocabulary of synthetic traffic (torx traffic, docs/traffic.md) that the models and the
// application share: the destination patterns, the injection processes and the planted faults, each
// an enum with its table of names (core/names.hpp), read by the command line's parsing, its help, its
// errors and the result document. What each pattern means is models/traffic_pattern.hpp's.
#pragma once

#include <cstdint>

#include "core/names.hpp"

namespace torx::sw {

enum class PatternKind : uint8_t {
  kUniform,
  kTranspose,
  kBitComplement,
  kBitReverse,
  kShuffle,
  kTornado,
  kNeighbor,
  kHotSpot,
  kMatrix
};
inline constexpr Named<PatternKind> kTrafficPatterns[] = {
    {PatternKind::kUniform, "uniform"},   {PatternKind::kTranspose, "transpose"},
    {PatternKind::kBitComplement, "bit-complement"}, {PatternKind::kBitReverse, "bit-reverse"},
    {PatternKind::kShuffle, "shuffle"},   {PatternKind::kTornado, "tornado"},
    {PatternKind::kNeighbor, "neighbor"}, {PatternKind::kHotSpot, "hot-spot"},
    {PatternKind::kMatrix, "matrix"}};

// Bernoulli: each node offers a packet in a cycle with probability rate / mean packet length; on-off:
// BookSim's two-state process (burst_alpha, burst_beta, burst_r1).
enum class InjectionKind : uint8_t { kBernoulli, kOnOff };
inline constexpr Named<InjectionKind> kInjectionKinds[] = {{InjectionKind::kBernoulli, "bernoulli"},
                                                           {InjectionKind::kOnOff, "on_off"}};

// Planted faults, for proving the checker (docs/traffic.md, "Checking"): node 0 damages its first
// measured packet.
enum class TrafficFault : uint8_t {
  kNone,
  kCorrupt,     // one payload bit of its head flit flipped
  kMisdeliver,  // the head carries (and is routed to) another destination than the packet's
  kDrop,        // the packet is taken from the queue as injected, but no flit of it is sent
  kDuplicate    // the packet is sent twice
};
inline constexpr Named<TrafficFault> kTrafficFaults[] = {{TrafficFault::kCorrupt, "corrupt"},
                                                         {TrafficFault::kMisdeliver, "misdeliver"},
                                                         {TrafficFault::kDrop, "drop"},
                                                         {TrafficFault::kDuplicate, "duplicate"}};

}  // namespace torx::sw
