// SPDX-License-Identifier: Apache-2.0
// What a model reports at the end of a run, for the checker: which node holds which block, how
// often each node received it, and whether the copy a node holds is intact. The step model, the
// cycle model's network-interface memories and the RTL co-simulation all present this view, so one
// checker judges every model.
#pragma once

#include <cstdint>

#include "core/blocks.hpp"

namespace torx::sw {

class DeliveryView {
 public:
  virtual ~DeliveryView() = default;
  virtual const BlockSpace& space() const = 0;
  // Personalized collectives (blocks move): the node holding the block at the end.
  virtual NodeId holder(BlockId b) const = 0;
  // Copy collectives: whether `node` holds a copy at the end.
  virtual bool holds(BlockId b, NodeId node) const = 0;
  // How many times `node` received the block during the run.
  virtual uint32_t arrivals(BlockId b, NodeId node) const = 0;
  // Whether the copy `node` holds has the content its identity prescribes (ContentModel).
  virtual bool intact(BlockId b, NodeId node) const = 0;
  // A part of the network's memories (one rank's, in a partitioned run): the checker judges only
  // the deliveries to the nodes it checks, and the parts' results are summed (models/partitioned.hpp).
  virtual bool partial() const { return false; }
  virtual bool checks(NodeId) const { return true; }
};

}  // namespace torx::sw
