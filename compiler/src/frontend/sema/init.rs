//! Initializers (C11 6.7.9).
//!
//! One walk turns an initializer into a flat list of *leaves* (byte offset,
//! bit-field, type, value) following 6.7.9p17-23: a cursor over the current
//! object (a stack of frames, one per aggregate being filled) advances
//! through the subobjects in order, designators (`.f`, `[i]`, GNU
//! `[lo ... hi]`) move it, brace elision descends into sub-aggregates until
//! a scalar (or a record of the value's own type, or a char array for a
//! string literal) is reached, and an unknown-size array at the top takes
//! its length from the largest index initialized. Later leaves override
//! earlier ones at the same place, and every expression is kept.
//!
//! The leaves then become either a run-time `hir::Init` (zero-fill, then
//! stores in order) or a `hir::StaticInit`, whose bytes are built in a
//! sparse image where later writes replace earlier ones and bit-fields are
//! merged into their storage units.

use super::super::ast::{self, Designator, InitItem, Initializer};
use super::super::hir::{BitField, Expr, ExprKind, Init, InitStore};
use super::super::source::{PResult, Span};
use super::super::types::{ArrayLen, CType, QualType};
use super::conv::AssignCtx;
use super::expr::mk;
use super::member::bitfield_unit;
use super::ty::{self, unqual};
use super::{err, Sema};
use std::sync::Arc;

/// One initialized scalar (or whole record, or char array from a string).
#[derive(Clone, Debug)]
pub(super) struct Leaf {
    pub(super) offset: u64,
    pub(super) bitfield: Option<BitField>,
    pub(super) ty: QualType,
    pub(super) value: LeafValue,
    pub(super) span: Span,
}

#[derive(Clone, Debug)]
pub(super) enum LeafValue {
    /// A value already converted to the leaf's type.
    Expr(Expr),
    /// A string literal's bytes for a char array, sized to the array.
    Bytes(Vec<u8>),
}

/// An aggregate being filled: its type, offset in the whole object, the
/// index of the next subobject and how many there are.
#[derive(Clone, Debug)]
struct Frame {
    ty: QualType,
    offset: u64,
    pos: u64,
    len: u64,
    is_union: bool,
}

