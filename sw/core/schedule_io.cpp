// SPDX-License-Identifier: Apache-2.0
#include "core/schedule_io.hpp"
#include "core/output_file.hpp"
#include "core/quote.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>

namespace torx::sw {

namespace {

constexpr size_t kFlushBytes = size_t{1} << 20;
constexpr size_t kChunkBytes = size_t{4} << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Splits on blanks; at most `max` tokens (the last one keeps the rest of the line).
size_t split(std::string_view s, std::string_view* out, size_t max) {
  size_t n = 0;
  size_t i = 0;
  while (i < s.size() && n < max) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    size_t j = i;
    if (n + 1 == max) {
      out[n++] = trim(s.substr(i));
      break;
    }
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out[n++] = s.substr(i, j - i);
    i = j;
  }
  return n;
}

bool parse_i64(std::string_view t, int64_t& v) {
  if (t.empty()) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size();
}

// Reads a file as lines without holding it whole.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path) {
    file_ = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (!file_) throw InputError(fmt::format("{}: cannot open schedule file: {}", path, std::strerror(errno)));
    owned_ = file_ != stdin;
    struct stat st {};
    if (owned_ && ::fstat(::fileno(file_), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::fclose(file_);
      owned_ = false;
      throw InputError(fmt::format("{}: is a directory, not a schedule file", path));
    }
  }
  // Reads an open stream (not closed here); `name` stands for it in messages.
  LineReader(std::FILE* file, const std::string& name) : path_(name), file_(file) {}
  ~LineReader() {
    if (owned_) std::fclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // Returns false at end of file. `complete` is false for a last line without a newline.
  bool next(std::string_view& line, bool& complete) {
    while (true) {
      const char* at = static_cast<const char*>(std::memchr(buf_.get() + pos_, '\n', end_ - pos_));
      const size_t len = at ? static_cast<size_t>(at - (buf_.get() + pos_)) : end_ - pos_;
      if (len > kMaxScheduleLineBytes)
        throw InputError(fmt::format("{}:{}: line longer than {} bytes, the schedule format's limit (a file without "
                                     "newlines is not a schedule)",
                                     path_, line_no_ + 1, kMaxScheduleLineBytes));
      if (at || (eof_ && len > 0)) {
        line = std::string_view(buf_.get() + pos_, len);
        pos_ += len + (at ? 1 : 0);
        complete = at != nullptr;
        ++line_no_;
        return true;
      }
      if (eof_) return false;
      fill();
    }
  }
  int64_t line_no() const { return line_no_; }

 private:
  // Keeps the unread part and appends up to one chunk. Chunks start at 64 KiB and double up to
  // kChunkBytes, so a small file costs a small buffer; the buffer is never initialised beyond what
  // is read, and never holds more than one line (at most kMaxScheduleLineBytes) and one chunk.
  void fill() {
    const size_t keep = end_ - pos_;
    if (cap_ < keep + chunk_) {
      std::unique_ptr<char[]> bigger(new char[keep + chunk_]);
      if (keep) std::memcpy(bigger.get(), buf_.get() + pos_, keep);
      buf_ = std::move(bigger);
      cap_ = keep + chunk_;
    } else if (keep && pos_) {
      std::memmove(buf_.get(), buf_.get() + pos_, keep);
    }
    pos_ = 0;
    end_ = keep;
    const size_t want = chunk_;
    chunk_ = std::min(2 * chunk_, kChunkBytes);
    const size_t got = std::fread(buf_.get() + end_, 1, want, file_);
    if (got < want) {
      if (std::ferror(file_)) throw InputError(fmt::format("{}: read error: {}", path_, std::strerror(errno)));
      eof_ = true;
    }
    if (std::memchr(buf_.get() + end_, '\0', got))
      throw InputError(fmt::format("{}:{}: not a text file (contains NUL bytes)", path_, line_no_ + 1));
    end_ += got;
  }

  std::string path_;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::unique_ptr<char[]> buf_{new char[1]};
  size_t cap_ = 0, pos_ = 0, end_ = 0;  // buf_ holds cap_ bytes; [pos_, end_) is unread
  size_t chunk_ = size_t{64} << 10;     // the next read's size
  bool eof_ = false;
  int64_t line_no_ = 0;
};

// A comment is a line whose first non-blank character is '#' and whose next character is not a
// digit: '#' and a digit is the node-id form of a message's source ("#0 -> 1 | 0>1"), so it is
// never a comment (docs/schedule-format.md, "Comments").
bool is_comment(std::string_view s) { return s[0] == '#' && !(s.size() > 1 && s[1] >= '0' && s[1] <= '9'); }

constexpr const char* kHeaderFields[] = {"algorithm", "collective", "topology", "ports", "switching",
                                        "pieces", "root", "steps", "source"};
constexpr size_t kHeaderFieldCount = sizeof(kHeaderFields) / sizeof(kHeaderFields[0]);

struct ParsedHeader {
  ScheduleHeader h;
  int64_t field_line[kHeaderFieldCount] = {};  // line of each field, 0 while not given
  bool have_collective = false, have_topology = false, have_ports = false, have_switching = false;
  std::string root_text;
  int64_t root_line = 0;
};

class Parser {
 public:
  Parser(const std::string& path, const Topology* expected) : path_(path), expected_(expected), in_(path) {}
  Parser(std::FILE* file, const std::string& name, const Topology* expected)
      : path_(name), expected_(expected), in_(file, name) {}

