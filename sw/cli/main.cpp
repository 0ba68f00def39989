// SPDX-License-Identifier: Apache-2.0
// torx: the command-line front end (docs/cli.md). Exit codes: 0 ok, 1 check failed, 2 bad input,
// 3 watchdog or limit, 4 internal error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/tseng.hpp"
#include "core/checker.hpp"
#include "core/forwarding_table.hpp"
#include "core/report.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"
#ifdef TORX_HAVE_CYCLE_MODEL
#include "models/loader.hpp"  // --model cycle (built when models/ is: TORX_BUILD_MODELS)
#endif

#ifndef TORX_VERSION
#define TORX_VERSION "0.0.0"
#endif

namespace torx::sw {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitCheckFailed = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitWatchdog = 3;
constexpr int kExitInternal = 4;

struct Options {
  std::string algo;
  std::string schedule;
  std::string topo;
  bool mesh = false;
  std::string ports;
  uint32_t block_bytes = 64;
  std::string model = "step";
  uint64_t ts = 100;
  uint32_t flit_bytes = 16;
  std::string sync = "barrier";
  std::string root = "0";
  bool gossip_hw = false;
  uint64_t seed = 1;
  std::string trace;
  std::string json;
  std::string output;
  std::string tables_check;            // torx tables --check FILE
  bool list_json = false;
  uint64_t watchdog = 0;               // cycle model: 0 = the model's default
  std::vector<std::string> params;     // cycle model: NAME=VALUE network parameters
};

// Shows progress of long runs on standard error when it is a terminal.
class ProgressSink : public ScheduleSink {
 public:
  explicit ProgressSink(ScheduleSink& inner) : inner_(inner), tty_(isatty(STDERR_FILENO)) {}
  void begin(const ScheduleHeader& h) override {
    total_ = h.steps;
    inner_.begin(h);
  }
  void step(const Step& s) override {
    inner_.step(s);
    ++done_;
    if (!tty_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(300)) return;
    last_ = now;
    if (total_ > 0) std::fprintf(stderr, "\r[torx] step %lld/%lld", (long long)done_, (long long)total_);
    else std::fprintf(stderr, "\r[torx] step %lld", (long long)done_);
    shown_ = true;
  }
  void end() override {
    inner_.end();
    if (shown_) std::fprintf(stderr, "\r%40s\r", "");
  }

