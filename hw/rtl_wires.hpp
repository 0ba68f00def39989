// SPDX-License-Identifier: Apache-2.0
// The Verilated router's wires as C++ sees them: bit access to Verilator's port types (CData ..
// QData integers, VlWide word arrays) and the flit's layout on the wires, which mirrors torx_pkg.sv
// (docs/rtl.md, "The flit on the wires"). Converting a C++ Flit to wires and back is lossless for
// every field but Flit::due, which is the C++ links' bookkeeping and not a wire, as long as the
// fields fit their hardware widths (vc < C*V, start_dim < N, priority < K: what the model sends).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/topology.hpp"
#include "models/flit.hpp"
#include "models/router_core.hpp"

namespace torx::rtl {

// torx_pkg::clog2w: bits to index n things, at least 1.
constexpr unsigned clog2w(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w == 0 ? 1 : w;
}

// The images the configuration ports load (torx_cfg_loader's owners).
enum class CfgImage { kRouting, kBarrier, kGossip };
// Why a configuration port refused an image of `kind` (torx_pkg::cfg_err_e; torx_gossip_pkg's
// GossipErr* for the gossip image), in words.
const char* cfg_error_text(CfgImage kind, unsigned code);

// --- bit access ------------------------------------------------------------------------------------
// Reads `width` <= 64 bits at `lsb` of a little-endian array of 32-bit words.
inline uint64_t get_word_bits(const uint32_t* w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  unsigned got = 0;
  while (got < width) {
    const unsigned bit = lsb + got;
    const unsigned off = bit % 32;
    const unsigned take = (32 - off) < (width - got) ? (32 - off) : (width - got);
    const uint64_t part = (static_cast<uint64_t>(w[bit / 32]) >> off) & ((uint64_t{1} << take) - 1);
    v |= part << got;
    got += take;
  }
  return v;
}
inline void put_word_bits(uint32_t* w, unsigned lsb, unsigned width, uint64_t v) {
  unsigned put = 0;
  while (put < width) {
    const unsigned bit = lsb + put;
    const unsigned off = bit % 32;
    const unsigned take = (32 - off) < (width - put) ? (32 - off) : (width - put);
    const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << take) - 1) << off);
    w[bit / 32] = (w[bit / 32] & ~mask) | (static_cast<uint32_t>((v >> put) << off) & mask);
    put += take;
  }
}

// The same on a Verilated port or variable: an integer (CData, SData, IData, QData) or a VlWide.
// On a VlWide, fields away from its end are read and written with one unaligned 128-bit access
// (the words are little-endian, as on the hosts Verilator runs on); the word loop serves the rest.
// 128-bit unsigned (a GCC and Clang extension; __extension__ keeps -Wpedantic quiet).
__extension__ typedef unsigned __int128 u128;

template <class T>
uint64_t get_bits(const T& sig, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = static_cast<uint64_t>(sig) >> lsb;
    return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
  } else {
    const unsigned byte = lsb / 8;
    if (byte + 16 <= sizeof(sig)) {
      u128 x;
      std::memcpy(&x, reinterpret_cast<const uint8_t*>(sig.data()) + byte, sizeof x);
      const uint64_t v = static_cast<uint64_t>(x >> (lsb % 8));
      return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
    }
    return get_word_bits(sig.data(), lsb, width);
  }
}
template <class T>
void put_bits(T& sig, unsigned lsb, unsigned width, uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t mask = (width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1)) << lsb;
    sig = static_cast<T>((static_cast<uint64_t>(sig) & ~mask) | ((v << lsb) & mask));
  } else {
    const unsigned byte = lsb / 8;
    if (byte + 16 <= sizeof(sig)) {
      uint8_t* at = reinterpret_cast<uint8_t*>(sig.data()) + byte;
      u128 x;
      std::memcpy(&x, at, sizeof x);
      const u128 ones = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
      const u128 mask = ones << (lsb % 8);
      const u128 val = static_cast<u128>(width >= 64 ? v : v & ((uint64_t{1} << width) - 1))
                                    << (lsb % 8);
      x = (x & ~mask) | val;
      std::memcpy(at, &x, sizeof x);
      return;
    }
    put_word_bits(sig.data(), lsb, width, v);
  }
}

