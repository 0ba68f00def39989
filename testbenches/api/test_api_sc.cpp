// SPDX-License-Identifier: Apache-2.0
// torx::sc::Network's TLM-2.0 sockets (include/torx/systemc.hpp), one SystemC elaboration per test
// (sc_test_main.cpp): t4 on the 8x8 replayed through the sockets by loosely- and approximately-timed
// initiators gives every message the delivery cycle of the internal run (torx run t4 --topo 8x8
// --model cycle) and every byte arrives as written; bad transactions get TLM error responses; DMI is
// refused.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "algorithms/registry.hpp"
#include "app/backends.hpp"
#include "app/options.hpp"
#include "app/run.hpp"
#include "models/loader.hpp"
#include "torx/systemc.hpp"

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// One message of the reference run and what the replay saw of it.
struct Msg {
  int src = 0, dst = 0;
  uint64_t bytes = 0;
  uint64_t head = 0;        // reference: cycle the head flit left the source
  uint64_t delivered = 0;   // reference: cycle the tail was written at the destination
  uint64_t offset = 0;      // in the replay's address window
  torx::Route route;
  uint64_t got_cycle = UINT64_MAX;
  int arrivals = 0;
};

uint8_t pattern(size_t msg, uint64_t i) { return static_cast<uint8_t>(msg * 37u + i * 11u + (i >> 8)); }

// Records head and tail flits on the interfaces' links.
class Recorder : public torx::model::FlitObserver {
 public:
  std::map<uint32_t, int> inj, ej;  // link id -> node
  std::map<uint32_t, uint64_t> head, tail_sent;
  void on_flit(uint64_t cycle, uint32_t link, const torx::model::Flit& f) override {
    if (inj.count(link) && f.head()) head[f.msg] = cycle;
    if (ej.count(link) && f.tail()) tail_sent[f.msg] = cycle;
  }
};

// A node's memory: checks every byte of every arrival against the message it belongs to.
struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket;
  int node = 0;
  uint64_t window = 0;
  std::vector<Msg>* msgs = nullptr;
  std::map<std::pair<int, uint64_t>, size_t> by_addr;  // (src, offset) -> message
  uint64_t bad_bytes = 0, unknown = 0;
  sc_time period;
  explicit Memory(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_time& delay) {
    EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
    const int src = static_cast<int>(t.get_address() / window);
    auto it = by_addr.find({src, t.get_address() % window});
    if (it == by_addr.end() || t.get_command() != tlm::TLM_WRITE_COMMAND) {
      ++unknown;
      t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    Msg& m = (*msgs)[it->second];
    EXPECT_EQ(t.get_data_length(), m.bytes);
    for (uint64_t i = 0; i < std::min<uint64_t>(t.get_data_length(), m.bytes); ++i)
      bad_bytes += t.get_data_ptr()[i] != pattern(it->second, i);
    // Written at the end of the cycle the tail arrived in.
    m.got_cycle = sc_core::sc_time_stamp().value() / period.value() - 1;
    ++m.arrivals;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Node v's initiator: writes its messages, each in the cycle given, loosely timed (b_transport)
// or approximately timed (nb_transport_fw with the cycle as annotated delay).
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  bool at = false;
  uint64_t window = 0;
  sc_time period;
  std::vector<std::pair<uint64_t, size_t>> sends;  // (cycle, message)
  std::vector<Msg>* msgs = nullptr;
  uint64_t responses = 0, errors = 0;
  sc_core::sc_event resp_ev;
  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &Initiator::nb_transport_bw);
    SC_THREAD(drive);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time&) {
    EXPECT_EQ(ph, tlm::BEGIN_RESP);
    if (t.is_response_error()) ++errors;
    ++responses;
    resp_ev.notify();
    return tlm::TLM_COMPLETED;
  }
  void drive() {
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> gps;
    std::vector<std::vector<uint8_t>> bufs;
    for (auto [cycle, mi] : sends) {
      const Msg& m = (*msgs)[mi];
      bufs.emplace_back(m.bytes);
      for (uint64_t i = 0; i < m.bytes; ++i) bufs.back()[i] = pattern(mi, i);
      gps.push_back(std::make_unique<tlm::tlm_generic_payload>());
      tlm::tlm_generic_payload& t = *gps.back();
      t.set_command(tlm::TLM_WRITE_COMMAND);
      t.set_address(static_cast<uint64_t>(m.dst) * window + m.offset);
      t.set_data_ptr(bufs.back().data());
      t.set_data_length(static_cast<unsigned>(m.bytes));
      t.set_streaming_width(static_cast<unsigned>(m.bytes));
      auto* ext = new torx::sc::MessageExtension;
      ext->route = m.route;
      t.set_extension(ext);  // freed with the payload
      const sc_time when = period * static_cast<double>(cycle);
      if (!at) {
        // Loosely timed: the local time offset says when the write happens.
        sc_time delay = when - sc_core::sc_time_stamp();
        socket->b_transport(t, delay);
        if (t.is_response_error()) ++errors;
        ++responses;
      } else {
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time delay = when - sc_core::sc_time_stamp();
        const tlm::tlm_sync_enum s = socket->nb_transport_fw(t, ph, delay);
        EXPECT_EQ(s, tlm::TLM_UPDATED);
        EXPECT_EQ(ph, tlm::END_REQ);
        // The next request may go after END_REQ; wait for this one's time so the order holds.
        wait(when - sc_core::sc_time_stamp());
      }
    }
    while (at && responses < sends.size()) wait(resp_ev);
  }
};

