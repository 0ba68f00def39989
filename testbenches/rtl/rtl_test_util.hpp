// SPDX-License-Identifier: Apache-2.0
// Helpers of the RTL suites: a router on a bench (its wires cycle by cycle, the upstream credit
// counters of its inputs, a downstream that returns every credit), flits and shapes.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "hw/rtl_router.hpp"
#include "models/routing_table.hpp"

namespace torx::rtl::testing {

// The shape of a network of routers of configuration `c` with `payload_words` words per flit.
inline model::RouterShape shape_of(const RtlRouterConfig& c, uint32_t payload_words = 4) {
  model::RouterShape s = c.shape;
  s.payload_words = payload_words;
  return s;
}

inline const RtlRouterConfig& config(const std::string& name) {
  for (const auto& c : rtl_router_configs())
    if (name == c.name) return c;
  throw std::runtime_error("no RTL configuration " + name);
}

// The routing configuration a router shape implies (C = dateline x order classes).
inline model::RoutingConfig routing_config(const RtlRouterConfig& c, bool torus) {
  model::RoutingConfig rc;
  rc.dateline_classes = torus && c.shape.vc_classes % 2 == 0 ? 2 : 1;
  rc.order_classes = c.shape.vc_classes / rc.dateline_classes;
  rc.all_port = c.shape.local_ports > 1;
  return rc;
}

// A flit with a recognisable payload.
inline model::Flit flit(int32_t dest, bool head, bool tail, uint32_t msg, uint32_t seq, uint8_t vc = 0,
                        uint8_t start_dim = 0, uint32_t neg_mask = 0, uint8_t priority = 0) {
  model::Flit f;
  f.dest = dest;
  f.kind = static_cast<uint8_t>((head ? model::kFlitHead : 0) | (tail ? model::kFlitTail : 0));
  f.msg = msg;
  f.seq = seq;
  f.vc = vc;
  f.start_dim = start_dim;
  f.neg_mask = neg_mask;
  f.priority = priority;
  for (uint32_t w = 0; w < model::kMaxFlitWords; ++w)
    f.payload[w] = (uint64_t{msg} << 40) ^ (uint64_t{seq} << 20) ^ (0x9e3779b97f4a7c15ull * (w + 1));
  return f;
}

// The flits of a worm of `n` flits.
inline std::vector<model::Flit> worm(int32_t dest, int n, uint32_t msg, uint8_t vc = 0, uint8_t start_dim = 0,
                                     uint32_t neg_mask = 0) {
  std::vector<model::Flit> w;
  for (int i = 0; i < n; ++i)
    w.push_back(flit(dest, i == 0, i == n - 1, msg, static_cast<uint32_t>(i), vc, start_dim, neg_mask));
  return w;
}

// One flit leaving the router: cycle, port and the flit.
struct Departure {
  uint64_t cycle = 0;
  int port = 0;
  model::Flit flit;
};

// A router on a bench. Inputs: per input port a queue of flits that an upstream sender pushes one per
// cycle, spending its own copy of the router's credits (D per VC, returned by the router's credit
// outputs after `credit_latency` cycles). Outputs: every flit leaving is recorded; the downstream
// returns its credit `credit_latency` cycles later unless `hold_credits` holds that output's credits.
class Bench {
 public:
  Bench(const std::string& config_name, const sw::Topology& topo, sw::NodeId node, int credit_latency = 1)
      : Bench(config(config_name), topo, node, credit_latency) {}
  Bench(const RtlRouterConfig& cfg, const sw::Topology& topo, sw::NodeId node, int credit_latency = 1)
      : shape_(shape_of(cfg)), lc_(credit_latency) {
    const model::RoutingConfig rc = routing_config(cfg, topo.wrap());
    model::RoutingImage img;
    if (shape_.organization == model::Pipeline::kLookahead) {
      // A lookahead router loads its neighbours' tables too (models/routing_table.hpp, lookahead_image).
      std::vector<model::RoutingImage> all;
      for (sw::NodeId v = 0; v < topo.nodes(); ++v) all.push_back(model::build_routing_image(topo, v, rc));
      img = model::lookahead_image(all, topo, node);
    } else {
      img = model::build_routing_image(topo, node, rc);
    }
    router_ = make_rtl_router(shape_, cfg.mutant, topo, node, img);
    const size_t np = static_cast<size_t>(shape_.ports());
    in_.resize(np);
    out_.resize(np);
    queue_.resize(np);
    upstream_credits_.resize(np);
    hold_credits.assign(np, false);
    for (int p = 0; p < shape_.ports(); ++p) upstream_credits_[static_cast<size_t>(p)].assign(static_cast<size_t>(shape_.vcs(p)), shape_.buffer_depth);
  }

