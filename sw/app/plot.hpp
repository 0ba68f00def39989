// SPDX-License-Identifier: Apache-2.0
// `torx plot`: pictures of a result document (torx.result/1, docs/cli.md), as SVG written here (no
// plotting library, no Python):
//   links  the traffic of every directed router-to-router link (cycle_model.link_flits) on the
//          torus layout: a 1D or 2D network directly, a 3D one as one panel per z slice (its z links
//          as two marks in each node); each link a segment beside its partner, coloured by flits.
//   steps  a Gantt chart of the steps: per step a bar from its start to its end (cycle and rtl
//          models: cycle_model.step_start/step_end; step model: timing.step_cycles back to back),
//          the part of a bar beyond the step model's contention-free cost of that step (time lost
//          to blocking) in red, the barriers between steps as grey bands, and the run's blocked
//          VC-cycles, barriers and cycles in the caption.
#pragma once

#include <string>

#include "core/names.hpp"

namespace torx::app {

enum class PlotKind { kLinks, kSteps };
// The pictures by name, with what each shows (torx plot KIND; its error lists them).
inline constexpr sw::Named<PlotKind> kPlotKinds[] = {{PlotKind::kLinks, "links"}, {PlotKind::kSteps, "steps"}};

// The SVG of `kind` for the result document `json_text` (the text `torx run --json` writes).
// Throws sw::InputError naming what is missing or wrong (not a result document; links of a run
// without per-link traffic, i.e. not the cycle or rtl model; a network of more than 3 dimensions or
// more than 65536 nodes).
std::string plot_svg(PlotKind kind, const std::string& json_text, const std::string& origin);

}  // namespace torx::app
