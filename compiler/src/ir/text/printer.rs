//! Printer of the textual IR (grammar in docs/ir.md). Output is canonical:
//! one spelling per module, so `print(parse(print(m))) == print(m)`, and
//! complete: every field of every IR type is written whenever it differs from
//! the default the parser assumes when it is absent.

use super::lexer::is_symbol_char;
use crate::ir::constants::{f64_to_f128_bytes, IrConst};
use crate::ir::instruction::{BasicBlock, CallInfo, InlineAsm, Instruction, Operand, Terminator};
use crate::ir::module::{GlobalInit, IrFunction, IrGlobal, IrModule, IrParam};
use crate::ir::types::{AddressSpace, EightbyteClass, Hfa, IrType, RiscvFloatClass};
use std::fmt::Write;

/// `@name`, quoted as `@"..."` when the name has characters outside `[A-Za-z0-9_.$]`.
pub(super) fn symbol_text(name: &str) -> String {
    if !name.is_empty() && name.chars().all(is_symbol_char) {
        format!("@{name}")
    } else {
        format!("@{}", quoted(name.chars().map(|c| c as u32)))
    }
}

/// A bare word when `name` lexes as one identifier, else a string literal.
fn word_text(name: &str) -> String {
    let starts_ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if starts_ok && name.chars().all(is_symbol_char) && !matches!(name, "f32" | "f64" | "f128") {
        name.to_string()
    } else {
        quoted(name.chars().map(|c| c as u32))
    }
}

/// A string literal of code units: printable ASCII as is, `\n \t \\ \"`,
/// other units below 256 as `\xHH`, larger ones as `\u{H}`.
pub(super) fn quoted(units: impl IntoIterator<Item = u32>) -> String {
    let mut s = String::from("\"");
    for u in units {
        match u {
            0x22 => s.push_str("\\\""),
            0x5c => s.push_str("\\\\"),
            0x0a => s.push_str("\\n"),
            0x09 => s.push_str("\\t"),
            0x20..=0x7e => s.push(u as u8 as char),
            0..=0xff => {
                let _ = write!(s, "\\x{u:02x}");
            }
            _ => {
                let _ = write!(s, "\\u{{{u:x}}}");
            }
        }
    }
    s.push('"');
    s
}

fn str_lit(s: &str) -> String {
    quoted(s.chars().map(|c| c as u32))
}

/// A constant with its variant: `5i32`, `1.5f64`, `f64:0x7ff8000000000000`, `zero`.
pub(super) fn const_text(c: &IrConst) -> String {
    match *c {
        IrConst::I8(v) => format!("{v}i8"),
        IrConst::I16(v) => format!("{v}i16"),
        IrConst::I32(v) => format!("{v}i32"),
        IrConst::I64(v) => format!("{v}i64"),
        IrConst::I128(v) => format!("{v}i128"),
        IrConst::F32(v) if v.is_finite() => format!("{v:?}f32"),
        IrConst::F32(v) => format!("f32:0x{:08x}", v.to_bits()),
        IrConst::F64(v) if v.is_finite() => format!("{v:?}f64"),
        IrConst::F64(v) => format!("f64:0x{:016x}", v.to_bits()),
        IrConst::LongDouble(v, b) if v.is_finite() && b == f64_to_f128_bytes(v) => format!("{v:?}f128"),
        IrConst::LongDouble(v, b) => format!("f128:0x{:016x}:0x{:032x}", v.to_bits(), u128::from_le_bytes(b)),
        IrConst::Zero => "zero".into(),
    }
}

fn op(o: &Operand) -> String {
    match o {
        Operand::Value(v) => v.to_string(),
        Operand::Const(c) => const_text(c),
    }
}

fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(", ")
}

fn classes_text(classes: &[EightbyteClass]) -> String {
    format!("[{}]", list(classes, |c| c.name().to_string()))
}

fn fbits(double: bool) -> &'static str {
    if double {
        "f64"
    } else {
        "f32"
    }
}

pub(super) fn riscv_text(r: &RiscvFloatClass) -> String {
    match *r {
        RiscvFloatClass::OneFloat { is_double } => format!("onefloat({})", fbits(is_double)),
        RiscvFloatClass::TwoFloats { lo_double, hi_double } => {
            format!("twofloats({}, {})", fbits(lo_double), fbits(hi_double))
        }
        RiscvFloatClass::FloatInt {
            float_double,
            int_size,
            int_offset,
        } => format!(
            "floatint({}, size {int_size}, offset {int_offset})",
            fbits(float_double)
        ),
        RiscvFloatClass::IntFloat {
            int_size,
            float_double,
            float_offset,
        } => format!(
            "intfloat(size {int_size}, {}, offset {float_offset})",
            fbits(float_double)
        ),
    }
}