// --- the flit on the wires ---------------------------------------------------------------------------
// torx_pkg's flit, mirrored: every offset comes from here (harness, lock-step, checker). A header
// (vc, head, tail, start_dim, prio, neg_mask, dest; least significant first), then the data a router
// carries untouched (payload, the gossip router's extension, the simulation tag). Zero-width fields
// (prio at K = 1, the tag without SimTag) are absent. The lookahead organization adds la_port and
// la_class at the header's end (torx_pkg::la_w): la_port is {none, eject, network port}.
inline constexpr unsigned kTagW = 64;        // torx_pkg::TagW
inline constexpr unsigned kGossipAgeW = 16;  // torx_gossip_pkg::GossipAgeW
// torx_gossip_pkg::ext_w: bits of the gossip extension (gossip bit, age, output mask of 2N ports).
constexpr unsigned gossip_ext_w(unsigned ndims) { return 1 + kGossipAgeW + 2 * ndims; }

struct FlitLayout {
  unsigned ndims = 1;
  unsigned coord_w = 1;     // clog2w(MaxRadix)
  unsigned vc_w = 1;        // clog2w(C*V)
  unsigned sd_w = 1;        // clog2w(N)
  unsigned prio_w = 0;      // clog2(K), 0 when K = 1
  unsigned net_port_w = 1;  // clog2w(2N): la_port's port bits
  unsigned la_port_w = 0;   // lookahead: net_port_w + 2 (none, eject), else 0
  unsigned la_class_w = 0;  // lookahead: clog2w(C), else 0
  unsigned flit_bytes = 32;
  unsigned ext_w = 0;       // the gossip extension's bits (0 for torx_router)
  unsigned tag_w = kTagW;   // kTagW with SimTag = 1, 0 without

  // The layout of routers of `shape` (ndims, C, V, K) with MaxRadix `max_radix`, FlitBytes
  // `flit_bytes`, an extension of `ext_w` bits and the tag when `sim_tag`.
  static FlitLayout of(const model::RouterShape& shape, unsigned max_radix, unsigned flit_bytes, unsigned ext_w,
                       bool sim_tag) {
    FlitLayout l;
    l.ndims = static_cast<unsigned>(shape.ndims);
    l.coord_w = clog2w(max_radix);
    l.vc_w = clog2w(static_cast<unsigned>(shape.network_vcs()));
    l.sd_w = clog2w(l.ndims);
    l.prio_w = shape.priority_levels > 1 ? clog2w(static_cast<unsigned>(shape.priority_levels)) : 0;
    l.net_port_w = clog2w(2 * l.ndims);
    if (shape.organization == model::Pipeline::kLookahead) {
      l.la_port_w = l.net_port_w + 2;
      l.la_class_w = clog2w(static_cast<unsigned>(shape.vc_classes));
    }
    l.flit_bytes = flit_bytes;
    l.ext_w = ext_w;
    l.tag_w = sim_tag ? kTagW : 0;
    return l;
  }

  unsigned vc() const { return 0; }
  unsigned head() const { return vc_w; }
  unsigned tail() const { return vc_w + 1; }
  unsigned start() const { return vc_w + 2; }
  unsigned prio() const { return start() + sd_w; }
  unsigned neg() const { return prio() + prio_w; }
  unsigned dest(unsigned d) const { return neg() + ndims + d * coord_w; }
  unsigned la() const { return neg() + ndims + ndims * coord_w; }
  unsigned hdr_w() const { return la() + la_port_w + la_class_w; }
  unsigned payload(unsigned word) const { return hdr_w() + 64 * word; }
  unsigned ext() const { return hdr_w() + 8 * flit_bytes; }
  unsigned tag() const { return ext() + ext_w; }
  unsigned data_w() const { return 8 * flit_bytes + ext_w + tag_w; }
  unsigned width() const { return hdr_w() + data_w(); }
};

