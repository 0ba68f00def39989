// SPDX-License-Identifier: Apache-2.0
#include "core/blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>

#include "core/checked.hpp"

namespace torx::sw {

std::string_view collective_name(Collective c) {
  switch (c) {
    case Collective::kAlltoall: return "alltoall";
    case Collective::kBroadcast: return "broadcast";
    case Collective::kAllgather: return "allgather";
  }
  return "?";
}

Collective parse_collective(std::string_view text) {
  if (text == "alltoall") return Collective::kAlltoall;
  if (text == "broadcast") return Collective::kBroadcast;
  if (text == "allgather") return Collective::kAllgather;
  throw InputError(fmt::format("collective '{}' is unknown (alltoall, broadcast or allgather)", text));
}

BlockSpace::BlockSpace(Collective collective, const Topology& topo, int pieces, NodeId root)
    : collective_(collective), topo_(&topo), pieces_(pieces), root_(root) {
  const int nd = topo.ndims();
  const uint64_t n = static_cast<uint64_t>(topo.nodes());
  if (collective != Collective::kAlltoall && pieces < 1)
    throw InputError(fmt::format("pieces = {}: a {} needs at least one piece", pieces, collective_name(collective)));
  if (collective == Collective::kBroadcast && !topo.valid(root))
    throw InputError(fmt::format("root {} is not a node of {}", root, topo.to_string()));
  // Node ids are below 2^24 and pieces below 2^31, so ids and multipliers fit in 64 bits; the
  // deliveries of a gossip (N (N-1) pieces) may not, and are checked.
  const uint64_t p = collective == Collective::kAlltoall ? 1 : static_cast<uint64_t>(pieces);
  std::optional<uint64_t> expected;
  switch (collective) {
    case Collective::kAlltoall:
      for (int d = 0; d < nd; ++d) { radix_.push_back(topo.radix(d)); mult_.push_back(topo.stride(d) * n); }
      for (int d = 0; d < nd; ++d) { radix_.push_back(topo.radix(d)); mult_.push_back(topo.stride(d)); }
      universe_ = n * n;
      expected = checked_mul(n, n - 1);
      break;
    case Collective::kBroadcast:
      radix_.push_back(pieces);
      mult_.push_back(1);
      universe_ = p;
      expected = checked_mul(n - 1, p);
      break;
    case Collective::kAllgather:
      for (int d = 0; d < nd; ++d) { radix_.push_back(topo.radix(d)); mult_.push_back(topo.stride(d) * p); }
      radix_.push_back(pieces);
      mult_.push_back(1);
      universe_ = n * p;
      expected = checked_product({n, n - 1, p});
      break;
  }
  if (!expected)
    throw InputError(fmt::format("a {} of {} pieces on {} nodes needs more than 2^64 deliveries", collective_name(collective),
                                 pieces, n));
  expected_ = *expected;
  loop_order_.resize(radix_.size());
  std::iota(loop_order_.begin(), loop_order_.end(), 0);
  // Outermost = largest multiplier; innermost = smallest.
  std::stable_sort(loop_order_.begin(), loop_order_.end(), [&](int a, int b) { return mult_[a] > mult_[b]; });
}

std::string BlockSpace::axis_name(int axis) const {
  const int nd = topo_->ndims();
  switch (collective_) {
    case Collective::kAlltoall:
      return (axis < nd ? "source " : "destination ") + Topology::dim_name(axis % nd);
    case Collective::kBroadcast: return "piece";
    case Collective::kAllgather: return axis < nd ? "source " + Topology::dim_name(axis) : std::string("piece");
  }
  return "?";
}

bool BlockSpace::exists(BlockId b) const {
  if (b >= universe_) return false;
  if (collective_ == Collective::kAlltoall) {
    const uint64_t n = static_cast<uint64_t>(topo_->nodes());
    return b / n != b % n;
  }
  return true;
}

NodeId BlockSpace::source(BlockId b) const {
  switch (collective_) {
    case Collective::kAlltoall: return static_cast<NodeId>(b / static_cast<uint64_t>(topo_->nodes()));
    case Collective::kBroadcast: return root_;
    case Collective::kAllgather: return static_cast<NodeId>(b / static_cast<uint64_t>(pieces_));
  }
  return -1;
}

bool BlockSpace::is_destination(BlockId b, NodeId node) const {
  if (collective_ == Collective::kAlltoall) return destination(b) == node;
  return source(b) != node;
}

std::string BlockSpace::block_name(BlockId b) const {
  switch (collective_) {
    case Collective::kAlltoall:
      return fmt::format("({})->({})", topo_->node_name(source(b)), topo_->node_name(destination(b)));
    case Collective::kBroadcast: return fmt::format("piece {}", b);
    case Collective::kAllgather:
      return fmt::format("({})#{}", topo_->node_name(source(b)), b % static_cast<uint64_t>(pieces_));
  }
  return "?";
}

uint64_t BlockSpace::box_size(const AxisRange* box) const {
  // A valid box (validate_box) has count <= radix on every axis, so its size is at most the
  // universe; a product that wraps is a box that was never validated.
  uint64_t s = 1;
  for (int a = 0; a < arity(); ++a)
    TORX_CHECK(!__builtin_mul_overflow(s, uint64_t{box[a].count}, &s), "box size overflows: an unvalidated box");
  return s;
}

void BlockSpace::validate_box(const AxisRange* box, std::string_view what) const {
  for (int a = 0; a < arity(); ++a) {
    const AxisRange& r = box[a];
    const uint32_t radix = static_cast<uint32_t>(radix_[a]);
    if (r.count == 0 || r.start >= radix || r.stride == 0 || r.stride >= std::max<uint32_t>(radix, 2) ||
        uint64_t(r.count - 1) * r.stride >= radix)
      throw InputError(fmt::format("{}: {} range (start {}, count {}, stride {}) does not fit 0..{}", what,
                                   axis_name(a), r.start, r.count, r.stride, radix - 1));
  }
}

namespace {

std::string range_string(const AxisRange& r, uint32_t radix) {
  if (r.count == radix && r.stride == 1) return "*";
  if (r.count == 1) return std::to_string(r.start);
  const uint32_t last = static_cast<uint32_t>((r.start + uint64_t(r.count - 1) * r.stride) % radix);
  std::string s = fmt::format("{}..{}", r.start, last);
  if (r.stride != 1) s += fmt::format("/{}", r.stride);
  return s;
}

bool to_u32(std::string_view t, uint32_t& v) {
  if (t.empty()) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size();
}

}  // namespace

std::string BlockSpace::box_string(const AxisRange* box) const {
  std::string s;
  const int nd = topo_->ndims();
  auto axes = [&](int from, int to) {
    for (int a = from; a < to; ++a) {
      if (a > from) s += ',';
      s += range_string(box[a], static_cast<uint32_t>(radix_[a]));
    }
  };
  switch (collective_) {
    case Collective::kAlltoall: axes(0, nd); s += '>'; axes(nd, 2 * nd); break;
    case Collective::kBroadcast: s += '#'; axes(0, 1); break;
    case Collective::kAllgather: axes(0, nd); s += '#'; axes(nd, nd + 1); break;
  }
  return s;
}

void BlockSpace::parse_box(std::string_view text, AxisRange* box) const {
  const int nd = topo_->ndims();
  const char sep = collective_ == Collective::kAlltoall ? '>' : '#';
  const size_t cut = text.find(sep);
  if (cut == std::string_view::npos)
    throw InputError(fmt::format("blocks '{}': a {} block set is written {}", text, collective_name(collective_),
                                 collective_ == Collective::kAlltoall ? "SOURCE>DESTINATION (e.g. 0,1>2..5,*)"
                                 : collective_ == Collective::kBroadcast ? "#PIECES (e.g. #0 or #0..3)"
                                                                         : "SOURCE#PIECES (e.g. 2,3#0..1)"));
  auto parse_axes = [&](std::string_view part, int first, int n) {
    int a = first;
    size_t pos = 0;
    while (true) {
      const size_t comma = part.find(',', pos);
      std::string_view tok = part.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
      if (a >= first + n)
        throw InputError(fmt::format("blocks '{}': too many coordinates ({} expected before/after '{}')", text, n, sep));
      const uint32_t radix = static_cast<uint32_t>(radix_[a]);
      AxisRange r;
      if (tok == "*") {
        r = {0, radix, 1};
      } else {
        const size_t dots = tok.find("..");
        if (dots == std::string_view::npos) {
          uint32_t v = 0;
          if (!to_u32(tok, v) || v >= radix)
            throw InputError(fmt::format("blocks '{}': {} '{}' is not a value in 0..{}", text, axis_name(a), tok, radix - 1));
          r = {v, 1, 1};
        } else {
          std::string_view lo = tok.substr(0, dots), rest = tok.substr(dots + 2);
          uint32_t stride = 1;
          const size_t slash = rest.find('/');
          if (slash != std::string_view::npos) {
            if (!to_u32(rest.substr(slash + 1), stride) || stride == 0 || stride >= radix)
              throw InputError(fmt::format("blocks '{}': {} stride '{}' must be in 1..{}", text, axis_name(a),
                                           rest.substr(slash + 1), radix - 1));
            rest = rest.substr(0, slash);
          }
          uint32_t a0 = 0, b0 = 0;
          if (!to_u32(lo, a0) || !to_u32(rest, b0) || a0 >= radix || b0 >= radix)
            throw InputError(fmt::format("blocks '{}': {} range '{}' needs two values in 0..{}", text, axis_name(a),
                                         tok, radix - 1));
          const uint32_t span = (b0 + radix - a0) % radix;
          if (span % stride != 0)
            throw InputError(fmt::format("blocks '{}': {} range '{}' does not end on its stride", text, axis_name(a), tok));
          r = {a0, span / stride + 1, stride};
        }
      }
      box[a++] = r;
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
    if (a != first + n)
      throw InputError(fmt::format("blocks '{}': {} coordinates expected, {} given", text, n, a - first));
  };
  switch (collective_) {
    case Collective::kAlltoall:
      parse_axes(text.substr(0, cut), 0, nd);
      parse_axes(text.substr(cut + 1), nd, nd);
      break;
    case Collective::kBroadcast:
      if (cut != 0) throw InputError(fmt::format("blocks '{}': a broadcast block set is written #PIECES", text));
      parse_axes(text.substr(1), 0, 1);
      break;
    case Collective::kAllgather:
      parse_axes(text.substr(0, cut), 0, nd);
      parse_axes(text.substr(cut + 1), nd, 1);
      break;
  }
}

void BlockSpace::compress(const std::vector<BlockId>& ids, std::vector<AxisRange>& out) const {
  const int n = arity();
  if (ids.empty()) return;
  // 1. Runs of consecutive ids along the innermost axis, grouped by row (all other axes fixed).
  const int inner = loop_order_[n - 1];
  const uint32_t inner_radix = static_cast<uint32_t>(radix_[inner]);
  auto inner_value = [&](BlockId b) { return static_cast<uint32_t>((b / mult_[inner]) % inner_radix); };
  std::vector<AxisRange> boxes;  // n ranges per box
  size_t row_first_box = 0;      // index of the first box of the current row
  uint64_t row_base = ~uint64_t{0};
  size_t i = 0;
  while (i < ids.size()) {
    const uint64_t base = ids[i] - uint64_t{inner_value(ids[i])} * mult_[inner];
    size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + mult_[inner] && inner_value(ids[j]) != 0) ++j;
    if (base != row_base) {
      row_base = base;
      row_first_box = boxes.size() / n;
    }
    const size_t at = boxes.size();
    boxes.resize(at + n);
    for (int a = 0; a < n; ++a) boxes[at + a] = {static_cast<uint32_t>((ids[i] / mult_[a]) % radix_[a]), 1, 1};
    boxes[at + inner].count = static_cast<uint32_t>(j - i);
    // A run reaching the top of the axis joins the row's first run if that one starts at 0: the
    // cyclic range then wraps (e.g. destinations 14,15,0,1 on a ring of 16 are one range 14..1).
    AxisRange& cur = boxes[at + inner];
    AxisRange& first = boxes[row_first_box * n + inner];
    if (row_first_box != at / n && first.start == 0 && cur.start + cur.count == inner_radix) {
      first.start = cur.start;
      first.count += cur.count;
      boxes.resize(at);
    }
    i = j;
  }
  // 2. Merge boxes that differ only in one axis, from the second-innermost axis outwards.
  for (int k = n - 2; k >= 0; --k) {
    const int axis = loop_order_[k];
    const size_t nb = boxes.size() / n;
    std::vector<size_t> order(nb);
    std::iota(order.begin(), order.end(), 0);
    auto key_less = [&](size_t x, size_t y) {
      for (int a = 0; a < n; ++a) {
        if (a == axis) continue;
        const AxisRange& p = boxes[x * n + a];
        const AxisRange& q = boxes[y * n + a];
        if (p.start != q.start) return p.start < q.start;
        if (p.count != q.count) return p.count < q.count;
        if (p.stride != q.stride) return p.stride < q.stride;
      }
      return boxes[x * n + axis].start < boxes[y * n + axis].start;
    };
    std::sort(order.begin(), order.end(), key_less);
    std::vector<AxisRange> merged;
    merged.reserve(boxes.size());
    for (size_t idx = 0; idx < nb;) {
      const size_t first = order[idx];
      AxisRange cur = boxes[first * n + axis];
      size_t next = idx + 1;
      while (next < nb) {
        const size_t cand = order[next];
        bool same = true;
        for (int a = 0; a < n && same; ++a) {
          if (a == axis) continue;
          const AxisRange& p = boxes[first * n + a];
          const AxisRange& q = boxes[cand * n + a];
          same = p.start == q.start && p.count == q.count && p.stride == q.stride;
        }
        const AxisRange& c = boxes[cand * n + axis];
        if (!same || cur.stride != 1 || c.count != 1 || c.start != cur.start + cur.count) break;
        cur.count += 1;
        ++next;
      }
      const size_t at = merged.size();
      merged.insert(merged.end(), &boxes[first * n], &boxes[first * n] + n);
      merged[at + axis] = cur;
      idx = next;
    }
    boxes.swap(merged);
  }
  out.insert(out.end(), boxes.begin(), boxes.end());
}

namespace {

// An integer arithmetic progression first, first + step, ..., n terms (no wrap-around).
struct Progression {
  int64_t first = 0, step = 1, n = 0;
};

int64_t extended_gcd(int64_t a, int64_t b, int64_t& x, int64_t& y) {
  if (b == 0) {
    x = 1;
    y = 0;
    return a;
  }
  int64_t x1 = 0, y1 = 0;
  const int64_t g = extended_gcd(b, a % b, x1, y1);
  x = y1;
  y = x1 - (a / b) * y1;
  return g;
}

// Do two progressions share a value? x = p.first (mod p.step) and x = q.first (mod q.step) by the
// Chinese remainder theorem, then the least solution at or above both firsts must not pass either
// last. Values and steps are below 2^24, so every product below is below 2^49.
bool progressions_meet(const Progression& p, const Progression& q) {
  if (p.n == 0 || q.n == 0) return false;
  const int64_t lo = std::max(p.first, q.first);
  const int64_t hi = std::min(p.first + (p.n - 1) * p.step, q.first + (q.n - 1) * q.step);
  if (lo > hi) return false;
  int64_t x = 0, y = 0;
  const int64_t g = extended_gcd(p.step, q.step, x, y);  // p.step x + q.step y = g
  const int64_t diff = q.first - p.first;
  if (diff % g != 0) return false;
  const int64_t qg = q.step / g;
  int64_t k = (diff / g) * x % qg;
  if (k < 0) k += qg;
  const int64_t x0 = p.first + p.step * k;  // a common value, maybe out of bounds
  const int64_t lcm = p.step * qg;
  int64_t r = (x0 - lo) % lcm;
  if (r < 0) r += lcm;
  return lo + r <= hi;
}

// A valid cyclic range (stride * (count - 1) < radix) wraps at most once: at most two progressions.
int split_range(const AxisRange& r, uint32_t radix, Progression out[2]) {
  const uint64_t before_wrap = (uint64_t{radix} - r.start + r.stride - 1) / r.stride;
  const uint64_t n1 = std::min<uint64_t>(r.count, before_wrap);
  out[0] = {r.start, r.stride, static_cast<int64_t>(n1)};
  if (r.count <= n1) return 1;
  out[1] = {static_cast<int64_t>(r.start + n1 * r.stride - radix), r.stride, static_cast<int64_t>(r.count - n1)};
  return 2;
}

bool ranges_meet(const AxisRange& a, const AxisRange& b, uint32_t radix) {
  if (a.count == radix || b.count == radix) return true;
  Progression pa[2], pb[2];
  const int na = split_range(a, radix, pa), nb = split_range(b, radix, pb);
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j)
      if (progressions_meet(pa[i], pb[j])) return true;
  return false;
}

bool in_range(const AxisRange& r, uint32_t radix, uint32_t v) {
  const uint32_t off = (v + radix - r.start) % radix;
  return off % r.stride == 0 && off / r.stride < r.count;
}

struct StopWalk {};

}  // namespace

