//! Small helpers over `types::CType`: constructors for the types sema names
//! often (`int`, `size_t`, `char *`...), classification (6.2.5: scalar,
//! arithmetic, object vs function types, completeness), and printing types
//! the way C spells them for diagnostics.

use super::super::types::{Arith, ArrayLen, CType, FloatKind, IntKind, QualType, Qualifiers, TypeContext};

pub(super) fn q(t: CType) -> QualType {
    QualType::new(t)
}

/// The unqualified integer type `k`, one shared allocation per kind and
/// thread (sema asks for these for every constant and conversion).
pub(super) fn int_ty(k: IntKind) -> QualType {
    use IntKind::*;
    const KINDS: [IntKind; 14] = [
        Bool, Char, SChar, UChar, Short, UShort, Int, UInt, Long, ULong, LongLong, ULongLong, Int128, UInt128,
    ];
    thread_local! {
        static SHARED: [QualType; 14] = KINDS.map(|k| q(CType::Int(k)));
    }
    let t = SHARED.with(|shared| shared[k as usize].clone());
    debug_assert!(matches!(*t.ty, CType::Int(x) if x == k), "KINDS is in IntKind's order");
    t
}

pub(super) fn int() -> QualType {
    int_ty(IntKind::Int)
}

pub(super) fn long() -> QualType {
    int_ty(IntKind::Long)
}

pub(super) fn size_t() -> QualType {
    int_ty(IntKind::ULong)
}

pub(super) fn bool_ty() -> QualType {
    int_ty(IntKind::Bool)
}

pub(super) fn void() -> QualType {
    q(CType::Void)
}

pub(super) fn float_ty(k: FloatKind) -> QualType {
    q(CType::Float(k))
}

pub(super) fn ptr_to(t: QualType) -> QualType {
    q(CType::Pointer(t))
}

pub(super) fn void_ptr() -> QualType {
    ptr_to(void())
}

/// The same type without qualifiers (the type of a value, 6.3.2.1p2).
pub(super) fn unqual(t: &QualType) -> QualType {
    QualType {
        ty: t.ty.clone(),
        quals: Qualifiers::default(),
    }
}

pub(super) fn merge_quals(a: Qualifiers, b: Qualifiers) -> Qualifiers {
    Qualifiers {
        is_const: a.is_const || b.is_const,
        is_volatile: a.is_volatile || b.is_volatile,
        is_restrict: a.is_restrict || b.is_restrict,
        is_atomic: a.is_atomic || b.is_atomic,
    }
}

/// Whether `a` has every qualifier of `b` (6.5.16.1p1: the pointed-to type of
/// the left has all the qualifiers of the right).
pub(super) fn quals_include(a: Qualifiers, b: Qualifiers) -> bool {
    (a.is_const || !b.is_const) && (a.is_volatile || !b.is_volatile) && (a.is_restrict || !b.is_restrict)
}

pub(super) fn pointee(t: &CType) -> Option<&QualType> {
    match t {
        CType::Pointer(p) => Some(p),
        _ => None,
    }
}

pub(super) fn is_void(t: &CType) -> bool {
    matches!(t, CType::Void)
}

pub(super) fn is_pointer(t: &CType) -> bool {
    matches!(t, CType::Pointer(_))
}

pub(super) fn is_function(t: &CType) -> bool {
    matches!(t, CType::Function { .. })
}

pub(super) fn is_array(t: &CType) -> bool {
    matches!(t, CType::Array { .. })
}

pub(super) fn is_record(t: &CType) -> bool {
    matches!(t, CType::Record(_))
}

pub(super) fn is_float(t: &CType) -> bool {
    matches!(t, CType::Float(_))
}

/// The integer kind of an integer or enum type.
pub(super) fn int_kind(t: &CType, cx: &TypeContext) -> Option<IntKind> {
    match t {
        CType::Int(k) => Some(*k),
        CType::Enum(id) => Some(
            cx.enums
                .get(id.0 as usize)
                .map(|e| e.underlying)
                .unwrap_or(IntKind::UInt),
        ),
        _ => None,
    }
}

/// The arithmetic class of a real arithmetic type (complex types excluded).
pub(super) fn arith(t: &CType, cx: &TypeContext) -> Option<Arith> {
    match t {
        CType::Float(k) => Some(Arith::Float(*k)),
        _ => int_kind(t, cx).map(Arith::Int),
    }
}

pub(super) fn arith_type(a: Arith) -> QualType {
    match a {
        Arith::Int(k) => int_ty(k),
        Arith::Float(k) => float_ty(k),
    }
}

/// Scalar types (6.2.5p21), `_Complex` included.
pub(super) fn is_scalar(t: &CType) -> bool {
    matches!(
        t,
        CType::Int(_) | CType::Enum(_) | CType::Float(_) | CType::Complex(_) | CType::Pointer(_)
    )
}

