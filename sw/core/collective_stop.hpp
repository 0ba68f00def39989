// SPDX-License-Identifier: Apache-2.0
// CollectiveStop: a WatchdogError every rank of a partitioned run (docs/distributed.md) raises
// together, at the same cycle, from the same network-wide judgement (a stall, a cycle limit): rank 0
// reports it and the ranks end MPI normally, where a failure of one rank alone aborts them all.
#pragma once

#include "core/errors.hpp"

namespace torx::sw {

class CollectiveStop : public WatchdogError {
 public:
  using WatchdogError::WatchdogError;
};

}  // namespace torx::sw
