//! Backends: IR to GNU assembler text for x86-64, AArch64 and RISC-V 64.
//!
//! A target is data plus a few hooks, in QBE's manner (`targ.c` tables, not a
//! class hierarchy): a [`TargetDesc`] (names, register files, directives, the
//! long double format) and an implementation of [`TargetIsa`] whose
//! [`TargetIsa::emit_function`] selects instructions for one function. What
//! every target shares is written once here:
//!
//! - [`emit_assembly`], the module pipeline: check the precondition (the
//!   module verifies in non-SSA form and has no phis), emit top-level asm and
//!   data ([`data`]), then each defined function with its header and trailer;
//! - [`regalloc`]: the register allocator (liveness, interference,
//!   coalescing of phi elimination's copies, colouring into registers or
//!   shared stack slots);
//! - [`frame`]: the type of every IR value and the frame layout (each
//!   `alloca` an object, each other value the home [`regalloc`] gave it);
//! - [`switch`]: the jump table vs compare chain decision for `switch`;
//! - [`isel`]: the dispatch of each instruction to the target's emitter
//!   methods (the ISA leaves), the function prescan (second returns, inline
//!   asm), the branch-to-block decisions and the emitter's common base;
//! - [`asm_template`]: the inline-asm template parser (`%0`, `%[name]`,
//!   `%l0`, `%%`, `%=`, modifier letters); the target renders the operands;
//! - [`inline_asm`]: constraint parsing (the target supplies its letters),
//!   operand location assignment and template expansion;
//! - [`wide`]: the libgcc routines of 128-bit and `long double` work and
//!   the kinds of conversion on them;
//! - [`walk_blocks`]: the block walk that drives a target's
//!   [`FunctionEmitter`] hooks, with fall-through detection;
//! - [`object`] and [`elf`]: the integrated assembler, which turns the
//!   assembly we print straight into an ELF object ([`emit_object`]) when
//!   the target has an instruction encoder and the module has no inline asm.
//!
//! Label naming: a block is `.LBB<id>` (block ids are module-unique), other
//! local labels are `.L<kind><n>` from the module-wide [`LabelGen`].
//! Input the backend cannot compile, and IR that breaks its invariants, give
//! a [`BackendError`] of the matching [`BackendErrorKind`], never a panic.

pub mod aarch64;
pub mod asm_template;
pub mod data;
pub mod elf;
pub mod frame;
pub mod inline_asm;
pub mod isel;
pub mod object;
pub mod regalloc;
pub mod riscv64;
pub mod switch;
pub mod wide;
pub mod x86_64;

use crate::ir::instruction::{BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::module::{IrFunction, IrModule};
use crate::ir::types::IrType;
use crate::ir::verify::{verify_module, VerifyMode};
use crate::target::Target;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// What a [`BackendError`] says about the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendErrorKind {
    /// The program uses something this backend cannot compile (an inline-asm
    /// constraint or modifier it does not know, a frame or alignment beyond
    /// its limits): a diagnostic, exit status [`crate::exit::ERROR`].
    Unsupported,
    /// The IR breaks an invariant the backend relies on (a value used but
    /// never defined, a missing block, an IR shape lowering and the passes
    /// never produce): an internal compiler error, exit status
    /// [`crate::exit::ICE`].
    Internal,
}

/// Why the backend could not translate a module (the driver prints it as a
/// diagnostic or an internal compiler error, by [`BackendError::kind`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", in_function(.function))]
pub struct BackendError {
    pub kind: BackendErrorKind,
    pub function: Option<String>,
    pub message: String,
}

fn in_function(function: &Option<String>) -> String {
    function
        .as_ref()
        .map_or_else(String::new, |f| format!("in function '{f}': "))
}

impl BackendError {
    /// An internal error about the module as a whole.
    pub fn module_internal(message: impl Into<String>) -> BackendError {
        BackendError {
            kind: BackendErrorKind::Internal,
            function: None,
            message: message.into(),
        }
    }

