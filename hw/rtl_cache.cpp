// SPDX-License-Identifier: Apache-2.0
// The on-demand RTL model cache (rtl_cache.hpp): keys, the per-entry lock, the build (Verilator, then
// the compiler, in a temporary directory renamed into place) and the manifest that guards a load.
#include "hw/rtl_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "hw/rtl_build_config.hpp"
#include "hw/rtl_compile.hpp"
#include "hw/rtl_factory_abi.hpp"

namespace fs = std::filesystem;

namespace torx::rtl {

namespace {

constexpr const char* kManifestMagic = "torx-rtl-manifest 1";

std::string hex64(uint64_t v) { return fmt::format("{:016x}", v); }

std::string getenv_str(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// An executable file named `name` on PATH (or `name` itself if it holds a slash), or "".
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  std::stringstream path(getenv_str("PATH"));
  std::string d;
  while (std::getline(path, d, ':')) {
    if (d.empty()) d = ".";
    const std::string p = d + "/" + name;
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

// Starts argv with stdout and stderr appended to `log` (or captured into *out, stderr to log);
// returns the child's pid.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log, int out_fd = -1) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) throw std::runtime_error(fmt::format("cannot write {}: {}", log.string(), std::strerror(errno)));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)));
  }
  if (pid == 0) {
    ::dup2(out_fd >= 0 ? out_fd : log_fd, 1);
    ::dup2(log_fd, 2);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::execv(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(log_fd);
  return pid;
}

// The CPU seconds (user + system) of the children this thread has waited for: a build's figure for
// its manifest (cpu_seconds), whatever else the process runs at the same time.
thread_local double t_child_cpu = 0;

void add_child_cpu(const struct rusage& ru) {
  t_child_cpu += static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int wait_for(pid_t pid) {
  int status = 0;
  struct rusage ru {};
  while (::wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) return -1;
  }
  add_child_cpu(ru);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// Runs argv and returns its stdout ("" and rc != 0 if it fails).
std::string capture(const std::vector<std::string>& argv, int* rc) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = -1;
  try {
    pid = spawn(argv, "/dev/null", fds[1]);
  } catch (...) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw;
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) out.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  *rc = wait_for(pid);
  return out;
}

std::string first_line(const std::string& s) {
  const size_t e = s.find('\n');
  std::string l = s.substr(0, e);
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
  return l;
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

uint64_t file_fnv(const fs::path& p, uint64_t* bytes) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
  uint64_t h = 0xcbf29ce484222325ull, n = 0;
  char buf[1 << 16];
  while (f) {
    f.read(buf, sizeof buf);
    const std::streamsize got = f.gcount();
    if (got <= 0) break;
    h = fnv1a64(buf, static_cast<size_t>(got), h);
    n += static_cast<uint64_t>(got);
  }
  if (bytes) *bytes = n;
  return h;
}

// The tools of an on-demand build, found once per process. Their identity in a key is their path,
// size and modification time (a stat, no process), so that loading a cached model runs nothing;
// a build also runs them (version checks).
struct Tools {
  std::string verilator, cxx;        // paths ("" when not found)
  std::string verilator_id, cxx_id;  // "path size mtime"
  std::string want_verilator, want_cxx;
};

std::string file_id(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return "missing";
  return fmt::format("{} {} {}", path, static_cast<long long>(st.st_size), static_cast<long long>(st.st_mtime));
}

const Tools& tools() {
  static std::mutex mu;
  static bool found = false;
  static Tools t;
  std::lock_guard<std::mutex> lock(mu);
  if (found) return t;
  t.want_verilator = getenv_str("TORX_VERILATOR").empty() ? "verilator" : getenv_str("TORX_VERILATOR");
  t.verilator = find_program(t.want_verilator);
  // $TORX_CXX, else clang++ (what the build found: it compiles the generated code in about 0.75 of
  // g++'s CPU time, docs/rtl.md "Build time"), else the compiler that built torx, else c++.
  t.want_cxx = getenv_str("TORX_CXX");
  if (t.want_cxx.empty())
    for (const char* c : {kCxxCompiler, kCxxFallback, "c++"})
      if (*c != '\0' && !find_program(c).empty()) {
        t.want_cxx = c;
        break;
      }
  if (t.want_cxx.empty()) t.want_cxx = "c++";
  t.cxx = find_program(t.want_cxx);
  t.verilator_id = file_id(t.verilator);
  t.cxx_id = file_id(t.cxx);
  found = true;
  return t;
}

// What a build needs beyond the tools' presence: the Verilator version the executable carries the
// runtime of, Verilator's include directory, the compiler's version line.
struct BuildTools {
  std::string verilator_version, verilator_root, cxx_version;
};

BuildTools check_build_tools(const Tools& t) {
  if (t.verilator.empty())
    throw sw::InputError(fmt::format(
        "the RTL model must be built on first use and needs Verilator {}, but '{}' is not installed (or not on "
        "PATH): install it with `apt-get install verilator` (or set TORX_VERILATOR to its path)",
        kVerilatorVersion, t.want_verilator));
  if (t.cxx.empty())
    throw sw::InputError(fmt::format(
        "the RTL model must be compiled on first use, and the C++ compiler '{}' is not installed: install it with "
        "`apt-get install clang` (or g++; or set TORX_CXX to a compiler)",
        t.want_cxx));
  BuildTools b;
  int rc = 0;
  b.verilator_version = first_line(capture({t.verilator, "--version"}, &rc));
  if (rc != 0 || b.verilator_version.rfind("Verilator ", 0) != 0)
    throw sw::InputError(fmt::format("{} --version did not answer like Verilator (exit {}): '{}'", t.verilator, rc,
                                     b.verilator_version));
  const std::string version = b.verilator_version.substr(10, b.verilator_version.find(' ', 10) - 10);
  if (version != kVerilatorVersion)
    throw sw::InputError(fmt::format(
        "{} is Verilator {}, but this torx was built with Verilator {} and carries its runtime: install Verilator {} "
        "or rebuild torx against {} (TORX_VERILATOR chooses a verilator)",
        t.verilator, version, kVerilatorVersion, kVerilatorVersion, version));
  b.verilator_root = first_line(capture({t.verilator, "--getenv", "VERILATOR_ROOT"}, &rc));
  if (rc != 0 || b.verilator_root.empty() || !fs::exists(fs::path(b.verilator_root) / "include" / "verilated.h"))
    throw sw::InputError(fmt::format("{} names no usable VERILATOR_ROOT ('{}'): reinstall verilator", t.verilator,
                                     b.verilator_root));
  b.cxx_version = first_line(capture({t.cxx, "--version"}, &rc));
  if (rc != 0) throw sw::InputError(fmt::format("{} --version failed (exit {})", t.cxx, rc));
  return b;
}

// The kit's content hash (every file under the kit directory: path and bytes), once per process.
const std::string& kit_hash() {
  static std::mutex mu;
  static std::string h;
  std::lock_guard<std::mutex> lock(mu);
  if (!h.empty()) return h;
  const fs::path kit = rtl_kit_dir();
  if (!fs::is_directory(kit / "sv") || !fs::exists(kit / "rtl_factory.cpp.in"))
    throw sw::InputError(fmt::format("the RTL kit {} is missing or incomplete (it holds the SV sources and harness "
                                     "headers on-demand models are built from; reinstall torx, or set TORX_RTL_KIT)",
                                     kit.string()));
  std::vector<fs::path> files;
  // The mutants' patches (KIT/mutants) are keyed by the models that apply them, not by every model.
  for (const auto& e : fs::recursive_directory_iterator(kit))
    if (e.is_regular_file() && fs::relative(e.path(), kit).generic_string().rfind("mutants/", 0) != 0)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  uint64_t v = 0xcbf29ce484222325ull;
  for (const auto& f : files) {
    const std::string rel = fs::relative(f, kit).generic_string();
    v = fnv1a64(rel.data(), rel.size() + 1, v);
    const std::string body = read_file(f);
    v = fnv1a64(body.data(), body.size(), v);
  }
  h = hex64(v);
  return h;
}

// TORX_RTL_COVERAGE=DIR (scripts/coverage.sh, docs/verification.md, "Coverage"): models are built with
// Verilator's line and toggle coverage (another key, another cache entry), and each harness writes its
// counts to DIR when it is destroyed (hw/verilated_harness.hpp).
bool coverage_build() { return !getenv_str("TORX_RTL_COVERAGE").empty(); }

std::string verilator_flags() {
  return std::string(kVerilatorFlags) + (coverage_build() ? " --coverage-line --coverage-toggle" : "");
}

std::string model_cxx_flags() {
  std::string f = kModelCxxFlags;
  if (coverage_build())
    if (const size_t p = f.find("-DVM_COVERAGE=0"); p != std::string::npos) f.replace(p, 15, "-DVM_COVERAGE=1");
  return f;
}

// An advisory lock on a file, released by the destructor.
class FileLock {
 public:
  explicit FileLock(const fs::path& p) : path_(p) {
    fd_ = ::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(fmt::format("cannot open the lock {}: {}", p.string(), std::strerror(errno)));
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool try_lock() { return ::flock(fd_, LOCK_EX | LOCK_NB) == 0; }
  void lock() {
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR)
        throw std::runtime_error(fmt::format("cannot lock {}: {}", path_.string(), std::strerror(errno)));
  }

 private:
  fs::path path_;
  int fd_ = -1;
};

// The manifest's fields.
std::map<std::string, std::string> read_manifest(const fs::path& entry, std::string* problem) {
  std::map<std::string, std::string> m;
  std::ifstream f(entry / "manifest.txt");
  if (!f) {
    *problem = "no manifest (an interrupted build)";
    return m;
  }
  std::string line;
  if (!std::getline(f, line) || line != kManifestMagic) {
    *problem = "the manifest is not a torx manifest";
    return m;
  }
  while (std::getline(f, line)) {
    const size_t sp = line.find(' ');
    if (sp != std::string::npos) m[line.substr(0, sp)] = line.substr(sp + 1);
    else m[line] = "";
  }
  if (!m.count("end")) *problem = "the manifest is truncated";
  return m;
}

// "" if `entry` holds a complete model (key `key`, or any key if empty), else why not.
std::string check_entry(const fs::path& entry, const std::string& key, std::map<std::string, std::string>* out = nullptr) {
  if (!fs::is_directory(entry)) return "missing";
  std::string problem;
  auto m = read_manifest(entry, &problem);
  if (!problem.empty()) return problem;
  if (!key.empty() && m["key"] != key) return "the manifest names another key";
  const fs::path so = entry / "model.so";
  std::error_code ec;
  const uint64_t size = fs::file_size(so, ec);
  if (ec) return "model.so is missing";
  if (std::to_string(size) != m["so_bytes"])
    return fmt::format("model.so has {} bytes, the manifest says {} (truncated or overwritten)", size, m["so_bytes"]);
  if (hex64(file_fnv(so, nullptr)) != m["so_fnv64"]) return "model.so does not match the manifest's checksum";
  if (out) *out = std::move(m);
  return "";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// How a model's C++ is made (docs/rtl.md, "Build time"): the project's defaults, or $TORX_RTL_TUNE
// ("vflags=-fno-inline;fast=-O2;slow=-O0;trace=-O1;units=3", any subset) for scripts/bench_rtl_build.sh.
// Its text (defaults included) is part of the key: a model built another way never stands in.
struct Tuning {
  std::string vflags;            // appended to Verilator's flags
  std::string fast = "-O1";      // what every cycle runs
  std::string slow = "-O0";      // __Slow files: construction, settling, a trace's first dump
  std::string trace = "-O0";     // __Trace files (not __Slow): each cycle, only while a waveform is open
  int units = 0;                 // unity files for the fast code (0: the jobs)
  std::string text() const { return fmt::format("vflags={};fast={};slow={};trace={};units={}", vflags, fast, slow, trace, units); }
};

const Tuning& tuning() {
  static std::mutex mu;
  static bool done = false;
  static Tuning t;
  std::lock_guard<std::mutex> lock(mu);
  if (done) return t;
  done = true;
  std::stringstream in(getenv_str("TORX_RTL_TUNE"));
  for (std::string item; std::getline(in, item, ';');) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string k = item.substr(0, eq), v = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (k == "vflags") t.vflags = v;
    else if (k == "fast") t.fast = v;
    else if (k == "slow") t.slow = v;
    else if (k == "trace") t.trace = v;
    else if (k == "units") t.units = std::atoi(v.c_str());
    else
      throw sw::InputError(fmt::format("TORX_RTL_TUNE: unknown item '{}' (vflags=, fast=, slow=, trace=, units=)", item));
  }
  return t;
}

// TORX_RTL_PROPS_PORTS=N (scripts/test.sh sets 5; docs/rtl.md, "Build time"): the RTL properties
// (hw/props) are compiled only into routers of at most N ports (network and local); a larger router
// is built without them (+define+TORX_PROPS_OFF, "props off" in its key and manifest): they double
// the generated C++ of a 3D router. Unset: every model has them. Barrier units always have them.
bool props_off(const RtlModelSpec& spec) {
  const std::string v = getenv_str("TORX_RTL_PROPS_PORTS");
  if (v.empty() || !spec.sources.empty() || spec.top == "torx_barrier") return false;
  if (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 4)
    throw sw::InputError(fmt::format("TORX_RTL_PROPS_PORTS: '{}' is not a number of ports", v));
  int64_t dims = 1, local = 1;
  for (const auto& [k, val] : spec.params) {
    if (k == "NumDims") dims = val;
    if (k == "NumLocal") local = val;
  }
  return 2 * dims + local > std::stoll(v);
}

// A rough figure for the progress line: Verilator plus two compiler jobs grow with the ports and with
// ports x lanes; fitted to docs/rtl.md's first-use table on two idle cores (about 6 + 1.5 ports + 0.12
// ports x lanes seconds: r2d 15, r3d with K = 8 30, the all-port 3D router with K = 4 59).
int estimate_seconds(const RtlModelSpec& s) {
  int64_t dims = 1, local = 1, lanes = 1;
  for (const auto& [k, v] : s.params) {
    if (k == "NumDims") dims = v;
    if (k == "NumLocal") local = v;
    if (k == "NumClasses" || k == "VcsPerClass" || k == "PriorityLevels") lanes *= v;
  }
  if (s.top == "torx_barrier") return 5;
  const int64_t ports = 2 * dims + local;
  return static_cast<int>(std::min<int64_t>((60 + 15 * ports + ports * std::min<int64_t>(lanes, 64) * 6 / 5) / 10, 900));
}

// A foreign top's Verilator flags beyond the project's: an explicit X takes a random value too
// (the checker's X detection, hw/verilated_foreign_router.hpp).
constexpr const char* kForeignVerilatorFlags = "--x-assign unique";

// The directories of a foreign spec's sources (each a -I and -y), in order, once each.
std::vector<std::string> source_dirs(const RtlModelSpec& spec) {
  std::vector<std::string> dirs;
  for (const auto& f : spec.sources) {
    const std::string d = fs::path(f).parent_path().string();
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  }
  return dirs;
}

// The content of a foreign spec's sources and of every SV file Verilator may read beside them.
std::string foreign_sources_hash(const RtlModelSpec& spec) {
  std::vector<fs::path> files;
  for (const auto& f : spec.sources) files.emplace_back(f);
  for (const auto& d : source_dirs(spec)) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(d, ec)) {
      const std::string x = e.path().extension().string();
      if (e.is_regular_file() && (x == ".sv" || x == ".svh" || x == ".v" || x == ".vh" || x == ".vlt"))
        files.push_back(e.path());
    }
  }
  uint64_t v = 0xcbf29ce484222325ull;
  for (const auto& f : files) {
    const std::string name = f.string();
    v = fnv1a64(name.data(), name.size() + 1, v);
    const std::string body = read_file(f);
    v = fnv1a64(body.data(), body.size(), v);
  }
  return hex64(v);
}

// A hand-written mutant's patch (testbenches/rtl/mutants/*.patch, staged into KIT/mutants): a unified
// diff of hw/ (diff -u), applied by content to the SV files in `sv`: each hunk's old lines (context
// and removed) must occur exactly once in its file (the path after "hw/": torx_router.sv,
// props/torx_output_unit_props.svh) and are replaced by its new lines; the hunk's line
// numbers are not used, so an edit elsewhere in the file does not stop it, and a hunk whose lines
// changed fails with the file and hunk named.
void apply_patch(const fs::path& patch, const fs::path& sv) {
  struct Hunk {
    std::string file, old_text, new_text;
  };
  std::vector<Hunk> hunks;
  std::string file;
  bool in_hunk = false;
  std::istringstream in(read_file(patch));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) == 0) {
      file = line.substr(4, line.find('\t') == std::string::npos ? std::string::npos : line.find('\t') - 4);
      const size_t hw = file.find("hw/");
      file = hw == std::string::npos ? fs::path(file).filename().string() : file.substr(hw + 3);
      in_hunk = false;
    } else if (line.rfind("--- ", 0) == 0) {
      in_hunk = false;  // a file's header (no SV line starts with "-- " or "++ ")
    } else if (line.rfind("@@", 0) == 0) {
      if (file.empty()) throw std::runtime_error(fmt::format("{}: a hunk before its file's +++ line", patch.string()));
      hunks.push_back({file, "", ""});
      in_hunk = true;
    } else if (in_hunk && !line.empty() && (line[0] == ' ' || line[0] == '-' || line[0] == '+')) {
      if (line[0] != '+') hunks.back().old_text += line.substr(1) + "\n";
      if (line[0] != '-') hunks.back().new_text += line.substr(1) + "\n";
    } else if (in_hunk && !line.empty() && line[0] == '\\') {
      continue;  // "\ No newline at end of file"
    } else {
      in_hunk = false;  // the text before the first file: what the mutant is
    }
  }
  if (hunks.empty()) throw std::runtime_error(fmt::format("{}: no hunk", patch.string()));
  for (size_t i = 0; i < hunks.size(); ++i) {
    const Hunk& h = hunks[i];
    const fs::path f = sv / h.file;
    std::string text = read_file(f);
    const size_t at = text.find(h.old_text);
    const bool twice = at != std::string::npos && text.find(h.old_text, at + 1) != std::string::npos;
    if (at == std::string::npos || twice)
      throw std::runtime_error(fmt::format("the mutant patch {} does not apply: hunk {} {} in {} (the SV changed "
                                           "since the patch was made: regenerate it, docs/verification.md)",
                                           patch.filename().string(), i + 1,
                                           twice ? "matches more than once" : "is not found", h.file));
    text.replace(at, h.old_text.size(), h.new_text);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << text;
  }
}

