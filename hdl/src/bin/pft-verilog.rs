//! Write the Verilog of one design of the registry (`pft_hdl::DESIGNS`): `--design NAME`
//! (a design's name or top module; `--flows N` picks a size), or the older flags each
//! design lists as its alias (`--pipelined`, `--selftuned`, `--mvcm [--flows N]`,
//! `--ibcc [--flows N | --cct random]`); without either, PFT's block `pft_injector`.
//! `--family F` writes every top of a family into `--out-dir DIR` (default `synth/out`),
//! as `make synth-F` does; `--list` prints the registry as JSON
//! (`hdl/generated/designs.json`). The usage text lists the designs.
//!
//! An unknown option, a second argument or a repeated option is a usage error (exit status
//! 2, the message names the option). An output that cannot be written (a directory, a
//! device or other non-regular file, a path below a file, an unwritable directory) is
//! refused before any work (exit status 1); the file is written under a temporary name and
//! renamed (`pft_hdl::outfile`), so a failure never leaves a partial file under OUT.v. A
//! closed stdout is an error.

// the C `main` below is the entry point; a test build takes the test harness's
#![cfg_attr(not(test), no_main)]

use pft_hdl::axis::verilog as axis;
use pft_hdl::design::{self, Design};
use pft_hdl::DESIGNS;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

// a closed stdout (`>&-`) is found before Rust's runtime hides it (`pft_hdl::outfile`)
pft_hdl::standard_fds_guard!();

/// The option that picks a design's size.
const SIZE: &str = "--flows";
/// `pft_axis`'s data width and `tuser` width.
const WIDTH: &str = "--data-width";
const USER_WIDTH: &str = "--user-width";

/// The usage text, from the registry.
fn usage() -> String {
    let mut u = String::from(
        "usage: pft-verilog [--design NAME [--flows N]] [OUT.v | -]\n       \
         pft-verilog --design pft_axis [--data-width N] [--user-width U] [OUT.v | -]\n       \
         pft-verilog --family FAMILY [--out-dir DIR]\n       \
         pft-verilog --list | --help | --version\n  \
         (default: the design pft_injector; OUT.v defaults to synth/out/<top>.v; `-` writes \
         to stdout;\n  --family writes every top of the family into DIR, default synth/out; \
         --list prints the\n  registry as JSON; pft_axis: N in 64..512, a power of two (default 64), U in 1, 8, 16,\n  32, 64 (default 1), OUT.v defaults to synth/out/pft_axis[_N[_uU]].v)\n\ndesigns (NAME, sizes N, older flags):\n",
    );
    for d in DESIGNS {
        let sizes = if d.sizes.is_empty() {
            String::new()
        } else {
            format!(" --flows N (N: {:?}; tops {}N)", d.sizes, d.name)
        };
        let alias = if d.alias.is_empty() {
            String::new()
        } else {
            format!(" [= {}]", d.alias)
        };
        u.push_str(&format!(
            "  {}{sizes}{alias}\n      {}; family {}, tested against {}\n",
            d.name, d.about, d.family, d.model
        ));
    }
    u.pop();
    u
}

fn usage_error(msg: &str) -> Result<(), i32> {
    pft_hdl::eprintln_safe!("error: {msg}\n{}", usage());
    Err(2)
}

/// The older flags of the registry's aliases: flag -> whether it takes a value.
fn alias_flags() -> BTreeMap<&'static str, bool> {
    let mut m = BTreeMap::new();
    for d in DESIGNS {
        let t: Vec<&str> = d.alias.split_whitespace().collect();
        for (i, f) in t.iter().enumerate() {
            if f.starts_with("--") {
                let value = t.get(i + 1).is_some_and(|v| !v.starts_with("--"));
                m.insert(*f, value);
            }
        }
    }
    m
}

