// SPDX-License-Identifier: Apache-2.0
// The step model: executes a schedule step by step under the papers' cost model.
//
// Per step it
//  - checks that every sender holds, at the start of the step, every block its messages carry
//    (a violation is bad input: InputError naming the file line or the generated message);
//  - moves blocks (personalized collectives: the sender gives them up) or copies them (broadcast,
//    gossip), counting every arrival so the checker can find duplicates;
//  - counts port conflicts (one-port: sends and receives beyond one per node; all-port: messages
//    beyond one per outgoing link) and link conflicts (wormhole: messages beyond one per directed
//    link; store-and-forward: additionally every message between non-neighbours);
//  - charges t_s + ceil(largest message in bytes / flit_bytes) cycles (one flit per cycle).
// It is a ScheduleSink, so it runs on a streamed schedule without holding it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/big_array.hpp"
#include "core/delivery.hpp"
#include "core/run_config.hpp"
#include "core/schedule.hpp"

namespace torx::sw {

struct StepModelOptions {
  CostModel cost;                     // block and flit sizes, t_s
  std::optional<PortModel> ports;     // count port conflicts under this model instead of the schedule's
  std::string origin = "schedule";    // file path or "ALGO (generated)", used in error messages
  size_t max_examples = 8;            // conflict examples kept for the report
  // false: count steps, message sizes and conflicts only, without tracking blocks (no holding
  // rules, no delivery view). `torx stats` uses it for schedules too large to track block by block.
  bool track_blocks = true;
  // The most memory the step model may take (bytes, estimated before it allocates); 0: the memory
  // available on this machine. More is refused with WatchdogError (exit 3).
  uint64_t memory_limit_bytes = 0;
  // A partitioned run's share (docs/distributed.md, "Memory per rank"): track only part
  // `track_part` of `track_parts` equal ranges of block ids, so that each rank holds 5 bytes
  // (personalized) or N bytes (copy collectives) per block of its range only. A schedule that breaks
  // a holding rule for a block outside the range is not noticed here: the ranks compare
  // failure_position() afterwards and the earliest is the one process's error. The DeliveryView
  // answers for blocks of the range only (a partitioned run checks the cycle model's memories).
  uint32_t track_part = 0;
  uint32_t track_parts = 1;
};

struct StepRecord {
  std::string label;
  uint32_t messages = 0;
  uint64_t max_blocks = 0;
  uint64_t cycles = 0;
  uint64_t port_conflicts = 0;
  uint64_t link_conflicts = 0;
};

struct StepModelResult {
  int64_t steps = 0;
  uint64_t messages = 0;
  uint64_t transmission_blocks = 0;   // sum over steps of the largest message, in blocks
  uint64_t block_transfers = 0;       // sum over all messages of their blocks
  uint64_t port_conflicts = 0;
  uint64_t link_conflicts = 0;
  uint64_t step_model_cycles = 0;
  std::vector<StepRecord> per_step;
  std::vector<std::string> conflict_examples;
};

// The bytes the step model allocates for a schedule of `collective` (`pieces`, `root`) on `topo`
// (what begin() allocates: link and port counters, and with `track_blocks` the block state), plus
// one step in flight (a message per node and port, as a generator hands a step over); saturating at
// UINT64_MAX. torx run and stats check it against the limit before the generator starts.
// `share`: a partitioned run's ranks, each tracking 1/share of the blocks (StepModelOptions::track_parts).
uint64_t step_model_bytes(const Topology& topo, Collective collective, int pieces, NodeId root, bool track_blocks,
                          uint64_t share = 1);

class StepModel : public ScheduleSink, public DeliveryView {
 public:
  StepModel(const Topology& topo, StepModelOptions options);
  ~StepModel() override;

  void begin(const ScheduleHeader& header) override;
  void step(const Step& step) override;
  void end() override;

  const StepModelResult& result() const { return result_; }
  const ScheduleHeader& header() const { return header_; }
  PortModel port_model() const { return ports_; }
  // Where the model was when an error was thrown (or is now): step index, phase (0 checking the
  // messages, 1 moving or copying their blocks, 2 the step's cost, 3 between steps), message index,
  // box, block within the box. The earliest position over a partitioned run's ranks is where one
  // process, tracking every block, stops first.
  std::array<uint64_t, 5> failure_position() const { return {uint64_t(step_index_), phase_, msg_, box_, ordinal_}; }

  // DeliveryView
  const BlockSpace& space() const override { return *space_; }
  NodeId holder(BlockId b) const override;
  bool holds(BlockId b, NodeId node) const override;
  uint32_t arrivals(BlockId b, NodeId node) const override;
  bool intact(BlockId b, NodeId node) const override;

 private:
  [[noreturn]] void fail(const Step& step, const Message& m, const std::string& what) const;
  std::string where(const Step& step) const;  // "file:line" of the step, or the origin
  uint64_t sum_or_fail(const Step& step, uint64_t a, uint64_t b, const char* what) const;  // a + b, checked
  void count_conflicts(const Step& step, StepRecord& rec);
  void move_blocks(const Step& step);
  void copy_blocks(const Step& step);
  void note(std::string example);

  const Topology& topo_;
  StepModelOptions opt_;
  ScheduleHeader header_;
  PortModel ports_ = PortModel::kOne;
  std::unique_ptr<BlockSpace> space_;
  StepModelResult result_;
  int64_t step_index_ = 0;

  // Personalized collectives (one copy of each block; memory-bound, so one word per block):
  //   word_[b]  bits 0-23 the node holding block b (kNoOwner: not a block), bits 24-30 the stamp of
  //             the step in which it last moved (1..127; 0 = not in this epoch), bit 31 corrupted;
  //   state_[b] arrivals at the destination (saturating).
  // A stamp equal to the current step's means the block already moved in this step, so a single
  // pass checks "held at the start of the step" exactly. Stamps restart every 127 steps.
  // Copy collectives: state_[b * N + node] = held (bit 7) | corrupted (bit 6) | arrivals (bits 0-5).
  BigArray<uint32_t> word_;
  BigArray<uint8_t> state_;
  uint32_t stamp_ = 0;
  uint64_t lo_ = 0, hi_ = 0;  // the tracked block ids: [lo_, hi_)
  uint64_t phase_ = 3, msg_ = 0, box_ = 0, ordinal_ = 0;  // failure_position()

  // Per-step scratch, sized once.
  std::vector<uint32_t> link_uses_;
  std::vector<LinkId> touched_links_;
  std::vector<uint16_t> sends_, recvs_;
  std::vector<NodeId> touched_nodes_;
};

}  // namespace torx::sw
