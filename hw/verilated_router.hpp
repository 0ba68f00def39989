// SPDX-License-Identifier: Apache-2.0
// VerilatedRouter<VM> and VerilatedBarrier<VM>: a Verilated torx_router / torx_barrier (`--cc`,
// class VM) driven through the project's boundaries (RouterCore, BarrierCore), on the shared harness
// base of verilated_harness.hpp (context, model, reset, clock, image load, trace). Included only by
// the per-configuration sources that hw/CMakeLists.txt generates, each with its own model header;
// users include hw/rtl_router.hpp.
//
// Registers for snapshot() are found once, by name, in Verilator's scope table (the RTL marks them
// /*verilator public_flat_rd*/), and read in place afterwards.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hw/verilated_harness.hpp"
#include "models/routing_table.hpp"

namespace torx::rtl::detail {

// What the router and the gossip router harnesses share beyond the harness base: the configuration,
// the shape, the flit layout, the per-port wires of a cycle and the status outputs. Derived (CRTP)
// packs and unpacks a flit (pack(sig, lsb, flit), unpack(sig, lsb, flit)), names what it loads, and
// adds its registers and snapshot.
template <class VM, class Derived>
class VerilatedRouterBase : public VerilatedHarness<VM, RtlRouter> {
  using Base = VerilatedHarness<VM, RtlRouter>;

 public:
  const RtlRouterConfig& config() const override { return cfg_; }
  const model::RouterShape& shape() const override { return shape_; }

  void cycle(uint64_t now, const model::PortWires* in, model::PortWires* out) override {
    Derived& d = static_cast<Derived&>(*this);
    this->begin_cycle(now);
    // The valid bits of every port in one write each; a flit's bits only where one is valid (the
    // RTL ignores flit_i where flit_valid_i is low).
    const unsigned ports = static_cast<unsigned>(shape_.ports());
    uint64_t flit_valid = 0, credit_valid = 0;
    for (unsigned p = 0; p < ports; ++p) {
      const model::PortWires& w = in[p];
      if (w.flit_valid) {
        flit_valid |= uint64_t{1} << p;
        d.pack(m_->flit_i, p * width_, w.flit);
      }
      if (w.credit_valid) credit_valid |= uint64_t{1} << p;
      put_bits(m_->credit_vc_i, p * vc_w_, vc_w_, w.credit_valid ? w.credit_vc : 0);
    }
    put_bits(m_->flit_valid_i, 0, ports, flit_valid);
    put_bits(m_->credit_valid_i, 0, ports, credit_valid);
    this->end_cycle(now);
    const uint64_t flit_out = get_bits(m_->flit_valid_o, 0, ports);
    const uint64_t credit_out = get_bits(m_->credit_valid_o, 0, ports);
    for (unsigned p = 0; p < ports; ++p) {
      model::PortWires& w = out[p];
      w.flit_valid = (flit_out >> p) & 1u;
      if (w.flit_valid) d.unpack(m_->flit_o, p * width_, w.flit);
      w.credit_valid = (credit_out >> p) & 1u;
      w.credit_vc = w.credit_valid ? static_cast<uint8_t>(get_bits(m_->credit_vc_o, p * vc_w_, vc_w_)) : 0;
    }
    if (m_->route_error_o)
      throw std::logic_error(fmt::format("internal error: RTL {}: {} (route_error_o)", this->who_, Derived::kRouteError));
  }

  bool quiescent() const override { return m_->quiescent_o != 0; }
  uint32_t blocked() const override { return static_cast<uint32_t>(m_->stat_blocked_o); }
  bool route_error() const override { return m_->route_error_o != 0; }
  uint64_t model_cycles() const override { return this->cycles_; }

 protected:
  using Base::m_;