// Verilator's arguments for the sources of `spec`: the kit's SV files, or a foreign top's.
std::vector<std::string> verilator_sources(const RtlModelSpec& spec, const fs::path& kit) {
  std::vector<std::string> a;
  if (!spec.sources.empty()) {
    for (const auto& d : source_dirs(spec)) a.insert(a.end(), {"-I" + d, "-y", d});
    a.insert(a.end(), {"+libext+.sv+.v", "--x-assign", "unique"});
    a.insert(a.end(), spec.sources.begin(), spec.sources.end());
    return a;
  }
  std::vector<std::string> sv;
  for (const auto& e : fs::directory_iterator(kit / "sv"))
    if (e.path().extension() == ".sv") sv.push_back(e.path().string());
  // Packages first (their users import them), each group in name order.
  std::sort(sv.begin(), sv.end(), [](const std::string& a, const std::string& b) {
    const bool pa = a.size() > 7 && a.compare(a.size() - 7, 7, "_pkg.sv") == 0;
    const bool pb = b.size() > 7 && b.compare(b.size() - 7, 7, "_pkg.sv") == 0;
    if (pa != pb) return pa;
    if (pa && (a.find("/torx_pkg.sv") != std::string::npos) != (b.find("/torx_pkg.sv") != std::string::npos))
      return a.find("/torx_pkg.sv") != std::string::npos;
    return a < b;
  });
  a.push_back("-I" + (kit / "sv").string());
  a.insert(a.end(), sv.begin(), sv.end());
  return a;
}

}  // namespace

