// SPDX-License-Identifier: Apache-2.0
// VerilatedRouter<VM> and VerilatedBarrier<VM>: a Verilated torx_router / torx_barrier (`--cc`,
// class VM) driven through the project's boundaries (RouterCore, BarrierCore). Included only by
// the per-configuration sources that hw/CMakeLists.txt generates (rtl_config.cpp.in), each with its
// own model header; users include hw/rtl_router.hpp.
//
// Clocking (Verilator's guide): each model has its own VerilatedContext. One cycle applies the
// inputs with clk_i low and evaluates, then raises clk_i and evaluates: the rising edge ends the
// cycle, and the outputs read afterwards are the registers the router loaded at that edge, which is
// exactly what it pushed in the cycle (docs/timing-contract.md, "Links"). Because every output is a
// register, several models in one process can be stepped one after the other in any order.
// Reset takes rst_ni high, low, high (the flops see the asynchronous edge), then loads the image
// through the configuration port, one word per clock.
//
// Registers for snapshot() are found once, by name, in Verilator's scope table (the RTL marks them
// /*verilator public_flat_rd*/), and read in place afterwards.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>
#include <verilated_syms.h>

#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "hw/rtl_router.hpp"
#include "hw/rtl_wires.hpp"

namespace torx::rtl::detail {

// A public register of a Verilated model, seen as `elems` equal fields (flat vectors: element i at
// bits [i*w +: w]).
class RegView {
 public:
  void bind(const VerilatedContext& ctx, const std::string& scope, const char* name, unsigned elems) {
    const VerilatedScope* sc = ctx.scopeFind(scope.c_str());
    if (!sc) throw std::logic_error(fmt::format("RTL harness: no scope {} in the Verilated model", scope));
    const VerilatedVar* v = sc->varFind(name);
    if (!v) throw std::logic_error(fmt::format("RTL harness: no public register {}.{}", scope, name));
    data_ = static_cast<const uint8_t*>(v->datap());
    const unsigned width = static_cast<unsigned>(v->packed().elements());
    switch (v->vltype()) {
      case VLVT_UINT8: bytes_ = 1; break;
      case VLVT_UINT16: bytes_ = 2; break;
      case VLVT_UINT32: bytes_ = 4; break;
      case VLVT_UINT64: bytes_ = 8; break;
      case VLVT_WDATA: bytes_ = 4 * ((width + 31) / 32); break;
      default: throw std::logic_error(fmt::format("RTL harness: {}.{} has an unexpected type", scope, name));
    }
    if (elems == 0 || width % elems != 0)
      throw std::logic_error(fmt::format("RTL harness: {}.{} has {} bits, not {} equal fields", scope, name, width, elems));
    width_ = width / elems;
  }
  unsigned width() const { return width_; }
  uint64_t get(unsigned i) const {
    uint64_t v = 0;
    const unsigned lsb = i * width_;
    for (unsigned b = 0; b < width_; ++b) {
      const unsigned bit = lsb + b;
      if (bit / 8 < bytes_ && ((data_[bit / 8] >> (bit % 8)) & 1u)) v |= uint64_t{1} << b;
    }
    return v;
  }

