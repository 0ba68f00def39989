// SPDX-License-Identifier: Apache-2.0
// The bytes a cycle-model run will allocate, estimated from the topology, the network parameters
// and the schedule before any of it is allocated (sw/core/memory_limit.hpp checks the estimate
// against --max-memory; the loader and the application layer call both first).
//
// Each part follows the layout of the blocks it sizes: the C++ router's registers and VC buffers in
// the arena (router.hpp: one RouterPort per port, one InputVc and depth flits per input lane, one
// OutputVc per VC, ...), its routing unit's entries, the links, the network interfaces with their
// ejection buffers, the barrier units, the routing and barrier images the host writes, the
// scheduler's wheel, the node memories (node_memory.hpp: a payload slot per block, or per (block,
// node) for the copy collectives) and the program (program.hpp: a record per message and the node
// programs). The SystemC elaboration (one module per router and interface, a port per link end, a
// channel per link, each named) is not laid out by torx: its bytes per object are measured
// (docs/cycle-model.md, "Memory"). Every sum saturates at UINT64_MAX ("more than 2^64 bytes").
//
// The system tests (testbenches/system/test_cycle_cli.cpp, MemoryLimit*) hold the whole estimate to
// the peak resident set of `torx run --model cycle`: a run must pass under a limit a little above
// its measured peak and stop under one well below it, so a change to a block's layout that is not
// reflected here fails them.
#pragma once

#include <cstdint>
#include <vector>
#include <string>

#include "core/blocks.hpp"
#include "core/network_params.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"
#include "core/topology.hpp"

namespace torx::model {

struct MemoryEstimate {
  uint64_t routers = 0;      // C++ routers: registers and VC buffers (arena), routing units
  uint64_t links = 0;        // router-to-router, injection and ejection links
  uint64_t interfaces = 0;   // network interfaces and their ejection buffers
  uint64_t barrier = 0;      // barrier units and their wires
  uint64_t images = 0;       // routing and barrier images (kept by the fabric)
  uint64_t scheduler = 0;    // the scheduler's block lists and timing wheels, the fabric's indexes
  uint64_t node_memory = 0;  // block payloads and their state
  uint64_t program = 0;      // packet table, node programs, synchronization signals
  uint64_t kernel = 0;       // SystemC elaboration: modules, ports, link channels (measured)

  uint64_t total() const;
  // The non-zero parts in words, largest first: "routers 4.1 GiB, images 2.0 GiB, ...".
  std::string parts() const;
};

// What the network needs, from its shape alone (no schedule): routers, links, interfaces (without
// their programs), barrier, images, scheduler and, with `systemc`, the elaboration. `vc_classes`:
// dateline classes x order classes of the routing (loader.hpp computes them from the schedule; a
// caller without the schedule passes the fewest, for a lower bound).
MemoryEstimate estimate_network(const sw::Topology& topo, const sw::NetworkParams& params, sw::PortModel ports,
                                uint32_t flit_bytes, int vc_classes, bool systemc);
// Adds the node memories of `space` with blocks of `block_bytes` bytes.
void add_node_memory(MemoryEstimate& e, const sw::BlockSpace& space, uint32_t block_bytes);
// A rank's part of them (node_memory.hpp): `slots` moved blocks its nodes may hold, or the copied
// blocks' slots of its `owned_nodes`.
void add_node_memory_part(MemoryEstimate& e, const sw::BlockSpace& space, uint32_t block_bytes, uint64_t slots,
                          uint64_t owned_nodes);
// Adds the program of `schedule` (messages, node programs, the signals `sync` adds) and what the
// interfaces hold while they run it: a done flag per receive and the block lists of the messages
// they are sending and receiving (`ports`: the interfaces' channels). A rank's part (`owned`, a flag
// per node; null: every node): the whole program, but the block lists of its own nodes' interfaces
// only (the others are never stepped there).
void add_program(MemoryEstimate& e, const sw::Schedule& schedule, const sw::BlockSpace& space, sw::SyncMode sync,
                 sw::PortModel ports, const std::vector<uint8_t>* owned = nullptr);

}  // namespace torx::model