/// Whether `t` is a complete object type (6.2.5p1).
pub(super) fn is_complete(t: &CType, cx: &TypeContext) -> bool {
    match t {
        CType::Void | CType::Function { .. } => false,
        CType::Array {
            len: ArrayLen::Variable,
            elem,
        } => is_complete(&elem.ty, cx),
        _ => cx.size_of(t).is_ok(),
    }
}

/// Whether `t` is a variably modified array type at its top level.
pub(super) fn is_vla(t: &CType) -> bool {
    matches!(
        t,
        CType::Array {
            len: ArrayLen::Variable,
            ..
        }
    )
}

/// Whether some array in `t` (through arrays and pointers) has a run-time length.
pub(super) fn is_variably_modified(t: &CType) -> bool {
    match t {
        CType::Array {
            len: ArrayLen::Variable,
            ..
        } => true,
        CType::Array { elem, .. } => is_variably_modified(&elem.ty),
        CType::Pointer(p) => is_variably_modified(&p.ty),
        _ => false,
    }
}

/// Whether `t` is a character type (for string initializers, 6.7.9p14).
pub(super) fn is_char_type(t: &CType) -> bool {
    matches!(t, CType::Int(IntKind::Char | IntKind::SChar | IntKind::UChar))
}

/// The C spelling of a type, for diagnostics (`int *`, `struct S`, `char [4]`).
pub(super) fn type_name(t: &QualType, cx: &TypeContext) -> String {
    let mut out = String::new();
    let (base, decl) = split_name(t, cx, String::new());
    out.push_str(&base);
    if !decl.is_empty() {
        out.push(' ');
        out.push_str(&decl);
    }
    out
}

fn quals_prefix(qs: Qualifiers) -> String {
    let mut s = String::new();
    if qs.is_const {
        s.push_str("const ");
    }
    if qs.is_volatile {
        s.push_str("volatile ");
    }
    if qs.is_restrict {
        s.push_str("restrict ");
    }
    if qs.is_atomic {
        s.push_str("_Atomic ");
    }
    s
}

/// Returns (specifiers, declarator text) with the declarator built inside out.
fn split_name(t: &QualType, cx: &TypeContext, inner: String) -> (String, String) {
    match &*t.ty {
        CType::Pointer(p) => {
            let mut d = String::from("*");
            let qs = quals_prefix(t.quals);
            if !qs.is_empty() {
                d.push_str(qs.trim_end());
                if !inner.is_empty() {
                    d.push(' ');
                }
            }
            d.push_str(&inner);
            let d = if matches!(&*p.ty, CType::Array { .. } | CType::Function { .. }) {
                format!("({d})")
            } else {
                d
            };
            split_name(p, cx, d)
        }
        CType::Array { elem, len } => {
            let n = match len {
                ArrayLen::Fixed(n) => n.to_string(),
                ArrayLen::Unknown => String::new(),
                ArrayLen::Variable => "*".into(),
            };
            split_name(elem, cx, format!("{inner}[{n}]"))
        }
        CType::Function {
            ret,
            params,
            variadic,
            prototyped,
        } => {
            let mut ps: Vec<String> = params.iter().map(|p| type_name(p, cx)).collect();
            if *variadic {
                ps.push("...".into());
            }
            if ps.is_empty() && *prototyped {
                ps.push("void".into());
            }
            split_name(ret, cx, format!("{inner}({})", ps.join(", ")))
        }
        other => (format!("{}{}", quals_prefix(t.quals), base_name(other, cx)), inner),
    }
}

fn base_name(t: &CType, cx: &TypeContext) -> String {
    use IntKind::*;
    match t {
        CType::Void => "void".into(),
        CType::Int(k) => match k {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Int128 => "__int128",
            UInt128 => "unsigned __int128",
        }
        .into(),
        CType::Float(k) => match k {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
            FloatKind::Float128 => "__float128",
        }
        .into(),
        CType::Complex(a) => format!(
            "_Complex {}",
            base_name(
                &match a {
                    Arith::Int(k) => CType::Int(*k),
                    Arith::Float(k) => CType::Float(*k),
                },
                cx
            )
        ),
        CType::Record(id) => {
            let r = cx.records.get(id.0 as usize);
            let kw = if r.is_some_and(|r| r.is_union) {
                "union"
            } else {
                "struct"
            };
            match r.and_then(|r| r.tag.clone()) {
                Some(tag) => format!("{kw} {tag}"),
                None => format!("{kw} <anonymous>"),
            }
        }
        CType::Enum(id) => match cx.enums.get(id.0 as usize).and_then(|e| e.tag.clone()) {
            Some(tag) => format!("enum {tag}"),
            None => "enum <anonymous>".into(),
        },
        CType::VaList => "__builtin_va_list".into(),
        CType::Vector { elem, len } => format!("__vector({len}) {}", base_name(&arith_type(*elem).ty, cx)),
        _ => "?".into(),
    }
}