  RtlRouter& router() { return *router_; }
  const model::RouterShape& shape() const { return shape_; }
  uint64_t now() const { return now_; }

  void send(int port, const std::vector<model::Flit>& flits) {
    for (const auto& f : flits) queue_[static_cast<size_t>(port)].push_back(f);
  }
  // Flits of `port` not yet pushed (waiting for a credit).
  size_t pending(int port) const { return queue_[static_cast<size_t>(port)].size(); }

  // One cycle: the upstream senders push (one flit per input link, if they hold a credit for its VC),
  // due credits reach the outputs, the router runs, its outputs are recorded.
  void step() {
    for (auto& w : in_) w = model::PortWires{};
    for (int p = 0; p < shape_.ports(); ++p) {
      auto& q = queue_[static_cast<size_t>(p)];
      if (q.empty()) continue;
      int& credits = upstream_credits_[static_cast<size_t>(p)][q.front().vc];
      if (credits <= 0) continue;
      --credits;
      in_[static_cast<size_t>(p)].flit_valid = true;
      in_[static_cast<size_t>(p)].flit = q.front();
      q.pop_front();
    }
    for (auto it = credits_back_.begin(); it != credits_back_.end();) {
      if (it->due == now_ && !in_[static_cast<size_t>(it->port)].credit_valid) {
        in_[static_cast<size_t>(it->port)].credit_valid = true;
        in_[static_cast<size_t>(it->port)].credit_vc = it->vc;
        it = credits_back_.erase(it);
      } else {
        if (it->due <= now_) ++it->due;  // one credit per link per cycle: the next waits
        ++it;
      }
    }
    router_->cycle(now_, in_.data(), out_.data());
    for (int p = 0; p < shape_.ports(); ++p) {
      const model::PortWires& w = out_[static_cast<size_t>(p)];
      if (w.flit_valid) {
        departures.push_back({now_, p, w.flit});
        if (!hold_credits[static_cast<size_t>(p)]) credits_back_.push_back({now_ + static_cast<uint64_t>(lc_), p, w.flit.vc});
        else held_.push_back({0, p, w.flit.vc});
      }
      if (w.credit_valid) upstream_returns_.push_back({now_ + static_cast<uint64_t>(lc_), p, w.credit_vc});
    }
    for (auto it = upstream_returns_.begin(); it != upstream_returns_.end();) {
      if (it->due == now_ + 1) {  // usable by the sender from the next cycle on
        ++upstream_credits_[static_cast<size_t>(it->port)][it->vc];
        it = upstream_returns_.erase(it);
      } else {
        ++it;
      }
    }
    ++now_;
  }
  void run(int cycles) {
    for (int i = 0; i < cycles; ++i) step();
  }
  // Releases the credits held at `port`: they arrive one per cycle from the next cycle.
  void release_credits(int port) {
    hold_credits[static_cast<size_t>(port)] = false;
    uint64_t due = now_;
    for (auto it = held_.begin(); it != held_.end();) {
      if (it->port == port) {
        credits_back_.push_back({due++, port, it->vc});
        it = held_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // The last outputs (after the last step).
  const model::PortWires& out(int port) const { return out_[static_cast<size_t>(port)]; }
  model::RouterSnapshot snapshot() const {
    model::RouterSnapshot s;
    s.layout(shape_);
    router_->snapshot(s);
    return s;
  }
  std::vector<Departure> departures_at(int port) const {
    std::vector<Departure> v;
    for (const auto& d : departures)
      if (d.port == port) v.push_back(d);
    return v;
  }

  std::vector<Departure> departures;
  std::vector<bool> hold_credits;

 private:
  struct CreditEvent {
    uint64_t due;
    int port;
    uint8_t vc;
  };
  model::RouterShape shape_;
  int lc_;
  std::unique_ptr<RtlRouter> router_;
  std::vector<model::PortWires> in_, out_;
  std::vector<std::deque<model::Flit>> queue_;
  std::vector<std::vector<int>> upstream_credits_;
  std::vector<CreditEvent> credits_back_, upstream_returns_, held_;
  uint64_t now_ = 0;
};

// Snapshot value of `field` for input or output VC (port, vc).
inline int64_t vc_field(const model::RouterShape& s, const model::RouterSnapshot& snap, size_t field, int port, int vc) {
  return snap.fields[field].values[static_cast<size_t>(s.first_vc(port) + vc)];
}

}  // namespace torx::rtl::testing
