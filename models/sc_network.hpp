// SPDX-License-Identifier: Apache-2.0
// The SystemC view of a Fabric: every router and network interface is an sc_module, every link a
// channel they are bound to through ports, and the network is a module with a clock input.
//
//   TorusNetwork "torx"           sc_in<bool> clk_i; one SC_METHOD on clk_i.pos()
//     RouterModule router_<id>    ports in[p], out[p] bound to LinkChannels (p as in router.hpp); its
//                                 block is the C++ router or a PortRouter (a Verilated RTL router)
//     NiModule     ni_<id>        ports inj[c], ej[c]
//     LinkChannel  link_<id>      a Link: flit and credit latency lines (link.hpp)
//     BarrierModule barrier       the barrier units and their wires
//
// Why one process. The behaviour of each block is its kernel-free class (Router, NetworkInterface,
// BarrierUnit) with evaluate()/update(); the shells only bind ports and connect their block to the
// channels at end_of_elaboration. A single clocked process then steps every block that has work
// through the fabric's scheduler. One SC_METHOD per router would cost a kernel dispatch per router
// per cycle, busy or idle, several times the cost of evaluating a busy router; sc_signal per wire
// would add an update request per wire per cycle. With one process, idle routers cost nothing and
// the kernel costs one method call per cycle. A foreign block (another SystemC IP, a Verilated
// router) joins by binding to the same LinkChannels and registering as a Clocked with the
// fabric's scheduler; Verilated routers do, through the fabric's router factory (port_router.hpp).
//
// Trace: trace() puts, for every link, the flit driven onto the wire in each cycle (valid, message,
// flit index, VC, head, tail) and the credit returned (valid, VC) into a VCD file (sc_trace of
// member variables, sampled once per cycle).
#pragma once

#include <systemc>

#include <memory>
#include <vector>

#include "models/fabric.hpp"

namespace torx::model {

class LinkIf : public virtual sc_core::sc_interface {
 public:
  virtual Link& link() = 0;
};

class LinkChannel : public sc_core::sc_prim_channel, public LinkIf {
 public:
  LinkChannel(const char* name, Link& link) : sc_core::sc_prim_channel(name), link_(&link) {}
  Link& link() override { return *link_; }
  const char* kind() const override { return "torx_link"; }

 private:
  Link* link_;
};

using LinkPort = sc_core::sc_port<LinkIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

// Shell of a Router: binds ports, connects its block at end of elaboration.
class RouterModule : public sc_core::sc_module {
 public:
  sc_core::sc_vector<LinkPort> in;   // in[p]: flits into input port p (credits out of it)
  sc_core::sc_vector<LinkPort> out;  // out[p]: flits out of output port p (credits into it)
  RouterModule(sc_core::sc_module_name name, RouterBlock& core);
  RouterBlock& core() { return *core_; }
  const char* kind() const override { return "torx_router"; }

 private:
  void end_of_elaboration() override;
  RouterBlock* core_;
};

// Shell of an Endpoint (a NetworkInterface or a traffic source).
class NiModule : public sc_core::sc_module {
 public:
  sc_core::sc_vector<LinkPort> inj;  // inj[c]: injection channel c towards the router
  sc_core::sc_vector<LinkPort> ej;   // ej[c]: ejection channel c from the router
  NiModule(sc_core::sc_module_name name, Endpoint& core);
  Endpoint& core() { return *core_; }
  const char* kind() const override { return "torx_ni"; }

 private:
  void end_of_elaboration() override;
  Endpoint* core_;
};

class TorusNetwork : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i;

  // Clocked (the default): the network steps on every rising edge of clk_i, as RTL would; a trace
  // shows every cycle. Self-timed: clk_i is not used (bind it to any signal) and the network's one
  // process steps a cycle and then waits, in simulated time, until the next cycle in which anything
  // is due (Fabric::skip_idle): SystemC time still reads the cycle (1 ns each), but a startup of a
  // billion cycles costs one kernel event instead of a billion clock edges.
  TorusNetwork(sc_core::sc_module_name name, Fabric& fabric, bool self_timed = false);
  ~TorusNetwork() override;
  const char* kind() const override { return "torx_network"; }

  Fabric& fabric() { return *fabric_; }
  // Registers every link's wire values with a VCD file. Call before the simulation starts.
  void trace(sc_core::sc_trace_file* tf);
  // An exception thrown by a block during a cycle (rethrown by the caller after sc_start returns).
  std::exception_ptr error() const { return error_; }

 private:
  struct Probe {
    bool flit_valid = false;
    unsigned msg = 0;
    unsigned seq = 0;
    unsigned char vc = 0;
    bool head = false;
    bool tail = false;
    bool credit_valid = false;
    unsigned char credit_vc = 0;
  };
  void tick();
  void self_tick();
  bool step_once();
  void sample(uint64_t cycle);

  Fabric* fabric_;
  std::vector<std::unique_ptr<LinkChannel>> channels_;
  sc_core::sc_vector<RouterModule> routers_;
  sc_core::sc_vector<NiModule> nis_;
  std::vector<Probe> probes_;
  bool tracing_ = false;
  std::exception_ptr error_;
};

}  // namespace torx::model
