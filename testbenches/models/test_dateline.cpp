// The dateline VC classes as behaviour of a running network, not only as table entries
// (docs/routing-tables.md, "Dateline"; the entries themselves: test_routing_table.cpp). A worm whose
// remaining path in a ring still crosses the wrap-around link travels in class 0, afterwards in
// class 1, in both directions; without that split on the negative links a torus workload that wraps
// the negative way deadlocks, and the watchdog stops it with every stuck worm. Classes swapped on
// the negative links are a renaming of the channels (the channel dependency graph stays acyclic:
// class 1 then leads to the wrap link and class 0 never uses it), so no workload can deadlock on
// them; the network-level check of every head's class on every link is what catches that fault.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_test_util.hpp"

namespace torx::model {
namespace {

using sw::Topology;
using testing::parse_schedule;

// Every node of a ring of n sends to every other node the way `dir` says (all worms of one
// direction; every one but the nearest neighbour's crosses the wrap link somewhere).
std::string ring_all_to_all(int n, const char* dir) {
  std::string s = testing::header(std::to_string(n)) + "step\n";
  for (int i = 0; i < n; ++i)
    for (int k = 1; k < n; ++k) {
      const int j = dir[0] == '+' ? (i + k) % n : (i - k + n) % n;
      s += std::to_string(i) + " -> " + std::to_string(j) + " x" + dir + " | " + std::to_string(i) + ">" +
           std::to_string(j) + "\n";
    }
  return s + "end\n";
}

// The class every head flit travels in on every network link, against the dateline rule computed
// from the link's node, direction and the worm's destination.
class ClassChecker final : public FlitObserver {
 public:
  ClassChecker(const Topology& topo, int vcs_per_class) : topo_(topo), v_(vcs_per_class) {}
  void on_flit(uint64_t, uint32_t link, const Flit& f) override {
    if (!f.head() || link >= static_cast<uint64_t>(topo_.link_count())) return;  // network links only
    const sw::NodeId a = topo_.link_source(link);
    const int port = topo_.link_port(link);
    const int d = sw::Topology::port_dim(port), dir = sw::Topology::port_dir(port);
    const int from = topo_.coord_of(a, d), to = topo_.coord_of(f.dest, d);
    const bool crosses = dir > 0 ? from > to : from < to;  // the rest of the path wraps in this ring
    const int want = crosses ? 0 : 1;
    ++checked_[dir > 0][want];
    if (f.vc / v_ != want && wrong_.size() < 5)
      wrong_.push_back("message " + std::to_string(f.msg) + " on link " + topo_.link_name(link) + " to node " +
                       topo_.node_name(f.dest) + ": class " + std::to_string(f.vc / v_) + ", not " +
                       std::to_string(want));
    if (f.vc / v_ != want) ++mismatches_;
  }
  uint64_t checked(bool positive, int cls) const { return checked_[positive][cls]; }
  uint64_t mismatches() const { return mismatches_; }
  std::string examples() const {
    std::string s;
    for (const std::string& w : wrong_) s += "\n  " + w;
    return s;
  }

