// SPDX-License-Identifier: Apache-2.0
// The checker: verifies a collective's postcondition from a model's DeliveryView and counts what is
// wrong. Every required (block, destination) delivery is examined:
//   expected      deliveries the collective requires (N(N-1) for a complete exchange on N nodes,
//                 (N-1)*pieces for a broadcast, N(N-1)*pieces for a gossip);
//   delivered     required deliveries whose destination holds the block at the end;
//   missing       required deliveries whose destination does not hold it (expected - delivered);
//   duplicated    arrivals beyond the first: a block reaching its destination again, or a copy
//                 reaching a node that already held it;
//   misdelivered  blocks that ended at a node that is neither their destination nor their source
//                 (a personalized block stranded at a relay or sent to the wrong node);
//   corrupted     delivered blocks whose content differs from what their identity prescribes.
// The run passes when nothing is missing, duplicated, misdelivered or corrupted.
// A partial view (one rank's nodes) is judged on the deliveries to its nodes only: `expected`
// stays the whole collective's, the other counts are the part's (summed over the parts, they are
// the whole network's; ok is then decided from the sums: models/partitioned.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/delivery.hpp"

namespace torx::sw {

struct CheckResult {
  bool ok = false;
  uint64_t expected = 0;
  uint64_t delivered = 0;
  uint64_t missing = 0;
  uint64_t duplicated = 0;
  uint64_t misdelivered = 0;
  uint64_t corrupted = 0;
  std::vector<std::string> examples;  // the first few faults, described
  // Where each example comes from in the checker's order (block, then node): a partitioned run
  // merges the ranks' examples by it into one process's order. Not part of any document.
  std::vector<uint64_t> example_keys;
};

CheckResult check_delivery(const DeliveryView& view, size_t max_examples = 8);

}  // namespace torx::sw
