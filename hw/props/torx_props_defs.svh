// SPDX-License-Identifier: Apache-2.0
// torx_props_defs: the switch and the assertion macro of the property files (hw/props/*_props.svh,
// docs/verification.md). Each unit includes its property file just before `endmodule`, so the
// properties see the unit's registers without hierarchical names (yosys 0.23 ignores `bind` and
// hierarchical references; Verilator 5.006 accepts both, but one mechanism serves both tools).
//   in Verilator (neither SYNTHESIS nor FORMAL): TORX_PROPS on; a failed property is $error, which the
//     harness turns into an exception (hw/verilated_harness.hpp): torx exits 4 ("internal error: an
//     RTL assertion of router N failed") after the message naming the property.
//   yosys -formal (FORMAL): TORX_PROPS on; a property is a plain immediate assert for yosys-smtbmc
//     (read_verilog -formal has no action blocks).
//   synthesis (yosys without -formal defines SYNTHESIS; scripts/synth.py): off, no logic added.
//   TORX_PROPS_OFF (a Verilated model built without them: TORX_RTL_PROPS_PORTS, docs/rtl.md "Build
//     time"): off, as in synthesis.
// Waveforms: each property file turns Verilator's tracing off for its own signals (the previous
// cycle's copies, counters, per-lane wires), `/* verilator tracing_off */` after its `ifdef TORX_PROPS
// and on again at its end: they doubled the trace code of a large router (the all-port 3D router with
// K = 4: 7.1 MB of the generated C++ with them, 3.7 MB without; docs/rtl.md, "Build time"), and a
// failed property names its values in its message. The units' own signals are traced as before.
// Every property is an immediate assertion in a clocked block, checked only when the unit was out of
// reset in the previous cycle as well (props_up_q), so the previous cycle's values are defined; the
// reset-state properties are checked in the first cycle after reset.
//
// Sampling: a property that needs the previous cycle's value of a signal keeps it in a register of
// its own (`x_p_q <= x` in an always_ff), never $past. Verilator 5.006 implements $past(x) with a copy
// of x taken at the very start of eval(), before the combinational logic of the top-level inputs
// changed since the last eval() has settled. The network harness sets a cycle's inputs between the
// falling and the rising edge's eval() (hw/verilated_harness.hpp, begin_cycle/end_cycle), so $past of
// a signal that depends on a port (a switch grant, a traversal: credit_valid_i feeds credit_ok) was
// the value under the previous cycle's inputs: ou_link_vc, iu_credit, ou_owner_held and
// iu_active_held fired on t4 16x16 (--model rtl) at a router that was working correctly. A register
// samples the settled value at the edge, as the unit's own registers do, in both tools.
`ifndef TORX_PROPS_DEFS_SVH_
`define TORX_PROPS_DEFS_SVH_
`ifdef FORMAL
  `define TORX_PROPS
  `define TORX_ASSERT(c, m) assert (c);
`elsif SYNTHESIS
`elsif TORX_PROPS_OFF
`else
  `define TORX_PROPS
  `define TORX_ASSERT(c, m) assert (c) else $error m;
`endif
`endif  // TORX_PROPS_DEFS_SVH_
