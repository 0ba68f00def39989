// SPDX-License-Identifier: Apache-2.0
// torx: the command-line front end (docs/cli.md). Exit codes: 0 ok, 1 check failed, 2 bad input,
// 3 watchdog or limit, 4 internal error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>

#include "algorithms/meyer_sibeyn.hpp"
#include "algorithms/plain_adapter.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/tseng.hpp"
#include "app/cosim.hpp"
#include "app/plot.hpp"
#include "app/report.hpp"
#include "app/run.hpp"
#include "app/tables_check.hpp"
#include "app/traffic.hpp"
#include "core/checker.hpp"
#include "core/forwarding_table.hpp"
#include "core/memory_limit.hpp"
#include "core/network_params.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"

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

// The command line's words, as typed; make_request() turns them into a typed app::RunRequest.
struct Options {
  std::string algo;
  std::string schedule;
  std::string topo;
  bool mesh = false;
  std::string ports;
  std::string block_bytes = "64";
  std::string model = "step";
  std::string ts = "100";
  std::string flit_bytes = "16";
  std::string sync = "barrier";
  std::string root = "0";
  bool gossip_hw = false;
  std::string gossip_tables;
  std::string seed = "1";
  std::string trace;
  std::vector<std::string> trace_routers;  // rtl model: node ids
  std::string json;
  std::string output;
  std::string tables_check;            // torx tables --check FILE
  bool list_json = false;
  std::string watchdog;                // cycle and rtl models: empty = the model's default
  std::vector<std::string> params;     // cycle and rtl models: NAME=VALUE network parameters
  bool help_params = false;
  // torx cosim
  std::string traffic = "random";
  std::string pattern = "uniform";
  std::string load = "0.3";
  std::string cycles = "10000";
  std::string max_worm_flits = "16";
  std::string barrier_every = "2000";
  std::string mutant = "0";
  bool mixed_orders = false;
  // torx plot
  std::string plot_kind;
  std::vector<std::string> plot_inputs;
  std::string max_memory;              // --max-memory SIZE; empty: what the machine has available
};

// A non-negative integer option: digits only (no sign, no wrap-around), within [lo, hi].
uint64_t parse_count(const char* option, const std::string& text, uint64_t lo, uint64_t hi) {
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != text.data() + text.size())
    throw InputError(fmt::format("{} '{}': not a whole number (expected {} to {})", option, text, lo, hi));
  if (ec == std::errc::result_out_of_range || v < lo || v > hi)
    throw InputError(fmt::format("{} {}: out of range (expected {} to {})", option, text, lo, hi));
  return v;
}

// Shows progress of long runs on standard error when it is a terminal, and clears it at the end.
class TerminalProgress {
 public:
  TerminalProgress() : tty_(isatty(STDERR_FILENO)) {}
  ~TerminalProgress() {
    if (shown_) std::fprintf(stderr, "\r%70s\r", "");
  }
  void steps(int64_t done, int64_t total) {
    if (!due()) return;
    if (total > 0) std::fprintf(stderr, "\r[torx] step %lld/%lld", (long long)done, (long long)total);
    else std::fprintf(stderr, "\r[torx] step %lld", (long long)done);
  }
  void cycles(const app::RunProgress& p) {
    if (!due()) return;
    std::fprintf(stderr, "\r[torx] cycle %llu: %llu of %llu messages delivered", (unsigned long long)p.cycle,
                 (unsigned long long)p.messages_done, (unsigned long long)p.messages);
  }

 private:
  bool due() {
    if (!tty_) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(300)) return false;
    last_ = now;
    shown_ = true;
    return true;
  }
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// Levenshtein distance: insertions, deletions and substitutions between two short words.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

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

// Writes `text` to the file `path` (`option` names it in messages), or to standard output for "-".
// Every write is checked, and the file's close: a full disk or /dev/full is exit code 2 with the
// operating system's reason, never a lost document and exit 0.
void write_text(const std::string& path, const std::string& text, const char* option = "--json") {
  if (path == "-") {
    std::cout.flush();
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      throw InputError(fmt::format("{} -: write error on standard output: {}", option, std::strerror(errno)));
    return;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw InputError(fmt::format("{} {}: cannot open for writing: {}", option, path, std::strerror(errno)));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !written)
    throw InputError(fmt::format("{} {}: write error: {}", option, path, std::strerror(written ? errno : err)));
}

// An output stream after its last write: flushed, and any error of a write or of the flush is
// exit code 2 naming the file.
void check_written(std::ofstream& out, const char* option, const std::string& path) {
  errno = 0;
  out.flush();
  const int err = errno;
  out.close();
  if (!out) throw InputError(fmt::format("{} {}: write error: {}", option, path, err ? std::strerror(err) : "the write failed"));
}

// The width `torx list` wraps its text at: the terminal's (standard output), else COLUMNS, else 100.
size_t terminal_width() {
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    const int v = std::atoi(c);
    if (v >= 40) return static_cast<size_t>(v);
  }
  return 100;
}

