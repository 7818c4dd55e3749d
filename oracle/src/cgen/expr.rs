//! Expressions free of undefined behaviour by construction.
//!
//! An expression generated for type `T` has a value representable in `T`
//! (and exactly type `T` when `T` is at least as wide as `int`). The rules:
//!
//! - Integer arithmetic is done in `unsigned` or `unsigned long long`
//!   (wraps, C11 6.2.5p9) and converted back; converting an out-of-range
//!   value to a signed type is implementation-defined, and modular on every
//!   gcc target. Signed operations appear only where they cannot overflow:
//!   right shifts, comparisons, division through guarded helpers or by a
//!   positive constant.
//! - Shift counts are masked below the width; divisors are made odd
//!   (`| 1`) or go through `sdiv_i32`-style helpers that check 0 and `MIN / -1`.
//! - Floats: only `+`, `-`, negation and scaling by powers of two (exact, so
//!   contracting into FMA changes nothing), on values that are stored
//!   through `clamp_f32`/`clamp_f64`. Every stored float is finite and at
//!   most 1e6 in magnitude, so no expression of bounded depth overflows or
//!   makes a NaN, and the checksum of their bits is the same on every
//!   target. Float-to-integer conversion goes through `f2ll`, which is 0
//!   out of range.
//! - No expression has a side effect, so evaluation order never matters;
//!   a volatile variable is read at most once per expression.

use super::function::FnGen;
use super::model::Helper;
use super::types::{CType, Scalar, ARRAY_LEN};

/// Restrictions on the reads of one expression.
#[derive(Default, Clone, Debug)]
pub(crate) struct ExprCtx {
    /// Variables that must not be read (an asm-goto output on its goto path).
    pub exclude: Vec<usize>,
    /// No reads through pointers or arrays (they might alias an excluded variable).
    pub no_memory: bool,
    /// Volatile variables read so far by this expression.
    pub volatiles_read: Vec<usize>,
}

impl ExprCtx {
    /// Reads of everything but `id` and memory.
    pub fn without(id: usize) -> ExprCtx {
        ExprCtx {
            exclude: vec![id],
            no_memory: true,
            volatiles_read: Vec::new(),
        }
    }
}

