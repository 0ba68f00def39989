// SPDX-License-Identifier: Apache-2.0
// torx tables: the per-router forwarding tables of the oblivious gossip algorithms (seed 003) and
// the plan they encode (plan_tables), and the check of tables read from a file. Such tables are
// checked before anything uses them (`torx tables --check`, the routers of `--gossip-hw
// --gossip-tables FILE`): the schedule derived from the tables alone runs through the step model,
// and must deliver every piece to every node exactly once, in the steps the header declares, without
// a link or port conflict. Anything else is bad input.
#pragma once

#include <string>

#include "algorithms/meyer_sibeyn.hpp"
#include "core/forwarding_table.hpp"
#include "core/memory_limit.hpp"
#include "core/topology.hpp"

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
// `torx tables --check FILE`'s summary line: "FILE: ok: ms-hc on the 8x8 torus, ...".
std::string tables_check_text(const std::string& path, const sw::ForwardingTable& table, const TablesSummary& s);

// The plan of the gossip algorithm `algo` on `topo`: its forwarding tables and figures. Throws
// sw::InputError for an unknown algorithm or one without tables (naming those with), a
// PreconditionError outside its preconditions, and sw::WatchdogError when the planner's estimated
// memory exceeds `limit`.
struct TablesPlan {
  sw::Topology topology{{2}, true};
  sw::GossipPlan plan;
  size_t rules = 0;  // forwarding rules over all routers
};
TablesPlan plan_tables(const std::string& algo, const sw::Topology& topo, const sw::MemoryLimit& limit);
// The plan's summary: a document (JSON) and two lines for people.
std::string tables_json(const TablesPlan& p);
std::string tables_text(const TablesPlan& p);

}  // namespace torx::app
