// SPDX-License-Identifier: Apache-2.0
// RTL models on demand (label rtl; docs/rtl.md, "Models on demand"), as users meet them through the
// CLI: shapes the catalog does not hold give the cycle model's figures, figure for figure (priority
// K = 8 on a 2D torus, V = 3 with D = 5 and P = 3, a 4-D torus, an all-port ring with V = 2, priority
// K = 3 on an all-port ring, gossip with 2- and 12-flit packets; K = 8 on a 3D torus and the all-port
// 3D router with V = 2 are disabled here and run by scripts/rtl_big_shapes.sh); torx cosim on shapes
// drawn from a seed has no mismatch; and
// the cache: a second run does not build, two first uses at once build once, a truncated entry is
// rebuilt, a cache that cannot be written falls back or is exit 2 with its path, and a missing
// verilator is exit 2 with the install line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::Cli;

Cli torx(const std::string& args, int timeout_s = 900) { return testing::run_torx(args, timeout_s); }

using testing::figures;
using testing::slurp;

// torx with `env` (NAME=VALUE ...) in front, its outputs in files named after `tag`.
Cli torx_env(const std::string& env, const std::string& args, const std::string& tag = "env", int timeout_s = 900) {
  return testing::run_torx(args, timeout_s, env, tag);
}

struct Shape {
  const char* name;
  const char* args;
};

// Held-out shapes: none of them is in the catalog (torx rtl params), none was built before on-demand.
// CI-sized (ctest): each model builds in under a minute of CPU.
const Shape kHeldOut[] = {
    {"priority_k8_2d", "direct --topo 4x4 --sync priority --param priority_levels=8 --ts 10 --block-bytes 256"},
    {"v3_d5_p3", "t4 --topo 4x4 --param vcs_per_class=3 --param buffer_depth=5 --param router_latency=3"},
    {"torus_4d", "direct --topo 3x3x2x2 --ts 20"},
    {"all_port_1d_v2", "tsay-wang --topo 8 --param vcs_per_class=2"},
    {"priority_k3_all_port_1d", "tsay-wang --topo 8 --sync priority --param priority_levels=3"},
    {"gossip_2_flit", "ms-hc --topo 6x6 --gossip-hw --block-bytes 32"},
    {"gossip_12_flit", "ms-hc --topo 4x4 --gossip-hw --block-bytes 192"},
};
// The largest shapes of issue 22's list: their models take minutes of CPU each (docs/rtl.md, "First
// use"), so ctest lists them as disabled and scripts/rtl_big_shapes.sh runs them
// (--gtest_also_run_disabled_tests).
const Shape kHeldOutBig[] = {
    {"priority_k8_3d", "direct --topo 4x4x4 --sync priority --param priority_levels=8 --ts 10 --block-bytes 256"},
    {"all_port_3d_v2", "tsay-wang --topo 3x3x3 --param vcs_per_class=2"},
};

class HeldOut : public ::testing::TestWithParam<Shape> {};

TEST_P(HeldOut, RtlGivesTheCycleModelsFigures) {
  const Shape& s = GetParam();
  const std::string base = std::string("run ") + s.args + " --json - ";
  const Cli cyc = torx(base + "--model cycle");
  const Cli rtl = torx(base + "--model rtl");
  ASSERT_EQ(cyc.code, 0) << cyc.err;
  ASSERT_EQ(rtl.code, 0) << rtl.err;
  const json a = json::parse(cyc.out), b = json::parse(rtl.out);
  EXPECT_EQ(b["model"], "rtl");
  EXPECT_TRUE(b["check"]["ok"].get<bool>());
  EXPECT_EQ(figures(a), figures(b)) << "cycles " << a["cycles"] << " vs " << b["cycles"];
  std::printf("%s: %s cycles\n", s.name, a["cycles"].dump().c_str());
  // The second run finds the model in the cache: nothing is built.
  const Cli again = torx(base + "--model rtl");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.err.find("Verilating"), std::string::npos) << again.err;
}

INSTANTIATE_TEST_SUITE_P(Shapes, HeldOut, ::testing::ValuesIn(kHeldOut),
                         [](const ::testing::TestParamInfo<Shape>& i) { return std::string(i.param.name); });
INSTANTIATE_TEST_SUITE_P(DISABLED_BigShapes, HeldOut, ::testing::ValuesIn(kHeldOutBig),
                         [](const ::testing::TestParamInfo<Shape>& i) { return std::string(i.param.name); });

