"""The PFT register map. Generated from hdl/src/regs.rs by `make docs` (pft-regs). Do not edit; a test fails when this file is stale.

Word addresses on the CSR port."""

ADDR_BITS = 4

CTRL = 0x0
CTRL_MASK = 0x0000000F
CTRL_RESET = 0x00000000
CTRL_ENABLE_SHIFT = 0
CTRL_ENABLE_WIDTH = 1
CTRL_ENABLE_FIELD_MASK = 0x00000001
CTRL_DET_MODE_SHIFT = 1
CTRL_DET_MODE_WIDTH = 1
CTRL_DET_MODE_FIELD_MASK = 0x00000002
CTRL_THR_MODE_SHIFT = 2
CTRL_THR_MODE_WIDTH = 1
CTRL_THR_MODE_FIELD_MASK = 0x00000004
CTRL_GATING_SHIFT = 3
CTRL_GATING_WIDTH = 1
CTRL_GATING_FIELD_MASK = 0x00000008

CREDIT_LIMIT = 0x1
CREDIT_LIMIT_MASK = 0x0000FFFF
CREDIT_LIMIT_RESET = 0x00000400

TH_ENTER = 0x2
TH_ENTER_MASK = 0x0000FFFF
TH_ENTER_RESET = 0x00000250

TH_ESCAPE = 0x3
TH_ESCAPE_MASK = 0x0000FFFF
TH_ESCAPE_RESET = 0x000002A0

AT_WIN_E = 0x4
AT_WIN_E_MASK = 0x0000FFFF
AT_WIN_E_RESET = 0x00000040

AT_CNT_E = 0x5
AT_CNT_E_MASK = 0x0000FFFF
AT_CNT_E_RESET = 0x00000030

AT_WIN_S = 0x6
AT_WIN_S_MASK = 0x0000FFFF
AT_WIN_S_RESET = 0x00000040

AT_CNT_S = 0x7
AT_CNT_S_MASK = 0x0000FFFF
AT_CNT_S_RESET = 0x00000030

SHAPE = 0x8
SHAPE_MASK = 0x003F1F1F
SHAPE_RESET = 0x00200012
SHAPE_M_SHIFT = 0
SHAPE_M_WIDTH = 5
SHAPE_M_FIELD_MASK = 0x0000001F
SHAPE_N_SHIFT = 8
SHAPE_N_WIDTH = 5
SHAPE_N_FIELD_MASK = 0x00001F00
SHAPE_R_WIDTH_SHIFT = 16
SHAPE_R_WIDTH_WIDTH = 6
SHAPE_R_WIDTH_FIELD_MASK = 0x003F0000

K = 0x9
K_MASK = 0x0000FFFF
K_RESET = 0x00000000

SEED = 0xA
SEED_MASK = 0xFFFFFFFF
SEED_RESET = 0x9E3779B9

STATUS = 0xB
STATUS_MASK = 0xFFFF0007
STATUS_RESET = 0x00000000
STATUS_CONGESTED_SHIFT = 0
STATUS_CONGESTED_WIDTH = 1
STATUS_CONGESTED_FIELD_MASK = 0x00000001
STATUS_ERR_UNDERFLOW_SHIFT = 1
STATUS_ERR_UNDERFLOW_WIDTH = 1
STATUS_ERR_UNDERFLOW_FIELD_MASK = 0x00000002
STATUS_ERR_OVERFLOW_SHIFT = 2
STATUS_ERR_OVERFLOW_WIDTH = 1
STATUS_ERR_OVERFLOW_FIELD_MASK = 0x00000004
STATUS_C_SHIFT = 16
STATUS_C_WIDTH = 16
STATUS_C_FIELD_MASK = 0xFFFF0000

CNT_CONGESTED = 0xC
CNT_CONGESTED_MASK = 0xFFFFFFFF
CNT_CONGESTED_RESET = 0x00000000

CNT_SENT = 0xD
CNT_SENT_MASK = 0xFFFFFFFF
CNT_SENT_RESET = 0x00000000

