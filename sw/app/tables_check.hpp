// SPDX-License-Identifier: Apache-2.0
// Forwarding tables read from a file are checked before anything uses them (`torx tables --check`,
// the routers of `--gossip-hw --gossip-tables FILE`): the schedule derived from the tables alone
// runs through the step model, and must deliver every piece to every node exactly once, in the
// steps the header declares, without a link or port conflict. Anything else is bad input.
#pragma once

#include <string>

#include "core/forwarding_table.hpp"

namespace torx::app {

struct TablesSummary {
  int64_t rules = 0;
  int64_t prologue = 0;
  int64_t transmission_blocks = 0;
};

// Throws sw::InputError starting with `origin` and naming what is wrong.
TablesSummary verify_forwarding_table(const sw::ForwardingTable& table, const std::string& origin);

// Reads FILE with sw::read_forwarding_table (every record in range; not yet verified); throws
// sw::InputError for a directory, an unreadable or a malformed file.
sw::ForwardingTable read_forwarding_file(const std::string& path);

}  // namespace torx::app
