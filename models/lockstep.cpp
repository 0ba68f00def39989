// SPDX-License-Identifier: Apache-2.0
#include "models/lockstep.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace torx::model {

void LockstepCoverage::merge(const LockstepCoverage& o) {
  cycles += o.cycles;
  flits += o.flits;
  registers += o.registers;
  blocked += o.blocked;
  input_vcs += o.input_vcs;
  input_vcs_full += o.input_vcs_full;
  input_vcs_waited += o.input_vcs_waited;
  output_vcs += o.output_vcs;
  output_vcs_used += o.output_vcs_used;
  output_vcs_no_credit += o.output_vcs_no_credit;
  output_ports += o.output_ports;
  sa_out_wraps += o.sa_out_wraps;
  input_ports += o.input_ports;
  sa_in_wraps += o.sa_in_wraps;
  va_groups += o.va_groups;
  va_wraps += o.va_wraps;
  va_vc_groups += o.va_vc_groups;
  va_vc_wraps += o.va_vc_wraps;
  gossip_routers += o.gossip_routers;
  gossip_rr_wraps += o.gossip_rr_wraps;
  for (int i = 0; i < 8; ++i) class_vcs_used[i] += o.class_vcs_used[i];
  output_vcs_preempted += o.output_vcs_preempted;
  output_vcs_nested += o.output_vcs_nested;
}

std::string LockstepCoverage::describe() const {
  std::string classes;
  for (int i = 0; i < 8; ++i)
    if (class_vcs_used[i]) classes += fmt::format("{}class {}: {}", classes.empty() ? "" : ", ", i, class_vcs_used[i]);
  return fmt::format(
      "input VCs full {}/{}, heads waited for a VC {}/{}; output VCs used {}/{} ({}), out of credits {}/{}; "
      "arbiter wraps: switch input {}/{}, switch output {}/{}, VC allocator {}/{}{}{}; {} blocked VC-cycles{}",
      input_vcs_full, input_vcs, input_vcs_waited, input_vcs, output_vcs_used, output_vcs, classes.empty() ? "none" : classes,
      output_vcs_no_credit, output_vcs, sa_in_wraps, input_ports, sa_out_wraps, output_ports, va_wraps, va_groups,
      // Shown only where they exist, so that the one-VC-per-class report reads as before.
      va_vc_groups ? fmt::format(", within a class {}/{}", va_vc_wraps, va_vc_groups) : "",
      gossip_routers ? fmt::format(", gossip claims {}/{}", gossip_rr_wraps, gossip_routers) : "", blocked,
      output_vcs_preempted ? fmt::format("; output VCs preempted {}/{}, nested {}", output_vcs_preempted, output_vcs,
                                         output_vcs_nested)
                           : "");
}

LockstepCore::LockstepCore(int router, std::vector<std::string> port_names, std::unique_ptr<RouterCore> a,
                           std::unique_ptr<RouterCore> b)
    : router_(router), port_names_(std::move(port_names)), a_(std::move(a)), b_(std::move(b)) {
  TORX_CHECK(a_->shape() == b_->shape(), "lock-step cores of different shapes");
  const RouterShape& s = a_->shape();
  out_b_.resize(static_cast<size_t>(s.ports()));
  snap_a_.layout(s);
  snap_b_.layout(s);
  prev_.layout(s);
  const size_t vcs = static_cast<size_t>(s.total_vcs());
  const size_t lanes = static_cast<size_t>(s.total_lanes());
  ivc_full_.assign(lanes, 0);
  ivc_waited_.assign(lanes, 0);
  ovc_used_.assign(vcs, 0);
  ovc_dry_.assign(vcs, 0);
  ovc_preempted_.assign(vcs, 0);
  in_wrap_.assign(static_cast<size_t>(s.ports()), 0);
  out_wrap_.assign(static_cast<size_t>(s.ports()), 0);
  va_wrap_.assign(prev_.fields[RouterSnapshot::kVaRr].values.size(), 0);
  // va_vc_rr_q ranges over the VCs of a class: it can move only on network ports with V >= 2.
  for (int o = 0; o < s.ports(); ++o)
    for (int c = 0; c < s.classes(o); ++c)
      va_vc_movable_.push_back(o < s.network_ports() && s.vcs_per_class >= 2);
  va_vc_wrap_.assign(va_vc_movable_.size(), 0);
}

void LockstepCore::reset() {
  a_->reset();
  b_->reset();
}

