// SPDX-License-Identifier: Apache-2.0
// torx: the command-line front end (docs/cli.md). Each subcommand binds its own options (one struct
// per subcommand), hands the words to the application layer (sw/app: options.hpp parses and
// validates them, run.hpp, cosim.hpp, tables.hpp, reproduce.hpp, traffic.hpp and plot.hpp do the work) and prints
// what it returns. Exit codes: 0 ok, 1 check failed, 2 bad input, 3 watchdog or limit, 4 internal
// error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>
#include <nlohmann/json.hpp>

#include "algorithms/registry.hpp"
#include "app/cosim.hpp"
#include "app/mpi.hpp"
#include "app/options.hpp"
#include "app/plot.hpp"
#include "app/report.hpp"
#include "app/reproduce.hpp"
#include "app/rtl_cmd.hpp"
#include "app/run.hpp"
#include "app/tables.hpp"
#include "app/traffic.hpp"
#include "core/collective_stop.hpp"
#include "core/errors.hpp"
#include "core/forwarding_table.hpp"
#include "core/memory_limit.hpp"
#include "core/network_params.hpp"
#include "core/output_file.hpp"
#include "core/protocol_error.hpp"
#include "core/quote.hpp"
#include "core/schedule_io.hpp"

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

// --- the subcommands' options, one struct each -----------------------------------------------------

struct ListOptions {
  bool json = false;
};

struct ScheduleOptions {
  std::string algo;
  std::string topo;
  bool mesh = false;
  std::string root = "0";
  std::string seed = "1";
  std::string output;
};

struct RunOptions {  // run, check, stats
  app::RunWords words;
  std::string json;
  bool help_params = false;
};

struct TablesOptions {
  std::string algo;
  std::string topo;
  std::string output;
  std::string check;  // --check FILE
  std::string json;
  std::string max_memory;
};

struct PlotOptions {
  std::string kind;
  std::vector<std::string> inputs;
  std::string output;
};

struct ReproduceOptions {
  std::string paper;
  std::string json;
};

struct CosimOptions {
  app::CosimWords words;
  std::string json;
};

struct RtlOptions {  // torx rtl build|list|clean|params
  RunOptions build, params;
  std::vector<std::string> catalog;
  bool json = false;
  std::string filter;
};

struct TrafficOptions {
  app::TrafficWords words;
  std::string json;
  std::string csv;
};

// Shows progress of long runs on standard error when it is a terminal, and clears it at the end.
class TerminalProgress {
 public:
  // On a terminal: one line rewritten every 0.3 s. Elsewhere (a log file, mpirun's forwarding) only
  // with TORX_PROGRESS=SECONDS: a whole line every SECONDS.
  TerminalProgress() : tty_(isatty(STDERR_FILENO)) {
    if (tty_) return;
    const char* e = std::getenv("TORX_PROGRESS");
    if (!e || !*e) return;
    char* end = nullptr;
    const double s = std::strtod(e, &end);
    if (*end || !(s >= 1 && s <= 86400))
      throw InputError(fmt::format("TORX_PROGRESS='{}': give the seconds between progress lines, 1 to 86400", e));
    every_ = std::chrono::milliseconds(static_cast<int64_t>(s * 1000));
    lines_ = true;
  }
  ~TerminalProgress() {
    if (shown_ && tty_) std::fprintf(stderr, "\r%70s\r", "");
  }
  void steps(int64_t done, int64_t total) {
    if (!due(0)) return;
    if (total > 0) std::fprintf(stderr, "%s[torx] step %lld/%lld%s", lead(), (long long)done, (long long)total, tail());
    else std::fprintf(stderr, "%s[torx] step %lld%s", lead(), (long long)done, tail());
  }
  void cycles(const app::RunProgress& p) {
    if (!due(1)) return;
    std::fprintf(stderr, "%s[torx] cycle %llu: %llu of %llu messages delivered%s", lead(), (unsigned long long)p.cycle,
                 (unsigned long long)p.messages_done, (unsigned long long)p.messages, tail());
  }

 private:
  const char* lead() const { return lines_ ? "" : "\r"; }
  const char* tail() const { return lines_ ? "\n" : ""; }
  // The first report of each phase (0 steps, 1 cycles) is shown at once, the others every every_.
  bool due(int phase) {
    if (!tty_ && !lines_) return false;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && phase == phase_ && now - last_ < every_) return false;
    last_ = now;
    phase_ = phase;
    shown_ = true;
    return true;
  }
  bool tty_;
  bool lines_ = false;
  bool shown_ = false;
  int phase_ = 0;
  std::chrono::steady_clock::duration every_ = std::chrono::milliseconds(300);
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

// An output named by an option, opened before the command's work (core/output_file.hpp: "-" is
// standard output, a file is written beside its name and renamed on success; an output that cannot
// be written is exit code 2 at once, not after the work). Empty when the option was not given.
std::unique_ptr<OutputFile> open_output(const char* option, const std::string& path) {
  if (path.empty()) return nullptr;
  return std::make_unique<OutputFile>(option, path);
}

