//! Output files that appear only when complete: `pft_hdl::outfile::AtomicFile` (written under
//! a temporary name in the same directory, renamed into place by `commit`, removed if
//! dropped uncommitted), shared by every tool of the workspace.

pub use pft_hdl::outfile::AtomicFile;
