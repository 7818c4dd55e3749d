//! SSA-form program generator for phi elimination alone.
//!
//! `main` runs a sequence of loops. Each loop header carries a group of phis
//! whose back-edge values are a random mix of the group's own phis (swaps,
//! rotations, chains such as `a=b, b=c, c=a`, self-copies), values computed in
//! the body, and constants; the latch ends in a conditional branch, in a
//! switch whose several cases all go back to the header (so the back edge is
//! a critical edge), or in a computed goto (an edge that cannot be split). Between loops a switch with duplicate targets
//! feeds a join block whose phis read the loop's phis. All values are `i64`
//! or `i32` so any phi may read any other of its type; the function returns a
//! checksum of every phi and reports it to `@sink`.
//!
//! A third of the loops are entered at two blocks (irreducible): each entry
//! carries its own phi group, each reading the other's phis.

use super::{Choices, Emit};
use arbitrary::Unstructured;
use phicc::ir::reexports::*;

/// Generate an SSA-form module from `u`. Every input gives a valid module.
pub fn generate(u: &mut Unstructured) -> IrModule {
    let mut c = Choices::new(u);
    let mut g = SsaGen {
        blocks: Vec::new(),
        next_value: 0,
        cur: 0,
    };
    let entry = g.new_block();
    g.cur = entry;
    // Seed values, live across the whole function.
    let nseed = c.range(1, 4) as usize;
    let mut live: Vec<(Operand, IrType)> = Vec::new();
    for i in 0..nseed {
        let ty = if i % 2 == 0 { IrType::I64 } else { IrType::I32 };
        live.push((Operand::Const(IrConst::from_i64(c.range(0, 1000) as i64, ty)), ty));
    }
    let nloops = c.range(1, 3);
    for _ in 0..nloops {
        live = if c.chance(1, 3) {
            g.irreducible_group(&mut c, &live)
        } else {
            g.loop_group(&mut c, &live)
        };
        if c.chance(1, 2) {
            live = g.switch_join(&mut c, &live);
        }
    }
    // Checksum.
    let mut acc = Operand::Const(IrConst::I64(17));
    for (v, ty) in live {
        let x = g.cast(v, ty, IrType::I64);
        let m = g.binop(IrBinOp::Mul, acc, Operand::Const(IrConst::I64(1_000_003)), IrType::I64);
        acc = g.binop(IrBinOp::Add, m, x, IrType::I64);
    }
    let dest = g.value();
    g.emit(Instruction::Call {
        func: "sink".into(),
        info: Box::new(CallInfo {
            dest: Some(dest),
            args: vec![acc],
            arg_types: vec![IrType::I64],
            return_type: IrType::I64,
            num_fixed_args: 1,
            ..CallInfo::default()
        }),
    });
    g.blocks[g.cur].terminator = Terminator::Return(Some(acc));

    let mut main = IrFunction::new("main", IrType::I64, vec![]);
    main.blocks = g.blocks;
    main.next_value_id = g.next_value;
    let sink = IrFunction {
        is_declaration: true,
        ..IrFunction::new("sink", IrType::I64, vec![IrParam::scalar(IrType::I64)])
    };
    IrModule {
        functions: vec![sink, main],
        ..IrModule::default()
    }
}

struct SsaGen {
    blocks: Vec<BasicBlock>,
    next_value: u32,
    cur: usize,
}

impl Emit for SsaGen {
    fn value(&mut self) -> Value {
        self.next_value += 1;
        Value(self.next_value - 1)
    }

    fn emit(&mut self, i: Instruction) {
        self.blocks[self.cur].instructions.push(i);
    }
}

impl SsaGen {
    fn new_block(&mut self) -> usize {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(BasicBlock::new(id));
        self.blocks.len() - 1
    }

    fn label(&self, b: usize) -> BlockId {
        self.blocks[b].label
    }

