// SPDX-License-Identifier: Apache-2.0
// Per-router forwarding tables of an oblivious gossip (allgather) and their text format, version 1
// (docs/forwarding-tables.md). The tables are an artifact of their own, beside the schedule file:
// the gossip generators (sw/algorithms/meyer_sibeyn.hpp) write them, `torx tables` saves and checks
// them, and a model loader can build per-router hardware images from them without the generators.
//
// Semantics. Every node starts with `pieces` blocks (block id = node * pieces + piece). Packets
// move in lock step, one hop per step. In step `inject_step` every node sends each block of its
// injection list out of the ports of the entry's mask. In every later step t, a router copies the
// packets that arrived through input port i in step t-1 out of output port o for every rule
// (i -> o) whose window [first, last] contains t, and hands every arrival to its node. Ports are
// numbered as in core/topology.hpp (network port 2*dim + (dir < 0), local port 2*ndims); an input
// port is the port a packet ENTERS through. A non-oblivious prologue (explicit one-hop messages
// forming step 1, before inject_step = 2) is allowed; routers never forward prologue blocks.
//
//   torx-forwarding-tables 1
//   algorithm ms-hc
//   dims 8 8
//   pieces 2
//   steps 32
//   inject_step 1
//   D 0 0 8 1            node in_port out_mask deliver
//   R 0 3 0 2 32         node in_port out_port first last
//   I 0 0 9              node block out_mask
//   P 3 4 0 1 18 19      src dst dim dir block...   (prologue only)
//   end
//
// The reader refuses hostile input with an InputError naming the line and the field: every size is
// bounded before anything is allocated (the per-node tables are built only once the file has shown
// an injection for every block, so memory stays proportional to the file), header fields may not
// repeat, and records must be in range and consistent with each other (validate_forwarding_table).
#pragma once

#include <cstdint>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace torx::sw {

inline constexpr int kForwardingTableVersion = 1;
// The reader's limits: a line (as the schedule format's, 1 MiB) and a whole file (the tables of a
// torus torx tables can plan are far smaller than kMaxForwardingTableBytes).
inline constexpr size_t kMaxForwardingLineBytes = size_t{1} << 20;
inline constexpr uint64_t kMaxForwardingTableBytes = uint64_t{1} << 30;

// A block a node injects at the injection step, and the network ports it leaves on.
struct InjectionEntry {
  uint64_t block = 0;
  uint32_t out_mask = 0;  // bit p = network port p
};

// One forwarding rule: a packet that arrived through `in_port` in step t-1 is copied out of
// `out_port` in step t iff first <= t <= last (absolute steps). Packets move in lock step from the
// injection step on, so the window is an age window (a hop limit): age = t - inject_step.
struct ForwardRule {
  uint8_t in_port = 0;
  uint8_t out_port = 0;
  int64_t first = 0;
  int64_t last = -1;

  bool operator==(const ForwardRule& o) const {
    return in_port == o.in_port && out_port == o.out_port && first == o.first && last == o.last;
  }
  bool operator!=(const ForwardRule& o) const { return !(*this == o); }
};

// A prologue message: one hop from `src` out of network port `port` to its neighbour `dst`.
struct PrologueMessage {
  int64_t src = 0;
  int64_t dst = 0;
  int port = 0;
  std::vector<uint64_t> blocks;
};

struct ForwardingTable {
  std::string algorithm;
  // What built the tables, in words; written as a comment line, not read back.
  std::string construction;
  std::vector<int> dims;  // the torus, radix per dimension, x first
  int pieces = 0;
  int64_t steps = 0;        // length of the schedule the tables encode, prologue included
  int64_t inject_step = 1;  // 1, or 2 after a prologue
  // [node][in_port], in_port 0..2D: the union of the output ports of that in_port's rules. Row 2D
  // (the local port) is the union of the node's injection masks.
  std::vector<std::vector<uint32_t>> out_mask;
  // [node][in_port]: 1 if packets arriving through in_port are handed to the node.
  std::vector<std::vector<uint8_t>> deliver;
  std::vector<std::vector<ForwardRule>> rules;      // [node]
  std::vector<std::vector<InjectionEntry>> inject;  // [node]
  std::vector<PrologueMessage> prologue;

  int ndims() const { return static_cast<int>(dims.size()); }
  int64_t nodes() const;
};

// Limits of the reader (and of validate_forwarding_table): the node count is Topology's; pieces
// per node at most kMaxForwardingPieces; steps at most inject_step + N (N - 1) pieces (a step
// that delivers nothing is useless, and there are N (N - 1) pieces deliveries in all).
inline constexpr int kMaxForwardingPieces = 1 << 16;

void write_forwarding_table(std::ostream& out, const ForwardingTable& table);

// Bytes of the per-node tables of a ForwardingTable of `nodes` nodes in `ndims` dimensions with
// `rules` forwarding rules and `injections` injection entries per node, as std::vector lays them out
// when they grow one entry at a time (the planners and the reader build them so); UINT64_MAX beyond
// 2^64. The prologue is not counted.
uint64_t forwarding_table_bytes(int64_t nodes, int ndims, int64_t rules, int64_t injections);
// What a gossip planner (sw/algorithms/meyer_sibeyn.hpp) holds at its peak while it builds the
// tables of the torus `dims`, estimated before it starts (`torx tables` checks it against
// --max-memory): the tables with 4 d rules and 8 injections per node (the planners make at most
// 2 d rules per node on the cycles, the feeds of ms-one and ms-hc-steps up to 2 d + 4; at most 8
// injections), and as much again for the planner's cycle, position and feed lists (measured: ms-one
// on 256x256 peaks at 2.1 times its tables, ms-hc at 1.6 times).
uint64_t gossip_tables_peak_bytes(const std::vector<int>& dims);

// Parses the text form. `origin` (a file name) starts every error message. Throws InputError
// naming the line and the field on malformed, out-of-range or inconsistent input.
ForwardingTable read_forwarding_table(std::istream& in, const std::string& origin = "forwarding tables");

// The cross-record consistency checks of the reader, for tables built in memory: sizes match the
// dims, every record in range, every block injected exactly once (by its owner or by the receiver
// of a prologue message carrying it), out_mask rows equal to the union of their rules (and of the
// injection masks for the local row), every port that sends leads to a delivering input port, a
// prologue exactly when inject_step is 2. Throws InputError naming the node and the field.
void validate_forwarding_table(const ForwardingTable& table, const std::string& origin = "forwarding tables");

}  // namespace torx::sw
