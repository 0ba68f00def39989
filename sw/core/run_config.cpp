// SPDX-License-Identifier: Apache-2.0
#include "core/run_config.hpp"

namespace torx::sw {

namespace {
constexpr std::pair<SyncMode, std::string_view> kSyncNames[] = {{SyncMode::kNone, "none"},
                                                                 {SyncMode::kBarrier, "barrier"},
                                                                 {SyncMode::kLocal, "local"},
                                                                 {SyncMode::kSoftware, "software"},
                                                                 {SyncMode::kPriority, "priority"}};
}  // namespace

std::string_view sync_mode_name(SyncMode m) {
  for (const auto& [mode, name] : kSyncNames)
    if (mode == m) return name;
  return "?";
}

std::optional<SyncMode> parse_sync_mode(std::string_view text) {
  for (const auto& [mode, name] : kSyncNames)
    if (name == text) return mode;
  return std::nullopt;
}

}  // namespace torx::sw