  [[noreturn]] void fail(int64_t line, const std::string& what) const {
    // `what` may quote a token of a line of up to 1 MiB: cut to an excerpt (core/quote.hpp).
    throw InputError(fmt::format("{}:{}: {}", path_, line, message_for_terminal(what, 1024)));
  }

  ScheduleHeader run(ScheduleSink* sink) {
    std::string_view line;
    bool complete = true;
    bool seen_magic = false;
    bool in_steps = false;
    bool ended = false;
    Step step;
    int64_t steps_seen = 0;
    while (in_.next(line, complete)) {
      const int64_t ln = in_.line_no();
      std::string_view s = trim(line);
      if (s.empty() || is_comment(s)) continue;
      if (ended) fail(ln, "text after 'end' (the schedule is already complete)");
      if (!in_steps && s[0] == '#')
        fail(ln, fmt::format("'{}' starts like a message from a node id ('#' and a digit), but messages follow a 'step' "
                             "line; a comment needs a blank or another character after its '#'",
                             s.substr(0, 40)));
      if (!seen_magic) {
        parse_magic(s, ln);
        seen_magic = true;
        continue;
      }
      std::string_view tok[3];
      const size_t nt = split(s, tok, 3);
      if (tok[0] == "step" || tok[0] == "end") {
        if (!in_steps) {
          finish_header(ln);
          if (!sink) return header_.h;
          sink->begin(header_.h);
          in_steps = true;
        } else {
          sink->step(step);
        }
        if (tok[0] == "end") {
          if (nt > 1) fail(ln, fmt::format("'end' takes no arguments, found '{}'", tok[1]));
          if (!complete) fail(ln, "file is truncated: the last line 'end' has no newline");
          if (header_.h.steps >= 0 && steps_seen != header_.h.steps)
            fail(ln, fmt::format("the header declares {} steps but the file has {}", header_.h.steps, steps_seen));
          ended = true;
          continue;
        }
        ++steps_seen;
        step.clear();
        step.line = static_cast<uint32_t>(ln);
        parse_step_line(s, ln, step);
        continue;
      }
      if (!in_steps) {
        parse_header_line(tok, nt, ln);
        continue;
      }
      parse_message(s, ln, step, complete);
    }
    if (!seen_magic) fail(in_.line_no() + 1, "empty file: not a torx schedule (expected 'torx-schedule 1')");
    if (!ended) {
      if (!in_steps) finish_header(in_.line_no() + 1);
      fail(in_.line_no() + 1, "file is truncated: it ends before the closing 'end' line");
    }
    sink->end();
    return header_.h;
  }

 private:
  void parse_magic(std::string_view s, int64_t ln) {
    std::string_view tok[3];
    const size_t nt = split(s, tok, 3);
    if (nt < 1 || tok[0] != "torx-schedule")
      fail(ln, fmt::format("not a torx schedule: expected 'torx-schedule {}' as the first line, found '{}'",
                           kScheduleFormatVersion, s.substr(0, 60)));
    int64_t v = 0;
    if (nt != 2 || !parse_i64(tok[1], v))
      fail(ln, "the first line must be 'torx-schedule VERSION' with an integer version");
    if (v != kScheduleFormatVersion)
      fail(ln, fmt::format("schedule format version {} is not supported (this torx reads version {})", v,
                           kScheduleFormatVersion));
    header_.h.version = static_cast<int>(v);
  }

