// SPDX-License-Identifier: Apache-2.0
// The memory a run may take (--max-memory), and the check every large allocation passes first.
//
// The models and `torx tables` estimate the bytes they will allocate from the topology, the network
// parameters and the schedule before they allocate any of it (models/memory_estimate.hpp,
// forwarding_table_bytes()), and call require_memory(): an estimate beyond the limit stops the run
// at once with WatchdogError (exit code 3, "hit a limit") and a message naming the estimate, what
// it is made of and the limit, instead of the process being killed half-way or swapping the
// machine to a halt.
//
// The limit bounds the whole process: what it holds already (its resident set: the schedule, the
// step model) plus the estimate. Given with --max-memory it is that number. By default it is
// kDefaultMemoryLimit (8 GiB: a run that needs more is rarely meant on a shared machine, and saying
// so costs one option), or less when this machine can give the process less now: the memory the
// kernel reports available (MemAvailable in /proc/meminfo) plus what the process already holds, the
// process's address-space and data limits (ulimit -v, -d) and its cgroup's memory.max (containers).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace torx::sw {

inline constexpr uint64_t kDefaultMemoryLimit = uint64_t{8} << 30;

struct MemoryLimit {
  uint64_t bytes = 0;      // 0: no limit: nothing is refused
  bool explicit_ = false;  // given with --max-memory (else the machine's default)
  std::string source;      // what the limit is, in words: "--max-memory 2.0 GiB", "available memory (...)"
};

// "4GiB", "512MiB", "100KiB", "3GB" (powers of 1000), "123456" (bytes); also "4G", "512M", "100K"
// (binary). Throws InputError naming `option` if the text is not a size or is 0.
uint64_t parse_memory_size(std::string_view text, std::string_view option = "--max-memory");
// The limit --max-memory TEXT gives (InputError on bad text).
MemoryLimit memory_limit_from_option(std::string_view text);
// The default, read now (see above).
MemoryLimit default_memory_limit();
// The memory the kernel reports available now (MemAvailable), 0 if unknown.
uint64_t available_memory_bytes();
// This process's resident set now (VmRSS), 0 if unknown.
uint64_t resident_bytes();
// "1.5 GiB", "312.0 MiB", "4.0 KiB", "17 bytes".
std::string format_bytes(uint64_t bytes);

// Throws WatchdogError ("limit: ...") if resident_bytes() + `estimate` exceeds the limit.
// `what` names the allocation ("the cycle model of the 1024x1024 torus"), `parts` breaks the
// estimate down ("routers 4.1 GiB, links 1.2 GiB"); an estimate of UINT64_MAX means "beyond 2^64".
void require_memory(const MemoryLimit& limit, uint64_t estimate, const std::string& what, const std::string& parts = "");

}  // namespace torx::sw
