//! Sets `cfg(asan)` when the fuzz targets are built with AddressSanitizer
//! (cargo-fuzz's default build; Cargo reports the sanitizer in
//! `CARGO_CFG_SANITIZE` with a nightly rustc), so that
//! `fuzz_targets/asan_options.rs` is compiled only into those builds.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(asan)");
    let sanitizers = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
    if sanitizers.split(',').any(|s| s == "address") {
        println!("cargo::rustc-cfg=asan");
    }
}