// Random shapes from a seed (the same every run): torx cosim in lock step, no mismatch. All-port
// nodes on 1D and 2D tori only: an all-port 3D router (12 ports) takes minutes of CPU to build; the
// catalog's r3d_all_o3 is co-simulated by test_rtl_cosim, and scripts/rtl_big_shapes.sh draws from the
// whole space (TORX_COSIM_DRAW_ALL_PORT_3D=1).
TEST(OnDemand, CosimOnShapesDrawnFromASeedHasNoMismatch) {
  const char* env = std::getenv("TORX_COSIM_DRAW_ALL_PORT_3D");
  const bool all_port_3d = env != nullptr && std::string(env) == "1";
  std::mt19937 rng(2024);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 3; ++i) {
    const int dims = pick(1, 3);
    std::string topo;
    for (int d = 0; d < dims; ++d) topo += (d ? "x" : "") + std::to_string(pick(3, dims == 1 ? 8 : 4));
    const bool mesh = pick(0, 3) == 0;
    const bool all = pick(0, 2) == 0 && (dims < 3 || all_port_3d);
    const int v = pick(1, 2), p = pick(1, 3), k = all ? 1 : pick(1, 3);
    const int d = std::max(pick(2, 6), k);  // the lowest of K levels needs a slot: D > K - 1
    std::string args = "cosim --topo " + topo + (mesh ? " --mesh" : "") + (all ? " --ports all" : "") +
                       " --param vcs_per_class=" + std::to_string(v) + " --param buffer_depth=" + std::to_string(d) +
                       " --param router_latency=" + std::to_string(p) + " --cycles 2000 --load 0.5 --seed " +
                       std::to_string(i + 1) + " --json -";
    if (k > 1) args += " --param priority_levels=" + std::to_string(k);
    SCOPED_TRACE(args);
    const Cli r = torx(args);
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["mismatches"], 0);
    EXPECT_GT(j["compared"].get<uint64_t>(), 1000u);
    std::printf("%s: %s, %s compared\n", args.c_str(), j["rtl_router"].get<std::string>().c_str(),
                j["compared"].dump().c_str());
  }
}

// --- the cache --------------------------------------------------------------------------------------

