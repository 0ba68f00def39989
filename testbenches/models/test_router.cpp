// One Router stepped on its own, the test playing its neighbours: pipeline latency (L + P per hop),
// credit accounting (a worm stops after D flits without credits and moves on each returned credit),
// VC allocation and release (a VC is held until the tail leaves, then free the next cycle), wormhole
// ordering, dateline VC classes, ejection, and sleeping while blocked. These are the timing
// contract's promises (docs/timing-contract.md) checked cycle by cycle.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "models/router.hpp"

namespace torx::model {
namespace {

using sw::Topology;

// A neighbour played by the test: it receives credits (mask) and flits (a 4-VC buffer with `delay`
// pipeline stages, like a downstream router's, or none, like a network interface's).
struct End : Clocked {
  static constexpr int kVcs = 4;
  uint64_t mask = 0;
  InputVc regs[kVcs];
  Flit ram[kVcs * 64];
  InputUnit buffer;
  explicit End(uint32_t delay = 0) { buffer.configure(regs, ram, kVcs, 64, kMaxFlitWords, delay); }
  void evaluate(uint64_t, int) override {}
  void update(uint64_t, int) override {}
  bool busy() const override { return false; }
  LinkEnd end(int bit) { return LinkEnd{clock_id(), &mask, uint64_t{1} << bit}; }
};

struct Departure {
  uint64_t cycle;
  uint32_t msg;
  uint32_t seq;
  int vc;
};

// Router of node 1 on a ring of 4 (ports: 0 = +x towards node 2, 1 = -x towards node 0, 2 = local).
class RouterBench {
 public:
  static constexpr int P = 2, L = 1, Lc = 1;

  explicit RouterBench(int vcs_per_class = 1, int depth = 8) : topo_({4}, true) {
    RouterConfig rc;
    rc.node = 1;
    rc.shape.ndims = 1;
    rc.shape.local_ports = 1;
    rc.shape.vcs_per_class = vcs_per_class;
    rc.shape.buffer_depth = depth;
    depth_ = depth;
    RoutingConfig cfg;
    cfg.dateline_classes = 2;
    router_ = std::make_unique<Router>(rc, build_routing_image(topo_, 1, cfg), topo_, &counters_, arena_, &sched_);
    sched_.add(router_.get());
    for (End* e : {&from0_, &to2_, &from2_, &to0_, &ni_}) sched_.add(e);
    // Every link has latency L; the router's input ports add its P stages (a flit sent in t is due
    // at the router in t + L + P, docs/timing-contract.md). The ejection link has Lloc = L.
    in_minus_.configure(0, L, Lc, &sched_, from0_.end(0));
    out_plus_.configure(1, L, Lc, &sched_, router_->credit_end(0));
    in_plus_.configure(2, L, Lc, &sched_, from2_.end(0));
    out_minus_.configure(3, L, Lc, &sched_, router_->credit_end(1));
    inj_.configure(4, L, Lc, &sched_, ni_.end(0));
    ej_.configure(5, L, Lc, &sched_, router_->credit_end(2));
    router_->connect_input(1, &in_minus_);
    router_->connect_output(0, &out_plus_);
    router_->connect_input(0, &in_plus_);
    router_->connect_output(1, &out_minus_);
    router_->connect_input(2, &inj_);
    router_->connect_output(2, &ej_);
    out_plus_.attach(to2_.buffer.sink(to2_.clock_id(), nullptr));
    out_minus_.attach(to0_.buffer.sink(to0_.clock_id(), nullptr));
    ej_.attach(ni_.buffer.sink(ni_.clock_id(), nullptr));
  }

  static std::vector<Flit> worm(uint32_t msg, int dest, int flits, uint32_t neg_mask = 0) {
    std::vector<Flit> w(static_cast<size_t>(flits));
    for (int i = 0; i < flits; ++i) {
      w[i].msg = msg;
      w[i].seq = static_cast<uint32_t>(i);
      w[i].kind = static_cast<uint8_t>((i == 0 ? kFlitHead : 0) | (i + 1 == flits ? kFlitTail : 0));
      w[i].dest = dest;
      w[i].neg_mask = neg_mask;
    }
    return w;
  }