uint64_t fnv1a64(const void* data, size_t n, uint64_t seed) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// Defined only in a program built against the installed package (torxConfig.cmake compiles
// lib/cmake/torx/torx_rtl_kit_hint.cpp into it): the kit of the prefix the package was found in, since
// such a program does not live in that prefix's bin directory.
extern "C" const char* torx_rtl_kit_hint() __attribute__((weak));

fs::path rtl_kit_dir() {
  const std::string env = getenv_str("TORX_RTL_KIT");
  if (!env.empty()) return env;
  if (torx_rtl_kit_hint != nullptr)
    if (const char* hint = torx_rtl_kit_hint(); hint != nullptr && *hint != '\0') return hint;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the running executable (/proc/self/exe)");
  return (exe.parent_path() / ".." / "share" / "torx" / "rtl").lexically_normal();
}

std::string RtlModelSpec::param_args() const {
  std::string s;
  for (const auto& [k, v] : params) s += fmt::format("{}-G{}={}", s.empty() ? "" : " ", k, v);
  return s;
}

int default_build_jobs() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)));
}

std::string compile_model(const ModelCompile& mc) {
  const Tools& t = tools();
  const BuildTools bt = check_build_tools(t);
  const Tuning& tune = tuning();
  // Verilator's output falls in three groups, each compiled at its own level: what every cycle runs
  // (fast), what runs once (__Slow: construction, settling, a trace's first full dump) and the
  // waveform's per-cycle code (__Trace, run only while a waveform is open). Each group goes into
  // unity files (one compiler process reads verilated.h once for many files) balanced by size,
  // the factory alone; `jobs` compiler processes at a time, longest first; then one shared object.
  enum Group { kFast, kSlow, kTrace };
  struct Unit {
    std::string text;
    double cost = 0;  // about the compile time: bytes, weighted by the level
    Group group = kFast;
  };
  std::vector<std::pair<uint64_t, fs::path>> files[3];
  std::vector<fs::path> own;  // compiled alone (the factory, a user's harness)
  size_t generated = 0;
  for (const auto& e : fs::directory_iterator(mc.obj_dir)) {
    const std::string n = e.path().filename().string();
    if (e.path().extension() != ".cpp" || n.rfind("torx_unit_", 0) == 0) continue;
    if (std::find(mc.alone.begin(), mc.alone.end(), n) != mc.alone.end() || n == "torx_factory.cpp") {
      own.push_back(e.path());
      continue;
    }
    const Group g = n.find("__Slow") != std::string::npos    ? kSlow
                    : n.find("__Trace__") != std::string::npos ? kTrace
                                                               : kFast;
    files[g].emplace_back(fs::file_size(e.path()), e.path());
    ++generated;
  }
  const int jobs = std::max(1, mc.jobs > 0 ? mc.jobs : default_build_jobs());
  const std::string level[3] = {tune.fast, tune.slow, tune.trace};
  auto weight = [](const std::string& o) { return o == "-O0" ? 0.45 : o == "-O1" || o == "-Os" ? 1.0 : 2.0; };
  std::vector<Unit> units;
  auto split = [&](Group g, int parts) {
    auto& v = files[g];
    std::sort(v.begin(), v.end(),
              [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
    const size_t first = units.size();
    for (int k = 0; k < std::min<int>(parts, static_cast<int>(v.size())); ++k) units.push_back(Unit{"", 0, g});
    for (const auto& [bytes, path] : v) {
      Unit* u = &units[first];
      for (size_t k = first; k < units.size(); ++k)
        if (units[k].cost < u->cost) u = &units[k];
      u->cost += static_cast<double>(bytes) * weight(level[g]);
      u->text += fmt::format("#include \"{}\"\n", path.filename().string());
    }
  };
  split(kFast, tune.units > 0 ? tune.units : jobs);
  split(kSlow, std::max(1, jobs / 2));
  split(kTrace, std::max(1, jobs / 2));
  for (const auto& p : own) units.push_back(Unit{fmt::format("#include \"{}\"\n", p.filename().string()), 3e6, kFast});
  std::stable_sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) { return a.cost > b.cost; });
  std::vector<std::string> base = {t.cxx};
  {
    std::istringstream flags(model_cxx_flags());
    for (std::string f; flags >> f;) base.push_back(f);
  }
  for (const auto& d : mc.defines) base.push_back("-D" + d);
  base.push_back("-I" + mc.obj_dir.string());
  for (const auto& d : mc.include_dirs) base.push_back("-I" + d.string());
  base.insert(base.end(), {"-isystem", bt.verilator_root + "/include", "-isystem", bt.verilator_root + "/include/vltstd"});
  if (mc.progress)
    std::fprintf(stderr, "[torx rtl] compiling %s (%zu generated sources in %zu units, %d jobs)\n", mc.name.c_str(),
                 generated, units.size(), jobs);
  std::vector<std::string> objs;
  std::vector<pid_t> running;
  bool bad = false;
  size_t done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  // Waits until fewer than `limit` compilers run (any of them may finish first).
  auto drain = [&](size_t limit) {
    while (running.size() >= limit && !running.empty()) {
      for (size_t k = 0; k < running.size();) {
        int status = 0;
        struct rusage ru {};
        const pid_t r = ::wait4(running[k], &status, WNOHANG, &ru);
        if (r == running[k]) add_child_cpu(ru);
        if (r == running[k] || (r < 0 && errno != EINTR)) {
          if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) bad = true;
          running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
          ++done;
        } else {
          ++k;
        }
      }
      if (running.size() >= limit) ::usleep(20000);
      // A long compile says where it is, every 20 s.
      const auto now = std::chrono::steady_clock::now();
      if (mc.progress && now - last >= std::chrono::seconds(20)) {
        last = now;
        std::fprintf(stderr, "[torx rtl] compiling %s: %zu of %zu units done after %.0f s\n", mc.name.c_str(), done,
                     units.size(), std::chrono::duration<double>(now - t0).count());
      }
    }
  };
  for (size_t k = 0; k < units.size(); ++k) {
    drain(static_cast<size_t>(jobs));
    const fs::path u = mc.obj_dir / fmt::format("torx_unit_{}.cpp", k);
    std::ofstream(u) << units[k].text;
    std::vector<std::string> c = base;
    std::istringstream lv(level[units[k].group]);  // after the flags' level: the last one counts
    for (std::string f; lv >> f;) c.push_back(f);
    const std::string o = (mc.obj_dir / fmt::format("torx_unit_{}.o", k)).string();
    c.insert(c.end(), {"-c", u.string(), "-o", o});
    objs.push_back(o);
    running.push_back(spawn(c, mc.log));
  }
  drain(1);
  if (bad) return "the compiler failed";
  std::vector<std::string> link = {t.cxx, "-shared", "-o", mc.shared_object.string()};
  link.insert(link.end(), objs.begin(), objs.end());
  if (const int rc = wait_for(spawn(link, mc.log)); rc != 0) return fmt::format("the link exited with {}", rc);
  for (const auto& o : objs) fs::remove(o);
  return "";
}

