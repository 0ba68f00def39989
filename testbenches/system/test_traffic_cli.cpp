// SPDX-License-Identifier: Apache-2.0
// `torx traffic` and `torx plot latency` as a user runs them: a tiny sweep end to end (table, CSV
// and torx.traffic/1 document agree), the same seed gives the same document, the saturation search,
// the latency plot of several documents, exit 1 for a planted fault, and exit 2 naming the problem
// for bad rates, patterns a network cannot have, malformed matrix files and other bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace torx::model {
namespace {

using testing::Cli;
using testing::run_torx;
using testing::temp_path;

constexpr const char* kSmall = "traffic --topo 4x4 --warmup 200 --measure 1000";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The document without its wall-clock times.
nlohmann::json timeless(nlohmann::json j) {
  if (j.is_object()) {
    j.erase("wall_seconds");
    for (auto& [k, v] : j.items()) v = timeless(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = timeless(v);
  }
  return j;
}

TEST(TrafficCli, TinySweepEndToEnd) {
  const std::string json = temp_path("sweep.json"), csv = temp_path("sweep.csv");
  const Cli r = run_torx(std::string(kSmall) + " --sweep 0.1,0.3 --json " + json + " --csv " + csv, 120);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("torx traffic on the 4x4 torus: uniform, cycle model"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  0.1000 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  0.3000 "), std::string::npos) << r.out;
  const nlohmann::json d = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(d["schema"], "torx.traffic/1");
  EXPECT_EQ(d["sweep"], "list");
  ASSERT_EQ(d["runs"].size(), 2u);
  for (const auto& x : d["runs"]) {
    EXPECT_TRUE(x["check"]["ok"].get<bool>());
    EXPECT_FALSE(x["saturated"].get<bool>());
    EXPECT_NEAR(x["accepted"].get<double>(), x["rate"].get<double>(), 0.02);
    EXPECT_GT(x["packet_latency"]["count"].get<uint64_t>(), 100u);
    EXPECT_EQ(x["links"]["flits"].size(), 64u);
  }
  std::istringstream lines(slurp(csv));
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("label,topology,pattern,model,rate,offered", 0), 0u) << header;
  std::vector<std::string> rows;
  while (std::getline(lines, row)) rows.push_back(row);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].rfind(",4x4 torus,uniform,cycle,0.1,", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind(",4x4 torus,uniform,cycle,0.3,", 0), 0u) << rows[1];
}

// A sweep on 1D, 2D and 3D tori and meshes, with the patterns each network has: every packet
// delivered and checked, the low rate carried (accepted within 10 % of offered, not saturated), the
// hop count at most the network's diameter.
TEST(TrafficCli, SweepsOnOneTwoAndThreeDimensionalToriAndMeshes) {
  struct Case {
    const char* topo;
    const char* pattern;
    int diameter;
  } cases[] = {{"16", "uniform", 8},        {"8 --mesh", "tornado", 7},          {"4x4 --mesh", "transpose", 6},
               {"8x4", "bit-reverse", 6},   {"4x4x4", "shuffle", 6},            {"3x3x3 --mesh", "neighbor", 6},
               {"4x4x2 --mesh", "bit-complement", 7}};
  for (const Case& c : cases) {
    const Cli r = run_torx(std::string("traffic --topo ") + c.topo + " --pattern " + c.pattern +
                               " --sweep 0.05,0.1 --warmup 200 --measure 1500 --json -",
                           120);
    ASSERT_EQ(r.code, 0) << c.topo << " " << c.pattern << ": " << r.err;
    const nlohmann::json d = nlohmann::json::parse(r.out);
    ASSERT_EQ(d["runs"].size(), 2u);
    for (const nlohmann::json& run : d["runs"]) {
      SCOPED_TRACE(std::string(c.topo) + " " + c.pattern + " at " + run["rate"].dump());
      EXPECT_TRUE(run["check"]["ok"].get<bool>());
      EXPECT_EQ(run["check"]["lost"], 0);
      EXPECT_GT(run["packets"]["tagged"].get<int>(), 0);
      EXPECT_EQ(run["packets"]["tagged_delivered"], run["packets"]["tagged"]);
      EXPECT_FALSE(run["saturated"].get<bool>());
      EXPECT_NEAR(run["accepted"].get<double>(), run["offered"].get<double>(), 0.1 * run["offered"].get<double>());
      EXPECT_LE(run["hops_mean"].get<double>(), c.diameter);
    }
  }
}

TEST(TrafficCli, SameSeedSameDocument) {
  const std::string a = temp_path("a.json"), b = temp_path("b.json");
  const std::string args = std::string(kSmall) + " --pattern tornado --rate 0.4 --seed 9 --json ";
  ASSERT_EQ(run_torx(args + a, 60).code, 0);
  ASSERT_EQ(run_torx(args + b, 60).code, 0);
  EXPECT_EQ(timeless(nlohmann::json::parse(slurp(a))), timeless(nlohmann::json::parse(slurp(b))));
}

TEST(TrafficCli, SaturationSearch) {
  const std::string json = temp_path("auto.json");
  const Cli r = run_torx(std::string(kSmall) + " --sweep auto --sweep-tolerance 0.05 --json " + json, 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("saturation: between rates"), std::string::npos) << r.out;
  const nlohmann::json d = nlohmann::json::parse(slurp(json));
  const auto& s = d["saturation"];
  const double lo = s["highest_unsaturated"].get<double>(), hi = s["lowest_saturated"].get<double>();
  EXPECT_LT(lo, hi);
  EXPECT_LE(hi - lo, 0.05);
  // Every run on the right side of the bound it set.
  for (const auto& x : d["runs"]) {
    const double rate = x["rate"].get<double>();
    if (rate <= lo) {
      EXPECT_FALSE(x["saturated"].get<bool>()) << rate;
    } else if (rate >= hi) {
      EXPECT_TRUE(x["saturated"].get<bool>()) << rate;
    }
  }
}

TEST(TrafficCli, PlotLatencyDrawsOneCurvePerDocument) {
  const std::string v1 = temp_path("v1.json"), v2 = temp_path("v2.json"), svg = temp_path("lat.svg");
  ASSERT_EQ(run_torx(std::string(kSmall) + " --sweep 0.1,0.5,0.9 --json " + v1, 120).code, 0);
  ASSERT_EQ(run_torx(std::string(kSmall) + " --sweep 0.1,0.5,0.9 --param vcs_per_class=2 --json " + v2, 120).code, 0);
  const Cli r = run_torx("plot latency " + v1 + " " + v2 + " -o " + svg, 30);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string s = slurp(svg);
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_NE(s.find("Latency against offered load: 4x4 torus, uniform, cycle"), std::string::npos);
  size_t curves = 0, points = 0;
  for (size_t p = s.find("class=\"plat\""); p != std::string::npos; p = s.find("class=\"plat\"", p + 1)) ++curves;
  for (size_t p = s.find("class=\"point\""); p != std::string::npos; p = s.find("class=\"point\"", p + 1)) ++points;
  EXPECT_EQ(curves, 2u);
  EXPECT_EQ(points, 6u);
  // Labels from the setting in which the curves differ.
  EXPECT_NE(s.find(">vcs_per_class 1<"), std::string::npos);
  EXPECT_NE(s.find(">vcs_per_class 2<"), std::string::npos);
  // Not a traffic document; a traffic document where a result document belongs.
  const std::string junk = temp_path("junk.json");
  std::ofstream(junk) << "{\"schema\": \"torx.result/1\"}";
  Cli bad = run_torx("plot latency " + v1 + " " + junk + " -o " + svg, 30);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find(junk + ": not a traffic document"), std::string::npos) << bad.err;
  bad = run_torx("plot links " + v1 + " -o " + svg, 30);
  EXPECT_EQ(bad.code, 2);
  bad = run_torx("plot steps " + v1 + " " + v2 + " -o " + svg, 30);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("one result document"), std::string::npos) << bad.err;
}

