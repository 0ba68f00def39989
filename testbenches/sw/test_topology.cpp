// Topology: node ids <-> coordinates, neighbours on tori and meshes, distances, and the expansion of
// routes (dimension order, cyclic order from any dimension, a direction per dimension) into links.
#include <gtest/gtest.h>

#include <vector>

#include "core/topology.hpp"

namespace torx::sw {
namespace {

std::vector<LinkId> links(const Topology& t, NodeId a, NodeId b, const Route& r) {
  std::vector<LinkId> v;
  t.for_each_link(a, b, r, [&](LinkId l) { v.push_back(l); });
  return v;
}

TEST(Topology, IdsAndCoordinatesRoundTrip) {
  const Topology t({4, 3, 5}, true);
  EXPECT_EQ(t.nodes(), 60);
  for (NodeId n = 0; n < t.nodes(); ++n) EXPECT_EQ(t.node(t.coord(n)), n);
  const Coord c = t.coord(1 + 4 * (2 + 3 * 3));
  EXPECT_EQ(c[0], 1);
  EXPECT_EQ(c[1], 2);
  EXPECT_EQ(c[2], 3);
  EXPECT_EQ(t.node_name(1 + 4 * (2 + 3 * 3)), "1,2,3");
}

TEST(Topology, ParseAndReject) {
  EXPECT_EQ(Topology::parse("16x8", false).to_string(), "16x8 torus");
  EXPECT_EQ(Topology::parse("10", true).to_string(), "10 mesh");
  EXPECT_THROW(Topology::parse("1x4", false), InputError);
  EXPECT_THROW(Topology::parse("4x", false), InputError);
  EXPECT_THROW(Topology::parse("abc", false), InputError);
  EXPECT_THROW(Topology::parse("", false), InputError);
  EXPECT_THROW(Topology::parse("-4", false), InputError);
  EXPECT_THROW(Topology({8192, 4096}, true), InputError);  // over the 2^24-node limit
}

TEST(Topology, NeighboursTorusAndMesh) {
  const Topology torus({4, 4}, true), mesh({4, 4}, false);
  EXPECT_EQ(torus.neighbor(3, 0, +1), 0);
  EXPECT_EQ(torus.neighbor(0, 1, -1), 12);
  EXPECT_EQ(mesh.neighbor(3, 0, +1), -1);
  EXPECT_EQ(mesh.neighbor(0, 1, -1), -1);
  EXPECT_EQ(mesh.neighbor(5, 1, +1), 9);
}

TEST(Topology, Distances) {
  const Topology torus({8, 8}, true), mesh({8, 8}, false);
  EXPECT_EQ(torus.distance(0, 7), 1);
  EXPECT_EQ(mesh.distance(0, 7), 7);
  EXPECT_EQ(torus.distance(0, 4 + 8 * 4), 8);
  EXPECT_EQ(mesh.distance(63, 0), 14);
}

TEST(Topology, DimensionOrderRouteExpandsXThenY) {
  const Topology t({8, 8}, true);
  const NodeId a = t.node({1, 1}), b = t.node({3, 6});
  const Route r = t.shortest_route(a, b);
  EXPECT_FALSE(r.negative(0));  // +2 in x
  EXPECT_TRUE(r.negative(1));   // -3 in y is shorter than +5
  const auto l = links(t, a, b, r);
  ASSERT_EQ(l.size(), 5u);
  EXPECT_EQ(t.link_name(l[0]), "1,1+x");
  EXPECT_EQ(t.link_name(l[1]), "2,1+x");
  EXPECT_EQ(t.link_name(l[2]), "3,1-y");
  EXPECT_EQ(t.link_name(l[4]), "3,7-y");
}

TEST(Topology, CyclicOrderStartsAtChosenDimension) {
  const Topology t({5, 5, 5}, true);
  const NodeId a = t.node({0, 0, 0}), b = t.node({1, 2, 3});
  Route r;
  r.start_dim = 1;  // y, then z, then x
  const auto l = links(t, a, b, r);
  ASSERT_EQ(l.size(), 6u);
  EXPECT_EQ(t.link_name(l[0]), "0,0,0+y");
  EXPECT_EQ(t.link_name(l[2]), "0,2,0+z");
  EXPECT_EQ(t.link_name(l[5]), "0,2,3+x");
  EXPECT_EQ(t.route_string(r), "y+z+x+");
  EXPECT_EQ(t.parse_route("y+z+x+"), r);
}

TEST(Topology, NegativeDirectionWrapsOnTorusAndIsIllegalOnMesh) {
  const Topology torus({6}, true), mesh({6}, false);
  Route neg;
  neg.neg_mask = 1;
  EXPECT_EQ(torus.route_hops(1, 4, neg), 3);   // 1 -> 0 -> 5 -> 4
  EXPECT_EQ(mesh.route_hops(1, 4, neg), -1);   // would need the wraparound
  EXPECT_EQ(mesh.route_hops(4, 1, neg), 3);
}

TEST(Topology, RadixTwoTorusHasTwoDistinctChannels) {
  const Topology t({2}, true);
  Route pos, neg;
  neg.neg_mask = 1;
  const auto p = links(t, 0, 1, pos), n = links(t, 0, 1, neg);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_NE(p[0], n[0]);
}

TEST(Topology, RouteParserNamesWhatIsWrong) {
  const Topology t({4, 4}, true);
  EXPECT_THROW(t.parse_route("x+"), InputError);       // misses y
  EXPECT_THROW(t.parse_route("x+x+"), InputError);     // not cyclic order
  EXPECT_THROW(t.parse_route("z+x+"), InputError);     // no z
  EXPECT_THROW(t.parse_route("x*y+"), InputError);
  EXPECT_EQ(t.route_string(t.parse_route("y-x+")), "y-x+");
}

}  // namespace
}  // namespace torx::sw
