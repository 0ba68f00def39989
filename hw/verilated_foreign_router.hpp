// SPDX-License-Identifier: Apache-2.0
// VerilatedForeignRouter<VM>: a router top that someone else wrote against docs/router-interface.md
// (`torx run --rtl-router FILE.sv`), Verilated (`--cc`, class VM) and driven through the project's
// RouterCore boundary, with the link-protocol checker of the document on every port.
//
// Only the contract's ports are used: clk_i, rst_ni, the per-port flit and credit wires; and, when
// the top has them (detected at compile time on VM's members), node_id_i, coord_i, the configuration port
// cfg_* (the routing image is loaded through it), quiescent_o, stat_blocked_o and route_error_o.
// Reset holds rst_ni low for kResetCycles clock cycles (a synchronous or an asynchronous reset both
// take it). There are no named registers: the snapshot is all zeros.
//
// The checker (on unless the factory says otherwise) keeps, per port, what a correct router cannot
// violate whatever its microarchitecture: the downstream credits of every output VC (D at reset,
// less a flit sent, plus a credit received), the open worm of every output VC (the message whose
// head went out and whose tail has not), and the flits written into every input VC and not yet
// freed by a credit. A violation throws sw::ProtocolError "cycle N, router R, port P: what" (exit 1).
//
// "X" in a two-state simulator: Verilator has no X. A register without a reset starts from a random
// value (--x-initial unique with the context's randReset(2)) and an explicit X assignment takes a
// random value (--x-assign unique); each router instance gets its own seed (node + 1), so a valid
// output that depends on such a register reads 1 in some instances. The checker calls it an X when
// a valid wire is 1 right after reset, or when a flit leaves a router that holds none.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/protocol_error.hpp"
#include "hw/rtl_foreign_layout.hpp"
#include "hw/verilated_harness.hpp"

namespace torx::rtl::detail {

// Which optional ports the Verilated top has.
#define TORX_FOREIGN_HAS(port)                                                                   \
  template <class T, class = void>                                                              \
  struct has_##port : std::false_type {};                                                       \
  template <class T>                                                                            \
  struct has_##port<T, std::void_t<decltype(std::declval<T&>().port)>> : std::true_type {};
TORX_FOREIGN_HAS(cfg_valid_i)
TORX_FOREIGN_HAS(node_id_i)
TORX_FOREIGN_HAS(coord_i)
TORX_FOREIGN_HAS(cfg_sel_i)
TORX_FOREIGN_HAS(la_node_id_i)
TORX_FOREIGN_HAS(quiescent_o)
TORX_FOREIGN_HAS(stat_blocked_o)
TORX_FOREIGN_HAS(route_error_o)
#undef TORX_FOREIGN_HAS

template <class VM>
class VerilatedForeignRouter final : public VerilatedHarness<VM, RtlRouter> {
  using Base = VerilatedHarness<VM, RtlRouter>;
  using Base::m_;

 public:
  static constexpr int kResetCycles = 4;

  VerilatedForeignRouter(const RtlForeignConfig& fc, const model::RouterShape& shape, const sw::Topology& topo,
                         sw::NodeId node, const model::RoutingImage& image)
      : Base(fmt::format("router {} ({})", node, fc.router.name), static_cast<uint64_t>(node) + fc.seed),
        cfg_(fc.router),
        check_(fc.check),
        shape_(shape),
        coords_(topo),
        node_(node),
        image_(image) {
    this->one_eval_ = false;  // someone else's RTL may act on the falling edge: both evaluations
    layout_ = foreign_flit_layout(shape, static_cast<unsigned>(cfg_.max_radix), static_cast<unsigned>(cfg_.flit_bytes));
    width_ = layout_.width();
    vc_w_ = clog2w(static_cast<unsigned>(shape.network_vcs()));
    constexpr size_t kFlitBits = sizeof(m_->flit_i) * 8;
    const size_t want = static_cast<size_t>(shape_.ports()) * width_;
    if (kFlitBits < want || kFlitBits >= want + 32)
      throw std::logic_error(fmt::format("RTL harness: flit_i of {} has {} bits, the layout {}", cfg_.name, kFlitBits, want));
    const size_t ports = static_cast<size_t>(shape_.ports());
    credits_.resize(ports);
    open_.resize(ports);
    held_.resize(ports);
    for (size_t p = 0; p < ports; ++p) {
      const size_t nv = static_cast<size_t>(shape_.vcs(static_cast<int>(p)));
      credits_[p].assign(nv, 0);
      open_[p].assign(nv, kNoWorm);
      held_[p].assign(nv, 0);
    }
    reset();
  }

  // "foreign": reports say so, and a stall report does not read the (empty) snapshot.
  const char* kind() const override { return "foreign"; }
  const RtlRouterConfig& config() const override { return cfg_; }
  const model::RouterShape& shape() const override { return shape_; }

