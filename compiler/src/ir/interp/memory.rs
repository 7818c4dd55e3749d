//! Byte-addressed memory of the reference interpreter: objects (allocas,
//! frame-owned blocks, globals, string literals, heap blocks) and the address
//! encoding that makes every pointer value independent of which *other*
//! objects exist.
//!
//! An address is a function of the object's identity, never of allocation
//! order, so removing promoted allocas (mem2reg) leaves every other pointer
//! value — and so every `%p` output and event argument — unchanged:
//!
//! | region | bits | identity |
//! |---|---|---|
//! | stack alloca | `1` · frame 20 · value id 19 · offset 24 | (frame tag, alloca's dest value) |
//! | global | `001` · index 28 · offset 32 | index in `module.globals` |
//! | string literal | `010` · index 28 · offset 32 | index in the literal tables |
//! | heap | `011` · counter 28 · offset 32 | n-th `malloc` of the run |
//! | frame-owned | `100` · frame 20 · slot 16 · offset 24 | dyn alloca number, byval copy, va area |
//! | code | `101` · function 28 · label flag · label 31 | function index / block label |
//! | files | `110` · stream number | `stdout`, `stderr` sentinels |
//!
//! The frame tag is the dynamic call number modulo 2^20, skipping tags still
//! used by live frames, so it depends only on the call history (which
//! mem2reg does not change). Addresses below 4096 are the null page.

use super::TrapKind;

pub(super) const NONE: u32 = u32::MAX;

const STACK_BIT: u64 = 1 << 63;
const STACK_FRAME_SHIFT: u32 = 43;
const STACK_VID_SHIFT: u32 = 24;
pub(super) const MAX_VID: u32 = 1 << 19;
const SMALL_OFFSET_MASK: u64 = (1 << 24) - 1;
pub(super) const MAX_SMALL_OBJECT: usize = 1 << 24;
const TAG_SHIFT: u32 = 60;
const INDEX_SHIFT: u32 = 32;
const INDEX_MASK: u64 = (1 << 28) - 1;
const BIG_OFFSET_MASK: u64 = (1 << 32) - 1;
pub(super) const FRAME_TAG_BITS: u32 = 20;
const FRAME_MASK: u64 = (1 << FRAME_TAG_BITS) - 1;
const FOBJ_FRAME_SHIFT: u32 = 40;
const FOBJ_SLOT_SHIFT: u32 = 24;

const TAG_GLOBAL: u64 = 1;
const TAG_STRING: u64 = 2;
const TAG_HEAP: u64 = 3;
const TAG_FRAME: u64 = 4;
const TAG_CODE: u64 = 5;
const TAG_FILE: u64 = 6;

/// Frame-owned slot numbers: `0..BYVAL_SLOT` dynamic allocas in execution order.
pub(super) const BYVAL_SLOT: u32 = 0x8000;
pub(super) const STACKSAVE_SLOT: u32 = 0xfffd;
pub(super) const FRAMEADDR_SLOT: u32 = 0xfffe;
pub(super) const VA_SLOT: u32 = 0xffff;

/// Total bytes of live objects a run may hold.
const MEMORY_LIMIT: usize = 256 << 20;
/// Largest heap block; bigger requests make `malloc` return NULL.
pub(super) const MAX_HEAP_BLOCK: usize = 64 << 20;

/// What an address points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Null,
    Stack { frame: u32, vid: u32 },
    Global(u32),
    Str(u32),
    Heap(u32),
    FrameObj { frame: u32, slot: u32 },
    Function(u32),
    Label { func: u32, label: u32 },
    File(u32),
    Wild,
}

