// SPDX-License-Identifier: Apache-2.0
#include "models/barrier.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "models/barrier_core.hpp"
#include "models/lockstep.hpp"

namespace torx::model {

BarrierTree build_barrier_tree(const sw::Topology& topo) {
  const int nd = topo.ndims();
  sw::Coord rc{};
  for (int d = 0; d < nd; ++d) rc[d] = (topo.radix(d) - 1) / 2;
  BarrierTree t;
  t.root = topo.node(rc);
  std::vector<int> parent_port(static_cast<size_t>(topo.nodes()), -1);
  std::vector<int> depth(static_cast<size_t>(topo.nodes()), 0);
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) {
    int dep = 0;
    int pport = -1;
    for (int d = nd - 1; d >= 0; --d) {
      const int a = topo.coord_of(v, d), r = topo.radix(d), c = rc[d];
      if (a == c) continue;
      int dist, dir;
      if (topo.wrap()) {
        const int up = (c - a + r) % r;  // hops going +
        dir = up <= r - up ? +1 : -1;
        dist = std::min(up, r - up);
      } else {
        dir = c > a ? +1 : -1;
        dist = std::abs(c - a);
      }
      dep += dist;
      if (pport < 0) pport = sw::Topology::port(d, dir);  // highest differing dimension first
    }
    parent_port[v] = pport;
    depth[v] = dep;
    t.height = std::max(t.height, dep);
  }
  t.images.assign(static_cast<size_t>(topo.nodes()), BarrierImage{});
  std::vector<uint32_t> child_mask(static_cast<size_t>(topo.nodes()), 0);
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) {
    if (parent_port[v] < 0) continue;
    const int p = parent_port[v];
    const sw::NodeId u = topo.neighbor(v, sw::Topology::port_dim(p), sw::Topology::port_dir(p));
    // The child is reached from the parent through the opposite port.
    child_mask[u] |= 1u << (p ^ 1);
  }
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) {
    const uint32_t pp = parent_port[v] < 0 ? kBarrierRoot : static_cast<uint32_t>(parent_port[v]);
    t.images[v] = {kBarrierMagic, child_mask[v], pp | (static_cast<uint32_t>(t.height - depth[v]) << 8)};
  }
  return t;
}

BarrierUnit::BarrierUnit(sw::NodeId node, const BarrierImage& image, const sw::Topology& topo) : node_(node) {
  auto bad = [&](int word, const std::string& what) {
    return sw::InputError(fmt::format("barrier image of node {}: word {}: {}", topo.node_name(node), word, what));
  };
  if (image.size() != 3) throw bad(static_cast<int>(image.size()), "the image has 3 words");
  if (image[0] != kBarrierMagic) throw bad(0, fmt::format("magic {:#010x} is not {:#010x}", image[0], kBarrierMagic));
  const int np = topo.ports();
  child_mask_ = image[1];
  if (np < 32 && (child_mask_ >> np)) throw bad(1, "child mask names ports the router does not have");
  const uint32_t pp = image[2] & 0xff;
  parent_port_ = pp == kBarrierRoot ? -1 : static_cast<int>(pp);
  if (parent_port_ >= np) throw bad(2, fmt::format("parent port {} does not exist", pp));
  // The pad equalises a node's depth to the tree's height, which never exceeds the sum of the
  // radices; a larger one is a damaged image (and would size the node's wires to gigabytes).
  int64_t most = 0;
  for (int d = 0; d < topo.ndims(); ++d) most += topo.radix(d);
  if ((image[2] >> 8) > static_cast<uint64_t>(most))
    throw bad(2, fmt::format("pad {} exceeds any tree height on the {} (at most {})", image[2] >> 8, topo.to_string(), most));
  pad_ = static_cast<int>(image[2] >> 8);
  for (int p = 0; p < np; ++p) {
    if (!((child_mask_ >> p) & 1u) && p != parent_port_) continue;
    if (topo.neighbor(node, sw::Topology::port_dim(p), sw::Topology::port_dir(p)) < 0)
      throw bad((child_mask_ >> p) & 1u ? 1 : 2, fmt::format("port {} has no neighbour", sw::Topology::port_name(p)));
  }
  expected_ = static_cast<uint32_t>(__builtin_popcount(child_mask_)) + 1;
  own_ = std::make_unique<CppBarrierCore>(child_mask_, parent_port_ < 0);
}

BarrierUnit::~BarrierUnit() = default;

void BarrierUnit::use_core(std::unique_ptr<BarrierCore> core) { ext_ = std::move(core); }

uint32_t BarrierUnit::gathered() const { return ext_ ? ext_->gathered() : own_->gathered(); }

std::unique_ptr<BarrierCore> CppBarrierFactory::make(sw::NodeId v, const BarrierImage& image,
                                                     const sw::Topology& topo) const {
  const BarrierUnit decoded(v, image, topo);  // validates the image as the fabric's unit does
  return std::make_unique<CppBarrierCore>(decoded.child_mask(), decoded.root());
}

void LockstepBarrierCore::cycle(uint64_t now, const BarrierWiresIn& in, BarrierWiresOut& out) {
  BarrierWiresOut ob;
  a_->cycle(now, in, out);
  b_->cycle(now, in, ob);
  ++cycles_;
  episodes_ += out.release;
  Mismatch m;
  m.cycle = now;
  m.router = node_;
  m.port = -1;
  m.vc = -1;
  auto fail = [&](const char* field, int64_t x, int64_t y) {
    m.field = field;
    m.a = x;
    m.b = y;
    throw LockstepMismatch(m, fmt::format("cycle {}, barrier unit {}, field {}: {} {}, {} {}", now, node_, field,
                                          a_->kind(), x, b_->kind(), y));
  };
  if (out.gather != ob.gather) fail("gather_o", out.gather, ob.gather);
  if (out.release != ob.release) fail("release_o", out.release, ob.release);
  if (a_->gathered() != b_->gathered()) fail("gathered_q", a_->gathered(), b_->gathered());
}

void BarrierUnit::configure_wires(Scheduler* sched, int hop_latency) {
  const int children = __builtin_popcount(child_mask_);
  gather_in_.configure(hop_latency, std::max(1, children), sched, clock_id());
  entry_in_.configure(1 + pad_ * hop_latency, 1, sched, clock_id());
  release_in_.configure(hop_latency, 1, sched, clock_id());
}

void BarrierUnit::release(uint64_t now, int lane) {
  ++releases_;
  for (TokenWire* w : child_release_) w->send(now, lane);
  ni_release_->send(now, lane);
}

void BarrierUnit::evaluate(uint64_t now, int lane) {
  BarrierWiresIn in;
  in.entry = entry_in_.take(now) != 0;
  in.gather_mask = gather_in_.take_mask(now);
  in.release = release_in_.take(now) != 0;
  BarrierWiresOut out;
  if (ext_) ext_->cycle(now, in, out);
  else own_->step(in, out);
  if (out.gather) parent_gather_->send_tagged(now, lane, parent_tag_);
  if (out.release) release(now, lane);
}

}  // namespace torx::model