/// The struct-passing annotations of a parameter or call argument.
fn abi_annotations(
    size: Option<usize>,
    align: Option<usize>,
    classes: &[EightbyteClass],
    riscv: Option<&RiscvFloatClass>,
    hfa: Option<&Hfa>,
) -> String {
    let mut s = String::new();
    if let Some(n) = size {
        let _ = write!(s, " size {n}");
    }
    if let Some(n) = align {
        let _ = write!(s, " align {n}");
    }
    if !classes.is_empty() {
        let _ = write!(s, " classes {}", classes_text(classes));
    }
    if let Some(r) = riscv {
        let _ = write!(s, " riscv {}", riscv_text(r));
    }
    if let Some(h) = hfa {
        let _ = write!(s, " {}", hfa_text(h));
    }
    s
}

pub(super) fn hfa_text(h: &Hfa) -> String {
    format!("hfa({}, {})", h.base, h.count)
}

fn param_text(p: &IrParam) -> String {
    let annot = abi_annotations(
        p.struct_size,
        p.struct_align,
        &p.struct_eightbyte_classes,
        p.riscv_float_class.as_ref(),
        p.aarch64_hfa.as_ref(),
    );
    format!("{}{annot}", p.ty)
}

fn opt_usize(o: &Option<usize>) -> String {
    o.map_or("_".into(), |n| n.to_string())
}

/// How the four parallel struct-argument vectors of a call are written.
#[derive(PartialEq)]
enum StructArgs {
    /// All four empty: nothing printed.
    Empty,
    /// All four as long as the argument list: per-argument annotations.
    Parallel,
    /// Anything else: explicit call-level lists.
    Explicit,
}

fn struct_args_form(info: &CallInfo) -> StructArgs {
    let lens = [
        info.struct_arg_sizes.len(),
        info.struct_arg_aligns.len(),
        info.struct_arg_classes.len(),
        info.struct_arg_riscv_float_classes.len(),
        info.struct_arg_hfas.len(),
    ];
    if lens.iter().all(|&l| l == 0) {
        StructArgs::Empty
    } else if lens.iter().all(|&l| l == info.args.len()) {
        StructArgs::Parallel
    } else {
        StructArgs::Explicit
    }
}

/// `call RET CALLEE(ARGS) ATTRS`, without the `%d = ` prefix.
fn call_text(callee: &str, info: &CallInfo) -> String {
    let n = info.args.len();
    let typed = info.arg_types.len() == n;
    let form = struct_args_form(info);
    let ellipsis_at = (info.is_variadic && info.num_fixed_args <= n).then_some(info.num_fixed_args);
    let mut parts = Vec::new();
    let mut any_annotation = false;
    for (i, a) in info.args.iter().enumerate() {
        if ellipsis_at == Some(i) {
            parts.push("...".to_string());
        }
        let mut s = if typed {
            format!("{} {}", info.arg_types[i], op(a))
        } else {
            op(a)
        };
        if form == StructArgs::Parallel {
            let annot = abi_annotations(
                info.struct_arg_sizes[i],
                info.struct_arg_aligns[i],
                &info.struct_arg_classes[i],
                info.struct_arg_riscv_float_classes[i].as_ref(),
                info.struct_arg_hfas[i].as_ref(),
            );
            any_annotation |= !annot.is_empty();
            s.push_str(&annot);
        }
        parts.push(s);
    }
    if ellipsis_at == Some(n) {
        parts.push("...".to_string());
    }
    let mut s = format!("call {} {callee}({})", info.return_type, parts.join(", "));
    if !typed {
        let _ = write!(s, " argtypes({})", list(&info.arg_types, |t| t.to_string()));
    }
    let all_fixed = !info.is_variadic && info.num_fixed_args == n;
    if ellipsis_at.is_none() && !all_fixed {
        if info.is_variadic {
            s.push_str(" variadic");
        }
        let _ = write!(s, " fixedargs {}", info.num_fixed_args);
    }
    match form {
        StructArgs::Parallel if !any_annotation => s.push_str(" abi"),
        StructArgs::Explicit => {
            let _ = write!(s, " sizes [{}]", list(&info.struct_arg_sizes, opt_usize));
            let _ = write!(s, " aligns [{}]", list(&info.struct_arg_aligns, opt_usize));
            let _ = write!(
                s,
                " argclasses [{}]",
                list(&info.struct_arg_classes, |c| classes_text(c))
            );
            let riscv = list(&info.struct_arg_riscv_float_classes, |r| {
                r.as_ref().map_or("_".into(), riscv_text)
            });
            let _ = write!(s, " riscvclasses [{riscv}]");
            let hfas = list(&info.struct_arg_hfas, |h| h.as_ref().map_or("_".into(), hfa_text));
            let _ = write!(s, " hfas [{hfas}]");
        }
        _ => {}
    }
    if info.is_sret {
        s.push_str(" sret");
    }
    if info.is_fastcall {
        s.push_str(" fastcall");
    }
    if !info.ret_eightbyte_classes.is_empty() {
        let _ = write!(s, " retclasses {}", classes_text(&info.ret_eightbyte_classes));
    }
    s
}