    /// A loop whose header phis permute each other on the back edge.
    /// Returns the header phis (live after the loop, since the header dominates the exit).
    fn loop_group(&mut self, c: &mut Choices, live: &[(Operand, IrType)]) -> Vec<(Operand, IrType)> {
        let header = self.new_block();
        let body = self.new_block();
        let exit = self.new_block();
        let pre = self.cur;
        self.blocks[pre].terminator = Terminator::Branch(self.label(header));

        let n = c.range(2, 6) as usize;
        let phis: Vec<(Value, IrType)> = (0..n)
            .map(|i| (self.value(), if i % 3 == 2 { IrType::I32 } else { IrType::I64 }))
            .collect();
        let ctr = self.value();

        // Body: some arithmetic on the phis, then the latch test.
        self.cur = body;
        let mut computed: Vec<(Operand, IrType)> = Vec::new();
        for _ in 0..c.range(0, 3) {
            let (a, ty) = phis[c.index(n)];
            let (b, tb) = phis[c.index(n)];
            let b = self.cast(Operand::Value(b), tb, ty);
            let op = c.pick(&[IrBinOp::Add, IrBinOp::Sub, IrBinOp::Mul, IrBinOp::Xor]);
            let r = self.binop(op, Operand::Value(a), b, ty);
            computed.push((r, ty));
        }
        let next = self.binop(
            IrBinOp::Add,
            Operand::Value(ctr),
            Operand::Const(IrConst::I32(1)),
            IrType::I32,
        );
        let t = self.value();
        let trip = c.range(1, 5) as i32;
        self.emit(Instruction::Cmp {
            dest: t,
            op: IrCmpOp::Slt,
            lhs: next,
            rhs: Operand::Const(IrConst::I32(trip)),
            ty: IrType::I32,
        });
        self.blocks[body].terminator = if c.chance(1, 3) {
            // A switch latch: every iteration count below the trip count is its
            // own case back to the header (one edge carrying several cases),
            // the default leaves the loop; the header's phis are live on both.
            let cases = (1..trip.max(2) as i64).map(|v| (v, self.label(header))).collect();
            Terminator::Switch {
                val: next,
                cases,
                default: self.label(exit),
                ty: IrType::I32,
            }
        } else if c.chance(1, 3) {
            // A computed-goto latch: its edges cannot be split, so the copies
            // for the header's phis run at its end even when it leaves for the
            // exit, where those phis are still live.
            let (to_header, to_exit, target) = (self.value(), self.value(), self.value());
            self.emit(Instruction::LabelAddr {
                dest: to_header,
                label: self.label(header),
            });
            self.emit(Instruction::LabelAddr {
                dest: to_exit,
                label: self.label(exit),
            });
            self.emit(Instruction::Select {
                dest: target,
                cond: Operand::Value(t),
                true_val: Operand::Value(to_header),
                false_val: Operand::Value(to_exit),
                ty: IrType::Ptr,
            });
            Terminator::IndirectBranch {
                target: Operand::Value(target),
                possible_targets: vec![self.label(header), self.label(exit)],
            }
        } else {
            Terminator::CondBranch {
                cond: Operand::Value(t),
                true_label: self.label(header),
                false_label: self.label(exit),
            }
        };

        // Back-edge values: mostly other phis of the same type (a permutation), so
        // the copies on the back edge form swaps, rotations and chains.
        let pattern = c.range(0, 3);
        let mut back: Vec<Operand> = Vec::new();
        for i in 0..n {
            let ty = phis[i].1;
            let same: Vec<usize> = (0..n).filter(|&j| phis[j].1 == ty).collect();
            let pos = same.iter().position(|&j| j == i).unwrap_or(0);
            let v = match pattern {
                // rotation by one within the type class (a swap when there are two)
                0 => Operand::Value(phis[same[(pos + 1) % same.len()]].0),
                // reversed order (pairwise swaps)
                1 => Operand::Value(phis[same[same.len() - 1 - pos]].0),
                // random choice: chains, fan-out, self-copies, computed values, constants
                _ => match c.range(0, 3) {
                    0 => Operand::Const(IrConst::from_i64(c.range(0, 99) as i64, ty)),
                    1 => computed
                        .iter()
                        .find(|(_, t)| *t == ty)
                        .map(|(v, _)| *v)
                        .unwrap_or(Operand::Value(phis[i].0)),
                    _ => Operand::Value(phis[same[c.index(same.len())]].0),
                },
            };
            back.push(v);
        }
        // Header phis: entry values from `live` (cast-free: pick same-typed ones or constants).
        let mut header_insts = Vec::new();
        for (i, &(dest, ty)) in phis.iter().enumerate() {
            let init = live
                .iter()
                .filter(|(_, t)| *t == ty)
                .nth(i % live.len().max(1))
                .map(|(v, _)| *v)
                .unwrap_or(Operand::Const(IrConst::from_i64(i as i64 + 1, ty)));
            header_insts.push(Instruction::Phi {
                dest,
                ty,
                incoming: vec![(init, self.label(pre)), (back[i], self.label(body))],
            });
        }
        header_insts.push(Instruction::Phi {
            dest: ctr,
            ty: IrType::I32,
            incoming: vec![
                (Operand::Const(IrConst::I32(0)), self.label(pre)),
                (next, self.label(body)),
            ],
        });
        self.blocks[header].instructions = header_insts;
        self.blocks[header].terminator = Terminator::Branch(self.label(body));
        self.cur = exit;
        phis.iter().map(|&(v, t)| (Operand::Value(v), t)).collect()
    }