  // An upstream sender that honours credits: pushes `flits` onto `link` (VC vc) one per cycle while
  // it has credits for the router's buffer (depth D), from cycle `first`.
  void stream(Link* link, const std::vector<Flit>& flits, int vc, uint64_t first = 0) {
    Stream st;
    st.link = link;
    st.flits.assign(flits.begin(), flits.end());
    st.vc = vc;
    st.credits = depth_;
    st.first = first;
    streams_.push_back(std::move(st));
  }

  // Schedules flits to be pushed onto `link` (VC vc), one per cycle from cycle `first`.
  void feed(Link* link, const std::vector<Flit>& flits, uint64_t first, int vc = 0) {
    for (size_t i = 0; i < flits.size(); ++i) feeds_[first + i].push_back({link, flits[i], vc});
  }

  // Runs `cycles` cycles. Downstream neighbours sink flits and return credits at once if
  // auto_credit; the test's upstream senders honour nothing (the test keeps within depth).
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) {
      const uint64_t t = sched_.cycle();
      for (Stream& st : streams_)
        if (t >= st.first && !st.flits.empty() && st.credits > 0) {
          st.link->send_flit(t, 0, st.flits.front(), static_cast<uint8_t>(st.vc),
                             st.link->tail_slot(static_cast<uint8_t>(st.vc)));
          st.flits.pop_front();
          --st.credits;
        }
      auto it = feeds_.find(t);
      if (it != feeds_.end())
        for (const Feed& f : it->second)
          f.link->send_flit(t, 0, f.flit, static_cast<uint8_t>(f.vc), f.link->tail_slot(static_cast<uint8_t>(f.vc)));
      sched_.step();
      for (auto [link, log, end] : {std::tuple{&out_plus_, &plus_, &to2_}, std::tuple{&out_minus_, &minus_, &to0_},
                                    std::tuple{&ej_, &eject_, &ni_}}) {
        if (const Flit* f = link->wire_flit(t)) log->push_back({t, f->msg, f->seq, f->vc});
        // The neighbour sinks every flit that is due and (if auto_credit) returns its credit.
        for (int v = 0; v < End::kVcs; ++v)
          while (end->buffer.vc(v).count() && end->buffer.front(v).due <= t) {
            end->buffer.pop(v);
            if (auto_credit) link->send_credit(t, 0, Credit{static_cast<uint8_t>(v)});
          }
      }
      for (Link* in : {&in_minus_, &in_plus_, &inj_})
        while (in->credit_ready(t)) {
          const int vc = in->take_credit().vc;
          credits_back_.push_back({t, vc, in->id()});
          for (Stream& st : streams_)
            if (st.link == in && st.vc == vc) ++st.credits;
        }
    }
  }

  struct Feed {
    Link* link;
    Flit flit;
    int vc;
  };
  struct Stream {
    Link* link = nullptr;
    std::deque<Flit> flits;
    int vc = 0;
    int credits = 0;
    uint64_t first = 0;
  };
  struct CreditBack {
    uint64_t cycle;
    int vc;
    uint32_t link;
  };

  Topology topo_;
  int depth_ = 8;
  Scheduler sched_;
  NetworkCounters counters_;
  Arena arena_;
  std::unique_ptr<Router> router_;
  // Downstream neighbours have a router's P stages (their flits are due L + P after the send).
  End from0_, to2_{P}, from2_, to0_{P}, ni_;
  Link in_minus_, out_plus_, in_plus_, out_minus_, inj_, ej_;
  std::map<uint64_t, std::vector<Feed>> feeds_;
  std::vector<Stream> streams_;
  std::vector<Departure> plus_, minus_, eject_;
  std::vector<CreditBack> credits_back_;
  bool auto_credit = true;
};

TEST(Router, ForwardsAFlitPCyclesAfterItReachedTheInput) {
  RouterBench b;
  b.feed(&b.in_minus_, RouterBench::worm(7, 2, 1), 0);  // on the wire in cycle 0, at the input in cycle L
  b.run(10);
  ASSERT_EQ(b.plus_.size(), 1u);
  EXPECT_EQ(b.plus_[0].cycle, static_cast<uint64_t>(RouterBench::L + RouterBench::P));
  EXPECT_EQ(b.plus_[0].vc, 1) << "node 1 -> node 2 does not cross the dateline: class 1";
  // The freed slot's credit goes back upstream in the cycle the flit leaves, seen Lc later.
  ASSERT_EQ(b.credits_back_.size(), 1u);
  EXPECT_EQ(b.credits_back_[0].cycle, b.plus_[0].cycle + RouterBench::Lc);
  EXPECT_EQ(b.credits_back_[0].link, b.in_minus_.id());
}

