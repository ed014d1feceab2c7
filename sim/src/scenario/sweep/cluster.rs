//! The job list and the scripts that run a sweep elsewhere (docs/sweeps.md, "On a
//! cluster"): `jobs.txt` (one `pftsim run` per line, run from the sweep directory),
//! `parallel.sh` (GNU parallel on one machine), `sweep.sbatch` (one Slurm array task per
//! line) and `submit.sh` (submits the array in chunks of at most `--array-max` tasks).
//! Every script finds the sweep directory from its own location, the binary from the
//! absolute path of the pftsim that wrote it (or `$PFTSIM`), quotes every path, and writes
//! its logs into `logs/` of the sweep directory.

use super::plan::{Plan, Unit};

/// The job list.
pub const JOBS: &str = "jobs.txt";
/// The Slurm job-array script.
pub const SBATCH: &str = "sweep.sbatch";
/// Submits the array in chunks.
pub const SUBMIT: &str = "submit.sh";
/// Runs the job list with GNU parallel.
pub const PARALLEL: &str = "parallel.sh";
/// Where the scripts' logs go (created by `--emit`).
pub const LOGS: &str = "logs";
/// Default `--array-max`: Slurm's default MaxArraySize is 1001 (indices 0..=1000).
pub const ARRAY_MAX: usize = 1000;

/// How `sweep` runs its plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// Write the job list and `parallel.sh` for GNU parallel (and run nothing).
    Parallel,
    /// Also write the Slurm job-array script and `submit.sh` (and run nothing).
    Slurm,
}

/// What the Slurm script asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct SlurmOpts {
    /// Tasks per job array (indices 0..array_max-1).
    pub array_max: usize,
    /// `--time` per task (Slurm syntax).
    pub time: String,
    /// `--mem` per task (Slurm syntax).
    pub mem: String,
    /// The job's name.
    pub job_name: String,
}

/// `s` in single quotes for bash (a `'` becomes `'\''`); any byte, a newline included,
/// stays literal.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `s` as the default word of `"${PFTSIM:-...}"`: bash parses quotes and `}` inside it, so
/// only characters that need no quoting there are taken. `None` otherwise.
fn dq(s: &str) -> Option<String> {
    let ok = |c: char| c.is_alphanumeric() || "/._-+@%,:= ~".contains(c);
    s.chars().all(ok).then(|| s.to_string())
}

/// The pftsim to put in the scripts: this binary's absolute path.
pub fn this_binary() -> anyhow::Result<String> {
    let p = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find this pftsim's own path ({e}); set PFTSIM"))?;
    Ok(p.to_string_lossy().into_owned())
}

/// The command line of `u`, run from the sweep directory: `$PFTSIM` if set, else `exe`.
/// `--skip-finished`: a line run again does nothing when its run already finished.
pub fn job_line(u: &Unit, exe: &str) -> anyhow::Result<String> {
    let exe = dq(exe).ok_or_else(|| {
        anyhow::anyhow!(
            "this pftsim's path {:?} holds a character the job lines cannot carry unquoted (allowed: letters, digits, space and / . _ - + @ % , : = ~); copy the binary to a plain path and run it from there",
            super::super::sanitize(exe)
        )
    })?;
    Ok(format!(
        "\"${{PFTSIM:-{exe}}}\" run {} --pft {} --out {} --jobs 1 --quiet --yes --skip-finished",
        shell_quote(&u.scenario),
        shell_quote(&u.run),
        shell_quote(&u.dir)
    ))
}

/// The whole job list.
pub fn jobs_text(plan: &Plan, exe: &str) -> anyhow::Result<String> {
    let mut s = String::new();
    for u in &plan.units {
        s += &job_line(u, exe)?;
        s.push('\n');
    }
    Ok(s)
}

/// A Slurm job name: `pftsim-` and the sweep directory's name (`submit.sh` takes it from
/// where the directory is then), in characters every shell and `squeue` show as they are.
pub fn job_name(dir: &std::path::Path) -> String {
    let base = dir
        .file_name()
        .map_or("sweep".into(), |n| n.to_string_lossy().into_owned());
    let n: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    format!("pftsim-{n}")
}

