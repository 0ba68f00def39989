// Routing tables (docs/routing-tables.md): the image format, its validation, and the walk the router
// does through it. Walking every message through the tables must give exactly the links the host's
// Topology::for_each_link gives for every route class, and the dateline classes must never let a
// worm re-enter class 0 or use the wrap-around link in class 1 (the deadlock-freedom argument).
#include <gtest/gtest.h>

#include "models/routing_table.hpp"

namespace torx::model {
namespace {

using sw::NodeId;
using sw::Topology;

RoutingConfig torus_cfg(const Topology& t) {
  RoutingConfig c;
  c.dateline_classes = t.wrap() ? 2 : 1;
  return c;
}

TEST(RoutingImage, LayoutAndChecksum) {
  const Topology t({5, 3}, true);
  const RoutingImage img = build_routing_image(t, 7, torus_cfg(t));
  ASSERT_EQ(img.size(), 4u + 2 + 2 * (5 + 3) + 1);
  EXPECT_EQ(img[0], kRouteMagic);
  EXPECT_EQ(img[1], kRouteVersion);
  EXPECT_EQ(img[2] & 0xff, 2u);
  EXPECT_EQ((img[2] >> 8) & 0xff, 2u);
  EXPECT_EQ(img[3], 7u);
  EXPECT_EQ(img[4], 5u);
  EXPECT_EQ(img[5], 3u);
  uint32_t sum = 0;
  for (uint32_t w : img) sum += w;
  EXPECT_EQ(sum, 0u);
  // Node 7 = (2, 1): in x its own coordinate 2 is a skip; towards x = 0 going + crosses the wrap.
  EXPECT_EQ(img[route_entry_index(t, 0, 2, false)] & 0xff, kRouteSkip);
  EXPECT_EQ(img[route_entry_index(t, 0, 0, false)], route_entry(0, 0));   // +x, class 0 (crosses)
  EXPECT_EQ(img[route_entry_index(t, 0, 4, false)], route_entry(0, 1));   // +x, class 1
  EXPECT_EQ(img[route_entry_index(t, 0, 0, true)], route_entry(1, 1));    // -x, class 1
  EXPECT_EQ(img[route_entry_index(t, 0, 4, true)], route_entry(1, 0));    // -x, class 0 (crosses)
  EXPECT_EQ(img[route_entry_index(t, 1, 0, false)], route_entry(2, 0));   // +y from y = 1 to 0
}

TEST(RoutingImage, MeshHasNoWrapRoutes) {
  const Topology t({4}, false);
  RoutingConfig c;
  c.dateline_classes = 1;
  const RoutingImage img = build_routing_image(t, 1, c);
  EXPECT_EQ(img[route_entry_index(t, 0, 3, false)], route_entry(0, 0));
  EXPECT_EQ(img[route_entry_index(t, 0, 3, true)] & 0xff, kRouteInvalid);
  EXPECT_EQ(img[route_entry_index(t, 0, 0, false)] & 0xff, kRouteInvalid);
  EXPECT_EQ(img[route_entry_index(t, 0, 0, true)], route_entry(1, 0));
}

TEST(RoutingUnit, RejectsDamagedImages) {
  const Topology t({4, 4}, true);
  const RoutingImage good = build_routing_image(t, 5, torus_cfg(t));
  struct Case {
    const char* what;
    std::function<void(RoutingImage&)> damage;
    bool reseal;
    const char* needle;
  };
  const std::vector<Case> cases = {
      {"magic", [](RoutingImage& i) { i[0] = 1; }, true, "magic"},
      {"version", [](RoutingImage& i) { i[1] = 9; }, true, "version 9"},
      {"checksum", [](RoutingImage& i) { i[10] ^= 0x100; }, false, "checksum"},
      {"node", [](RoutingImage& i) { i[3] = 6; }, true, "for node 6"},
      {"radix", [](RoutingImage& i) { i[4] = 5; }, true, "radix 5"},
      {"port", [](RoutingImage& i) { i[10] = 9; }, true, "port 9 does not exist"},
      {"class", [](RoutingImage& i) { i[10] = route_entry(0, 3); }, true, "VC class 3"},
      {"reserved", [](RoutingImage& i) { i[10] |= 1u << 20; }, true, "reserved"},
      {"size", [](RoutingImage& i) { i.pop_back(); }, false, "words"},
  };
  for (const Case& c : cases) {
    RoutingImage img = good;
    c.damage(img);
    if (c.reseal) seal_routing_image(img);
    RoutingUnit ru;
    try {
      ru.load(img, t, 5);
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const sw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << c.what << ": " << e.what();
    }
  }
  RoutingUnit ru;
  EXPECT_NO_THROW(ru.load(good, t, 5));
}

// Walks a worm from src to dst through the routers' tables; returns the links used and checks the
// classes.
struct Walk {
  std::vector<sw::LinkId> links;
  std::vector<int> classes;
  bool arrived = false;
};
Walk walk(const Topology& t, const std::vector<RoutingUnit>& units, NodeId src, NodeId dst, const sw::Route& r) {
  Flit head;
  head.kind = kFlitHead;
  head.dest = dst;
  head.start_dim = r.start_dim;
  head.neg_mask = r.neg_mask;
  Walk w;
  NodeId v = src;
  for (int guard = 0; guard < 4 * t.nodes(); ++guard) {
    const RoutingUnit::Result res = units[v].route(head);
    if (res.eject) {
      w.arrived = v == dst;
      return w;
    }
    if (res.invalid) return w;
    w.links.push_back(static_cast<sw::LinkId>(v) * t.ports() + res.port);
    w.classes.push_back(res.vc_class);
    v = t.neighbor(v, Topology::port_dim(res.port), Topology::port_dir(res.port));
  }
  return w;
}

void check_all_routes(const Topology& t, int order_classes) {
  RoutingConfig cfg = torus_cfg(t);
  cfg.order_classes = order_classes;
  std::vector<RoutingUnit> units(static_cast<size_t>(t.nodes()));
  for (NodeId v = 0; v < t.nodes(); ++v) units[v].load(build_routing_image(t, v, cfg), t, v);
  const int nd = t.ndims();
  int checked = 0;
  for (NodeId s = 0; s < t.nodes(); ++s)
    for (NodeId d = 0; d < t.nodes(); ++d) {
      if (s == d) continue;
      for (int start = 0; start < nd; ++start)
        for (uint32_t neg = 0; neg < (1u << nd); ++neg) {
          const sw::Route r{static_cast<uint8_t>(start), neg};
          if (t.route_hops(s, d, r) < 0) continue;
          std::vector<sw::LinkId> want;
          t.for_each_link(s, d, r, [&](sw::LinkId l) { want.push_back(l); });
          const Walk w = walk(t, units, s, d, r);
          ASSERT_TRUE(w.arrived) << t.to_string() << " " << s << "->" << d << " " << t.route_string(r);
          ASSERT_EQ(w.links, want) << t.to_string() << " " << s << "->" << d << " " << t.route_string(r);
          // Dateline: within one dimension the class never goes back from 1 to 0, and the
          // wrap-around link is only ever used in class 0.
          for (size_t i = 0; i < w.links.size(); ++i) {
            const int port = t.link_port(w.links[i]);
            const int dim = Topology::port_dim(port);
            const int a = t.coord_of(t.link_source(w.links[i]), dim);
            const bool wrap = Topology::port_dir(port) > 0 ? a == t.radix(dim) - 1 : a == 0;
            const int ring_class = w.classes[i] % cfg.dateline_classes;
            if (t.wrap() && wrap) {
              EXPECT_EQ(ring_class, 0) << "wrap link in class 1";
            }
            if (i > 0 && Topology::port_dim(t.link_port(w.links[i - 1])) == dim) {
              EXPECT_GE(w.classes[i], w.classes[i - 1]) << "class decreased within a ring";
            }
            if (i > 0) {
              EXPECT_GE(w.classes[i] / cfg.dateline_classes, w.classes[i - 1] / cfg.dateline_classes)
                  << "order class decreased";
            }
          }
          ++checked;
        }
    }
  EXPECT_GT(checked, 0);
}

TEST(RoutingUnit, TablesFollowEveryRouteClassOnATorus) { check_all_routes(Topology({5, 4}, true), 1); }
TEST(RoutingUnit, TablesFollowEveryRouteClassOnA3DTorus) { check_all_routes(Topology({3, 3, 2}, true), 3); }
TEST(RoutingUnit, TablesFollowEveryLegalRouteOnAMesh) { check_all_routes(Topology({4, 3}, false), 1); }
TEST(RoutingUnit, TablesFollowEveryRouteOnRadixTwo) { check_all_routes(Topology({2, 2}, true), 2); }

TEST(RoutingUnit, OrderClassRecordsThePositionInTheDimensionOrder) {
  const Topology t({4, 4}, true);
  RoutingConfig cfg = torus_cfg(t);
  cfg.order_classes = 2;
  std::vector<RoutingUnit> units(16);
  for (NodeId v = 0; v < 16; ++v) units[v].load(build_routing_image(t, v, cfg), t, v);
  // From (0,0) to (1,1): x first then y -> classes {1 (x, no wrap), 2 + 1 (y, second position)}.
  Walk w = walk(t, units, 0, 5, sw::Route{0, 0});
  ASSERT_TRUE(w.arrived);
  EXPECT_EQ(w.classes, (std::vector<int>{1, 3}));
  // Starting in y: y is position 0, x position 1.
  w = walk(t, units, 0, 5, sw::Route{1, 0});
  EXPECT_EQ(w.classes, (std::vector<int>{1, 3}));
  EXPECT_EQ(t.link_port(w.links[0]), 2) << "first hop in +y";
}

}  // namespace
}  // namespace torx::model
