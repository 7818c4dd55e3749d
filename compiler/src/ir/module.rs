//! Modules, functions, parameters and globals: `IrModule`, `IrFunction` with
//! its 23 fields, `IrParam`, `IrGlobal`, `GlobalInit`
//! (docs/ir-design.md#modules-functions-globals).

use super::constants::IrConst;
use super::instruction::{BasicBlock, BlockId, Value};
use super::types::{EightbyteClass, Hfa, IrType, RiscvFloatClass};

/// A translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IrModule {
    /// Definitions and declarations.
    pub functions: Vec<IrFunction>,
    pub globals: Vec<IrGlobal>,
    /// `(label, bytes-as-string)` pairs; the backend adds the terminating NUL.
    pub string_literals: Vec<(String, String)>,
    pub wide_string_literals: Vec<(String, Vec<u32>)>,
    pub char16_string_literals: Vec<(String, Vec<u16>)>,
    pub constructors: Vec<String>,
    pub destructors: Vec<String>,
    /// `(alias, target, is_weak)`.
    pub aliases: Vec<(String, String, bool)>,
    pub toplevel_asm: Vec<String>,
    /// `(name, is_weak, visibility)`.
    pub symbol_attrs: Vec<(String, bool, Option<String>)>,
}

impl IrModule {
    /// Runs `f` on every defined function and sums the change counts it returns.
    pub fn for_each_function(&mut self, mut f: impl FnMut(&mut IrFunction) -> usize) -> usize {
        self.functions
            .iter_mut()
            .filter(|func| !func.is_declaration)
            .map(&mut f)
            .sum()
    }

    pub fn function(&self, name: &str) -> Option<&IrFunction> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn global(&self, name: &str) -> Option<&IrGlobal> {
        self.globals.iter().find(|g| g.name == name)
    }

    /// One more than the largest block id of any function: the first free
    /// module-wide label (used for trampoline blocks).
    pub fn next_block_id(&self) -> u32 {
        self.functions
            .iter()
            .flat_map(|f| f.blocks.iter())
            .map(|b| b.label.0 + 1)
            .max()
            .unwrap_or(0)
    }
}

/// A function parameter with its ABI metadata.
///
/// A struct passed by value has `ty: Ptr` and `struct_size: Some(n)`: `ParamRef`
/// yields the address of a copy the callee owns. The classification fields say
/// how the target's calling convention passes it; lowering fills the one of the
/// target it compiles for (`struct_eightbyte_classes` on x86-64, `aarch64_hfa` on
/// AArch64, `riscv_float_class` on RISC-V), see `backend/mod.rs`.
///
/// When the function has `uses_sret`, `params[0]` is the hidden pointer to the
/// caller's result buffer and its struct fields describe the *returned* struct
/// (the target decides whether it really travels in memory or in registers).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IrParam {
    pub ty: IrType,
    pub struct_size: Option<usize>,
    pub struct_align: Option<usize>,
    pub struct_eightbyte_classes: Vec<EightbyteClass>,
    pub riscv_float_class: Option<RiscvFloatClass>,
    pub aarch64_hfa: Option<Hfa>,
}

impl IrParam {
    pub fn scalar(ty: IrType) -> IrParam {
        IrParam {
            ty,
            ..IrParam::default()
        }
    }
}

/// A function definition or declaration.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IrFunction {
    pub name: String,
    pub return_type: IrType,
    pub params: Vec<IrParam>,
    /// `blocks[0]` is the entry.
    pub blocks: Vec<BasicBlock>,
    pub is_variadic: bool,
    pub is_declaration: bool,
    pub is_static: bool,
    pub is_inline: bool,
    pub is_always_inline: bool,
    pub is_noinline: bool,
    /// Upper bound on value ids (all values are `< next_value_id`); 0 = unknown.
    pub next_value_id: u32,
    pub section: Option<String>,
    pub visibility: Option<String>,
    pub is_weak: bool,
    pub is_used: bool,
    pub is_fastcall: bool,
    pub is_naked: bool,
    pub has_inlined_calls: bool,
    pub param_alloca_values: Vec<Value>,
    pub uses_sret: bool,
    pub global_init_label_blocks: Vec<BlockId>,
    pub ret_eightbyte_classes: Vec<EightbyteClass>,
    pub is_gnu_inline_def: bool,
    /// `__attribute__((aligned(n)))` on the function: the code starts at a
    /// multiple of `n` (never below the backends' 16).
    pub align: Option<u64>,
}