TEST(Router, DatelineClassWhenTheRestOfThePathWraps) {
  RouterBench b;
  b.feed(&b.in_minus_, RouterBench::worm(1, 0, 1), 0);  // 1 -> 2 -> 3 -> 0: crosses 3 -> 0
  b.feed(&b.in_minus_, RouterBench::worm(2, 3, 1), 4);  // 1 -> 2 -> 3: does not
  b.feed(&b.inj_, RouterBench::worm(3, 2, 1, 1), 8);    // 1 -> 0 -> 3 -> 2 going -x: crosses 0 -> 3
  b.run(20);
  ASSERT_EQ(b.plus_.size(), 2u);
  EXPECT_EQ(b.plus_[0].vc, 0);
  EXPECT_EQ(b.plus_[1].vc, 1);
  ASSERT_EQ(b.minus_.size(), 1u);
  EXPECT_EQ(b.minus_[0].vc, 0);
}

TEST(Router, EjectsAtTheDestination) {
  RouterBench b;
  b.feed(&b.in_minus_, RouterBench::worm(4, 1, 3), 0);
  b.run(12);
  ASSERT_EQ(b.eject_.size(), 3u);
  EXPECT_EQ(b.eject_[0].cycle, 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.eject_[i].seq, static_cast<uint32_t>(i));
  EXPECT_TRUE(b.plus_.empty());
}

TEST(Router, CreditsLimitAWormToTheDownstreamBuffer) {
  constexpr int D = 4;
  RouterBench b(1, D);
  b.auto_credit = false;
  b.feed(&b.in_minus_, RouterBench::worm(5, 2, D), 0);
  b.feed(&b.in_minus_, RouterBench::worm(6, 2, D), 20);  // upstream stays within its D credits
  b.run(40);
  ASSERT_EQ(b.plus_.size(), static_cast<size_t>(D)) << "exactly D flits without credits back";
  const uint64_t stalled_evals = b.router_->stats().evaluations;
  b.run(20);
  EXPECT_EQ(b.router_->stats().evaluations, stalled_evals) << "a blocked router sleeps";
  EXPECT_GT(b.router_->blocked_vc_cycles(b.sched_.cycle()), 20u) << "but its blocked VC is still accounted";
  // One credit returned in cycle t is spent in cycle t + Lc: exactly one more flit.
  const uint64_t t = b.sched_.cycle();
  b.out_plus_.send_credit(t, 0, Credit{1});
  b.run(10);
  ASSERT_EQ(b.plus_.size(), static_cast<size_t>(D) + 1);
  EXPECT_EQ(b.plus_.back().cycle, t + RouterBench::Lc);
  EXPECT_EQ(b.plus_.back().msg, 6u);
  EXPECT_EQ(b.plus_.back().seq, 0u);
}

TEST(Router, OutputVcHeldUntilTheTailLeavesThenFreeTheNextCycle) {
  RouterBench b(1);  // one VC per class: the second worm must wait for the first
  b.feed(&b.in_minus_, RouterBench::worm(10, 2, 5), 0);
  b.feed(&b.inj_, RouterBench::worm(11, 2, 3), 1);
  b.run(30);
  ASSERT_EQ(b.plus_.size(), 8u);
  uint64_t tail10 = 0, head11 = 0;
  for (const Departure& d : b.plus_) {
    EXPECT_EQ(d.vc, 1);
    if (d.msg == 10 && d.seq == 4) tail10 = d.cycle;
    if (d.msg == 11 && d.seq == 0) head11 = d.cycle;
  }
  EXPECT_EQ(head11, tail10 + 1) << "the released VC is allocated in the following cycle";
  for (size_t i = 1; i < b.plus_.size(); ++i)
    if (b.plus_[i].msg == b.plus_[i - 1].msg) {
      EXPECT_EQ(b.plus_[i].seq, b.plus_[i - 1].seq + 1);
    }
}

