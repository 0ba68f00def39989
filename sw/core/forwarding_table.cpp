// SPDX-License-Identifier: Apache-2.0
#include "core/forwarding_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <string_view>
#include <tuple>
#include <utility>

#include "core/errors.hpp"
#include "core/int_math.hpp"
#include "core/quote.hpp"
#include "core/topology.hpp"

namespace torx::sw {

namespace {

// Largest useful step count: inject_step + N (N - 1) pieces, saturating.
int64_t max_steps(int64_t nodes, int pieces, int64_t inject_step) {
  const auto a = checked_mul<int64_t>(nodes, nodes - 1);
  const auto b = a ? checked_mul<int64_t>(*a, pieces) : std::nullopt;
  const auto c = b ? checked_add<int64_t>(*b, inject_step) : std::nullopt;
  return c ? *c : INT64_MAX;
}

// The checks shared by the reader (per record, with its line) and validate_forwarding_table.
class Limits {
 public:
  Limits(const Topology& topo, int pieces, int64_t steps, int64_t inject_step)
      : topo_(topo), pieces_(pieces), steps_(steps), inject_step_(inject_step),
        blocks_(mul_or_throw<int64_t>(topo.nodes(), pieces, "forwarding tables: nodes x pieces")) {}

  int64_t blocks() const { return blocks_; }
  uint32_t network_mask() const {
    const int np = topo_.ports();
    return np >= 32 ? 0xffffffffu : (1u << np) - 1u;
  }

  // Each returns an empty string if the value is fine, else what is wrong with it.
  std::string node(int64_t v) const {
    return v >= 0 && v < topo_.nodes() ? "" : fmt::format("node {} is not in 0..{}", v, topo_.nodes() - 1);
  }
  std::string network_port(int64_t p) const {
    return p >= 0 && p < topo_.ports() ? "" : fmt::format("port {} is not a network port 0..{}", p, topo_.ports() - 1);
  }
  std::string mask(uint32_t m) const {
    return (m & ~network_mask()) == 0 ? "" : fmt::format("mask {} has bits beyond the {} network ports", m, topo_.ports());
  }
  std::string block(uint64_t b) const {
    return b < static_cast<uint64_t>(blocks_) ? "" : fmt::format("block {} is not in 0..{} (nodes x pieces)", b, blocks_ - 1);
  }
  std::string window(int64_t first, int64_t last) const {
    if (first <= inject_step_) return fmt::format("window starts at step {}, not after the injection step {}", first, inject_step_);
    if (last < first) return fmt::format("window {}..{} is empty", first, last);
    if (last > steps_) return fmt::format("window ends at step {}, after the last step {}", last, steps_);
    return "";
  }
  int64_t owner(uint64_t b) const { return static_cast<int64_t>(b / static_cast<uint64_t>(pieces_)); }

