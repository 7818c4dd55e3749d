//! Type checks of the verifier: infers the type of every value, then checks
//! each instruction's and terminator's operands against the types the
//! instruction gives them, plus the per-instruction rules (alloca sizes,
//! alignments, call arities, switch cases, parameter references, symbols).

use super::{types_agree, FnCheck, VerifyMode};
use crate::ir::constants::IrConst;
use crate::ir::instruction::{InlineAsm, Instruction, Operand, Terminator, Value};
use crate::ir::types::IrType;
use rustc_hash::FxHashSet;

/// How strictly a constant operand must match the expected type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ConstRule {
    /// Any constant is accepted (it is converted by the instruction).
    Any,
    /// Integer constants for integer/pointer types, float constants for floats.
    SameClass,
    /// Same class and, unless it is `zero`, the width of the type (phi operands).
    Exact,
}

/// Text of a constant for diagnostics, in the suffix style of the textual IR.
pub(super) fn const_text(c: &IrConst) -> String {
    match c {
        IrConst::I8(v) => format!("{v}i8"),
        IrConst::I16(v) => format!("{v}i16"),
        IrConst::I32(v) => format!("{v}i32"),
        IrConst::I64(v) => format!("{v}i64"),
        IrConst::I128(v) => format!("{v}i128"),
        IrConst::F32(v) => format!("{v:?}f32"),
        IrConst::F64(v) => format!("{v:?}f64"),
        IrConst::LongDouble(v, _) => format!("{v:?}f128"),
        IrConst::Zero => "zero".to_string(),
    }
}

fn const_is_float(c: &IrConst) -> bool {
    matches!(c, IrConst::F32(_) | IrConst::F64(_) | IrConst::LongDouble(..))
}

/// Width in bytes of a sized constant (`zero` has none).
fn const_size(c: &IrConst) -> Option<usize> {
    Some(match c {
        IrConst::I8(_) => 1,
        IrConst::I16(_) => 2,
        IrConst::I32(_) | IrConst::F32(_) => 4,
        IrConst::I64(_) | IrConst::F64(_) => 8,
        IrConst::I128(_) | IrConst::LongDouble(..) => 16,
        IrConst::Zero => return None,
    })
}

fn class_name(float: bool) -> &'static str {
    if float {
        "a float"
    } else {
        "an integer"
    }
}

