// SPDX-License-Identifier: Apache-2.0
#include "models/check.hpp"
#include "models/network_interface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace torx::model {

namespace {
// Byte copies of payload pieces: the common sizes inline (a library call per 16-byte piece would
// cost more than the copy).
inline void copy_bytes(uint8_t* dst, const uint8_t* src, uint32_t n) {
  switch (n) {
    case 8: std::memcpy(dst, src, 8); return;
    case 16: std::memcpy(dst, src, 16); return;
    case 32: std::memcpy(dst, src, 32); return;
    default: std::memcpy(dst, src, n);
  }
}
inline void fill_bytes(uint8_t* dst, uint8_t v, uint32_t n) {
  switch (n) {
    case 8: std::memset(dst, v, 8); return;
    case 16: std::memset(dst, v, 16); return;
    case 32: std::memset(dst, v, 32); return;
    default: std::memset(dst, v, n);
  }
}
}  // namespace

NetworkInterface::NetworkInterface(const NiConfig& cfg, const Program& program, NodeMemory* memory, RunStats* stats,
                                   NetworkCounters* counters, Scheduler* sched)
    : cfg_(cfg), prog_(program), mem_(memory), stats_(stats), counters_(counters), sched_(sched) {
  TORX_MODEL_CHECK(cfg.cost.flit_bytes >= 1 && cfg.cost.flit_bytes <= kMaxFlitBytes, "flit width out of range");
  const int k = cfg.priority_levels;
  TORX_MODEL_CHECK(k >= 1 && k <= 16, "priority levels out of range");
  inj_.resize(static_cast<size_t>(cfg.channels));
  ej_.resize(static_cast<size_t>(cfg.channels) * k);
  for (InjectionChannel& c : inj_) c.credits_q = cfg.injection_depth;
  ej_buf_.resize(static_cast<size_t>(cfg.channels));
  ej_regs_.resize(ej_.size());
  ej_ram_.resize(ej_.size() * static_cast<size_t>(cfg.ejection_depth));
  for (size_t c = 0; c < ej_buf_.size(); ++c)
    ej_buf_[c].configure(&ej_regs_[c * k], &ej_ram_[c * k * cfg.ejection_depth], 1, cfg.ejection_depth, kMaxFlitWords,
                         0, k);
  next_send_ = prog_.sends_begin(cfg.node);
  sends_end_ = prog_.sends_end(cfg.node);
  recv_done_.assign(prog_.receives(cfg.node), 0);
  next_out_ = prog_.outgoing_begin(cfg.node);
  out_end_ = prog_.outgoing_end(cfg.node);
  signal_arrived_.assign(static_cast<size_t>(prog_.incoming_end(cfg.node) - prog_.incoming_begin(cfg.node)), 0);
}

bool NetworkInterface::signal_arrived(uint32_t s) const {
  const uint32_t* b = prog_.incoming_begin(cfg_.node);
  const uint32_t* e = prog_.incoming_end(cfg_.node);
  const uint32_t* it = std::lower_bound(b, e, s);
  TORX_MODEL_CHECK(it != e && *it == s, "a node waits for a signal not addressed to it");
  return signal_arrived_[static_cast<size_t>(it - b)];
}

void NetworkInterface::start() {
  dirty_ = true;
  note_finished(0);
}

bool NetworkInterface::busy() const {
  // Arriving flits, credits and barrier pulses wake the interface when they become visible; it
  // stays awake while its program may advance or a channel can send.
  if (dirty_) return true;
  for (const InjectionChannel& c : inj_)
    if (c.state_q == ChState::kStreaming && c.credits_q > 0) return true;
  return false;
}

bool NetworkInterface::issued(uint32_t m) const {
  const uint32_t* b = prog_.sends_begin(cfg_.node);
  const uint32_t* it = std::lower_bound(b, sends_end_, m);
  return it != sends_end_ && *it == m && it < next_send_;
}