    /// A loop entered at two blocks: `pre` branches to `h` or to `m`
    /// (often one of them through an empty detour block, so the two entries
    /// come from different depths of the dominator tree); `h` falls into
    /// `m`, and `m` counts the trips and goes back to `h` or leaves. Both
    /// blocks carry a group of phis: `h`'s read `m`'s (a permutation, or
    /// values computed in `m`) on the back edge, `m`'s read `h`'s. Returns
    /// `m`'s phis, which dominate the exit.
    fn irreducible_group(&mut self, c: &mut Choices, live: &[(Operand, IrType)]) -> Vec<(Operand, IrType)> {
        let pre = self.cur;
        let h = self.new_block();
        let m = self.new_block();
        let exit = self.new_block();
        let (mut into_h, mut into_m) = (pre, pre);
        let mut targets = [h, m];
        match c.range(0, 2) {
            1 => {
                into_h = self.new_block();
                targets[0] = into_h;
                self.blocks[into_h].terminator = Terminator::Branch(self.label(h));
            }
            2 => {
                into_m = self.new_block();
                targets[1] = into_m;
                self.blocks[into_m].terminator = Terminator::Branch(self.label(m));
            }
            _ => {}
        }
        if c.chance(1, 2) {
            targets.swap(0, 1);
        }
        // Which way to enter: a comparison of a live value with a constant.
        self.cur = pre;
        let (v, ty) = live[c.index(live.len())];
        let t = self.value();
        self.emit(Instruction::Cmp {
            dest: t,
            op: IrCmpOp::Slt,
            lhs: v,
            rhs: Operand::Const(IrConst::from_i64(c.range(0, 1000) as i64, ty)),
            ty,
        });
        self.blocks[pre].terminator = Terminator::CondBranch {
            cond: Operand::Value(t),
            true_label: self.label(targets[0]),
            false_label: self.label(targets[1]),
        };

        let n = c.range(2, 5) as usize;
        let types: Vec<IrType> = (0..n)
            .map(|i| if i % 3 == 2 { IrType::I32 } else { IrType::I64 })
            .collect();
        let hp: Vec<Value> = (0..n).map(|_| self.value()).collect();
        let mp: Vec<Value> = (0..n).map(|_| self.value()).collect();
        let (ctr_h, ctr_m) = (self.value(), self.value());
        // A value of type `ty` for phi `i` flowing out of a block whose own phis are `own`.
        let pick = |g: &mut Self, c: &mut Choices, own: &[Value], i: usize| -> Operand {
            let same: Vec<usize> = (0..n).filter(|&j| types[j] == types[i]).collect();
            match c.range(0, 4) {
                0 => {
                    let (a, b) = (own[same[c.index(same.len())]], own[same[c.index(same.len())]]);
                    let op = c.pick(&[IrBinOp::Add, IrBinOp::Sub, IrBinOp::Xor]);
                    g.binop(op, Operand::Value(a), Operand::Value(b), types[i])
                }
                1 => Operand::Const(IrConst::from_i64(c.range(0, 99) as i64, types[i])),
                // Another phi of the block, unchanged (a permutation or a chain).
                _ => Operand::Value(own[same[c.index(same.len())]]),
            }
        };
        let init = |i: usize, k: usize| {
            live.iter()
                .filter(|(_, t)| *t == types[i])
                .nth((i + k) % live.len().max(1))
                .map(|(v, _)| *v)
                .unwrap_or(Operand::Const(IrConst::from_i64(i as i64 + k as i64, types[i])))
        };
        // h: computes from its phis, falls into m.
        self.cur = h;
        let to_m: Vec<Operand> = (0..n).map(|i| pick(self, c, &hp, i)).collect();
        self.blocks[h].terminator = Terminator::Branch(self.label(m));
        // m: counts, goes back to h or leaves.
        self.cur = m;
        let back: Vec<Operand> = (0..n).map(|i| pick(self, c, &mp, i)).collect();
        let next = self.binop(
            IrBinOp::Add,
            Operand::Value(ctr_m),
            Operand::Const(IrConst::I32(1)),
            IrType::I32,
        );
        let t = self.value();
        self.emit(Instruction::Cmp {
            dest: t,
            op: IrCmpOp::Slt,
            lhs: next,
            rhs: Operand::Const(IrConst::I32(c.range(1, 5) as i32)),
            ty: IrType::I32,
        });
        self.blocks[m].terminator = Terminator::CondBranch {
            cond: Operand::Value(t),
            true_label: self.label(h),
            false_label: self.label(exit),
        };
        let (lh, lm, l_into_h, l_into_m) = (self.label(h), self.label(m), self.label(into_h), self.label(into_m));
        let mut h_phis: Vec<Instruction> = (0..n)
            .map(|i| Instruction::Phi {
                dest: hp[i],
                ty: types[i],
                incoming: vec![(init(i, 0), l_into_h), (back[i], lm)],
            })
            .collect();
        h_phis.push(Instruction::Phi {
            dest: ctr_h,
            ty: IrType::I32,
            incoming: vec![(Operand::Const(IrConst::I32(0)), l_into_h), (next, lm)],
        });
        let mut m_phis: Vec<Instruction> = (0..n)
            .map(|i| Instruction::Phi {
                dest: mp[i],
                ty: types[i],
                incoming: vec![(init(i, 1), l_into_m), (to_m[i], lh)],
            })
            .collect();
        m_phis.push(Instruction::Phi {
            dest: ctr_m,
            ty: IrType::I32,
            incoming: vec![(Operand::Const(IrConst::I32(0)), l_into_m), (Operand::Value(ctr_h), lh)],
        });
        h_phis.append(&mut self.blocks[h].instructions);
        self.blocks[h].instructions = h_phis;
        m_phis.append(&mut self.blocks[m].instructions);
        self.blocks[m].instructions = m_phis;
        self.cur = exit;
        mp.iter().zip(&types).map(|(&v, &t)| (Operand::Value(v), t)).collect()
    }

