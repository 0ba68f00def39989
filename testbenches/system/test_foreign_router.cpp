// SPDX-License-Identifier: Apache-2.0
// `torx run|cosim --rtl-router` as users run them (label rtl): torx_router through the foreign path
// gives --model rtl's figures; the example dimension-order router (hw/examples/dor_router.sv) runs
// seed 002's exchange and suh on a mesh and random traffic, every block checked; its broken variant
// and each link-protocol violation planted in testbenches/rtl/foreign/fv_router.sv (--rtl-param Kind) stop
// with exit 1 and "cycle N, router R, port P: what"; a ring without datelines deadlocks (exit 3, the
// stuck worms); a file that does not parse, a missing port, a wrong width and a parameter the top
// lacks give exit 2 naming it. Each distinct top and shape is one Verilator build (cached).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "cli_runner.hpp"

namespace torx::model {
namespace {

using nlohmann::json;
using testing::Cli;

const std::string kSrc = TORX_SOURCE_DIR;
const std::string kDor = kSrc + "/hw/examples/dor_router.sv";
const std::string kBad = kSrc + "/testbenches/rtl/foreign/";

Cli torx(const std::string& args, int timeout_s = 580) { return testing::run_torx(args, timeout_s, "", "foreign"); }

std::string said(const Cli& c) { return "exit " + std::to_string(c.code) + "\n" + c.out + c.err; }

TEST(ForeignRouter, TorxRouterThroughRtlRouterGivesModelRtlFigures) {
  const std::string args = "run dimak-a2 --topo 4x4 --mesh --model rtl --json -";
  const Cli a = torx(args);
  ASSERT_EQ(a.code, 0) << said(a);
  const Cli b = torx(args + " --rtl-router " + kSrc + "/hw/torx_router.sv");
  ASSERT_EQ(b.code, 0) << said(b);
  const json ja = json::parse(a.out), jb = json::parse(b.out);
  EXPECT_EQ(jb["rtl_router"]["top"], "torx_router");
  EXPECT_EQ(jb["rtl_router"]["hash"].get<std::string>().size(), 16u);
  json fb = testing::figures(jb);
  fb.erase("rtl_router");
  EXPECT_EQ(testing::figures(ja), fb);
  EXPECT_TRUE(jb["check"]["ok"].get<bool>());
}

TEST(ForeignRouter, ExampleRouterRunsTheMeshAlgorithmsEveryBlockChecked) {
  for (const char* algo : {"dimak-a2", "suh"}) {
    const Cli c = torx(std::string("run ") + algo + " --topo 4x4 --mesh --model rtl --rtl-router " + kDor + " --json -");
    ASSERT_EQ(c.code, 0) << algo << "\n" << said(c);
    const json j = json::parse(c.out);
    EXPECT_TRUE(j["check"]["ok"].get<bool>()) << algo;
    EXPECT_EQ(j["model"], "rtl");
    EXPECT_EQ(j["rtl_router"]["top"], "dor_router");
    EXPECT_GT(j["cycle_model"]["step_end"].back().get<uint64_t>(), 0u);
  }
}

TEST(ForeignRouter, ExampleRouterUnderRandomTrafficAgainstTheModel) {
  const Cli c = torx("cosim --topo 4x4 --mesh --cycles 3000 --load 0.3 --barrier-every 0 --rtl-router " + kDor +
                     " --json -");
  ASSERT_EQ(c.code, 1) << said(c);  // its timing differs from torx_router's (one stage, not two)
  const json j = json::parse(c.out);
  const json& m = j["messages"];
  EXPECT_GT(m["compared"].get<uint64_t>(), 500u);
  EXPECT_EQ(m["model_only"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["rtl_only"].get<uint64_t>(), 0u);
  EXPECT_GT(m["earlier"].get<uint64_t>(), 0u);
  EXPECT_NE(m["first_timing"].get<std::string>().find("cycles)"), std::string::npos);
}

TEST(ForeignRouter, TorxRouterAgainstTheModelPerMessageIsIdentical) {
  const Cli c = torx("cosim --topo 4x4 --mesh --cycles 2000 --load 0.3 --rtl-router " + kSrc + "/hw/torx_router.sv");
  ASSERT_EQ(c.code, 0) << said(c);
  EXPECT_NE(c.out.find("every message arrives in the same cycle"), std::string::npos) << c.out;
}

// Under contention (random traffic at load 0.9: downstream buffers fill) the broken variant sends
// into a full buffer.
const std::string kContended = "cosim --topo 4x4 --mesh --load 0.9 --cycles 2000 --rtl-router ";

TEST(ForeignRouter, BrokenVariantIsCaught) {
  const Cli c = torx(kContended + kSrc + "/hw/examples/dor_router_broken.sv " + kDor);
  EXPECT_EQ(c.code, 1) << said(c);
  EXPECT_NE(c.err.find("flit without a credit"), std::string::npos) << said(c);
  EXPECT_NE(c.err.find(", router "), std::string::npos) << said(c);
}

struct Violation {
  int kind;  // fv_router's Kind
  const char* says;
  bool contended;  // needs full buffers or competing worms: random traffic at load 0.9
};

// gtest prints a parameter in the test list: the kind, not the object's bytes (a pointer among them).
void PrintTo(const Violation& v, std::ostream* os) { *os << "fv_router Kind " << v.kind; }

// One kind of the checker per test (docs/router-interface.md, "What the checker enforces").
class CheckerCatches : public ::testing::TestWithParam<Violation> {};

TEST_P(CheckerCatches, ViolationKind) {
  const Violation& v = GetParam();
  const std::string how = v.contended ? kContended : "run dimak-a2 --topo 4x4 --mesh --model rtl --rtl-router ";
  // Kind 1 is dor_router_broken's bug: its model serves (one Verilator build fewer).
  const std::string top = v.kind == 1 ? kSrc + "/hw/examples/dor_router_broken.sv " + kDor
                                      : kBad + "fv_router.sv " + kDor + " --rtl-param Kind=" + std::to_string(v.kind);
  const Cli c = torx(how + top);
  EXPECT_EQ(c.code, 1) << said(c);
  EXPECT_NE(c.err.find(v.says), std::string::npos) << said(c);
  EXPECT_NE(c.err.find("torx: protocol violation: cycle "), std::string::npos) << said(c);
  EXPECT_NE(c.err.find(", port "), std::string::npos) << said(c);
}

const Violation kViolations[] = {
    {1, "flit without a credit", true},   {2, "two worms interleaved", true},
    {3, "beyond the buffer depth", false}, {4, "a VC the port does not have", false},
    {5, "without a head", false},          {6, "X on a valid wire", false},
};

std::string violation_name(const ::testing::TestParamInfo<Violation>& i) {
  static const char* const kNames[] = {"", "NoCredit", "Interleaved", "CreditBeyondDepth",
                                       "VcNotOwned", "BodyWithoutHead", "XOnValid"};
  return kNames[i.param.kind];
}

INSTANTIATE_TEST_SUITE_P(ForeignRouter, CheckerCatches, ::testing::ValuesIn(kViolations), violation_name);

TEST(ForeignRouter, DeadlockIsExit3WithTheStuckWorms) {
  // A ring without datelines (one VC class): the all-to-all's long worms close a cycle.
  const Cli c = torx("run direct --topo 8 --model rtl --block-bytes 512 --param dateline=0 --watchdog 2000 "
                     "--rtl-router " + kDor);
  EXPECT_EQ(c.code, 3) << said(c);
  EXPECT_NE(c.err.find("head: flit"), std::string::npos) << said(c);
}

TEST(ForeignRouter, RefusalsNameWhatIsWrong) {
  const std::string run = "run dimak-a2 --topo 4x4 --mesh --model rtl --rtl-router ";
  struct Case {
    std::string args, says;
  } cases[] = {
      {run + kBad + "does_not_parse.sv", "Verilator cannot read top does_not_parse"},
      {run + kBad + "no_credit_port.sv", "has no port credit_vc_o"},
      {run + kBad + "narrow_flit.sv", "port flit_o has"},
      {run + kBad + "no_depth_param.sv", "has no parameter BufferDepth"},
      {run + kDor + " --rtl-param Turbo=1", "--rtl-param Turbo=1: top dor_router"},
      {run + kDor + " --rtl-param NumDims=3", "torx sets NumDims"},
      {run + kSrc + "/no/such.sv", "no such readable file"},
      {"run dimak-a2 --topo 4x4 --mesh --model cycle --rtl-router " + kDor, "runs in the rtl model"},
      {"run dimak-a2 --topo 4x4 --mesh --model rtl --rtl-top x", "--rtl-top"},
  };
  for (const Case& k : cases) {
    const Cli c = torx(k.args);
    EXPECT_EQ(c.code, 2) << k.args << "\n" << said(c);
    EXPECT_NE(c.err.find(k.says), std::string::npos) << k.args << "\n" << said(c);
  }
}

}  // namespace
}  // namespace torx::model
