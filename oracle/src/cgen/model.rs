//! The program model the generator keeps while it writes C: variables with
//! the rules for using them, function signatures with their static work
//! bound, the helper functions a program needs, and the output text.

use super::types::{CType, Scalar};
use std::collections::BTreeSet;

/// A variable (global, parameter or local) as the generator sees it.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub name: String,
    pub ty: CType,
    pub volatile: bool,
    /// Loop counters, dispatch states and similar: only the construct that
    /// owns them writes them, so every loop stays bounded.
    pub readonly: bool,
    /// Block nesting of the declaration: 0 for globals, 1 for a function's
    /// parameters and top-level locals, more for nested blocks.
    pub depth: usize,
    /// For a pointer: the deepest declaration depth of anything it may point
    /// to (0 for globals; 1 for a pointer parameter, whose object lives as
    /// long as the call). A pointer may only point to objects that live at
    /// least as long as itself.
    pub target_depth: usize,
    /// For a pointer: it may point into a local array (GCC 12 crashes in
    /// SRA on an `asm goto` output stored there, so it is never one).
    pub into_local_array: bool,
}

/// Something a pointer can be made to point to.
#[derive(Clone, Debug)]
pub(crate) struct AddrCandidate {
    /// The address expression (`&x`, `&arr[2]`).
    pub addr: String,
    /// Declaration depth of the object.
    pub depth: usize,
    /// An element of a local (not global) array.
    pub local_array: bool,
}

impl Var {
    pub fn scalar(&self) -> Option<Scalar> {
        match self.ty {
            CType::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

/// A generated function other than `main`.
#[derive(Clone, Debug)]
pub(crate) struct Signature {
    pub name: String,
    pub params: Vec<CType>,
    /// `None` is `void`.
    pub ret: Option<Scalar>,
    /// Upper bound on the statements one call executes (callees included).
    pub work: u64,
    /// Parameter 0 is a recursion depth: callers pass 0 to 3.
    pub recursive: bool,
}

/// How a helper function is declared (for the inliner: issue 15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FnAttr {
    Plain,
    Static,
    /// `static inline __attribute__((always_inline))`.
    AlwaysInline,
    /// `__attribute__((noinline))`.
    NoInline,
}

impl FnAttr {
    pub fn prefix(self) -> &'static str {
        match self {
            FnAttr::Plain => "",
            FnAttr::Static => "static ",
            FnAttr::AlwaysInline => "static inline __attribute__((always_inline)) ",
            FnAttr::NoInline => "__attribute__((noinline)) ",
        }
    }
}

/// The runtime helpers a program can use; only the used ones are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Helper {
    /// `mix(v)`: fold a value into the checksum (always present).
    Mix,
    /// `mix_f64(d)`: fold the bits of a double (never a NaN, so the bits are
    /// the same on every target).
    MixF64,
    /// `f2ll(d)`: float to `long long`, 0 when out of range (no UB).
    F2ll,
    /// `clamp_f32` / `clamp_f64`: keep stored floats finite, at most 1e6 in
    /// magnitude and not tiny, so no expression can overflow or go subnormal.
    ClampF32,
    ClampF64,
    /// Guarded signed division and remainder (divisor 0 or `MIN / -1` give `a` or 0).
    SDivI32,
    SModI32,
    SDivI64,
    SModI64,
    /// `va_sum(n, ...)`: folds its `n` variadic `long long` arguments.
    VaSum,
}

impl Helper {
    /// The C definition.
    pub fn definition(self) -> &'static str {
        match self {
            Helper::Mix => {
                "static unsigned long long checksum = 0x6a09e667f3bcc908ULL;\n\
                 static void mix(unsigned long long v) {\n    \
                 checksum = (checksum ^ v) * 0x100000001b3ULL;\n    \
                 checksum ^= checksum >> 29;\n}\n"
            }
            Helper::MixF64 => {
                "static void mix_f64(double d) {\n    \
                 union { double d; unsigned long long u; } bits;\n    \
                 bits.d = d;\n    mix(bits.u);\n}\n"
            }
            Helper::F2ll => "static long long f2ll(double d) { return (d > -1e18 && d < 1e18) ? (long long)d : 0; }\n",
            Helper::ClampF32 => {
                "static float clamp_f32(float f) {\n    \
                 if (!(f > -1e6f && f < 1e6f)) return 1.5f;\n    \
                 return (f > -1e-6f && f < 1e-6f) ? 0.0f : f;\n}\n"
            }
            Helper::ClampF64 => {
                "static double clamp_f64(double d) {\n    \
                 if (!(d > -1e6 && d < 1e6)) return 2.5;\n    \
                 return (d > -1e-6 && d < 1e-6) ? 0.0 : d;\n}\n"
            }
            Helper::SDivI32 => {
                "static int sdiv_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }\n"
            }
            Helper::SModI32 => {
                "static int smod_i32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? 0 : a % b; }\n"
            }
            Helper::SDivI64 => {
                "static long long sdiv_i64(long long a, long long b) {\n    \
                 return (b == 0 || (a == (-9223372036854775807LL - 1) && b == -1)) ? a : a / b;\n}\n"
            }
            Helper::SModI64 => {
                "static long long smod_i64(long long a, long long b) {\n    \
                 return (b == 0 || (a == (-9223372036854775807LL - 1) && b == -1)) ? 0 : a % b;\n}\n"
            }
            Helper::VaSum => {
                "static unsigned long long va_sum(int n, ...) {\n    \
                 __builtin_va_list ap;\n    \
                 __builtin_va_start(ap, n);\n    \
                 unsigned long long s = 17;\n    \
                 for (int i = 0; i < n; i++)\n        \
                 s = s * 31u + (unsigned long long)__builtin_va_arg(ap, long long);\n    \
                 __builtin_va_end(ap);\n    \
                 return s;\n}\n"
            }
        }
    }
}

/// What the functions of one program share.
#[derive(Default)]
pub(crate) struct ProgramState {
    pub helpers: BTreeSet<Helper>,
    /// Functions generated so far (a function may call any of them).
    pub functions: Vec<Signature>,
}

/// C text with indentation.
pub(crate) struct Text {
    pub buf: String,
    pub indent: usize,
}

impl Text {
    pub fn new(indent: usize) -> Text {
        Text {
            buf: String::new(),
            indent,
        }
    }

    /// One line at the current indentation.
    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.buf.push_str("    ");
        }
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    /// A line at column 0 (preprocessor directives).
    pub fn directive(&mut self, s: &str) {
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    /// A line that opens a brace: the following lines are indented.
    pub fn open(&mut self, s: &str) {
        self.line(s);
        self.indent += 1;
    }

    /// A line that closes a brace.
    pub fn close(&mut self, s: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(s);
    }

    /// A line that closes one brace and opens another (`} else {`).
    pub fn reopen(&mut self, s: &str) {
        self.close(s);
        self.indent += 1;
    }

    /// A label, one level left of the statements.
    pub fn label(&mut self, name: &str) {
        let saved = self.indent;
        self.indent = saved.saturating_sub(1);
        self.line(&format!("{name}: ;"));
        self.indent = saved;
    }
}
