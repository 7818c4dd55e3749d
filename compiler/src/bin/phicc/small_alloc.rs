//! A size-class allocator for the small blocks of one compile.
//!
//! A compile allocates a few hundred thousand small blocks (tree nodes,
//! vectors of a few elements, shared spellings) and exits. Blocks of up to
//! [`MAX_SMALL`] bytes are rounded up to a multiple of 16 and served from
//! one free list per size (last freed, first reused), else carved from
//! 64 KiB chunks that glibc malloc gives (its heap is tuned by
//! `tune_malloc`); a freed block goes back on its size's list. Larger
//! blocks, and blocks aligned to more than 16, are glibc's. Rust passes the
//! size to `dealloc`, so blocks carry no header.
//!
//! The lists and the current chunk are per thread: no locks. A block freed
//! on another thread than the one that allocated it joins the freeing
//! thread's list (the AST is built on the parser thread and freed on the
//! analysis thread, which then reuses it). A thread that ends leaves its
//! lists to a shared pool, which a thread whose list of a class is empty
//! takes over whole before carving new blocks (the analysis thread's
//! leftovers serve lowering). The pool is, per class, a stack of whole
//! lists linked through the second word of their first blocks, so a list
//! is handed over in one step, never walked (walking them cost 4% of a
//! compile in cache misses). Chunks are never given back; the process
//! ends first.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Largest block served from the size classes.
const MAX_SMALL: usize = 512;
const GRAIN: usize = 16;
const CLASSES: usize = MAX_SMALL / GRAIN;
const CHUNK: usize = 64 << 10;

/// The per-thread state: a free list per class and the chunk being carved.
struct Local {
    free: [*mut u8; CLASSES],
    /// Per class, lists taken from the pool and not yet used (a stack of
    /// lists as in [`ORPHANS`]).
    pending: [*mut u8; CLASSES],
    bump: *mut u8,
    end: *mut u8,
}

thread_local! {
    static LOCAL: UnsafeCell<Local> = const {
        UnsafeCell::new(Local {
            free: [null_mut(); CLASSES],
            pending: [null_mut(); CLASSES],
            bump: null_mut(),
            end: null_mut(),
        })
    };
}

/// Free lists left by threads that ended, per class: a stack of lists.
/// The first block of each list links to the list's next block in its
/// first word and to the next list in its second. Only stacks are pushed
/// (by a thread ending) or taken whole (by a thread out of blocks), so the
/// compare-and-swap push cannot suffer ABA.
static ORPHANS: [AtomicPtr<u8>; CLASSES] = [const { AtomicPtr::new(null_mut()) }; CLASSES];

/// The next list after the list starting at `head` in a stack of lists.
///
/// # Safety
/// `head` starts a list in such a stack (a free block of 16 bytes or more).
unsafe fn next_list(head: *mut u8) -> *mut u8 {
    unsafe { *(head as *mut *mut u8).add(1) }
}

/// Pushes the stack of lists from `first` to `last` (linked through
/// [`next_list`]) onto the pool of class `c`.
fn give_lists(c: usize, first: *mut u8, last: *mut u8) {
    let mut cur = ORPHANS[c].load(Ordering::Relaxed);
    loop {
        // SAFETY: `last` heads a list of ours; its second word is the link.
        unsafe { *(last as *mut *mut u8).add(1) = cur };
        match ORPHANS[c].compare_exchange_weak(cur, first, Ordering::Release, Ordering::Relaxed) {
            Ok(_) => return,
            Err(now) => cur = now,
        }
    }
}

/// Registered when a thread first runs out of blocks; when the thread ends, hands its
/// free lists to [`ORPHANS`]. (`LOCAL` itself has no destructor, so it
/// stays usable while the thread's other thread-locals are dropped.)
struct Guard;

thread_local! {
    static GUARD: Guard = const { Guard };
}

