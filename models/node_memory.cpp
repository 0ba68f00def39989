// SPDX-License-Identifier: Apache-2.0
#include "models/node_memory.hpp"

#include "core/errors.hpp"
#include "models/arena.hpp"

#include <algorithm>

namespace torx::model {

NodeMemory::NodeMemory(const sw::BlockSpace& space, uint32_t block_bytes, uint64_t seed)
    : space_(&space),
      content_(seed, space.collective()),
      moves_(sw::moves_blocks(space.collective())),
      block_bytes_(block_bytes),
      stride_((block_bytes + 7) / 8 * 8),
      nodes_(static_cast<size_t>(space.topology().nodes())) {
  const uint64_t u = space.universe();
  allocate(moves_ ? u : u * nodes_);
  if (moves_) {
    owner_.assign(u, kNoOwner);
    for (sw::BlockId b = 0; b < u; ++b) {
      if (!space.exists(b)) continue;
      owner_[b] = static_cast<uint32_t>(space.source(b));
      fill(slot(b, 0), b);
    }
  } else {
    for (sw::BlockId b = 0; b < u; ++b) {
      const sw::NodeId s = space.source(b);
      fill(slot(b, s), b);
      state_[index(b, s)] = kHeld;
    }
  }
}

NodeMemory::NodeMemory(const sw::BlockSpace& space, uint32_t block_bytes, uint64_t seed, std::vector<uint8_t> owned,
                       BlockSubset needed)
    : space_(&space),
      content_(seed, space.collective()),
      moves_(sw::moves_blocks(space.collective())),
      block_bytes_(block_bytes),
      stride_((block_bytes + 7) / 8 * 8),
      nodes_(0),
      part_(true),
      owned_(std::move(owned)) {
  const uint64_t u = space.universe();
  TORX_CHECK(owned_.size() == static_cast<size_t>(space.topology().nodes()), "a part of another network");
  if (moves_) {
    needed_ = std::move(needed);
    const uint64_t slots = needed_.size();
    TORX_CHECK(slots < kNoSlot, "more than 4 G blocks on one rank");
    pool_capacity_ = static_cast<uint32_t>(slots);
    // Not initialized: the pages are touched as slots are first used.
    pool_.reset(new uint8_t[std::max<uint64_t>(slots, 1) * stride_]);
    pool_owner_.reset(new uint32_t[std::max<uint64_t>(slots, 1)]);
    pool_flags_.reset(new uint8_t[std::max<uint64_t>(slots, 1)]);
    block_slot_.assign(slots, kNoSlot);
    state_.assign(slots, 0);  // arrivals at the destination, per member
    for (sw::BlockId b = 0; b < u; ++b) {
      if (!space.exists(b)) continue;
      const sw::NodeId s = space.source(b);
      if (!owned_[static_cast<size_t>(s)]) continue;
      TORX_CHECK(needed_.contains(b), "an owned node's block not among the rank's");
      const uint32_t i = take_slot(b);
      pool_owner_[i] = static_cast<uint32_t>(s);
      fill(pool_slot(i), b);
    }
  } else {
    node_slot_.assign(owned_.size(), kNoSlot);
    for (size_t v = 0; v < owned_.size(); ++v)
      if (owned_[v]) node_slot_[v] = static_cast<uint32_t>(nodes_++);
    allocate(u * nodes_);
    for (sw::BlockId b = 0; b < u; ++b) {
      const sw::NodeId s = space.source(b);
      if (!owned_[static_cast<size_t>(s)]) continue;
      fill(slot(b, s), b);
      state_[index(b, s)] = kHeld;
    }
  }
}

uint32_t NodeMemory::take_slot(sw::BlockId b) {
  uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    TORX_CHECK(pool_next_ < pool_capacity_, "a block arrived that the rank's part did not reserve");
    i = pool_next_++;
  }
  TORX_CHECK(needed_.contains(b), "a block arrived that the rank's part did not reserve");
  block_slot_[needed_.rank(b)] = i;
  pool_flags_[i] = 0;
  std::memset(pool_slot(i), kPoison, stride_);
  return i;
}

uint32_t NodeMemory::receiving(sw::BlockId b) {
  uint32_t i = lookup(b);
  if (i == kNoSlot) {
    i = take_slot(b);
    pool_owner_[i] = kInFlight;
  }
  pool_flags_[i] |= kReceiving;
  return i;
}