 private:
  ScheduleSink& inner_;
  bool tty_;
  bool shown_ = false;
  int64_t total_ = -1;
  int64_t done_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

const Algorithm& lookup(const std::string& id) {
  if (const Algorithm* a = find_algorithm(id)) return *a;
  std::string known;
  for (const Algorithm& a : algorithms()) known += (known.empty() ? "" : ", ") + a.id;
  throw InputError(fmt::format("unknown algorithm '{}' (known: {})", id, known));
}

NodeId parse_root(const Topology& topo, const std::string& text) {
  if (text.find(',') == std::string::npos && topo.ndims() > 1) {
    // A plain node id.
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end || v < 0 || v >= topo.nodes())
      throw InputError(fmt::format("--root {}: not a node of the {} (an id 0..{} or coordinates like 1,2)", text,
                                   topo.to_string(), topo.nodes() - 1));
    return static_cast<NodeId>(v);
  }
  try {
    return parse_node(topo, text);
  } catch (const InputError& e) {
    throw InputError(std::string("--root: ") + e.what());
  }
}

void write_text(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(path);
  if (!out) throw InputError(fmt::format("--json {}: cannot open for writing", path));
  out << text;
}

int cmd_list(const Options& o) {
  if (o.list_json) {
    nlohmann::json arr = nlohmann::json::array();
    for (const Algorithm& a : algorithms())
      arr.push_back({{"id", a.id},
                     {"collective", std::string(collective_name(a.collective))},
                     {"ports", std::string(port_model_name(a.ports))},
                     {"switching", std::string(switching_name(a.switching))},
                     {"preconditions", a.preconditions},
                     {"source", a.paper},
                     {"summary", a.summary}});
    std::cout << arr.dump(2) << "\n";
    return kExitOk;
  }
  for (const Algorithm& a : algorithms()) {
    std::cout << fmt::format("{:<10} {:<10} {}-port {:<17} {}\n", a.id, collective_name(a.collective),
                             port_model_name(a.ports), switching_name(a.switching), a.summary);
    std::cout << fmt::format("{:<10} preconditions: {}\n{:<10} source: {}\n", "", a.preconditions, "", a.paper);
  }
  return kExitOk;
}

void validate_model_options(const Options& o) {
  if (o.model != "step" && o.model != "cycle" && o.model != "rtl")
    throw InputError(fmt::format("--model {}: must be step, cycle or rtl", o.model));
#ifdef TORX_HAVE_CYCLE_MODEL
  const bool have_model = o.model == "step" || o.model == "cycle";
#else
  const bool have_model = o.model == "step";
#endif
  if (!have_model)
    throw InputError(fmt::format("--model {}: this build has no {} model; the step model (--model step) is available",
                                 o.model, o.model == "cycle" ? "cycle-accurate SystemC" : "Verilated RTL"));
  if (o.model == "step" && (o.watchdog || !o.params.empty()))
    throw InputError("--watchdog and --param configure the cycle model (--model cycle), not the step model");
  if (o.model == "cycle" && (o.sync == "local" || o.sync == "priority" || o.sync == "software"))
    throw InputError(fmt::format("--sync {}: not available in the cycle model yet (use barrier or none)", o.sync));
  if (o.model == "cycle" && o.gossip_hw)
    throw InputError("--gossip-hw: hardwired gossip forwarding is not available in the cycle model yet");
  static const char* kSyncs[] = {"none", "barrier", "local", "priority", "software"};
  bool ok = false;
  for (const char* s : kSyncs) ok |= o.sync == s;
  if (!ok) throw InputError(fmt::format("--sync {}: must be none, barrier, local, priority or software", o.sync));
  if (!o.trace.empty() && o.model == "step")
    throw InputError("--trace: waveforms come from the cycle and rtl models, not the step model");
  if (o.block_bytes == 0) throw InputError("--block-bytes must be at least 1");
  if (o.flit_bytes == 0) throw InputError("--flit-bytes must be at least 1");
}

// Runs ALGO or a schedule file through the step model and the checker. `strict` (torx check) also
// fails on port and link conflicts.
int cmd_run(const Options& o, bool strict, bool stats = false) {
  if (stats && o.model != "step") throw InputError("stats counts with the step model; --model does not apply");
  validate_model_options(o);
  if (o.algo.empty() == o.schedule.empty())
    throw InputError("run: give either an algorithm (torx run ring ...) or --schedule FILE, not both");
  const Topology topo = Topology::parse(o.topo, o.mesh);
  AlgorithmOptions aopt;
  aopt.root = parse_root(topo, o.root);
  aopt.seed = o.seed;
  StepModelOptions smo;
  smo.block_bytes = o.block_bytes;
  smo.flit_bytes = o.flit_bytes;
  smo.ts_cycles = o.ts;
  if (!o.ports.empty()) smo.ports = parse_port_model(o.ports);
  smo.origin = o.schedule.empty() ? o.algo + " (generated)" : o.schedule;
  smo.track_blocks = !stats;
  StepModel model(topo, smo);
  // The cycle model needs the whole schedule in memory (it programs every node before the run).
  Schedule whole;
  TeeSink both({&model, &whole});
  ProgressSink progress(o.model == "cycle" ? static_cast<ScheduleSink&>(both) : model);
  const auto t0 = std::chrono::steady_clock::now();
  const Algorithm* algo = nullptr;
  if (!o.algo.empty()) {
    algo = &lookup(o.algo);
    algo->check(topo, aopt);
    algo->generate(topo, aopt, progress);
  } else {
    const ScheduleHeader h = read_schedule(o.schedule, &topo, progress);
    algo = find_algorithm(h.algorithm);
    if (algo && h.collective == Collective::kBroadcast) aopt.root = h.root;
    if (algo) {
      try {
        algo->check(topo, aopt);
      } catch (const PreconditionError&) {
        algo = nullptr;  // a custom schedule named after an algorithm but outside its domain: no formula
      }
    }
  }
  RunReport rep;
  if (!stats) rep.check = check_delivery(model);
  rep.checked = !stats;
  rep.sim.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rep.sim.peak_rss_bytes = peak_rss_bytes();
  rep.algorithm = model.header().algorithm;
  rep.origin = o.schedule.empty() ? "generated" : o.schedule;
  rep.header = model.header();
  rep.ports = model.port_model();
  rep.model = stats ? "count" : o.model;
  rep.sync = o.sync;
  rep.block_bytes = o.block_bytes;
  rep.flit_bytes = o.flit_bytes;
  rep.ts_cycles = o.ts;
  rep.seed = o.seed;
  rep.steps = model.result();
#ifdef TORX_HAVE_CYCLE_MODEL
  if (o.model == "cycle") {
    // The cycle model replaces the step model's check and adds cycles and hardware figures.
    torx::model::CycleOptions copt;
    for (const std::string& p : o.params) torx::model::set_param(copt.params, p);
    if (o.watchdog) copt.params.watchdog_cycles = o.watchdog;
    copt.block_bytes = o.block_bytes;
    copt.flit_bytes = o.flit_bytes;
    copt.ts_cycles = o.ts;
    copt.sync = o.sync;
    copt.seed = o.seed;
    if (!o.ports.empty()) copt.ports = parse_port_model(o.ports);
    copt.trace = o.trace;
    copt.progress = true;
    torx::model::run_cycle_model(whole, topo, copt, rep);
  }
#endif
  if (algo) {
    if (algo->formula) rep.formula = algo->formula(topo, aopt);
    if (algo->lower_bound) rep.lower_bound = algo->lower_bound(topo, aopt);
    if (algo->extras) rep.extras = algo->extras(topo, aopt);
    if (algo->facts) rep.facts = algo->facts(topo, aopt);
  }
  if (o.json == "-") {
    write_text("-", report_json(rep));
  } else {
    std::cout << report_text(rep);
    if (!o.json.empty()) write_text(o.json, report_json(rep));
  }
  if (stats) return kExitOk;
  if (!rep.check.ok) return kExitCheckFailed;
  if (strict && (rep.steps.port_conflicts || rep.steps.link_conflicts)) {
    std::fprintf(stderr, "torx check: the schedule has %llu port and %llu link conflicts under the %s-port %s model\n",
                 (unsigned long long)rep.steps.port_conflicts, (unsigned long long)rep.steps.link_conflicts,
                 std::string(port_model_name(rep.ports)).c_str(), std::string(switching_name(rep.header.switching)).c_str());
    return kExitCheckFailed;
  }
  return kExitOk;
}

// `torx reproduce tseng`: our step and transmission counts for T1, T4, C1 and C64 on 2^d tori,
// d over the ranges of the seed's Tables 3-5 and Figs. 9-11, from the ring plans the generators use
// (tseng::scheme_counts). Each size small enough to generate is generated and counted again, and
// the two must agree (a mismatch is an internal error). scripts/reproduce_tseng.py turns the
// document into the tables, plots and docs/reproduction/tseng.md.
int cmd_reproduce(const Options& o) {
  if (o.algo != "tseng") throw InputError(fmt::format("reproduce: unknown paper '{}' (known: tseng)", o.algo));
  nlohmann::ordered_json doc;
  doc["schema"] = "torx.reproduce.tseng/1";
  const int64_t kGenerateNodes = int64_t{1} << 21;  // generate and count up to this many nodes
  const int64_t kTrackBlocks = int64_t{1} << 26;    // ... and track every block up to this many
  struct Family {
    const char* id;
    int dims;
    int d_lo, d_hi;
  } families[] = {{"t1", 2, 3, 12}, {"t4", 2, 3, 12}, {"c1", 3, 3, 10}, {"c64", 3, 3, 10}};
  for (const Family& f : families) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (int d = f.d_lo; d <= f.d_hi; ++d) {
      const std::vector<int> dims(f.dims, 1 << d);
      if (std::string(f.id) == "c64" && (1 << d) < 8) continue;
      const tseng::PartitionedScheme scheme = std::string(f.id) == "t4"    ? tseng::t4_scheme()
                                              : std::string(f.id) == "c64" ? tseng::c64_scheme()
                                                                           : tseng::PartitionedScheme{};
      tseng::SchemeCounts counts;
      if (scheme.tori.empty()) {
        tseng::PartitionedScheme plain;
        tseng::LogicalTorus t;
        t.offset.assign(f.dims, 0);
        for (int k = 0; k < f.dims; ++k) t.stages.push_back(k);
        plain.tori.push_back(t);
        counts = tseng::scheme_counts(dims, plain);
      } else {
        counts = tseng::scheme_counts(dims, scheme);
      }
      int64_t nodes = 1;
      for (int r : dims) nodes *= r;
      std::string verified = "plan";
      if (nodes <= kGenerateNodes) {
        const Topology topo(dims, true);
        const bool track = nodes * nodes <= kTrackBlocks;
        StepModelOptions smo;
        smo.track_blocks = track;
        StepModel model(topo, smo);
        const Algorithm& a = lookup(f.id);
        a.generate(topo, {}, model);
        const auto& r = model.result();
        bool same = r.per_step.size() == counts.step_max_blocks.size();
        for (size_t k = 0; same && k < r.per_step.size(); ++k)
          same = static_cast<int64_t>(r.per_step[k].max_blocks) == counts.step_max_blocks[k];
        if (!same || r.port_conflicts || r.link_conflicts)
          throw std::logic_error(fmt::format("reproduce: {} on {}: the generated schedule ({} steps, {} blocks, {} conflicts) "
                                             "disagrees with the plan",
                                             f.id, topo.to_string(), r.steps, r.transmission_blocks,
                                             r.port_conflicts + r.link_conflicts));
        if (track && !check_delivery(model).ok)
          throw std::logic_error(fmt::format("reproduce: {} on {} does not deliver", f.id, topo.to_string()));
        verified = track ? "generated, every block checked" : "generated and counted";
      }
      rows.push_back({{"d", d},
                      {"n", 1 << d},
                      {"steps", static_cast<int64_t>(counts.step_max_blocks.size())},
                      {"transmission_blocks", counts.transmission_blocks},
                      {"verified", verified}});
      if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r[torx] %s d=%d      ", f.id, d);
    }
    doc[f.id] = rows;
  }
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r%30s\r", "");
  write_text(o.json.empty() ? "-" : o.json, doc.dump(2) + "\n");
  return kExitOk;
}

