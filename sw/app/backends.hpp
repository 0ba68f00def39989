// SPDX-License-Identifier: Apache-2.0
// Inside the application layer: what each model of this build offers. models.cpp holds the one table
// of models (which this build has, their back ends, their limits, torx cosim); cycle_backend.cpp
// implements the cycle and rtl back ends (the rtl one is the cycle one with Verilated routers and
// barrier units), cosim_rtl.cpp the co-simulation, traffic_models.cpp torx traffic. Nothing outside sw/app includes this header.
#pragma once

#include <memory>
#include <string_view>

#include "app/cosim.hpp"
#include "app/run.hpp"
#include "app/traffic.hpp"

namespace torx::model {
class RouterFactory;
class BarrierFactory;
struct CycleOptions;
}  // namespace torx::model

namespace torx::app {

struct ModelEntry {
  ModelKind kind;
  bool built;                                         // this build has the model
  const char* what;                                   // in words, for "this build has no ... model"
  std::unique_ptr<Backend> (*make)();                 // its back end (null for the step model)
  void (*check_sizes)(std::string_view, const sw::CostModel&);  // its flit and block sizes (null: any)
  void (*check_memory)(const RunRequest&);            // the network's memory estimate (null: none)
  CosimReport (*cosim)(const CosimRequest&);          // torx cosim against it (the rtl model only)
  void (*check_traffic)(const TrafficRequest&);       // torx traffic's model-side checks (null: no traffic)
  TrafficReport (*traffic)(const TrafficRequest&, const TrafficProgressFn&);  // torx traffic on it
};
// The entry of `m` (models.cpp).
const ModelEntry& model_entry(ModelKind m);

// cycle_backend.cpp: the cycle-accurate back end, with the C++ routers and barrier logic (null
// factories) or with the cores the factories make (the Verilated RTL); it owns the factories.
std::unique_ptr<Backend> make_cycle_backend(std::unique_ptr<const model::RouterFactory> routers,
                                            std::unique_ptr<const model::BarrierFactory> barriers);
// The model's options for what torx run and cosim share (parameters as run, cost, sync, seed, ports).
model::CycleOptions cycle_options(const NetworkRequest& r);
// The cycle-accurate models' flit and block sizes (torx run and cosim), naming `model` in the message.
void check_cycle_sizes(std::string_view model, const sw::CostModel& cost);
// The network alone, estimated before the schedule is generated, against the memory limit.
void check_cycle_memory(const RunRequest& r);

// traffic_models.cpp: torx traffic's checks that need the models (a pattern's requirements on the
// network, the matrix file, the memory estimate), and its runs on the network with the C++ routers
// (`routers` null) or the factory's.
void check_synthetic(const TrafficRequest& r);
TrafficReport run_synthetic(const TrafficRequest& r, const model::RouterFactory* routers,
                            const TrafficProgressFn& progress);

// cosim_rtl.cpp: runs a validated co-simulation request (the C++ routers against the Verilated RTL).
CosimReport run_rtl_cosim(const CosimRequest& r);

}  // namespace torx::app
