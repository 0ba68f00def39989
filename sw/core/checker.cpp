// SPDX-License-Identifier: Apache-2.0
#include "core/checker.hpp"

#include <fmt/format.h>

namespace torx::sw {

CheckResult check_delivery(const DeliveryView& view, size_t max_examples) {
  const BlockSpace& space = view.space();
  const Topology& topo = space.topology();
  const NodeId n = topo.nodes();
  CheckResult r;
  r.expected = space.expected_deliveries();
  // Examples are worded only while there is room for them: a run that loses every one of 16
  // million blocks must not format 16 million sentences (it took seconds; found by fuzzing).
  uint64_t key = 0;  // the (block, node) examined, in the checker's order
  auto example = [&](auto&& words) {
    if (r.examples.size() < max_examples) {
      r.examples.push_back(words());
      r.example_keys.push_back(key);
    }
  };
  const bool partial = view.partial();
  if (moves_blocks(space.collective())) {
    // Block s * n + t goes from s to t (none for s == t): the ids in ascending order without a
    // division per block (2^30 of them on 32x32x32).
    BlockId b = 0;  // s * n + t
    for (NodeId s = 0; s < n; ++s) {
      for (NodeId t = 0; t < n; ++t, ++b) {
        if (s == t) continue;
        if (partial && !view.checks(t)) continue;
        key = b;
        const NodeId h = view.holder(b);
        const uint32_t a = view.arrivals(b, t);
        if (a > 1) {
          r.duplicated += a - 1;
          example([&] { return fmt::format("block {} reached its destination {} times", space.block_name(b), a); });
        }
        if (h == t) {
          ++r.delivered;
          if (!view.intact(b, t)) {
            ++r.corrupted;
            example([&] { return fmt::format("block {} arrived with wrong content", space.block_name(b)); });
          }
          continue;
        }
        ++r.missing;
        if (h != s) {
          ++r.misdelivered;
          example([&] {
            return fmt::format("block {} ended at node {}, not at its destination", space.block_name(b),
                               h < 0 ? std::string("?") : topo.node_name(h));
          });
        } else {
          example([&] { return fmt::format("block {} never left its source", space.block_name(b)); });
        }
      }
    }
  } else {
    for (BlockId b = 0; b < space.universe(); ++b) {
      const NodeId s = space.source(b);
      for (NodeId v = 0; v < n; ++v) {
        if (partial && !view.checks(v)) continue;
        key = b * static_cast<uint64_t>(n) + static_cast<uint64_t>(v);
        const uint32_t a = view.arrivals(b, v);
        // The source holds its block from the start, so any arrival there is a duplicate.
        const uint32_t extra = v == s ? a : (a > 1 ? a - 1 : 0);
        if (extra) {
          r.duplicated += extra;
          example([&] {
            return fmt::format("node {} received {} {} times{}", topo.node_name(v), space.block_name(b), a,
                               v == s ? " (it is the block's source)" : "");
          });
        }
        if (v == s) continue;
        if (view.holds(b, v)) {
          ++r.delivered;
          if (!view.intact(b, v)) {
            ++r.corrupted;
            example([&] {
              return fmt::format("node {} holds {} with wrong content", topo.node_name(v), space.block_name(b));
            });
          }
        } else {
          ++r.missing;
          example([&] { return fmt::format("node {} never received {}", topo.node_name(v), space.block_name(b)); });
        }
      }
    }
  }
  r.ok = r.missing == 0 && r.duplicated == 0 && r.misdelivered == 0 && r.corrupted == 0 && r.delivered == r.expected;
  return r;
}

}  // namespace torx::sw
