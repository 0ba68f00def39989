// SPDX-License-Identifier: Apache-2.0
#include "core/memory_limit.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>

#include "core/errors.hpp"

namespace torx::sw {

namespace {

// A "Key:   123 kB" line of a /proc status-like file, in bytes; 0 if absent.
uint64_t proc_kb(const char* path, std::string_view key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() || line[key.size()] != ':') continue;
    size_t i = key.size() + 1;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    uint64_t kb = 0;
    std::from_chars(line.data() + i, line.data() + line.size(), kb);
    return kb * 1024;
  }
  return 0;
}

// The first line of a small file as a number; nullopt if absent or not a number ("max").
std::optional<uint64_t> file_number(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
  if (ec != std::errc() || p == line.data()) return std::nullopt;
  return v;
}

// The memory this process's cgroup (v2) may still take: memory.max - memory.current; nullopt if
// there is no such limit.
std::optional<uint64_t> cgroup_room() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) != 0) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    const auto max = file_number(dir + "/memory.max");
    const auto cur = file_number(dir + "/memory.current");
    if (!max) return std::nullopt;
    return *max > cur.value_or(0) ? *max - cur.value_or(0) : 0;
  }
  return std::nullopt;
}

}  // namespace

uint64_t available_memory_bytes() { return proc_kb("/proc/meminfo", "MemAvailable"); }

uint64_t resident_bytes() { return proc_kb("/proc/self/status", "VmRSS"); }

std::string format_bytes(uint64_t b) {
  if (b == UINT64_MAX) return "more than 2^64 bytes";
  if (b >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1 << 30));
  if (b >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
  if (b >= (uint64_t{1} << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1 << 10));
  return fmt::format("{} bytes", b);
}

uint64_t parse_memory_size(std::string_view text, std::string_view option) {
  auto bad = [&](const std::string& why) {
    return InputError(fmt::format("{} '{}': {} (a size such as 2GiB, 512MiB, 4G or a number of bytes)", option, text, why));
  };
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::invalid_argument || p == text.data()) throw bad("not a size");
  if (ec == std::errc::result_out_of_range) throw bad("does not fit in 64 bits");
  const std::string_view unit = text.substr(static_cast<size_t>(p - text.data()));
  struct Unit {
    const char* name;
    uint64_t factor;
  };
  static constexpr Unit kUnits[] = {
      {"", 1},          {"B", 1},          {"K", 1ull << 10},  {"KiB", 1ull << 10}, {"M", 1ull << 20},
      {"MiB", 1ull << 20}, {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"T", 1ull << 40}, {"TiB", 1ull << 40},
      {"kB", 1000},     {"KB", 1000},      {"MB", 1000000},    {"GB", 1000000000},  {"TB", 1000000000000}};
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    uint64_t r = 0;
    if (__builtin_mul_overflow(v, u.factor, &r)) throw bad("does not fit in 64 bits");
    if (r == 0) throw bad("must be more than 0");
    return r;
  }
  throw bad(fmt::format("unknown unit '{}'", unit));
}

MemoryLimit memory_limit_from_option(std::string_view text) {
  MemoryLimit m;
  m.bytes = parse_memory_size(text);
  m.explicit_ = true;
  m.source = fmt::format("the limit of {} (--max-memory)", format_bytes(m.bytes));
  return m;
}

MemoryLimit default_memory_limit() {
  MemoryLimit m;
  m.bytes = kDefaultMemoryLimit;
  m.source = fmt::format("the default limit of {} (--max-memory SIZE raises it)", format_bytes(kDefaultMemoryLimit));
  const uint64_t rss = resident_bytes();
  // The machine's memory available now (MemAvailable) plus what torx holds already, if less.
  if (const uint64_t avail = available_memory_bytes(); avail && avail + rss < m.bytes) {
    m.bytes = avail + rss;
    m.source = fmt::format("the {} this machine has available (MemAvailable, plus the {} torx holds)", format_bytes(avail),
                           format_bytes(rss));
  }
  // ulimit -v bounds the address space, which is larger than the resident set (libraries, stacks).
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    const uint64_t vm = proc_kb("/proc/self/status", "VmSize");
    const uint64_t room = rl.rlim_cur > vm ? rl.rlim_cur - vm : 0;
    if (room + rss < m.bytes) {
      m.bytes = room + rss;
      m.source = fmt::format("the {} the address-space limit leaves (ulimit -v {})", format_bytes(room),
                             static_cast<uint64_t>(rl.rlim_cur / 1024));
    }
  }
  if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < m.bytes) {
    m.bytes = rl.rlim_cur;
    m.source = fmt::format("the data-segment limit {} (ulimit -d)", format_bytes(rl.rlim_cur));
  }
  if (const auto room = cgroup_room(); room && *room + rss < m.bytes) {
    m.bytes = *room + rss;
    m.source = fmt::format("the {} this process's cgroup may still take (memory.max)", format_bytes(*room));
  }
  return m;
}

void require_memory(const MemoryLimit& limit, uint64_t estimate, const std::string& what, const std::string& parts) {
  if (limit.bytes == 0) return;  // nothing known: nothing refused
  const uint64_t held = resident_bytes();
  const uint64_t total = estimate > UINT64_MAX - held ? UINT64_MAX : estimate + held;
  if (total <= limit.bytes) return;
  throw WatchdogError(fmt::format("limit: {} needs about {}{}, more than {}{}", what, format_bytes(estimate),
                                  parts.empty() ? "" : " (" + parts + ")",
                                  limit.source,
                                  limit.explicit_ ? fmt::format(" (torx already holds {})", format_bytes(held))
                                  : limit.source.find("--max-memory") != std::string::npos ? ""
                                                                                          : "; --max-memory SIZE sets the limit"));
}

}  // namespace torx::sw
