// SPDX-License-Identifier: Apache-2.0
// The vocabulary every model and the application share about a run: the cost model that turns the
// papers' t_s and t_x into cycles, and how phases are synchronised. The application layer validates
// the command line's words once into these typed values (app::validate_request, sw/app/run.hpp); the
// models take them as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/names.hpp"

namespace torx::sw {

// t_s + m t_x in cycles: a message of m blocks costs ts_cycles + ceil(m block_bytes / flit_bytes)
// cycles in the step model, and is a worm of that many flits in the cycle and RTL models.
struct CostModel {
  uint32_t block_bytes = 64;  // one block, the unit an algorithm moves
  uint32_t flit_bytes = 16;   // link width: one flit per cycle per link (t_x = 1 / flit_bytes)
  uint64_t ts_cycles = 100;   // startup of a send, charged by the sending interface
};

// How the cycle and RTL models separate a schedule's phases (docs/cycle-model.md, --sync).
enum class SyncMode : uint8_t {
  kNone,      // nothing: a node starts its next send as soon as it can
  kBarrier,   // the hardware barrier network at the schedule's marked boundaries
  kLocal,     // null messages between the node pairs that must be ordered (seed 000, Section 7.2)
  kSoftware,  // a dissemination barrier of null messages on the data network
  kPriority,  // no synchronization; earlier phases get higher priority (seed 000, Section 7.3)
};
// --sync's names: parsing, help and errors read this table (core/names.hpp).
inline constexpr Named<SyncMode> kSyncModes[] = {{SyncMode::kNone, "none"},
                                                 {SyncMode::kBarrier, "barrier"},
                                                 {SyncMode::kLocal, "local"},
                                                 {SyncMode::kSoftware, "software"},
                                                 {SyncMode::kPriority, "priority"}};
constexpr std::string_view sync_mode_name(SyncMode m) { return name_of(kSyncModes, m); }
// Parses "none", "barrier", ...; nullopt if the text names no mode.
constexpr std::optional<SyncMode> parse_sync_mode(std::string_view text) { return value_named(kSyncModes, text); }

}  // namespace torx::sw
