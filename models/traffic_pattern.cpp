// SPDX-License-Identifier: Apache-2.0
#include "models/traffic_pattern.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace torx::model {

namespace {

bool power_of_two(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

TrafficMatrix parse_traffic_matrix(std::istream& in, const std::string& origin, const sw::Topology& topo) {
  std::vector<std::vector<std::pair<sw::NodeId, double>>> raw(static_cast<size_t>(topo.nodes()));
  std::string line;
  uint64_t lineno = 0, bytes = 0, entries = 0;
  double total = 0;
  while (std::getline(in, line)) {
    ++lineno;
    bytes += line.size() + 1;
    if (bytes > kMatrixMaxBytes)
      throw sw::InputError(fmt::format("{}:{}: the matrix is larger than {} MiB", origin, lineno, kMatrixMaxBytes >> 20));
    if (line.size() > kMatrixMaxLine)
      throw sw::InputError(fmt::format("{}:{}: line of {} characters (at most {})", origin, lineno, line.size(),
                                       kMatrixMaxLine));
    if (line.find('\0') != std::string::npos)
      throw sw::InputError(fmt::format("{}:{}: a NUL byte: not a text file", origin, lineno));
    // Fields. A comment begins at a field that starts with '#' and is not a node id ("#53": '#' and
    // a digit), or at any field after the third: "# note", "0 1 2  # note", "#0 #1 2" (ids).
    std::istringstream fields(line);
    std::vector<std::string> f;
    std::string w;
    while (fields >> w) {
      const bool node_id = w.size() > 1 && std::isdigit(static_cast<unsigned char>(w[1]));
      if (w[0] == '#' && (f.size() >= 3 || !node_id)) break;
      f.push_back(w);
    }
    if (f.empty()) continue;
    if (f.size() != 3)
      throw sw::InputError(fmt::format("{}:{}: expected SOURCE DESTINATION WEIGHT, found {} field{}", origin, lineno,
                                       f.size(), f.size() == 1 ? "" : "s"));
    sw::NodeId s = 0, d = 0;
    try {
      s = sw::parse_node_or_id(topo, f[0]);
      d = sw::parse_node_or_id(topo, f[1]);
    } catch (const sw::InputError& e) {
      throw sw::InputError(fmt::format("{}:{}: {}", origin, lineno, e.what()));
    }
    char* end = nullptr;
    errno = 0;
    const double weight = std::strtod(f[2].c_str(), &end);
    if (*end || errno || !std::isfinite(weight) || weight < 0 || weight > 1e12)
      throw sw::InputError(fmt::format("{}:{}: weight '{}': not a number from 0 to 1e12", origin, lineno, f[2]));
    raw[static_cast<size_t>(s)].emplace_back(d, weight);
    total += weight;
    ++entries;
  }
  if (in.bad()) throw sw::InputError(fmt::format("{}: read error: {}", origin, std::strerror(errno)));
  if (!(total > 0)) throw sw::InputError(fmt::format("{}: no entry with a positive weight: nothing to send", origin));
  TrafficMatrix m;
  m.entries = entries;
  m.rows.resize(raw.size());
  for (size_t s = 0; s < raw.size(); ++s) {
    auto& r = raw[s];
    std::stable_sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    double cum = 0;
    for (size_t k = 0; k < r.size(); ++k) {
      if (k > 0 && r[k].first == r[k - 1].first)
        throw sw::InputError(fmt::format("{}: the pair {} -> {} is given twice", origin,
                                         topo.node_name(static_cast<sw::NodeId>(s)), topo.node_name(r[k].first)));
      if (r[k].second == 0) continue;
      cum += r[k].second;
      m.rows[s].push_back({r[k].first, cum});
    }
  }
  return m;
}

TrafficMatrix read_traffic_matrix(const std::string& path, const sw::Topology& topo) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw sw::InputError(fmt::format("matrix file {}: cannot open: {}", path, std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw sw::InputError(fmt::format("matrix file {}: not a regular file", path));
  if (static_cast<uint64_t>(st.st_size) > kMatrixMaxBytes)
    throw sw::InputError(fmt::format("matrix file {}: {} bytes, larger than {} MiB", path,
                                     static_cast<uint64_t>(st.st_size), kMatrixMaxBytes >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sw::InputError(fmt::format("matrix file {}: cannot open: {}", path, std::strerror(errno)));
  return parse_traffic_matrix(in, path, topo);
}

DestinationPattern::DestinationPattern(const PatternSpec& spec, const sw::Topology& topo) : spec_(spec), topo_(topo) {
  const sw::NodeId n = topo.nodes();
  const std::string name(sw::name_of(sw::kTrafficPatterns, spec.kind));
  switch (spec.kind) {
    case PatternKind::kBitComplement:
    case PatternKind::kBitReverse:
    case PatternKind::kShuffle:
      if (!power_of_two(n))
        throw sw::InputError(fmt::format("--pattern {} needs a power-of-two node count; the {} has {} nodes", name,
                                         topo.to_string(), n));
      break;
    case PatternKind::kTranspose: {
      bool ok = topo.ndims() % 2 == 0;
      for (int d = 1; ok && d < topo.ndims(); ++d) ok = topo.radix(d) == topo.radix(0);
      if (!ok)
        throw sw::InputError(fmt::format("--pattern transpose needs a square 2D network (or an even number of "
                                         "dimensions of one radix); the {} is not",
                                         topo.to_string()));
      break;
    }
    case PatternKind::kHotSpot:
      if (spec.hotspots.empty()) throw sw::InputError("--pattern hot-spot needs at least one hot-spot node");
      for (sw::NodeId h : spec.hotspots)
        if (h < 0 || h >= n)
          throw sw::InputError(fmt::format("--hotspot {}: not a node of the {}", h, topo.to_string()));
      if (!(spec.hotspot_fraction >= 0 && spec.hotspot_fraction <= 1))
        throw sw::InputError(fmt::format("--hotspot-fraction {}: must be in [0, 1]", spec.hotspot_fraction));
      break;
    case PatternKind::kMatrix:
      if (spec.matrix.rows.size() != static_cast<size_t>(n))
        throw sw::InputError(fmt::format("--pattern matrix: the matrix has {} rows, the {} has {} nodes",
                                         spec.matrix.rows.size(), topo.to_string(), n));
      break;
    default:
      break;
  }
  while ((sw::NodeId{1} << bits_) < n) ++bits_;
}

bool DestinationPattern::sends(sw::NodeId src) const {
  return spec_.kind != PatternKind::kMatrix || !spec_.matrix.rows[static_cast<size_t>(src)].empty();
}

sw::NodeId DestinationPattern::fixed_dest(sw::NodeId s) const {
  const sw::NodeId n = topo_.nodes();
  const int nd = topo_.ndims();
  switch (spec_.kind) {
    case PatternKind::kBitComplement: return ~s & (n - 1);
    case PatternKind::kBitReverse: {
      sw::NodeId r = 0;
      for (int b = 0; b < bits_; ++b) r |= ((s >> b) & 1) << (bits_ - 1 - b);
      return r;
    }
    case PatternKind::kShuffle:
      return bits_ == 0 ? s : (((s << 1) & (n - 1)) | ((s >> (bits_ - 1)) & 1));
    case PatternKind::kTranspose: {
      const sw::Coord c = topo_.coord(s);
      sw::Coord d{};
      for (int i = 0; i < nd; ++i) d[i] = c[(i + nd / 2) % nd];
      return topo_.node(d);
    }
    case PatternKind::kTornado:
    case PatternKind::kNeighbor: {
      sw::Coord c = topo_.coord(s);
      for (int i = 0; i < nd; ++i) {
        const int k = topo_.radix(i);
        const int shift = spec_.kind == PatternKind::kNeighbor ? 1 : (k + 1) / 2 - 1;
        c[i] = (c[i] + shift) % k;
      }
      return topo_.node(c);
    }
    default:
      return -1;
  }
}

sw::NodeId DestinationPattern::dest(sw::NodeId src, std::mt19937_64& rng) const {
  const sw::NodeId n = topo_.nodes();
  switch (spec_.kind) {
    case PatternKind::kUniform:
      return std::uniform_int_distribution<sw::NodeId>(0, n - 1)(rng);
    case PatternKind::kHotSpot: {
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < spec_.hotspot_fraction) {
        const size_t h = spec_.hotspots.size() == 1
                             ? 0
                             : std::uniform_int_distribution<size_t>(0, spec_.hotspots.size() - 1)(rng);
        return spec_.hotspots[h];
      }
      return std::uniform_int_distribution<sw::NodeId>(0, n - 1)(rng);
    }
    case PatternKind::kMatrix: {
      const auto& row = spec_.matrix.rows[static_cast<size_t>(src)];
      TORX_CHECK(!row.empty(), "a matrix row without weight sends nothing");
      const double u = std::uniform_real_distribution<double>(0.0, row.back().cumulative)(rng);
      auto it = std::upper_bound(row.begin(), row.end(), u,
                                 [](double x, const TrafficMatrix::Entry& e) { return x < e.cumulative; });
      if (it == row.end()) --it;
      return it->dst;
    }
    default:
      return fixed_dest(src);
  }
}

std::string DestinationPattern::describe(const sw::Topology& topo) const {
  switch (spec_.kind) {
    case PatternKind::kHotSpot: {
      std::string nodes;
      for (sw::NodeId h : spec_.hotspots) nodes += (nodes.empty() ? "" : " ") + topo.node_name(h);
      return fmt::format("hot-spot ({:g} % to {})", spec_.hotspot_fraction * 100, nodes);
    }
    case PatternKind::kMatrix:
      return fmt::format("matrix ({} entries)", spec_.matrix.entries);
    default:
      return std::string(sw::name_of(sw::kTrafficPatterns, spec_.kind));
  }
}

}  // namespace torx::model
