// SPDX-License-Identifier: Apache-2.0
// The router boundary (docs/timing-contract.md, "The router boundary"): what any implementation of
// the torx router looks like from outside, one clock cycle at a time. The C++ router (router.hpp,
// through RouterPortMode), the Verilated RTL router (hw/, torx_router.sv) and the lock-step pair that
// compares two of them (lockstep.hpp) implement it; PortRouter (port_router.hpp) plugs any of them
// into a network of links and interfaces, so a network of RTL routers runs the same schedules as the
// C++ fabric.
//
// Per cycle t a core takes, per port, the flit arriving at the input and the credit arriving at the
// output, and gives, per port, the flit pushed onto the output and the credit pushed back upstream
// from the input (its output registers after the clock edge that ends t). Between cycles it exposes
// its named registers as a snapshot.
//
// The fast path does not go through this interface: the C++ fabric's routers are evaluated through
// the scheduler with their links writing straight into their buffers (router.hpp). This interface
// costs a virtual call per router per cycle and a copy per flit, which is right for co-simulation and
// RTL networks and wrong for the 16-times-BookSim model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/network_params.hpp"
#include "models/flit.hpp"
#include "models/routing_table.hpp"

namespace torx::model {

// The router's organization (docs/timing-contract.md, "Router organizations"): what happens after the
// P - 1 input stages. kSingle: allocation and traversal in one cycle (stage P). kLookahead: stage A
// (VC allocation with speculative switch allocation, the route read from the head, the next router's
// route written into it) | stage B (switch traversal). kClassic: RC | VA | SA | ST.
enum class Pipeline : uint8_t { kSingle = 0, kLookahead = 1, kClassic = 2 };

// The shape of a router: everything its ports and registers are sized by.
struct RouterShape {
  int ndims = 1;            // N network dimensions: 2N network ports
  int local_ports = 1;      // K: 1 (one-port) or 2N (all-port)
  int vc_classes = 1;       // C: dateline classes x order classes (from the routing image)
  int vcs_per_class = 1;    // V
  int buffer_depth = 8;     // D, flits per input VC buffer
  int pipeline = 2;         // P, router_latency
  Pipeline organization = Pipeline::kSingle;  // --param pipeline
  uint32_t payload_words = kMaxFlitWords;  // 64-bit words of payload per flit
  int priority_levels = 1;  // K: lanes per VC (docs/priority.md); 1 = no priorities
  int priority_reserve = 1; // r: slots per level above reserved by the throttle
  // Hardwired gossip (docs/gossip.md, "Hardwired forwarding"): flits per gossip packet; 0 = the plain
  // router. A gossip core forwards by the node's gossip image (RouterFactory::make_gossip).
  uint32_t gossip_packet_flits = 0;

  int network_ports() const { return 2 * ndims; }
  int ports() const { return 2 * ndims + local_ports; }
  int network_vcs() const { return vc_classes * vcs_per_class; }
  int vcs(int port) const { return port < network_ports() ? network_vcs() : 1; }
  // Input-VC index of VC 0 of `port` (docs/timing-contract.md: network ports first, C V each).
  int first_vc(int port) const {
    return port < network_ports() ? port * network_vcs() : network_ports() * network_vcs() + (port - network_ports());
  }
  int total_vcs() const { return network_ports() * network_vcs() + local_ports; }
  // Input lanes: one per VC and priority level (lane = input-VC index * K + level).
  int total_lanes() const { return total_vcs() * priority_levels; }
  // Classes of an output port (an ejection port has one).
  int classes(int port) const { return port < network_ports() ? vc_classes : 1; }
  // Whether a switch-traversal stage follows the switch allocation (lookahead, classic): a flit that
  // wins the switch in cycle t is pushed onto its output link in t + 1.
  bool traversal_stage() const { return organization != Pipeline::kSingle; }
  bool operator==(const RouterShape& o) const {
    return ndims == o.ndims && local_ports == o.local_ports && vc_classes == o.vc_classes &&
           vcs_per_class == o.vcs_per_class && buffer_depth == o.buffer_depth && pipeline == o.pipeline &&
           organization == o.organization &&
           payload_words == o.payload_words && priority_levels == o.priority_levels &&
           priority_reserve == o.priority_reserve && gossip_packet_flits == o.gossip_packet_flits;
  }
};

// The one derivation of a router's hardware parameters (docs/architecture.md, "A new router
// parameter"): from the network parameters as run, the topology's dimensions, the local ports (1 or
// 2N), the VC classes the routing images ask for (dateline x order classes; 0 when the router takes
// them from its image), the flit width and, for a gossip router, the packet length. The C++ router
// (RouterConfig::shape), the factories, the RTL harness and its Verilator parameter list
// (hw/rtl_models.cpp) all read the value this returns.
RouterShape router_shape(const sw::NetworkParams& p, int ndims, int local_ports, int vc_classes, uint32_t flit_bytes,
                         uint32_t gossip_packet_flits = 0);

// One port's wires in one cycle. In: flit arriving at input p, credit arriving at output p. Out:
// flit pushed onto output p (flit.vc = the output VC), credit pushed upstream from input p.
struct PortWires {
  bool flit_valid = false;
  bool credit_valid = false;
  uint8_t credit_vc = 0;
  Flit flit;
};

// Where a snapshot field lives, for reports ("router 5, port +x, VC 1, field ovc_credits_q").
enum class FieldScope : uint8_t { kInputVc, kOutputVc, kInputPort, kOutputPort, kOutputClass, kOutputStack, kRouter };

struct SnapshotField {
  const char* name = "";
  FieldScope scope = FieldScope::kInputVc;
  std::vector<int64_t> values;
};

// The named registers of a router after a cycle (docs/timing-contract.md, "Registers"). Fields and
// their order are fixed by RouterSnapshot::layout(), so that two implementations compare field by
// field:
//   per input lane (input-lane index order:    ivc_state_q (0 IDLE, 1 WAIT_VC, 2 ACTIVE),
//   the input-VC index with one priority       ivc_out_port_q, ivc_out_class_q (0 when IDLE),
//   level; docs/priority.md)                   ivc_out_vc_q (0 unless ACTIVE), ivc_count_q
//   per output VC (input-VC index order)       ovc_credits_q, ovc_owner_q (input lane, -1 free),
//                                              ovc_depth_q (preempted owners stacked)
//   per output VC and stack entry (K - 1 each) ovc_stack_q (input lane; 0 above the depth)
//   per input port, per output port            sa_in_rr_q, sa_out_rr_q
//   per output port and class (network ports   va_rr_q, va_vc_rr_q
//   C classes each, local ports 1, port order)
//   pipelined organizations only        st_valid_q, st_vc_q, st_lane_q: the switch-traversal
//   (lookahead, classic; per output port) register (a flit won the switch in the last cycle, its
//                                              output VC, the input lane it left), 0 when not valid
//   gossip mode only (shape.gossip_packet_flits; gossip_targets_q: the outputs (bit per port) the
//   empty otherwise)                          packet of an input lane holds, 0 unless ACTIVE;
//                                              gossip_rr_q: the lane that claims first among equal ages
// Registers whose value does not matter in a state (a route in IDLE) read 0, so that two
// implementations need not agree on what they leave in them.
struct RouterSnapshot {
  std::vector<SnapshotField> fields;