impl IrFunction {
    pub fn new(name: impl Into<String>, return_type: IrType, params: Vec<IrParam>) -> IrFunction {
        IrFunction {
            name: name.into(),
            return_type,
            params,
            ..IrFunction::default()
        }
    }

    /// The largest value id used or defined in the function (0 when there is none).
    /// Uses the cached `next_value_id` when set, else scans.
    pub fn max_value_id(&self) -> u32 {
        if self.next_value_id > 0 {
            return self.next_value_id - 1;
        }
        self.scan_max_value_id()
    }

    /// Scan every instruction for the largest value id, ignoring the cache.
    pub fn scan_max_value_id(&self) -> u32 {
        let mut m = 0;
        for b in &self.blocks {
            for inst in &b.instructions {
                inst.for_each_def(|v| m = m.max(v.0));
                inst.for_each_used_value(|v| m = m.max(v.0));
            }
            b.terminator.for_each_used_value(|v| m = m.max(v.0));
        }
        for v in &self.param_alloca_values {
            m = m.max(v.0);
        }
        m
    }

    /// A fresh value id, bumping `next_value_id` (computing it first if unknown).
    pub fn fresh_value(&mut self) -> Value {
        if self.next_value_id == 0 {
            self.next_value_id = self.scan_max_value_id() + 1;
        }
        let v = Value(self.next_value_id);
        self.next_value_id += 1;
        v
    }

    pub fn block_index(&self, id: BlockId) -> Option<usize> {
        self.blocks.iter().position(|b| b.label == id)
    }

    pub fn num_instructions(&self) -> usize {
        self.blocks.iter().map(|b| b.instructions.len() + 1).sum()
    }
}

/// A global variable.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IrGlobal {
    pub name: String,
    /// Element type.
    pub ty: IrType,
    /// Size in bytes.
    pub size: usize,
    pub align: usize,
    pub init: GlobalInit,
    pub is_static: bool,
    pub is_extern: bool,
    pub is_common: bool,
    pub is_weak: bool,
    pub section: Option<String>,
    pub is_const: bool,
    pub is_thread_local: bool,
    pub visibility: Option<String>,
    pub is_used: bool,
    pub has_explicit_align: bool,
}

/// The initializer of a global.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum GlobalInit {
    #[default]
    Zero,
    Scalar(IrConst),
    /// Elements of the global's `ty`.
    Array(Vec<IrConst>),
    /// Bytes of a string (chars are bytes 0..=255); a NUL is appended.
    String(String),
    WideString(Vec<u32>),
    Char16String(Vec<u16>),
    GlobalAddr(String),
    GlobalAddrOffset(String, i64),
    Compound(Vec<GlobalInit>),
    /// `label1 - label2` as an integer of `byte_size` bytes.
    GlobalLabelDiff(String, String, usize),
}

impl GlobalInit {
    /// Visit every symbol (global or label) name the initializer refers to.
    pub fn for_each_ref(&self, f: &mut impl FnMut(&str)) {
        match self {
            GlobalInit::GlobalAddr(n) | GlobalInit::GlobalAddrOffset(n, _) => f(n),
            GlobalInit::GlobalLabelDiff(a, b, _) => {
                f(a);
                f(b)
            }
            GlobalInit::Compound(items) => items.iter().for_each(|i| i.for_each_ref(f)),
            _ => {}
        }
    }

    /// Size of this element inside a compound initializer, with `elem` the
    /// size of one scalar element of the enclosing global.
    pub fn byte_size(&self, elem: usize) -> usize {
        match self {
            GlobalInit::Zero => elem,
            GlobalInit::Scalar(_) => elem,
            GlobalInit::Array(v) => v.len() * elem,
            GlobalInit::String(s) => s.chars().count(),
            GlobalInit::WideString(v) => v.len() * 4,
            GlobalInit::Char16String(v) => v.len() * 2,
            GlobalInit::GlobalAddr(_) | GlobalInit::GlobalAddrOffset(..) => 8,
            GlobalInit::Compound(items) => items.iter().map(|i| i.byte_size(elem)).sum(),
            GlobalInit::GlobalLabelDiff(_, _, n) => *n,
        }
    }

    /// Bytes emitted for this initializer, counting the NUL of string variants.
    pub fn emitted_byte_size(&self, elem: usize) -> usize {
        match self {
            GlobalInit::String(s) => s.chars().count() + 1,
            GlobalInit::WideString(v) => (v.len() + 1) * 4,
            GlobalInit::Char16String(v) => (v.len() + 1) * 2,
            GlobalInit::Compound(items) => items.iter().map(|i| i.emitted_byte_size(elem)).sum(),
            other => other.byte_size(elem),
        }
    }
}
