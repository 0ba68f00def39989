// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of the image fuzz targets: the routing images (build_routing_image, every
// routing configuration) and barrier images (build_barrier_tree) of a few nodes of several small
// tori and meshes, in the layout of image_input.hpp.
//   image_seeds ROUTING_DIR BARRIER_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "image_input.hpp"
#include "models/barrier.hpp"
#include "models/routing_table.hpp"

int main(int argc, char** argv) {
  using namespace torx;
  if (argc != 3) {
    std::fprintf(stderr, "usage: image_seeds ROUTING_DIR BARRIER_DIR\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  std::filesystem::create_directories(argv[2]);
  const std::vector<std::pair<std::vector<int>, bool>> shapes = {
      {{4}, true}, {{5}, false}, {{4, 4}, true}, {{3, 5}, false}, {{2, 3, 4}, true}, {{8, 8}, true}, {{16}, false}};
  int files = 0;
  auto put = [&](const char* dir, const std::string& name, const std::string& bytes) {
    std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << bytes;
    ++files;
  };
  for (const auto& [radix, wrap] : shapes) {
    const sw::Topology topo(radix, wrap);
    const std::string shape = topo.dims_string() + (wrap ? "t" : "m");
    const model::BarrierTree tree = model::build_barrier_tree(topo);
    for (sw::NodeId node : {sw::NodeId{0}, topo.nodes() / 2, topo.nodes() - 1, tree.root}) {
      for (int dateline : {1, 2}) {
        for (int order : {1, topo.ndims()}) {
          for (bool all_port : {false, true}) {
            const model::RoutingConfig cfg{wrap ? dateline : 1, order, all_port};
            put(argv[1],
                shape + "_n" + std::to_string(node) + "_d" + std::to_string(dateline) + "_o" + std::to_string(order) +
                    (all_port ? "_all" : "_one"),
                fuzz::encode_image_input(topo, node, false, 0x5, model::build_routing_image(topo, node, cfg)));
          }
        }
      }
      put(argv[2], shape + "_n" + std::to_string(node),
          fuzz::encode_image_input(topo, node, false, 0, tree.images[static_cast<size_t>(node)]));
    }
  }
  std::printf("wrote %d seed images\n", files);
  return 0;
}
