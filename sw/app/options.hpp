// SPDX-License-Identifier: Apache-2.0
// The command line's options of torx run, check, stats, cosim and traffic, as the application layer defines
// them: their numeric ranges (one table: the parser and the validation read the same bounds) and
// their words as typed, with one parser that turns the words into typed requests (RunRequest,
// CosimRequest, TrafficRequest) and validates them (validate_request, validate_cosim,
// validate_traffic). The CLI (sw/cli) binds the
// words to its flags, calls these and prints; it decides nothing about them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/cosim.hpp"
#include "app/run.hpp"
#include "app/traffic.hpp"

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
// torx traffic
inline constexpr CountOption kPacketFlitsOption{"--packet-flits", 1, 4096};
inline constexpr CountOption kTrafficFlitBytesOption{"--flit-bytes", 1, 32};
inline constexpr CountOption kWarmupOption{"--warmup", 0, uint64_t{1} << 40};
inline constexpr CountOption kMeasureOption{"--measure", 1, uint64_t{1} << 40};
inline constexpr CountOption kDrainOption{"--drain", 0, uint64_t{1} << 40};
inline constexpr CountOption kQueueLimitOption{"--queue-limit", 1, uint64_t{1} << 31};

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
  // rtl model: someone else's router top (docs/router-interface.md)
  std::vector<std::string> rtl_router;  // --rtl-router FILE.sv ...
  std::string rtl_top;                  // --rtl-top NAME
  std::vector<std::string> rtl_params;  // --rtl-param NAME=VALUE
  bool rtl_no_check = false;            // --rtl-no-check: no link-protocol checker
};

struct RunWords : NetworkWords {
  std::string algo;
  std::string schedule;
  std::string model = "step";
  std::string root = "0";
  std::string gossip_tables;
  std::string trace;
  std::string partition;                   // empty: auto (partitioned runs only)
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

// torx traffic's words (defaults as documented; empty: not given).
struct TrafficWords {
  std::string topo;
  bool mesh = false;
  std::string pattern = "uniform";
  std::string rate;
  std::string sweep;                    // RATES, FROM:TO:STEP or auto
  std::string sweep_tolerance = "0.01";
  std::string packet_flits;
  std::string packet_dist;
  std::string flit_bytes = "16";
  std::string injection = "bernoulli";
  std::string burst_alpha, burst_beta, burst_r1;
  std::vector<std::string> hotspots;
  std::string hotspot_fraction;
  std::string matrix;
  std::string warmup = "3000", measure = "10000", drain = "10000";
  std::string saturation_ratio = "0.99";
  std::string ties = "random";
  std::string queue_limit = "1024";
  std::string model = "cycle";
  std::vector<std::string> params;      // NAME=VALUE
  std::string watchdog;
  std::string seed = "1";
  std::string label;
  std::string max_memory;
  std::string fault;
};

// "0.1", "0.1,0.2,0.4" or "0.05:0.5:0.05" (from, to inclusive, step): the rates; throws
// sw::InputError naming `option` for anything else (a rate outside (0, 1], more than 1000 rates).
std::vector<double> parse_rates(const std::string& text, const char* option);
// "4" or "1:1,8:1" (flits:weight, ...); throws sw::InputError naming `option`.
std::vector<std::pair<uint32_t, double>> parse_packet_sizes(const std::string& text, const char* option);

// The words as a typed request, validated (the request as run). `count_only`: torx stats.
RunRequest parse_run(const RunWords& w, bool count_only);
CosimRequest parse_cosim(const CosimWords& w);
TrafficRequest parse_traffic(const TrafficWords& w);

}  // namespace torx::app
