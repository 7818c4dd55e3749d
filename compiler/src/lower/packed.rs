//! Pointers that may point into packed storage.
//!
//! A member of a packed record (`__attribute__((packed))`, `#pragma
//! pack`) may sit at an address less aligned than its type: at an offset
//! that is not a multiple of its alignment, or in a record whose own
//! alignment is lower than the member's, so that elements of an array of
//! such records misalign it. Lowering knows this for accesses written as
//! member expressions (their place carries the alignment), but once the
//! program takes such a member's address, any `T *` of a member type `T`
//! may hold a misaligned address (gcc warns, every target here executes it,
//! and Csmith relies on it). The interpreter, like strict-alignment
//! hardware, traps misaligned accesses, so in a program that takes such an
//! address every dereference of a pointer to a type found inside a packed
//! record is lowered as an unaligned access. Programs without packed
//! records, or that never take a packed member's address, are unaffected.

use super::repr::Types;
use crate::frontend::hir::{AddrTarget, Expr, ExprKind, Init, Program, StaticValue, Stmt, StmtKind};
use crate::frontend::types::{ArrayLen, CType};
use rustc_hash::FxHashSet;

/// The member types of packed records whose dereferences must not assume alignment.
pub struct UnalignedPointees {
    types: FxHashSet<CType>,
}

impl UnalignedPointees {
    /// Whether `*p` with `p` of type `pointee *` may be misaligned.
    pub fn contains(&self, pointee: &CType) -> bool {
        !self.types.is_empty() && self.types.contains(pointee)
    }

    pub fn analyze(program: &Program, types: &Types<'_>) -> UnalignedPointees {
        let packed = packed_records(types);
        let mut out = UnalignedPointees {
            types: FxHashSet::default(),
        };
        if packed.is_empty() {
            return out;
        }
        let mut scan = Scan {
            types,
            packed: &packed,
            found: false,
        };
        for f in &program.functions {
            scan.stmt(&f.body);
            if scan.found {
                break;
            }
        }
        if !scan.found {
            // Static address constants into objects that contain packed records.
            'globals: for g in &program.globals {
                for item in g.init.iter().flat_map(|i| &i.items) {
                    if let StaticValue::Addr {
                        target: AddrTarget::Global(t),
                        ..
                    } = &item.value
                    {
                        let tt = &program.globals[t.0 as usize].ty.ty;
                        if contains_packed(types, tt, &packed) {
                            scan.found = true;
                            break 'globals;
                        }
                    }
                }
            }
        }
        if scan.found {
            for &r in &packed {
                collect_member_types(
                    types,
                    &CType::Record(crate::frontend::types::RecordId(r)),
                    &mut out.types,
                );
            }
        }
        out
    }
}

/// Records with a member whose alignment the record does not guarantee.
fn packed_records(types: &Types<'_>) -> FxHashSet<u32> {
    let mut out = FxHashSet::default();
    for (i, r) in types.cx.records.iter().enumerate() {
        let Some(layout) = &r.layout else { continue };
        for (m, place) in r.members.iter().zip(&layout.fields) {
            if m.bit_width.is_some() {
                continue;
            }
            let a = types.align_of(&m.ty.ty);
            // A variable record's offsets past its first variable-size
            // member are run-time values: a packed member may be misaligned.
            if !place.offset.is_multiple_of(a) || layout.align < a || (r.variable && m.packed && a > 1) {
                out.insert(i as u32);
                break;
            }
        }
    }
    out
}

fn contains_packed(types: &Types<'_>, t: &CType, packed: &FxHashSet<u32>) -> bool {
    match t {
        CType::Record(id) => {
            packed.contains(&id.0)
                || types
                    .cx
                    .records
                    .get(id.0 as usize)
                    .is_some_and(|r| r.members.iter().any(|m| contains_packed(types, &m.ty.ty, packed)))
        }
        CType::Array { elem, .. } => contains_packed(types, &elem.ty, packed),
        _ => false,
    }
}

/// Every (unqualified) type of a member, array element or nested member of `t`.
fn collect_member_types(types: &Types<'_>, t: &CType, out: &mut FxHashSet<CType>) {
    match t {
        CType::Record(id) => {
            if let Some(r) = types.cx.records.get(id.0 as usize) {
                for m in &r.members {
                    if out.insert((*m.ty.ty).clone()) {
                        collect_member_types(types, &m.ty.ty, out);
                    }
                }
            }
        }
        CType::Array {
            elem,
            len: ArrayLen::Fixed(_) | ArrayLen::Unknown,
        } if out.insert((*elem.ty).clone()) => collect_member_types(types, &elem.ty, out),
        _ => {}
    }
}

