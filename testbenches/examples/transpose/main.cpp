// SPDX-License-Identifier: Apache-2.0
// Example (a): an 8x8 torus of torx's cycle-accurate routers; every node (x, y) sends 256 bytes to
// (y, x) in cycle 0 (the transpose pattern); prints each message's latency and a summary. Built
// against the installed package only (find_package(torx)). Exit code 1 if a byte arrived wrong.
#include <torx/torx.hpp>

#include <cstdio>

int main() {
  try {
    torx::NetworkConfig cfg;
    cfg.topology = "8x8";
    torx::Network net(cfg);
    std::printf("torx %s: %d nodes, model %s\n", torx::kVersion, net.nodes(), cfg.model.c_str());
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x)
        if (x != y) net.inject(net.node({x, y}), net.node({y, x}), 256);
    if (!net.run_until_idle(100000)) {
      std::printf("not idle after 100000 cycles\n");
      return 1;
    }
    uint64_t sum = 0, max = 0, bad = 0, n = 0;
    for (const torx::Delivery& d : net.take_deliveries()) {
      const std::vector<int> s = net.coords(d.src), t = net.coords(d.dst);
      if (d.src < 8 || d.src % 9 == 1)  // a sample: row 0 and one off-diagonal
        std::printf("(%d,%d) -> (%d,%d): %llu bytes, head left in cycle %llu, delivered in cycle %llu, latency %llu\n",
                    s[0], s[1], t[0], t[1], static_cast<unsigned long long>(d.bytes),
                    static_cast<unsigned long long>(d.head), static_cast<unsigned long long>(d.cycle),
                    static_cast<unsigned long long>(d.latency()));
      sum += d.latency();
      max = d.latency() > max ? d.latency() : max;
      bad += !d.intact;
      ++n;
    }
    const torx::Figures f = net.figures();
    std::printf("%llu messages, latency mean %.2f max %llu cycles, %llu flit hops, %llu blocked VC-cycles, %llu corrupted\n",
                static_cast<unsigned long long>(n), static_cast<double>(sum) / static_cast<double>(n),
                static_cast<unsigned long long>(max), static_cast<unsigned long long>(f.flit_hops),
                static_cast<unsigned long long>(f.blocked_cycles), static_cast<unsigned long long>(bad));
    return bad == 0 && n == 56 ? 0 : 1;
  } catch (const torx::Error& e) {
    std::fprintf(stderr, "transpose: %s\n", e.what());
    return e.exit_code();
  }
}
