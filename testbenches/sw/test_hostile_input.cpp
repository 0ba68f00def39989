// Hostile input, round two (issue 31): memory estimated before the step model and `torx stats`
// allocate; the forwarding-table and plot readers bounded (line, size, depth; devices); plot's
// schema check; outputs written beside their name and renamed (a killed or failed run leaves the
// good file and no fragment); SIGXFSZ; "-" for every output; control bytes quoted in messages; an
// output checked before the work. Each test runs the torx binary, with shell limits where a case
// needs them (ulimit -v, -f), and fails on the code before this issue.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::read_file;
using testing::run_torx;
using testing::temp_dir;
using testing::write_temp;

struct Shell {
  int code;
  std::string out, err;
};

// Runs `script` under sh with TORX naming the binary; standard output and error captured.
Shell sh(const std::string& script) {
  const std::string out = temp_dir() + "/sh.out", err = temp_dir() + "/sh.err", file = temp_dir() + "/sh.script";
  write_temp("sh.script", "TORX=" + std::string(TORX_BIN) + "\n" + script + "\n");
  const int st = std::system(("bash " + file + " >" + out + " 2>" + err).c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), read_file(out), read_file(err)};
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// The temporary files OutputFile leaves beside `dir`'s outputs (none after any run).
std::string temporaries(const std::string& dir) {
  return sh("ls -a " + dir + " | grep 'torx-' || true").out;
}

// --- 1. memory estimated before the step model and torx stats allocate ---------------------------

TEST(HostileMemory, StepModelStopsAtOnceNamingEstimateAndLimit) {
  // ring on 65536 nodes tracks 65536^2 bytes of block state, and its schedule holds 65536 messages
  // per step: before, it grew to the limit and ended "out of memory" after 40 s.
  for (const std::string& cmd : std::vector<std::string>{"run ring --topo 65536 --max-memory 2GiB", "stats ring --topo 65536 --max-memory 2GiB",
                                "stats t4 --topo 4096x4096 --max-memory 2GiB"}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Shell r = sh("ulimit -v 4194304; timeout 60 $TORX " + cmd);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 3) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("limit"), std::string::npos) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("2.0 GiB"), std::string::npos) << cmd << ": " << r.err;
    EXPECT_LT(s, 20.0) << cmd << " took " << s << " s";
  }
}

TEST(HostileMemory, DefaultLimitFollowsTheAddressSpaceLimit) {
  // No --max-memory: the default limit (ulimit -v here) is named, exit 3 before any allocation.
  const Shell r = sh("ulimit -v 2097152; timeout 60 $TORX run ring --topo 65536");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("limit"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("out of memory"), std::string::npos) << r.err;
}

// --- 2. the forwarding-table reader: lines, size, devices, excerpts ------------------------------

TEST(HostileTables, DevZeroIsRefusedAtOnce) {
  for (const std::string& cmd : std::vector<std::string>{"tables --check /dev/zero", "run ms-hc --topo 4x4 --model cycle --gossip-hw --gossip-tables /dev/zero"}) {
    const Shell r = sh("ulimit -v 1048576; timeout 20 $TORX " + cmd);
    if (r.err.find("--gossip-hw") != std::string::npos && r.err.find("unknown") != std::string::npos) continue;  // no cycle model
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("/dev/zero"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("NUL"), std::string::npos) << r.err;
  }
}

TEST(HostileTables, LongLineIsRefusedAndNotEchoed) {
  // One 8 MiB line: refused at the 1 MiB line cap, the message short.
  const std::string path = temp_dir() + "/longline.tab";
  sh("printf 'torx-forwarding-tables 1\\n' > " + path + "; head -c 8388608 /dev/zero | tr '\\0' 'A' >> " + path);
  const auto r = run_torx("tables --check " + path, 30);
  EXPECT_EQ(r.code, 2) << r.err.substr(0, 400);
  EXPECT_NE(r.err.find("line 2: line longer than 1048576 bytes"), std::string::npos) << r.err.substr(0, 400);
  EXPECT_LT(r.err.size(), 400u);
  // A long token below the cap is quoted as a short excerpt.
  const std::string tok = write_temp("longtoken.tab", "torx-forwarding-tables 1\n" + std::string(500000, 'B') + " 1\n");
  const auto t = run_torx("tables --check " + tok, 30);
  EXPECT_EQ(t.code, 2);
  EXPECT_NE(t.err.find("... (500000 bytes)"), std::string::npos) << t.err.substr(0, 400);
  EXPECT_LT(t.err.size(), 400u);
}