  // `what` names the instance ("router"); a flit on the wires has the layout of the model's shape
  // with an extension of `ext_bits` in its data, and the simulation tag (SimTag = 1 in every build).
  VerilatedRouterBase(const char* what, const RtlRouterConfig& cfg, const model::RouterShape& shape,
                      const sw::Topology& topo, sw::NodeId node, unsigned ext_bits)
      : Base(fmt::format("{} {} ({})", what, node, cfg.name)), cfg_(cfg), shape_(shape), coords_(topo), node_(node) {
    layout_ = FlitLayout::of(cfg.shape, static_cast<unsigned>(cfg.max_radix), static_cast<unsigned>(cfg.flit_bytes),
                             ext_bits, /*sim_tag=*/true);
    width_ = layout_.width();
    vc_w_ = clog2w(static_cast<unsigned>(cfg.shape.network_vcs()));
    constexpr size_t kFlitBits = sizeof(m_->flit_i) * 8;
    const size_t want = static_cast<size_t>(shape_.ports()) * width_;
    if (kFlitBits < want || kFlitBits >= want + 32)
      throw std::logic_error(fmt::format("RTL harness: flit_i of {} has {} bits, the layout {}", cfg_.name, kFlitBits, want));
    m_->node_id_i = static_cast<uint32_t>(node_);
  }

  void clear_inputs() override {
    m_->cfg_valid_i = 0;
    m_->cfg_last_i = 0;
    m_->cfg_data_i = 0;
    m_->flit_valid_i = 0;
    m_->credit_valid_i = 0;
  }

  RtlRouterConfig cfg_;
  model::RouterShape shape_;
  NodeCoords coords_;
  sw::NodeId node_;
  FlitLayout layout_;
  unsigned width_ = 0;  // bits of a flit on the wires
  unsigned vc_w_ = 1;
};

template <class VM>
class VerilatedRouter final : public VerilatedRouterBase<VM, VerilatedRouter<VM>> {
  using Base = VerilatedRouterBase<VM, VerilatedRouter<VM>>;
  using Base::cfg_;
  using Base::coords_;
  using Base::layout_;
  using Base::node_;
  using Base::shape_;

 public:
  static constexpr const char* kRouteError = "the routing table has no route for a head";

