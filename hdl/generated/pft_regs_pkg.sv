// Generated from hdl/src/regs.rs by `make docs` (pft-regs). Do not edit; a test fails when this file is stale.

package pft_regs_pkg;
  localparam int unsigned PFT_ADDR_BITS = 4;

  // CTRL
  localparam logic [3:0] PFT_CTRL_ADDR = 4'h0;
  localparam logic [31:0] PFT_CTRL_MASK = 32'h0000000F;
  localparam logic [31:0] PFT_CTRL_RESET = 32'h00000000;
  localparam int unsigned PFT_CTRL_ENABLE_OFFSET = 0;
  localparam int unsigned PFT_CTRL_ENABLE_WIDTH = 1;
  localparam logic [31:0] PFT_CTRL_ENABLE_FIELD_MASK = 32'h00000001;
  localparam logic [31:0] PFT_CTRL_ENABLE_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_CTRL_DET_MODE_OFFSET = 1;
  localparam int unsigned PFT_CTRL_DET_MODE_WIDTH = 1;
  localparam logic [31:0] PFT_CTRL_DET_MODE_FIELD_MASK = 32'h00000002;
  localparam logic [31:0] PFT_CTRL_DET_MODE_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_CTRL_THR_MODE_OFFSET = 2;
  localparam int unsigned PFT_CTRL_THR_MODE_WIDTH = 1;
  localparam logic [31:0] PFT_CTRL_THR_MODE_FIELD_MASK = 32'h00000004;
  localparam logic [31:0] PFT_CTRL_THR_MODE_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_CTRL_GATING_OFFSET = 3;
  localparam int unsigned PFT_CTRL_GATING_WIDTH = 1;
  localparam logic [31:0] PFT_CTRL_GATING_FIELD_MASK = 32'h00000008;
  localparam logic [31:0] PFT_CTRL_GATING_FIELD_RESET = 32'h00000000;

  // CREDIT_LIMIT
  localparam logic [3:0] PFT_CREDIT_LIMIT_ADDR = 4'h1;
  localparam logic [31:0] PFT_CREDIT_LIMIT_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_CREDIT_LIMIT_RESET = 32'h00000400;
  localparam int unsigned PFT_CREDIT_LIMIT_OFFSET = 0;
  localparam int unsigned PFT_CREDIT_LIMIT_WIDTH = 16;
  localparam logic [31:0] PFT_CREDIT_LIMIT_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_CREDIT_LIMIT_FIELD_RESET = 32'h00000400;

  // TH_ENTER
  localparam logic [3:0] PFT_TH_ENTER_ADDR = 4'h2;
  localparam logic [31:0] PFT_TH_ENTER_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_TH_ENTER_RESET = 32'h00000250;
  localparam int unsigned PFT_TH_ENTER_OFFSET = 0;
  localparam int unsigned PFT_TH_ENTER_WIDTH = 16;
  localparam logic [31:0] PFT_TH_ENTER_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_TH_ENTER_FIELD_RESET = 32'h00000250;

  // TH_ESCAPE
  localparam logic [3:0] PFT_TH_ESCAPE_ADDR = 4'h3;
  localparam logic [31:0] PFT_TH_ESCAPE_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_TH_ESCAPE_RESET = 32'h000002A0;
  localparam int unsigned PFT_TH_ESCAPE_OFFSET = 0;
  localparam int unsigned PFT_TH_ESCAPE_WIDTH = 16;
  localparam logic [31:0] PFT_TH_ESCAPE_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_TH_ESCAPE_FIELD_RESET = 32'h000002A0;

  // AT_WIN_E
  localparam logic [3:0] PFT_AT_WIN_E_ADDR = 4'h4;
  localparam logic [31:0] PFT_AT_WIN_E_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_WIN_E_RESET = 32'h00000040;
  localparam int unsigned PFT_AT_WIN_E_OFFSET = 0;
  localparam int unsigned PFT_AT_WIN_E_WIDTH = 16;
  localparam logic [31:0] PFT_AT_WIN_E_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_WIN_E_FIELD_RESET = 32'h00000040;

  // AT_CNT_E
  localparam logic [3:0] PFT_AT_CNT_E_ADDR = 4'h5;
  localparam logic [31:0] PFT_AT_CNT_E_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_CNT_E_RESET = 32'h00000030;
  localparam int unsigned PFT_AT_CNT_E_OFFSET = 0;
  localparam int unsigned PFT_AT_CNT_E_WIDTH = 16;
  localparam logic [31:0] PFT_AT_CNT_E_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_CNT_E_FIELD_RESET = 32'h00000030;

  // AT_WIN_S
  localparam logic [3:0] PFT_AT_WIN_S_ADDR = 4'h6;
  localparam logic [31:0] PFT_AT_WIN_S_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_WIN_S_RESET = 32'h00000040;
  localparam int unsigned PFT_AT_WIN_S_OFFSET = 0;
  localparam int unsigned PFT_AT_WIN_S_WIDTH = 16;
  localparam logic [31:0] PFT_AT_WIN_S_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_WIN_S_FIELD_RESET = 32'h00000040;

  // AT_CNT_S
  localparam logic [3:0] PFT_AT_CNT_S_ADDR = 4'h7;
  localparam logic [31:0] PFT_AT_CNT_S_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_CNT_S_RESET = 32'h00000030;
  localparam int unsigned PFT_AT_CNT_S_OFFSET = 0;
  localparam int unsigned PFT_AT_CNT_S_WIDTH = 16;
  localparam logic [31:0] PFT_AT_CNT_S_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_CNT_S_FIELD_RESET = 32'h00000030;

  // SHAPE
  localparam logic [3:0] PFT_SHAPE_ADDR = 4'h8;
  localparam logic [31:0] PFT_SHAPE_MASK = 32'h003F1F1F;
  localparam logic [31:0] PFT_SHAPE_RESET = 32'h00200012;
  localparam int unsigned PFT_SHAPE_M_OFFSET = 0;
  localparam int unsigned PFT_SHAPE_M_WIDTH = 5;
  localparam logic [31:0] PFT_SHAPE_M_FIELD_MASK = 32'h0000001F;
  localparam logic [31:0] PFT_SHAPE_M_FIELD_RESET = 32'h00000012;
  localparam int unsigned PFT_SHAPE_N_OFFSET = 8;
  localparam int unsigned PFT_SHAPE_N_WIDTH = 5;
  localparam logic [31:0] PFT_SHAPE_N_FIELD_MASK = 32'h00001F00;
  localparam logic [31:0] PFT_SHAPE_N_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_SHAPE_R_WIDTH_OFFSET = 16;
  localparam int unsigned PFT_SHAPE_R_WIDTH_WIDTH = 6;
  localparam logic [31:0] PFT_SHAPE_R_WIDTH_FIELD_MASK = 32'h003F0000;
  localparam logic [31:0] PFT_SHAPE_R_WIDTH_FIELD_RESET = 32'h00000020;

  // K
  localparam logic [3:0] PFT_K_ADDR = 4'h9;
  localparam logic [31:0] PFT_K_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_K_RESET = 32'h00000000;
  localparam int unsigned PFT_K_OFFSET = 0;
  localparam int unsigned PFT_K_WIDTH = 16;
  localparam logic [31:0] PFT_K_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_K_FIELD_RESET = 32'h00000000;

  // SEED
  localparam logic [3:0] PFT_SEED_ADDR = 4'hA;
  localparam logic [31:0] PFT_SEED_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_SEED_RESET = 32'h9E3779B9;
  localparam int unsigned PFT_SEED_OFFSET = 0;
  localparam int unsigned PFT_SEED_WIDTH = 32;
  localparam logic [31:0] PFT_SEED_FIELD_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_SEED_FIELD_RESET = 32'h9E3779B9;

  // STATUS
  localparam logic [3:0] PFT_STATUS_ADDR = 4'hB;
  localparam logic [31:0] PFT_STATUS_MASK = 32'hFFFF0007;
  localparam logic [31:0] PFT_STATUS_RESET = 32'h00000000;
  localparam int unsigned PFT_STATUS_CONGESTED_OFFSET = 0;
  localparam int unsigned PFT_STATUS_CONGESTED_WIDTH = 1;
  localparam logic [31:0] PFT_STATUS_CONGESTED_FIELD_MASK = 32'h00000001;
  localparam logic [31:0] PFT_STATUS_CONGESTED_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_STATUS_ERR_UNDERFLOW_OFFSET = 1;
  localparam int unsigned PFT_STATUS_ERR_UNDERFLOW_WIDTH = 1;
  localparam logic [31:0] PFT_STATUS_ERR_UNDERFLOW_FIELD_MASK = 32'h00000002;
  localparam logic [31:0] PFT_STATUS_ERR_UNDERFLOW_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_STATUS_ERR_OVERFLOW_OFFSET = 2;
  localparam int unsigned PFT_STATUS_ERR_OVERFLOW_WIDTH = 1;
  localparam logic [31:0] PFT_STATUS_ERR_OVERFLOW_FIELD_MASK = 32'h00000004;
  localparam logic [31:0] PFT_STATUS_ERR_OVERFLOW_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_STATUS_C_OFFSET = 16;
  localparam int unsigned PFT_STATUS_C_WIDTH = 16;
  localparam logic [31:0] PFT_STATUS_C_FIELD_MASK = 32'hFFFF0000;
  localparam logic [31:0] PFT_STATUS_C_FIELD_RESET = 32'h00000000;

  // CNT_CONGESTED
  localparam logic [3:0] PFT_CNT_CONGESTED_ADDR = 4'hC;
  localparam logic [31:0] PFT_CNT_CONGESTED_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_CONGESTED_RESET = 32'h00000000;
  localparam int unsigned PFT_CNT_CONGESTED_OFFSET = 0;
  localparam int unsigned PFT_CNT_CONGESTED_WIDTH = 32;
  localparam logic [31:0] PFT_CNT_CONGESTED_FIELD_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_CONGESTED_FIELD_RESET = 32'h00000000;

  // CNT_SENT
  localparam logic [3:0] PFT_CNT_SENT_ADDR = 4'hD;
  localparam logic [31:0] PFT_CNT_SENT_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_SENT_RESET = 32'h00000000;
  localparam int unsigned PFT_CNT_SENT_OFFSET = 0;
  localparam int unsigned PFT_CNT_SENT_WIDTH = 32;
  localparam logic [31:0] PFT_CNT_SENT_FIELD_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_SENT_FIELD_RESET = 32'h00000000;

  // CNT_THROTTLED
  localparam logic [3:0] PFT_CNT_THROTTLED_ADDR = 4'hE;
  localparam logic [31:0] PFT_CNT_THROTTLED_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_THROTTLED_RESET = 32'h00000000;
  localparam int unsigned PFT_CNT_THROTTLED_OFFSET = 0;
  localparam int unsigned PFT_CNT_THROTTLED_WIDTH = 32;
  localparam logic [31:0] PFT_CNT_THROTTLED_FIELD_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_CNT_THROTTLED_FIELD_RESET = 32'h00000000;

  // AT_STATUS
  localparam logic [3:0] PFT_AT_STATUS_ADDR = 4'hF;
  localparam logic [31:0] PFT_AT_STATUS_MASK = 32'hFFFFFFFF;
  localparam logic [31:0] PFT_AT_STATUS_RESET = 32'h00000000;
  localparam int unsigned PFT_AT_STATUS_WIN_OFFSET = 0;
  localparam int unsigned PFT_AT_STATUS_WIN_WIDTH = 16;
  localparam logic [31:0] PFT_AT_STATUS_WIN_FIELD_MASK = 32'h0000FFFF;
  localparam logic [31:0] PFT_AT_STATUS_WIN_FIELD_RESET = 32'h00000000;
  localparam int unsigned PFT_AT_STATUS_HIT_OFFSET = 16;
  localparam int unsigned PFT_AT_STATUS_HIT_WIDTH = 16;
  localparam logic [31:0] PFT_AT_STATUS_HIT_FIELD_MASK = 32'hFFFF0000;
  localparam logic [31:0] PFT_AT_STATUS_HIT_FIELD_RESET = 32'h00000000;

  // pft_axis: the AXI4-Lite byte map
  localparam logic [31:0] PFT_AXIL_ADDR_BITS = 32'h00000008;  // width of s_axil_awaddr/araddr (byte addresses)
  localparam logic [31:0] PFT_AXIL_RB_TYPE_OFFSET = 32'h00000000;  // register-block type word (RO)
  localparam logic [31:0] PFT_AXIL_RB_VERSION_OFFSET = 32'h00000004;  // register-block version word (RO)
  localparam logic [31:0] PFT_AXIL_RB_NEXT_PTR_OFFSET = 32'h00000008;  // next register block's offset, 0 = last (RO)
  localparam logic [31:0] PFT_AXIL_RB_TYPE = 32'h50465400;  // PFT's register-block type id ("PFT\0")
  localparam logic [31:0] PFT_AXIL_RB_VERSION = 32'h00000001;  // register-block version (major 15:8, minor 7:0)
  localparam logic [31:0] PFT_AXIL_RB_NEXT_PTR = 32'h00000000;  // the next pointer the export builds
  localparam logic [31:0] PFT_AXIL_PFT_BASE = 32'h00000040;  // byte offset of word address 0 (CTRL)
  localparam logic [31:0] PFT_AXIL_SPAN = 32'h00000080;  // bytes in the block; an address at or above is SLVERR
  localparam logic [31:0] PFT_AXIL_CTRL_OFFSET = 32'h00000040;  // CTRL (word 0x0)
  localparam logic [31:0] PFT_AXIL_CREDIT_LIMIT_OFFSET = 32'h00000044;  // CREDIT_LIMIT (word 0x1)
  localparam logic [31:0] PFT_AXIL_TH_ENTER_OFFSET = 32'h00000048;  // TH_ENTER (word 0x2)
  localparam logic [31:0] PFT_AXIL_TH_ESCAPE_OFFSET = 32'h0000004C;  // TH_ESCAPE (word 0x3)
  localparam logic [31:0] PFT_AXIL_AT_WIN_E_OFFSET = 32'h00000050;  // AT_WIN_E (word 0x4)
  localparam logic [31:0] PFT_AXIL_AT_CNT_E_OFFSET = 32'h00000054;  // AT_CNT_E (word 0x5)
  localparam logic [31:0] PFT_AXIL_AT_WIN_S_OFFSET = 32'h00000058;  // AT_WIN_S (word 0x6)
  localparam logic [31:0] PFT_AXIL_AT_CNT_S_OFFSET = 32'h0000005C;  // AT_CNT_S (word 0x7)
  localparam logic [31:0] PFT_AXIL_SHAPE_OFFSET = 32'h00000060;  // SHAPE (word 0x8)
  localparam logic [31:0] PFT_AXIL_K_OFFSET = 32'h00000064;  // K (word 0x9)
  localparam logic [31:0] PFT_AXIL_SEED_OFFSET = 32'h00000068;  // SEED (word 0xA)
  localparam logic [31:0] PFT_AXIL_STATUS_OFFSET = 32'h0000006C;  // STATUS (word 0xB)
  localparam logic [31:0] PFT_AXIL_CNT_CONGESTED_OFFSET = 32'h00000070;  // CNT_CONGESTED (word 0xC)
  localparam logic [31:0] PFT_AXIL_CNT_SENT_OFFSET = 32'h00000074;  // CNT_SENT (word 0xD)
  localparam logic [31:0] PFT_AXIL_CNT_THROTTLED_OFFSET = 32'h00000078;  // CNT_THROTTLED (word 0xE)
  localparam logic [31:0] PFT_AXIL_AT_STATUS_OFFSET = 32'h0000007C;  // AT_STATUS (word 0xF)
endpackage
