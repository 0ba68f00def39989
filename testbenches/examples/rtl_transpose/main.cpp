// SPDX-License-Identifier: Apache-2.0
// Example (c): the transpose of example (a) on the 8x8 torus with torx's Verilated RTL routers
// (model "rtl"), and the same with the C++ routers: both follow docs/timing-contract.md cycle for
// cycle, so every message must be delivered in the same cycle. If the installed torx was built
// without the RTL (-DTORX_BUILD_RTL=OFF), it says so and exits 0.
#include <torx/torx.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace {
std::map<uint64_t, uint64_t> run(const std::string& model) {
  torx::NetworkConfig cfg;
  cfg.topology = "8x8";
  cfg.model = model;
  torx::Network net(cfg);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      if (x != y) net.inject(net.node({x, y}), net.node({y, x}), 256);
  net.run_until_idle(100000);
  std::map<uint64_t, uint64_t> cycles;
  for (const torx::Delivery& d : net.take_deliveries()) cycles[d.id] = d.intact ? d.cycle : UINT64_MAX;
  return cycles;
}
}  // namespace

int main() {
  try {
    const std::vector<std::string> models = torx::Network::models();
    if (std::find(models.begin(), models.end(), "rtl") == models.end()) {
      std::printf("skipped: this torx was built without the RTL routers (-DTORX_BUILD_RTL=OFF): models:");
      for (const std::string& m : models) std::printf(" %s", m.c_str());
      std::printf("\n");
      return 0;
    }
    const auto rtl = run("rtl"), cycle = run("cycle");
    uint64_t last = 0;
    for (const auto& [id, c] : rtl) last = std::max(last, c);
    std::printf("rtl: %zu messages, the last delivered in cycle %llu; cycle model: %s\n", rtl.size(),
                static_cast<unsigned long long>(last), rtl == cycle ? "the same cycles" : "DIFFERENT cycles");
    return rtl == cycle && rtl.size() == 56 ? 0 : 1;
  } catch (const torx::Error& e) {
    std::fprintf(stderr, "rtl_transpose: %s\n", e.what());
    return e.exit_code();
  }
}
