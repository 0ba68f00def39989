// SPDX-License-Identifier: Apache-2.0
// torx::Network (include/torx/network.hpp): a Fabric of routers with a HostInterface at every node
// (models/host_interface.hpp), stepped without the SystemC kernel; run_schedule() goes through the
// application layer as torx run does. Internal errors types become torx::Error here, and only here
// (api::rethrow).
#include "torx/network.hpp"

#include <fmt/format.h>

#include <deque>
#include <utility>

#include "api/internal.hpp"
#include "algorithms/registry.hpp"
#include "app/options.hpp"
#include "app/report.hpp"
#include "app/run.hpp"
#include "core/errors.hpp"
#include "core/network_params.hpp"
#include "models/barrier.hpp"
#include "models/routing_table.hpp"

namespace torx {

namespace api {

sw::Topology parse_topology(const NetworkConfig& c) { return sw::Topology::parse(c.topology, c.mesh); }

Core::Core(const NetworkConfig& c, DeliverFn deliver)
    : config(c), topo(parse_topology(c)), traffic([this, deliver](model::HostDelivery&& d) {
        ++delivered;
        if (deliver) deliver(std::move(d));
      }) {
  if (c.model != "cycle" && c.model != "rtl")
    throw sw::InputError(fmt::format("--model {}: the library's networks run the cycle or rtl model", c.model));
  if (c.flit_bytes < 1 || c.flit_bytes > model::kMaxFlitBytes)
    throw sw::InputError(
        fmt::format("--flit-bytes {}: the cycle model carries 1 to {} bytes per flit", c.flit_bytes, model::kMaxFlitBytes));
  if (c.block_bytes < 1) throw sw::InputError("--block-bytes 0: a block has at least one byte");
  sw::NetworkParams p;
  p.priority_levels = 1;
  p.threads = 1;  // host interfaces share one lane (host_interface.hpp)
  for (const std::string& a : c.params) sw::set_param(p, a);
  p.threads = 1;
  p.order_classes = p.order_classes > 0 ? p.order_classes : 1;  // routes start in x
  sw::validate(p, topo);
  if (p.priority_levels > 1) sw::validate_priority(p, topo);
  routers = make_router_factory(c.model);
  model::RoutingConfig rc;
  rc.dateline_classes = topo.wrap() && p.dateline ? 2 : 1;
  rc.order_classes = p.order_classes;
  model::FabricSpec spec;
  spec.params = p;
  spec.ports = sw::PortModel::kOne;
  spec.flit_bytes = c.flit_bytes;
  for (sw::NodeId v = 0; v < topo.nodes(); ++v) spec.routing.push_back(model::build_routing_image(topo, v, rc));
  spec.barrier = model::build_barrier_tree(topo);
  const model::EndpointFactory endpoints = [&](sw::NodeId v, int channels, model::NetworkCounters* counters,
                                               model::Scheduler* sched) {
    TORX_CHECK(channels == 1, "host interfaces are one-port");
    model::HostInterfaceConfig hc;
    hc.node = v;
    hc.flit_bytes = c.flit_bytes;
    hc.ts_cycles = c.startup_cycles;
    hc.injection_depth = hc.ejection_depth = p.buffer_depth;
    hc.priority_levels = p.priority_levels;
    hc.priority_reserve = p.priority_reserve;
    auto h = std::make_unique<model::HostInterface>(hc, &traffic, counters, sched);
    hosts.push_back(h.get());
    return h;
  };
  params = p;
  fabric = std::make_unique<model::Fabric>(topo, std::move(spec), endpoints, routers.get());
}

void Core::check_node(const char* what, int v) const {
  if (v < 0 || v >= topo.nodes())
    throw sw::InputError(fmt::format("{}{}node {}: the {} has nodes 0 to {}", what, *what ? " " : "", v, topo.to_string(),
                                     topo.nodes() - 1));
}

sw::Route Core::validate(int src, int dst, uint64_t nbytes, int priority, const std::optional<Route>& route) const {
  check_node("source", src);
  check_node("destination", dst);
  if (nbytes == 0) throw sw::InputError(fmt::format("message from node {} to node {}: 0 bytes", src, dst));
  if (priority < 0 || priority >= params.priority_levels)
    throw sw::InputError(fmt::format("priority {}: the network has levels 0 to {} (param priority_levels={})", priority,
                                     params.priority_levels - 1, params.priority_levels));
  if (src == dst)
    throw sw::InputError(fmt::format("message from node {} to itself: the network carries messages between nodes", src));
  const uint64_t flits = (nbytes + config.flit_bytes - 1) / config.flit_bytes;
  if (flits >= 0xffffffffu) throw sw::InputError(fmt::format("message of {} bytes: too long", nbytes));
  if (next_id == UINT32_MAX) throw sw::InputError("4294967295 messages injected: the message ids are used up");
  sw::Route r = topo.shortest_route(src, dst, 0);
  if (route) {
    const int nd = topo.ndims();
    if (route->start_dim < 0 || route->start_dim >= nd || (route->negative >> nd) != 0)
      throw sw::InputError(fmt::format("route (start {}, negative mask {:#x}): the {} has dimensions 0 to {}",
                                       route->start_dim, route->negative, topo.to_string(), nd - 1));
    for (int d = 0; d < nd && !topo.wrap(); ++d) {
      const int a = topo.coord_of(src, d), b = topo.coord_of(dst, d);
      if (a != b && ((route->negative >> d) & 1u) != (b < a ? 1u : 0u))
        throw sw::InputError(fmt::format("route from node {} to node {}: the mesh has no wrap-around link in "
                                         "dimension {}", src, dst, d));
    }
    r.start_dim = static_cast<uint8_t>(route->start_dim);
    r.neg_mask = route->negative;
  }
  return r;
}

uint32_t Core::post(int src, int dst, std::vector<uint8_t> bytes, int priority, const std::optional<Route>& route) {
  const sw::Route r = validate(src, dst, bytes.size(), priority, route);
  const uint64_t flits = (bytes.size() + config.flit_bytes - 1) / config.flit_bytes;
  model::HostMessage m;
  m.id = next_id++;
  m.src = src;
  m.dst = dst;
  m.route = r;
  m.priority = static_cast<uint8_t>(priority);
  m.flits = static_cast<uint32_t>(flits);
  m.posted = fabric->cycle();
  m.bytes = std::move(bytes);
  traffic.add(std::move(m));
  hosts[static_cast<size_t>(src)]->post(next_id - 1);
  ++injected;
  fabric->resume();
  return next_id - 1;
}

void Core::start() {
  if (started) return;
  fabric->set_threads(1);
  fabric->connect_all();
  fabric->start();
  started = true;
}

void Core::step_one() {
  start();
  fabric->resume();
  fabric->step();
  check_status();
}

void Core::check_status() const {
  const model::RunStatus s = fabric->status();
  if (s != model::RunStatus::kStalled && s != model::RunStatus::kLimit) return;
  // Every stuck worm: where its head is and what it waits for (as torx run and traffic report them).
  std::string r = fmt::format("{} ({} messages in flight)", fabric->stop_reason(), traffic.in_flight());
  size_t shown = 0, heads = 0;
  fabric->visit_flits([&](const model::Flit& f, const std::string& place, const std::string& reason) {
    if (!f.head() || heads++ >= 20) return;
    ++shown;
    r += fmt::format("\n  message {} for node {}: head at {}: {}", f.msg, topo.node_name(f.dest), place, reason);
  });
  if (heads > shown) r += fmt::format("\n  ... and {} more messages", heads - shown);
  for (const model::HostInterface* h : hosts)
    if (!h->finished()) r += "\n  " + h->describe();
  throw sw::WatchdogError(r);
}

// The error boundary: torx's internal exceptions as torx::Error.
[[noreturn]] void rethrow() {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const sw::InputError& e) {
    throw Error(Error::Kind::kInput, e.what());
  } catch (const sw::WatchdogError& e) {
    throw Error(Error::Kind::kStopped, e.what());
  } catch (const std::bad_alloc&) {
    throw Error(Error::Kind::kInput, "out of memory");
  } catch (const std::exception& e) {
    throw Error(Error::Kind::kInternal, e.what());
  }
}

Delivery to_delivery(const model::HostDelivery& d) {
  Delivery r;
  r.id = d.id;
  r.src = static_cast<int>(d.src);
  r.dst = static_cast<int>(d.dst);
  r.priority = d.priority;
  r.bytes = d.bytes.size();
  r.injected = d.posted;
  r.issued = d.issued;
  r.head = d.head;
  r.cycle = d.delivered;
  r.intact = d.intact;
  r.data = d.bytes;
  return r;
}

Figures figures_of(const Core& c) {
  Figures f;
  f.cycle = c.fabric->cycle();
  f.messages_injected = c.injected;
  f.messages_delivered = c.delivered;
  f.messages_corrupted = c.traffic.corrupted();
  const model::NetworkCounters n = c.fabric->counters();
  f.flits_injected = n.flits_injected;
  f.flits_ejected = n.flits_ejected;
  f.flit_hops = c.fabric->flit_hops();
  f.blocked_cycles = c.fabric->blocked_vc_cycles();
  f.link_flits = c.fabric->link_flits();
  return f;
}

std::vector<uint8_t> pattern_bytes(uint64_t id, uint64_t n) {
  std::vector<uint8_t> b(n);
  for (uint64_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>((id * 131u) ^ (i * 7u) ^ (i >> 8));
  return b;
}

}  // namespace api

struct Network::Impl {
  explicit Impl(const NetworkConfig& c)
      : core(c, [this](model::HostDelivery&& d) {
          Delivery r = api::to_delivery(d);
          if (callback) callback(r);
          if (keep) queue.push_back(std::move(r));
        }) {}
  api::Core core;
  std::function<void(const Delivery&)> callback;
  bool keep = true;
  std::deque<Delivery> queue;
};

Network::Network(const NetworkConfig& config) {
  try {
    impl_ = std::make_unique<Impl>(config);
  } catch (...) {
    api::rethrow();
  }
}
Network::~Network() = default;
Network::Network(Network&&) noexcept = default;
Network& Network::operator=(Network&&) noexcept = default;

int Network::nodes() const { return static_cast<int>(impl_->core.topo.nodes()); }
int Network::dims() const { return impl_->core.topo.ndims(); }
int Network::radix(int dim) const {
  if (dim < 0 || dim >= dims()) throw Error(Error::Kind::kInput, fmt::format("dimension {}: the network has {}", dim, dims()));
  return impl_->core.topo.radix(dim);
}
int Network::node(const std::vector<int>& coords) const {
  const sw::Topology& t = impl_->core.topo;
  if (static_cast<int>(coords.size()) != t.ndims())
    throw Error(Error::Kind::kInput, fmt::format("{} coordinates for the {}", coords.size(), t.to_string()));
  int v = 0;
  for (int d = t.ndims() - 1; d >= 0; --d) {
    if (coords[static_cast<size_t>(d)] < 0 || coords[static_cast<size_t>(d)] >= t.radix(d))
      throw Error(Error::Kind::kInput,
                  fmt::format("coordinate {} in dimension {}: the {} has 0 to {}", coords[static_cast<size_t>(d)], d,
                              t.to_string(), t.radix(d) - 1));
    v = v * t.radix(d) + coords[static_cast<size_t>(d)];
  }
  return v;
}
std::vector<int> Network::coords(int node) const {
  try {
    impl_->core.check_node("", node);
  } catch (...) {
    api::rethrow();
  }
  std::vector<int> c;
  for (int d = 0; d < dims(); ++d) c.push_back(impl_->core.topo.coord_of(node, d));
  return c;
}
const NetworkConfig& Network::config() const { return impl_->core.config; }

uint64_t Network::inject(int src, int dst, uint64_t bytes, int priority, std::optional<Route> route) {
  try {
    if (bytes > (uint64_t{1} << 32))
      throw sw::InputError(fmt::format("message of {} bytes: at most 4 GiB", bytes));
    return impl_->core.post(src, dst, api::pattern_bytes(impl_->core.next_id, bytes), priority, route);
  } catch (...) {
    api::rethrow();
  }
}
uint64_t Network::inject(int src, int dst, std::vector<uint8_t> data, int priority, std::optional<Route> route) {
  try {
    return impl_->core.post(src, dst, std::move(data), priority, route);
  } catch (...) {
    api::rethrow();
  }
}
uint64_t Network::inject_blocks(int src, int dst, uint64_t blocks, int priority) {
  if (blocks > (uint64_t{1} << 32) / impl_->core.config.block_bytes)
    throw Error(Error::Kind::kInput, fmt::format("message of {} blocks: at most 4 GiB", blocks));
  return inject(src, dst, blocks * impl_->core.config.block_bytes, priority);
}

void Network::step(uint64_t n) {
  try {
    for (uint64_t i = 0; i < n; ++i) impl_->core.step_one();
  } catch (...) {
    api::rethrow();
  }
}

bool Network::run_until_idle(uint64_t limit) {
  try {
    api::Core& c = impl_->core;
    c.start();
    const uint64_t end = limit > UINT64_MAX - c.fabric->cycle() ? UINT64_MAX : c.fabric->cycle() + limit;
    while (!idle() && c.fabric->cycle() < end) {
      c.fabric->resume();
      c.fabric->skip_idle(end - c.fabric->cycle() - 1);
      c.step_one();
    }
    return idle();
  } catch (...) {
    api::rethrow();
  }
}

uint64_t Network::cycle() const { return impl_->core.fabric->cycle(); }
bool Network::idle() const { return impl_->core.traffic.in_flight() == 0; }

void Network::on_delivery(std::function<void(const Delivery&)> callback) { impl_->callback = std::move(callback); }
void Network::keep_deliveries(bool keep) {
  impl_->keep = keep;
  if (!keep) impl_->queue.clear();
}
std::optional<Delivery> Network::next_delivery() {
  if (impl_->queue.empty()) return std::nullopt;
  Delivery d = std::move(impl_->queue.front());
  impl_->queue.pop_front();
  return d;
}
std::vector<Delivery> Network::take_deliveries() {
  std::vector<Delivery> v(std::make_move_iterator(impl_->queue.begin()), std::make_move_iterator(impl_->queue.end()));
  impl_->queue.clear();
  return v;
}

Figures Network::figures() const { return api::figures_of(impl_->core); }

ScheduleResult Network::run_schedule(const std::string& algorithm_or_file, const ScheduleOptions& o) const {
  try {
    const NetworkConfig& c = impl_->core.config;
    app::RunWords w;
    w.topo = c.topology;
    w.mesh = c.mesh;
    w.ports = o.ports;
    w.block_bytes = std::to_string(c.block_bytes);
    w.flit_bytes = std::to_string(c.flit_bytes);
    w.ts = std::to_string(o.startup_cycles);
    w.sync = o.sync;
    w.seed = std::to_string(o.seed);
    w.params = c.params;
    w.model = c.model;
    w.root = std::to_string(o.root);
    if (sw::find_algorithm(algorithm_or_file)) w.algo = algorithm_or_file;
    else w.schedule = algorithm_or_file;
    app::RunRequest req = app::validate_request(app::parse_run(w, false));
    req.kernel_free = true;
    const app::RunReport rep = app::run(req);
    ScheduleResult r;
    r.check_ok = rep.check.ok;
    r.blocks_expected = rep.check.expected;
    r.blocks_delivered = rep.check.delivered;
    r.blocks_missing = rep.check.missing;
    r.blocks_duplicated = rep.check.duplicated;
    r.blocks_misdelivered = rep.check.misdelivered;
    r.blocks_corrupted = rep.check.corrupted;
    r.check_examples = rep.check.examples;
    r.steps = rep.steps.steps;
    r.messages = rep.steps.messages;
    r.step_model_cycles = rep.steps.step_model_cycles;
    if (rep.cycle_model) {
      r.cycles = rep.cycle_model->cycles;
      r.link_flits = rep.cycle_model->link_flits;
      r.blocked_cycles = rep.cycle_model->blocked_cycles;
    }
    r.document = app::report_json(rep);
    return r;
  } catch (...) {
    api::rethrow();
  }
}

std::vector<std::string> Network::models() {
  std::vector<std::string> m;
  m.push_back("cycle");
  if (api::has_rtl()) m.push_back("rtl");
  return m;
}

}  // namespace torx
