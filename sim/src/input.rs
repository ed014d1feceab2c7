//! Reading a user's input file: a regular file only. A device (`/dev/zero`) would be read
//! until memory runs out and a pipe with no writer would block forever; both are refused
//! with an error the caller reports like any unreadable file.

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