TEST(ApiSc, T4ThroughTheSocketsHasTheInternalRunsDeliveryCycles) {
  // The internal run, exactly as `torx run t4 --topo 8x8 --model cycle` builds it.
  torx::app::RunWords w;
  w.topo = "8x8";
  w.algo = "t4";
  w.model = "cycle";
  torx::app::RunRequest req = torx::app::validate_request(torx::app::parse_run(w, false));
  torx::sw::Schedule schedule;
  torx::sw::AlgorithmOptions aopt;
  torx::sw::lookup_algorithm("t4").generate(req.topology, aopt, schedule);
  const torx::model::CycleOptions o = torx::app::cycle_options(req);
  torx::model::CycleNetwork ref(schedule, req.topology, o, true);
  Recorder rec;
  for (torx::sw::NodeId v = 0; v < req.topology.nodes(); ++v) {
    rec.inj[ref.fabric().injection_link(v, 0).id()] = static_cast<int>(v);
    rec.ej[ref.fabric().ejection_link(v, 0).id()] = static_cast<int>(v);
  }
  ref.fabric().set_observer(&rec);
  ref.run();
  const torx::sw::CycleFigures fig = ref.result();
  // ... and the application's own run of it (torx run's figure "cycles").
  req.kernel_free = true;
  const torx::app::RunReport rep = torx::app::run(req);
  ASSERT_TRUE(rep.check.ok);
  ASSERT_EQ(rep.cycle_model->cycles, fig.cycles);

  const int local_latency = static_cast<int>(o.params.local_latency);
  std::vector<Msg> msgs;
  uint64_t max_bytes = 1;
  uint32_t id = 0;
  for (const torx::sw::Step& st : schedule.steps)
    for (const torx::sw::Message& m : st.messages) {
      Msg x;
      x.src = static_cast<int>(m.src);
      x.dst = static_cast<int>(m.dst);
      x.bytes = torx::sw::message_blocks(ref.space(), st, m) * uint64_t{o.cost.block_bytes};
      x.route.start_dim = m.route.start_dim;  // t4's routes start in x or in y
      x.route.negative = m.route.neg_mask;
      ASSERT_TRUE(rec.head.count(id) && rec.tail_sent.count(id)) << "message " << id;
      x.head = rec.head[id];
      x.delivered = rec.tail_sent[id] + static_cast<uint64_t>(local_latency);
      max_bytes = std::max(max_bytes, x.bytes);
      msgs.push_back(x);
      ++id;
    }
  uint64_t last = 0;
  for (const Msg& m : msgs) last = std::max(last, m.delivered + 1);
  ASSERT_EQ(last, fig.cycles);  // the reference's delivery cycles are the run's

  // The replay: every message written into target[src] in the cycle the internal interface issued it
  // (its head cycle minus t_s), by LT initiators at even nodes and AT ones at odd nodes.
  const sc_time period(1, SC_NS);
  uint64_t stride = 1;
  while (stride < max_bytes) stride <<= 1;
  std::vector<uint64_t> per_src(static_cast<size_t>(req.topology.nodes()), 0);
  for (Msg& m : msgs) m.offset = stride * per_src[static_cast<size_t>(m.src)]++;
  uint64_t window = stride * *std::max_element(per_src.begin(), per_src.end());
  torx::sc::Config cfg;
  cfg.topology = "8x8";
  cfg.startup_cycles = o.cost.ts_cycles;
  cfg.flit_bytes = o.cost.flit_bytes;
  cfg.window_bytes = window;
  cfg.clock_period = period;
  cfg.params = {"order_classes=" + std::to_string(ref.routing_config().order_classes)};
  torx::sc::Network net("torx", cfg);
  std::vector<std::unique_ptr<Initiator>> inits;
  std::vector<std::unique_ptr<Memory>> mems;
  for (int v = 0; v < net.nodes(); ++v) {
    inits.push_back(std::make_unique<Initiator>(("init_" + std::to_string(v)).c_str()));
    inits.back()->at = v % 2 == 1;
    inits.back()->window = window;
    inits.back()->period = period;
    inits.back()->msgs = &msgs;
    inits.back()->socket.bind(net.target[v]);
    mems.push_back(std::make_unique<Memory>(("mem_" + std::to_string(v)).c_str()));
    mems.back()->node = v;
    mems.back()->window = window;
    mems.back()->msgs = &msgs;
    mems.back()->period = period;
    net.initiator[v].bind(mems.back()->socket);
  }
  for (size_t i = 0; i < msgs.size(); ++i) {
    ASSERT_GE(msgs[i].head, o.cost.ts_cycles);
    inits[static_cast<size_t>(msgs[i].src)]->sends.emplace_back(msgs[i].head - o.cost.ts_cycles, i);
    mems[static_cast<size_t>(msgs[i].dst)]->by_addr[{msgs[i].src, msgs[i].offset}] = i;
  }
  for (auto& in : inits)
    std::sort(in->sends.begin(), in->sends.end());
  std::vector<uint64_t> cb_cycle(msgs.size(), UINT64_MAX);
  uint64_t deliveries = 0;
  net.on_delivery([&](const torx::Delivery& d) {
    ++deliveries;
    EXPECT_TRUE(d.intact);
  });
  sc_core::sc_start();
  EXPECT_EQ(deliveries, msgs.size());
  uint64_t mismatched = 0, missing = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (msgs[i].arrivals != 1) ++missing;
    else if (msgs[i].got_cycle != msgs[i].delivered) {
      if (mismatched++ < 5)
        ADD_FAILURE() << "message " << i << " " << msgs[i].src << "->" << msgs[i].dst << ": delivered in cycle "
                      << msgs[i].got_cycle << ", internal run " << msgs[i].delivered;
    }
  }
  EXPECT_EQ(missing, 0u);
  EXPECT_EQ(mismatched, 0u);
  uint64_t bad = 0, unknown = 0, resp = 0, errs = 0;
  for (auto& m : mems) bad += m->bad_bytes, unknown += m->unknown;
  for (auto& in : inits) resp += in->responses, errs += in->errors;
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(unknown, 0u);
  EXPECT_EQ(resp, msgs.size());
  EXPECT_EQ(errs, 0u);
  EXPECT_EQ(net.refused(), 0u);
  EXPECT_EQ(net.memory_errors(), 0u);
  const torx::Figures f = net.figures();
  EXPECT_EQ(f.link_flits, fig.link_flits);  // the same flits on every link
  std::cout << msgs.size() << " messages, " << fig.cycles << " cycles, " << mismatched
            << " delivery cycles differ from the internal run, " << bad << " bytes wrong\n";
}