pub(super) fn stack_addr(frame: u32, vid: u32) -> u64 {
    STACK_BIT | ((frame as u64) << STACK_FRAME_SHIFT) | ((vid as u64) << STACK_VID_SHIFT)
}
pub(super) fn global_addr(index: u32) -> u64 {
    (TAG_GLOBAL << TAG_SHIFT) | ((index as u64) << INDEX_SHIFT)
}
pub(super) fn string_addr(index: u32) -> u64 {
    (TAG_STRING << TAG_SHIFT) | ((index as u64) << INDEX_SHIFT)
}
pub(super) fn heap_addr(counter: u32) -> u64 {
    (TAG_HEAP << TAG_SHIFT) | ((counter as u64) << INDEX_SHIFT)
}
pub(super) fn frame_obj_addr(frame: u32, slot: u32) -> u64 {
    (TAG_FRAME << TAG_SHIFT) | ((frame as u64) << FOBJ_FRAME_SHIFT) | ((slot as u64) << FOBJ_SLOT_SHIFT)
}
pub(super) fn function_addr(index: u32) -> u64 {
    (TAG_CODE << TAG_SHIFT) | ((index as u64) << INDEX_SHIFT)
}
pub(super) fn label_addr(func: u32, label: u32) -> u64 {
    function_addr(func) | (1 << 31) | (label as u64 & 0x7fff_ffff)
}
pub(super) fn file_addr(stream: u32) -> u64 {
    (TAG_FILE << TAG_SHIFT) | stream as u64
}

/// Split an address into the object it names and the byte offset in it.
pub(super) fn decode(addr: u64) -> (Place, u64) {
    if addr < 4096 {
        return (Place::Null, addr);
    }
    if addr & STACK_BIT != 0 {
        let frame = ((addr >> STACK_FRAME_SHIFT) & FRAME_MASK) as u32;
        let vid = ((addr >> STACK_VID_SHIFT) & (MAX_VID as u64 - 1)) as u32;
        return (Place::Stack { frame, vid }, addr & SMALL_OFFSET_MASK);
    }
    let index = ((addr >> INDEX_SHIFT) & INDEX_MASK) as u32;
    match addr >> TAG_SHIFT {
        TAG_GLOBAL => (Place::Global(index), addr & BIG_OFFSET_MASK),
        TAG_STRING => (Place::Str(index), addr & BIG_OFFSET_MASK),
        TAG_HEAP => (Place::Heap(index), addr & BIG_OFFSET_MASK),
        TAG_FRAME => {
            let frame = ((addr >> FOBJ_FRAME_SHIFT) & FRAME_MASK) as u32;
            let slot = ((addr >> FOBJ_SLOT_SHIFT) & 0xffff) as u32;
            (Place::FrameObj { frame, slot }, addr & SMALL_OFFSET_MASK)
        }
        TAG_CODE if addr & (1 << 31) != 0 => (
            Place::Label {
                func: index,
                label: (addr & 0x7fff_ffff) as u32,
            },
            0,
        ),
        TAG_CODE if addr & BIG_OFFSET_MASK == 0 => (Place::Function(index), 0),
        TAG_FILE => (Place::File((addr & 0xffff_ffff) as u32), 0),
        _ => (Place::Wild, addr),
    }
}

/// One allocated object.
#[derive(Debug, Default)]
pub(super) struct Object {
    pub data: Vec<u8>,
    pub live: bool,
    pub readonly: bool,
    /// A volatile alloca: its accesses are observable events.
    pub volatile: bool,
}

/// The objects one frame owns.
#[derive(Debug, Default)]
pub(super) struct FrameMem {
    pub tag: u32,
    /// Object index per alloca value id (`NONE` when not yet executed).
    pub allocas: Vec<u32>,
    /// `(slot, object)` of frame-owned blocks.
    pub others: Vec<(u32, u32)>,
    /// Number of dynamic allocas executed so far (the next slot).
    pub dyn_count: u32,
}

/// All objects of a run.
#[derive(Debug, Default)]
pub(super) struct Memory {
    objects: Vec<Object>,
    free: Vec<u32>,
    pub frames: Vec<FrameMem>,
    frame_pool: Vec<FrameMem>,
    pub globals: Vec<u32>,
    pub strings: Vec<u32>,
    heap: Vec<u32>,
    heap_bytes: usize,
    live_bytes: usize,
    /// Volatile allocas created so far (0: no access needs the volatile check).
    volatile_objects: usize,
}

fn oob() -> TrapKind {
    TrapKind::OutOfBounds
}

