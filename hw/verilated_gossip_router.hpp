// SPDX-License-Identifier: Apache-2.0
// VerilatedGossipRouter<VM>: a Verilated torx_gossip_router (the router in hardwired gossip mode,
// docs/gossip.md) driven through the RouterCore boundary, exactly as VerilatedRouter drives
// torx_router (verilated_router.hpp: clocking, reset, the configuration port), with two differences:
//  - the configuration port takes the node's gossip image (models/gossip_table.hpp), and a refused
//    image is an sw::InputError naming the node, the word and the reason;
//  - the flit carries torx_gossip_pkg's extension above torx_router's fields: the gossip bit, the age
//    (Flit::dest of a gossip head) and the output mask (Flit::neg_mask); the plain dest and neg_mask
//    fields travel as zeros.
// The gossip router keeps registers for VC 0 only (gossip packets use no other VC): the snapshot
// shows the other VCs at their reset values (idle, empty, full credits, free), which is what the C++
// router's registers of those VCs hold in gossip mode, and the plain router's allocator pointers as
// 0 (the C++ router's gossip cycle does not move them).
// Included only by the per-configuration sources that hw/CMakeLists.txt generates.
#pragma once

#include "hw/verilated_router.hpp"
#include "models/gossip_table.hpp"

namespace torx::rtl {

// Why torx_gossip_unit refused an image (torx_gossip_pkg::GossipErr*), in words.
inline const char* gossip_cfg_error_text(unsigned code) {
  switch (code) {
    case 1: return "the image has the wrong number of words";
    case 2: return "wrong magic";
    case 3: return "version is not supported";
    case 4: return "checksum mismatch (the image is damaged)";
    case 5: return "the number of dimensions differs from the router's";
    case 8: return "more rules than the router's MaxRules";
    case 9: return "the image is for another node";
    case 11: return "reserved bits 31:16 must be zero";
    case 12: return "a rule names a port that is not a network port";
    case 14: return "the deliver mask names ports the router does not have";
    case 15: return "an empty or zero age window";
    default: return "unknown error";
  }
}

namespace detail {

inline constexpr unsigned kGossipAgeW = 16;  // torx_gossip_pkg::GossipAgeW

template <class VM>
class VerilatedGossipRouter final : public RtlRouter {
 public:
  VerilatedGossipRouter(const RtlRouterConfig& cfg, const model::RouterShape& shape, const sw::Topology& topo,
                        sw::NodeId node, const model::GossipImage& image)
      : cfg_(cfg), shape_(shape), coords_(topo), node_(node), image_(image), ctx_(make_context()) {
    layout_.ndims = static_cast<unsigned>(cfg.ndims);
    layout_.coord_w = clog2w(static_cast<unsigned>(cfg.max_radix));
    layout_.flit_bytes = static_cast<unsigned>(cfg.flit_bytes);
    ext_ = layout_.width();
    width_ = ext_ + 1 + kGossipAgeW + 2 * layout_.ndims;
    vc_w_ = clog2w(static_cast<unsigned>(cfg.vc_classes * cfg.vcs_per_class));
    m_ = std::make_unique<VM>(ctx_.get(), "rtl");
    constexpr size_t kFlitBits = sizeof(m_->flit_i) * 8;
    const size_t want = static_cast<size_t>(shape_.ports()) * width_;
    if (kFlitBits < want || kFlitBits >= want + 32)
      throw std::logic_error(fmt::format("RTL harness: flit_i of {} has {} bits, the layout {}", cfg_.name, kFlitBits, want));
    const std::string top = std::string(m_->name()) + ".torx_gossip_router";
    regs_.resize(static_cast<size_t>(shape_.ports()));
    for (int p = 0; p < shape_.ports(); ++p) {
      const std::string port = fmt::format("{}.gen_port[{}]", top, p);
      Regs& r = regs_[static_cast<size_t>(p)];
      r.state.bind(*ctx_, port, "ivc_state_q", 1);
      r.count.bind(*ctx_, port, "ivc_count_q", 1);
      r.targets.bind(*ctx_, port, "gossip_targets_q", 1);
      r.credits.bind(*ctx_, port, "ovc_credits_q", 1);
      r.owner.bind(*ctx_, port, "ovc_owner_q", 1);
    }
    rr_.bind(*ctx_, top, "gossip_rr_q", 1);
    m_->node_id_i = static_cast<uint32_t>(node_);
    reset();
  }

  ~VerilatedGossipRouter() override {
    close_trace();
    Verilated::threadContextp(ctx_.get());
    m_.reset();
  }

  const RtlRouterConfig& config() const override { return cfg_; }
  const model::RouterShape& shape() const override { return shape_; }

  void reset() override {
    Verilated::threadContextp(ctx_.get());
    clear_inputs();
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
    m_->rst_ni = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
    load_image();
  }