// A memory that takes whatever arrives.
struct Sink : sc_core::sc_module {
  tlm_utils::simple_target_socket<Sink> socket;
  uint64_t writes = 0;
  explicit Sink(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &Sink::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_time&) {
    ++writes;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Prober : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Prober> socket;
  std::vector<tlm::tlm_response_status> lt, at;
  bool dmi = true;
  unsigned dbg = 1;
  sc_time ok_returned;
  std::vector<sc_time> resp_at;  // BEGIN_RESP of the AT writes
  tlm::tlm_generic_payload* resp_trans = nullptr;
  sc_core::sc_event resp_ev;
  SC_HAS_PROCESS(Prober);
  explicit Prober(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &Prober::nb_transport_bw);
    SC_THREAD(probe);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time&) {
    EXPECT_EQ(ph, tlm::BEGIN_RESP);
    EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
    resp_at.push_back(sc_core::sc_time_stamp());
    resp_trans = &t;
    resp_ev.notify(sc_time(3, SC_NS));  // END_RESP on the forward path, 3 ns later
    return tlm::TLM_ACCEPTED;
  }
  void probe() {
    uint8_t data[64] = {};
    uint8_t be[4] = {0xff, 0xff, 0xff, 0xff};
    struct Case {
      tlm::tlm_command cmd;
      uint64_t addr;
      unsigned len;
      unsigned width;
      bool byte_enables;
    };
    const uint64_t w = 4096;
    const Case cases[] = {
        {tlm::TLM_WRITE_COMMAND, 16 * w, 16, 16, false},      // unknown node (the 4x4 has 16)
        {tlm::TLM_WRITE_COMMAND, 3 * w, 0, 0, false},         // length 0
        {tlm::TLM_WRITE_COMMAND, 3 * w + w - 8, 16, 16, false},  // beyond the node's window
        {tlm::TLM_READ_COMMAND, 3 * w, 16, 16, false},        // a read
        {tlm::TLM_WRITE_COMMAND, 0 * w, 16, 16, false},       // to itself
        {tlm::TLM_WRITE_COMMAND, 3 * w, 16, 8, false},        // streaming width below the length
        {tlm::TLM_WRITE_COMMAND, 3 * w, 4, 4, true},          // byte enables
        {tlm::TLM_IGNORE_COMMAND, 3 * w, 16, 16, false},      // neither read nor write
    };
    for (const Case& c : cases) {
      for (int mode = 0; mode < 2; ++mode) {
        tlm::tlm_generic_payload t;
        t.set_command(c.cmd);
        t.set_address(c.addr);
        t.set_data_ptr(data);
        t.set_data_length(c.len);
        t.set_streaming_width(c.width);
        t.set_byte_enable_ptr(c.byte_enables ? be : nullptr);
        t.set_byte_enable_length(c.byte_enables ? 4 : 0);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = sc_core::SC_ZERO_TIME;
        if (mode == 0) {
          socket->b_transport(t, delay);
          lt.push_back(t.get_response_status());
        } else {
          tlm::tlm_phase ph = tlm::BEGIN_REQ;
          EXPECT_EQ(socket->nb_transport_fw(t, ph, delay), tlm::TLM_COMPLETED);
          at.push_back(t.get_response_status());
        }
      }
    }
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(3 * w);
    t.set_data_ptr(data);
    t.set_data_length(64);
    t.set_streaming_width(64);
    tlm::tlm_dmi d;
    dmi = socket->get_direct_mem_ptr(t, d);
    dbg = socket->transport_dbg(t);
    sc_time delay(5, SC_NS);
    socket->b_transport(t, delay);  // a good one: joins in cycle 5, 4 flits leave in cycles 5..8
    EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
    ok_returned = sc_core::sc_time_stamp();
    // Approximately timed, two writes of 16 bytes (1 flit) at 9 ns: the first responds at the end of
    // cycle 9 (10 ns), the second (issued in cycle 10, after the first's tail) would respond at 11 ns
    // but waits for the first's END_RESP (response exclusion), sent at 10 + 3 = 13 ns.
    tlm::tlm_generic_payload a, b;
    for (tlm::tlm_generic_payload* g : {&a, &b}) {
      g->set_command(tlm::TLM_WRITE_COMMAND);
      g->set_address(5 * w);
      g->set_data_ptr(data);
      g->set_data_length(16);
      g->set_streaming_width(16);
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_time d = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(socket->nb_transport_fw(*g, ph, d), tlm::TLM_UPDATED);
      EXPECT_EQ(ph, tlm::END_REQ);
    }
    for (int k = 0; k < 2; ++k) {
      wait(resp_ev);
      tlm::tlm_phase ph = tlm::END_RESP;
      sc_time d = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(socket->nb_transport_fw(*resp_trans, ph, d), tlm::TLM_COMPLETED);
    }
  }
};

