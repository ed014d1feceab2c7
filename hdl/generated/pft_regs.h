/* Generated from hdl/src/regs.rs by `make docs` (pft-regs). Do not edit; a test fails when this file is stale.
 * Word addresses on the CSR port; PFT_*_BYTE_OFFSET = word address x 4. */

#ifndef PFT_REGS_H
#define PFT_REGS_H

#define PFT_ADDR_BITS 4u

/* CTRL: A write restarts the AT window. */
#define PFT_CTRL_ADDR 0x0u
#define PFT_CTRL_BYTE_OFFSET 0x00u
#define PFT_CTRL_MASK 0x0000000Fu
#define PFT_CTRL_RESET 0x00000000u
#define PFT_CTRL_ENABLE_SHIFT 0u
#define PFT_CTRL_ENABLE_WIDTH 1u
#define PFT_CTRL_ENABLE_FIELD_MASK 0x00000001u
#define PFT_CTRL_ENABLE_FIELD_RESET 0x0u
#define PFT_CTRL_DET_MODE_SHIFT 1u
#define PFT_CTRL_DET_MODE_WIDTH 1u
#define PFT_CTRL_DET_MODE_FIELD_MASK 0x00000002u
#define PFT_CTRL_DET_MODE_FIELD_RESET 0x0u
#define PFT_CTRL_THR_MODE_SHIFT 2u
#define PFT_CTRL_THR_MODE_WIDTH 1u
#define PFT_CTRL_THR_MODE_FIELD_MASK 0x00000004u
#define PFT_CTRL_THR_MODE_FIELD_RESET 0x0u
#define PFT_CTRL_GATING_SHIFT 3u
#define PFT_CTRL_GATING_WIDTH 1u
#define PFT_CTRL_GATING_FIELD_MASK 0x00000008u
#define PFT_CTRL_GATING_FIELD_RESET 0x0u

/* CREDIT_LIMIT: Credits of the link (receiver buffer, flits). A flit may leave only while c < CREDIT_LIMIT. */
#define PFT_CREDIT_LIMIT_ADDR 0x1u
#define PFT_CREDIT_LIMIT_BYTE_OFFSET 0x04u
#define PFT_CREDIT_LIMIT_MASK 0x0000FFFFu
#define PFT_CREDIT_LIMIT_RESET 0x00000400u
#define PFT_CREDIT_LIMIT_SHIFT 0u
#define PFT_CREDIT_LIMIT_WIDTH 16u
#define PFT_CREDIT_LIMIT_FIELD_MASK 0x0000FFFFu
#define PFT_CREDIT_LIMIT_FIELD_RESET 0x400u

/* TH_ENTER: threshold_enter: Normal counts/enters when c > TH_ENTER. A write restarts the AT window. */
#define PFT_TH_ENTER_ADDR 0x2u
#define PFT_TH_ENTER_BYTE_OFFSET 0x08u
#define PFT_TH_ENTER_MASK 0x0000FFFFu
#define PFT_TH_ENTER_RESET 0x00000250u
#define PFT_TH_ENTER_SHIFT 0u
#define PFT_TH_ENTER_WIDTH 16u
#define PFT_TH_ENTER_FIELD_MASK 0x0000FFFFu
#define PFT_TH_ENTER_FIELD_RESET 0x250u

/* TH_ESCAPE: threshold_escape: Congested counts/leaves when c < TH_ESCAPE. A write restarts the AT window. */
#define PFT_TH_ESCAPE_ADDR 0x3u
#define PFT_TH_ESCAPE_BYTE_OFFSET 0x0Cu
#define PFT_TH_ESCAPE_MASK 0x0000FFFFu
#define PFT_TH_ESCAPE_RESET 0x000002A0u
#define PFT_TH_ESCAPE_SHIFT 0u
#define PFT_TH_ESCAPE_WIDTH 16u
#define PFT_TH_ESCAPE_FIELD_MASK 0x0000FFFFu
#define PFT_TH_ESCAPE_FIELD_RESET 0x2A0u

