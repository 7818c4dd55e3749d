//! The syntax tree the parser builds: C11 translation units (6.9) with the
//! GNU extensions real code uses. It is syntactic: declaration specifiers are
//! resolved only to a base type (the multiset of `unsigned long long` etc. is
//! collapsed per 6.7.2p2) and declarators keep their derivation list
//! (pointer / array / function) in the order that applies to the identifier.
//! Types, layout, name resolution and constant folding are later phases.

use super::literal::{FloatLit, IntLit, Prefix};
use super::source::Span;
use std::sync::Arc;

pub type Name = Arc<str>;

/// A whole file after preprocessing (6.9).
#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
    /// The deepest recursion the parser needed (its nesting counter): a
    /// bound on how deep later recursive walks of this tree go.
    pub max_depth: usize,
}

#[derive(Clone, Debug)]
pub enum ExternalDecl {
    Decl(Declaration),
    /// Boxed, as are other large rare parts of the tree: the tree's nodes
    /// are moved by value while parsing, so their size is copying time.
    Function(Box<FunctionDef>),
    /// Top-level `asm("...")`.
    Asm(String, Span),
    /// A `#pragma` line (the text after `pragma`), in source order.
    Pragma(String, Span),
}

/// `__attribute__((name(args)))`, one per name.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// Without surrounding underscores: `__aligned__` is `aligned`.
    pub name: Name,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TypeQuals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    pub is_atomic: bool,
}

/// The base type named by the type specifiers (6.7.2).
#[derive(Clone, Debug)]
pub enum BaseType {
    Void,
    Bool,
    /// Plain `char` (its signedness is the target's).
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    Float,
    Double,
    LongDouble,
    Float128,
    /// `_Complex` of a floating type.
    Complex(Box<BaseType>),
    Struct(Arc<StructSpec>),
    Union(Arc<StructSpec>),
    Enum(Arc<EnumSpec>),
    Typedef(Name, Span),
    TypeofExpr(Box<Expr>),
    TypeofType(Box<TypeName>),
    /// `__builtin_va_list`.
    VaList,
    /// `_Atomic(type-name)`.
    Atomic(Box<TypeName>),
    /// GNU `__auto_type`: the type of the initializer.
    AutoType,
}

