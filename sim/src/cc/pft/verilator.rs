//! `engine = "verilator"`: the exported Verilog (`synth/out/pft_injector.v`, written by
//! `make verilog`) Verilated and stepped at every NIC, so that a network run simulates the
//! Verilog the user ships rather than a model of it (docs/network.md, "PFT engines"). A
//! `pipelined = true` configuration runs the pipelined build instead
//! (`synth/out/pft_injector_pipelined.v`, top module `pft_injector_pipelined`, written by
//! `make verilog-pipelined`): same ports, so the same shim.
//!
//! The first run of a build in a process builds (or finds in its cache) a shared library
//! from its Verilog and `sim/verilator/pft_engine.cpp`, a C ABI around the Verilated class,
//! and loads it with `libloading`; every NIC then holds one instance. The library is cached
//! under `target/verilator-engine/<hash>/`, keyed by the SHA-256 of the Verilog, the shim,
//! the Verilator version (and, for the pipelined build, its top module name), and built in
//! a temporary directory renamed into place, so concurrent processes (a sweep under GNU
//! parallel) never see half a library.
//!
//! What the block exposes is its ports: outputs per cycle, and between cycles the CSR read
//! port (combinational), through which `probe` reads STATUS, AT_STATUS, the counters, SHAPE
//! and K. The FI gap and the RI generator are not on the bus: `probe` leaves them 0. The
//! level is f(c) of the SHAPE and K now, of the `c` now (default build) or of the `c` two
//! cycles earlier (pipelined build: its level register; the block keeps the two `c`s).

use pft_hdl::model::{level, Inputs, Outputs};
use pft_hdl::regs::addr;
use pft_hdl::stepper::Probe;
use pft_hdl::verilog::Build;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

/// The shim's ABI version (`pftv_abi`).
const ABI: u32 = 2;

/// The shim's source, built into the library.
const SHIM: &str = include_str!("../../../verilator/pft_engine.cpp");

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type StepFn = unsafe extern "C" fn(*mut c_void, u32, u32, u32, u32, *mut u32);
type ReadFn = unsafe extern "C" fn(*mut c_void, u32) -> u32;
type AbiFn = unsafe extern "C" fn() -> u32;

/// The loaded library and its entry points.
pub struct Library {
    new: NewFn,
    free: FreeFn,
    step: StepFn,
    read: ReadFn,
    /// Kept loaded for the process's lifetime (the function pointers point into it).
    _lib: libloading::Library,
    /// The Verilog it was built from.
    pub verilog: PathBuf,
    /// Which build of the block that Verilog is.
    pub build: Build,
}

/// Where each build's Verilog is looked for: the environment variable that overrides the
/// path, the file under the workspace, and the make target that writes it.
fn source_of(build: Build) -> (&'static str, &'static str, &'static str) {
    match build {
        Build::Default => ("PFT_VERILOG", "synth/out/pft_injector.v", "make verilog"),
        Build::Pipelined => (
            "PFT_VERILOG_PIPELINED",
            "synth/out/pft_injector_pipelined.v",
            "make verilog-pipelined",
        ),
    }
}

/// The Verilog the engine runs for `build`: `$PFT_VERILOG`, else the workspace's
/// `synth/out/pft_injector.v`; for the pipelined build `$PFT_VERILOG_PIPELINED`, else
/// `synth/out/pft_injector_pipelined.v`.
pub fn verilog_path(build: Build) -> PathBuf {
    let (var, file, _) = source_of(build);
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file))
}

/// The library of `build`, built and loaded on first use (once per process and build); the
/// error says what is missing and which make target provides it.
pub fn library(build: Build) -> Result<Arc<Library>, String> {
    static LIB: OnceLock<Result<Arc<Library>, String>> = OnceLock::new();
    static LIB_PIPELINED: OnceLock<Result<Arc<Library>, String>> = OnceLock::new();
    let cell = match build {
        Build::Default => &LIB,
        Build::Pipelined => &LIB_PIPELINED,
    };
    cell.get_or_init(|| load(build).map(Arc::new)).clone()
}

