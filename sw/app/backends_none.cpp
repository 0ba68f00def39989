// SPDX-License-Identifier: Apache-2.0
// A build without the models (-DTORX_BUILD_MODELS=OFF): only the step model runs.
#include <fmt/format.h>

#include "app/run.hpp"
#include "core/errors.hpp"

namespace torx::app {

bool model_available(ModelKind m) { return m == ModelKind::kStep; }

void check_model_limits(const RunRequest&) {}

std::unique_ptr<Backend> make_backend(ModelKind m) {
  throw sw::InputError(fmt::format("--model {}: this build has no such model", model_name(m)));
}

}  // namespace torx::app
