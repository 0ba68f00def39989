// SPDX-License-Identifier: Apache-2.0
// The public C++ API (include/torx/network.hpp) through its installed names only: messages injected
// and delivered with their cycles and bytes, the contention-free latency of docs/cycle-model.md, the
// figures, errors as torx::Error with the command line's messages, and run_schedule's check.
#include <gtest/gtest.h>

#include <set>

#include "torx/torx.hpp"

namespace {

torx::NetworkConfig config(const std::string& topo) {
  torx::NetworkConfig c;
  c.topology = topo;
  return c;
}

TEST(Api, OneMessageHasTheContentionFreeLatency) {
  torx::Network net(config("8x8"));
  EXPECT_EQ(net.nodes(), 64);
  // 0 -> (3, 2): 5 hops; 64 bytes are 4 flits of 16.
  const int dst = net.node({3, 2});
  EXPECT_EQ(dst, 19);
  const uint64_t id = net.inject(0, dst, 64);
  EXPECT_TRUE(net.run_until_idle(10000));
  auto d = net.next_delivery();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->id, id);
  EXPECT_EQ(d->src, 0);
  EXPECT_EQ(d->dst, dst);
  EXPECT_EQ(d->bytes, 64u);
  EXPECT_TRUE(d->intact);
  EXPECT_EQ(d->injected, 0u);
  EXPECT_EQ(d->issued, 0u);
  EXPECT_EQ(d->head, 0u);
  // docs/cycle-model.md: the last byte is stored at the end of cycle s + t_s + F + h (L + P) + 2 L_loc + P - 1
  // with the defaults L = 1, P = 2, L_loc = 1: 0 + 0 + 4 + 5 * 3 + 2 + 2 - 1 = 22.
  EXPECT_EQ(d->cycle, 22u);
  EXPECT_EQ(d->latency(), 22u);
  EXPECT_FALSE(net.next_delivery().has_value());
  const torx::Figures f = net.figures();
  EXPECT_EQ(f.messages_injected, 1u);
  EXPECT_EQ(f.messages_delivered, 1u);
  EXPECT_EQ(f.flits_injected, 4u);
  EXPECT_EQ(f.flits_ejected, 4u);
  EXPECT_EQ(f.flit_hops, 20u);
  uint64_t on_links = 0;
  for (uint64_t x : f.link_flits) on_links += x;
  EXPECT_EQ(on_links, 20u);
}

TEST(Api, StartupAndDataAreCarried) {
  torx::NetworkConfig c = config("4x4");
  c.startup_cycles = 10;
  torx::Network net(c);
  std::vector<uint8_t> data(37);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(200 - i);
  std::vector<torx::Delivery> seen;
  net.on_delivery([&](const torx::Delivery& d) { seen.push_back(d); });
  net.step(3);
  net.inject(5, 6, data);
  net.step(100);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].data, data);
  EXPECT_EQ(seen[0].injected, 3u);
  EXPECT_EQ(seen[0].head, 13u);  // t_s = 10 after the issue in cycle 3
  EXPECT_EQ(net.cycle(), 103u);
  EXPECT_EQ(net.take_deliveries().size(), 1u);
}

TEST(Api, ASourceSendsInOrderAndEveryMessageArrivesOnce) {
  torx::Network net(config("4x4"));
  std::set<uint64_t> ids;
  for (int s = 0; s < net.nodes(); ++s)
    for (int d = 0; d < net.nodes(); ++d)
      if (s != d) ids.insert(net.inject(s, d, 48 + 16 * ((s + d) % 3)));
  EXPECT_TRUE(net.run_until_idle());
  const std::vector<torx::Delivery> all = net.take_deliveries();
  ASSERT_EQ(all.size(), ids.size());
  std::set<uint64_t> got;
  for (const torx::Delivery& d : all) {
    EXPECT_TRUE(d.intact) << d.id;
    EXPECT_TRUE(got.insert(d.id).second);
    EXPECT_GE(d.issued, d.injected);
    EXPECT_GT(d.cycle, d.head);
  }
  EXPECT_EQ(got, ids);
  EXPECT_EQ(net.figures().messages_corrupted, 0u);
  EXPECT_GT(net.figures().blocked_cycles, 0u);  // 240 messages at once contend
}

