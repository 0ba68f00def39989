// SPDX-License-Identifier: Apache-2.0
// torx::sc::Network (include/torx/systemc.hpp): the library's network (api::Core: a Fabric with a
// HostInterface per node) stepped by one SC_THREAD, with TLM-2.0 base-protocol sockets at the
// interfaces. Three processes:
//   run()        evaluates cycle c at (c + 1/2) * period, only the cycles in which something is due
//                (as the self-timed TorusNetwork does), and hands in the writes due by then;
//   respond()    sends BEGIN_RESP to approximately-timed initiators, one outstanding response per
//                socket (the base protocol's response exclusion rule);
//   write_out()  writes every arrival into the destination's memory through initiator[dst].
// Evaluating at half cycles keeps the order of an initiator's write and the network's evaluation in
// the same instant out of the kernel's hands: a write at a whole cycle's time always comes first.
#include "torx/systemc.hpp"

#include <fmt/format.h>

#include <deque>
#include <map>
#include <unordered_map>

#include "api/internal.hpp"
#include "core/errors.hpp"

namespace torx::sc {

namespace {
// One write transaction between its arrival and its response.
struct Txn {
  tlm::tlm_generic_payload* trans = nullptr;
  bool at = false;           // approximately timed (nb_transport_fw)
  int src = 0, dst = 0;
  uint64_t offset = 0;
  std::optional<Route> route;
  int priority = 0;
  std::vector<uint8_t> bytes;
  sc_core::sc_event done;    // loosely timed: b_transport waits for it
};
struct Arrival {
  sc_core::sc_time at;
  int src = 0, dst = 0;
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};
struct Response {
  sc_core::sc_time at;
  std::shared_ptr<Txn> txn;
};
}  // namespace

struct Network::Impl {
  Impl(const Config& c, std::function<void(model::HostDelivery&&)> deliver) : cfg(c), core(c, std::move(deliver)) {}
  Config cfg;
  api::Core core;
  std::function<void(const Delivery&)> callback;
  std::multimap<uint64_t, std::shared_ptr<Txn>> pending;  // by the cycle they join their source's queue
  std::unordered_map<uint32_t, std::shared_ptr<Txn>> open;  // by message id, until delivered
  std::vector<std::deque<Response>> responses;            // per node, in time order
  std::vector<std::shared_ptr<Txn>> resp_busy;            // per node: BEGIN_RESP sent, END_RESP awaited
  std::deque<Arrival> arrivals;
  sc_core::sc_event post_event, resp_event, out_event;
  uint64_t refused = 0, memory_errors = 0, unwritten = 0;

