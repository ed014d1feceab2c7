//! Reading a user's input file: a regular file only. A device (`/dev/zero`) would be read
//! until memory runs out and a pipe with no writer would block forever; both are refused
//! with an error the caller reports like any unreadable file. A scenario or grid file is
//! also refused past `MAX_CONFIG_BYTES`, before it is read.

use std::io;
use std::path::Path;

fn regular(path: &Path) -> io::Result<()> {
    if std::fs::metadata(path)?.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    }
}

/// `std::fs::read` of a regular file.
pub fn read(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    regular(path.as_ref())?;
    std::fs::read(path)
}

/// `std::fs::read_to_string` of a regular file.
pub fn read_to_string(path: impl AsRef<Path>) -> io::Result<String> {
    regular(path.as_ref())?;
    std::fs::read_to_string(path)
}

/// Most bytes of a scenario or grid file (64 MiB): the largest shipped scenario is a few
/// KiB, and a 16,512-NIC list of `nics` a few hundred; a larger file is a mistake (a
/// trace or an image named as the scenario) that would be read whole into memory.
pub const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// `read_to_string` of a regular file of at most `MAX_CONFIG_BYTES`.
pub fn read_config(path: impl AsRef<Path>) -> io::Result<String> {
    let path = path.as_ref();
    regular(path)?;
    let len = std::fs::metadata(path)?.len();
    if len > MAX_CONFIG_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{len} bytes, at most {MAX_CONFIG_BYTES} (64 MiB) for a scenario or grid file"),
        ));
    }
    std::fs::read_to_string(path)
}