impl Drop for Guard {
    fn drop(&mut self) {
        LOCAL.with(|l| {
            // SAFETY: the thread's own state; nothing else runs on it now
            // but this destructor (which does not allocate).
            let l = unsafe { &mut *l.get() };
            for c in 0..CLASSES {
                let head = std::mem::replace(&mut l.free[c], null_mut());
                let pending = std::mem::replace(&mut l.pending[c], null_mut());
                // The free list goes on top of the pending lists; the
                // stack's last list is found by following list links (a
                // few), not block links.
                let (first, rest) = if head.is_null() {
                    (pending, null_mut())
                } else {
                    (head, pending)
                };
                if first.is_null() {
                    continue;
                }
                if !head.is_null() {
                    // SAFETY: `head` heads our free list.
                    unsafe { *(head as *mut *mut u8).add(1) = rest };
                }
                let mut last = first;
                // SAFETY: walks our own stack of lists.
                unsafe {
                    while !next_list(last).is_null() {
                        last = next_list(last);
                    }
                }
                give_lists(c, first, last);
            }
        });
    }
}

pub struct SmallAlloc;

/// The class of a small block of `size` bytes (`size > 0`).
#[inline(always)]
fn class(size: usize) -> usize {
    (size - 1) / GRAIN
}

#[inline(always)]
fn is_small(layout: &Layout) -> bool {
    layout.size() <= MAX_SMALL && layout.align() <= GRAIN && layout.size() > 0
}

impl Local {
    /// A block of class `c` from the free list or the current chunk; null
    /// when both are out.
    #[inline(always)]
    fn take(&mut self, c: usize) -> *mut u8 {
        let head = self.free[c];
        if !head.is_null() {
            // SAFETY: a free block's first word links to the next one.
            self.free[c] = unsafe { *(head as *mut *mut u8) };
            return head;
        }
        let size = (c + 1) * GRAIN;
        if (self.end as usize) - (self.bump as usize) < size {
            return null_mut();
        }
        let p = self.bump;
        // SAFETY: `size` bytes remain in the chunk.
        self.bump = unsafe { p.add(size) };
        p
    }

    #[inline(always)]
    fn give(&mut self, p: *mut u8, c: usize) {
        // SAFETY: the block is at least 16 bytes and 16-aligned, and now ours.
        unsafe { *(p as *mut *mut u8) = self.free[c] };
        self.free[c] = p;
    }
}

/// A block of class `c` when the thread's list and chunk are out: the
/// shared pool's list of that class, else a new chunk.
#[cold]
#[inline(never)]
fn take_slow(c: usize) -> *mut u8 {
    // Registers the thread's guard (which may allocate: no state is
    // borrowed here).
    let _ = GUARD.try_with(|_| ());
    let got = LOCAL.with(|l| {
        // SAFETY: the thread's own state, borrowed for this block only.
        let l = unsafe { &mut *l.get() };
        let mut head = l.pending[c];
        if head.is_null() && !ORPHANS[c].load(Ordering::Relaxed).is_null() {
            head = ORPHANS[c].swap(null_mut(), Ordering::Acquire);
        }
        if head.is_null() {
            return head;
        }
        // SAFETY: `head` starts a list of a stack that is ours alone now;
        // the thread's own free list is empty.
        unsafe {
            l.pending[c] = next_list(head);
            l.free[c] = *(head as *mut *mut u8);
        }
        head
    });
    if !got.is_null() {
        return got;
    }
    // SAFETY: malloc has no preconditions; a null result is passed on.
    let chunk = unsafe { libc::malloc(CHUNK) } as *mut u8;
    if chunk.is_null() {
        return null_mut();
    }
    LOCAL.with(|l| {
        // SAFETY: the thread's own state, borrowed for this block only.
        let l = unsafe { &mut *l.get() };
        // The rest of the old chunk is dropped (under 512 bytes).
        l.bump = chunk;
        // SAFETY: within the chunk just allocated.
        l.end = unsafe { chunk.add(CHUNK) };
        l.take(c)
    })
}

