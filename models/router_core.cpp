// SPDX-License-Identifier: Apache-2.0
// The router boundary's shared pieces (router_core.hpp): the snapshot layout every implementation
// fills, and the comparisons the lock-step harness reports with.
#include "models/router_core.hpp"

#include <fmt/format.h>

namespace torx::model {

namespace {

// Input or output VC index -> (port, VC within the port); both sides are numbered the same way.
void vc_position(const RouterShape& s, size_t i, int& port, int& vc) {
  const size_t net = static_cast<size_t>(s.network_ports()) * static_cast<size_t>(s.network_vcs());
  if (i < net) {
    port = static_cast<int>(i / static_cast<size_t>(s.network_vcs()));
    vc = static_cast<int>(i % static_cast<size_t>(s.network_vcs()));
  } else {
    port = s.network_ports() + static_cast<int>(i - net);
    vc = 0;
  }
}

// (output port, class) index -> port and class.
void class_position(const RouterShape& s, size_t i, int& port, int& cls) {
  const size_t net = static_cast<size_t>(s.network_ports()) * static_cast<size_t>(s.vc_classes);
  if (i < net) {
    port = static_cast<int>(i / static_cast<size_t>(s.vc_classes));
    cls = static_cast<int>(i % static_cast<size_t>(s.vc_classes));
  } else {
    port = s.network_ports() + static_cast<int>(i - net);
    cls = 0;
  }
}

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

void RouterSnapshot::layout(const RouterShape& s) {
  const size_t vcs = static_cast<size_t>(s.total_vcs());
  const size_t ports = static_cast<size_t>(s.ports());
  const size_t classes = static_cast<size_t>(s.network_ports()) * static_cast<size_t>(s.vc_classes) +
                         static_cast<size_t>(s.local_ports);
  struct Def {
    const char* name;
    FieldScope scope;
    size_t n;
  };
  const Def defs[kFieldCount] = {
      {"ivc_state_q", FieldScope::kInputVc, vcs},        {"ivc_out_port_q", FieldScope::kInputVc, vcs},
      {"ivc_out_class_q", FieldScope::kInputVc, vcs},    {"ivc_out_vc_q", FieldScope::kInputVc, vcs},
      {"ivc_count_q", FieldScope::kInputVc, vcs},        {"ovc_credits_q", FieldScope::kOutputVc, vcs},
      {"ovc_owner_q", FieldScope::kOutputVc, vcs},       {"sa_in_rr_q", FieldScope::kInputPort, ports},
      {"sa_out_rr_q", FieldScope::kOutputPort, ports},   {"va_rr_q", FieldScope::kOutputClass, classes},
      {"va_vc_rr_q", FieldScope::kOutputClass, classes},
  };
  fields.resize(kFieldCount);
  for (size_t f = 0; f < kFieldCount; ++f) {
    fields[f].name = defs[f].name;
    fields[f].scope = defs[f].scope;
    fields[f].values.assign(defs[f].n, 0);
  }
}

bool compare_snapshots(const RouterShape& s, const RouterSnapshot& a, const RouterSnapshot& b, Mismatch& m) {
  const auto& state = a.fields[RouterSnapshot::kIvcState].values;
  for (size_t f = 0; f < RouterSnapshot::kFieldCount; ++f) {
    const SnapshotField& fa = a.fields[f];
    const SnapshotField& fb = b.fields[f];
    if (fa.values.size() != fb.values.size()) {
      m.port = -1;
      m.vc = -1;
      m.field = std::string(fa.name) + " (size)";
      m.a = static_cast<int64_t>(fa.values.size());
      m.b = static_cast<int64_t>(fb.values.size());
      return false;
    }
    for (size_t i = 0; i < fa.values.size(); ++i) {
      // The route registers are valid in WAIT_VC and ACTIVE, the output VC in ACTIVE only
      // (docs/timing-contract.md, "Registers"); the states were compared first.
      if ((f == RouterSnapshot::kIvcOutPort || f == RouterSnapshot::kIvcOutClass) && state[i] == 0) continue;
      if (f == RouterSnapshot::kIvcOutVc && state[i] != 2) continue;
      if (fa.values[i] == fb.values[i]) continue;
      int port = static_cast<int>(i), vc = -1;
      switch (fa.scope) {
        case FieldScope::kInputVc:
        case FieldScope::kOutputVc: vc_position(s, i, port, vc); break;
        case FieldScope::kOutputClass: class_position(s, i, port, vc); break;
        case FieldScope::kInputPort:
        case FieldScope::kOutputPort: break;
      }
      differ(m, port, vc, fa.name, fa.values[i], fb.values[i]);
      return false;
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
      // Flit::due is the C++ links' bookkeeping, not a wire: not compared.
      if (differ(m, p, -1, "flit.vc", f.vc, g.vc) || differ(m, p, -1, "flit.kind", f.kind, g.kind) ||
          differ(m, p, -1, "flit.msg", f.msg, g.msg) || differ(m, p, -1, "flit.seq", f.seq, g.seq) ||
          differ(m, p, -1, "flit.dest", f.dest, g.dest) || differ(m, p, -1, "flit.neg_mask", f.neg_mask, g.neg_mask) ||
          differ(m, p, -1, "flit.start_dim", f.start_dim, g.start_dim) ||
          differ(m, p, -1, "flit.priority", f.priority, g.priority))
        return false;
      for (uint32_t w = 0; w < s.payload_words && w < kMaxFlitWords; ++w) {
        if (differ(m, p, -1, "flit.payload", static_cast<int64_t>(f.payload[w]), static_cast<int64_t>(g.payload[w]))) {
          m.field = fmt::format("flit.payload[{}]", w);
          return false;
        }
      }
    }
    if (differ(m, p, -1, "credit_valid", x.credit_valid, y.credit_valid)) return false;
    if (x.credit_valid && differ(m, p, -1, "credit_vc", x.credit_vc, y.credit_vc)) return false;
  }
  return true;
}

std::string Mismatch::describe(const char* name_a, const char* name_b, const std::vector<std::string>& port_names) const {
  std::string where = fmt::format("cycle {}, router {}", cycle, router);
  if (port >= 0) {
    const bool named = static_cast<size_t>(port) < port_names.size();
    where += fmt::format(", port {}", named ? port_names[static_cast<size_t>(port)] : std::to_string(port));
  }
  if (vc >= 0) where += fmt::format(", {} {}", field.rfind("va_", 0) == 0 ? "class" : "VC", vc);
  return fmt::format("{}, field {}: {} {}, {} {}", where, field, name_a, a, name_b, b);
}

}  // namespace torx::model
