//! The text trace format (docs/workloads.md, "Traces"): one operation per line,
//!
//! ```text
//! # comment (also after an operation)
//! ranks 64              # first line that is not a comment: the rank count
//! 0 compute 1000        # rank 0 is busy 1000 cycles
//! 0 recv 1 16384        # rank 0 posts a receive of 16384 bytes from rank 1
//! 0 send 1 16384        # rank 0 posts a send of 16384 bytes to rank 1
//! 0 wait                # rank 0 waits for all it posted
//! 0 iter                # rank 0's iteration ends (after an implicit wait)
//! ```
//!
//! Each rank's lines are its operations in order; lines of different ranks may interleave.
//! Every rank has the same number (>= 1) of `iter` lines and nothing after its last. The
//! k-th send from a to b and the k-th receive at b from a must have the same size. A trace
//! that breaks a rule is refused with its line number and the reason.

use super::{MotifConfig, MotifGen, Op, MAX_COMPUTE_CYCLES};
use crate::workload::config::{ConfigErrors, MAX_MSG_BYTES, MAX_NODES};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

/// Most operations a trace may hold.
pub const MAX_TRACE_OPS: usize = 1 << 26;

/// A parsed trace: every rank's operations, cut into iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub ranks: u32,
    pub iterations: u32,
    ops: Vec<Vec<Op>>,
    /// Per rank: the index of each iteration's first operation, and the end.
    cuts: Vec<Vec<usize>>,
}

/// Why a trace was refused: its line (1-based; 0: the file as a whole) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{reason}", at_line(*.line))]
pub struct TraceError {
    pub line: usize,
    pub reason: String,
}

