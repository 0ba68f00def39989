// SPDX-License-Identifier: Apache-2.0
#include "app/reproduce.hpp"

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "algorithms/tseng.hpp"
#include "core/checker.hpp"
#include "core/step_model.hpp"

namespace torx::app {

namespace {

constexpr int64_t kGenerateNodes = int64_t{1} << 21;  // generate and count up to this many nodes
constexpr int64_t kTrackBlocks = int64_t{1} << 26;    // ... and track every block up to this many

// The plan's counts of family `id` on `dims` (T1 and C1: one logical torus over every dimension).
sw::tseng::SchemeCounts plan_counts(const std::string& id, const std::vector<int>& dims) {
  if (id == "t4") return sw::tseng::scheme_counts(dims, sw::tseng::t4_scheme());
  if (id == "c64") return sw::tseng::scheme_counts(dims, sw::tseng::c64_scheme());
  sw::tseng::PartitionedScheme plain;
  sw::tseng::LogicalTorus t;
  t.offset.assign(dims.size(), 0);
  for (int k = 0; k < static_cast<int>(dims.size()); ++k) t.stages.push_back(k);
  plain.tori.push_back(t);
  return sw::tseng::scheme_counts(dims, plain);
}

// Generates the family's schedule on `topo` and checks it against the plan's counts; returns what
// was verified.
std::string verify_generated(const std::string& id, const sw::Topology& topo, const sw::tseng::SchemeCounts& counts) {
  const int64_t nodes = topo.nodes();
  const bool track = nodes * nodes <= kTrackBlocks;
  sw::StepModelOptions smo;
  smo.track_blocks = track;
  sw::StepModel model(topo, smo);
  sw::lookup_algorithm(id).generate(topo, {}, model);
  const auto& r = model.result();
  bool same = r.per_step.size() == counts.step_max_blocks.size();
  for (size_t k = 0; same && k < r.per_step.size(); ++k)
    same = static_cast<int64_t>(r.per_step[k].max_blocks) == counts.step_max_blocks[k];
  if (!same || r.port_conflicts || r.link_conflicts)
    throw std::logic_error(fmt::format("reproduce: {} on {}: the generated schedule ({} steps, {} blocks, {} conflicts) "
                                       "disagrees with the plan",
                                       id, topo.to_string(), r.steps, r.transmission_blocks,
                                       r.port_conflicts + r.link_conflicts));
  if (track && !sw::check_delivery(model).ok)
    throw std::logic_error(fmt::format("reproduce: {} on {} does not deliver", id, topo.to_string()));
  return track ? "generated, every block checked" : "generated and counted";
}

}  // namespace

std::vector<ReproduceFamily> reproduce_tseng(const ReproduceProgressFn& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  struct Range {
    const char* id;
    int dims;
    int d_lo, d_hi;
  } const ranges[] = {{"t1", 2, 3, 12}, {"t4", 2, 3, 12}, {"c1", 3, 3, 10}, {"c64", 3, 3, 10}};
  std::vector<ReproduceFamily> out;
  for (const Range& f : ranges) {
    ReproduceFamily fam{f.id, f.dims, {}};
    for (int d = f.d_lo; d <= f.d_hi; ++d) {
      const std::vector<int> dims(f.dims, 1 << d);
      const sw::tseng::SchemeCounts counts = plan_counts(f.id, dims);
      int64_t nodes = 1;
      for (int r : dims) nodes *= r;
      std::string verified = "plan";
      if (nodes <= kGenerateNodes) {  // (larger tori are beyond what a Topology holds)
        const sw::Topology topo(dims, true);
        if (progress) progress({f.id, d, false, topo.to_string(), nodes, "", 0});
        verified = verify_generated(f.id, topo, counts);
      }
      fam.rows.push_back({d, 1 << d, static_cast<int64_t>(counts.step_max_blocks.size()), counts.transmission_blocks,
                          verified});
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (progress) progress({f.id, d, true, "", nodes, verified, secs});
    }
    out.push_back(std::move(fam));
  }
  return out;
}

std::string reproduce_json(const std::vector<ReproduceFamily>& families) {
  nlohmann::ordered_json doc;
  doc["schema"] = "torx.reproduce.tseng/1";
  for (const ReproduceFamily& f : families) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ReproduceRow& r : f.rows)
      rows.push_back({{"d", r.d},
                      {"n", r.n},
                      {"steps", r.steps},
                      {"transmission_blocks", r.transmission_blocks},
                      {"verified", r.verified}});
    doc[f.id] = rows;
  }
  return doc.dump(2) + "\n";
}

std::string reproduce_text(const std::vector<ReproduceFamily>& families) {
  std::string s =
      "Our counts for seed 000 (Tseng et al.): steps and transmission in blocks, n = 2^d per side "
      "(--json for the document scripts/reproduce_tseng.py reads)\n";
  for (const ReproduceFamily& f : families) {
    s += fmt::format("\n{} on {}D tori\n  {:>3} {:>6} {:>10} {:>22}  {}\n", f.id, f.dims, "d", "n", "steps",
                     "transmission blocks", "verified");
    for (const ReproduceRow& r : f.rows)
      s += fmt::format("  {:>3} {:>6} {:>10} {:>22}  {}\n", r.d, r.n, r.steps, r.transmission_blocks, r.verified);
  }
  return s;
}

}  // namespace torx::app