CNT_THROTTLED = 0xE
CNT_THROTTLED_MASK = 0xFFFFFFFF
CNT_THROTTLED_RESET = 0x00000000

AT_STATUS = 0xF
AT_STATUS_MASK = 0xFFFFFFFF
AT_STATUS_RESET = 0x00000000
AT_STATUS_WIN_SHIFT = 0
AT_STATUS_WIN_WIDTH = 16
AT_STATUS_WIN_FIELD_MASK = 0x0000FFFF
AT_STATUS_HIT_SHIFT = 16
AT_STATUS_HIT_WIDTH = 16
AT_STATUS_HIT_FIELD_MASK = 0xFFFF0000

# name: (address, access, mask, reset)
REGS = {
    "CTRL": (0x0, "rw", 0x0000000F, 0x00000000),
    "CREDIT_LIMIT": (0x1, "rw", 0x0000FFFF, 0x00000400),
    "TH_ENTER": (0x2, "rw", 0x0000FFFF, 0x00000250),
    "TH_ESCAPE": (0x3, "rw", 0x0000FFFF, 0x000002A0),
    "AT_WIN_E": (0x4, "rw", 0x0000FFFF, 0x00000040),
    "AT_CNT_E": (0x5, "rw", 0x0000FFFF, 0x00000030),
    "AT_WIN_S": (0x6, "rw", 0x0000FFFF, 0x00000040),
    "AT_CNT_S": (0x7, "rw", 0x0000FFFF, 0x00000030),
    "SHAPE": (0x8, "rw", 0x003F1F1F, 0x00200012),
    "K": (0x9, "rw", 0x0000FFFF, 0x00000000),
    "SEED": (0xA, "rw", 0xFFFFFFFF, 0x9E3779B9),
    "STATUS": (0xB, "ro_clear", 0xFFFF0007, 0x00000000),
    "CNT_CONGESTED": (0xC, "ro_clear", 0xFFFFFFFF, 0x00000000),
    "CNT_SENT": (0xD, "ro_clear", 0xFFFFFFFF, 0x00000000),
    "CNT_THROTTLED": (0xE, "ro_clear", 0xFFFFFFFF, 0x00000000),
    "AT_STATUS": (0xF, "ro", 0xFFFFFFFF, 0x00000000),
}

# field: (register, offset, width, access, reset, lo, hi)
FIELDS = {
    "enable": ("CTRL", 0, 1, "rw", 0x0, 0, 1),
    "det_mode": ("CTRL", 1, 1, "rw", 0x0, 0, 1),
    "thr_mode": ("CTRL", 2, 1, "rw", 0x0, 0, 1),
    "gating": ("CTRL", 3, 1, "rw", 0x0, 0, 1),
    "credit_limit": ("CREDIT_LIMIT", 0, 16, "rw", 0x400, 1, 65535),
    "th_enter": ("TH_ENTER", 0, 16, "rw", 0x250, 0, 65535),
    "th_escape": ("TH_ESCAPE", 0, 16, "rw", 0x2A0, 0, 65535),
    "at_win_e": ("AT_WIN_E", 0, 16, "rw", 0x40, 0, 65535),
    "at_cnt_e": ("AT_CNT_E", 0, 16, "rw", 0x30, 0, 65535),
    "at_win_s": ("AT_WIN_S", 0, 16, "rw", 0x40, 0, 65535),
    "at_cnt_s": ("AT_CNT_S", 0, 16, "rw", 0x30, 0, 65535),
    "m": ("SHAPE", 0, 5, "rw", 0x12, 0, 31),
    "n": ("SHAPE", 8, 5, "rw", 0x0, 0, 31),
    "r_width": ("SHAPE", 16, 6, "rw", 0x20, 1, 32),
    "k": ("K", 0, 16, "rw", 0x0, 0, 65535),
    "seed": ("SEED", 0, 32, "rw", 0x9E3779B9, 1, 4294967295),
    "congested": ("STATUS", 0, 1, "ro", 0x0, 0, 1),
    "err_underflow": ("STATUS", 1, 1, "ro_clear", 0x0, 0, 1),
    "err_overflow": ("STATUS", 2, 1, "ro_clear", 0x0, 0, 1),
    "c": ("STATUS", 16, 16, "ro", 0x0, 0, 65535),
    "cnt_congested": ("CNT_CONGESTED", 0, 32, "ro_clear", 0x0, 0, 4294967295),
    "cnt_sent": ("CNT_SENT", 0, 32, "ro_clear", 0x0, 0, 4294967295),
    "cnt_throttled": ("CNT_THROTTLED", 0, 32, "ro_clear", 0x0, 0, 4294967295),
    "win": ("AT_STATUS", 0, 16, "ro", 0x0, 0, 65535),
    "hit": ("AT_STATUS", 16, 16, "ro", 0x0, 0, 65535),
}