    /// Input inside function `f` that this backend cannot compile.
    pub fn unsupported(f: &str, message: impl Into<String>) -> BackendError {
        BackendError {
            kind: BackendErrorKind::Unsupported,
            function: Some(f.to_string()),
            message: message.into(),
        }
    }

    /// A broken invariant inside function `f`.
    pub fn internal(f: &str, message: impl Into<String>) -> BackendError {
        BackendError {
            kind: BackendErrorKind::Internal,
            function: Some(f.to_string()),
            message: message.into(),
        }
    }

    /// An inline-asm error inside function `f`, of the kind `e` says.
    pub fn inline_asm(f: &str, e: asm_template::AsmError) -> BackendError {
        BackendError {
            kind: e.kind,
            function: Some(f.to_string()),
            message: format!("inline asm: {}", e.message),
        }
    }

    /// Whether this is an internal compiler error (exit 70) rather than a
    /// diagnostic about the program (exit 1).
    pub fn is_internal(&self) -> bool {
        self.kind == BackendErrorKind::Internal
    }

    /// The exit status the driver ends with.
    pub fn exit_status(&self) -> i32 {
        match self.kind {
            BackendErrorKind::Unsupported => crate::exit::ERROR,
            BackendErrorKind::Internal => crate::exit::ICE,
        }
    }
}

/// How a target stores `long double` (`IrType::F128`): a fact of the target table.
pub use crate::target::LongDoubleFormat;

/// The data half of a target: everything the shared code needs to know.
#[derive(Debug)]
pub struct TargetDesc {
    pub target: Target,
    /// Integer argument registers, in order (64-bit names).
    pub int_arg_regs: &'static [&'static str],
    /// Floating-point argument registers, in order.
    pub float_arg_regs: &'static [&'static str],
    /// Integer return registers.
    pub int_ret_regs: &'static [&'static str],
    /// Floating-point return registers.
    pub float_ret_regs: &'static [&'static str],
    /// Registers a callee must preserve.
    pub callee_saved: &'static [&'static str],
    /// Stack alignment at a call, in bytes.
    pub stack_align: usize,
    /// The assembler's comment leader.
    pub comment: &'static str,
    /// The symbol type prefix in `.type sym, @function` (`@` or `%`).
    pub type_prefix: char,
    /// `{att|intel}` dialect alternatives in inline asm templates (x86 only).
    pub asm_dialects: bool,
}

/// The hooks half of a target.
pub trait TargetIsa {
    fn desc(&self) -> &'static TargetDesc;

    /// Emits the body of one defined function (everything between its label
    /// and its `.size` directive) into `out`.
    fn emit_function(&self, cx: &mut ModuleContext<'_>, f: &IrFunction, out: &mut String) -> Result<(), BackendError>;

    /// Assembles text this target printed into an ELF object with the
    /// integrated assembler ([`object::ObjectBuilder`] plus the target's
    /// [`object::InstEncoder`]); `None` when the target has no encoder.
    fn assemble(&self, text: &str) -> Option<Result<Vec<u8>, String>> {
        let _ = text;
        None
    }
}

/// Module-wide facts and state shared by every function of one module.
pub struct ModuleContext<'m> {
    pub module: &'m IrModule,
    pub labels: LabelGen,
    /// Names defined in this module (functions with bodies, non-extern
    /// globals, string literals, aliases): references to anything else go
    /// through the GOT or PLT.
    pub defined: FxHashSet<&'m str>,
    /// Thread-local globals (addressed through the thread pointer).
    pub thread_local: FxHashSet<&'m str>,
    /// The alignment of each global this module defines for certain: not
    /// weak, common, thread-local or preemptible, so that the linker's
    /// symbol is this definition and a load may fold the symbol's low bits
    /// into its scaled displacement (AArch64 `ldr x0, [x16, :lo12:g]`).
    pub global_align: FxHashMap<&'m str, usize>,
    /// Extra read-only data emitted after all functions (jump tables, constants).
    pub rodata: String,
}