// Writes `text` to an output opened by open_output and closes it; every write, the flush, the close
// and the rename are checked: a full disk or /dev/full is exit code 2 with the reason.
void write_text(std::unique_ptr<OutputFile>& out, const std::string& text) {
  if (!out) return;
  out->write(text);
  out->commit();
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

// --- the subcommands ---------------------------------------------------------------------------------

int cmd_list(const ListOptions& o) {
  if (o.json) {
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

// Runs ALGO or a schedule file through the chosen model and the checker. `strict` (torx check) also
// fails on port and link conflicts; `stats` counts without tracking blocks.
int cmd_run(const RunOptions& o, bool strict, bool stats = false) {
  if (o.help_params) {
    std::cout << "Network parameters of the cycle and rtl models (--param NAME=VALUE; docs/timing-contract.md):\n"
              << param_help();
    return kExitOk;
  }
  if (o.words.topo.empty()) throw InputError("--topo is required (e.g. --topo 16x16)");
  const app::RunRequest req = app::parse_run(o.words, stats);
  if (app::output_rank())
    for (const std::string& w : req.warnings)
      std::fprintf(stderr, "torx: warning: %s\n", message_for_terminal(w).c_str());
  TerminalProgress progress;
  app::RunHooks hooks;
  if (app::output_rank()) {  // one progress line, rank 0's
    hooks.step_progress = [&progress](int64_t done, int64_t total) { progress.steps(done, total); };
    hooks.progress = [&progress](const app::RunProgress& p) { progress.cycles(p); };
  }
  // A partitioned run (mpirun): every rank holds the same report; rank 0 opens the output (before
  // the work) and writes it.
  std::unique_ptr<OutputFile> json = app::output_rank() ? open_output("--json", o.json) : nullptr;
  const app::RunReport rep = app::run(req, hooks);
  if (!app::output_rank()) return stats || rep.check.ok ? kExitOk : kExitCheckFailed;
  if (o.json != "-") std::cout << app::report_text(rep);
  write_text(json, app::report_json(rep));
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
int cmd_cosim(const CosimOptions& o) {
  const app::CosimRequest req = app::parse_cosim(o.words);
  std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const app::CosimReport rep = app::run_cosim(req);
  if (o.json != "-") std::cout << app::cosim_text(rep);
  write_text(json, app::cosim_json(rep) + "\n");
  if (rep.mismatches) return kExitCheckFailed;
  if (rep.check_ok && !*rep.check_ok) return kExitCheckFailed;
  return kExitOk;
}

// `torx reproduce tseng` (app/reproduce.hpp): the counts as a document with --json, a table
// otherwise; each size on standard error as it is done (the whole command takes minutes): one line
// per size, or one line rewritten on a terminal.
int cmd_reproduce(const ReproduceOptions& o) {
  if (o.paper != "tseng") throw InputError(fmt::format("reproduce: unknown paper '{}' (known: tseng)", o.paper));
  std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const bool tty = isatty(STDERR_FILENO);
  const auto families = app::reproduce_tseng([tty](const app::ReproduceProgress& p) {
    if (!p.done) {
      if (tty) std::fprintf(stderr, "\r[torx] %-4s d=%-2d %-32s         ", p.family, p.d, "generating ...");
      else if (p.nodes >= (int64_t{1} << 16))  // the large ones take a while: say so before
        std::fprintf(stderr, "[torx] %s d=%d: generating the schedule on the %s ...\n", p.family, p.d, p.topology.c_str());
    } else if (tty) {
      std::fprintf(stderr, "\r[torx] %-4s d=%-2d %-32s %6.1f s   ", p.family, p.d, p.verified.c_str(), p.seconds);
    } else {
      std::fprintf(stderr, "[torx] %s d=%d: %s (%.1f s)\n", p.family, p.d, p.verified.c_str(), p.seconds);
    }
  });
  if (tty) std::fprintf(stderr, "\r%70s\r", "");
  if (json) write_text(json, app::reproduce_json(families));
  else std::cout << app::reproduce_text(families);
  return kExitOk;
}

// `torx tables` (app/tables.hpp): the per-router forwarding tables of the oblivious gossip algorithms
// (seed 003), in the text format of docs/forwarding-tables.md, and a summary of the plan they
// encode; `torx tables --check FILE` reads a tables file and checks it (exit 0 with a one-line
// summary, exit 2 with the reason).
int cmd_tables(const TablesOptions& o) {
  if (!o.check.empty()) {
    if (!o.algo.empty() || !o.topo.empty() || !o.output.empty())
      throw InputError("tables --check FILE reads everything from the file: give no algorithm, --topo or -o");
    const ForwardingTable tab = app::read_forwarding_file(o.check);
    std::cout << app::tables_check_text(o.check, tab, app::verify_forwarding_table(tab, o.check));
    return kExitOk;
  }
  if (o.algo.empty() || o.topo.empty()) throw InputError("tables: give an algorithm and --topo, or --check FILE");
  if (o.output == "-" && o.json == "-") throw InputError("tables -o - and --json -: only one of them on standard output");
  std::unique_ptr<OutputFile> tables = open_output("-o", o.output);
  std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const app::TablesPlan plan = app::plan_tables(
      o.algo, Topology::parse(o.topo, false),
      o.max_memory.empty() ? default_memory_limit() : memory_limit_from_option(o.max_memory));
  if (tables) {
    std::ostringstream text;
    write_forwarding_table(text, plan.plan.table);
    write_text(tables, text.str());
  }
  if (json) write_text(json, app::tables_json(plan));
  else if (o.output == "-") std::cerr << app::tables_text(plan);  // standard output holds the tables
  else std::cout << app::tables_text(plan);
  return kExitOk;
}

// `torx plot links|steps RESULT -o FILE.svg`, `torx plot latency TRAFFIC... -o FILE.svg`: a picture of
// result documents (app/plot.hpp).
int cmd_plot(const PlotOptions& o) {
  const std::optional<app::PlotKind> kind = value_named(app::kPlotKinds, o.kind);
  if (!kind)
    throw InputError(fmt::format("plot: '{}' is not a picture (links: traffic per link; steps: the steps over time; "
                                 "latency: latency against offered load of torx traffic documents)",
                                 o.kind));
  std::unique_ptr<OutputFile> svg = open_output("-o", o.output);
  std::vector<std::pair<std::string, std::string>> docs;
  for (const std::string& path : o.inputs)
    docs.emplace_back(path == "-" ? "standard input" : path, app::read_plot_input(path));
  write_text(svg, app::plot_documents(*kind, docs));
  if (o.output != "-") std::cerr << fmt::format("wrote {}\n", o.output);
  return kExitOk;
}

// `torx traffic` (app/traffic.hpp, docs/traffic.md): synthetic traffic at one rate, a sweep or a
// search for the saturation point; the table (or the document or CSV on standard output), the
// files asked for. Exit 1 when a packet was lost, corrupted, misdelivered or duplicated.
// `torx rtl`: the cache of on-demand Verilated models (app/rtl_cmd.hpp, docs/rtl.md "Models on demand").
int cmd_rtl(const RtlOptions& o, CLI::App* build, CLI::App* list, CLI::App* clean, CLI::App* params) {
  if (*build) {
    const bool catalog = build->count("--catalog") > 0;
    const app::RunWords& w = o.build.words;
    if (catalog && (!w.algo.empty() || !w.schedule.empty()))
      throw InputError("torx rtl build: --catalog or an algorithm (and its run options), not both");
    if (catalog) {
      std::cout << app::rtl_build_catalog(o.catalog);
      return kExitOk;
    }
    if (w.algo.empty() && w.schedule.empty())
      throw InputError("torx rtl build: name the run whose models to build (ALGO --topo ... as torx run takes it), "
                       "or --catalog [NAME...]");
    if (w.topo.empty()) throw InputError("--topo is required (e.g. --topo 16x16)");
    if (build->count("--model") && w.model != "rtl")
      throw InputError(fmt::format("torx rtl build: --model {}: the models built are the rtl model's", w.model));
    app::RunWords rw = w;
    rw.model = "rtl";
    std::cout << app::rtl_build_run(app::parse_run(rw, false));
    return kExitOk;
  }
  if (*list) {
    std::cout << app::rtl_list(o.json);
    return kExitOk;
  }
  if (*clean) {
    std::cout << app::rtl_clean(o.filter);
    return kExitOk;
  }
  if (*params) {
    const app::RunWords& w = o.params.words;
    if (w.algo.empty() && w.schedule.empty()) {
      std::cout << app::rtl_catalog_params();
      return kExitOk;
    }
    if (params->count("--catalog")) throw InputError("torx rtl params: --catalog or an algorithm, not both");
    if (w.topo.empty()) throw InputError("--topo is required (e.g. --topo 16x16)");
    app::RunWords rw = w;
    rw.model = "rtl";
    std::cout << app::rtl_params_run(app::parse_run(rw, false));
    return kExitOk;
  }
  throw InputError("torx rtl: build, list, clean or params (torx rtl --help)");
}

int cmd_traffic(const TrafficOptions& o) {
  if (o.json == "-" && o.csv == "-") throw InputError("--json - and --csv -: only one of them on standard output");
  const app::TrafficRequest req = app::parse_traffic(o.words);
  std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  std::unique_ptr<OutputFile> csv = open_output("--csv", o.csv);
  const bool tty = isatty(STDERR_FILENO);
  const size_t total = req.search ? 0 : req.rates.size();
  const app::TrafficReport rep = app::run_traffic(req, [&](const app::TrafficPointProgress& p) {
    if (!tty) return;
    std::fprintf(stderr, "\r[torx] rate %.4f done (%zu%s%s), %.1f s%s   ", p.rate, p.index, total ? " of " : " runs",
                 total ? std::to_string(total).c_str() : "", p.seconds, p.saturated ? ", saturated" : "");
  });
  if (tty) std::fprintf(stderr, "\r%70s\r", "");
  if (o.json != "-" && o.csv != "-") std::cout << rep.table;
  write_text(json, rep.json);
  write_text(csv, rep.csv);
  if (!rep.check_ok) {
    std::fprintf(stderr, "torx traffic: check failed:\n%s", rep.check_failures.c_str());
    return kExitCheckFailed;
  }
  return kExitOk;
}

int cmd_schedule(const ScheduleOptions& o) {
  const Topology topo = Topology::parse(o.topo, o.mesh);
  AlgorithmOptions aopt;
  aopt.root = app::parse_root(topo, o.root);
  aopt.seed = app::parse_count(app::kSeedOption, o.seed);
  const Algorithm& algo = lookup_algorithm(o.algo);
  algo.check(topo, aopt);
  if (algo.plan_bytes)  // the generator's plan, estimated before it is made (core/memory_limit.hpp)
    require_memory(default_memory_limit(), algo.plan_bytes(topo, aopt),
                   fmt::format("planning {} on the {}", o.algo, topo.to_string()));
  ScheduleWriter writer(o.output, fmt::format("torx {} schedule {} --topo {}{}", TORX_VERSION, o.algo, o.topo,
                                              o.mesh ? " --mesh" : ""));
  algo.generate(topo, aopt, writer);
  if (o.output != "-") std::cerr << fmt::format("wrote {} ({} on the {})\n", o.output, o.algo, topo.to_string());
  return kExitOk;
}

// --- the subcommands' flags -----------------------------------------------------------------------

constexpr const char* kMaxMemoryHelp =
    "stop (exit 3) before allocating more than SIZE (2GiB, 512MiB) [the memory available]";

CLI::App* add_list(CLI::App& app, ListOptions& o) {
  auto* sub = app.add_subcommand("list", "list the algorithms with their models, preconditions and sources");
  sub->add_flag("--json", o.json, "machine-readable output");
  return sub;
}

CLI::App* add_schedule(CLI::App& app, ScheduleOptions& o) {
  auto* sub = app.add_subcommand("schedule", "generate a schedule file");
  sub->add_option("algo", o.algo, "algorithm id (torx list)")->required();
  sub->add_option("--topo", o.topo, "dimensions, x first: 16, 16x16, 8x8x8")->required();
  sub->add_flag("--mesh", o.mesh, "no wraparound links");
  sub->add_option("--root", o.root, "broadcast source [0]");
  sub->add_option("--seed", o.seed, "seed [1]");
  sub->add_option("-o,--output", o.output, "schedule file to write (- for standard output)")->required();
  return sub;
}

// --rtl-router and its companions (torx run and cosim; docs/router-interface.md).
void add_rtl_router_options(CLI::App* sub, app::NetworkWords& w) {
  sub->add_option("--rtl-router", w.rtl_router,
                  "rtl model: your router's SV sources instead of torx_router (docs/router-interface.md)")
      ->expected(1, -1)
      ->allow_extra_args(true);
  sub->add_option("--rtl-top", w.rtl_top, "with --rtl-router: the top module [the first file's name]");
  sub->add_option("--rtl-param", w.rtl_params, "with --rtl-router: a parameter NAME=VALUE of the top, repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--rtl-no-check", w.rtl_no_check, "with --rtl-router: no link-protocol checker on its ports");
}

// run, check and stats: the algorithm or schedule file, then the options they share.
CLI::App* add_run(CLI::App& app, const char* name, const char* what, RunOptions& o) {
  app::RunWords& w = o.words;
  auto* sub = app.add_subcommand(name, what);
  if (std::string(name) == "check") {
    sub->add_option("--schedule", w.schedule, "schedule file")->required();
  } else {
    sub->add_option("algo", w.algo, "algorithm id (torx list)");
    sub->add_option("--schedule", w.schedule,
                    std::string("schedule file to ") + (std::string(name) == "stats" ? "count" : "run") +
                        " instead of an algorithm");
  }
  sub->add_option("--topo", w.topo, "dimensions, x first: 16, 16x16, 8x8x8, 10x6");
  sub->add_flag("--mesh", w.mesh, "no wraparound links (mesh instead of torus)");
  sub->add_option("--ports", w.ports,
                  join_names(kPortModels, "|") + ": count port conflicts under this model [the algorithm's own]");
  sub->add_option("--block-bytes", w.block_bytes, "size of one block in bytes [64]");
  sub->add_option("--model", w.model, app::available_model_names("|") + " [step]");
  sub->add_option("--ts", w.ts, "startup cost per message in cycles [100]");
  sub->add_option("--flit-bytes", w.flit_bytes, "link width in bytes; one flit per cycle per link [16]");
  sub->add_option("--sync", w.sync, join_names(kSyncModes, "|") + ": how the cycle model separates phases [barrier]");
  sub->add_option("--root", w.root, "broadcast source: node id or coordinates [0]");
  if (app::model_available(app::ModelKind::kCycle)) {
    sub->add_flag("--gossip-hw", w.gossip_hw,
                  "cycle and rtl models, ms-hc/ms-one: the routers forward the gossip by their forwarding tables (docs/gossip.md)");
    sub->add_option("--gossip-tables", w.gossip_tables,
                    "with --gossip-hw: load the routers from this forwarding-table file (torx tables -o) "
                    "instead of the algorithm's own");
  }
  sub->add_option("--seed", w.seed, "seed for block contents and everything random [1]");
  sub->add_option("--trace", w.trace, "waveform (VCD) of every link of the run (cycle and rtl models)");
  sub->add_option("--partition", w.partition,
                  "under mpirun -np R: nodes per rank by slab|block|auto (cycle and rtl models) [auto]");
  if (app::model_available(app::ModelKind::kRtl))
    sub->add_option("--trace-routers", w.trace_routers,
                    "rtl model: also the internal registers of these routers (ids, comma-separated), one FST file each "
                    "beside --trace FILE")
        ->delimiter(',');
  if (app::model_available(app::ModelKind::kRtl) && std::string(name) == "run") add_rtl_router_options(sub, w);
  sub->add_option("--json", o.json, "write the result document to FILE, or - for standard output");
  sub->add_option("--watchdog", w.watchdog, "cycle model: stop (exit 3) after this many cycles without flit movement [10000]");
  sub->add_option("--param", w.params, "cycle model: network parameter NAME=VALUE, repeatable (--help-params)")
      ->allow_extra_args(false);
  sub->add_flag("--help-params", o.help_params, "list the network parameters with their meanings and defaults");
  sub->add_option("--max-memory", w.max_memory, kMaxMemoryHelp);
  return sub;
}

CLI::App* add_tables(CLI::App& app, TablesOptions& o) {
  auto* sub = app.add_subcommand("tables", "forwarding tables of the oblivious gossip algorithms (ms-hc, ms-one, ...)");
  sub->add_option("algo", o.algo, "a gossip algorithm id: " + algorithm_ids(", ", true));
  sub->add_option("--topo", o.topo, "dimensions, x first");
  sub->add_option("-o,--output", o.output, "write the tables (docs/forwarding-tables.md)");
  sub->add_option("--check", o.check, "validate a forwarding-table file and the schedule it encodes");
  sub->add_option("--json", o.json, "write the plan's summary to FILE or -");
  sub->add_option("--max-memory", o.max_memory, kMaxMemoryHelp);
  return sub;
}

CLI::App* add_plot(CLI::App& app, PlotOptions& o) {
  auto* sub = app.add_subcommand("plot", "draw result documents as SVG: traffic per link, the steps over time, or "
                                         "latency against offered load");
  sub->add_option("kind", o.kind,
                  "links (flits per link on the torus layout), steps (a Gantt chart) or latency (torx traffic curves)")
      ->required();
  sub->add_option("result", o.inputs,
                  "a result document (torx run --json FILE), or - for standard input; latency: one or more torx "
                  "traffic documents, one curve each")
      ->required();
  sub->add_option("-o,--output", o.output, "the SVG file to write (- for standard output)")->required();
  return sub;
}

CLI::App* add_reproduce(CLI::App& app, ReproduceOptions& o) {
  auto* sub = app.add_subcommand("reproduce", "our counts for a seed's tables and figures (scripts/reproduce_*.py)");
  sub->add_option("paper", o.paper, "tseng (seed 000)")->required();
  sub->add_option("--json", o.json, "write the counts as a document to FILE or - [a table on standard output]");
  return sub;
}

CLI::App* add_cosim(CLI::App& app, CosimOptions& o) {
  app::CosimWords& w = o.words;
  auto* sub =
      app.add_subcommand("cosim", "the C++ model and the Verilated RTL in lock step, compared every cycle (docs/cosim.md)");
  sub->add_option("--topo", w.topo, "dimensions, x first: 8, 4x4, 4x4x4")->required();
  sub->add_flag("--mesh", w.mesh, "no wraparound links");
  sub->add_option("--traffic", w.traffic, "random, or an algorithm id (its schedule, checked) [random]");
  sub->add_option("--pattern", w.pattern, "random traffic: " + join_names(app::kCosimPatterns, "|") + " [uniform]");
  sub->add_option("--load", w.load, "random traffic: offered flits per node and cycle, (0, 1] [0.3]");
  sub->add_option("--cycles", w.cycles, "random traffic: cycles of generation [10000]");
  sub->add_option("--max-worm-flits", w.max_worm_flits, "random traffic: worm lengths 1 .. this [16]");
  sub->add_option("--barrier-every", w.barrier_every, "random traffic: a barrier episode every N cycles, 0: none [2000]");
  sub->add_flag("--mixed-orders", w.mixed_orders, "random traffic: random first dimension (order classes)");
  sub->add_option("--ports", w.ports, join_names(kPortModels, "|") + ": local ports of the routers [one]");
  sub->add_option("--flit-bytes", w.flit_bytes, "payload bytes per flit, 1 to 32 [16]");
  sub->add_option("--block-bytes", w.block_bytes, "an algorithm's block size [64]");
  sub->add_option("--ts", w.ts, "an algorithm's startup cost per message in cycles [100]");
  sub->add_option("--sync", w.sync, "an algorithm's synchronization: barrier|none [barrier]");
  sub->add_option("--seed", w.seed, "seed of the traffic or the block contents [1]");
  sub->add_option("--mutant", o.words.mutant, "compare against a build-time RTL mutant (docs/rtl.md) [0: none]");
  sub->add_flag("--gossip-hw", w.gossip_hw,
                "with --traffic ms-hc|ms-one|...: the routers in hardwired gossip mode (docs/gossip.md)");
  sub->add_option("--param", w.params,
                  "network parameter NAME=VALUE, repeatable (torx run --help-params); random traffic with "
                  "priority_levels=K draws every worm's priority level from 0 .. K-1")
      ->allow_extra_args(false);
  sub->add_option("--watchdog", w.watchdog, "stop (exit 3) after this many cycles without flit movement [10000]");
  add_rtl_router_options(sub, w);
  sub->add_option("--json", o.json, "write the result document (torx.cosim/1) to FILE, or - for standard output");
  return sub;
}

struct RtlCommands {
  CLI::App* rtl = nullptr;
  CLI::App* build = nullptr;
  CLI::App* list = nullptr;
  CLI::App* clean = nullptr;
  CLI::App* params = nullptr;
};

RtlCommands add_rtl(CLI::App& app, RtlOptions& o) {
  RtlCommands c;
  c.rtl = app.add_subcommand("rtl", "the cache of Verilated models built on first use: build, list, clean, params "
                                    "(docs/rtl.md, \"Models on demand\")");
  c.rtl->require_subcommand(1);
  c.build = add_run(*c.rtl, "build", "build (or find) the rtl models a run needs, without running it: "
                                     "ALGO --topo ... as torx run takes it; or --catalog [NAME...]", o.build);
  c.build->add_option("--catalog", o.catalog, "the catalog's configurations (torx rtl params), all or these")
      ->expected(0, 1 << 20);
  c.list = c.rtl->add_subcommand("list", "the models in the cache: name, top, parameters, size, build time, state");
  c.list->add_flag("--json", o.json, "as a JSON document (torx.rtl-cache/1)");
  c.clean = c.rtl->add_subcommand("clean", "remove the cached models (those whose entry name contains FILTER)");
  c.clean->add_option("filter", o.filter, "part of an entry name (r2d, g3d, a key)");
  c.params = add_run(*c.rtl, "params", "NAME TOP and the Verilator parameter list of each model a run would use "
                                       "(ALGO --topo ... as torx run takes it), or of the catalog's (--catalog)",
                     o.params);
  c.params->add_flag("--catalog", "the catalog's configurations");
  return c;
}

CLI::App* add_traffic(CLI::App& app, TrafficOptions& o) {
  app::TrafficWords& w = o.words;
  auto* sub = app.add_subcommand("traffic", "synthetic traffic: latency and throughput at offered loads, as BookSim "
                                            "measures them (docs/traffic.md)");
  sub->add_option("--topo", w.topo, "dimensions, x first: 8x8, 16x16, 4x4x4")->required();
  sub->add_flag("--mesh", w.mesh, "no wraparound links (mesh instead of torus)");
  sub->add_option("--pattern", w.pattern, join_names(kTrafficPatterns, "|") + " [uniform]");
  sub->add_option("--rate", w.rate, "offered load, flits per node and cycle, (0, 1]");
  sub->add_option("--sweep", w.sweep,
                  "several rates: 0.1,0.2,0.4 or FROM:TO:STEP (0.05:0.5:0.05), or auto: search the saturation point");
  sub->add_option("--sweep-tolerance", w.sweep_tolerance, "--sweep auto: stop when the saturation rate is known to this [0.01]");
  sub->add_option("--packet-flits", w.packet_flits, "packet length in flits [4]");
  sub->add_option("--packet-dist", w.packet_dist,
                  "packet lengths with weights, BookSim's packet_size/packet_size_rate: 1:1,8:1");
  sub->add_option("--flit-bytes", w.flit_bytes, "payload bytes per flit, 1 to 32 [16]");
  sub->add_option("--injection", w.injection,
                  join_names(kInjectionKinds, "|") + ": per node and cycle, or bursty on/off [bernoulli]");
  sub->add_option("--burst-alpha", w.burst_alpha, "on_off: probability an off source turns on (BookSim burst_alpha)");
  sub->add_option("--burst-beta", w.burst_beta, "on_off: probability an on source turns off (BookSim burst_beta)");
  sub->add_option("--burst-r1", w.burst_r1,
                  "on_off: flits per cycle while on (BookSim burst_r1, there in packets); give two of the three");
  sub->add_option("--hotspot", w.hotspots, "hot-spot: a hot node (id or coordinates), repeatable [0]");
  sub->add_option("--hotspot-fraction", w.hotspot_fraction, "hot-spot: share of packets sent to the hot nodes [0.1]");
  sub->add_option("--matrix", w.matrix, "matrix: the traffic matrix file (docs/traffic.md)");
  sub->add_option("--warmup", w.warmup, "cycles before measuring [3000]");
  sub->add_option("--measure", w.measure, "cycles whose packets are measured [10000]");
  sub->add_option("--drain", w.drain, "at most this many cycles after the window for the measured packets to arrive [10000]");
  sub->add_option("--saturation-ratio", w.saturation_ratio, "saturated when accepted < this x offered [0.99]");
  sub->add_option("--ties", w.ties, join_names(app::kRouteTies, "|") + ": direction of a half-way ring route [random, as BookSim]");
  sub->add_option("--queue-limit", w.queue_limit, "packets a source may hold between creation and delivery [1024]");
  sub->add_option("--model", w.model, app::available_model_names("|") + " (cycle or rtl) [cycle]");
  sub->add_option("--param", w.params, "network parameter NAME=VALUE, repeatable (torx run --help-params)")
      ->allow_extra_args(false);
  sub->add_option("--watchdog", w.watchdog, "stop (exit 3) after this many cycles without flit movement [10000]");
  sub->add_option("--seed", w.seed, "seed of the traffic [1]");
  sub->add_option("--json", o.json, "write the result document (torx.traffic/1) to FILE, or - for standard output");
  sub->add_option("--csv", o.csv, "write one CSV line per rate to FILE, or - for standard output");
  sub->add_option("--label", w.label, "name of this curve in torx plot latency");
  sub->add_option("--max-memory", w.max_memory, kMaxMemoryHelp);
  sub->add_option("--fault", w.fault,
                  "testing the checker: " + join_names(kTrafficFaults, "|") + " one packet (exit 1)");
  return sub;
}

// An output option given an empty name (`--json ''`) is refused rather than taken as not given.
void check_output_names(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands()) {
    for (const char* name : {"--json", "--csv", "--trace", "-o", "--check", "--gossip-tables", "--schedule", "--matrix"}) {
      const CLI::Option* opt = nullptr;
      try {
        opt = sub->get_option(name);
      } catch (const CLI::OptionNotFound&) {
        continue;
      }
      for (const std::string& v : opt->results())
        if (v.empty()) throw InputError(fmt::format("{}: give a file name{}", name,
                                                    std::string(name) == "--check" || std::string(name) == "--gossip-tables" ||
                                                            std::string(name) == "--schedule" || std::string(name) == "--matrix"
                                                        ? ""
                                                        : " (or - for standard output)"));
    }
  }
}

// A first word that is not a command (`torx runn`) is named, with the nearest command; CLI11 would
// only say that a subcommand is required.
void check_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return;
  const std::string word = argv[1];
  std::vector<std::string> names;
  for (CLI::App* s : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(s->get_name());
  if (std::find(names.begin(), names.end(), word) != names.end()) return;
  std::string nearest, all;
  size_t best = 3;  // at most two edits away
  for (const std::string& n : names) {
    all += (all.empty() ? "" : ", ") + n;
    if (const size_t d = edit_distance(word, n); d < best) best = d, nearest = n;
  }
  throw InputError(fmt::format("unknown command '{}'{} (commands: {}; torx --help)", word,
                               nearest.empty() ? "" : fmt::format(": did you mean '{}'?", nearest), all));
}

int main_impl(int argc, char** argv) {
  CLI::App app{"torx: collective communication on wormhole-routed tori (docs/cli.md)", "torx"};
  app.set_version_flag("--version", std::string("torx ") + TORX_VERSION);
  app.require_subcommand(1);
  ListOptions list_o;
  ScheduleOptions sched_o;
  RunOptions run_o, stats_o, check_o;
  TablesOptions tables_o;
  PlotOptions plot_o;
  ReproduceOptions repro_o;
  CosimOptions cosim_o;
  TrafficOptions traffic_o;
  RtlOptions rtl_o;
  std::string rtl_cache;
  app.add_option("--rtl-cache", rtl_cache,
                 "rtl model: the cache of Verilated models built on first use [$TORX_RTL_CACHE, "
                 "$XDG_CACHE_HOME/torx/rtl, ~/.cache/torx/rtl]");
  app.fallthrough();
  CLI::App* list = add_list(app, list_o);
  CLI::App* sched = add_schedule(app, sched_o);
  CLI::App* run = add_run(app, "run", "run an algorithm or a schedule file, check every block, report", run_o);
  CLI::App* stats = add_run(app, "stats",
                            "count steps, message sizes and conflicts without tracking blocks (large schedules)", stats_o);
  CLI::App* tables = add_tables(app, tables_o);
  CLI::App* plot = add_plot(app, plot_o);
  CLI::App* repro = add_reproduce(app, repro_o);
  CLI::App* cosim = app::cosim_available() ? add_cosim(app, cosim_o) : nullptr;
  CLI::App* traffic = app::traffic_available() ? add_traffic(app, traffic_o) : nullptr;
  const RtlCommands rtl = app::rtl_available() ? add_rtl(app, rtl_o) : RtlCommands{};
  CLI::App* check = add_run(app, "check", "validate a schedule file: syntax, holdings, conflicts, delivery", check_o);
  check_command(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11's message repeats the words given: control bytes quoted as in every other message.
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", message_for_terminal(e.what()).c_str());
    return kExitBadInput;
  }
  if (app.count("--rtl-cache")) {
    if (rtl_cache.empty()) throw InputError("--rtl-cache: an empty directory name");
    app::set_rtl_cache(rtl_cache);
  }
  check_output_names(app);
  if (app::mpi_size() > 1 && !*run)
    throw InputError(fmt::format("under mpirun ({} ranks) only torx run is partitioned (--model cycle or rtl); run "
                                 "the other commands in one process",
                                 app::mpi_size()));
  if (*list) return cmd_list(list_o);
  if (*sched) return cmd_schedule(sched_o);
  if (*run) return cmd_run(run_o, false);
  if (*check) return cmd_run(check_o, true);
  if (*stats) return cmd_run(stats_o, false, true);
  if (*repro) return cmd_reproduce(repro_o);
  if (*plot) return cmd_plot(plot_o);
  if (*tables) return cmd_tables(tables_o);
  if (cosim && *cosim) return cmd_cosim(cosim_o);
  if (traffic && *traffic) return cmd_traffic(traffic_o);
  if (rtl.rtl && *rtl.rtl) return cmd_rtl(rtl_o, rtl.build, rtl.list, rtl.clean, rtl.params);
  return kExitBadInput;
}

}  // namespace
}  // namespace torx::sw

namespace {

// main() without MPI's start and end. `alone`: the failure is this rank's own (an MPI error, an
// internal error, memory), not one every rank meets in the same way (bad input, a stall judged
// from the whole network), so mpi_finish stops the other ranks.
int run_main(int argc, char** argv, bool& alone) {
  using namespace torx::sw;
  // SIGINT/SIGTERM remove the outputs' temporary files; SIGXFSZ (ulimit -f) becomes a write error.
  install_output_signal_handlers();
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
    // Under mpirun every rank meets bad input alike: rank 0 says it.
    if (torx::app::output_rank()) std::fprintf(stderr, "torx: error: %s\n", message_for_terminal(e.what()).c_str());
    return kExitBadInput;
  } catch (const ProtocolError& e) {
    std::fprintf(stderr, "torx: protocol violation: %s\n", message_for_terminal(e.what()).c_str());
    return kExitCheckFailed;
  } catch (const torx::app::MpiError& e) {
    std::fprintf(stderr, "torx: stopped (rank %d): %s\n", torx::app::mpi_rank(), message_for_terminal(e.what()).c_str());
    alone = true;
    return kExitWatchdog;
  } catch (const CollectiveStop& e) {
    // A stall is judged from the whole network, alike on every rank: rank 0 reports (every rank's worms).
    if (torx::app::output_rank()) std::fprintf(stderr, "torx: stopped: %s\n", message_for_terminal(e.what()).c_str());
    return kExitWatchdog;
  } catch (const WatchdogError& e) {
    // (Alone, or a limit this rank met: a rank's memory.)
    std::fprintf(stderr, "torx: stopped: %s\n", message_for_terminal(e.what()).c_str());
    alone = true;
    return kExitWatchdog;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "torx: out of memory\n");
    alone = true;
    return kExitWatchdog;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "torx: internal error: %s\n", message_for_terminal(e.what()).c_str());
    alone = true;
    return kExitInternal;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace torx::sw;
  // The SystemC kernel (--model cycle) prints a banner on standard output unless told not to; the
  // environment is this program's, so it is set here, once, and not inside the model.
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // One of several MPI ranks (mpirun): MPI starts; alone, MPI is never touched (app/mpi.hpp).
  int code = kExitOk;
  bool alone = false;
  try {
    torx::app::mpi_start(&argc, &argv);
    code = run_main(argc, argv, alone);
  } catch (const InputError& e) {
    std::fprintf(stderr, "torx: error: %s\n", message_for_terminal(e.what()).c_str());
    code = kExitBadInput;
  } catch (const WatchdogError& e) {
    std::fprintf(stderr, "torx: stopped: %s\n", message_for_terminal(e.what()).c_str());
    code = kExitWatchdog;
    alone = true;
  }
  torx::app::mpi_finish(code, alone);
  return code;
}