bool NetworkInterface::stored(uint32_t m) const {
  const uint32_t* b = prog_.receives_begin(cfg_.node);
  const uint32_t* e = prog_.receives_end(cfg_.node);
  const uint32_t* it = std::lower_bound(b, e, m);
  return it != e && *it == m && recv_done_[static_cast<size_t>(it - b)];
}

uint32_t NetworkInterface::flits_left(uint32_t m) const {
  for (const InjectionChannel& c : inj_)
    if (c.state_q != ChState::kIdle && c.msg == m) return prog_.message(m).flits - c.next_flit;
  return 0;
}

void NetworkInterface::evaluate(uint64_t now, int lane) {
  // 1. Ejection: store what arrives (at most one flit per channel and cycle, in the lane of its
  // level), return the slot's credit at once.
  for (size_t c = 0; c < ej_buf_.size(); ++c) {
    InputUnit& buf = ej_buf_[c];
    for (int q = 0; q < buf.lanes(); ++q) {
      if (buf.vc(q).count() == 0) continue;
      const Flit& f = buf.front(q);
      if (f.due > now) continue;
      EjectionChannel& e = ej_[c * buf.lanes() + q];
      eject(now, e, f);
      buf.pop(q);
      e.link->send_credit(now, lane, Credit{0});
      ++counters_[lane].flit_moves;
      ++counters_[lane].flits_ejected;
    }
  }
  // 2. Credits from the router's injection buffers, usable in this cycle.
  for (uint64_t m = Link::credit_bits(credit_mask_); m; m &= m - 1) {
    InjectionChannel& c = inj_[__builtin_ctzll(m)];
    Link* l = c.link;
    while (l->credit_ready(now)) {
      l->take_credit();
      ++c.credit_delta;
    }
  }
  // 3. Barrier release, then the program.
  if (release_in_.take(now)) {
    TORX_MODEL_CHECK(in_barrier_, "barrier release without entry");
    in_barrier_ = false;
    ++next_barrier_;
    wait_over(now);
    dirty_ = true;
  }
  if (dirty_) run_program(now, lane);
  // 4. Injection: startup elapsed -> head; then one flit per cycle with a credit.
  for (InjectionChannel& c : inj_) {
    if (c.state_d == ChState::kIdle) continue;
    if (c.state_d == ChState::kStartup) {
      if (now < c.head_cycle) continue;
      c.state_d = ChState::kStreaming;
    }
    const uint8_t level = c.null ? 0 : prog_.message(c.msg).level;
    if (c.credits_q + c.credit_delta <= (cfg_.priority_levels - 1 - level) * cfg_.priority_reserve) {
      ++stats_->injection_stall_cycles;  // no credit above the throttle's reserve for its level
      continue;
    }
    uint16_t& slot = c.tail_slot[level];
    if (c.null) {
      // A null message: one flit, no payload, its signal id after the message ids.
      const SignalRecord& sg = prog_.signal(c.msg - prog_.messages());
      c.link->send_flit_with(now, lane, 0, 0, slot, [&](Flit& f) {
        f.msg = c.msg;
        f.seq = 0;
        f.kind = kFlitHead | kFlitTail;
        f.dest = sg.dst;
        f.start_dim = sg.route.start_dim;
        f.neg_mask = sg.route.neg_mask;
        f.priority = 0;
        std::memset(f.payload, 0, sizeof(f.payload));
      });
      slot = c.link->next_slot(slot);
      --c.credit_delta;
      ++counters_[lane].flit_moves;
      ++counters_[lane].flits_injected;
      c.state_d = ChState::kIdle;
      c.null = false;
      dirty_ = true;
      continue;
    }
    const MessageRecord& r = prog_.message(c.msg);
    const bool tail = c.next_flit + 1 == r.flits;
    c.link->send_flit_with(now, lane, 0, level, slot, [&](Flit& f) { pack(c, r, tail, f); });
    slot = c.link->next_slot(slot);
    --c.credit_delta;
    ++c.next_flit;
    ++counters_[lane].flit_moves;
    ++counters_[lane].flits_injected;
    if (tail) {
      TORX_MODEL_CHECK(c.block == c.blocks.size(), "packetizer did not consume every block of the message");
      c.state_d = ChState::kIdle;
      --sends_open_;
      dirty_ = true;  // the program may enter a barrier or issue on this channel next cycle
    }
  }
  note_finished(lane);
}