impl<'a> FnCheck<'a> {
    /// The type of every value: from `result_type()` of its definition, from
    /// the source of a `copy` (to a fixed point, for copy chains), from the
    /// operand types of an `asm`. In non-SSA mode, all definitions of a value
    /// must agree in type.
    pub(super) fn infer_types(&mut self) {
        let mut bad = Vec::new();
        let mut copies: Vec<(Value, Value, usize, usize)> = Vec::new();
        // One buffer for all instructions: an allocation per instruction
        // showed in the fuzzers' profile.
        let mut typed: Vec<(Value, IrType)> = Vec::new();
        for (b, block) in self.f.blocks.iter().enumerate() {
            for (i, inst) in block.instructions.iter().enumerate() {
                typed.clear();
                match inst {
                    Instruction::Copy {
                        dest,
                        src: Operand::Value(s),
                    } => copies.push((*dest, *s, b, i)),
                    Instruction::Copy {
                        src: Operand::Const(IrConst::Zero),
                        ..
                    } => {}
                    Instruction::InlineAsm(asm) => {
                        for (k, o) in asm.outputs.iter().enumerate() {
                            if o.is_def {
                                typed.push((o.value, asm.output_type(k)));
                            }
                        }
                    }
                    _ => {
                        if let (Some(d), Some(t)) = (inst.dest(), inst.result_type()) {
                            typed.push((d, t));
                        }
                    }
                }
                for &(v, t) in &typed {
                    match self.types.get(&v) {
                        None => {
                            self.types.insert(v, t);
                        }
                        Some(&t0) if !types_agree(t0, t) && self.mode == VerifyMode::NonSsa => {
                            bad.push((b, i, format!("{v} is defined here as {t} but elsewhere as {t0}")));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &(d, s, _, _) in &copies {
                if !self.types.contains_key(&d) {
                    if let Some(&t) = self.types.get(&s) {
                        self.types.insert(d, t);
                        changed = true;
                    }
                }
            }
        }
        if self.mode == VerifyMode::NonSsa {
            for &(d, s, b, i) in &copies {
                if let (Some(&td), Some(&ts)) = (self.types.get(&d), self.types.get(&s)) {
                    if !types_agree(td, ts) {
                        bad.push((b, i, format!("copies {s} of type {ts} into {d} of type {td}")));
                    }
                }
            }
        }
        for (b, i, msg) in bad {
            self.err_at(b, i, msg);
        }
    }

    /// Check operand `op` (named `what` in messages) against type `want`.
    #[allow(clippy::too_many_arguments)]
    /// `describe` gives the operand's name and the expectation for messages;
    /// it runs only when there is an error (verification is on the fuzzers' hot path).
    fn expect(
        &mut self,
        b: usize,
        i: usize,
        op: &Operand,
        want: IrType,
        rule: ConstRule,
        describe: impl FnOnce() -> (String, String),
    ) {
        match op {
            Operand::Value(v) => {
                if let Some(&t) = self.types.get(v) {
                    if !types_agree(t, want) {
                        let (what, want_text) = describe();
                        self.err_at(b, i, format!("{what} {v} is {t} but {want_text}"));
                    }
                }
            }
            Operand::Const(c) => {
                if rule == ConstRule::Any || matches!(c, IrConst::Zero) {
                    return;
                }
                if const_is_float(c) != want.is_float() {
                    let (what, want_text) = describe();
                    let msg = format!(
                        "{what} constant {} is {} but {want_text}",
                        const_text(c),
                        class_name(const_is_float(c))
                    );
                    self.err_at(b, i, msg);
                } else if rule == ConstRule::Exact && const_size(c) != Some(want.size()) {
                    let (what, want_text) = describe();
                    let msg = format!(
                        "{what} constant {} is {}-bit but {want_text} (constants must be narrowed to it)",
                        const_text(c),
                        const_size(c).unwrap_or(0) * 8
                    );
                    self.err_at(b, i, msg);
                }
            }
        }
    }

    /// The operand of type `ty` of an instruction whose type is `ty`.
    fn expect_ty(&mut self, b: usize, i: usize, what: &str, op: &Operand, ty: IrType, rule: ConstRule) {
        self.expect(b, i, op, ty, rule, || {
            (what.to_string(), format!("the instruction type is {ty}"))
        })
    }

    fn expect_ptr(&mut self, b: usize, i: usize, what: &str, v: Value) {
        self.expect(b, i, &Operand::Value(v), IrType::Ptr, ConstRule::Any, || {
            (what.to_string(), "a pointer is expected".to_string())
        })
    }

    /// An integer (or pointer) operand of any width.
    fn expect_int(&mut self, b: usize, i: usize, what: &str, op: &Operand) {
        match op {
            Operand::Value(v) => {
                if let Some(&t) = self.types.get(v) {
                    if !t.is_int_or_ptr() {
                        self.err_at(b, i, format!("{what} {v} is {t} but an integer is expected"));
                    }
                }
            }
            Operand::Const(c) => {
                if const_is_float(c) {
                    let msg = format!(
                        "{what} constant {} is a float but an integer is expected",
                        const_text(c)
                    );
                    self.err_at(b, i, msg);
                }
            }
        }
    }

    fn expect_pow2(&mut self, b: usize, i: usize, align: usize) {
        if !align.is_power_of_two() {
            self.err_at(b, i, format!("alignment {align} is not a power of two"));
        }
    }

    fn expect_non_void(&mut self, b: usize, i: usize, ty: IrType) {
        if ty == IrType::Void {
            self.err_at(b, i, "the instruction type is void".to_string());
        }
    }

    pub(super) fn check_instructions(&mut self) {
        let f = self.f;
        for (b, block) in f.blocks.iter().enumerate() {
            for (i, inst) in block.instructions.iter().enumerate() {
                self.check_instruction(b, i, inst);
            }
            self.check_terminator(b, block.instructions.len(), &block.terminator);
        }
    }

    fn check_instruction(&mut self, b: usize, i: usize, inst: &Instruction) {
        use ConstRule::*;
        use Instruction as I;
        match inst {
            I::Alloca { ty, size, align, .. } => {
                if *size < ty.size() {
                    self.err_at(
                        b,
                        i,
                        format!("alloca of {size} bytes is smaller than {ty} ({} bytes)", ty.size()),
                    );
                }
                self.expect_pow2(b, i, *align);
            }
            I::DynAlloca { size, align, .. } => {
                self.expect_int(b, i, "size", size);
                self.expect_pow2(b, i, *align);
            }
            I::Load { ptr, ty, .. } => {
                self.expect_ptr(b, i, "pointer", *ptr);
                self.expect_non_void(b, i, *ty);
            }
            I::Store { val, ptr, ty, .. } => {
                self.expect_ty(b, i, "stored value", val, *ty, SameClass);
                self.expect_ptr(b, i, "pointer", *ptr);
                self.expect_non_void(b, i, *ty);
            }
            I::Memcpy { dest, src, .. } => {
                self.expect_ptr(b, i, "destination", *dest);
                self.expect_ptr(b, i, "source", *src);
            }
            I::GetElementPtr { base, offset, .. } => {
                self.expect_ptr(b, i, "base", *base);
                self.expect_int(b, i, "offset", offset);
            }
            I::GlobalAddr { name, .. } => {
                if !self.syms.functions.contains_key(name.as_str()) && !self.syms.is_alias_or_data(name) {
                    self.err_at(
                        b,
                        i,
                        format!("@{name} is not a global, function or string of the module"),
                    );
                }
            }
            I::StackSave { .. } | I::Fence { .. } | I::Copy { .. } | I::LabelAddr { .. } => {}
            I::GetReturnF64Second { .. } | I::GetReturnF32Second { .. } | I::GetReturnF128Second { .. } => {}
            I::StackRestore { ptr } => self.expect_ptr(b, i, "pointer", *ptr),
            I::BinOp { lhs, rhs, ty, .. } | I::Cmp { lhs, rhs, ty, .. } => {
                self.expect_ty(b, i, "operand", lhs, *ty, SameClass);
                self.expect_ty(b, i, "operand", rhs, *ty, SameClass);
                self.expect_non_void(b, i, *ty);
            }
            I::UnaryOp { src, ty, .. } => {
                self.expect_ty(b, i, "operand", src, *ty, SameClass);
                self.expect_non_void(b, i, *ty);
            }
            I::Cast {
                src, from_ty, to_ty, ..
            } => {
                self.expect(b, i, src, *from_ty, Any, || {
                    ("operand".to_string(), format!("the cast is from {from_ty}"))
                });
                self.expect_non_void(b, i, *from_ty);
                self.expect_non_void(b, i, *to_ty);
            }
            I::Select {
                cond,
                true_val,
                false_val,
                ty,
                ..
            } => {
                self.expect_int(b, i, "condition", cond);
                self.expect_ty(b, i, "operand", true_val, *ty, SameClass);
                self.expect_ty(b, i, "operand", false_val, *ty, SameClass);
                self.expect_non_void(b, i, *ty);
            }
            I::Call { func, info } => {
                self.check_call_args(b, i, info);
                match self.syms.functions.get(func.as_str()) {
                    Some(callee) => {
                        let (n, np) = (info.args.len(), callee.params.len());
                        if callee.is_variadic && n < np {
                            self.err_at(
                                b,
                                i,
                                format!("@{func} takes at least {np} arguments but the call passes {n}"),
                            );
                        } else if !callee.is_variadic && n != np {
                            self.err_at(b, i, format!("@{func} takes {np} arguments but the call passes {n}"));
                        }
                    }
                    None if self.syms.is_alias_or_data(func) => {}
                    None => self.err_at(b, i, format!("callee @{func} is not a function of the module")),
                }
            }
            I::CallIndirect { func_ptr, info } => {
                self.expect(b, i, func_ptr, IrType::Ptr, Any, || {
                    ("callee".to_string(), "a pointer is expected".to_string())
                });
                self.check_call_args(b, i, info);
            }
            I::VaStart { va_list_ptr } | I::VaEnd { va_list_ptr } => self.expect_ptr(b, i, "va_list", *va_list_ptr),
            I::VaCopy { dest_ptr, src_ptr } => {
                self.expect_ptr(b, i, "destination", *dest_ptr);
                self.expect_ptr(b, i, "source", *src_ptr);
            }
            I::VaArg {
                va_list_ptr, result_ty, ..
            } => {
                self.expect_ptr(b, i, "va_list", *va_list_ptr);
                self.expect_non_void(b, i, *result_ty);
            }
            I::VaArgStruct {
                dest_ptr, va_list_ptr, ..
            } => {
                self.expect_ptr(b, i, "destination", *dest_ptr);
                self.expect_ptr(b, i, "va_list", *va_list_ptr);
            }
            I::AtomicRmw { ptr, val, ty, .. } | I::AtomicStore { ptr, val, ty, .. } => {
                self.expect_ptr(b, i, "pointer", *ptr);
                self.expect_ty(b, i, "operand", val, *ty, SameClass);
                self.expect_non_void(b, i, *ty);
            }
            I::AtomicCmpxchg {
                ptr,
                expected,
                desired,
                ty,
                ..
            } => {
                self.expect_ptr(b, i, "pointer", *ptr);
                self.expect_ty(b, i, "expected value", expected, *ty, SameClass);
                self.expect_ty(b, i, "desired value", desired, *ty, SameClass);
                self.expect_non_void(b, i, *ty);
            }
            I::AtomicLoad { ptr, ty, .. } => {
                self.expect_ptr(b, i, "pointer", *ptr);
                self.expect_non_void(b, i, *ty);
            }
            I::Phi { ty, incoming, .. } => {
                for (op, from) in incoming {
                    self.expect(b, i, op, *ty, Exact, || {
                        (format!("incoming value from {from}:"), format!("the phi type is {ty}"))
                    });
                }
                self.expect_non_void(b, i, *ty);
            }
            I::ParamRef { param_idx, ty, .. } => match self.f.params.get(*param_idx) {
                None => {
                    let n = self.f.params.len();
                    self.err_at(
                        b,
                        i,
                        format!("parameter index {param_idx} but @{} has {n} parameters", self.f.name),
                    );
                }
                Some(p) if p.struct_size.is_none() && !types_agree(p.ty, *ty) => {
                    self.err_at(
                        b,
                        i,
                        format!("parameter {param_idx} is {} but the paramref type is {ty}", p.ty),
                    );
                }
                Some(_) => {}
            },
            I::SetReturnF64Second { src } => self.expect_ty(b, i, "operand", src, IrType::F64, SameClass),
            I::SetReturnF32Second { src } => self.expect_ty(b, i, "operand", src, IrType::F32, SameClass),
            I::SetReturnF128Second { src } => self.expect_ty(b, i, "operand", src, IrType::F128, SameClass),
            I::InlineAsm(asm) => self.check_asm(b, i, asm),
            I::Intrinsic { op, dest_ptr, args, .. } => {
                if args.len() != op.num_args() {
                    let msg = format!(
                        "intrinsic {} takes {} arguments, not {}",
                        op.name(),
                        op.num_args(),
                        args.len()
                    );
                    self.err_at(b, i, msg);
                }
                if let Some(p) = dest_ptr {
                    self.expect_ptr(b, i, "destination", *p);
                }
            }
        }
    }

    fn check_call_args(&mut self, b: usize, i: usize, info: &crate::ir::instruction::CallInfo) {
        if info.args.len() != info.arg_types.len() {
            let msg = format!(
                "{} arguments but {} argument types",
                info.args.len(),
                info.arg_types.len()
            );
            self.err_at(b, i, msg);
        }
        for (k, (a, t)) in info.args.iter().zip(&info.arg_types).enumerate() {
            self.expect(b, i, a, *t, ConstRule::Any, || {
                (format!("argument {k}:"), format!("the argument type is {t}"))
            });
        }
        if info.dest.is_some() && info.return_type == IrType::Void {
            self.err_at(b, i, "a call with a result returns void".to_string());
        }
    }

    fn check_asm(&mut self, b: usize, i: usize, asm: &InlineAsm) {
        let n_ops = asm.outputs.len() + asm.inputs.len();
        let typed = asm.operand_types.len() == n_ops;
        if !asm.operand_types.is_empty() && !typed {
            let msg = format!("{} operand types for {n_ops} operands", asm.operand_types.len());
            self.err_at(b, i, msg);
        }
        for (k, o) in asm.outputs.iter().enumerate() {
            if !o.is_def {
                self.expect_ptr(b, i, &format!("output {k} (written through):"), o.value);
            }
        }
        if typed {
            for (k, input) in asm.inputs.iter().enumerate() {
                if InlineAsm::is_memory_constraint(&input.constraint) {
                    continue;
                }
                let t = asm.input_type(k);
                self.expect(b, i, &input.value, t, ConstRule::Any, || {
                    (format!("input {k}:"), format!("its operand type is {t}"))
                });
            }
        }
    }

    fn check_terminator(&mut self, b: usize, n: usize, term: &Terminator) {
        match term {
            Terminator::Return(Some(op)) => {
                let rt = self.f.return_type;
                if rt == IrType::Void {
                    self.err_at(b, n, "returns a value from a void function".to_string());
                } else {
                    self.expect(b, n, op, rt, ConstRule::SameClass, || {
                        ("returned value".to_string(), format!("the function returns {rt}"))
                    });
                }
            }
            Terminator::CondBranch { cond, .. } => self.expect_int(b, n, "condition", cond),
            Terminator::IndirectBranch { target, .. } => self.expect(b, n, target, IrType::Ptr, ConstRule::Any, || {
                ("target".to_string(), "a pointer is expected".to_string())
            }),
            Terminator::Switch { val, cases, ty, .. } => {
                if !ty.is_int_or_ptr() {
                    self.err_at(b, n, format!("switch type {ty} is not an integer type"));
                    return;
                }
                self.expect_ty(b, n, "operand", val, *ty, ConstRule::SameClass);
                let bits = ty.bits();
                let mut seen: FxHashSet<u128> = FxHashSet::default();
                for &(v, target) in cases {
                    if !case_fits(v, bits) {
                        self.err_at(b, n, format!("case value {v} (to {target}) does not fit in {ty}"));
                    } else if !seen.insert((v as i128 as u128) & mask(bits)) {
                        self.err_at(b, n, format!("case value {v} (to {target}) appears twice"));
                    }
                }
            }
            Terminator::Return(None) | Terminator::Branch(_) | Terminator::Unreachable => {}
        }
    }
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// A case value fits a `bits`-wide type when it is that type's value read
/// signed or unsigned (constants carry no signedness).
fn case_fits(v: i64, bits: u32) -> bool {
    if bits >= 64 {
        return true;
    }
    let v = v as i128;
    v >= -(1i128 << (bits - 1)) && v < (1i128 << bits)
}