impl Memory {
    /// A new zero-filled object of `size` bytes.
    pub fn new_object(&mut self, size: usize, readonly: bool) -> Result<u32, TrapKind> {
        if self.live_bytes + size > MEMORY_LIMIT {
            return Err(TrapKind::Unsupported("memory limit exceeded".into()));
        }
        self.live_bytes += size;
        if let Some(i) = self.free.pop() {
            let o = &mut self.objects[i as usize];
            o.data.clear();
            o.data.resize(size, 0);
            o.live = true;
            o.readonly = readonly;
            o.volatile = false;
            return Ok(i);
        }
        self.objects.push(Object {
            data: vec![0; size],
            live: true,
            readonly,
            volatile: false,
        });
        Ok(self.objects.len() as u32 - 1)
    }

    fn release(&mut self, i: u32) {
        let o = &mut self.objects[i as usize];
        if o.live {
            o.live = false;
            self.live_bytes -= o.data.len();
            self.free.push(i);
        }
    }

    pub fn object_data_mut(&mut self, i: u32) -> &mut Vec<u8> {
        &mut self.objects[i as usize].data
    }

    pub fn push_frame(&mut self, tag: u32) {
        let mut fm = self.frame_pool.pop().unwrap_or_default();
        fm.tag = tag;
        fm.allocas.clear();
        fm.others.clear();
        fm.dyn_count = 0;
        self.frames.push(fm);
    }

    pub fn pop_frame(&mut self) {
        if let Some(fm) = self.frames.pop() {
            for &o in &fm.allocas {
                if o != NONE {
                    self.release(o);
                }
            }
            for &(_, o) in &fm.others {
                self.release(o);
            }
            self.frame_pool.push(fm);
        }
    }

    /// Whether a live frame uses `tag`.
    pub fn frame_tag_in_use(&self, tag: u32) -> bool {
        self.frames.iter().any(|f| f.tag == tag)
    }

    /// The address of alloca `vid` in the top frame, creating it zero-filled
    /// on its first execution (re-executing an alloca keeps its contents).
    pub fn alloca(&mut self, vid: u32, size: usize, volatile: bool) -> Result<u64, TrapKind> {
        if vid >= MAX_VID || size >= MAX_SMALL_OBJECT {
            return Err(TrapKind::Unsupported("alloca beyond the interpreter's limits".into()));
        }
        let top = self.frames.len() - 1;
        let tag = self.frames[top].tag;
        let v = vid as usize;
        if self.frames[top].allocas.get(v).is_some_and(|&o| o != NONE) {
            return Ok(stack_addr(tag, vid));
        }
        let obj = self.new_object(size, false)?;
        if volatile {
            self.objects[obj as usize].volatile = true;
            self.volatile_objects += 1;
        }
        let allocas = &mut self.frames[top].allocas;
        if allocas.len() <= v {
            allocas.resize(v + 1, NONE);
        }
        allocas[v] = obj;
        Ok(stack_addr(tag, vid))
    }

    /// A new frame-owned block of the top frame in `slot` (dyn alloca, byval copy, va area).
    pub fn frame_object(&mut self, slot: u32, size: usize) -> Result<(u64, u32), TrapKind> {
        if size >= MAX_SMALL_OBJECT {
            return Err(TrapKind::Unsupported(
                "stack block beyond the interpreter's limits".into(),
            ));
        }
        let obj = self.new_object(size, false)?;
        let top = self.frames.len() - 1;
        self.frames[top].others.push((slot, obj));
        Ok((frame_obj_addr(self.frames[top].tag, slot), obj))
    }

    /// Free the top frame's dynamic allocas numbered `from` and later; the
    /// next one is numbered `from` again, as the stack pointer a
    /// `stackrestore` resets hands out the same addresses again (so a loop
    /// that frees its VLA each time, in one frame, stays within the slots).
    pub fn release_dyn_from(&mut self, from: u32) {
        let top = self.frames.len() - 1;
        let others = std::mem::take(&mut self.frames[top].others);
        let mut kept = Vec::with_capacity(others.len());
        for (slot, o) in others {
            if slot < BYVAL_SLOT && slot >= from {
                self.release(o);
            } else {
                kept.push((slot, o));
            }
        }
        self.frames[top].others = kept;
        let fm = &mut self.frames[top];
        fm.dyn_count = fm.dyn_count.min(from);
    }