RtlCache::RtlCache(RtlCacheOptions options) : opt_(std::move(options)) {
  std::string d = opt_.dir;
  explicit_dir_ = !d.empty();
  if (d.empty()) {
    d = getenv_str("TORX_RTL_CACHE");
    explicit_dir_ = !d.empty();
  }
  if (d.empty()) {
    const std::string xdg = getenv_str("XDG_CACHE_HOME");
    if (!xdg.empty() && xdg[0] == '/') {
      d = xdg + "/torx/rtl";
    } else {
      const std::string home = getenv_str("HOME");
      d = (home.empty() ? fs::temp_directory_path().string() : home) + "/.cache/torx/rtl";
    }
  }
  dir_ = fs::path(d).lexically_normal();
}

bool RtlCache::fallback_to_temp(const std::string& why) {
  if (explicit_dir_ || fell_back_) return false;
  const fs::path tmp = fs::temp_directory_path() / fmt::format("torx-rtl-{}", ::getuid());
  if (opt_.progress)
    std::fprintf(stderr, "[torx rtl] cannot write the RTL cache %s (%s); using %s for this run\n", dir_.c_str(),
                 why.c_str(), tmp.c_str());
  dir_ = tmp;
  fell_back_ = true;
  return true;
}

std::string RtlCache::key_of(const RtlModelSpec& spec) {
  const Tools& t = tools();
  std::string text = fmt::format(
      "torx-rtl-key {}\ntop {}\nparams {}\nkit {}\nverilator {} {}\nverilator-flags {}\ncxx {}\ncxx-flags {}\n{}",
      kRtlFactoryAbi, spec.top, spec.param_args(), kit_hash(), kVerilatorVersion, t.verilator_id, verilator_flags(),
      t.cxx_id, model_cxx_flags(), "tune " + tuning().text() + "\n");
  if (!spec.sources.empty()) text += fmt::format("foreign {} {}\n", kForeignVerilatorFlags, foreign_sources_hash(spec));
  if (!spec.patch.empty()) {
    const fs::path p = rtl_kit_dir() / "mutants" / spec.patch;
    if (!fs::is_regular_file(p))
      throw std::runtime_error(fmt::format("the RTL kit {} has no mutant patch {} (reinstall torx, or set TORX_RTL_KIT)",
                                           rtl_kit_dir().string(), spec.patch));
    const std::string body = read_file(p);
    text += fmt::format("patch {} {}\n", spec.patch, hex64(fnv1a64(body.data(), body.size())));
  }
  if (props_off(spec)) text += "props off\n";
  return hex64(fnv1a64(text.data(), text.size()));
}