TEST(Api, RoutesAreTheCallersOrTheShortest) {
  torx::NetworkConfig c = config("8x8");
  c.params = {"order_classes=2"};
  torx::Network net(c);
  // 0 -> (2, 0): 2 hops the + way; the - way round the ring is 6 hops.
  net.inject(0, 2, 16);
  net.inject(8, 10, 16, 0, torx::Route{0, 1});
  // y first: 0 -> (1, 1) starting in y.
  net.inject(16, 25, 16, 0, torx::Route{1, 0});
  EXPECT_TRUE(net.run_until_idle(1000));
  EXPECT_EQ(net.figures().flit_hops, 2u + 6u + 2u);
  EXPECT_EQ(net.take_deliveries().size(), 3u);
  try {
    net.inject(16, 25, 16, 0, torx::Route{2, 0});
    ADD_FAILURE() << "no error";
  } catch (const torx::Error& e) {
    EXPECT_NE(std::string(e.what()).find("dimensions 0 to 1"), std::string::npos) << e.what();
  }
  torx::NetworkConfig m = config("4x4");
  m.mesh = true;
  torx::Network mesh(m);
  EXPECT_THROW(mesh.inject(0, 2, 16, 0, torx::Route{0, 1}), torx::Error);  // no wrap-around link
}

TEST(Api, PriorityLevelsAndParams) {
  torx::NetworkConfig c = config("4x4");
  c.params = {"priority_levels=2", "buffer_depth=8"};
  torx::Network net(c);
  net.inject(0, 5, 64, 1);
  net.inject(1, 5, 64, 0);
  EXPECT_TRUE(net.run_until_idle(1000));
  EXPECT_EQ(net.take_deliveries().size(), 2u);
}

template <class F>
std::string error_of(F&& f, torx::Error::Kind kind) {
  try {
    f();
  } catch (const torx::Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_EQ(e.exit_code(), kind == torx::Error::Kind::kInput ? 2 : 3);
    return e.what();
  }
  ADD_FAILURE() << "no torx::Error";
  return "";
}

TEST(Api, ErrorsCarryTheCommandLinesMessages) {
  using K = torx::Error::Kind;
  EXPECT_NE(error_of([] { torx::Network n(config("0x4")); }, K::kInput).find("--topo"), std::string::npos);
  torx::NetworkConfig c = config("4x4");
  c.params = {"buffer_depth=0"};
  EXPECT_NE(error_of([&] { torx::Network n(c); }, K::kInput).find("buffer_depth"), std::string::npos);
  c.params = {"no_such_param=1"};
  EXPECT_NE(error_of([&] { torx::Network n(c); }, K::kInput).find("no_such_param"), std::string::npos);
  c = config("4x4");
  c.model = "gate-level";
  EXPECT_NE(error_of([&] { torx::Network n(c); }, K::kInput).find("--model gate-level"), std::string::npos);
  torx::Network net(config("4x4"));
  EXPECT_NE(error_of([&] { net.inject(0, 16, 64); }, K::kInput).find("destination node 16"), std::string::npos);
  EXPECT_NE(error_of([&] { net.inject(-1, 3, 64); }, K::kInput).find("source node -1"), std::string::npos);
  EXPECT_NE(error_of([&] { net.inject(0, 3, 0); }, K::kInput).find("0 bytes"), std::string::npos);
  EXPECT_NE(error_of([&] { net.inject(0, 3, 64, 1); }, K::kInput).find("priority 1"), std::string::npos);
  EXPECT_NE(error_of([&] { net.run_schedule("no-such-algorithm"); }, K::kInput).find("no-such-algorithm"),
            std::string::npos);
  torx::ScheduleOptions bad_sync;
  bad_sync.sync = "sideways";
  EXPECT_NE(error_of([&] { net.run_schedule("t4", bad_sync); }, K::kInput).find("--sync"), std::string::npos);
  // The watchdog: a cycle limit reached with a message in flight.
  c = config("4x4");
  c.params = {"max_cycles=5"};
  torx::Network lim(c);
  lim.inject(0, 10, 640);
  const std::string stuck = error_of([&] { lim.run_until_idle(); }, K::kStopped);
  EXPECT_NE(stuck.find("max_cycles"), std::string::npos) << stuck;
  EXPECT_NE(stuck.find("message 0 for node"), std::string::npos) << stuck;  // where its head is
}

TEST(Api, RunScheduleChecksEveryBlockAsTorxRunDoes) {
  torx::Network net(config("8x8"));
  const torx::ScheduleResult r = net.run_schedule("t4");
  EXPECT_TRUE(r.check_ok);
  EXPECT_EQ(r.blocks_expected, 64u * 63u);
  EXPECT_EQ(r.blocks_delivered, r.blocks_expected);
  EXPECT_EQ(r.blocks_missing + r.blocks_corrupted + r.blocks_duplicated + r.blocks_misdelivered, 0u);
  EXPECT_GT(r.cycles, 0u);
  EXPECT_NE(r.document.find("\"torx.result/1\""), std::string::npos);
  // The same schedule twice in one process: the same cycles (no SystemC elaboration involved).
  EXPECT_EQ(net.run_schedule("t4").cycles, r.cycles);
}

}  // namespace
