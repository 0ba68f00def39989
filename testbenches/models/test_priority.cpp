// Priority throttle-and-preempt routers (docs/priority.md), property by property: a higher-level worm
// takes an output channel from a lower one between two flits and gives it back when its tail has
// left; nested preemption (three levels) unwinds innermost first; on dateline-class VCs too; the
// throttle keeps room for a higher level, so its head leaves at once when lower levels have used up
// everything they may; no flit is lost, duplicated or reordered and every worm stays in its level's
// lane; equal priorities behave exactly as the plain router; more phases than levels are mapped
// keeping their order; every registered algorithm delivers under --sync priority without the
// watchdog; two C++ priority routers agree in lock step under random prioritised traffic; and the
// switch allocator's input stage is round robin over a port's lanes at every level.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model_test_util.hpp"
#include "models/allocators.hpp"
#include "models/cosim.hpp"
#include "models/port_router.hpp"

namespace torx::model {
namespace {

using sw::SyncMode;
using sw::Topology;

// One router in port mode (the same cycle as the fast path: PortRouter.ANetworkOfPortModeRouters...),
// node 1 of a ring of 4: ports 0 = +x (towards node 2), 1 = -x (towards node 0), 2 = local. The test
// plays the neighbours: an upstream neighbour sends, per input port and cycle, the front flit of its
// highest-level worm that its credits and the throttle let through (as an upstream priority router
// would), and collects the outputs; the downstream buffers return a credit one cycle after each flit
// when `sink` is on.
class PriorityBench {
 public:
  static constexpr int P = 2;
  explicit PriorityBench(int levels, int depth = 8) : topo_({4}, true) {
    RouterConfig rc;
    rc.node = 1;
    rc.shape.ndims = 1;
    rc.shape.buffer_depth = depth;
    rc.shape.priority_levels = levels;
    RoutingConfig cfg;
    cfg.dateline_classes = 2;
    core_ = std::make_unique<RouterPortCore>(rc, build_routing_image(topo_, 1, cfg), topo_);
    credits_.assign(3 * 2, depth);  // what this bench may still send into each input VC
    levels_ = levels;
  }

  // A worm of `flits` flits for `dest`, at priority `level`, travelling -x if neg.
  static std::vector<Flit> worm(uint32_t msg, int dest, int flits, int level, bool neg = false) {
    std::vector<Flit> w(static_cast<size_t>(flits));
    for (int i = 0; i < flits; ++i) {
      w[i].msg = msg;
      w[i].seq = static_cast<uint32_t>(i);
      w[i].kind = static_cast<uint8_t>((i == 0 ? kFlitHead : 0) | (i + 1 == flits ? kFlitTail : 0));
      w[i].dest = dest;
      w[i].neg_mask = neg ? 1u : 0u;
      w[i].priority = static_cast<uint8_t>(level);
      w[i].payload[0] = uint64_t{msg} << 32 | static_cast<uint32_t>(i);
    }
    return w;
  }
  // Queues a worm at input `port`, VC `vc`, from cycle `first` on (one flit per cycle as credits allow).
  void feed(int port, int vc, const std::vector<Flit>& flits, uint64_t first) {
    for (const Flit& f : flits) queue_.push_back({port, vc, f, first});
  }

  void run(uint64_t cycles) {
    const int n = core_->shape().ports();
    std::vector<PortWires> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    for (uint64_t c = 0; c < cycles; ++c, ++t_) {
      for (PortWires& w : in) w = PortWires{};
      // Per input port, the highest-level worm whose next flit may go (queued, credits above the
      // throttle's reserve for its level); each worm's flits in order.
      for (int p = 0; p < n; ++p) {
        auto best = queue_.end();
        std::set<uint32_t> seen;
        for (auto it = queue_.begin(); it != queue_.end(); ++it) {
          if (it->port != p || !seen.insert(it->flit.msg).second) continue;  // only a worm's next flit
          const int reserve = (levels_ - 1 - it->flit.priority);
          if (it->first > t_ || credits_[it->port * 2 + it->vc] <= reserve) continue;
          if (best == queue_.end() || it->flit.priority > best->flit.priority) best = it;
        }
        if (best == queue_.end()) continue;
        in[p].flit_valid = true;
        in[p].flit = best->flit;
        in[p].flit.vc = static_cast<uint8_t>(best->vc);
        --credits_[p * 2 + best->vc];
        queue_.erase(best);
      }
      for (auto& [port, vc] : pending_credits_[t_]) {
        in[port].credit_valid = true;
        in[port].credit_vc = static_cast<uint8_t>(vc);
      }
      core_->cycle(t_, in.data(), out.data());
      for (int p = 0; p < n; ++p) {
        if (out[p].flit_valid) {
          sent_.push_back({t_, p, out[p].flit});
          if (sink) credit_at(t_ + 1, p, out[p].flit.vc);
        }
        if (out[p].credit_valid) ++credits_[p * 2 + out[p].credit_vc];
      }
    }
  }
  // Returns a credit to output `port`, VC vc (the downstream buffer drained one): in the first cycle
  // from now in which that wire carries no credit yet (one credit per link and cycle).
  void credit(int port, int vc) { credit_at(t_, port, vc); }
  void credit_at(uint64_t c, int port, int vc) {
    while (true) {
      bool busy = false;
      for (const auto& [p, v] : pending_credits_[c]) busy |= p == port;
      if (!busy) break;
      ++c;
    }
    pending_credits_[c].push_back({port, vc});
  }

