// SPDX-License-Identifier: Apache-2.0
// torx reproduce tseng: our step and transmission counts for T1, T4, C1 and C64 on 2^d tori, d over
// the ranges of seed 000's Tables 3-5 and Figs. 9-11, from the ring plans the generators use
// (tseng::scheme_counts). Each size small enough to generate is generated and counted again, and the
// two must agree (a mismatch is an internal error); small enough, every block is checked too.
// scripts/reproduce_tseng.py turns the document into the tables, plots and docs/reproduction/tseng.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace torx::app {

struct ReproduceRow {
  int d = 0;                 // n = 2^d nodes per side
  int n = 0;
  int64_t steps = 0;
  int64_t transmission_blocks = 0;
  std::string verified;      // "plan", "generated and counted", "generated, every block checked"
};

struct ReproduceFamily {
  const char* id = "";       // t1, t4, c1, c64
  int dims = 2;
  std::vector<ReproduceRow> rows;
};

// Progress, for the caller to render: a size about to be generated (`done` false; `topology` and
// `nodes` say how large), or a size done (`verified`, `seconds` since the start).
struct ReproduceProgress {
  const char* family = "";
  int d = 0;
  bool done = false;
  std::string topology;
  int64_t nodes = 0;
  std::string verified;
  double seconds = 0;
};
using ReproduceProgressFn = std::function<void(const ReproduceProgress&)>;

std::vector<ReproduceFamily> reproduce_tseng(const ReproduceProgressFn& progress = {});
// The document (schema torx.reproduce.tseng/1), and a table for people.
std::string reproduce_json(const std::vector<ReproduceFamily>& families);
std::string reproduce_text(const std::vector<ReproduceFamily>& families);

}  // namespace torx::app