struct Scan<'a, 't> {
    types: &'a Types<'t>,
    packed: &'a FxHashSet<u32>,
    found: bool,
}

impl Scan<'_, '_> {
    /// Whether an lvalue designates (part of) a member of a packed record.
    fn in_packed(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Member { base, .. } => {
                matches!(&*base.ty.ty, CType::Record(id) if self.packed.contains(&id.0)) || self.in_packed(base)
            }
            ExprKind::Deref(p) => match &p.kind {
                // `&arr[i]` of an array of packed records.
                ExprKind::PtrAdd { ptr, .. } => match &ptr.kind {
                    ExprKind::ArrayDecay(a) => self.in_packed(a) || contains_packed(self.types, &a.ty.ty, self.packed),
                    _ => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    fn expr(&mut self, e: &Expr) {
        if self.found {
            return;
        }
        match &e.kind {
            ExprKind::AddrOf(x) | ExprKind::ArrayDecay(x) => {
                if self.in_packed_multibyte(x) || self.variable_packed(&x.ty.ty) {
                    self.found = true;
                    return;
                }
                self.expr(x)
            }
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Str(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::LabelAddr(_) => {}
            ExprKind::Deref(x)
            | ExprKind::Load(x)
            | ExprKind::FuncDecay(x)
            | ExprKind::Cast(_, x)
            | ExprKind::Unary(_, x)
            | ExprKind::VaArg(x)
            | ExprKind::Member { base: x, .. } => self.expr(x),
            ExprKind::CompoundLiteral { init, .. } => self.init(init),
            ExprKind::Binary(_, a, b)
            | ExprKind::LogAnd(a, b)
            | ExprKind::LogOr(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Assign { lhs: a, rhs: b }
            | ExprKind::CompoundAssign { lhs: a, rhs: b, .. }
            | ExprKind::PtrAdd { ptr: a, index: b, .. }
            | ExprKind::Complex(a, b)
            | ExprKind::PtrDiff { lhs: a, rhs: b, .. } => {
                self.expr(a);
                self.expr(b)
            }
            ExprKind::IncDec { lhs, .. } => self.expr(lhs),
            ExprKind::Cond(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b)
            }
            ExprKind::Call { callee, args, .. } => {
                self.expr(callee);
                args.iter().for_each(|a| self.expr(a))
            }
            ExprKind::Builtin(_, args) => args.iter().for_each(|a| self.expr(a)),
            ExprKind::StmtExpr { body, result } => {
                body.iter().for_each(|s| self.stmt(s));
                if let Some(r) = result {
                    self.expr(r)
                }
            }
        }
    }

    /// A packed record with variably modified members: sema reaches its
    /// members through its address (`*(T *)((char *)&s + offset)`).
    fn variable_packed(&self, t: &CType) -> bool {
        matches!(t, CType::Record(id) if self.packed.contains(&id.0)
            && self.types.cx.records.get(id.0 as usize).is_some_and(|r| r.variable))
    }

    /// A packed member of a multi-byte type (a one-byte type is never misaligned).
    fn in_packed_multibyte(&self, x: &Expr) -> bool {
        self.in_packed(x) && self.types.align_of(&x.ty.ty) > 1
    }

    fn init(&mut self, i: &Init) {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List { stores } => stores.iter().for_each(|s| self.init(&s.init)),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        if self.found {
            return;
        }
        match &s.kind {
            StmtKind::Empty
            | StmtKind::Case(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Label(_)
            | StmtKind::Goto(_)
            | StmtKind::Return(None) => {}
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Block(items) => items.iter().for_each(|s| self.stmt(s)),
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    self.init(i)
                }
            }
            StmtKind::VlaAlloc { count, .. } => self.expr(count),
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e)
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body)
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i)
                }
                if let Some(c) = cond {
                    self.expr(c)
                }
                if let Some(st) = step {
                    self.expr(st)
                }
                self.stmt(body)
            }
            StmtKind::Switch { cond, body, .. } => {
                self.expr(cond);
                self.stmt(body)
            }
            StmtKind::GotoIndirect { target, .. } => self.expr(target),
            StmtKind::Asm(a) => a.outputs.iter().chain(&a.inputs).for_each(|o| self.expr(&o.expr)),
        }
    }
}
