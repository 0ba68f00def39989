// LatencyLine, Link and the input FIFO: the wires and buffers of the model. A value pushed in cycle t must be visible exactly in
// cycle t + latency (never earlier, so evaluation order cannot matter), in order, and overflow must be
// loud; links must count and wake the block at the far end for exactly the cycle a value arrives.
#include <gtest/gtest.h>

#include "models/link.hpp"

namespace torx::model {
namespace {

TEST(LatencyLine, ValueVisibleExactlyAfterLatency) {
  for (int lat : {1, 2, 5}) {
    LatencyLine<int> line(lat);
    line.push(10, 42);
    for (uint64_t t = 10; t < 10 + static_cast<uint64_t>(lat); ++t) EXPECT_FALSE(line.ready(t)) << "lat " << lat << " t " << t;
    ASSERT_TRUE(line.ready(10 + lat));
    EXPECT_EQ(line.front(), 42);
    line.pop();
    EXPECT_TRUE(line.empty());
  }
}

TEST(LatencyLine, KeepsOrderAndAcceptsOnePerCycle) {
  LatencyLine<int> line(3);
  for (int t = 0; t < 3; ++t) line.push(t, 100 + t);
  EXPECT_EQ(line.size(), 3u);
  for (int t = 3; t < 6; ++t) {
    ASSERT_TRUE(line.ready(t));
    EXPECT_EQ(line.front(), 100 + t - 3);
    EXPECT_EQ(line.front_due(), static_cast<uint64_t>(t));
    line.pop();
    EXPECT_FALSE(line.ready(t)) << "only one value per cycle";
  }
}

TEST(LatencyLine, ReaderBeforeOrAfterWriterSeesTheSame) {
  // In cycle t the reader sees the value pushed in t - L whether the writer of cycle t ran first.
  LatencyLine<int> a(2), b(2);
  a.push(0, 1);
  b.push(0, 1);
  a.push(2, 2);                    // writer first ...
  const bool ra = a.ready(2);
  const bool rb = b.ready(2);      // ... or reader first
  b.push(2, 2);
  EXPECT_EQ(ra, rb);
  EXPECT_EQ(a.front(), b.front());
}

TEST(LatencyLine, OverflowIsAnError) {
  LatencyLine<int> line(1);  // capacity 2
  line.push(0, 1);
  line.push(0, 2);
  EXPECT_THROW(line.push(0, 3), std::logic_error);
}

TEST(LatencyLine, PushedInNamesTheWireValueOfACycle) {
  LatencyLine<int> line(2);
  EXPECT_EQ(line.pushed_in(0), nullptr);
  line.push(4, 7);
  ASSERT_NE(line.pushed_in(4), nullptr);
  EXPECT_EQ(*line.pushed_in(4), 7);
  EXPECT_EQ(line.pushed_in(5), nullptr);
}

// A block that records when it is evaluated.
struct Probe : Clocked {
  std::vector<uint64_t> evaluated;
  uint64_t mask = 0;
  void evaluate(uint64_t t, int) override { evaluated.push_back(t); }
  void update(uint64_t, int) override {}
  bool busy() const override { return false; }
};

TEST(Link, WritesTheFlitIntoTheFarBufferDueAfterTheLatency) {
  Scheduler sched;
  Probe tx, rx;
  sched.add(&tx);
  sched.add(&rx);
  InputVc regs[2];
  Flit ram[2 * 4];
  InputUnit buffer;
  buffer.configure(regs, ram, 2, 4, kMaxFlitWords, /*delay=*/2);  // a receiver with a 2-cycle pipeline
  NetworkCounters counters;
  Link link;
  link.configure(0, 3, 2, &sched, LinkEnd{tx.clock_id(), &tx.mask, 1});
  link.attach(buffer.sink(rx.clock_id(), &counters));
  Flit f;
  f.msg = 9;
  link.send_flit(0, 0, f, 1, 0);
  EXPECT_EQ(counters.flits_in_buffers, 1u);
  EXPECT_EQ(link.flit_count(), 1u);
  ASSERT_EQ(buffer.vc(1).count(), 1u);
  EXPECT_EQ(buffer.front(1).msg, 9u);
  EXPECT_EQ(buffer.front(1).vc, 1) << "the link sets the VC it was sent on";
  EXPECT_EQ(buffer.front(1).due, 5u) << "at the far end's port in cycle 0 + latency, due after its 2 stages";
  EXPECT_EQ(link.due_offset(), 5u);
  ASSERT_NE(link.wire_flit(0), nullptr) << "the wire carries it in cycle 0";
  EXPECT_EQ(link.wire_flit(1), nullptr);
  for (int i = 0; i < 6; ++i) sched.step();
  EXPECT_EQ(rx.evaluated, std::vector<uint64_t>{5}) << "the receiver is woken only for the cycle the flit is due";
  EXPECT_TRUE(buffer.pop(1)) << "the VC is empty after its only flit left";
  link.send_credit(5, 0, Credit{1});
  EXPECT_EQ(tx.mask, 1u);
  for (int i = 0; i < 3; ++i) sched.step();
  EXPECT_EQ(tx.evaluated, std::vector<uint64_t>{7});
  EXPECT_FALSE(link.credit_ready(6));
  ASSERT_TRUE(link.credit_ready(7));
  EXPECT_EQ(link.take_credit().vc, 1);
  EXPECT_EQ(tx.mask, 0u) << "the sender's credit bit clears when the line is empty";
}

// The port-mode path a router takes its input wires through (Router::port_cycle -> accept): FIFO
// order per VC, the pipeline delay, and a flit beyond the credits the sender had is an error.
TEST(InputUnit, AcceptKeepsFifoOrderDelaysByThePipelineAndRefusesOverflow) {
  InputVc regs[2];
  Flit ram[2 * 3];
  InputUnit u;
  u.configure(regs, ram, 2, 3, kMaxFlitWords, /*delay=*/2);
  Flit f;
  f.vc = 1;
  for (uint32_t i = 0; i < 3; ++i) {
    f.seq = i;
    u.accept(f, 10 + i);
  }
  EXPECT_EQ(u.vc(0).count(), 0u) << "VC 0 untouched";
  EXPECT_THROW(u.accept(f, 13), std::logic_error) << "a fourth flit into a 3-deep buffer";
  EXPECT_EQ(u.due_mask(11), 0u) << "arrived in cycle 10, two stages: not before cycle 12";
  EXPECT_EQ(u.due_mask(12), 2u);
  EXPECT_EQ(u.due_count(1, 13), 2u) << "the flits of cycles 10 and 11 are past the pipeline in cycle 13";
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(u.front(1).seq, i);
    EXPECT_EQ(u.front(1).due, 12 + i);
    EXPECT_EQ(u.pop(1), i == 2);
  }
  f.seq = 7;
  u.accept(f, 20);  // wraps around the ring
  EXPECT_EQ(u.front(1).seq, 7u);
  EXPECT_EQ(u.vc(1).count(), 1u);
  f.vc = 2;
  EXPECT_THROW(u.accept(f, 21), std::logic_error) << "a VC the port does not have";
}

}  // namespace
}  // namespace torx::model
