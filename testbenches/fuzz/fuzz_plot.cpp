// SPDX-License-Identifier: Apache-2.0
// Fuzz target: torx plot's document reader (sw/app/plot: the JSON parse with its depth cap and the
// schema check of result and traffic documents) on arbitrary bytes, as each picture. Every input
// must give an SVG or an InputError (never another exception, undefined behaviour or a crash), and
// an error message quotes at most a short excerpt of the input (issue 31).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/plot.hpp"
#include "core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace torx;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (app::PlotKind kind : {app::PlotKind::kLinks, app::PlotKind::kSteps, app::PlotKind::kLatency}) {
    try {
      const std::string svg = app::plot_documents(kind, {{"fuzz.json", text}});
      if (svg.rfind("<svg", 0) != 0 && svg.rfind("<?xml", 0) != 0) {
        std::fprintf(stderr, "plot returned something that is not an SVG:\n%s\n", svg.substr(0, 200).c_str());
        std::abort();
      }
    } catch (const sw::InputError& e) {
      if (std::string(e.what()).size() > 2048) {
        std::fprintf(stderr, "a message of %zu bytes: the input is quoted at length\n", std::string(e.what()).size());
        std::abort();
      }
    }
  }
  return 0;
}