// SAFETY: small blocks are carved from live malloc chunks, 16-aligned, at
// least as large as asked, and handed out once until freed; everything else
// is the system allocator's.
unsafe impl GlobalAlloc for SmallAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_small(&layout) {
            let c = class(layout.size());
            // SAFETY: the thread's own state, borrowed for this block only
            // (nothing inside allocates).
            let p = LOCAL.with(|l| unsafe { (*l.get()).take(c) });
            if !p.is_null() {
                return p;
            }
            return take_slow(c);
        }
        // SAFETY: forwarded as is.
        unsafe { System.alloc(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_small(&layout) {
            let c = class(layout.size());
            // SAFETY: as in `alloc`; `ptr` was a small block of this class.
            LOCAL.with(|l| unsafe { (*l.get()).give(ptr, c) });
            return;
        }
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old_small = is_small(&layout);
        // SAFETY: the caller guarantees a valid layout for the new size.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let new_small = is_small(&new_layout);
        if !old_small && !new_small {
            // SAFETY: forwarded as is.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if old_small && new_small && class(layout.size()) == class(new_size) {
            return ptr;
        }
        // SAFETY: a fresh block, the old contents copied, the old block freed.
        unsafe {
            let p = self.alloc(new_layout);
            if !p.is_null() {
                std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            p
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(p: *mut u8, n: usize, v: u8) {
        // SAFETY: `p` is a live block of at least `n` bytes.
        unsafe { std::ptr::write_bytes(p, v, n) };
    }

    fn check(p: *const u8, n: usize, v: u8) -> bool {
        // SAFETY: `p` is a live block of at least `n` bytes.
        unsafe { std::slice::from_raw_parts(p, n) }.iter().all(|&b| b == v)
    }

    /// Every size up to past the small limit: aligned, distinct, kept
    /// intact while others are freed and reused, and grown or shrunk by
    /// `realloc` with their contents.
    #[test]
    fn blocks_are_aligned_disjoint_and_keep_their_contents() {
        let a = SmallAlloc;
        let mut live = Vec::new();
        // Sizes 497..=512 (the last class) are left to the other test.
        for size in (1..=400).step_by(7).chain(513..=700) {
            for align in [1, 8, 16, 32] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero size.
                let p = unsafe { a.alloc(layout) };
                assert!(!p.is_null());
                assert_eq!(p as usize % align, 0);
                fill(p, size, (size % 251) as u8);
                live.push((p, layout));
            }
        }
        // Free every other block, then allocate the same sizes again: the
        // survivors must be untouched.
        let mut kept = Vec::new();
        for (i, (p, l)) in live.into_iter().enumerate() {
            if i % 2 == 0 {
                // SAFETY: allocated above with this layout.
                unsafe { a.dealloc(p, l) };
            } else {
                kept.push((p, l));
            }
        }
        let mut again = Vec::new();
        for &(_, l) in &kept {
            // SAFETY: non-zero size.
            let p = unsafe { a.alloc(l) };
            fill(p, l.size(), 0xee);
            again.push((p, l));
        }
        for &(p, l) in &kept {
            assert!(check(p, l.size(), (l.size() % 251) as u8));
        }
        // Grow and shrink across the small limit.
        for (p, l) in kept {
            let v = (l.size() % 251) as u8;
            // SAFETY: `p` is live with layout `l`; new sizes are non-zero.
            let q = unsafe { a.realloc(p, l, l.size() + 600) };
            assert!(check(q, l.size(), v));
            let l3 = Layout::from_size_align(l.size() + 600, l.align()).unwrap();
            // SAFETY: as above.
            let r = unsafe { a.realloc(q, l3, 1) };
            assert!(check(r, 1, v));
            // SAFETY: as above.
            unsafe { a.dealloc(r, Layout::from_size_align(1, l.align()).unwrap()) };
        }
        for (p, l) in again {
            assert!(check(p, l.size(), 0xee));
            // SAFETY: allocated above.
            unsafe { a.dealloc(p, l) };
        }
    }

    /// Blocks freed on a thread that then ends are handed to the pool and
    /// reused by another thread.
    #[test]
    fn an_ended_threads_free_blocks_are_reused() {
        // The last class, which the other test leaves alone.
        let l = Layout::from_size_align(500, 8).unwrap();
        let freed: Vec<usize> = std::thread::spawn(move || {
            let a = SmallAlloc;
            // SAFETY: non-zero sizes; each block freed once.
            let ps: Vec<*mut u8> = (0..64).map(|_| unsafe { a.alloc(l) }).collect();
            for &p in &ps {
                unsafe { a.dealloc(p, l) };
            }
            ps.into_iter().map(|p| p as usize).collect()
        })
        .join()
        .unwrap();
        let handed = std::thread::spawn(move || {
            let a = SmallAlloc;
            // Use up the thread's own list and chunk of this class first.
            let mut got = Vec::new();
            for _ in 0..(CHUNK / 512 + 64) {
                // SAFETY: non-zero size.
                got.push(unsafe { a.alloc(l) } as usize);
            }
            got
        })
        .join()
        .unwrap();
        assert!(freed.iter().all(|p| handed.contains(p)));
    }
}