void NodeMemory::give_back(sw::BlockId b) {
  const uint32_t i = lookup(b);
  TORX_CHECK(i != kNoSlot, "a block left a memory that did not hold it");
  pool_flags_[i] &= static_cast<uint8_t>(~kSending);
  // Still arriving at (or already stored by) a node of this rank: the slot stays.
  if (pool_flags_[i] != 0 || pool_owner_[i] != kInFlight) return;
  block_slot_[needed_.rank(b)] = kNoSlot;
  free_.push_back(i);
}

void NodeMemory::allocate(size_t slots) {
  // Large and touched at random: ask for huge pages before the first touch (arena.hpp).
  arena_.reserve(slots * stride_);
  Arena::advise_huge(arena_.data(), slots * stride_);
  arena_.assign(slots * stride_, kPoison);
  state_.assign(slots, 0);
}

std::vector<sw::BlockId> NodeMemory::unresolved() const {
  std::vector<sw::BlockId> out;
  if (!part_ || !moves_) return out;
  for (sw::BlockId b = 0; b < space_->universe(); ++b) {
    if (!space_->exists(b)) continue;
    const sw::NodeId t = space_->destination(b);
    if (!owned_[static_cast<size_t>(t)]) continue;
    const uint32_t i = lookup(b);
    if (i == kNoSlot || pool_owner_[i] != static_cast<uint32_t>(t)) out.push_back(b);
  }
  return out;
}

uint32_t NodeMemory::owner_answer(sw::BlockId b) const {
  const uint32_t i = lookup(b);
  if (i == kNoSlot) return kNoOwner;
  const uint32_t o = pool_owner_[i];
  return o < kInFlight && owned_[o] ? o : kInFlight;
}

void NodeMemory::resolve(const std::vector<sw::BlockId>& blocks, const std::vector<uint32_t>& holders) {
  TORX_CHECK(blocks.size() == holders.size(), "holders for other blocks");
  for (size_t k = 0; k < blocks.size(); ++k) resolved_[blocks[k]] = holders[k];
}

void NodeMemory::fill(uint8_t* dst, sw::BlockId b) const {
  uint32_t done = 0;
  for (uint32_t i = 0; done < block_bytes_; ++i) {
    const uint64_t w = content_.word(b, i);
    uint8_t bytes[8];
    for (int k = 0; k < 8; ++k) bytes[k] = static_cast<uint8_t>(w >> (8 * k));
    const uint32_t n = std::min<uint32_t>(8, block_bytes_ - done);
    std::memcpy(dst + done, bytes, n);
    done += n;
  }
}

void NodeMemory::stored(sw::BlockId b, sw::NodeId v) {
  if (pool_) {
    const uint32_t i = lookup(b);
    TORX_CHECK(i != kNoSlot, "a block stored without a slot");
    pool_owner_[i] = static_cast<uint32_t>(v);
    pool_flags_[i] &= static_cast<uint8_t>(~kReceiving);
    uint8_t& a = state_[needed_.rank(b)];
    if (space_->destination(b) == v && (a & kArrivals) != kArrivals) ++a;
    return;
  }
  if (moves_) {
    owner_[b] = static_cast<uint32_t>(v);
    if (space_->destination(b) == v && (state_[b] & kArrivals) != kArrivals) ++state_[b];
    return;
  }
  uint8_t& s = state_[index(b, v)];
  if ((s & kArrivals) != kArrivals) ++s;
  s |= kHeld;
}

sw::NodeId NodeMemory::holder(sw::BlockId b) const {
  if (!moves_) return space_->source(b);
  uint32_t o = kNoOwner;
  if (!part_) {
    o = owner_[b];
  } else if (const auto it = resolved_.find(b); it != resolved_.end()) {
    o = it->second;
  } else if (const uint32_t i = lookup(b); i != kNoSlot) {
    o = pool_owner_[i];
  }
  return o >= kInFlight ? -1 : static_cast<sw::NodeId>(o);
}

bool NodeMemory::holds(sw::BlockId b, sw::NodeId node) const { return holds_now(b, node); }

uint32_t NodeMemory::arrivals(sw::BlockId b, sw::NodeId node) const {
  if (moves_) {
    if (space_->destination(b) != node) return 0;
    if (!pool_) return state_[b] & kArrivals;
    return needed_.contains(b) ? state_[needed_.rank(b)] & kArrivals : 0;
  }
  return state_[index(b, node)] & kArrivals;
}

bool NodeMemory::intact(sw::BlockId b, sw::NodeId node) const {
  // Regenerate the content the block's identity prescribes and compare byte for byte.
  scratch_.resize(block_bytes_);
  fill(scratch_.data(), b);
  return std::memcmp(scratch_.data(), slot(b, node), block_bytes_) == 0;
}

}  // namespace torx::model