    /// A switch (with duplicate targets) into case blocks that each feed a join
    /// whose phis pick, per incoming edge, a different permutation of `live`.
    fn switch_join(&mut self, c: &mut Choices, live: &[(Operand, IrType)]) -> Vec<(Operand, IrType)> {
        let pre = self.cur;
        let k = c.range(1, 4) as usize;
        let cases_blocks: Vec<usize> = (0..k).map(|_| self.new_block()).collect();
        let join = self.new_block();
        let sel_src = live
            .iter()
            .find(|(_, t)| *t == IrType::I64)
            .map(|(v, _)| *v)
            .unwrap_or(Operand::Const(IrConst::I64(3)));
        let sel = self.binop(IrBinOp::URem, sel_src, Operand::Const(IrConst::I64(7)), IrType::I64);
        // Some cases (often several) go straight to the join, like the default.
        let direct = c.chance(1, 2);
        let cases: Vec<(i64, BlockId)> = (0..6)
            .map(|v| {
                let t = if direct && c.chance(1, 2) {
                    join
                } else {
                    cases_blocks[c.index(k)]
                };
                (v, self.label(t))
            })
            .collect();
        // The default goes straight to the join: a critical edge from the switch.
        self.blocks[pre].terminator = Terminator::Switch {
            val: sel,
            cases,
            default: self.label(join),
            ty: IrType::I64,
        };
        for &b in &cases_blocks {
            self.blocks[b].terminator = Terminator::Branch(self.label(join));
        }
        let mut preds = vec![pre];
        preds.extend(&cases_blocks);
        let mut out = Vec::new();
        let mut insts = Vec::new();
        for (i, &(_, ty)) in live.iter().enumerate() {
            let same: Vec<Operand> = live.iter().filter(|(_, t)| *t == ty).map(|(v, _)| *v).collect();
            let dest = self.value();
            let incoming = preds
                .iter()
                .map(|&p| (same[(i + c.index(same.len())) % same.len()], self.label(p)))
                .collect();
            insts.push(Instruction::Phi { dest, ty, incoming });
            out.push((Operand::Value(dest), ty));
        }
        self.blocks[join].instructions = insts;
        self.cur = join;
        out
    }
}
