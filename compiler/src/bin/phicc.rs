//! `phicc`: the C compiler's command line (see `phicc::driver`).
//!
//! Memory: blocks of up to 512 bytes come from per-size free lists
//! (`small_alloc`), everything else from glibc malloc, tuned for a
//! short-lived process (see [`tune_malloc`]), which also gives the size
//! classes their chunks. glibc's malloc and free were a sixth of a Csmith
//! compile's instructions; the free lists cut a compile's instructions by
//! about 16%. mimalloc (tried earlier) ran 7% fewer instructions than glibc
//! but touched more fresh pages (its regions; with transparent huge pages
//! on, the kernel zeroed 2 MiB at a time), and CPU time came out the same
//! or worse (20 Csmith compiles: glibc 1015-1060 ms, mimalloc with THP off
//! 1044-1087 ms).

#[path = "phicc/small_alloc.rs"]
mod small_alloc;

#[global_allocator]
static ALLOC: small_alloc::SmallAlloc = small_alloc::SmallAlloc;

fn main() {
    tune_malloc();
    let status = phicc::driver::main(std::env::args_os().collect());
    std::process::exit(status);
}

/// glibc malloc set up for one compile (mallopt(3), madvise(2)); a third
/// of a Csmith compile's CPU time went to the kernel: page faults, and
/// `mprotect` growing the per-thread arenas of the parser and sema threads.
/// - One arena (`M_ARENA_MAX`): the compiler's threads run one after the
///   other, so per-thread heaps only cost `mprotect` calls and fresh pages.
/// - The heap grows 32 MiB at a time (`M_TOP_PAD`) and is never given back
///   (`M_TRIM_THRESHOLD`): a compile's memory is freed at exit anyway. Large
///   blocks come from it too (`M_MMAP_THRESHOLD`).
/// - That first 32 MiB is marked for transparent huge pages
///   (`MADV_HUGEPAGE`, what glibc's `glibc.malloc.hugetlb=1` tunable does):
///   a few 2 MiB faults instead of thousands of 4 KiB ones.
///
/// 30 Csmith compiles (`phicc -c`): 1.93-1.96 CPU seconds as is, 1.19-1.36
/// with these settings given as GLIBC_TUNABLES (docs/results.md).
fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first in main, before any other thread exists; mallopt
    // and madvise only change allocator and paging policy, and the range is
    // the heap glibc itself just obtained with sbrk.
    unsafe {
        const PAD: usize = 32 << 20;
        const HUGE: usize = 2 << 20;
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_TOP_PAD, PAD as i32);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        // Blocks up to 32 MiB (glibc's largest threshold) come from the heap
        // too, instead of a fresh mapping per block (growing token vectors).
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        // Grow the heap now, by a block and the pad, to mark it.
        let start = libc::sbrk(0) as usize;
        // black_box: LLVM removes a malloc/free pair whose block is unused.
        let p = std::hint::black_box(libc::malloc(1 << 20));
        let end = libc::sbrk(0) as usize;
        libc::free(p);
        let first = (start + HUGE - 1) & !(HUGE - 1);
        if end > first + HUGE {
            libc::madvise(
                first as *mut libc::c_void,
                (end - first) & !(HUGE - 1),
                libc::MADV_HUGEPAGE,
            );
        }
    }
}