fn seg_suffix(seg: AddressSpace) -> String {
    match seg {
        AddressSpace::Default => String::new(),
        other => format!(", seg {}", other.name()),
    }
}

fn asm_text(asm: &InlineAsm) -> String {
    let mut s = format!("asm {}", str_lit(&asm.template));
    let name = |n: &Option<String>| n.as_ref().map_or(String::new(), |n| format!("[{}] ", word_text(n)));
    if !asm.outputs.is_empty() {
        let outs = list(&asm.outputs, |o| {
            let star = if o.is_def { "" } else { "*" };
            format!("{}{} {star}{}", name(&o.name), str_lit(&o.constraint), o.value)
        });
        let _ = write!(s, " outputs({outs})");
    }
    if !asm.inputs.is_empty() {
        let ins = list(&asm.inputs, |i| {
            format!("{}{} {}", name(&i.name), str_lit(&i.constraint), op(&i.value))
        });
        let _ = write!(s, " inputs({ins})");
    }
    if !asm.clobbers.is_empty() {
        let _ = write!(s, " clobbers({})", list(&asm.clobbers, |c| str_lit(c)));
    }
    if !asm.operand_types.is_empty() {
        let _ = write!(s, " types({})", list(&asm.operand_types, |t| t.to_string()));
    }
    if !asm.goto_labels.is_empty() {
        let _ = write!(
            s,
            " goto({})",
            list(&asm.goto_labels, |(l, b)| format!("{} {b}", word_text(l)))
        );
    }
    if !asm.input_symbols.is_empty() {
        let syms = list(&asm.input_symbols, |o| {
            o.as_ref().map_or("_".into(), |n| symbol_text(n))
        });
        let _ = write!(s, " symbols({syms})");
    }
    if !asm.seg_overrides.is_empty() {
        let _ = write!(s, " segs({})", list(&asm.seg_overrides, |a| a.name().to_string()));
    }
    s
}

