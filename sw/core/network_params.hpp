// SPDX-License-Identifier: Apache-2.0
// Parameters of the cycle-accurate network (and of its RTL twin): one plain struct, every field
// documented where it is declared, validated in one place (validate()). The application's
// `--param NAME=VALUE`, `torx run --help-params` and the result document's parameter list come from
// the same table (param_table()), so a name is defined exactly once. The host owns them: it writes
// the tables and images a network is built from, and the models take them as they are.
//
// Timing parameters are defined in docs/timing-contract.md; this header only names them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/topology.hpp"

namespace torx::sw {

struct NetworkParams {
  // --- router -----------------------------------------------------------------------------------
  // VCs per VC class on every network port. The class count is fixed by deadlock avoidance (2 per
  // torus ring for the dateline, times the order classes below); ports carry classes * this VCs.
  int vcs_per_class = 1;
  // Depth of every input VC buffer, in flits. Full link throughput needs at least
  // link_latency + router_latency + credit_latency (docs/timing-contract.md, "Credit loop").
  int buffer_depth = 8;
  // Router pipeline stages: a flit visible at an input port in cycle t leaves on an output link in
  // cycle t + router_latency at the earliest. Stages 1..P-1 (buffer write, route computation) never
  // stall; stage P performs VC allocation, switch allocation and switch traversal.
  int router_latency = 2;
  // Router organization (docs/timing-contract.md, "Router organizations"): what the stages after the
  // input pipeline do. 0 single (allocation and traversal in one cycle, the default), 1 lookahead
  // (lookahead routing, VC allocation with speculative switch allocation | switch traversal), 2
  // classic (RC | VA | SA | ST). `--param pipeline=NAME` takes the names (pipeline_names()).
  int pipeline = 0;
  // Cycles a flit spends on a router-to-router link (pushed in t, visible downstream in t + L).
  int link_latency = 1;
  // Cycles from a buffer slot being freed to the upstream credit counter seeing it.
  int credit_latency = 1;
  // Latency of the links between a network interface and its router (injection and ejection).
  int local_latency = 1;
  // Dateline VC classes on torus rings (2 classes per ring). Turning it off is for the deadlock
  // demonstration only: tori then deadlock under wrap-around traffic, as the tests show.
  bool dateline = true;
  // Order classes: 0 = automatic (1 if every multi-dimension message of the schedule starts in the
  // same dimension, else one per dimension, so mixed cyclic dimension orders cannot deadlock).
  int order_classes = 0;

  // --- barrier network and null messages ----------------------------------------------------------
  // Cycles per hop of the barrier tree (gather up, release down).
  int barrier_hop_latency = 1;
  // Startup of a null message (--sync local and software), in cycles; -1: the same as t_s (--ts).
  // A smaller value models a cheaper hardware signal than a full send.
  int64_t null_ts = -1;

  // --- priority throttle-and-preempt (--sync priority; docs/priority.md) ---------------------------
  // Priority levels: lanes per VC buffer. Only --sync priority uses them; other modes run the plain
  // router (one level).
  int priority_levels = 4;
  // Slots per level above that the throttle keeps out of reach of a lower level;
  // buffer_depth must exceed (priority_levels - 1) * priority_reserve.
  int priority_reserve = 1;

  // --- simulation control -------------------------------------------------------------------------
  // Watchdog: this many cycles without any flit moving while flits are in flight stops the run
  // (WatchdogError, exit code 3) with a report of every stuck worm.
  uint64_t watchdog_cycles = 10000;
  // Hard limit on simulated cycles (0 = none); reaching it is reported like the watchdog.
  uint64_t max_cycles = 0;
  // Threads that evaluate the network (scheduler.hpp, "Two lanes"): 1 (the default), 2 (network
  // interfaces, barrier units and a balanced share of the routers on the second), or 0 = automatic
  // (2 on networks of 1024 routers or more when two cores are idle, judged by the load average, else
  // 1). One by default: on a loaded 2-core machine a second thread that must meet the first every
  // cycle made t4 32x32 1.6 to 5 times slower (issue 17). The results do not depend on it, only the
  // speed.
  int threads = 1;
};

// One row of the parameter table: name as written on the command line, description, and accessors.
struct ParamInfo {
  const char* name;
  const char* description;
  int64_t (*get)(const NetworkParams&);
  void (*set)(NetworkParams&, int64_t);
  int64_t min;
  int64_t max;
};

const std::vector<ParamInfo>& param_table();
// The names of the router organizations, by value of NetworkParams::pipeline.
inline constexpr const char* kPipelineNames[] = {"single", "lookahead", "classic"};
inline const char* pipeline_name(int v) { return v >= 0 && v <= 2 ? kPipelineNames[v] : "?"; }
// Cycles an uncontended head spends in a router, from its input port to its output link: P, plus the
// organization's stages after the first allocation stage (docs/timing-contract.md, "Hop latency and
// one message": lookahead 1, classic 3).
inline int router_head_cycles(const NetworkParams& p) {
  return p.router_latency + (p.pipeline == 1 ? 1 : p.pipeline == 2 ? 3 : 0);
}
// Parses "name=value" and sets it; throws InputError naming the parameter and the valid range.
void set_param(NetworkParams& p, std::string_view assignment);
// Throws InputError naming the first field that is out of range for `topo`.
void validate(const NetworkParams& p, const Topology& topo);
// The priority parameters' further limits, where priorities are used (--sync priority): lanes per
// port, and room for the lowest level next to the throttle's reserves.
void validate_priority(const NetworkParams& p, const Topology& topo);
// "name=value" for every parameter, for reports.
std::vector<std::pair<std::string, int64_t>> param_values(const NetworkParams& p);
// Help text: one line per parameter with its default.
std::string param_help();

}  // namespace torx::sw
