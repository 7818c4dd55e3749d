//! Random IR modules for the text round-trip tests: every instruction,
//! terminator, attribute, ABI annotation and global initializer, with hostile
//! names, strings and constants. The modules are NOT semantically valid IR
//! (values and blocks are random); they only have to be representable, i.e.
//! block labels are unique within a function.

#![allow(dead_code)]

use phicc::ir::reexports::*;

/// SplitMix64: small, seedable, good enough for test generation.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
    pub fn vec<T>(&mut self, max: usize, mut f: impl FnMut(&mut Rng) -> T) -> Vec<T> {
        let n = self.below(max + 1);
        (0..n).map(|_| f(self)).collect()
    }
    pub fn opt<T>(&mut self, percent: u64, f: impl FnOnce(&mut Rng) -> T) -> Option<T> {
        if self.chance(percent) {
            Some(f(self))
        } else {
            None
        }
    }
}

/// Characters that stress quoting and escaping.
const NASTY: &[char] = &[
    'a',
    'Z',
    '_',
    '.',
    '$',
    '0',
    '9',
    ' ',
    '"',
    '\\',
    '\n',
    '\t',
    '\r',
    '\0',
    ';',
    '@',
    '%',
    '{',
    '}',
    ',',
    '\u{7f}',
    '\u{80}',
    '\u{ff}',
    '\u{100}',
    'é',
    '\u{2028}',
    '\u{fffd}',
    '\u{10ffff}',
    '\u{1f600}',
];

/// A name: usually a plain identifier, sometimes anything (possibly empty).
pub fn name(r: &mut Rng) -> String {
    if r.chance(75) {
        let stems = [
            "main", "f", "printf", ".str0", "g$1", "x.y_z", "0", "bb3", "zero", "i32", "f64", "define",
        ];
        let mut s = r.pick(&stems).to_string();
        if r.chance(50) {
            s.push_str(&r.below(1000).to_string());
        }
        s
    } else {
        text(r, 8)
    }
}

pub fn text(r: &mut Rng, max: usize) -> String {
    (0..r.below(max + 1))
        .map(|_| {
            if r.chance(80) {
                r.pick(NASTY)
            } else {
                char::from_u32(r.below(0x11_0000) as u32).unwrap_or('?')
            }
        })
        .collect()
}

pub fn value(r: &mut Rng) -> Value {
    Value(match r.below(10) {
        0 => u32::MAX,
        1 => r.next_u64() as u32,
        _ => r.below(40) as u32,
    })
}

pub fn ty(r: &mut Rng) -> IrType {
    r.pick(&IrType::ALL)
}

fn f64_special(r: &mut Rng) -> f64 {
    match r.below(12) {
        0 => f64::NAN,
        1 => f64::from_bits(0x7ff0_0000_0000_0001 | r.next_u64() >> 13), // NaN with payload
        2 => -f64::NAN,
        3 => f64::INFINITY,
        4 => f64::NEG_INFINITY,
        5 => -0.0,
        6 => f64::from_bits(1), // smallest subnormal
        7 => f64::MAX,
        8 => f64::from_bits(r.next_u64()),
        9 => 0.1,
        _ => (r.next_u64() % 2000) as f64 / 8.0 - 100.0,
    }
}

pub fn constant(r: &mut Rng) -> IrConst {
    match r.below(9) {
        0 => IrConst::I8(r.next_u64() as i8),
        1 => IrConst::I16(r.next_u64() as i16),
        2 => IrConst::I32(if r.chance(50) {
            r.below(100) as i32
        } else {
            r.next_u64() as i32
        }),
        3 => {
            let x = r.next_u64() as i64;
            IrConst::I64(r.pick(&[0, -1, i64::MIN, i64::MAX, x]))
        }
        4 => {
            let x = ((r.next_u64() as i128) << 64) | r.next_u64() as i128;
            IrConst::I128(r.pick(&[i128::MIN, i128::MAX, -1, x]))
        }
        5 => IrConst::F32(if r.chance(50) {
            f64_special(r) as f32
        } else {
            f32::from_bits(r.next_u64() as u32)
        }),
        6 => IrConst::F64(f64_special(r)),
        7 => {
            let v = f64_special(r);
            if r.chance(50) {
                IrConst::long_double(v)
            } else {
                let bytes = ((r.next_u64() as u128) << 64 | r.next_u64() as u128).to_le_bytes();
                IrConst::LongDouble(v, bytes)
            }
        }
        _ => IrConst::Zero,
    }
}

