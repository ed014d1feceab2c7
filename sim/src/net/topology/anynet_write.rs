//! Any built-in topology (but the butterfly, whose links go one way) or file topology
//! written in BookSim's `anynet` format (`net-bench --write-anynet`), with its links'
//! latencies where they have their own (a dragonfly's local and global latencies, a file's).

use super::{Peer, Topology};
use crate::net::TopologyConfig;
use std::collections::HashMap;

/// Writes `text` (`write`, `write_with`) as a new file at `path` (an existing file, link
/// or directory is refused), or to stdout where `path` is `-`. The text goes to a
/// temporary file beside it, put in place whole only if nothing is there yet: a write cut
/// short (a full disk, a signal) leaves no file at `path`. The error says why.
pub fn write_new_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return crate::cli::write_stdout(text).map_err(|e| format!("cannot write to stdout: {e}"));
    }
    // (in /dev, /proc or /sys: refused, as every output of the workspace)
    let parent = path.parent().unwrap_or(std::path::Path::new(""));
    crate::cli::check_output_dir(parent)?;
    let new = "give a new file, or `-` for standard output";
    let exists = |m: std::fs::Metadata| {
        if m.file_type().is_symlink() {
            format!("it is a symbolic link: an existing path is refused; {new}")
        } else if m.is_dir() {
            format!("it is a directory; {new}")
        } else {
            format!("it exists: an existing file is refused; {new}")
        }
    };
    if let Ok(m) = std::fs::symlink_metadata(path) {
        return Err(exists(m));
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(format!("it names a directory; {new}"));
    }
    let mut f = crate::cli::AtomicFile::create(path).map_err(|e| format!("{e}; {new}"))?;
    std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| e.to_string())?;
    f.commit_new()
        .map_err(|e| match std::fs::symlink_metadata(path) {
            // made meanwhile by another process: left as it is
            Ok(m) if e.kind() == std::io::ErrorKind::AlreadyExists => exists(m),
            _ => e.to_string(),
        })
}

/// `t` in the `anynet` format, no latencies: a line per router with its NICs and its links
/// to routers of higher number (so each link once). `Graph::parse` of it gives `t`'s
/// routers, NICs and ports back (port order: NICs, then routers by number, as BookSim's),
/// for topologies whose ports are in that order (fat trees and k-ary n-trees are; others
/// keep their links, not their port numbers).
pub fn write(t: &Topology) -> String {
    write_with(t, &|_, _| None)
}

/// `write`, and `latency(router, port)` is the latency of the channel out of a router port
/// to another router, if it has one of its own. A latency in the file sets the channel from
/// the line's router only, so each end writes its own channel's latency after `router M`
/// on its line (a link is then named on both lines; without latencies, on the lower end's
/// alone). `Graph::parse` gives those latencies back.
pub fn write_with(t: &Topology, latency: &dyn Fn(u32, u32) -> Option<u32>) -> String {
    let mut out = String::new();
    for (r, sw) in t.switches().iter().enumerate() {
        let mut line = format!("router {r}");
        for (p, peer) in sw.ports.iter().enumerate() {
            match *peer {
                Peer::Nic(n) => line.push_str(&format!(" node {}", n.0)),
                Peer::Switch { switch, .. } => match latency(r as u32, p as u32) {
                    Some(l) => line.push_str(&format!(" router {switch} {l}")),
                    None if switch as usize > r => line.push_str(&format!(" router {switch}")),
                    None => {}
                },
                _ => {}
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Topology `cfg` built and written (`write_with`) with its links' own latencies: a
/// dragonfly's inside its groups `local` and between groups `global` where given (its
/// `local_latency_cycles` and `global_latency_cycles`); a file's those the file gave; other
/// topologies have none.
pub fn write_config(cfg: &TopologyConfig, local: Option<u32>, global: Option<u32>) -> String {
    let shape = cfg.dragonfly();
    let file: HashMap<(u32, u32), u32> = match cfg {
        TopologyConfig::File { graph: Some(g), .. } => g
            .latencies()
            .into_iter()
            .map(|(r, p, l)| ((r, p), l))
            .collect(),
        _ => HashMap::new(),
    };
    let latency = |r: u32, p: u32| match shape {
        Some(d) if d.is_global(p) => global,
        Some(_) => local,
        None => file.get(&(r, p)).copied(),
    };
    write_with(&Topology::shape(cfg), &latency)
}

/// Two routers of topology `cfg` joined by more than one link (a 2-ary torus's + and -
/// ways round a ring of two), the first such pair: an `anynet` file names a link once, and
/// a reader (BookSim's, ours) merges a link named twice, so such a topology cannot be
/// written.
pub fn parallel_link(cfg: &TopologyConfig) -> Option<(u32, u32)> {
    let t = Topology::shape(cfg);
    for (r, sw) in t.switches().iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for peer in &sw.ports {
            if let Peer::Switch { switch, .. } = *peer {
                if !seen.insert(switch) {
                    return Some((r as u32, switch));
                }
            }
        }
    }
    None
}