/// The design whose alias is exactly `given` (flag -> value): with its size when the alias
/// has `N`. `Err` names what does not fit.
fn by_alias(given: &BTreeMap<String, String>) -> Result<(&'static Design, Option<usize>), String> {
    for d in DESIGNS.iter().filter(|d| !d.alias.is_empty()) {
        let t: Vec<&str> = d.alias.split_whitespace().collect();
        let mut want: BTreeMap<&str, &str> = BTreeMap::new();
        let mut i = 0;
        while i < t.len() {
            let v = t.get(i + 1).filter(|v| !v.starts_with("--"));
            want.insert(t[i], v.copied().unwrap_or(""));
            i += 1 + v.is_some() as usize;
        }
        if want.len() != given.len() || !want.keys().all(|k| given.contains_key(*k)) {
            continue;
        }
        let mut size = None;
        let mut ok = true;
        for (k, w) in &want {
            let g = &given[*k];
            if *w == "N" {
                match g.parse::<usize>() {
                    Ok(n) if d.sizes.contains(&n) => size = Some(n),
                    _ => return Err(format!("{k} {g}: built for {:?} flows", d.sizes)),
                }
            } else if g != w {
                ok = false;
                if !w.is_empty() {
                    return Err(format!("{k} {g}: the only value built is `{w}`"));
                }
            }
        }
        if ok {
            return Ok((d, size));
        }
    }
    let flags: Vec<String> = given
        .iter()
        .map(|(k, v)| {
            if v.is_empty() {
                k.clone()
            } else {
                format!("{k} {v}")
            }
        })
        .collect();
    let known: Vec<&str> = DESIGNS
        .iter()
        .filter(|d| !d.alias.is_empty())
        .map(|d| d.alias)
        .collect();
    // the widths are pft_axis's, --flows a family's with flows: say which design they need
    let hint = if given.contains_key("--data-width") || given.contains_key("--user-width") {
        "; --data-width and --user-width go with `--design pft_axis`"
    } else if given.contains_key("--flows") {
        "; --flows goes with `--design NAME` of a design with sizes (below)"
    } else {
        ""
    };
    Err(format!(
        "`{}` selects no design: the older flags are `{}`{hint}",
        flags.join(" "),
        known.join("`, `")
    ))
}

/// The C entry point, so that Rust's runtime does not run first: it would reopen a closed
/// stdout on /dev/null (hiding `pft-verilog >&-`); here a closed descriptor 1 stays closed and
/// `outfile::stdout_is_open` reports it. (A write to a closed pipe ends the process by
/// SIGPIPE, as for any Unix filter.)
#[cfg_attr(not(test), no_mangle)]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    match run() {
        Ok(()) => 0,
        Err(code) => code,
    }
}

/// Write `text` to stdout; exit status 1 if it cannot.
fn to_stdout(text: &str, what: &str) -> Result<(), i32> {
    pft_hdl::outfile::write_stdout(text).map_err(|e| {
        pft_hdl::eprintln_safe!("error: cannot write {what} to stdout: {e}");
        1
    })
}

/// Write `text` to `out` (checked first, then written atomically) and say so.
fn to_file(out: &Path, text: impl FnOnce() -> String) -> Result<(), i32> {
    // Refused before any work: a directory, a device, a path below a file, an unwritable
    // directory. Written under a temporary name and renamed: never a partial file.
    if let Err(e) = pft_hdl::outfile::check(out, &[]) {
        pft_hdl::eprintln_safe!("error: {e}");
        return Err(1);
    }
    if let Err(e) = pft_hdl::outfile::write_atomic(out, text().as_bytes()) {
        pft_hdl::eprintln_safe!("error: cannot write {}: {e}", out.display());
        return Err(1);
    }
    if let Err(e) = writeln!(std::io::stdout(), "wrote {}", out.display()) {
        pft_hdl::eprintln_safe!("error: cannot write to stdout: {e}");
        return Err(1);
    }
    Ok(())
}