/// "line L: " (nothing for the file as a whole).
fn at_line(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

fn err<T>(line: usize, reason: impl Into<String>) -> Result<T, TraceError> {
    Err(TraceError {
        line,
        reason: reason.into(),
    })
}

/// The number `tok` as `what`, whose allowed values are `range` (the callers check it).
fn num<T: std::str::FromStr>(
    tok: Option<&str>,
    what: &str,
    range: &str,
    line: usize,
) -> Result<T, TraceError> {
    let Some(t) = tok else {
        return err(line, format!("missing {what} ({range})"));
    };
    t.parse().or_else(|_| {
        err(
            line,
            format!(
                "{what} `{}` is not an integer in {range}",
                crate::scenario::sanitize(t)
            ),
        )
    })
}

impl Trace {
    /// The operations of `rank` in iteration `iter`.
    pub fn ops(&self, rank: u32, iter: u32) -> &[Op] {
        let c = &self.cuts[rank as usize];
        &self.ops[rank as usize][c[iter as usize]..c[iter as usize + 1]]
    }

    /// Parses trace text (see the module docs).
    pub fn parse(text: &str) -> Result<Trace, TraceError> {
        let mut ranks: Option<u32> = None;
        let mut ops: Vec<Vec<Op>> = Vec::new();
        let mut lines: Vec<Vec<usize>> = Vec::new();
        let mut cuts: Vec<Vec<usize>> = Vec::new();
        let mut total = 0usize;
        // a byte-order mark is no text; CRLF and lone CR end lines as LF does
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        for (i, raw) in text.lines().enumerate() {
            let ln = i + 1;
            let body = raw.split('#').next().unwrap_or("");
            let mut t = body.split_whitespace();
            let Some(first) = t.next() else { continue };
            let Some(n) = ranks else {
                if first != "ranks" {
                    return err(ln, "the first line that is not a comment must be `ranks N`");
                }
                let n: u32 = num(t.next(), "the rank count", &format!("2..={MAX_NODES}"), ln)?;
                if !(2..=MAX_NODES).contains(&n) {
                    return err(ln, format!("ranks = {n}: allowed 2..={MAX_NODES}"));
                }
                if t.next().is_some() {
                    return err(ln, "`ranks N` takes one number");
                }
                ranks = Some(n);
                ops = vec![Vec::new(); n as usize];
                lines = vec![Vec::new(); n as usize];
                cuts = vec![vec![0]; n as usize];
                continue;
            };
            if first == "ranks" {
                return err(
                    ln,
                    "a second `ranks` line: the rank count is given once, first",
                );
            }
            let rank: u32 = num(Some(first), "the rank", &format!("0..={}", n - 1), ln)?;
            if rank >= n {
                return err(
                    ln,
                    format!("rank {rank}: allowed 0..={} (`ranks {n}`)", n - 1),
                );
            }
            let op = t.next().unwrap_or("");
            let peer = |t: &mut std::str::SplitWhitespace| -> Result<u32, TraceError> {
                let p: u32 = num(t.next(), "the peer rank", &format!("0..={}", n - 1), ln)?;
                if p >= n || p == rank {
                    return err(
                        ln,
                        format!(
                            "peer {p}: allowed a rank in 0..={} other than {rank}",
                            n - 1
                        ),
                    );
                }
                Ok(p)
            };
            let bytes = |t: &mut std::str::SplitWhitespace| -> Result<u32, TraceError> {
                let b: u64 = num(
                    t.next(),
                    "the size in bytes",
                    &format!("1..={MAX_MSG_BYTES}"),
                    ln,
                )?;
                if !(1..=MAX_MSG_BYTES as u64).contains(&b) {
                    return err(ln, format!("{b} bytes: allowed 1..={MAX_MSG_BYTES}"));
                }
                Ok(b as u32)
            };
            let o = match op {
                "send" => {
                    let peer = peer(&mut t)?;
                    Some(Op::Send {
                        peer,
                        bytes: bytes(&mut t)?,
                    })
                }
                "recv" => {
                    let peer = peer(&mut t)?;
                    Some(Op::Recv {
                        peer,
                        bytes: bytes(&mut t)?,
                    })
                }
                "wait" => Some(Op::Wait),
                "compute" => {
                    let c: u64 = num(
                        t.next(),
                        "the cycles",
                        &format!("0..={MAX_COMPUTE_CYCLES}"),
                        ln,
                    )?;
                    if c > MAX_COMPUTE_CYCLES {
                        return err(
                            ln,
                            format!("compute {c}: allowed 0..={MAX_COMPUTE_CYCLES} cycles"),
                        );
                    }
                    Some(Op::Compute(c))
                }
                "iter" => None,
                other => {
                    return err(
                        ln,
                        format!(
                            "unknown operation `{}`: allowed send, recv, wait, compute, iter",
                            crate::scenario::sanitize(other)
                        ),
                    )
                }
            };
            if let Some(extra) = t.next() {
                return err(
                    ln,
                    format!(
                        "unexpected `{}` after the operation",
                        crate::scenario::sanitize(extra)
                    ),
                );
            }
            let r = rank as usize;
            match o {
                Some(o) => {
                    total += 1;
                    if total > MAX_TRACE_OPS {
                        return err(ln, format!("more than {MAX_TRACE_OPS} operations"));
                    }
                    ops[r].push(o);
                    lines[r].push(ln);
                }
                None => cuts[r].push(ops[r].len()),
            }
        }
        let Some(n) = ranks else {
            return err(0, "no `ranks N` line (the trace is empty)");
        };
        let iterations = cuts[0].len() - 1;
        if iterations == 0 {
            return err(
                0,
                "rank 0 has no `iter` line; every rank needs the same number of them, at least 1",
            );
        }
        for r in 0..n as usize {
            let last = lines[r].last().copied().unwrap_or(0);
            if cuts[r].len() - 1 != iterations {
                return err(
                    last,
                    format!(
                        "rank {r} has {} `iter` lines and rank 0 has {iterations}; every rank needs the same number, at least 1",
                        cuts[r].len() - 1
                    ),
                );
            }
            if *cuts[r].last().expect("one cut at least") != ops[r].len() {
                return err(
                    last,
                    format!("rank {r} has operations after its last `iter`"),
                );
            }
        }
        if iterations > super::MAX_ITERATIONS as usize {
            return err(
                0,
                format!(
                    "{iterations} iterations: allowed at most {}",
                    super::MAX_ITERATIONS
                ),
            );
        }
        check_pairs(&ops, &lines)?;
        Ok(Trace {
            ranks: n,
            iterations: iterations as u32,
            ops,
            cuts,
        })
    }

    /// The trace as text.
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            let _ = writeln!(s, "# {l}");
        }
        let _ = writeln!(s, "ranks {}", self.ranks);
        for r in 0..self.ranks {
            for k in 0..self.iterations {
                for op in self.ops(r, k) {
                    let _ = match *op {
                        Op::Send { peer, bytes } => writeln!(s, "{r} send {peer} {bytes}"),
                        Op::Recv { peer, bytes } => writeln!(s, "{r} recv {peer} {bytes}"),
                        Op::Wait => writeln!(s, "{r} wait"),
                        Op::Compute(c) => writeln!(s, "{r} compute {c}"),
                    };
                }
                let _ = writeln!(s, "{r} iter");
            }
        }
        s
    }

    /// The trace of motif `cfg` on `ranks` ranks with `seed` (what the motif runs).
    pub fn of_motif(cfg: &MotifConfig, ranks: u32, seed: u64) -> Result<Trace, ConfigErrors> {
        cfg.validate(ranks)?;
        let mut gen = MotifGen::new(cfg, ranks, seed);
        let mut ops = vec![Vec::new(); ranks as usize];
        let mut cuts = vec![vec![0]; ranks as usize];
        let mut total = 0usize;
        for k in 0..cfg.iterations {
            for r in 0..ranks as usize {
                gen.ops(r as u32, k, &mut ops[r]);
                cuts[r].push(ops[r].len());
                total += cuts[r][k as usize + 1] - cuts[r][k as usize];
            }
            if total > MAX_TRACE_OPS {
                // the operations an iteration so far (on average)
                let per = (total / (k as usize + 1)).max(1);
                let mut e = ConfigErrors::default();
                e.push(
                    "iterations",
                    cfg.iterations,
                    format!(
                        "must be at most about {} here: the trace would hold more than {MAX_TRACE_OPS} operations ({per} an iteration on {ranks} ranks)",
                        (MAX_TRACE_OPS / per).max(1)
                    ),
                );
                return Err(e);
            }
        }
        Ok(Trace {
            ranks,
            iterations: cfg.iterations,
            ops,
            cuts,
        })
    }
}