 private:
  const Topology& topo_;
  int pieces_;
  int64_t steps_;
  int64_t inject_step_;
  int64_t blocks_;
};

// Header checks shared by the reader and validate_forwarding_table.
std::string check_pieces(int64_t pieces) {
  return pieces >= 1 && pieces <= kMaxForwardingPieces
             ? ""
             : fmt::format("{} pieces per node is not in 1..{}", pieces, kMaxForwardingPieces);
}
std::string check_inject_step(int64_t s) { return s == 1 || s == 2 ? "" : fmt::format("{} is not 1 or 2", s); }
std::string check_steps(int64_t steps, int64_t nodes, int pieces, int64_t inject_step) {
  if (steps < inject_step) return fmt::format("{} steps end before the injection step {}", steps, inject_step);
  const int64_t limit = max_steps(nodes, pieces, inject_step);
  if (steps > limit)
    return fmt::format("{} steps; a gossip of {} nodes with {} pieces needs at most {} (every step delivers a piece)",
                       steps, nodes, pieces, limit);
  return "";
}

[[noreturn]] void fail_node(const std::string& origin, int64_t node, std::string_view field, const std::string& what) {
  throw InputError(fmt::format("{}: node {}: {}: {}", origin, node, field, what));
}

}  // namespace

uint64_t forwarding_table_bytes(int64_t nodes, int ndims, int64_t rules, int64_t injections) {
  // One heap block as glibc lays it out (8-byte header, 16-byte granules, 32 bytes at least), and a
  // vector grown by push_back to a power-of-two capacity.
  auto heap = [](uint64_t n) -> uint64_t { return n == 0 ? 0 : std::max<uint64_t>(32, (n + 8 + 15) & ~uint64_t{15}); };
  auto grown = [&](uint64_t n, uint64_t size) -> uint64_t {
    uint64_t cap = 1;
    while (cap < n) cap <<= 1;
    return n == 0 ? 0 : heap(cap * size);
  };
  const uint64_t rows = static_cast<uint64_t>(2 * ndims + 1);
  const uint64_t per_node = 4 * sizeof(std::vector<int>) + heap(rows * sizeof(uint32_t)) + heap(rows) +
                            grown(static_cast<uint64_t>(std::max<int64_t>(rules, 0)), sizeof(ForwardRule)) +
                            grown(static_cast<uint64_t>(std::max<int64_t>(injections, 0)), sizeof(InjectionEntry));
  const auto total = checked_mul<uint64_t>(static_cast<uint64_t>(std::max<int64_t>(nodes, 0)), per_node);
  return total ? *total : UINT64_MAX;
}

uint64_t gossip_tables_peak_bytes(const std::vector<int>& dims) {
  uint64_t nodes = 1;
  for (int r : dims) {
    const auto p = checked_mul<uint64_t>(nodes, static_cast<uint64_t>(std::max(r, 0)));
    if (!p) return UINT64_MAX;
    nodes = *p;
  }
  if (nodes > static_cast<uint64_t>(INT64_MAX)) return UINT64_MAX;
  const int d = static_cast<int>(dims.size());
  const uint64_t tables = forwarding_table_bytes(static_cast<int64_t>(nodes), d, 4 * d, 8);
  return tables > UINT64_MAX / 2 ? UINT64_MAX : 2 * tables;
}

int64_t ForwardingTable::nodes() const {
  int64_t n = 1;
  for (int s : dims) n *= s;
  return dims.empty() ? 0 : n;
}

void write_forwarding_table(std::ostream& out, const ForwardingTable& tab) {
  out << "torx-forwarding-tables " << kForwardingTableVersion << "\n";
  if (!tab.construction.empty()) out << "# " << tab.construction << "\n";
  out << "algorithm " << tab.algorithm << "\n";
  out << "dims";
  for (int s : tab.dims) out << ' ' << s;
  out << "\npieces " << tab.pieces << "\nsteps " << tab.steps << "\ninject_step " << tab.inject_step << "\n";
  const int64_t nodes = static_cast<int64_t>(tab.rules.size());
  for (int64_t v = 0; v < nodes; ++v) {
    for (size_t i = 0; i < tab.out_mask[v].size(); ++i)
      if (tab.out_mask[v][i] || tab.deliver[v][i])
        out << "D " << v << ' ' << i << ' ' << tab.out_mask[v][i] << ' ' << int(tab.deliver[v][i]) << '\n';
    for (const auto& r : tab.rules[v])
      out << "R " << v << ' ' << int(r.in_port) << ' ' << int(r.out_port) << ' ' << r.first << ' ' << r.last << '\n';
    for (const auto& e : tab.inject[v]) out << "I " << v << ' ' << e.block << ' ' << e.out_mask << '\n';
  }
  for (const auto& m : tab.prologue) {
    out << "P " << m.src << ' ' << m.dst << ' ' << Topology::port_dim(m.port) << ' ' << Topology::port_dir(m.port);
    for (uint64_t b : m.blocks) out << ' ' << b;
    out << '\n';
  }
  out << "end\n";
}

namespace {

// Reads the text form line by line; records are kept flat (with their line numbers) until the file
// has shown an injection for every block, so a short file can never make the reader allocate more
// than its own size.
class TableReader {
 public:
  TableReader(std::istream& in, const std::string& origin) : in_(in), origin_(origin) {}