  void parse_header_line(std::string_view* tok, size_t nt, int64_t ln) {
    const std::string_view key = tok[0];
    for (size_t f = 0; f < kHeaderFieldCount; ++f) {
      if (key != kHeaderFields[f]) continue;
      if (header_.field_line[f])
        fail(ln, fmt::format("header field '{}' is given twice (first on line {})", key, header_.field_line[f]));
      header_.field_line[f] = ln;
    }
    auto value = [&]() -> std::string_view {
      if (nt < 2) fail(ln, fmt::format("header field '{}' has no value", key));
      return nt == 2 ? tok[1] : trim(std::string_view(tok[1].data(), tok[2].data() + tok[2].size() - tok[1].data()));
    };
    try {
      if (key == "algorithm") {
        header_.h.algorithm = std::string(value());
      } else if (key == "collective") {
        header_.h.collective = parse_collective(value());
        header_.have_collective = true;
      } else if (key == "topology") {
        if (nt != 3) fail(ln, "topology: expected 'topology DIMS torus' or 'topology DIMS mesh'");
        if (tok[2] != "torus" && tok[2] != "mesh")
          fail(ln, fmt::format("topology: '{}' must be 'torus' or 'mesh'", tok[2]));
        const Topology t = Topology::parse(tok[1], tok[2] == "mesh");
        header_.h.dims = t.radices();
        header_.h.wrap = t.wrap();
        header_.have_topology = true;
      } else if (key == "ports") {
        header_.h.ports = parse_port_model(value());
        header_.have_ports = true;
      } else if (key == "switching") {
        header_.h.switching = parse_switching(value());
        header_.have_switching = true;
      } else if (key == "pieces") {
        int64_t v = 0;
        if (!parse_i64(value(), v) || v < 1 || v > 65536)
          fail(ln, fmt::format("pieces: '{}' must be an integer in 1..65536", value()));
        header_.h.pieces = static_cast<int>(v);
      } else if (key == "root") {
        header_.root_text = std::string(value());
        header_.root_line = ln;
      } else if (key == "steps") {
        int64_t v = 0;
        if (!parse_i64(value(), v) || v < 0) fail(ln, fmt::format("steps: '{}' must be a non-negative integer", value()));
        header_.h.steps = v;
      } else if (key == "source") {
        header_.h.source = std::string(value());
      } else {
        fail(ln, fmt::format("unknown header field '{}' (known: algorithm, collective, topology, ports, switching, "
                             "pieces, root, steps, source)",
                             key));
      }
    } catch (const InputError& e) {
      if (std::string_view(e.what()).substr(0, path_.size()) == path_) throw;
      fail(ln, e.what());
    }
  }

  void finish_header(int64_t ln) {
    const char* missing = !header_.have_collective ? "collective"
                          : !header_.have_topology ? "topology"
                          : !header_.have_ports    ? "ports"
                          : !header_.have_switching ? "switching"
                                                    : nullptr;
    if (missing) fail(ln, fmt::format("the header lacks the required field '{}' before the first step", missing));
    topo_ = std::make_unique<Topology>(header_.h.dims, header_.h.wrap);
    if (expected_ && *expected_ != *topo_)
      fail(ln, fmt::format("the schedule is for the {} but --topo gives the {}", topo_->to_string(), expected_->to_string()));
    if (!header_.root_text.empty()) {
      try {
        header_.h.root = parse_node(*topo_, header_.root_text);
      } catch (const InputError& e) {
        fail(header_.root_line, std::string("root: ") + e.what());
      }
    }
    try {
      space_ = std::make_unique<BlockSpace>(header_.h.collective, *topo_, header_.h.pieces, header_.h.root);
    } catch (const InputError& e) {
      fail(ln, e.what());
    }
    overlaps_ = std::make_unique<BoxOverlapFinder>(*space_);
  }

