// SPDX-License-Identifier: Apache-2.0
// Example (b): complete exchange on a 4x4 torus through torx::sc::Network's TLM-2.0 sockets. Each
// node has an initiator that writes one 128-byte message to every other node: at even nodes a
// loosely-timed one (b_transport, one message after the other), at odd nodes an approximately-timed
// one (nb_transport_fw; BEGIN_REQ for all its messages at once, each END_REQ'd at once, BEGIN_RESP
// answered with END_RESP). Each node's target memory checks every byte that arrives against the
// pattern of (source, destination, offset). Exit code 1 if anything is missing or wrong.
#include <torx/systemc.hpp>

#include <cstdio>
#include <memory>
#include <vector>

namespace {

constexpr int kNodes = 16;
constexpr unsigned kBytes = 128;
constexpr uint64_t kWindow = 4096;  // per node: dst * 4096 + src * 128 (every source its own slot)

uint8_t expected(int src, int dst, unsigned i) { return static_cast<uint8_t>(src * 16 + dst + i * 3); }

struct Memory : sc_core::sc_module {
  tlm_utils::simple_target_socket<Memory> socket;
  int node;
  unsigned arrivals = 0, bad_bytes = 0;
  Memory(sc_core::sc_module_name n, int v) : sc_core::sc_module(n), socket("socket"), node(v) {
    socket.register_b_transport(this, &Memory::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    // The network writes an arrival at src * window + offset.
    const int src = static_cast<int>(t.get_address() / kWindow);
    const uint64_t offset = t.get_address() % kWindow;
    if (offset != static_cast<uint64_t>(src) * kBytes || t.get_data_length() != kBytes) ++bad_bytes;
    for (unsigned i = 0; i < t.get_data_length(); ++i) bad_bytes += t.get_data_ptr()[i] != expected(src, node, i);
    ++arrivals;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Messages {
  std::vector<std::vector<uint8_t>> data;
  std::vector<tlm::tlm_generic_payload> gp;
  explicit Messages(int src) : data(kNodes), gp(kNodes) {
    for (int dst = 0; dst < kNodes; ++dst) {
      data[dst].resize(kBytes);
      for (unsigned i = 0; i < kBytes; ++i) data[dst][i] = expected(src, dst, i);
      gp[dst].set_command(tlm::TLM_WRITE_COMMAND);
      gp[dst].set_address(static_cast<uint64_t>(dst) * kWindow + static_cast<uint64_t>(src) * kBytes);
      gp[dst].set_data_ptr(data[dst].data());
      gp[dst].set_data_length(kBytes);
      gp[dst].set_streaming_width(kBytes);
    }
  }
};

struct LtInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<LtInitiator> socket;
  int node;
  Messages msgs;
  unsigned ok = 0;
  SC_HAS_PROCESS(LtInitiator);
  LtInitiator(sc_core::sc_module_name n, int v) : sc_core::sc_module(n), socket("socket"), node(v), msgs(v) {
    SC_THREAD(run);
  }
  void run() {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    for (int k = 1; k < kNodes; ++k) {
      tlm::tlm_generic_payload& t = msgs.gp[(node + k) % kNodes];
      socket->b_transport(t, delay);  // returns when the message's last flit has left the node
      ok += t.is_response_ok();
    }
  }
};

struct AtInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<AtInitiator> socket;
  int node;
  Messages msgs;
  unsigned ok = 0;
  SC_HAS_PROCESS(AtInitiator);
  AtInitiator(sc_core::sc_module_name n, int v) : sc_core::sc_module(n), socket("socket"), node(v), msgs(v) {
    socket.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
    SC_THREAD(run);
  }
  void run() {
    for (int k = 1; k < kNodes; ++k) {
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = socket->nb_transport_fw(msgs.gp[(node + k) % kNodes], phase, delay);
      if (s != tlm::TLM_UPDATED || phase != tlm::END_REQ) std::printf("node %d: request not accepted\n", node);
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    ok += t.is_response_ok();
    phase = tlm::END_RESP;
    return tlm::TLM_UPDATED;
  }
};

}  // namespace

int sc_main(int, char**) {
  try {
    torx::sc::Config cfg;
    cfg.topology = "4x4";
    cfg.window_bytes = kWindow;
    cfg.startup_cycles = 20;
    torx::sc::Network net("torx", cfg);
    std::vector<std::unique_ptr<LtInitiator>> lt;
    std::vector<std::unique_ptr<AtInitiator>> at;
    std::vector<std::unique_ptr<Memory>> mem;
    for (int v = 0; v < kNodes; ++v) {
      const std::string n = std::to_string(v);
      if (v % 2 == 0) {
        lt.push_back(std::make_unique<LtInitiator>(("lt_" + n).c_str(), v));
        lt.back()->socket.bind(net.target[v]);
      } else {
        at.push_back(std::make_unique<AtInitiator>(("at_" + n).c_str(), v));
        at.back()->socket.bind(net.target[v]);
      }
      mem.push_back(std::make_unique<Memory>(("mem_" + n).c_str(), v));
      net.initiator[v].bind(mem.back()->socket);
    }
    uint64_t last = 0;
    net.on_delivery([&](const torx::Delivery& d) { last = d.cycle > last ? d.cycle : last; });
    sc_core::sc_start();
    unsigned arrivals = 0, bad = 0, ok = 0;
    for (auto& m : mem) arrivals += m->arrivals, bad += m->bad_bytes;
    for (auto& i : lt) ok += i->ok;
    for (auto& i : at) ok += i->ok;
    const torx::Figures f = net.figures();
    std::printf("complete exchange on the 4x4: %u writes answered OK (LT and AT), %u messages arrived, %u bytes "
                "checked, %u wrong\n",
                ok, arrivals, arrivals * kBytes, bad);
    std::printf("last delivery in cycle %llu, simulation ended at %s, %llu flit hops, %llu blocked VC-cycles\n",
                static_cast<unsigned long long>(last), sc_core::sc_time_stamp().to_string().c_str(),
                static_cast<unsigned long long>(f.flit_hops), static_cast<unsigned long long>(f.blocked_cycles));
    return ok == kNodes * (kNodes - 1) && arrivals == kNodes * (kNodes - 1) && bad == 0 ? 0 : 1;
  } catch (const torx::Error& e) {
    std::fprintf(stderr, "tlm_exchange: %s\n", e.what());
    return e.exit_code();
  }
}
