//! The libc shim: the few C library functions a lowered C program needs to
//! run and print, implemented on the interpreter's memory so that their UB
//! (overflowing a buffer, freeing twice) traps like any other access.
//!
//! `stdout` output is collected in the outcome; `stderr` output becomes an
//! event named `stderr` so that it stays observable. `__builtin_` prefixes
//! are accepted.

use super::exec::{Machine, Res, Stop};
use super::memory::{decode, Place};
use super::prepare::Prepared;
use super::printf::ArgSrc;
use super::schedule::mix_event;
use super::{Event, TrapKind};
use crate::ir::instruction::CallInfo;

macro_rules! shims {
    ($($v:ident = $($s:literal)|+;)*) => {
        /// A C library function the interpreter implements.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Shim { $($v),* }
        impl Shim {
            pub fn from_name(name: &str) -> Option<Shim> {
                let name = name.strip_prefix("__builtin_").unwrap_or(name);
                match name { $($($s)|+ => Some(Shim::$v),)* _ => None }
            }
        }
    };
}

shims! {
    Printf = "printf";
    Fprintf = "fprintf";
    Dprintf = "dprintf";
    Sprintf = "sprintf";
    Snprintf = "snprintf";
    Vprintf = "vprintf";
    Vfprintf = "vfprintf";
    Vsprintf = "vsprintf";
    Vsnprintf = "vsnprintf";
    Puts = "puts";
    Fputs = "fputs";
    Putchar = "putchar";
    Fputc = "fputc" | "putc";
    Fwrite = "fwrite";
    Fflush = "fflush";
    Memcpy = "memcpy";
    Memmove = "memmove";
    Memset = "memset";
    Memcmp = "memcmp";
    Strlen = "strlen";
    Strcmp = "strcmp";
    Strncmp = "strncmp";
    Strcpy = "strcpy";
    Strncpy = "strncpy";
    Strcat = "strcat";
    Strchr = "strchr";
    Malloc = "malloc";
    Calloc = "calloc";
    Realloc = "realloc";
    Free = "free";
    Abort = "abort";
    Exit = "exit" | "_exit" | "_Exit";
    Abs = "abs";
    Labs = "labs" | "llabs";
}

/// Output streams a `FILE *` or file descriptor can name.
#[derive(Clone, Copy, PartialEq)]
enum Stream {
    Out,
    Err,
}

fn cmp_bytes(a: &[u8], b: &[u8]) -> u128 {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return (*x as i32 - *y as i32) as u32 as u128;
        }
    }
    0
}

impl<'m> Machine<'m> {
    fn arg(args: &[u128], i: usize) -> Res<u128> {
        args.get(i).copied().ok_or(Stop::Trap(TrapKind::Unsupported(
            "libc call with too few arguments".into(),
        )))
    }

    fn stream(&self, fp: u128) -> Res<Stream> {
        match decode(fp as u64) {
            (Place::File(1), _) => Ok(Stream::Out),
            (Place::File(2), _) => Ok(Stream::Err),
            _ => Err(TrapKind::Unsupported("write to a FILE other than stdout/stderr".into()).into()),
        }
    }

    fn fd_stream(fd: u128) -> Res<Stream> {
        match fd as u32 {
            1 => Ok(Stream::Out),
            2 => Ok(Stream::Err),
            _ => Err(TrapKind::Unsupported("write to a file descriptor other than 1 or 2".into()).into()),
        }
    }

    fn emit(&mut self, s: Stream, bytes: &[u8]) {
        match s {
            Stream::Out => self.stdout.extend_from_slice(bytes),
            Stream::Err => {
                let e = Event {
                    name: "stderr".into(),
                    args: vec![format!("{:?}", String::from_utf8_lossy(bytes))],
                };
                self.event_state = mix_event(self.event_state, &e);
                self.events.push(e);
            }
        }
    }

    /// Store `bytes` and a NUL at `dst`, at most `cap` bytes in all.
    fn store_string(&mut self, dst: u64, bytes: &[u8], cap: Option<usize>) -> Res<()> {
        let n = match cap {
            Some(0) => return Ok(()),
            Some(c) => bytes.len().min(c - 1),
            None => bytes.len(),
        };
        let mut b = bytes[..n].to_vec();
        b.push(0);
        self.mem.write_bytes(dst, &b)?;
        Ok(())
    }

