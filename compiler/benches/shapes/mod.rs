//! Synthetic alloca-form functions for the mem2reg benchmark, and their LLVM
//! IR equivalent (for timing `opt -passes=mem2reg` on the same shapes).
//!
//! Shapes, each about `blocks` blocks over `allocas` i32 variables:
//! - `chain`: a straight line; every block reads two variables and writes one;
//! - `diamonds`: a sequence of if/else diamonds writing different variables;
//! - `loops`: a sequence of counted loops, each swapping two variables;
//! - `switch`: a sequence of 84-case switch dispatch loops (a VM
//!   interpreter's pattern, docs/ssa.md#phi-copy-cost-limit) updating a few variables per case.
//!
//! Included by `benches/mem2reg.rs` and by `oracle bench-mem2reg` (oracle/src/commands/bench_mem2reg.rs) with `#[path]`.

#![allow(dead_code)]

use phicc::ir::reexports::*;
use std::fmt::Write;

pub const SHAPES: [&str; 4] = ["chain", "diamonds", "loops", "switch"];

struct Builder {
    f: IrFunction,
    next: u32,
    vars: Vec<Value>,
    param: Value,
}

impl Builder {
    fn new(allocas: usize) -> Builder {
        let mut f = IrFunction::new("bench", IrType::I32, vec![IrParam::scalar(IrType::I32)]);
        let mut entry = BasicBlock::new(BlockId(0));
        let mut next = 0;
        let mut vars = Vec::new();
        for _ in 0..allocas.max(2) {
            let v = Value(next);
            next += 1;
            entry.instructions.push(Instruction::Alloca {
                dest: v,
                ty: IrType::I32,
                size: 4,
                align: 4,
                volatile: false,
            });
            vars.push(v);
        }
        let param = Value(next);
        next += 1;
        entry.instructions.push(Instruction::ParamRef {
            dest: param,
            param_idx: 0,
            ty: IrType::I32,
        });
        // Every variable starts from the parameter (an IR-visible store).
        for &v in &vars {
            entry.instructions.push(store(Operand::Value(param), v));
        }
        f.blocks.push(entry);
        Builder { f, next, vars, param }
    }

    fn value(&mut self) -> Value {
        let v = Value(self.next);
        self.next += 1;
        v
    }

    fn block(&mut self) -> usize {
        let id = BlockId(self.f.blocks.len() as u32);
        self.f.blocks.push(BasicBlock::new(id));
        self.f.blocks.len() - 1
    }

    fn label(&self, b: usize) -> BlockId {
        self.f.blocks[b].label
    }

    fn load(&mut self, b: usize, var: usize) -> Value {
        let dest = self.value();
        let ptr = self.vars[var % self.vars.len()];
        self.f.blocks[b].instructions.push(Instruction::Load {
            dest,
            ptr,
            ty: IrType::I32,
            seg_override: AddressSpace::Default,
        });
        dest
    }

    fn binop(&mut self, b: usize, op: IrBinOp, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.value();
        self.f.blocks[b].instructions.push(Instruction::BinOp {
            dest,
            op,
            lhs,
            rhs,
            ty: IrType::I32,
        });
        dest
    }

    fn cmp(&mut self, b: usize, op: IrCmpOp, lhs: Operand, rhs: Operand) -> Value {
        let dest = self.value();
        self.f.blocks[b].instructions.push(Instruction::Cmp {
            dest,
            op,
            lhs,
            rhs,
            ty: IrType::I32,
        });
        dest
    }

    fn store(&mut self, b: usize, val: Value, var: usize) {
        let ptr = self.vars[var % self.vars.len()];
        self.f.blocks[b].instructions.push(store(Operand::Value(val), ptr));
    }

    /// `var[dst] = var[a] + var[b] + k` in block `b`.
    fn update(&mut self, blk: usize, dst: usize, a: usize, b: usize, k: i32) {
        let x = self.load(blk, a);
        let y = self.load(blk, b);
        let s = self.binop(blk, IrBinOp::Add, Operand::Value(x), Operand::Value(y));
        let t = self.binop(blk, IrBinOp::Add, Operand::Value(s), Operand::Const(IrConst::I32(k)));
        self.store(blk, t, dst);
    }