void NetworkInterface::prefetch(int stage) const {
  if (stage == 1) {
    __builtin_prefetch(this);
    __builtin_prefetch(inj_.data());
    __builtin_prefetch(ej_.data());
    __builtin_prefetch(ej_regs_.data());
    return;
  }
  if (stage == 2) {
    for (size_t c = 0; c < ej_buf_.size(); ++c)
      for (int q = 0; q < ej_buf_[c].lanes(); ++q)
        if (ej_buf_[c].vc(q).count() != 0) __builtin_prefetch(&ej_buf_[c].front(q));
    for (const InjectionChannel& c : inj_)
      if (c.state_q != ChState::kIdle) c.link->prefetch_flit_path();
    return;
  }
  // Stage 3: the router's injection buffer slot the next flit goes into, and the node-memory bytes
  // pack() reads and eject() writes next (node memory is far larger than the caches and is visited
  // at random; fetching these just before the evaluation, rather than blocks ahead, keeps them from
  // being evicted before use on large networks).
  for (const InjectionChannel& c : inj_)
    if (c.state_q != ChState::kIdle) {
      if (c.state_q == ChState::kStreaming && !c.null) {
        const uint8_t q = prog_.message(c.msg).level;
        c.link->prefetch_sink(0, c.tail_slot[q], q);
      }
      if (c.src) __builtin_prefetch(c.src + c.offset, 1);
    }
  for (const EjectionChannel& e : ej_)
    if (e.busy) mem_->prefetch(e.cur, cfg_.node, true, e.offset);  // (after the last block: a harmless hint)
}

void NetworkInterface::update(uint64_t, int) {
  for (InjectionChannel& c : inj_) {
    c.state_q = c.state_d;
    c.credits_q += c.credit_delta;
    c.credit_delta = 0;
    TORX_MODEL_CHECK(c.credits_q >= 0 && c.credits_q <= cfg_.injection_depth, "injection credit counter out of range");
  }
}

void NetworkInterface::pack(InjectionChannel& c, const MessageRecord& r, bool tail, Flit& f) {
  f.msg = c.msg;
  f.seq = c.next_flit;
  f.kind = static_cast<uint8_t>((c.next_flit == 0 ? kFlitHead : 0) | (tail ? kFlitTail : 0));
  if (c.next_flit == 0) {
    const sw::Message& sm = prog_.schedule_message(c.msg);
    f.dest = r.dst;
    f.start_dim = sm.route.start_dim;
    f.neg_mask = sm.route.neg_mask;
  }
  f.priority = r.level;  // every flit: routers keep the levels' lanes apart
  uint8_t* out = reinterpret_cast<uint8_t*>(f.payload);
  const uint32_t fb = cfg_.cost.flit_bytes, bb = cfg_.cost.block_bytes;
  uint32_t filled = 0;
  const std::vector<sw::BlockId>& blocks = c.blocks;
  while (filled < fb && c.block < blocks.size()) {
    uint8_t* src = c.src;  // the slot of blocks[c.block]
    const uint32_t n = std::min(fb - filled, bb - c.offset);
    copy_bytes(out + filled, src + c.offset, n);
    // Fault injection: bit 0 of the block becomes the opposite of what its identity prescribes
    // (sticky, unlike a flip: a block corrupted twice stays corrupted).
    if (c.corrupt && c.offset == 0)
      out[filled] = static_cast<uint8_t>((out[filled] & ~1u) | (~mem_->pristine_byte0(blocks[c.block]) & 1u));
    if (mem_->moves()) fill_bytes(src + c.offset, NodeMemory::kPoison, n);  // the bytes left this memory
    filled += n;
    c.offset += n;
    if (c.offset == bb) {
      if (mem_->moves()) mem_->release(blocks[c.block]);  // (a rank's part: its slot may go back)
      c.offset = 0;
      ++c.block;
      c.src = c.block < blocks.size() ? mem_->slot(blocks[c.block], cfg_.node) : nullptr;
    }
  }
  if (filled < fb) std::memset(out + filled, 0, fb - filled);
}

