// SPDX-License-Identifier: Apache-2.0
// VerilatedHarness<VM, Core>: what every Verilated harness of torx shares (the router's,
// verilated_router.hpp; the gossip router's, verilated_gossip_router.hpp; the barrier unit's): its
// own VerilatedContext and model VM (`--cc`), the reset sequence, the clock, the configuration port's
// image load, the FST trace and the teardown. Core is the boundary the harness implements (RtlRouter
// or RtlBarrier, hw/rtl_router.hpp); the derived harness adds the ports and registers of its module.
//
// Clocking (Verilator's guide): one cycle applies the inputs with clk_i low and evaluates, then
// raises clk_i and evaluates: the rising edge ends the cycle, and the outputs read afterwards are the
// registers the module loaded at that edge, which is exactly what it pushed in the cycle
// (docs/timing-contract.md, "Links"). Because every output is a register, several models in one
// process can be stepped one after the other in any order. Reset takes rst_ni high, low, high (the
// flops see the asynchronous edge); then the image goes through the configuration port, one word per
// clock. A failed RTL assertion (fatalOnError off) becomes an exception naming the instance.
//
// RegView reads a register the RTL marks /*verilator public_flat_rd*/, found once by name in
// Verilator's scope table and read in place afterwards (the snapshots).
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>
#include <verilated_syms.h>
#if VM_COVERAGE
#include <verilated_cov.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <unistd.h>
#endif

#include <fmt/format.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
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
  // Element i (bits beyond the variable's storage read as 0): the bytes it spans, least significant
  // first (little-endian words, as get_bits assumes).
  uint64_t get(unsigned i) const {
    const unsigned lsb = i * width_;
    const unsigned first = lsb / 8, shift = lsb % 8;
    unsigned end = (lsb + width_ + 7) / 8;
    if (end > bytes_) end = bytes_;
    u128 x = 0;
    for (unsigned b = end; b > first; --b) x = (x << 8) | data_[b - 1];
    const uint64_t v = static_cast<uint64_t>(x >> shift);
    return width_ >= 64 ? v : v & ((uint64_t{1} << width_) - 1);
  }

 private:
  const uint8_t* data_ = nullptr;
  unsigned bytes_ = 0;
  unsigned width_ = 0;
};

template <class VM, class Core>
class VerilatedHarness : public Core {
 public:
  VerilatedHarness(const VerilatedHarness&) = delete;
  VerilatedHarness& operator=(const VerilatedHarness&) = delete;

  // Writes an FST waveform of this instance from the next cycle on (`gtkwave FILE`).
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

 protected:
  // `who` names the instance in errors ("router 5 (r2d)"); `rand_seed` seeds the values registers
  // without a reset start from.
  explicit VerilatedHarness(std::string who, uint64_t rand_seed = 1) : who_(std::move(who)), ctx_(make_context(rand_seed)) {
    m_ = std::make_unique<VM>(ctx_.get(), "rtl");
  }
  ~VerilatedHarness() override {
    close_trace();
    Verilated::threadContextp(ctx_.get());  // the model's scopes unregister from the current context
#if VM_COVERAGE
    // A coverage build (TORX_RTL_COVERAGE=DIR, hw/rtl_cache.cpp): this instance's counts, one file each.
    if (const char* dir = std::getenv("TORX_RTL_COVERAGE"); dir != nullptr && *dir != '\0') {
      // Named by the process and the instance ("router 5 (r2d)": each model's shared object has its own
      // statics, so a counter alone would repeat across the router and the barrier models).
      static std::atomic<unsigned> serial{0};
      std::string who = who_;
      for (char& c : who)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      ctx_->coveragep()->write(fmt::format("{}/cov-{}-{}-{}.dat", dir, ::getpid(), who, serial++).c_str());
    }
#endif
    m_.reset();
  }

  // Drives every input of the module to its idle value (configuration port and links).
  virtual void clear_inputs() = 0;

