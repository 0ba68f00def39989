// SPDX-License-Identifier: Apache-2.0
// The schedule: a sequence of steps; a step is a set of messages; a message has a source, a
// destination, a resolved route, the blocks it carries (a union of boxes, see blocks.hpp), a
// priority and optional fault-injection flags. Steps carry a label (the paper's phase name) and a
// synchronisation mark saying whether the boundary before them needs a barrier.
//
// Schedules stream: generators, the file reader and the file writer, the step model and the
// in-memory Schedule all speak ScheduleSink (begin, step, step, ..., end), so a 2^30-block C64
// schedule can be generated and executed without ever being held whole in memory.
// The on-disk form is documented in docs/schedule-format.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/blocks.hpp"
#include "core/names.hpp"
#include "core/topology.hpp"

namespace torx::sw {

enum class PortModel { kOne, kAll };
enum class Switching { kWormhole, kStoreAndForward };
// --ports' names (and the schedule files'): parsing, help and errors read this table (core/names.hpp).
inline constexpr Named<PortModel> kPortModels[] = {{PortModel::kOne, "one"}, {PortModel::kAll, "all"}};
constexpr std::string_view port_model_name(PortModel p) { return name_of(kPortModels, p); }
// Throws InputError for a name the table lacks.
PortModel parse_port_model(std::string_view text);
std::string_view switching_name(Switching s);    // "wormhole", "store-and-forward"
Switching parse_switching(std::string_view text);

// How the boundary before a step is synchronised in the cycle and RTL models (--sync barrier
// honours it; --sync none ignores it). kNone marks a boundary the schedule's author knows to be
// self-synchronised (seed 000, Section 7.1).
enum class SyncMark { kBarrier, kNone };

inline constexpr uint8_t kFaultCorrupt = 1;  // fault injection: the message flips a bit of each block it carries

struct Message {
  NodeId src = 0;
  NodeId dst = 0;
  Route route;
  uint32_t first_range = 0;  // boxes: ranges [first_range, first_range + box_count * arity) of the step
  uint32_t box_count = 0;
  uint32_t line = 0;         // line in the schedule file it came from (0: generated)
  uint8_t priority = 0;      // higher is more urgent; generators give earlier phases higher priority
  uint8_t flags = 0;
};

struct Step {
  std::string label;
  SyncMark sync = SyncMark::kBarrier;
  uint32_t line = 0;
  std::vector<Message> messages;
  std::vector<AxisRange> ranges;

  void clear() {
    label.clear();
    sync = SyncMark::kBarrier;
    line = 0;
    messages.clear();
    ranges.clear();
  }
  const AxisRange* box(const Message& m, uint32_t k, int arity) const {
    return ranges.data() + m.first_range + static_cast<size_t>(k) * arity;
  }
};

struct ScheduleHeader {
  int version = 1;
  std::string algorithm = "custom";
  Collective collective = Collective::kAlltoall;
  std::vector<int> dims;
  bool wrap = true;
  PortModel ports = PortModel::kOne;
  Switching switching = Switching::kWormhole;
  int pieces = 1;         // broadcast and allgather
  NodeId root = 0;        // broadcast
  int64_t steps = -1;     // declared step count (-1: unknown while streaming)
  std::string source;     // paper or generator note, free text
};

class ScheduleSink {
 public:
  virtual ~ScheduleSink() = default;
  virtual void begin(const ScheduleHeader& header) = 0;
  virtual void step(const Step& step) = 0;
  virtual void end() = 0;
};

// Builds messages into a Step while checking what a generator may get wrong. Generators use it to
// avoid hand-managing range offsets.
class StepBuilder {
 public:
  StepBuilder(const BlockSpace& space, Step& step) : space_(&space), step_(&step) {}
  // Starts a message; subsequent add_box() calls attach to it.
  Message& message(NodeId src, NodeId dst, const Route& route, uint8_t priority = 0);
  void add_box(const AxisRange* box);
  void add_box(std::initializer_list<AxisRange> box);
  // Adds explicit block ids (sorted or not, unique) to the current message, compressed into boxes.
  void add_blocks(std::vector<BlockId> ids);

 private:
  const BlockSpace* space_;
  Step* step_;
};

// The whole schedule in memory (the cycle model needs it whole to program the nodes).
class Schedule : public ScheduleSink {
 public:
  ScheduleHeader header;
  std::vector<Step> steps;

  void begin(const ScheduleHeader& h) override { header = h; steps.clear(); }
  void step(const Step& s) override { steps.push_back(s); }
  void end() override { header.steps = static_cast<int64_t>(steps.size()); }
  // Feeds the schedule into another sink.
  void replay(ScheduleSink& sink) const;
};

// Forwards to several sinks (e.g. the step model and the file writer at once).
class TeeSink : public ScheduleSink {
 public:
  explicit TeeSink(std::vector<ScheduleSink*> sinks) : sinks_(std::move(sinks)) {}
  void begin(const ScheduleHeader& h) override { for (auto* s : sinks_) s->begin(h); }
  void step(const Step& st) override { for (auto* s : sinks_) s->step(st); }
  void end() override { for (auto* s : sinks_) s->end(); }

 private:
  std::vector<ScheduleSink*> sinks_;
};

uint64_t message_blocks(const BlockSpace& space, const Step& step, const Message& m);

}  // namespace torx::sw
