//! Semantic analysis: syntax tree (`ast`) to typed tree (`hir`), C11 clause 6
//! plus the GNU extensions real programs and glibc's headers use.
//!
//! Split by construct, in cproc's manner:
//! * `scope.rs`: scopes and name spaces (6.2.1, 6.2.3);
//! * `typespec.rs`: types from declaration specifiers and declarators (6.7.2,
//!   6.7.6), struct/union/enum definitions and their layout, `typeof`;
//! * `attrs.rs`: the GNU attributes that change meaning, and `#pragma pack`;
//! * `decl.rs`: declarations and function definitions (6.7, 6.9): linkage and
//!   redeclaration merging (6.2.2, 6.2.7), tentative definitions (6.9.2),
//!   K&R parameters, block-scope `static` and `extern`;
//! * `conv.rs`: the conversions of 6.3 (lvalue conversion, decay, integer
//!   promotions, usual arithmetic conversions, conversion as if by
//!   assignment), compatible and composite types (6.2.7);
//! * `expr.rs` (primary, postfix, unary, casts) and `binary.rs` (binary,
//!   conditional and assignment operators): 6.5;
//! * `complex.rs`: `_Complex` values, GNU complex integers, `__real__`/`__imag__`;
//! * `builtins.rs`: `__builtin_*`, `__atomic_*`, `__sync_*`;
//! * `const_eval.rs`: constant folding and the constant expressions of 6.6,
//!   address constants included;
//! * `init.rs`: initializers (6.7.9), both run-time (`hir::Init`) and static
//!   (`hir::StaticInit`);
//! * `stmt.rs`: statements (6.8), switch cases, labels, inline asm;
//! * `vector.rs`: GNU vector types, their operations spelled element-wise.
//!
//! The conventions of the output are those documented in `hir.rs`. The first
//! error ends analysis; warnings are collected. Analysis runs on its own
//! thread with a large stack, and a depth guard turns hostile nesting into an
//! error instead of a stack overflow.

mod atomics;
mod attrs;
mod binary;
mod builtins;
mod call;
mod complex;
mod const_eval;
mod conv;
mod decl;
mod expr;
mod func;
mod init;
mod member;
mod record;
mod scope;
mod static_init;
mod stmt;
#[cfg(test)]
mod tests;
mod ty;
mod typespec;
mod vector;

use super::ast::{ExternalDecl, TranslationUnit};
use super::hir::*;
use super::source::{Diagnostic, PResult, Span};
use super::types::{CType, QualType, RecordId, TypeContext, TypeError};
use crate::target::Target;
use rustc_hash::FxHashMap;
use scope::Scopes;
use std::sync::Arc;

/// Analyzes a translation unit for `target`: the typed program and any
/// warnings, or the first error.
pub fn analyze(tu: &TranslationUnit, target: Target) -> Result<(Program, Vec<Diagnostic>), Diagnostic> {
    on_sema_thread(tu.max_depth, move || analyze_items(tu.items.iter(), target))
}

/// [`analyze`], freeing each external declaration's syntax tree once it is
/// analyzed: the typed tree then reuses that memory, so a compile touches
/// less of it (the AST and the typed tree are never whole together).
pub fn analyze_consuming(tu: TranslationUnit, target: Target) -> Result<(Program, Vec<Diagnostic>), Diagnostic> {
    let depth = tu.max_depth;
    on_sema_thread(depth, move || analyze_items(tu.items.into_iter(), target))
}

/// Runs `f` on a thread with a large stack if the tree is deep.
fn on_sema_thread<F>(max_depth: usize, f: F) -> Result<(Program, Vec<Diagnostic>), Diagnostic>
where
    F: FnOnce() -> Result<(Program, Vec<Diagnostic>), Diagnostic> + Send,
{
    if max_depth <= INLINE_MAX_DEPTH {
        // A shallow tree needs little stack: no thread (spawning one costs
        // more than analyzing a small unit).
        return f();
    }
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("phicc-sema".into())
            .stack_size(SEMA_STACK)
            .spawn_scoped(s, f)
            .map(|h| h.join())
    });
    match spawned {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => std::panic::resume_unwind(payload),
        Err(e) => Err(Diagnostic::global(format!("cannot start the analysis thread: {e}"))),
    }
}