impl<'m> ModuleContext<'m> {
    pub fn new(module: &'m IrModule) -> ModuleContext<'m> {
        Self::with_options(module, EmitOptions::default())
    }

    /// Under `pic`, a symbol another module may preempt (external linkage,
    /// default visibility) is not "defined" here: it is reached through the
    /// GOT and PLT, as `-fPIC` code for a shared library must be.
    pub fn with_options(module: &'m IrModule, opts: EmitOptions) -> ModuleContext<'m> {
        let binds_locally = |is_static: bool, visibility: &Option<String>| {
            !opts.pic || is_static || visibility.as_deref().is_some_and(|v| v != "default")
        };
        let mut defined = FxHashSet::default();
        let mut thread_local = FxHashSet::default();
        let mut global_align = FxHashMap::default();
        for f in &module.functions {
            if !f.is_declaration && !f.is_gnu_inline_def && binds_locally(f.is_static, &f.visibility) {
                defined.insert(f.name.as_str());
            }
        }
        for g in &module.globals {
            if !g.is_extern && binds_locally(g.is_static, &g.visibility) {
                defined.insert(g.name.as_str());
                if !g.is_weak && !g.is_common && !g.is_thread_local {
                    global_align.insert(g.name.as_str(), 1usize << g.align.max(1).trailing_zeros());
                }
            }
            if g.is_thread_local {
                thread_local.insert(g.name.as_str());
            }
        }
        for (name, _) in &module.string_literals {
            defined.insert(name.as_str());
        }
        for (alias, _, _) in &module.aliases {
            if !opts.pic {
                defined.insert(alias.as_str());
            }
        }
        ModuleContext {
            module,
            labels: LabelGen::default(),
            defined,
            thread_local,
            global_align,
            rodata: String::new(),
        }
    }

    /// Whether `name` is defined in this module (so PC-relative addressing works).
    pub fn is_defined(&self, name: &str) -> bool {
        self.defined.contains(name)
    }
}

/// Module-wide counter for local labels that are not blocks.
#[derive(Default, Debug)]
pub struct LabelGen {
    next: u32,
}

impl LabelGen {
    /// A fresh number; a label is `.L<kind><n>`, e.g. `.Ltmp12`, `.LJT3`.
    pub fn fresh(&mut self) -> u32 {
        self.next += 1;
        self.next
    }
}

/// The assembler label of a block.
pub fn block_label(b: BlockId) -> String {
    format!(".LBB{}", b.0)
}

/// Writes `name` as an assembler symbol, quoting it when it is not a plain
/// identifier (GNU as accepts `"any name"`).
pub fn push_symbol(out: &mut String, name: &str) {
    if plain_symbol(name) {
        out.push_str(name);
    } else {
        out.push('"');
        for c in name.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (' '..='~').contains(&c) => out.push(c),
                c => {
                    let _ = write!(out, "\\{:03o}", (c as u32) & 0xff);
                }
            }
        }
        out.push('"');
    }
}

/// Whether `name` is written as it is: a C identifier, or a label with `.` or `$`.
fn plain_symbol(name: &str) -> bool {
    !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$'))
}

/// Writes `name` as an assembler symbol to a formatter (see [`push_symbol`]).
pub fn write_symbol(f: &mut impl std::fmt::Write, name: &str) -> std::fmt::Result {
    if plain_symbol(name) {
        return f.write_str(name);
    }
    let mut s = String::new();
    push_symbol(&mut s, name);
    f.write_str(&s)
}

/// A symbol as a string (see [`push_symbol`]).
pub fn symbol(name: &str) -> String {
    let mut s = String::new();
    push_symbol(&mut s, name);
    s
}

