// SPDX-License-Identifier: Apache-2.0
#include "models/check.hpp"

#include <stdexcept>
#include <string>

namespace torx::model {

void check_failed(const char* what, const char* condition) {
  throw std::logic_error(std::string("internal error: ") + what + " [" + condition + "]");
}

}  // namespace torx::model