 private:
  const uint8_t* data_ = nullptr;
  unsigned bytes_ = 0;
  unsigned width_ = 0;
};

inline std::unique_ptr<VerilatedContext> make_context() {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(true);    // open_trace() may be called at any time
  ctx->fatalOnError(false);  // a failed RTL assertion becomes an exception of the harness
  ctx->randReset(2);         // registers without reset start random: nothing may depend on them
  ctx->randSeed(1);
  return ctx;
}

// The harnesses' shared clocking and image loading (router, gossip router, barrier unit).

// One clock: inputs settle with clk_i low, the rising edge ends the cycle; the FST trace gets both
// halves. `who` names the instance in the error an RTL assertion raises.
template <class VM>
void clock_cycle(VM& m, VerilatedContext& ctx, VerilatedFstC* tfp, uint64_t& cycles, const std::string& who) {
  Verilated::threadContextp(&ctx);
  m.clk_i = 0;
  m.eval();
  if (tfp) tfp->dump(2 * cycles);
  m.clk_i = 1;
  m.eval();
  if (tfp) tfp->dump(2 * cycles + 1);
  ++cycles;
  if (ctx.gotError())
    throw std::logic_error(fmt::format("internal error: an RTL assertion of {} failed (see the message above)", who));
}

// Writes `image` through the configuration port word by word (`tick` clocks one cycle, `clear`
// drives the idle inputs). A refusal is bad input naming `what`, the word and the reason from
// `error_text(code)`; neither refusal nor acceptance is a harness error.
template <class VM, class Tick, class Clear, class Text>
void load_cfg_image(VM& m, const std::vector<uint32_t>& image, Tick&& tick, Clear&& clear, const std::string& what,
                    Text&& error_text, const char* unit) {
  clear();
  for (size_t i = 0; i < image.size(); ++i) {
    m.cfg_valid_i = 1;
    m.cfg_data_i = image[i];
    m.cfg_last_i = i + 1 == image.size();
    tick();
  }
  clear();
  if (image.empty() || m.cfg_error_o) {
    const unsigned code = image.empty() ? 1u : static_cast<unsigned>(m.cfg_error_code_o);
    const unsigned word = image.empty() ? 0u : static_cast<unsigned>(m.cfg_error_word_o);
    throw sw::InputError(fmt::format("{}: word {}: {} (refused by the RTL loader)", what, word, error_text(code)));
  }
  if (!m.cfg_done_o)
    throw std::logic_error(fmt::format("RTL harness: the {} neither accepted nor refused the image", unit));
}

template <class VM>
class VerilatedRouter final : public RtlRouter {
 public:
  VerilatedRouter(const RtlRouterConfig& cfg, const model::RouterShape& shape, const sw::Topology& topo,
                  sw::NodeId node, const model::RoutingImage& image)
      : cfg_(cfg), shape_(shape), coords_(topo), node_(node), image_(image), ctx_(make_context()) {
    layout_.ndims = static_cast<unsigned>(cfg.ndims);
    layout_.coord_w = clog2w(static_cast<unsigned>(cfg.max_radix));
    layout_.flit_bytes = static_cast<unsigned>(cfg.flit_bytes);
    vc_w_ = clog2w(static_cast<unsigned>(cfg.vc_classes * cfg.vcs_per_class));
    m_ = std::make_unique<VM>(ctx_.get(), "rtl");
    constexpr size_t kFlitBits = sizeof(m_->flit_i) * 8;
    const size_t want = static_cast<size_t>(shape_.ports()) * layout_.width();
    if (kFlitBits < want || kFlitBits >= want + 32)
      throw std::logic_error(fmt::format("RTL harness: flit_i of {} has {} bits, the layout {}", cfg_.name, kFlitBits, want));
    const std::string top = std::string(m_->name()) + ".torx_router";
    in_.resize(static_cast<size_t>(shape_.ports()));
    out_.resize(static_cast<size_t>(shape_.ports()));
    const int levels = shape_.priority_levels;
    for (int p = 0; p < shape_.ports(); ++p) {
      const std::string port = fmt::format("{}.gen_port[{}]", top, p);
      const unsigned nv = static_cast<unsigned>(shape_.vcs(p));
      const unsigned nl = nv * static_cast<unsigned>(levels);  // input lanes: VC x K + level
      InputRegs& ir = in_[static_cast<size_t>(p)];
      ir.state.bind(*ctx_, port + ".u_input_unit", "ivc_state_q", nl);
      ir.out_port.bind(*ctx_, port + ".u_input_unit", "ivc_out_port_q", nl);
      ir.out_class.bind(*ctx_, port + ".u_input_unit", "ivc_out_class_q", nl);
      ir.out_vc.bind(*ctx_, port + ".u_input_unit", "ivc_out_vc_q", nl);
      ir.count.bind(*ctx_, port + ".u_input_unit", "ivc_count_q", nl);
      OutputRegs& orr = out_[static_cast<size_t>(p)];
      orr.credits.bind(*ctx_, port + ".u_output_unit", "ovc_credits_q", nv);
      orr.owner.bind(*ctx_, port + ".u_output_unit", "ovc_owner_q", nv);
      if (levels > 1) {  // the owners' stacks exist with priority levels only
        orr.depth.bind(*ctx_, port + ".u_output_unit.gen_owner_stack", "ovc_depth_q", nv);
        orr.stack.bind(*ctx_, port + ".u_output_unit.gen_owner_stack", "ovc_stack_q", nv * static_cast<unsigned>(levels - 1));
      }
    }
    if (levels > 1) preempt_.bind(*ctx_, top + ".gen_priority_stat", "stat_preempt_q", 1);
    const unsigned ports = static_cast<unsigned>(shape_.ports());
    const unsigned classes = static_cast<unsigned>(shape_.network_ports() * shape_.vc_classes + shape_.local_ports);
    sa_in_rr_.bind(*ctx_, top + ".u_sw_alloc", "sa_in_rr_q", ports);
    sa_out_rr_.bind(*ctx_, top + ".u_sw_alloc", "sa_out_rr_q", ports);
    va_rr_.bind(*ctx_, top + ".u_vc_alloc", "va_rr_q", classes);
    va_vc_rr_.bind(*ctx_, top + ".u_vc_alloc", "va_vc_rr_q", classes);
    m_->node_id_i = static_cast<uint32_t>(node_);
    reset();
  }