  ForwardingTable read() {
    std::string text;
    while (next_line(text)) {
      ++line_;
      const auto hash = text.find('#');
      if (hash != std::string::npos) text.erase(hash);
      tokens_.clear();
      split(text);
      if (tokens_.empty()) continue;
      if (ended_) fail(tokens_[0], "text after 'end'");
      if (!have_version_) {
        if (tokens_[0] != "torx-forwarding-tables") fail(tokens_[0], "expected 'torx-forwarding-tables 1' first");
        expect_fields(2, "torx-forwarding-tables <version>");
        if (parse_int(1, "version") != kForwardingTableVersion)
          fail("version", fmt::format("version {} is not supported (this reader knows version {})", quote_input(tokens_[1], 40),
                                      kForwardingTableVersion));
        have_version_ = true;
        continue;
      }
      record();
    }
    if (!have_version_) throw InputError(origin_ + ": empty (expected 'torx-forwarding-tables 1')");
    if (!ended_) throw InputError(fmt::format("{}, line {}: the file ends without 'end'", origin_, line_));
    return assemble();
  }

 private:
  struct DRecord {
    int64_t node, port;
    uint32_t mask;
    int deliver;
    int64_t line;
  };
  struct RRecord {
    int64_t node;
    ForwardRule rule;
    int64_t line;
  };
  struct IRecord {
    int64_t node;
    InjectionEntry entry;
    int64_t line;
  };

  // One line into `text` (without its newline); false at the end (read() counts the lines). A
  // line longer than kMaxForwardingLineBytes, a file longer than kMaxForwardingTableBytes or a NUL
  // byte (a binary file, /dev/zero) stops the reading at once: the reader holds one capped line.
  bool next_line(std::string& text) {
    text.clear();
    std::streambuf* sb = in_.rdbuf();
    for (;;) {
      const int c = sb->sbumpc();
      if (c == std::char_traits<char>::eof()) return !text.empty();
      if (++bytes_ > kMaxForwardingTableBytes)
        throw InputError(fmt::format("{}: longer than {} MiB, the limit of a forwarding-table file", origin_,
                                     kMaxForwardingTableBytes >> 20));
      if (c == '\n') return true;
      if (c == 0)
        throw InputError(fmt::format("{}, line {}: not a text file (contains NUL bytes)", origin_, line_ + 1));
      if (text.size() >= kMaxForwardingLineBytes)
        throw InputError(fmt::format("{}, line {}: line longer than {} bytes, the format's limit", origin_, line_ + 1,
                                     kMaxForwardingLineBytes));
      text += static_cast<char>(c);
    }
  }

  void split(const std::string& text) {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
      size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r') ++j;
      if (j > i) tokens_.emplace_back(text.data() + i, j - i);
      i = j;
    }
  }

  [[noreturn]] void fail(std::string_view field, const std::string& what) const {
    throw InputError(fmt::format("{}, line {}: {}: {}", origin_, line_, quote_input(field, 40), what));
  }

  void expect_fields(size_t n, const char* form) const {
    if (tokens_.size() != n)
      fail(tokens_[0], fmt::format("expected {} field{} ({}), got {}", n - 1, n == 2 ? "" : "s", form, tokens_.size() - 1));
  }

  int64_t parse_int(size_t i, std::string_view field) const {
    const std::string_view t = tokens_[i];
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size()) fail(field, fmt::format("'{}' is not an integer", quote_input(t, 40)));
    return v;
  }

