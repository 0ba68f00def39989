// SPDX-License-Identifier: Apache-2.0
// Someone else's router RTL on torx's testbench (torx run|cosim --rtl-router FILE.sv ...,
// docs/router-interface.md): the SV sources, the top and its parameters; the check of the top
// against the port contract (Verilator's XML of the elaborated top: every required port, its
// width, the parameters torx passes); and the factory that builds a network of those routers, each
// a Verilated model built on first use through the model cache (rtl_cache.hpp, key over the
// sources' content, the top and the parameters) and driven by hw/verilated_foreign_router.hpp with
// the link-protocol checker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hw/rtl_cache.hpp"
#include "hw/rtl_core.hpp"
#include "models/router_block.hpp"

namespace torx::rtl {

// What the command line says about the foreign router.
struct ForeignRouterOptions {
  std::vector<std::string> sources;  // --rtl-router FILE.sv ... (as given)
  std::string top;                   // --rtl-top; empty: the first source's file name without .sv
  std::vector<std::pair<std::string, int64_t>> params;  // --rtl-param NAME=VALUE (override torx's)
  bool check = true;                 // the link-protocol checker
};

// One row of the port contract (docs/router-interface.md, "Ports"): the table the check, the
// document's test and the harness read.
struct ContractPort {
  const char* name;
  const char* dir;      // "input" or "output"
  const char* width;    // in the document's words: "1", "P", "P*FlitW", "P*VcW", "32", ...
  bool required;
  const char* meaning;
};
const std::vector<ContractPort>& router_contract_ports();
// The parameters torx passes (docs/router-interface.md, "Parameters"): name, required, meaning.
struct ContractParam {
  const char* name;
  bool required;
  const char* meaning;
};
const std::vector<ContractParam>& router_contract_params();

// Parses "NAME=VALUE" (--rtl-param): sw::InputError naming the option otherwise.
std::pair<std::string, int64_t> parse_rtl_param(const std::string& text);

// Sets the process's foreign router (the sources resolved, the top named): sw::InputError for a
// missing or unreadable file. Until then, --model rtl runs torx_router.
void set_foreign_router(const ForeignRouterOptions& o);
bool foreign_router_set();
// "NAME (top T, sources S1 S2, hash H)", for reports; the top's name and the sources' hash apart.
std::string foreign_router_top();
std::string foreign_router_hash();
std::vector<std::string> foreign_router_sources();

// The model of the foreign router for routers of `shape` on `topo` whose routing images have the
// shape word `shape_word` (docs/routing-tables.md: word 2, dateline and order classes): its -G list
// is the contract's parameters the top declares, then --rtl-param. Checks the top against the contract first (once per
// shape): sw::InputError naming the missing port, the wrong width or the parameter the top lacks.
RtlModelSpec foreign_router_spec(const model::RouterShape& shape, const sw::Topology& topo, uint32_t shape_word);

// Makes the foreign routers of a network (no gossip mode: refused).
class ForeignRouterFactory final : public model::RouterFactory {
 public:
  std::unique_ptr<model::RouterCore> make(sw::NodeId v, const model::RouterShape& shape,
                                          const model::RoutingImage& image, const sw::Topology& topo) const override;
  std::unique_ptr<model::RouterCore> make_gossip(sw::NodeId v, const model::RouterShape& shape,
                                                 const model::RoutingImage& image, const model::GossipImage& gossip,
                                                 const sw::Topology& topo) const override;
};

}  // namespace torx::rtl