  ~VerilatedRouter() override {
    close_trace();
    Verilated::threadContextp(ctx_.get());  // the model's scopes unregister from the current context
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
    // The falling edge first, with the previous cycle's inputs still applied (nothing in the RTL
    // acts on it, so this evaluation settles nothing new), then this cycle's inputs with the rising
    // edge: one evaluation settles them and clocks the registers. (Setting the inputs before the
    // falling edge, as load_image does, gives the same registers and outputs at twice the cost.)
    Verilated::threadContextp(ctx_.get());
    m_->clk_i = 0;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now);
    for (int p = 0; p < shape_.ports(); ++p) {
      const model::PortWires& w = in[p];
      const unsigned up = static_cast<unsigned>(p);
      put_bits(m_->flit_valid_i, up, 1, w.flit_valid);
      if (w.flit_valid) pack_flit(m_->flit_i, up * layout_.width(), layout_, coords_, shape_.payload_words, w.flit);
      put_bits(m_->credit_valid_i, up, 1, w.credit_valid);
      put_bits(m_->credit_vc_i, up * vc_w_, vc_w_, w.credit_valid ? w.credit_vc : 0);
    }
    m_->clk_i = 1;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now + 1);
    ++cycles_;
    if (ctx_->gotError())
      throw std::logic_error(fmt::format("internal error: an RTL assertion of router {} ({}) failed (see the "
                                         "message above)", node_, cfg_.name));
    for (int p = 0; p < shape_.ports(); ++p) {
      model::PortWires& w = out[p];
      const unsigned up = static_cast<unsigned>(p);
      w = model::PortWires{};
      w.flit_valid = get_bits(m_->flit_valid_o, up, 1) != 0;
      if (w.flit_valid) unpack_flit(m_->flit_o, up * layout_.width(), layout_, coords_, shape_.payload_words, w.flit);
      w.credit_valid = get_bits(m_->credit_valid_o, up, 1) != 0;
      if (w.credit_valid) w.credit_vc = static_cast<uint8_t>(get_bits(m_->credit_vc_o, up * vc_w_, vc_w_));
    }
    if (m_->route_error_o)
      throw std::logic_error(fmt::format("internal error: RTL router {} ({}): the routing table has no route for a head "
                                         "(route_error_o)", node_, cfg_.name));
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
  }

  bool quiescent() const override { return m_->quiescent_o != 0; }
  uint32_t blocked() const override { return static_cast<uint32_t>(m_->stat_blocked_o); }
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
  struct InputRegs {
    RegView state, out_port, out_class, out_vc, count;
  };
  struct OutputRegs {
    RegView credits, owner, depth, stack;  // depth, stack: with priority levels only
  };

  void clear_inputs() {
    m_->cfg_valid_i = 0;
    m_->cfg_last_i = 0;
    m_->cfg_data_i = 0;
    m_->flit_valid_i = 0;
    m_->credit_valid_i = 0;
  }

  void tick() {
    clock_cycle(*m_, *ctx_, tfp_.get(), cycles_, fmt::format("router {} ({})", node_, cfg_.name));
  }

  void load_image() {
    load_cfg_image(
        *m_, image_, [this] { tick(); }, [this] { clear_inputs(); }, fmt::format("routing table of node {}", node_),
        [](unsigned code) { return cfg_error_text(code); }, "routing unit");
  }

  RtlRouterConfig cfg_;
  model::RouterShape shape_;
  NodeCoords coords_;
  sw::NodeId node_;
  model::RoutingImage image_;
  FlitLayout layout_;
  unsigned vc_w_ = 1;
  uint64_t cycles_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VM> m_;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<InputRegs> in_;
  std::vector<OutputRegs> out_;
  RegView sa_in_rr_, sa_out_rr_, va_rr_, va_vc_rr_;
  RegView preempt_;  // stat_preempt_q, with priority levels only
};