    pub fn new_global(&mut self, bytes: Vec<u8>, readonly: bool) -> Result<u32, TrapKind> {
        let o = self.new_object(0, readonly)?;
        self.live_bytes += bytes.len();
        self.objects[o as usize].data = bytes;
        Ok(o)
    }

    pub fn object_bytes(&self, i: u32) -> &[u8] {
        &self.objects[i as usize].data
    }

    pub fn malloc(&mut self, size: usize) -> Result<u64, TrapKind> {
        if size > MAX_HEAP_BLOCK || self.heap.len() as u64 >= INDEX_MASK || self.live_bytes + size > MEMORY_LIMIT {
            return Ok(0);
        }
        let o = self.new_object(size, false)?;
        self.heap.push(o);
        self.heap_bytes += size;
        Ok(heap_addr(self.heap.len() as u32 - 1))
    }

    /// Free a heap block; anything but the start of a live heap block traps.
    pub fn free(&mut self, addr: u64) -> Result<(), TrapKind> {
        if addr == 0 {
            return Ok(());
        }
        match decode(addr) {
            (Place::Heap(n), 0) => match self.heap.get(n as usize) {
                Some(&o) if o != NONE => {
                    self.heap_bytes -= self.objects[o as usize].data.len();
                    self.release(o);
                    self.heap[n as usize] = NONE;
                    Ok(())
                }
                _ => Err(TrapKind::BadFree),
            },
            _ => Err(TrapKind::BadFree),
        }
    }

    /// Size of the live heap block starting at `addr`.
    pub fn heap_block_size(&self, addr: u64) -> Option<usize> {
        match decode(addr) {
            (Place::Heap(n), 0) => match self.heap.get(n as usize) {
                Some(&o) if o != NONE => Some(self.objects[o as usize].data.len()),
                _ => None,
            },
            _ => None,
        }
    }

    fn find_frame(&self, tag: u32) -> Option<&FrameMem> {
        self.frames.iter().rev().find(|f| f.tag == tag)
    }

    /// The object and offset `addr` names, checking null and liveness only.
    fn locate(&self, addr: u64) -> Result<(u32, usize), TrapKind> {
        let (place, off) = decode(addr);
        let obj = match place {
            Place::Null => return Err(TrapKind::NullDeref),
            Place::Stack { frame, vid } => {
                let top = self.frames.last();
                let f = match top {
                    Some(t) if t.tag == frame => t,
                    _ => self.find_frame(frame).ok_or_else(oob)?,
                };
                *f.allocas.get(vid as usize).ok_or_else(oob)?
            }
            Place::Global(i) => *self.globals.get(i as usize).ok_or_else(oob)?,
            Place::Str(i) => *self.strings.get(i as usize).ok_or_else(oob)?,
            Place::Heap(i) => *self.heap.get(i as usize).ok_or_else(oob)?,
            Place::FrameObj { frame, slot } => {
                let f = self.find_frame(frame).ok_or_else(oob)?;
                f.others.iter().find(|(s, _)| *s == slot).ok_or_else(oob)?.1
            }
            _ => return Err(oob()),
        };
        if obj == NONE || !self.objects[obj as usize].live {
            return Err(oob());
        }
        Ok((obj, off as usize))
    }

    /// Bounds- and alignment-checked access to `size` bytes at `addr`.
    #[inline]
    fn check(&self, addr: u64, size: usize, aligned: bool) -> Result<(u32, usize), TrapKind> {
        if addr < 4096 {
            return Err(TrapKind::NullDeref);
        }
        if aligned && size > 1 && !addr.is_multiple_of(size.min(8) as u64) {
            return Err(TrapKind::Misaligned);
        }
        let (obj, off) = self.locate(addr)?;
        if off
            .checked_add(size)
            .is_none_or(|end| end > self.objects[obj as usize].data.len())
        {
            return Err(oob());
        }
        Ok((obj, off))
    }

