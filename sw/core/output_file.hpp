// SPDX-License-Identifier: Apache-2.0
// Every file torx writes for a user (result documents, schedules, forwarding tables, SVG, CSV,
// waveforms) goes through OutputFile: one rule for all of them (issue 31).
//
// - "-" is standard output, for every output option.
// - A regular file (or a name that does not exist yet) is written to a temporary file beside it
//   (".NAME.torx-XXXXXX" in the same directory, so the rename cannot cross file systems) and renamed
//   over NAME only when every write, the flush and the close succeeded: a run that fails, is killed
//   or runs out of disk never leaves a fragment in place of a good file.
// - Where no file can be created beside an existing file (a writable file in a read-only
//   directory, /proc/self/fd/N), the file is written in place, without that protection.
// - An existing device or FIFO (/dev/null, /dev/full, a pipe) is written in place: there is nothing
//   to protect and nothing to rename over. Opening it writes zero bytes first, so a device that
//   refuses every write (/dev/full) is refused before the work starts.
// - The file is opened when the OutputFile is made: a command makes its outputs before its work, so
//   an output that cannot be written is exit 2 at once, not after minutes of simulation.
// - SIGINT, SIGTERM and SIGHUP remove the temporary files of the outputs still open (a list kept for
//   the signal handler, async-signal-safe) and then end the process by the same signal (a signal
//   the caller ignores, as nohup does, stays ignored); SIGXFSZ is ignored, so a file-size limit (ulimit -f) is
//   a write error with its reason (EFBIG) and not a silent death.
// Errors are InputError (exit 2) naming the option, the file and the operating system's reason.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace torx::sw {

// Installs the signal handlers above (idempotent). The CLI calls it first thing.
void install_output_signal_handlers();
// One of several MPI ranks (app/mpi.cpp): SIGTERM and SIGHUP, which mpirun sends to the surviving
// ranks when one dies, remove the temporary files, write `message` (kept, not copied: a string that
// lives as long as the process) on standard error and end the process with exit `code` instead of
// by the signal. SIGINT stays a death by signal.
void set_signal_exit(int code, const char* message);

// Refuses an output name that cannot be one: empty, or an existing directory. `option` names it.
void check_output_name(std::string_view option, const std::string& path);

class OutputFile {
 public:
  // Opens `path` for writing (see above); `option` ("--json", "-o") names it in messages.
  OutputFile(std::string option, std::string path);
  // Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends `text`; InputError on a write error.
  void write(std::string_view text);
  // Flushes, closes and renames the temporary file to the path; InputError (and the temporary file
  // removed) if any write, the flush, the close or the rename failed.
  void commit();
  // For writers that need a stdio stream (checked by commit()).
  std::FILE* stream() { return file_; }
  bool is_stdout() const { return path_ == "-"; }
  const std::string& path() const { return path_; }
  const std::string& option() const { return option_; }

 private:
  [[noreturn]] void fail(const char* what, int err);
  std::string option_;
  std::string path_;
  std::string temp_;  // empty: written in place (standard output, a device)
  int slot_ = -1;     // in the signal handler's list
  std::FILE* file_ = nullptr;
  bool done_ = false;
};

// A temporary name for a writer that creates its file itself (the SystemC VCD writer, Verilator's
// FST writer): reserved beside `path` (the file is created empty, registered for removal on a
// signal) and renamed to `path` by commit(); removed by the destructor otherwise.
class TempOutputPath {
 public:
  // `suffix` is appended to the temporary name (the VCD writer appends ".vcd" itself: pass it so the
  // name reserved is the name written).
  TempOutputPath(std::string option, std::string path, std::string_view suffix = {});
  ~TempOutputPath();
  TempOutputPath(const TempOutputPath&) = delete;
  TempOutputPath& operator=(const TempOutputPath&) = delete;
  // The temporary name without `suffix` (what to hand the writer) and with it (the file written).
  const std::string& base() const { return base_; }
  const std::string& file() const { return file_; }
  void commit();

 private:
  std::string option_, path_, base_, file_;
  int slot_ = -1;
  bool done_ = false;
};

}  // namespace torx::sw