/// `--opt=VALUE` as (`--opt`, VALUE): split at the first `=` of an argument that starts
/// with `--` and has a name before it; the value keeps its bytes.
fn split_value(a: &std::ffi::OsStr) -> Option<(String, std::ffi::OsString)> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let b = a.as_bytes();
    let eq = b.iter().position(|&c| c == b'=')?;
    let key = std::str::from_utf8(&b[..eq]).ok()?;
    (key.starts_with("--") && key.len() > 2).then(|| {
        (
            key.to_string(),
            std::ffi::OsString::from_vec(b[eq + 1..].to_vec()),
        )
    })
}

/// The file `--design pft_axis` writes without OUT.v, the names `make verilog` writes and
/// docs/axis.md gives: `synth/out/pft_axis.v` at the default widths, `pft_axis_N.v` with
/// N-bit data (`pft_axis_512.v`), `pft_axis_N_uU.v` with a U-bit `tuser` (`pft_axis_64_u8.v`).
fn axis_default_out(top: &str, w: usize, u: usize) -> PathBuf {
    let stem = match (w == axis::DEFAULT_DATA_WIDTH, u == axis::DEFAULT_USER_WIDTH) {
        (true, true) => top.to_string(),
        (_, true) => format!("{top}_{w}"),
        _ => format!("{top}_{w}_u{u}"),
    };
    PathBuf::from(format!("synth/out/{stem}.v"))
}

