// SPDX-License-Identifier: Apache-2.0
// The on-demand RTL model cache (docs/rtl.md, "Models on demand"): a Verilated model is built the
// first time a shape is needed (`verilator --cc` with the project's flags, then the generated C++
// and a generated factory compiled into one shared object), kept in a cache directory, and loaded
// with dlopen(RTLD_NOW | RTLD_LOCAL) on every later use. The object uses the Verilator runtime of
// the executable that loads it (linked in once and exported, hw/CMakeLists.txt), so the process has
// one copy of it.
//
// Where: --rtl-cache DIR, else $TORX_RTL_CACHE, else $XDG_CACHE_HOME/torx/rtl, else
// ~/.cache/torx/rtl. An entry is a directory NAME-KEY holding model.so and manifest.txt; KEY hashes
// everything that changes the model: the top and its parameters, the kit (the SV sources, the
// harness headers and the factory template, hw/CMakeLists.txt stages them under share/torx/rtl), the
// Verilator version and flags, the compiler (its --version) and its flags.
//
// Concurrency and damage: a builder takes an advisory lock per entry (flock on NAME-KEY.lock), looks
// again, builds in a temporary directory of the cache and renames it into place, the manifest
// written last. An entry is loaded only if its manifest names the key and the size and checksum of
// model.so; anything else (a crash in the middle of a build, a truncated file) is rebuilt.
//
// Tools: verilator ($TORX_VERILATOR, else PATH) must be the version the executable was built with
// (its runtime is in the executable); the compiler is $TORX_CXX, else the one that built torx, else
// c++ on PATH. A missing tool is an sw::InputError (exit 2) with the package to install.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace torx::rtl {

// One Verilated model to build: its top module, its parameters (Verilator's -G list, in order) and
// a readable name ("r3d_v3_d5_p3").
struct RtlModelSpec {
  std::string name;
  std::string top;  // torx_router, torx_gossip_router, torx_barrier
  std::vector<std::pair<std::string, int64_t>> params;
  // A foreign router top (torx run --rtl-router, docs/router-interface.md): its SV sources (absolute
  // paths), read instead of the kit's, each one's directory a -I and -y of Verilator's; the key
  // covers their content and that of every SV file in those directories. Empty: a torx model.
  std::vector<std::string> sources;
  // A hand-written mutant of a torx model (torx cosim --mutant N; docs/verification.md, "Hand-written
  // mutants"): its patch's file name in KIT/mutants, applied to a copy of the kit's SV sources when
  // the model is built (hw/ carries no mutant); the key covers the patch. Empty: none.
  std::string patch;
  // "-GNumDims=3 -GNumLocal=1 ...".
  std::string param_args() const;
};

// Where the cache lives and how it talks.
struct RtlCacheOptions {
  std::string dir;      // --rtl-cache; empty: $TORX_RTL_CACHE, $XDG_CACHE_HOME/torx/rtl, ~/.cache/torx/rtl
  bool progress = true; // "Verilating NAME (first use, about N s)" and the like on stderr
  int jobs = 2;         // compiler processes per build
};

// One cache entry as `torx rtl list` shows it.
struct RtlCacheEntry {
  std::string dir_name;  // NAME-KEY
  std::string name;
  std::string top;
  std::string params;
  uint64_t bytes = 0;
  double build_seconds = 0;
  std::string built_at;  // UTC, ISO 8601
  std::string kit;       // the kit it was built from (rtl_kit_dir())
  bool valid = false;    // manifest and checksum agree (else: rebuilt on next use)
  std::string problem;   // why not valid
};

class RtlCache {
 public:
  explicit RtlCache(RtlCacheOptions options = {});

  // The cache directory in use (resolved from the options and the environment). When the default
  // directory cannot be created or written, a build falls back to $TMPDIR/torx-rtl-UID (and says
  // so); an explicit directory that cannot be written is an sw::InputError naming it.
  const std::filesystem::path& dir() const { return dir_; }

  // The path of the shared object of `spec`, built first if the cache does not hold a valid entry.
  // `built` (if given) says whether this call built it.
  std::filesystem::path ensure(const RtlModelSpec& spec, bool* built = nullptr);
  // Creates the directory and checks that it can be written, falling back as dir() says; ensure()
  // calls it before a build. Call it before ensure() runs in several threads (the fallback changes
  // dir(); after it, concurrent ensure() calls of different specs are safe).
  void make_writable();
  // The entry directory name of `spec` (NAME-KEY), without building anything.
  std::string entry_name(const RtlModelSpec& spec);

  // Verilator's XML of `spec`'s elaborated top (--xml-only; a foreign spec), for the contract check:
  // sw::InputError with Verilator's first errors when the sources do not parse or elaborate.
  std::string inspect(const RtlModelSpec& spec);

  std::vector<RtlCacheEntry> list() const;
  // Removes every entry (or those whose name contains `filter`) and stale temporary directories;
  // returns the entries removed.
  int clean(const std::string& filter = "");

 private:
  std::string key_of(const RtlModelSpec& spec);
  void build(const RtlModelSpec& spec, const std::filesystem::path& entry);
  bool fallback_to_temp(const std::string& why);

  RtlCacheOptions opt_;
  std::filesystem::path dir_;
  bool explicit_dir_ = false;
  bool fell_back_ = false;
};

// The hash used for cache keys and the manifest's checksum (FNV-1a, 64 bits).
uint64_t fnv1a64(const void* data, size_t n, uint64_t seed = 0xcbf29ce484222325ull);

// The kit an on-demand build reads (SV sources, headers, factory template): $TORX_RTL_KIT, else the
// installed package's kit for a program built with find_package(torx) (torx_rtl_kit_hint), else
// share/torx/rtl next to the executable's bin directory (the build tree and an installed prefix
// have the same layout).
std::filesystem::path rtl_kit_dir();

}  // namespace torx::rtl
