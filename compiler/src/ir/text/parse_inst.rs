//! Parser of instructions and terminators (one per line). The mnemonic after
//! the optional `%N =` selects the rule; each rule mirrors the printer in
//! `printer.rs` and the grammar in docs/ir.md.

use super::lexer::Tok;
use super::parser::{PResult, Parser};
use crate::ir::instruction::{AsmInput, AsmOutput, CallInfo, InlineAsm, Instruction, Operand, Terminator, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::ops::{AtomicOrdering, AtomicRmwOp, IrBinOp, IrCmpOp, IrUnaryOp};
use crate::ir::types::AddressSpace;

const TERMINATORS: [&str; 6] = ["ret", "br", "condbr", "switch", "indirectbr", "unreachable"];

impl Parser {
    /// terminator := ret [OP] | br BB | condbr OP, BB, BB | unreachable
    ///             | switch TYPE OP, default BB [ [INT: BB {, INT: BB}] ]
    ///             | indirectbr OP, [ [BB {, BB}] ]
    /// Returns `None` (consuming nothing) when the line is not a terminator.
    pub(super) fn terminator(&mut self) -> PResult<Option<Terminator>> {
        let w = match self.peek() {
            Tok::Ident(w) if TERMINATORS.contains(&w.as_str()) && *self.peek_at(1) != Tok::Punct(':') => w.clone(),
            _ => return Ok(None),
        };
        self.bump();
        let t = match w.as_str() {
            "ret" if self.at_eol() => Terminator::Return(None),
            "ret" => Terminator::Return(Some(self.operand()?)),
            "br" => Terminator::Branch(self.block()?),
            "condbr" => {
                let cond = self.operand()?;
                self.expect_punct(',')?;
                let true_label = self.block()?;
                self.expect_punct(',')?;
                Terminator::CondBranch {
                    cond,
                    true_label,
                    false_label: self.block()?,
                }
            }
            "switch" => {
                let ty = self.ty()?;
                let val = self.operand()?;
                self.expect_punct(',')?;
                self.expect_word("default")?;
                let default = self.block()?;
                let cases = self.bracket_list(|p| {
                    let v = p.i64_("case value")?;
                    p.expect_punct(':')?;
                    Ok((v, p.block()?))
                })?;
                Terminator::Switch {
                    val,
                    cases,
                    default,
                    ty,
                }
            }
            "indirectbr" => {
                let target = self.operand()?;
                self.expect_punct(',')?;
                Terminator::IndirectBranch {
                    target,
                    possible_targets: self.bracket_list(|p| p.block())?,
                }
            }
            _ => Terminator::Unreachable,
        };
        Ok(Some(t))
    }

    fn ordering(&mut self) -> PResult<AtomicOrdering> {
        match self.peek() {
            Tok::Ident(w) => match AtomicOrdering::from_name(w) {
                Some(o) => {
                    self.bump();
                    Ok(o)
                }
                None => Err(self.expected("a memory ordering (relaxed acquire release acqrel seqcst)")),
            },
            _ => Err(self.expected("a memory ordering (relaxed acquire release acqrel seqcst)")),
        }
    }

    /// `[, seg NAME]` after a load or store.
    fn seg_suffix(&mut self) -> PResult<AddressSpace> {
        if !self.eat_punct(',') {
            return Ok(AddressSpace::Default);
        }
        self.expect_word("seg")?;
        self.address_space()
    }

    fn address_space(&mut self) -> PResult<AddressSpace> {
        let w = self.word("an address space (default gs fs)")?;
        AddressSpace::from_name(&w).ok_or_else(|| self.err_prev("expected an address space (default gs fs)"))
    }

    /// `OP, OP`
    fn two_operands(&mut self) -> PResult<(Operand, Operand)> {
        let a = self.operand()?;
        self.expect_punct(',')?;
        Ok((a, self.operand()?))
    }

    /// instruction := [%N =] MNEMONIC ... (see docs/ir.md for each form)
    pub(super) fn instruction(&mut self) -> PResult<Instruction> {
        let mut dest = None;
        if matches!(self.peek(), Tok::Value(_)) && *self.peek_at(1) == Tok::Punct('=') {
            dest = Some(self.value()?);
            self.bump();
        }
        let w = self.word("an instruction")?;
        // Mnemonics that may or must not define a value.
        match w.as_str() {
            "call" => return self.call(dest),
            "intrinsic" => return self.intrinsic(dest),
            "store" | "memcpy" | "stackrestore" | "vastart" | "vaend" | "vacopy" | "vaargstruct" | "atomicstore"
            | "fence" | "setretf64second" | "setretf32second" | "setretf128second" | "asm" => {
                if dest.is_some() {
                    return Err(self.err_prev(&format!("'{w}' does not define a value; remove the '%N ='")));
                }
                return self.no_dest_instruction(&w);
            }
            _ => {}
        }
        let Some(dest) = dest else {
            return Err(if is_dest_mnemonic(&w) {
                self.err_prev(&format!("'{w}' defines a value: write '%N = {w} ...'"))
            } else {
                self.err_prev(&format!("unknown instruction '{w}'"))
            });
        };
        use Instruction::*;
        if let Some(op) = IrBinOp::from_name(&w) {
            let ty = self.ty()?;
            let (lhs, rhs) = self.two_operands()?;
            return Ok(BinOp { dest, op, lhs, rhs, ty });
        }
        if let Some(op) = IrUnaryOp::from_name(&w) {
            let ty = self.ty()?;
            return Ok(UnaryOp {
                dest,
                op,
                src: self.operand()?,
                ty,
            });
        }
        Ok(match w.as_str() {
            "alloca" => {
                let ty = self.ty()?;
                self.expect_punct(',')?;
                self.expect_word("size")?;
                let size = self.usize_("alloca size")?;
                self.expect_punct(',')?;
                self.expect_word("align")?;
                let align = self.usize_("alloca alignment")?;
                Alloca {
                    dest,
                    ty,
                    size,
                    align,
                    volatile: self.eat_word("volatile"),
                }
            }
            "dynalloca" => {
                let size = self.operand()?;
                self.expect_punct(',')?;
                self.expect_word("align")?;
                DynAlloca {
                    dest,
                    size,
                    align: self.usize_("alignment")?,
                }
            }
            "load" => {
                let ty = self.ty()?;
                let ptr = self.value()?;
                Load {
                    dest,
                    ptr,
                    ty,
                    seg_override: self.seg_suffix()?,
                }
            }
            "gep" => {
                let ty = self.ty()?;
                let base = self.value()?;
                self.expect_punct(',')?;
                GetElementPtr {
                    dest,
                    base,
                    offset: self.operand()?,
                    ty,
                }
            }
            "globaladdr" => GlobalAddr {
                dest,
                name: self.symbol()?,
            },
            "stacksave" => StackSave { dest },
            "cmp" => {
                let w = self.word("a comparison (eq ne slt sle sgt sge ult ule ugt uge)")?;
                let op = IrCmpOp::from_name(&w)
                    .ok_or_else(|| self.err_prev("expected a comparison (eq ne slt sle sgt sge ult ule ugt uge)"))?;
                let ty = self.ty()?;
                let (lhs, rhs) = self.two_operands()?;
                Cmp { dest, op, lhs, rhs, ty }
            }
            "cast" => {
                let from_ty = self.ty()?;
                if *self.peek() != Tok::Arrow {
                    return Err(self.expected("'->'"));
                }
                self.bump();
                let to_ty = self.ty()?;
                Cast {
                    dest,
                    src: self.operand()?,
                    from_ty,
                    to_ty,
                }
            }
            "copy" => Copy {
                dest,
                src: self.operand()?,
            },
            "select" => {
                let ty = self.ty()?;
                let cond = self.operand()?;
                self.expect_punct(',')?;
                let (true_val, false_val) = self.two_operands()?;
                Select {
                    dest,
                    cond,
                    true_val,
                    false_val,
                    ty,
                }
            }
            "vaarg" => {
                let result_ty = self.ty()?;
                VaArg {
                    dest,
                    va_list_ptr: self.value()?,
                    result_ty,
                }
            }
            "atomicrmw" => {
                let w = self.word("an atomic operation")?;
                let op = AtomicRmwOp::from_name(&w).ok_or_else(|| {
                    self.err_prev("expected an atomic operation (add sub and or xor nand xchg testandset)")
                })?;
                let ty = self.ty()?;
                let ptr = self.value()?;
                self.expect_punct(',')?;
                let val = self.operand()?;
                self.expect_punct(',')?;
                AtomicRmw {
                    dest,
                    op,
                    ptr,
                    val,
                    ordering: self.ordering()?,
                    ty,
                }
            }
            "cmpxchg" => {
                let ty = self.ty()?;
                let ptr = self.value()?;
                self.expect_punct(',')?;
                let (expected, desired) = self.two_operands()?;
                self.expect_punct(',')?;
                let success_ordering = self.ordering()?;
                self.expect_punct(',')?;
                let failure_ordering = self.ordering()?;
                AtomicCmpxchg {
                    dest,
                    ptr,
                    expected,
                    desired,
                    success_ordering,
                    failure_ordering,
                    ty,
                    returns_bool: self.eat_word("bool"),
                }
            }
            "atomicload" => {
                let ty = self.ty()?;
                let ptr = self.value()?;
                self.expect_punct(',')?;
                AtomicLoad {
                    dest,
                    ptr,
                    ordering: self.ordering()?,
                    ty,
                }
            }
            "phi" => {
                let ty = self.ty()?;
                let mut incoming = Vec::new();
                if !self.at_eol() {
                    loop {
                        self.expect_punct('[')?;
                        let v = self.operand()?;
                        self.expect_punct(',')?;
                        let b = self.block()?;
                        self.expect_punct(']')?;
                        incoming.push((v, b));
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                }
                Phi { dest, ty, incoming }
            }
            "paramref" => {
                let param_idx = self.usize_("parameter index")?;
                ParamRef {
                    dest,
                    param_idx,
                    ty: self.ty()?,
                }
            }
            "getretf64second" => GetReturnF64Second { dest },
            "getretf32second" => GetReturnF32Second { dest },
            "getretf128second" => GetReturnF128Second { dest },
            "labeladdr" => LabelAddr {
                dest,
                label: self.block()?,
            },
            _ => return Err(self.err_prev(&format!("unknown instruction '{w}'"))),
        })
    }

    fn no_dest_instruction(&mut self, w: &str) -> PResult<Instruction> {
        use Instruction::*;
        Ok(match w {
            "store" => {
                let ty = self.ty()?;
                let val = self.operand()?;
                self.expect_punct(',')?;
                let ptr = self.value()?;
                Store {
                    val,
                    ptr,
                    ty,
                    seg_override: self.seg_suffix()?,
                }
            }
            "memcpy" => {
                let dest = self.value()?;
                self.expect_punct(',')?;
                let src = self.value()?;
                self.expect_punct(',')?;
                self.expect_word("size")?;
                Memcpy {
                    dest,
                    src,
                    size: self.usize_("memcpy size")?,
                }
            }
            "stackrestore" => StackRestore { ptr: self.value()? },
            "vastart" => VaStart {
                va_list_ptr: self.value()?,
            },
            "vaend" => VaEnd {
                va_list_ptr: self.value()?,
            },
            "vacopy" => {
                let dest_ptr = self.value()?;
                self.expect_punct(',')?;
                VaCopy {
                    dest_ptr,
                    src_ptr: self.value()?,
                }
            }
            "vaargstruct" => {
                let dest_ptr = self.value()?;
                self.expect_punct(',')?;
                let va_list_ptr = self.value()?;
                self.expect_punct(',')?;
                self.expect_word("size")?;
                let size = self.usize_("struct size")?;
                let eightbyte_classes = if self.eat_word("classes") {
                    self.classes()?
                } else {
                    Vec::new()
                };
                let hfa = if self.eat_word("hfa") { Some(self.hfa()?) } else { None };
                VaArgStruct {
                    dest_ptr,
                    va_list_ptr,
                    size,
                    eightbyte_classes,
                    hfa,
                }
            }
            "atomicstore" => {
                let ty = self.ty()?;
                let val = self.operand()?;
                self.expect_punct(',')?;
                let ptr = self.value()?;
                self.expect_punct(',')?;
                AtomicStore {
                    ptr,
                    val,
                    ordering: self.ordering()?,
                    ty,
                }
            }
            "fence" => Fence {
                ordering: self.ordering()?,
            },
            "setretf64second" => SetReturnF64Second { src: self.operand()? },
            "setretf32second" => SetReturnF32Second { src: self.operand()? },
            "setretf128second" => SetReturnF128Second { src: self.operand()? },
            _ => self.inline_asm()?,
        })
    }

    /// intrinsic := [%N =] intrinsic NAME ( [OP {, OP}] ) [destptr %N]
    fn intrinsic(&mut self, dest: Option<Value>) -> PResult<Instruction> {
        let w = self.word("an intrinsic name")?;
        let op = IntrinsicOp::from_name(&w).ok_or_else(|| self.err_prev(&format!("unknown intrinsic '{w}'")))?;
        let args = self.paren_list(|p| p.operand())?;
        let dest_ptr = if self.eat_word("destptr") {
            Some(self.value()?)
        } else {
            None
        };
        Ok(Instruction::Intrinsic {
            dest,
            op,
            dest_ptr,
            args,
        })
    }

    /// asm := asm STRING [outputs(out {, out})] [inputs(in {, in})] [clobbers(STRING {, STRING})]
    ///        [types(TYPE {, TYPE})] [goto(NAME BB {, NAME BB})] [symbols(SYM-or-_ {, ...})]
    ///        [segs(SPACE {, SPACE})]
    /// out := ['[' NAME ']'] STRING ( '*' %N | %N );  in := ['[' NAME ']'] STRING OP
    fn inline_asm(&mut self) -> PResult<Instruction> {
        let mut asm = InlineAsm {
            template: self.string()?,
            outputs: Vec::new(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            operand_types: Vec::new(),
            goto_labels: Vec::new(),
            input_symbols: Vec::new(),
            seg_overrides: Vec::new(),
        };
        let mut seen: Vec<String> = Vec::new();
        while !self.at_eol() {
            let w = self.word("an asm section (outputs inputs clobbers types goto symbols segs) or end of line")?;
            if seen.contains(&w) {
                return Err(self.err_prev(&format!("asm section '{w}' given twice")));
            }
            match w.as_str() {
                "outputs" => {
                    asm.outputs = self.paren_list(|p| {
                        let name = p.asm_operand_name()?;
                        let constraint = p.string()?;
                        let is_def = !p.eat_punct('*');
                        Ok(AsmOutput {
                            constraint,
                            value: p.value()?,
                            name,
                            is_def,
                        })
                    })?
                }
                "inputs" => {
                    asm.inputs = self.paren_list(|p| {
                        let name = p.asm_operand_name()?;
                        let constraint = p.string()?;
                        Ok(AsmInput {
                            constraint,
                            value: p.operand()?,
                            name,
                        })
                    })?
                }
                "clobbers" => asm.clobbers = self.paren_list(|p| p.string())?,
                "types" => asm.operand_types = self.paren_list(|p| p.ty())?,
                "goto" => asm.goto_labels = self.paren_list(|p| Ok((p.name()?, p.block()?)))?,
                "symbols" => {
                    asm.input_symbols = self.paren_list(|p| {
                        if p.eat_word("_") {
                            Ok(None)
                        } else {
                            p.symbol().map(Some)
                        }
                    })?
                }
                "segs" => asm.seg_overrides = self.paren_list(|p| p.address_space())?,
                _ => {
                    return Err(self.err_prev(&format!(
                        "unknown asm section '{w}' (expected outputs inputs clobbers types goto symbols segs)"
                    )))
                }
            }
            seen.push(w);
        }
        Ok(Instruction::InlineAsm(Box::new(asm)))
    }

    fn asm_operand_name(&mut self) -> PResult<Option<String>> {
        if !self.eat_punct('[') {
            return Ok(None);
        }
        let n = self.name()?;
        self.expect_punct(']')?;
        Ok(Some(n))
    }

    fn opt_usize_item(&mut self) -> PResult<Option<usize>> {
        if self.eat_word("_") {
            Ok(None)
        } else {
            self.usize_("size").map(Some)
        }
    }

    /// call := [%N =] call TYPE (SYMBOL | OP) ( [arg {, arg}] ) { call-attr }
    /// arg := [TYPE] OP abi-annot | ...
    /// call-attr := argtypes(TYPE, ...) | variadic | fixedargs N | abi | sret | fastcall
    ///            | retclasses [C, ...] | sizes [N-or-_, ...] | aligns [N-or-_, ...]
    ///            | argclasses [[C, ...], ...] | riscvclasses [RISCV-CLASS-or-_, ...]
    ///            | hfas [hfa HFA-or-_, ...]
    fn call(&mut self, dest: Option<Value>) -> PResult<Instruction> {
        let return_type = self.ty()?;
        let callee = match self.peek() {
            Tok::Symbol(_) => Ok(self.symbol()?),
            _ => Err(self.operand()?),
        };
        let mut info = CallInfo {
            dest,
            return_type,
            ..CallInfo::default()
        };
        let (mut typed, mut untyped, mut annotated) = (false, false, false);
        let mut ellipsis: Option<usize> = None;
        self.expect_punct('(')?;
        if !self.eat_punct(')') {
            loop {
                if *self.peek() == Tok::Ellipsis {
                    if ellipsis.is_some() {
                        return Err(self.err("'...' given twice"));
                    }
                    self.bump();
                    ellipsis = Some(info.args.len());
                } else {
                    if self.is_type() {
                        typed = true;
                        info.arg_types.push(self.ty()?);
                    } else {
                        untyped = true;
                    }
                    if typed && untyped {
                        return Err(self.err("either every argument has a type or none has"));
                    }
                    info.args.push(self.operand()?);
                    let a = self.abi_annotations()?;
                    annotated |= a.any;
                    info.struct_arg_sizes.push(a.size);
                    info.struct_arg_aligns.push(a.align);
                    info.struct_arg_classes.push(a.classes);
                    info.struct_arg_riscv_float_classes.push(a.riscv);
                    info.struct_arg_hfas.push(a.hfa);
                }
                if self.eat_punct(')') {
                    break;
                }
                if !self.eat_punct(',') {
                    return Err(self.expected("',' or ')'"));
                }
            }
        }
        let n = info.args.len();
        let (mut abi, mut variadic, mut fixed, mut explicit) = (false, false, None, false);
        let mut explicit_lists = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        while !self.at_eol() {
            let w = self.word("a call attribute or end of line")?;
            match w.as_str() {
                "argtypes" if typed => return Err(self.err_prev("'argtypes' with typed arguments")),
                "argtypes" => info.arg_types = self.paren_list(|p| p.ty())?,
                "variadic" => variadic = true,
                "fixedargs" => fixed = Some(self.usize_("fixed argument count")?),
                "abi" => abi = true,
                "sret" => info.is_sret = true,
                "fastcall" => info.is_fastcall = true,
                "retclasses" => info.ret_eightbyte_classes = self.classes()?,
                "sizes" => explicit_lists.0 = self.bracket_list(|p| p.opt_usize_item())?,
                "aligns" => explicit_lists.1 = self.bracket_list(|p| p.opt_usize_item())?,
                "argclasses" => explicit_lists.2 = self.bracket_list(|p| p.classes())?,
                "riscvclasses" => {
                    explicit_lists.3 = self.bracket_list(|p| {
                        if p.eat_word("_") {
                            Ok(None)
                        } else {
                            p.riscv_class().map(Some)
                        }
                    })?
                }
                "hfas" => {
                    explicit_lists.4 = self.bracket_list(|p| {
                        if p.eat_word("_") {
                            Ok(None)
                        } else {
                            p.expect_word("hfa")?;
                            p.hfa().map(Some)
                        }
                    })?
                }
                _ => return Err(self.err_prev(&format!("unknown call attribute '{w}'"))),
            }
            explicit |= matches!(w.as_str(), "sizes" | "aligns" | "argclasses" | "riscvclasses" | "hfas");
        }
        if let Some(pos) = ellipsis {
            if variadic || fixed.is_some() {
                return Err(self.err("'...' in the arguments excludes 'variadic' and 'fixedargs'"));
            }
            info.is_variadic = true;
            info.num_fixed_args = pos;
        } else {
            info.is_variadic = variadic;
            info.num_fixed_args = fixed.unwrap_or(n);
        }
        if explicit {
            if annotated || abi {
                return Err(self.err("explicit struct lists exclude per-argument annotations and 'abi'"));
            }
            (
                info.struct_arg_sizes,
                info.struct_arg_aligns,
                info.struct_arg_classes,
                info.struct_arg_riscv_float_classes,
                info.struct_arg_hfas,
            ) = explicit_lists;
        } else if !(annotated || abi) {
            info.struct_arg_sizes.clear();
            info.struct_arg_aligns.clear();
            info.struct_arg_classes.clear();
            info.struct_arg_riscv_float_classes.clear();
            info.struct_arg_hfas.clear();
        }
        Ok(match callee {
            Ok(func) => Instruction::Call {
                func,
                info: Box::new(info),
            },
            Err(func_ptr) => Instruction::CallIndirect {
                func_ptr,
                info: Box::new(info),
            },
        })
    }
}

/// Mnemonics that need a `%N =` (for a clearer message when it is missing).
fn is_dest_mnemonic(w: &str) -> bool {
    IrBinOp::from_name(w).is_some()
        || IrUnaryOp::from_name(w).is_some()
        || matches!(
            w,
            "alloca"
                | "dynalloca"
                | "load"
                | "gep"
                | "globaladdr"
                | "stacksave"
                | "cmp"
                | "cast"
                | "copy"
                | "select"
                | "vaarg"
                | "atomicrmw"
                | "cmpxchg"
                | "atomicload"
                | "phi"
                | "paramref"
                | "getretf64second"
                | "getretf32second"
                | "getretf128second"
                | "labeladdr"
        )
}
