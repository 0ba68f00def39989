// SPDX-License-Identifier: Apache-2.0
#include "core/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/checked.hpp"

namespace torx::sw {

PortModel parse_port_model(std::string_view text) {
  if (const std::optional<PortModel> p = value_named(kPortModels, text)) return *p;
  throw InputError(fmt::format("port model '{}' is unknown ({})", text, join_names(kPortModels, ", ", " or ")));
}

std::string_view switching_name(Switching s) {
  return s == Switching::kWormhole ? "wormhole" : "store-and-forward";
}

Switching parse_switching(std::string_view text) {
  if (text == "wormhole") return Switching::kWormhole;
  if (text == "store-and-forward") return Switching::kStoreAndForward;
  throw InputError(fmt::format("switching '{}' is unknown (wormhole or store-and-forward)", text));
}

Message& StepBuilder::message(NodeId src, NodeId dst, const Route& route, uint8_t priority) {
  Message m;
  m.src = src;
  m.dst = dst;
  m.route = route;
  m.priority = priority;
  m.first_range = static_cast<uint32_t>(step_->ranges.size());
  step_->messages.push_back(m);
  return step_->messages.back();
}

void StepBuilder::add_box(const AxisRange* box) {
  TORX_CHECK(!step_->messages.empty(), "add_box before message");
  Message& m = step_->messages.back();
  TORX_CHECK(m.first_range + size_t{m.box_count} * space_->arity() == step_->ranges.size(),
             "boxes of a message must be added contiguously");
  step_->ranges.insert(step_->ranges.end(), box, box + space_->arity());
  ++m.box_count;
}

void StepBuilder::add_box(std::initializer_list<AxisRange> box) {
  TORX_CHECK(static_cast<int>(box.size()) == space_->arity(), "box arity");
  add_box(box.begin());
}

void StepBuilder::add_blocks(std::vector<BlockId> ids) {
  std::sort(ids.begin(), ids.end());
  std::vector<AxisRange> boxes;
  space_->compress(ids, boxes);
  const int n = space_->arity();
  for (size_t k = 0; k < boxes.size(); k += n) add_box(&boxes[k]);
}

void Schedule::replay(ScheduleSink& sink) const {
  sink.begin(header);
  for (const Step& s : steps) sink.step(s);
  sink.end();
}

uint64_t message_blocks(const BlockSpace& space, const Step& step, const Message& m) {
  // Disjoint boxes (the reader refuses overlapping ones) hold at most the universe; only boxes
  // that overlap many times over could wrap the sum.
  uint64_t total = 0;
  for (uint32_t k = 0; k < m.box_count; ++k) {
    const auto sum = checked_add(total, space.box_size(step.box(m, k, space.arity())));
    if (!sum)
      throw InputError(fmt::format("message {} -> {}: its boxes hold more than 2^64 blocks (they overlap)",
                                   space.topology().node_name(m.src), space.topology().node_name(m.dst)));
    total = *sum;
  }
  return total;
}

}  // namespace torx::sw
