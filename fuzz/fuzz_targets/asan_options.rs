//! AddressSanitizer's defaults for the fuzz targets (cargo-fuzz's default
//! build only, `cfg(asan)` from `build.rs`): the runtime calls
//! `__asan_default_options` at start-up, and `ASAN_OPTIONS` from the
//! environment still overrides what it returns.
//!
//! `malloc_context_size=0`: record no call stack at each allocation and
//! deallocation. ASan unwinds and stores one (in its stack depot) for every
//! `malloc` and `free`, only to print where a block was allocated and freed
//! if a heap error is ever reported; the check allocates and frees a lot,
//! and this was a tenth of the target's time (docs/results.md, "Fuzzing
//! throughput", 2026-11-27). Nothing goes undetected: every heap access is
//! still checked, the quarantine still holds freed blocks, and a report
//! still shows the faulting access's stack. To see the allocation and free
//! stacks of a report, replay the input with
//! `ASAN_OPTIONS=malloc_context_size=30` (ASan's default).

/// The options string ASan reads before `ASAN_OPTIONS`.
#[no_mangle]
pub extern "C" fn __asan_default_options() -> *const std::ffi::c_char {
    c"malloc_context_size=0".as_ptr()
}