/* AT_WIN_E: AT window in Normal (T_e, cycles). A write restarts the AT window. */
#define PFT_AT_WIN_E_ADDR 0x4u
#define PFT_AT_WIN_E_BYTE_OFFSET 0x10u
#define PFT_AT_WIN_E_MASK 0x0000FFFFu
#define PFT_AT_WIN_E_RESET 0x00000040u
#define PFT_AT_WIN_E_SHIFT 0u
#define PFT_AT_WIN_E_WIDTH 16u
#define PFT_AT_WIN_E_FIELD_MASK 0x0000FFFFu
#define PFT_AT_WIN_E_FIELD_RESET 0x40u

/* AT_CNT_E: AT hits needed in Normal to enter Congested (T_e'). A write restarts the AT window. */
#define PFT_AT_CNT_E_ADDR 0x5u
#define PFT_AT_CNT_E_BYTE_OFFSET 0x14u
#define PFT_AT_CNT_E_MASK 0x0000FFFFu
#define PFT_AT_CNT_E_RESET 0x00000030u
#define PFT_AT_CNT_E_SHIFT 0u
#define PFT_AT_CNT_E_WIDTH 16u
#define PFT_AT_CNT_E_FIELD_MASK 0x0000FFFFu
#define PFT_AT_CNT_E_FIELD_RESET 0x30u

/* AT_WIN_S: AT window in Congested (T_s, cycles). A write restarts the AT window. */
#define PFT_AT_WIN_S_ADDR 0x6u
#define PFT_AT_WIN_S_BYTE_OFFSET 0x18u
#define PFT_AT_WIN_S_MASK 0x0000FFFFu
#define PFT_AT_WIN_S_RESET 0x00000040u
#define PFT_AT_WIN_S_SHIFT 0u
#define PFT_AT_WIN_S_WIDTH 16u
#define PFT_AT_WIN_S_FIELD_MASK 0x0000FFFFu
#define PFT_AT_WIN_S_FIELD_RESET 0x40u

/* AT_CNT_S: AT hits needed in Congested to escape (T_s'). A write restarts the AT window. */
#define PFT_AT_CNT_S_ADDR 0x7u
#define PFT_AT_CNT_S_BYTE_OFFSET 0x1Cu
#define PFT_AT_CNT_S_MASK 0x0000FFFFu
#define PFT_AT_CNT_S_RESET 0x00000030u
#define PFT_AT_CNT_S_SHIFT 0u
#define PFT_AT_CNT_S_WIDTH 16u
#define PFT_AT_CNT_S_FIELD_MASK 0x0000FFFFu
#define PFT_AT_CNT_S_FIELD_RESET 0x30u

/* SHAPE: The shape of f(c) = ((c << m) >> n) + k. */
#define PFT_SHAPE_ADDR 0x8u
#define PFT_SHAPE_BYTE_OFFSET 0x20u
#define PFT_SHAPE_MASK 0x003F1F1Fu
#define PFT_SHAPE_RESET 0x00200012u
#define PFT_SHAPE_M_SHIFT 0u
#define PFT_SHAPE_M_WIDTH 5u
#define PFT_SHAPE_M_FIELD_MASK 0x0000001Fu
#define PFT_SHAPE_M_FIELD_RESET 0x12u
#define PFT_SHAPE_N_SHIFT 8u
#define PFT_SHAPE_N_WIDTH 5u
#define PFT_SHAPE_N_FIELD_MASK 0x00001F00u
#define PFT_SHAPE_N_FIELD_RESET 0x0u
#define PFT_SHAPE_R_WIDTH_SHIFT 16u
#define PFT_SHAPE_R_WIDTH_WIDTH 6u
#define PFT_SHAPE_R_WIDTH_FIELD_MASK 0x003F0000u
#define PFT_SHAPE_R_WIDTH_FIELD_RESET 0x20u

/* K: k of f(c). */
#define PFT_K_ADDR 0x9u
#define PFT_K_BYTE_OFFSET 0x24u
#define PFT_K_MASK 0x0000FFFFu
#define PFT_K_RESET 0x00000000u
#define PFT_K_SHIFT 0u
#define PFT_K_WIDTH 16u
#define PFT_K_FIELD_MASK 0x0000FFFFu
#define PFT_K_FIELD_RESET 0x0u