// `torx tables --check FILE`: reads a forwarding-table file (every record in range and consistent),
// derives the schedule from the tables alone and runs it through the step model. Exit 0 with a
// one-line summary if it delivers every piece exactly once in the declared steps without link
// conflicts; anything else is bad input (exit 2) with the reason.
int check_tables(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("tables --check {}: cannot open for reading", path));
  const ForwardingTable tab = read_forwarding_table(in, path);
  const Topology topo(tab.dims, true);
  StepModelOptions smo;
  smo.origin = path;
  StepModel model(topo, smo);
  ScheduleHeader h;
  h.algorithm = tab.algorithm;
  h.collective = Collective::kAllgather;
  h.dims = tab.dims;
  h.ports = PortModel::kAll;
  h.switching = Switching::kStoreAndForward;
  h.pieces = tab.pieces;
  model.begin(h);
  const BlockSpace space(Collective::kAllgather, topo, tab.pieces, 0);
  PlainStepAdapter adapter(topo, space, model, tab.steps);
  // A gossip delivers N (N - 1) pieces in all; tables that copy more are refused before they grow.
  const int64_t transfers = int64_t{topo.nodes()} * (topo.nodes() - 1) * tab.pieces;
  try {
    schedule_from_tables(tab, [&](PlainStep&& s) { adapter(std::move(s)); }, transfers);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", path, e.what()));
  }
  model.end();
  const CheckResult c = check_delivery(model);
  const StepModelResult& r = model.result();
  if (!c.ok)
    throw InputError(fmt::format("{}: the tables do not deliver every piece exactly once: {} missing, {} duplicated, "
                                 "{} misdelivered{}",
                                 path, c.missing, c.duplicated, c.misdelivered,
                                 c.examples.empty() ? "" : " (" + c.examples.front() + ")"));
  if (r.steps != tab.steps)
    throw InputError(fmt::format("{}: the header declares {} steps but the tables run for {}", path, tab.steps, r.steps));
  if (r.link_conflicts || r.port_conflicts)
    throw InputError(fmt::format("{}: the derived schedule has {} link and {} port conflicts", path, r.link_conflicts,
                                 r.port_conflicts));
  size_t rules = 0;
  for (const auto& rs : tab.rules) rules += rs.size();
  std::cout << fmt::format("{}: ok: {} on the {}, {} pieces per node, {} steps, {} forwarding rules, {} prologue "
                           "messages; every piece delivered exactly once, transmission {} pieces\n",
                           path, tab.algorithm, topo.to_string(), tab.pieces, tab.steps, rules, tab.prologue.size(),
                           r.transmission_blocks);
  return kExitOk;
}