/// The target-specific per-function hooks driven by [`walk_blocks`].
pub trait FunctionEmitter {
    /// Called once before the first block.
    fn prologue(&mut self) -> Result<(), BackendError>;
    /// Called at the start of every block emitted (`index` is its index in
    /// the function's blocks), before its label is used.
    fn block_start(&mut self, index: usize, label: BlockId);
    fn instruction(&mut self, inst: &Instruction) -> Result<(), BackendError>;
    /// `next` is the block emitted right after this one (a branch to it can fall through).
    fn terminator(&mut self, term: &Terminator, next: Option<BlockId>) -> Result<(), BackendError>;
    /// Blocks not to emit at all ([`frame::FrameLayout::elided_blocks`]).
    fn elided_blocks(&self, f: &IrFunction) -> FxHashSet<BlockId>;
}

/// Drives `e` over the blocks of `f` in layout order, leaving out the
/// blocks every branch goes past (critical-edge trampolines whose copies
/// the allocator coalesced: a `b` over each one cost a translated block
/// per pass under QEMU).
pub fn walk_blocks(f: &IrFunction, e: &mut impl FunctionEmitter) -> Result<(), BackendError> {
    let elided = e.elided_blocks(f);
    e.prologue()?;
    let emitted: Vec<usize> = (0..f.blocks.len())
        .filter(|&i| !elided.contains(&f.blocks[i].label))
        .collect();
    for (k, &i) in emitted.iter().enumerate() {
        let b = &f.blocks[i];
        e.block_start(i, b.label);
        for inst in &b.instructions {
            e.instruction(inst)?;
        }
        let next = emitted.get(k + 1).map(|&n| f.blocks[n].label);
        e.terminator(&b.terminator, next)?;
    }
    Ok(())
}

/// The compares of a type `accept`s that are the last instruction of their
/// block and whose result only that block's conditional branch reads
/// (defined once): the target's branch tests the flags the compare set
/// instead of a materialized 0/1.
pub fn fusable_compares(f: &IrFunction, accept: impl Fn(IrType) -> bool) -> FxHashSet<Value> {
    let mut candidates = FxHashSet::default();
    for b in &f.blocks {
        if let (
            Some(Instruction::Cmp { dest, ty, .. }),
            Terminator::CondBranch {
                cond: Operand::Value(c),
                ..
            },
        ) = (b.instructions.last(), &b.terminator)
        {
            if dest == c && accept(*ty) {
                candidates.insert(*dest);
            }
        }
    }
    if candidates.is_empty() {
        return candidates;
    }
    let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
    for b in &f.blocks {
        for inst in &b.instructions {
            inst.for_each_used_value(|v| {
                if candidates.contains(&v) {
                    *uses.entry(v).or_default() += 1;
                }
            });
            // A value defined more than once (a copy after phi elimination,
            // a second compare) is not fusable.
            inst.for_each_def(|v| {
                if candidates.contains(&v) {
                    *uses.entry(v).or_default() += 1;
                }
            });
        }
        b.terminator.for_each_used_value(|v| {
            if candidates.contains(&v) {
                *uses.entry(v).or_default() += 1;
            }
        });
    }
    // One definition and one read (the branch).
    candidates.retain(|v| uses.get(v) == Some(&2));
    candidates
}

/// The implementation of `target`, or an error when it has none yet.
pub fn target_isa(target: Target) -> Result<&'static dyn TargetIsa, BackendError> {
    match target {
        Target::X86_64 => Ok(&x86_64::X86_64),
        Target::Aarch64 => Ok(&aarch64::Aarch64),
        Target::Riscv64 => Ok(&riscv64::Riscv64),
    }
}

/// Checks what every backend relies on: the module verifies (non-SSA form:
/// copies may define a value several times) and no phi is left.
pub fn check_precondition(m: &IrModule) -> Result<(), BackendError> {
    check_phi_free(m)?;
    verify_module(m, VerifyMode::NonSsa).map_err(|e| {
        let first = e.0.first().map(|x| x.to_string()).unwrap_or_default();
        BackendError::module_internal(format!("invalid IR: {first}"))
    })
}

