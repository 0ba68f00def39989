// SPDX-License-Identifier: Apache-2.0
// torx::Network: a cycle-accurate wormhole-routed torus (or mesh) a testbench drives message by
// message. The routers are torx's C++ router (model "cycle") or the Verilated RTL router (model
// "rtl", where the build has it); every node has a host interface with the timing of torx's network
// interface (docs/api.md, "Timing"): a message is issued when the node's injection channel is free,
// its head leaves startup_cycles later, then one flit per cycle as credits allow; it is delivered in
// the cycle its tail flit is written at the destination, and every byte is compared with what was
// sent.
//
// Nothing here exposes torx's internal types (pimpl): the header needs only the standard library.
// Node ids are row-major with x fastest (node = x + kx * (y + ky * z)), as everywhere in torx.
// Networks are independent: several may live in one process (they share no state). A Network is
// not thread-safe; use one per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "torx/error.hpp"

namespace torx {

struct NetworkConfig {
  std::string topology = "8x8";     // radices, as torx --topo: "16", "8x8", "4x4x4"
  bool mesh = false;                 // no wrap-around links (torx --mesh)
  std::string model = "cycle";       // "cycle" (C++ routers) or "rtl" (Verilated routers)
  std::vector<std::string> params;   // "NAME=VALUE", as torx --param (torx run --help-params)
  uint32_t flit_bytes = 16;          // link width (torx --flit-bytes)
  uint32_t block_bytes = 64;         // a block, for inject_blocks() and run_schedule() (torx --block-bytes)
  uint64_t startup_cycles = 0;       // t_s: cycles from a message's issue to its head flit (torx --ts)
};

// A message's route (default: dimension order from x, the shorter way round each ring, ties the +
// way). The worm goes the - way in dimension d if bit d of `negative` is set, and walks the
// dimensions cyclically from `start_dim`. Worms of different start dimensions that change dimension
// need param order_classes=<dims> (the VC classes that keep mixed orders free of deadlock,
// docs/routing-tables.md); without it such traffic may deadlock, and the watchdog says so.
struct Route {
  int start_dim = 0;
  uint32_t negative = 0;
};

// One message delivered.
struct Delivery {
  uint64_t id = 0;           // as inject() returned it
  int src = 0, dst = 0;
  int priority = 0;
  uint64_t bytes = 0;
  uint64_t injected = 0;     // cycle of the inject() call (the first cycle it could be issued in)
  uint64_t issued = 0;       // cycle the source's interface issued it (its channel was free)
  uint64_t head = 0;         // cycle its head flit left the source
  uint64_t cycle = 0;        // cycle its tail flit was written at the destination
  bool intact = true;        // every byte as sent
  std::vector<uint8_t> data;  // the bytes that arrived
  uint64_t latency() const { return cycle - injected; }
};

struct Figures {
  uint64_t cycle = 0;                 // cycles simulated so far
  uint64_t messages_injected = 0, messages_delivered = 0, messages_corrupted = 0;
  uint64_t flits_injected = 0, flits_ejected = 0;
  uint64_t flit_hops = 0;             // flits sent on router-to-router links
  uint64_t blocked_cycles = 0;        // sum over cycles of router VCs holding a flit that could not advance
  std::vector<uint64_t> link_flits;   // per directed link, index node * 2 * dims + port (+x, -x, +y, -y, ...)
};

// run_schedule(): what to run, as torx run's options.
struct ScheduleOptions {
  std::string sync = "barrier";      // torx --sync: none, barrier, local, software, priority
  std::string ports;                 // torx --ports: "" (the schedule's), one, all
  int root = 0;                      // broadcast source (torx --root)
  uint64_t seed = 1;
  uint64_t startup_cycles = 100;     // torx --ts (default as torx run)
};

// The outcome of run_schedule(): the check of every block, and the run's figures.
struct ScheduleResult {
  bool check_ok = false;
  uint64_t blocks_expected = 0, blocks_delivered = 0;
  uint64_t blocks_missing = 0, blocks_duplicated = 0, blocks_misdelivered = 0, blocks_corrupted = 0;
  std::vector<std::string> check_examples;  // the first faults, in words
  int64_t steps = 0;
  uint64_t messages = 0;
  uint64_t step_model_cycles = 0;
  uint64_t cycles = 0;               // the cycle-accurate run: until the last block was stored
  std::vector<uint64_t> link_flits;
  uint64_t blocked_cycles = 0;
  std::string document;              // the result document, as torx run --json writes it (torx.result/1)
};

class Network {
 public:
  // Throws torx::Error (kInput) for a topology, parameter or model the command line would refuse.
  explicit Network(const NetworkConfig& config);
  ~Network();
  Network(Network&&) noexcept;
  Network& operator=(Network&&) noexcept;
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  int nodes() const;
  int dims() const;
  int radix(int dim) const;
  int node(const std::vector<int>& coords) const;  // node id of coordinates (x first)
  std::vector<int> coords(int node) const;
  const NetworkConfig& config() const;

  // Queues a message from src to dst; it may be issued from the current cycle on. Returns its id.
  // `priority`: 0 unless the network has priority levels (param priority_levels=K: 0..K-1, K-1 the
  // highest). Without data, the payload is a pattern of the id and byte offset (checked on arrival).
  // Throws torx::Error (kInput) for an unknown node, 0 bytes, a priority out of range, a route the
  // network cannot take.
  uint64_t inject(int src, int dst, uint64_t bytes, int priority = 0, std::optional<Route> route = std::nullopt);
  uint64_t inject(int src, int dst, std::vector<uint8_t> data, int priority = 0,
                  std::optional<Route> route = std::nullopt);
  uint64_t inject_blocks(int src, int dst, uint64_t blocks, int priority = 0);  // blocks of block_bytes

  // Simulates n cycles. Throws torx::Error (kStopped) with a report of every stuck worm when the
  // watchdog fires (param watchdog_cycles) or the cycle limit is reached (param max_cycles).
  void step(uint64_t n = 1);
  // Simulates until every message injected is delivered (skipping cycles in which nothing is due),
  // at most `limit` cycles; returns whether the network is idle.
  bool run_until_idle(uint64_t limit = UINT64_MAX);
  uint64_t cycle() const;
  bool idle() const;

  // Deliveries: the callback (if set) sees each one in the cycle it happens; the queue keeps each
  // one until taken (keep_deliveries(false) turns the queue off).
  void on_delivery(std::function<void(const Delivery&)> callback);
  void keep_deliveries(bool keep);
  std::optional<Delivery> next_delivery();
  std::vector<Delivery> take_deliveries();

  Figures figures() const;

  // Runs a whole schedule on a network of this configuration (topology, model, parameters, sizes),
  // separately from the messages above: an algorithm id (torx list: "t4", "direct", ...) or a
  // schedule file (torx.schedule/1), checked block by block, as `torx run ... --model cycle|rtl`.
  // Throws torx::Error with the command line's message for what it would refuse.
  ScheduleResult run_schedule(const std::string& algorithm_or_file, const ScheduleOptions& options = {}) const;

  // Which models this build of the library has: "cycle", "rtl".
  static std::vector<std::string> models();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torx