    fn finish(mut self, last: usize) -> IrFunction {
        let r = self.load(last, 0);
        self.f.blocks[last].terminator = Terminator::Return(Some(Operand::Value(r)));
        self.f.next_value_id = self.next;
        self.f
    }
}

fn go(bld: &mut Builder, from: usize, to: usize) {
    let l = bld.label(to);
    bld.f.blocks[from].terminator = Terminator::Branch(l);
}

fn store(val: Operand, ptr: Value) -> Instruction {
    Instruction::Store {
        val,
        ptr,
        ty: IrType::I32,
        seg_override: AddressSpace::Default,
    }
}

/// Builds one shape with about `blocks` blocks and `allocas` variables.
pub fn build(shape: &str, blocks: usize, allocas: usize) -> IrFunction {
    let mut bld = Builder::new(allocas);
    let n = bld.vars.len();
    let mut cur = 0usize;
    let mut i = 0usize;
    match shape {
        "chain" => {
            while bld.f.blocks.len() < blocks {
                let b = bld.block();
                go(&mut bld, cur, b);
                bld.update(b, i % n, (i * 7 + 3) % n, (i * 13 + 5) % n, i as i32);
                cur = b;
                i += 1;
            }
        }
        "diamonds" => {
            while bld.f.blocks.len() + 4 <= blocks.max(5) {
                let (l, r, j) = (bld.block(), bld.block(), bld.block());
                let x = bld.load(cur, i % n);
                let c = bld.binop(cur, IrBinOp::And, Operand::Value(x), Operand::Const(IrConst::I32(1)));
                let (ll, rl) = (bld.label(l), bld.label(r));
                bld.f.blocks[cur].terminator = Terminator::CondBranch {
                    cond: Operand::Value(c),
                    true_label: ll,
                    false_label: rl,
                };
                bld.update(l, i % n, (i + 1) % n, (i * 7 + 2) % n, 1);
                bld.update(r, i % n, (i + 2) % n, (i * 5 + 3) % n, 2);
                bld.update(r, (i + 1) % n, i % n, (i + 3) % n, 3);
                go(&mut bld, l, j);
                go(&mut bld, r, j);
                cur = j;
                i += 1;
            }
        }
        "loops" => {
            // Counter: the last variable. Loop: header (test), body (swap), exit.
            while bld.f.blocks.len() + 4 <= blocks.max(5) {
                let counter = n - 1;
                let (a, b) = (i % (n - 1), (i * 7 + 1) % (n - 1));
                let zero = bld.binop(
                    cur,
                    IrBinOp::And,
                    Operand::Value(bld.param),
                    Operand::Const(IrConst::I32(0)),
                );
                bld.store(cur, zero, counter);
                let (h, body, exit) = (bld.block(), bld.block(), bld.block());
                go(&mut bld, cur, h);
                let k = bld.load(h, counter);
                let c = bld.cmp(h, IrCmpOp::Slt, Operand::Value(k), Operand::Const(IrConst::I32(3)));
                let (bl, el) = (bld.label(body), bld.label(exit));
                bld.f.blocks[h].terminator = Terminator::CondBranch {
                    cond: Operand::Value(c),
                    true_label: bl,
                    false_label: el,
                };
                let x = bld.load(body, a);
                let y = bld.load(body, b);
                bld.store(body, y, a);
                bld.store(body, x, b);
                let k1 = bld.binop(body, IrBinOp::Add, Operand::Value(k), Operand::Const(IrConst::I32(1)));
                bld.store(body, k1, counter);
                go(&mut bld, body, h);
                cur = exit;
                i += 1;
            }
        }
        "switch" => {
            // Dispatch loops of 84 cases: header (switch), cases, latch, exit.
            const CASES: usize = 84;
            while bld.f.blocks.len() + CASES + 3 <= blocks.max(CASES + 4) {
                let counter = n - 1;
                let zero = bld.binop(
                    cur,
                    IrBinOp::And,
                    Operand::Value(bld.param),
                    Operand::Const(IrConst::I32(0)),
                );
                bld.store(cur, zero, counter);
                let h = bld.block();
                go(&mut bld, cur, h);
                let cases: Vec<usize> = (0..CASES).map(|_| bld.block()).collect();
                let (latch, exit) = (bld.block(), bld.block());
                let k = bld.load(h, counter);
                let m = bld.binop(
                    h,
                    IrBinOp::URem,
                    Operand::Value(k),
                    Operand::Const(IrConst::I32(CASES as i32)),
                );
                let arms: Vec<(i64, BlockId)> = cases
                    .iter()
                    .enumerate()
                    .map(|(c, &b)| (c as i64, bld.label(b)))
                    .collect();
                let latch_label = bld.label(latch);
                bld.f.blocks[h].terminator = Terminator::Switch {
                    val: Operand::Value(m),
                    cases: arms,
                    default: latch_label,
                    ty: IrType::I32,
                };
                for (c, &b) in cases.iter().enumerate() {
                    let v = (i * CASES + c) % (n - 1);
                    bld.update(b, v, (v + 1) % (n - 1), c, c as i32);
                    go(&mut bld, b, latch);
                }
                let k2 = bld.load(latch, counter);
                let k1 = bld.binop(latch, IrBinOp::Add, Operand::Value(k2), Operand::Const(IrConst::I32(1)));
                bld.store(latch, k1, counter);
                let c = bld.cmp(
                    latch,
                    IrCmpOp::Slt,
                    Operand::Value(k1),
                    Operand::Const(IrConst::I32(100)),
                );
                let (hl, el) = (bld.label(h), bld.label(exit));
                bld.f.blocks[latch].terminator = Terminator::CondBranch {
                    cond: Operand::Value(c),
                    true_label: hl,
                    false_label: el,
                };
                cur = exit;
                i += 1;
            }
        }
        _ => {}
    }
    bld.finish(cur)
}