    fn direct<'a>(args: &'a [u128], info: &'a CallInfo, from: usize) -> ArgSrc<'a> {
        ArgSrc::Direct {
            vals: args.get(from..).unwrap_or(&[]),
            types: info.arg_types.get(from..).unwrap_or(&[]),
            next: 0,
        }
    }

    fn va_src(&self, list: u128) -> Res<ArgSrc<'static>> {
        let (cursor, _) = self.va_cursor(list as u64)?;
        Ok(ArgSrc::Va { cursor })
    }

    fn fmt_at(&mut self, args: &[u128], fmt_idx: usize, src: &mut ArgSrc) -> Res<Vec<u8>> {
        let fmt = self.mem.read_cstr(Self::arg(args, fmt_idx)? as u64)?.to_vec();
        self.format(&fmt, src)
    }

    /// Run shim `s`; the return value's raw bits, `None` for void.
    pub(super) fn call_shim(
        &mut self,
        _p: &Prepared<'m>,
        s: Shim,
        args: &[u128],
        info: &CallInfo,
    ) -> Res<Option<u128>> {
        let a = |i: usize| Self::arg(args, i);
        let len_ret = |n: usize| Some(n as u32 as u128);
        Ok(match s {
            Shim::Printf | Shim::Fprintf | Shim::Dprintf | Shim::Vprintf | Shim::Vfprintf => {
                let (stream, fi) = match s {
                    Shim::Printf | Shim::Vprintf => (Stream::Out, 0),
                    Shim::Dprintf => (Self::fd_stream(a(0)?)?, 1),
                    _ => (self.stream(a(0)?)?, 1),
                };
                let mut src = if matches!(s, Shim::Vprintf | Shim::Vfprintf) {
                    self.va_src(a(fi + 1)?)?
                } else {
                    Self::direct(args, info, fi + 1)
                };
                let out = self.fmt_at(args, fi, &mut src)?;
                self.emit(stream, &out);
                len_ret(out.len())
            }
            Shim::Sprintf | Shim::Snprintf | Shim::Vsprintf | Shim::Vsnprintf => {
                let sized = matches!(s, Shim::Snprintf | Shim::Vsnprintf);
                let fi = if sized { 2 } else { 1 };
                let mut src = if matches!(s, Shim::Vsprintf | Shim::Vsnprintf) {
                    self.va_src(a(fi + 1)?)?
                } else {
                    Self::direct(args, info, fi + 1)
                };
                let out = self.fmt_at(args, fi, &mut src)?;
                let cap = if sized { Some(a(1)? as u64 as usize) } else { None };
                self.store_string(a(0)? as u64, &out, cap)?;
                len_ret(out.len())
            }
            Shim::Puts | Shim::Fputs => {
                let mut bytes = self.mem.read_cstr(a(0)? as u64)?.to_vec();
                let stream = if s == Shim::Puts {
                    bytes.push(b'\n');
                    Stream::Out
                } else {
                    self.stream(a(1)?)?
                };
                self.emit(stream, &bytes);
                len_ret(bytes.len())
            }
            Shim::Putchar | Shim::Fputc => {
                let c = a(0)? as u8;
                let stream = if s == Shim::Putchar {
                    Stream::Out
                } else {
                    self.stream(a(1)?)?
                };
                self.emit(stream, &[c]);
                Some(c as u128)
            }
            Shim::Fwrite => {
                let n = (a(1)? as u64).saturating_mul(a(2)? as u64);
                let bytes = self.mem.read_bytes(a(0)? as u64, n as usize)?.to_vec();
                let stream = self.stream(a(3)?)?;
                self.emit(stream, &bytes);
                Some(if a(1)? as u64 == 0 { 0 } else { a(2)? as u64 as u128 })
            }
            Shim::Fflush => Some(0),
            Shim::Memcpy | Shim::Memmove => {
                self.mem.copy(a(0)? as u64, a(1)? as u64, a(2)? as u64 as usize)?;
                Some(a(0)?)
            }
            Shim::Memset => {
                let n = a(2)? as u64 as usize;
                if n > super::memory::MAX_HEAP_BLOCK {
                    return Err(TrapKind::OutOfBounds.into());
                }
                self.mem.write_bytes(a(0)? as u64, &vec![a(1)? as u8; n])?;
                Some(a(0)?)
            }
            Shim::Memcmp => {
                let n = a(2)? as u64 as usize;
                let x = self.mem.read_bytes(a(0)? as u64, n)?;
                let y = self.mem.read_bytes(a(1)? as u64, n)?;
                Some(cmp_bytes(x, y))
            }
            Shim::Strlen => len_ret(self.mem.read_cstr(a(0)? as u64)?.len()).map(|v| v as u64 as u128),
            Shim::Strcmp | Shim::Strncmp => {
                let (x, y) = if s == Shim::Strcmp {
                    (self.mem.read_cstr(a(0)? as u64)?, self.mem.read_cstr(a(1)? as u64)?)
                } else {
                    let n = a(2)? as u64 as usize;
                    (
                        self.mem.read_cstr_max(a(0)? as u64, n)?,
                        self.mem.read_cstr_max(a(1)? as u64, n)?,
                    )
                };
                // Compare including the terminating NUL of the shorter string.
                let (mut x, mut y) = (x.to_vec(), y.to_vec());
                let n = x.len().min(y.len()) + 1;
                x.push(0);
                y.push(0);
                Some(cmp_bytes(&x[..n.min(x.len())], &y[..n.min(y.len())]))
            }
            Shim::Strcpy | Shim::Strcat => {
                let src = self.mem.read_cstr(a(1)? as u64)?.to_vec();
                let mut dst = a(0)? as u64;
                if s == Shim::Strcat {
                    dst += self.mem.read_cstr(dst)?.len() as u64;
                }
                self.store_string(dst, &src, None)?;
                Some(a(0)?)
            }
            Shim::Strncpy => {
                let n = a(2)? as u64 as usize;
                if n > super::memory::MAX_HEAP_BLOCK {
                    return Err(TrapKind::OutOfBounds.into());
                }
                let mut b = self.mem.read_cstr_max(a(1)? as u64, n)?.to_vec();
                b.resize(n, 0);
                self.mem.write_bytes(a(0)? as u64, &b)?;
                Some(a(0)?)
            }
            Shim::Strchr => {
                let p = a(0)? as u64;
                let c = a(1)? as u8;
                let bytes = self.mem.read_cstr(p)?;
                match bytes.iter().position(|&b| b == c) {
                    Some(i) => Some((p + i as u64) as u128),
                    None if c == 0 => Some((p + bytes.len() as u64) as u128),
                    None => Some(0),
                }
            }
            Shim::Malloc => Some(self.mem.malloc(a(0)? as u64 as usize)? as u128),
            Shim::Calloc => {
                let n = (a(0)? as u64).checked_mul(a(1)? as u64);
                match n {
                    Some(n) => Some(self.mem.malloc(n as usize)? as u128),
                    None => Some(0),
                }
            }
            Shim::Realloc => {
                let (old, n) = (a(0)? as u64, a(1)? as u64 as usize);
                if old == 0 {
                    return Ok(Some(self.mem.malloc(n)? as u128));
                }
                let Some(old_size) = self.mem.heap_block_size(old) else {
                    return Err(TrapKind::BadFree.into());
                };
                if n == 0 {
                    self.mem.free(old)?;
                    return Ok(Some(0));
                }
                let new = self.mem.malloc(n)?;
                if new != 0 {
                    self.mem.copy(new, old, old_size.min(n))?;
                    self.mem.free(old)?;
                }
                Some(new as u128)
            }
            Shim::Free => {
                self.mem.free(a(0)? as u64)?;
                None
            }
            Shim::Abort => return Err(TrapKind::Abort.into()),
            Shim::Exit => return Err(Stop::Exit(a(0)? as u32 as i32)),
            Shim::Abs => Some((a(0)? as u32 as i32).wrapping_abs() as u32 as u128),
            Shim::Labs => Some((a(0)? as u64 as i64).wrapping_abs() as u64 as u128),
        })
    }
}
