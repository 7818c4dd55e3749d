//! The fetch-execute loop: frames with per-value slots, parallel phis on
//! block entry, every instruction and terminator, casts, fuel, and the final
//! outcome. Calls, events and variadics are in [`super::calls`] and
//! [`super::libc`]; inline asm is in [`super::schedule`].
//!
//! The loop keeps the current frame outside the caller stack so that value
//! reads are one bounds-checked index; every label and name was resolved by
//! [`super::prepare`] before the run.

use super::memory::{self, decode, Memory, Place, FRAMEADDR_SLOT, FRAME_TAG_BITS, STACKSAVE_SLOT};
use super::prepare::{Aux, PBlock, PFunc, Prepared};
use super::schedule::Schedule;
use super::{Event, Outcome, RunConfig, RunResult, TrapKind};
use crate::ir::constants::{zext, IrConst};
use crate::ir::instruction::{BasicBlock, BlockId, Instruction, Operand, Terminator, Value};
use crate::ir::intrinsics::IntrinsicOp;
use crate::ir::module::IrModule;
use crate::ir::ops::{IrBinOp, IrUnaryOp};
use crate::ir::types::IrType;

/// Deepest call nesting before a `StackOverflow` trap.
pub(super) const MAX_CALL_DEPTH: usize = 2000;
/// Largest value id a function may use.
const MAX_VALUES: usize = 1 << 22;

/// Why the loop stopped early.
#[derive(Debug)]
pub(super) enum Stop {
    Trap(TrapKind),
    Exit(i32),
    OutOfFuel,
}

impl From<TrapKind> for Stop {
    fn from(t: TrapKind) -> Stop {
        Stop::Trap(t)
    }
}

pub(super) type Res<T> = Result<T, Stop>;

/// One value slot of a frame.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Slot {
    pub bits: u128,
    pub def: bool,
}

/// An activation of an interpreted function.
#[derive(Debug, Default)]
pub(super) struct Frame {
    pub func: u32,
    pub block: u32,
    pub ip: u32,
    /// Label of the block control came from (for phis).
    pub pred: Option<BlockId>,
    pub values: Vec<Slot>,
    pub args: Vec<u128>,
    /// Where the caller wants the result, and at which type.
    pub ret_dest: Option<Value>,
    pub ret_ty: IrType,
    /// Second return register set by `SetReturn*Second` in this frame.
    pub ret2: Option<u128>,
    /// Second return register of the last call this frame made.
    pub last_ret2: Option<u128>,
    /// Frame tag (addresses of its allocas).
    pub tag: u32,
}

/// What to do after an instruction.
pub(super) enum Flow {
    Next,
    /// Go to block index (from the current block).
    Jump(u32),
    /// The current frame changed (call or return).
    Switched,
    /// The entry function returned.
    Finished(Option<u128>),
}

/// The raw bits of `bits` as a canonical value of type `ty`: integers and
/// pointers zero-extended from their width, `f32` in the low 32 bits, `f64`
/// and `f128` (folded through `f64`) in the low 64 bits.
#[inline]
pub(super) fn canon(bits: u128, ty: IrType) -> u128 {
    match ty {
        IrType::F128 => bits as u64 as u128,
        IrType::Void => bits,
        t => zext(bits, t.bits()),
    }
}

pub(super) struct Machine<'m> {
    pub cur: Frame,
    pub callers: Vec<Frame>,
    pub mem: Memory,
    pub fuel: u64,
    pub steps: u64,
    pub schedule: Schedule,
    pub events: Vec<Event>,
    pub event_state: u64,
    pub stdout: Vec<u8>,
    pub calls: u64,
    pub value_pool: Vec<Vec<Slot>>,
    pub phi_scratch: Vec<u128>,
    _module: std::marker::PhantomData<&'m IrModule>,
}

