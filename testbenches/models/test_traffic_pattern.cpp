// SPDX-License-Identifier: Apache-2.0
// The destination functions of `torx traffic` (models/traffic_pattern.hpp): every permutation is a
// bijection with BookSim's known values, the random patterns cover what they claim, patterns refuse
// networks they are not defined on (naming the pattern and the requirement), and matrix files are
// read exactly and refused, with file and line, when malformed or hostile.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "models/traffic_pattern.hpp"
#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::NodeId;
using sw::Topology;

DestinationPattern make(PatternKind k, const Topology& t) {
  PatternSpec s;
  s.kind = k;
  return DestinationPattern(s, t);
}

std::string error_of(PatternKind k, const Topology& t) {
  try {
    make(k, t);
  } catch (const sw::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TrafficPattern, NamesRoundTrip) {
  for (PatternKind k : {PatternKind::kUniform, PatternKind::kTranspose, PatternKind::kBitComplement,
                        PatternKind::kBitReverse, PatternKind::kShuffle, PatternKind::kTornado, PatternKind::kNeighbor,
                        PatternKind::kHotSpot, PatternKind::kMatrix})
    EXPECT_EQ(sw::value_named(sw::kTrafficPatterns, sw::name_of(sw::kTrafficPatterns, k)), k);
  EXPECT_FALSE(sw::value_named(sw::kTrafficPatterns, "bitcomp").has_value());
  EXPECT_NE(sw::join_names(sw::kTrafficPatterns, "|").find("bit-reverse"), std::string::npos);
}

TEST(TrafficPattern, PermutationsAreBijectionsOnEveryNetworkTheyAccept) {
  const std::vector<std::pair<PatternKind, std::vector<Topology>>> cases = {
      {PatternKind::kTranspose, {Topology({8, 8}, true), Topology({6, 6}, false), Topology({4, 4, 4, 4}, true)}},
      {PatternKind::kBitComplement, {Topology({8, 8}, true), Topology({16}, true), Topology({2, 8, 4}, true)}},
      {PatternKind::kBitReverse, {Topology({8, 8}, true), Topology({32}, true), Topology({4, 4, 4}, false)}},
      {PatternKind::kShuffle, {Topology({8, 8}, true), Topology({16}, true), Topology({4, 2}, true)}},
      {PatternKind::kTornado, {Topology({8, 8}, true), Topology({5, 7}, true), Topology({3, 4, 5}, false)}},
      {PatternKind::kNeighbor, {Topology({8, 8}, true), Topology({6, 3}, true), Topology({2, 2, 2}, true)}}};
  std::mt19937_64 rng(1);
  for (const auto& [kind, topos] : cases)
    for (const Topology& t : topos) {
      const DestinationPattern p = make(kind, t);
      std::set<NodeId> seen;
      for (NodeId s = 0; s < t.nodes(); ++s) {
        const NodeId d = p.dest(s, rng);
        ASSERT_TRUE(t.valid(d)) << sw::name_of(sw::kTrafficPatterns, kind) << " on " << t.to_string();
        EXPECT_EQ(d, p.fixed_dest(s));
        seen.insert(d);
      }
      EXPECT_EQ(seen.size(), static_cast<size_t>(t.nodes())) << sw::name_of(sw::kTrafficPatterns, kind) << " on " << t.to_string();
    }
}

TEST(TrafficPattern, KnownValuesAreBookSims) {
  const Topology t({8, 8}, true);  // 64 nodes, id = x + 8 y
  std::mt19937_64 rng(1);
  // bitcomp: ~s & 63; transpose: (x, y) -> (y, x); bitrev over 6 bits; shuffle: rotate left by one.
  EXPECT_EQ(make(PatternKind::kBitComplement, t).dest(5, rng), 58);
  EXPECT_EQ(make(PatternKind::kBitComplement, t).dest(0, rng), 63);
  EXPECT_EQ(make(PatternKind::kTranspose, t).dest(1 + 8 * 6, rng), 6 + 8 * 1);
  EXPECT_EQ(make(PatternKind::kTranspose, t).dest(3 + 8 * 3, rng), 3 + 8 * 3);  // the diagonal stays
  EXPECT_EQ(make(PatternKind::kBitReverse, t).dest(1, rng), 32);
  EXPECT_EQ(make(PatternKind::kBitReverse, t).dest(0b110100, rng), 0b001011);
  EXPECT_EQ(make(PatternKind::kShuffle, t).dest(0b100001, rng), 0b000011);
  EXPECT_EQ(make(PatternKind::kShuffle, t).dest(0b010110, rng), 0b101100);
  // tornado: + (ceil(k / 2) - 1) = +3 in every dimension; neighbor: +1 in every dimension.
  EXPECT_EQ(make(PatternKind::kTornado, t).dest(0, rng), 3 + 8 * 3);
  EXPECT_EQ(make(PatternKind::kTornado, t).dest(6 + 8 * 7, rng), 1 + 8 * 2);
  EXPECT_EQ(make(PatternKind::kNeighbor, t).dest(7 + 8 * 7, rng), 0);
  EXPECT_EQ(make(PatternKind::kNeighbor, t).dest(2 + 8 * 5, rng), 3 + 8 * 6);
  // Each radix its own: on 5x7, tornado moves +2 in x and +3 in y.
  const Topology odd({5, 7}, true);
  EXPECT_EQ(make(PatternKind::kTornado, odd).dest(4 + 5 * 6, rng), 1 + 5 * 2);
  // 4D transpose: (a, b, c, d) -> (c, d, a, b).
  const Topology t4({3, 3, 3, 3}, true);
  sw::Coord c{};
  c[0] = 0, c[1] = 1, c[2] = 2, c[3] = 0;
  sw::Coord d{};
  d[0] = 2, d[1] = 0, d[2] = 0, d[3] = 1;
  EXPECT_EQ(make(PatternKind::kTranspose, t4).dest(t4.node(c), rng), t4.node(d));
}

TEST(TrafficPattern, RequirementsAreRefusedNamingPatternAndRequirement) {
  const Topology six({6, 6}, true);
  for (PatternKind k : {PatternKind::kBitComplement, PatternKind::kBitReverse, PatternKind::kShuffle}) {
    const std::string e = error_of(k, six);
    EXPECT_NE(e.find(std::string(sw::name_of(sw::kTrafficPatterns, k))), std::string::npos) << e;
    EXPECT_NE(e.find("power-of-two"), std::string::npos) << e;
    EXPECT_NE(e.find("36 nodes"), std::string::npos) << e;
  }
  for (const Topology& t : {Topology({8, 4}, true), Topology({4, 4, 4}, true), Topology({16}, true)}) {
    const std::string e = error_of(PatternKind::kTranspose, t);
    EXPECT_NE(e.find("transpose"), std::string::npos) << e;
    EXPECT_NE(e.find("square"), std::string::npos) << e;
  }
  EXPECT_EQ(error_of(PatternKind::kTranspose, six), "");  // a square of any radix
  PatternSpec hs;
  hs.kind = PatternKind::kHotSpot;
  hs.hotspots = {64};
  EXPECT_THROW(DestinationPattern(hs, Topology({8, 8}, true)), sw::InputError);
  hs.hotspots = {3};
  hs.hotspot_fraction = 1.5;
  EXPECT_THROW(DestinationPattern(hs, Topology({8, 8}, true)), sw::InputError);
}

TEST(TrafficPattern, UniformCoversEveryNodeTheSourceIncluded) {
  const Topology t({4, 4}, true);
  const DestinationPattern p = make(PatternKind::kUniform, t);
  std::mt19937_64 rng(7);
  std::map<NodeId, int> count;
  const int draws = 160000;
  for (int i = 0; i < draws; ++i) ++count[p.dest(5, rng)];
  ASSERT_EQ(count.size(), 16u);
  for (const auto& [d, n] : count) EXPECT_NEAR(n, draws / 16, draws / 16 * 0.05) << "destination " << d;
  EXPECT_EQ(p.fixed_dest(5), -1);
}

TEST(TrafficPattern, HotSpotSendsItsFractionToTheHotNodes) {
  const Topology t({8, 8}, true);
  PatternSpec s;
  s.kind = PatternKind::kHotSpot;
  s.hotspots = {9, 54};
  s.hotspot_fraction = 0.25;
  const DestinationPattern p(s, t);
  std::mt19937_64 rng(3);
  int hot = 0;
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    const NodeId d = p.dest(17, rng);
    hot += d == 9 || d == 54;
  }
  // 25 % directly, plus the uniform remainder's 2 in 64.
  EXPECT_NEAR(hot / double(draws), 0.25 + 0.75 * 2 / 64.0, 0.005);
  EXPECT_NE(p.describe(t).find("25 %"), std::string::npos);
}

