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

#include "core/blocks.hpp"
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

// Which of a plan's signals are needed: an analysis (--sync local sends every LocalSyncPlan::signal;
// `torx stats --sync local` reports the counts, docs/sync-study.md "Are the extra signals needed?").
//
// The events of a run under local synchronization: I(m) a message issued by its sender, S(m) stored
// by its receiver, T(v, b) node v has stored every message it receives in steps < b (the trigger of
// v's signals and local waits at boundary b). What orders them without any signal:
//   - I(m) before S(m);
//   - each node issues its sends in program order (step order, then schedule order);
//   - S(m) before T(dst(m), b) for every boundary b after m's step;
//   - a local wait (S2 = R1) orders T(R1, b) before I(gate);
//   - data: a node issues a send only when it holds every block the send carries. A block a node
//     does not start with and receives in exactly one message m_in of the schedule orders S(m_in)
//     before I(m_out) if it is m_in's last block (its store is m_in's store), else only I(m_in)
//     before I(m_out) (the block is stored before the rest of m_in).
// A signal adds T(R1, b) before I(gate). The plan's pairs (m1 ends before m2 starts) each need
// S(m1) before I(m2). A signal is implied when every pair stays ordered through the other orderings
// without it. The reduction tries the signals from the last (boundary, gate) to the first and drops
// each one that is implied by what is left, so the kept set is irreducible (every kept signal is
// needed by some pair), not necessarily the smallest such set.
struct SyncReduction {
  std::vector<SyncSignal> kept;     // needed: dropping any one leaves a pair unordered
  std::vector<SyncSignal> implied;  // dropped: every pair stays ordered without them
  uint64_t data_orderings = 0;      // data orderings found (I(m_in) or S(m_in) before I(m_out))
};

// Throws InputError if the analysis would hold more than `max_bytes` of reachability sets.
SyncReduction reduce_local_sync(const LocalSyncPlan& plan, const Schedule& schedule, const Topology& topo,
                                uint64_t max_bytes = uint64_t{2} << 30);

}  // namespace torx::sw
