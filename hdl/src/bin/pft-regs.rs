//! Print the register map as Markdown (`make docs` writes it to docs/registers.md; a test
//! fails when the checked-in copy is stale).

fn main() {
    print!("{}", pft_hdl::regs::markdown());
}