/* SEED: RI generator seed. A write reloads the generator; a write of 0 loads the reset seed instead. */
#define PFT_SEED_ADDR 0xAu
#define PFT_SEED_BYTE_OFFSET 0x28u
#define PFT_SEED_MASK 0xFFFFFFFFu
#define PFT_SEED_RESET 0x9E3779B9u
#define PFT_SEED_SHIFT 0u
#define PFT_SEED_WIDTH 32u
#define PFT_SEED_FIELD_MASK 0xFFFFFFFFu
#define PFT_SEED_FIELD_RESET 0x9E3779B9u

/* STATUS: Write 1 to an error bit to clear it. */
#define PFT_STATUS_ADDR 0xBu
#define PFT_STATUS_BYTE_OFFSET 0x2Cu
#define PFT_STATUS_MASK 0xFFFF0007u
#define PFT_STATUS_RESET 0x00000000u
#define PFT_STATUS_CONGESTED_SHIFT 0u
#define PFT_STATUS_CONGESTED_WIDTH 1u
#define PFT_STATUS_CONGESTED_FIELD_MASK 0x00000001u
#define PFT_STATUS_CONGESTED_FIELD_RESET 0x0u
#define PFT_STATUS_ERR_UNDERFLOW_SHIFT 1u
#define PFT_STATUS_ERR_UNDERFLOW_WIDTH 1u
#define PFT_STATUS_ERR_UNDERFLOW_FIELD_MASK 0x00000002u
#define PFT_STATUS_ERR_UNDERFLOW_FIELD_RESET 0x0u
#define PFT_STATUS_ERR_OVERFLOW_SHIFT 2u
#define PFT_STATUS_ERR_OVERFLOW_WIDTH 1u
#define PFT_STATUS_ERR_OVERFLOW_FIELD_MASK 0x00000004u
#define PFT_STATUS_ERR_OVERFLOW_FIELD_RESET 0x0u
#define PFT_STATUS_C_SHIFT 16u
#define PFT_STATUS_C_WIDTH 16u
#define PFT_STATUS_C_FIELD_MASK 0xFFFF0000u
#define PFT_STATUS_C_FIELD_RESET 0x0u

/* CNT_CONGESTED: Cycles spent Congested (wraps). Any write clears it. */
#define PFT_CNT_CONGESTED_ADDR 0xCu
#define PFT_CNT_CONGESTED_BYTE_OFFSET 0x30u
#define PFT_CNT_CONGESTED_MASK 0xFFFFFFFFu
#define PFT_CNT_CONGESTED_RESET 0x00000000u
#define PFT_CNT_CONGESTED_SHIFT 0u
#define PFT_CNT_CONGESTED_WIDTH 32u
#define PFT_CNT_CONGESTED_FIELD_MASK 0xFFFFFFFFu
#define PFT_CNT_CONGESTED_FIELD_RESET 0x0u

/* CNT_SENT: Flits sent (wraps). Any write clears it. */
#define PFT_CNT_SENT_ADDR 0xDu
#define PFT_CNT_SENT_BYTE_OFFSET 0x34u
#define PFT_CNT_SENT_MASK 0xFFFFFFFFu
#define PFT_CNT_SENT_RESET 0x00000000u
#define PFT_CNT_SENT_SHIFT 0u
#define PFT_CNT_SENT_WIDTH 32u
#define PFT_CNT_SENT_FIELD_MASK 0xFFFFFFFFu
#define PFT_CNT_SENT_FIELD_RESET 0x0u

/* CNT_THROTTLED: Cycles a ready flit with a credit was held back by throttling (wraps). Any write clears it. */
#define PFT_CNT_THROTTLED_ADDR 0xEu
#define PFT_CNT_THROTTLED_BYTE_OFFSET 0x38u
#define PFT_CNT_THROTTLED_MASK 0xFFFFFFFFu
#define PFT_CNT_THROTTLED_RESET 0x00000000u
#define PFT_CNT_THROTTLED_SHIFT 0u
#define PFT_CNT_THROTTLED_WIDTH 32u
#define PFT_CNT_THROTTLED_FIELD_MASK 0xFFFFFFFFu
#define PFT_CNT_THROTTLED_FIELD_RESET 0x0u