// `torx tables`: the per-router forwarding tables of the oblivious gossip algorithms (seed 003),
// in the text format of docs/forwarding-tables.md, and a summary of the plan they encode.
int cmd_tables(const Options& o) {
  if (!o.tables_check.empty()) {
    if (!o.algo.empty() || !o.topo.empty() || !o.output.empty())
      throw InputError("tables --check FILE reads everything from the file: give no algorithm, --topo or -o");
    return check_tables(o.tables_check);
  }
  if (o.algo.empty() || o.topo.empty()) throw InputError("tables: give an algorithm and --topo, or --check FILE");
  const Algorithm& algo = lookup(o.algo);
  if (!algo.gossip_plan) {
    std::string with;
    for (const Algorithm& a : algorithms())
      if (a.gossip_plan) with += (with.empty() ? "" : ", ") + a.id;
    throw InputError(fmt::format("tables: '{}' has no forwarding tables ({} have)", o.algo, with));
  }
  const Topology topo = Topology::parse(o.topo, o.mesh);
  algo.check(topo, {});
  const GossipPlan plan = algo.gossip_plan(topo, {});
  const ForwardingTable& tab = plan.table;
  if (!o.output.empty()) {
    std::ofstream out(o.output);
    if (!out) throw InputError(fmt::format("-o {}: cannot open for writing", o.output));
    write_forwarding_table(out, tab);
  }
  size_t rules = 0;
  for (const auto& r : tab.rules) rules += r.size();
  nlohmann::ordered_json j;
  j["algorithm"] = tab.algorithm;
  j["topology"] = {{"dims", topo.radices()}, {"wrap", topo.wrap()}, {"nodes", topo.nodes()}};
  j["construction"] = tab.construction;
  j["pieces"] = tab.pieces;
  j["steps"] = tab.steps;
  j["injection_step"] = tab.inject_step;
  j["prologue_messages"] = tab.prologue.size();
  j["forwarding_rules"] = rules;
  j["largest_message_pieces"] = plan.max_message_pieces;
  j["transmission_pieces"] = plan.transmission_pieces;
  if (o.json.empty()) {
    std::cout << fmt::format("{} on the {}: {}\n  {} pieces per node, {} steps (injection at step {}), {} forwarding rules, "
                             "largest message {} pieces, transmission {} pieces\n",
                             tab.algorithm, topo.to_string(), tab.construction, tab.pieces, tab.steps,
                             tab.inject_step, rules, plan.max_message_pieces, plan.transmission_pieces);
  } else {
    write_text(o.json, j.dump(2) + "\n");
  }
  return kExitOk;
}