pub fn operand(r: &mut Rng) -> Operand {
    if r.chance(60) {
        Operand::Value(value(r))
    } else {
        Operand::Const(constant(r))
    }
}

fn class(r: &mut Rng) -> EightbyteClass {
    r.pick(&[
        EightbyteClass::NoClass,
        EightbyteClass::Integer,
        EightbyteClass::Sse,
        EightbyteClass::Memory,
    ])
}

fn hfa(r: &mut Rng) -> Hfa {
    Hfa {
        base: r.pick(&[IrType::F32, IrType::F64, IrType::F128]),
        count: r.next_u64() as u8,
    }
}

fn riscv(r: &mut Rng) -> RiscvFloatClass {
    let b = |r: &mut Rng| r.chance(50);
    match r.below(4) {
        0 => RiscvFloatClass::OneFloat { is_double: b(r) },
        1 => RiscvFloatClass::TwoFloats {
            lo_double: b(r),
            hi_double: b(r),
        },
        2 => RiscvFloatClass::FloatInt {
            float_double: b(r),
            int_size: r.next_u64() as u8,
            int_offset: r.next_u64() as u8,
        },
        _ => RiscvFloatClass::IntFloat {
            int_size: r.next_u64() as u8,
            float_double: b(r),
            float_offset: r.next_u64() as u8,
        },
    }
}

fn small_usize(r: &mut Rng) -> usize {
    if r.chance(5) {
        usize::MAX
    } else {
        r.below(64)
    }
}