// Node ids <-> coordinates (the hardware carries coordinates).
struct NodeCoords {
  unsigned ndims = 0;
  int32_t radix[sw::kMaxDims] = {};
  int32_t stride[sw::kMaxDims] = {};
  explicit NodeCoords(const sw::Topology& topo) : ndims(static_cast<unsigned>(topo.ndims())) {
    for (unsigned d = 0; d < ndims; ++d) {
      radix[d] = topo.radix(static_cast<int>(d));
      stride[d] = topo.stride(static_cast<int>(d));
    }
  }
};

// The header's fields (vc .. la_class) as one integer, least significant first (pack_flit,
// unpack_flit: one access to the wires instead of one per field when it fits 64 bits).
inline uint64_t flit_la_bits(const FlitLayout& l, const model::Flit& f) {
  return f.la_port == model::kLaNone    ? uint64_t{2} << l.net_port_w
         : f.la_port == model::kLaEject ? uint64_t{1} << l.net_port_w
                                        : f.la_port;
}
inline void flit_la_from_bits(const FlitLayout& l, uint64_t la, model::Flit& f) {
  f.la_port = (la >> (l.net_port_w + 1)) & 1u ? model::kLaNone
              : (la >> l.net_port_w) & 1u     ? model::kLaEject
                                              : static_cast<uint8_t>(la & ((uint64_t{1} << l.net_port_w) - 1));
}

// Writes flit `f` at bit `base` of `sig` (every field the layout has; `payload_words` payload words,
// the rest 0; the extension is the owner's: verilated_gossip_router.hpp).
template <class T>
void pack_flit(T& sig, unsigned base, const FlitLayout& l, const NodeCoords& nc, uint32_t payload_words,
               const model::Flit& f) {
  if (l.hdr_w() <= 64) {  // the header in one write
    const auto field = [](uint64_t v, unsigned w) { return w >= 64 ? v : v & ((uint64_t{1} << w) - 1); };
    uint64_t h = field(f.vc, l.vc_w) | uint64_t{f.head() ? 1u : 0u} << l.head() | uint64_t{f.tail() ? 1u : 0u} << l.tail() |
                 field(f.start_dim, l.sd_w) << l.start() | field(f.neg_mask, l.ndims) << l.neg();
    if (l.prio_w) h |= field(f.priority, l.prio_w) << l.prio();
    for (unsigned d = 0; d < l.ndims; ++d)
      h |= field(static_cast<uint64_t>((f.dest / nc.stride[d]) % nc.radix[d]), l.coord_w) << l.dest(d);
    if (l.la_port_w)
      h |= field(flit_la_bits(l, f), l.la_port_w) << l.la() | field(f.la_class, l.la_class_w) << (l.la() + l.la_port_w);
    put_bits(sig, base, l.hdr_w(), h);
  } else {
    put_bits(sig, base + l.vc(), l.vc_w, f.vc);
    put_bits(sig, base + l.head(), 1, f.head() ? 1 : 0);
    put_bits(sig, base + l.tail(), 1, f.tail() ? 1 : 0);
    put_bits(sig, base + l.start(), l.sd_w, f.start_dim);
    if (l.prio_w) put_bits(sig, base + l.prio(), l.prio_w, f.priority);
    put_bits(sig, base + l.neg(), l.ndims, f.neg_mask);
    for (unsigned d = 0; d < l.ndims; ++d)
      put_bits(sig, base + l.dest(d), l.coord_w, static_cast<uint64_t>((f.dest / nc.stride[d]) % nc.radix[d]));
    if (l.la_port_w) {
      put_bits(sig, base + l.la(), l.la_port_w, flit_la_bits(l, f));
      put_bits(sig, base + l.la() + l.la_port_w, l.la_class_w, f.la_class);
    }
  }
  for (unsigned w = 0; w < l.flit_bytes / 8; ++w)
    put_bits(sig, base + l.payload(w), 64, w < payload_words ? f.payload[w] : 0);
  if (l.tag_w) put_bits(sig, base + l.tag(), 64, uint64_t{f.seq} << 32 | f.msg);
}