TEST(Router, TwoVcsShareTheLinkFlitByFlitAndKeepWormsApart) {
  RouterBench b(2);  // two VCs in class 1
  b.feed(&b.in_minus_, RouterBench::worm(20, 2, 6), 0);
  b.feed(&b.inj_, RouterBench::worm(21, 2, 6), 0);
  b.run(40);
  ASSERT_EQ(b.plus_.size(), 12u);
  std::map<uint32_t, int> vc_of;
  std::map<uint32_t, uint32_t> next_seq;
  int switches = 0;
  for (size_t i = 0; i < b.plus_.size(); ++i) {
    const Departure& d = b.plus_[i];
    if (!vc_of.count(d.msg)) vc_of[d.msg] = d.vc;
    EXPECT_EQ(vc_of[d.msg], d.vc) << "a worm keeps its VC";
    EXPECT_EQ(next_seq[d.msg]++, d.seq) << "flits of a worm leave in order";
    if (i && b.plus_[i - 1].msg != d.msg) ++switches;
    if (i) {
      EXPECT_NE(b.plus_[i - 1].cycle, d.cycle) << "one flit per output per cycle";
    }
  }
  EXPECT_NE(vc_of[20], vc_of[21]);
  EXPECT_GE(switches, 8) << "round-robin switch allocation interleaves the two worms";
}

// docs/timing-contract.md, stage P step 3: a stream of worms through one input cannot starve another
// input that asks for the same output VC. Here 64 worms of 8 flits arrive from +x (node 2) on their
// way to node 0, and this node injects one 4-flit worm for node 0 in cycle 40: both need output -x,
// class 1, whose one VC is free again one cycle after each tail. Round-robin over input VCs gives the
// injected worm the VC after at most one more worm of the stream (before the allocator was fair, input
// port +x was always asked first and the worm waited for the whole stream).
TEST(Router, VcAllocationIsFair) {
  constexpr int kWorms = 64, kFlits = 8;
  RouterBench b(1, 8);
  std::vector<Flit> stream;
  for (int k = 0; k < kWorms; ++k)
    for (const Flit& f : RouterBench::worm(100 + k, 0, kFlits, 1)) stream.push_back(f);
  b.stream(&b.in_plus_, stream, 1);
  b.feed(&b.inj_, RouterBench::worm(7, 0, 4, 1), 40);
  b.run(900);
  ASSERT_EQ(b.minus_.size(), static_cast<size_t>(kWorms * kFlits + 4)) << "everything left on -x";
  uint64_t head7 = 0, tail7 = 0;
  for (const Departure& d : b.minus_) {
    if (d.msg == 7 && d.seq == 0) head7 = d.cycle;
    if (d.msg == 7 && d.seq == 3) tail7 = d.cycle;
  }
  const uint64_t ready = 40 + RouterBench::L + RouterBench::P;  // the head can first compete
  ASSERT_GT(head7, 0u);
  EXPECT_LE(head7, ready + kFlits + 1) << "it waits for at most the worm that holds the VC";
  // Stream worms that left -x between the injected worm's arrival and its head: at most one.
  std::set<uint32_t> passed;
  for (const Departure& d : b.minus_)
    if (d.msg != 7 && d.cycle >= ready && d.cycle < head7) passed.insert(d.msg);
  EXPECT_LE(passed.size(), 1u);
  // And it is fair both ways: the stream resumes right after the injected worm's tail.
  uint64_t next_stream_head = 0;
  for (const Departure& d : b.minus_)
    if (d.msg != 7 && d.seq == 0 && d.cycle > tail7) {
      next_stream_head = d.cycle;
      break;
    }
  EXPECT_EQ(next_stream_head, tail7 + 1) << "the VC released by a tail is granted in the next cycle";
}

TEST(Router, BrokenWormholeOrderIsCaught) {
  RouterBench b;
  std::vector<Flit> w = RouterBench::worm(30, 2, 3);
  w.erase(w.begin());  // body and tail without a head
  b.feed(&b.in_minus_, w, 0);
  EXPECT_THROW(b.run(10), std::logic_error);
}

TEST(Router, InterleavedWormsOnOneVcAreCaught) {
  RouterBench b(1);
  std::vector<Flit> a = RouterBench::worm(40, 2, 3), c = RouterBench::worm(41, 2, 3);
  b.feed(&b.in_minus_, {a[0], c[1], a[1], a[2]}, 0);  // a flit of worm 41 inside worm 40
  EXPECT_THROW(b.run(12), std::logic_error);
}

}  // namespace
}  // namespace torx::model
