//! The typed tree: what semantic analysis (`sema/`) produces from the syntax
//! tree and what lowering (`lower/`) turns into alloca IR.
//!
//! It plays the role of clang's typed AST after Sema: every name is resolved
//! to a symbol, every expression carries its C type, and every implicit
//! conversion of C11 6.3 (lvalue conversion, array and function decay, the
//! integer promotions, the usual arithmetic conversions, conversion as if by
//! assignment, default argument promotions) is an explicit node. Lowering
//! therefore never reasons about C's typing rules: it maps each node to IR.
//!
//! Conventions
//! * An expression is an *lvalue* (designates an object or function) exactly
//!   when [`Expr::is_lvalue`] says so; everything else is a value. Reading an
//!   lvalue's value is always an explicit [`ExprKind::Load`].
//! * Operands of arithmetic nodes already have the node's operation type
//!   (both sides of `Binary` have the same type, which is the operation type;
//!   comparisons produce `int` from operands of a common type).
//! * `Expr::ty` of a value is unqualified; of an lvalue, it is the object's
//!   qualified type (volatile included).
//! * Constant expressions that C requires (array sizes, case labels, enum
//!   values, bit-field widths, static initializers) are folded by sema; folded
//!   integer values are [`ExprKind::Int`].
//! * Static and thread-local objects, block-scope `static` variables and
//!   string literals all live in [`Program::globals`] / [`Program::strings`];
//!   block-scope statics get a unique assembler name (`name.N`).
//!
//! Shapes sema produces (details the conventions above allow; lowering can
//! rely on them)
//! * Locals that sema creates for its own use (`.tmpN` temporaries, the
//!   `.vla_count` locals of VLA sizes, the objects of compound literals) are
//!   in `Function::locals` but have no `StmtKind::Decl`: they are written
//!   before they are read. Compound literals and `materialized` record values
//!   use `ExprKind::CompoundLiteral`, whose `init` may also be an
//!   `Init::Expr` of record type (a record value given an address, e.g. for
//!   `f().array[i]`).
//! * A labeled statement is `Block([Label(id), stmt])`; a `case`/`default`
//!   is `Block([Case(id), stmt])`. `CaseId`s are unique in the function.
//!   `__label__` local labels are separate `LabelId`s that may share a name.
//! * `return f();` in a `void` function is `Block([Expr(call), Return(None)])`.
//!   `main` returning `int` ends with an explicit `Return(Some(0))`.
//! * Expression statements hold the operand's *value* (a `Load` for `x;`,
//!   so volatile reads happen); a `void` expression is kept as it is, and the
//!   value of `*p` with `p` a `void *` is `Cast(ToVoid, p)`.
//! * x86-64 `va_list` (an array type there) decays to `AddrOf(lvalue)` of
//!   type `VaList *`, and a `va_list` parameter has type `VaList *`; on
//!   AArch64 and RISC-V a `va_list` is an ordinary object (loaded, passed by
//!   value).
//! * `FuncDecay(Deref(p))` and `AddrOf(Deref(p))` are written as `p`.
//! * GNU vector types (`CType::Vector`) are aggregates here: sema spells
//!   every vector operation element by element (`sema/vector.rs`), as a
//!   compound literal whose elements are scalar operations on `Member`
//!   accesses (offset `i * sizeof(elem)`) of the operands, after a `Comma`
//!   chain of assignments that evaluates non-variable operands once into
//!   temporaries. A cast that reinterprets a vector's bytes is a compound
//!   literal of the new type whose one store at offset 0 is the operand.
//! * GNU `c ?: b` with side effects in `c` is
//!   `Cond(Comma(Assign(tmp, c), Load(tmp)), Load(tmp), b)`.
//! * K&R definitions: `Function::params` hold the promoted types the caller
//!   passes (`int` for `char`, `double` for `float`); when the declared type
//!   differs, a separate local of the declared type is initialized from the
//!   parameter by a `Decl` at the start of the body.
//! * `_Complex` values (C11 6.2.5p11, and GNU complex integer types) are
//!   like record values: two parts in memory, real then imaginary. Their
//!   arithmetic is `Binary` (`+ - * /`, `==`, `!=`) and `Unary` (`Neg`,
//!   `BitNot` = conjugate) nodes of complex type; in `+ - * /` one operand
//!   may be of the real part type instead (gcc computes `r * z` as
//!   `(r*re, r*im)` and `z + r` as `(re+r, im)`), except a real dividend of
//!   a complex divisor, which sema converts. Complex `* /` of floating types
//!   are libgcc's `__mulXc3`/`__divXc3` as at gcc -O0. `__real__`/`__imag__`
//!   are `Member` nodes at offset 0 / the part size; compound assignment to
//!   or from a complex is an `Assign` of the computed value; conditions on
//!   a complex are `z != 0`.
//! * Static initializers omit zero-valued items; `Bytes` items also appear
//!   for parts of a scalar that a later designator partly overwrote.
//! * `Builtin` argument types: `Expect` takes and gives `long`; `Clz`, `Ctz`,
//!   `Popcount`, `Parity` take `unsigned int/long/long long`, `Ffs` the signed
//!   ones, all give `int`; `Bswap16/32/64` take and give the unsigned type of
//!   that width; the atomic value operand has the pointed-to type (`long`
//!   when that is a pointer); `AtomicCompareExchange` args are `[ptr,
//!   expected ptr, desired, weak (_Bool), success order, failure order]`.