  uint64_t period() const { return cfg.clock_period.value(); }
  sc_core::sc_time eval_time(uint64_t c) const { return sc_core::sc_time::from_value(period() * c + period() / 2); }
  sc_core::sc_time end_of(uint64_t c) const { return sc_core::sc_time::from_value(period() * (c + 1)); }
};

Network::Network(sc_core::sc_module_name name, const Config& config)
    : sc_core::sc_module(name), target("target"), initiator("initiator") {
  try {
    impl_ = std::make_unique<Impl>(config, [this](model::HostDelivery&& d) {
      Impl& m = *impl_;
      auto it = m.open.find(d.id);
      TORX_CHECK(it != m.open.end(), "a delivery without its transaction");
      const std::shared_ptr<Txn> t = it->second;
      m.open.erase(it);
      if (m.callback) m.callback(api::to_delivery(d));
      m.arrivals.push_back(Arrival{m.end_of(d.delivered), t->src, t->dst, t->offset, std::move(d.bytes)});
      m.out_event.notify(m.end_of(d.delivered) - sc_core::sc_time_stamp());
    });
    if (config.clock_period.value() < 2)
      throw sw::InputError("clock_period: at least two units of the SystemC time resolution");
    const uint64_t n = static_cast<uint64_t>(impl_->core.topo.nodes());
    if (config.window_bytes == 0 || config.window_bytes > UINT64_MAX / n)
      throw sw::InputError(fmt::format("window_bytes {}: must be 1 to {} for {} nodes", config.window_bytes, UINT64_MAX / n, n));
  } catch (...) {
    api::rethrow();
  }
  Impl& m = *impl_;
  m.core.traffic.on_sent([this](const model::HostMessage& msg, uint64_t cycle) {
    Impl& mm = *impl_;
    const std::shared_ptr<Txn> t = mm.open.at(msg.id);
    const sc_core::sc_time at = mm.end_of(cycle);
    if (t->at) {
      mm.responses[static_cast<size_t>(t->src)].push_back(Response{at, t});
      mm.resp_event.notify(at - sc_core::sc_time_stamp());
    } else {
      t->done.notify(at - sc_core::sc_time_stamp());
    }
  });
  const int nodes = static_cast<int>(m.core.topo.nodes());
  m.responses.resize(static_cast<size_t>(nodes));
  m.resp_busy.resize(static_cast<size_t>(nodes));
  target.init(static_cast<size_t>(nodes));
  initiator.init(static_cast<size_t>(nodes));
  for (int v = 0; v < nodes; ++v) {
    target[v].register_b_transport(this, &Network::b_transport, v);
    target[v].register_nb_transport_fw(this, &Network::nb_transport_fw, v);
    target[v].register_get_direct_mem_ptr(this, &Network::get_direct_mem_ptr, v);
    target[v].register_transport_dbg(this, &Network::transport_dbg, v);
    initiator[v].register_nb_transport_bw(this, &Network::nb_transport_bw, v);
    initiator[v].register_invalidate_direct_mem_ptr(this, &Network::invalidate_direct_mem_ptr, v);
  }
  SC_HAS_PROCESS(Network);
  SC_THREAD(run);
  SC_THREAD(respond);
  SC_THREAD(write_out);
}

Network::~Network() = default;

int Network::nodes() const { return static_cast<int>(impl_->core.topo.nodes()); }
const Config& Network::config() const { return impl_->cfg; }
uint64_t Network::cycle() const { return impl_->core.fabric->cycle(); }
uint64_t Network::cycle_at(const sc_core::sc_time& t) const { return (t.value() + impl_->period() - 1) / impl_->period(); }
sc_core::sc_time Network::time_of(uint64_t c) const { return sc_core::sc_time::from_value(impl_->period() * c); }
Figures Network::figures() const { return api::figures_of(impl_->core); }
void Network::on_delivery(std::function<void(const Delivery&)> callback) { impl_->callback = std::move(callback); }
uint64_t Network::refused() const { return impl_->refused; }
uint64_t Network::memory_errors() const { return impl_->memory_errors; }
uint64_t Network::unwritten() const { return impl_->unwritten; }

namespace {
// The base protocol's checks of a write into target[node]; sets the error response and returns
// false for a bad one.
bool check_write(tlm::tlm_generic_payload& t, int node, int nodes, uint64_t window, int* dst, uint64_t* offset) {
  if (t.get_command() != tlm::TLM_WRITE_COMMAND) {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  if (t.get_byte_enable_ptr() != nullptr) {
    t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  const uint64_t len = t.get_data_length();
  if (len == 0 || t.get_streaming_width() < len || t.get_data_ptr() == nullptr) {
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  const uint64_t addr = t.get_address();
  const uint64_t d = addr / window, off = addr % window;
  if (d >= static_cast<uint64_t>(nodes) || len > window - off || static_cast<int>(d) == node) {
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  *dst = static_cast<int>(d);
  *offset = off;
  return true;
}
// The write's MessageExtension (route, priority), checked as torx::Network::inject checks them.
bool check_message(api::Core& core, tlm::tlm_generic_payload& trans, Txn& t, int node) {
  if (const MessageExtension* e = trans.get_extension<MessageExtension>()) {
    t.route = e->route;
    t.priority = e->priority;
  }
  try {
    core.validate(node, t.dst, trans.get_data_length(), t.priority, t.route);
  } catch (const sw::InputError&) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  return true;
}
}  // namespace

void Network::b_transport(int node, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  Impl& m = *impl_;
  auto t = std::make_shared<Txn>();
  if (!check_write(trans, node, nodes(), m.cfg.window_bytes, &t->dst, &t->offset) || !check_message(m.core, trans, *t, node)) {
    ++m.refused;
    return;
  }
  t->trans = &trans;
  t->src = node;
  t->bytes.assign(trans.get_data_ptr(), trans.get_data_ptr() + trans.get_data_length());
  wait(delay);  // loosely timed: synchronise, then join the queue in this cycle (or the next whole one)
  delay = sc_core::SC_ZERO_TIME;
  m.pending.emplace(cycle_at(sc_core::sc_time_stamp()), t);
  m.post_event.notify(sc_core::SC_ZERO_TIME);
  wait(t->done);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum Network::nb_transport_fw(int node, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                            sc_core::sc_time& delay) {
  Impl& m = *impl_;
  if (phase == tlm::BEGIN_REQ) {
    auto t = std::make_shared<Txn>();
    if (!check_write(trans, node, nodes(), m.cfg.window_bytes, &t->dst, &t->offset) ||
        !check_message(m.core, trans, *t, node)) {
      ++m.refused;
      phase = tlm::END_RESP;
      return tlm::TLM_COMPLETED;
    }
    t->trans = &trans;
    t->at = true;
    t->src = node;
    t->bytes.assign(trans.get_data_ptr(), trans.get_data_ptr() + trans.get_data_length());
    if (trans.has_mm()) trans.acquire();
    m.pending.emplace(cycle_at(sc_core::sc_time_stamp() + delay), t);
    m.post_event.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_REQ;  // the interface's queue takes every request at once
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) {
    std::shared_ptr<Txn>& busy = m.resp_busy[static_cast<size_t>(node)];
    if (busy && busy->trans == &trans) {
      if (trans.has_mm()) trans.release();
      busy.reset();
      m.resp_event.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
  }
  SC_REPORT_ERROR("torx", fmt::format("{}: target[{}]: phase {} out of the base protocol's order", name(), node,
                                      phase.get_name())
                              .c_str());
  return tlm::TLM_COMPLETED;
}

bool Network::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();  // a network, not a memory
  return false;
}

unsigned int Network::transport_dbg(int, tlm::tlm_generic_payload&) { return 0; }

tlm::tlm_sync_enum Network::nb_transport_bw(int node, tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
  SC_REPORT_ERROR("torx", fmt::format("{}: initiator[{}] writes with b_transport only", name(), node).c_str());
  return tlm::TLM_COMPLETED;
}

void Network::invalidate_direct_mem_ptr(int, sc_dt::uint64, sc_dt::uint64) {}

void Network::run() {
  Impl& m = *impl_;
  model::Fabric& f = *m.core.fabric;
  try {
    m.core.start();
    for (;;) {
      const uint64_t c = f.cycle();
      uint64_t next = UINT64_MAX;
      const uint64_t until = f.scheduler().cycles_until_due();
      if (until != UINT64_MAX) next = c + until;
      if (!m.pending.empty()) next = std::min(next, std::max(c, m.pending.begin()->first));
      if (next == UINT64_MAX && m.core.traffic.in_flight() > 0) next = c;  // stuck: the watchdog
      if (next == UINT64_MAX) {
        wait(m.post_event);
        continue;
      }
      const sc_core::sc_time at = m.eval_time(next);
      if (sc_core::sc_time_stamp() < at) {
        wait(at - sc_core::sc_time_stamp(), m.post_event);
        continue;
      }
      f.resume();
      if (next > c) f.skip_idle(next - c);
      while (!m.pending.empty() && m.pending.begin()->first <= f.cycle()) {
        std::shared_ptr<Txn> t = m.pending.begin()->second;
        m.pending.erase(m.pending.begin());
        const uint32_t id = m.core.post(t->src, t->dst, std::move(t->bytes), t->priority, t->route);
        t->bytes.clear();
        m.open.emplace(id, t);
      }
      if (until == UINT64_MAX && next == c && m.core.traffic.in_flight() > 0) f.skip_idle();
      m.core.step_one();
    }
  } catch (const std::exception& e) {
    SC_REPORT_ERROR("torx", fmt::format("{}: {}", name(), e.what()).c_str());
  }
}

void Network::respond() {
  Impl& m = *impl_;
  for (;;) {
    wait(m.resp_event);
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (size_t v = 0; v < m.responses.size(); ++v) {
      std::deque<Response>& q = m.responses[v];
      while (!m.resp_busy[v] && !q.empty() && q.front().at <= now) {
        std::shared_ptr<Txn> t = q.front().txn;
        q.pop_front();
        tlm::tlm_generic_payload& trans = *t->trans;
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        m.resp_busy[v] = t;
        const tlm::tlm_sync_enum s = target[v]->nb_transport_bw(trans, phase, delay);
        if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
          if (trans.has_mm()) trans.release();
          m.resp_busy[v].reset();
        }
      }
      if (!q.empty() && !m.resp_busy[v] && q.front().at > now) m.resp_event.notify(q.front().at - now);
    }
  }
}

void Network::write_out() {
  Impl& m = *impl_;
  tlm::tlm_generic_payload gp;
  for (;;) {
    if (m.arrivals.empty()) {
      wait(m.out_event);
      continue;
    }
    Arrival& a = m.arrivals.front();
    if (a.at > sc_core::sc_time_stamp()) {
      wait(a.at - sc_core::sc_time_stamp());
      continue;
    }
    if (initiator[a.dst].size() == 0) {
      ++m.unwritten;
      m.arrivals.pop_front();
      continue;
    }
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(static_cast<uint64_t>(a.src) * m.cfg.window_bytes + a.offset);
    gp.set_data_ptr(a.bytes.data());
    gp.set_data_length(static_cast<unsigned int>(a.bytes.size()));
    gp.set_streaming_width(static_cast<unsigned int>(a.bytes.size()));
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    initiator[a.dst]->b_transport(gp, delay);
    if (gp.is_response_error()) ++m.memory_errors;
    m.arrivals.pop_front();
  }
}

}  // namespace torx::sc
