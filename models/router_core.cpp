// SPDX-License-Identifier: Apache-2.0
#include "models/router_core.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace torx::model {

RouterShape router_shape(const sw::NetworkParams& p, int ndims, int local_ports, int vc_classes, uint32_t flit_bytes,
                         uint32_t gossip_packet_flits) {
  RouterShape s;
  s.ndims = ndims;
  s.local_ports = local_ports;
  s.vc_classes = vc_classes;
  s.vcs_per_class = p.vcs_per_class;
  s.buffer_depth = p.buffer_depth;
  s.pipeline = p.router_latency;
  s.organization = static_cast<Pipeline>(p.pipeline);
  s.payload_words = (flit_bytes + 7) / 8;
  s.priority_levels = p.priority_levels;
  s.priority_reserve = p.priority_reserve;
  s.gossip_packet_flits = gossip_packet_flits;
  return s;
}

void RouterSnapshot::layout(const RouterShape& s) {
  const size_t vcs = static_cast<size_t>(s.total_vcs());
  const size_t lanes = static_cast<size_t>(s.total_lanes());
  const size_t ports = static_cast<size_t>(s.ports());
  size_t classes = 0;
  for (int o = 0; o < s.ports(); ++o) classes += static_cast<size_t>(s.classes(o));
  fields.assign(kFieldCount, SnapshotField{});
  auto set = [&](size_t i, const char* name, FieldScope scope, size_t n) {
    fields[i].name = name;
    fields[i].scope = scope;
    fields[i].values.assign(n, 0);
  };
  set(kIvcState, "ivc_state_q", FieldScope::kInputVc, lanes);
  set(kIvcOutPort, "ivc_out_port_q", FieldScope::kInputVc, lanes);
  set(kIvcOutClass, "ivc_out_class_q", FieldScope::kInputVc, lanes);
  set(kIvcOutVc, "ivc_out_vc_q", FieldScope::kInputVc, lanes);
  set(kIvcCount, "ivc_count_q", FieldScope::kInputVc, lanes);
  set(kOvcCredits, "ovc_credits_q", FieldScope::kOutputVc, vcs);
  set(kOvcOwner, "ovc_owner_q", FieldScope::kOutputVc, vcs);
  set(kOvcDepth, "ovc_depth_q", FieldScope::kOutputVc, vcs);
  set(kOvcStack, "ovc_stack_q", FieldScope::kOutputStack, vcs * static_cast<size_t>(s.priority_levels - 1));
  set(kSaInRr, "sa_in_rr_q", FieldScope::kInputPort, ports);
  set(kSaOutRr, "sa_out_rr_q", FieldScope::kOutputPort, ports);
  set(kVaRr, "va_rr_q", FieldScope::kOutputClass, classes);
  set(kVaVcRr, "va_vc_rr_q", FieldScope::kOutputClass, classes);
  const bool gossip = s.gossip_packet_flits != 0;
  set(kGossipTargets, "gossip_targets_q", FieldScope::kInputVc, gossip ? lanes : 0);
  set(kGossipRr, "gossip_rr_q", FieldScope::kRouter, gossip ? 1 : 0);
  const bool st = s.traversal_stage();
  set(kStValid, "st_valid_q", FieldScope::kOutputPort, st ? ports : 0);
  set(kStVc, "st_vc_q", FieldScope::kOutputPort, st ? ports : 0);
  set(kStLane, "st_lane_q", FieldScope::kOutputPort, st ? ports : 0);
}

namespace {

// (port, VC or class) of entry i of a field with this scope.
std::pair<int, int> locate(const RouterShape& s, FieldScope scope, size_t i) {
  const int k = static_cast<int>(i);
  auto vc_of = [&](int ivc) -> std::pair<int, int> {
    for (int p = s.ports() - 1; p >= 0; --p)
      if (s.first_vc(p) <= ivc) return {p, ivc - s.first_vc(p)};
    return {-1, -1};
  };
  switch (scope) {
    case FieldScope::kInputVc: {  // a lane: report its VC (its level is the lane index % K)
      return vc_of(k / s.priority_levels);
    }
    case FieldScope::kOutputVc: return vc_of(k);
    case FieldScope::kOutputStack: return vc_of(k / std::max(1, s.priority_levels - 1));
    case FieldScope::kInputPort:
    case FieldScope::kOutputPort: return {k, -1};
    case FieldScope::kRouter: return {-1, -1};
    case FieldScope::kOutputClass: {
      int base = 0;
      for (int o = 0; o < s.ports(); ++o) {
        if (k < base + s.classes(o)) return {o, k - base};
        base += s.classes(o);
      }
      return {-1, -1};
    }
  }
  return {-1, -1};
}

// The field's name is made only when the values differ (this runs for every compared router-cycle).
bool differ(Mismatch& m, int port, int vc, const char* field, int64_t a, int64_t b) {
  if (a == b) return false;
  m.port = port;
  m.vc = vc;
  m.field = field;
  m.a = a;
  m.b = b;
  return true;
}

}  // namespace