// `prefix` then `text`, broken at spaces so that no line is longer than `width` (a single word longer
// than a line stands alone); lines after the first start with `indent` spaces.
std::string wrap(const std::string& prefix, const std::string& text, size_t indent, size_t width) {
  std::string out = prefix, line_pad(indent, ' ');
  size_t col = prefix.size();
  bool first_word = true;
  for (size_t p = 0; p < text.size();) {
    const size_t q = std::min(text.find(' ', p), text.size());
    const std::string word = text.substr(p, q - p);
    p = q + 1;
    if (word.empty()) continue;
    if (!first_word && col + 1 + word.size() > width) {
      out += "\n" + line_pad;
      col = indent;
    } else if (!first_word) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word.size();
    first_word = false;
  }
  return out + "\n";
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
  // Columns as wide as their widest entry (ids like ms-hc-steps are longer than the original ones);
  // the texts wrapped at the terminal's width (COLUMNS, else 100 columns), continued under their start.
  size_t id_w = 2, coll_w = 10, sw_w = 8;
  for (const Algorithm& a : algorithms()) {
    id_w = std::max(id_w, a.id.size());
    coll_w = std::max(coll_w, collective_name(a.collective).size());
    sw_w = std::max(sw_w, switching_name(a.switching).size());
  }
  const size_t width = terminal_width();
  for (const Algorithm& a : algorithms()) {
    const std::string head = fmt::format("{:<{}}  {:<{}} {}-port {:<{}}  ", a.id, id_w, collective_name(a.collective),
                                         coll_w, port_model_name(a.ports), switching_name(a.switching), sw_w);
    std::cout << wrap(head, a.summary, head.size(), width);
    const std::string indent(id_w + 2, ' ');
    std::cout << wrap(indent + "preconditions: ", a.preconditions, id_w + 4, width);
    std::cout << wrap(indent + "source: ", a.paper, id_w + 4, width);
  }
  return kExitOk;
}

// The command line's words as a typed, validated request (app/run.hpp).
app::RunRequest make_request(const Options& o, bool count_only) {
  app::RunRequest r;
  r.algorithm = o.algo;
  r.schedule = o.schedule;
  r.topology = Topology::parse(o.topo, o.mesh);
  if (!o.ports.empty()) r.ports = parse_port_model(o.ports);
  const std::optional<app::ModelKind> model = app::parse_model(o.model);
  if (!model) throw InputError(fmt::format("--model {}: must be step, cycle or rtl", o.model));
  r.model = *model;
  r.cost.block_bytes = static_cast<uint32_t>(parse_count("--block-bytes", o.block_bytes, 1, uint64_t{1} << 30));
  r.cost.flit_bytes = static_cast<uint32_t>(parse_count("--flit-bytes", o.flit_bytes, 1, uint64_t{1} << 20));
  r.cost.ts_cycles = parse_count("--ts", o.ts, 0, 1000000000);
  const std::optional<SyncMode> sync = parse_sync_mode(o.sync);
  if (!sync) throw InputError(fmt::format("--sync {}: must be none, barrier, local, priority or software", o.sync));
  r.sync = *sync;
  r.root = parse_root(r.topology, o.root);
  r.gossip_hw = o.gossip_hw;
  r.gossip_tables = o.gossip_tables;
  r.seed = parse_count("--seed", o.seed, 0, UINT64_MAX);
  r.trace = o.trace;
  for (const std::string& v : o.trace_routers)
    r.trace_routers.push_back(static_cast<NodeId>(parse_count("--trace-routers", v, 0, INT32_MAX)));
  for (const std::string& p : o.params) {
    try {
      set_param(r.params, p);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--param {}: {}", p, e.what()));
    }
  }
  if (!o.watchdog.empty())
    r.params.watchdog_cycles = parse_count("--watchdog", o.watchdog, 1, uint64_t{1} << 40);
  r.params_given = !o.params.empty() || !o.watchdog.empty();
  for (const std::string& p : o.params) r.params_named.push_back(p.substr(0, p.find('=')));
  r.count_only = count_only;
  if (!o.max_memory.empty()) r.memory_limit = memory_limit_from_option(o.max_memory);
  app::validate_request(r);
  return r;
}