void NetworkInterface::eject(uint64_t now, EjectionChannel& e, const Flit& f) {
  if (f.msg >= prog_.messages()) {
    // A null message: it carries only its arrival.
    if (!f.head() || !f.tail() || e.busy)
      throw std::logic_error(fmt::format("internal error: node {}: null message {} arrived out of order", cfg_.node,
                                         f.msg - prog_.messages()));
    const uint32_t s = f.msg - prog_.messages();
    TORX_MODEL_CHECK(s < prog_.signals() && prog_.signal(s).dst == cfg_.node, "a null message reached the wrong node");
    const uint32_t* b = prog_.incoming_begin(cfg_.node);
    const uint32_t* it = std::lower_bound(b, prog_.incoming_end(cfg_.node), s);
    uint8_t& got = signal_arrived_[static_cast<size_t>(it - b)];
    TORX_MODEL_CHECK(!got, "a null message arrived twice");
    got = 1;
    dirty_ = true;
    return;
  }
  if (f.head()) {
    if (e.busy)
      throw std::logic_error(fmt::format("internal error: node {}: head of message {} arrived inside message {}",
                                         cfg_.node, f.msg, e.msg));
    TORX_MODEL_CHECK(f.msg < prog_.messages(), "arriving flit names no message");
    const MessageRecord& r = prog_.message(f.msg);
    if (r.dst != cfg_.node)
      throw std::logic_error(fmt::format("internal error: message {} for node {} was delivered to node {}", f.msg,
                                         r.dst, cfg_.node));
    e.busy = true;
    e.msg = f.msg;
    e.next_seq = 0;
    prog_.expand_blocks(f.msg, e.blocks);
    e.block = 0;
    e.offset = 0;
    if (!e.blocks.empty()) e.cur = e.blocks.front();
  }
  if (!e.busy || f.msg != e.msg || f.seq != e.next_seq)
    throw std::logic_error(fmt::format("internal error: node {}: flit {} of message {} arrived, expected flit {} of "
                                       "message {} (wormhole order broken)",
                                       cfg_.node, f.seq, f.msg, e.next_seq, e.msg));
  ++e.next_seq;
  const uint8_t* in = reinterpret_cast<const uint8_t*>(f.payload);
  const uint32_t fb = cfg_.cost.flit_bytes, bb = cfg_.cost.block_bytes;
  uint32_t used = 0;
  const std::vector<sw::BlockId>& blocks = e.blocks;
  while (used < fb && e.block < blocks.size()) {
    const sw::BlockId b = e.cur;  // blocks[e.block]
    if (e.offset == 0) e.discard = !mem_->moves() && mem_->holds_now(b, cfg_.node);
    const uint32_t n = std::min(fb - used, bb - e.offset);
    if (!e.discard) copy_bytes(mem_->slot_to_write(b, cfg_.node) + e.offset, in + used, n);
    used += n;
    e.offset += n;
    if (e.offset == bb) {
      mem_->stored(b, cfg_.node);
      stats_->last_store = std::max(stats_->last_store, now + 1);
      e.offset = 0;
      ++e.block;
      if (e.block < blocks.size()) e.cur = blocks[e.block];
    }
  }
  if (!f.tail()) return;
  const MessageRecord& r = prog_.message(e.msg);
  if (e.block != blocks.size() || e.next_seq != r.flits)
    throw std::logic_error(fmt::format("internal error: node {}: message {} ended after {} of {} flits", cfg_.node,
                                       e.msg, e.next_seq, r.flits));
  const uint32_t* rb = prog_.receives_begin(cfg_.node);
  const uint32_t* it = std::lower_bound(rb, prog_.receives_end(cfg_.node), e.msg);
  TORX_MODEL_CHECK(it != prog_.receives_end(cfg_.node) && *it == e.msg, "a node stored a message it does not receive");
  uint8_t& done = recv_done_[static_cast<size_t>(it - rb)];
  TORX_MODEL_CHECK(!done, "a message was stored twice");
  done = 1;
  while (first_unstored_ < recv_done_.size() && recv_done_[first_unstored_]) ++first_unstored_;
  stats_->last_store = std::max(stats_->last_store, now + 1);
  stats_->step_end[r.step] = std::max(stats_->step_end[r.step], now + 1);
  --stats_->step_open[r.step];
  ++stats_->messages_done;
  e.busy = false;
  ++received_;
  dirty_ = true;
}

