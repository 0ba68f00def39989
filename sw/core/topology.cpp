// SPDX-License-Identifier: Apache-2.0
#include "core/topology.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "core/int_math.hpp"

namespace torx::sw {

namespace {

// Parses a non-negative decimal integer that must fill `text` completely. A sign is refused:
// from_chars would read "-8", and a node id or coordinate of -8 passed every upper-bound check
// (found by fuzzing: "#-8" named a node the writer then wrote as "0,0,0").
bool parse_int(std::string_view text, int64_t& out) {
  if (text.empty() || text[0] == '-') return false;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last;
}

}  // namespace

Topology::Topology(std::vector<int> radix, bool wrap) : radix_(std::move(radix)), wrap_(wrap) {
  if (radix_.empty()) throw InputError("topology: at least one dimension is needed");
  if (static_cast<int>(radix_.size()) > kMaxDims)
    throw InputError(fmt::format("topology: {} dimensions given, at most {} are supported", radix_.size(), kMaxDims));
  int64_t n = 1;
  stride_.resize(radix_.size());
  for (size_t d = 0; d < radix_.size(); ++d) {
    if (radix_[d] < 2)
      throw InputError(fmt::format("topology: radix {} in dimension {} is invalid (every radix must be >= 2)",
                                   radix_[d], dim_name(static_cast<int>(d))));
    stride_[d] = static_cast<NodeId>(n);
    n *= radix_[d];
    if (n > (int64_t{1} << 24))
      throw InputError(fmt::format("topology: {} nodes and more are not supported (limit 2^24)", n));
  }
  nodes_ = static_cast<NodeId>(n);
}

Topology Topology::parse(std::string_view dims, bool mesh) {
  if (dims.empty()) throw InputError("--topo: empty topology (expected e.g. 16, 16x16 or 8x8x8)");
  std::vector<int> radix;
  size_t pos = 0;
  while (pos <= dims.size()) {
    size_t x = dims.find('x', pos);
    std::string_view part = dims.substr(pos, x == std::string_view::npos ? std::string_view::npos : x - pos);
    int64_t v = 0;
    if (!parse_int(part, v) && !part.empty() && part.find_first_not_of("0123456789") == std::string_view::npos)
      throw InputError(fmt::format("--topo {}: radix {} is out of range: too large (a network has at most 2^24 = "
                                   "16777216 nodes)",
                                   dims, part));
    if (!parse_int(part, v))
      throw InputError(fmt::format("--topo {}: '{}' is not a radix (expected e.g. 16, 16x16 or 8x8x8)", dims, part));
    if (v < 2) throw InputError(fmt::format("--topo {}: radix {} is out of range (every radix must be >= 2)", dims, v));
    if (v > (int64_t{1} << 24))
      throw InputError(fmt::format("--topo {}: radix {} is out of range: too large (a network has at most 2^24 = "
                                   "16777216 nodes)",
                                   dims, v));
    radix.push_back(static_cast<int>(v));
    if (x == std::string_view::npos) break;
    pos = x + 1;
  }
  return Topology(std::move(radix), !mesh);
}

int Topology::max_radix() const {
  int m = 0;
  for (int r : radix_) m = std::max(m, r);
  return m;
}

std::string Topology::dims_string() const {
  std::string s;
  for (size_t d = 0; d < radix_.size(); ++d) {
    if (d) s += 'x';
    s += std::to_string(radix_[d]);
  }
  return s;
}

std::string Topology::to_string() const { return dims_string() + (wrap_ ? " torus" : " mesh"); }

Coord Topology::coord(NodeId node) const {
  Coord c{};
  for (int d = 0; d < ndims(); ++d) {
    c[d] = node % radix_[d];
    node /= radix_[d];
  }
  return c;
}

NodeId Topology::node(const Coord& c) const {
  NodeId id = 0;
  for (int d = ndims() - 1; d >= 0; --d) id = id * radix_[d] + c[d];
  return id;
}

std::string Topology::node_name(NodeId node) const {
  std::string s;
  for (int d = 0; d < ndims(); ++d) {
    if (d) s += ',';
    s += std::to_string(coord_of(node, d));
  }
  return s;
}

std::string Topology::dim_name(int dim) {
  static constexpr const char* kNames[] = {"x", "y", "z", "w"};
  if (dim >= 0 && dim < 4) return kNames[dim];
  return "d" + std::to_string(dim);
}

std::string Topology::port_name(int port) {
  return std::string(port_dir(port) > 0 ? "+" : "-") + dim_name(port_dim(port));
}

NodeId Topology::neighbor(NodeId node, int dim, int dir) const {
  const int c = coord_of(node, dim);
  const int r = radix_[dim];
  int nc = c + dir;
  if (nc < 0 || nc >= r) {
    if (!wrap_) return -1;
    nc = floor_mod(nc, r);
  }
  return node + (nc - c) * stride_[dim];
}

int Topology::port_to(NodeId from, NodeId to) const {
  for (int p = 0; p < ports(); ++p)
    if (neighbor(from, p) == to) return p;
  return -1;
}

std::string Topology::link_name(LinkId link) const {
  return node_name(link_source(link)) + port_name(link_port(link));
}

int Topology::offset(int a, int b, int dim, int dir) const {
  const int r = radix_[dim];
  if (wrap_) return dir > 0 ? floor_mod(b - a, r) : floor_mod(a - b, r);
  if (dir > 0) return b >= a ? b - a : -1;
  return a >= b ? a - b : -1;
}

int Topology::distance(NodeId a, NodeId b) const {
  int total = 0;
  for (int d = 0; d < ndims(); ++d) {
    const int ca = coord_of(a, d), cb = coord_of(b, d);
    const int fwd = floor_mod(cb - ca, radix_[d]);
    total += wrap_ ? std::min(fwd, radix_[d] - fwd) : std::abs(cb - ca);
  }
  return total;
}

Route Topology::shortest_route(NodeId a, NodeId b, int start_dim) const {
  Route r;
  r.start_dim = static_cast<uint8_t>(start_dim);
  for (int d = 0; d < ndims(); ++d) {
    const int ca = coord_of(a, d), cb = coord_of(b, d);
    bool neg;
    if (wrap_) {
      const int fwd = floor_mod(cb - ca, radix_[d]);
      neg = fwd > radix_[d] - fwd;  // ties travel positive
    } else {
      neg = cb < ca;
    }
    if (neg) r.neg_mask |= 1u << d;
  }
  return r;
}

int Topology::route_hops(NodeId src, NodeId dst, const Route& r) const {
  if (r.start_dim >= ndims()) return -1;
  int total = 0;
  for (int d = 0; d < ndims(); ++d) {
    const int a = coord_of(src, d), b = coord_of(dst, d);
    if (a == b) continue;
    const int h = offset(a, b, d, r.dir(d));
    if (h < 0) return -1;
    total += h;
  }
  return total;
}

std::string Topology::route_string(const Route& r) const {
  std::string s;
  for (int k = 0; k < ndims(); ++k) {
    const int d = (r.start_dim + k) % ndims();
    s += dim_name(d);
    s += r.negative(d) ? '-' : '+';
  }
  return s;
}

Route Topology::parse_route(std::string_view text) const {
  // Tokens: a dimension name (x, y, z, w, d4, d5, ...) followed by '+' or '-'.
  Route r;
  int expected = -1;
  int count = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && text[j] != '+' && text[j] != '-') ++j;
    if (j == text.size())
      throw InputError(fmt::format("route '{}': dimension '{}' has no direction (+ or -)", text, text.substr(i)));
    std::string_view name = text.substr(i, j - i);
    int dim = -1;
    if (name == "x") dim = 0;
    else if (name == "y") dim = 1;
    else if (name == "z") dim = 2;
    else if (name == "w") dim = 3;
    else if (name.size() > 1 && name[0] == 'd') {
      int64_t v = 0;
      if (parse_int(name.substr(1), v) && v < kMaxDims) dim = static_cast<int>(v);
    }
    if (dim < 0 || dim >= ndims())
      throw InputError(fmt::format("route '{}': '{}' is not a dimension of this {}-dimensional network", text,
                                   name, ndims()));
    if (count == 0) {
      r.start_dim = static_cast<uint8_t>(dim);
    } else if (dim != expected) {
      throw InputError(fmt::format("route '{}': dimensions must follow cyclic order, expected {} after the "
                                   "previous one but found {}",
                                   text, dim_name(expected), name));
    }
    if (text[j] == '-') r.neg_mask |= 1u << dim;
    expected = (dim + 1) % ndims();
    ++count;
    i = j + 1;
  }
  if (count != ndims())
    throw InputError(fmt::format("route '{}': names {} of the {} dimensions; a route lists every dimension "
                                 "once, e.g. {}",
                                 text, count, ndims(), route_string(Route{})));
  return r;
}

