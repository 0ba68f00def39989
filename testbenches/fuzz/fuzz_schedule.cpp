// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the schedule reader (sw/core/schedule_io) on arbitrary bytes. The reader must accept
// the input or throw sw::InputError; what it accepts is run through the step model (tracking every
// block when that takes at most 64 MiB, counting only otherwise) and the checker; the step model may
// refuse it (InputError) or stop at its memory limit (WatchdogError). Then the accepted schedule is
// written, read back and written again: the two texts must be identical (the writer writes only
// what the reader reads, and reading loses nothing the writer writes).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/checker.hpp"
#include "core/schedule_io.hpp"
#include "core/step_model.hpp"

namespace {

using namespace torx::sw;

// Runs the step model on the topology the header names, as `torx run --schedule` (or `torx stats`)
// does, and keeps the whole schedule. A refusal by the step model (a block not held, a limit) ends
// the step model's part; the reader goes on, so that the round trip sees every schedule the reader
// accepts.
class StepRun : public ScheduleSink {
 public:
  void begin(const ScheduleHeader& h) override {
    topo_ = std::make_unique<Topology>(h.dims, h.wrap);
    whole_.begin(h);
    // Track every block if that fits in 64 MiB, else count only (as `torx stats`) within 256 MiB:
    // the step model estimates its memory before allocating and refuses more (WatchdogError).
    for (const bool track : {true, false}) {
      StepModelOptions o;
      o.origin = "fuzz.sched";
      o.track_blocks = track;
      o.memory_limit_bytes = track ? uint64_t{64} << 20 : uint64_t{256} << 20;
      model_ = std::make_unique<StepModel>(*topo_, o);
      alive_ = true;
      tracking_ = track;
      try {
        model_->begin(h);
        return;
      } catch (const InputError&) {  // e.g. block state beyond 2^63 bytes: counting may still do
        alive_ = false;
      } catch (const WatchdogError&) {
        alive_ = false;
      }
    }
  }
  void step(const Step& s) override {
    whole_.step(s);
    guarded([&] { model_->step(s); });
  }
  void end() override {
    whole_.end();
    guarded([&] {
      model_->end();
      if (tracking_) check_delivery(*model_);
    });
  }
  const Schedule& schedule() const { return whole_; }

 private:
  template <class F>
  void guarded(F&& f) {
    if (!alive_) return;
    try {
      f();
    } catch (const InputError&) {
      alive_ = false;
    } catch (const WatchdogError&) {
      alive_ = false;
    }
  }
  std::unique_ptr<Topology> topo_;
  std::unique_ptr<StepModel> model_;
  bool alive_ = false;     // the step model runs and has refused nothing so far
  bool tracking_ = false;
  Schedule whole_;
};

// An anonymous in-memory file, named by a path the writer and the reader can open.
class MemFile {
 public:
  MemFile() : fd_(memfd_create("torx-fuzz", 0)), path_("/proc/self/fd/" + std::to_string(fd_)) {
    if (fd_ < 0) std::abort();
  }
  ~MemFile() { close(fd_); }
  const std::string& path() const { return path_; }
  std::string contents() const {
    std::string s;
    std::FILE* f = std::fopen(path_.c_str(), "rb");
    if (!f) std::abort();
    char buf[65536];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, got);
    std::fclose(f);
    return s;
  }

 private:
  int fd_;
  std::string path_;
};

// Writes a schedule; false if the writer refused it (only a line beyond the format's limit may be).
bool write(const Schedule& s, const std::string& path) {
  try {
    ScheduleWriter w(path);
    s.replay(w);
  } catch (const InputError& e) {
    if (std::string(e.what()).find("would be a line of") != std::string::npos) return false;
    std::fprintf(stderr, "the writer refused an accepted schedule: %s\n", e.what());
    std::abort();
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::FILE* in = size ? fmemopen(const_cast<uint8_t*>(data), size, "rb") : std::fopen("/dev/null", "rb");
  if (!in) std::abort();
  StepRun run;
  bool accepted = true;
  try {
    read_schedule(in, "fuzz.sched", nullptr, run);
  } catch (const InputError&) {
    accepted = false;
  } catch (const WatchdogError&) {
    accepted = false;
  }
  std::fclose(in);
  if (!accepted) return 0;
  MemFile first, second;
  if (!write(run.schedule(), first.path())) return 0;
  Schedule again;
  try {
    read_schedule(first.path(), nullptr, again);
  } catch (const InputError& e) {
    std::fprintf(stderr, "the reader refused what the writer wrote: %s\n--- written:\n%s\n", e.what(),
                 first.contents().c_str());
    std::abort();
  }
  if (!write(again, second.path())) std::abort();
  const std::string a = first.contents(), b = second.contents();
  if (a != b) {
    std::fprintf(stderr, "write, read, write differs:\n--- first:\n%s\n--- second:\n%s\n", a.c_str(), b.c_str());
    std::abort();
  }
  return 0;
}