fn check_phi_free(m: &IrModule) -> Result<(), BackendError> {
    for f in m.functions.iter().filter(|f| !f.is_declaration) {
        for b in &f.blocks {
            if b.instructions.iter().any(|i| matches!(i, Instruction::Phi { .. })) {
                return Err(BackendError::internal(
                    &f.name,
                    format!("phi in bb{} (the backend needs phi elimination first)", b.label.0),
                ));
            }
        }
    }
    Ok(())
}

/// Emits a whole module as assembly for `target`. `m` must be phi-free
/// (after `eliminate_phis`) and verify; both are checked.
pub fn emit_assembly(m: &IrModule, target: Target) -> Result<String, BackendError> {
    target_isa(target)?;
    check_precondition(m)?;
    emit_verified_assembly(m, target)
}

/// How the backend emits a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// Position-independent code for a shared library (`-fPIC`): symbols
    /// with external linkage and default visibility go through the GOT/PLT.
    pub pic: bool,
}

/// [`emit_assembly`] for a module the caller knows to verify (the driver's
/// own lowering and passes, whose output the test suites verify): only the
/// cheap phi-free check runs, not the whole verifier again.
pub fn emit_verified_assembly(m: &IrModule, target: Target) -> Result<String, BackendError> {
    emit_verified_assembly_with(m, target, EmitOptions::default())
}

/// [`emit_verified_assembly`] with [`EmitOptions`].
pub fn emit_verified_assembly_with(m: &IrModule, target: Target, opts: EmitOptions) -> Result<String, BackendError> {
    check_phi_free(m)?;
    let isa = target_isa(target)?;
    let desc = isa.desc();
    let mut cx = ModuleContext::with_options(m, opts);
    let mut out = String::with_capacity(4096 + 64 * m.functions.iter().map(|f| f.num_instructions()).sum::<usize>());
    for line in &m.toplevel_asm {
        out.push_str(line);
        out.push('\n');
    }
    data::emit_data(m, desc, &mut out);
    for f in m.functions.iter().filter(|f| !f.is_declaration && !f.is_gnu_inline_def) {
        emit_function_header(f, desc, &mut out);
        isa.emit_function(&mut cx, f, &mut out)?;
        out.push_str("\t.size\t");
        push_symbol(&mut out, &f.name);
        out.push_str(", .-");
        push_symbol(&mut out, &f.name);
        out.push('\n');
    }
    if !cx.rodata.is_empty() {
        out.push_str("\t.section\t.rodata\n");
        out.push_str(&cx.rodata);
    }
    out.push_str("\t.section\t.note.GNU-stack,\"\",");
    out.push(desc.type_prefix);
    out.push_str("progbits\n");
    Ok(out)
}

/// Whether `m` contains assembly text we did not write (inline or top-level asm).
pub fn has_foreign_asm(m: &IrModule) -> bool {
    !m.toplevel_asm.is_empty()
        || m.functions.iter().any(|f| {
            f.blocks
                .iter()
                .any(|b| b.instructions.iter().any(|i| matches!(i, Instruction::InlineAsm(_))))
        })
}

/// Compiles `m` to an ELF relocatable object with the integrated assembler.
/// `Ok(None)` when it cannot (no encoder for the target, or inline asm whose
/// text only a full assembler understands): the caller assembles
/// [`emit_assembly`]'s text with the target's assembler instead. The
/// environment variable `PHICC_EXTERNAL_AS=1` always declines.
pub fn emit_object(m: &IrModule, target: Target) -> Result<Option<Vec<u8>>, BackendError> {
    let text = emit_assembly(m, target)?;
    Ok(assemble_object(m, &text, target))
}

