// SPDX-License-Identifier: Apache-2.0
// run_cycle_model(): the CLI's --model cycle, as a SystemC simulation.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <systemc>

#include "models/loader.hpp"
#include "models/sc_network.hpp"

// libsystemc.so refers to sc_main (its own main() calls it). The torx CLI has its own main(), so
// this weak definition satisfies the link; a program that defines sc_main keeps its own.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "torx: this program has no sc_main\n");
  return 4;
}

namespace torx::model {

namespace {

// SystemC reports go to standard error (its default handler writes to standard output, which
// would corrupt `--json -`); errors become exceptions the CLI maps to exit codes.
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) && rep.get_severity() != sc_core::SC_INFO)
    std::fprintf(stderr, "torx: systemc %s: %s: %s\n",
                 rep.get_severity() == sc_core::SC_INFO      ? "info"
                 : rep.get_severity() == sc_core::SC_WARNING ? "warning"
                                                             : "error",
                 rep.get_msg_type(), rep.get_msg());
  if (rep.get_severity() >= sc_core::SC_ERROR) throw std::runtime_error(std::string("SystemC: ") + rep.get_msg());
}

// SystemC writes the wall-clock date into the VCD header. Overwrite it in place with blanks of the
// same length, so that the same inputs give a byte-identical trace (and the file is not copied).
void blank_vcd_date(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (!f) return;
  char head[256] = {};
  const size_t n = std::fread(head, 1, sizeof(head) - 1, f);
  const std::string h(head, n);
  const size_t d = h.find("$date\n");
  if (d != std::string::npos) {
    const size_t b = d + 6;
    const size_t e = h.find('\n', b);
    if (e != std::string::npos) {
      std::string fill(e - b, ' ');
      const std::string tag = "     (date omitted: reproducible trace)";
      fill.replace(0, std::min(tag.size(), fill.size()), tag.substr(0, fill.size()));
      std::fseek(f, static_cast<long>(b), SEEK_SET);
      std::fwrite(fill.data(), 1, fill.size(), f);
    }
  }
  std::fclose(f);
}

class Progress {
 public:
  explicit Progress(bool on) : on_(on && isatty(STDERR_FILENO)) {}
  void show(const Fabric& f, uint32_t total) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(300)) return;
    last_ = now;
    std::fprintf(stderr, "\r[torx] cycle %llu: %llu of %u messages delivered", (unsigned long long)f.cycle(),
                 (unsigned long long)f.stats().messages_done, total);
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r%70s\r", "");
  }

 private:
  bool on_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace

void run_cycle_model(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt,
                     sw::RunReport& rep) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  validate_cycle_options(opt);
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  sc_core::sc_report_handler::set_handler(report_handler);

  CycleNetwork net(schedule, topo, opt, /*connect=*/false);
  sc_core::sc_clock clk("clk", sc_core::sc_time(1, sc_core::SC_NS));
  TorusNetwork top("torx", net.fabric());
  top.clk_i(clk);
  sc_core::sc_trace_file* tf = nullptr;
  std::string vcd_base;
  if (!opt.trace.empty()) {
    // sc_create_vcd_trace_file appends ".vcd"; name the file exactly as the user asked.
    vcd_base = opt.trace.size() > 4 && opt.trace.compare(opt.trace.size() - 4, 4, ".vcd") == 0
                   ? opt.trace.substr(0, opt.trace.size() - 4)
                   : opt.trace;
    tf = sc_core::sc_create_vcd_trace_file(vcd_base.c_str());
    if (!tf) throw sw::InputError(fmt::format("--trace {}: cannot create the file", opt.trace));
    // 100 ps: the clock's falling edge (at half a cycle) must be representable.
    tf->set_time_unit(100, sc_core::SC_PS);
    top.trace(tf);
  }
  Fabric& fabric = net.fabric();
  fabric.start();
  const auto t1 = clock::now();

  // Clock in chunks so that progress shows and a finished run stops at once.
  Progress progress(opt.progress);
  const uint64_t chunk = tf ? 1000 : 20000;
  while (fabric.status() == RunStatus::kRunning && !top.error()) {
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(chunk), sc_core::SC_NS));
    progress.show(fabric, net.program().messages());
  }
  const auto t2 = clock::now();
  if (tf) {
    sc_core::sc_close_vcd_trace_file(tf);
    if (vcd_base == opt.trace) std::rename((vcd_base + ".vcd").c_str(), opt.trace.c_str());
    blank_vcd_date(opt.trace);
  }
  if (top.error()) std::rethrow_exception(top.error());
  if (fabric.status() != RunStatus::kDone) throw sw::WatchdogError(fabric.stall_report());

  net.fill_report(rep, std::chrono::duration<double>(t2 - t0).count());
  rep.cycle_model->load_seconds = std::chrono::duration<double>(t1 - t0).count();
  rep.cycle_model->run_seconds = std::chrono::duration<double>(t2 - t1).count();
}

}  // namespace torx::model