  // Sizes and names every field for a router of this shape (values zero).
  void layout(const RouterShape& s);
  SnapshotField& field(size_t i) { return fields[i]; }
  // Field indices, in layout order.
  enum : size_t {
    kIvcState, kIvcOutPort, kIvcOutClass, kIvcOutVc, kIvcCount,  // per input VC
    kOvcCredits, kOvcOwner, kOvcDepth,                            // per output VC
    kOvcStack,                                                    // per output VC and stack entry
    kSaInRr,                                                      // per input port
    kSaOutRr,                                                     // per output port
    kVaRr, kVaVcRr,                                               // per output port and class
    kGossipTargets,                                               // per input lane (gossip mode)
    kGossipRr,                                                    // one (gossip mode)
    kStValid, kStVc, kStLane,                                     // per output port (pipelined)
    kFieldCount
  };
};

// The first difference between two cores in a cycle, in words: "cycle N, router R, port P, VC V,
// field F: A vs B".
struct Mismatch {
  uint64_t cycle = 0;
  int router = 0;
  int port = -1;      // -1: not port-specific
  int vc = -1;        // VC within the port, or class for kOutputClass fields, -1 if none
  std::string field;  // "flit_valid", "flit.payload[1]", "ovc_credits_q", ...
  int64_t a = 0, b = 0;
  std::string describe(const char* name_a, const char* name_b, const std::vector<std::string>& port_names) const;
};

// Compares two snapshots of routers of shape `s`; returns false and fills `m` (port, VC, field,
// values) at the first difference.
bool compare_snapshots(const RouterShape& s, const RouterSnapshot& a, const RouterSnapshot& b, Mismatch& m);
// Compares two cores' outputs of one cycle (every port: flit valid, the flit's sideband and payload,
// credit valid and VC); false and `m` at the first difference.
bool compare_outputs(const RouterShape& s, const PortWires* a, const PortWires* b, Mismatch& m);

class RouterCore {
 public:
  virtual ~RouterCore() = default;
  // "model", "rtl", "lockstep": names the implementation in reports.
  virtual const char* kind() const = 0;
  virtual const RouterShape& shape() const = 0;
  // Registers to their reset values; the loaded routing table stays.
  virtual void reset() = 0;
  // One clock cycle: `in` and `out` hold shape().ports() entries each. `out` is fully written.
  virtual void cycle(uint64_t now, const PortWires* in, PortWires* out) = 0;
  // The named registers after the last cycle.
  virtual void snapshot(RouterSnapshot& s) const = 0;
  // No flit anywhere inside (input pipeline, buffers): cycles without inputs change nothing.
  virtual bool quiescent() const = 0;
  // Input VCs whose due front flit did not leave in the last cycle (blocked VC-cycles).
  virtual uint32_t blocked() const = 0;
  // Priority levels (docs/priority.md): output VCs taken from a lower level in the last cycle, and
  // worms waiting on a stack after it (the sum of ovc_depth_q). None without priority levels.
  virtual uint32_t preempted_last() const { return 0; }
  virtual uint32_t stacked() const { return 0; }
  // Pipelined organizations (docs/timing-contract.md, "Router organizations"): flits in the
  // switch-traversal registers bound for network outputs (they count as in the downstream buffers).
  virtual uint32_t traversing() const { return 0; }
  // A waveform of the core's internal registers from the next cycle on, written to `path` (torx run
  // --trace-routers). The Verilated RTL writes one (FST); a core without one refuses.
  virtual void open_trace(const std::string& path) {
    throw sw::InputError("--trace-routers " + path + ": the " + kind() + " router has no register waveform");
  }
  // Flushes and closes the waveform open_trace() opened (nothing without one).
  virtual void close_trace() {}
};

}  // namespace torx::model
