// SPDX-License-Identifier: Apache-2.0
#include "models/router_block.hpp"

#include <fmt/format.h>

namespace torx::model {

std::string RouterBlock::port_name(int port, bool input) const {
  const int np = shape().network_ports();
  if (port < np) return sw::Topology::port_name(port);
  return fmt::format("{}{}", input ? "inj" : "ej", port - np);
}

}  // namespace torx::model