int cmd_schedule(const Options& o) {
  const Topology topo = Topology::parse(o.topo, o.mesh);
  AlgorithmOptions aopt;
  aopt.root = parse_root(topo, o.root);
  aopt.seed = o.seed;
  const Algorithm& algo = lookup(o.algo);
  algo.check(topo, aopt);
  ScheduleWriter writer(o.output, fmt::format("torx {} schedule {} --topo {}{}", TORX_VERSION, o.algo, o.topo,
                                              o.mesh ? " --mesh" : ""));
  ProgressSink progress(writer);
  algo.generate(topo, aopt, progress);
  if (o.output != "-") std::cerr << fmt::format("wrote {} ({} on the {})\n", o.output, o.algo, topo.to_string());
  return kExitOk;
}

void add_run_options(CLI::App* sub, Options& o) {
  sub->add_option("--topo", o.topo, "dimensions, x first: 16, 16x16, 8x8x8, 10x6")->required();
  sub->add_flag("--mesh", o.mesh, "no wraparound links (mesh instead of torus)");
  sub->add_option("--ports", o.ports, "one|all: count port conflicts under this model [the algorithm's own]");
  sub->add_option("--block-bytes", o.block_bytes, "size of one block in bytes [64]");
  sub->add_option("--model", o.model, "step|cycle|rtl [step]");
  sub->add_option("--ts", o.ts, "startup cost per message in cycles [100]");
  sub->add_option("--flit-bytes", o.flit_bytes, "link width in bytes; one flit per cycle per link [16]");
  sub->add_option("--sync", o.sync, "none|barrier|local|priority|software (cycle and rtl models) [barrier]");
  sub->add_option("--root", o.root, "broadcast source: node id or coordinates [0]");
  sub->add_flag("--gossip-hw", o.gossip_hw, "gossip runs on the routers' hardwired forwarding tables");
  sub->add_option("--seed", o.seed, "seed for block contents and everything random [1]");
  sub->add_option("--trace", o.trace, "waveform (VCD) of the run (cycle and rtl models)");
  sub->add_option("--json", o.json, "write the result document to FILE, or - for standard output");
  sub->add_option("--watchdog", o.watchdog,
                  "cycle model: stop (exit 3) after this many cycles without flit movement [10000]");
  sub->add_option("--param", o.params, "cycle model: network parameter NAME=VALUE, repeatable (docs/cycle-model.md)")
      ->allow_extra_args(false);
}

