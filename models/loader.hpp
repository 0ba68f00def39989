// SPDX-License-Identifier: Apache-2.0
// The loader: programs a cycle-accurate network from a Schedule and reports the run.
//
// CycleNetwork (kernel-free) does what the host does before a run: it checks the options, writes
// one routing-table image and one barrier image per node (routing_table.hpp, barrier.hpp), compiles
// the node programs (program.hpp), fills the node memories with every node's own blocks
// (node_memory.hpp), builds the Fabric and checks, by walking every message through the tables,
// that the tables take each message along exactly the links its schedule route names.
//
// run_cycle_model() is the CLI's `--model cycle`: it wraps the fabric in the SystemC model
// (sc_network.hpp), clocks it until the last block is stored, checks delivery through the node
// memories and fills the result document. A stuck run throws sw::WatchdogError with the report of
// every stuck worm.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/report.hpp"
#include "core/schedule.hpp"
#include "models/fabric.hpp"
#include "models/node_memory.hpp"
#include "models/params.hpp"
#include "models/program.hpp"

namespace torx::model {

struct CycleOptions {
  NetworkParams params;
  uint32_t block_bytes = 64;
  uint32_t flit_bytes = 16;
  uint64_t ts_cycles = 100;
  std::string sync = "barrier";           // barrier | none (local, priority, software: not yet)
  uint64_t seed = 1;
  std::optional<sw::PortModel> ports;     // network interface channels; default: the schedule's
  std::string trace;                      // VCD file (SystemC runs only)
  bool progress = false;                  // progress line on standard error
};

// Throws sw::InputError for options the cycle model does not offer (names the option).
void validate_cycle_options(const CycleOptions& opt);

class CycleNetwork {
 public:
  // `connect`: wire the blocks directly (kernel-free runs); false when SystemC shells will bind.
  CycleNetwork(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt, bool connect = true);

  Fabric& fabric() { return *fabric_; }
  const Fabric& fabric() const { return *fabric_; }
  NodeMemory& memory() { return *memory_; }
  const NodeMemory& memory() const { return *memory_; }
  Program& program() { return *program_; }
  const sw::BlockSpace& space() const { return *space_; }
  const RoutingConfig& routing_config() const { return routing_; }

  // Kernel-free run to completion; throws sw::WatchdogError if the run stalls.
  void run();
  // The contention-free cycle count of docs/cycle-model.md for this schedule and these options.
  uint64_t predicted_cycles() const;
  // Fills cycles, check, sim and cycle_model of a report after the run.
  void fill_report(sw::RunReport& rep, double wall_seconds) const;

 private:
  void check_routes() const;

  const sw::Schedule& schedule_;
  sw::Topology topo_;
  CycleOptions opt_;
  RoutingConfig routing_;
  std::unique_ptr<sw::BlockSpace> space_;
  std::unique_ptr<Program> program_;
  std::unique_ptr<NodeMemory> memory_;
  std::unique_ptr<Fabric> fabric_;
};

// The CLI's --model cycle: a SystemC run (one per process: SystemC elaborates once).
void run_cycle_model(const sw::Schedule& schedule, const sw::Topology& topo, const CycleOptions& opt,
                     sw::RunReport& rep);

}  // namespace torx::model
