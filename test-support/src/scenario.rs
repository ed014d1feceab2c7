//! Small scenarios and grids that more than one test file of `sim` runs.

/// A 6-NIC hot-spot scenario of 2000 cycles (milliseconds per run), one `[[pft]]` entry
/// named `p`, seed 3 (`bad_inputs_sweep.rs` and `bad_inputs_paths.rs`).
pub const TINY_HOTSPOT: &str = r#"name = "tiny"
seed = 3
[cycles]
max = 2000
[network]
topology = { kind = "single_switch", nodes = 6 }
buffer_flits = 128
eject_buffer_flits = 128
mtu_bytes = 1024
[workload]
kind = "hotspot"
hotspots = 1
frac_c = 0.5
frac_v = 0.5
load = 0.9
msg_bytes = 1024
[[pft]]
name = "p"
"#;

/// A grid of one axis of two values, `pft.m` = 18 and 22: two points.
pub const GRID_M_18_22: &str = "[[axis]]\nkey = \"pft.m\"\nvalues = [18, 22]\n";

/// Scenario `s` (with `mtu_bytes = 1024` in its `[network]`) with NICs that drain far slower
/// than they inject and a 20-cycle deadlock watchdog: its runs stop in their first cycles.
pub fn deadlocking(s: &str) -> String {
    s.replace(
        "mtu_bytes = 1024",
        "mtu_bytes = 1024\neject_rate = 0.0000153\ndeadlock_cycles = 20",
    )
}