TEST(TrafficCli, PlantedFaultIsExitOne) {
  for (const char* f : {"corrupt", "misdeliver", "drop", "duplicate"}) {
    const Cli r = run_torx(std::string(kSmall) + " --rate 0.2 --drain 100 --fault " + f, 60);
    EXPECT_EQ(r.code, 1) << f << ": " << r.err;
    EXPECT_NE(r.err.find("check failed"), std::string::npos) << r.err;
  }
}

TEST(TrafficCli, RatesOutsideZeroOneAreExitTwo) {
  for (const char* rate : {"--rate 0", "--rate 1.5", "--rate -0.1", "--rate abc", "--rate nan", "--sweep 0:0.5:0.1",
                           "--sweep 0.1,2", "--sweep 0.5:0.1:0.1", "--sweep 0.1:0.5:0", "--sweep 0.1:0.5"}) {
    const Cli r = run_torx(std::string(kSmall) + " " + rate, 30);
    EXPECT_EQ(r.code, 2) << rate << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(rate).substr(0, std::string(rate).find(' '))), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_torx(kSmall, 30).code, 2);  // no rate at all
  EXPECT_EQ(run_torx(std::string(kSmall) + " --rate 0.1 --sweep 0.2", 30).code, 2);
  EXPECT_EQ(run_torx(std::string(kSmall) + " --rate 1", 60).code, 0);  // 1 is a rate
}