  void cycle(uint64_t now, const model::PortWires* in, model::PortWires* out) override {
    Verilated::threadContextp(ctx_.get());
    m_->clk_i = 0;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now);
    for (int p = 0; p < shape_.ports(); ++p) {
      const model::PortWires& w = in[p];
      const unsigned up = static_cast<unsigned>(p);
      put_bits(m_->flit_valid_i, up, 1, w.flit_valid);
      if (w.flit_valid) {
        const unsigned base = up * width_;
        model::Flit f = w.flit;
        f.dest = 0;  // the gossip fields travel in the extension
        f.neg_mask = 0;
        pack_flit(m_->flit_i, base, layout_, coords_, shape_.payload_words, f);
        put_bits(m_->flit_i, base + ext_, 1, (w.flit.kind & model::kFlitGossip) ? 1 : 0);
        put_bits(m_->flit_i, base + ext_ + 1, kGossipAgeW, static_cast<uint32_t>(w.flit.dest));
        put_bits(m_->flit_i, base + ext_ + 1 + kGossipAgeW, 2 * layout_.ndims, w.flit.neg_mask);
      }
      put_bits(m_->credit_valid_i, up, 1, w.credit_valid);
      put_bits(m_->credit_vc_i, up * vc_w_, vc_w_, w.credit_valid ? w.credit_vc : 0);
    }
    m_->clk_i = 1;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now + 1);
    ++cycles_;
    if (ctx_->gotError())
      throw std::logic_error(fmt::format("internal error: an RTL assertion of gossip router {} ({}) failed (see the "
                                         "message above)", node_, cfg_.name));
    for (int p = 0; p < shape_.ports(); ++p) {
      model::PortWires& w = out[p];
      const unsigned up = static_cast<unsigned>(p);
      w = model::PortWires{};
      w.flit_valid = get_bits(m_->flit_valid_o, up, 1) != 0;
      if (w.flit_valid) {
        const unsigned base = up * width_;
        unpack_flit(m_->flit_o, base, layout_, coords_, shape_.payload_words, w.flit);
        if (get_bits(m_->flit_o, base + ext_, 1)) w.flit.kind |= model::kFlitGossip;
        w.flit.dest = static_cast<int32_t>(get_bits(m_->flit_o, base + ext_ + 1, kGossipAgeW));
        w.flit.neg_mask = static_cast<uint32_t>(get_bits(m_->flit_o, base + ext_ + 1 + kGossipAgeW, 2 * layout_.ndims));
      }
      w.credit_valid = get_bits(m_->credit_valid_o, up, 1) != 0;
      if (w.credit_valid) w.credit_vc = static_cast<uint8_t>(get_bits(m_->credit_vc_o, up * vc_w_, vc_w_));
    }
    if (m_->route_error_o)
      throw std::logic_error(fmt::format("internal error: RTL gossip router {} ({}): a packet it cannot forward (not a "
                                         "gossip head, or no target) (route_error_o)", node_, cfg_.name));
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

  bool quiescent() const override { return m_->quiescent_o != 0; }
  uint32_t blocked() const override { return static_cast<uint32_t>(m_->stat_blocked_o); }
  bool route_error() const override { return m_->route_error_o != 0; }
  uint64_t model_cycles() const override { return cycles_; }

  void open_trace(const std::string& path) override {
    close_trace();
    Verilated::threadContextp(ctx_.get());
    tfp_ = std::make_unique<VerilatedFstC>();
    m_->trace(tfp_.get(), 99);
    tfp_->open(path.c_str());
    if (!tfp_->isOpen()) {
      tfp_.reset();
      throw sw::InputError(fmt::format("cannot write the waveform {}", path));
    }
  }
  void close_trace() override {
    if (!tfp_) return;
    tfp_->close();
    tfp_.reset();
  }

 private:
  struct Regs {
    RegView state, count, targets, credits, owner;
  };

  void clear_inputs() {
    m_->cfg_valid_i = 0;
    m_->cfg_last_i = 0;
    m_->cfg_data_i = 0;
    m_->flit_valid_i = 0;
    m_->credit_valid_i = 0;
  }

  void tick() {
    clock_cycle(*m_, *ctx_, tfp_.get(), cycles_, fmt::format("gossip router {} ({})", node_, cfg_.name));
  }

  void load_image() {
    load_cfg_image(
        *m_, image_, [this] { tick(); }, [this] { clear_inputs(); }, fmt::format("gossip image of node {}", node_),
        [](unsigned code) { return gossip_cfg_error_text(code); }, "gossip unit");
  }

  RtlRouterConfig cfg_;
  model::RouterShape shape_;
  NodeCoords coords_;
  sw::NodeId node_;
  model::GossipImage image_;
  FlitLayout layout_;
  unsigned ext_ = 0;    // first bit of the gossip extension in a flit
  unsigned width_ = 0;  // bits of a gossip flit
  unsigned vc_w_ = 1;
  uint64_t cycles_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VM> m_;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<Regs> regs_;
  RegView rr_;
};

}  // namespace detail
}  // namespace torx::rtl
