//! Open-loop stimulus files: `flit_valid,credit_return`, one row per traced cycle, or
//! `flit_valid,credit_return,flit_head` for packets longer than one flit (`flit_head` = 1:
//! the flit at the head of the queue starts a packet; without the column every flit does).

use pft_sim::error::excerpt;
use std::path::Path;
use thiserror::Error;

/// The exact header of a stimulus file of 1-flit packets.
pub const HEADER: &str = "flit_valid,credit_return";
/// The exact header of a stimulus file with packets (the third column is `flit_head`).
pub const HEADER_HEAD: &str = "flit_valid,credit_return,flit_head";

/// One cycle of open-loop stimulus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StimulusRow {
    pub flit_valid: bool,
    pub credit_return: u8,
    /// The `flit_head` column (None: a 2-column file, every flit starts a packet).
    pub flit_head: Option<bool>,
}

impl StimulusRow {
    /// The block's `flit_head` input: the column, or true without it.
    pub fn head(&self) -> bool {
        self.flit_head.unwrap_or(true)
    }
}

/// A stimulus file that cannot be used. Line numbers count from 1 (the header is line 1).
#[derive(Debug, Error)]
pub enum StimulusError {
    #[error("cannot read stimulus {path}: {err}")]
    Read { path: String, err: std::io::Error },
    #[error("stimulus {path}: line {line}: header must be exactly `{HEADER}` or `{HEADER_HEAD}`, found `{found}`")]
    Header {
        path: String,
        /// The header's line (blank lines before it counted; 1 for an empty file).
        line: u64,
        found: String,
    },
    #[error("stimulus {path}: line {line}: malformed CSV: {msg}")]
    Csv {
        path: String,
        line: u64,
        msg: String,
    },
    #[error("stimulus {path}: line {line}: expected {want} fields ({header}), found {found}")]
    Fields {
        path: String,
        line: u64,
        want: usize,
        header: &'static str,
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
    let bytes = pft_sim::input::read(path).map_err(|err| StimulusError::Read {
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
    let mut header = HEADER;
    // Line numbers come from byte offsets. The reader's own line count is one short after a
    // CRLF line end, and a record's position is where the reader started, before the line
    // ends (and blank lines) it skipped: skip them here too. The line ends are counted on
    // from the last position asked for (positions only grow), so a file is read once, not
    // once per row.
    let (mut counted_to, mut ends) = (0usize, 0u64);
    let mut line_at = |byte: u64| {
        let mut end = (byte as usize).min(bytes.len());
        while end < bytes.len() && (bytes[end] == b'\r' || bytes[end] == b'\n') {
            end += 1;
        }
        if end < counted_to {
            (counted_to, ends) = (0, 0);
        }
        // a line ends with LF, CRLF or a lone CR (the reader accepts all three)
        ends += (counted_to..end)
            .filter(|&i| {
                bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            })
            .count() as u64;
        counted_to = end;
        ends + 1
    };
    loop {
        let line = line_at(rd.position().byte());
        match rd.read_record(&mut rec) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(line, |p| line_at(p.byte()));
                let msg = match e.kind() {
                    // a data line's column by its name; the header's fields, and a field
                    // past the header's columns, by their place
                    csv::ErrorKind::Utf8 { err, .. } => match err.field() {
                        f if !first && f < header.split(',').count() => format!(
                            "column `{}` is not valid UTF-8",
                            header.split(',').nth(f).unwrap_or_default()
                        ),
                        f if first => format!("the header's field {} is not valid UTF-8", f + 1),
                        f => format!(
                            "field {} is not valid UTF-8 (the header has {} columns)",
                            f + 1,
                            header.split(',').count()
                        ),
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
            header = match found.join(",").trim_start_matches('\u{feff}') {
                HEADER => HEADER,
                HEADER_HEAD => HEADER_HEAD,
                _ => {
                    return Err(StimulusError::Header {
                        path: path(),
                        line,
                        found: excerpt(&found.join(",")),
                    })
                }
            };
            continue;
        }
        let want = header.split(',').count();
        if rec.len() != want {
            return Err(StimulusError::Fields {
                path: path(),
                line,
                want,
                header,
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
        let flit_head = if want == 3 {
            let h = rec[2].trim();
            Some(match h {
                "0" => false,
                "1" => true,
                _ => {
                    return Err(StimulusError::Value {
                        path: path(),
                        line,
                        column: "flit_head",
                        value: excerpt(h),
                        allowed: "0 or 1",
                    })
                }
            })
        } else {
            None
        };
        rows.push(StimulusRow {
            flit_valid,
            credit_return,
            flit_head,
        });
    }
    if first {
        return Err(StimulusError::Header {
            path: path(),
            line: 1,
            found: String::new(),
        });
    }
    if rows.is_empty() {
        return Err(StimulusError::Empty { path: path() });
    }
    Ok(rows)
}

/// Write rows in the stimulus format (what `parse` reads): with the `flit_head` column when
/// any row has one.
pub fn write(w: &mut impl std::io::Write, rows: &[StimulusRow]) -> std::io::Result<()> {
    let heads = rows.iter().any(|r| r.flit_head.is_some());
    writeln!(w, "{}", if heads { HEADER_HEAD } else { HEADER })?;
    for r in rows {
        if heads {
            writeln!(
                w,
                "{},{},{}",
                r.flit_valid as u8,
                r.credit_return,
                r.head() as u8
            )?;
        } else {
            writeln!(w, "{},{}", r.flit_valid as u8, r.credit_return)?;
        }
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
                    credit_return: 0,
                    flit_head: None
                },
                StimulusRow {
                    flit_valid: false,
                    credit_return: 255,
                    flit_head: None
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
        // packets: the flit_head column
        let rows = parse(b"flit_valid,credit_return,flit_head\n1,0,1\n1,2,0\n", "t").unwrap();
        assert_eq!(
            rows.iter().map(|r| r.flit_head).collect::<Vec<_>>(),
            vec![Some(true), Some(false)]
        );
        let mut out = Vec::new();
        write(&mut out, &rows).unwrap();
        assert_eq!(parse(&out, "t").unwrap(), rows);
        let e = parse(b"flit_valid,credit_return,flit_head\n1,0,2\n", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2") && e.contains("`flit_head`"), "{e}");
        let e = parse(b"flit_valid,credit_return,flit_head\n1,0\n", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 3 fields"), "{e}");
        assert!(parse(b"", "t").is_err());
    }

    /// Line numbers counted on across rows (the counter resumes where the last row left
    /// it): LF, CRLF, lone CR and blank lines mixed over many rows, the error's line exact.
    #[test]
    fn line_numbers_over_many_mixed_rows() {
        let ends = ["\n", "\r\n", "\r", "\n\n", "\r\n\r\n"];
        let mut text = String::from("flit_valid,credit_return\n");
        let mut line = 1;
        for i in 0..10_000 {
            let end = ends[i % ends.len()];
            text += "1,1";
            text += end;
            line += 1 + (end == "\n\n" || end == "\r\n\r\n") as usize;
        }
        text += "1,x\n";
        let e = parse(text.as_bytes(), "t").unwrap_err().to_string();
        assert!(e.contains(&format!("line {},", line + 1)), "{e}");
    }
}