template <class VM>
class VerilatedBarrier final : public RtlBarrier {
 public:
  VerilatedBarrier(const RtlBarrierConfig& cfg, sw::NodeId node, const model::BarrierImage& image)
      : cfg_(cfg), node_(node), image_(image), ctx_(make_context()) {
    m_ = std::make_unique<VM>(ctx_.get(), "rtl");
    gathered_.bind(*ctx_, std::string(m_->name()) + ".torx_barrier", "gathered_q", 1);
    reset();
  }
  ~VerilatedBarrier() override {
    close_trace();
    Verilated::threadContextp(ctx_.get());
    m_.reset();
  }

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
    for (size_t i = 0; i < image_.size(); ++i) {
      m_->cfg_valid_i = 1;
      m_->cfg_data_i = image_[i];
      m_->cfg_last_i = i + 1 == image_.size();
      tick();
    }
    clear_inputs();
    if (image_.empty() || m_->cfg_error_o) {
      const unsigned code = image_.empty() ? 1u : static_cast<unsigned>(m_->cfg_error_code_o);
      const unsigned word = image_.empty() ? 0u : static_cast<unsigned>(m_->cfg_error_word_o);
      throw sw::InputError(fmt::format("barrier image of node {}: word {}: {} (refused by the RTL loader)", node_, word,
                                       cfg_error_text(code)));
    }
  }

  void cycle(uint64_t /*now*/, const model::BarrierWiresIn& in, model::BarrierWiresOut& out) override {
    const unsigned ports = 2u * static_cast<unsigned>(cfg_.ndims);
    m_->entry_i = in.entry;
    m_->gather_i = static_cast<std::decay_t<decltype(m_->gather_i)>>(in.gather_mask & ((uint64_t{1} << ports) - 1));
    m_->release_i = in.release;
    tick();
    out.gather = m_->gather_o != 0;
    out.release = m_->release_o != 0;
  }
  uint32_t gathered() const override { return static_cast<uint32_t>(gathered_.get(0)); }

  uint32_t child_mask() const override { return static_cast<uint32_t>(m_->child_mask_o); }
  int parent_port() const override { return m_->parent_port_o == 0xFF ? -1 : static_cast<int>(m_->parent_port_o); }
  int pad() const override { return static_cast<int>(m_->pad_o); }

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
  void clear_inputs() {
    m_->cfg_valid_i = 0;
    m_->cfg_last_i = 0;
    m_->cfg_data_i = 0;
    m_->entry_i = 0;
    m_->gather_i = 0;
    m_->release_i = 0;
  }
  void tick() { clock_cycle(*m_, *ctx_, tfp_.get(), cycles_, fmt::format("barrier unit {}", node_)); }

  RtlBarrierConfig cfg_;
  sw::NodeId node_;
  model::BarrierImage image_;
  uint64_t cycles_ = 0;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VM> m_;
  std::unique_ptr<VerilatedFstC> tfp_;
  RegView gathered_;
};

}  // namespace torx::rtl::detail
