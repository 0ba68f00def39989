// SPDX-License-Identifier: Apache-2.0
// Plain, uncompressed schedule form. Generators whose sizes stay moderate (meshes, product networks,
// broadcast, gossip) build this form; `compress_plain_schedule()` (schedule_builder.hpp) turns it into
// the compact, box-based `Schedule` that the step model, the file format and the loaders consume.
//
// Conventions shared by every generator:
// - Node ids (x fastest) and port numbers are those of core/topology.hpp.
// - A route is dimension order over a cyclic rotation of the dimensions starting at `start_dim`,
//   with one direction per dimension (+1 or -1). A direction of 0 means "the shortest way" (ties go
//   positive; on a mesh the direction is the only legal one).
// - Block ids depend on the collective:
//     alltoall  (personalized): id = src * N + dst       (src != dst; a node's block to itself is not sent)
//     broadcast:                id = piece                (0 <= piece < pieces; the source is the root)
//     allgather (gossip):       id = src * pieces + piece
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace torx::sw {

struct PlainRoute {
  int start_dim = 0;           // first dimension travelled; the others follow cyclically
  std::vector<int8_t> dir;     // per dimension: +1, -1, or 0 (shortest); empty = all shortest
};

struct PlainMessage {
  int64_t src = 0;
  int64_t dst = 0;
  PlainRoute route;
  std::vector<uint64_t> blocks;  // block ids (see the conventions above)
};

struct PlainStep {
  std::string label;             // e.g. "phase1", "GP0"; carried into the schedule file
  std::vector<PlainMessage> messages;
};

struct PlainSchedule {
  std::vector<PlainStep> steps;
};

// The network a plain generator targets: radix per dimension (x first) and wraparound.
struct PlainTopology {
  std::vector<int> dims;
  bool wrap = true;  // true: torus; false: mesh (linear arrays)
};

// Generators emit their steps one at a time, so that very long schedules (store-and-forward total
// exchange on a 12x12x12 torus has tens of thousands of steps) never have to sit in memory whole.
using PlainStepSink = std::function<void(PlainStep&&)>;

}  // namespace torx::sw