  struct Sent {
    uint64_t cycle;
    int port;
    Flit flit;
  };
  std::vector<Sent> on(int port) const {
    std::vector<Sent> v;
    for (const Sent& s : sent_)
      if (s.port == port) v.push_back(s);
    return v;
  }
  uint64_t departure(int port, uint32_t msg, uint32_t seq) const {
    for (const Sent& s : sent_)
      if (s.port == port && s.flit.msg == msg && s.flit.seq == seq) return s.cycle;
    return UINT64_MAX;
  }
  bool sink = true;
  uint64_t now() const { return t_; }
  RouterPortCore& core() { return *core_; }

 private:
  struct Queued {
    int port, vc;
    Flit flit;
    uint64_t first;
  };
  Topology topo_;
  std::unique_ptr<RouterPortCore> core_;
  std::vector<int> credits_;
  std::vector<Queued> queue_;
  std::map<uint64_t, std::vector<std::pair<int, int>>> pending_credits_;
  std::vector<Sent> sent_;
  uint64_t t_ = 0;
  int levels_ = 1;
};

// Every worm's flits leave in order, none twice, each exactly once, and on one VC at one level.
void expect_worms_intact(const std::vector<PriorityBench::Sent>& sent, const std::map<uint32_t, uint32_t>& lengths) {
  std::map<uint32_t, uint32_t> next;
  std::map<uint32_t, std::pair<int, int>> lane;
  for (const auto& s : sent) {
    const uint32_t m = s.flit.msg;
    EXPECT_EQ(next[m], s.flit.seq) << "message " << m << " flit order";
    ++next[m];
    const auto l = std::make_pair(static_cast<int>(s.flit.vc), static_cast<int>(s.flit.priority));
    if (!lane.count(m)) lane[m] = l;
    EXPECT_EQ(lane[m], l) << "message " << m << " keeps its VC and level";
    EXPECT_EQ(s.flit.payload[0], uint64_t{m} << 32 | s.flit.seq) << "payload travels with its flit";
  }
  for (const auto& [m, len] : lengths) EXPECT_EQ(next[m], len) << "message " << m << " complete";
}

// The input stage of the switch allocator (docs/timing-contract.md, step 4): lane l of a port has
// level l mod K, and while two lanes of the port's top level stay ready they win in turn. Until
// issue 25 the pointer wrapped at the port's VC count, not its lane count: with 2 VCs and K = 2,
// lane 1 (VC 0, level 1) won, the pointer went back to 0, lane 1 won again and lane 3 (VC 1,
// level 1) waited as long as lane 1 was ready (the RTL did the same: sa_in_fair, formal sw_alloc_k2).
TEST(Priority, TheSwitchAllocatorsInputStageServesEveryLaneOfTheTopLevelInTurn) {
  for (const int levels : {2, 3, 4}) {
    for (const int vcs : {2, 3}) {
      RouterPort ports[2];
      ports[0].vcs = static_cast<uint8_t>(vcs);
      ports[0].lanes = static_cast<uint8_t>(vcs * levels);
      ports[1].vcs = 1;
      ports[1].lanes = static_cast<uint8_t>(levels);
      SwitchAllocator sa;
      sa.configure(ports, 2);
      const int top = levels - 1;
      uint64_t ready = 0;  // every VC's top-level lane of port 0
      for (int v = 0; v < vcs; ++v) ready |= uint64_t{1} << (v * levels + top);
      std::vector<int> order;
      for (int round = 0; round < 3 * vcs; ++round) {
        uint64_t requested = 0;
        const int lane = sa.offer(0, ready, top, [](int) { return 1; }, requested);
        ASSERT_EQ(sa.arbitrate(1), 0);
        sa.grant(0, lane, 1);
        order.push_back(lane);
      }
      for (size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(order[i], static_cast<int>(i % static_cast<size_t>(vcs)) * levels + top)
            << "K = " << levels << ", " << vcs << " VCs: win " << i << " goes to VC " << i % static_cast<size_t>(vcs)
            << "'s top lane";
    }
  }
}

TEST(Priority, AHigherLevelTakesTheChannelBetweenTwoFlitsAndGivesItBack) {
  PriorityBench b(4);
  // Level 0, 30 flits, from -x (node 0) through this router to node 2 (+x, VC 1: no dateline).
  b.feed(1, 1, PriorityBench::worm(10, 2, 30, 0), 0);
  // Level 3, 5 flits, injected here in cycle 10 for node 2.
  b.feed(2, 0, PriorityBench::worm(20, 2, 5, 3), 10);
  b.run(80);
  const uint64_t h0 = b.departure(0, 20, 0), h4 = b.departure(0, 20, 4);
  EXPECT_EQ(h0, 10u + PriorityBench::P) << "the head leaves as soon as it is due: no wait for the lower worm";
  EXPECT_EQ(h4, h0 + 4) << "the preempting worm streams";
  // The lower worm was interrupted between two flits and resumed right after the tail.
  const auto plus = b.on(0);
  bool interrupted = false;
  for (size_t i = 0; i + 1 < plus.size(); ++i)
    if (plus[i].flit.msg == 10 && plus[i + 1].flit.msg == 20) interrupted = true;
  EXPECT_TRUE(interrupted);
  uint64_t resumed = UINT64_MAX;
  for (const auto& s : plus)
    if (s.flit.msg == 10 && s.cycle > h4) {
      resumed = s.cycle;
      break;
    }
  EXPECT_EQ(resumed, h4 + 1) << "the channel returns in the cycle after the preempting tail";
  expect_worms_intact(plus, {{10, 30}, {20, 5}});
}

TEST(Priority, NestedPreemptionUnwindsInOrder) {
  PriorityBench b(4);
  // Levels 0 and 1 on two lanes of input -x, VC 1; level 3 from the injection port.
  b.feed(1, 1, PriorityBench::worm(10, 2, 40, 0), 0);
  b.feed(1, 1, PriorityBench::worm(11, 2, 12, 1), 6);
  b.feed(2, 0, PriorityBench::worm(12, 2, 5, 3), 12);
  b.run(120);
  const auto plus = b.on(0);
  expect_worms_intact(plus, {{10, 40}, {11, 12}, {12, 5}});
  // Order of the worms' flits on +x: L ... M ... H H H H H M ... L ...
  const uint64_t m_first = b.departure(0, 11, 0), h_first = b.departure(0, 12, 0), h_tail = b.departure(0, 12, 4),
                 m_tail = b.departure(0, 11, 11);
  EXPECT_LT(m_first, h_first);
  EXPECT_LT(h_tail, m_tail) << "the innermost preemption ends first";
  EXPECT_EQ(b.departure(0, 11, static_cast<uint32_t>(0)) , m_first);
  // Right after the top tail the middle worm resumes, and the bottom one only after the middle tail.
  uint64_t after_h = UINT64_MAX, after_m = UINT64_MAX;
  for (const auto& s : plus) {
    if (s.cycle > h_tail && after_h == UINT64_MAX) after_h = s.flit.msg;
    if (s.cycle > m_tail && after_m == UINT64_MAX) after_m = s.flit.msg;
  }
  EXPECT_EQ(after_h, 11u);
  EXPECT_EQ(after_m, 10u);
  for (const auto& s : plus)
    if (s.flit.msg == 10) {
      EXPECT_FALSE(s.cycle > m_first && s.cycle < m_tail) << "the bottom worm waits while the middle one holds";
    }
}

TEST(Priority, PreemptionOnDatelineClassVcs) {
  PriorityBench b(4);
  // 1 -> 2 -> 3 -> 0 crosses the wrap: class 0 on +x (VC 0) at this router. Both worms need it.
  b.feed(1, 0, PriorityBench::worm(30, 0, 20, 1), 0);
  b.feed(2, 0, PriorityBench::worm(31, 0, 4, 2), 8);
  b.run(60);
  const auto plus = b.on(0);
  for (const auto& s : plus) EXPECT_EQ(s.flit.vc, 0) << "class 0 before the dateline";
  EXPECT_EQ(b.departure(0, 31, 0), 8u + PriorityBench::P);
  expect_worms_intact(plus, {{30, 20}, {31, 4}});
}

TEST(Priority, TheThrottleKeepsRoomSoAHigherHeadLeavesAtOnce) {
  // K = 4, r = 1, D = 8: level 0 may fill the downstream buffer down to 3 free slots, level 2 down to
  // 1, level 3 to 0. With the downstream buffer not draining, the low worm stops after 5 flits.
  PriorityBench b(4);
  b.sink = false;
  b.feed(1, 1, PriorityBench::worm(40, 2, 12, 0), 0);
  b.run(30);
  EXPECT_EQ(b.on(0).size(), 5u) << "level 0 leaves reserve(0) = 3 slots free";
  const uint64_t t = b.now();
  b.feed(2, 0, PriorityBench::worm(41, 2, 6, 2), t);  // level 2: may use 2 of the 3
  b.run(20);
  EXPECT_EQ(b.departure(0, 41, 0), t + PriorityBench::P) << "accepted at once: the room was kept";
  EXPECT_EQ(b.on(0).size(), 7u) << "level 2 stops at reserve(2) = 1";
  const uint64_t u = b.now();
  b.feed(1, 1, PriorityBench::worm(42, 2, 3, 3), u);  // level 3 takes the last slot
  b.run(20);
  EXPECT_EQ(b.departure(0, 42, 0), u + PriorityBench::P);
  EXPECT_EQ(b.on(0).size(), 8u) << "the buffer is exactly full";
  // Drain: every worm completes, in order, in its own lane.
  b.sink = true;
  for (int i = 0; i < 8; ++i) b.credit(0, 1);
  b.run(80);
  expect_worms_intact(b.on(0), {{40, 12}, {41, 6}, {42, 3}});
}

// Every figure of a run but the priority keys.
struct Figures {
  uint64_t cycles, blocked;
  std::vector<uint64_t> links;
  std::vector<int64_t> start, end;
  bool operator==(const Figures& o) const {
    return cycles == o.cycles && blocked == o.blocked && links == o.links && start == o.start && end == o.end;
  }
};

Figures run_figures(const sw::Schedule& s, const Topology& topo, SyncMode mode, const std::vector<std::string>& params,
                    sw::CycleFigures* out = nullptr) {
  CycleOptions o;
  o.sync = mode;
  o.cost.ts_cycles = 10;
  // As torx run settles them (app::params_as_run): the parameter's default levels under --sync
  // priority, one level otherwise.
  if (mode == SyncMode::kPriority) o.params.priority_levels = sw::NetworkParams{}.priority_levels;
  for (const std::string& p : params) sw::set_param(o.params, p);
  CycleNetwork net(s, topo, o);
  net.run();
  EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
  const sw::CycleFigures r = net.result();
  if (out) *out = r;
  return {r.cycles, r.blocked_cycles, r.link_flits, r.step_start, r.step_end};
}

TEST(Priority, EqualPrioritiesBehaveExactlyAsThePlainRouter) {
  for (const auto& [algo, dims] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"direct", {4, 4}}, {"t4", {8, 8}}, {"ring", {32}}, {"tsay-wang", {5, 5}}}) {
    SCOPED_TRACE(algo);
    const Topology topo(dims, true);
    sw::Schedule s = testing::generate(algo, topo);
    for (sw::Step& st : s.steps)
      for (sw::Message& m : st.messages) m.priority = 7;  // one priority: the top level, no reserve
    sw::CycleFigures pr;
    const Figures prio = run_figures(s, topo, SyncMode::kPriority, {}, &pr);
    const Figures none = run_figures(s, topo, SyncMode::kNone, {});
    EXPECT_EQ(pr.preemptions, 0u);
    EXPECT_EQ(pr.priority_levels, 4u);
    EXPECT_TRUE(prio == none) << "cycles " << prio.cycles << " vs " << none.cycles;
  }
}

TEST(Priority, MorePhasesThanLevelsAreMappedKeepingTheirOrder) {
  const Topology topo({4, 4}, true);
  const sw::Schedule s = testing::generate("direct", topo);  // 15 steps, priorities 14 .. 0
  const sw::BlockSpace space(s.header.collective, topo, s.header.pieces, s.header.root);
  for (int k : {1, 2, 4, 15, 16}) {
    ProgramOptions po;
    po.sync = SyncMode::kPriority;
    po.priority_levels = k;
    const Program prog(s, topo, space, po);
    EXPECT_EQ(prog.priorities_used(), 15u);
    int prev = k - 1;
    std::set<int> levels;
    for (uint32_t m = 0; m < prog.messages(); ++m) {
      const int level = prog.message(m).level;
      EXPECT_LT(level, k);
      EXPECT_LE(level, prev) << "a later step never gets a higher level than an earlier one";
      prev = level;
      levels.insert(level);
    }
    EXPECT_EQ(levels.size(), static_cast<size_t>(std::min(k, 15))) << "every level is used";
    EXPECT_EQ(prog.message(0).level, k - 1) << "the first phase is on top";
  }
}

std::optional<Topology> small_topology(const sw::Algorithm& a) {
  return testing::first_accepted(a, {{{8}, true},
                                     {{5}, true},
                                     {{4, 4}, true},
                                     {{8, 8}, true},
                                     {{3, 4}, true},
                                     {{4, 4}, false},
                                     {{4, 4, 4}, true},
                                     {{8, 8, 8}, true},
                                     {{2, 2, 2, 2}, true},
                                     {{5, 5}, true},
                                     {{3, 3, 3}, true}});
}

TEST(Priority, EveryAlgorithmDeliversUnderSyncPriorityWithoutTheWatchdog) {
  for (const sw::Algorithm& a : sw::algorithms()) {
    const std::optional<Topology> topo = small_topology(a);
    ASSERT_TRUE(topo.has_value()) << a.id;
    SCOPED_TRACE(a.id + " on the " + topo->to_string());
    const sw::Schedule s = testing::generate(a.id, *topo);
    for (const std::vector<std::string>& params :
         {std::vector<std::string>{}, {"priority_levels=8", "buffer_depth=10", "watchdog_cycles=2000"}}) {
      CycleOptions o;
      o.sync = SyncMode::kPriority;
      o.cost.ts_cycles = 10;
      o.cost.block_bytes = topo->nodes() <= 64 ? 96 : 16;
      o.params.priority_levels = sw::NetworkParams{}.priority_levels;  // --sync priority's default
      for (const std::string& p : params) sw::set_param(o.params, p);
      CycleNetwork net(s, *topo, o);
      EXPECT_NO_THROW(net.run());
      EXPECT_TRUE(sw::check_delivery(net.memory()).ok);
    }
  }
}

TEST(Priority, TwoPriorityRoutersAgreeInLockStepUnderPrioritisedRandomTraffic) {
  const CppRouterFactory cpp{RouterConfig{}};
  CosimConfig c;
  c.traffic.cycles = 6000;
  c.traffic.load = 0.6;
  c.traffic.max_worm_flits = 16;
  c.traffic.priority_levels = 4;
  c.traffic.seed = 3;
  c.traffic.barrier_every = 1000;
  const CosimResult r = run_cosim(Topology({4, 4}, true), c, cpp, cpp);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
  EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered) << "every worm delivered, checked flit by flit";
  EXPECT_GT(r.coverage.output_vcs_preempted, 0u) << r.coverage.describe();
  EXPECT_GT(r.coverage.output_vcs_nested, 0u) << r.coverage.describe();
}

// Sustained random traffic at four levels without barriers: every worm is delivered. (Before the
// fix in OutputUnit::send, a worm preempted in the very cycle its tail left, offered to the switch
// before the allocation, put itself back as the VC's owner and stranded its preemptor: every one of
// these seeds stopped on the watchdog.)
TEST(Priority, SustainedPrioritisedRandomTrafficWithoutBarriersDeliversEveryWorm) {
  const CppRouterFactory cpp{RouterConfig{}};
  for (int seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    CosimConfig c;
    c.traffic.cycles = 4000;
    c.traffic.load = 0.8;
    c.traffic.max_worm_flits = 6;
    c.traffic.priority_levels = 4;
    c.traffic.seed = static_cast<uint64_t>(seed);
    c.traffic.barrier_every = 0;
    c.params.watchdog_cycles = 3000;
    const CosimResult r = run_cosim(Topology({4, 4}, true), c, cpp, cpp);
    EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch_text;
    EXPECT_EQ(r.traffic.worms_delivered, r.traffic.worms_offered);
    EXPECT_GT(r.coverage.output_vcs_nested, 0u) << r.coverage.describe();
  }
}

}  // namespace
}  // namespace torx::model