// Runs ALGO or a schedule file through the chosen model and the checker. `strict` (torx check) also
// fails on port and link conflicts.
int cmd_run(const Options& o, bool strict, bool stats = false) {
  if (o.help_params) {
    std::cout << "Network parameters of the cycle and rtl models (--param NAME=VALUE; docs/timing-contract.md):\n"
              << param_help();
    return kExitOk;
  }
  const app::RunRequest req = make_request(o, stats);
  TerminalProgress progress;
  app::RunHooks hooks;
  hooks.step_progress = [&progress](int64_t done, int64_t total) { progress.steps(done, total); };
  hooks.progress = [&progress](const app::RunProgress& p) { progress.cycles(p); };
  const app::RunReport rep = app::run(req, hooks);
  if (o.json == "-") {
    write_text("-", app::report_json(rep));
  } else {
    std::cout << app::report_text(rep);
    if (!o.json.empty()) write_text(o.json, app::report_json(rep));
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

// `torx cosim`: the C++ model and the Verilated RTL in lock step (app/cosim.hpp). Exit 0 when nothing
// differed, 1 at the first difference.
int cmd_cosim(const Options& o) {
  app::CosimRequest r;
  r.topology = Topology::parse(o.topo, o.mesh);
  r.traffic = o.traffic;
  if (!o.ports.empty()) r.ports = parse_port_model(o.ports);
  bool levels_given = false;
  for (const std::string& p : o.params) {
    try {
      set_param(r.params, p);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--param {}: {}", p, e.what()));
    }
    levels_given |= p.rfind("priority_levels=", 0) == 0;
  }
  // Random traffic with an explicit --param priority_levels=K draws every worm's level from 0 .. K-1
  // (routers with K lanes per VC: docs/priority.md); without it, one level, as the plain router.
  if (levels_given && o.traffic == "random") r.priority_levels = r.params.priority_levels;
  if (!o.watchdog.empty()) r.params.watchdog_cycles = parse_count("--watchdog", o.watchdog, 1, uint64_t{1} << 40);
  r.flit_bytes = static_cast<uint32_t>(parse_count("--flit-bytes", o.flit_bytes, 1, 32));
  r.seed = parse_count("--seed", o.seed, 0, UINT64_MAX);
  r.mutant = static_cast<int>(parse_count("--mutant", o.mutant, 0, 99));
  r.pattern = o.pattern;
  {
    char* end = nullptr;
    errno = 0;
    r.load = std::strtod(o.load.c_str(), &end);
    if (o.load.empty() || *end || errno) throw InputError(fmt::format("--load '{}': not a number", o.load));
  }
  r.cycles = parse_count("--cycles", o.cycles, 1, uint64_t{1} << 32);
  r.max_worm_flits = static_cast<int>(parse_count("--max-worm-flits", o.max_worm_flits, 1, 4096));
  r.barrier_every = parse_count("--barrier-every", o.barrier_every, 0, uint64_t{1} << 32);
  r.mixed_orders = o.mixed_orders;
  r.cost.block_bytes = static_cast<uint32_t>(parse_count("--block-bytes", o.block_bytes, 1, uint64_t{1} << 30));
  r.cost.ts_cycles = parse_count("--ts", o.ts, 0, 1000000000);
  r.cost.flit_bytes = r.flit_bytes;
  const std::optional<SyncMode> sync = parse_sync_mode(o.sync);
  if (!sync || (*sync != SyncMode::kBarrier && *sync != SyncMode::kNone))
    throw InputError(fmt::format("--sync {}: cosim runs an algorithm with barrier or none", o.sync));
  r.sync = *sync;
  r.gossip_hw = o.gossip_hw;
  app::validate_cosim(r);
  const app::CosimReport rep = app::run_cosim(r);
  if (o.json == "-") {
    write_text("-", app::cosim_json(rep) + "\n");
  } else {
    std::cout << app::cosim_text(rep);
    if (!o.json.empty()) write_text(o.json, app::cosim_json(rep) + "\n");
  }
  if (rep.mismatches) return kExitCheckFailed;
  if (rep.check_ok && !*rep.check_ok) return kExitCheckFailed;
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
  const bool tty = isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
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
        if (tty)
          std::fprintf(stderr, "\r[torx] %-4s d=%-2d %-32s         ", f.id, d, "generating ...");
        else if (nodes >= (int64_t{1} << 16))  // the large ones take a while: say so before
          std::fprintf(stderr, "[torx] %s d=%d: generating the schedule on the %s ...\n", f.id, d, topo.to_string().c_str());
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
      // Progress on standard error (the whole command takes minutes): one line per size, or one
      // line rewritten on a terminal.
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (tty) std::fprintf(stderr, "\r[torx] %-4s d=%-2d %-32s %6.1f s   ", f.id, d, verified.c_str(), secs);
      else std::fprintf(stderr, "[torx] %s d=%d: %s (%.1f s)\n", f.id, d, verified.c_str(), secs);
    }
    doc[f.id] = rows;
  }
  if (tty) std::fprintf(stderr, "\r%70s\r", "");
  // The document with --json; a table for people otherwise.
  if (!o.json.empty()) {
    write_text(o.json, doc.dump(2) + "\n");
    return kExitOk;
  }
  std::cout << "Our counts for seed 000 (Tseng et al.): steps and transmission in blocks, n = 2^d per side "
               "(--json for the document scripts/reproduce_tseng.py reads)\n";
  for (const Family& f : families) {
    std::cout << fmt::format("\n{} on {}D tori\n  {:>3} {:>6} {:>10} {:>22}  {}\n", f.id, f.dims, "d", "n", "steps",
                             "transmission blocks", "verified");
    for (const auto& row : doc[f.id])
      std::cout << fmt::format("  {:>3} {:>6} {:>10} {:>22}  {}\n", row["d"].get<int>(), row["n"].get<int>(),
                               row["steps"].get<int64_t>(), row["transmission_blocks"].get<int64_t>(),
                               row["verified"].get<std::string>());
  }
  return kExitOk;
}

