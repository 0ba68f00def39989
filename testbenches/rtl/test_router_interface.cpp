// SPDX-License-Identifier: Apache-2.0
// The port contract of docs/router-interface.md: the document's tables are the C++ tables the
// contract check reads (rtl_foreign.cpp), row by row, and torx_router (hw/torx_router.sv), its first
// implementation, passes that check on several shapes; the check refuses a missing port, a wrong
// width, a missing parameter, an unknown --rtl-param and a file that does not parse, naming each.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/topology.hpp"
#include "hw/rtl_foreign.hpp"
#include "hw/rtl_router.hpp"
#include "models/routing_table.hpp"

namespace fs = std::filesystem;
using namespace torx;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The rows of the first Markdown table after the heading `heading`, cells trimmed, header and
// separator rows dropped.
std::vector<std::vector<std::string>> doc_table(const std::string& doc, const std::string& heading) {
  const size_t at = doc.find("\n## " + heading + "\n");
  EXPECT_NE(at, std::string::npos) << heading;
  std::istringstream in(doc.substr(at + 1));
  std::vector<std::vector<std::string>> rows;
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("|", 0) != 0) {
      if (in_table) break;
      continue;
    }
    in_table = true;
    std::vector<std::string> cells;
    std::istringstream c(line.substr(1));
    for (std::string cell; std::getline(c, cell, '|');) {
      while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
      while (!cell.empty() && cell.back() == ' ') cell.pop_back();
      cells.push_back(cell);
    }
    rows.push_back(cells);
  }
  if (rows.size() >= 2) rows.erase(rows.begin(), rows.begin() + 2);
  return rows;
}

const fs::path kSrc = TORX_SOURCE_DIR;

// The shape word of a routing image (docs/routing-tables.md): D, dateline classes, order classes.
uint32_t shape_word(int dims, int dateline, int order) {
  return static_cast<uint32_t>(dims) | (static_cast<uint32_t>(dateline) << 8) | (static_cast<uint32_t>(order) << 16);
}

model::RouterShape shape_of(int dims, int local, int classes, int v, int depth) {
  model::RouterShape s;
  s.ndims = dims;
  s.local_ports = local;
  s.vc_classes = classes;
  s.vcs_per_class = v;
  s.buffer_depth = depth;
  return s;
}

// The contract check's message for the top in `files`, or "" when it passes.
std::string check_message(const std::vector<std::string>& files, const std::string& top,
                          const std::vector<std::pair<std::string, int64_t>>& params = {}) {
  rtl::ForeignRouterOptions o;
  o.sources = files;
  o.top = top;
  o.params = params;
  try {
    rtl::set_foreign_router(o);
    rtl::foreign_router_spec(shape_of(2, 1, 1, 1, 8), sw::Topology({4, 4}, false), shape_word(2, 1, 1));
  } catch (const sw::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(RouterInterface, DocumentPortsAreTheContractTable) {
  const auto rows = doc_table(slurp(kSrc / "docs/router-interface.md"), "Ports");
  const auto& table = rtl::router_contract_ports();
  ASSERT_EQ(rows.size(), table.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 5u) << i;
    EXPECT_EQ(rows[i][0], table[i].name);
    EXPECT_EQ(rows[i][1], table[i].dir) << table[i].name;
    EXPECT_EQ(rows[i][2], table[i].width) << table[i].name;
    EXPECT_EQ(rows[i][3], table[i].required ? "yes" : "no") << table[i].name;
    EXPECT_EQ(rows[i][4], table[i].meaning) << table[i].name;
  }
}

TEST(RouterInterface, DocumentParametersAreTheContractTable) {
  const auto rows = doc_table(slurp(kSrc / "docs/router-interface.md"), "Parameters");
  const auto& table = rtl::router_contract_params();
  ASSERT_EQ(rows.size(), table.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 3u) << i;
    EXPECT_EQ(rows[i][0], table[i].name);
    EXPECT_EQ(rows[i][1], table[i].required ? "yes" : "no") << table[i].name;
    EXPECT_EQ(rows[i][2], table[i].meaning) << table[i].name;
  }
}

// torx_router meets the contract (every required port at its width, the configuration port whole,
// no input outside the table) on a mesh, a torus with order classes and an all-port 3D torus.
TEST(RouterInterface, TorxRouterMeetsTheContract) {
  rtl::ForeignRouterOptions o;
  o.sources = {(kSrc / "hw/torx_router.sv").string()};
  rtl::set_foreign_router(o);
  EXPECT_NO_THROW(rtl::foreign_router_spec(shape_of(2, 1, 1, 1, 8), sw::Topology({4, 4}, false), shape_word(2, 1, 1)));
  EXPECT_NO_THROW(rtl::foreign_router_spec(shape_of(2, 1, 4, 2, 4), sw::Topology({8, 8}, true), shape_word(2, 2, 2)));
  const rtl::RtlModelSpec s =
      rtl::foreign_router_spec(shape_of(3, 6, 2, 1, 8), sw::Topology({4, 4, 4}, true), shape_word(3, 2, 1));
  // Every parameter of the table torx_router declares is passed, with the network's value.
  std::map<std::string, int64_t> p(s.params.begin(), s.params.end());
  EXPECT_EQ(p.at("NumDims"), 3);
  EXPECT_EQ(p.at("NumLocal"), 6);
  EXPECT_EQ(p.at("NumClasses"), 2);
  EXPECT_EQ(p.at("PipelineStages"), 2);
  EXPECT_EQ(p.count("DatelineClasses"), 0u);  // torx_router reads the classes from its image
}

TEST(RouterInterface, ExampleRouterMeetsTheContract) {
  EXPECT_EQ(check_message({(kSrc / "hw/examples/dor_router.sv").string()}, ""), "");
}

// The refusals, each naming what is wrong (the CLI turns them into exit 2: test_foreign_router).
TEST(RouterInterface, RefusesWhatBreaksTheContract) {
  const fs::path bad = kSrc / "testbenches/rtl/foreign";
  EXPECT_NE(check_message({(bad / "no_credit_port.sv").string()}, "").find("has no port credit_vc_o"), std::string::npos)
      << check_message({(bad / "no_credit_port.sv").string()}, "");
  EXPECT_NE(check_message({(bad / "narrow_flit.sv").string()}, "").find("port flit_o has"), std::string::npos)
      << check_message({(bad / "narrow_flit.sv").string()}, "");
  EXPECT_NE(check_message({(bad / "no_depth_param.sv").string()}, "").find("has no parameter BufferDepth"),
            std::string::npos)
      << check_message({(bad / "no_depth_param.sv").string()}, "");
  EXPECT_NE(check_message({(kSrc / "hw/examples/dor_router.sv").string()}, "", {{"Speed", 3}})
                .find("--rtl-param Speed=3: top dor_router"),
            std::string::npos);
  EXPECT_NE(check_message({(bad / "does_not_parse.sv").string()}, "").find("Verilator cannot read top does_not_parse"),
            std::string::npos)
      << check_message({(bad / "does_not_parse.sv").string()}, "");
  EXPECT_NE(check_message({(kSrc / "hw/examples/dor_router.sv").string()}, "no_such_top").find("no_such_top"),
            std::string::npos);
  EXPECT_THROW(rtl::parse_rtl_param("NumDims=3"), sw::InputError);
  EXPECT_THROW(rtl::parse_rtl_param("Depth"), sw::InputError);
}