use super::source::Span;
use super::types::{FloatKind, QualType, TypeContext};
use crate::binary128::Binary128;
use crate::target::Target;
use std::sync::Arc;

pub type Name = Arc<str>;

/// One translation unit after semantic analysis.
#[derive(Clone, Debug)]
pub struct Program {
    pub target: Target,
    /// Record and enum definitions referred to by the types in this program.
    pub types: TypeContext,
    /// Every object and function with linkage or static storage, one entry per
    /// entity (redeclarations merged), indexed by [`GlobalId`].
    pub globals: Vec<Global>,
    /// Function definitions, in source order.
    pub functions: Vec<Function>,
    /// String literals used anywhere, indexed by [`StrId`].
    pub strings: Vec<StringLit>,
    /// Top-level `asm("...")` blocks, in order.
    pub toplevel_asm: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrId(pub u32);

/// A `case` or `default` position inside one `switch` body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CaseId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    External,
    Internal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalKind {
    Object,
    Function,
}

/// An object or function with static storage duration.
#[derive(Clone, Debug)]
pub struct Global {
    /// The assembler name (`asm("label")` applied).
    pub name: String,
    pub kind: GlobalKind,
    /// The complete type when the unit completes it (arrays sized by their
    /// initializer).
    pub ty: QualType,
    pub linkage: Linkage,
    /// Defined in this unit: a function with a body, or an object with an
    /// initializer or a tentative definition (6.9.2). Tentative definitions
    /// have `init == None` and are zero-filled.
    pub is_definition: bool,
    pub init: Option<StaticInit>,
    pub attrs: GlobalAttrs,
    pub span: Span,
}

/// Attributes and specifiers that change code generation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalAttrs {
    /// The effective alignment when raised by `_Alignas` / `aligned`.
    pub align: Option<u64>,
    pub section: Option<String>,
    pub weak: bool,
    pub visibility: Option<String>,
    pub used: bool,
    pub thread_local: bool,
    pub is_const: bool,
    pub is_inline: bool,
    /// `extern inline` under gnu_inline semantics: no out-of-line definition.
    pub gnu_inline: bool,
    pub always_inline: bool,
    pub noinline: bool,
    pub noreturn: bool,
    /// `constructor` / `destructor` (with priority when given).
    pub constructor: Option<Option<u32>>,
    pub destructor: Option<Option<u32>>,
    /// `alias("target")`.
    pub alias: Option<String>,
}