/// Assembles `text` (what [`emit_assembly`] printed for `m`) with the
/// integrated assembler; `None` in the cases [`emit_object`] declines.
pub fn assemble_object(m: &IrModule, text: &str, target: Target) -> Option<Vec<u8>> {
    if has_foreign_asm(m) || std::env::var_os("PHICC_EXTERNAL_AS").is_some_and(|v| v != "0") {
        return None;
    }
    // A gap in the integrated assembler is not the user's problem: the
    // external assembler takes over (tests check that it never has to).
    target_isa(target).ok()?.assemble(text)?.ok()
}

/// Section, linkage, type and alignment of a function, then its label.
fn emit_function_header(f: &IrFunction, desc: &TargetDesc, out: &mut String) {
    match &f.section {
        Some(s) => {
            let _ = writeln!(out, "\t.section\t{s},\"ax\",{}progbits", desc.type_prefix);
        }
        None => out.push_str("\t.text\n"),
    }
    if f.is_weak {
        out.push_str("\t.weak\t");
        push_symbol(out, &f.name);
        out.push('\n');
    } else if !f.is_static {
        out.push_str("\t.globl\t");
        push_symbol(out, &f.name);
        out.push('\n');
    }
    if let Some(v) = &f.visibility {
        data::emit_visibility(out, &f.name, v);
    }
    match f.align.filter(|&a| a > 16) {
        // `aligned(n)` above the usual 16: padded with `int3` on x86-64
        // (with NOPs gas jumps over long padding, which the integrated
        // assembler does not copy); never executed, as it follows the
        // previous function's return.
        Some(a) if desc.target == Target::X86_64 => {
            let _ = write!(out, "\t.p2align\t{},0xcc\n\t.type\t", a.trailing_zeros());
        }
        Some(a) => {
            let _ = write!(out, "\t.p2align\t{}\n\t.type\t", a.trailing_zeros());
        }
        None => out.push_str("\t.p2align\t4\n\t.type\t"),
    }
    push_symbol(out, &f.name);
    out.push_str(", ");
    out.push(desc.type_prefix);
    out.push_str("function\n");
    push_symbol(out, &f.name);
    out.push_str(":\n");
}

/// Whether the code of `inst` may overwrite every caller-saved register on
/// all three targets: calls, block copies, `va_*`, intrinsics and inline asm
/// (which may call helpers), a float remainder (a call of `fmod`/`fmodf`),
/// and anything on values wider than 8 bytes ([`touches_wide_values`]).
/// Each target's `ClobberFn` starts from this.
pub(crate) fn clobbers_caller_saved(inst: &Instruction, types: &frame::ValueTypes) -> bool {
    use crate::ir::ops::IrBinOp;
    use Instruction::*;
    match inst {
        Call { .. } | CallIndirect { .. } | Memcpy { .. } | InlineAsm(_) | Intrinsic { .. } => true,
        VaStart { .. } | VaEnd { .. } | VaCopy { .. } | VaArg { .. } | VaArgStruct { .. } => true,
        BinOp {
            op: IrBinOp::SRem | IrBinOp::URem,
            ty,
            ..
        } if ty.is_float() => true,
        _ => touches_wide_values(inst, types),
    }
}

/// Whether `f`'s code can run without a frame record of its own (AArch64's
/// `x29`/`x30` pair, RISC-V's `ra`/`s0`), as gcc runs a leaf function: no
/// instruction that may call ([`clobbers_caller_saved`]: calls, block
/// copies, `va_*`, intrinsics, inline asm, libgcc sequences) or that has an
/// address in the frame or moves the stack pointer (an `alloca` something
/// reads, dynamic `alloca`, stack save and restore), and no second-return area. The target
/// adds its own conditions: an empty locals area, no saved register, no
/// argument on the stack.
pub(crate) fn needs_no_frame_record(f: &IrFunction, types: &frame::ValueTypes) -> bool {
    use Instruction::*;
    // An `alloca` nothing reads (a promoted parameter's) has no place in the frame.
    let mut read = rustc_hash::FxHashSet::default();
    for i in f.blocks.iter().flat_map(|b| b.instructions.iter()) {
        i.for_each_used_value(|v| {
            read.insert(v);
        });
    }
    for b in &f.blocks {
        b.terminator.for_each_used_value(|v| {
            read.insert(v);
        });
    }
    f.blocks.iter().flat_map(|b| b.instructions.iter()).all(|i| match i {
        Alloca { dest, .. } => {
            !read.contains(dest) || crate::inject::enabled(crate::inject::Bug::FramelessLeafWithLocals)
        }
        DynAlloca { .. } | StackSave { .. } | StackRestore { .. } => false,
        GetReturnF64Second { .. }
        | SetReturnF64Second { .. }
        | GetReturnF32Second { .. }
        | SetReturnF32Second { .. }
        | GetReturnF128Second { .. }
        | SetReturnF128Second { .. } => false,
        _ => !clobbers_caller_saved(i, types),
    })
}

