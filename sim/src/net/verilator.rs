//! `engine = "verilator"`: the exported Verilog (`synth/out/pft_injector.v`, written by
//! `make verilog`) Verilated and stepped at every NIC, so that a network run simulates the
//! Verilog the user ships rather than a model of it (docs/network.md, "PFT engines").
//!
//! The first run in a process builds (or finds in its cache) a shared library from the
//! Verilog and `sim/verilator/pft_engine.cpp`, a C ABI around the Verilated class, and loads
//! it with `libloading`; every NIC then holds one instance. The library is cached under
//! `target/verilator-engine/<hash>/`, keyed by the SHA-256 of the Verilog, the shim and the
//! Verilator version, and built in a temporary directory renamed into place, so concurrent
//! processes (a sweep under GNU parallel) never see half a library.
//!
//! What the block exposes is its ports: outputs per cycle, and between cycles the CSR read
//! port (combinational), through which `probe` reads STATUS, AT_STATUS, the counters, SHAPE
//! and K. The FI gap and the RI generator are not on the bus: `probe` leaves them 0.

use pft_hdl::model::{level, Inputs, Outputs};
use pft_hdl::regs::addr;
use pft_hdl::stepper::Probe;
use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

/// The shim's ABI version (`pftv_abi`).
const ABI: u32 = 2;

/// The shim's source, built into the library.
const SHIM: &str = include_str!("../../verilator/pft_engine.cpp");

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
}

/// The Verilog the engine runs: `$PFT_VERILOG`, else the workspace's
/// `synth/out/pft_injector.v`.
pub fn verilog_path() -> PathBuf {
    std::env::var_os("PFT_VERILOG")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../synth/out/pft_injector.v")
        })
}

/// The library, built and loaded on first use (once per process); the error says what is
/// missing and which make target provides it.
pub fn library() -> Result<Arc<Library>, String> {
    static LIB: OnceLock<Result<Arc<Library>, String>> = OnceLock::new();
    LIB.get_or_init(|| load().map(Arc::new)).clone()
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

fn load() -> Result<Library, String> {
    let verilog = verilog_path();
    let v = std::fs::read(&verilog).map_err(|e| {
        format!(
            "the Verilator engine runs the exported Verilog, and {} cannot be read ({e}): run `make verilog` (or set PFT_VERILOG)",
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
        h.finalize()
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let cache = cache_root().join(&key);
    let so = cache.join("libpftv.so");
    if !so.is_file() {
        build(&verilog, &cache)?;
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

/// Verilates `verilog` with the shim into `dir/libpftv.so` (through a temporary directory
/// renamed into place).
fn build(verilog: &Path, dir: &Path) -> Result<(), String> {
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
            .args(["--top-module", "pft_injector", "-CFLAGS", "-fPIC"])
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

    /// The state the CSR bus shows (the FI gap and the RI generator are not on it: 0).
    pub fn probe(&self) -> Probe {
        let status = self.read(addr::STATUS);
        let at = self.read(addr::AT_STATUS);
        let shape = self.read(addr::SHAPE);
        let k = self.read(addr::K) as u16;
        let c = (status >> 16) as u16;
        Probe {
            c,
            state: status & 1 != 0,
            win: at as u16,
            hit: (at >> 16) as u16,
            gap: 0,
            r: 0,
            // saturated at 2^32, as the other engines' probes
            level: level(c, (shape & 0x1F) as u8, ((shape >> 8) & 0x1F) as u8, k).min(1 << 32),
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
