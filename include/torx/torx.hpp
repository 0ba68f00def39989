// SPDX-License-Identifier: Apache-2.0
// The public C++ API of torx (docs/api.md): a cycle-accurate wormhole torus network a testbench
// drives message by message (torx::Network), the schedules of the papers run and checked
// (Network::run_schedule), and errors as torx::Error. The SystemC component with TLM-2.0 sockets is
// include/torx/systemc.hpp (target torx::systemc).
#pragma once

#include "torx/error.hpp"
#include "torx/network.hpp"
#include "torx/version.hpp"
