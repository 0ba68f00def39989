// SPDX-License-Identifier: Apache-2.0
#include "app/tables.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "core/blocks.hpp"
#include "core/checker.hpp"
#include "core/errors.hpp"
#include "core/step_model.hpp"

namespace torx::app {

TablesSummary verify_forwarding_table(const sw::ForwardingTable& tab, const std::string& origin) {
  const sw::Topology topo(tab.dims, true);
  sw::StepModelOptions smo;
  smo.origin = origin;
  sw::StepModel model(topo, smo);
  sw::ScheduleHeader h;
  h.algorithm = tab.algorithm;
  h.collective = sw::Collective::kAllgather;
  h.dims = tab.dims;
  h.ports = sw::PortModel::kAll;
  h.switching = sw::Switching::kStoreAndForward;
  h.pieces = tab.pieces;
  model.begin(h);
  const sw::BlockSpace space(sw::Collective::kAllgather, topo, tab.pieces, 0);
  sw::PlainStepAdapter adapter(topo, space, model, tab.steps);
  // A gossip delivers N (N - 1) pieces in all; tables that copy more are refused before they grow.
  const int64_t transfers = int64_t{topo.nodes()} * (topo.nodes() - 1) * tab.pieces;
  try {
    sw::schedule_from_tables(tab, [&](sw::PlainStep&& s) { adapter(std::move(s)); }, transfers);
  } catch (const sw::InputError& e) {
    throw sw::InputError(fmt::format("{}: {}", origin, e.what()));
  }
  model.end();
  const sw::CheckResult c = sw::check_delivery(model);
  const sw::StepModelResult& r = model.result();
  if (!c.ok)
    throw sw::InputError(fmt::format("{}: the tables do not deliver every piece exactly once: {} missing, {} duplicated, "
                                     "{} misdelivered{}",
                                     origin, c.missing, c.duplicated, c.misdelivered,
                                     c.examples.empty() ? "" : " (" + c.examples.front() + ")"));
  if (r.steps != tab.steps)
    throw sw::InputError(
        fmt::format("{}: the header declares {} steps but the tables run for {}", origin, tab.steps, r.steps));
  if (r.link_conflicts || r.port_conflicts)
    throw sw::InputError(fmt::format("{}: the derived schedule has {} link and {} port conflicts", origin,
                                     r.link_conflicts, r.port_conflicts));
  TablesSummary s;
  for (const auto& rs : tab.rules) s.rules += static_cast<int64_t>(rs.size());
  s.prologue = static_cast<int64_t>(tab.prologue.size());
  s.transmission_blocks = r.transmission_blocks;
  return s;
}

sw::ForwardingTable read_forwarding_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw sw::InputError(fmt::format("{}: is a directory, not a forwarding-table file", path));
  std::ifstream in(path);
  if (!in) throw sw::InputError(fmt::format("{}: cannot open for reading", path));
  return sw::read_forwarding_table(in, path);
}

std::string tables_check_text(const std::string& path, const sw::ForwardingTable& tab, const TablesSummary& r) {
  const sw::Topology topo(tab.dims, true);
  return fmt::format("{}: ok: {} on the {}, {} pieces per node, {} steps, {} forwarding rules, {} prologue "
                     "messages; every piece delivered exactly once, transmission {} pieces\n",
                     path, tab.algorithm, topo.to_string(), tab.pieces, tab.steps, r.rules, r.prologue,
                     r.transmission_blocks);
}

TablesPlan plan_tables(const std::string& algo_id, const sw::Topology& topo, const sw::MemoryLimit& limit) {
  const sw::Algorithm& algo = sw::lookup_algorithm(algo_id);
  if (!algo.gossip_plan)
    throw sw::InputError(fmt::format("tables: '{}' has no forwarding tables ({} have)", algo_id,
                                     sw::algorithm_ids(", ", true)));
  // The planner's tables and lists, estimated before it starts (core/forwarding_table.hpp); its
  // precondition check already plans.
  sw::require_memory(limit, sw::gossip_tables_peak_bytes(topo.radices()),
                     fmt::format("planning the {} forwarding tables of the {}", algo_id, topo.to_string()),
                     fmt::format("{} nodes", topo.nodes()));
  algo.check(topo, {});
  TablesPlan p{topo, algo.gossip_plan(topo, {}), 0};
  for (const auto& r : p.plan.table.rules) p.rules += r.size();
  return p;
}

std::string tables_json(const TablesPlan& p) {
  const sw::ForwardingTable& tab = p.plan.table;
  nlohmann::ordered_json j;
  j["algorithm"] = tab.algorithm;
  j["topology"] = {{"dims", p.topology.radices()}, {"wrap", p.topology.wrap()}, {"nodes", p.topology.nodes()}};
  j["construction"] = tab.construction;
  j["pieces"] = tab.pieces;
  j["steps"] = tab.steps;
  j["injection_step"] = tab.inject_step;
  j["prologue_messages"] = tab.prologue.size();
  j["forwarding_rules"] = p.rules;
  j["largest_message_pieces"] = p.plan.max_message_pieces;
  j["transmission_pieces"] = p.plan.transmission_pieces;
  return j.dump(2) + "\n";
}

std::string tables_text(const TablesPlan& p) {
  const sw::ForwardingTable& tab = p.plan.table;
  return fmt::format("{} on the {}: {}\n  {} pieces per node, {} steps (injection at step {}), {} forwarding rules, "
                     "largest message {} pieces, transmission {} pieces\n",
                     tab.algorithm, p.topology.to_string(), tab.construction, tab.pieces, tab.steps, tab.inject_step,
                     p.rules, p.plan.max_message_pieces, p.plan.transmission_pieces);
}

}  // namespace torx::app