/// Exit status 1 or 2 as `Err`.
fn run() -> Result<(), i32> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let aliases = alias_flags();
    let mut out: Option<PathBuf> = None;
    let mut dashdash = false;
    // Every option given, with its value ("" for a flag): a second one is an error.
    let mut opts: BTreeMap<String, std::ffi::OsString> = BTreeMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if !dashdash && (s == "-h" || s == "--help") {
            return to_stdout(&format!("{}\n", usage()), "the usage");
        }
        if !dashdash && (s == "-V" || s == "--version") {
            // as the clap tools print theirs
            let v = concat!("pft-verilog ", env!("CARGO_PKG_VERSION"));
            return to_stdout(&format!("{v}\n"), "the version");
        }
        if !dashdash && s == "--" {
            dashdash = true;
            continue;
        }
        if !dashdash && s.starts_with('-') && s.len() > 1 {
            let whole = s.clone();
            // `--opt=VALUE` is `--opt VALUE`, as for the clap tools (the value's bytes kept
            // as given, UTF-8 or not)
            let (s, inline) = match split_value(a) {
                Some((k, v)) => (k.into(), Some(v)),
                None => (s, None),
            };
            let takes_value = match s.as_ref() {
                "--design" | "--family" | "--out-dir" | WIDTH | USER_WIDTH => true,
                "--list" | "--help" | "--version" => false,
                f => match aliases.get(f) {
                    Some(v) => *v,
                    None => {
                        return usage_error(&format!(
                            "unknown option `{whole}` (write `-- {whole}` for a file of that name)"
                        ))
                    }
                },
            };
            if opts.contains_key(s.as_ref()) {
                return usage_error(&format!("{s} given twice: give it once"));
            }
            let v = if let Some(v) = inline {
                if !takes_value {
                    return usage_error(&format!("{s} takes no value"));
                }
                if v.is_empty() {
                    return usage_error(&format!("{s} needs a value"));
                }
                v
            } else if takes_value {
                match it.next() {
                    Some(v) => v.clone(),
                    None => return usage_error(&format!("{s} needs a value")),
                }
            } else {
                Default::default()
            };
            opts.insert(s.into_owned(), v);
            continue;
        }
        if out.is_some() {
            return usage_error(&format!(
                "unexpected argument `{s}`: pft-verilog takes at most one output file"
            ));
        }
        if s.is_empty() {
            return usage_error("the output file name is empty");
        }
        out = Some(PathBuf::from(a));
    }
    let text = |k: &str| opts.get(k).map(|v| v.to_string_lossy().into_owned());
    if opts.contains_key("--list") {
        if opts.len() > 1 || out.is_some() {
            return usage_error("--list takes nothing else");
        }
        return to_stdout(&design::json(DESIGNS), "the list");
    }
    if let Some(f) = text("--family") {
        if opts.len() > 1 + opts.contains_key("--out-dir") as usize || out.is_some() {
            return usage_error("--family takes only --out-dir DIR");
        }
        if opts.get("--out-dir").is_some_and(|d| d.is_empty()) {
            return usage_error("--out-dir is empty: give a directory (`.` for this one)");
        }
        let designs: Vec<&Design> = DESIGNS.iter().filter(|d| d.family == f).collect();
        if designs.is_empty() {
            let mut fams: Vec<&str> = DESIGNS.iter().map(|d| d.family).collect();
            fams.dedup();
            return usage_error(&format!("--family {f}: the families are {fams:?}"));
        }
        let dir = PathBuf::from(opts.get("--out-dir").cloned().unwrap_or("synth/out".into()));
        let files: Vec<(PathBuf, &Design, _)> = designs
            .iter()
            .flat_map(|d| {
                let dir = &dir;
                d.tops()
                    .into_iter()
                    .map(move |(top, size)| (dir.join(format!("{top}.v")), *d, size))
            })
            .collect();
        // every output checked before the first is written, and no two the same file (a
        // link from one to another): a refusal leaves none
        let names: Vec<String> = files
            .iter()
            .map(|(p, _, _)| p.display().to_string())
            .collect();
        let outputs: Vec<(&str, &Path)> = names
            .iter()
            .zip(&files)
            .map(|(n, (p, _, _))| (n.as_str(), p.as_path()))
            .collect();
        if let Err(mut e) = pft_hdl::outfile::check_all(&outputs, &[]) {
            // (the outputs are named by their paths: no flag to name)
            e.flag = None;
            pft_hdl::eprintln_safe!("error: {e}");
            return Err(1);
        }
        for (path, d, size) in files {
            to_file(&path, || d.export(size))?;
        }
        return Ok(());
    }
    if opts.contains_key("--out-dir") {
        return usage_error("--out-dir goes with --family");
    }
    let (d, size) = if let Some(name) = text("--design") {
        let others: Vec<&String> = opts
            .keys()
            .filter(|k| *k != "--design" && *k != SIZE && *k != WIDTH && *k != USER_WIDTH)
            .collect();
        if let Some(o) = others.first() {
            return usage_error(&format!("--design and {o} exclude each other"));
        }
        let Some((d, size)) = design::find(DESIGNS, &name) else {
            let names: Vec<&str> = DESIGNS.iter().map(|d| d.name).collect();
            return usage_error(&format!("--design {name}: the designs are {names:?}"));
        };
        match (text(SIZE), size, d.sizes.is_empty()) {
            (None, None, false) => {
                return usage_error(&format!(
                    "--design {name} needs --flows N (N: {:?})",
                    d.sizes
                ))
            }
            (None, s, _) => (d, s),
            (Some(n), None, false) => match n.parse::<usize>() {
                Ok(n) if d.sizes.contains(&n) => (d, Some(n)),
                _ => return usage_error(&format!("--flows {n}: built for {:?} flows", d.sizes)),
            },
            (Some(_), _, _) => {
                return usage_error(&format!(
                    "--flows goes with a design that has sizes, not {name}"
                ))
            }
        }
    } else if opts.is_empty() {
        (&DESIGNS[0], None)
    } else {
        let given: BTreeMap<String, String> = opts
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string_lossy().into_owned()))
            .collect();
        match by_alias(&given) {
            Ok(x) => x,
            Err(e) => return usage_error(&e),
        }
    };
    let top = d.top(size);
    if opts.contains_key(WIDTH) || opts.contains_key(USER_WIDTH) {
        if d.name != axis::TOP {
            return usage_error(&format!(
                "{WIDTH} and {USER_WIDTH} go with --design {}, not {}",
                axis::TOP,
                d.name
            ));
        }
        let num = |k: &str, dflt: usize| -> Result<usize, String> {
            match text(k) {
                None => Ok(dflt),
                Some(v) => v.parse::<usize>().map_err(|_| match k {
                    WIDTH => format!(
                        "{WIDTH} {v}: must be in 64..512 and a power of two (64, 128, 256, 512)"
                    ),
                    _ => format!("{k} {v}: built for {:?}", axis::USER_WIDTHS),
                }),
            }
        };
        let widths = num(WIDTH, axis::DEFAULT_DATA_WIDTH)
            .and_then(|w| num(USER_WIDTH, axis::DEFAULT_USER_WIDTH).map(|u| (w, u)));
        let (w, u) = match widths.and_then(|(w, u)| axis::check_widths(w, u).map(|_| (w, u))) {
            Ok(x) => x,
            Err(e) => return usage_error(&e),
        };
        let out = out.unwrap_or_else(|| axis_default_out(&top, w, u));
        let text = || axis::axis_verilog(w, u).expect("widths checked");
        if out.as_os_str() == "-" {
            return to_stdout(&text(), "the Verilog");
        }
        return to_file(&out, text);
    }
    let out = out.unwrap_or_else(|| PathBuf::from(format!("synth/out/{top}.v")));
    if out.as_os_str() == "-" {
        // `-`: the Verilog on stdout (write `./-` for a file of that name)
        return to_stdout(&d.export(size), "the Verilog");
    }
    to_file(&out, || d.export(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_default_names() {
        let name = |w, u| axis_default_out(axis::TOP, w, u);
        assert_eq!(name(64, 1), Path::new("synth/out/pft_axis.v"));
        assert_eq!(name(512, 1), Path::new("synth/out/pft_axis_512.v"));
        assert_eq!(name(64, 8), Path::new("synth/out/pft_axis_64_u8.v"));
        assert_eq!(name(256, 16), Path::new("synth/out/pft_axis_256_u16.v"));
    }

    /// Each `pft-verilog --design pft_axis` command of the Makefile and of
    /// synth/axis/synth.sh writes the file pft-verilog writes without OUT.v (the same name;
    /// the Makefile's in the same place), so `make verilog`, synthesis, cocotb
    /// (`synth/out/pft_axis_512.v`) and a bare `pft-verilog` agree.
    #[test]
    fn scripts_write_the_default_names() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut widths = Vec::new();
        for (file, same_dir) in [("Makefile", true), ("synth/axis/synth.sh", false)] {
            let text = std::fs::read_to_string(root.join(file)).expect(file);
            for line in text.lines() {
                let Some(i) = line.find("pft-verilog --design pft_axis") else {
                    continue;
                };
                let (mut w, mut u, mut out) =
                    (axis::DEFAULT_DATA_WIDTH, axis::DEFAULT_USER_WIDTH, None);
                let mut args = line[i..].split_whitespace().skip(3);
                while let Some(a) = args.next() {
                    let mut num = || args.next().and_then(|v| v.parse().ok()).expect(line);
                    match a {
                        WIDTH => w = num(),
                        USER_WIDTH => u = num(),
                        _ if !a.starts_with('-') => {
                            out = Some(PathBuf::from(a.trim_matches('"')));
                            break;
                        }
                        _ => panic!("{file}: `{a}` in `{line}`"),
                    }
                }
                let (out, want) = (out.expect(line), axis_default_out(axis::TOP, w, u));
                if same_dir {
                    assert_eq!(out, want, "{file}: `{line}`");
                } else {
                    assert_eq!(out.file_name(), want.file_name(), "{file}: `{line}`");
                }
                widths.push(w);
            }
        }
        // the 64-bit and the 512-bit export, in the Makefile and in synth.sh
        assert!(widths.contains(&64) && widths.contains(&512), "{widths:?}");
    }
}
