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
    part_moves_ = true;
    needed_ = std::move(needed);
    const uint64_t members = needed_.size();
    part_owner_.assign(members, kNoOwner);
    part_flags_.assign(members, 0);
    state_.assign(members, 0);  // arrivals at the destination, per member
    for (sw::BlockId b = 0; b < u; ++b) {
      if (!space.exists(b)) continue;
      const sw::NodeId s = space.source(b);
      if (!owned_[static_cast<size_t>(s)]) continue;
      TORX_CHECK(needed_.contains(b), "an owned node's block not among the rank's");
      part_owner_[needed_.rank(b)] = static_cast<uint32_t>(s);  // at rest, its content
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

// The bytes of member m (block b): its payload slot, taken now if it has none. A block that is not
// here (kNoOwner) gets a poisoned slot, as a fresh slot of a whole memory is before its bytes
// arrive; a block at rest gets its content, byte 0 inverted if it was stored damaged (so that it
// stays unequal to its content through any later single-bit change).
uint8_t* NodeMemory::bytes_of(uint64_t m, sw::BlockId b) {
  if (const auto it = bytes_.find(b); it != bytes_.end()) return payload(it->second);
  uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    TORX_CHECK(bytes_next_ < kNoSlot, "more than 4 G blocks moving on one rank");
    i = bytes_next_++;
    if (i / kChunk == chunks_.size()) chunks_.emplace_back(new uint8_t[size_t{kChunk} * stride_]);
  }
  bytes_.emplace(b, i);
  uint8_t* p = payload(i);
  if (part_owner_[m] == kNoOwner) {
    std::memset(p, kPoison, stride_);
  } else {
    fill(p, b);
    if (part_flags_[m] & kDamaged) p[0] = static_cast<uint8_t>(~p[0]);
    part_flags_[m] &= static_cast<uint8_t>(~kDamaged);  // the bytes say it now
  }
  return p;
}

// Member m (block b) comes to rest at an owned node or leaves the rank: its bytes, if any, are
// judged against its content once (kDamaged) and their slot goes back.
void NodeMemory::to_rest(uint64_t m, sw::BlockId b) {
  const auto it = bytes_.find(b);
  if (it == bytes_.end()) return;
  if (part_owner_[m] < kInFlight) {
    scratch_.resize(block_bytes_);
    fill(scratch_.data(), b);
    if (std::memcmp(scratch_.data(), payload(it->second), block_bytes_) != 0) part_flags_[m] |= kDamaged;
  }
  free_.push_back(it->second);
  bytes_.erase(it);
}

uint8_t* NodeMemory::receiving(sw::BlockId b) {
  TORX_CHECK(needed_.contains(b), "a block arrived that the rank's part did not reserve");
  const uint64_t m = needed_.rank(b);
  if (part_owner_[m] == kNoOwner) part_flags_[m] = 0;  // a block new here (or back again)
  uint8_t* p = bytes_of(m, b);
  if (part_owner_[m] == kNoOwner) part_owner_[m] = kInFlight;
  part_flags_[m] |= kReceiving;
  return p;
}

void NodeMemory::give_back(sw::BlockId b) {
  TORX_CHECK(needed_.contains(b), "a block left a memory that did not hold it");
  const uint64_t m = needed_.rank(b);
  TORX_CHECK(part_owner_[m] != kNoOwner, "a block left a memory that did not hold it");
  part_flags_[m] &= static_cast<uint8_t>(~kSending);
  // Still arriving at a node of this rank: its bytes stay.
  if (part_flags_[m] & kReceiving) return;
  if (part_owner_[m] == kInFlight) {  // it left the rank
    part_owner_[m] = kNoOwner;
    part_flags_[m] = 0;
  }
  to_rest(m, b);
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
    if (part_owner(b) != static_cast<uint32_t>(t)) out.push_back(b);
  }
  return out;
}

uint32_t NodeMemory::owner_answer(sw::BlockId b) const {
  const uint32_t o = part_owner(b);
  if (o == kNoOwner) return kNoOwner;
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
  if (part_moves_) {
    TORX_CHECK(needed_.contains(b) && bytes_.count(b), "a block stored without a slot");
    const uint64_t m = needed_.rank(b);
    part_owner_[m] = static_cast<uint32_t>(v);
    part_flags_[m] &= static_cast<uint8_t>(~kReceiving);
    uint8_t& a = state_[m];
    if (space_->destination(b) == v && (a & kArrivals) != kArrivals) ++a;
    if (!(part_flags_[m] & kSending)) to_rest(m, b);  // (its bytes are still leaving: at release)
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
  } else {
    o = part_owner(b);
  }
  return o >= kInFlight ? -1 : static_cast<sw::NodeId>(o);
}

bool NodeMemory::holds(sw::BlockId b, sw::NodeId node) const { return holds_now(b, node); }

uint32_t NodeMemory::arrivals(sw::BlockId b, sw::NodeId node) const {
  if (moves_) {
    if (space_->destination(b) != node) return 0;
    if (!part_moves_) return state_[b] & kArrivals;
    return needed_.contains(b) ? state_[needed_.rank(b)] & kArrivals : 0;
  }
  return state_[index(b, node)] & kArrivals;
}

bool NodeMemory::intact(sw::BlockId b, sw::NodeId node) const {
  // Regenerate the content the block's identity prescribes and compare byte for byte (a rank's block
  // at rest: it was compared when it was stored).
  const uint8_t* bytes = nullptr;
  if (part_moves_) {
    const auto it = bytes_.find(b);
    if (it == bytes_.end()) return !needed_.contains(b) || !(part_flags_[needed_.rank(b)] & kDamaged);
    bytes = payload(it->second);
  } else {
    bytes = arena_.data() + index(b, node) * stride_;
  }
  scratch_.resize(block_bytes_);
  fill(scratch_.data(), b);
  return std::memcmp(scratch_.data(), bytes, block_bytes_) == 0;
}

}  // namespace torx::model