bool NetworkInterface::holds_all(uint32_t m) {
  if (next_blocks_msg_ != m) {
    prog_.expand_blocks(m, next_blocks_);
    next_blocks_msg_ = m;
    check_pos_ = 0;
  }
  while (check_pos_ < next_blocks_.size() && mem_->holds_now(next_blocks_[check_pos_], cfg_.node)) ++check_pos_;
  return check_pos_ == next_blocks_.size();
}

void NetworkInterface::issue(uint64_t now, int lane, uint32_t m) {
  const MessageRecord& r = prog_.message(m);
  InjectionChannel& c = inj_[r.channel];
  c.state_d = ChState::kStartup;
  c.msg = m;
  c.next_flit = 0;
  c.head_cycle = now + cfg_.cost.ts_cycles;
  TORX_MODEL_CHECK(next_blocks_msg_ == m, "issue without the holdings check");
  c.blocks.swap(next_blocks_);
  next_blocks_msg_ = 0xffffffffu;
  c.block = 0;
  c.offset = 0;
  c.src = c.blocks.empty() ? nullptr : mem_->slot(c.blocks.front(), cfg_.node);
  c.corrupt = prog_.schedule_message(m).flags & sw::kFaultCorrupt;
  if (mem_->moves())
    for (sw::BlockId b : c.blocks) mem_->take(b);
  ++sends_open_;
  stats_->step_first_issue[r.step] = std::min(stats_->step_first_issue[r.step], now);
  if (cfg_.cost.ts_cycles > 0) sched_->wake_at(lane, clock_id(), c.head_cycle);
}