/* AT_STATUS: AT window counter and hit counter. */
#define PFT_AT_STATUS_ADDR 0xFu
#define PFT_AT_STATUS_BYTE_OFFSET 0x3Cu
#define PFT_AT_STATUS_MASK 0xFFFFFFFFu
#define PFT_AT_STATUS_RESET 0x00000000u
#define PFT_AT_STATUS_WIN_SHIFT 0u
#define PFT_AT_STATUS_WIN_WIDTH 16u
#define PFT_AT_STATUS_WIN_FIELD_MASK 0x0000FFFFu
#define PFT_AT_STATUS_WIN_FIELD_RESET 0x0u
#define PFT_AT_STATUS_HIT_SHIFT 16u
#define PFT_AT_STATUS_HIT_WIDTH 16u
#define PFT_AT_STATUS_HIT_FIELD_MASK 0xFFFF0000u
#define PFT_AT_STATUS_HIT_FIELD_RESET 0x0u

/* pft_axis: the AXI4-Lite byte map (register-block header, then the registers above at
 * PFT_AXIL_PFT_BASE + 4 x word address; SLVERR at PFT_AXIL_SPAN and above). */
#define PFT_AXIL_ADDR_BITS 0x8u /* width of s_axil_awaddr/araddr (byte addresses) */
#define PFT_AXIL_RB_TYPE_OFFSET 0x0u /* register-block type word (RO) */
#define PFT_AXIL_RB_VERSION_OFFSET 0x4u /* register-block version word (RO) */
#define PFT_AXIL_RB_NEXT_PTR_OFFSET 0x8u /* next register block's offset, 0 = last (RO) */
#define PFT_AXIL_RB_TYPE 0x50465400u /* PFT's register-block type id ("PFT\0") */
#define PFT_AXIL_RB_VERSION 0x1u /* register-block version (major 15:8, minor 7:0) */
#define PFT_AXIL_RB_NEXT_PTR 0x0u /* the next pointer the export builds */
#define PFT_AXIL_PFT_BASE 0x40u /* byte offset of word address 0 (CTRL) */
#define PFT_AXIL_SPAN 0x80u /* bytes in the block; an address at or above is SLVERR */
#define PFT_AXIL_CTRL_OFFSET 0x40u /* CTRL (word 0x0) */
#define PFT_AXIL_CREDIT_LIMIT_OFFSET 0x44u /* CREDIT_LIMIT (word 0x1) */
#define PFT_AXIL_TH_ENTER_OFFSET 0x48u /* TH_ENTER (word 0x2) */
#define PFT_AXIL_TH_ESCAPE_OFFSET 0x4Cu /* TH_ESCAPE (word 0x3) */
#define PFT_AXIL_AT_WIN_E_OFFSET 0x50u /* AT_WIN_E (word 0x4) */
#define PFT_AXIL_AT_CNT_E_OFFSET 0x54u /* AT_CNT_E (word 0x5) */
#define PFT_AXIL_AT_WIN_S_OFFSET 0x58u /* AT_WIN_S (word 0x6) */
#define PFT_AXIL_AT_CNT_S_OFFSET 0x5Cu /* AT_CNT_S (word 0x7) */
#define PFT_AXIL_SHAPE_OFFSET 0x60u /* SHAPE (word 0x8) */
#define PFT_AXIL_K_OFFSET 0x64u /* K (word 0x9) */
#define PFT_AXIL_SEED_OFFSET 0x68u /* SEED (word 0xA) */
#define PFT_AXIL_STATUS_OFFSET 0x6Cu /* STATUS (word 0xB) */
#define PFT_AXIL_CNT_CONGESTED_OFFSET 0x70u /* CNT_CONGESTED (word 0xC) */
#define PFT_AXIL_CNT_SENT_OFFSET 0x74u /* CNT_SENT (word 0xD) */
#define PFT_AXIL_CNT_THROTTLED_OFFSET 0x78u /* CNT_THROTTLED (word 0xE) */
#define PFT_AXIL_AT_STATUS_OFFSET 0x7Cu /* AT_STATUS (word 0xF) */

#endif /* PFT_REGS_H */