std::string RtlCache::entry_name(const RtlModelSpec& spec) {
  return spec.name + (coverage_build() ? "_cov-" : "-") + key_of(spec);
}

// Creates the cache directory and probes it; falls back to the temporary one (once) or throws.
void RtlCache::make_writable() {
  for (;;) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    std::string why = ec ? ec.message() : "";
    if (why.empty()) {
      const fs::path probe = dir_ / fmt::format(".probe-{}", ::getpid());
      const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) why = std::strerror(errno);
      else {
        ::close(fd);
        ::unlink(probe.c_str());
      }
    }
    if (why.empty()) break;
    if (!fallback_to_temp(why))
      throw sw::InputError(fmt::format("cannot write the RTL model cache {}: {} (choose another with --rtl-cache DIR "
                                       "or TORX_RTL_CACHE)",
                                       dir_.string(), why));
  }
}

fs::path RtlCache::ensure(const RtlModelSpec& spec, bool* built) {
  if (built) *built = false;
  const std::string name = entry_name(spec);
  const std::string key = name.substr(name.rfind('-') + 1);
  if (check_entry(dir_ / name, key).empty()) return dir_ / name / "model.so";
  // Build it: the directory must be writable (or the fallback, which may hold it).
  make_writable();
  if (check_entry(dir_ / name, key).empty()) return dir_ / name / "model.so";
  const fs::path entry = dir_ / name;
  FileLock lock(dir_ / (name + ".lock"));
  if (!lock.try_lock()) {
    if (opt_.progress)
      std::fprintf(stderr, "[torx rtl] waiting for another torx to finish building %s\n", spec.name.c_str());
    lock.lock();
  }
  const std::string problem = check_entry(entry, key);
  if (problem.empty()) return entry / "model.so";  // built meanwhile by the other process
  if (fs::exists(entry)) {
    if (opt_.progress)
      std::fprintf(stderr, "[torx rtl] the cached %s is damaged (%s): rebuilding it\n", spec.name.c_str(),
                   problem.c_str());
    const fs::path trash = dir_ / fmt::format(".trash-{}-{}", name, ::getpid());
    fs::rename(entry, trash);
    fs::remove_all(trash);
  }
  build(spec, entry);
  if (built) *built = true;
  const std::string after = check_entry(entry, key);
  if (!after.empty())
    throw std::runtime_error(fmt::format("the RTL model {} was built into {} but does not check: {}", spec.name,
                                         entry.string(), after));
  return entry / "model.so";
}