// `torx tables --check FILE`: reads a forwarding-table file (every record in range and consistent),
// derives the schedule from the tables alone and runs it through the step model. Exit 0 with a
// one-line summary if it delivers every piece exactly once in the declared steps without link
// conflicts; anything else is bad input (exit 2) with the reason.
int check_tables(const std::string& path) {
  const ForwardingTable tab = app::read_forwarding_file(path);
  const app::TablesSummary r = app::verify_forwarding_table(tab, path);
  const Topology topo(tab.dims, true);
  std::cout << fmt::format("{}: ok: {} on the {}, {} pieces per node, {} steps, {} forwarding rules, {} prologue "
                           "messages; every piece delivered exactly once, transmission {} pieces\n",
                           path, tab.algorithm, topo.to_string(), tab.pieces, tab.steps, r.rules, r.prologue,
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
  // The planner's tables and lists, estimated before it starts (core/forwarding_table.hpp); its
  // precondition check already plans.
  require_memory(o.max_memory.empty() ? default_memory_limit() : memory_limit_from_option(o.max_memory),
                 gossip_tables_peak_bytes(topo.radices()),
                 fmt::format("planning the {} forwarding tables of the {}", o.algo, topo.to_string()),
                 fmt::format("{} nodes", topo.nodes()));
  algo.check(topo, {});
  const GossipPlan plan = algo.gossip_plan(topo, {});
  const ForwardingTable& tab = plan.table;
  if (!o.output.empty()) {
    std::ofstream out(o.output);
    if (!out) throw InputError(fmt::format("-o {}: cannot open for writing: {}", o.output, std::strerror(errno)));
    write_forwarding_table(out, tab);
    check_written(out, "-o", o.output);
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

// Reads a document for torx plot: a file (a regular one, at most 1 GiB) or standard input ("-").
std::string read_plot_input(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return text;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(fmt::format("plot {}: not a regular file (a result document: torx run or torx traffic --json)", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("plot {}: cannot open: {}", path, std::strerror(errno)));
  if (st.st_size > (int64_t{1} << 30)) throw InputError(fmt::format("plot {}: larger than 1 GiB", path));
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return text;
}

// `torx plot links|steps RESULT -o FILE.svg`, `torx plot latency TRAFFIC... -o FILE.svg`: a picture
// of result documents (app/plot.hpp).
int cmd_plot(const Options& o) {
  app::PlotKind kind;
  if (o.plot_kind == "links") kind = app::PlotKind::kLinks;
  else if (o.plot_kind == "steps") kind = app::PlotKind::kSteps;
  else if (o.plot_kind == "latency") kind = app::PlotKind::kLatency;
  else throw InputError(fmt::format("plot: '{}' is not a picture (links: traffic per link; steps: the steps over time; "
                                    "latency: latency against offered load of torx traffic documents)",
                                    o.plot_kind));
  std::string svg;
  if (kind == app::PlotKind::kLatency) {
    if (std::count(o.plot_inputs.begin(), o.plot_inputs.end(), "-") > 1)
      throw InputError("plot latency: standard input (-) can be given once");
    std::vector<std::pair<std::string, std::string>> docs;
    for (const std::string& path : o.plot_inputs)
      docs.emplace_back(path == "-" ? "standard input" : path, read_plot_input(path));
    svg = app::plot_latency_svg(docs);
  } else {
    if (o.plot_inputs.size() != 1)
      throw InputError(fmt::format("plot {}: one result document, not {}", o.plot_kind, o.plot_inputs.size()));
    const std::string& path = o.plot_inputs[0];
    svg = app::plot_svg(kind, read_plot_input(path), path == "-" ? "standard input" : path);
  }
  write_text(o.output, svg, "-o");
  if (o.output != "-") std::cerr << fmt::format("wrote {}\n", o.output);
  return kExitOk;
}

int cmd_schedule(const Options& o) {
  const Topology topo = Topology::parse(o.topo, o.mesh);
  AlgorithmOptions aopt;
  aopt.root = parse_root(topo, o.root);
  aopt.seed = parse_count("--seed", o.seed, 0, UINT64_MAX);
  const Algorithm& algo = lookup(o.algo);
  algo.check(topo, aopt);
  ScheduleWriter writer(o.output, fmt::format("torx {} schedule {} --topo {}{}", TORX_VERSION, o.algo, o.topo,
                                              o.mesh ? " --mesh" : ""));
  algo.generate(topo, aopt, writer);
  if (o.output != "-") std::cerr << fmt::format("wrote {} ({} on the {})\n", o.output, o.algo, topo.to_string());
  return kExitOk;
}

// `torx traffic`'s words, as typed (app/traffic.hpp makes the typed request).
struct TrafficOptions {
  std::string topo;
  bool mesh = false;
  std::string pattern = "uniform";
  std::string rate;
  std::string sweep;
  std::string sweep_tolerance = "0.01";
  std::string packet_flits;
  std::string packet_dist;
  std::string flit_bytes = "16";
  std::string injection = "bernoulli";
  std::string burst_alpha, burst_beta, burst_r1;
  std::vector<std::string> hotspots;
  std::string hotspot_fraction;
  std::string matrix;
  std::string warmup = "3000", measure = "10000", drain = "10000";
  std::string saturation_ratio = "0.99";
  std::string ties = "random";
  std::string queue_limit = "1024";
  std::string model = "cycle";
  std::vector<std::string> params;
  std::string watchdog;
  std::string seed = "1";
  std::string json, csv, label, max_memory, fault;
};

// A node given as an id ("5") or as coordinates ("1,2", or "#5").
NodeId parse_node_option(const Topology& topo, const std::string& text) {
  if (text.find(',') == std::string::npos && !text.empty() && text[0] != '#') {
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v >= static_cast<uint64_t>(topo.nodes()))
      throw InputError(fmt::format("not a node of the {} (an id 0..{} or coordinates like 1,2)", topo.to_string(),
                                   topo.nodes() - 1));
    return static_cast<NodeId>(v);
  }
  return parse_node(topo, text);
}

double parse_real(const char* option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno || !std::isfinite(v)) throw InputError(fmt::format("{} '{}': not a number", option, text));
  return v;
}

// `torx traffic`: synthetic traffic at one rate, a sweep of rates or a search for the saturation
// point (app/traffic.hpp, docs/traffic.md). Exit 0, or 1 when a packet was lost, corrupted,
// misdelivered or duplicated.
int cmd_traffic(const TrafficOptions& t) {
  app::TrafficRequest r;
  r.topology = Topology::parse(t.topo, t.mesh);
  const std::optional<app::ModelKind> model = app::parse_model(t.model);
  if (!model || *model == app::ModelKind::kStep)
    throw InputError(fmt::format("--model {}: synthetic traffic runs on the cycle or rtl model", t.model));
  r.model = *model;
  r.pattern = t.pattern;
  for (const std::string& h : t.hotspots) {
    try {
      r.hotspots.push_back(parse_node_option(r.topology, h));
    } catch (const InputError& e) {
      throw InputError(fmt::format("--hotspot {}: {}", h, e.what()));
    }
  }
  if (!t.hotspot_fraction.empty()) r.hotspot_fraction = parse_real("--hotspot-fraction", t.hotspot_fraction);
  r.matrix = t.matrix;
  r.injection = t.injection;
  if (!t.burst_alpha.empty()) r.burst_alpha = parse_real("--burst-alpha", t.burst_alpha);
  if (!t.burst_beta.empty()) r.burst_beta = parse_real("--burst-beta", t.burst_beta);
  if (!t.burst_r1.empty()) r.burst_r1 = parse_real("--burst-r1", t.burst_r1);
  if (!t.packet_flits.empty() && !t.packet_dist.empty())
    throw InputError("--packet-flits F or --packet-dist F:W,...: one of them");
  if (!t.packet_flits.empty())
    r.packet_sizes = {{static_cast<uint32_t>(parse_count("--packet-flits", t.packet_flits, 1, 4096)), 1.0}};
  if (!t.packet_dist.empty()) r.packet_sizes = app::parse_packet_sizes(t.packet_dist, "--packet-dist");
  r.flit_bytes = static_cast<uint32_t>(parse_count("--flit-bytes", t.flit_bytes, 1, 32));
  if (!t.rate.empty() && !t.sweep.empty()) throw InputError("--rate R or --sweep RATES|auto: one of them");
  if (!t.rate.empty()) {
    const double v = parse_real("--rate", t.rate);
    if (!(v > 0 && v <= 1)) throw InputError(fmt::format("--rate {}: must be in (0, 1] flits per node and cycle", t.rate));
    r.rates = {v};
  } else if (t.sweep == "auto") {
    r.search = true;
  } else if (!t.sweep.empty()) {
    r.rates = app::parse_rates(t.sweep, "--sweep");
  } else {
    throw InputError("give --rate R, or --sweep RATES (0.1,0.2 or 0.05:0.5:0.05) or --sweep auto");
  }
  r.search_tolerance = parse_real("--sweep-tolerance", t.sweep_tolerance);
  r.warmup = parse_count("--warmup", t.warmup, 0, uint64_t{1} << 40);
  r.measure = parse_count("--measure", t.measure, 1, uint64_t{1} << 40);
  r.drain = parse_count("--drain", t.drain, 0, uint64_t{1} << 40);
  r.saturation_ratio = parse_real("--saturation-ratio", t.saturation_ratio);
  if (t.ties != "random" && t.ties != "plus") throw InputError(fmt::format("--ties {}: must be random or plus", t.ties));
  r.random_ties = t.ties == "random";
  r.queue_limit = static_cast<uint32_t>(parse_count("--queue-limit", t.queue_limit, 1, uint64_t{1} << 31));
  for (const std::string& p : t.params) {
    try {
      set_param(r.params, p);
    } catch (const InputError& e) {
      throw InputError(fmt::format("--param {}: {}", p, e.what()));
    }
  }
  if (!t.watchdog.empty()) r.params.watchdog_cycles = parse_count("--watchdog", t.watchdog, 1, uint64_t{1} << 40);
  r.seed = parse_count("--seed", t.seed, 0, UINT64_MAX);
  r.label = t.label;
  r.fault = t.fault;
  if (!t.max_memory.empty()) r.memory_limit = memory_limit_from_option(t.max_memory);
  if (!t.json.empty() && t.json != "-") app::check_output_file("--json", t.json);
  if (!t.csv.empty() && t.csv != "-") app::check_output_file("--csv", t.csv);
  if (t.json == "-" && t.csv == "-") throw InputError("--json - and --csv -: only one of them on standard output");
  app::validate_traffic(r);
  const bool tty = isatty(STDERR_FILENO);
  const size_t total = r.search ? 0 : r.rates.size();
  const app::TrafficReport rep = app::run_traffic(r, [&](const app::TrafficPointProgress& p) {
    if (!tty) return;
    std::fprintf(stderr, "\r[torx] rate %.4f done (%zu%s%s), %.1f s%s   ", p.rate, p.index,
                 total ? " of " : " runs", total ? std::to_string(total).c_str() : "", p.seconds,
                 p.saturated ? ", saturated" : "");
  });
  if (tty) std::fprintf(stderr, "\r%70s\r", "");
  if (t.json == "-") write_text("-", rep.json);
  else if (t.csv == "-") write_text("-", rep.csv, "--csv");
  else std::cout << rep.table;
  if (!t.json.empty() && t.json != "-") write_text(t.json, rep.json);
  if (!t.csv.empty() && t.csv != "-") write_text(t.csv, rep.csv, "--csv");
  if (!rep.check_ok) {
    std::fprintf(stderr, "torx traffic: check failed:\n%s", rep.check_failures.c_str());
    return kExitCheckFailed;
  }
  return kExitOk;
}

void add_traffic_options(CLI::App* sub, TrafficOptions& t) {
  sub->add_option("--topo", t.topo, "dimensions, x first: 8x8, 16x16, 4x4x4")->required();
  sub->add_flag("--mesh", t.mesh, "no wraparound links (mesh instead of torus)");
  sub->add_option("--pattern", t.pattern, app::traffic_patterns() + " [uniform]");
  sub->add_option("--rate", t.rate, "offered load, flits per node and cycle, (0, 1]");
  sub->add_option("--sweep", t.sweep, "several rates: 0.1,0.2,0.4 or FROM:TO:STEP (0.05:0.5:0.05), or auto: search the "
                                      "saturation point");
  sub->add_option("--sweep-tolerance", t.sweep_tolerance, "--sweep auto: stop when the saturation rate is known to this [0.01]");
  sub->add_option("--packet-flits", t.packet_flits, "packet length in flits [4]");
  sub->add_option("--packet-dist", t.packet_dist, "packet lengths with weights, BookSim's packet_size/packet_size_rate: "
                                                  "1:1,8:1");
  sub->add_option("--flit-bytes", t.flit_bytes, "payload bytes per flit, 1 to 32 [16]");
  sub->add_option("--injection", t.injection, "bernoulli|on_off: per node and cycle, or bursty on/off [bernoulli]");
  sub->add_option("--burst-alpha", t.burst_alpha, "on_off: probability an off source turns on (BookSim burst_alpha)");
  sub->add_option("--burst-beta", t.burst_beta, "on_off: probability an on source turns off (BookSim burst_beta)");
  sub->add_option("--burst-r1", t.burst_r1, "on_off: flits per cycle while on (BookSim burst_r1, there in packets); "
                                            "give two of the three");
  sub->add_option("--hotspot", t.hotspots, "hot-spot: a hot node (id or coordinates), repeatable [0]");
  sub->add_option("--hotspot-fraction", t.hotspot_fraction, "hot-spot: share of packets sent to the hot nodes [0.1]");
  sub->add_option("--matrix", t.matrix, "matrix: the traffic matrix file (docs/traffic.md)");
  sub->add_option("--warmup", t.warmup, "cycles before measuring [3000]");
  sub->add_option("--measure", t.measure, "cycles whose packets are measured [10000]");
  sub->add_option("--drain", t.drain, "at most this many cycles after the window for the measured packets to arrive [10000]");
  sub->add_option("--saturation-ratio", t.saturation_ratio, "saturated when accepted < this x offered [0.99]");
  sub->add_option("--ties", t.ties, "random|plus: direction of a half-way ring route [random, as BookSim]");
  sub->add_option("--queue-limit", t.queue_limit, "packets a source may hold between creation and delivery [1024]");
  std::string models = "cycle";
  if (app::model_available(app::ModelKind::kRtl)) models += "|rtl";
  sub->add_option("--model", t.model, models + " [cycle]");
  sub->add_option("--param", t.params, "network parameter NAME=VALUE, repeatable (torx run --help-params)")
      ->allow_extra_args(false);
  sub->add_option("--watchdog", t.watchdog, "stop (exit 3) after this many cycles without flit movement [10000]");
  sub->add_option("--seed", t.seed, "seed of the traffic [1]");
  sub->add_option("--json", t.json, "write the result document (torx.traffic/1) to FILE, or - for standard output");
  sub->add_option("--csv", t.csv, "write one CSV line per rate to FILE, or - for standard output");
  sub->add_option("--label", t.label, "name of this curve in torx plot latency");
  sub->add_option("--max-memory", t.max_memory, "stop (exit 3) before allocating more than SIZE [the memory available]");
  sub->add_option("--fault", t.fault, "testing the checker: corrupt|misdeliver|drop|duplicate one packet (exit 1)");
}

void add_run_options(CLI::App* sub, Options& o) {
  sub->add_option("--topo", o.topo, "dimensions, x first: 16, 16x16, 8x8x8, 10x6");
  sub->add_flag("--mesh", o.mesh, "no wraparound links (mesh instead of torus)");
  sub->add_option("--ports", o.ports, "one|all: count port conflicts under this model [the algorithm's own]");
  sub->add_option("--block-bytes", o.block_bytes, "size of one block in bytes [64]");
  std::string models = "step";
  for (const app::ModelKind m : {app::ModelKind::kCycle, app::ModelKind::kRtl})
    if (app::model_available(m)) models += "|" + std::string(app::model_name(m));
  sub->add_option("--model", o.model, models + " [step]");
  sub->add_option("--ts", o.ts, "startup cost per message in cycles [100]");
  sub->add_option("--flit-bytes", o.flit_bytes, "link width in bytes; one flit per cycle per link [16]");
  sub->add_option("--sync", o.sync, "none|barrier|local|software|priority: how the cycle model separates phases [barrier]");
  sub->add_option("--root", o.root, "broadcast source: node id or coordinates [0]");
  if (app::model_available(app::ModelKind::kCycle)) {
    sub->add_flag("--gossip-hw", o.gossip_hw,
                  "cycle and rtl models, ms-hc/ms-one: the routers forward the gossip by their forwarding tables (docs/gossip.md)");
    sub->add_option("--gossip-tables", o.gossip_tables,
                    "with --gossip-hw: load the routers from this forwarding-table file (torx tables -o) "
                    "instead of the algorithm's own");
  }
  sub->add_option("--seed", o.seed, "seed for block contents and everything random [1]");
  sub->add_option("--trace", o.trace, "waveform (VCD) of every link of the run (cycle and rtl models)");
  if (app::model_available(app::ModelKind::kRtl))
    sub->add_option("--trace-routers", o.trace_routers,
                    "rtl model: also the internal registers of these routers (ids, comma-separated), one FST file each "
                    "beside --trace FILE")
        ->delimiter(',');
  sub->add_option("--json", o.json, "write the result document to FILE, or - for standard output");
  sub->add_option("--watchdog", o.watchdog,
                  "cycle model: stop (exit 3) after this many cycles without flit movement [10000]");
  sub->add_option("--param", o.params, "cycle model: network parameter NAME=VALUE, repeatable (--help-params)")
      ->allow_extra_args(false);
  sub->add_flag("--help-params", o.help_params, "list the network parameters with their meanings and defaults");
  sub->add_option("--max-memory", o.max_memory,
                  "stop (exit 3) before allocating more than SIZE (2GiB, 512MiB) [the memory available]");
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
  tables->add_option("--max-memory", o.max_memory,
                     "stop (exit 3) before allocating more than SIZE (2GiB, 512MiB) [the memory available]");
  auto* plot = app.add_subcommand("plot", "draw result documents as SVG: traffic per link, the steps over time, or "
                                          "latency against offered load");
  plot->add_option("kind", o.plot_kind,
                   "links (flits per link on the torus layout), steps (a Gantt chart) or latency (torx traffic curves)")
      ->required();
  plot->add_option("result", o.plot_inputs,
                   "a result document (torx run --json FILE), or - for standard input; latency: one or more torx "
                   "traffic documents, one curve each")
      ->required();
  plot->add_option("-o,--output", o.output, "the SVG file to write (- for standard output)")->required();
  auto* repro = app.add_subcommand("reproduce", "our counts for a seed's tables and figures (scripts/reproduce_*.py)");
  repro->add_option("paper", o.algo, "tseng (seed 000)")->required();
  repro->add_option("--json", o.json, "write the counts as a document to FILE or - [a table on standard output]");
  CLI::App* cosim = nullptr;
  if (app::cosim_available()) {
    cosim = app.add_subcommand("cosim", "the C++ model and the Verilated RTL in lock step, compared every cycle (docs/cosim.md)");
    cosim->add_option("--topo", o.topo, "dimensions, x first: 8, 4x4, 4x4x4")->required();
    cosim->add_flag("--mesh", o.mesh, "no wraparound links");
    cosim->add_option("--traffic", o.traffic, "random, or an algorithm id (its schedule, checked) [random]");
    cosim->add_option("--pattern", o.pattern, "random traffic: uniform|hotspot|neighbour [uniform]");
    cosim->add_option("--load", o.load, "random traffic: offered flits per node and cycle, (0, 1] [0.3]");
    cosim->add_option("--cycles", o.cycles, "random traffic: cycles of generation [10000]");
    cosim->add_option("--max-worm-flits", o.max_worm_flits, "random traffic: worm lengths 1 .. this [16]");
    cosim->add_option("--barrier-every", o.barrier_every, "random traffic: a barrier episode every N cycles, 0: none [2000]");
    cosim->add_flag("--mixed-orders", o.mixed_orders, "random traffic: random first dimension (order classes)");
    cosim->add_option("--ports", o.ports, "one|all: local ports of the routers [one]");
    cosim->add_option("--flit-bytes", o.flit_bytes, "payload bytes per flit, 1 to 32 [16]");
    cosim->add_option("--block-bytes", o.block_bytes, "an algorithm's block size [64]");
    cosim->add_option("--ts", o.ts, "an algorithm's startup cost per message in cycles [100]");
    cosim->add_option("--sync", o.sync, "an algorithm's synchronization: barrier|none [barrier]");
    cosim->add_option("--seed", o.seed, "seed of the traffic or the block contents [1]");
    cosim->add_option("--mutant", o.mutant, "compare against a build-time RTL mutant (docs/rtl.md) [0: none]");
    cosim->add_flag("--gossip-hw", o.gossip_hw,
                    "with --traffic ms-hc|ms-one|...: the routers in hardwired gossip mode (docs/gossip.md)");
    cosim->add_option("--param", o.params,
                      "network parameter NAME=VALUE, repeatable (torx run --help-params); random traffic with "
                      "priority_levels=K draws every worm's priority level from 0 .. K-1")
        ->allow_extra_args(false);
    cosim->add_option("--watchdog", o.watchdog, "stop (exit 3) after this many cycles without flit movement [10000]");
    cosim->add_option("--json", o.json, "write the result document (torx.cosim/1) to FILE, or - for standard output");
  }
  CLI::App* traffic = nullptr;
  TrafficOptions topts;
  if (app::traffic_available()) {
    traffic = app.add_subcommand("traffic", "synthetic traffic: latency and throughput at offered loads, as BookSim "
                                            "measures them (docs/traffic.md)");
    add_traffic_options(traffic, topts);
  }
  auto* check = app.add_subcommand("check", "validate a schedule file: syntax, holdings, conflicts, delivery");
  check->add_option("--schedule", o.schedule, "schedule file")->required();
  add_run_options(check, o);
  // A first word that is not a command (`torx runn`) is named, with the nearest command; CLI11
  // would only say that a subcommand is required.
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    std::vector<std::string> names;
    for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(s->get_name());
    if (std::find(names.begin(), names.end(), word) == names.end()) {
      std::string nearest, all;
      size_t best = 3;  // at most two edits away
      for (const std::string& n : names) {
        all += (all.empty() ? "" : ", ") + n;
        if (const size_t d = edit_distance(word, n); d < best) best = d, nearest = n;
      }
      throw InputError(fmt::format("unknown command '{}'{} (commands: {}; torx --help)", word,
                                   nearest.empty() ? "" : fmt::format(": did you mean '{}'?", nearest), all));
    }
  }
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
  if ((*run || *check || *stats) && o.topo.empty() && !o.help_params)
    throw InputError("--topo is required (e.g. --topo 16x16)");
  if (*run) return cmd_run(o, false);
  if (*check) return cmd_run(o, true);
  if (*stats) return cmd_run(o, false, true);
  if (*repro) return cmd_reproduce(o);
  if (*plot) return cmd_plot(o);
  if (*tables) return cmd_tables(o);
  if (cosim && *cosim) return cmd_cosim(o);
  if (traffic && *traffic) return cmd_traffic(topts);
  return kExitBadInput;
}

}  // namespace
}  // namespace torx::sw

int main(int argc, char** argv) {
  using namespace torx::sw;
  // The SystemC kernel (--model cycle) prints a banner on standard output unless told not to; the
  // environment is this program's, so it is set here, once, and not inside the model.
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  try {
    const int code = main_impl(argc, argv);
    // Standard output is checked at the end like every file: a summary written to a full disk or
    // to /dev/full is an error, not exit 0 with the output lost.
    std::cout.flush();
    if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
      std::fprintf(stderr, "torx: error: standard output: write error: %s\n", std::strerror(errno ? errno : EIO));
      return kExitBadInput;
    }
    return code;
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