TEST(TrafficCli, PatternsRefuseNetworksTheyAreNotDefinedOn) {
  struct Case {
    const char* args;
    const char* want;
  } cases[] = {{"--topo 6x6 --pattern bit-reverse", "--pattern bit-reverse needs a power-of-two node count"},
               {"--topo 6x6 --pattern shuffle", "--pattern shuffle needs a power-of-two node count"},
               {"--topo 3x4 --pattern bit-complement", "--pattern bit-complement needs a power-of-two"},
               {"--topo 8x4 --pattern transpose", "--pattern transpose needs a square 2D network"},
               {"--topo 4x4x4 --pattern transpose", "--pattern transpose needs a square 2D network"},
               {"--topo 4x4 --pattern bitrev", "--pattern bitrev: must be uniform, transpose"},
               {"--topo 4x4 --pattern hot-spot --hotspot 16", "--hotspot 16"},
               {"--topo 4x4 --pattern hot-spot --hotspot-fraction 2", "--hotspot-fraction 2"},
               {"--topo 4x4 --hotspot 3", "--hotspot and --hotspot-fraction go with --pattern hot-spot"}};
  for (const Case& c : cases) {
    const Cli r = run_torx(std::string("traffic --rate 0.1 ") + c.args, 30);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_NE(r.err.find(c.want), std::string::npos) << c.args << ": " << r.err;
  }
  // The same patterns where they are defined.
  EXPECT_EQ(run_torx("traffic --topo 8x8 --pattern transpose --rate 0.1 --warmup 100 --measure 500", 60).code, 0);
  EXPECT_EQ(run_torx("traffic --topo 4x4 --pattern hot-spot --hotspot 1,1 --hotspot 7 --hotspot-fraction 0.3 "
                     "--rate 0.1 --warmup 100 --measure 500",
                     60)
                .code,
            0);
}