  VerilatedRouter(const RtlRouterConfig& cfg, const model::RouterShape& shape, const sw::Topology& topo,
                  sw::NodeId node, const model::RoutingImage& image)
      : Base("router", cfg, shape, topo, node, 0), image_(image) {
    const std::string top = "torx_router";
    if (shape_.organization == model::Pipeline::kLookahead) {
      // The lookahead image (models/routing_table.hpp, lookahead_image): this node's table, then the
      // neighbours' in port order, mesh edges skipped; each goes to its own table (cfg_sel_i).
      const size_t words = model::routing_image_words(topo);
      size_t at = 0;
      auto part = [&](int sel, sw::NodeId n) {
        if (image_.size() < at + words)
          throw sw::InputError(fmt::format("lookahead routing image of node {}: {} words, too few for its own table "
                                           "and each neighbour's ({} words each)",
                                           node_, image_.size(), words));
        parts_.push_back({sel, n, model::RoutingImage(image_.begin() + static_cast<std::ptrdiff_t>(at),
                                                      image_.begin() + static_cast<std::ptrdiff_t>(at + words))});
        at += words;
      };
      part(0, node_);
      for (int p = 0; p < topo.ports(); ++p) {
        const sw::NodeId n = topo.neighbor(node_, p);
        put_bits(this->m_->la_node_id_i, static_cast<unsigned>(p) * 32, 32, static_cast<uint64_t>(n < 0 ? 0 : n));
        if (n >= 0) part(1 + p, n);
      }
      if (at != image_.size())
        throw sw::InputError(fmt::format("lookahead routing image of node {}: {} words, its own table and each "
                                         "neighbour's take {}",
                                         node_, image_.size(), at));
    }
    in_.resize(static_cast<size_t>(shape_.ports()));
    out_.resize(static_cast<size_t>(shape_.ports()));
    const int levels = shape_.priority_levels;
    for (int p = 0; p < shape_.ports(); ++p) {
      const std::string port = fmt::format("{}.gen_port[{}]", top, p);
      const unsigned nv = static_cast<unsigned>(shape_.vcs(p));
      const unsigned nl = nv * static_cast<unsigned>(levels);  // input lanes: VC x K + level
      InputRegs& ir = in_[static_cast<size_t>(p)];
      this->bind(ir.state, port + ".u_input_unit", "ivc_state_q", nl);
      this->bind(ir.out_port, port + ".u_input_unit", "ivc_out_port_q", nl);
      this->bind(ir.out_class, port + ".u_input_unit", "ivc_out_class_q", nl);
      this->bind(ir.out_vc, port + ".u_input_unit", "ivc_out_vc_q", nl);
      this->bind(ir.count, port + ".u_input_unit", "ivc_count_q", nl);
      OutputRegs& orr = out_[static_cast<size_t>(p)];
      this->bind(orr.credits, port + ".u_output_unit", "ovc_credits_q", nv);
      this->bind(orr.owner, port + ".u_output_unit", "ovc_owner_q", nv);
      if (levels > 1) {  // the owners' stacks exist with priority levels only
        this->bind(orr.depth, port + ".u_output_unit.gen_owner_stack", "ovc_depth_q", nv);
        this->bind(orr.stack, port + ".u_output_unit.gen_owner_stack", "ovc_stack_q", nv * static_cast<unsigned>(levels - 1));
      }
    }
    if (levels > 1) this->bind(preempt_, top + ".gen_priority_stat", "stat_preempt_q", 1);
    const unsigned ports = static_cast<unsigned>(shape_.ports());
    const unsigned classes = static_cast<unsigned>(shape_.network_ports() * shape_.vc_classes + shape_.local_ports);
    this->bind(sa_in_rr_, top + ".u_sw_alloc", "sa_in_rr_q", ports);
    this->bind(sa_out_rr_, top + ".u_sw_alloc", "sa_out_rr_q", ports);
    this->bind(va_rr_, top + ".u_vc_alloc", "va_rr_q", classes);
    this->bind(va_vc_rr_, top + ".u_vc_alloc", "va_vc_rr_q", classes);
    if (shape_.organization != model::Pipeline::kSingle) {
      st_.resize(static_cast<size_t>(shape_.ports()));
      for (int p = 0; p < shape_.ports(); ++p) {
        const std::string scope = fmt::format("{}.gen_port[{}].u_output_unit.gen_out_st", top, p);
        StRegs& st = st_[static_cast<size_t>(p)];
        this->bind(st.valid, scope, "st_valid_q", 1);
        this->bind(st.vc, scope, "st_vc_q", 1);
        this->bind(st.lane, scope, "st_lane_q", 1);
      }
    }
    reset();
  }

  void reset() override {
    if (parts_.empty()) {
      this->reset_and_load(image_, CfgImage::kRouting, fmt::format("routing table of node {}", node_));
      return;
    }
    // Lookahead: one reset, then every table (a reset clears what the loaders decoded from the
    // header, such as the VC classes the lookups use, not the table RAM).
    for (size_t i = 0; i < parts_.size(); ++i) {
      const Part& part = parts_[i];
      cfg_sel_ = part.sel;
      this->reset_and_load(part.image, CfgImage::kRouting,
                           part.sel == 0 ? fmt::format("routing table of node {}", node_)
                                         : fmt::format("lookahead routing table of node {} (node {}'s, across port {})",
                                                       node_, part.node, part.sel - 1),
                           i == 0);
    }
    cfg_sel_ = 0;
    clear_inputs();
  }

  void clear_inputs() override {
    Base::clear_inputs();
    this->m_->cfg_sel_i = static_cast<uint8_t>(cfg_sel_);
  }

