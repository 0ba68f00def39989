// SPDX-License-Identifier: Apache-2.0
// torx::sc::Network: torx's cycle-accurate network as a SystemC module with TLM-2.0 sockets at every
// node's network interface (docs/api.md, "SystemC"), for a SystemC model of a system next to CPUs,
// DMAs and memories.
//
//   target[v]     a tlm_utils::simple_target_socket_tagged_optional: an initiator at node v (a CPU model, a
//                 DMA, a traffic generator) writes a message into it. Address = dst * window_bytes +
//                 offset; the data are the message's bytes. Base protocol: b_transport (loosely
//                 timed) and nb_transport_fw/bw with BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP
//                 (approximately timed). DMI is refused; transport_dbg moves no bytes.
//   initiator[v]  a tlm_utils::simple_initiator_socket_tagged_optional: every message that arrives
//                 at node v is written (b_transport, TLM_WRITE_COMMAND) into the memory bound to it,
//                 at address src * window_bytes + offset, with the bytes that arrived (unbound: the
//                 arrival is only reported to on_delivery, and counted by unwritten()).
//
// Timing (docs/api.md): cycle c of the network is evaluated at time (c + 1/2) * clock_period. A
// write whose time (sc_time_stamp() + annotated delay) is T joins its source's queue in cycle
// ceil(T / clock_period); the response (b_transport's return, BEGIN_RESP) comes at the end of the
// cycle its last flit left the source, (t + 1) * clock_period; an arrival is written into the
// destination's memory at the end of the cycle its last flit was written there. Bad transactions get
// a TLM error response, never an exception: a read (TLM_COMMAND_ERROR_RESPONSE), an unknown node or
// an address beyond the node's window or the node itself (TLM_ADDRESS_ERROR_RESPONSE), length 0 or a
// streaming width below the length (TLM_BURST_ERROR_RESPONSE), byte enables
// (TLM_BYTE_ENABLE_ERROR_RESPONSE), a route or priority the network cannot take
// (TLM_GENERIC_ERROR_RESPONSE).
//
// SystemC elaborates once per process: one sc::Network per simulation (torx::Network, which needs no
// kernel, has no such limit).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "torx/network.hpp"

namespace torx::sc {

// Optional on a write: the message's route and priority level (torx::Route; default: dimension
// order from x, level 0). A route or level the network cannot take: TLM_GENERIC_ERROR_RESPONSE.
struct MessageExtension : tlm::tlm_extension<MessageExtension> {
  Route route;
  int priority = 0;
  tlm::tlm_extension_base* clone() const override { return new MessageExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const MessageExtension&>(e); }
};

struct Config : NetworkConfig {
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);  // one network cycle
  uint64_t window_bytes = uint64_t{1} << 20;                          // address window per node
};

class Network : public sc_core::sc_module {
 public:
  // Either may stay unbound (a node that only sends, or only receives).
  using TargetSocket = tlm_utils::simple_target_socket_tagged_optional<Network>;
  using InitiatorSocket = tlm_utils::simple_initiator_socket_tagged_optional<Network>;
  sc_core::sc_vector<TargetSocket> target;        // target[v]: messages from node v
  sc_core::sc_vector<InitiatorSocket> initiator;  // initiator[v]: arrivals at node v

  // Throws torx::Error (kInput) for a configuration torx::Network would refuse, a window_bytes of 0
  // or a window layout beyond 64-bit addresses, a clock period of 0.
  Network(sc_core::sc_module_name name, const Config& config);
  ~Network() override;
  const char* kind() const override { return "torx_sc_network"; }

  int nodes() const;
  const Config& config() const;
  uint64_t cycle() const;                                      // cycles evaluated so far
  uint64_t cycle_at(const sc_core::sc_time& t) const;          // ceil(t / clock_period)
  sc_core::sc_time time_of(uint64_t cycle) const;              // cycle * clock_period
  Figures figures() const;
  // Every delivery as torx::Network reports it (called from the network's process).
  void on_delivery(std::function<void(const Delivery&)> callback);
  uint64_t refused() const;        // transactions answered with an error response
  uint64_t memory_errors() const;  // arrivals the memory answered with an error response
  uint64_t unwritten() const;      // arrivals at nodes whose initiator socket is unbound

 private:
  void b_transport(int node, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int node, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int node, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int node, tlm::tlm_generic_payload& trans);
  tlm::tlm_sync_enum nb_transport_bw(int node, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(int node, sc_dt::uint64 start, sc_dt::uint64 end);
  void run();        // SC_THREAD: steps the network
  void respond();    // SC_THREAD: BEGIN_RESP to approximately-timed initiators
  void write_out();  // SC_THREAD: arrivals into the memories

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torx::sc