// A fresh cache directory for one test.
std::string fresh_cache(const char* name) {
  const std::string d = testing::temp_path(name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// Two first uses of one model at once: both succeed, one builds, the other waits and loads it. Then
// a truncated model is found damaged, rebuilt, and the rebuilt one loads.
TEST(OnDemandCache, TwoFirstUsesBuildOnceAndATruncatedEntryIsRebuilt) {
  const std::string dir = fresh_cache("cache_concurrent");
  const std::string a_out = testing::temp_path("a.out"), a_err = testing::temp_path("a.err");
  const std::string b_out = testing::temp_path("b.out"), b_err = testing::temp_path("b.err");
  const std::string run = std::string(TORX_BIN) + " --rtl-cache " + dir + " run direct --topo 3 --model rtl --json - ";
  const std::string cmd = "(" + run + ">" + a_out + " 2>" + a_err + "; echo $? >" + a_out + ".rc) & (" + run + ">" +
                          b_out + " 2>" + b_err + "; echo $? >" + b_out + ".rc) & wait";
  ASSERT_EQ(std::system(("timeout 900 sh -c '" + cmd + "'").c_str()), 0);
  EXPECT_EQ(slurp(a_out + ".rc"), "0\n") << slurp(a_err);
  EXPECT_EQ(slurp(b_out + ".rc"), "0\n") << slurp(b_err);
  const std::string errs = slurp(a_err) + slurp(b_err);
  // Each model (the ring's router r1d, the barrier unit b1) is built by exactly one of the two.
  EXPECT_EQ(count(errs, "[torx rtl] built r1d in"), 1) << errs;
  EXPECT_EQ(count(errs, "[torx rtl] built b1 in"), 1) << errs;
  EXPECT_EQ(json::parse(slurp(a_out))["cycles"], json::parse(slurp(b_out))["cycles"]);

  // Truncate the router's shared object: the list says it is damaged, the next use rebuilds it.
  fs::path so;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && e.path().filename().string().rfind("r1d-", 0) == 0) so = e.path() / "model.so";
  ASSERT_TRUE(fs::exists(so));
  fs::resize_file(so, fs::file_size(so) / 2);
  const Cli list = torx("rtl list --rtl-cache " + dir);
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_NE(list.out.find("DAMAGED"), std::string::npos) << list.out;
  const Cli again = torx("--rtl-cache " + dir + " run direct --topo 3 --model rtl --json -");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("the cached r1d is damaged"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("[torx rtl] built r1d in"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("built b1"), std::string::npos) << again.err;
  EXPECT_EQ(json::parse(again.out)["cycles"], json::parse(slurp(a_out))["cycles"]);
  // The build's tuning is in the key: the defaults spelled out find the same entries; another tuning
  // is another key, so it builds (here it fails at once: Verilator refuses the extra flag).
  const std::string run_cached = "--rtl-cache " + dir + " run direct --topo 3 --model rtl --json -";
  const Cli same = torx_env("TORX_RTL_TUNE='fast=-O1;slow=-O0;trace=-O0'", run_cached, "tune_same");
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(same.err.find("Verilating"), std::string::npos) << same.err;
  const Cli other = torx_env("TORX_RTL_TUNE='vflags=--no-such-flag'", run_cached, "tune_other");
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("Verilating r1d"), std::string::npos) << other.err;
  // torx rtl clean empties it.
  const Cli clean = torx("rtl clean --rtl-cache " + dir);
  ASSERT_EQ(clean.code, 0) << clean.err;
  EXPECT_NE(clean.out.find("removed 2 entries"), std::string::npos) << clean.out;
}

// `torx rtl build` builds a run's models at the same time (the barrier unit while the router is in
// Verilator): both are started before either is built, and a second build finds both cached.
TEST(OnDemandCache, RtlBuildBuildsTheRunsModelsAtOnce) {
  const std::string dir = fresh_cache("build_at_once");
  const Cli r = torx("--rtl-cache " + dir + " rtl build direct --topo 3");
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t built = r.err.find("[torx rtl] built ");
  ASSERT_NE(built, std::string::npos) << r.err;
  EXPECT_LT(r.err.find("[torx rtl] Verilating r1d"), built) << r.err;
  EXPECT_LT(r.err.find("[torx rtl] Verilating b1"), built) << r.err;
  EXPECT_EQ(count(r.err, "[torx rtl] built "), 2) << r.err;
  EXPECT_NE(r.out.find("built r1d"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("built b1"), std::string::npos) << r.out;
  const Cli again = torx("--rtl-cache " + dir + " rtl build direct --topo 3");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.err.find("Verilating"), std::string::npos) << again.err;
}

// A cache directory that cannot be written: named explicitly, exit 2 with its path; the default one
// (from XDG_CACHE_HOME), a fallback under the temporary directory, said on stderr.
TEST(OnDemandCache, UnwritableCacheDirIsExitTwoOrFallsBack) {
  const std::string file = testing::temp_path("not_a_dir");
  std::ofstream(file) << "x";
  const Cli r = torx("--rtl-cache " + file + "/rtl run direct --topo 3 --model rtl --param buffer_depth=3");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot write the RTL model cache " + file + "/rtl"), std::string::npos) << r.err;
  const std::string tmp = fresh_cache("fallback_tmp");
  const Cli f = torx_env("-u TORX_RTL_CACHE XDG_CACHE_HOME=" + file + " TMPDIR=" + tmp,
                         "rtl build --catalog b1", "fallback");
  EXPECT_EQ(f.code, 0) << f.err;
  EXPECT_NE(f.err.find("cannot write the RTL cache " + file + "/torx/rtl"), std::string::npos) << f.err;
  EXPECT_NE(f.out.find(tmp + "/torx-rtl-"), std::string::npos) << f.out;
}

// TORX_RTL_PROPS_PORTS (the properties only in routers of at most N ports) that is not a number:
// exit 2 naming it, before anything is built.
TEST(OnDemandCache, PropsPortsThatIsNotANumberIsExitTwo) {
  const std::string dir = fresh_cache("props_ports");
  const Cli r = torx_env("TORX_RTL_PROPS_PORTS=five", "--rtl-cache " + dir + " run direct --topo 3 --model rtl", "pp");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("TORX_RTL_PROPS_PORTS: 'five' is not a number of ports"), std::string::npos) << r.err;
}

// No verilator on PATH: exit 2, naming the package to install; nothing half-built stays behind.
TEST(OnDemandCache, MissingVerilatorIsExitTwoWithTheInstallLine) {
  const std::string dir = fresh_cache("no_verilator");
  const Cli r = torx_env("PATH=/nonexistent", "--rtl-cache " + dir + " run direct --topo 3 --model rtl", "nov");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("apt-get install verilator"), std::string::npos) << r.err;
  const Cli list = torx("rtl list --rtl-cache " + dir);
  EXPECT_NE(list.out.find(": 0 entries"), std::string::npos) << list.out;
}

}  // namespace
}  // namespace torx::model