  template <class T>
  void pack(T& sig, unsigned lsb, const model::Flit& f) const {
    pack_flit(sig, lsb, layout_, coords_, shape_.payload_words, f);
  }
  template <class T>
  void unpack(const T& sig, unsigned lsb, model::Flit& f) const {
    unpack_flit(sig, lsb, layout_, coords_, shape_.payload_words, f);
  }

  void snapshot(model::RouterSnapshot& s) const override {
    if (s.fields.size() != model::RouterSnapshot::kFieldCount) s.layout(shape_);
    using S = model::RouterSnapshot;
    const int levels = shape_.priority_levels;
    for (int p = 0; p < shape_.ports(); ++p) {
      const size_t first = static_cast<size_t>(shape_.first_vc(p));
      const InputRegs& ir = in_[static_cast<size_t>(p)];
      const OutputRegs& orr = out_[static_cast<size_t>(p)];
      const uint64_t free_owner = (uint64_t{1} << orr.owner.width()) - 1;
      for (unsigned l = 0; l < static_cast<unsigned>(shape_.vcs(p) * levels); ++l) {
        const size_t i = first * static_cast<size_t>(levels) + l;  // input-lane index
        // The route registers hold stale values outside WAIT_VC/ACTIVE (the output VC outside
        // ACTIVE); the snapshot shows them as 0, as docs/timing-contract.md says.
        const uint64_t state = ir.state.get(l);
        s.fields[S::kIvcState].values[i] = static_cast<int64_t>(state);
        s.fields[S::kIvcOutPort].values[i] = state != 0 ? static_cast<int64_t>(ir.out_port.get(l)) : 0;
        s.fields[S::kIvcOutClass].values[i] = state != 0 ? static_cast<int64_t>(ir.out_class.get(l)) : 0;
        s.fields[S::kIvcOutVc].values[i] = state == 2 ? static_cast<int64_t>(ir.out_vc.get(l)) : 0;
        s.fields[S::kIvcCount].values[i] = static_cast<int64_t>(ir.count.get(l));
      }
      for (unsigned v = 0; v < static_cast<unsigned>(shape_.vcs(p)); ++v) {
        const size_t i = first + v;
        s.fields[S::kOvcCredits].values[i] = static_cast<int64_t>(orr.credits.get(v));
        const uint64_t owner = orr.owner.get(v);
        s.fields[S::kOvcOwner].values[i] = owner == free_owner ? -1 : static_cast<int64_t>(owner);
        if (levels > 1) {
          // Stack entries at and above the depth are stale in the RTL; the snapshot shows them as 0.
          const uint64_t depth = orr.depth.get(v);
          s.fields[S::kOvcDepth].values[i] = static_cast<int64_t>(depth);
          for (unsigned k = 0; k + 1 < static_cast<unsigned>(levels); ++k)
            s.fields[S::kOvcStack].values[i * static_cast<size_t>(levels - 1) + k] =
                k < depth ? static_cast<int64_t>(orr.stack.get(v * static_cast<unsigned>(levels - 1) + k)) : 0;
        }
      }
      s.fields[S::kSaInRr].values[static_cast<size_t>(p)] = static_cast<int64_t>(sa_in_rr_.get(static_cast<unsigned>(p)));
      s.fields[S::kSaOutRr].values[static_cast<size_t>(p)] = static_cast<int64_t>(sa_out_rr_.get(static_cast<unsigned>(p)));
    }
    const size_t classes = s.fields[S::kVaRr].values.size();
    for (size_t i = 0; i < classes; ++i) {
      s.fields[S::kVaRr].values[i] = static_cast<int64_t>(va_rr_.get(static_cast<unsigned>(i)));
      s.fields[S::kVaVcRr].values[i] = static_cast<int64_t>(va_vc_rr_.get(static_cast<unsigned>(i)));
    }
    for (size_t o = 0; o < st_.size(); ++o) {  // the switch-traversal registers (pipelined)
      s.fields[S::kStValid].values[o] = static_cast<int64_t>(st_[o].valid.get(0));
      s.fields[S::kStVc].values[o] = static_cast<int64_t>(st_[o].vc.get(0));
      s.fields[S::kStLane].values[o] = static_cast<int64_t>(st_[o].lane.get(0));
    }
  }