/// Trees the parser built with at most this nesting are analyzed on the
/// caller's thread (a debug build needs ~25 KiB of stack per level).
const INLINE_MAX_DEPTH: usize = 24;

/// Stack of the analysis thread, and how much of it the recursion may use.
const SEMA_STACK: usize = 512 << 20;
const STACK_BUDGET: usize = 384 << 20;
const MAX_DEPTH: usize = 20000;

fn stack_address() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

fn analyze_items<I>(items: I, target: Target) -> Result<(Program, Vec<Diagnostic>), Diagnostic>
where
    I: Iterator,
    I::Item: std::borrow::Borrow<ExternalDecl>,
{
    let mut s = Sema::new(target);
    for item in items {
        match std::borrow::Borrow::borrow(&item) {
            ExternalDecl::Decl(d) => s.file_declaration(d)?,
            ExternalDecl::Function(f) => s.function_definition(f)?,
            ExternalDecl::Asm(text, _) => s.toplevel_asm.push(text.clone()),
            ExternalDecl::Pragma(text, span) => s.pragma(text, *span)?,
        }
    }
    s.finish_file()?;
    let program = Program {
        target,
        types: s.types,
        globals: s.globals,
        functions: s.functions,
        strings: s.strings,
        toplevel_asm: s.toplevel_asm,
    };
    Ok((program, s.warnings))
}

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, msg)
}

/// Bookkeeping per global entity that `hir::Global` does not keep.
#[derive(Clone, Debug)]
struct GlobalInfo {
    /// The C name (the key of the linkage table).
    c_name: Name,
    /// A function body or an initializer was seen.
    defined: bool,
    /// Every file-scope declaration said `inline` without `extern` (6.7.4p7).
    inline_only: bool,
    /// A file-scope compound literal (its initializer may be copied into
    /// a static object it initializes, as gcc allows).
    compound_literal: bool,
    /// Declared implicitly (an undeclared call, or a `__builtin_` library
    /// function): a later real declaration replaces its type.
    builtin_decl: bool,
}

/// The run-time size of a variable length array type: `count` (a hidden
/// `size_t` local) times `unit` bytes. Keyed by the address of the array's
/// `CType` (kept alive here).
#[derive(Clone, Debug)]
struct VlaSize {
    /// Keeps the array type alive, so its address stays a unique key.
    #[allow(dead_code)]
    keep: Arc<CType>,
    count: LocalId,
    unit: u64,
}

/// The run-time layout of a record with variably modified members (see
/// `Sema::variable_layout`): hidden `size_t` locals written when the
/// definition is reached.
#[derive(Clone, Debug)]
struct VarRecord {
    /// The record's size in bytes.
    size: LocalId,
    /// The first member whose offset is a run-time value.
    first: usize,
    /// Per member from `first` on: its offset (`None`: a bit-field, which
    /// may not be accessed).
    offsets: Vec<Option<LocalId>>,
}

/// The innermost `switch` being analyzed.
#[derive(Clone, Debug)]
struct SwitchCx {
    /// The promoted type of the controlling expression.
    cond_ty: QualType,
    cases: Vec<SwitchCase>,
    case_spans: Vec<Span>,
    default: Option<CaseId>,
}