bool BlockSpace::boxes_overlap(const AxisRange* a, const AxisRange* b) const {
  for (int axis = 0; axis < arity(); ++axis)
    if (!ranges_meet(a[axis], b[axis], static_cast<uint32_t>(radix_[axis]))) return false;
  return true;
}

std::pair<int64_t, int64_t> BoxOverlapFinder::boxes_holding(const AxisRange* boxes, uint32_t count, BlockId b) const {
  const int n = space_->arity();
  int64_t first = -1;
  for (uint32_t i = 0; i < count; ++i) {
    bool inside = true;
    for (int a = 0; a < n && inside; ++a)
      inside = in_range(boxes[size_t{i} * n + a], static_cast<uint32_t>(space_->axis_radix(a)), space_->axis_value(b, a));
    if (!inside) continue;
    if (first >= 0) return {first, i};
    first = i;
  }
  TORX_CHECK(false, "a block counted twice lies in fewer than two boxes");
  return {-1, -1};
}

bool BoxOverlapFinder::pairs_in(const AxisRange* boxes, const uint32_t* idx, size_t count, uint64_t& pairs,
                                std::pair<int64_t, int64_t>& found) {
  const int n = space_->arity();
  auto test = [&](uint32_t i, uint32_t j) {
    if (!space_->boxes_overlap(boxes + size_t{i} * n, boxes + size_t{j} * n)) return false;
    found = {std::min(i, j), std::max(i, j)};
    return true;
  };
  if (count <= 16) {
    for (size_t p = 0; p < count; ++p)
      for (size_t q = p + 1; q < count; ++q) {
        ++pairs;
        if (test(idx[p], idx[q])) return true;
      }
    return true;
  }
  // Sweep over the axis on which the boxes' extents (first to last value) are shortest in total,
  // judged on a sample of the boxes.
  int axis = 0;
  double best = 0;
  const size_t sample_step = std::max<size_t>(1, count / 64);
  for (int a = 0; a < n; ++a) {
    const uint64_t radix = static_cast<uint64_t>(space_->axis_radix(a));
    uint64_t total = 0;
    for (size_t p = 0; p < count; p += sample_step) {
      const AxisRange& r = boxes[size_t{idx[p]} * n + a];
      total += std::min<uint64_t>(radix, uint64_t{r.stride} * (r.count - 1) + 1);
    }
    const double density = static_cast<double>(total) / static_cast<double>(radix);
    if (a == 0 || density < best) {
      best = density;
      axis = a;
    }
  }
  const uint32_t radix = static_cast<uint32_t>(space_->axis_radix(axis));
  extents_.clear();
  for (size_t p = 0; p < count; ++p) {
    const uint32_t i = idx[p];
    const AxisRange& r = boxes[size_t{i} * n + axis];
    const uint64_t last = r.start + uint64_t{r.stride} * (r.count - 1);
    if (r.count == radix) {
      extents_.push_back({0, radix - 1, i});
    } else if (last < radix) {
      extents_.push_back({r.start, static_cast<uint32_t>(last), i});
    } else {
      extents_.push_back({r.start, radix - 1, i});
      extents_.push_back({0, static_cast<uint32_t>(last - radix), i});
    }
  }
  auto by_lo = [](const Extent& x, const Extent& y) { return x.lo < y.lo; };
  if (!std::is_sorted(extents_.begin(), extents_.end(), by_lo)) std::sort(extents_.begin(), extents_.end(), by_lo);
  // Sorted by first value, every pair whose extents meet is found from its earlier member.
  for (size_t p = 0; p < extents_.size(); ++p) {
    for (size_t q = p + 1; q < extents_.size() && extents_[q].lo <= extents_[p].hi; ++q) {
      if (extents_[p].box == extents_[q].box) continue;
      if (++pairs > kPairBudget) return false;
      if (test(extents_[p].box, extents_[q].box)) return true;
    }
  }
  return true;
}