  uint32_t preempted_last() const override {
    return shape_.priority_levels > 1 ? static_cast<uint32_t>(preempt_.get(0)) : 0;
  }
  uint32_t stacked() const override {
    if (shape_.priority_levels == 1) return 0;
    uint32_t n = 0;
    for (int p = 0; p < shape_.ports(); ++p)
      for (unsigned v = 0; v < static_cast<unsigned>(shape_.vcs(p)); ++v)
        n += static_cast<uint32_t>(out_[static_cast<size_t>(p)].depth.get(v));
    return n;
  }
 private:
  struct InputRegs {
    RegView state, out_port, out_class, out_vc, count;
  };
  struct OutputRegs {
    RegView credits, owner, depth, stack;  // depth, stack: with priority levels only
  };

  struct StRegs {
    RegView valid, vc, lane;
  };
  struct Part {  // lookahead: one table's image and where it goes
    int sel;     // cfg_sel_i: 0 own, 1 + p the neighbour across port p
    sw::NodeId node;
    model::RoutingImage image;
  };

  model::RoutingImage image_;
  std::vector<Part> parts_;  // lookahead only
  int cfg_sel_ = 0;
  std::vector<StRegs> st_;   // pipelined only
  std::vector<InputRegs> in_;
  std::vector<OutputRegs> out_;
  RegView sa_in_rr_, sa_out_rr_, va_rr_, va_vc_rr_;
  RegView preempt_;  // stat_preempt_q, with priority levels only
};

template <class VM>
class VerilatedBarrier final : public VerilatedHarness<VM, RtlBarrier> {
  using Base = VerilatedHarness<VM, RtlBarrier>;
  using Base::m_;

 public:
  VerilatedBarrier(const RtlBarrierConfig& cfg, sw::NodeId node, const model::BarrierImage& image)
      : Base(fmt::format("barrier unit {}", node)), cfg_(cfg), node_(node), image_(image) {
    this->bind(gathered_, "torx_barrier", "gathered_q", 1);
    reset();
  }

  void reset() override {
    this->reset_and_load(image_, CfgImage::kBarrier, fmt::format("barrier image of node {}", node_));
  }

  void cycle(uint64_t /*now*/, const model::BarrierWiresIn& in, model::BarrierWiresOut& out) override {
    const unsigned ports = 2u * static_cast<unsigned>(cfg_.ndims);
    m_->entry_i = in.entry;
    m_->gather_i = static_cast<std::decay_t<decltype(m_->gather_i)>>(in.gather_mask & ((uint64_t{1} << ports) - 1));
    m_->release_i = in.release;
    this->tick();
    out.gather = m_->gather_o != 0;
    out.release = m_->release_o != 0;
  }
  uint32_t gathered() const override { return static_cast<uint32_t>(gathered_.get(0)); }

  uint32_t child_mask() const override { return static_cast<uint32_t>(m_->child_mask_o); }
  int parent_port() const override { return m_->parent_port_o == 0xFF ? -1 : static_cast<int>(m_->parent_port_o); }
  int pad() const override { return static_cast<int>(m_->pad_o); }

 private:
  void clear_inputs() override {
    m_->cfg_valid_i = 0;
    m_->cfg_last_i = 0;
    m_->cfg_data_i = 0;
    m_->entry_i = 0;
    m_->gather_i = 0;
    m_->release_i = 0;
  }

  RtlBarrierConfig cfg_;
  sw::NodeId node_;
  model::BarrierImage image_;
  RegView gathered_;
};

}  // namespace torx::rtl::detail
