// SPDX-License-Identifier: Apache-2.0
// The figures of a cycle-accurate run, in one type: the cycle and rtl models fill it
// (models/loader.hpp, CycleNetwork::result() and run_cycle_model()), the application's result
// document serializes it (sw/app/report.cpp: "cycles", "sim", "cycle_model" and "gossip_hw",
// docs/cli.md). A new counter is one field here, filled by the model, and one key in report.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace torx::sw {

struct CycleFigures {
  uint64_t cycles = 0;                  // until the last block is stored ("cycles")
  uint64_t simulated_cycles = 0;        // cycles the network was clocked (not in the document)
  uint64_t router_cycles = 0;           // routers x simulated cycles ("sim")
  uint64_t flit_hops = 0;               // flits sent on router-to-router links ("sim")
  // --- "cycle_model" ------------------------------------------------------------------------------
  std::vector<std::pair<std::string, int64_t>> params;  // network parameters as run
  uint64_t predicted_cycles = 0;        // contention-free formula of docs/cycle-model.md
  uint64_t barriers = 0;                // barrier episodes executed
  uint64_t barrier_latency = 0;         // cycles from the last node's entry to the release
  std::vector<int64_t> step_start;      // per step: cycle its first send was issued (-1: no messages)
  std::vector<int64_t> step_end;        // per step: cycles until its last block was stored (-1: none)
  std::vector<uint64_t> link_flits;     // per directed network link, in LinkId order (node * ports + port)
  uint64_t blocked_cycles = 0;          // sum over cycles of router VCs holding a flit that could not advance
  uint64_t injection_stall_cycles = 0;  // sum over cycles of injection channels waiting for a credit
  double mean_buffer_flits = 0;         // flits in router input buffers (and the links into them), mean over cycles
  uint32_t max_vc_occupancy = 0;        // fullest VC buffer, in flits
  uint64_t router_evaluations = 0;      // router-cycles actually evaluated (idle routers are skipped)
  int threads = 1;                      // threads that evaluated the network (results do not depend on it)
  uint64_t null_messages = 0;           // null messages sent (--sync local, software)
  uint64_t null_flit_hops = 0;          // their flits' hops between routers
  uint64_t sync_wait_cycles = 0;        // node-cycles spent waiting for a barrier or a signal
  uint64_t software_barriers = 0;       // software barrier episodes (--sync software)
  uint64_t priority_levels = 1;         // levels the routers ran with (1 unless --sync priority; docs/priority.md)
  uint64_t preemptions = 0;             // output-VC takeovers by a higher level
  uint64_t preempted_cycles = 0;        // worm-cycles spent preempted (on a stack)
  double load_seconds = 0;              // programming the network: tables, programs, memories, elaboration
  double run_seconds = 0;               // simulating it, up to the last block stored
  // --- "gossip_hw": hardwired gossip only (--gossip-hw; docs/gossip.md) -----------------------------
  bool gossip_hw = false;
  uint64_t gossip_host_sends = 0;        // packets the interfaces injected: their own pieces and the prologue
  uint64_t gossip_router_copies = 0;     // packet copies the routers sent on network links
  uint64_t gossip_deliveries = 0;        // packets the routers handed to their nodes
  uint64_t gossip_steps_equivalent = 0;  // steps of the schedule-driven run the routers' forwarding replaces
};

}  // namespace torx::sw