bool compare_snapshots(const RouterShape& s, const RouterSnapshot& a, const RouterSnapshot& b, Mismatch& m) {
  if (a.fields.size() != b.fields.size()) return !differ(m, -1, -1, "snapshot field count", a.fields.size(), b.fields.size());
  for (size_t f = 0; f < a.fields.size(); ++f) {
    const SnapshotField& fa = a.fields[f];
    const SnapshotField& fb = b.fields[f];
    if (fa.values.size() != fb.values.size())
      if (differ(m, -1, -1, fa.name, static_cast<int64_t>(fa.values.size()), static_cast<int64_t>(fb.values.size()))) {
        m.field = std::string(fa.name) + " size";
        return false;
      }
    if (fa.values == fb.values) continue;  // one memcmp for the usual case
    for (size_t i = 0; i < fa.values.size(); ++i) {
      if (fa.values[i] == fb.values[i]) continue;
      const auto [port, vc] = locate(s, fa.scope, i);
      return !differ(m, port, vc, fa.name, fa.values[i], fb.values[i]);
    }
  }
  return true;
}

bool compare_outputs(const RouterShape& s, const PortWires* a, const PortWires* b, Mismatch& m) {
  for (int p = 0; p < s.ports(); ++p) {
    const PortWires& x = a[p];
    const PortWires& y = b[p];
    if (differ(m, p, -1, "flit_valid", x.flit_valid, y.flit_valid)) return false;
    if (x.flit_valid) {
      const Flit& f = x.flit;
      const Flit& g = y.flit;
      if (differ(m, p, -1, "flit.vc", f.vc, g.vc) || differ(m, p, -1, "flit.kind", f.kind, g.kind) ||
          differ(m, p, -1, "flit.msg", f.msg, g.msg) || differ(m, p, -1, "flit.seq", f.seq, g.seq) ||
          differ(m, p, -1, "flit.priority", f.priority, g.priority) ||
          differ(m, p, -1, "flit.la_port", f.la_port, g.la_port) ||
          differ(m, p, -1, "flit.la_class", f.la_class, g.la_class))
        return false;
      if (f.head() && (differ(m, p, -1, "flit.dest", f.dest, g.dest) ||
                       differ(m, p, -1, "flit.start_dim", f.start_dim, g.start_dim) ||
                       differ(m, p, -1, "flit.neg_mask", f.neg_mask, g.neg_mask)))
        return false;
      for (uint32_t w = 0; w < s.payload_words; ++w)
        if (differ(m, p, -1, "flit.payload", static_cast<int64_t>(f.payload[w]), static_cast<int64_t>(g.payload[w]))) {
          m.field = fmt::format("flit.payload[{}]", w);
          return false;
        }
    }
    if (differ(m, p, -1, "credit_valid", x.credit_valid, y.credit_valid)) return false;
    if (x.credit_valid && differ(m, p, -1, "credit_vc", x.credit_vc, y.credit_vc)) return false;
  }
  return true;
}

std::string Mismatch::describe(const char* name_a, const char* name_b, const std::vector<std::string>& port_names) const {
  std::string where = fmt::format("cycle {}, router {}", cycle, router);
  if (port >= 0)
    where += fmt::format(", port {}", static_cast<size_t>(port) < port_names.size() ? port_names[port] : std::to_string(port));
  if (vc >= 0) where += fmt::format(", {} {}", field.rfind("va_", 0) == 0 ? "class" : "VC", vc);
  return fmt::format("{}, field {}: {} {}, {} {}", where, field, name_a, a, name_b, b);
}

}  // namespace torx::model