void LockstepCore::cycle(uint64_t now, const PortWires* in, PortWires* out) {
  const RouterShape& s = a_->shape();
  a_->cycle(now, in, out);
  b_->cycle(now, in, out_b_.data());
  Mismatch m;
  m.cycle = now;
  m.router = router_;
  if (!compare_outputs(s, out, out_b_.data(), m)) throw LockstepMismatch(m, m.describe(a_->kind(), b_->kind(), port_names_));
  a_->snapshot(snap_a_);
  b_->snapshot(snap_b_);
  if (!compare_snapshots(s, snap_a_, snap_b_, m)) throw LockstepMismatch(m, m.describe(a_->kind(), b_->kind(), port_names_));
  if (a_->blocked() != b_->blocked()) {
    m.port = m.vc = -1;
    m.field = "stat_blocked";
    m.a = a_->blocked();
    m.b = b_->blocked();
    throw LockstepMismatch(m, m.describe(a_->kind(), b_->kind(), port_names_));
  }
  // Coverage, from the (equal) registers.
  ++cov_.cycles;
  cov_.blocked += a_->blocked();
  for (int p = 0; p < s.ports(); ++p) cov_.flits += out[p].flit_valid;
  for (const SnapshotField& f : snap_a_.fields) cov_.registers += f.values.size();
  const auto& v = [&](size_t f) -> const std::vector<int64_t>& { return snap_a_.fields[f].values; };
  const auto& pv = [&](size_t f) -> const std::vector<int64_t>& { return prev_.fields[f].values; };
  for (size_t i = 0; i < ivc_full_.size(); ++i) {
    ivc_full_[i] |= v(RouterSnapshot::kIvcCount)[i] >= s.buffer_depth - (s.priority_levels - 1) * s.priority_reserve;
    ivc_waited_[i] |= v(RouterSnapshot::kIvcState)[i] == 1;
  }
  for (size_t i = 0; i < ovc_used_.size(); ++i) {
    ovc_used_[i] |= v(RouterSnapshot::kOvcOwner)[i] >= 0;
    ovc_dry_[i] |= v(RouterSnapshot::kOvcCredits)[i] == 0;
    const int64_t depth = v(RouterSnapshot::kOvcDepth)[i];
    if (depth > 0) ovc_preempted_[i] = std::max<uint8_t>(ovc_preempted_[i], static_cast<uint8_t>(depth));
  }
  for (size_t p = 0; p < in_wrap_.size(); ++p) {
    in_wrap_[p] |= v(RouterSnapshot::kSaInRr)[p] < pv(RouterSnapshot::kSaInRr)[p];
    out_wrap_[p] |= v(RouterSnapshot::kSaOutRr)[p] < pv(RouterSnapshot::kSaOutRr)[p];
  }
  for (size_t k = 0; k < va_wrap_.size(); ++k) va_wrap_[k] |= v(RouterSnapshot::kVaRr)[k] < pv(RouterSnapshot::kVaRr)[k];
  for (size_t k = 0; k < va_vc_wrap_.size(); ++k)
    va_vc_wrap_[k] |= v(RouterSnapshot::kVaVcRr)[k] < pv(RouterSnapshot::kVaVcRr)[k];
  if (!v(RouterSnapshot::kGossipRr).empty())
    gossip_wrap_ |= v(RouterSnapshot::kGossipRr)[0] < pv(RouterSnapshot::kGossipRr)[0];
  std::swap(prev_, snap_a_);
}

const LockstepCoverage& LockstepCore::coverage() const {
  const RouterShape& s = a_->shape();
  LockstepCoverage& c = cov_;
  c.input_vcs = ivc_full_.size();
  c.output_vcs = ovc_used_.size();
  c.input_ports = c.output_ports = in_wrap_.size();
  c.va_groups = va_wrap_.size();
  c.input_vcs_full = c.input_vcs_waited = c.output_vcs_used = c.output_vcs_no_credit = 0;
  c.sa_in_wraps = c.sa_out_wraps = c.va_wraps = 0;
  for (auto& x : c.class_vcs_used) x = 0;
  c.output_vcs_preempted = c.output_vcs_nested = 0;
  for (size_t i = 0; i < ivc_full_.size(); ++i) {
    c.input_vcs_full += ivc_full_[i];
    c.input_vcs_waited += ivc_waited_[i];
  }
  for (size_t i = 0; i < ovc_used_.size(); ++i) {
    c.output_vcs_used += ovc_used_[i];
    c.output_vcs_no_credit += ovc_dry_[i];
    c.output_vcs_preempted += ovc_preempted_[i] >= 1;
    c.output_vcs_nested += ovc_preempted_[i] >= 2;
  }
  for (int o = 0; o < s.network_ports(); ++o)
    for (int k = 0; k < s.network_vcs(); ++k) {
      const int cls = k / s.vcs_per_class;
      if (cls < 8 && ovc_used_[static_cast<size_t>(s.first_vc(o) + k)]) ++c.class_vcs_used[cls];
    }
  for (size_t p = 0; p < in_wrap_.size(); ++p) {
    c.sa_in_wraps += in_wrap_[p];
    c.sa_out_wraps += out_wrap_[p];
  }
  for (uint8_t w : va_wrap_) c.va_wraps += w;
  c.va_vc_groups = c.va_vc_wraps = 0;
  for (size_t k = 0; k < va_vc_wrap_.size(); ++k) {
    c.va_vc_groups += va_vc_movable_[k];
    c.va_vc_wraps += va_vc_movable_[k] && va_vc_wrap_[k];
  }
  c.gossip_routers = s.gossip_packet_flits > 0 && !snap_a_.fields[RouterSnapshot::kGossipRr].values.empty();
  c.gossip_rr_wraps = c.gossip_routers && gossip_wrap_;
  return c;
}

}  // namespace torx::model