NodeId parse_node(const Topology& topo, std::string_view text) {
  if (!text.empty() && text[0] == '#') {
    int64_t v = 0;
    if (!parse_int(text.substr(1), v) || v >= topo.nodes())
      throw InputError(fmt::format("node '{}': not a node id of the {} network (0..{})", text, topo.to_string(),
                                   topo.nodes() - 1));
    return static_cast<NodeId>(v);
  }
  Coord c{};
  int d = 0;
  size_t pos = 0;
  while (true) {
    size_t comma = text.find(',', pos);
    std::string_view part = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    if (d >= topo.ndims())
      throw InputError(fmt::format("node '{}': has more coordinates than the {} dimensions of {}", text,
                                   topo.ndims(), topo.to_string()));
    int64_t v = 0;
    if (!parse_int(part, v))
      throw InputError(fmt::format("node '{}': '{}' is not a coordinate", text, part));
    if (v >= topo.radix(d))
      throw InputError(fmt::format("node '{}': {} coordinate {} is outside 0..{}", text, Topology::dim_name(d), v,
                                   topo.radix(d) - 1));
    c[d++] = static_cast<int32_t>(v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  if (d != topo.ndims())
    throw InputError(fmt::format("node '{}': gives {} coordinates, the network {} has {} dimensions", text, d,
                                 topo.to_string(), topo.ndims()));
  return topo.node(c);
}

NodeId parse_node_or_id(const Topology& topo, std::string_view text) {
  if (text.find(',') == std::string_view::npos && !text.empty() && text[0] != '#') {
    int64_t v = 0;
    if (!parse_int(text, v) || v >= topo.nodes())
      throw InputError(fmt::format("node '{}': not a node of the {} (an id 0..{} or coordinates like 1,2)", text,
                                   topo.to_string(), topo.nodes() - 1));
    return static_cast<NodeId>(v);
  }
  return parse_node(topo, text);
}

}  // namespace torx::sw
