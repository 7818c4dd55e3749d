//! `phicc`: the C compiler's command line (see `phicc::driver`).
//!
//! The compiler allocates many small nodes (tokens, trees, instructions,
//! assembly lines) and frees most of them within one phase: mimalloc's
//! per-size free lists serve that pattern with fewer instructions than the
//! system allocator (about a sixth of a Csmith compile was glibc malloc/free).
//!
//! Transparent huge pages are switched off for the process: mimalloc maps
//! its memory in large aligned regions, and with THP set to `always` the
//! kernel zeroes a 2 MiB page on the first touch of each, which cost more
//! (a fifth of the CPU time of a compile) than the allocator saved. A
//! compile touches a few tens of MiB once; 4 KiB pages suit it.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE only sets a flag of this process; the call
    // has no memory-safety preconditions, and failure is harmless (ignored).
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    let status = phicc::driver::main(std::env::args_os().collect());
    std::process::exit(status);
}
