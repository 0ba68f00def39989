// SPDX-License-Identifier: Apache-2.0
#include "models/program.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/sync_plan.hpp"

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
  nodes_ = n;
  const bool barriers = opt.sync == sw::SyncMode::kBarrier;
  const bool software = opt.sync == sw::SyncMode::kSoftware;
  const uint64_t fb = opt.cost.flit_bytes;
  for (uint32_t k = 0; k < schedule.steps.size(); ++k) {
    const sw::Step& step = schedule.steps[k];
    if (k > 0 && step.sync == sw::SyncMark::kBarrier) {
      if (barriers) barrier_steps_.push_back(k);
      if (software) software_barrier_steps_.push_back(k);
    }
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
  // Priority levels (docs/priority.md, property 6): the distinct priorities used, highest first, get
  // levels K-1, K-2, ...; with more of them than levels, the i-th highest of n gets
  // K - 1 - floor(i K / n), so an earlier phase never gets a lower level than a later one.
  if (opt.sync == sw::SyncMode::kPriority) {
    std::vector<uint8_t> used;
    for (uint32_t id = 0; id < msgs_.size(); ++id) used.push_back(schedule_message(id).priority);
    std::sort(used.begin(), used.end(), std::greater<>());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    priorities_used_ = static_cast<uint32_t>(used.size());
    const int k = opt.priority_levels;
    const int64_t n = static_cast<int64_t>(used.size());
    std::vector<uint8_t> level_of(256, 0);
    for (int64_t i = 0; i < n; ++i)
      level_of[used[static_cast<size_t>(i)]] =
          static_cast<uint8_t>(n <= k ? k - 1 - i : k - 1 - (i * k) / n);
    for (uint32_t id = 0; id < msgs_.size(); ++id) msgs_[id].level = level_of[schedule_message(id).priority];
  }
  plan_signals(schedule, topo);
}

SignalRecord Program::make_signal(const sw::Topology& topo, sw::NodeId src, sw::NodeId dst) const {
  SignalRecord r;
  r.src = src;
  r.dst = dst;
  // Null messages start in the dimension the schedule's worms start in, so that they need no VC order
  // classes the schedule does not (routing_table.hpp).
  int start = 0;
  for (const MessageRecord& m : msgs_) {
    const sw::Message& sm = schedule_->steps[m.step].messages[m.index];
    int dims = 0;
    for (int d = 0; d < topo.ndims(); ++d) dims += topo.coord_of(m.src, d) != topo.coord_of(m.dst, d);
    if (dims >= 2) {
      start = sm.route.start_dim;
      break;
    }
  }
  r.route = topo.shortest_route(src, dst, start);
  int first = -1, hops = 0;
  topo.for_each_link(src, dst, r.route, [&](sw::LinkId l) {
    if (first < 0) first = topo.link_port(l);
    ++hops;
  });
  r.hops = static_cast<uint16_t>(hops);
  r.channel = opt_.ports == sw::PortModel::kAll && first >= 0 ? static_cast<uint8_t>(first) : 0;
  return r;
}

void Program::plan_signals(const sw::Schedule& schedule, const sw::Topology& topo) {
  const sw::NodeId n = topo.nodes();
  std::vector<std::vector<uint32_t>> gates(msgs_.size());
  if (opt_.sync == sw::SyncMode::kLocal) {
    const sw::LocalSyncPlan plan = sw::derive_local_sync(schedule, topo, opt_.ports);
    // Message ids are assigned in step order, then schedule order: a MessageRef's id.
    std::vector<uint32_t> first_id(schedule.steps.size() + 1, 0);
    for (size_t k = 0; k < schedule.steps.size(); ++k)
      first_id[k + 1] = first_id[k] + static_cast<uint32_t>(schedule.steps[k].messages.size());
    for (const sw::SyncSignal& sg : plan.signals) {
      SignalRecord r = make_signal(topo, sg.from, sg.to);
      r.trigger_step = sg.boundary;
      r.gate_step = sg.gate.step;
      gates[first_id[sg.gate.step] + sg.gate.index].push_back(static_cast<uint32_t>(signals_.size()));
      signals_.push_back(r);
    }
    local_wait_.assign(msgs_.size(), 0);
    for (const sw::LocalWait& w : plan.local_waits) {
      uint32_t& lw = local_wait_[first_id[w.gate.step] + w.gate.index];
      lw = std::max(lw, w.boundary);
    }
    local_waits_ = static_cast<uint32_t>(plan.local_waits.size());
  }
  sw_base_ = static_cast<uint32_t>(signals_.size());
  if (opt_.sync == sw::SyncMode::kSoftware && n > 1) {
    while ((sw::NodeId{1} << sw_rounds_) < n) ++sw_rounds_;
    const uint64_t total = uint64_t{software_barrier_steps_.size()} * sw_rounds_ * static_cast<uint64_t>(n);
    TORX_CHECK(sw_base_ + total < 0xffffffffu - msgs_.size(), "too many null messages for 32-bit ids");
    for (uint32_t k = 0; k < software_barrier_steps_.size(); ++k)
      for (uint32_t r = 0; r < sw_rounds_; ++r)
        for (sw::NodeId i = 0; i < n; ++i) {
          SignalRecord rec = make_signal(topo, i, static_cast<sw::NodeId>((i + (sw::NodeId{1} << r)) % n));
          rec.trigger_step = rec.gate_step = software_barrier_steps_[k];
          signals_.push_back(rec);
        }
  }
  TORX_CHECK(uint64_t{msgs_.size()} + signals_.size() < 0xffffffffu, "too many messages and null messages");
  // Rows: outgoing local signals by node (trigger order), incoming signals by node, gates by message.
  out_begin_.assign(static_cast<size_t>(n) + 1, 0);
  in_begin_.assign(static_cast<size_t>(n) + 1, 0);
  for (uint32_t s = 0; s < signals_.size(); ++s) {
    if (s < sw_base_) ++out_begin_[signals_[s].src + 1];
    ++in_begin_[signals_[s].dst + 1];
  }
  for (sw::NodeId v = 0; v < n; ++v) {
    out_begin_[v + 1] += out_begin_[v];
    in_begin_[v + 1] += in_begin_[v];
  }
  out_.resize(out_begin_[n]);
  in_.resize(in_begin_[n]);
  std::vector<uint32_t> of(out_begin_.begin(), out_begin_.end() - 1), inf(in_begin_.begin(), in_begin_.end() - 1);
  for (uint32_t s = 0; s < signals_.size(); ++s) {
    if (s < sw_base_) out_[of[signals_[s].src]++] = s;
    in_[inf[signals_[s].dst]++] = s;
  }
  for (sw::NodeId v = 0; v < n; ++v)
    std::stable_sort(out_.begin() + out_begin_[v], out_.begin() + out_begin_[v + 1],
                     [&](uint32_t a, uint32_t b) { return signals_[a].trigger_step < signals_[b].trigger_step; });
  gate_begin_.assign(msgs_.size() + 1, 0);
  for (size_t m = 0; m < msgs_.size(); ++m) gate_begin_[m + 1] = gate_begin_[m] + static_cast<uint32_t>(gates[m].size());
  gates_.reserve(gate_begin_.back());
  for (const auto& g : gates) gates_.insert(gates_.end(), g.begin(), g.end());
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
