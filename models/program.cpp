// SPDX-License-Identifier: Apache-2.0
#include "models/program.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace torx::model {

Program::Program(const sw::Schedule& schedule, const sw::Topology& topo, const sw::BlockSpace& space,
                 const ProgramOptions& opt)
    : schedule_(&schedule), space_(&space), opt_(opt) {
  const sw::NodeId n = topo.nodes();
  size_t total = 0;
  for (const sw::Step& s : schedule.steps) total += s.messages.size();
  TORX_CHECK(total < 0xffffffffu, "too many messages for 32-bit message ids");
  msgs_.reserve(total);
  send_begin_.assign(static_cast<size_t>(n) + 1, 0);
  recv_begin_.assign(static_cast<size_t>(n) + 1, 0);
  const bool barriers = opt.sync == sw::SyncMode::kBarrier;
  const uint64_t fb = opt.cost.flit_bytes;
  for (uint32_t k = 0; k < schedule.steps.size(); ++k) {
    const sw::Step& step = schedule.steps[k];
    if (k > 0 && barriers && step.sync == sw::SyncMark::kBarrier) barrier_steps_.push_back(k);
    for (uint32_t i = 0; i < step.messages.size(); ++i) {
      const sw::Message& m = step.messages[i];
      MessageRecord r;
      r.step = k;
      r.index = i;
      r.src = m.src;
      r.dst = m.dst;
      const uint64_t bytes = sw::message_blocks(space, step, m) * uint64_t{opt.cost.block_bytes};
      const uint64_t flits = std::max<uint64_t>(1, (bytes + fb - 1) / fb);
      TORX_CHECK(flits < 0xffffffffu, "message too long for 32-bit flit counters");
      r.flits = static_cast<uint32_t>(flits);
      int first_port = -1;
      int hops = 0;
      topo.for_each_link(m.src, m.dst, m.route, [&](sw::LinkId l) {
        if (first_port < 0) first_port = topo.link_port(l);
        ++hops;
      });
      r.hops = static_cast<uint16_t>(hops);
      r.channel = opt.ports == sw::PortModel::kAll && first_port >= 0 ? static_cast<uint8_t>(first_port) : 0;
      msgs_.push_back(r);
      ++send_begin_[m.src + 1];
      ++recv_begin_[m.dst + 1];
    }
  }
  for (sw::NodeId v = 0; v < n; ++v) {
    send_begin_[v + 1] += send_begin_[v];
    recv_begin_[v + 1] += recv_begin_[v];
  }
  sends_.resize(total);
  recvs_.resize(total);
  recv_steps_.resize(total);
  std::vector<uint32_t> sfill(send_begin_.begin(), send_begin_.end() - 1);
  std::vector<uint32_t> rfill(recv_begin_.begin(), recv_begin_.end() - 1);
  for (uint32_t id = 0; id < msgs_.size(); ++id) {
    const MessageRecord& r = msgs_[id];
    sends_[sfill[r.src]++] = id;  // step order, then schedule order: the program order
    recv_steps_[rfill[r.dst]] = r.step;  // ascending
    recvs_[rfill[r.dst]++] = id;
  }
}

uint32_t Program::receives_before(sw::NodeId v, uint32_t k) const {
  const uint32_t* b = recv_steps_.data() + recv_begin_[v];
  const uint32_t* e = recv_steps_.data() + recv_begin_[v + 1];
  return static_cast<uint32_t>(std::lower_bound(b, e, k) - b);
}

void Program::expand_blocks(uint32_t m, std::vector<sw::BlockId>& out) const {
  const MessageRecord& r = msgs_[m];
  const sw::Step& step = schedule_->steps[r.step];
  const sw::Message& msg = step.messages[r.index];
  const int arity = space_->arity();
  out.clear();
  out.reserve(sw::message_blocks(*space_, step, msg));
  for (uint32_t k = 0; k < msg.box_count; ++k)
    space_->for_each_block(step.box(msg, k, arity), [&out](sw::BlockId b) { out.push_back(b); });
}

}  // namespace torx::model