void NetworkInterface::send_signals(uint64_t now, int lane) {
  for (size_t i = 0; i < ready_signals_.size();) {
    const uint32_t sid = ready_signals_[i];
    const SignalRecord& sg = prog_.signal(sid);
    InjectionChannel& c = inj_[sg.channel];
    if (c.state_q != ChState::kIdle || c.state_d != ChState::kIdle) {
      ++i;
      continue;
    }
    c.state_d = ChState::kStartup;
    c.null = true;
    c.msg = prog_.messages() + sid;
    c.next_flit = 0;
    c.head_cycle = now + cfg_.null_ts;
    ++sync_.null_messages;
    sync_.null_flit_hops += sg.hops;
    if (cfg_.null_ts > 0) sched_->wake_at(lane, clock_id(), c.head_cycle);
    ready_signals_.erase(ready_signals_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void NetworkInterface::run_program(uint64_t now, int lane) {
  dirty_ = false;
  // Local signals whose receives are all stored go out first, ahead of the program's sends (they
  // depend only on receives, so sending them can never wait for this node's own program).
  while (next_out_ != out_end_ && stored_before(prog_.signal(*next_out_).trigger_step)) queue_signal(*next_out_++);
  send_signals(now, lane);
  const std::vector<uint32_t>& barriers = prog_.barrier_steps();
  const std::vector<uint32_t>& sw_barriers = prog_.software_barrier_steps();
  while (true) {
    const uint32_t next_step = next_send_ != sends_end_ ? prog_.message(*next_send_).step : kNoStep;
    // A barrier at step kb gates every send of step >= kb.
    if (next_barrier_ < barriers.size()) {
      const uint32_t kb = barriers[next_barrier_];
      if (next_step >= kb) {
        if (in_barrier_) return;  // waiting for the release
        if (sends_open_ > 0 || !stored_before(kb)) return;
        in_barrier_ = true;
        ++stats_->barrier_entries;
        wait_from(now);
        barrier_entry_->send(now, lane);
        return;
      }
    }
    // A software barrier: ceil(log2 N) rounds; in round r this node signals node + 2^r and waits for
    // the signal of node - 2^r.
    if (next_sw_barrier_ < sw_barriers.size() && next_step >= sw_barriers[next_sw_barrier_]) {
      const uint32_t kb = sw_barriers[next_sw_barrier_];
      if (!in_sw_barrier_) {
        if (sends_open_ > 0 || !stored_before(kb)) return;
        in_sw_barrier_ = true;
        sw_round_ = 0;
        sw_round_sent_ = false;
        wait_from(now);
      }
      const sw::NodeId n = static_cast<sw::NodeId>(prog_.space().topology().nodes());
      while (sw_round_ < prog_.software_rounds()) {
        if (!sw_round_sent_) {
          queue_signal(prog_.software_signal(static_cast<uint32_t>(next_sw_barrier_), sw_round_, cfg_.node));
          sw_round_sent_ = true;
          send_signals(now, lane);
        }
        const sw::NodeId from = static_cast<sw::NodeId>((cfg_.node - (sw::NodeId{1} << sw_round_) % n + n) % n);
        if (!signal_arrived(prog_.software_signal(static_cast<uint32_t>(next_sw_barrier_), sw_round_, from))) return;
        ++sw_round_;
        sw_round_sent_ = false;
      }
      if (!ready_signals_.empty()) return;  // the last round's null message has not left yet
      in_sw_barrier_ = false;
      ++next_sw_barrier_;
      wait_over(now);
      continue;
    }
    if (next_send_ == sends_end_) return;
    const uint32_t m = *next_send_;
    const InjectionChannel& c = inj_[prog_.message(m).channel];
    if (c.state_q != ChState::kIdle || c.state_d != ChState::kIdle) return;  // in-order issue
    if (!holds_all(m)) return;  // woken again when a message is stored here
    // Local synchronization: the signals this send waits for, and this node's own receives.
    bool ready = stored_before(prog_.local_wait(m));
    for (const uint32_t* g = prog_.gates_begin(m); ready && g != prog_.gates_end(m); ++g) ready = signal_arrived(*g);
    if (!ready) {
      wait_from(now);
      return;  // woken when a null message arrives or a receive is stored
    }
    wait_over(now);
    issue(now, lane, m);
    ++next_send_;
    check_pos_ = 0;
  }
}

std::string NetworkInterface::describe() const {
  // Steps are indices from 0 inside the model and numbered from 1 in what a user reads (docs/cli.md,
  // "Step numbers"): hence the + 1 below.
  const std::vector<uint32_t>& barriers = prog_.barrier_steps();
  std::string s = fmt::format("node {}: ", cfg_.node);
  if (in_barrier_)
    return s + fmt::format("in the barrier before step {}, waiting for the release", barriers[next_barrier_] + 1);
  if (next_send_ == sends_end_) {
    if (next_barrier_ < barriers.size())
      return s + fmt::format("all sends issued ({} open); waiting to enter the barrier before step {} ({} of {} "
                             "receives stored)",
                             sends_open_, barriers[next_barrier_] + 1, received_,
                             prog_.receives_before(cfg_.node, barriers[next_barrier_]));
    return s + fmt::format("program complete ({} sends open, {} receives stored of {})", sends_open_, received_,
                           prog_.receives(cfg_.node));
  }
  const uint32_t m = *next_send_;
  const MessageRecord& r = prog_.message(m);
  if (next_barrier_ < barriers.size() && r.step >= barriers[next_barrier_])
    return s + fmt::format("waiting to enter the barrier before step {} ({} sends open, {} of {} receives stored)",
                           barriers[next_barrier_] + 1, sends_open_, received_,
                           prog_.receives_before(cfg_.node, barriers[next_barrier_]));
  return s + fmt::format("next send is message {} (step {}, to node {}); {} of {} blocks held", m, r.step + 1, r.dst,
                         next_blocks_msg_ == m ? check_pos_ : 0, prog_.message_blocks(m));
}

}  // namespace torx::model