bool BoxOverlapFinder::by_pairs(const AxisRange* boxes, uint32_t count, std::pair<int64_t, int64_t>& found) {
  const int n = space_->arity();
  found = {-1, -1};
  uint64_t pairs = 0;
  order_.resize(count);
  std::iota(order_.begin(), order_.end(), 0u);
  // Axes on which every box holds a single value: boxes that differ on one of them are disjoint,
  // so only groups of boxes with equal values there need comparing. Generators list such boxes in
  // increasing order (a source coordinate per box), which is checked in one pass.
  int single[kMaxAxes];
  int ns = 0;
  for (int a = 0; a < n; ++a) {
    bool all = true;
    for (uint32_t i = 0; i < count && all; ++i) all = boxes[size_t{i} * n + a].count == 1;
    if (all) single[ns++] = a;
  }
  if (ns == 0) return pairs_in(boxes, order_.data(), count, pairs, found);
  auto key_less = [&](uint32_t i, uint32_t j) {
    for (int k = 0; k < ns; ++k) {
      const uint32_t x = boxes[size_t{i} * n + single[k]].start, y = boxes[size_t{j} * n + single[k]].start;
      if (x != y) return x < y;
    }
    return false;
  };
  bool strictly_increasing = true;
  for (uint32_t i = 1; i < count && strictly_increasing; ++i) strictly_increasing = key_less(i - 1, i);
  if (strictly_increasing) return true;
  std::sort(order_.begin(), order_.end(), key_less);
  for (size_t g = 0; g < count;) {
    size_t e = g + 1;
    while (e < count && !key_less(order_[g], order_[e])) ++e;
    if (e - g > 1) {
      if (!pairs_in(boxes, order_.data() + g, e - g, pairs, found)) return false;
      if (found.first >= 0) return true;
    }
    g = e;
  }
  return true;
}

