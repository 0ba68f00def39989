// SPDX-License-Identifier: Apache-2.0
// The command line's options of torx run, check, stats and cosim, as the application layer defines
// them: their numeric ranges (one table: the parser and the validation read the same bounds) and
// their words as typed, with one parser that turns the words into typed requests (RunRequest,
// CosimRequest) and validates them (validate_request, validate_cosim). The CLI (sw/cli) binds the
// words to its flags, calls these and prints; it decides nothing about them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/cosim.hpp"
#include "app/run.hpp"

namespace torx::app {

// A whole-number option and its range (docs/cli.md, "Options").
struct CountOption {
  const char* name;
  uint64_t lo;
  uint64_t hi;
};
inline constexpr CountOption kBlockBytesOption{"--block-bytes", 1, uint64_t{1} << 30};
inline constexpr CountOption kFlitBytesOption{"--flit-bytes", 1, uint64_t{1} << 20};
inline constexpr CountOption kTsOption{"--ts", 0, 1000000000};
inline constexpr CountOption kSeedOption{"--seed", 0, UINT64_MAX};
inline constexpr CountOption kWatchdogOption{"--watchdog", 1, uint64_t{1} << 40};
inline constexpr CountOption kTraceRoutersOption{"--trace-routers", 0, INT32_MAX};
inline constexpr CountOption kCyclesOption{"--cycles", 1, uint64_t{1} << 32};
inline constexpr CountOption kMaxWormFlitsOption{"--max-worm-flits", 1, 4096};
inline constexpr CountOption kBarrierEveryOption{"--barrier-every", 0, uint64_t{1} << 32};
inline constexpr CountOption kMutantOption{"--mutant", 0, 99};

// A non-negative whole number: digits only (no sign, no wrap-around), within the option's range;
// throws sw::InputError naming the option otherwise.
uint64_t parse_count(const CountOption& o, const std::string& text);
// Throws sw::InputError "OPTION V: out of range (expected LO to HI)" unless the value is in range.
void check_count(const CountOption& o, uint64_t v);
// --root: a node id, or coordinates "x,y"; throws sw::InputError naming --root.
sw::NodeId parse_root(const sw::Topology& topo, const std::string& text);

// The words of the options torx run, check, stats and cosim share (the defaults are the
// documented ones).
struct NetworkWords {
  std::string topo;
  bool mesh = false;
  std::string ports;                    // empty: the schedule's own (run), one (cosim)
  std::string block_bytes = "64";
  std::string ts = "100";
  std::string flit_bytes = "16";
  std::string sync = "barrier";
  std::string seed = "1";
  bool gossip_hw = false;
  std::string watchdog;                 // empty: the parameter's default
  std::vector<std::string> params;      // NAME=VALUE
};

struct RunWords : NetworkWords {
  std::string algo;
  std::string schedule;
  std::string model = "step";
  std::string root = "0";
  std::string gossip_tables;
  std::string trace;
  std::vector<std::string> trace_routers;  // node ids
  std::string max_memory;                  // empty: what the machine has available
};

struct CosimWords : NetworkWords {
  std::string traffic = "random";
  std::string pattern = "uniform";
  std::string load = "0.3";
  std::string cycles = "10000";
  std::string max_worm_flits = "16";
  std::string barrier_every = "2000";
  std::string mutant = "0";
  bool mixed_orders = false;
};

// The words as a typed request, validated (the request as run). `count_only`: torx stats.
RunRequest parse_run(const RunWords& w, bool count_only);
CosimRequest parse_cosim(const CosimWords& w);

}  // namespace torx::app