impl<'m> Machine<'m> {
    /// Run `cfg` on a module prepared once by [`Prepared::new`] (every run
    /// starts from fresh memory, so runs of one `Prepared` are independent).
    pub fn run(p: &Prepared<'m>, cfg: &RunConfig) -> (Outcome, u64) {
        let module = p.module;
        let mut m = Machine {
            cur: Frame::default(),
            callers: Vec::new(),
            mem: Memory::default(),
            fuel: cfg.fuel,
            steps: 0,
            schedule: Schedule::new(cfg.schedule_seed),
            events: Vec::new(),
            event_state: 0,
            stdout: Vec::new(),
            calls: 0,
            value_pool: Vec::new(),
            phi_scratch: Vec::new(),
            _module: std::marker::PhantomData,
        };
        let result = match m.start(p, cfg).and_then(|()| m.execute(p)) {
            Ok(v) => RunResult::Returned(v),
            Err(Stop::Trap(t)) => RunResult::Trap(t),
            Err(Stop::Exit(s)) => RunResult::Exited(s),
            Err(Stop::OutOfFuel) => RunResult::OutOfFuel,
        };
        let globals = module
            .globals
            .iter()
            .enumerate()
            .filter(|(_, g)| !g.is_extern)
            .map(|(i, g)| {
                let bytes = m
                    .mem
                    .globals
                    .get(i)
                    .map(|&o| m.mem.object_bytes(o).to_vec())
                    .unwrap_or_default();
                (g.name.clone(), bytes)
            })
            .collect();
        let outcome = Outcome {
            result,
            events: m.events,
            stdout: m.stdout,
            globals,
        };
        (outcome, m.steps)
    }