    /// The size of the object `addr` points into, if it is live.
    pub fn object_len(&self, addr: u64) -> Option<usize> {
        self.locate(addr)
            .ok()
            .map(|(obj, _)| self.objects[obj as usize].data.len())
    }

    /// Whether `addr` lies in a volatile alloca (cheap when there is none).
    #[inline]
    pub fn is_volatile(&self, addr: u64) -> bool {
        self.volatile_objects > 0
            && self
                .locate(addr)
                .is_ok_and(|(obj, _)| self.objects[obj as usize].volatile)
    }

    /// Load a little-endian scalar of `size` bytes (at most 16).
    #[inline]
    pub fn read(&self, addr: u64, size: usize) -> Result<u128, TrapKind> {
        let (obj, off) = self.check(addr, size, true)?;
        let d = &self.objects[obj as usize].data[off..];
        Ok(match size {
            8 => u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]) as u128,
            4 => u32::from_le_bytes([d[0], d[1], d[2], d[3]]) as u128,
            1 => d[0] as u128,
            _ => {
                let mut buf = [0u8; 16];
                let n = size.min(16);
                buf[..n].copy_from_slice(&d[..n]);
                u128::from_le_bytes(buf)
            }
        })
    }

    /// Store the low `size` bytes (at most 16) of `val`, little-endian.
    #[inline]
    pub fn write(&mut self, addr: u64, size: usize, val: u128) -> Result<(), TrapKind> {
        let (obj, off) = self.check(addr, size, true)?;
        let o = &mut self.objects[obj as usize];
        if o.readonly {
            return Err(TrapKind::ReadOnlyWrite);
        }
        match size {
            8 => o.data[off..off + 8].copy_from_slice(&(val as u64).to_le_bytes()),
            4 => o.data[off..off + 4].copy_from_slice(&(val as u32).to_le_bytes()),
            _ => {
                let n = size.min(16);
                o.data[off..off + n].copy_from_slice(&val.to_le_bytes()[..n]);
            }
        }
        Ok(())
    }

    /// `n` bytes at `addr` (no alignment requirement); `n == 0` never traps.
    pub fn read_bytes(&self, addr: u64, n: usize) -> Result<&[u8], TrapKind> {
        if n == 0 {
            return Ok(&[]);
        }
        let (obj, off) = self.check(addr, n, false)?;
        Ok(&self.objects[obj as usize].data[off..off + n])
    }

    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) -> Result<(), TrapKind> {
        if bytes.is_empty() {
            return Ok(());
        }
        let (obj, off) = self.check(addr, bytes.len(), false)?;
        let o = &mut self.objects[obj as usize];
        if o.readonly {
            return Err(TrapKind::ReadOnlyWrite);
        }
        o.data[off..off + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// `memmove`: copy `n` bytes, overlapping allowed.
    pub fn copy(&mut self, dst: u64, src: u64, n: usize) -> Result<(), TrapKind> {
        if n == 0 {
            return Ok(());
        }
        let bytes = self.read_bytes(src, n)?.to_vec();
        self.write_bytes(dst, &bytes)
    }

    /// The bytes of the NUL-terminated string at `addr` (without the NUL).
    pub fn read_cstr(&self, addr: u64) -> Result<&[u8], TrapKind> {
        let (obj, off) = self.check(addr, 1, false)?;
        let data = &self.objects[obj as usize].data[off..];
        match data.iter().position(|&b| b == 0) {
            Some(n) => Ok(&data[..n]),
            None => Err(oob()),
        }
    }

    /// At most `max` bytes of the string at `addr`, stopping at a NUL.
    pub fn read_cstr_max(&self, addr: u64, max: usize) -> Result<&[u8], TrapKind> {
        if max == 0 {
            return Ok(&[]);
        }
        let (obj, off) = self.check(addr, 1, false)?;
        let data = &self.objects[obj as usize].data[off..];
        match data.iter().take(max).position(|&b| b == 0) {
            Some(n) => Ok(&data[..n]),
            None if data.len() >= max => Ok(&data[..max]),
            None => Err(oob()),
        }
    }
}