  void parse_step_line(std::string_view s, int64_t ln, Step& step) {
    std::string_view tok[4];
    const size_t nt = split(s, tok, 4);
    for (size_t i = 1; i < nt; ++i) {
      if (tok[i].substr(0, 5) == "sync=") {
        const std::string_view v = tok[i].substr(5);
        if (v == "barrier") step.sync = SyncMark::kBarrier;
        else if (v == "none") step.sync = SyncMark::kNone;
        else fail(ln, fmt::format("step: sync '{}' must be 'barrier' or 'none'", v));
      } else if (i == 1 && tok[i].find('=') == std::string_view::npos) {
        step.label = std::string(tok[i]);
      } else {
        fail(ln, fmt::format("step: unexpected '{}' (expected 'step [LABEL] [sync=barrier|none]')", tok[i]));
      }
    }
  }

  NodeId node_at(std::string_view t, int64_t ln, const char* role) {
    try {
      return parse_node(*topo_, t);
    } catch (const InputError& e) {
      fail(ln, fmt::format("{} {}", role, e.what()));
    }
  }

  void parse_message(std::string_view s, int64_t ln, Step& step, bool complete) {
    const size_t bar = s.find('|');
    if (bar == std::string_view::npos)
      fail(ln, complete ? "message: expected 'SRC -> DST [ROUTE] [prio=P] [fault=corrupt] | BLOCKS...'"
                        : "file is truncated in the middle of a message line");
    std::string_view head = trim(s.substr(0, bar));
    std::string_view tok[8];
    const size_t nt = split(head, tok, 8);
    if (nt < 3 || tok[1] != "->") fail(ln, "message: expected 'SRC -> DST' before the route and '|'");
    Message m;
    m.line = static_cast<uint32_t>(ln);
    m.src = node_at(tok[0], ln, "message source");
    m.dst = node_at(tok[2], ln, "message destination");
    if (m.src == m.dst) fail(ln, fmt::format("message from node {} to itself", topo_->node_name(m.src)));
    bool have_route = false;
    m.priority = 0;
    for (size_t i = 3; i < nt; ++i) {
      const std::string_view t = tok[i];
      if (t.substr(0, 5) == "prio=") {
        int64_t v = 0;
        if (!parse_i64(t.substr(5), v) || v < 0 || v > 255) fail(ln, fmt::format("prio '{}' must be 0..255", t.substr(5)));
        m.priority = static_cast<uint8_t>(v);
      } else if (t == "fault=corrupt") {
        m.flags |= kFaultCorrupt;
      } else if (t.find('=') != std::string_view::npos) {
        fail(ln, fmt::format("message: unknown attribute '{}' (known: prio=P, fault=corrupt)", t));
      } else {
        if (have_route) fail(ln, fmt::format("message: two routes given ('{}')", t));
        try {
          m.route = topo_->parse_route(t);
        } catch (const InputError& e) {
          fail(ln, e.what());
        }
        have_route = true;
      }
    }
    if (!have_route) m.route = topo_->shortest_route(m.src, m.dst);
    if (topo_->route_hops(m.src, m.dst, m.route) < 0)
      fail(ln, fmt::format("route {} from {} to {} needs a wraparound link, but the network is a mesh",
                           topo_->route_string(m.route), topo_->node_name(m.src), topo_->node_name(m.dst)));
    m.first_range = static_cast<uint32_t>(step.ranges.size());
    box_texts_.clear();
    std::string_view rest = s.substr(bar + 1);
    const int arity = space_->arity();
    size_t i = 0;
    while (i < rest.size()) {
      while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\r')) ++i;
      if (i >= rest.size()) break;
      size_t j = i;
      while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t' && rest[j] != '\r') ++j;
      const std::string_view box_text = rest.substr(i, j - i);
      const size_t at = step.ranges.size();
      step.ranges.resize(at + arity);
      try {
        space_->parse_box(box_text, &step.ranges[at]);
        space_->validate_box(&step.ranges[at], box_text);
      } catch (const InputError& e) {
        fail(ln, complete ? e.what() : std::string("file is truncated in the middle of a message line"));
      }
      ++m.box_count;
      box_texts_.push_back(box_text);
      i = j;
    }
    if (m.box_count > 1) {
      std::pair<int64_t, int64_t> both;
      try {
        both = overlaps_->find(&step.ranges[m.first_range], m.box_count);
      } catch (const InputError& e) {
        fail(ln, fmt::format("message: {}", e.what()));
      }
      if (both.first >= 0)
        fail(ln, fmt::format("message: block sets '{}' and '{}' overlap (a message's block sets must be disjoint)",
                             box_texts_[static_cast<size_t>(both.first)], box_texts_[static_cast<size_t>(both.second)]));
    }
    if (step.ranges.size() > std::numeric_limits<uint32_t>::max())
      fail(ln, "step: more than 2^32 block ranges in one step");
    step.messages.push_back(m);
  }