/// State while analyzing one function definition.
struct FuncCx {
    global: GlobalId,
    name: Name,
    ret: QualType,
    is_variadic: bool,
    locals: Vec<Local>,
    labels: Vec<Label>,
    /// Per label: where it is defined, and its first use.
    label_defined: Vec<Option<Span>>,
    label_first_use: Vec<Span>,
    /// Label name spaces: function-wide first, then `__label__` blocks.
    label_scopes: Vec<FxHashMap<Name, LabelId>>,
    loop_depth: u32,
    break_depth: u32,
    switches: Vec<SwitchCx>,
    next_case: u32,
    /// Statements that must run first in the body (sizes of VLA parameters,
    /// conversions of K&R parameters).
    prologue: Vec<Stmt>,
    has_indirect_goto: bool,
    /// Locals declared `register` (their address may not be taken).
    register_locals: Vec<LocalId>,
    /// The body calls `__builtin_setjmp`: every local lives in memory.
    calls_builtin_setjmp: bool,
}

impl FuncCx {
    fn new(name: Name) -> FuncCx {
        FuncCx {
            global: GlobalId(u32::MAX),
            name,
            ret: ty::int(),
            is_variadic: false,
            locals: Vec::new(),
            labels: Vec::new(),
            label_defined: Vec::new(),
            label_first_use: Vec::new(),
            label_scopes: vec![FxHashMap::default()],
            loop_depth: 0,
            break_depth: 0,
            switches: Vec::new(),
            next_case: 0,
            prologue: Vec::new(),
            has_indirect_goto: false,
            register_locals: Vec::new(),
            calls_builtin_setjmp: false,
        }
    }
}

struct Sema {
    target: Target,
    types: TypeContext,
    globals: Vec<Global>,
    global_info: Vec<GlobalInfo>,
    functions: Vec<Function>,
    strings: Vec<StringLit>,
    string_ids: FxHashMap<(Vec<u8>, u8), StrId>,
    toplevel_asm: Vec<String>,
    scopes: Scopes,
    /// Entities with linkage by C name (6.2.2): every declaration of the name
    /// with linkage, at any scope, refers to this global.
    linkage: FxHashMap<Name, GlobalId>,
    warnings: Vec<Diagnostic>,
    func: Option<FuncCx>,
    /// `#pragma pack` state: the current maximum alignment and the push stack.
    pack: Option<u64>,
    pack_stack: Vec<Option<u64>>,
    /// Counter for unique names of block-scope statics and file-scope literals.
    unique_counter: u32,
    vla_sizes: FxHashMap<usize, VlaSize>,
    /// Records with variably modified members, by id.
    var_records: FxHashMap<RecordId, VarRecord>,
    /// Unions declared with `transparent_union`.
    transparent_unions: Vec<RecordId>,
    /// Inside a prototype that is not part of a function definition.
    in_prototype: u32,
    /// Statements computing VLA sizes for the declaration being analyzed.
    vla_pending: Vec<Stmt>,
    /// Records whose definition is being analyzed (nested redefinition check).
    defining: Vec<RecordId>,
    depth: usize,
    stack_base: usize,
    /// Inside a static initializer: a flexible array member may be
    /// initialized (GNU), making the object larger than its type.
    static_fam: bool,
    /// The spare vector of initializer leaves (see `give_back_leaves`).
    leaf_scratch: Vec<init::Leaf>,
}

impl Sema {
    fn new(target: Target) -> Sema {
        Sema {
            target,
            types: TypeContext::new(target),
            globals: Vec::new(),
            global_info: Vec::new(),
            functions: Vec::new(),
            strings: Vec::new(),
            string_ids: FxHashMap::default(),
            toplevel_asm: Vec::new(),
            scopes: Scopes::new(),
            linkage: FxHashMap::default(),
            warnings: Vec::new(),
            func: None,
            pack: None,
            pack_stack: Vec::new(),
            unique_counter: 0,
            vla_sizes: FxHashMap::default(),
            var_records: FxHashMap::default(),
            transparent_unions: Vec::new(),
            in_prototype: 0,
            vla_pending: Vec::new(),
            defining: Vec::new(),
            depth: 0,
            stack_base: stack_address(),
            static_fam: false,
            leaf_scratch: Vec::new(),
        }
    }

    fn warn(&mut self, span: Span, msg: impl Into<String>) {
        self.warnings.push(Diagnostic::warning(span, msg));
    }