/// One instruction on one line, without indentation.
pub fn print_instruction(inst: &Instruction) -> String {
    use Instruction::*;
    match inst {
        Alloca {
            dest,
            ty,
            size,
            align,
            volatile,
        } => {
            let v = if *volatile { " volatile" } else { "" };
            format!("{dest} = alloca {ty}, size {size}, align {align}{v}")
        }
        DynAlloca { dest, size, align } => format!("{dest} = dynalloca {}, align {align}", op(size)),
        Load {
            dest,
            ptr,
            ty,
            seg_override,
        } => format!("{dest} = load {ty} {ptr}{}", seg_suffix(*seg_override)),
        Store {
            val,
            ptr,
            ty,
            seg_override,
        } => format!("store {ty} {}, {ptr}{}", op(val), seg_suffix(*seg_override)),
        Memcpy { dest, src, size } => format!("memcpy {dest}, {src}, size {size}"),
        GetElementPtr { dest, base, offset, ty } => format!("{dest} = gep {ty} {base}, {}", op(offset)),
        GlobalAddr { dest, name } => format!("{dest} = globaladdr {}", symbol_text(name)),
        StackSave { dest } => format!("{dest} = stacksave"),
        StackRestore { ptr } => format!("stackrestore {ptr}"),
        BinOp {
            dest,
            op: o,
            lhs,
            rhs,
            ty,
        } => format!("{dest} = {o} {ty} {}, {}", op(lhs), op(rhs)),
        UnaryOp { dest, op: o, src, ty } => format!("{dest} = {o} {ty} {}", op(src)),
        Cmp {
            dest,
            op: o,
            lhs,
            rhs,
            ty,
        } => format!("{dest} = cmp {o} {ty} {}, {}", op(lhs), op(rhs)),
        Cast {
            dest,
            src,
            from_ty,
            to_ty,
        } => format!("{dest} = cast {from_ty} -> {to_ty} {}", op(src)),
        Copy { dest, src } => format!("{dest} = copy {}", op(src)),
        Select {
            dest,
            cond,
            true_val,
            false_val,
            ty,
        } => format!("{dest} = select {ty} {}, {}, {}", op(cond), op(true_val), op(false_val)),
        Call { func, info } => with_dest(info.dest, call_text(&symbol_text(func), info)),
        CallIndirect { func_ptr, info } => with_dest(info.dest, call_text(&op(func_ptr), info)),
        VaStart { va_list_ptr } => format!("vastart {va_list_ptr}"),
        VaEnd { va_list_ptr } => format!("vaend {va_list_ptr}"),
        VaCopy { dest_ptr, src_ptr } => format!("vacopy {dest_ptr}, {src_ptr}"),
        VaArg {
            dest,
            va_list_ptr,
            result_ty,
        } => format!("{dest} = vaarg {result_ty} {va_list_ptr}"),
        VaArgStruct {
            dest_ptr,
            va_list_ptr,
            size,
            eightbyte_classes,
            hfa,
        } => {
            let mut s = format!("vaargstruct {dest_ptr}, {va_list_ptr}, size {size}");
            if !eightbyte_classes.is_empty() {
                let _ = write!(s, " classes {}", classes_text(eightbyte_classes));
            }
            if let Some(h) = hfa {
                let _ = write!(s, " {}", hfa_text(h));
            }
            s
        }
        AtomicRmw {
            dest,
            op: o,
            ptr,
            val,
            ordering,
            ty,
        } => format!("{dest} = atomicrmw {o} {ty} {ptr}, {}, {ordering}", op(val)),
        AtomicCmpxchg {
            dest,
            ptr,
            expected,
            desired,
            success_ordering,
            failure_ordering,
            ty,
            returns_bool,
        } => {
            let b = if *returns_bool { " bool" } else { "" };
            format!(
                "{dest} = cmpxchg {ty} {ptr}, {}, {}, {success_ordering}, {failure_ordering}{b}",
                op(expected),
                op(desired)
            )
        }
        AtomicLoad {
            dest,
            ptr,
            ordering,
            ty,
        } => format!("{dest} = atomicload {ty} {ptr}, {ordering}"),
        AtomicStore { ptr, val, ordering, ty } => format!("atomicstore {ty} {}, {ptr}, {ordering}", op(val)),
        Fence { ordering } => format!("fence {ordering}"),
        Phi { dest, ty, incoming } => {
            let mut s = format!("{dest} = phi {ty}");
            if !incoming.is_empty() {
                let _ = write!(s, " {}", list(incoming, |(o, b)| format!("[{}, {b}]", op(o))));
            }
            s
        }
        ParamRef { dest, param_idx, ty } => format!("{dest} = paramref {param_idx} {ty}"),
        GetReturnF64Second { dest } | GetReturnF32Second { dest } | GetReturnF128Second { dest } => {
            format!("{dest} = {}", inst.mnemonic())
        }
        SetReturnF64Second { src } | SetReturnF32Second { src } | SetReturnF128Second { src } => {
            format!("{} {}", inst.mnemonic(), op(src))
        }
        InlineAsm(asm) => asm_text(asm),
        Intrinsic {
            dest,
            op: o,
            dest_ptr,
            args,
        } => {
            let mut s = format!("intrinsic {}({})", o.name(), list(args, op));
            if let Some(p) = dest_ptr {
                let _ = write!(s, " destptr {p}");
            }
            with_dest(*dest, s)
        }
        LabelAddr { dest, label } => format!("{dest} = labeladdr {label}"),
    }
}

fn with_dest(dest: Option<crate::ir::instruction::Value>, body: String) -> String {
    match dest {
        Some(d) => format!("{d} = {body}"),
        None => body,
    }
}

