//! Open-loop stimulus files: `flit_valid,credit_return`, one row per traced cycle.

use pft_sim::error::excerpt;
use std::path::Path;
use thiserror::Error;

/// The exact header of a stimulus file.
pub const HEADER: &str = "flit_valid,credit_return";

/// One cycle of open-loop stimulus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StimulusRow {
    pub flit_valid: bool,
    pub credit_return: u8,
}

/// A stimulus file that cannot be used. Line numbers count from 1 (the header is line 1).
#[derive(Debug, Error)]
pub enum StimulusError {
    #[error("cannot read stimulus {path}: {err}")]
    Read { path: String, err: std::io::Error },
    #[error("stimulus {path}: line 1: header must be exactly `{HEADER}`, found `{found}`")]
    Header { path: String, found: String },
    #[error("stimulus {path}: line {line}: malformed CSV: {msg}")]
    Csv {
        path: String,
        line: u64,
        msg: String,
    },
    #[error("stimulus {path}: line {line}: expected 2 fields ({HEADER}), found {found}")]
    Fields {
        path: String,
        line: u64,
        found: usize,
    },
    #[error("stimulus {path}: line {line}, column `{column}`: `{value}` is not allowed (allowed {allowed})")]
    Value {
        path: String,
        line: u64,
        column: &'static str,
        value: String,
        allowed: &'static str,
    },
    #[error("stimulus {path}: no rows after the header (at least one cycle is needed)")]
    Empty { path: String },
}

/// Read and check a whole stimulus file.
pub fn load(path: &Path) -> Result<Vec<StimulusRow>, StimulusError> {
    let p = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|err| StimulusError::Read {
        path: p.clone(),
        err,
    })?;
    parse(&bytes, &p)
}

/// Parse and check stimulus text; `origin` names it in messages.
pub fn parse(bytes: &[u8], origin: &str) -> Result<Vec<StimulusRow>, StimulusError> {
    let path = || origin.to_string();
    let mut rd = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        // Fields are plain integers: a quote is an error, not a CSV quoted field that could
        // run on to the end of the file.
        .quoting(false)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut rec = csv::StringRecord::new();
    let mut first = true;
    // Line numbers come from byte offsets. The reader's own line count is one short after a
    // CRLF line end, and a record's position is where the reader started, before the line
    // ends (and blank lines) it skipped: skip them here too.
    let line_at = |byte: u64| {
        let mut end = (byte as usize).min(bytes.len());
        while end < bytes.len() && (bytes[end] == b'\r' || bytes[end] == b'\n') {
            end += 1;
        }
        // a line ends with LF, CRLF or a lone CR (the reader accepts all three)
        let b = &bytes[..end];
        let lone_cr = (0..end)
            .filter(|&i| b[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            .count();
        (b.iter().filter(|&&c| c == b'\n').count() + lone_cr) as u64 + 1
    };
    loop {
        let line = line_at(rd.position().byte());
        match rd.read_record(&mut rec) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(line, |p| line_at(p.byte()));
                let msg = match e.kind() {
                    csv::ErrorKind::Utf8 { err, .. } => match err.field() {
                        0 => "column `flit_valid` is not valid UTF-8".to_string(),
                        1 => "column `credit_return` is not valid UTF-8".to_string(),
                        f => format!("field {} is not valid UTF-8", f + 1),
                    },
                    _ => e.to_string(),
                };
                return Err(StimulusError::Csv {
                    path: path(),
                    line,
                    msg,
                });
            }
        }
        let line = rec.position().map_or(line, |p| line_at(p.byte()));
        if first {
            first = false;
            let found: Vec<&str> = rec.iter().collect();
            if found.join(",").trim_start_matches('\u{feff}') != HEADER {
                return Err(StimulusError::Header {
                    path: path(),
                    found: excerpt(&found.join(",")),
                });
            }
            continue;
        }
        if rec.len() != 2 {
            return Err(StimulusError::Fields {
                path: path(),
                line,
                found: rec.len(),
            });
        }
        let fv = rec[0].trim();
        let flit_valid = match fv {
            "0" => false,
            "1" => true,
            _ => {
                return Err(StimulusError::Value {
                    path: path(),
                    line,
                    column: "flit_valid",
                    value: excerpt(fv),
                    allowed: "0 or 1",
                })
            }
        };
        let cr = rec[1].trim();
        let credit_return = cr.parse::<u8>().map_err(|_| StimulusError::Value {
            path: path(),
            line,
            column: "credit_return",
            value: excerpt(cr),
            allowed: "an integer in 0..=255",
        })?;
        rows.push(StimulusRow {
            flit_valid,
            credit_return,
        });
    }
    if first {
        return Err(StimulusError::Header {
            path: path(),
            found: String::new(),
        });
    }
    if rows.is_empty() {
        return Err(StimulusError::Empty { path: path() });
    }
    Ok(rows)
}

/// Write rows in the stimulus format (what `parse` reads).
pub fn write(w: &mut impl std::io::Write, rows: &[StimulusRow]) -> std::io::Result<()> {
    writeln!(w, "{HEADER}")?;
    for r in rows {
        writeln!(w, "{},{}", r.flit_valid as u8, r.credit_return)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let rows = parse(b"flit_valid,credit_return\n1,0\n0,255\r\n", "t").unwrap();
        assert_eq!(
            rows,
            vec![
                StimulusRow {
                    flit_valid: true,
                    credit_return: 0
                },
                StimulusRow {
                    flit_valid: false,
                    credit_return: 255
                }
            ]
        );
        let mut out = Vec::new();
        write(&mut out, &rows).unwrap();
        assert_eq!(parse(&out, "t").unwrap(), rows);
        let e = parse(b"flit_valid,credit_return\n1,0\n1,300\n", "t")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 3") && e.contains("`credit_return`") && e.contains("0..=255"),
            "{e}"
        );
        let e = parse(b"flit_valid,credit_return\n2,0\n", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("`flit_valid`"), "{e}");
        let e = parse(b"valid,credit\n1,0\n", "t").unwrap_err().to_string();
        assert!(e.contains("header"), "{e}");
        let e = parse(b"flit_valid,credit_return\n1\n", "t")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2") && e.contains("expected 2 fields"),
            "{e}"
        );
        assert!(parse(b"flit_valid,credit_return\n", "t").is_err());
        assert!(parse(b"", "t").is_err());
    }
}
