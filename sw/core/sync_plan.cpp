// SPDX-License-Identifier: Apache-2.0
#include "core/sync_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "core/errors.hpp"

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

SyncReduction reduce_local_sync(const LocalSyncPlan& plan, const Schedule& schedule, const Topology& topo,
                                uint64_t max_bytes) {
  SyncReduction out;
  const size_t nsteps = schedule.steps.size();
  const NodeId n = topo.nodes();
  // Messages by id (step order, then schedule order) and their events' positions. Per step k: the
  // triggers T(v, k) if k starts an epoch, then I(m) of the step's messages, then S(m): every
  // ordering below goes from a lower position to a higher one.
  std::vector<uint32_t> first_id(nsteps + 1, 0);
  for (size_t k = 0; k < nsteps; ++k)
    first_id[k + 1] = first_id[k] + static_cast<uint32_t>(schedule.steps[k].messages.size());
  const uint32_t nmsg = first_id[nsteps];
  auto id_of = [&](const MessageRef& r) { return first_id[r.step] + r.index; };
  std::vector<uint8_t> starts_epoch(nsteps, 0);
  for (size_t k = 1; k < nsteps; ++k) starts_epoch[k] = schedule.steps[k].sync == SyncMark::kBarrier;
  std::vector<uint32_t> issue_pos(nmsg), store_pos(nmsg), step_of(nmsg);
  std::vector<int64_t> trigger_base(nsteps, -1);  // position of T(0, k)
  uint32_t pos = 0;
  for (size_t k = 0; k < nsteps; ++k) {
    if (starts_epoch[k]) {
      trigger_base[k] = pos;
      pos += static_cast<uint32_t>(n);
    }
    for (uint32_t m = first_id[k]; m < first_id[k + 1]; ++m) {
      issue_pos[m] = pos++;
      step_of[m] = static_cast<uint32_t>(k);
    }
    for (uint32_t m = first_id[k]; m < first_id[k + 1]; ++m) store_pos[m] = pos++;
  }
  const uint32_t nevents = pos;
  auto msg = [&](uint32_t m) -> const Message& {
    const uint32_t k = step_of[m];
    return schedule.steps[k].messages[m - first_id[k]];
  };
  // The first epoch start after step k (the trigger a store of step k feeds), or none.
  std::vector<int64_t> next_start(nsteps, -1);
  for (size_t k = nsteps, nxt = 0; k-- > 0;) {
    next_start[k] = nxt ? static_cast<int64_t>(nxt) : -1;
    if (starts_epoch[k]) nxt = k;
  }
  auto trigger_pos = [&](NodeId v, uint32_t b) -> uint32_t {
    TORX_CHECK(b < nsteps && trigger_base[b] >= 0, "a trigger at a step that starts no epoch");
    return static_cast<uint32_t>(trigger_base[b] + v);
  };

  // Fixed orderings: predecessors per event.
  std::vector<std::vector<uint32_t>> preds(nevents);
  std::vector<uint32_t> last_send(static_cast<size_t>(n), UINT32_MAX);
  for (uint32_t m = 0; m < nmsg; ++m) {
    const Message& mm = msg(m);
    preds[store_pos[m]].push_back(issue_pos[m]);
    if (last_send[mm.src] != UINT32_MAX) preds[issue_pos[m]].push_back(issue_pos[last_send[mm.src]]);
    last_send[mm.src] = m;
    if (next_start[step_of[m]] >= 0)
      preds[trigger_pos(mm.dst, static_cast<uint32_t>(next_start[step_of[m]]))].push_back(store_pos[m]);
  }
  for (size_t k = 0; k < nsteps; ++k) {
    if (!starts_epoch[k] || next_start[k] < 0) continue;
    for (NodeId v = 0; v < n; ++v)
      preds[trigger_pos(v, static_cast<uint32_t>(next_start[k]))].push_back(trigger_pos(v, static_cast<uint32_t>(k)));
  }
  for (const LocalWait& w : plan.local_waits) preds[issue_pos[id_of(w.gate)]].push_back(trigger_pos(w.node, w.boundary));
  // Data orderings, node by node: the blocks a node receives, then its sends' blocks.
  {
    const BlockSpace space(schedule.header.collective, topo, schedule.header.pieces, schedule.header.root);
    const int arity = space.arity();
    std::vector<std::vector<uint32_t>> recv_of(static_cast<size_t>(n)), send_of(static_cast<size_t>(n));
    for (uint32_t m = 0; m < nmsg; ++m) {
      recv_of[msg(m).dst].push_back(m);
      send_of[msg(m).src].push_back(m);
    }
    std::unordered_map<BlockId, std::pair<uint32_t, uint32_t>> got;  // block -> (message, times received)
    std::vector<BlockId> blocks;
    auto blocks_of = [&](uint32_t m) {
      blocks.clear();
      const Step& st = schedule.steps[step_of[m]];
      const Message& mm = msg(m);
      for (uint32_t b = 0; b < mm.box_count; ++b)
        space.for_each_block(st.box(mm, b, arity), [&](BlockId x) { blocks.push_back(x); });
    };
    for (NodeId v = 0; v < n; ++v) {
      got.clear();
      std::vector<BlockId> last_block(recv_of[v].size());
      for (size_t i = 0; i < recv_of[v].size(); ++i) {
        blocks_of(recv_of[v][i]);
        for (BlockId x : blocks) {
          auto [it, fresh] = got.try_emplace(x, recv_of[v][i], 0);
          ++it->second.second;
        }
        last_block[i] = blocks.empty() ? ~BlockId{0} : blocks.back();
      }
      std::unordered_map<uint32_t, BlockId> last_of;
      for (size_t i = 0; i < recv_of[v].size(); ++i) last_of[recv_of[v][i]] = last_block[i];
      for (uint32_t mo : send_of[v]) {
        blocks_of(mo);
        std::vector<uint32_t> from;
        for (BlockId x : blocks) {
          if (space.source(x) == v) continue;
          auto it = got.find(x);
          if (it == got.end() || it->second.second != 1) continue;
          const uint32_t mi = it->second.first;
          if (step_of[mi] >= step_of[mo]) continue;
          from.push_back(last_of[mi] == x ? store_pos[mi] : issue_pos[mi]);
        }
        std::sort(from.begin(), from.end());
        from.erase(std::unique(from.begin(), from.end()), from.end());
        out.data_orderings += from.size();
        for (uint32_t e : from) preds[issue_pos[mo]].push_back(e);
      }
    }
  }
  // Signals: removable orderings into their gates.
  std::vector<std::vector<uint32_t>> sig_in(nevents);
  std::vector<uint32_t> sig_from(plan.signals.size()), sig_to(plan.signals.size());
  for (size_t i = 0; i < plan.signals.size(); ++i) {
    const SyncSignal& g = plan.signals[i];
    sig_from[i] = trigger_pos(g.from, g.boundary);
    sig_to[i] = issue_pos[id_of(g.gate)];
    sig_in[sig_to[i]].push_back(static_cast<uint32_t>(i));
  }
  std::vector<uint8_t> active(plan.signals.size(), 1);

  // Reachability from the pairs' m1: per event, the set of sources S(m1) that precede it.
  std::vector<int32_t> source_bit(nmsg, -1);
  uint32_t nsources = 0;
  for (const SyncPair& p : plan.pairs) {
    int32_t& b = source_bit[id_of(p.m1)];
    if (b < 0) b = static_cast<int32_t>(nsources++);
  }
  const size_t words = (nsources + 63) / 64;
  if (uint64_t{nevents} * words * 8 > max_bytes)
    throw InputError(fmt::format("analysing the local synchronization of {} messages needs {} MiB of reachability "
                                 "sets, more than {} MiB: try a smaller torus",
                                 nmsg, uint64_t{nevents} * words * 8 >> 20, max_bytes >> 20));
  std::vector<uint64_t> reach(static_cast<size_t>(nevents) * words, 0);
  std::vector<int32_t> store_source(nevents, -1);
  for (uint32_t m = 0; m < nmsg; ++m) store_source[store_pos[m]] = source_bit[m];
  auto recompute = [&](uint32_t from) {
    for (uint32_t e = from; e < nevents; ++e) {
      uint64_t* r = reach.data() + static_cast<size_t>(e) * words;
      std::fill(r, r + words, 0);
      if (store_source[e] >= 0) r[store_source[e] / 64] |= uint64_t{1} << (store_source[e] % 64);
      for (uint32_t p : preds[e]) {
        const uint64_t* q = reach.data() + static_cast<size_t>(p) * words;
        for (size_t w = 0; w < words; ++w) r[w] |= q[w];
      }
      for (uint32_t s : sig_in[e]) {
        if (!active[s]) continue;
        const uint64_t* q = reach.data() + static_cast<size_t>(sig_from[s]) * words;
        for (size_t w = 0; w < words; ++w) r[w] |= q[w];
      }
    }
  };
  // The pairs by the position of I(m2), to check those at or after a position.
  std::vector<std::pair<uint32_t, int32_t>> need;  // (I(m2), bit of m1)
  for (const SyncPair& p : plan.pairs) need.push_back({issue_pos[id_of(p.m2)], source_bit[id_of(p.m1)]});
  std::sort(need.begin(), need.end());
  auto ordered_from = [&](uint32_t from) {
    for (auto it = std::lower_bound(need.begin(), need.end(), std::make_pair(from, INT32_MIN)); it != need.end(); ++it) {
      const uint64_t* r = reach.data() + static_cast<size_t>(it->first) * words;
      if (!(r[it->second / 64] >> (it->second % 64) & 1)) return false;
    }
    return true;
  };
  recompute(0);
  TORX_CHECK(ordered_from(0), "the plan's signals leave a pair unordered");
  std::vector<uint64_t> without(words);
  for (size_t i = plan.signals.size(); i-- > 0;) {
    // I(gate)'s sources without this signal (its predecessors come before it: their sets stand).
    const uint32_t g = sig_to[i];
    std::fill(without.begin(), without.end(), 0);
    for (uint32_t p : preds[g]) {
      const uint64_t* q = reach.data() + static_cast<size_t>(p) * words;
      for (size_t w = 0; w < words; ++w) without[w] |= q[w];
    }
    for (uint32_t o : sig_in[g]) {
      if (o == i || !active[o]) continue;
      const uint64_t* q = reach.data() + static_cast<size_t>(sig_from[o]) * words;
      for (size_t w = 0; w < words; ++w) without[w] |= q[w];
    }
    // Needed at once if a pair gated right here loses its m1 (most signals: the gate is a pair's m2).
    bool needed = false;
    for (auto it = std::lower_bound(need.begin(), need.end(), std::make_pair(g, INT32_MIN));
         !needed && it != need.end() && it->first == g; ++it)
      needed = !(without[static_cast<size_t>(it->second) / 64] >> (it->second % 64) & 1);
    if (needed) continue;
    // Implied at once if the signal adds nothing to I(gate): no set downstream changes.
    const uint64_t* t = reach.data() + static_cast<size_t>(sig_from[i]) * words;
    bool adds = false;
    for (size_t w = 0; w < words && !adds; ++w) adds = (t[w] & ~without[w]) != 0;
    active[i] = 0;
    if (!adds) continue;
    recompute(g);
    if (ordered_from(g)) continue;
    active[i] = 1;
    recompute(g);
  }
  for (size_t i = 0; i < plan.signals.size(); ++i) (active[i] ? out.kept : out.implied).push_back(plan.signals[i]);
  return out;
}

}  // namespace torx::sw
