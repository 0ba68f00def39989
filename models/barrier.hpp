// SPDX-License-Identifier: Apache-2.0
// The barrier network: dedicated wires, separate from the data network, along a spanning tree that
// the host configures with one small image per node (docs/routing-tables.md, "Barrier image"):
// which neighbours are children to wait for, which port leads to the parent, and an equalisation
// pad. RTL twin (hw/, a later issue): after BaseJump's bsg_barrier, configured by per-node masks.
//
// Protocol, per barrier episode: a node's network interface pulses `entry`; the node's BarrierUnit
// counts that pulse and one gather pulse from each child; when all have arrived it pulses its
// parent's gather input (the root instead starts the release); a release pulse is forwarded to
// every child and to the node's interface. Each tree hop takes barrier_hop_latency cycles.
//
// Equalisation: the entry wire of a node at depth d is delayed by pad = H - d hops (H = tree
// height) and so is its release wire, so every entry reaches the root H hops after it was made and
// every interface sees the release H hops after the root issued it. The barrier then has one fixed
// latency, independent of which node arrives last:
//   B = 2 * H * barrier_hop_latency + 2 cycles (entry pulse in t, release seen in t + B)
// (the 2 is the one-cycle register at each end: the interface's entry and release wires have
// latency 1 + pad hops). docs/cycle-model.md uses B in the cycle formula.
//
// Tree: rooted at the centre node (coordinate (r-1)/2 in each dimension), dimension-ordered: a
// node's parent is its neighbour one step towards the root in the highest dimension in which they
// differ (shortest way round on a torus). Height H = sum over dimensions of floor(r/2).
#pragma once

#include <cstdint>
#include <vector>

#include <memory>

#include "core/topology.hpp"
#include "models/scheduler.hpp"
#include "models/token_wire.hpp"

namespace torx::model {

inline constexpr uint32_t kBarrierMagic = 0x54585242u;  // "TRXB"
inline constexpr uint8_t kBarrierRoot = 0xFF;

// Per-node barrier configuration image: { magic, child mask (bit per port), parent port | pad << 8 }.
using BarrierImage = std::vector<uint32_t>;

struct BarrierTree {
  sw::NodeId root = 0;
  int height = 0;
  std::vector<BarrierImage> images;  // per node
};
BarrierTree build_barrier_tree(const sw::Topology& topo);

class BarrierCore;
class CppBarrierCore;

// One node's barrier unit in the network: its wires, and the gather/release logic, either the C++
// logic inline (the fast path) or a BarrierCore (port mode: the Verilated torx_barrier, a lock-step
// pair; barrier_core.hpp) driven through the same wires, one cycle() per cycle a pulse arrives in
// (the unit's state changes only on pulses, so the cycles between are no-ops for either).
class BarrierUnit : public Clocked {
 public:
  // Decodes and validates the image (throws sw::InputError naming the node and word).
  BarrierUnit(sw::NodeId node, const BarrierImage& image, const sw::Topology& topo);
  ~BarrierUnit() override;
  // Port mode: the logic is `core`'s (made from the same image; the image is decoded here too, for
  // the wiring).
  void use_core(std::unique_ptr<BarrierCore> core);
  BarrierCore* core() const { return ext_.get(); }

  sw::NodeId node() const { return node_; }
  int parent_port() const { return parent_port_; }
  uint32_t child_mask() const { return child_mask_; }
  int pad() const { return pad_; }
  bool root() const { return parent_port_ < 0; }

  // Wiring: registers with the scheduler happen first (clock ids), then wires are configured.
  void configure_wires(Scheduler* sched, int hop_latency);
  TokenWire& gather_in() { return gather_in_; }
  TokenWire& entry_in() { return entry_in_; }
  TokenWire& release_in() { return release_in_; }
  // `parent_gather`: the parent's gather wire, on which this unit's pulses are tagged with the
  // parent's port towards it.
  void connect(TokenWire* parent_gather, std::vector<TokenWire*> child_release, TokenWire* ni_release) {
    parent_gather_ = parent_gather;
    parent_tag_ = static_cast<uint8_t>(parent_port_ ^ 1);
    child_release_ = std::move(child_release);
    ni_release_ = ni_release;
  }

  void evaluate(uint64_t cycle, int lane) override;
  void update(uint64_t, int) override {}
  bool busy() const override { return false; }  // woken by its wires' timers

  uint32_t gathered() const;
  uint32_t expected() const { return expected_; }
  uint64_t releases() const { return releases_; }

 private:
  void release(uint64_t now, int lane);

  sw::NodeId node_;
  int parent_port_ = -1;
  uint32_t child_mask_ = 0;
  int pad_ = 0;
  uint32_t expected_ = 1;  // children + own interface
  std::unique_ptr<CppBarrierCore> own_;    // the inline logic
  std::unique_ptr<BarrierCore> ext_;       // port mode
  uint8_t parent_tag_ = 0;
  uint64_t releases_ = 0;
  TokenWire gather_in_, entry_in_, release_in_;
  TokenWire* parent_gather_ = nullptr;
  std::vector<TokenWire*> child_release_;
  TokenWire* ni_release_ = nullptr;
};

}  // namespace torx::model