    /// Lay out globals and literals, then enter the entry function.
    fn start(&mut self, p: &Prepared<'m>, cfg: &RunConfig) -> Res<()> {
        for g in &p.module.globals {
            if g.size > memory::MAX_HEAP_BLOCK {
                return Err(TrapKind::Unsupported(format!("global @{} is too large", g.name)).into());
            }
            let bytes = if g.is_extern {
                let stream = match g.name.as_str() {
                    "stdin" => Some(0),
                    "stdout" => Some(1),
                    "stderr" => Some(2),
                    _ => None,
                };
                let mut b = vec![0u8; g.size.max(8)];
                if let Some(s) = stream {
                    b[..8].copy_from_slice(&memory::file_addr(s).to_le_bytes());
                }
                b
            } else {
                p.global_bytes(g)
            };
            let o = self.mem.new_global(bytes, false)?;
            self.mem.globals.push(o);
        }
        for (_, bytes) in &p.literals {
            let o = self.mem.new_global(bytes.clone(), true)?;
            self.mem.strings.push(o);
        }
        let Some(&fi) = p.by_name.get(cfg.entry.as_str()) else {
            return Err(TrapKind::Unsupported(format!("no function @{}", cfg.entry)).into());
        };
        let f = &p.module.functions[fi as usize];
        if f.blocks.is_empty() || f.is_declaration {
            return Err(TrapKind::Unsupported(format!("@{} is not defined", cfg.entry)).into());
        }
        let args: Vec<u128> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, prm)| canon(cfg.args.get(i).copied().unwrap_or(0), prm.ty))
            .collect();
        self.push_frame(p, fi, args, None, f.return_type)?;
        Ok(())
    }

    #[inline]
    pub fn burn(&mut self) -> Res<()> {
        if self.fuel == 0 {
            return Err(Stop::OutOfFuel);
        }
        self.fuel -= 1;
        self.steps += 1;
        Ok(())
    }

    #[inline]
    pub fn val(&self, v: Value) -> Res<u128> {
        match self.cur.values.get(v.0 as usize) {
            Some(s) if s.def => Ok(s.bits),
            _ => Err(Stop::Trap(TrapKind::UseOfUndefinedValue)),
        }
    }

    #[inline]
    pub fn opnd(&self, o: &Operand, ty: IrType) -> Res<u128> {
        match o {
            Operand::Value(v) => self.val(*v),
            Operand::Const(IrConst::I64(x)) if ty.is_int_or_ptr() && ty.size() <= 8 => {
                Ok(zext(*x as u64 as u128, ty.bits()))
            }
            Operand::Const(IrConst::I32(x)) if ty.is_int_or_ptr() && ty.size() <= 8 => {
                Ok(zext(*x as i64 as u64 as u128, ty.bits()))
            }
            Operand::Const(c) => Ok(c.bits_as(ty)),
        }
    }

    /// An operand as a 64-bit address.
    #[inline]
    pub fn addr(&self, v: Value) -> Res<u64> {
        Ok(self.val(v)? as u64)
    }

    #[inline]
    pub fn set(&mut self, v: Value, bits: u128) {
        if let Some(s) = self.cur.values.get_mut(v.0 as usize) {
            *s = Slot { bits, def: true };
        }
    }

    pub fn undefine(&mut self, v: Value) {
        if let Some(s) = self.cur.values.get_mut(v.0 as usize) {
            s.def = false;
        }
    }

    /// Push a frame for defined function `fi`.
    pub fn push_frame(
        &mut self,
        p: &Prepared<'m>,
        fi: u32,
        args: Vec<u128>,
        ret_dest: Option<Value>,
        ret_ty: IrType,
    ) -> Res<()> {
        if self.callers.len() + 1 >= MAX_CALL_DEPTH {
            return Err(TrapKind::StackOverflow.into());
        }
        // The frame tag: the call number modulo 2^20, skipping tags of live frames.
        let mut tag;
        loop {
            tag = (self.calls & ((1 << FRAME_TAG_BITS) - 1)) as u32;
            self.calls += 1;
            if self.calls <= 1 << FRAME_TAG_BITS || !self.mem.frame_tag_in_use(tag) {
                break;
            }
        }
        let pf = &p.funcs[fi as usize];
        if pf.nvalues > MAX_VALUES {
            return Err(TrapKind::Unsupported("value ids beyond the interpreter's limits".into()).into());
        }
        let mut values = self.value_pool.pop().unwrap_or_default();
        values.clear();
        values.resize(pf.nvalues, Slot::default());
        let frame = Frame {
            func: fi,
            block: 0,
            ip: 0,
            pred: None,
            values,
            args,
            ret_dest,
            ret_ty,
            ret2: None,
            last_ret2: None,
            tag,
        };
        let caller = std::mem::replace(&mut self.cur, frame);
        if self.mem.frames.is_empty() {
            // The entry frame: `caller` is the placeholder default frame.
        } else {
            self.callers.push(caller);
        }
        self.mem.push_frame(tag);
        self.enter_block(pf, 0, None)
    }

    /// Leave the current frame with `v`; `Finished` when it was the entry.
    fn do_return(&mut self, v: Option<u128>) -> Flow {
        let Some(caller) = self.callers.pop() else {
            return Flow::Finished(v);
        };
        let done = std::mem::replace(&mut self.cur, caller);
        self.mem.pop_frame();
        if let Some(d) = done.ret_dest {
            match v {
                Some(bits) => self.set(d, canon(bits, done.ret_ty)),
                None => self.undefine(d),
            }
        }
        self.cur.last_ret2 = done.ret2;
        self.value_pool.push(done.values);
        Flow::Switched
    }

    /// Enter block `target`, evaluating its leading phis in parallel.
    pub fn enter_block(&mut self, pf: &PFunc<'m>, target: u32, pred: Option<BlockId>) -> Res<()> {
        let Some(block) = pf.f.blocks.get(target as usize) else {
            return Err(TrapKind::Unsupported("branch to a missing block".into()).into());
        };
        let nphis = pf.blocks[target as usize].nphis as usize;
        self.cur.block = target;
        self.cur.pred = pred;
        if nphis > 0 {
            let mut scratch = std::mem::take(&mut self.phi_scratch);
            scratch.clear();
            for inst in &block.instructions[..nphis] {
                self.burn()?;
                if let Instruction::Phi { ty, incoming, .. } = inst {
                    scratch.push(self.phi_value(*ty, incoming, pred)?);
                }
            }
            for (inst, &v) in block.instructions[..nphis].iter().zip(scratch.iter()) {
                if let Instruction::Phi { dest, .. } = inst {
                    self.set(*dest, v);
                }
            }
            self.phi_scratch = scratch;
        }
        self.cur.ip = nphis as u32;
        Ok(())
    }

    fn phi_value(&self, ty: IrType, incoming: &[(Operand, BlockId)], pred: Option<BlockId>) -> Res<u128> {
        let pred = pred.ok_or(Stop::Trap(TrapKind::UseOfUndefinedValue))?;
        match incoming.iter().find(|(_, b)| *b == pred) {
            Some((op, _)) => Ok(canon(self.opnd(op, ty)?, ty)),
            None => Err(TrapKind::UseOfUndefinedValue.into()),
        }
    }

    /// Run until the entry function returns.
    fn execute(&mut self, p: &Prepared<'m>) -> Res<Option<u128>> {
        loop {
            let pf = &p.funcs[self.cur.func as usize];
            let bi = self.cur.block as usize;
            let block = &pf.f.blocks[bi];
            let pb = &pf.blocks[bi];
            let mut flow = Flow::Next;
            while let Some(inst) = block.instructions.get(self.cur.ip as usize) {
                let i = self.cur.ip as usize;
                self.cur.ip += 1;
                self.burn()?;
                flow = self.exec_inst(p, pf, pb, inst, i)?;
                if !matches!(flow, Flow::Next) {
                    break;
                }
            }
            if let Flow::Next = flow {
                self.burn()?;
                flow = self.exec_term(pf, block, pb)?;
            }
            match flow {
                Flow::Next | Flow::Switched => {}
                Flow::Jump(t) => self.enter_block(pf, t, Some(block.label))?,
                Flow::Finished(v) => return Ok(v),
            }
        }
    }

    fn exec_term(&mut self, pf: &PFunc<'m>, block: &BasicBlock, pb: &PBlock<'m>) -> Res<Flow> {
        let succ = |i: usize| -> Res<Flow> {
            match pb.succ.get(i) {
                Some(&t) if t != memory::NONE => Ok(Flow::Jump(t)),
                _ => Err(TrapKind::Unsupported("branch to a missing block".into()).into()),
            }
        };
        match &block.terminator {
            Terminator::Return(op) => {
                let rt = pf.f.return_type;
                let v = match op {
                    Some(o) => Some(canon(self.opnd(o, rt)?, rt)),
                    None => None,
                };
                let v = if rt == IrType::Void { None } else { v };
                Ok(self.do_return(v))
            }
            Terminator::Branch(_) => succ(0),
            Terminator::CondBranch { cond, .. } => {
                let c = match cond {
                    Operand::Const(c) => c.is_nonzero(),
                    Operand::Value(v) => self.val(*v)? != 0,
                };
                succ(if c { 0 } else { 1 })
            }
            Terminator::Switch { val, cases, ty, .. } => {
                let v = canon(self.opnd(val, *ty)?, *ty);
                let bits = if ty.is_float() || *ty == IrType::Void {
                    64
                } else {
                    ty.bits()
                };
                let hit = cases.iter().position(|(c, _)| zext(*c as i128 as u128, bits) == v);
                succ(hit.unwrap_or(cases.len()))
            }
            Terminator::IndirectBranch {
                target,
                possible_targets,
            } => {
                let a = self.opnd(target, IrType::Ptr)? as u64;
                match decode(a) {
                    (Place::Label { func, label }, _) if func == pf.index => {
                        match possible_targets.iter().position(|b| b.0 == label) {
                            Some(i) => succ(i),
                            None => Err(TrapKind::BadIndirectTarget.into()),
                        }
                    }
                    _ => Err(TrapKind::BadIndirectTarget.into()),
                }
            }
            Terminator::Unreachable => Err(TrapKind::Unreachable.into()),
        }
    }

    fn exec_inst(
        &mut self,
        p: &Prepared<'m>,
        pf: &PFunc<'m>,
        pb: &PBlock<'m>,
        inst: &Instruction,
        i: usize,
    ) -> Res<Flow> {
        use Instruction as I;
        match inst {
            I::Alloca {
                dest, size, volatile, ..
            } => {
                let a = self.mem.alloca(dest.0, *size, *volatile)?;
                self.set(*dest, a as u128);
            }
            I::DynAlloca { dest, size, .. } => {
                let n = self.opnd(size, IrType::I64)? as u64;
                let top = self.mem.frames.len() - 1;
                let slot = self.mem.frames[top].dyn_count;
                if slot >= memory::BYVAL_SLOT || n >= memory::MAX_SMALL_OBJECT as u64 {
                    return Err(TrapKind::Unsupported("dynamic alloca beyond the interpreter's limits".into()).into());
                }
                self.mem.frames[top].dyn_count += 1;
                let (a, _) = self.mem.frame_object(slot, n as usize)?;
                self.set(*dest, a as u128);
            }
            I::Load { dest, ptr, ty, .. } | I::AtomicLoad { dest, ptr, ty, .. } => {
                let a = self.addr(*ptr)?;
                let v = self.mem.read(a, ty.size())?;
                self.set(*dest, canon(v, *ty));
                if self.mem.is_volatile(a) {
                    self.volatile_access(p, "volatile-load", a, v, *ty);
                }
            }
            I::Store { val, ptr, ty, .. } | I::AtomicStore { val, ptr, ty, .. } => {
                let v = self.opnd(val, *ty)?;
                let a = self.addr(*ptr)?;
                self.mem.write(a, ty.size(), v)?;
                if self.mem.is_volatile(a) {
                    self.volatile_access(p, "volatile-store", a, v, *ty);
                }
            }
            I::Memcpy { dest, src, size } => {
                let (d, s) = (self.addr(*dest)?, self.addr(*src)?);
                self.mem.copy(d, s, *size)?;
            }
            I::GetElementPtr { dest, base, offset, .. } => {
                let b = self.addr(*base)?;
                let off = match offset {
                    Operand::Const(c) => c.to_i64().unwrap_or(0) as u64,
                    Operand::Value(v) => self.val(*v)? as u64,
                };
                self.set(*dest, b.wrapping_add(off) as u128);
            }
            I::GlobalAddr { dest, name } => match pb.aux.get(i) {
                Some(Aux::Addr(Some(a))) => self.set(*dest, *a as u128),
                _ => return Err(TrapKind::Unsupported(format!("unknown symbol @{name}")).into()),
            },
            I::StackSave { dest } => {
                let top = self.mem.frames.len() - 1;
                let fm = &self.mem.frames[top];
                let a = memory::frame_obj_addr(fm.tag, STACKSAVE_SLOT) + fm.dyn_count as u64;
                self.set(*dest, a as u128);
            }
            I::StackRestore { ptr } => {
                let a = self.addr(*ptr)?;
                match decode(a) {
                    (Place::FrameObj { frame, slot }, off) if frame == self.cur.tag && slot == STACKSAVE_SLOT => {
                        self.mem.release_dyn_from(off as u32)
                    }
                    _ => return Err(TrapKind::Unsupported("stackrestore of a foreign pointer".into()).into()),
                }
            }
            I::BinOp {
                dest, op, lhs, rhs, ty, ..
            } => {
                let (l, r) = (self.opnd(lhs, *ty)?, self.opnd(rhs, *ty)?);
                let v = match fast_binop(*op, l, r, *ty) {
                    Some(v) => v,
                    None => op.eval_bits(l, r, *ty).map_err(TrapKind::from)?,
                };
                self.set(*dest, canon(v, *ty));
            }
            I::UnaryOp { dest, op, src, ty } => {
                let v = match (op, src) {
                    (IrUnaryOp::IsConstant, Operand::Const(_)) => 1,
                    _ => op.eval_bits(self.opnd(src, *ty)?, *ty),
                };
                self.set(*dest, canon(v, *ty));
            }
            I::Cmp {
                dest, op, lhs, rhs, ty, ..
            } => {
                let (l, r) = (self.opnd(lhs, *ty)?, self.opnd(rhs, *ty)?);
                self.set(*dest, op.eval_bits(l, r, *ty) as u128);
            }
            I::Cast {
                dest,
                src,
                from_ty,
                to_ty,
            } => {
                let v = self.opnd(src, *from_ty)?;
                self.set(*dest, cast_bits(v, *from_ty, *to_ty));
            }
            I::Copy { dest, src } => {
                let v = match src {
                    Operand::Value(v) => self.val(*v)?,
                    Operand::Const(c) => c.bits_as(crate::ir::instruction::const_natural_type(c)),
                };
                self.set(*dest, v);
            }
            I::Select {
                dest,
                cond,
                true_val,
                false_val,
                ty,
            } => {
                let c = match cond {
                    Operand::Const(c) => c.is_nonzero(),
                    Operand::Value(v) => self.val(*v)? != 0,
                };
                let (t, f) = (self.opnd(true_val, *ty)?, self.opnd(false_val, *ty)?);
                self.set(*dest, canon(if c { t } else { f }, *ty));
            }
            I::Call { info, .. } => {
                let callee = match pb.aux.get(i) {
                    Some(Aux::Call(c)) => *c,
                    _ => return Err(TrapKind::Unsupported("unresolved call".into()).into()),
                };
                return self.call(p, callee, info);
            }
            I::CallIndirect { func_ptr, info } => {
                let a = self.opnd(func_ptr, IrType::Ptr)? as u64;
                let callee = match decode(a) {
                    (Place::Function(fi), _) => p.callee_of.get(fi as usize).copied(),
                    _ => None,
                };
                let Some(callee) = callee else {
                    return Err(TrapKind::BadIndirectTarget.into());
                };
                return self.call(p, callee, info);
            }
            I::VaStart { va_list_ptr } => self.va_start(*va_list_ptr)?,
            I::VaEnd { .. } => {}
            I::VaCopy { dest_ptr, src_ptr } => {
                let c = self.mem.read(self.addr(*src_ptr)?, 8)?;
                self.mem.write(self.addr(*dest_ptr)?, 8, c)?;
            }
            I::VaArg {
                dest,
                va_list_ptr,
                result_ty,
            } => {
                let v = self.va_arg(*va_list_ptr, *result_ty)?;
                self.set(*dest, canon(v, *result_ty));
            }
            I::VaArgStruct {
                dest_ptr,
                va_list_ptr,
                size,
                ..
            } => self.va_arg_struct(*dest_ptr, *va_list_ptr, *size)?,
            I::AtomicRmw {
                dest, op, ptr, val, ty, ..
            } => {
                let a = self.addr(*ptr)?;
                let v = self.opnd(val, *ty)?;
                let old = self.mem.read(a, ty.size())?;
                self.mem.write(a, ty.size(), op.apply_bits(old, v, *ty))?;
                self.set(*dest, canon(old, *ty));
            }
            I::AtomicCmpxchg {
                dest,
                ptr,
                expected,
                desired,
                ty,
                returns_bool,
                ..
            } => {
                let a = self.addr(*ptr)?;
                let (e, d) = (self.opnd(expected, *ty)?, self.opnd(desired, *ty)?);
                let old = canon(self.mem.read(a, ty.size())?, *ty);
                let hit = old == canon(e, *ty);
                if hit {
                    self.mem.write(a, ty.size(), d)?;
                }
                self.set(*dest, if *returns_bool { hit as u128 } else { old });
            }
            I::Fence { .. } => {}
            I::Phi { dest, ty, incoming } => {
                let v = self.phi_value(*ty, incoming, self.cur.pred)?;
                self.set(*dest, v);
            }
            I::ParamRef { dest, param_idx, ty } => match self.cur.args.get(*param_idx) {
                Some(&v) => self.set(*dest, canon(v, *ty)),
                None => return Err(TrapKind::UseOfUndefinedValue.into()),
            },
            I::GetReturnF64Second { dest } | I::GetReturnF32Second { dest } | I::GetReturnF128Second { dest } => {
                let v = self.cur.last_ret2.ok_or(Stop::Trap(TrapKind::UseOfUndefinedValue))?;
                let ty = inst.result_type().unwrap_or(IrType::F64);
                self.set(*dest, canon(v, ty));
            }
            I::SetReturnF64Second { src } => self.cur.ret2 = Some(self.opnd(src, IrType::F64)?),
            I::SetReturnF32Second { src } => self.cur.ret2 = Some(self.opnd(src, IrType::F32)?),
            I::SetReturnF128Second { src } => self.cur.ret2 = Some(self.opnd(src, IrType::F128)?),
            I::InlineAsm(asm) => {
                let targets: &[u32] = match pb.aux.get(i) {
                    Some(Aux::Goto(t)) => t,
                    _ => &[],
                };
                if let Some(t) = self.exec_asm(asm, targets)? {
                    return Ok(Flow::Jump(t));
                }
            }
            I::Intrinsic { dest, op, args, .. } => {
                let v = self.intrinsic(*op, args)?;
                if let (Some(d), Some(v)) = (dest, v) {
                    self.set(*d, v);
                }
            }
            I::LabelAddr { dest, label } => self.set(*dest, memory::label_addr(pf.index, label.0) as u128),
        }
        Ok(Flow::Next)
    }

    fn intrinsic(&mut self, op: IntrinsicOp, args: &[Operand]) -> Res<Option<u128>> {
        let arg = |m: &Self, ty: IrType| -> Res<u128> {
            match args.first() {
                Some(a) => m.opnd(a, ty),
                None => Err(TrapKind::UseOfUndefinedValue.into()),
            }
        };
        let f32v = |b: u128| f32::from_bits(b as u32);
        let f64v = |b: u128| f64::from_bits(b as u64);
        Ok(match op {
            IntrinsicOp::SqrtF32 => Some(f32v(arg(self, IrType::F32)?).sqrt().to_bits() as u128),
            IntrinsicOp::SqrtF64 => Some(f64v(arg(self, IrType::F64)?).sqrt().to_bits() as u128),
            IntrinsicOp::FabsF32 => Some(f32v(arg(self, IrType::F32)?).abs().to_bits() as u128),
            IntrinsicOp::FabsF64 => Some(f64v(arg(self, IrType::F64)?).abs().to_bits() as u128),
            IntrinsicOp::FrameAddress => Some(memory::frame_obj_addr(self.cur.tag, FRAMEADDR_SLOT) as u128),
            IntrinsicOp::ReturnAddress => Some(memory::function_addr(self.cur.func) as u128 | 0x10),
            IntrinsicOp::ThreadPointer => Some(memory::file_addr(0x100) as u128),
            IntrinsicOp::Clflush => {
                arg(self, IrType::Ptr)?;
                None
            }
            IntrinsicOp::Lfence | IntrinsicOp::Mfence | IntrinsicOp::Sfence | IntrinsicOp::Pause => None,
        })
    }
}

