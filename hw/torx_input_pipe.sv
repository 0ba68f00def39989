// SPDX-License-Identifier: Apache-2.0
// torx_input_pipe: stages 1 .. P-1 of a router input port, P-1 registers that never stall (C++ twin:
// the input link's latency line, models/input_unit.hpp). Used by torx_input_unit and by
// torx_gossip_router's input ports.
//
// Cycle contract: a flit on flit_i in cycle t is on wr_flit_o in cycle t+P-1 (P = 1: in t, no
// register). empty_o: no flit in a stage register. The flit registers are not reset: pipe_valid_q
// qualifies them.
//
// Parameters:
//   PipelineStages  P >= 1
//   FlitW           flit width
`ifndef TORX_INPUT_PIPE_SV_
`define TORX_INPUT_PIPE_SV_

module torx_input_pipe #(
  parameter int unsigned PipelineStages = 2,
  parameter int unsigned FlitW = 128
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flit_valid_i,  // cycle t: a flit arrives
  input  logic [FlitW-1:0] flit_i,        // cycle t: the flit
  output logic             wr_valid_o,    // cycle t: the flit that arrived in t-P+1 leaves the pipeline
  output logic [FlitW-1:0] wr_flit_o,     // cycle t: that flit
  output logic             empty_o        // cycle t: no flit in a stage register
);

  if (PipelineStages == 1) begin : gen_no_pipe
    assign wr_valid_o = flit_valid_i;
    assign wr_flit_o = flit_i;
    assign empty_o = 1'b1;
    logic unused_clk;  // no register
    assign unused_clk = clk_i ^ rst_ni;
  end else begin : gen_pipe
    localparam int unsigned Regs = PipelineStages - 1;
    logic [Regs-1:0] pipe_valid_q, pipe_valid_d;
    logic [Regs*FlitW-1:0] pipe_flit_q, pipe_flit_d;  // data: not reset, qualified by pipe_valid_q

    always_comb begin
      pipe_valid_d[0] = flit_valid_i;
      pipe_flit_d[0 +: FlitW] = flit_i;
      for (int unsigned s = 1; s < Regs; s++) begin
        pipe_valid_d[s] = pipe_valid_q[s-1];
        pipe_flit_d[s*FlitW +: FlitW] = pipe_flit_q[(s-1)*FlitW +: FlitW];
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) pipe_valid_q <= '0;
      else pipe_valid_q <= pipe_valid_d;
    end
    always_ff @(posedge clk_i) begin
      pipe_flit_q <= pipe_flit_d;
    end
    assign wr_valid_o = pipe_valid_q[Regs-1];
    assign wr_flit_o = pipe_flit_q[(Regs-1)*FlitW +: FlitW];
    assign empty_o = ~|pipe_valid_q;
  end

`ifndef SYNTHESIS
  initial begin
    if (PipelineStages < 1) $fatal(1, "torx_input_pipe: PipelineStages must be at least 1");
  end
`endif

endmodule

`endif  // TORX_INPUT_PIPE_SV_
