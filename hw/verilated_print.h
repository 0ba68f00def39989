// SPDX-License-Identifier: Apache-2.0
// Force-included into the Verilator runtime torx compiles once (hw/CMakeLists.txt): everything a
// Verilated model prints ($display, $error, a failed assertion's message, "Verilog $stop") goes
// to standard error. torx's standard output carries its own results (`--json -`, the cosim and run
// reports), which a model's messages must not interleave with; Verilator leaves VL_PRINTF to be
// redefined for this (verilated.h).
#pragma once
#include <cstdio>
#define VL_PRINTF(...) std::fprintf(stderr, __VA_ARGS__)
