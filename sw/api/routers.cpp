// SPDX-License-Identifier: Apache-2.0
// The routers of the library's networks: the C++ router (model "cycle") or, when this build has hw/
// (TORX_HAVE_RTL), the Verilated RTL router (model "rtl"). The one place in sw/api that knows hw/.
#include <fmt/format.h>

#include "api/internal.hpp"
#include "core/errors.hpp"
#ifdef TORX_HAVE_RTL
#include "hw/rtl_router.hpp"
#endif

namespace torx::api {

std::unique_ptr<const model::RouterFactory> make_router_factory(const std::string& model) {
  if (model == "cycle") return nullptr;
#ifdef TORX_HAVE_RTL
  if (model == "rtl") return std::make_unique<rtl::RtlRouterFactory>();
#endif
  throw sw::InputError(fmt::format("--model {}: this build has no such model", model));
}

bool has_rtl() {
#ifdef TORX_HAVE_RTL
  return true;
#else
  return false;
#endif
}

}  // namespace torx::api