/// One terminator on one line, without indentation.
pub fn print_terminator(term: &Terminator) -> String {
    match term {
        Terminator::Return(None) => "ret".into(),
        Terminator::Return(Some(o)) => format!("ret {}", op(o)),
        Terminator::Branch(b) => format!("br {b}"),
        Terminator::CondBranch {
            cond,
            true_label,
            false_label,
        } => format!("condbr {}, {true_label}, {false_label}", op(cond)),
        Terminator::IndirectBranch {
            target,
            possible_targets,
        } => format!(
            "indirectbr {}, [{}]",
            op(target),
            list(possible_targets, |b| b.to_string())
        ),
        Terminator::Switch {
            val,
            cases,
            default,
            ty,
        } => format!(
            "switch {ty} {}, default {default} [{}]",
            op(val),
            list(cases, |(v, b)| format!("{v}: {b}"))
        ),
        Terminator::Unreachable => "unreachable".into(),
    }
}

/// The `next_value_id` a function gets when its text has no `nextvalue`:
/// one more than the largest value id it mentions (0 when it mentions none,
/// or when that id is `u32::MAX`).
pub(super) fn default_next_value_id(f: &IrFunction) -> u32 {
    let mut max: Option<u32> = None;
    let mut see = |v: crate::ir::instruction::Value| max = Some(max.map_or(v.0, |m: u32| m.max(v.0)));
    for b in &f.blocks {
        for inst in &b.instructions {
            inst.for_each_def(&mut see);
            inst.for_each_used_value(&mut see);
        }
        b.terminator.for_each_used_value(&mut see);
    }
    f.param_alloca_values.iter().for_each(|v| see(*v));
    max.and_then(|m| m.checked_add(1)).unwrap_or(0)
}

fn function_header(f: &IrFunction) -> String {
    let mut params: Vec<String> = f.params.iter().map(param_text).collect();
    if f.is_variadic {
        params.push("...".into());
    }
    let kw = if f.is_declaration { "declare" } else { "define" };
    let mut s = format!(
        "{kw} {}({}) -> {}",
        symbol_text(&f.name),
        params.join(", "),
        f.return_type
    );
    let flags = [
        (f.is_static, "static"),
        (f.is_inline, "inline"),
        (f.is_always_inline, "alwaysinline"),
        (f.is_noinline, "noinline"),
        (f.is_gnu_inline_def, "gnuinline"),
        (f.is_weak, "weak"),
        (f.is_used, "used"),
        (f.is_fastcall, "fastcall"),
        (f.is_naked, "naked"),
        (f.uses_sret, "sret"),
        (f.has_inlined_calls, "inlinedcalls"),
    ];
    for (on, word) in flags {
        if on {
            s.push(' ');
            s.push_str(word);
        }
    }
    if let Some(sec) = &f.section {
        let _ = write!(s, " section {}", str_lit(sec));
    }
    if let Some(v) = &f.visibility {
        let _ = write!(s, " visibility {}", str_lit(v));
    }
    if !f.ret_eightbyte_classes.is_empty() {
        let _ = write!(s, " retclasses {}", classes_text(&f.ret_eightbyte_classes));
    }
    if !f.param_alloca_values.is_empty() {
        let _ = write!(s, " paramallocas [{}]", list(&f.param_alloca_values, |v| v.to_string()));
    }
    if !f.global_init_label_blocks.is_empty() {
        let _ = write!(
            s,
            " initlabels [{}]",
            list(&f.global_init_label_blocks, |b| b.to_string())
        );
    }
    if f.next_value_id != default_next_value_id(f) {
        let _ = write!(s, " nextvalue {}", f.next_value_id);
    }
    s
}

fn print_block(out: &mut String, b: &BasicBlock) {
    let _ = writeln!(out, "{}:", b.label);
    for inst in &b.instructions {
        let _ = writeln!(out, "  {}", print_instruction(inst));
    }
    let _ = writeln!(out, "  {}", print_terminator(&b.terminator));
}

/// A function definition or declaration, ending with a newline.
pub fn print_function(f: &IrFunction) -> String {
    let mut out = function_header(f);
    if f.is_declaration && f.blocks.is_empty() {
        out.push('\n');
        return out;
    }
    out.push_str(" {\n");
    for b in &f.blocks {
        print_block(&mut out, b);
    }
    out.push_str("}\n");
    out
}