TEST(TrafficCli, MatrixFileErrorsNameFileAndLine) {
  const std::string bad = temp_path("bad.matrix"), good = temp_path("good.matrix");
  std::ofstream(bad) << "# source destination weight\n0 5 1\n3,3 2\n";
  std::ofstream(good) << "0 15 1\n15 0 1\n";
  Cli r = run_torx("traffic --topo 4x4 --rate 0.1 --pattern matrix --matrix " + bad, 30);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(bad + ":3: expected SOURCE DESTINATION WEIGHT, found 2 fields"), std::string::npos) << r.err;
  r = run_torx("traffic --topo 4x4 --rate 0.1 --pattern matrix --matrix /nonexistent.matrix", 30);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent.matrix: cannot open"), std::string::npos) << r.err;
  r = run_torx("traffic --topo 4x4 --rate 0.1 --pattern matrix", 30);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--pattern matrix needs --matrix FILE"), std::string::npos) << r.err;
  r = run_torx("traffic --topo 4x4 --rate 0.1 --matrix " + good, 30);
  EXPECT_EQ(r.code, 2);
  // A matrix for another network.
  r = run_torx("traffic --topo 2x2 --rate 0.1 --pattern matrix --matrix " + good, 30);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(good + ":1: node '15'"), std::string::npos) << r.err;
  const std::string json = temp_path("matrix.json");
  r = run_torx("traffic --topo 4x4 --rate 0.2 --warmup 100 --measure 1000 --pattern matrix --matrix " + good +
                   " --json " + json,
               60);
  ASSERT_EQ(r.code, 0) << r.err;
  // Two of 16 nodes send: the average offered load per node is an eighth of the rate.
  const nlohmann::json d = nlohmann::json::parse(slurp(json));
  EXPECT_NEAR(d["runs"][0]["offered"].get<double>(), 0.2 / 8, 0.005);
  EXPECT_DOUBLE_EQ(d["runs"][0]["hops_mean"].get<double>(), 2.0);
}

TEST(TrafficCli, OtherBadInputIsExitTwo) {
  const char* cases[] = {"--rate 0.1 --warmup -1",
                         "--rate 0.1 --measure 0",
                         "--rate 0.1 --packet-flits 0",
                         "--rate 0.1 --packet-dist 0:1",
                         "--rate 0.1 --packet-dist 4:-1",
                         "--rate 0.1 --packet-flits 4 --packet-dist 4",
                         "--rate 0.1 --injection on_off",
                         "--rate 0.1 --injection on_off --burst-alpha 0.5 --burst-beta 0.5 --burst-r1 0.3",
                         "--rate 0.6 --injection on_off --burst-alpha 0.5 --burst-beta 0.5",
                         "--rate 0.1 --injection poisson",
                         "--rate 0.1 --burst-alpha 0.5",
                         "--rate 0.1 --flit-bytes 33",
                         "--rate 0.1 --model step",
                         "--rate 0.1 --param vcs_per_class=0",
                         "--rate 0.1 --param priority_levels=2",
                         "--rate 0.1 --param buffer_depth=4 --param buffer_depth=6",
                         "--rate 0.1 --param watchdog_cycles=50 --watchdog 9",
                         "--rate 0.1 --hotspot-fraction 0.2",
                         "--rate 0.1 --pattern hot-spot --hotspot-fraction nan",
                         "--rate 0.1 --ties minus",
                         "--rate 0.1 --saturation-ratio 0",
                         "--rate 0.1 --queue-limit 0",
                         "--rate 0.1 --fault explode",
                         "--rate 0.1 --json /nonexistent/dir/x.json",
                         "--rate 0.1 --csv /tmp",
                         "--rate 0.1 --json - --csv -"};
  for (const char* c : cases) {
    const Cli r = run_torx(std::string("traffic --topo 4x4 ") + c, 30);
    EXPECT_EQ(r.code, 2) << c << ": " << r.err;
    EXPECT_NE(r.err.find("torx: error:"), std::string::npos) << c << ": " << r.err;
  }
  const Cli big = run_torx("traffic --topo 64x64 --rate 0.1 --max-memory 1MiB", 30);
  EXPECT_EQ(big.code, 3) << big.err;
}

}  // namespace
}  // namespace torx::model