#[derive(Clone, Debug)]
pub struct DeclSpecs {
    pub storage: Option<StorageClass>,
    pub thread_local: bool,
    pub quals: TypeQuals,
    pub is_inline: bool,
    pub is_noreturn: bool,
    pub base: BaseType,
    /// `_Alignas(type)` or `_Alignas(expr)`.
    pub align: Vec<AlignSpec>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum AlignSpec {
    Type(TypeName),
    Expr(Expr),
}

/// `struct`/`union` specifier (6.7.2.1). `members` is `None` for a reference
/// to a tag without a body.
#[derive(Clone, Debug)]
pub struct StructSpec {
    pub tag: Option<Name>,
    pub members: Option<Vec<StructMember>>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StructMember {
    Field {
        specs: DeclSpecs,
        declarators: Vec<FieldDeclarator>,
        span: Span,
    },
    StaticAssert(StaticAssert),
    Pragma(String, Span),
}

/// One member declarator: a name (optional for unnamed bit-fields) and width.
#[derive(Clone, Debug)]
pub struct FieldDeclarator {
    pub declarator: Option<Declarator>,
    pub bit_width: Option<Expr>,
    pub attrs: Vec<Attribute>,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub tag: Option<Name>,
    pub enumerators: Option<Vec<Enumerator>>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Enumerator {
    pub name: Name,
    pub value: Option<Expr>,
    pub span: Span,
}

/// A declarator (6.7.6): the name and how its type derives from the base.
/// `derived[0]` applies to the identifier first: `*a[3]` is
/// `[Array(3), Pointer]` (an array of pointers).
#[derive(Clone, Debug, Default)]
pub struct Declarator {
    pub name: Option<(Name, Span)>,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Derived {
    Pointer(TypeQuals),
    Array {
        size: ArraySize,
        quals: TypeQuals,
        is_static: bool,
    },
    Function(FunctionSig),
}

#[derive(Clone, Debug)]
pub enum ArraySize {
    /// `[]`
    Unknown,
    /// `[*]` (a VLA of unspecified size in a prototype).
    Star,
    Expr(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct FunctionSig {
    pub params: Vec<ParamDecl>,
    pub variadic: bool,
    /// `()`: no prototype (6.7.6.3p14).
    pub unprototyped: bool,
    /// K&R identifier list `f(a, b)`.
    pub identifiers: Vec<(Name, Span)>,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

/// A type name (6.7.7): specifiers and an abstract declarator.
#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub static_assert: Option<Box<StaticAssert>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
    /// `__asm__("name")` after the declarator.
    pub asm_label: Option<String>,
}

#[derive(Clone, Debug)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    /// K&R parameter declarations between `)` and `{`.
    pub old_style_params: Vec<Declaration>,
    pub body: Block,
    pub span: Span,
}

/// Initializers (6.7.9), with designators and GNU array ranges.
#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<InitItem>, Span),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Clone, Debug)]
pub enum Designator {
    Index(Expr),
    /// GNU `[lo ... hi]`.
    Range(Box<Expr>, Box<Expr>),
    Field(Name, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Neg,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    Real,
    Imag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
    Comma,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(Name),
    Int(IntLit),
    Float(Box<FloatLit>),
    /// A GNU imaginary constant (`2.0i`, `3i`): the `Int` or `Float` literal
    /// times `i`.
    Imaginary(Box<Expr>),
    /// A character constant; `value` already has plain `char`'s signedness applied.
    Char {
        value: i64,
        prefix: Prefix,
    },
    /// Adjacent string literals, concatenated (6.4.5p5).
    Str {
        prefix: Prefix,
        units: Vec<u32>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op `None`) or `a op= b`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`; GNU `c ?: b` has `None` in the middle.
    Cond(Box<Expr>, Option<Box<Expr>>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofExpr(Box<Expr>),
    AlignofType(Box<TypeName>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, Name),
    Arrow(Box<Expr>, Name),
    CompoundLiteral(Box<TypeName>, Vec<InitItem>),
    /// GNU `({ ... })`.
    StmtExpr(Box<Block>),
    /// `_Generic(e, type: e, default: e)`.
    Generic(Box<Expr>, Vec<(Option<TypeName>, Expr)>),
    /// GNU `&&label`.
    LabelAddr(Name),
    VaArg(Box<Expr>, Box<TypeName>),
    Offsetof(Box<TypeName>, Vec<Designator>),
    TypesCompatible(Box<TypeName>, Box<TypeName>),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub items: Vec<BlockItem>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum BlockItem {
    Decl(Declaration),
    Stmt(Stmt),
    /// GNU `__label__ a, b;`.
    LocalLabels(Vec<Name>),
    Pragma(String, Span),
    /// A nested function definition is rejected, so this is only a declaration.
    Function(Box<FunctionDef>),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ForInit {
    None,
    Expr(Expr),
    Decl(Declaration),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `expr;` or the null statement `;`.
    Expr(Option<Expr>),
    Block(Block),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    Switch(Expr, Box<Stmt>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Box<ForInit>, Option<Box<Expr>>, Option<Box<Expr>>, Box<Stmt>),
    Goto(Name),
    /// GNU `goto *expr`.
    GotoIndirect(Expr),
    Continue,
    Break,
    Return(Option<Expr>),
    Labeled(Name, Vec<Attribute>, Box<Stmt>),
    /// `case lo:` or GNU `case lo ... hi:`.
    Case(Expr, Option<Box<Expr>>, Box<Stmt>),
    Default(Box<Stmt>),
    Asm(Box<AsmStmt>),
}

/// GNU inline assembly (`asm volatile goto ("..." : out : in : clobbers : labels)`).
#[derive(Clone, Debug)]
pub struct AsmStmt {
    pub is_volatile: bool,
    pub is_inline: bool,
    pub is_goto: bool,
    pub template: String,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<String>,
    pub labels: Vec<(Name, Span)>,
}

#[derive(Clone, Debug)]
pub struct AsmOperand {
    /// `[name]`
    pub name: Option<Name>,
    pub constraint: String,
    pub expr: Expr,
}