TEST(HostileTables, TotalSizeIsCapped) {
  // Comment lines only: within the line cap, unbounded in total; refused at 1 GiB without holding it.
  const Shell r = sh("ulimit -v 1048576; (printf 'torx-forwarding-tables 1\\n'; yes '# padding padding padding padding') | "
                     "timeout 120 $TORX tables --check /dev/stdin");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("longer than 1024 MiB"), std::string::npos) << r.err;
}

// --- 3. and 4. the plot document reader: size, depth, schema -------------------------------------

TEST(HostilePlot, EndlessStandardInputIsRefusedWithinBoundedMemory) {
  const Shell r = sh("yes '[' | (ulimit -v 1048576; timeout 60 $TORX plot steps - -o " + temp_dir() + "/endless.svg)");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("larger than 64 MiB"), std::string::npos) << r.err;
  const Shell deep = sh("head -c 100000 /dev/zero | tr '\\0' '[' | timeout 20 $TORX plot steps - -o " + temp_dir() + "/deep.svg");
  EXPECT_EQ(deep.code, 2) << deep.err;
  EXPECT_NE(deep.err.find("nested more than 64 deep"), std::string::npos) << deep.err;
  EXPECT_FALSE(exists(temp_dir() + "/deep.svg"));
}

std::string result_doc(const std::string& dims, const std::string& extra_topology, const std::string& cycle_model,
                       const std::string& more = "") {
  return R"({"schema": "torx.result/1", "algorithm": "ring", "model": "cycle", "sync": "barrier", "topology": {"dims": )" +
         dims + R"(, "wrap": true)" + extra_topology + R"(}, "timing": {"step_cycles": [10, 10]}, "cycles": 20, "cycle_model": )" +
         cycle_model + more + "}";
}

// `text` with its first `from` replaced by `to`.
std::string with(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

struct PlotCase {
  const char* name;
  const char* kind;
  std::string doc;
  const char* needle;
};

TEST(HostilePlot, NonsenseDocumentsAreRefusedNamingTheKey) {
  const std::string ok_cm = R"({"link_flits": [1, 2, 3, 4], "step_start": [0, 10], "step_end": [10, 20]})";
  const PlotCase cases[] = {
      {"huge_radix", "links", result_doc("[4294967304, 8]", "", ok_cm), "topology.dims[0]: 4294967304 is above"},
      {"fractional_radix", "links", result_doc("[8.5, 8]", "", ok_cm), "topology.dims[0]: expected a whole number, not 8.5"},
      {"negative_flits", "links", result_doc("[2]", "", R"({"link_flits": [1, -5, 3, 4]})"),
       "cycle_model.link_flits[1]: -5 is negative"},
      {"huge_float_flits", "links", result_doc("[2]", "", R"({"link_flits": [1, 1e308, 3, 4]})"),
       "cycle_model.link_flits[1]: expected a whole number"},
      {"end_before_start", "steps", result_doc("[2]", "", R"({"step_start": [0, 15], "step_end": [10, 12]})"),
       "cycle_model.step_end[1]: 12 is before step_start 15"},
      {"nodes_contradict_dims", "steps", result_doc("[4, 4]", R"(, "nodes": 17)", "null"),
       "topology.nodes: 17 contradicts topology.dims (16 nodes)"},
      {"float_cycles", "steps", with(result_doc("[2]", "", "null"), "\"cycles\": 20", "\"cycles\": 1e308"),
       "cycles: expected a whole number"},
      {"negative_step_cycles", "steps", with(result_doc("[2]", "", "null"), "[10, 10]", "[10, -1]"),
       "timing.step_cycles[1]: -1 is negative"},
      {"string_wrap", "steps", with(result_doc("[2]", "", "null"), "\"wrap\": true", "\"wrap\": \"yes\""),
       "topology.wrap: expected true or false"},
      {"float_barriers", "steps", result_doc("[2]", "", R"({"barriers": 1e308, "step_start": [0, 10], "step_end": [10, 20]})"),
       "cycle_model.barriers: expected a whole number"},
      {"traffic_offered_nan", "latency",
       R"({"schema": "torx.traffic/1", "topology": {"dims": [4, 4]}, "pattern": {}, "injection": {}, "runs": [
           {"offered": 1e308, "saturated": false, "packet_latency": {"count": 1, "mean": 3}, "network_latency": {"mean": 2}}]})",
       "runs[0].offered: 1e+308 is not in [0, 1]"},
      {"traffic_negative_count", "latency",
       R"({"schema": "torx.traffic/1", "topology": {"dims": [4, 4]}, "pattern": {}, "injection": {}, "runs": [
           {"offered": 0.1, "saturated": false, "packet_latency": {"count": -1, "mean": 3}, "network_latency": {"mean": 2}}]})",
       "runs[0].packet_latency.count: -1 is negative"},
  };
  for (const PlotCase& c : cases) {
    const std::string in = write_temp(std::string(c.name) + ".json", c.doc);
    const auto r = run_torx(std::string("plot ") + c.kind + " " + in + " -o " + temp_dir() + "/nonsense.svg", 30);
    EXPECT_EQ(r.code, 2) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.name << ": " << r.err;
    EXPECT_FALSE(exists(temp_dir() + "/nonsense.svg")) << c.name;
  }
  // The same document with sensible numbers is drawn (the cases fail on their defect alone).
  const std::string good = write_temp("good_plot.json", result_doc("[2]", ", \"nodes\": 2", ok_cm));
  EXPECT_EQ(run_torx("plot links " + good + " -o " + temp_dir() + "/good.svg", 30).code, 0);
  EXPECT_EQ(run_torx("plot steps " + good + " -o " + temp_dir() + "/good.svg", 30).code, 0);
}