    /// Guards recursion depth; pair with `leave`.
    fn enter(&mut self, span: Span) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH || self.stack_base.abs_diff(stack_address()) > STACK_BUDGET {
            return Err(err(span, "nesting too deep"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn type_str(&self, t: &QualType) -> String {
        ty::type_name(t, &self.types)
    }

    /// `sizeof` of a complete object type, or an error naming it.
    fn size_of(&self, t: &QualType, span: Span) -> PResult<u64> {
        self.types.size_of(&t.ty).map_err(|e| self.type_error(e, t, span))
    }

    fn align_of(&self, t: &QualType, span: Span) -> PResult<u64> {
        self.types.align_of(&t.ty).map_err(|e| self.type_error(e, t, span))
    }

    fn type_error(&self, e: TypeError, t: &QualType, span: Span) -> Diagnostic {
        match e {
            TypeError::Incomplete => err(span, format!("incomplete type '{}'", self.type_str(t))),
            TypeError::TooLarge => err(span, format!("type '{}' is too large", self.type_str(t))),
            TypeError::Layout(l) => err(span, format!("invalid layout: {l:?}")),
        }
    }

    /// A string literal object (deduplicated by contents).
    fn intern_string(&mut self, bytes: Vec<u8>, unit: u8) -> StrId {
        let key = (bytes, unit);
        if let Some(&id) = self.string_ids.get(&key) {
            return id;
        }
        let id = StrId(self.strings.len() as u32);
        self.strings.push(StringLit {
            bytes: key.0.clone(),
            unit,
        });
        self.string_ids.insert(key, id);
        id
    }

    fn fcx(&mut self, span: Span) -> PResult<&mut FuncCx> {
        self.func
            .as_mut()
            .ok_or_else(|| err(span, "this expression is only allowed inside a function"))
    }

    /// A new local object of the current function.
    fn new_local(&mut self, name: Name, ty: QualType, align: u64, is_param: bool, span: Span) -> PResult<LocalId> {
        let f = self.fcx(span)?;
        let id = LocalId(f.locals.len() as u32);
        f.locals.push(Local {
            name,
            ty,
            align,
            is_param,
            asm_register: None,
            span,
        });
        Ok(id)
    }

    /// A hidden temporary of the current function.
    fn new_temp(&mut self, ty: QualType, span: Span) -> PResult<LocalId> {
        let align = self.types.align_of(&ty.ty).unwrap_or(8);
        let n = self.func.as_ref().map(|f| f.locals.len()).unwrap_or(0);
        self.new_local(Arc::from(format!(".tmp{n}")), ty, align, false, span)
    }

    fn unique_suffix(&mut self) -> u32 {
        self.unique_counter += 1;
        self.unique_counter - 1
    }

    /// Everything that can only be checked at the end of the unit: tentative
    /// definitions of incomplete types (6.9.2p2-3).
    fn finish_file(&mut self) -> PResult<()> {
        self.finish_inline();
        for i in 0..self.globals.len() {
            let g = &self.globals[i];
            if g.kind != GlobalKind::Object || !g.is_definition || g.init.is_some() {
                continue;
            }
            if let CType::Array {
                elem,
                len: super::types::ArrayLen::Unknown,
            } = &*g.ty.ty
            {
                // `int a[];` at the end of the unit is an array of one element.
                let span = g.span;
                let ty = QualType {
                    ty: Arc::new(CType::Array {
                        elem: elem.clone(),
                        len: super::types::ArrayLen::Fixed(1),
                    }),
                    quals: g.ty.quals,
                };
                self.warn(span, format!("array '{}' assumed to have one element", g.name));
                self.globals[i].ty = ty;
                continue;
            }
            let ty = g.ty.clone();
            let span = g.span;
            if self.types.size_of(&ty.ty).is_err() {
                return Err(err(
                    span,
                    format!("storage size of '{}' isn't known", self.global_info[i].c_name),
                ));
            }
        }
        Ok(())
    }
}