/// Lines that set `PFTSIM` to `exe` unless it is set.
fn pftsim_default(exe: &str) -> String {
    format!(
        "if [ -z \"${{PFTSIM:-}}\" ]; then PFTSIM={}; fi\nexport PFTSIM\n",
        shell_quote(exe)
    )
}

/// `sweep.sbatch`: one array task per line of the job list. Submitted by `submit.sh` (from
/// anywhere) or as `sbatch sweep.sbatch` from the sweep directory (then the first chunk of
/// at most `array_max` tasks only).
pub fn sbatch(plan: &Plan, o: &SlurmOpts, exe: &str) -> String {
    let n = plan.units.len();
    format!(
        r#"#!/bin/bash
# Slurm job array of a pftsim sweep of scenario `{name}`: {n} runs, one per line of {JOBS}.
# Submit with:  bash submit.sh           (from anywhere; arrays of at most {max} tasks)
#         or:   sbatch sweep.sbatch      (from this directory; the first {first} runs)
# Then:         pftsim sweep --collect --out <this directory>
#SBATCH --job-name={job}
#SBATCH --array=0-{last}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time={time}
#SBATCH --mem={mem}
#SBATCH --output={LOGS}/slurm-%A_%a.out
set -euo pipefail
# The sweep directory: under Slurm the job's working directory (submit.sh passes --chdir;
# sbatch copies this script elsewhere), else this script's own directory; the script's
# path as Slurm recorded it is the last resort.
self=$(cd "$(dirname "${{BASH_SOURCE[0]}}")" 2>/dev/null && pwd || true)
if [ -n "${{SLURM_JOB_ID:-}}" ]; then tries=("$PWD" "$self"); else tries=("$self" "$PWD"); fi
here=""
for d in "${{tries[@]}}"; do
    if [ -n "$d" ] && [ -f "$d/{JOBS}" ] && [ -f "$d/sweep.json" ]; then here=$d; break; fi
done
if [ -z "$here" ] && [ -n "${{SLURM_JOB_ID:-}}" ] && command -v scontrol >/dev/null; then
    d=$(dirname "$(scontrol show job "$SLURM_JOB_ID" | sed -n 's/^ *Command=//p' | head -n 1)")
    if [ -f "$d/{JOBS}" ] && [ -f "$d/sweep.json" ]; then here=$d; fi
fi
if [ -z "$here" ]; then
    echo "error: cannot find the sweep directory (tried ${{tries[*]}}); submit with: bash <sweep directory>/submit.sh" >&2
    exit 2
fi
cd "$here"
{pftsim}task=$(( ${{PFTSIM_OFFSET:-0}} + SLURM_ARRAY_TASK_ID ))
line=$(sed -n "$((task + 1))p" {JOBS})
if [ -z "$line" ]; then
    echo "error: {JOBS} has no line $((task + 1)) (task $task)" >&2
    exit 2
fi
eval "$line"
"#,
        name = plan.scenario,
        max = o.array_max,
        first = n.min(o.array_max),
        job = o.job_name,
        last = n.min(o.array_max).saturating_sub(1),
        time = o.time,
        mem = o.mem,
        pftsim = pftsim_default(exe),
    )
}