void RtlCache::build(const RtlModelSpec& spec, const fs::path& entry) {
  const Tools& t = tools();
  const BuildTools bt = check_build_tools(t);
  const fs::path kit = rtl_kit_dir();
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = t_child_cpu;
  const fs::path tmp = dir_ / fmt::format(".tmp-{}-{}", entry.filename().string(), ::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp / "obj");
  const fs::path log = tmp / "build.log";
  // The model's class carries its key: two models in one process never share a symbol name.
  const std::string prefix = "Vtorx_" + entry.filename().string().substr(entry.filename().string().rfind('-') + 1);
  if (opt_.progress)
    std::fprintf(stderr, "[torx rtl] Verilating %s (first use, about %d s; cached in %s)\n", spec.name.c_str(),
                 estimate_seconds(spec), dir_.c_str());
  auto fail = [&](const std::string& what) {
    const fs::path kept = dir_ / (entry.filename().string() + ".failed.log");
    std::error_code ec;
    fs::copy_file(log, kept, fs::copy_options::overwrite_existing, ec);
    std::string tail;
    try {
      const std::string all = read_file(log);
      size_t pos = all.size();
      for (int lines = 0; lines < 15 && pos > 0; ++lines) pos = all.rfind('\n', pos - 1);
      tail = all.substr(pos == std::string::npos ? 0 : pos);
    } catch (...) {
    }
    fs::remove_all(tmp, ec);
    throw std::runtime_error(fmt::format("building the RTL model {} failed: {} (log: {}){}", spec.name, what,
                                         kept.string(), tail));
  };

  // 1. Verilator: every SV source of the kit (or the foreign top's), the top and its parameters.
  std::vector<std::string> cmd = {t.verilator, "--cc"};
  {
    std::istringstream flags(verilator_flags() + " " + tuning().vflags);
    for (std::string f; flags >> f;) cmd.push_back(f);
  }
  cmd.insert(cmd.end(), {"-Mdir", (tmp / "obj").string(), "--prefix", prefix, "--top-module", spec.top});
  for (const auto& [k, v] : spec.params) cmd.push_back(fmt::format("-G{}={}", k, v));
  if (props_off(spec)) cmd.push_back("+define+TORX_PROPS_OFF");
  {
    // A mutant: the kit's SV sources copied into the build directory and its patch applied there.
    fs::path sv_kit = kit;
    if (!spec.patch.empty()) {
      sv_kit = tmp / "mutant";
      std::error_code ec;
      fs::create_directories(sv_kit, ec);
      fs::copy(kit / "sv", sv_kit / "sv", fs::copy_options::recursive, ec);
      if (ec) fail(fmt::format("cannot copy the kit's sources for the mutant: {}", ec.message()));
      try {
        apply_patch(kit / "mutants" / spec.patch, sv_kit / "sv");
      } catch (const std::exception& e) {
        fail(e.what());
      }
    }
    const std::vector<std::string> src = verilator_sources(spec, sv_kit);
    cmd.insert(cmd.end(), src.begin(), src.end());
  }
  {
    std::ofstream(log, std::ios::app) << "$";
    for (const auto& a : cmd) std::ofstream(log, std::ios::app) << ' ' << a;
    std::ofstream(log, std::ios::app) << '\n';
  }
  if (const int rc = wait_for(spawn(cmd, log)); rc != 0) fail(fmt::format("verilator exited with {}", rc));
  const double verilator_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double verilator_cpu = t_child_cpu - cpu_start;

  // 2. The factory, from the kit's template.
  std::string factory = read_file(kit / "rtl_factory.cpp.in");
  for (size_t p; (p = factory.find("@PREFIX@")) != std::string::npos;) factory.replace(p, 8, prefix);
  const char* kind = !spec.sources.empty()            ? "4"
                     : spec.top == "torx_router"        ? "1"
                     : spec.top == "torx_gossip_router" ? "2"
                                                        : "3";
  std::ofstream(tmp / "obj" / "torx_factory.cpp") << factory;

  // 3. The compiler: Verilator's C++ and the factory into one shared object.
  ModelCompile mc;
  mc.obj_dir = tmp / "obj";
  mc.shared_object = tmp / "model.so";
  mc.log = log;
  mc.defines = {"TORX_RTL_KIND=" + std::string(kind)};
  mc.include_dirs = {kit / "include"};
  mc.jobs = opt_.jobs;
  mc.name = spec.name;
  mc.progress = opt_.progress;
  if (coverage_build()) {  // the coverage runtime, which libtorx_rtl_runtime does not hold
    std::ofstream(tmp / "obj" / "torx_cov.cpp") << "#include \"verilated_cov.cpp\"\n";
    mc.alone.push_back("torx_cov.cpp");
  }
  if (const std::string why = compile_model(mc); !why.empty()) fail(why);
  fs::remove_all(tmp / "obj");

  // 4. The manifest, written last; then the directory takes its place.
  uint64_t bytes = 0;
  const uint64_t sum = file_fnv(tmp / "model.so", &bytes);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::ofstream m(tmp / "manifest.tmp");
    m << kManifestMagic << '\n'
      << "name " << spec.name << '\n'
      << "top " << spec.top << '\n'
      << "key " << entry.filename().string().substr(entry.filename().string().rfind('-') + 1) << '\n'
      << "params " << spec.param_args() << '\n'
      << "kit " << kit.string() << '\n'
      << "verilator " << t.verilator << " (" << bt.verilator_version << ")\n"
      << "cxx " << t.cxx << " (" << bt.cxx_version << ")\n"
      << "so_bytes " << bytes << '\n'
      << "so_fnv64 " << hex64(sum) << '\n'
      << fmt::format("build_seconds {:.1f}\n", seconds)
      << fmt::format("verilator_seconds {:.1f}\n", verilator_seconds)
      << fmt::format("cpu_seconds {:.1f}\n", t_child_cpu - cpu_start)
      << fmt::format("verilator_cpu_seconds {:.1f}\n", verilator_cpu)
      << "tune " << tuning().text() << '\n'
      << "props " << (props_off(spec) ? "off" : "on") << '\n'
      << "built_at " << utc_now() << '\n'
      << "end\n";
    m.flush();
    if (!m) fail("cannot write the manifest");
  }
  {
    // The object's bytes reach the disk before the manifest names them.
    const int fd = ::open((tmp / "model.so").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      ::fsync(fd);
      ::close(fd);
    }
  }
  fs::rename(tmp / "manifest.tmp", tmp / "manifest.txt");
  std::error_code ec;
  fs::rename(tmp, entry, ec);
  if (ec) fail(fmt::format("cannot move the build into {}: {}", entry.string(), ec.message()));
  if (opt_.progress)
    std::fprintf(stderr, "[torx rtl] built %s in %.0f s (%.0f s of CPU)\n", spec.name.c_str(), seconds,
                 t_child_cpu - cpu_start);
}