// --- 5. outputs replace a good file only when complete; a signal removes the temporary file -------

TEST(HostileOutput, FailedRunLeavesTheGoodFileAndNoFragment) {
  const std::string dir = temp_dir() + "/atomic";
  sh("rm -rf " + dir + "; mkdir -p " + dir);
  const std::string sched = dir + "/s.sched", json = dir + "/r.json", tab = dir + "/t.tab";
  ASSERT_EQ(run_torx("schedule ring --topo 8 -o " + sched).code, 0);
  ASSERT_EQ(run_torx("run ring --topo 8 --json " + json).code, 0);
  ASSERT_EQ(run_torx("tables ms-hc --topo 4x4 -o " + tab).code, 0);
  const std::string s0 = read_file(sched), j0 = read_file(json), t0 = read_file(tab);
  // Each fails half-way on a 16 KiB file-size limit (ulimit -f 16): the good files stay.
  for (const std::string& cmd : std::vector<std::string>{"schedule ring --topo 1024 -o " + sched, "tables ms-hc --topo 32x32 -o " + tab,
                                "run direct --topo 32x32 --json " + json}) {
    const Shell r = sh("ulimit -f 16; timeout 120 $TORX " + cmd);
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << cmd << ": " << r.err;
  }
  EXPECT_EQ(read_file(sched), s0);
  EXPECT_EQ(read_file(json), j0);
  EXPECT_EQ(read_file(tab), t0);
  EXPECT_EQ(temporaries(dir), "");
}

TEST(HostileOutput, InterruptedRunRemovesItsTemporaryFile) {
  // A schedule that takes seconds to write, killed by SIGTERM and SIGINT half-way.
  const std::string dir = temp_dir() + "/killed";
  for (const char* sig : {"TERM", "INT"}) {
    sh("rm -rf " + dir + "; mkdir -p " + dir + "; echo good > " + dir + "/s.sched");
    // (set -m: a background job of a script would otherwise ignore SIGINT, and torx keeps it ignored.)
    const Shell r = sh("set -m; $TORX schedule ring --topo 4096 -o " + dir + "/s.sched & pid=$!; "
                       "for i in $(seq 100); do sleep 0.1; ls -a " + dir + " | grep -q torx- && break; done; "
                       "sleep 0.3; kill -" + std::string(sig) + " $pid; wait $pid; echo rc=$?");
    EXPECT_NE(r.out.find("rc=" + std::to_string(128 + (std::string(sig) == "TERM" ? 15 : 2))), std::string::npos)
        << sig << ": " << r.out << r.err;
    EXPECT_EQ(read_file(dir + "/s.sched"), "good\n") << sig;
    EXPECT_EQ(temporaries(dir), "") << sig;
  }
}

