// SPDX-License-Identifier: Apache-2.0
#include "models/gossip_interface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "models/check.hpp"
#include "models/gossip_table.hpp"
#include "models/link.hpp"

namespace torx::model {

GossipInterface::GossipInterface(const GossipInterfaceConfig& cfg, const sw::ForwardingTable& table,
                                 const sw::Topology& topo, NodeMemory* memory, GossipTotals* totals,
                                 NetworkCounters* counters, Scheduler* sched)
    : cfg_(cfg), topo_(topo), mem_(memory), totals_(totals), counters_(counters), sched_(sched) {
  TORX_MODEL_CHECK(cfg.channels == topo.ports(), "gossip interfaces have one channel per direction");
  inj_.resize(static_cast<size_t>(cfg.channels));
  for (Channel& c : inj_) c.credits = cfg.injection_depth;
  // The prologue first, then the injection list, each on the channel of its first output port.
  for (const sw::PrologueMessage& p : table.prologue)
    if (p.src == cfg.node)
      for (uint64_t b : p.blocks) inj_[static_cast<size_t>(p.port)].queue.push_back({b, 1u << p.port, true});
  for (const sw::InjectionEntry& e : table.inject[static_cast<size_t>(cfg.node)]) {
    TORX_MODEL_CHECK(e.out_mask != 0, "an injection that leaves on no port");
    inj_[static_cast<size_t>(__builtin_ctz(e.out_mask))].queue.push_back({e.block, e.out_mask, false});
  }
  ej_.resize(static_cast<size_t>(cfg.channels));
  ej_buf_.resize(ej_.size());
  ej_regs_.resize(ej_.size());
  ej_ram_.resize(ej_.size() * static_cast<size_t>(cfg.ejection_depth));
  for (size_t c = 0; c < ej_.size(); ++c)
    ej_buf_[c].configure(&ej_regs_[c], &ej_ram_[c * cfg.ejection_depth], 1, cfg.ejection_depth, kMaxFlitWords);
}

void GossipInterface::start() {
  awake_ = true;
  if (finished() && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[0].endpoints_finished;
  }
}

bool GossipInterface::finished() const {
  if (stored_ < cfg_.expected) return false;
  for (const Channel& c : inj_)
    if (c.busy || c.next < c.queue.size()) return false;
  return true;
}

std::string GossipInterface::describe() const {
  size_t left = 0;
  for (const Channel& c : inj_) left += c.queue.size() - c.next;
  return fmt::format("node {}: gossip interface, {} packets still to inject, {} of {} packets stored", cfg_.node, left,
                     stored_, cfg_.expected);
}

void GossipInterface::evaluate(uint64_t now, int lane) {
  bool progress = false;
  // Ejection: one flit per channel and cycle into node memory; the credit goes back at once.
  const uint32_t fb = cfg_.cost.flit_bytes, bb = cfg_.cost.block_bytes;
  for (size_t c = 0; c < ej_.size(); ++c) {
    InputUnit& buf = ej_buf_[c];
    if (buf.vc(0).count() == 0 || buf.front(0).due > now) continue;
    const Flit& f = buf.front(0);
    Ejection& e = ej_[c];
    if (f.head()) {
      if (e.busy || !(f.kind & kFlitGossip))
        throw std::logic_error(fmt::format("internal error: node {}: gossip packet of block {} out of order", cfg_.node,
                                           f.msg));
      e.busy = true;
      e.block = f.msg;
      e.next_seq = 0;
    }
    if (!e.busy || f.msg != e.block || f.seq != e.next_seq)
      throw std::logic_error(fmt::format("internal error: node {}: flit {} of block {} arrived, expected flit {} of {}",
                                         cfg_.node, f.seq, f.msg, e.next_seq, e.block));
    const uint32_t off = f.seq * fb;
    if (off < bb) {
      if (!mem_->holds_now(e.block, cfg_.node))  // a second copy of a held block is counted, not stored
        std::memcpy(mem_->slot(e.block, cfg_.node) + off, f.payload, std::min(fb, bb - off));
    }
    ++e.next_seq;
    if (f.tail()) {
      TORX_MODEL_CHECK(e.next_seq == cfg_.packet_flits, "a gossip packet of the wrong length");
      mem_->stored(e.block, cfg_.node);
      e.busy = false;
      ++stored_;
      ++totals_->deliveries;
      totals_->last_store = std::max(totals_->last_store, now + 1);
    }
    buf.pop(0);
    e.link->send_credit(now, lane, Credit{0});
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_ejected;
    progress = true;
  }
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) {
    Channel& c = inj_[__builtin_ctzll(m)];
    while (c.link->credit_ready(now)) {
      c.link->take_credit();
      ++c.credits;
    }
  }
  // Injection: each channel sends its next packet once it holds the block (after t_s), one flit per
  // cycle while the router's injection buffer has credits.
  for (Channel& c : inj_) {
    if (!c.busy) {
      if (c.next == c.queue.size() || !mem_->holds_now(c.queue[c.next].block, cfg_.node)) continue;
      c.busy = true;
      c.next_flit = 0;
      c.head_cycle = now + cfg_.cost.ts_cycles;
      ++totals_->host_sends;
      if (cfg_.cost.ts_cycles > 0) sched_->wake_at(lane, clock_id(), c.head_cycle);
    }
    if (now < c.head_cycle || c.credits <= 0) continue;
    const Send& s = c.queue[c.next];
    const bool head = c.next_flit == 0, tail = c.next_flit + 1 == cfg_.packet_flits;
    const uint8_t* src = mem_->slot(s.block, cfg_.node);
    c.link->send_flit_with(now, lane, 0, 0, c.tail_slot, [&](Flit& f) {
      f.msg = static_cast<uint32_t>(s.block);
      f.seq = c.next_flit;
      f.kind = static_cast<uint8_t>(kFlitGossip | (head ? kFlitHead : 0) | (tail ? kFlitTail : 0));
      f.dest = 0;            // age: no link crossed yet
      f.neg_mask = s.mask;   // where the router copies it
      f.start_dim = s.prologue ? kGossipPrologue : 0;
      f.priority = 0;
      std::memset(f.payload, 0, sizeof(f.payload));
      const uint32_t off = c.next_flit * fb;
      if (off < bb) std::memcpy(f.payload, src + off, std::min(fb, bb - off));
    });
    c.tail_slot = c.link->next_slot(c.tail_slot);
    --c.credits;
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_injected;
    progress = true;
    if (tail) {
      c.busy = false;
      ++c.next;
    } else {
      ++c.next_flit;
    }
  }
  const bool done = finished();
  if (done && !counted_finished_) {
    counted_finished_ = true;
    ++counters_[lane].endpoints_finished;
  }
  // Awake while a channel streams or may start; stored packets and credits wake it otherwise.
  awake_ = false;
  for (const Channel& c : inj_)
    awake_ |= (c.busy && now + 1 >= c.head_cycle && c.credits > 0) ||
              (!c.busy && c.next < c.queue.size() && mem_->holds_now(c.queue[c.next].block, cfg_.node) && progress);
  (void)progress;
}

}  // namespace torx::model