/// Whether `inst` computes on, reads or writes a value of more than 8 bytes
/// or a `long double` (its result, a value operand, or the type it names
/// for constant operands: `cmp lt i128 1, 2`, `store i128 5, %p`). The
/// targets do such work in long sequences or libgcc calls that overwrite
/// their caller-saved allocatable registers.
pub(crate) fn touches_wide_values(inst: &Instruction, types: &frame::ValueTypes) -> bool {
    use Instruction::*;
    let wide = |t: IrType| t.size() > 8 || t == IrType::F128;
    let mut w = inst.result_type().is_some_and(wide) || inst.dest().is_some_and(|d| wide(types.of(d)));
    match inst {
        Cast { from_ty, to_ty, .. } => w |= wide(*from_ty) || wide(*to_ty),
        BinOp { ty, .. }
        | UnaryOp { ty, .. }
        | Cmp { ty, .. }
        | Store { ty, .. }
        | Select { ty, .. }
        | AtomicRmw { ty, .. }
        | AtomicCmpxchg { ty, .. }
        | AtomicLoad { ty, .. }
        | AtomicStore { ty, .. } => w |= wide(*ty),
        _ => {}
    }
    inst.for_each_used_value(|v| w |= wide(types.of(v)));
    w
}

/// Whether `f` reads or sets a second return register (`getret*second`,
/// `setret*second`), which go through the second-return area.
pub(crate) fn uses_second_return(f: &IrFunction) -> bool {
    use Instruction::*;
    f.blocks.iter().flat_map(|b| b.instructions.iter()).any(|i| {
        matches!(
            i,
            GetReturnF64Second { .. }
                | GetReturnF32Second { .. }
                | GetReturnF128Second { .. }
                | SetReturnF64Second { .. }
                | SetReturnF32Second { .. }
                | SetReturnF128Second { .. }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::text::parse_module;

    /// A broken invariant is internal even when the verifier did not run
    /// first ([`emit_verified_assembly`], the driver's path without
    /// `--verify-each`); a construct the backend cannot compile is not.
    #[test]
    fn errors_have_the_kind_of_their_cause() {
        let undefined = parse_module("define @f() -> i32 {\nbb0:\n  ret %2\n}\n").unwrap();
        let huge = parse_module("define @f() -> i32 {\nbb0:\n  %0 = alloca i8, size 4, align 1048576\n  ret 0i32\n}\n")
            .unwrap();
        for target in [Target::X86_64, Target::Aarch64, Target::Riscv64] {
            let e = emit_verified_assembly(&undefined, target).unwrap_err();
            assert_eq!(e.kind, BackendErrorKind::Internal, "{target:?}: {e}");
            assert_eq!(e.exit_status(), crate::exit::ICE);
            assert!(
                e.to_string()
                    .starts_with("in function 'f': %2 is used but never defined"),
                "{target:?}: {e}"
            );
            let e = emit_verified_assembly(&huge, target).unwrap_err();
            assert_eq!(e.kind, BackendErrorKind::Unsupported, "{target:?}: {e}");
            assert_eq!(e.exit_status(), crate::exit::ERROR);
        }
    }
}
