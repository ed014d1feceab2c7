//! docs/registers.md is generated from the register map; it must be current.

#[test]
fn registers_doc_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/registers.md");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == pft_hdl::regs::markdown(),
        "docs/registers.md is stale: run `make docs` and commit it"
    );
}

#[test]
fn register_map_is_consistent() {
    use pft_hdl::regs::REGS;
    for (i, r) in REGS.iter().enumerate() {
        assert_eq!(r.addr as usize, i, "{} out of order", r.name);
        assert_eq!(
            r.reset & !r.mask,
            0,
            "{} reset value outside its mask",
            r.name
        );
    }
}
