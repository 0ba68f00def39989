// SPDX-License-Identifier: Apache-2.0
// Local synchronization (seed 000, Section 7.2): the barriers at a schedule's marked boundaries
// replaced by signals between node pairs, derived for any schedule from its step structure.
//
// Epochs. The marked boundaries (SyncMark::kBarrier) cut the steps into epochs; inside an epoch the
// schedule's author declared the steps self-synchronized (sync=none), across a boundary a barrier
// keeps every message of the earlier epochs from overlapping a message of the later ones. Only
// messages that would collide need that: two messages collide when they would share a directed link
// or an endpoint port (the receiver's ejection channel: one per node with one-port interfaces, one
// per arriving direction with all-port ones).
//
// Pairs. For every message m2 and every link or ejection channel it uses, the messages m1 that used
// the same resource in the most recent earlier epoch that used it at all must end before m2 starts
// (end: stored at the receiver; start: issued by the sender). Users of the resource in still earlier
// epochs need no pair of their own: they end before those m1 start, by the same rule applied to m1.
// Nor does an m1 that left the same injection channel of the same node before m2: m2 leaves after
// m1's tail and follows it on the common prefix of their routes (dimension-order routes from one node
// share a prefix and never meet again once they part), so it can only wait behind m1 if m1 itself
// waits, which the pairs of m1 prevent.
//
// Signals. The receiver R1 of m1 signals the sender S2 of m2 with a null message (a one-flit worm on
// the data network) once R1 has stored every message it receives before boundary b, the first marked
// boundary after m1's step; S2 issues none of its sends from the gated one on before the signal has
// arrived. Pairs are reduced to what is needed:
//   - one signal per (b, R1, S2), gating S2's first send (in program order) that needs it: S2's later
//     sends start after that one;
//   - a signal (b, R1, S2) is dropped when a signal (b', R1, S2) with b' > b gates the same or an
//     earlier send (R1's trigger at b' covers every receive before b);
//   - R1 = S2 needs no message: S2 waits until it has stored its own receives before b (a local wait).
// The triggers of the signals of boundary b depend only on messages of steps before b, so waiting
// for them cannot deadlock.
#pragma once

#include <cstdint>
#include <vector>

#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::sw {

// A message of the schedule by position.
struct MessageRef {
  uint32_t step = 0;
  uint32_t index = 0;
  bool operator==(const MessageRef& o) const { return step == o.step && index == o.index; }
  bool operator<(const MessageRef& o) const { return step != o.step ? step < o.step : index < o.index; }
};

// m1 must end before m2 starts.
struct SyncPair {
  MessageRef m1, m2;
};

struct SyncSignal {
  NodeId from = 0;     // R1: signals once it has stored every receive of steps < boundary
  NodeId to = 0;       // S2
  uint32_t boundary = 0;  // b: the first step of the epoch after m1's
  MessageRef gate;     // S2's first send that waits for it
};

// S2 = R1: S2 stores its receives of steps < boundary before it issues `gate`.
struct LocalWait {
  NodeId node = 0;
  uint32_t boundary = 0;
  MessageRef gate;
};

struct LocalSyncPlan {
  std::vector<SyncPair> pairs;        // every pair the rule finds (before the reduction)
  std::vector<SyncSignal> signals;    // null messages, after the reduction
  std::vector<LocalWait> local_waits;
  uint32_t boundaries = 0;            // marked boundaries of the schedule
};

// `ports`: the interfaces' port model (all-port: an ejection channel per arriving direction).
LocalSyncPlan derive_local_sync(const Schedule& schedule, const Topology& topo, PortModel ports);

}  // namespace torx::sw