TEST(ApiSc, BadTransactionsGetErrorResponses) {
  torx::sc::Config cfg;
  cfg.topology = "4x4";
  cfg.window_bytes = 4096;
  torx::sc::Network net("torx", cfg);
  Prober p("prober");
  p.socket.bind(net.target[0]);
  std::vector<std::unique_ptr<Sink>> sinks;
  for (int v = 0; v < net.nodes(); ++v) {
    sinks.push_back(std::make_unique<Sink>(("sink_" + std::to_string(v)).c_str()));
    net.initiator[v].bind(sinks.back()->socket);
  }
  std::vector<torx::Delivery> seen;
  net.on_delivery([&](const torx::Delivery& d) { seen.push_back(d); });
  sc_core::sc_start(sc_time(100, SC_NS));
  const std::vector<tlm::tlm_response_status> want = {
      tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,       tlm::TLM_ADDRESS_ERROR_RESPONSE,
      tlm::TLM_COMMAND_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,     tlm::TLM_BURST_ERROR_RESPONSE,
      tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, tlm::TLM_COMMAND_ERROR_RESPONSE};
  EXPECT_EQ(p.lt, want);
  EXPECT_EQ(p.at, want);
  EXPECT_EQ(net.refused(), 2 * want.size());
  EXPECT_FALSE(p.dmi);
  EXPECT_EQ(p.dbg, 0u);
  // The good write: issued in cycle 5, flits leave in 5..8, so b_transport returns at the end of 8.
  EXPECT_EQ(p.ok_returned, sc_time(9, SC_NS));
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].injected, 5u);
  EXPECT_EQ(seen[0].dst, 3);
  EXPECT_EQ(seen[1].issued, 9u);
  EXPECT_EQ(seen[2].issued, 10u);
  EXPECT_EQ(p.resp_at, (std::vector<sc_time>{sc_time(10, SC_NS), sc_time(13, SC_NS)}));
  uint64_t writes = 0;
  for (auto& s : sinks) writes += s->writes;
  EXPECT_EQ(writes, 3u);
  EXPECT_EQ(sinks[3]->writes, 1u);
  EXPECT_EQ(sinks[5]->writes, 2u);
}

}  // namespace
