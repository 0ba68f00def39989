// SPDX-License-Identifier: Apache-2.0
// One image, two consumers: the routing image the host writes is loaded into the Verilated router
// and into the C++ RoutingUnit, and the RTL routes every destination and route class as the C++
// unit does (port, VC class, ejection channel) on tori, a mesh, all-port and order-class routers;
// a damaged image is refused by both, at the same word where their checks coincide.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <regex>

#include "rtl_test_util.hpp"

namespace torx::rtl {
namespace {

using testing::Bench;

struct Case {
  const char* config;
  std::vector<int> radix;
  bool torus;
};

// Every head (destination, start_dim, neg_mask) through the router of every node, entering through
// every input port in turn; returns how many heads were checked.
size_t check_all_routes(const Case& c) {
  const auto& cfg = testing::config(c.config);
  const sw::Topology topo(c.radix, c.torus);
  const model::RoutingConfig rc = testing::routing_config(cfg, c.torus);
  const int nd = topo.ndims(), np = 2 * nd;
  size_t checked = 0;
  for (sw::NodeId node = 0; node < topo.nodes(); ++node) {
    SCOPED_TRACE(topo.node_name(node));
    model::RoutingUnit ru;
    ru.load(model::build_routing_image(topo, node, rc), topo, node);
    Bench b(cfg, topo, node);
    struct Want {
      int port;
      int cls;
    };
    std::map<uint32_t, Want> want;
    uint32_t msg = 0;
    int in_port = 0;
    for (sw::NodeId dest = 0; dest < topo.nodes(); ++dest) {
      for (int start = 0; start < nd; ++start) {
        for (uint32_t neg = 0; neg < (1u << nd); ++neg) {
          model::Flit f = testing::flit(dest, true, true, ++msg, 0, 0, static_cast<uint8_t>(start), neg);
          const auto r = ru.route(f);
          if (r.invalid) continue;  // a mesh edge: the table has no route (checked below)
          const int p = in_port;
          in_port = (in_port + 1) % b.shape().ports();
          int out = r.port, cls = r.vc_class;
          if (r.eject) {
            out = np + (cfg.shape.local_ports > 1 && p < np ? p : 0);
            cls = 0;
          }
          want[msg] = {out, cls};
          b.send(p, {f});
        }
      }
    }
    for (int guard = 0; guard < 100000 && b.departures.size() < want.size(); ++guard) b.step();
    EXPECT_EQ(b.departures.size(), want.size());
    for (const auto& d : b.departures) {
      const auto it = want.find(d.flit.msg);
      if (it == want.end()) {
        ADD_FAILURE() << "unknown flit " << d.flit.msg;
        continue;
      }
      EXPECT_EQ(d.port, it->second.port) << "dest " << d.flit.dest << " start " << int(d.flit.start_dim) << " neg "
                                         << d.flit.neg_mask;
      EXPECT_EQ(d.flit.vc / cfg.shape.vcs_per_class, it->second.cls) << "dest " << d.flit.dest;
      ++checked;
    }
  }
  return checked;
}

TEST(RtlRoutes, TwoDimensionalTorus) { EXPECT_EQ(check_all_routes({"r2d", {4, 4}, true}), 16u * 16 * 2 * 4); }
TEST(RtlRoutes, OddRadicesTorus) { EXPECT_EQ(check_all_routes({"r2d", {5, 3}, true}), 15u * 15 * 2 * 4); }
TEST(RtlRoutes, Mesh) { EXPECT_GT(check_all_routes({"m2d_p1", {4, 3}, false}), 12u * 12); }
TEST(RtlRoutes, AllPortTorus) { EXPECT_EQ(check_all_routes({"r2d_all", {3, 4}, true}), 12u * 12 * 2 * 4); }
TEST(RtlRoutes, RingWithTwoVcsPerClass) { EXPECT_EQ(check_all_routes({"r1d_v2", {6}, true}), 6u * 6 * 2); }
TEST(RtlRoutes, ThreeDimensionsWithOrderClasses) {
  EXPECT_EQ(check_all_routes({"r3d_o3", {3, 4, 3}, true}), 36u * 36 * 3 * 8);
}

// A head that reaches an invalid entry (a mesh edge): the C++ router throws, the RTL raises
// route_error_o and the harness throws the same way.
TEST(RtlRoutes, InvalidEntryIsAnError) {
  const sw::Topology mesh({4, 3}, false);
  Bench b("m2d_p1", mesh, 5);  // (1, 1)
  model::Flit f = testing::flit(6, true, true, 1, 0, 0, 0, /*neg_mask=*/1);  // to x = 2 going -x
  model::RoutingUnit ru;
  ru.load(model::build_routing_image(mesh, 5, testing::routing_config(testing::config("m2d_p1"), false)), mesh, 5);
  ASSERT_TRUE(ru.route(f).invalid);
  b.send(4, {f});
  EXPECT_THROW(b.run(3), std::logic_error);
  EXPECT_TRUE(b.router().route_error());
}

// "word N" of a loader's message.
long word_of(const std::string& what) {
  std::smatch m;
  if (!std::regex_search(what, m, std::regex("word ([0-9]+)"))) return -1;
  return std::stol(m[1]);
}

TEST(RtlRoutes, DamagedImagesAreRefusedByBothLoaders) {
  const sw::Topology topo({4, 4}, true);
  const sw::NodeId node = 5;
  const model::RoutingImage good = model::build_routing_image(topo, node, model::RoutingConfig{});
  const size_t entry = model::route_entry_index(topo, 1, 2, true);
  struct Damage {
    const char* what;
    std::function<void(model::RoutingImage&)> apply;
    bool reseal;
    bool same_word;  // the two loaders' checks coincide: they name the same word
  };
  const std::vector<Damage> damages = {
      {"magic", [](auto& i) { i[0] ^= 1; }, false, true},
      {"version", [](auto& i) { i[1] = 2; }, true, true},
      {"checksum", [&](auto& i) { i[entry] ^= 1; }, false, true},
      {"entry port", [&](auto& i) { i[entry] = 9; }, true, true},
      {"entry reserved bits", [&](auto& i) { i[entry] |= 1u << 20; }, true, true},
      {"entry class", [&](auto& i) { i[entry] = model::route_entry(2, 2); }, true, true},
      {"node", [](auto& i) { i[3] = 6; }, true, true},
      {"dimensions", [](auto& i) { i[2] = (i[2] & ~0xffu) | 3; }, true, true},
      {"dateline classes", [](auto& i) { i[2] = (i[2] & ~0xff00u) | (3u << 8); }, true, true},
      {"order classes", [](auto& i) { i[2] = (i[2] & ~0xff0000u) | (3u << 16); }, true, true},
      {"truncated", [](auto& i) { i.pop_back(); }, false, true},
      {"one word too many", [](auto& i) { i.push_back(0); }, false, true},
      {"empty", [](auto& i) { i.clear(); }, false, true},
      // The C++ loader compares radices with the topology; the RTL only knows MaxRadix, so a wrong
      // radix changes the length it expects.
      {"radix", [](auto& i) { i[4] = 5; }, true, false},
  };
  const auto& cfg = testing::config("r2d");
  for (const auto& d : damages) {
    SCOPED_TRACE(d.what);
    model::RoutingImage img = good;
    d.apply(img);
    if (d.reseal && !img.empty()) model::seal_routing_image(img);
    std::string cpp_msg, rtl_msg;
    try {
      model::RoutingUnit ru;
      ru.load(img, topo, node);
    } catch (const sw::InputError& e) {
      cpp_msg = e.what();
    }
    try {
      make_rtl_router(testing::shape_of(cfg), 0, topo, node, img);
    } catch (const sw::InputError& e) {
      rtl_msg = e.what();
    }
    EXPECT_FALSE(cpp_msg.empty()) << "the C++ loader accepted it";
    EXPECT_FALSE(rtl_msg.empty()) << "the RTL accepted it";
    if (d.same_word) {
      EXPECT_EQ(word_of(rtl_msg), word_of(cpp_msg)) << cpp_msg << " / " << rtl_msg;
    }
  }
}

// What the RTL checks beyond the C++ loader: the image's shape against its parameters.
TEST(RtlRoutes, ImageOfAnotherShapeIsRefused) {
  const sw::Topology topo({4, 4}, true);
  model::RoutingConfig rc;
  rc.order_classes = 2;  // C = 4, the router has C = 2
  EXPECT_THROW(make_rtl_router(testing::shape_of(testing::config("r2d")), 0, topo, 5,
                               model::build_routing_image(topo, 5, rc)),
               sw::InputError);
  rc.order_classes = 1;
  rc.all_port = true;  // the router is one-port
  EXPECT_THROW(make_rtl_router(testing::shape_of(testing::config("r2d")), 0, topo, 5,
                               model::build_routing_image(topo, 5, rc)),
               sw::InputError);
}

// Reset keeps the table: the same routes after RouterCore::reset().
TEST(RtlRoutes, ResetKeepsTheTable) {
  const sw::Topology topo({4, 4}, true);
  Bench b("r2d", topo, 5);
  b.send(4, testing::worm(7, 1, 1));
  b.run(4);
  b.router().reset();
  b.send(4, testing::worm(4, 1, 2));
  b.run(4);
  ASSERT_EQ(b.departures.size(), 2u);
  EXPECT_EQ(b.departures[0].port, 0);
  EXPECT_EQ(b.departures[0].flit.vc, 1);
  EXPECT_EQ(b.departures[1].port, 0);
  EXPECT_EQ(b.departures[1].flit.vc, 0);
}

}  // namespace
}  // namespace torx::rtl
