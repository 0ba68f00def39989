// SPDX-License-Identifier: Apache-2.0
#include "models/host_interface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/check.hpp"

namespace torx::model {

HostMessage& HostTraffic::add(HostMessage m) {
  auto [it, fresh] = table_.emplace(m.id, std::move(m));
  TORX_MODEL_CHECK(fresh, "a host message id is in flight twice");
  return it->second;
}

HostMessage* HostTraffic::find(uint32_t id) {
  auto it = table_.find(id);
  return it == table_.end() ? nullptr : &it->second;
}

void HostTraffic::delivered(uint32_t id, sw::NodeId node, uint64_t now, std::vector<uint8_t>&& got) {
  auto it = table_.find(id);
  TORX_MODEL_CHECK(it != table_.end(), "a host message was delivered that is not in flight");
  HostMessage& m = it->second;
  if (m.dst != node)
    throw std::logic_error(fmt::format("internal error: message {} for node {} was delivered to node {}", id, m.dst, node));
  HostDelivery d;
  d.id = id;
  d.src = m.src;
  d.dst = m.dst;
  d.priority = m.priority;
  d.posted = m.posted;
  d.issued = m.issued;
  d.head = m.head;
  d.delivered = now;
  got.resize(m.bytes.size());  // the last flit's padding
  d.intact = got == m.bytes;
  if (!d.intact) ++corrupted_;
  d.bytes = std::move(got);
  table_.erase(it);
  if (deliver_) deliver_(std::move(d));
}

HostInterface::HostInterface(const HostInterfaceConfig& cfg, HostTraffic* traffic, NetworkCounters* counters,
                             Scheduler* sched)
    : cfg_(cfg), traffic_(traffic), counters_(counters), sched_(sched) {
  TORX_MODEL_CHECK(cfg.flit_bytes >= 1 && cfg.flit_bytes <= kMaxFlitBytes, "flit width out of range");
  const int k = cfg.priority_levels;
  TORX_MODEL_CHECK(k >= 1 && k <= 16, "priority levels out of range");
  credits_q_ = cfg.injection_depth;
  ej_regs_.resize(static_cast<size_t>(k));
  ej_ram_.resize(static_cast<size_t>(k) * static_cast<size_t>(cfg.ejection_depth));
  ej_.resize(static_cast<size_t>(k));
  ej_buf_.configure(ej_regs_.data(), ej_ram_.data(), 1, cfg.ejection_depth, kMaxFlitWords, 0, k);
}

void HostInterface::connect_ejection(int, Link* link) {
  ej_link_ = link;
  link->attach(ej_buf_.sink(clock_id(), nullptr));
}

void HostInterface::start() { note_finished(0); }

void HostInterface::note_finished(int lane) {
  if (!counted_finished_ && finished()) {
    counted_finished_ = true;
    ++counters_[lane].endpoints_finished;
  }
}

void HostInterface::post(uint32_t id) {
  queue_.push_back(id);
  pending_ = true;
  if (counted_finished_) {  // it has work again: the network is not done
    counted_finished_ = false;
    --counters_[0].endpoints_finished;
  }
  sched_->wake(0, clock_id());
}

bool HostInterface::busy() const {
  if (pending_) return true;
  return state_q_ == ChState::kStreaming && credits_q_ > 0;
}

std::string HostInterface::describe() const {
  return fmt::format("node {}: host interface, {} messages queued{}", cfg_.node, queue_.size(),
                     state_q_ == ChState::kIdle ? ""
                     : state_q_ == ChState::kStartup
                         ? fmt::format(", message {} in its startup", cur_->id)
                         : fmt::format(", message {} at flit {} of {} ({} credits)", cur_->id, next_flit_, cur_->flits,
                                       credits_q_));
}

void HostInterface::receive(uint64_t now, Reassembly& r, const Flit& f) {
  if (f.head()) {
    if (r.busy)
      throw std::logic_error(fmt::format("internal error: node {}: head of message {} arrived inside message {}",
                                         cfg_.node, f.msg, r.msg));
    const HostMessage* m = traffic_->find(f.msg);
    if (!m) throw std::logic_error(fmt::format("internal error: node {}: message {} is not in flight", cfg_.node, f.msg));
    r.busy = true;
    r.msg = f.msg;
    r.next_seq = 0;
    r.flits = m->flits;
    r.bytes.clear();
    r.bytes.reserve(static_cast<size_t>(m->flits) * cfg_.flit_bytes);
  }
  if (!r.busy || f.msg != r.msg || f.seq != r.next_seq)
    throw std::logic_error(fmt::format("internal error: node {}: flit {} of message {} arrived, expected flit {} of "
                                       "message {} (wormhole order broken)",
                                       cfg_.node, f.seq, f.msg, r.next_seq, r.msg));
  ++r.next_seq;
  const uint8_t* in = reinterpret_cast<const uint8_t*>(f.payload);
  r.bytes.insert(r.bytes.end(), in, in + cfg_.flit_bytes);
  if (!f.tail()) return;
  if (r.next_seq != r.flits)
    throw std::logic_error(fmt::format("internal error: node {}: message {} ended after {} of {} flits", cfg_.node,
                                       r.msg, r.next_seq, r.flits));
  r.busy = false;
  traffic_->delivered(r.msg, cfg_.node, now, std::move(r.bytes));
  r.bytes = {};
}

void HostInterface::evaluate(uint64_t now, int lane) {
  // 1. Ejection: one flit per lane and cycle, its credit returned at once.
  for (int q = 0; q < ej_buf_.lanes(); ++q) {
    if (ej_buf_.vc(q).count() == 0) continue;
    const Flit& f = ej_buf_.front(q);
    if (f.due > now) continue;
    receive(now, ej_[static_cast<size_t>(q)], f);
    ej_buf_.pop(q);
    ej_link_->send_credit(now, lane, Credit{0});
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_ejected;
  }
  // 2. Credits from the router's injection buffer, usable in this cycle.
  if (Link::credit_bits(credit_mask_)) {
    while (inj_link_->credit_ready(now)) {
      inj_link_->take_credit();
      ++credit_delta_;
    }
  }
  // 3. Issue: the channel is free (its last tail left in an earlier cycle).
  if (pending_) {
    pending_ = false;
    if (state_q_ == ChState::kIdle && state_d_ == ChState::kIdle && !queue_.empty()) {
      cur_ = traffic_->find(queue_.front());
      TORX_MODEL_CHECK(cur_ != nullptr, "a queued host message is not in flight");
      queue_.pop_front();
      state_d_ = ChState::kStartup;
      next_flit_ = 0;
      cur_->issued = now;
      head_cycle_ = now + cfg_.ts_cycles;
      if (cfg_.ts_cycles > 0) sched_->wake_at(lane, clock_id(), head_cycle_);
    }
  }
  // 4. Injection: startup elapsed -> head; then one flit per cycle with a credit.
  if (state_d_ != ChState::kIdle) {
    bool go = true;
    if (state_d_ == ChState::kStartup) {
      if (now < head_cycle_) go = false;
      else state_d_ = ChState::kStreaming;
    }
    const uint8_t level = cur_->priority;
    if (go && credits_q_ + credit_delta_ <= (cfg_.priority_levels - 1 - level) * cfg_.priority_reserve) go = false;
    if (go) {
      const bool tail = next_flit_ + 1 == cur_->flits;
      const HostMessage& m = *cur_;
      uint16_t& slot = tail_slot_[level];
      inj_link_->send_flit_with(now, lane, 0, level, slot, [&](Flit& f) {
        f.msg = m.id;
        f.seq = next_flit_;
        f.kind = static_cast<uint8_t>((next_flit_ == 0 ? kFlitHead : 0) | (tail ? kFlitTail : 0));
        f.dest = m.dst;
        f.start_dim = m.route.start_dim;
        f.neg_mask = m.route.neg_mask;
        f.priority = level;
        uint8_t* out = reinterpret_cast<uint8_t*>(f.payload);
        const size_t off = static_cast<size_t>(next_flit_) * cfg_.flit_bytes;
        const size_t n = off < m.bytes.size() ? std::min<size_t>(cfg_.flit_bytes, m.bytes.size() - off) : 0;
        if (n) std::memcpy(out, m.bytes.data() + off, n);
        if (n < cfg_.flit_bytes) std::memset(out + n, 0, cfg_.flit_bytes - n);
      });
      if (next_flit_ == 0) cur_->head = now;
      slot = inj_link_->next_slot(slot);
      --credit_delta_;
      ++next_flit_;
      ++counters_[lane].flit_moves;
      ++counters_[lane].flits_injected;
      if (tail) {
        state_d_ = ChState::kIdle;
        traffic_->sent(*cur_, now);
        cur_ = nullptr;
        pending_ = !queue_.empty();  // the next message may be issued from the next cycle on
      }
    }
  }
  note_finished(lane);
}

void HostInterface::update(uint64_t, int) {
  state_q_ = state_d_;
  credits_q_ += credit_delta_;
  credit_delta_ = 0;
  TORX_MODEL_CHECK(credits_q_ >= 0 && credits_q_ <= cfg_.injection_depth, "injection credit counter out of range");
}

}  // namespace torx::model
