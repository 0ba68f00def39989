// SPDX-License-Identifier: Apache-2.0
#include "core/sync_plan.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace torx::sw {

namespace {

// The users of one resource (a directed link or an ejection channel) in the last epoch that used it.
struct Users {
  uint32_t epoch = 0;
  std::vector<MessageRef> messages;
};

}  // namespace

LocalSyncPlan derive_local_sync(const Schedule& schedule, const Topology& topo, PortModel ports) {
  LocalSyncPlan plan;
  const size_t nsteps = schedule.steps.size();
  // Epoch of each step, and the first step of each epoch (its boundary).
  std::vector<uint32_t> epoch(nsteps, 0);
  std::vector<uint32_t> epoch_start{0};
  for (uint32_t k = 1; k < nsteps; ++k) {
    epoch[k] = epoch[k - 1];
    if (schedule.steps[k].sync == SyncMark::kBarrier) {
      ++epoch[k];
      epoch_start.push_back(k);
    }
  }
  plan.boundaries = static_cast<uint32_t>(epoch_start.size() - 1);

  // Resources: directed links are LinkIds; ejection channels follow after them.
  const int np = topo.ports();
  const LinkId links = topo.link_count();
  auto ejection = [&](NodeId dst, int last_port) -> LinkId {
    const int ch = ports == PortModel::kAll && last_port >= 0 ? (last_port ^ 1) : 0;  // the arriving side
    return links + static_cast<LinkId>(dst) * np + ch;
  };
  std::unordered_map<LinkId, Users> last;      // resource -> users in its most recent epoch
  std::unordered_map<LinkId, std::vector<MessageRef>> current;  // resource -> users in the epoch being scanned
  std::vector<LinkId> resources;

  // The injection channel a message leaves on: the port of its first link (all-port), else the only one.
  auto channel_of = [&](const Message& m) {
    if (ports != PortModel::kAll) return 0;
    int first = -1;
    topo.for_each_link(m.src, m.dst, m.route, [&](LinkId l) {
      if (first < 0) first = topo.link_port(l);
    });
    return first < 0 ? 0 : first;
  };
  auto flush = [&](uint32_t e) {
    for (auto& [res, users] : current) {
      Users& u = last[res];
      u.epoch = e;
      u.messages = std::move(users);
    }
    current.clear();
  };
  uint32_t cur_epoch = 0;
  for (uint32_t k = 0; k < nsteps; ++k) {
    if (epoch[k] != cur_epoch) {
      flush(cur_epoch);
      cur_epoch = epoch[k];
    }
    const Step& step = schedule.steps[k];
    for (uint32_t i = 0; i < step.messages.size(); ++i) {
      const Message& m = step.messages[i];
      const MessageRef ref{k, i};
      resources.clear();
      int last_port = -1;
      topo.for_each_link(m.src, m.dst, m.route, [&](LinkId l) {
        resources.push_back(l);
        last_port = topo.link_port(l);
      });
      const int channel = ports == PortModel::kAll && !resources.empty() ? topo.link_port(resources.front()) : 0;
      resources.push_back(ejection(m.dst, last_port));
      for (LinkId res : resources) {
        auto it = last.find(res);
        if (it != last.end())
          for (const MessageRef& m1 : it->second.messages) {
            // A worm from the same injection channel left after m1's tail and follows it on the
            // shared prefix of their routes: it cannot collide with it (see the header).
            const Message& a = schedule.steps[m1.step].messages[m1.index];
            if (a.src == m.src && channel_of(a) == channel) continue;
            plan.pairs.push_back({m1, ref});
          }
        current[res].push_back(ref);
      }
    }
  }
  // A pair found through two resources is one pair.
  std::sort(plan.pairs.begin(), plan.pairs.end(), [](const SyncPair& a, const SyncPair& b) {
    return std::tie(a.m1, a.m2) < std::tie(b.m1, b.m2);
  });
  plan.pairs.erase(std::unique(plan.pairs.begin(), plan.pairs.end(),
                               [](const SyncPair& a, const SyncPair& b) { return a.m1 == b.m1 && a.m2 == b.m2; }),
                   plan.pairs.end());

  // Group by (boundary, R1, S2); the gate is S2's first send of the group (program order = step
  // order, then schedule order: MessageRef order).
  auto msg = [&](const MessageRef& r) -> const Message& { return schedule.steps[r.step].messages[r.index]; };
  std::map<std::tuple<NodeId, NodeId, uint32_t>, MessageRef> group;  // (R1, S2, b) -> gate
  for (const SyncPair& p : plan.pairs) {
    const uint32_t b = epoch_start[epoch[p.m1.step] + 1];
    const auto key = std::make_tuple(msg(p.m1).dst, msg(p.m2).src, b);
    auto [it, fresh] = group.try_emplace(key, p.m2);
    if (!fresh && p.m2 < it->second) it->second = p.m2;
  }
  // Domination: within one (R1, S2), walk boundaries from the last; keep a signal only if its gate
  // comes before every gate of a later boundary.
  for (auto it = group.rbegin(); it != group.rend();) {
    const NodeId r1 = std::get<0>(it->first), s2 = std::get<1>(it->first);
    bool have_later = false;
    MessageRef earliest_later{};
    for (; it != group.rend() && std::get<0>(it->first) == r1 && std::get<1>(it->first) == s2; ++it) {
      const uint32_t b = std::get<2>(it->first);
      const MessageRef gate = it->second;
      if (have_later && !(gate < earliest_later)) continue;  // implied by a later signal
      if (r1 == s2) plan.local_waits.push_back({s2, b, gate});
      else plan.signals.push_back({r1, s2, b, gate});
      if (!have_later || gate < earliest_later) earliest_later = gate;
      have_later = true;
    }
  }
  auto order = [](const auto& a, const auto& b) {
    return std::tie(a.boundary, a.gate, a.from, a.to) < std::tie(b.boundary, b.gate, b.from, b.to);
  };
  std::sort(plan.signals.begin(), plan.signals.end(), order);
  std::sort(plan.local_waits.begin(), plan.local_waits.end(), [](const LocalWait& a, const LocalWait& b) {
    return std::tie(a.boundary, a.gate, a.node) < std::tie(b.boundary, b.gate, b.node);
  });
  return plan;
}

}  // namespace torx::sw