/// `submit.sh`: submits the job array in chunks of at most `array_max` tasks (each chunk
/// an array `0-(k-1)` with `PFTSIM_OFFSET` = its first line), or only the runs given with
/// `--tasks I,J,...` (numbers as `--collect` prints them). Other arguments go to `sbatch`
/// (they override the script's `#SBATCH` lines: `--time`, `--mem`, `--partition`, ...).
pub fn submit_sh(plan: &Plan, o: &SlurmOpts, exe: &str) -> String {
    format!(
        r#"#!/bin/bash
# Submits the Slurm job array of this sweep ({n} runs) in arrays of at most {max} tasks.
#   bash submit.sh                     every run
#   bash submit.sh --tasks 3,17,1004   only these runs (as `pftsim sweep --collect` lists them)
#   bash submit.sh --partition=long    other arguments go to sbatch
#   (--tasks=3,17 is the same as --tasks 3,17, before or after other arguments)
set -euo pipefail
here=$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)
{pftsim}n={n}
max=${{PFTSIM_ARRAY_MAX:-{max}}}
if ! [[ $max =~ ^[1-9][0-9]{{0,6}}$ ]] || ((max > 1000000)); then
    echo "error: PFTSIM_ARRAY_MAX = $max: must be an integer in 1..=1000000" >&2
    exit 2
fi
# --tasks LIST or --tasks=LIST, anywhere among the arguments; the others go to sbatch
tasks=()
given=""
pass=()
while [ $# -gt 0 ]; do
    case "$1" in
        --tasks|--tasks=*)
            if [ -n "$given" ]; then
                echo "error: --tasks is given twice; give one list such as 3,17,1004" >&2
                exit 2
            fi
            if [ "$1" = "--tasks" ]; then
                if [ $# -lt 2 ]; then
                    echo "error: --tasks needs a list of runs such as 3,17,1004 (0..$((n - 1)))" >&2
                    exit 2
                fi
                given=$2
                shift 2
            else
                given=${{1#--tasks=}}
                shift
            fi
            IFS=, read -r -a tasks <<< "$given"
            given=${{given:-,}}
            if [ ${{#tasks[@]}} -eq 0 ]; then
                echo "error: --tasks needs a list of runs such as 3,17,1004 (0..$((n - 1)))" >&2
                exit 2
            fi
            for t in "${{tasks[@]}}"; do
                if ! [[ $t =~ ^[0-9]{{1,9}}$ ]] || (( 10#$t >= n )); then
                    echo "error: --tasks: '$t' is not a run of this sweep (0..$((n - 1)))" >&2
                    exit 2
                fi
            done
            ;;
        *)
            pass+=("$1")
            shift
            ;;
    esac
done
# the job is named after the sweep directory, as `pftsim sweep` names it in sweep.sbatch:
# one `_` per character outside A-Za-z0-9_.- (a UTF-8 character's continuation bytes
# dropped, in bytes whatever the locale), cut to 48; Slurm expands % in --output, so it is
# doubled
name=$(export LC_ALL=C; b=${{here##*/}}; b=${{b//[$'\x80'-$'\xbf']/}}
    b=${{b//[!A-Za-z0-9_.-]/_}}; printf '%s' "${{b:0:48}}")
logs="${{here//%/%%}}/{LOGS}"
mkdir -p "$here/{LOGS}"
submit() {{  # submit ARRAY OFFSET [SBATCH OPTIONS]
    sbatch --chdir="$here" --output="$logs/slurm-%A_%a.out" --job-name="pftsim-$name" \
        --array="$1" --export="ALL,PFTSIM_OFFSET=$2" "${{@:3}}" "$here/{SBATCH}"
}}
for ((off = 0; off < n; off += max)); do
    if [ ${{#tasks[@]}} -eq 0 ]; then
        k=$(( n - off < max ? n - off : max ))
        submit "0-$((k - 1))" "$off" ${{pass[@]+"${{pass[@]}}"}}
    else
        list=""
        for t in "${{tasks[@]}}"; do
            t=$((10#$t))
            if (( t >= off && t < off + max )); then
                list="$list${{list:+,}}$((t - off))"
            fi
        done
        if [ -n "$list" ]; then submit "$list" "$off" ${{pass[@]+"${{pass[@]}}"}}; fi
    fi
done
"#,
        n = plan.units.len(),
        max = o.array_max,
        pftsim = pftsim_default(exe),
    )
}

/// `parallel.sh`: the job list under GNU parallel, `-j` = the argument (default: all
/// cores), with a job log in `logs/` that each call appends to (a second call keeps the
/// first call's lines).
pub fn parallel_sh(plan: &Plan, exe: &str) -> String {
    format!(
        r#"#!/bin/bash
# Runs this sweep's {n} runs with GNU parallel:  bash parallel.sh [JOBS]
# A run that already finished is skipped (--skip-finished), so a second call runs the rest.
set -euo pipefail
here=$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)
cd "$here"
{pftsim}mkdir -p {LOGS}
# the first call's job log starts the file (with its header); later calls append (+)
log={LOGS}/parallel.log
if [ -e "$log" ]; then log="+$log"; fi
parallel --will-cite -j "${{1:-100%}}" --joblog "$log" < {JOBS}
"#,
        n = plan.units.len(),
        pftsim = pftsim_default(exe),
    )
}

/// Slurm's `--time` for `seconds` (D-HH:MM:SS, at least a minute).
pub fn slurm_time(seconds: f64) -> String {
    let s = seconds.max(60.0).ceil() as u64;
    let (d, h, m, sec) = (s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:{sec:02}")
    } else {
        format!("{h:02}:{m:02}:{sec:02}")
    }
}

/// Slurm's `--mem` for `bytes` (whole MiB, at least 256).
pub fn slurm_mem(bytes: f64) -> String {
    let mib = (bytes / (1024.0 * 1024.0)).ceil().max(256.0) as u64;
    format!("{mib}M")
}

/// Checks a `--time` value: `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM` or `D-HH:MM:SS`.
pub fn parse_time(s: &str) -> Result<String, String> {
    let (days, rest) = match s.split_once('-') {
        Some((d, r)) => (Some(d), r),
        None => (None, s),
    };
    let nums = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    let parts: Vec<&str> = rest.split(':').collect();
    let ok =
        days.is_none_or(nums) && parts.iter().all(|p| nums(p)) && (1..=3).contains(&parts.len());
    if !ok {
        return Err("must be a Slurm time: MM, MM:SS, HH:MM:SS or D-HH:MM:SS".to_string());
    }
    // Slurm keeps a time limit as 32-bit minutes
    let n = |t: &str| t.parse::<u128>().unwrap_or(u128::MAX / 1_000_000);
    let v: Vec<u128> = parts.iter().map(|p| n(p)).collect();
    let minutes = match (days.is_some(), v.as_slice()) {
        (false, [m]) => *m,
        (false, [m, s]) => m + s / 60,
        (true, [h]) => h * 60,
        (true, [h, m]) => h * 60 + m,
        (_, [h, m, s]) => h * 60 + m + s / 60,
        _ => unreachable!("one to three parts"),
    } + days.map_or(0, |d| n(d) * 24 * 60);
    if minutes > u32::MAX as u128 {
        return Err(format!(
            "must be at most {} minutes (Slurm keeps a time limit as 32-bit minutes)",
            u32::MAX
        ));
    }
    Ok(s.to_string())
}

/// Checks a `--mem` value: an integer with an optional unit K, M, G or T.
pub fn parse_mem(s: &str) -> Result<String, String> {
    let digits = s.trim_end_matches(['K', 'M', 'G', 'T']);
    let ok = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && s.len() - digits.len() <= 1
        && digits.parse::<u64>().is_ok_and(|n| n > 0);
    if ok {
        Ok(s.to_string())
    } else {
        Err("must be a Slurm memory size: a positive integer with an optional unit K, M, G or T (e.g. 2G)".to_string())
    }
}

/// `--array-max`: an integer in 1..=1000000.
pub fn parse_array_max(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n as usize),
        _ => Err("must be an integer in 1..=1000000 (tasks per Slurm job array; sites set MaxArraySize, 1001 by default)".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_every_byte() {
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(
            dq("/opt/my tools/pftsim-1.0").unwrap(),
            "/opt/my tools/pftsim-1.0"
        );
        for bad in ["o'brien", "a}b", "a\"b", "$HOME", "a`b", "a\\b", "a\nb"] {
            assert!(dq(bad).is_none(), "{bad:?} accepted");
        }
    }

    #[test]
    fn slurm_values() {
        assert_eq!(slurm_time(10.0), "00:01:00");
        assert_eq!(slurm_time(3661.2), "01:01:02");
        assert_eq!(slurm_time(90000.0), "1-01:00:00");
        assert_eq!(slurm_mem(1.0), "256M");
        assert_eq!(slurm_mem(3.0 * 1024.0 * 1024.0 * 1024.0), "3072M");
        assert!(parse_time("2-12:00:00").is_ok() && parse_time("30").is_ok());
        assert!(parse_time("1:2:3:4").is_err() && parse_time("x").is_err());
        assert!(parse_time("99999999999:00:00").is_err() && parse_time("4294967295").is_ok());
        assert!(parse_time("4294967296").is_err() && parse_time("2982617-00:00:00").is_err());
        assert!(parse_time("2982616-00:00:00").is_ok());
        assert!(parse_mem("2G").is_ok() && parse_mem("512").is_ok());
        assert!(parse_mem("0").is_err() && parse_mem("2GB").is_err() && parse_mem("G").is_err());
        assert!(parse_array_max("0").is_err() && parse_array_max("1000").is_ok());
    }
}
