// SPDX-License-Identifier: Apache-2.0
// VerilatedGossipRouter<VM>: a Verilated torx_gossip_router (the router in hardwired gossip mode,
// docs/gossip.md) driven through the RouterCore boundary on the shared harness base
// (verilated_harness.hpp: context, clocking, reset, the configuration port, trace) and the router
// harnesses' VerilatedRouterBase (verilated_router.hpp: the wires of a cycle, the status outputs), as
// VerilatedRouter drives torx_router, with two differences:
//  - the configuration port takes the node's gossip image (models/gossip_table.hpp), and a refused
//    image is an sw::InputError naming the node, the word and the reason;
//  - the flit carries torx_gossip_pkg's extension in its data, between the payload and the tag: the
//    gossip bit, the age (Flit::dest of a gossip head) and the output mask (Flit::neg_mask); the plain
//    dest and neg_mask fields travel as zeros.
// The gossip router keeps registers for VC 0 only (gossip packets use no other VC): the snapshot
// shows the other VCs at their reset values (idle, empty, full credits, free), which is what the C++
// router's registers of those VCs hold in gossip mode, and the plain router's allocator pointers as
// 0 (the C++ router's gossip cycle does not move them).
// Included only by the per-configuration sources that hw/CMakeLists.txt generates.
#pragma once

#include "hw/verilated_router.hpp"
#include "models/gossip_table.hpp"

namespace torx::rtl {

namespace detail {

template <class VM>
class VerilatedGossipRouter final : public VerilatedRouterBase<VM, VerilatedGossipRouter<VM>> {
  using Base = VerilatedRouterBase<VM, VerilatedGossipRouter<VM>>;
  using Base::coords_;
  using Base::layout_;
  using Base::node_;
  using Base::shape_;

 public:
  static constexpr const char* kRouteError = "a packet it cannot forward (not a gossip head, or no target)";

  VerilatedGossipRouter(const RtlRouterConfig& cfg, const model::RouterShape& shape, const sw::Topology& topo,
                        sw::NodeId node, const model::GossipImage& image)
      : Base("gossip router", cfg, shape, topo, node, gossip_ext_w(static_cast<unsigned>(cfg.shape.ndims))),
        image_(image) {
    ext_ = layout_.ext();
    const std::string top = "torx_gossip_router";
    regs_.resize(static_cast<size_t>(shape_.ports()));
    for (int p = 0; p < shape_.ports(); ++p) {
      const std::string port = fmt::format("{}.gen_port[{}]", top, p);
      Regs& r = regs_[static_cast<size_t>(p)];
      this->bind(r.state, port, "ivc_state_q", 1);
      this->bind(r.count, port, "ivc_count_q", 1);
      this->bind(r.targets, port, "gossip_targets_q", 1);
      this->bind(r.credits, port, "ovc_credits_q", 1);
      this->bind(r.owner, port, "ovc_owner_q", 1);
    }
    this->bind(rr_, top, "gossip_rr_q", 1);
    reset();
  }

  void reset() override {
    this->reset_and_load(image_, CfgImage::kGossip, fmt::format("gossip image of node {}", node_));
  }

  // The gossip fields travel in the extension; the plain dest and neg_mask as 0.
  template <class T>
  void pack(T& sig, unsigned base, const model::Flit& flit) const {
    model::Flit f = flit;
    f.dest = 0;
    f.neg_mask = 0;
    pack_flit(sig, base, layout_, coords_, shape_.payload_words, f);
    put_bits(sig, base + ext_, 1, (flit.kind & model::kFlitGossip) ? 1 : 0);
    put_bits(sig, base + ext_ + 1, kGossipAgeW, static_cast<uint32_t>(flit.dest));
    put_bits(sig, base + ext_ + 1 + kGossipAgeW, 2 * layout_.ndims, flit.neg_mask);
  }
  template <class T>
  void unpack(const T& sig, unsigned base, model::Flit& f) const {
    unpack_flit(sig, base, layout_, coords_, shape_.payload_words, f);
    if (get_bits(sig, base + ext_, 1)) f.kind |= model::kFlitGossip;
    f.dest = static_cast<int32_t>(get_bits(sig, base + ext_ + 1, kGossipAgeW));
    f.neg_mask = static_cast<uint32_t>(get_bits(sig, base + ext_ + 1 + kGossipAgeW, 2 * layout_.ndims));
  }

  void snapshot(model::RouterSnapshot& s) const override {
    if (s.fields.size() != model::RouterSnapshot::kFieldCount) s.layout(shape_);
    using S = model::RouterSnapshot;
    for (auto& f : s.fields) std::fill(f.values.begin(), f.values.end(), 0);
    std::fill(s.fields[S::kOvcCredits].values.begin(), s.fields[S::kOvcCredits].values.end(), shape_.buffer_depth);
    std::fill(s.fields[S::kOvcOwner].values.begin(), s.fields[S::kOvcOwner].values.end(), -1);
    for (int p = 0; p < shape_.ports(); ++p) {
      const size_t i = static_cast<size_t>(shape_.first_vc(p));  // VC 0 (one priority level)
      const Regs& r = regs_[static_cast<size_t>(p)];
      const uint64_t state = r.state.get(0);
      s.fields[S::kIvcState].values[i] = static_cast<int64_t>(state);
      s.fields[S::kIvcCount].values[i] = static_cast<int64_t>(r.count.get(0));
      s.fields[S::kGossipTargets].values[i] = state == 2 ? static_cast<int64_t>(r.targets.get(0)) : 0;
      s.fields[S::kOvcCredits].values[i] = static_cast<int64_t>(r.credits.get(0));
      const uint64_t owner = r.owner.get(0);
      const uint64_t free_owner = (uint64_t{1} << r.owner.width()) - 1;
      s.fields[S::kOvcOwner].values[i] = owner == free_owner ? -1 : static_cast<int64_t>(owner);
    }
    s.fields[S::kGossipRr].values[0] = static_cast<int64_t>(rr_.get(0));
  }

 private:
  struct Regs {
    RegView state, count, targets, credits, owner;
  };

  model::GossipImage image_;
  unsigned ext_ = 0;  // first bit of the gossip extension in a flit
  std::vector<Regs> regs_;
  RegView rr_;
};

}  // namespace detail
}  // namespace torx::rtl
