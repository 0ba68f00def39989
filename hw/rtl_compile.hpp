// SPDX-License-Identifier: Apache-2.0
// The compile step of an on-demand RTL model (hw/rtl_cache.cpp, docs/rtl.md "Build time"), apart
// from the cache so that any Verilator output (a user's own router) can be compiled the same way:
// unity files per group of generated sources, each group at its own optimisation level, the
// compiler processes in parallel, one shared object without the Verilator runtime. Not part of the
// kit (the factory does not include it): changing it does not change the models' keys.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace torx::rtl {

// One compile of a Verilated model into a shared object (what RtlCache::build runs after Verilator;
// callable for any Verilator output, e.g. a user's own router): every .cpp in obj_dir (Verilator's
// -Mdir) is compiled with the project's model flags (kModelCxxFlags, the level per group of
// docs/rtl.md "Build time"), `jobs` compiler processes at a time, and linked into shared_object
// without the Verilator runtime (the executable exports it). Files named in `alone` (and
// torx_factory.cpp) are compiled each as a unit of their own. The compiler's output goes to `log`.
struct ModelCompile {
  std::filesystem::path obj_dir;
  std::filesystem::path shared_object;
  std::filesystem::path log;
  std::vector<std::string> defines;                  // NAME or NAME=VALUE
  std::vector<std::filesystem::path> include_dirs;   // beyond obj_dir and Verilator's include/
  std::vector<std::string> alone;                    // file names in obj_dir
  int jobs = 0;                                      // 0: the CPUs this process may use
  std::string name;                                  // for the progress line
  bool progress = true;
};
// "" when model.so was written, else what failed (the log says more). Missing tools: sw::InputError.
std::string compile_model(const ModelCompile& mc);

// The number of compiler processes a build runs by default: the CPUs this process may use.
int default_build_jobs();

}  // namespace torx::rtl