/// The k-th send from a to b and the k-th receive at b from a: the same count and sizes.
fn check_pairs(ops: &[Vec<Op>], lines: &[Vec<usize>]) -> Result<(), TraceError> {
    // (src, dst) -> (sends, receives) as (bytes, line)
    type Side = Vec<(u32, usize)>;
    let mut pairs: HashMap<(u32, u32), (Side, Side)> = HashMap::new();
    for (r, rops) in ops.iter().enumerate() {
        for (op, &ln) in rops.iter().zip(&lines[r]) {
            match *op {
                Op::Send { peer, bytes } => pairs
                    .entry((r as u32, peer))
                    .or_default()
                    .0
                    .push((bytes, ln)),
                Op::Recv { peer, bytes } => pairs
                    .entry((peer, r as u32))
                    .or_default()
                    .1
                    .push((bytes, ln)),
                _ => {}
            }
        }
    }
    let mut bad: Option<(usize, String)> = None;
    let mut note = |ln: usize, why: String| {
        if bad.as_ref().is_none_or(|b| ln < b.0) {
            bad = Some((ln, why));
        }
    };
    for (&(a, b), (sends, recvs)) in &pairs {
        for (k, (s, r)) in sends.iter().zip(recvs).enumerate() {
            if s.0 != r.0 {
                note(s.1, format!("send #{} from rank {a} to rank {b} has {} bytes; its receive at rank {b} (line {}) has {}", k + 1, s.0, r.1, r.0));
            }
        }
        if sends.len() > recvs.len() {
            let s = sends[recvs.len()];
            note(s.1, format!("send #{} from rank {a} to rank {b} has no receive: rank {b} posts {} from rank {a}", recvs.len() + 1, recvs.len()));
        } else if recvs.len() > sends.len() {
            let r = recvs[sends.len()];
            note(r.1, format!("receive #{} at rank {b} from rank {a} has no send: rank {a} sends {} to rank {b}", sends.len() + 1, sends.len()));
        }
    }
    match bad {
        Some((line, reason)) => Err(TraceError { line, reason }),
        None => Ok(()),
    }
}

/// `[workload] kind = "trace"`: replays a trace file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    /// The trace file; a relative path is taken from the scenario file's directory.
    pub path: String,
    /// The first iterations left out of the statistics. 0..iterations, default 0.
    #[serde(default)]
    pub warmup_iterations: u32,
    /// Cycle in which the ranks start. Default 0.
    #[serde(default)]
    pub start_cycle: u64,
    /// The parsed trace, or why it was refused (`resolve`).
    #[serde(skip)]
    pub loaded: Option<Result<Arc<Trace>, String>>,
}

impl TraceConfig {
    /// Makes a relative `path` absolute from `base` (None: the current directory) and
    /// reads the file; `validate` reports a file that cannot be read or parsed.
    pub fn resolve(&mut self, base: Option<&std::path::Path>) {
        if self.path.is_empty() {
            // (not the scenario's directory)
            self.loaded = Some(Err("the path is empty: name the trace file".into()));
            return;
        }
        let p = std::path::Path::new(self.path.as_str());
        let full = match base {
            Some(b) if p.is_relative() => b.join(p),
            _ => p.to_path_buf(),
        };
        if let Ok(abs) = std::path::absolute(&full) {
            self.path = abs.display().to_string();
        }
        self.loaded = Some(match crate::input::read_to_string(&self.path) {
            Ok(text) => Trace::parse(&text).map(Arc::new).map_err(|e| e.to_string()),
            Err(e) => Err(format!("cannot read it: {e}")),
        });
    }

    /// Checks the trace and the keys for `nodes` NICs.
    pub fn validate(&self, nodes: u32) -> Result<(), ConfigErrors> {
        let mut e = ConfigErrors::default();
        e.check_u64("nodes", nodes as u64, 2, MAX_NODES as u64);
        match &self.loaded {
            None => e.push(
                "path",
                &self.path,
                "the trace was not read (internal: call `resolve`)",
            ),
            Some(Err(why)) => e.push("path", &self.path, why.clone()),
            Some(Ok(t)) => {
                if t.ranks > nodes {
                    e.push(
                        "path",
                        format!("{} (a trace of {} ranks)", self.path, t.ranks),
                        format!("allowed at most the NIC count, {nodes}, ranks"),
                    );
                }
                super::check_common(
                    &mut e,
                    t.iterations,
                    self.warmup_iterations,
                    self.start_cycle,
                );
            }
        }
        e.into_result()
    }

    /// The parsed trace (after a successful `validate`).
    pub fn trace(&self) -> Option<Arc<Trace>> {
        self.loaded.as_ref().and_then(|l| l.as_ref().ok().cloned())
    }
}
