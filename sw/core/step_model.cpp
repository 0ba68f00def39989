// SPDX-License-Identifier: Apache-2.0
#include "core/step_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "core/checked.hpp"
#include "core/memory_limit.hpp"

namespace torx::sw {

namespace {
constexpr uint32_t kOwnerMask = 0x00ffffffu;
constexpr uint32_t kNoOwner = kOwnerMask;
constexpr uint32_t kStampShift = 24;
constexpr uint32_t kStampMask = 0x7fu;
constexpr uint32_t kWordCorrupt = 0x80000000u;
constexpr uint8_t kMoveArrivals = 0xff;
constexpr uint8_t kCopyHeld = 0x80;
constexpr uint8_t kCopyCorrupt = 0x40;
constexpr uint8_t kCopyArrivals = 0x3f;
__extension__ using Uint128 = unsigned __int128;
}  // namespace

StepModel::StepModel(const Topology& topo, StepModelOptions options) : topo_(topo), opt_(std::move(options)) {
  if (opt_.cost.block_bytes == 0) throw InputError("a block must have at least 1 byte");
  if (opt_.cost.flit_bytes == 0) throw InputError("a flit must have at least 1 byte");
}

StepModel::~StepModel() = default;

void StepModel::begin(const ScheduleHeader& header) {
  header_ = header;
  const Topology file_topo(header.dims, header.wrap);
  if (file_topo != topo_)
    throw InputError(fmt::format("{}: the schedule is for the {} but the run is on the {}", opt_.origin,
                                 file_topo.to_string(), topo_.to_string()));
  ports_ = opt_.ports.value_or(header.ports);
  space_ = std::make_unique<BlockSpace>(header.collective, topo_, header.pieces, header.root);
  const uint64_t n = static_cast<uint64_t>(topo_.nodes());
  result_ = StepModelResult{};
  step_index_ = 0;
  phase_ = 3;
  msg_ = box_ = ordinal_ = 0;
  {
    // Part p of P: the ids [p u / P, (p + 1) u / P), without overflow.
    const uint64_t u = space_->universe(), parts = std::max<uint32_t>(opt_.track_parts, 1);
    const uint64_t p = std::min<uint64_t>(opt_.track_part, parts - 1);
    lo_ = u / parts * p + std::min(p, u % parts);
    hi_ = u / parts * (p + 1) + std::min(p + 1, u % parts);
  }
  const uint64_t tracked = hi_ - lo_;
  // Memory, estimated before anything is allocated: per-link use counters and per-node port
  // counters always (a 16-dimensional network of 2^24 nodes has 2^29 links), and when every block
  // is tracked 5 bytes per block (personalized collectives) or one byte per (block, node) (copy
  // collectives). An estimate beyond 2^63 bytes is not a limit of this machine but an impossible
  // request (bad input); one beyond the memory available (or StepModelOptions::memory_limit_bytes)
  // is a limit (exit 3), said up front rather than being killed half-way.
  const uint64_t network = static_cast<uint64_t>(topo_.link_count()) * sizeof(uint32_t) + n * 2 * sizeof(uint16_t);
  uint64_t blocks = 0;
  if (opt_.track_blocks) {
    if (moves_blocks(header.collective) && n >= kNoOwner)
      throw WatchdogError(fmt::format("limit: the step model tracks complete exchanges on fewer than {} nodes", kNoOwner));
    const auto need = moves_blocks(header.collective) ? checked_mul(tracked, 5) : checked_mul(tracked, n);
    if (!need || *need > std::numeric_limits<size_t>::max() / 2)
      throw InputError(fmt::format("{}: the step model cannot track this {} on the {}{}: {} blocks{} need more than 2^63 "
                                   "bytes (torx stats counts steps and conflicts without tracking blocks)",
                                   opt_.origin, collective_name(header.collective), topo_.to_string(),
                                   moves_blocks(header.collective) ? "" : fmt::format(" with pieces {}", header.pieces),
                                   space_->universe(),
                                   moves_blocks(header.collective) ? "" : fmt::format(" at {} nodes each", n)));
    blocks = *need;
  }
  const uint64_t limit = opt_.memory_limit_bytes ? opt_.memory_limit_bytes : available_memory_bytes();
  if (limit && network + blocks > limit)
    throw WatchdogError(fmt::format("limit: the step model needs {} for this {} on the {} ({}link counters {}), {} {}",
                                    format_bytes(network + blocks), collective_name(header.collective),
                                    topo_.to_string(),
                                    blocks ? fmt::format("{} blocks tracked, ", space_->universe()) : std::string(),
                                    format_bytes(network), format_bytes(limit),
                                    opt_.memory_limit_bytes ? "is the limit (--max-memory SIZE sets it)" : "are available"));
  link_uses_.assign(static_cast<size_t>(topo_.link_count()), 0);
  sends_.assign(n, 0);
  recvs_.assign(n, 0);
  if (!opt_.track_blocks) return;
  if (moves_blocks(header.collective)) {
    // Block s * N + t: from s to t (none for s == t).
    // Every word written once ((s, t) stepped along with b, no division per block; the fresh pages
    // are not filled first: on 32x32x32 that was another pass over 4 GiB).
    word_.assign(tracked, 0);
    for (uint64_t b = lo_, src = lo_ / n, t = lo_ % n; b < hi_; ++b) {
      word_[b - lo_] = src != t ? static_cast<uint32_t>(src) : kNoOwner;
      if (++t == n) {
        t = 0;
        ++src;
      }
    }
    state_.assign(tracked, 0);
    stamp_ = 0;
  } else {
    state_.assign(tracked * n, 0);
    for (BlockId b = lo_; b < hi_; ++b) state_[(b - lo_) * n + space_->source(b)] = kCopyHeld;
  }
}

uint64_t step_model_bytes(const Topology& topo, Collective collective, int pieces, NodeId root, bool track_blocks,
                          uint64_t share) {
  const uint64_t n = static_cast<uint64_t>(topo.nodes());
  const auto links = checked_mul(static_cast<uint64_t>(topo.link_count()), sizeof(uint32_t));
  const auto step = checked_mul(n * static_cast<uint64_t>(topo.ports()), sizeof(Message) + sizeof(AxisRange));
  if (!links || !step) return UINT64_MAX;
  uint64_t total = *links + n * 2 * sizeof(uint16_t) + *step;
  if (track_blocks) {
    const BlockSpace space(collective, topo, pieces, root);
    const uint64_t tracked = space.universe() / std::max<uint64_t>(share, 1) + (share > 1);
    const auto blocks = moves_blocks(collective) ? checked_mul(tracked, 5) : checked_mul(tracked, n);
    const auto sum = blocks ? checked_add(total, *blocks) : std::nullopt;
    if (!sum) return UINT64_MAX;
    total = *sum;
  }
  return total;
}

std::string StepModel::where(const Step& step) const {
  return step.line ? fmt::format("{}:{}", opt_.origin, step.line) : opt_.origin;
}

uint64_t StepModel::sum_or_fail(const Step& step, uint64_t a, uint64_t b, const char* what) const {
  const auto sum = checked_add(a, b);
  if (!sum)
    throw InputError(fmt::format("{}: step {}: the {} exceed 2^64 (--ts {}, --block-bytes {}, --flit-bytes {})", where(step),
                                 step_index_, what, opt_.cost.ts_cycles, opt_.cost.block_bytes, opt_.cost.flit_bytes));
  return *sum;
}

void StepModel::note(std::string example) {
  if (result_.conflict_examples.size() < opt_.max_examples) result_.conflict_examples.push_back(std::move(example));
}

void StepModel::fail(const Step& step, const Message& m, const std::string& what) const {
  if (m.line)
    throw InputError(fmt::format("{}:{}: {}", opt_.origin, m.line, what));
  throw InputError(fmt::format("{}: step {}{}, message {} -> {}: {}", opt_.origin, step_index_,
                               step.label.empty() ? "" : " (" + step.label + ")", topo_.node_name(m.src),
                               topo_.node_name(m.dst), what));
}

void StepModel::count_conflicts(const Step& step, StepRecord& rec) {
  // Ports.
  if (ports_ == PortModel::kOne) {
    for (const Message& m : step.messages) {
      if (sends_[m.src]++ == 0) touched_nodes_.push_back(m.src);
      if (recvs_[m.dst]++ == 0) touched_nodes_.push_back(m.dst);
    }
    for (NodeId v : touched_nodes_) {
      if (sends_[v] > 1) {
        rec.port_conflicts += sends_[v] - 1;
        note(fmt::format("step {}: node {} sends {} messages (one-port allows one)", step_index_, topo_.node_name(v), sends_[v]));
      }
      if (recvs_[v] > 1) {
        rec.port_conflicts += recvs_[v] - 1;
        note(fmt::format("step {}: node {} receives {} messages (one-port allows one)", step_index_, topo_.node_name(v), recvs_[v]));
      }
      sends_[v] = recvs_[v] = 0;
    }
    touched_nodes_.clear();
  } else {
    // All-port: at most one message leaves on each outgoing link.
    for (const Message& m : step.messages) {
      LinkId first = -1;
      topo_.for_each_link(m.src, m.dst, m.route, [&](LinkId l) {
        if (first < 0) first = l;
      });
      if (first < 0) continue;
      if (link_uses_[first]++ == 0) touched_links_.push_back(first);
    }
    for (LinkId l : touched_links_) {
      if (link_uses_[l] > 1) {
        rec.port_conflicts += link_uses_[l] - 1;
        note(fmt::format("step {}: {} messages leave node {} on port {} (all-port allows one per link)", step_index_,
                         link_uses_[l], topo_.node_name(topo_.link_source(l)), Topology::port_name(topo_.link_port(l))));
      }
      link_uses_[l] = 0;
    }
    touched_links_.clear();
  }
  // Links.
  const bool saf = header_.switching == Switching::kStoreAndForward;
  for (const Message& m : step.messages) {
    int hops = 0;
    topo_.for_each_link(m.src, m.dst, m.route, [&](LinkId l) {
      ++hops;
      if (link_uses_[l]++ == 0) touched_links_.push_back(l);
    });
    if (saf && hops != 1) {
      ++rec.link_conflicts;
      note(fmt::format("step {}: store-and-forward message {} -> {} spans {} hops (neighbours only)", step_index_,
                       topo_.node_name(m.src), topo_.node_name(m.dst), hops));
    }
  }
  for (LinkId l : touched_links_) {
    if (link_uses_[l] > 1) {
      rec.link_conflicts += link_uses_[l] - 1;
      note(fmt::format("step {}: link {} carries {} messages", step_index_, topo_.link_name(l), link_uses_[l]));
    }
    link_uses_[l] = 0;
  }
  touched_links_.clear();
}

void StepModel::move_blocks(const Step& step) {
  const int arity = space_->arity();
  const uint64_t n = static_cast<uint64_t>(topo_.nodes());
  if (++stamp_ > kStampMask) {
    // A new epoch: forget the old stamps so that none can be mistaken for this step's.
    for (uint32_t& w : word_) w &= ~(kStampMask << kStampShift);
    stamp_ = 1;
  }
  const uint32_t stamp_bits = stamp_ << kStampShift;
  const bool all = lo_ == 0 && hi_ == space_->universe();
  // A block id's destination is b % n. With fewer than 2^32 ids (every network of up to 65,536
  // nodes) it is found without a division (Lemire, Kaser and Kurz, "Faster remainder by direct
  // computation", 2019: exact for every 32-bit b and n): the division was a third of the step
  // model's time on c64.
  const bool narrow = hi_ <= uint64_t{UINT32_MAX};
  const uint64_t n_inverse = UINT64_MAX / n + 1;  // (wraps to 0 for n = 1, which the formula allows)
  msg_ = 0;
  for (const Message& m : step.messages) {
    const uint32_t src = static_cast<uint32_t>(m.src);
    const uint32_t dst_word = static_cast<uint32_t>(m.dst) | stamp_bits | (m.flags & kFaultCorrupt ? kWordCorrupt : 0);
    const auto move = [&](BlockId b, bool arrives) __attribute__((always_inline)) {
      uint32_t& w = word_[b - lo_];
      const uint32_t owner = w & kOwnerMask;
      const bool moved_now = ((w >> kStampShift) & kStampMask) == stamp_;
      if (owner != src || moved_now) {
        if (owner == kNoOwner)
          fail(step, m, fmt::format("block {} does not exist: a node's block to itself is not part of a complete exchange",
                                    space_->block_name(b)));
        if (moved_now && owner == src)
          fail(step, m, fmt::format("node {} sends block {} which it receives only in this step {} (a block can "
                                    "be forwarded from the next step on)",
                                    topo_.node_name(m.src), space_->block_name(b), step_index_));
        if (moved_now)
          fail(step, m, fmt::format("block {} is carried twice in step {}, or forwarded in the step it arrives "
                                    "(now at node {})",
                                    space_->block_name(b), step_index_, topo_.node_name(static_cast<NodeId>(owner))));
        fail(step, m, fmt::format("node {} sends block {} which it does not hold at the start of step {} (node {} holds it)",
                                  topo_.node_name(m.src), space_->block_name(b), step_index_,
                                  topo_.node_name(static_cast<NodeId>(owner))));
      }
      w = dst_word | (w & kWordCorrupt);
      if (arrives && state_[b - lo_] != kMoveArrivals) ++state_[b - lo_];
    };
    const auto arrives = [&](BlockId b) {
      if (narrow) {
        const uint64_t low = n_inverse * static_cast<uint32_t>(b);
        return static_cast<uint64_t>((static_cast<Uint128>(low) * n) >> 64) == static_cast<uint64_t>(m.dst);
      }
      return b % n == static_cast<uint64_t>(m.dst);
    };
    for (uint32_t k = 0; k < m.box_count; ++k) {
      box_ = k;
      ordinal_ = 0;
      if (!all) {
        // A partitioned run's share: blocks in enumeration order, counted for failure_position().
        space_->for_each_block(step.box(m, k, arity), [&](BlockId b) {
          ++ordinal_;
          if (b < lo_ || b >= hi_) return;
          move(b, arrives(b));
        });
        continue;
      }
      // Every block tracked (the large runs): the words are read in the blocks' order, which jumps
      // by whole rows of the block space, so each read is a cache miss (on 32x32x32 the words are
      // 4 GiB). The ids go through a ring of kAhead entries: a block's word (and, if it arrives,
      // its arrival counter) is prefetched kAhead blocks before it is moved, so that the misses
      // overlap. Blocks are still moved one by one in enumeration order: the checks and the
      // failures are those of the plain loop.
      constexpr uint32_t kAhead = 16;
      BlockId ring[kAhead];
      bool ring_arrives[kAhead];
      uint32_t filled = 0, at = 0;
      space_->for_each_block(step.box(m, k, arity), [&](BlockId b) {
        const bool a = arrives(b);
        __builtin_prefetch(&word_[b], 1);
        if (a) __builtin_prefetch(&state_[b], 1);
        if (filled == kAhead) move(ring[at], ring_arrives[at]);
        else ++filled;
        ring[at] = b;
        ring_arrives[at] = a;
        at = at + 1 == kAhead ? 0 : at + 1;
      });
      // The last blocks, oldest first.
      for (uint32_t i = 0, j = filled == kAhead ? at : 0; i < filled; ++i, j = j + 1 == kAhead ? 0 : j + 1)
        move(ring[j], ring_arrives[j]);
    }
    ++msg_;
  }
}

void StepModel::copy_blocks(const Step& step) {
  const int arity = space_->arity();
  const uint64_t n = static_cast<uint64_t>(topo_.nodes());
  const bool all = lo_ == 0 && hi_ == space_->universe();
  msg_ = 0;
  for (const Message& m : step.messages) {
    for (uint32_t k = 0; k < m.box_count; ++k) {
      box_ = k;
      ordinal_ = 0;
      space_->for_each_block(step.box(m, k, arity), [&](BlockId b) {
        if (!all) {
          ++ordinal_;
          if (b < lo_ || b >= hi_) return;
        }
        if (!(state_[(b - lo_) * n + m.src] & kCopyHeld))
          fail(step, m, fmt::format("node {} sends {} which it does not hold at the start of step {}",
                                    topo_.node_name(m.src), space_->block_name(b), step_index_));
      });
    }
    ++msg_;
  }
  // Receivers mark new copies in a second pass so that nothing received in this step is forwarded
  // in this step. A copy stays corrupted once corrupted.
  for (const Message& m : step.messages) {
    const bool corrupt = m.flags & kFaultCorrupt;
    for (uint32_t k = 0; k < m.box_count; ++k) {
      space_->for_each_block(step.box(m, k, arity), [&](BlockId b) {
        if (b < lo_ || b >= hi_) return;
        const uint8_t from = state_[(b - lo_) * n + m.src];
        uint8_t& to = state_[(b - lo_) * n + m.dst];
        if ((to & kCopyArrivals) != kCopyArrivals) ++to;
        if (!(to & kCopyHeld)) {
          to |= kCopyHeld;
          if (corrupt || (from & kCopyCorrupt)) to |= kCopyCorrupt;
        }
      });
    }
  }
}

void StepModel::step(const Step& step) {
  ++step_index_;
  phase_ = 0;
  msg_ = box_ = ordinal_ = 0;
  StepRecord rec;
  rec.label = step.label;
  rec.messages = static_cast<uint32_t>(step.messages.size());
  for (const Message& m : step.messages) {
    if (!topo_.valid(m.src) || !topo_.valid(m.dst) || m.src == m.dst)
      fail(step, m, "message endpoints must be two different nodes of the network");
    if (topo_.route_hops(m.src, m.dst, m.route) < 0)
      fail(step, m, fmt::format("route {} is not possible on the {}", topo_.route_string(m.route), topo_.to_string()));
    uint64_t blocks = 0;
    try {
      blocks = message_blocks(*space_, step, m);
    } catch (const InputError& e) {
      fail(step, m, e.what());
    }
    rec.max_blocks = std::max(rec.max_blocks, blocks);
    result_.block_transfers = sum_or_fail(step, result_.block_transfers, blocks, "block transfers");
    ++msg_;
  }
  count_conflicts(step, rec);
  if (opt_.track_blocks) {
    phase_ = 1;
    if (moves_blocks(header_.collective)) move_blocks(step);
    else copy_blocks(step);
  }
  phase_ = 2;
  msg_ = box_ = ordinal_ = 0;
  if (!step.messages.empty()) {
    const auto bytes = checked_mul(rec.max_blocks, opt_.cost.block_bytes);
    if (!bytes)
      throw InputError(fmt::format("{}: step {}: its largest message, {} blocks of {} bytes, is more than 2^64 bytes",
                                   where(step), step_index_, rec.max_blocks, opt_.cost.block_bytes));
    const uint64_t flits = *bytes / opt_.cost.flit_bytes + (*bytes % opt_.cost.flit_bytes != 0);
    rec.cycles = sum_or_fail(step, opt_.cost.ts_cycles, flits, "cycles (t_s + flits)");
  }
  result_.steps += 1;
  result_.messages += rec.messages;
  result_.transmission_blocks = sum_or_fail(step, result_.transmission_blocks, rec.max_blocks, "transmission blocks");
  result_.port_conflicts += rec.port_conflicts;
  result_.link_conflicts += rec.link_conflicts;
  result_.step_model_cycles = sum_or_fail(step, result_.step_model_cycles, rec.cycles, "step model cycles");
  result_.per_step.push_back(std::move(rec));
  phase_ = 3;
}

void StepModel::end() {}

NodeId StepModel::holder(BlockId b) const {
  if (moves_blocks(header_.collective)) {
    const uint32_t owner = word_[b - lo_] & kOwnerMask;
    return owner == kNoOwner ? -1 : static_cast<NodeId>(owner);
  }
  return space_->source(b);
}

bool StepModel::holds(BlockId b, NodeId node) const {
  if (moves_blocks(header_.collective)) return (word_[b - lo_] & kOwnerMask) == static_cast<uint32_t>(node);
  return state_[(b - lo_) * static_cast<uint64_t>(topo_.nodes()) + node] & kCopyHeld;
}

uint32_t StepModel::arrivals(BlockId b, NodeId node) const {
  if (moves_blocks(header_.collective)) return space_->destination(b) == node ? (state_[b - lo_] & kMoveArrivals) : 0;
  return state_[(b - lo_) * static_cast<uint64_t>(topo_.nodes()) + node] & kCopyArrivals;
}

bool StepModel::intact(BlockId b, NodeId node) const {
  // The step model carries blocks by identity; content changes only through injected faults.
  if (moves_blocks(header_.collective)) return !(word_[b - lo_] & kWordCorrupt);
  return !(state_[(b - lo_) * static_cast<uint64_t>(topo_.nodes()) + node] & kCopyCorrupt);
}

}  // namespace torx::sw