 private:
  const Topology& topo_;
  int v_;
  uint64_t checked_[2][2] = {};
  uint64_t mismatches_ = 0;
  std::vector<std::string> wrong_;
};

// The routing images with the class of every negative-direction entry replaced by f(class).
template <class F>
std::function<void(std::vector<RoutingImage>&)> edit_negative_classes(const Topology& topo, F f) {
  return [&topo, f](std::vector<RoutingImage>& images) {
    for (RoutingImage& img : images) {
      for (int d = 0; d < topo.ndims(); ++d)
        for (int c = 0; c < topo.radix(d); ++c) {
          uint32_t& e = img[route_entry_index(topo, d, c, true)];
          const uint8_t port = e & 0xff;
          if (port == kRouteSkip || port == kRouteInvalid) continue;
          e = route_entry(port, f(static_cast<uint8_t>(e >> 8)));
        }
      seal_routing_image(img);
    }
  };
}

CycleOptions wrapping_load(int vcs_per_class) {
  CycleOptions o;
  o.cost.block_bytes = 512;  // 32-flit worms, longer than the buffers of their path
  o.cost.ts_cycles = 0;
  o.sync = sw::SyncMode::kNone;
  o.params.vcs_per_class = vcs_per_class;
  o.params.watchdog_cycles = 300;
  return o;
}

TEST(Dateline, EveryHeadTravelsInClassZeroUntilItsPathNoLongerWrapsInBothDirections) {
  struct Case {
    std::string what;
    Topology topo;
    std::string text;  // empty: direct's schedule
  };
  const std::vector<Case> cases = {{"ring 8, +", Topology({8}, true), ring_all_to_all(8, "+")},
                                   {"ring 8, -", Topology({8}, true), ring_all_to_all(8, "-")},
                                   {"direct on 5x4", Topology({5, 4}, true), ""},
                                   {"direct on 6x6", Topology({6, 6}, true), ""}};
  for (const Case& c : cases)
    for (const int v : {1, 2}) {
      SCOPED_TRACE(c.what + ", " + std::to_string(v) + " VCs per class");
      const sw::Schedule s = c.text.empty() ? testing::generate("direct", c.topo) : parse_schedule(c.text, c.topo);
      CycleOptions o = wrapping_load(v);
      o.params.watchdog_cycles = 10000;
      CycleNetwork net(s, c.topo, o);
      ClassChecker check(c.topo, v);
      net.fabric().set_observer(&check);
      net.run();
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
      EXPECT_EQ(check.mismatches(), 0u) << check.examples();
      const bool both = c.text.empty();
      for (const bool positive : {true, false}) {
        if (!both && positive != (c.what.back() == '+')) continue;
        EXPECT_GT(check.checked(positive, 0), 0u) << (positive ? "+" : "-") << " class 0";
        EXPECT_GT(check.checked(positive, 1), 0u) << (positive ? "+" : "-") << " class 1";
      }
    }
}

// The negative-direction twin of Fabric.ATorusDeadlocksWithoutTheDatelineAndNotWithIt, with the
// dateline taken off the negative links only (every negative entry in class 0): the positive links
// keep theirs, the worms wrapping the negative way close a cycle of class-0 channels round the ring.
TEST(Dateline, NegativeLinksWithoutTheDatelineDeadlockAndTheWatchdogNamesTheWorms) {
  const Topology ring({8}, true);
  const sw::Schedule minus = parse_schedule(ring_all_to_all(8, "-"), ring);
  const sw::Schedule plus = parse_schedule(ring_all_to_all(8, "+"), ring);
  for (const int v : {1, 2}) {
    SCOPED_TRACE(std::to_string(v) + " VCs per class");
    {
      CycleNetwork net(minus, ring, wrapping_load(v));
      EXPECT_NO_THROW(net.run()) << "with the dateline it delivers";
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    }
    CycleOptions o = wrapping_load(v);
    o.edit_routing = edit_negative_classes(ring, [](uint8_t) -> uint8_t { return 0; });
    {
      CycleNetwork net(plus, ring, o);
      EXPECT_NO_THROW(net.run()) << "the positive links keep their dateline";
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    }
    CycleNetwork net(minus, ring, o);
    try {
      net.run();
      FAIL() << "expected a deadlock without the dateline on the negative links";
    } catch (const sw::WatchdogError& e) {
      const std::string r = e.what();
      EXPECT_NE(r.find("no flit moved for 300 cycles"), std::string::npos) << r;
      EXPECT_NE(r.find("waiting for a free VC of class 0 on output -x"), std::string::npos) << r;
      EXPECT_NE(r.find("head: flit"), std::string::npos) << r;
    }
    EXPECT_EQ(net.fabric().status(), RunStatus::kStalled);
    const sw::CheckResult c = sw::check_delivery(net.memory());
    EXPECT_FALSE(c.ok);
    EXPECT_GT(c.missing, 0u);
  }
}

// The same on 2D tori through an algorithm's schedule: direct sends each step as a shift of the
// whole torus the short way, so in the steps whose shift wraps the negative way every node of a ring
// sends round it at once (with barriers between the steps, 32-flit worms). The swapped classes
// deliver the same schedule (a renaming; no configuration of direct on 4x4 to 8x8 and rings of 6
// and 8, with 4- to 64-flit worms, with or without barriers, deadlocks on them).
TEST(Dateline, DirectOnATorusDeadlocksWithoutTheNegativeDateline) {
  for (const Topology& topo : {Topology({6, 6}, true), Topology({6, 4}, true), Topology({8, 8}, true)}) {
    SCOPED_TRACE(topo.to_string());
    const sw::Schedule s = testing::generate("direct", topo);
    CycleOptions o = wrapping_load(1);
    o.sync = sw::SyncMode::kBarrier;
    {
      CycleNetwork net(s, topo, o);
      EXPECT_NO_THROW(net.run());
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    }
    {
      CycleOptions swapped = o;
      swapped.edit_routing = edit_negative_classes(topo, [](uint8_t c) -> uint8_t { return 1 - c; });
      CycleNetwork net(s, topo, swapped);
      EXPECT_NO_THROW(net.run());
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    }
    o.edit_routing = edit_negative_classes(topo, [](uint8_t) -> uint8_t { return 0; });
    CycleNetwork net(s, topo, o);
    EXPECT_THROW(net.run(), sw::WatchdogError);
    EXPECT_NE(net.stall_report().find("waiting for a free VC of class 0"), std::string::npos) << net.stall_report();
  }
}

// Classes swapped on the negative links: a renaming, so the network still delivers everything, and
// the class check above sees the heads in the wrong class.
TEST(Dateline, ClassesSwappedOnNegativeLinksDeliverButTravelInTheWrongClass) {
  const Topology ring({8}, true);
  const sw::Schedule s = parse_schedule(ring_all_to_all(8, "-"), ring);
  CycleOptions o = wrapping_load(2);
  o.edit_routing = edit_negative_classes(ring, [](uint8_t c) -> uint8_t { return 1 - c; });
  CycleNetwork net(s, ring, o);
  ClassChecker check(ring, 2);
  net.fabric().set_observer(&check);
  EXPECT_NO_THROW(net.run()) << "a renaming of the channels cannot deadlock";
  EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
  EXPECT_EQ(check.mismatches(), check.checked(false, 0) + check.checked(false, 1)) << "every negative head";
}

}  // namespace
}  // namespace torx::model
