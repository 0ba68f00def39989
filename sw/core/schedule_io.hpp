// SPDX-License-Identifier: Apache-2.0
// The schedule file: a versioned, human-readable text format (docs/schedule-format.md).
//
//   torx-schedule 1
//   algorithm ring
//   collective alltoall
//   topology 16 torus
//   ports one
//   switching wormhole
//   steps 6
//   step GP0
//   1 -> 2 x+ | 1>2..9
//   ...
//   end
//
// Both directions stream: the writer is a ScheduleSink, the reader feeds any ScheduleSink, so
// neither ever holds a whole schedule. Every error names the file, the line and what is wrong.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "core/schedule.hpp"

namespace torx::sw {

inline constexpr int kScheduleFormatVersion = 1;
// The longest line the format allows, newline excluded (docs/schedule-format.md). The reader refuses
// a longer line as soon as it has read this much of it, so a file without newlines cannot make it
// hold more than this plus one read chunk; the writer refuses to write one. The longest line torx's
// generators write is about 16 KB (ring on 4096 nodes: 1024 boxes in one message).
inline constexpr size_t kMaxScheduleLineBytes = size_t{1} << 20;

class OutputFile;

class ScheduleWriter : public ScheduleSink {
 public:
  // Opens `path` for writing ("-" is standard output; a file is written beside it and renamed by
  // end(), core/output_file.hpp). Throws InputError if it cannot.
  explicit ScheduleWriter(const std::string& path, std::string comment = {});
  ~ScheduleWriter() override;
  ScheduleWriter(const ScheduleWriter&) = delete;
  ScheduleWriter& operator=(const ScheduleWriter&) = delete;

  void begin(const ScheduleHeader& header) override;
  void step(const Step& step) override;
  void end() override;

 private:
  void flush_buffer();
  std::string path_;
  std::string comment_;
  std::unique_ptr<OutputFile> out_;
  std::string buf_;
  ScheduleHeader header_;
  std::unique_ptr<Topology> topo_;
  std::unique_ptr<BlockSpace> space_;
  int64_t steps_written_ = 0;
};

// Reads `path` and feeds `sink`. If `expected` is given, the file's topology must equal it.
// Returns the header. Throws InputError "path:line: what" on any malformed input.
ScheduleHeader read_schedule(const std::string& path, const Topology* expected, ScheduleSink& sink);

// The same from an open stream (not closed); `name` stands for it in messages ("name:line: what").
ScheduleHeader read_schedule(std::FILE* file, const std::string& name, const Topology* expected, ScheduleSink& sink);

// Reads only the header (up to the first step), e.g. to learn the topology of a file.
ScheduleHeader read_schedule_header(const std::string& path);

}  // namespace torx::sw