  void reset() override {
    Verilated::threadContextp(this->ctx_.get());
    clear_inputs();
    if constexpr (has_node_id_i<VM>::value) m_->node_id_i = static_cast<uint32_t>(node_);
    if constexpr (has_coord_i<VM>::value) {
      for (unsigned d = 0; d < layout_.ndims; ++d)
        put_bits(m_->coord_i, d * layout_.coord_w, layout_.coord_w,
                 static_cast<uint64_t>((node_ / coords_.stride[d]) % coords_.radix[d]));
    }
    // A top with torx_router's lookahead ports (docs/router-interface.md, "Ports"): its own table only.
    if constexpr (has_cfg_sel_i<VM>::value) m_->cfg_sel_i = 0;
    if constexpr (has_la_node_id_i<VM>::value) {
      for (unsigned w = 0; w < 2 * layout_.ndims; ++w) put_bits(m_->la_node_id_i, 32 * w, 32, 0);
    }
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
    m_->rst_ni = 0;
    m_->eval();
    for (int i = 0; i < kResetCycles; ++i) this->tick();
    m_->rst_ni = 1;
    m_->eval();
    if constexpr (has_cfg_valid_i<VM>::value) {
      for (size_t i = 0; i < image_.size(); ++i) {
        m_->cfg_valid_i = 1;
        m_->cfg_data_i = image_[i];
        m_->cfg_last_i = i + 1 == image_.size();
        this->tick();
      }
      clear_inputs();
      if (image_.empty() || m_->cfg_error_o) {
        const unsigned code = image_.empty() ? 1u : static_cast<unsigned>(m_->cfg_error_code_o);
        const unsigned word = image_.empty() ? 0u : static_cast<unsigned>(m_->cfg_error_word_o);
        throw sw::InputError(fmt::format("routing table of node {}: word {}: {} (refused by {}'s configuration port)",
                                         node_, word, cfg_error_text(CfgImage::kRouting, code), cfg_.name));
      }
      if (!m_->cfg_done_o)
        throw sw::ProtocolError(fmt::format("router {}: the configuration port neither accepted nor refused the "
                                            "routing image (cfg_done_o and cfg_error_o low after the last word)",
                                            node_));
    }
    inside_ = 0;
    for (size_t p = 0; p < credits_.size(); ++p)
      for (size_t v = 0; v < credits_[p].size(); ++v) {
        credits_[p][v] = shape_.buffer_depth;
        open_[p][v] = kNoWorm;
        held_[p][v] = 0;
      }
    if (check_) {
      for (int p = 0; p < shape_.ports(); ++p) {
        const unsigned up = static_cast<unsigned>(p);
        if (get_bits(m_->flit_valid_o, up, 1))
          violation(this->cycles_, p, "flit_valid_o is 1 right after reset (X on a valid wire: a register without "
                                      "a reset, or an X assigned to it)");
        if (get_bits(m_->credit_valid_o, up, 1))
          violation(this->cycles_, p, "credit_valid_o is 1 right after reset (X on a valid wire: a register without "
                                      "a reset, or an X assigned to it)");
      }
    }
  }

  void cycle(uint64_t now, const model::PortWires* in, model::PortWires* out) override {
    this->begin_cycle(now);
    for (int p = 0; p < shape_.ports(); ++p) {
      const model::PortWires& w = in[p];
      const unsigned up = static_cast<unsigned>(p);
      put_bits(m_->flit_valid_i, up, 1, w.flit_valid);
      if (w.flit_valid) pack_flit(m_->flit_i, up * width_, layout_, coords_, shape_.payload_words, w.flit);
      put_bits(m_->credit_valid_i, up, 1, w.credit_valid);
      put_bits(m_->credit_vc_i, up * vc_w_, vc_w_, w.credit_valid ? w.credit_vc : 0);
    }
    this->end_cycle(now);
    for (int p = 0; p < shape_.ports(); ++p) {
      model::PortWires& w = out[p];
      const unsigned up = static_cast<unsigned>(p);
      w = model::PortWires{};
      w.flit_valid = get_bits(m_->flit_valid_o, up, 1) != 0;
      if (w.flit_valid) unpack_flit(m_->flit_o, up * width_, layout_, coords_, shape_.payload_words, w.flit);
      w.credit_valid = get_bits(m_->credit_valid_o, up, 1) != 0;
      if (w.credit_valid) w.credit_vc = static_cast<uint8_t>(get_bits(m_->credit_vc_o, up * vc_w_, vc_w_));
    }
    if (check_) check(now, in, out);
    if constexpr (has_route_error_o<VM>::value) {
      if (m_->route_error_o)
        throw sw::ProtocolError(fmt::format("cycle {}, router {}: route_error_o is set (the router found no route "
                                            "for a head)",
                                            now, node_));
    }
  }

  void snapshot(model::RouterSnapshot& s) const override {
    if (s.fields.size() != model::RouterSnapshot::kFieldCount) s.layout(shape_);
  }
  bool quiescent() const override {
    if constexpr (has_quiescent_o<VM>::value) return m_->quiescent_o != 0;
    if (inside_ != 0) return false;
    for (const auto& port : held_)
      for (int h : port)
        if (h) return false;
    return true;
  }
  uint32_t blocked() const override {
    if constexpr (has_stat_blocked_o<VM>::value) return static_cast<uint32_t>(m_->stat_blocked_o);
    return 0;
  }
  bool route_error() const override {
    if constexpr (has_route_error_o<VM>::value) return m_->route_error_o != 0;
    return false;
  }
  uint64_t model_cycles() const override { return this->cycles_; }

