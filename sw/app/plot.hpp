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
//   latency  latency against offered load from traffic documents (torx.traffic/1, torx traffic
//          --json): one curve per document, mean packet latency solid and network latency dashed,
//          saturated runs as open markers (clipped to the top edge when off the scale); several
//          documents on one plot compare settings (VCs, buffer depths, pipelines, models), each
//          curve named by its label or, without one, by the settings in which it differs.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/names.hpp"

namespace torx::app {

enum class PlotKind { kLinks, kSteps, kLatency };
// The pictures by name (torx plot KIND; its error lists them).
inline constexpr sw::Named<PlotKind> kPlotKinds[] = {
    {PlotKind::kLinks, "links"}, {PlotKind::kSteps, "steps"}, {PlotKind::kLatency, "latency"}};

// The SVG of `kind` for the result document `json_text` (the text `torx run --json` writes).
// Throws sw::InputError naming what is missing or wrong (not a result document; links of a run
// without per-link traffic, i.e. not the cycle or rtl model; a network of more than 3 dimensions or
// more than 65536 nodes).
std::string plot_svg(PlotKind kind, const std::string& json_text, const std::string& origin);
// The latency plot of one or more traffic documents: (origin, text) pairs. Throws sw::InputError
// naming the document that is not a traffic document or has no runs.
std::string plot_latency_svg(const std::vector<std::pair<std::string, std::string>>& docs);
// torx plot: `kind` of the documents, (origin, text) pairs: links and steps take exactly one, latency
// one or more (each origin given once). Throws sw::InputError naming what is wrong.
std::string plot_documents(PlotKind kind, const std::vector<std::pair<std::string, std::string>>& docs);

// The size limit of a document torx plot reads (the documents torx writes are far smaller):
// 64 MiB of JSON parse into at most about 1 GiB of nodes (16 bytes or more per value).
inline constexpr size_t kMaxPlotDocumentBytes = size_t{64} << 20;
// Reads a document from an open stream (`name` in messages): in chunks, refused (InputError) beyond
// kMaxPlotDocumentBytes, so an endless input (`yes '[' | torx plot steps -`) costs at most that.
std::string read_plot_stream(std::FILE* f, const std::string& name);
// A document from a regular file `path`, or standard input for "-".
std::string read_plot_input(const std::string& path);

}  // namespace torx::app
