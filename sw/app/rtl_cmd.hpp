// SPDX-License-Identifier: Apache-2.0
// torx rtl: the cache of on-demand Verilated models (docs/rtl.md, "Models on demand") as the command
// line manages it: where it is (--rtl-cache), what it holds (list), emptying it (clean), filling it
// ahead of a sweep (build: the models a run needs, or the catalog's), and the Verilator parameters
// of the catalog's configurations (params: what lint checks). In a build without the RTL every call
// but rtl_available() is an sw::InputError.
#pragma once

#include <string>
#include <vector>

#include "app/run.hpp"

namespace torx::app {

bool rtl_available();
// --rtl-cache DIR (empty: $TORX_RTL_CACHE, $XDG_CACHE_HOME/torx/rtl, ~/.cache/torx/rtl).
void set_rtl_cache(const std::string& dir);
// The cache's entries as text (one line each) or as JSON (torx.rtl-cache/1).
std::string rtl_list(bool json);
// Removes the entries whose directory name contains `filter` (all when empty); returns the text to print.
std::string rtl_clean(const std::string& filter);
// Builds (or finds) every model the run of `req` needs (its routers, gossip routers, barrier units)
// without simulating them; returns one line per model.
std::string rtl_build_run(RunRequest req);
// The models the run of `req` would use, one line each as rtl_catalog_params() prints them; builds
// nothing (the run goes through the C++ routers).
std::string rtl_params_run(RunRequest req);
// Builds (or finds) the catalog's models whose names are in `names` (all when empty).
std::string rtl_build_catalog(const std::vector<std::string>& names);
// One line per catalog configuration: NAME TOP -GName=value ... (the Verilator parameter list).
std::string rtl_catalog_params();

}  // namespace torx::app