int main_impl(int argc, char** argv) {
  CLI::App app{"torx: collective communication on wormhole-routed tori (docs/cli.md)", "torx"};
  app.set_version_flag("--version", std::string("torx ") + TORX_VERSION);
  app.require_subcommand(1);
  Options o;
  auto* list = app.add_subcommand("list", "list the algorithms with their models, preconditions and sources");
  list->add_flag("--json", o.list_json, "machine-readable output");
  auto* sched = app.add_subcommand("schedule", "generate a schedule file");
  sched->add_option("algo", o.algo, "algorithm id (torx list)")->required();
  sched->add_option("--topo", o.topo, "dimensions, x first: 16, 16x16, 8x8x8")->required();
  sched->add_flag("--mesh", o.mesh, "no wraparound links");
  sched->add_option("--root", o.root, "broadcast source [0]");
  sched->add_option("--seed", o.seed, "seed [1]");
  sched->add_option("-o,--output", o.output, "schedule file to write (- for standard output)")->required();
  auto* run = app.add_subcommand("run", "run an algorithm or a schedule file, check every block, report");
  run->add_option("algo", o.algo, "algorithm id (torx list)");
  run->add_option("--schedule", o.schedule, "schedule file to run instead of an algorithm");
  add_run_options(run, o);
  auto* stats = app.add_subcommand("stats", "count steps, message sizes and conflicts without tracking blocks (large schedules)");
  stats->add_option("algo", o.algo, "algorithm id (torx list)");
  stats->add_option("--schedule", o.schedule, "schedule file to count instead of an algorithm");
  add_run_options(stats, o);
  auto* tables = app.add_subcommand("tables", "forwarding tables of the oblivious gossip algorithms (ms-hc, ms-one, ...)");
  tables->add_option("algo", o.algo, "a gossip algorithm id: ms-hc, ms-hc-steps, ms-hc-hd, ms-one");
  tables->add_option("--topo", o.topo, "dimensions, x first");
  tables->add_option("-o,--output", o.output, "write the tables (docs/forwarding-tables.md)");
  tables->add_option("--check", o.tables_check, "validate a forwarding-table file and the schedule it encodes");
  tables->add_option("--json", o.json, "write the plan's summary to FILE or -");
  auto* repro = app.add_subcommand("reproduce", "our counts for a seed's tables and figures (scripts/reproduce_*.py)");
  repro->add_option("paper", o.algo, "tseng (seed 000)")->required();
  repro->add_option("--json", o.json, "write the counts to FILE [-]");
  auto* check = app.add_subcommand("check", "validate a schedule file: syntax, holdings, conflicts, delivery");
  check->add_option("--schedule", o.schedule, "schedule file")->required();
  add_run_options(check, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }
  if (*list) return cmd_list(o);
  if (*sched) return cmd_schedule(o);
  if (*run) return cmd_run(o, false);
  if (*check) return cmd_run(o, true);
  if (*stats) return cmd_run(o, false, true);
  if (*repro) return cmd_reproduce(o);
  if (*tables) return cmd_tables(o);
  return kExitBadInput;
}

}  // namespace
}  // namespace torx::sw

int main(int argc, char** argv) {
  using namespace torx::sw;
  try {
    return main_impl(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "torx: error: %s\n", e.what());
    return kExitBadInput;
  } catch (const WatchdogError& e) {
    std::fprintf(stderr, "torx: stopped: %s\n", e.what());
    return kExitWatchdog;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "torx: out of memory\n");
    return kExitWatchdog;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "torx: internal error: %s\n", e.what());
    return kExitInternal;
  }
}