fn run(cmd: &mut Command, what: &str) -> Result<String, String> {
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run {what} ({e}); `make setup` installs it"))?;
    if !o.status.success() {
        return Err(format!(
            "{what} failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

fn load(build: Build) -> Result<Library, String> {
    let verilog = verilog_path(build);
    let (var, _, target) = source_of(build);
    let what = match build {
        Build::Default => "the exported Verilog",
        Build::Pipelined => "the exported Verilog of the pipelined build",
    };
    let v = std::fs::read(&verilog).map_err(|e| {
        format!(
            "the Verilator engine runs {what}, and {} cannot be read ({e}): run `{target}` (or set {var})",
            verilog.display()
        )
    })?;
    let version = run(Command::new("verilator").arg("--version"), "verilator")?;
    let key = {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(&v);
        h.update(SHIM.as_bytes());
        h.update(version.as_bytes());
        // The default build's key is what it always was (its cached libraries stay valid).
        if build != Build::Default {
            h.update(build.top().as_bytes());
        }
        h.finalize()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let cache = cache_root().join(&key);
    let so = cache.join("libpftv.so");
    if !so.is_file() {
        verilate(&verilog, build.top(), &cache)?;
    }
    // SAFETY: the library is ours (built from the shim above); its initialisers only set up
    // Verilator's static state.
    let lib = unsafe { libloading::Library::new(&so) }
        .map_err(|e| format!("cannot load {}: {e}", so.display()))?;
    // SAFETY: the symbols have the shim's signatures (the ABI version is checked first).
    unsafe {
        let abi: libloading::Symbol<AbiFn> = lib
            .get(b"pftv_abi")
            .map_err(|e| format!("{}: {e}", so.display()))?;
        if abi() != ABI {
            return Err(format!(
                "{} has ABI {}, not {ABI}: delete it",
                so.display(),
                abi()
            ));
        }
        let sym = |name: &[u8]| -> Result<*const c_void, String> {
            lib.get::<*const c_void>(name)
                .map(|s| *s)
                .map_err(|e| format!("{}: {e}", so.display()))
        };
        let new: NewFn = std::mem::transmute(sym(b"pftv_new")?);
        let free: FreeFn = std::mem::transmute(sym(b"pftv_free")?);
        let step: StepFn = std::mem::transmute(sym(b"pftv_step")?);
        let read: ReadFn = std::mem::transmute(sym(b"pftv_read")?);
        Ok(Library {
            new,
            free,
            step,
            read,
            _lib: lib,
            verilog,
            build,
        })
    }
}

/// `target/verilator-engine` of the workspace, or a directory under the system's temporary
/// directory when that cannot be written.
fn cache_root() -> PathBuf {
    let t = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/verilator-engine");
    if std::fs::create_dir_all(&t).is_ok() {
        return t;
    }
    std::env::temp_dir().join("pft-verilator-engine")
}

/// Verilates `verilog` (top module `top`) with the shim into `dir/libpftv.so` (through a
/// temporary directory renamed into place). The Verilated class is `Vpft_injector` whatever
/// the top module (`--prefix`): the shim is the same for both builds, which have the same
/// ports.
fn verilate(verilog: &Path, top: &str, dir: &Path) -> Result<(), String> {
    let parent = dir.parent().expect("a cache subdirectory");
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    static BUILDS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let tmp = parent.join(format!(
        ".build-{}-{}",
        std::process::id(),
        BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let shim = tmp.join("pft_engine.cpp");
    std::fs::write(&shim, SHIM).map_err(|e| format!("cannot write {}: {e}", shim.display()))?;
    let obj = tmp.join("obj");
    run(
        Command::new("verilator")
            .args(["--cc", "--build", "-j", "2", "-O3", "--x-assign", "fast"])
            .args(["--x-initial", "fast", "-Wno-WIDTH", "-Wno-fatal"])
            .args(["--top-module", top, "--prefix", "Vpft_injector"])
            .args(["-CFLAGS", "-fPIC"])
            .args(["-MAKEFLAGS", "OPT_FAST=-O2"])
            .arg("--Mdir")
            .arg(&obj)
            .arg(verilog),
        "verilator",
    )?;
    let inc = run(
        Command::new("verilator")
            .arg("--getenv")
            .arg("VERILATOR_ROOT"),
        "verilator",
    )?;
    let inc = Path::new(inc.trim()).join("include");
    run(
        Command::new("g++")
            .args(["-shared", "-fPIC", "-O2", "-std=c++17", "-o"])
            .arg(tmp.join("libpftv.so"))
            .arg(&shim)
            .arg(inc.join("verilated.cpp"))
            .arg(inc.join("verilated_threads.cpp"))
            .arg(format!("-I{}", obj.display()))
            .arg(format!("-I{}", inc.display()))
            .arg(format!("-I{}", inc.join("vltstd").display()))
            .arg(obj.join("Vpft_injector__ALL.a"))
            .args(["-lpthread", "-latomic"]),
        "g++",
    )?;
    match std::fs::rename(&tmp, dir) {
        Ok(()) => Ok(()),
        // another process built it first: use theirs
        Err(_) if dir.join("libpftv.so").is_file() => {
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(())
        }
        Err(e) => Err(format!("cannot move the build to {}: {e}", dir.display())),
    }
}

/// One Verilated block.
pub struct VerilatorBlock {
    lib: Arc<Library>,
    handle: *mut c_void,
    /// used_credits and congested now (between cycles), read after each step.
    c: u16,
    congested: bool,
    /// `c` during the last two cycles stepped (the last first): the pipelined build's level
    /// register holds f of the older.
    c_hist: [u16; 2],
}

// SAFETY: a block (its own VerilatedContext and model) is used by one thread at a time;
// nothing in it refers to another block.
unsafe impl Send for VerilatorBlock {}

impl VerilatorBlock {
    /// A block in its power-on state (like `PftModel::new`: reset it before use).
    pub fn new(lib: Arc<Library>) -> Self {
        // SAFETY: `new` returns a fresh instance that `free` releases in `drop`.
        let handle = unsafe { (lib.new)() };
        let mut b = VerilatorBlock {
            lib,
            handle,
            c: 0,
            congested: false,
            c_hist: [0; 2],
        };
        b.refresh();
        b
    }

    fn read(&self, a: u8) -> u32 {
        // SAFETY: `handle` is live until drop.
        unsafe { (self.lib.read)(self.handle, a as u32) }
    }

    fn refresh(&mut self) {
        let status = self.read(addr::STATUS);
        self.c = (status >> 16) as u16;
        self.congested = status & 1 != 0;
    }

    /// One cycle.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let flags = i.reset as u32
            | (i.flit_valid as u32) << 1
            | (i.flit_head as u32) << 2
            | (i.csr_we as u32) << 3;
        let mut out = [0u32; 5];
        // SAFETY: `handle` is live until drop; `out` has the five words the shim writes.
        unsafe {
            (self.lib.step)(
                self.handle,
                flags,
                i.credit_return as u32,
                i.csr_addr as u32,
                i.csr_wdata,
                out.as_mut_ptr(),
            )
        };
        self.c_hist = [self.c, self.c_hist[0]];
        self.c = out[3] as u16;
        self.congested = out[4] != 0;
        Outputs {
            send: out[0] & 1 != 0,
            congested: out[0] & 2 != 0,
            throttled: out[0] & 4 != 0,
            used_credits: out[1] as u16,
            csr_rdata: out[2],
        }
    }

    /// Used credits now.
    #[inline]
    pub fn used_credits(&self) -> u16 {
        self.c
    }

    /// Congested now.
    #[inline]
    pub fn congested(&self) -> bool {
        self.congested
    }

    /// The state the CSR bus shows (the FI gap and the RI generator are not on it: 0). The
    /// level is f(c) with SHAPE and K now; in the pipelined build, of the `c` two cycles ago
    /// (exact unless SHAPE or K was written in the last two cycles).
    pub fn probe(&self) -> Probe {
        let status = self.read(addr::STATUS);
        let at = self.read(addr::AT_STATUS);
        let shape = self.read(addr::SHAPE);
        let k = self.read(addr::K) as u16;
        let c = (status >> 16) as u16;
        let c_level = match self.lib.build {
            Build::Default => c,
            Build::Pipelined => self.c_hist[1],
        };
        Probe {
            c,
            state: status & 1 != 0,
            win: at as u16,
            hit: (at >> 16) as u16,
            gap: 0,
            r: 0,
            // saturated at 2^32, as the other engines' probes
            level: level(
                c_level,
                (shape & 0x1F) as u8,
                ((shape >> 8) & 0x1F) as u8,
                k,
            )
            .min(1 << 32),
            cnt_congested: self.read(addr::CNT_CONGESTED),
            cnt_sent: self.read(addr::CNT_SENT),
            cnt_throttled: self.read(addr::CNT_THROTTLED),
            err_underflow: status & 2 != 0,
            err_overflow: status & 4 != 0,
        }
    }
}

impl Drop for VerilatorBlock {
    fn drop(&mut self) {
        // SAFETY: `handle` came from `new` and is released once.
        unsafe { (self.lib.free)(self.handle) }
    }
}