std::string RtlCache::inspect(const RtlModelSpec& spec) {
  const Tools& t = tools();
  check_build_tools(t);
  const fs::path tmp = fs::temp_directory_path() / fmt::format("torx-inspect-{}-{}", ::getpid(), spec.name);
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) throw sw::InputError(fmt::format("cannot create {}: {}", tmp.string(), ec.message()));
  const fs::path log = tmp / "verilator.log";
  std::vector<std::string> cmd = {t.verilator, "--xml-only", "-Wno-fatal", "-Mdir", tmp.string(), "--top-module",
                                  spec.top, "--xml-output", (tmp / "top.xml").string()};
  for (const auto& [k, v] : spec.params) cmd.push_back(fmt::format("-G{}={}", k, v));
  const std::vector<std::string> src = verilator_sources(spec, rtl_kit_dir());
  cmd.insert(cmd.end(), src.begin(), src.end());
  const int rc = wait_for(spawn(cmd, log));
  std::string xml, errors;
  try {
    xml = rc == 0 ? read_file(tmp / "top.xml") : "";
    std::istringstream in(read_file(log));
    int shown = 0;
    for (std::string line; std::getline(in, line) && shown < 6;)
      if (line.rfind("%Error", 0) == 0) {
        errors += "\n  " + line;
        ++shown;
      }
  } catch (const std::exception&) {
  }
  fs::remove_all(tmp, ec);
  if (rc != 0)
    throw sw::InputError(fmt::format("--rtl-router: Verilator cannot read top {} from {} (exit {}):{}", spec.top,
                                     spec.sources.empty() ? std::string("the kit") : spec.sources.front(), rc,
                                     errors.empty() ? std::string(" no %Error line") : errors));
  return xml;
}

