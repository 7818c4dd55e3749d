//! `phicc`: the C compiler's command line (see `phicc::driver`).
//!
//! The system allocator stays: mimalloc ran 7% fewer instructions on Csmith
//! programs, but touched more fresh pages (its regions; with transparent
//! huge pages on, the kernel zeroed 2 MiB at a time), and CPU time came out
//! the same or worse (20 Csmith compiles: glibc 1015-1060 ms, mimalloc with
//! THP off 1044-1087 ms).

fn main() {
    let status = phicc::driver::main(std::env::args_os().collect());
    std::process::exit(status);
}