  std::string path_;
  const Topology* expected_;
  LineReader in_;
  ParsedHeader header_;
  std::unique_ptr<Topology> topo_;
  std::unique_ptr<BlockSpace> space_;
  std::unique_ptr<BoxOverlapFinder> overlaps_;
  std::vector<std::string_view> box_texts_;  // the current message's block sets as written
};

}  // namespace

ScheduleWriter::ScheduleWriter(const std::string& path, std::string comment)
    : path_(path), comment_(std::move(comment)), out_(std::make_unique<OutputFile>("-o", path)) {}

ScheduleWriter::~ScheduleWriter() = default;

void ScheduleWriter::flush_buffer() {
  if (buf_.empty()) return;
  out_->write(buf_);
  buf_.clear();
}

void ScheduleWriter::begin(const ScheduleHeader& h) {
  header_ = h;
  topo_ = std::make_unique<Topology>(h.dims, h.wrap);
  space_ = std::make_unique<BlockSpace>(h.collective, *topo_, h.pieces, h.root);
  buf_ += fmt::format("torx-schedule {}\n", kScheduleFormatVersion);
  if (!comment_.empty()) buf_ += "# " + comment_ + "\n";
  buf_ += fmt::format("algorithm {}\ncollective {}\ntopology {}\nports {}\nswitching {}\n", h.algorithm,
                      collective_name(h.collective), topo_->to_string(), port_model_name(h.ports),
                      switching_name(h.switching));
  if (h.collective != Collective::kAlltoall) buf_ += fmt::format("pieces {}\n", h.pieces);
  if (h.collective == Collective::kBroadcast) buf_ += fmt::format("root {}\n", topo_->node_name(h.root));
  if (h.steps >= 0) buf_ += fmt::format("steps {}\n", h.steps);
  if (!h.source.empty()) buf_ += fmt::format("source {}\n", h.source);
}

void ScheduleWriter::step(const Step& s) {
  ++steps_written_;
  buf_ += "step";
  if (!s.label.empty()) {
    buf_ += ' ';
    buf_ += s.label;
  }
  if (s.sync == SyncMark::kNone) buf_ += " sync=none";
  buf_ += '\n';
  const int arity = space_->arity();
  for (const Message& m : s.messages) {
    const size_t line_start = buf_.size();
    buf_ += topo_->node_name(m.src);
    buf_ += " -> ";
    buf_ += topo_->node_name(m.dst);
    buf_ += ' ';
    buf_ += topo_->route_string(m.route);
    if (m.priority) buf_ += fmt::format(" prio={}", m.priority);
    if (m.flags & kFaultCorrupt) buf_ += " fault=corrupt";
    buf_ += " |";
    for (uint32_t k = 0; k < m.box_count; ++k) {
      buf_ += ' ';
      buf_ += space_->box_string(s.box(m, k, arity));
    }
    if (buf_.size() - line_start > kMaxScheduleLineBytes)
      throw InputError(fmt::format("{}: step {}: message {} -> {} would be a line of {} bytes; the schedule format "
                                   "allows {}",
                                   path_, steps_written_, topo_->node_name(m.src), topo_->node_name(m.dst),
                                   buf_.size() - line_start, kMaxScheduleLineBytes));
    buf_ += '\n';
    if (buf_.size() >= kFlushBytes) flush_buffer();
  }
}

void ScheduleWriter::end() {
  if (header_.steps >= 0 && header_.steps != steps_written_)
    throw std::logic_error(fmt::format("internal error: header declared {} steps, {} written", header_.steps, steps_written_));
  buf_ += "end\n";
  flush_buffer();
  out_->commit();
}

ScheduleHeader read_schedule(const std::string& path, const Topology* expected, ScheduleSink& sink) {
  Parser p(path, expected);
  return p.run(&sink);
}

ScheduleHeader read_schedule(std::FILE* file, const std::string& name, const Topology* expected, ScheduleSink& sink) {
  Parser p(file, name, expected);
  return p.run(&sink);
}

ScheduleHeader read_schedule_header(const std::string& path) {
  Parser p(path, nullptr);
  return p.run(nullptr);
}

}  // namespace torx::sw