fn init_text(init: &GlobalInit) -> String {
    match init {
        GlobalInit::Zero => "zero".into(),
        GlobalInit::Scalar(c) => format!("scalar {}", const_text(c)),
        GlobalInit::Array(cs) => format!("array [{}]", list(cs, const_text)),
        GlobalInit::String(s) => format!("string {}", str_lit(s)),
        GlobalInit::WideString(u) => format!("wstring {}", quoted(u.iter().copied())),
        GlobalInit::Char16String(u) => format!("string16 {}", quoted(u.iter().map(|&c| c as u32))),
        GlobalInit::GlobalAddr(n) => format!("addr {}", symbol_text(n)),
        GlobalInit::GlobalAddrOffset(n, off) => {
            let sign = if *off < 0 { '-' } else { '+' };
            format!("addr {} {sign} {}", symbol_text(n), off.unsigned_abs())
        }
        GlobalInit::Compound(items) => format!("compound {{{}}}", list(items, init_text)),
        GlobalInit::GlobalLabelDiff(a, b, size) => {
            format!("labeldiff {} - {} size {size}", symbol_text(a), symbol_text(b))
        }
    }
}

fn global_text(g: &IrGlobal) -> String {
    let mut s = format!(
        "global {}: {}, size {}, align {}",
        symbol_text(&g.name),
        g.ty,
        g.size,
        g.align
    );
    let flags = [
        (g.is_static, "static"),
        (g.is_extern, "extern"),
        (g.is_common, "common"),
        (g.is_weak, "weak"),
        (g.is_const, "const"),
        (g.is_thread_local, "threadlocal"),
        (g.is_used, "used"),
        (g.has_explicit_align, "explicitalign"),
    ];
    for (on, word) in flags {
        if on {
            s.push(' ');
            s.push_str(word);
        }
    }
    if let Some(sec) = &g.section {
        let _ = write!(s, " section {}", str_lit(sec));
    }
    if let Some(v) = &g.visibility {
        let _ = write!(s, " visibility {}", str_lit(v));
    }
    if g.init != GlobalInit::Zero {
        let _ = write!(s, " = {}", init_text(&g.init));
    }
    s
}

/// The whole module: top-level asm, symbol attributes, string literals,
/// globals, aliases, constructors and destructors, then functions.
pub fn print_module(m: &IrModule) -> String {
    let mut groups: Vec<Vec<String>> = Vec::new();
    groups.push(m.toplevel_asm.iter().map(|a| format!("asm {}", str_lit(a))).collect());
    groups.push(
        m.symbol_attrs
            .iter()
            .map(|(name, weak, vis)| {
                let mut s = format!("symbol {}", symbol_text(name));
                if *weak {
                    s.push_str(" weak");
                }
                if let Some(v) = vis {
                    let _ = write!(s, " visibility {}", str_lit(v));
                }
                s
            })
            .collect(),
    );
    let mut strings: Vec<String> = Vec::new();
    for (l, s) in &m.string_literals {
        strings.push(format!("string {} = {}", symbol_text(l), str_lit(s)));
    }
    for (l, u) in &m.wide_string_literals {
        strings.push(format!("wstring {} = {}", symbol_text(l), quoted(u.iter().copied())));
    }
    for (l, u) in &m.char16_string_literals {
        strings.push(format!(
            "string16 {} = {}",
            symbol_text(l),
            quoted(u.iter().map(|&c| c as u32))
        ));
    }
    groups.push(strings);
    groups.push(m.globals.iter().map(global_text).collect());
    let mut links: Vec<String> = Vec::new();
    for (a, t, weak) in &m.aliases {
        let w = if *weak { " weak" } else { "" };
        links.push(format!("alias {} = {}{w}", symbol_text(a), symbol_text(t)));
    }
    links.extend(m.constructors.iter().map(|c| format!("constructor {}", symbol_text(c))));
    links.extend(m.destructors.iter().map(|c| format!("destructor {}", symbol_text(c))));
    groups.push(links);
    let mut out = String::new();
    for g in groups.iter().filter(|g| !g.is_empty()) {
        if !out.is_empty() {
            out.push('\n');
        }
        for line in g {
            out.push_str(line);
            out.push('\n');
        }
    }
    for f in &m.functions {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&print_function(f));
    }
    out
}

/// `IrType` names as the parser reads them (re-exported for the parser).
pub(super) fn type_from_word(w: &str) -> Option<IrType> {
    IrType::from_name(w)
}