/// The function in LLVM IR (typed pointers off: LLVM 15 opaque `ptr`).
pub fn to_llvm(f: &IrFunction) -> String {
    let mut s = String::from("define i32 @bench(i32 %arg0) {\n");
    let op = |o: &Operand| match o {
        Operand::Value(v) => format!("%v{}", v.0),
        Operand::Const(c) => c.to_i64().unwrap_or(0).to_string(),
    };
    for b in &f.blocks {
        let _ = writeln!(s, "b{}:", b.label.0);
        for inst in &b.instructions {
            let _ = match inst {
                Instruction::Alloca { dest, .. } => writeln!(s, "  %v{} = alloca i32", dest.0),
                Instruction::ParamRef { dest, .. } => writeln!(s, "  %v{} = add i32 %arg0, 0", dest.0),
                Instruction::Store { val, ptr, .. } => writeln!(s, "  store i32 {}, ptr %v{}", op(val), ptr.0),
                Instruction::Load { dest, ptr, .. } => writeln!(s, "  %v{} = load i32, ptr %v{}", dest.0, ptr.0),
                Instruction::BinOp {
                    dest, op: o, lhs, rhs, ..
                } => {
                    let name = match o {
                        IrBinOp::Add => "add",
                        IrBinOp::And => "and",
                        IrBinOp::URem => "urem",
                        _ => "xor",
                    };
                    writeln!(s, "  %v{} = {name} i32 {}, {}", dest.0, op(lhs), op(rhs))
                }
                Instruction::Cmp { dest, lhs, rhs, .. } => {
                    let _ = writeln!(s, "  %v{}.b = icmp slt i32 {}, {}", dest.0, op(lhs), op(rhs));
                    writeln!(s, "  %v{0} = zext i1 %v{0}.b to i32", dest.0)
                }
                _ => Ok(()),
            };
        }
        let _ = match &b.terminator {
            Terminator::Return(Some(v)) => writeln!(s, "  ret i32 {}", op(v)),
            Terminator::Branch(t) => writeln!(s, "  br label %b{}", t.0),
            Terminator::CondBranch {
                cond,
                true_label,
                false_label,
            } => {
                let c = format!("%c{}", b.label.0);
                let _ = writeln!(s, "  {c} = icmp ne i32 {}, 0", op(cond));
                writeln!(s, "  br i1 {c}, label %b{}, label %b{}", true_label.0, false_label.0)
            }
            Terminator::Switch {
                val, cases, default, ..
            } => {
                let arms: Vec<String> = cases.iter().map(|(k, t)| format!("i32 {k}, label %b{}", t.0)).collect();
                writeln!(
                    s,
                    "  switch i32 {}, label %b{} [ {} ]",
                    op(val),
                    default.0,
                    arms.join(" ")
                )
            }
            _ => writeln!(s, "  unreachable"),
        };
    }
    s.push_str("}\n");
    s
}