  // Reset (inputs idle, rst_ni high, low, high with clk_i low), then `image` through the
  // configuration port. A refused image is bad input naming `what`, the word and the reason.
  // With `reset` false, only the load (a further image of the same configuration, such as a
  // lookahead router's neighbour tables: a reset would clear the earlier loads' decoded state).
  void reset_and_load(const std::vector<uint32_t>& image, CfgImage kind, const std::string& what, bool reset = true) {
    Verilated::threadContextp(ctx_.get());
    clear_inputs();
    m_->clk_i = 0;
    if (reset) {
      m_->rst_ni = 1;
      m_->eval();
      m_->rst_ni = 0;
      m_->eval();
      m_->rst_ni = 1;
      m_->eval();
    }
    for (size_t i = 0; i < image.size(); ++i) {
      m_->cfg_valid_i = 1;
      m_->cfg_data_i = image[i];
      m_->cfg_last_i = i + 1 == image.size();
      tick();
    }
    clear_inputs();
    if (image.empty() || m_->cfg_error_o) {
      const unsigned code = image.empty() ? 1u : static_cast<unsigned>(m_->cfg_error_code_o);
      const unsigned word = image.empty() ? 0u : static_cast<unsigned>(m_->cfg_error_word_o);
      throw sw::InputError(fmt::format("{}: word {}: {} (refused by the RTL loader)", what, word,
                                       cfg_error_text(kind, code)));
    }
    if (!m_->cfg_done_o)
      throw std::logic_error(fmt::format("RTL harness: {} neither accepted nor refused the image", who_));
  }

  // One whole clock with the inputs as they are: they settle with clk_i low, the rising edge ends
  // the cycle; the trace gets both halves.
  void tick() {
    begin_cycle(cycles_);
    end_cycle(cycles_);
  }
  // The two halves of a cycle, for a harness that sets this cycle's inputs in between: the falling
  // edge first, with the previous cycle's inputs still applied (nothing in the RTL acts on it, so
  // this evaluation settles nothing new), then the inputs, then end_cycle's rising edge: one
  // evaluation settles them and clocks the registers (setting the inputs before the falling edge, as
  // tick() does, gives the same registers and outputs at twice the cost).
  //
  // One evaluation per cycle (`one_eval_`, our SV; not a foreign top's): every register of torx's SV
  // is clocked on clk_i's rising edge only, so the falling edge's evaluation only recomputes the
  // input logic from the inputs it already saw. Without a waveform open, begin_cycle skips it and
  // end_cycle tells Verilator's edge detector that clk_i was low (its copy of the last value it saw,
  // the only state that evaluation changed); the next evaluation then recomputes the input logic
  // from this cycle's inputs and clocks the registers, as the two evaluations did (Verilator 5's
  // scheduler; a model without that variable keeps the two evaluations).
  void begin_cycle(uint64_t now) {
    Verilated::threadContextp(ctx_.get());
    if (fast_edge()) return;
    m_->clk_i = 0;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now);
  }
  void end_cycle(uint64_t now) {
    if constexpr (kHasTrigPrev<VM>) {
      if (fast_edge()) m_->rootp->__Vtrigrprev__TOP__clk_i = 0;
    }
    m_->clk_i = 1;
    m_->eval();
    if (tfp_) tfp_->dump(2 * now + 1);
    ++cycles_;
    if (ctx_->gotError())
      throw std::logic_error(fmt::format("an RTL assertion of {} failed (its message is above, on standard error)", who_));
  }

  // A public register of the model (`scope` below the model's top, e.g. "torx_router.u_sw_alloc").
  void bind(RegView& r, const std::string& scope, const char* name, unsigned elems) const {
    r.bind(*ctx_, std::string(m_->name()) + "." + scope, name, elems);
  }

  // Whether the edge detector's copy of clk_i can be set (the model's root class is complete here:
  // hw/rtl_factory.cpp.in includes its header) and the harness allows one evaluation per cycle.
  template <class M, class = void>
  struct TrigPrev : std::false_type {};
  template <class M>
  struct TrigPrev<M, std::void_t<decltype(std::declval<M&>().rootp->__Vtrigrprev__TOP__clk_i)>> : std::true_type {};
  template <class M>
  static constexpr bool kHasTrigPrev = TrigPrev<M>::value;
  bool fast_edge() const { return kHasTrigPrev<VM> && one_eval_ && !tfp_; }

  std::string who_;
  bool one_eval_ = true;  // false: a foreign top (it may act on the falling edge)
  uint64_t cycles_ = 0;  // clock cycles run, reset and image loads included
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VM> m_;
  std::unique_ptr<VerilatedFstC> tfp_;

 private:
  static std::unique_ptr<VerilatedContext> make_context(uint64_t rand_seed) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->traceEverOn(true);    // open_trace() may be called at any time
    ctx->fatalOnError(false);  // a failed RTL assertion becomes an exception of the harness
    ctx->randReset(2);         // registers without reset start random: nothing may depend on them
    ctx->randSeed(static_cast<int>(rand_seed));
    return ctx;
  }
};

}  // namespace torx::rtl::detail
