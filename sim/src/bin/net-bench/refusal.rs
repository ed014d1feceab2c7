//! net-bench's refusals of the network its flags describe: a usage error (exit status 2)
//! naming the flag of the refused key, or, for a key net-bench keeps at its default, what
//! the flags can change instead (docs/bad-inputs.md, rows NB-16, NB-22, NB-25, NB-27, NB-28).

use pft_sim::net::NetConfig;
use std::process::ExitCode;

/// The flag that sets a network key (`NetConfig`'s field), where one does.
const FLAG_OF_KEY: [(&str, &str); 21] = [
    ("topology", "--topo"),
    ("voq", "--voq"),
    ("vcs", "--vcs"),
    ("vc_buf_flits", "--vc-buf"),
    ("routing", "--routing"),
    ("switching", "--switching"),
    ("head_latency_cycles", "--head-latency"),
    ("speedup", "--speedup"),
    ("out_buffer_flits", "--out-buf"),
    ("ack_bytes", "--ack-bytes"),
    ("ack_vcs", "--ack-vcs"),
    ("local_latency_cycles", "--local-latency"),
    ("global_latency_cycles", "--global-latency"),
    ("lane_reuse", "--lane-reuse"),
    ("ugal_threshold_flits", "--ugal-threshold"),
    ("link_latency_cycles", "--link-latency"),
    ("credit_latency_cycles", "--credit-latency"),
    ("switch_latency_cycles", "--switch-latency"),
    ("mtu_bytes", "--packet-flits"),
    ("deadlock_cycles", "--deadlock-cycles"),
    ("stall_cycles", "--stall-cycles"),
];

/// Keys net-bench keeps at their defaults (it has no flag for them), refused for what the
/// flags chose: a usage error too, with what the flags can change instead.
fn fixed_key_note(key: &str, cfg: &NetConfig) -> Option<String> {
    let d = NetConfig::default();
    match key {
        "buffer_flits" | "eject_buffer_flits" | "vcs" if cfg.vcs.is_some() || key != "vcs" => {
            Some(format!(
                "net-bench runs network.buffer_flits and eject_buffer_flits at their defaults, {} flits: {}",
                d.buffer_flits,
                if cfg.vcs.is_some() {
                    "lower --vcs or take a smaller --topo"
                } else {
                    "take a smaller --topo"
                }
            ))
        }
        _ => None,
    }
}

/// A network the flags describe that the model refuses: a usage error (exit status 2)
/// naming the flag of the refused key, or for a key net-bench keeps at its default what
/// the flags can change instead; a key of the scheme's (`cc.*`), which net-bench runs with
/// its defaults, is for a scenario's `[[cc]]` entry.
pub(crate) fn refused(e: &pft_sim::net::NetError, cfg: &NetConfig) -> ExitCode {
    let field = match e {
        pft_sim::net::NetError::Config(f) => Some(f.field.as_str()),
        _ => None,
    };
    let key = field.map(|f| f.strip_prefix("network.").unwrap_or(f));
    let flag = key.and_then(|k| {
        let first = k.split(['.', '[']).next().unwrap_or(k);
        FLAG_OF_KEY
            .iter()
            .find(|(key, _)| *key == first)
            .map(|(_, f)| *f)
    });
    // (the entries' limit names a buffer, or `vcs`, for what the flags chose: say which
    // buffers net-bench fixes)
    let note = key.and_then(|k| {
        let entries =
            matches!(e, pft_sim::net::NetError::Config(f) if f.allowed.contains("32-bit id"));
        (flag.is_none() || entries)
            .then(|| fixed_key_note(k, cfg))
            .flatten()
    });
    let note = note.map_or(String::new(), |n| format!("\n  {n}"));
    match (flag, key) {
        (Some(flag), _) => {
            pft_sim::eprintln_safe!("error: invalid value for '{flag}': {e}{note}");
            ExitCode::from(2)
        }
        (None, Some(k)) if k.starts_with("cc.") => {
            pft_sim::eprintln_safe!(
                "error: --cc: {e} (net-bench runs a scheme with its defaults; set the key in a scenario's [[cc]] entry and use pftsim)"
            );
            ExitCode::from(2)
        }
        (None, Some(_)) if !note.is_empty() => {
            pft_sim::eprintln_safe!("error: the network of these flags is refused: {e}{note}");
            ExitCode::from(2)
        }
        _ => {
            pft_sim::eprintln_safe!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