/// Block ids for one function: unique, in random order, sometimes huge.
pub fn block_ids(r: &mut Rng, n: usize) -> Vec<BlockId> {
    let mut ids: Vec<u32> = Vec::new();
    while ids.len() < n {
        let id = if r.chance(10) {
            u32::MAX - r.below(3) as u32
        } else {
            r.below(3 * n + 2) as u32
        };
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if r.chance(70) {
        ids.sort_unstable();
    }
    ids.into_iter().map(BlockId).collect()
}

fn block(r: &mut Rng, ids: &[BlockId]) -> BlockId {
    if ids.is_empty() || r.chance(5) {
        BlockId(r.next_u64() as u32) // a dangling reference is fine for the parser
    } else {
        r.pick(ids)
    }
}

fn call_info(r: &mut Rng, dest: bool) -> CallInfo {
    let args = r.vec(5, operand);
    let n = args.len();
    let arg_types = if r.chance(90) {
        (0..n).map(|_| ty(r)).collect()
    } else {
        r.vec(4, ty)
    };
    let (is_variadic, num_fixed_args) = match r.below(4) {
        0 => (true, r.below(n + 1)),
        1 => (r.chance(50), r.below(8)),
        _ => (false, n),
    };
    let mut info = CallInfo {
        dest: dest.then(|| value(r)),
        args,
        arg_types,
        return_type: ty(r),
        is_variadic,
        num_fixed_args,
        is_sret: r.chance(10),
        is_fastcall: r.chance(10),
        ret_eightbyte_classes: if r.chance(20) { r.vec(3, class) } else { Vec::new() },
        ..CallInfo::default()
    };
    match r.below(4) {
        0 | 1 => {}
        2 => {
            // Parallel: one entry per argument, often None.
            info.struct_arg_sizes = (0..n).map(|_| r.opt(30, small_usize)).collect();
            info.struct_arg_aligns = (0..n).map(|_| r.opt(30, small_usize)).collect();
            info.struct_arg_classes = (0..n)
                .map(|_| if r.chance(30) { r.vec(3, class) } else { vec![] })
                .collect();
            info.struct_arg_riscv_float_classes = (0..n).map(|_| r.opt(30, riscv)).collect();
            info.struct_arg_hfas = (0..n).map(|_| r.opt(30, hfa)).collect();
        }
        _ => {
            // Irregular lengths.
            info.struct_arg_sizes = r.vec(3, |r| r.opt(50, small_usize));
            info.struct_arg_aligns = r.vec(3, |r| r.opt(50, small_usize));
            info.struct_arg_classes = r.vec(3, |r| r.vec(2, class));
            info.struct_arg_riscv_float_classes = r.vec(3, |r| r.opt(50, riscv));
            info.struct_arg_hfas = r.vec(3, |r| r.opt(50, hfa));
        }
    }
    info
}

fn inline_asm(r: &mut Rng, ids: &[BlockId]) -> InlineAsm {
    let constraints = ["=r", "+r", "=&r", "=m", "r", "i", "m", "0", "=@ccz", "\"q\\"];
    let outputs = r.vec(3, |r| AsmOutput {
        constraint: r.pick(&constraints).to_string(),
        value: value(r),
        name: r.opt(30, name),
        is_def: r.chance(50),
    });
    let inputs = r.vec(3, |r| AsmInput {
        constraint: r.pick(&constraints).to_string(),
        value: operand(r),
        name: r.opt(30, name),
    });
    InlineAsm {
        template: if r.chance(50) {
            "mov %1, %0\n\tjmp %l2".into()
        } else {
            text(r, 12)
        },
        operand_types: r.vec(5, ty),
        clobbers: r.vec(3, |r| r.pick(&["memory", "cc", "rax", ""]).to_string()),
        goto_labels: r.vec(3, |r| (name(r), block(r, ids))),
        input_symbols: if r.chance(30) {
            r.vec(3, |r| r.opt(50, name))
        } else {
            Vec::new()
        },
        seg_overrides: if r.chance(20) {
            r.vec(3, |r| {
                r.pick(&[AddressSpace::Default, AddressSpace::SegGs, AddressSpace::SegFs])
            })
        } else {
            Vec::new()
        },
        outputs,
        inputs,
    }
}

fn ordering(r: &mut Rng) -> AtomicOrdering {
    r.pick(AtomicOrdering::ALL)
}

fn seg(r: &mut Rng) -> AddressSpace {
    r.pick(&[
        AddressSpace::Default,
        AddressSpace::Default,
        AddressSpace::SegGs,
        AddressSpace::SegFs,
    ])
}

/// Number of instruction kinds `instruction` draws from (all 38).
pub const INSTRUCTION_KINDS: usize = 38;

/// Instruction number `kind` (0..38) with random fields.
pub fn instruction(r: &mut Rng, kind: usize, ids: &[BlockId]) -> Instruction {
    use Instruction::*;
    let d = value(r);
    match kind {
        0 => Alloca {
            dest: d,
            ty: ty(r),
            size: small_usize(r),
            align: r.below(17),
            volatile: r.chance(30),
        },
        1 => DynAlloca {
            dest: d,
            size: operand(r),
            align: r.below(17),
        },
        2 => Load {
            dest: d,
            ptr: value(r),
            ty: ty(r),
            seg_override: seg(r),
        },
        3 => Store {
            val: operand(r),
            ptr: value(r),
            ty: ty(r),
            seg_override: seg(r),
        },
        4 => Memcpy {
            dest: d,
            src: value(r),
            size: small_usize(r),
        },
        5 => GetElementPtr {
            dest: d,
            base: value(r),
            offset: operand(r),
            ty: ty(r),
        },
        6 => GlobalAddr { dest: d, name: name(r) },
        7 => StackSave { dest: d },
        8 => StackRestore { ptr: d },
        9 => BinOp {
            dest: d,
            op: r.pick(IrBinOp::ALL),
            lhs: operand(r),
            rhs: operand(r),
            ty: ty(r),
        },
        10 => UnaryOp {
            dest: d,
            op: r.pick(IrUnaryOp::ALL),
            src: operand(r),
            ty: ty(r),
        },
        11 => Cmp {
            dest: d,
            op: r.pick(IrCmpOp::ALL),
            lhs: operand(r),
            rhs: operand(r),
            ty: ty(r),
        },
        12 => Cast {
            dest: d,
            src: operand(r),
            from_ty: ty(r),
            to_ty: ty(r),
        },
        13 => Copy {
            dest: d,
            src: operand(r),
        },
        14 => Select {
            dest: d,
            cond: operand(r),
            true_val: operand(r),
            false_val: operand(r),
            ty: ty(r),
        },
        15 => {
            let has_dest = r.chance(70);
            Call {
                func: name(r),
                info: Box::new(call_info(r, has_dest)),
            }
        }
        16 => {
            let has_dest = r.chance(70);
            CallIndirect {
                func_ptr: operand(r),
                info: Box::new(call_info(r, has_dest)),
            }
        }
        17 => VaStart { va_list_ptr: d },
        18 => VaEnd { va_list_ptr: d },
        19 => VaCopy {
            dest_ptr: d,
            src_ptr: value(r),
        },
        20 => VaArg {
            dest: d,
            va_list_ptr: value(r),
            result_ty: ty(r),
        },
        21 => VaArgStruct {
            dest_ptr: d,
            va_list_ptr: value(r),
            size: small_usize(r),
            eightbyte_classes: r.vec(3, class),
            hfa: r.opt(50, hfa),
        },
        22 => AtomicRmw {
            dest: d,
            op: r.pick(AtomicRmwOp::ALL),
            ptr: value(r),
            val: operand(r),
            ordering: ordering(r),
            ty: ty(r),
        },
        23 => AtomicCmpxchg {
            dest: d,
            ptr: value(r),
            expected: operand(r),
            desired: operand(r),
            success_ordering: ordering(r),
            failure_ordering: ordering(r),
            ty: ty(r),
            returns_bool: r.chance(50),
        },
        24 => AtomicLoad {
            dest: d,
            ptr: value(r),
            ordering: ordering(r),
            ty: ty(r),
        },
        25 => AtomicStore {
            ptr: d,
            val: operand(r),
            ordering: ordering(r),
            ty: ty(r),
        },
        26 => Fence { ordering: ordering(r) },
        27 => Phi {
            dest: d,
            ty: ty(r),
            incoming: r.vec(4, |r| (operand(r), block(r, ids))),
        },
        28 => ParamRef {
            dest: d,
            param_idx: small_usize(r),
            ty: ty(r),
        },
        29 => GetReturnF64Second { dest: d },
        30 => SetReturnF64Second { src: operand(r) },
        31 => GetReturnF32Second { dest: d },
        32 => SetReturnF32Second { src: operand(r) },
        33 => GetReturnF128Second { dest: d },
        34 => SetReturnF128Second { src: operand(r) },
        35 => InlineAsm(Box::new(inline_asm(r, ids))),
        36 => Intrinsic {
            dest: r.opt(50, value),
            op: r.pick(IntrinsicOp::ALL),
            dest_ptr: r.opt(30, value),
            args: r.vec(3, operand),
        },
        _ => LabelAddr {
            dest: d,
            label: block(r, ids),
        },
    }
}

/// Number of terminator kinds (all 6).
pub const TERMINATOR_KINDS: usize = 6;

pub fn terminator(r: &mut Rng, kind: usize, ids: &[BlockId]) -> Terminator {
    match kind {
        0 => Terminator::Return(r.opt(60, operand)),
        1 => Terminator::Branch(block(r, ids)),
        2 => Terminator::CondBranch {
            cond: operand(r),
            true_label: block(r, ids),
            false_label: block(r, ids),
        },
        3 => Terminator::IndirectBranch {
            target: operand(r),
            possible_targets: r.vec(4, |r| block(r, ids)),
        },
        4 => Terminator::Switch {
            val: operand(r),
            cases: r.vec(5, |r| {
                let small = r.below(10) as i64;
                let v = r.pick(&[i64::MIN, i64::MAX, -1, 0, small]);
                (v, block(r, ids))
            }),
            default: block(r, ids),
            ty: ty(r),
        },
        _ => Terminator::Unreachable,
    }
}

fn param(r: &mut Rng) -> IrParam {
    if r.chance(70) {
        return IrParam::scalar(ty(r));
    }
    IrParam {
        ty: ty(r),
        struct_size: r.opt(50, small_usize),
        struct_align: r.opt(50, small_usize),
        struct_eightbyte_classes: r.vec(3, class),
        riscv_float_class: r.opt(50, riscv),
        aarch64_hfa: r.opt(50, hfa),
    }
}

pub fn function(r: &mut Rng) -> IrFunction {
    let nblocks = if r.chance(15) { 0 } else { 1 + r.below(5) };
    let ids = block_ids(r, nblocks);
    let mut f = IrFunction::new(name(r), ty(r), r.vec(4, param));
    f.is_declaration = if nblocks == 0 { r.chance(80) } else { r.chance(3) };
    for &label in &ids {
        let n = if r.chance(20) { 0 } else { r.below(6) };
        let instructions = (0..n)
            .map(|_| {
                let kind = r.below(INSTRUCTION_KINDS);
                instruction(r, kind, &ids)
            })
            .collect();
        let kind = r.below(TERMINATOR_KINDS);
        let terminator = terminator(r, kind, &ids);
        f.blocks.push(BasicBlock {
            label,
            instructions,
            terminator,
        });
    }
    let flag = |r: &mut Rng| r.chance(8);
    f.is_variadic = flag(r);
    f.is_static = flag(r);
    f.is_inline = flag(r);
    f.is_always_inline = flag(r);
    f.is_noinline = flag(r);
    f.is_weak = flag(r);
    f.is_used = flag(r);
    f.is_fastcall = flag(r);
    f.is_naked = flag(r);
    f.has_inlined_calls = flag(r);
    f.uses_sret = flag(r);
    f.is_gnu_inline_def = flag(r);
    f.section = r.opt(8, |r| text(r, 6));
    f.visibility = r.opt(8, |r| {
        r.pick(&["hidden", "protected", "default", "odd \"one\""]).to_string()
    });
    f.param_alloca_values = if r.chance(10) { r.vec(3, value) } else { Vec::new() };
    f.global_init_label_blocks = if r.chance(10) {
        r.vec(3, |r| block(r, &ids))
    } else {
        Vec::new()
    };
    f.ret_eightbyte_classes = if r.chance(10) { r.vec(3, class) } else { Vec::new() };
    f.next_value_id = match r.below(4) {
        0 => 0,
        1 => r.next_u64() as u32,
        _ => f.scan_max_value_id().wrapping_add(1), // usually printed as nothing
    };
    f
}

fn init(r: &mut Rng, depth: usize) -> GlobalInit {
    let n = if depth >= 3 { 9 } else { 10 };
    match r.below(n) {
        0 => GlobalInit::Zero,
        1 => GlobalInit::Scalar(constant(r)),
        2 => GlobalInit::Array(r.vec(4, constant)),
        3 => GlobalInit::String(text(r, 10)),
        4 => GlobalInit::WideString(r.vec(4, |r| r.pick(&[0, 0x41, 0xff, 0xd800, 0x10ffff, u32::MAX]))),
        5 => GlobalInit::Char16String(r.vec(4, |r| r.pick(&[0, 0x41, 0xff, 0xd800, 0xffff]))),
        6 => GlobalInit::GlobalAddr(name(r)),
        7 => GlobalInit::GlobalAddrOffset(name(r), r.pick(&[0, -8, 16, i64::MIN, i64::MAX])),
        8 => GlobalInit::GlobalLabelDiff(name(r), name(r), r.pick(&[4, 8, usize::MAX])),
        _ => GlobalInit::Compound(r.vec(4, |r| init(r, depth + 1))),
    }
}

fn global(r: &mut Rng) -> IrGlobal {
    let flag = |r: &mut Rng| r.chance(10);
    IrGlobal {
        name: name(r),
        ty: ty(r),
        size: small_usize(r),
        align: r.below(17),
        init: init(r, 0),
        is_static: flag(r),
        is_extern: flag(r),
        is_common: flag(r),
        is_weak: flag(r),
        section: r.opt(10, |r| text(r, 6)),
        is_const: flag(r),
        is_thread_local: flag(r),
        visibility: r.opt(10, |r| text(r, 6)),
        is_used: flag(r),
        has_explicit_align: flag(r),
    }
}

pub fn module(r: &mut Rng) -> IrModule {
    IrModule {
        functions: r.vec(4, function),
        globals: r.vec(3, global),
        string_literals: r.vec(2, |r| (name(r), text(r, 10))),
        wide_string_literals: r.vec(2, |r| (name(r), r.vec(4, |r| r.next_u64() as u32))),
        char16_string_literals: r.vec(2, |r| (name(r), r.vec(4, |r| r.next_u64() as u16))),
        constructors: r.vec(2, name),
        destructors: r.vec(2, name),
        aliases: r.vec(2, |r| (name(r), name(r), r.chance(50))),
        toplevel_asm: r.vec(2, |r| text(r, 10)),
        symbol_attrs: r.vec(2, |r| (name(r), r.chance(50), r.opt(50, |r| text(r, 5)))),
    }
}
