//! Output files that appear only when complete: written under a temporary name in the same
//! directory, renamed into place by `commit`, removed if dropped uncommitted.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written; invisible under its final name until `commit`.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    w: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `path` (as `.<name>.tmp-<pid>` beside it), creating its directory if
    /// needed.
    pub fn create(path: &Path) -> io::Result<Self> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if dir.exists() && !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a directory", dir.display()),
            ));
        }
        if path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a directory", path.display()),
            ));
        }
        // A missing output directory is created (inputs are all checked before this).
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let f = File::create(&tmp)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            w: Some(BufWriter::with_capacity(1 << 16, f)),
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The writer (buffered).
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.w.as_mut().expect("writer used after finish")
    }

    /// Flush and sync the data, still under the temporary name.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(w) = self.w.take() {
            let f = w.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
        }
        Ok(())
    }

    /// Finish and rename into place (once; later calls do nothing).
    pub fn commit(&mut self) -> io::Result<()> {
        if self.tmp.as_os_str().is_empty() {
            return Ok(());
        }
        self.finish()?;
        std::fs::rename(&self.tmp, &self.path)?;
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        self.w = None;
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
