//! `pft-trace`: run the block (RTL or model) on a stimulus file or against a credit link, and
//! write a per-cycle CSV, a VCD and a JSON summary. See docs/trace.md.

pub mod config;
pub mod output;
pub mod record;
pub mod run;
pub mod stimulus_csv;