/// An initializer whose expression (if any) was analyzed once.
#[derive(Clone)]
enum Src<'a> {
    List(&'a [InitItem], Span),
    Str(&'a ast::Expr),
    Val(Expr),
}

impl Sema {
    /// A run-time initializer for an object of type `t`: the completed type
    /// (arrays of unknown size get their length) and the `hir::Init`.
    pub(super) fn local_initializer(
        &mut self,
        t: &QualType,
        init: &Initializer,
        span: Span,
    ) -> PResult<(QualType, Init)> {
        let (t, mut leaves, single) = self.leaves(t, init, span)?;
        if single && leaves.len() == 1 && leaves[0].offset == 0 && leaves[0].bitfield.is_none() {
            let l = leaves.pop().expect("one leaf");
            self.give_back_leaves(leaves);
            return Ok((t, Init::Expr(self.leaf_expr(l))));
        }
        let stores = leaves
            .drain(..)
            .map(|l| InitStore {
                offset: l.offset,
                bitfield: l.bitfield,
                init: Init::Expr(self.leaf_expr(l)),
            })
            .collect();
        self.give_back_leaves(leaves);
        Ok((t, Init::List { stores }))
    }

    fn leaf_expr(&mut self, l: Leaf) -> Expr {
        match l.value {
            LeafValue::Expr(e) => e,
            LeafValue::Bytes(b) => {
                let unit = match &*l.ty.ty {
                    CType::Array { elem, .. } => self.types.size_of(&elem.ty).unwrap_or(1) as u8,
                    _ => 1,
                };
                let id = self.intern_string(b, unit);
                mk(ExprKind::Str(id), unqual(&l.ty), l.span)
            }
        }
    }

    /// The leaves of an initializer for type `t`, the completed type, and
    /// whether it is a single value for the whole object.
    pub(super) fn leaves(
        &mut self,
        t: &QualType,
        init: &Initializer,
        span: Span,
    ) -> PResult<(QualType, Vec<Leaf>, bool)> {
        if self.types.is_runtime_sized(&t.ty) {
            return Err(err(span, "variable-sized object may not be initialized"));
        }
        let complete_or_array = ty::is_complete(&t.ty, &self.types) || ty::is_array(&t.ty);
        if !complete_or_array || ty::is_function(&t.ty) {
            return Err(err(
                span,
                format!("variable has initializer but incomplete type '{}'", self.type_str(t)),
            ));
        }
        let mut out = std::mem::take(&mut self.leaf_scratch);
        out.clear();
        match init {
            Initializer::Expr(e) => {
                if ty::is_array(&t.ty) {
                    if self.string_matches(t, e) {
                        let (t2, leaf) = self.string_leaf(t, e, 0)?;
                        out.push(leaf);
                        return Ok((t2, out, true));
                    }
                    return Err(err(
                        e.span,
                        "array must be initialized with a brace-enclosed initializer or a string literal",
                    ));
                }
                let v = self.rvalue_of(e)?;
                let v = self.assign_convert(v, t, AssignCtx::Init, e.span)?;
                out.push(Leaf {
                    offset: 0,
                    bitfield: None,
                    ty: t.clone(),
                    value: LeafValue::Expr(v),
                    span: e.span,
                });
                Ok((t.clone(), out, true))
            }
            Initializer::List(items, lspan) => {
                if !self.is_aggregate(t) {
                    self.scalar_braced(t, 0, None, items, *lspan, &mut out)?;
                    return Ok((t.clone(), out, true));
                }
                let unknown = matches!(
                    &*t.ty,
                    CType::Array {
                        len: ArrayLen::Unknown,
                        ..
                    }
                );
                let mut track = if unknown { Some(0) } else { None };
                self.walk_list(t, 0, items, *lspan, &mut out, &mut track)?;
                let t = match (track, &*t.ty) {
                    (Some(n), CType::Array { elem, .. }) => QualType {
                        ty: Arc::new(CType::Array {
                            elem: elem.clone(),
                            len: ArrayLen::Fixed(n),
                        }),
                        quals: t.quals,
                    },
                    _ => t.clone(),
                };
                Ok((t, out, false))
            }
        }
    }

    /// Returns the vector of [`Sema::leaves`] once its leaves are used up:
    /// the next initializer collects its leaves there, where a new vector
    /// grew by copying them (initializers of thousands of leaves are common).
    pub(super) fn give_back_leaves(&mut self, mut v: Vec<Leaf>) {
        v.clear();
        if v.capacity() > self.leaf_scratch.capacity() {
            self.leaf_scratch = v;
        }
    }

    /// Types initialized by a braced list of subobjects (GNU vectors like arrays).
    fn is_aggregate(&self, t: &QualType) -> bool {
        matches!(&*t.ty, CType::Array { .. } | CType::Record(_) | CType::Vector { .. })
    }

    /// Whether string literal `e` can initialize array type `t` (6.7.9p14-15).
    fn string_matches(&self, t: &QualType, e: &ast::Expr) -> bool {
        let (CType::Array { elem, .. }, ast::ExprKind::Str { prefix, .. }) = (&*t.ty, &e.kind) else {
            return false;
        };
        use super::super::literal::Prefix;
        match prefix {
            Prefix::None | Prefix::U8 => ty::is_char_type(&elem.ty),
            // Wide strings: an element type compatible with the literal's.
            _ => self.compatible_unqual(&elem.ty, &self.string_elem(*prefix).0.ty),
        }
    }

    /// The bytes of string `e` for array type `t` at `offset` (cut or padded
    /// to the array; an unknown size becomes the string's length).
    fn string_leaf(&mut self, t: &QualType, e: &ast::Expr, offset: u64) -> PResult<(QualType, Leaf)> {
        let (CType::Array { elem, len }, ast::ExprKind::Str { units, .. }) = (&*t.ty, &e.kind) else {
            return Err(err(e.span, "invalid string initializer"));
        };
        let unit = self.size_of(elem, e.span)? as usize;
        let n = match len {
            ArrayLen::Fixed(n) => *n,
            _ => units.len() as u64 + 1,
        };
        if units.len() as u64 > n {
            self.warn(e.span, "initializer-string for array is too long");
        }
        if n > (1 << 32) {
            return Err(err(e.span, "array initialized by a string is too large"));
        }
        let mut bytes = Vec::with_capacity(n as usize * unit);
        for i in 0..n as usize {
            let u = units.get(i).copied().unwrap_or(0);
            bytes.extend_from_slice(&u.to_le_bytes()[..unit]);
        }
        let t2 = QualType {
            ty: Arc::new(CType::Array {
                elem: elem.clone(),
                len: ArrayLen::Fixed(n),
            }),
            quals: t.quals,
        };
        let leaf = Leaf {
            offset,
            bitfield: None,
            ty: t2.clone(),
            value: LeafValue::Bytes(bytes),
            span: e.span,
        };
        Ok((t2, leaf))
    }

    fn frame_for(&self, t: &QualType, offset: u64, top_unknown: bool) -> Option<Frame> {
        match &*t.ty {
            CType::Array { len, .. } => Some(Frame {
                ty: t.clone(),
                offset,
                pos: 0,
                len: match len {
                    ArrayLen::Fixed(n) => *n,
                    ArrayLen::Unknown if top_unknown => u64::MAX,
                    _ => 0,
                },
                is_union: false,
            }),
            CType::Vector { len, .. } => Some(Frame {
                ty: t.clone(),
                offset,
                pos: 0,
                len: *len,
                is_union: false,
            }),
            CType::Record(id) => {
                let r = self.types.records.get(id.0 as usize)?;
                r.layout.as_ref()?;
                Some(Frame {
                    ty: t.clone(),
                    offset,
                    pos: 0,
                    len: r.members.len() as u64,
                    is_union: r.is_union,
                })
            }
            _ => None,
        }
    }

    /// The subobject at the frame's position: type, offset, bit-field.
    fn sub_at(&self, f: &Frame) -> (QualType, u64, Option<BitField>) {
        match &*f.ty.ty {
            CType::Array { elem, .. } => {
                let size = self.types.size_of(&elem.ty).unwrap_or(0);
                (elem.clone(), f.offset.wrapping_add(f.pos.wrapping_mul(size)), None)
            }
            CType::Vector { elem, .. } => {
                let t = ty::arith_type(*elem).with_quals(f.ty.quals);
                (t, f.offset + f.pos * elem.size(), None)
            }
            CType::Record(id) => {
                let r = &self.types.records[id.0 as usize];
                let layout = r.layout.as_ref().expect("complete record");
                let m = &r.members[f.pos as usize];
                let place = layout.fields[f.pos as usize];
                let t = self.qualify(m.ty.clone(), f.ty.quals);
                match m.bit_width {
                    Some(w) => {
                        let (off, bf) =
                            bitfield_unit(place.offset * 8 + place.bit_offset as u64, w, layout.size, layout.align);
                        (t, f.offset + off, Some(bf))
                    }
                    None => (t, f.offset + place.offset, None),
                }
            }
            _ => (f.ty.clone(), f.offset, None),
        }
    }

    /// Unnamed bit-fields take no part in initialization (6.7.9p9).
    fn skip_unnamed(&self, f: &mut Frame) {
        if let CType::Record(id) = &*f.ty.ty {
            let members = &self.types.records[id.0 as usize].members;
            while f.pos < f.len && members[f.pos as usize].name.is_none() && members[f.pos as usize].bit_width.is_some()
            {
                f.pos += 1;
            }
        }
    }

    fn advance(f: &mut Frame) {
        if f.is_union {
            f.pos = f.len;
        } else {
            f.pos = f.pos.saturating_add(1);
        }
    }

    /// Moves the cursor to the next subobject to initialize; false at the end.
    fn next_subobject(&self, stack: &mut Vec<Frame>) -> bool {
        loop {
            let f = stack.last_mut().expect("frame");
            self.skip_unnamed(f);
            if f.pos < f.len {
                return true;
            }
            if stack.len() == 1 {
                return false;
            }
            stack.pop();
            Self::advance(stack.last_mut().expect("frame"));
        }
    }

    fn note_top(stack: &[Frame], track: &mut Option<u64>) {
        if let Some(n) = track {
            *n = (*n).max(stack[0].pos.saturating_add(1));
        }
    }

    fn src_of<'a>(&mut self, init: &'a Initializer) -> PResult<Src<'a>> {
        Ok(match init {
            Initializer::List(items, span) => Src::List(items, *span),
            Initializer::Expr(e) if matches!(e.kind, ast::ExprKind::Str { .. }) => Src::Str(e),
            Initializer::Expr(e) => Src::Val(self.rvalue_of(e)?),
        })
    }

    /// A braced list for aggregate type `t` at `base`.
    fn walk_list(
        &mut self,
        t: &QualType,
        base: u64,
        items: &[InitItem],
        span: Span,
        out: &mut Vec<Leaf>,
        track: &mut Option<u64>,
    ) -> PResult<()> {
        self.enter(span)?;
        let r = self.walk_list_inner(t, base, items, span, out, track);
        self.leave();
        r
    }

    fn walk_list_inner(
        &mut self,
        t: &QualType,
        base: u64,
        items: &[InitItem],
        span: Span,
        out: &mut Vec<Leaf>,
        track: &mut Option<u64>,
    ) -> PResult<()> {
        // A string literal in braces initializes a char array (6.7.9p14).
        if let [InitItem {
            designators,
            init: Initializer::Expr(e),
        }] = items
        {
            if designators.is_empty() && self.string_matches(t, e) {
                let (t2, leaf) = self.string_leaf(t, e, base)?;
                if let (
                    Some(n),
                    CType::Array {
                        len: ArrayLen::Fixed(m),
                        ..
                    },
                ) = (track.as_mut(), &*t2.ty)
                {
                    *n = *m;
                }
                out.push(leaf);
                return Ok(());
            }
        }
        if track.is_none()
            && matches!(
                &*t.ty,
                CType::Array {
                    len: ArrayLen::Unknown,
                    ..
                }
            )
        {
            if !self.static_fam {
                return Err(err(span, "initialization of a flexible array member is not supported"));
            }
            // A static flexible array member: sized by its initializer (GNU).
            return self.walk_list(t, base, items, span, out, &mut Some(0));
        }
        let Some(frame) = self.frame_for(t, base, track.is_some()) else {
            return Err(err(span, "invalid initializer"));
        };
        let mut stack = vec![frame];
        for item in items {
            if !item.designators.is_empty() {
                stack.truncate(1);
                let src = self.src_of(&item.init)?;
                self.designate(&mut stack, &item.designators, src, out, track, span)?;
                continue;
            }
            if !self.next_subobject(&mut stack) {
                let at = match &item.init {
                    Initializer::Expr(e) => e.span,
                    Initializer::List(_, s) => *s,
                };
                self.warn(at, "excess elements in initializer");
                continue;
            }
            let src = self.src_of(&item.init)?;
            self.place(&mut stack, src, out, track, span)?;
        }
        Ok(())
    }

    /// Follows a designation (6.7.9p17-18), then initializes the designated subobject.
    fn designate(
        &mut self,
        stack: &mut Vec<Frame>,
        desigs: &[Designator],
        src: Src<'_>,
        out: &mut Vec<Leaf>,
        track: &mut Option<u64>,
        span: Span,
    ) -> PResult<()> {
        for (k, d) in desigs.iter().enumerate() {
            let last = k + 1 == desigs.len();
            match d {
                Designator::Field(name, fspan) => {
                    let top = stack.last().expect("frame");
                    let CType::Record(id) = &*top.ty.ty else {
                        return Err(err(
                            *fspan,
                            format!("field name '{name}' not in record or union initializer"),
                        ));
                    };
                    let Some(path) = self.member_path(*id, name) else {
                        return Err(err(*fspan, format!("unknown field '{name}' specified in initializer")));
                    };
                    stack.last_mut().expect("frame").pos = path[0];
                    for &idx in &path[1..] {
                        let (st, off, _) = self.sub_at(stack.last().expect("frame"));
                        let mut nf = self.frame_for(&st, off, false).expect("anonymous member is a record");
                        nf.pos = idx;
                        stack.push(nf);
                    }
                }
                Designator::Index(e) => {
                    let i = self.designator_index(stack, e, track)?;
                    stack.last_mut().expect("frame").pos = i;
                }
                Designator::Range(lo, hi) => {
                    let a = self.designator_index(stack, lo, track)?;
                    let b = self.designator_index(stack, hi, track)?;
                    if b < a {
                        return Err(err(lo.span, "empty index range in initializer"));
                    }
                    if b - a > 1 << 24 {
                        return Err(err(lo.span, "index range in initializer is too large"));
                    }
                    let mut result = None;
                    for i in a..=b {
                        let mut st = stack.clone();
                        st.last_mut().expect("frame").pos = i;
                        if last {
                            self.place(&mut st, src.clone(), out, track, span)?;
                        } else {
                            self.descend_for_designator(&mut st, &desigs[k + 1], span)?;
                            self.designate(&mut st, &desigs[k + 1..], src.clone(), out, track, span)?;
                        }
                        result = Some(st);
                    }
                    if let Some(st) = result {
                        *stack = st;
                    }
                    return Ok(());
                }
            }
            if !last {
                self.descend_for_designator(stack, &desigs[k + 1], span)?;
            }
        }
        self.place(stack, src, out, track, span)
    }

    fn descend_for_designator(&self, stack: &mut Vec<Frame>, next: &Designator, span: Span) -> PResult<()> {
        let (st, off, _) = self.sub_at(stack.last().expect("frame"));
        let Some(nf) = self.frame_for(&st, off, false) else {
            let at = match next {
                Designator::Field(_, s) => *s,
                Designator::Index(e) => e.span,
                Designator::Range(e, _) => e.span,
            };
            let _ = span;
            return Err(err(at, "designator applied to a subobject that is not an aggregate"));
        };
        stack.push(nf);
        Ok(())
    }

    fn designator_index(&mut self, stack: &[Frame], e: &ast::Expr, track: &Option<u64>) -> PResult<u64> {
        let top = stack.last().expect("frame");
        if !matches!(&*top.ty.ty, CType::Array { .. }) {
            return Err(err(e.span, "array index in non-array initializer"));
        }
        let i = self.const_int(e)?;
        let unbounded = stack.len() == 1 && track.is_some();
        if i < 0 || (!unbounded && i as u128 >= top.len as u128) || i > u32::MAX as i128 * 16 {
            return Err(err(e.span, "array index in initializer exceeds array bounds"));
        }
        Ok(i as u64)
    }

    /// Member indices leading to `name` through anonymous members.
    fn member_path(&self, id: super::super::types::RecordId, name: &str) -> Option<Vec<u64>> {
        let r = self.types.records.get(id.0 as usize)?;
        for (i, m) in r.members.iter().enumerate() {
            match &m.name {
                Some(n) if &**n == name => return Some(vec![i as u64]),
                None if m.bit_width.is_none() => {
                    if let CType::Record(sub) = &*m.ty.ty {
                        if let Some(mut p) = self.member_path(*sub, name) {
                            p.insert(0, i as u64);
                            return Some(p);
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Initializes the subobject at the cursor with `src`.
    fn place(
        &mut self,
        stack: &mut Vec<Frame>,
        src: Src<'_>,
        out: &mut Vec<Leaf>,
        track: &mut Option<u64>,
        span: Span,
    ) -> PResult<()> {
        if let Src::List(items, lspan) = src {
            let (sub_ty, off, bf) = self.sub_at(stack.last().expect("frame"));
            if self.is_aggregate(&sub_ty) {
                self.walk_list(&sub_ty, off, items, lspan, out, &mut None)?;
            } else {
                self.scalar_braced(&sub_ty, off, bf, items, lspan, out)?;
            }
            Self::note_top(stack, track);
            Self::advance(stack.last_mut().expect("frame"));
            return Ok(());
        }
        loop {
            let (sub_ty, off, bf) = self.sub_at(stack.last().expect("frame"));
            if matches!(
                &*sub_ty.ty,
                CType::Array {
                    len: ArrayLen::Unknown,
                    ..
                }
            ) {
                let fam_string = matches!(&src, Src::Str(e) if self.static_fam && self.string_matches(&sub_ty, e));
                if !fam_string {
                    return Err(err(span, "initialization of a flexible array member is not supported"));
                }
            }
            if let Src::Str(e) = &src {
                if self.string_matches(&sub_ty, e) {
                    let (_, leaf) = self.string_leaf(&sub_ty, e, off)?;
                    out.push(leaf);
                    Self::note_top(stack, track);
                    Self::advance(stack.last_mut().expect("frame"));
                    return Ok(());
                }
            }
            if self.is_aggregate(&sub_ty) {
                if let Src::Val(v) = &src {
                    let same_record =
                        matches!((&*sub_ty.ty, &*v.ty.ty), (CType::Record(a), CType::Record(b)) if a == b);
                    if same_record || self.vector_convertible(&v.ty.ty, &sub_ty.ty) {
                        let Src::Val(v) = src else { unreachable!() };
                        let v = Expr {
                            ty: unqual(&sub_ty),
                            ..v
                        };
                        out.push(Leaf {
                            offset: off,
                            bitfield: None,
                            ty: sub_ty,
                            span: v.span,
                            value: LeafValue::Expr(v),
                        });
                        Self::note_top(stack, track);
                        Self::advance(stack.last_mut().expect("frame"));
                        return Ok(());
                    }
                }
                // Brace elision: initialize the first subobject of the aggregate.
                let Some(nf) = self.frame_for(&sub_ty, off, false) else {
                    return Err(err(span, "invalid initializer"));
                };
                stack.push(nf);
                if !self.next_subobject(stack) {
                    let at = match &src {
                        Src::Val(v) => v.span,
                        Src::Str(e) => e.span,
                        Src::List(_, s) => *s,
                    };
                    self.warn(at, "excess elements in initializer");
                    return Ok(());
                }
                if stack.len() > 64 + self.types.records.len() * 4 {
                    return Err(err(span, "initializer nesting too deep"));
                }
                continue;
            }
            let v = match src {
                Src::Str(e) => self.rvalue_of(e)?,
                Src::Val(v) => v,
                Src::List(..) => unreachable!("handled above"),
            };
            let vspan = v.span;
            let v = self.assign_convert(v, &sub_ty, AssignCtx::Init, vspan)?;
            out.push(Leaf {
                offset: off,
                bitfield: bf,
                ty: sub_ty,
                value: LeafValue::Expr(v),
                span: vspan,
            });
            Self::note_top(stack, track);
            Self::advance(stack.last_mut().expect("frame"));
            return Ok(());
        }
    }

    /// A scalar initialized by a braced list: `{ e }` (6.7.9p11), `{}` zero.
    fn scalar_braced(
        &mut self,
        t: &QualType,
        offset: u64,
        bitfield: Option<BitField>,
        items: &[InitItem],
        span: Span,
        out: &mut Vec<Leaf>,
    ) -> PResult<()> {
        if !ty::is_scalar(&t.ty) && !matches!(&*t.ty, CType::VaList) {
            return Err(err(
                span,
                format!("invalid initializer for type '{}'", self.type_str(t)),
            ));
        }
        let Some(first) = items.first() else {
            let zero = mk(ExprKind::Int(0), ty::int(), span);
            let v = self.convert(zero, t);
            out.push(Leaf {
                offset,
                bitfield,
                ty: t.clone(),
                value: LeafValue::Expr(v),
                span,
            });
            return Ok(());
        };
        if !first.designators.is_empty() {
            return Err(err(span, "designator in initializer for scalar type"));
        }
        if items.len() > 1 {
            self.warn(span, "excess elements in scalar initializer");
        }
        match &first.init {
            Initializer::List(inner, ispan) => {
                self.warn(*ispan, "braces around scalar initializer");
                self.scalar_braced(t, offset, bitfield, inner, *ispan, out)
            }
            Initializer::Expr(e) => {
                let v = self.rvalue_of(e)?;
                let v = self.assign_convert(v, t, AssignCtx::Init, e.span)?;
                out.push(Leaf {
                    offset,
                    bitfield,
                    ty: t.clone(),
                    value: LeafValue::Expr(v),
                    span: e.span,
                });
                Ok(())
            }
        }
    }
}