/// The bytes of a static initializer: `size` bytes, zero except for `items`,
/// which are sorted by offset and do not overlap. Bit-field members are
/// already merged into `Int` items.
#[derive(Clone, Debug, PartialEq)]
pub struct StaticInit {
    pub size: u64,
    pub items: Vec<StaticItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StaticItem {
    pub offset: u64,
    pub value: StaticValue,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StaticValue {
    /// An integer of `size` bytes (1, 2, 4, 8 or 16); `bits` holds its two's
    /// complement pattern, truncated to `size`.
    Int { size: u8, bits: u128 },
    Float {
        kind: FloatKind,
        /// Already rounded to `kind` (as `ExprKind::Float`).
        value: Binary128,
    },
    /// Raw bytes (a string literal initializing a char array, already cut or
    /// padded to the array's size).
    Bytes(Vec<u8>),
    /// A pointer-sized address constant (6.6p9) plus a byte offset.
    Addr { target: AddrTarget, offset: i64 },
    /// `&&a - &&b` (GNU), an integer of `size` bytes.
    LabelDiff {
        func: GlobalId,
        a: LabelId,
        b: LabelId,
        size: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrTarget {
    Global(GlobalId),
    Str(StrId),
    /// `&&label` in a static initializer (a static local of `func`).
    Label(GlobalId, LabelId),
}

/// A string literal object: `bytes` are the encoded code units (1, 2 or 4
/// bytes each, target byte order) including the terminating NUL.
#[derive(Clone, Debug, PartialEq)]
pub struct StringLit {
    pub bytes: Vec<u8>,
    /// 1 for `char`, 2 for `u""`, 4 for `U""`/`L""`.
    pub unit: u8,
}

/// A function definition.
#[derive(Clone, Debug)]
pub struct Function {
    pub global: GlobalId,
    /// The parameters in order, as locals (`Local::is_param`).
    pub params: Vec<LocalId>,
    /// Every local object of the body (parameters, block-scope automatic
    /// variables, compound literals, temporaries sema needs), indexed by
    /// [`LocalId`]; block scopes are already resolved.
    pub locals: Vec<Local>,
    pub labels: Vec<Label>,
    pub body: Stmt,
    pub is_variadic: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Local {
    /// The source name (or a `.tmpN`-style name for temporaries).
    pub name: Name,
    /// The object type; for a VLA, an array with `ArrayLen::Variable` (the
    /// storage is allocated by [`Stmt::VlaAlloc`]).
    pub ty: QualType,
    /// Alignment in bytes (type alignment, raised by `_Alignas`/`aligned`).
    pub align: u64,
    pub is_param: bool,
    /// A local register variable (`register long x asm("r10")`, gcc manual
    /// "Specifying Registers for Local Variables"): the register it is in
    /// when it is a register-constraint asm operand. Elsewhere it is an
    /// ordinary automatic variable, as in gcc.
    pub asm_register: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Label {
    pub name: Name,
    /// Used by `&&label`: its block is a possible `goto *` target.
    pub address_taken: bool,
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: QualType,
    pub span: Span,
}

/// Where a bit-field member lives inside its record, relative to the
/// `Member` offset: the storage unit is `unit_size` bytes at the member's
/// `offset`, and the field is bits `bit_offset .. bit_offset + width` of that
/// unit read as a little-endian integer. Signedness is the member type's.
///
/// (Sema's choice, documented for lowering:) the unit never extends past the
/// record. It is the smallest naturally aligned unit of 1, 2, 4, 8 or 16
/// bytes that holds the field when one fits in the record, else an unaligned
/// one of those sizes (packed records; `bit_offset` may then exceed 7), and
/// only when the record itself is smaller than such a unit (packed records
/// of 3, 5, 6 or 7 bytes, common in Csmith programs) the exact number of
/// bytes the field spans: `unit_size` 3, 5, 6 or 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    pub unit_size: u8,
    pub bit_offset: u32,
    pub width: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// Arithmetic negation.
    Neg,
    BitNot,
    /// `!x` of a scalar: `int` 1 when `x == 0`.
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// Shifts: the left operand has the node's (promoted) type; the right
    /// operand is its own promoted type (it is *not* converted to the left's).
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    /// Comparisons: operands of one common type (arithmetic after the usual
    /// conversions, or pointers); result `int` 0/1.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Conversions between scalar types (6.3.1, 6.3.2.3). The operand is a
/// value; `Expr::ty` is the target type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// Between integer types (including enums): truncate, sign- or
    /// zero-extend by the source's signedness.
    IntToInt,
    /// To `_Bool`: 1 when the scalar operand compares unequal to 0.
    ToBool,
    IntToFloat,
    FloatToInt,
    FloatToFloat,
    IntToPtr,
    PtrToInt,
    /// Between pointer types: no change of bits.
    PtrToPtr,
    /// `(void)e`: evaluate for side effects.
    ToVoid,
    /// An integer value of the operand's own type reduced to its low `n`
    /// bits, zero- or sign-extended by the type's signedness: GCC gives a
    /// bit-field wider than `int` (`unsigned long long b : 40`) a type of
    /// exactly its width, so arithmetic on it wraps at that width. Sema puts
    /// it around such arithmetic (see `sema/conv.rs`, `gcc_precision`).
    BitPrecision(u32),
    /// Between `_Complex` types: each part converted like the real types.
    /// (Real to complex is [`ExprKind::Complex`]; complex to real reads the
    /// real part, a `Member` at offset 0; complex to `_Bool` is `ToBool`,
    /// true when either part is nonzero.)
    ComplexToComplex,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    // ---- lvalues ----
    Local(LocalId),
    Global(GlobalId),
    /// `*p`: the operand is a pointer value.
    Deref(Box<Expr>),
    /// `base.member` at byte `offset` in `base`. `base` is an lvalue of record
    /// type, or a record value (a call result, an assignment's value), which
    /// lowering materializes in a temporary. The member is an lvalue exactly
    /// when `base` is.
    Member {
        base: Box<Expr>,
        offset: u64,
        bitfield: Option<BitField>,
    },
    /// A string literal (an lvalue of array type).
    Str(StrId),
    /// A compound literal: `local` is its object, initialized by `init` each
    /// time evaluation reaches it (file-scope compound literals are globals).
    CompoundLiteral {
        local: LocalId,
        init: Box<Init>,
    },

    // ---- conversions ----
    /// Lvalue conversion (6.3.2.1p2): read the value of an lvalue of scalar
    /// or record type (a record value is its bytes; lowering keeps it in
    /// memory). A volatile lvalue gives a volatile read.
    Load(Box<Expr>),
    /// Array to pointer to its first element (6.3.2.1p3); operand an lvalue
    /// of array type.
    ArrayDecay(Box<Expr>),
    /// Function designator to pointer (6.3.2.1p4).
    FuncDecay(Box<Expr>),
    Cast(CastKind, Box<Expr>),

    // ---- values ----
    /// An integer constant of `ty` (bits as i128, already in range of `ty`).
    Int(i128),
    /// A floating constant of `ty`, exactly (already rounded to `ty`: a
    /// `float` or `double` is an exact `f64`; a `long double` has the
    /// target's precision, [`crate::binary128`]).
    Float(Binary128),
    /// `&lvalue` (not a bit-field, not a register variable).
    AddrOf(Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `ptr + index * elem_size` (also `ptr - i`, with `index` negated by
    /// sema); `index` is a `long` value. `elem_size` is 1 for `void *`
    /// (GNU).
    PtrAdd {
        ptr: Box<Expr>,
        index: Box<Expr>,
        elem_size: u64,
    },
    /// `(a - b) / elem_size` as `long`.
    PtrDiff {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        elem_size: u64,
    },
    /// `&&` and `||` on scalars; `int` 0/1; the right side is evaluated only
    /// when needed, always as control flow.
    LogAnd(Box<Expr>, Box<Expr>),
    LogOr(Box<Expr>, Box<Expr>),
    /// `c ? a : b`: `a` and `b` already have the result type (or are `void`).
    /// GNU `c ?: b` is written by sema with a temporary.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    /// `lhs = rhs`: `rhs` is converted to the (unqualified) type of `lhs`;
    /// the value is the new value of `lhs`. Record types: a copy.
    Assign {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `lhs op= rhs`: load `lhs`, convert it to `op_ty` (the operation type
    /// of the usual arithmetic conversions), apply `op` with `rhs` (already of
    /// `op_ty`, or the promoted type for shifts), convert back to the type of
    /// `lhs`, store. Pointer `+=`/`-=` use `ptr_elem_size` (rhs is `long`).
    /// Loads and stores are volatile when `lhs` is.
    CompoundAssign {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        op_ty: QualType,
        ptr_elem_size: Option<u64>,
    },
    /// `++`/`--`, prefix or postfix: add `delta` (+1/-1 for arithmetic types,
    /// elements for pointers). `_Bool` and bit-field lvalues are allowed.
    IncDec {
        lhs: Box<Expr>,
        is_prefix: bool,
        delta: i64,
        ptr_elem_size: Option<u64>,
    },
    /// A call. `callee` is a pointer-to-function value (usually the
    /// `FuncDecay` of a `Global`); `fn_ty` is the function type (`Function`),
    /// `args` are converted by the prototype (or default argument promotions
    /// for variadic and unprototyped parts). Record arguments and results are
    /// record values.
    Call {
        callee: Box<Expr>,
        fn_ty: QualType,
        args: Vec<Expr>,
    },
    Builtin(Builtin, Vec<Expr>),
    /// `va_arg(ap, T)`: `ap` is an lvalue of `va_list` type (or a pointer to
    /// one for a `va_list` parameter, see `Builtin::VaStart`); `ty` is T.
    VaArg(Box<Expr>),
    /// GNU statement expression: the value is that of `result` (an expression
    /// statement at the end of the block), or void.
    StmtExpr {
        body: Vec<Stmt>,
        result: Option<Box<Expr>>,
    },
    /// `&&label` (a `void *`).
    LabelAddr(LabelId),
    /// A `_Complex` value made of a real and an imaginary part, both values
    /// of the part type of `ty`.
    Complex(Box<Expr>, Box<Expr>),
}

/// Builtins that lowering implements (sema folds the constant ones:
/// `__builtin_constant_p`, `__builtin_types_compatible_p`, `offsetof`, ...).
/// Argument and result types follow gcc's documented signatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `va_start(ap)`: args `[ap]` as a pointer to the `va_list` object.
    VaStart,
    /// args `[ap pointer]`.
    VaEnd,
    /// args `[dest pointer, src pointer]`.
    VaCopy,
    /// `__builtin_expect(e, c)` is `e` (sema keeps the node for `c`'s effects).
    Expect,
    Unreachable,
    Trap,
    /// `__builtin_alloca(size)` -> `void *`.
    Alloca,
    Bswap16,
    Bswap32,
    Bswap64,
    /// `clz`/`ctz`/`popcount`/`ffs`/`clrsb`/`parity` for int, long and long
    /// long: the operand width is the argument's type.
    Clz,
    Ctz,
    Popcount,
    Ffs,
    Parity,
    /// `__builtin_{add,sub,mul}_overflow(a, b, res)`: `a` and `b` as values of
    /// their own types, `res` a pointer; result `_Bool`. Computed in infinite
    /// precision, then stored truncated to `*res`'s type.
    AddOverflow,
    SubOverflow,
    MulOverflow,
    /// `__builtin_frame_address(0)` / `__builtin_return_address(0)`.
    FrameAddress,
    ReturnAddress,
    /// `__atomic_*` / `__sync_*` and C11 `_Atomic` operations: args `[ptr,
    /// value(s)..., order(s)...]` with orders folded to constants (`Int`
    /// nodes, gcc's `__ATOMIC_*` numbering; a missing or non-constant order
    /// is seq_cst). Shapes: `AtomicLoad [ptr, order]`, `AtomicStore [ptr,
    /// value, order]`, `AtomicExchange` and the fetch ops `[ptr, value,
    /// order]` (`__sync_fetch_and_add(p, v)` is `AtomicFetchAdd [p, v]`,
    /// `__sync_lock_test_and_set` is `AtomicExchange`, `__sync_lock_release`
    /// is `AtomicStore [p, 0, 3]`), `AtomicCompareExchange` gcc's
    /// `__atomic_compare_exchange_n` `[ptr, expected ptr, desired, weak,
    /// success order, failure order]` returning `_Bool`.
    AtomicLoad,
    AtomicStore,
    AtomicExchange,
    AtomicCompareExchange,
    AtomicFetchAdd,
    AtomicFetchSub,
    AtomicFetchAnd,
    AtomicFetchOr,
    AtomicFetchXor,
    AtomicFetchNand,
    AtomicAddFetch,
    AtomicSubFetch,
    AtomicAndFetch,
    AtomicOrFetch,
    AtomicXorFetch,
    AtomicNandFetch,
    /// `__sync_synchronize` (no args), `__atomic_thread_fence(order)`.
    Fence,
}

/// How an object is initialized at run time.
#[derive(Clone, Debug)]
pub enum Init {
    /// A single value of the object's type (scalar or record value), or an
    /// lvalue of array type (a string literal initializing a char array)
    /// whose bytes are copied: exactly `size_of(object)` bytes (sema sizes the
    /// string object to fit).
    Expr(Expr),
    /// An aggregate initializer: the whole object is zero-filled first, then
    /// each store is done in order (a later store to the same place wins, as
    /// 6.7.9p19 requires; every initializer expression is still evaluated).
    List { stores: Vec<InitStore> },
}

#[derive(Clone, Debug)]
pub struct InitStore {
    /// Byte offset of the sub-object in the initialized object.
    pub offset: u64,
    pub bitfield: Option<BitField>,
    pub init: Init,
}

/// Inline asm (GNU extended asm).
#[derive(Clone, Debug)]
pub struct Asm {
    pub template: String,
    pub outputs: Vec<AsmOperand>,
    /// Inputs: a value for register/immediate constraints, an lvalue for
    /// memory constraints (`m`, `o`, `Q`, ... or any constraint that allows
    /// memory when the operand is an lvalue whose address is needed).
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<String>,
    /// `asm goto` labels, in order (`%lN` counts after the operands).
    pub labels: Vec<LabelId>,
    pub is_volatile: bool,
    pub is_goto: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct AsmOperand {
    pub name: Option<String>,
    pub constraint: String,
    /// For outputs: an lvalue.
    pub expr: Expr,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Empty,
    Expr(Expr),
    Block(Vec<Stmt>),
    /// The start of a local's lifetime in its block: run its initializer,
    /// if any (objects without one keep whatever bytes they hold).
    Decl {
        local: LocalId,
        init: Option<Init>,
    },
    /// Allocate the storage of a VLA local: `count` elements (a `size_t`
    /// value) of `elem_size` bytes; `count_local`, a hidden `size_t` local
    /// sema created, receives the count (later `sizeof` reads it).
    VlaAlloc {
        local: LocalId,
        count: Expr,
        elem_size: u64,
        count_local: LocalId,
    },
    /// `cond` is a scalar value; lowering tests it against zero.
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `cond` is promoted; `cases` map inclusive ranges of values of the
    /// promoted type (GNU case ranges) to positions marked by
    /// [`StmtKind::Case`] inside `body`; duplicate values were rejected.
    Switch {
        cond: Expr,
        body: Box<Stmt>,
        cases: Vec<SwitchCase>,
        default: Option<CaseId>,
    },
    /// The position of a `case`/`default` of the innermost switch.
    Case(CaseId),
    Break,
    Continue,
    Return(Option<Expr>),
    /// A named label's position.
    Label(LabelId),
    Goto(LabelId),
    /// `goto *p`: one of `targets` (every address-taken label of the function).
    GotoIndirect {
        target: Expr,
        targets: Vec<LabelId>,
    },
    Asm(Asm),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwitchCase {
    pub lo: i128,
    pub hi: i128,
    pub id: CaseId,
}

impl Expr {
    /// Whether the expression designates an object or function.
    pub fn is_lvalue(&self) -> bool {
        match &self.kind {
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Str(_)
            | ExprKind::CompoundLiteral { .. } => true,
            ExprKind::Member { base, .. } => base.is_lvalue(),
            _ => false,
        }
    }
}
