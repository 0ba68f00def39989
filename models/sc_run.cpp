// SPDX-License-Identifier: Apache-2.0
// run_cycle_model(): a CycleNetwork clocked by the SystemC kernel.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <systemc>

#include "core/errors.hpp"
#include "core/output_file.hpp"
#include "models/loader.hpp"
#include "models/sc_network.hpp"

// libsystemc.so refers to sc_main (its own main() calls it). Programs with their own main() (the
// torx CLI, the tests) get this weak definition; a program that defines sc_main keeps its own.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "torx: this program has no sc_main\n");
  return 4;
}

namespace torx::model {

namespace {

// SystemC reports go to standard error (its default handler writes to standard output, which would
// corrupt a result document written there); errors become exceptions.
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) && rep.get_severity() != sc_core::SC_INFO)
    std::fprintf(stderr, "torx: systemc %s: %s: %s\n",
                 rep.get_severity() == sc_core::SC_INFO      ? "info"
                 : rep.get_severity() == sc_core::SC_WARNING ? "warning"
                                                             : "error",
                 rep.get_msg_type(), rep.get_msg());
  if (rep.get_severity() >= sc_core::SC_ERROR) throw std::runtime_error(std::string("SystemC: ") + rep.get_msg());
}

// Installs report_handler for the lifetime of a run and puts back whatever was there before.
class ReportHandlerScope {
 public:
  ReportHandlerScope() : previous_(sc_core::sc_report_handler::set_handler(report_handler)) {}
  ~ReportHandlerScope() { sc_core::sc_report_handler::set_handler(previous_); }
  ReportHandlerScope(const ReportHandlerScope&) = delete;
  ReportHandlerScope& operator=(const ReportHandlerScope&) = delete;

 private:
  sc_core::sc_report_handler_proc previous_;
};

// SystemC's VCD writer does not report its write errors (a full disk, ulimit -f): a complete
// waveform ends with the line "#T" of the time the trace was closed at (in the trace's units), written
// last; a file that does not is cut off. The reason is the one a further write to it gets.
void check_vcd_complete(const std::string& file, const std::string& trace, uint64_t end_units) {
  std::FILE* f = std::fopen(file.c_str(), "r+b");
  if (!f) throw sw::InputError(fmt::format("--trace {}: cannot read back the waveform: {}", trace, std::strerror(errno)));
  const std::string want = fmt::format("\n#{}\n", end_units);
  char tail[64] = {};
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  const long n = std::min<long>(size, static_cast<long>(want.size()));
  std::fseek(f, size - n, SEEK_SET);
  const size_t got = std::fread(tail, 1, static_cast<size_t>(n), f);
  if (got == want.size() && std::string(tail, got) == want) {
    std::fclose(f);
    return;
  }
  // Cut off: ask the file system why (the same write error SystemC's writer met).
  std::fseek(f, 0, SEEK_END);
  errno = 0;
  const bool wrote = std::fputc('\n', f) != EOF && std::fflush(f) == 0;
  const int err = wrote ? 0 : errno;
  std::fclose(f);
  throw sw::InputError(fmt::format("--trace {}: write error: {} (the waveform stopped after {} bytes)", trace,
                                   err ? std::strerror(err) : "the file was cut off", size));
}

// SystemC writes the wall-clock date into the VCD header. Overwrite it in place with blanks of the
// same length, so that the same inputs give a byte-identical trace (and the file is not copied).
void blank_vcd_date(const std::string& path, const std::string& trace) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (!f) throw sw::InputError(fmt::format("--trace {}: cannot open the waveform again: {}", trace, std::strerror(errno)));
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
  if (std::fclose(f) != 0) throw sw::InputError(fmt::format("--trace {}: write error: {}", trace, std::strerror(errno)));
}

}  // namespace

sw::CycleFigures run_cycle_model(CycleNetwork& net, const CycleOptions& opt) {
  using clock = std::chrono::steady_clock;
  ReportHandlerScope handler;
  // A trace shows every cycle: the network is clocked. Otherwise it is self-timed and skips the
  // cycles in which nothing is due (a long t_s costs nothing); the results are the same.
  const bool clocked = !opt.trace.empty();
  // (A clock that exists ticks whether bound or not: it is made only when used.)
  std::unique_ptr<sc_core::sc_clock> clk;
  sc_core::sc_signal<bool> quiet("quiet_clk");
  TorusNetwork top("torx", net.fabric(), !clocked);
  if (clocked) {
    clk = std::make_unique<sc_core::sc_clock>("clk", sc_core::sc_time(1, sc_core::SC_NS));
    top.clk_i(*clk);
  } else {
    top.clk_i(quiet);
  }
  sc_core::sc_trace_file* tf = nullptr;
  std::unique_ptr<sw::TempOutputPath> vcd;
  if (!opt.trace.empty()) {
    // Written beside the file asked for and renamed to it when complete (core/output_file.hpp);
    // sc_create_vcd_trace_file appends ".vcd" to the name it is given.
    vcd = std::make_unique<sw::TempOutputPath>("--trace", opt.trace, ".vcd");
    tf = sc_core::sc_create_vcd_trace_file(vcd->base().c_str());
    if (!tf) throw sw::InputError(fmt::format("trace file {}: cannot create it", opt.trace));
    // 100 ps: the clock's falling edge (at half a cycle) must be representable.
    tf->set_time_unit(100, sc_core::SC_PS);
    top.trace(tf);
  }
  Fabric& fabric = net.fabric();
  fabric.start();
  const auto t1 = clock::now();

  // Clock in chunks so that progress shows and a finished run stops at once.
  // (Self-timed, the fabric may be far ahead of the kernel's time in a skip: the chunk reaches past it.)
  const uint64_t chunk = tf ? 1000 : 20000;
  while (fabric.status() == RunStatus::kRunning && !top.error()) {
    const uint64_t now = static_cast<uint64_t>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
    const uint64_t ahead = fabric.cycle() > now ? fabric.cycle() - now : 0;
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(chunk + ahead), sc_core::SC_NS));
    if (opt.progress) opt.progress(Progress{fabric.cycle(), net.stats().messages_done, net.program().messages()});
  }
  const auto t2 = clock::now();
  if (tf) {
    const auto end_units = static_cast<uint64_t>(sc_core::sc_time_stamp().value() /
                                                 sc_core::sc_time(100, sc_core::SC_PS).value());
    sc_core::sc_close_vcd_trace_file(tf);
    check_vcd_complete(vcd->file(), opt.trace, end_units);
    blank_vcd_date(vcd->file(), opt.trace);
    vcd->commit();
  }
  if (top.error()) std::rethrow_exception(top.error());
  if (fabric.status() != RunStatus::kDone) throw sw::WatchdogError(net.stall_report());
  sw::CycleFigures r = net.result();
  r.run_seconds = std::chrono::duration<double>(t2 - t1).count();
  return r;
}

}  // namespace torx::model
