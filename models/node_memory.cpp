// SPDX-License-Identifier: Apache-2.0
#include "models/node_memory.hpp"

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
  const size_t slots = moves_ ? u : u * nodes_;
  // Large and touched at random: ask for huge pages before the first touch (arena.hpp).
  arena_.reserve(slots * stride_);
  Arena::advise_huge(arena_.data(), slots * stride_);
  arena_.assign(slots * stride_, kPoison);
  state_.assign(slots, 0);
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
  if (moves_) return owner_[b] >= kInFlight ? -1 : static_cast<sw::NodeId>(owner_[b]);
  return space_->source(b);
}

bool NodeMemory::holds(sw::BlockId b, sw::NodeId node) const { return holds_now(b, node); }

uint32_t NodeMemory::arrivals(sw::BlockId b, sw::NodeId node) const {
  if (moves_) return space_->destination(b) == node ? (state_[b] & kArrivals) : 0;
  return state_[index(b, node)] & kArrivals;
}

bool NodeMemory::intact(sw::BlockId b, sw::NodeId node) const {
  // Regenerate the content the block's identity prescribes and compare byte for byte.
  scratch_.resize(block_bytes_);
  fill(scratch_.data(), b);
  return std::memcmp(scratch_.data(), slot(b, node), block_bytes_) == 0;
}

}  // namespace torx::model
