// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the readers on inputs far larger than a fuzzer's (libFuzzer's inputs are capped at
// 64 KiB): the schedule reader (sw/core/schedule_io), the forwarding-table reader
// (sw/core/forwarding_table) and torx plot's document reader (sw/app/plot). The fuzzer's bytes are
// a recipe, expanded lazily into a stream of up to 2 GiB without holding it:
//   byte 0      the reader (mod 3: schedule, forwarding tables, plot)
//   bytes 1-4   a repeat count R (little endian)
//   byte 5      the length H of the head
//   then        the head (H bytes), then the body (the rest), the stream being head + body x R
// so that an endless line, a file of comments, a document of a billion brackets or a NUL-filled
// device are a few bytes away. Each reader must accept or throw InputError within bounded memory
// (libFuzzer's -rss_limit_mb and -malloc_limit_mb catch an allocation that grows with the stream),
// stop at its caps (1 MiB lines, 1 GiB of forwarding tables, 64 MiB of plot document) and quote at
// most a short excerpt of the input in its message.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <streambuf>
#include <string>

#include "app/plot.hpp"
#include "core/errors.hpp"
#include "core/forwarding_table.hpp"
#include "core/schedule_io.hpp"

namespace {

using namespace torx;

constexpr uint64_t kMaxStream = uint64_t{2} << 30;     // 2 GiB
constexpr uint64_t kMaxScheduleStream = uint64_t{64} << 20;  // the schedule reader has no total cap: a
                                                             // larger stream is only slower

// head + body x repeat, produced on demand.
struct Recipe {
  std::string head, body;
  uint64_t total = 0;  // bytes in the stream
  uint64_t pos = 0;
  size_t read(char* out, size_t want) {
    size_t n = 0;
    while (n < want && pos < total) {
      const uint64_t h = head.size();
      const char* src;
      size_t avail;
      if (pos < h) {
        src = head.data() + pos;
        avail = static_cast<size_t>(h - pos);
      } else {
        const uint64_t off = (pos - h) % body.size();
        src = body.data() + off;
        avail = static_cast<size_t>(body.size() - off);
      }
      avail = static_cast<size_t>(std::min<uint64_t>({avail, want - n, total - pos}));
      std::memcpy(out + n, src, avail);
      n += avail;
      pos += avail;
    }
    return n;
  }
};

class RecipeBuf : public std::streambuf {
 public:
  explicit RecipeBuf(Recipe& r) : r_(r) {}

 protected:
  int_type underflow() override {
    const size_t n = r_.read(buf_, sizeof buf_);
    if (n == 0) return traits_type::eof();
    setg(buf_, buf_, buf_ + n);
    return traits_type::to_int_type(buf_[0]);
  }

 private:
  Recipe& r_;
  char buf_[1 << 16];
};

ssize_t cookie_read(void* c, char* buf, size_t size) { return static_cast<ssize_t>(static_cast<Recipe*>(c)->read(buf, size)); }

class NullSink : public sw::ScheduleSink {
 public:
  void begin(const sw::ScheduleHeader&) override {}
  void step(const sw::Step&) override {}
  void end() override {}
};

void check_message(const sw::InputError& e) {
  const size_t n = std::strlen(e.what());
  if (n > 4096) {
    std::fprintf(stderr, "a message of %zu bytes quotes the input at length: %.200s\n", n, e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 7) return 0;
  const int reader = data[0] % 3;
  uint32_t repeat = 0;
  std::memcpy(&repeat, data + 1, 4);
  const size_t h = std::min<size_t>(data[5], size - 6);
  Recipe r;
  r.head.assign(reinterpret_cast<const char*>(data + 6), h);
  r.body.assign(reinterpret_cast<const char*>(data + 6 + h), size - 6 - h);
  if (r.body.empty()) r.body = std::string(1, '\0');
  const uint64_t cap = reader == 0 ? kMaxScheduleStream : kMaxStream;
  r.total = std::min<uint64_t>(cap, r.head.size() + static_cast<uint64_t>(repeat) * r.body.size());
  try {
    if (reader == 0) {
      cookie_io_functions_t io{cookie_read, nullptr, nullptr, nullptr};
      std::FILE* f = fopencookie(&r, "r", io);
      if (!f) return 0;
      NullSink sink;
      try {
        sw::read_schedule(f, "fuzz.sched", nullptr, sink);
      } catch (...) {
        std::fclose(f);
        throw;
      }
      std::fclose(f);
    } else if (reader == 1) {
      RecipeBuf buf(r);
      std::istream in(&buf);
      sw::read_forwarding_table(in, "fuzz.tab");
    } else {
      cookie_io_functions_t io{cookie_read, nullptr, nullptr, nullptr};
      std::FILE* f = fopencookie(&r, "r", io);
      if (!f) return 0;
      std::string text;
      try {
        text = app::read_plot_stream(f, "fuzz.json");
      } catch (...) {
        std::fclose(f);
        throw;
      }
      std::fclose(f);
      app::plot_documents(app::PlotKind::kSteps, {{"fuzz.json", text}});
    }
  } catch (const sw::InputError& e) {
    check_message(e);
  } catch (const sw::WatchdogError&) {
  }
  return 0;
}