/// The non-trapping integer binops on types of at most 64 bits, computed in
/// `u64` (the same results as `IrBinOp::eval_bits`, which handles the rest).
#[inline]
fn fast_binop(op: IrBinOp, l: u128, r: u128, ty: IrType) -> Option<u128> {
    if !ty.is_int_or_ptr() || ty.size() > 8 {
        return None;
    }
    let (a, b) = (l as u64, r as u64);
    let v = match op {
        IrBinOp::Add => a.wrapping_add(b),
        IrBinOp::Sub => a.wrapping_sub(b),
        IrBinOp::Mul => a.wrapping_mul(b),
        IrBinOp::And => a & b,
        IrBinOp::Or => a | b,
        IrBinOp::Xor => a ^ b,
        IrBinOp::Shl if (b as u128) < ty.bits() as u128 && r >> 64 == 0 => a << b,
        IrBinOp::LShr if (b as u128) < ty.bits() as u128 && r >> 64 == 0 => zext(a as u128, ty.bits()) as u64 >> b,
        _ => return None,
    };
    Some(zext(v as u128, ty.bits()))
}

/// `Cast` on raw bits: int<->int extends by the source's signedness, int<->float
/// converts numerically (unsigned aware), float<->float converts, `f128` is `f64`.
pub(super) fn cast_bits(v: u128, from: IrType, to: IrType) -> u128 {
    let from_float = from.is_float();
    let to_float = to.is_float();
    if from == IrType::Void || to == IrType::Void {
        return canon(v, to);
    }
    let as_f64 = |v: u128| -> f64 {
        if from == IrType::F32 {
            f32::from_bits(v as u32) as f64
        } else {
            f64::from_bits(v as u64)
        }
    };
    match (from_float, to_float) {
        (false, false) => {
            let wide = if from.is_signed() {
                crate::ir::constants::sext(v, from.bits()) as u128
            } else {
                zext(v, from.bits())
            };
            canon(wide, to)
        }
        (false, true) => {
            let signed = from.is_signed();
            let (s, u) = (crate::ir::constants::sext(v, from.bits()), zext(v, from.bits()));
            if to == IrType::F32 {
                let f = if signed { s as f32 } else { u as f32 };
                f.to_bits() as u128
            } else {
                let f = if signed { s as f64 } else { u as f64 };
                f.to_bits() as u128
            }
        }
        (true, true) => {
            let f = as_f64(v);
            if to == IrType::F32 {
                (f as f32).to_bits() as u128
            } else {
                f.to_bits() as u128
            }
        }
        (true, false) => {
            let f = as_f64(v);
            let bits = if to.is_signed() {
                if to.size() == 16 {
                    f as i128 as u128
                } else {
                    f as i64 as u128
                }
            } else if to.size() == 16 {
                f as u128
            } else if to.size() == 8 {
                if f >= 2f64.powi(63) {
                    f as u64 as u128
                } else {
                    f as i64 as u64 as u128
                }
            } else {
                f as i64 as u128
            };
            canon(bits, to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_binops_agree_with_eval_bits() {
        let samples: [u128; 10] = [0, 1, 2, 7, 8, 63, 64, 0x80, 0xffff_ffff, u64::MAX as u128];
        let extra = [
            0x1_0000_0001u128,
            0x8000_0000_0000_0000,
            0x1234_5678_9abc_def0,
            1u128 << 70,
        ];
        for &ty in IrType::ALL.iter() {
            for &op in IrBinOp::ALL {
                for &l in samples.iter().chain(extra.iter()) {
                    for &r in samples.iter().chain(extra.iter()) {
                        if let Some(v) = fast_binop(op, l, r, ty) {
                            let want = op.eval_bits(l, r, ty).map(|x| canon(x, ty));
                            assert_eq!(Ok(v), want, "{op} {ty} {l:#x} {r:#x}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn casts_round_trip_through_wider_types() {
        assert_eq!(cast_bits(0xff, IrType::I8, IrType::I64), u64::MAX as u128);
        assert_eq!(cast_bits(0xff, IrType::U8, IrType::I64), 0xff);
        assert_eq!(cast_bits(u64::MAX as u128, IrType::I64, IrType::I128), u128::MAX);
        assert_eq!(
            cast_bits(u64::MAX as u128, IrType::U64, IrType::F64),
            (u64::MAX as f64).to_bits() as u128
        );
        assert_eq!(
            cast_bits(1.5f64.to_bits() as u128, IrType::F64, IrType::F128),
            1.5f64.to_bits() as u128
        );
        assert_eq!(
            cast_bits(1.0e19f64.to_bits() as u128, IrType::F64, IrType::U64),
            10_000_000_000_000_000_000
        );
    }
}