std::vector<RtlCacheEntry> RtlCache::list() const {
  std::vector<RtlCacheEntry> v;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return v;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string fn = e.path().filename().string();
    if (!e.is_directory() || fn.empty() || fn[0] == '.') continue;
    RtlCacheEntry x;
    x.dir_name = fn;
    std::map<std::string, std::string> m;
    x.problem = check_entry(e.path(), "", &m);
    x.valid = x.problem.empty();
    if (!x.valid) {
      std::string p;
      m = read_manifest(e.path(), &p);
    }
    x.name = m.count("name") ? m["name"] : fn.substr(0, fn.rfind('-'));
    x.top = m["top"];
    x.params = m["params"];
    x.built_at = m["built_at"];
    x.kit = m["kit"];
    x.build_seconds = m.count("build_seconds") ? std::atof(m["build_seconds"].c_str()) : 0.0;
    for (const auto& f : fs::recursive_directory_iterator(e.path(), ec))
      if (f.is_regular_file()) x.bytes += f.file_size();
    v.push_back(std::move(x));
  }
  std::sort(v.begin(), v.end(), [](const RtlCacheEntry& a, const RtlCacheEntry& b) { return a.dir_name < b.dir_name; });
  return v;
}

int RtlCache::clean(const std::string& filter) {
  int removed = 0;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return 0;
  std::vector<fs::path> paths;
  for (const auto& e : fs::directory_iterator(dir_, ec)) paths.push_back(e.path());
  for (const auto& p : paths) {
    const std::string fn = p.filename().string();
    if (fn.size() > 5 && fn.compare(fn.size() - 5, 5, ".lock") == 0) continue;
    const bool temp = fn.rfind(".tmp-", 0) == 0 || fn.rfind(".trash-", 0) == 0;
    if (!filter.empty() && fn.find(filter) == std::string::npos) continue;
    if (temp) {
      // A temporary directory of a build in progress holds its entry's lock.
      std::string entry = fn.substr(fn.find('-') + 1);
      entry = entry.substr(0, entry.rfind('-'));
      FileLock l(dir_ / (entry + ".lock"));
      if (!l.try_lock()) continue;
      fs::remove_all(p, ec);
      continue;
    }
    if (fs::is_directory(p)) {
      FileLock l(dir_ / (fn + ".lock"));
      if (!l.try_lock()) {
        if (opt_.progress) std::fprintf(stderr, "[torx rtl] %s is being built; left alone\n", fn.c_str());
        continue;
      }
      // The lock file stays: a process waiting on it must meet the next builder on the same file.
      fs::remove_all(p, ec);
      ++removed;
    } else if (fn.size() > 11 && fn.compare(fn.size() - 11, 11, ".failed.log") == 0) {
      fs::remove(p, ec);
    }
  }
  return removed;
}

}  // namespace torx::rtl