 private:
  static constexpr int64_t kNoWorm = -1;

  void clear_inputs() override {
    if constexpr (has_cfg_valid_i<VM>::value) {
      m_->cfg_valid_i = 0;
      m_->cfg_last_i = 0;
      m_->cfg_data_i = 0;
    }
    m_->flit_valid_i = 0;
    m_->credit_valid_i = 0;
  }

  [[noreturn]] void violation(uint64_t now, int p, const std::string& what) const {
    throw sw::ProtocolError(fmt::format("cycle {}, router {}, port {}: {}", now, node_, port_name(p), what));
  }
  std::string port_name(int p) const {
    if (p < shape_.network_ports()) return fmt::format("{} ({})", p, sw::Topology::port_name(p));
    return fmt::format("{} (local {})", p, p - shape_.network_ports());
  }

  // The link protocol of docs/router-interface.md, "What the checker enforces", on this cycle's wires.
  void check(uint64_t now, const model::PortWires* in, const model::PortWires* out) {
    const int n = shape_.ports();
    // In: flits written into the input VCs, credits returned by the downstream buffers.
    for (int p = 0; p < n; ++p) {
      if (in[p].flit_valid) {
        ++held_[static_cast<size_t>(p)][in[p].flit.vc];
        ++inside_;
      }
      if (in[p].credit_valid) ++credits_[static_cast<size_t>(p)][in[p].credit_vc];
    }
    // Out: credits upstream, then flits downstream.
    for (int p = 0; p < n; ++p) {
      const model::PortWires& w = out[p];
      const int nv = shape_.vcs(p);
      if (w.credit_valid) {
        if (w.credit_vc >= nv)
          violation(now, p, fmt::format("credit on VC {}, the input has {} VC{}", w.credit_vc, nv, nv == 1 ? "" : "s"));
        int& h = held_[static_cast<size_t>(p)][w.credit_vc];
        if (h == 0)
          violation(now, p, fmt::format("credit on VC {} beyond the buffer depth: every flit written into VC {} "
                                        "has had its credit (the upstream would count more than {} free slots)",
                                        w.credit_vc, w.credit_vc, shape_.buffer_depth));
        --h;
      }
      if (!w.flit_valid) continue;
      const model::Flit& f = w.flit;
      if (inside_ == 0)
        violation(now, p, fmt::format("a flit leaves on VC {} and the router holds none (X on a valid wire: a "
                                      "register without a reset, or a flit sent twice)",
                                      f.vc));
      --inside_;
      if (f.vc >= nv)
        violation(now, p, fmt::format("flit on VC {}, a VC the port does not have ({} VC{}; message {}, flit {})", f.vc,
                                      nv, nv == 1 ? "" : "s", f.msg, f.seq));
      int& c = credits_[static_cast<size_t>(p)][f.vc];
      if (c <= 0)
        violation(now, p, fmt::format("flit without a credit on VC {}: the downstream buffer of {} flits is full "
                                      "(message {}, flit {})",
                                      f.vc, shape_.buffer_depth, f.msg, f.seq));
      --c;
      int64_t& open = open_[static_cast<size_t>(p)][f.vc];
      if (f.head()) {
        if (open != kNoWorm)
          violation(now, p, fmt::format("two worms interleaved on VC {}: the head of message {} while message {} "
                                        "holds the VC (its tail has not left)",
                                        f.vc, f.msg, open));
        if (!f.tail()) open = f.msg;
      } else {
        if (open == kNoWorm)
          violation(now, p, fmt::format("{} flit without a head on VC {} (message {}, flit {}): no worm holds the VC",
                                        f.tail() ? "tail" : "body", f.vc, f.msg, f.seq));
        if (open != static_cast<int64_t>(f.msg))
          violation(now, p, fmt::format("two worms interleaved on VC {}: flit {} of message {} while message {} "
                                        "holds the VC",
                                        f.vc, f.seq, f.msg, open));
        if (f.tail()) open = kNoWorm;
      }
    }
  }

  RtlRouterConfig cfg_;
  bool check_ = true;
  model::RouterShape shape_;
  NodeCoords coords_;
  sw::NodeId node_;
  model::RoutingImage image_;
  FlitLayout layout_;
  unsigned width_ = 0;
  unsigned vc_w_ = 1;
  int64_t inside_ = 0;                            // flits received and not yet sent
  std::vector<std::vector<int>> credits_;         // per output port and VC: downstream free slots
  std::vector<std::vector<int64_t>> open_;        // per output port and VC: the open worm's message
  std::vector<std::vector<int>> held_;            // per input port and VC: flits written, not yet credited
};

}  // namespace torx::rtl::detail