  uint64_t parse_uint(size_t i, std::string_view field) const {
    const std::string_view t = tokens_[i];
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size()) fail(field, fmt::format("'{}' is not a non-negative integer", quote_input(t, 40)));
    return v;
  }

  uint32_t parse_mask(size_t i, std::string_view field) const {
    const uint64_t v = parse_uint(i, field);
    if (v > 0xffffffffu) fail(field, fmt::format("{} does not fit in 32 bits", v));
    const std::string bad = limits_->mask(static_cast<uint32_t>(v));
    if (!bad.empty()) fail(field, bad);
    return static_cast<uint32_t>(v);
  }

  void check(std::string_view field, const std::string& what) const {
    if (!what.empty()) fail(field, what);
  }

  // A header field: once, before the first record.
  void header_field(bool& seen) {
    if (seen) fail(tokens_[0], "repeated header field");
    if (topo_) fail(tokens_[0], "header fields must come before the records");
    seen = true;
  }

  void record() {
    const std::string_view key = tokens_[0];
    if (key == "algorithm") {
      header_field(have_algorithm_);
      expect_fields(2, "algorithm <name>");
      table_.algorithm = std::string(tokens_[1]);
    } else if (key == "dims") {
      header_field(have_dims_);
      if (tokens_.size() < 2) fail(key, "expected the radix of every dimension");
      if (tokens_.size() - 1 > static_cast<size_t>(kMaxDims))
        fail(key, fmt::format("{} dimensions; at most {} are supported", tokens_.size() - 1, kMaxDims));
      for (size_t i = 1; i < tokens_.size(); ++i) {
        const int64_t r = parse_int(i, "dims");
        if (r < 2 || r > (int64_t{1} << 24)) fail(key, fmt::format("radix {} is out of range (2..2^24)", r));
        table_.dims.push_back(static_cast<int>(r));
      }
    } else if (key == "pieces") {
      header_field(have_pieces_);
      expect_fields(2, "pieces <k>");
      const int64_t p = parse_int(1, key);
      check(key, check_pieces(p));
      table_.pieces = static_cast<int>(p);
    } else if (key == "steps") {
      header_field(have_steps_);
      expect_fields(2, "steps <T>");
      table_.steps = parse_int(1, key);
    } else if (key == "inject_step") {
      header_field(have_inject_step_);
      expect_fields(2, "inject_step <s>");
      table_.inject_step = parse_int(1, key);
      check(key, check_inject_step(table_.inject_step));
    } else if (key == "D" || key == "R" || key == "I" || key == "P") {
      start_records();
      if (key == "D") d_record();
      else if (key == "R") r_record();
      else if (key == "I") i_record();
      else p_record();
    } else if (key == "end") {
      expect_fields(1, "end");
      start_records();
      ended_ = true;
      end_line_ = line_;
    } else {
      fail(key, "unknown record kind (expected algorithm, dims, pieces, steps, inject_step, D, R, I, P or end)");
    }
  }

  // At the first record: the header is complete; build the topology and the limits.
  void start_records() {
    if (topo_) return;
    const char* missing = !have_algorithm_ ? "algorithm"
                          : !have_dims_    ? "dims"
                          : !have_pieces_  ? "pieces"
                          : !have_steps_   ? "steps"
                          : !have_inject_step_ ? "inject_step"
                                               : nullptr;
    if (missing) fail(tokens_[0], fmt::format("the header field '{}' must come before the records", missing));
    try {
      topo_.emplace(table_.dims, true);
    } catch (const InputError& e) {
      fail("dims", e.what());
    }
    check("steps", check_steps(table_.steps, topo_->nodes(), table_.pieces, table_.inject_step));
    limits_.emplace(*topo_, table_.pieces, table_.steps, table_.inject_step);
  }

  int64_t parse_node(size_t i, std::string_view field) const {
    const int64_t v = parse_int(i, field);
    check(field, limits_->node(v));
    return v;
  }

  void d_record() {
    expect_fields(5, "D <node> <in_port> <out_mask> <deliver>");
    DRecord d{};
    d.node = parse_node(1, "D node");
    d.port = parse_int(2, "D in_port");
    if (d.port < 0 || d.port > topo_->ports())
      fail("D in_port", fmt::format("{} is not a port 0..{} (network ports and the local port {})", d.port, topo_->ports(),
                                    topo_->ports()));
    d.mask = parse_mask(3, "D out_mask");
    const int64_t dl = parse_int(4, "D deliver");
    if (dl != 0 && dl != 1) fail("D deliver", fmt::format("{} is not 0 or 1", dl));
    if (dl == 1 && d.port == topo_->ports()) fail("D deliver", "the local port does not deliver (it injects)");
    d.deliver = static_cast<int>(dl);
    d.line = line_;
    d_.push_back(d);
  }

  void r_record() {
    expect_fields(6, "R <node> <in_port> <out_port> <first> <last>");
    RRecord r{};
    r.node = parse_node(1, "R node");
    const int64_t in = parse_int(2, "R in_port"), out = parse_int(3, "R out_port");
    check("R in_port", limits_->network_port(in));
    check("R out_port", limits_->network_port(out));
    if (in == out) fail("R out_port", fmt::format("port {} sends packets back to the neighbour they came from", out));
    r.rule.in_port = static_cast<uint8_t>(in);
    r.rule.out_port = static_cast<uint8_t>(out);
    r.rule.first = parse_int(4, "R first");
    r.rule.last = parse_int(5, "R last");
    check("R window", limits_->window(r.rule.first, r.rule.last));
    r.line = line_;
    r_.push_back(r);
  }

  void i_record() {
    expect_fields(4, "I <node> <block> <out_mask>");
    IRecord r{};
    r.node = parse_node(1, "I node");
    r.entry.block = parse_uint(2, "I block");
    check("I block", limits_->block(r.entry.block));
    r.entry.out_mask = parse_mask(3, "I out_mask");
    if (r.entry.out_mask == 0) fail("I out_mask", "the block leaves on no port");
    r.line = line_;
    i_.push_back(r);
  }

  void p_record() {
    if (tokens_.size() < 6) fail("P", "expected P <src> <dst> <dim> <dir> <block> [<block> ...]");
    PrologueMessage m;
    m.src = parse_node(1, "P src");
    m.dst = parse_node(2, "P dst");
    const int64_t dim = parse_int(3, "P dim"), dir = parse_int(4, "P dir");
    if (dim < 0 || dim >= topo_->ndims()) fail("P dim", fmt::format("{} is not a dimension 0..{}", dim, topo_->ndims() - 1));
    if (dir != 1 && dir != -1) fail("P dir", fmt::format("{} is not 1 or -1", dir));
    m.port = Topology::port(static_cast<int>(dim), static_cast<int>(dir));
    if (topo_->neighbor(static_cast<NodeId>(m.src), m.port) != m.dst)
      fail("P dst", fmt::format("node {} is not the neighbour of node {} across port {}", m.dst, m.src,
                                Topology::port_name(m.port)));
    for (size_t i = 5; i < tokens_.size(); ++i) {
      const uint64_t b = parse_uint(i, "P block");
      check("P block", limits_->block(b));
      m.blocks.push_back(b);
    }
    p_lines_.push_back(line_);
    table_.prologue.push_back(std::move(m));
  }

  [[noreturn]] void fail_at(int64_t line, std::string_view field, const std::string& what) const {
    throw InputError(fmt::format("{}, line {}: {}: {}", origin_, line, field, what));
  }

  ForwardingTable assemble() {
    const int64_t nodes = topo_->nodes();
    const int64_t blocks = limits_->blocks();
    // Every block injected exactly once: check on the flat records before sizing anything by nodes.
    std::sort(i_.begin(), i_.end(), [](const IRecord& a, const IRecord& b) {
      return std::tie(a.entry.block, a.line) < std::tie(b.entry.block, b.line);
    });
    for (size_t k = 1; k < i_.size(); ++k)
      if (i_[k].entry.block == i_[k - 1].entry.block)
        fail_at(i_[k].line, "I block", fmt::format("block {} is already injected (line {})", i_[k].entry.block, i_[k - 1].line));
    if (static_cast<int64_t>(i_.size()) != blocks) {
      uint64_t missing = 0;
      while (missing < i_.size() && i_[missing].entry.block == missing) ++missing;
      fail_at(end_line_, "I", fmt::format("{} of the {} blocks are injected; block {} (node {}, piece {}) is not",
                                          i_.size(), blocks, missing, limits_->owner(missing),
                                          missing % static_cast<uint64_t>(table_.pieces)));
    }
    std::sort(d_.begin(), d_.end(), [](const DRecord& a, const DRecord& b) {
      return std::tie(a.node, a.port, a.line) < std::tie(b.node, b.port, b.line);
    });
    for (size_t k = 1; k < d_.size(); ++k)
      if (d_[k].node == d_[k - 1].node && d_[k].port == d_[k - 1].port)
        fail_at(d_[k].line, "D", fmt::format("node {} in_port {} already has a D record (line {})", d_[k].node, d_[k].port,
                                             d_[k - 1].line));
    // Sized by nodes from here on: nodes <= blocks = injection records.
    const int np = topo_->ports();
    table_.out_mask.assign(nodes, std::vector<uint32_t>(np + 1, 0));
    table_.deliver.assign(nodes, std::vector<uint8_t>(np + 1, 0));
    table_.rules.assign(nodes, {});
    table_.inject.assign(nodes, {});
    for (const DRecord& d : d_) {
      table_.out_mask[d.node][d.port] = d.mask;
      table_.deliver[d.node][d.port] = static_cast<uint8_t>(d.deliver);
    }
    std::stable_sort(r_.begin(), r_.end(), [](const RRecord& a, const RRecord& b) { return a.line < b.line; });
    for (const RRecord& r : r_) table_.rules[r.node].push_back(r.rule);
    std::sort(i_.begin(), i_.end(), [](const IRecord& a, const IRecord& b) { return a.line < b.line; });
    for (const IRecord& r : i_) table_.inject[r.node].push_back(r.entry);
    validate_forwarding_table(table_, origin_);
    return std::move(table_);
  }

  std::istream& in_;
  std::string origin_;
  int64_t line_ = 0;
  uint64_t bytes_ = 0;
  int64_t end_line_ = 0;
  std::vector<std::string_view> tokens_;
  bool have_version_ = false, ended_ = false;
  bool have_algorithm_ = false, have_dims_ = false, have_pieces_ = false, have_steps_ = false, have_inject_step_ = false;
  ForwardingTable table_;
  std::optional<Topology> topo_;
  std::optional<Limits> limits_;
  std::vector<DRecord> d_;
  std::vector<RRecord> r_;
  std::vector<IRecord> i_;
  std::vector<int64_t> p_lines_;
};

}  // namespace