std::pair<int64_t, int64_t> BoxOverlapFinder::find(const AxisRange* boxes, uint32_t count) {
  const int n = space_->arity();
  std::pair<int64_t, int64_t> found{-1, -1};
  if (count < 2) return found;
  if (by_pairs(boxes, count, found)) return found;
  // Too many pairs: look at the blocks themselves.
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t size = space_->box_size(boxes + size_t{i} * n);
    total = total + size < total ? ~uint64_t{0} : total + size;
  }
  const uint64_t universe = space_->universe();
  if (universe <= kBitmapBlocks) {
    // Mark every block; the first one marked twice is in two boxes. At most universe + 1 marks.
    bitmap_.resize((universe + 63) / 64);
    uint64_t marked = 0;
    BlockId twice = 0;
    bool hit = false;
    try {
      for (uint32_t i = 0; i < count; ++i)
        space_->for_each_block(boxes + size_t{i} * n, [&](BlockId b) {
          uint64_t& w = bitmap_[b >> 6];
          const uint64_t bit = uint64_t{1} << (b & 63);
          if (w & bit) {
            twice = b;
            hit = true;
            throw StopWalk{};
          }
          w |= bit;
          ++marked;
        });
    } catch (const StopWalk&) {
    }
    // Leave the bitmap clear for the next message: unmark what was marked, or wipe it.
    if (marked > bitmap_.size()) {
      std::fill(bitmap_.begin(), bitmap_.end(), 0);
    } else {
      uint64_t left = marked;
      try {
        for (uint32_t i = 0; i < count && left; ++i)
          space_->for_each_block(boxes + size_t{i} * n, [&](BlockId b) {
            if (left == 0) throw StopWalk{};
            bitmap_[b >> 6] &= ~(uint64_t{1} << (b & 63));
            --left;
          });
      } catch (const StopWalk&) {
      }
    }
    return hit ? boxes_holding(boxes, count, twice) : found;
  }
  if (total <= kSortBlocks) {
    ids_.clear();
    for (uint32_t i = 0; i < count; ++i) space_->for_each_block(boxes + size_t{i} * n, [&](BlockId b) { ids_.push_back(b); });
    std::sort(ids_.begin(), ids_.end());
    const auto dup = std::adjacent_find(ids_.begin(), ids_.end());
    return dup == ids_.end() ? found : boxes_holding(boxes, count, *dup);
  }
  throw InputError(fmt::format("its {} block sets ({} blocks in all) are too many and too interleaved to check that they "
                               "do not overlap; write them as fewer, larger sets",
                               count, total));
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t ContentModel::word(BlockId b, uint32_t index) const {
  return splitmix64(splitmix64(seed_ * 0x2545f4914f6cdd1dULL + salt_) ^ (b * 0x9e3779b97f4a7c15ULL + index));
}

uint64_t ContentModel::digest(const uint64_t* payload, uint32_t words) {
  uint64_t h = 0x84222325cbf29ce4ULL;
  for (uint32_t i = 0; i < words; ++i) h = splitmix64(h ^ payload[i]);
  return h;
}

uint64_t ContentModel::expected_digest(BlockId b, uint32_t words) const {
  uint64_t h = 0x84222325cbf29ce4ULL;
  for (uint32_t i = 0; i < words; ++i) h = splitmix64(h ^ word(b, i));
  return h;
}

}  // namespace torx::sw
