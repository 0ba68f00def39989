// SPDX-License-Identifier: Apache-2.0
// OutputFile and TempOutputPath: temporary file beside the target, renamed on success, removed on
// failure or on a signal (output_file.hpp).
#include "core/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include "core/errors.hpp"

namespace torx::sw {

namespace {

// The temporary files the signal handler removes: fixed slots, written before they are published
// (`used` set last) so that the handler only reads whole names.
constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<int> g_used[kSlots];
std::mutex g_slots_mutex;

int register_temp(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() == 0) {
      std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
      g_used[i].store(1);
      return i;
    }
  return -1;  // more than 64 outputs open at once: still removed by the destructors, not on a signal
}

void unregister_temp(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(g_slots_mutex);
  g_used[slot].store(0);
}

// set_signal_exit: the exit code (0: die by the signal) and the message, read by the handler.
std::atomic<int> g_exit_code{0};
std::atomic<const char*> g_exit_message{nullptr};

extern "C" void remove_temps_and_die(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load() == 1) ::unlink(g_paths[i]);
  if (const int code = g_exit_code.load(); code != 0 && sig != SIGINT) {
    if (const char* m = g_exit_message.load()) {
      const ssize_t w = ::write(2, m, std::strlen(m));
      (void)w;
    }
    ::_exit(code);
  }
  std::signal(sig, SIG_DFL);
  ::raise(sig);
}

mode_t file_mode() {
  static const mode_t mode = [] {
    const mode_t m = ::umask(0);
    ::umask(m);
    return static_cast<mode_t>(0666 & ~m);
  }();
  return mode;
}

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Creates the temporary file beside `path` ("DIR/.BASE.torx-XXXXXX" + suffix); returns its fd and
// name, or throws InputError naming `option`.
int make_temp(const std::string& option, const std::string& path, std::string_view suffix, std::string& name,
              const char* verb) {
  name = dir_of(path) + "/." + base_of(path) + ".torx-XXXXXX" + std::string(suffix);
  if (name.size() >= kPathMax) throw InputError(fmt::format("{} {}: the file name is too long", option, path));
  const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
  if (fd < 0)
    throw InputError(fmt::format("{} {}: {}: {}", option, path, verb, std::strerror(errno)));
  ::fchmod(fd, file_mode());
  return fd;
}

}  // namespace

void install_output_signal_handlers() {
  static const bool once = [] {
    file_mode();  // read the umask now, before any thread exists
    std::signal(SIGXFSZ, SIG_IGN);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      // A signal the caller ignores (nohup, a background job of a script) stays ignored.
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temps_and_die;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
    return true;
  }();
  (void)once;
}

void set_signal_exit(int code, const char* message) {
  g_exit_message.store(message);
  g_exit_code.store(code);
}

void check_output_name(std::string_view option, const std::string& path) {
  if (path.empty()) throw InputError(fmt::format("{}: give a file name (or - for standard output)", option));
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw InputError(fmt::format("{} {}: not a regular file (a directory); give the name of a file to write", option, path));
}

OutputFile::OutputFile(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdout;
    return;
  }
  check_output_name(option_, path_);
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  auto open_in_place = [this] {
    // A zero-byte write shows a file or device that refuses every write (/dev/full, /proc/version).
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) throw InputError(fmt::format("{} {}: cannot open for writing: {}", option_, path_, std::strerror(errno)));
    if (::write(::fileno(file_), "", 0) < 0) fail("write error", errno);
  };
  if (exists && !S_ISREG(st.st_mode)) {  // a device or FIFO
    open_in_place();
    return;
  }
  int fd = -1;
  try {
    fd = make_temp(option_, path_, {}, temp_, "cannot open for writing");
  } catch (const InputError&) {
    // No file can be created beside it (a writable file in a read-only directory, /proc/self/fd/N):
    // an existing file is written in place, without the rename's protection.
    if (!exists) throw;
    temp_.clear();
    open_in_place();
    return;
  }
  slot_ = register_temp(temp_);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    fail("cannot open for writing", err);
  }
}

OutputFile::~OutputFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
  if (!temp_.empty() && !done_) ::unlink(temp_.c_str());
  unregister_temp(slot_);
}

void OutputFile::fail(const char* what, int err) {
  if (file_ && file_ != stdout) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  unregister_temp(slot_);
  slot_ = -1;
  done_ = true;
  throw InputError(fmt::format("{} {}: {}: {}", option_, path_, what, std::strerror(err ? err : EIO)));
}

void OutputFile::write(std::string_view text) {
  if (!file_) throw InputError(fmt::format("{} {}: already closed", option_, path_));
  if (is_stdout()) std::fflush(stdout);
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    if (is_stdout()) throw InputError(fmt::format("{} -: write error on standard output: {}", option_, std::strerror(errno)));
    fail("write error", errno);
  }
}

void OutputFile::commit() {
  if (!file_) throw InputError(fmt::format("{} {}: already closed", option_, path_));
  if (is_stdout()) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
      throw InputError(fmt::format("{} -: write error on standard output: {}", option_, std::strerror(errno ? errno : EIO)));
    file_ = nullptr;
    done_ = true;
    return;
  }
  errno = 0;
  const bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  const int err = errno;
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0 || !ok) fail("write error", ok ? errno : err);
  if (!temp_.empty() && std::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot rename the finished file to it", errno);
  unregister_temp(slot_);
  slot_ = -1;
  done_ = true;
}

TempOutputPath::TempOutputPath(std::string option, std::string path, std::string_view suffix)
    : option_(std::move(option)), path_(std::move(path)) {
  check_output_name(option_, path_);
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(fmt::format("{} {}: not a regular file ({}); give the name of a file to write", option_, path_,
                                 S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a special file"));
  const int fd = make_temp(option_, path_, suffix, file_, "cannot create it");
  ::close(fd);
  slot_ = register_temp(file_);
  base_ = file_.substr(0, file_.size() - suffix.size());
}

TempOutputPath::~TempOutputPath() {
  if (!done_) ::unlink(file_.c_str());
  unregister_temp(slot_);
}

void TempOutputPath::commit() {
  done_ = true;
  unregister_temp(slot_);
  slot_ = -1;
  if (std::rename(file_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(file_.c_str());
    throw InputError(fmt::format("{} {}: cannot rename the finished file to it: {}", option_, path_, std::strerror(err)));
  }
}

}  // namespace torx::sw