ForwardingTable read_forwarding_table(std::istream& in, const std::string& origin) {
  return TableReader(in, origin).read();
}

void validate_forwarding_table(const ForwardingTable& tab, const std::string& origin) {
  auto fail = [&](std::string_view field, const std::string& what) {
    throw InputError(fmt::format("{}: {}: {}", origin, field, what));
  };
  const Topology topo = [&] {
    try {
      return Topology(tab.dims, true);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: dims: {}", origin, e.what()));
    }
  }();
  if (const std::string w = check_pieces(tab.pieces); !w.empty()) fail("pieces", w);
  if (const std::string w = check_inject_step(tab.inject_step); !w.empty()) fail("inject_step", w);
  const int64_t nodes = topo.nodes();
  if (const std::string w = check_steps(tab.steps, nodes, tab.pieces, tab.inject_step); !w.empty()) fail("steps", w);
  if (tab.prologue.empty() != (tab.inject_step == 1))
    fail("inject_step", tab.prologue.empty() ? "is 2 but there is no prologue (P records)"
                                             : "is 1 but there is a prologue (P records); injection follows it at step 2");
  const int np = topo.ports();
  const size_t rows = static_cast<size_t>(np) + 1;
  auto sized = [&](size_t n) { return static_cast<int64_t>(n) == nodes; };
  if (!sized(tab.out_mask.size()) || !sized(tab.deliver.size()) || !sized(tab.rules.size()) || !sized(tab.inject.size()))
    fail("tables", fmt::format("the per-node tables do not have {} rows (one per node of the {})", nodes, topo.to_string()));
  const Limits lim(topo, tab.pieces, tab.steps, tab.inject_step);
  const int local = Topology::local_port(topo.ndims());

  // Prologue: one hop, blocks of the sender, each block sent at most once.
  std::vector<uint8_t> sent(static_cast<size_t>(lim.blocks()), 0);
  std::vector<std::pair<uint64_t, int64_t>> handed;  // (block, receiver)
  for (const PrologueMessage& m : tab.prologue) {
    for (const auto& w : {lim.node(m.src), lim.node(m.dst), lim.network_port(m.port)})
      if (!w.empty()) fail("prologue", w);
    if (topo.neighbor(static_cast<NodeId>(m.src), m.port) != m.dst)
      fail("prologue", fmt::format("node {} is not the neighbour of node {} across port {}", m.dst, m.src, m.port));
    if (m.blocks.empty()) fail("prologue", fmt::format("the message {} -> {} carries no block", m.src, m.dst));
    for (uint64_t b : m.blocks) {
      if (const std::string w = lim.block(b); !w.empty()) fail("prologue", w);
      if (lim.owner(b) != m.src) fail("prologue", fmt::format("node {} sends block {}, which node {} owns", m.src, b, lim.owner(b)));
      if (sent[b]) fail("prologue", fmt::format("block {} is sent twice", b));
      sent[b] = 1;
      handed.emplace_back(b, m.dst);
    }
  }
  std::sort(handed.begin(), handed.end());

  std::vector<uint8_t> injected(static_cast<size_t>(lim.blocks()), 0);
  int64_t injections = 0;
  std::vector<uint32_t> sends(static_cast<size_t>(nodes), 0);  // network ports each node sends on
  for (int64_t v = 0; v < nodes; ++v) {
    if (tab.out_mask[v].size() != rows || tab.deliver[v].size() != rows)
      fail_node(origin, v, "D", fmt::format("{} in_port rows expected (network ports and the local port)", rows));
    std::vector<uint32_t> from_rules(rows, 0);
    std::vector<ForwardRule> sorted = tab.rules[v];
    for (const ForwardRule& r : sorted) {
      for (const auto& w : {lim.network_port(r.in_port), lim.network_port(r.out_port), lim.window(r.first, r.last)})
        if (!w.empty()) fail_node(origin, v, "R", w);
      if (r.in_port == r.out_port)
        fail_node(origin, v, "R", fmt::format("port {} sends packets back to the neighbour they came from", r.out_port));
      if (!tab.deliver[v][r.in_port])
        fail_node(origin, v, "R", fmt::format("a rule forwards from in_port {}, which delivers nothing", r.in_port));
      from_rules[r.in_port] |= 1u << r.out_port;
    }
    std::sort(sorted.begin(), sorted.end(), [](const ForwardRule& a, const ForwardRule& b) {
      return std::tie(a.in_port, a.out_port, a.first) < std::tie(b.in_port, b.out_port, b.first);
    });
    for (size_t k = 1; k < sorted.size(); ++k)
      if (sorted[k].in_port == sorted[k - 1].in_port && sorted[k].out_port == sorted[k - 1].out_port &&
          sorted[k].first <= sorted[k - 1].last)
        fail_node(origin, v, "R",
                  fmt::format("two rules {} -> {} overlap in steps {}..{}", int(sorted[k].in_port), int(sorted[k].out_port),
                              sorted[k].first, std::min(sorted[k].last, sorted[k - 1].last)));
    for (const InjectionEntry& e : tab.inject[v]) {
      if (const std::string w = lim.block(e.block); !w.empty()) fail_node(origin, v, "I", w);
      if (const std::string w = lim.mask(e.out_mask); !w.empty()) fail_node(origin, v, "I", w);
      if (e.out_mask == 0) fail_node(origin, v, "I", fmt::format("block {} leaves on no port", e.block));
      if (injected[e.block]) fail_node(origin, v, "I", fmt::format("block {} is injected twice", e.block));
      if (lim.owner(e.block) != v && !std::binary_search(handed.begin(), handed.end(), std::make_pair(e.block, v)))
        fail_node(origin, v, "I",
                  fmt::format("block {} belongs to node {} and no prologue message hands it to node {}", e.block,
                              lim.owner(e.block), v));
      injected[e.block] = 1;
      ++injections;
      from_rules[local] |= e.out_mask;
    }
    for (int i = 0; i <= np; ++i) {
      if (const std::string w = lim.mask(tab.out_mask[v][i]); !w.empty()) fail_node(origin, v, "D out_mask", w);
      if (tab.out_mask[v][i] != from_rules[i])
        fail_node(origin, v, "D out_mask",
                  fmt::format("in_port {} has out_mask {} but its {} give {}", i, tab.out_mask[v][i],
                              i == local ? "injections" : "rules", from_rules[i]));
      if (tab.deliver[v][i] > 1) fail_node(origin, v, "D deliver", fmt::format("in_port {}: {} is not 0 or 1", i, int(tab.deliver[v][i])));
      sends[v] |= from_rules[i];
    }
    if (tab.deliver[v][local]) fail_node(origin, v, "D deliver", "the local port does not deliver (it injects)");
  }
  if (injections != lim.blocks())
    fail("I", fmt::format("{} of the {} blocks are injected (every block exactly once)", injections, lim.blocks()));
  // Every port that sends leads to an input port that delivers.
  for (int64_t v = 0; v < nodes; ++v)
    for (int p = 0; p < np; ++p) {
      if (!(sends[v] & (1u << p))) continue;
      const NodeId w = topo.neighbor(static_cast<NodeId>(v), p);
      if (!tab.deliver[w][Topology::opposite_port(p)])
        fail_node(origin, v, "D deliver",
                  fmt::format("port {} sends to node {}, whose in_port {} does not deliver", p, w, Topology::opposite_port(p)));
    }
}

}  // namespace torx::sw
