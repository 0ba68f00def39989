// Schedule file format: what the writer writes, the reader reads back identically; the reader
// streams and names file, line and problem for malformed input.
#include <gtest/gtest.h>

#include <random>

#include "algorithms/registry.hpp"
#include "core/schedule_io.hpp"
#include "test_util.hpp"

namespace torx::sw {
namespace {

using testing::read_file;
using testing::write_temp;

const char* kRing3 =
    "torx-schedule 1\n"
    "# a complete exchange on a ring of 3, two steps\n"
    "algorithm custom\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nsteps 2\n"
    "step one\n0 -> 1 x+ | 0>1\n1 -> 2 x+ | 1>2\n2 -> 0 x+ | 2>0\n"
    "step two sync=none\n0 -> 2 x- | 0>2\n1 -> 0 x- | 1>0\n2 -> 1 x- prio=3 | 2>1\n"
    "end\n";

TEST(ScheduleIo, ReadsHeaderStepsAndMessages) {
  const std::string path = write_temp("ring3.sched", kRing3);
  Schedule s;
  const Topology topo({3}, true);
  read_schedule(path, &topo, s);
  EXPECT_EQ(s.header.collective, Collective::kAlltoall);
  EXPECT_EQ(s.header.steps, 2);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].label, "one");
  EXPECT_EQ(s.steps[1].sync, SyncMark::kNone);
  ASSERT_EQ(s.steps[1].messages.size(), 3u);
  EXPECT_EQ(s.steps[1].messages[2].priority, 3);
  EXPECT_TRUE(s.steps[1].messages[0].route.negative(0));
  EXPECT_EQ(s.steps[1].messages[0].line, 14u);  // line 2 is a comment
}

TEST(ScheduleIo, WriteReadWriteIsIdentical) {
  const std::string path = write_temp("ring3b.sched", kRing3);
  Schedule s;
  read_schedule(path, nullptr, s);
  const std::string out1 = testing::temp_dir() + "/w1.sched", out2 = testing::temp_dir() + "/w2.sched";
  {
    ScheduleWriter w(out1);
    s.replay(w);
  }
  Schedule t;
  read_schedule(out1, nullptr, t);
  {
    ScheduleWriter w(out2);
    t.replay(w);
  }
  EXPECT_EQ(read_file(out1), read_file(out2));
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[1].messages[2].priority, 3);
}

TEST(ScheduleIo, GeneratedScheduleRoundTripsThroughTheFile) {
  // The direct schedule on a 4x3 mesh: write, read, write again; byte-identical.
  const Topology topo({4, 3}, false);
  const Algorithm* direct = find_algorithm("direct");
  ASSERT_NE(direct, nullptr);
  const std::string a = testing::temp_dir() + "/d1.sched", b = testing::temp_dir() + "/d2.sched";
  {
    ScheduleWriter w(a);
    direct->generate(topo, {}, w);
  }
  Schedule s;
  read_schedule(a, &topo, s);
  EXPECT_EQ(s.steps.size(), 11u);
  {
    ScheduleWriter w(b);
    s.replay(w);
  }
  EXPECT_EQ(read_file(a), read_file(b));
}

TEST(ScheduleIo, ErrorsNameFileLineAndField) {
  const Topology topo({3}, true);
  struct Case {
    std::string text;
    std::string needle;
  } cases[] = {
      {"torx-schedule 2\n", ":1: schedule format version 2 is not supported"},
      {"collective alltoall\n", ":1: not a torx schedule"},
      {"torx-schedule 1\ncolour blue\n", ":2: unknown header field 'colour'"},
      {"torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nstep\n0 -> 7 | 0>1\nend\n",
       ":7: message destination node '7'"},
      {"torx-schedule 1\ncollective alltoall\ntopology 3 torus\nports one\nswitching wormhole\nstep\n0 -> 1 | 0>1\n",
       "truncated"},
  };
  for (const Case& c : cases) {
    const std::string path = write_temp("bad.sched", c.text);
    Schedule s;
    try {
      read_schedule(path, &topo, s);
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
    }
  }
}

TEST(ScheduleIo, RandomCorruptionOnlyEverRaisesInputError) {
  // Mutate a valid file in many ways: the reader and the step model either accept the result or
  // throw InputError; nothing else (no crash, no other exception, no hang).
  const Topology topo({3}, true);
  std::mt19937 rng(11);
  const std::string base = kRing3;
  const std::string alphabet = "0123456789>-|.,*#/ xyz+-=\nstepend";
  int rejected = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::string t = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % t.size();
      switch (rng() % 4) {
        case 0: t[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(pos, 1 + rng() % 6); break;
        case 2: t.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 3: t.resize(pos); break;
      }
      if (t.empty()) t = "x";
    }
    try {
      testing::run_text(t, topo, "fuzz.sched");
    } catch (const InputError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 200);  // most mutations are caught as bad input
}

}  // namespace
}  // namespace torx::sw
