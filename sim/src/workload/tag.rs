//! `Message.tag` values used by the workloads. The low 16 bits name the traffic kind; the high
//! byte of those (`tag >> 8`) names the family, so metrics can split canary and congestor
//! traffic with `is_canary` / `is_congestor`. Bits 16..31 are zero.

/// Uniform random traffic (`uniform` workload).
pub const UNIFORM: u32 = 0x0001;

/// Hot-spot workload: a message to the sender's hot spot (C nodes, and B nodes' p share).
pub const HOTSPOT_HOT: u32 = 0x0101;
/// Hot-spot workload: a uniformly addressed message (V nodes, and B nodes' 1-p share).
pub const HOTSPOT_UNIFORM: u32 = 0x0102;

/// GPCNeT canary: random-ring latency message (8 B).
pub const CANARY_LATENCY: u32 = 0x0201;
/// GPCNeT canary: random-ring bandwidth message (128 KiB).
pub const CANARY_BANDWIDTH: u32 = 0x0202;
/// GPCNeT canary: dissemination-barrier message of the bandwidth test (BW+Sync).
pub const CANARY_BARRIER: u32 = 0x0203;
/// GPCNeT canary: allreduce message (8 B).
pub const CANARY_ALLREDUCE: u32 = 0x0204;

/// GPCNeT congestor: all-to-all pairwise exchange (4 KiB).
pub const CONGESTOR_A2A: u32 = 0x0301;
/// GPCNeT congestor: two-sided incast send to the group root (4 KiB).
pub const CONGESTOR_INCAST: u32 = 0x0302;
/// GPCNeT congestor: put to the group root (4 KiB).
pub const CONGESTOR_PUT: u32 = 0x0303;
/// GPCNeT congestor: the root's completion acknowledgement of a put (small).
pub const CONGESTOR_PUT_ACK: u32 = 0x0304;
/// GPCNeT congestor: get request to the group root (small).
pub const CONGESTOR_GET_REQ: u32 = 0x0305;
/// GPCNeT congestor: the root's get response (4 KiB).
pub const CONGESTOR_GET_RESP: u32 = 0x0306;

/// Motif or trace message (`motif` and `trace` workloads; `jobs`: the victim's). Job j of
/// a `jobs` workload tags its messages `MOTIF + j` (named `motif_aggressor` for j >= 1).
pub const MOTIF: u32 = 0x0401;

/// Family of a tag: `tag >> 8` of its low 16 bits.
pub fn family(tag: u32) -> u32 {
    (tag & 0xffff) >> 8
}

/// True for GPCNeT canary (victim) traffic.
pub fn is_canary(tag: u32) -> bool {
    family(tag) == 0x02
}

/// True for GPCNeT congestor traffic.
pub fn is_congestor(tag: u32) -> bool {
    family(tag) == 0x03
}

/// `name(tag)`, or None for a tag no workload of this crate uses (the network core's
/// `Workload::tag_name`).
pub fn known(tag: u32) -> Option<&'static str> {
    Some(name(tag)).filter(|&n| n != "unknown")
}

/// Short name of a tag, for reports (`"unknown"` otherwise).
pub fn name(tag: u32) -> &'static str {
    match tag {
        UNIFORM => "uniform",
        HOTSPOT_HOT => "hotspot_hot",
        HOTSPOT_UNIFORM => "hotspot_uniform",
        CANARY_LATENCY => "canary_latency",
        CANARY_BANDWIDTH => "canary_bandwidth",
        CANARY_BARRIER => "canary_barrier",
        CANARY_ALLREDUCE => "canary_allreduce",
        CONGESTOR_A2A => "congestor_a2a",
        CONGESTOR_INCAST => "congestor_incast",
        CONGESTOR_PUT => "congestor_put",
        CONGESTOR_PUT_ACK => "congestor_put_ack",
        CONGESTOR_GET_REQ => "congestor_get_req",
        CONGESTOR_GET_RESP => "congestor_get_resp",
        MOTIF => "motif",
        0x0402..=0x0410 => "motif_aggressor",
        _ => "unknown",
    }
}