// --- 7. ulimit -f: SIGXFSZ ignored, the write error reported, the partial file removed ------------

TEST(HostileOutput, FileSizeLimitIsAWriteError) {
  const std::string dir = temp_dir() + "/fsize";
  sh("rm -rf " + dir + "; mkdir -p " + dir);
  const Shell r = sh("cd " + dir + "; ulimit -f 16; $TORX schedule ring --topo 1024 -o f");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("-o f: write error: File too large"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(dir + "/f"));
  EXPECT_EQ(temporaries(dir), "");
}

// --- 6. (host part) empty output names ------------------------------------------------------------

TEST(HostileOutput, EmptyOutputNamesAreRefused) {
  for (const std::string& cmd : std::vector<std::string>{"run ring --topo 8 --json ''", "run ring --topo 8 --trace ''", "schedule ring --topo 8 -o ''",
                                "tables ms-hc --topo 4x4 -o ''", "reproduce tseng --json ''"}) {
    const Shell r = sh("timeout 60 $TORX " + cmd);
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("give a file name"), std::string::npos) << cmd << ": " << r.err;
  }
}

// --- 8. "-" is standard output for every output option --------------------------------------------

TEST(HostileOutput, DashIsStandardOutputEverywhere) {
  const std::string dir = temp_dir() + "/dash";
  sh("rm -rf " + dir + "; mkdir -p " + dir);
  const Shell t = sh("cd " + dir + "; $TORX tables ms-hc --topo 4x4 -o -");
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(t.out.rfind("torx-forwarding-tables 1\n", 0), 0u) << t.out.substr(0, 200);
  EXPECT_NE(t.err.find("ms-hc"), std::string::npos) << t.err;  // the summary on standard error
  EXPECT_FALSE(exists(dir + "/-"));
  // What it wrote is a forwarding-table file.
  write_temp("dash.tab", t.out);
  EXPECT_EQ(run_torx("tables --check " + temp_dir() + "/dash.tab").code, 0);
  const Shell two = sh("cd " + dir + "; $TORX tables ms-hc --topo 4x4 -o - --json -");
  EXPECT_EQ(two.code, 2) << two.err;
  for (const std::string& cmd : std::vector<std::string>{"schedule ring --topo 8 -o -", "run ring --topo 8 --json -"}) {
    const Shell r = sh("cd " + dir + "; $TORX " + cmd);
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_FALSE(exists(dir + "/-")) << cmd;
  }
}

// --- 9. control bytes in echoed input are quoted --------------------------------------------------

TEST(HostileMessages, ControlBytesAreQuoted) {
  const std::string sched = write_temp(
      "escape.sched", "torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nstep\n"
                      "0 -> 1 \x1b[31mx+\x1b]0;pwned\x07 | 0>1\nend\n");
  const auto r = run_torx("run --schedule " + sched + " --topo 3");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("\\x1b"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x07'), std::string::npos) << r.err;
  // In the option parser's messages and the command's name too.
  for (const std::string& cmd : std::vector<std::string>{"$TORX run ring --topo \"$(printf '8\\033[2J')\"", "$TORX \"$(printf 'ru\\033n')\"",
                                "$TORX run \"$(printf 'ri\\rng')\" --topo 8"}) {
    const Shell s = sh(cmd);
    EXPECT_EQ(s.code, 2) << cmd << ": " << s.err;
    EXPECT_EQ(s.err.find('\x1b'), std::string::npos) << cmd << ": " << s.err;
    EXPECT_EQ(s.err.find('\r'), std::string::npos) << cmd << ": " << s.err;
  }
}

// --- 10. an output is checked before the work -----------------------------------------------------

TEST(HostileOutput, UnwritableOutputIsRefusedBeforeTheWork) {
  // reproduce tseng takes minutes; each of these must fail within seconds.
  for (const std::string& cmd : std::vector<std::string>{"reproduce tseng --json /dev/full", "reproduce tseng --json /nonexistent/dir/r.json",
                                "run direct --topo 32x32 --json /dev/full", "stats ring --topo 4096 --json /proc/version",
                                "tables ms-hc --topo 32x32 -o /dev/full"}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Shell r = sh("timeout 60 $TORX " + cmd);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_LT(s, 30.0) << cmd;  // the work takes minutes (reproduce: 102 s before)
  }
}

}  // namespace
}  // namespace torx::sw