# pft_axis: the AXI4-Lite byte map
AXIL_ADDR_BITS = 0x8  # width of s_axil_awaddr/araddr (byte addresses)
AXIL_RB_TYPE_OFFSET = 0x0  # register-block type word (RO)
AXIL_RB_VERSION_OFFSET = 0x4  # register-block version word (RO)
AXIL_RB_NEXT_PTR_OFFSET = 0x8  # next register block's offset, 0 = last (RO)
AXIL_RB_TYPE = 0x50465400  # PFT's register-block type id ("PFT\0")
AXIL_RB_VERSION = 0x1  # register-block version (major 15:8, minor 7:0)
AXIL_RB_NEXT_PTR = 0x0  # the next pointer the export builds
AXIL_PFT_BASE = 0x40  # byte offset of word address 0 (CTRL)
AXIL_SPAN = 0x80  # bytes in the block; an address at or above is SLVERR
AXIL_CTRL_OFFSET = 0x40  # CTRL (word 0x0)
AXIL_CREDIT_LIMIT_OFFSET = 0x44  # CREDIT_LIMIT (word 0x1)
AXIL_TH_ENTER_OFFSET = 0x48  # TH_ENTER (word 0x2)
AXIL_TH_ESCAPE_OFFSET = 0x4C  # TH_ESCAPE (word 0x3)
AXIL_AT_WIN_E_OFFSET = 0x50  # AT_WIN_E (word 0x4)
AXIL_AT_CNT_E_OFFSET = 0x54  # AT_CNT_E (word 0x5)
AXIL_AT_WIN_S_OFFSET = 0x58  # AT_WIN_S (word 0x6)
AXIL_AT_CNT_S_OFFSET = 0x5C  # AT_CNT_S (word 0x7)
AXIL_SHAPE_OFFSET = 0x60  # SHAPE (word 0x8)
AXIL_K_OFFSET = 0x64  # K (word 0x9)
AXIL_SEED_OFFSET = 0x68  # SEED (word 0xA)
AXIL_STATUS_OFFSET = 0x6C  # STATUS (word 0xB)
AXIL_CNT_CONGESTED_OFFSET = 0x70  # CNT_CONGESTED (word 0xC)
AXIL_CNT_SENT_OFFSET = 0x74  # CNT_SENT (word 0xD)
AXIL_CNT_THROTTLED_OFFSET = 0x78  # CNT_THROTTLED (word 0xE)
AXIL_AT_STATUS_OFFSET = 0x7C  # AT_STATUS (word 0xF)

# register name: its byte offset on pft_axis's AXI4-Lite port
AXIL_OFFSETS = {
    "CTRL": 0x40,
    "CREDIT_LIMIT": 0x44,
    "TH_ENTER": 0x48,
    "TH_ESCAPE": 0x4C,
    "AT_WIN_E": 0x50,
    "AT_CNT_E": 0x54,
    "AT_WIN_S": 0x58,
    "AT_CNT_S": 0x5C,
    "SHAPE": 0x60,
    "K": 0x64,
    "SEED": 0x68,
    "STATUS": 0x6C,
    "CNT_CONGESTED": 0x70,
    "CNT_SENT": 0x74,
    "CNT_THROTTLED": 0x78,
    "AT_STATUS": 0x7C,
}