TrafficMatrix parse(const std::string& text, const Topology& t) {
  std::istringstream in(text);
  return parse_traffic_matrix(in, "m.txt", t);
}

std::string parse_error(const std::string& text, const Topology& t) {
  try {
    parse(text, t);
  } catch (const sw::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TrafficMatrixFile, ReadsEntriesWithNodesAsIdsOrCoordinates) {
  const Topology t({4, 4}, true);
  const TrafficMatrix m = parse("# a comment\n\n0 5 1\n1,0 #6 3   # node 1 sends to 6 and 7\n#1 3,1 1\n2 2 0\n", t);
  EXPECT_EQ(m.entries, 4u);
  ASSERT_EQ(m.rows[0].size(), 1u);
  EXPECT_EQ(m.rows[0][0].dst, 5);
  ASSERT_EQ(m.rows[1].size(), 2u);
  EXPECT_EQ(m.rows[1][0].dst, 6);
  EXPECT_DOUBLE_EQ(m.rows[1][0].cumulative, 3);
  EXPECT_EQ(m.rows[1][1].dst, 7);
  EXPECT_DOUBLE_EQ(m.rows[1][1].cumulative, 4);
  EXPECT_TRUE(m.rows[2].empty());  // a zero weight sends nothing
  PatternSpec s;
  s.kind = PatternKind::kMatrix;
  s.matrix = m;
  const DestinationPattern p(s, t);
  EXPECT_TRUE(p.sends(1));
  EXPECT_FALSE(p.sends(2));
  std::mt19937_64 rng(5);
  int six = 0;
  for (int i = 0; i < 40000; ++i) {
    const NodeId d = p.dest(1, rng);
    ASSERT_TRUE(d == 6 || d == 7);
    six += d == 6;
  }
  EXPECT_NEAR(six / 40000.0, 0.75, 0.01);
}

TEST(TrafficMatrixFile, MalformedLinesAreRefusedWithFileAndLine) {
  const Topology t({4, 4}, true);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0 1 1\n0 1\n", "m.txt:2: expected SOURCE DESTINATION WEIGHT, found 2 fields"},
      {"0 1 1 2\n", "m.txt:1: expected SOURCE DESTINATION WEIGHT, found 4 fields"},
      {"0 16 1\n", "m.txt:1: node '16'"},
      {"0 4,0 1\n", "m.txt:1: node '4,0'"},
      {"0 1,2,3 1\n", "m.txt:1: node '1,2,3'"},
      {"x 1 1\n", "m.txt:1: node 'x'"},
      {"0 1 -1\n", "m.txt:1: weight '-1'"},
      {"0 1 nan\n", "m.txt:1: weight 'nan'"},
      {"0 1 1e13\n", "m.txt:1: weight '1e13'"},
      {"0 1 2x\n", "m.txt:1: weight '2x'"},
      {"0 1 1\n0 #1 2\n", "the pair 0,0 -> 1,0 is given twice"},
      {"0 1 0\n", "no entry with a positive weight"},
      {"# nothing\n", "no entry with a positive weight"},
      {"0 1 1\n" + std::string(kMatrixMaxLine + 1, '7') + "\n", "m.txt:2: line of 1025 characters"},
      {std::string("0 1\0 1\n", 7), "m.txt:1: a NUL byte"}};
  for (const auto& [text, want] : cases) {
    const std::string e = parse_error(text, t);
    EXPECT_NE(e.find(want), std::string::npos) << "input " << text << " gave: " << e;
  }
}

TEST(TrafficMatrixFile, FilesAreBoundedAndMustBeRegular) {
  const Topology t({4, 4}, true);
  auto error_of_file = [&](const std::string& path) {
    try {
      read_traffic_matrix(path, t);
    } catch (const sw::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of_file("/nonexistent/m.txt").find("cannot open"), std::string::npos);
  EXPECT_NE(error_of_file("/tmp").find("not a regular file"), std::string::npos);
  // A file one byte over the limit (sparse: refused by its size before a byte is read).
  const std::string big = testing::temp_path("big.matrix");
  std::ofstream(big) << "0 1 1\n";
  std::filesystem::resize_file(big, kMatrixMaxBytes + 1);
  EXPECT_NE(error_of_file(big).find("larger than 64 MiB"), std::string::npos);
  const std::string ok = testing::temp_path("ok.matrix");
  std::ofstream(ok) << "3 12 1\n";
  EXPECT_EQ(read_traffic_matrix(ok, t).rows[3][0].dst, 12);
}

}  // namespace
}  // namespace torx::model
