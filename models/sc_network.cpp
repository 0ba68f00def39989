// SPDX-License-Identifier: Apache-2.0
#include "models/sc_network.hpp"

#include <fmt/format.h>

namespace torx::model {

namespace {
// "+x" -> "px", "-y" -> "ny": SystemC names allow neither '+' nor '-' in a readable way.
std::string port_tag(int port) {
  const std::string s = sw::Topology::port_name(port);
  return (s[0] == '+' ? "p" : "n") + s.substr(1);
}
}  // namespace

RouterModule::RouterModule(sc_core::sc_module_name name, RouterBlock& core)
    : sc_core::sc_module(name), in("in", static_cast<size_t>(core.shape().ports())), out("out", static_cast<size_t>(core.shape().ports())),
      core_(&core) {}

void RouterModule::end_of_elaboration() {
  for (size_t p = 0; p < in.size(); ++p)
    if (in[p].size()) core_->connect_input(static_cast<int>(p), &in[p]->link());
  for (size_t p = 0; p < out.size(); ++p)
    if (out[p].size()) core_->connect_output(static_cast<int>(p), &out[p]->link());
}

NiModule::NiModule(sc_core::sc_module_name name, Endpoint& core)
    : sc_core::sc_module(name), inj("inj", static_cast<size_t>(core.channels())), ej("ej", static_cast<size_t>(core.channels())),
      core_(&core) {}

void NiModule::end_of_elaboration() {
  for (size_t c = 0; c < inj.size(); ++c) core_->connect_injection(static_cast<int>(c), &inj[c]->link());
  for (size_t c = 0; c < ej.size(); ++c) core_->connect_ejection(static_cast<int>(c), &ej[c]->link());
}

TorusNetwork::TorusNetwork(sc_core::sc_module_name name, Fabric& fabric, bool self_timed)
    : sc_core::sc_module(name), clk_i("clk_i"), fabric_(&fabric), routers_("router"), nis_("ni") {
  const sw::Topology& topo = fabric.topology();
  const sw::NodeId n = topo.nodes();
  routers_.init(static_cast<size_t>(n), [&](const char* nm, size_t i) {
    return new RouterModule(nm, fabric.router(static_cast<sw::NodeId>(i)));
  });
  nis_.init(static_cast<size_t>(n), [&](const char* nm, size_t i) {
    return new NiModule(nm, fabric.endpoint(static_cast<sw::NodeId>(i)));
  });
  // One channel per link, bound to the ports of the blocks at its two ends.
  const int np = topo.ports();
  channels_.reserve(fabric.link_count());
  for (sw::NodeId v = 0; v < n; ++v) {
    for (int q = 0; q < np; ++q) {
      Link* l = fabric.network_link(v, q);
      if (!l) continue;
      const sw::NodeId u = topo.neighbor(v, sw::Topology::port_dim(q), sw::Topology::port_dir(q));
      channels_.push_back(std::make_unique<LinkChannel>(fmt::format("link_{}_{}", v, port_tag(q)).c_str(), *l));
      routers_[v].out[q](*channels_.back());
      routers_[u].in[q ^ 1](*channels_.back());
    }
    for (int c = 0; c < fabric.local_ports(); ++c) {
      channels_.push_back(std::make_unique<LinkChannel>(fmt::format("inj_{}_{}", v, c).c_str(), fabric.injection_link(v, c)));
      nis_[v].inj[c](*channels_.back());
      routers_[v].in[np + c](*channels_.back());
      channels_.push_back(std::make_unique<LinkChannel>(fmt::format("ej_{}_{}", v, c).c_str(), fabric.ejection_link(v, c)));
      routers_[v].out[np + c](*channels_.back());
      nis_[v].ej[c](*channels_.back());
    }
  }
  SC_HAS_PROCESS(TorusNetwork);
  if (self_timed) {
    SC_METHOD(self_tick);  // first run at time 0, then as next_trigger says
  } else {
    SC_METHOD(tick);
    sensitive << clk_i.pos();
    dont_initialize();
  }
}

TorusNetwork::~TorusNetwork() = default;

bool TorusNetwork::step_once() {
  if (fabric_->status() != RunStatus::kRunning || error_) return false;
  const uint64_t cycle = fabric_->cycle();
  try {
    fabric_->step();
  } catch (...) {
    // Keep exceptions out of the kernel (it would turn them into reports on standard output);
    // the caller rethrows after sc_start returns.
    error_ = std::current_exception();
    sc_core::sc_pause();
    return false;
  }
  if (tracing_) sample(cycle);
  // The run is over: return from sc_start at once rather than clocking an idle network.
  if (fabric_->status() != RunStatus::kRunning) {
    sc_core::sc_pause();
    return false;
  }
  return true;
}

void TorusNetwork::tick() { step_once(); }

void TorusNetwork::self_tick() {
  if (!step_once()) return;
  // The fabric's cycle is the SystemC time in ns: wait until the next cycle anything is due in.
  const uint64_t skipped = fabric_->skip_idle();
  next_trigger(sc_core::sc_time(static_cast<double>(skipped + 1), sc_core::SC_NS));
}

void TorusNetwork::trace(sc_core::sc_trace_file* tf) {
  tracing_ = true;
  probes_.assign(channels_.size(), Probe{});
  for (size_t i = 0; i < channels_.size(); ++i) {
    const std::string b = channels_[i]->name();
    Probe& p = probes_[i];
    sc_core::sc_trace(tf, p.flit_valid, b + ".flit_valid");
    sc_core::sc_trace(tf, p.msg, b + ".flit_msg");
    sc_core::sc_trace(tf, p.seq, b + ".flit_seq");
    sc_core::sc_trace(tf, p.vc, b + ".flit_vc");
    sc_core::sc_trace(tf, p.head, b + ".flit_head");
    sc_core::sc_trace(tf, p.tail, b + ".flit_tail");
    sc_core::sc_trace(tf, p.credit_valid, b + ".credit_valid");
    sc_core::sc_trace(tf, p.credit_vc, b + ".credit_vc");
  }
}

void TorusNetwork::sample(uint64_t cycle) {
  for (size_t i = 0; i < channels_.size(); ++i) {
    const Link& l = channels_[i]->link();
    Probe& p = probes_[i];
    if (const Flit* f = l.wire_flit(cycle)) {
      p.flit_valid = true;
      p.msg = f->msg;
      p.seq = f->seq;
      p.vc = f->vc;
      p.head = f->kind & kFlitHead;
      p.tail = f->kind & kFlitTail;
    } else {
      p.flit_valid = p.head = p.tail = false;
    }
    if (const Credit* c = l.wire_credit(cycle)) {
      p.credit_valid = true;
      p.credit_vc = c->vc;
    } else {
      p.credit_valid = false;
    }
  }
}

}  // namespace torx::model