// Reads the flit at bit `base` of `sig`; Flit::due stays 0.
template <class T>
void unpack_flit(const T& sig, unsigned base, const FlitLayout& l, const NodeCoords& nc, uint32_t payload_words,
                 model::Flit& f) {
  f = model::Flit{};
  if (l.hdr_w() <= 64) {  // the header in one read
    const uint64_t h = get_bits(sig, base, l.hdr_w());
    const auto field = [h](unsigned lsb, unsigned w) {
      const uint64_t v = h >> lsb;
      return w >= 64 ? v : v & ((uint64_t{1} << w) - 1);
    };
    f.vc = static_cast<uint8_t>(field(l.vc(), l.vc_w));
    f.kind = static_cast<uint8_t>((field(l.head(), 1) ? model::kFlitHead : 0) | (field(l.tail(), 1) ? model::kFlitTail : 0));
    f.start_dim = static_cast<uint8_t>(field(l.start(), l.sd_w));
    if (l.prio_w) f.priority = static_cast<uint8_t>(field(l.prio(), l.prio_w));
    f.neg_mask = static_cast<uint32_t>(field(l.neg(), l.ndims));
    int32_t dest = 0;
    for (unsigned d = 0; d < l.ndims; ++d) dest += static_cast<int32_t>(field(l.dest(d), l.coord_w)) * nc.stride[d];
    f.dest = dest;
    if (l.la_port_w) {
      flit_la_from_bits(l, field(l.la(), l.la_port_w), f);
      f.la_class = static_cast<uint8_t>(field(l.la() + l.la_port_w, l.la_class_w));
    }
  } else {
    f.vc = static_cast<uint8_t>(get_bits(sig, base + l.vc(), l.vc_w));
    f.kind = static_cast<uint8_t>((get_bits(sig, base + l.head(), 1) ? model::kFlitHead : 0) |
                                  (get_bits(sig, base + l.tail(), 1) ? model::kFlitTail : 0));
    f.start_dim = static_cast<uint8_t>(get_bits(sig, base + l.start(), l.sd_w));
    if (l.prio_w) f.priority = static_cast<uint8_t>(get_bits(sig, base + l.prio(), l.prio_w));
    f.neg_mask = static_cast<uint32_t>(get_bits(sig, base + l.neg(), l.ndims));
    int32_t dest = 0;
    for (unsigned d = 0; d < l.ndims; ++d)
      dest += static_cast<int32_t>(get_bits(sig, base + l.dest(d), l.coord_w)) * nc.stride[d];
    f.dest = dest;
    if (l.la_port_w) {
      flit_la_from_bits(l, get_bits(sig, base + l.la(), l.la_port_w), f);
      f.la_class = static_cast<uint8_t>(get_bits(sig, base + l.la() + l.la_port_w, l.la_class_w));
    }
  }
  if (l.tag_w) {
    const uint64_t tag = get_bits(sig, base + l.tag(), 64);
    f.msg = static_cast<uint32_t>(tag);
    f.seq = static_cast<uint32_t>(tag >> 32);
  }
  for (unsigned w = 0; w < l.flit_bytes / 8 && w < model::kMaxFlitWords; ++w)
    f.payload[w] = w < payload_words ? get_bits(sig, base + l.payload(w), 64) : 0;
}

}  // namespace torx::rtl