impl FnGen<'_, '_, '_> {
    /// A constant of type `ty`: small values, boundaries, powers of two, random bits.
    pub fn constant(&mut self, ty: Scalar) -> String {
        if ty.is_float() {
            let pick = self.c.bits();
            return ty.float_literal(pick);
        }
        let bits = ty.bits().max(2);
        let raw = match self.c.index(6) {
            0 => self.c.range(0, 16),
            1 => (self.c.range(1, 16) as i64).wrapping_neg() as u64,
            2 => match self.c.index(4) {
                0 => (1u64 << (bits - 1)) - 1,
                1 => 1u64 << (bits - 1),
                2 => u64::MAX,
                _ => (1u64 << (bits - 1)).wrapping_add(1),
            },
            3 => 1u64 << self.c.range(0, bits as u64 - 1),
            _ => self.c.bits(),
        };
        ty.int_literal(raw)
    }

    /// An expression of type `ty` to store into an object of that type: floats
    /// are clamped (see the module header).
    pub fn store_expr(&mut self, ty: Scalar, ctx: &mut ExprCtx) -> String {
        let depth = self.c.range(0, self.cfg.expr_depth as u64) as usize;
        let e = self.expr(ty, depth, ctx);
        self.clamped(ty, e)
    }

    /// `e` (of type `ty`) ready to be stored: floats go through the clamp.
    pub fn clamped(&mut self, ty: Scalar, e: String) -> String {
        match ty {
            Scalar::Float => {
                self.use_helper(Helper::ClampF32);
                format!("clamp_f32({e})")
            }
            Scalar::Double => {
                self.use_helper(Helper::ClampF64);
                format!("clamp_f64({e})")
            }
            _ => e,
        }
    }

    /// `text`, of type `from`, converted to `to` without undefined behaviour.
    pub fn conv(&mut self, text: String, from: Scalar, to: Scalar) -> String {
        if from == to {
            return text;
        }
        if to == Scalar::Bool {
            return format!("((_Bool)({text} != 0))");
        }
        if from.is_float() && !to.is_float() {
            self.use_helper(Helper::F2ll);
            return format!("(({})f2ll({text}))", to.name());
        }
        format!("(({})({text}))", to.name())
    }

    /// An expression of type `ty` with at most `depth` levels of operators.
    pub fn expr(&mut self, ty: Scalar, depth: usize, ctx: &mut ExprCtx) -> String {
        if depth == 0 || self.c.chance(1, 4) {
            return self.leaf(ty, ctx);
        }
        let d = depth - 1;
        if ty.is_float() {
            return self.float_expr(ty, d, ctx);
        }
        let u = ty.unsigned_arith();
        let s = ty.signed_arith();
        let mask = if u.bits() == 64 { "63u" } else { "31u" };
        match self.c.index(9) {
            0 => {
                let op = self.c.pick(&["+", "-", "*"]);
                let a = self.expr(u, d, ctx);
                let b = self.expr(u, d, ctx);
                self.conv(format!("({a} {op} {b})"), u, ty)
            }
            1 => {
                let op = self.c.pick(&["&", "|", "^"]);
                let a = self.expr(u, d, ctx);
                let b = self.expr(u, d, ctx);
                self.conv(format!("({a} {op} {b})"), u, ty)
            }
            2 => {
                let a = self.expr(u, d, ctx);
                let text = if self.c.chance(1, 2) {
                    let k = self.c.range(0, u.bits() as u64 - 1);
                    format!("({a} << {k})")
                } else {
                    let b = self.expr(u, d, ctx);
                    format!("({a} << ({b} & {mask}))")
                };
                self.conv(text, u, ty)
            }
            3 => {
                // Logical or arithmetic (signed) right shift. GCC 12 folds
                // `(int)(0xfffffffcu | x) >> 2` and reports the conversion of
                // the constant as an overflow (-Woverflow), so a signed shift
                // by a constant count shifts a plain variable.
                if self.c.chance(1, 2) {
                    let a = self.expr(u, d, ctx);
                    let b = self.expr(u, d, ctx);
                    return self.conv(format!("({a} >> ({b} & {mask}))"), u, ty);
                }
                let text = match self.read_any(ctx) {
                    Some((count, from)) if self.c.chance(1, 2) => {
                        let a = self.expr(s, d, ctx);
                        let count = self.conv(count, from, u);
                        format!("({a} >> ({count} & {mask}))")
                    }
                    Some((var, from)) => {
                        let a = self.conv(var, from, s);
                        let k = self.c.range(0, u.bits() as u64 - 1);
                        format!("({a} >> {k})")
                    }
                    None => {
                        let a = self.constant(s);
                        format!("({a} >> 1)")
                    }
                };
                self.conv(text, s, ty)
            }
            4 => self.division(ty, d, ctx),
            5 => {
                let a = self.expr(u, d, ctx);
                let text = if self.c.chance(1, 2) {
                    format!("(~{a})")
                } else {
                    format!("({} - {a})", u.int_literal(0))
                };
                self.conv(text, u, ty)
            }
            6 => {
                let c = self.cond(d, ctx);
                let a = self.expr(ty, d, ctx);
                let b = self.expr(ty, d, ctx);
                format!("({c} ? {a} : {b})")
            }
            7 => {
                let c = self.cond(d, ctx);
                self.conv(c, Scalar::Int, ty)
            }
            _ => {
                // Through another type: truncation, sign or zero extension, float round trips.
                let via = self.random_scalar();
                let e = self.expr(via, d, ctx);
                self.conv(e, via, ty)
            }
        }
    }

    /// `/` and `%` that cannot trap: odd divisors, positive constants, or
    /// the guarded helpers.
    fn division(&mut self, ty: Scalar, d: usize, ctx: &mut ExprCtx) -> String {
        let u = ty.unsigned_arith();
        let s = ty.signed_arith();
        let op = self.c.pick(&["/", "%"]);
        match self.c.index(3) {
            0 => {
                let a = self.expr(u, d, ctx);
                let b = self.expr(u, d, ctx);
                self.conv(format!("({a} {op} ({b} | 1u))"), u, ty)
            }
            1 => {
                // By a positive constant. A signed dividend is a plain
                // variable, for the same GCC folding false positive as
                // signed shifts (see `expr`).
                let k = self.c.pick(&[1u64, 2, 3, 7, 10, 16, 100, 255, 1000, 65537]);
                let signed = self.c.chance(1, 2);
                let (a, t) = match self.read_any(ctx) {
                    Some((var, from)) if signed => (self.conv(var, from, s), s),
                    _ => (self.expr(u, d, ctx), u),
                };
                self.conv(format!("({a} {op} {})", t.int_literal(k)), t, ty)
            }
            _ => {
                let helper = match (s, op) {
                    (Scalar::Int, "/") => Helper::SDivI32,
                    (Scalar::Int, _) => Helper::SModI32,
                    (_, "/") => Helper::SDivI64,
                    _ => Helper::SModI64,
                };
                let name = match helper {
                    Helper::SDivI32 => "sdiv_i32",
                    Helper::SModI32 => "smod_i32",
                    Helper::SDivI64 => "sdiv_i64",
                    _ => "smod_i64",
                };
                self.use_helper(helper);
                let a = self.expr(s, d, ctx);
                let b = self.expr(s, d, ctx);
                self.conv(format!("{name}({a}, {b})"), s, ty)
            }
        }
    }

    fn float_expr(&mut self, ty: Scalar, d: usize, ctx: &mut ExprCtx) -> String {
        let f = if ty == Scalar::Float { "f" } else { "" };
        match self.c.index(5) {
            0 | 1 => {
                let op = self.c.pick(&["+", "-"]);
                let a = self.expr(ty, d, ctx);
                let b = self.expr(ty, d, ctx);
                format!("({a} {op} {b})")
            }
            2 => {
                let a = self.expr(ty, d, ctx);
                let (op, k) = self
                    .c
                    .pick(&[("*", "0.5"), ("*", "2.0"), ("*", "0.25"), ("*", "-4.0"), ("/", "2.0")]);
                format!("({a} {op} {k}{f})")
            }
            3 => {
                let c = self.cond(d, ctx);
                let a = self.expr(ty, d, ctx);
                let b = self.expr(ty, d, ctx);
                format!("({c} ? {a} : {b})")
            }
            _ => {
                let a = self.expr(ty, d, ctx);
                format!("(-{a})")
            }
        }
    }

    /// A truth value (type `int`, 0 or 1).
    pub fn cond(&mut self, depth: usize, ctx: &mut ExprCtx) -> String {
        let d = depth.saturating_sub(1);
        let kind = if depth == 0 { 0 } else { self.c.index(6) };
        match kind {
            0..=2 => {
                let t = self.c.pick(&[
                    Scalar::Int,
                    Scalar::UInt,
                    Scalar::LLong,
                    Scalar::ULLong,
                    Scalar::Double,
                    Scalar::Float,
                    Scalar::Int,
                ]);
                let mut op = self.c.pick(&["<", "<=", ">", ">=", "==", "!="]);
                let a = self.expr(t, d, ctx);
                let b = self.expr(t, d, ctx);
                // `x < 0u` is always false (-Wtype-limits): compare for equality instead.
                if !t.is_signed() && !t.is_float() && (is_zero_literal(&a) || is_zero_literal(&b)) {
                    op = if matches!(op, "<" | ">") { "!=" } else { "==" };
                }
                format!("({a} {op} {b})")
            }
            3 => {
                let t = self.c.pick(&[Scalar::UInt, Scalar::ULLong]);
                let a = self.expr(t, d, ctx);
                let bit = self.c.range(0, t.bits() as u64 - 1);
                format!("((({a} >> {bit}) & 1u) != 0)")
            }
            4 => {
                let op = self.c.pick(&["&&", "||"]);
                let a = self.cond(d, ctx);
                let b = self.cond(d, ctx);
                format!("({a} {op} {b})")
            }
            _ => {
                let a = self.cond(d, ctx);
                format!("(!{a})")
            }
        }
    }

    /// A constant or a read of a variable, pointee or array element,
    /// converted to `ty`.
    pub fn leaf(&mut self, ty: Scalar, ctx: &mut ExprCtx) -> String {
        if self.c.chance(1, 4) {
            return self.constant(ty);
        }
        match self.read_any(ctx) {
            Some((text, from)) => self.conv(text, from, ty),
            None => self.constant(ty),
        }
    }

    /// A readable value of any scalar type in scope: `(text, type)`.
    pub fn read_any(&mut self, ctx: &mut ExprCtx) -> Option<(String, Scalar)> {
        let cands: Vec<usize> = self
            .in_scope()
            .filter(|&id| {
                let v = &self.vars[id];
                if ctx.exclude.contains(&id) || (v.volatile && ctx.volatiles_read.contains(&id)) {
                    return false;
                }
                matches!(v.ty, CType::Scalar(_)) || !ctx.no_memory
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        // Prefer the locals (later in scope order) a little.
        let n = cands.len();
        let i = if self.c.chance(1, 2) {
            n - 1 - self.c.index(n.min(12))
        } else {
            self.c.index(n)
        };
        let id = cands[i];
        let v = self.vars[id].clone();
        if v.volatile {
            ctx.volatiles_read.push(id);
        }
        Some(match v.ty {
            CType::Scalar(s) => (v.name, s),
            CType::Ptr(s) => (format!("(*{})", v.name), s),
            CType::Array(s) => {
                let idx = self.array_index(ctx);
                (format!("{}[{idx}]", v.name), s)
            }
        })
    }

    /// An index into a generated array: a constant or a masked scalar.
    pub fn array_index(&mut self, ctx: &mut ExprCtx) -> String {
        if self.c.chance(1, 2) {
            return self.c.range(0, ARRAY_LEN as u64 - 1).to_string();
        }
        let saved = ctx.no_memory;
        ctx.no_memory = true;
        let e = self.leaf(Scalar::UInt, ctx);
        ctx.no_memory = saved;
        format!("({e} & {}u)", ARRAY_LEN - 1)
    }
}

fn is_zero_literal(s: &str) -> bool {
    matches!(s, "0u" | "0ULL" | "0UL")
}
