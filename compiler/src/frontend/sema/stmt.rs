//! Statements (C11 6.8): blocks and their scopes, expression statements,
//! selection (`if`, `switch` with GNU case ranges and duplicate detection),
//! iteration, jumps (`goto`, GNU `goto *`, `break`/`continue` legality,
//! `return` with conversion as if by assignment), labels (function-wide,
//! plus GNU `__label__` local labels) and GNU inline assembly.

use super::super::ast::{self, BlockItem};
use super::super::hir::{Asm, AsmOperand, CaseId, Expr, ExprKind, Init, LabelId, Stmt, StmtKind, SwitchCase};
use super::super::source::{PResult, Span};
use super::conv::AssignCtx;
use super::ty;
use super::{const_eval, err, Sema, SwitchCx};
use rustc_hash::FxHashMap;
use std::sync::Arc;

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

impl Sema {
    /// The items of a block, in the current scope.
    pub(super) fn block_items(&mut self, items: &[BlockItem], out: &mut Vec<Stmt>) -> PResult<()> {
        let has_local_labels = items.iter().any(|i| matches!(i, BlockItem::LocalLabels(_)));
        if has_local_labels {
            if let Some(f) = self.func.as_mut() {
                f.label_scopes.push(FxHashMap::default());
            }
        }
        let r = self.block_items_inner(items, out);
        if has_local_labels {
            if let Some(f) = self.func.as_mut() {
                f.label_scopes.pop();
            }
        }
        r
    }

    fn block_items_inner(&mut self, items: &[BlockItem], out: &mut Vec<Stmt>) -> PResult<()> {
        for item in items {
            match item {
                BlockItem::Decl(d) => self.block_declaration(d, out)?,
                BlockItem::Stmt(s) => {
                    let s = self.stmt(s)?;
                    self.flush_pending(out);
                    out.push(s);
                }
                BlockItem::LocalLabels(names) => {
                    for n in names {
                        let f = self.fcx(Span::default())?;
                        let id = LabelId(f.labels.len() as u32);
                        f.labels.push(super::super::hir::Label {
                            name: n.clone(),
                            address_taken: false,
                        });
                        f.label_defined.push(None);
                        f.label_first_use.push(Span::default());
                        if let Some(scope) = f.label_scopes.last_mut() {
                            scope.insert(n.clone(), id);
                        }
                    }
                }
                BlockItem::Pragma(text, span) => self.pragma(text, *span)?,
                BlockItem::Function(f) => {
                    return Err(err(f.span, "nested function definitions are not supported"));
                }
            }
        }
        Ok(())
    }

    /// VLA size computations left over by a statement's type names.
    pub(super) fn flush_pending(&mut self, out: &mut Vec<Stmt>) {
        out.append(&mut self.vla_pending);
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> PResult<Stmt> {
        self.enter(s.span)?;
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> PResult<Stmt> {
        let f = self.fcx(body.span)?;
        f.loop_depth += 1;
        f.break_depth += 1;
        let r = self.stmt(body);
        if let Some(f) = self.func.as_mut() {
            f.loop_depth -= 1;
            f.break_depth -= 1;
        }
        r
    }

    fn stmt_inner(&mut self, s: &ast::Stmt) -> PResult<Stmt> {
        use ast::StmtKind as A;
        let span = s.span;
        let kind = match &s.kind {
            A::Expr(None) => StmtKind::Empty,
            A::Expr(Some(e)) => {
                let v = self.rvalue_of(e)?;
                StmtKind::Expr(v)
            }
            A::Block(b) => {
                self.scopes.push();
                let mut out = Vec::new();
                let r = self.block_items(&b.items, &mut out);
                self.scopes.pop();
                r?;
                StmtKind::Block(out)
            }
            A::If(c, t, e) => {
                let cond = self.scalar_of(c, " (condition of 'if')")?;
                let then = Box::new(self.scoped_stmt(t)?);
                let els = match e {
                    Some(e) => Some(Box::new(self.scoped_stmt(e)?)),
                    None => None,
                };
                StmtKind::If { cond, then, els }
            }
            A::Switch(c, body) => return self.switch(c, body, span),
            A::While(c, body) => {
                let cond = self.scalar_of(c, " (condition of 'while')")?;
                self.scopes.push();
                let body = self.loop_body(body);
                self.scopes.pop();
                StmtKind::While {
                    cond,
                    body: Box::new(body?),
                }
            }
            A::DoWhile(body, c) => {
                self.scopes.push();
                let body = self.loop_body(body);
                self.scopes.pop();
                let body = body?;
                let cond = self.scalar_of(c, " (condition of 'do-while')")?;
                StmtKind::DoWhile {
                    body: Box::new(body),
                    cond,
                }
            }
            A::For(init, cond, step, body) => {
                self.scopes.push();
                let r = self.for_stmt(init, cond.as_deref(), step.as_deref(), body, span);
                self.scopes.pop();
                return r;
            }
            A::Goto(name) => StmtKind::Goto(self.label_ref(name, span)?),
            A::GotoIndirect(e) => {
                let v = self.rvalue_of(e)?;
                if !ty::is_pointer(&v.ty.ty) {
                    return Err(err(e.span, "'goto *' needs a pointer operand"));
                }
                let target = self.convert(v, &ty::void_ptr());
                self.fcx(span)?.has_indirect_goto = true;
                StmtKind::GotoIndirect {
                    target,
                    targets: Vec::new(),
                }
            }
            A::Continue => {
                if self.fcx(span)?.loop_depth == 0 {
                    return Err(err(span, "continue statement not within a loop"));
                }
                StmtKind::Continue
            }
            A::Break => {
                if self.fcx(span)?.break_depth == 0 {
                    return Err(err(span, "break statement not within loop or switch"));
                }
                StmtKind::Break
            }
            A::Return(e) => return self.return_stmt(e.as_ref(), span),
            A::Labeled(name, _, body) => {
                let id = self.label_def(name, span)?;
                let body = self.stmt(body)?;
                StmtKind::Block(vec![stmt(StmtKind::Label(id), span), body])
            }
            A::Case(lo, hi, body) => return self.case(lo, hi.as_deref(), body, span),
            A::Default(body) => {
                let f = self.fcx(span)?;
                let Some(sw) = f.switches.last() else {
                    return Err(err(span, "'default' label not within a switch statement"));
                };
                if sw.default.is_some() {
                    return Err(err(span, "multiple default labels in one switch"));
                }
                let id = CaseId(f.next_case);
                f.next_case += 1;
                if let Some(sw) = f.switches.last_mut() {
                    sw.default = Some(id);
                }
                let body = self.stmt(body)?;
                StmtKind::Block(vec![stmt(StmtKind::Case(id), span), body])
            }
            A::Asm(a) => StmtKind::Asm(self.asm_stmt(a, span)?),
        };
        Ok(stmt(kind, span))
    }

    /// A secondary block of `if` (6.8.4p3: it is a block of its own).
    fn scoped_stmt(&mut self, s: &ast::Stmt) -> PResult<Stmt> {
        self.scopes.push();
        let r = self.stmt(s);
        self.scopes.pop();
        r
    }

    fn for_stmt(
        &mut self,
        init: &ast::ForInit,
        cond: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        span: Span,
    ) -> PResult<Stmt> {
        let init = match init {
            ast::ForInit::None => None,
            ast::ForInit::Expr(e) => {
                let v = self.rvalue_of(e)?;
                Some(Box::new(stmt(StmtKind::Expr(v), e.span)))
            }
            ast::ForInit::Decl(d) => {
                let mut out = Vec::new();
                self.block_declaration(d, &mut out)?;
                Some(Box::new(stmt(StmtKind::Block(out), d.span)))
            }
        };
        let cond = match cond {
            Some(c) => Some(self.scalar_of(c, " (condition of 'for')")?),
            None => None,
        };
        let step = match step {
            Some(e) => Some(self.rvalue_of(e)?),
            None => None,
        };
        self.scopes.push();
        let body = self.loop_body(body);
        self.scopes.pop();
        Ok(stmt(
            StmtKind::For {
                init,
                cond,
                step,
                body: Box::new(body?),
            },
            span,
        ))
    }

    fn return_stmt(&mut self, e: Option<&ast::Expr>, span: Span) -> PResult<Stmt> {
        let ret = self.fcx(span)?.ret.clone();
        let Some(e) = e else {
            if !ty::is_void(&ret.ty) {
                self.warn(span, "'return' with no value, in function returning non-void");
            }
            return Ok(stmt(StmtKind::Return(None), span));
        };
        let v = self.rvalue_of(e)?;
        if ty::is_void(&ret.ty) {
            if !ty::is_void(&v.ty.ty) {
                self.warn(span, "'return' with a value, in function returning void");
            }
            return Ok(stmt(
                StmtKind::Block(vec![
                    stmt(StmtKind::Expr(v), e.span),
                    stmt(StmtKind::Return(None), span),
                ]),
                span,
            ));
        }
        let v = self.assign_convert(v, &ret, AssignCtx::Return, e.span)?;
        Ok(stmt(StmtKind::Return(Some(v)), span))
    }

    /// `switch` (6.8.4.2): the controlling expression is promoted; case values
    /// are converted to its type.
    fn switch(&mut self, c: &ast::Expr, body: &ast::Stmt, span: Span) -> PResult<Stmt> {
        let v = self.rvalue_of(c)?;
        if ty::int_kind(&v.ty.ty, &self.types).is_none() {
            return Err(err(c.span, "switch quantity not an integer"));
        }
        let cond = self.promote(v);
        let f = self.fcx(span)?;
        f.switches.push(SwitchCx {
            cond_ty: cond.ty.clone(),
            cases: Vec::new(),
            case_spans: Vec::new(),
            default: None,
        });
        f.break_depth += 1;
        self.scopes.push();
        let body = self.stmt(body);
        self.scopes.pop();
        let f = self.fcx(span)?;
        f.break_depth -= 1;
        let sw = f.switches.pop().expect("pushed above");
        Ok(stmt(
            StmtKind::Switch {
                cond,
                body: Box::new(body?),
                cases: sw.cases,
                default: sw.default,
            },
            span,
        ))
    }

    fn case(&mut self, lo: &ast::Expr, hi: Option<&ast::Expr>, body: &ast::Stmt, span: Span) -> PResult<Stmt> {
        let Some(cond_ty) = self.fcx(span)?.switches.last().map(|s| s.cond_ty.clone()) else {
            return Err(err(span, "case label not within a switch statement"));
        };
        let k = ty::int_kind(&cond_ty.ty, &self.types).expect("promoted integer");
        let value = |this: &mut Sema, e: &ast::Expr| -> PResult<i128> {
            let v = this.const_int(e)?;
            Ok(const_eval::normalize(v, k, this.target))
        };
        let a = value(self, lo)?;
        let b = match hi {
            Some(h) => value(self, h)?,
            None => a,
        };
        let f = self.fcx(span)?;
        let id = CaseId(f.next_case);
        f.next_case += 1;
        if b < a {
            self.warn(span, "empty range specified");
        } else {
            let f = self.fcx(span)?;
            let sw = f.switches.last_mut().expect("checked above");
            if let Some(i) = sw.cases.iter().position(|c| c.lo <= b && a <= c.hi) {
                let prev = sw.case_spans[i];
                let _ = prev;
                return Err(err(span, "duplicate case value"));
            }
            sw.cases.push(SwitchCase { lo: a, hi: b, id });
            sw.case_spans.push(span);
        }
        let body = self.stmt(body)?;
        Ok(stmt(StmtKind::Block(vec![stmt(StmtKind::Case(id), span), body]), span))
    }

    /// The label `name` as used by `goto`/`&&` (created on first use).
    pub(super) fn label_ref(&mut self, name: &Arc<str>, span: Span) -> PResult<LabelId> {
        let f = self
            .func
            .as_mut()
            .ok_or_else(|| err(span, format!("label '{name}' referenced outside of any function")))?;
        for scope in f.label_scopes.iter().rev() {
            if let Some(&id) = scope.get(name) {
                if f.label_first_use[id.0 as usize] == Span::default() {
                    f.label_first_use[id.0 as usize] = span;
                }
                return Ok(id);
            }
        }
        let id = LabelId(f.labels.len() as u32);
        f.labels.push(super::super::hir::Label {
            name: name.clone(),
            address_taken: false,
        });
        f.label_defined.push(None);
        f.label_first_use.push(span);
        f.label_scopes[0].insert(name.clone(), id);
        Ok(id)
    }

    fn label_def(&mut self, name: &Arc<str>, span: Span) -> PResult<LabelId> {
        let id = self.label_ref(name, span)?;
        let f = self.fcx(span)?;
        if f.label_defined[id.0 as usize].is_some() {
            return Err(err(span, format!("duplicate label '{name}'")));
        }
        f.label_defined[id.0 as usize] = Some(span);
        Ok(id)
    }

    /// `_Static_assert` (6.7.10).
    pub(super) fn static_assert(&mut self, sa: &ast::StaticAssert) -> PResult<()> {
        let v = self.const_int(&sa.cond)?;
        if v == 0 {
            let msg = match &sa.message {
                Some(m) => format!("static assertion failed: \"{m}\""),
                None => "static assertion failed".to_string(),
            };
            return Err(err(sa.span, msg));
        }
        Ok(())
    }

    /// Whether an asm input constraint allows only memory (the operand is
    /// then an lvalue whose address the asm uses).
    fn memory_only_constraint(&self, c: &str) -> bool {
        let target_mem = self.target.info().asm_memory_constraints;
        let letters: Vec<char> = c
            .chars()
            .filter(|ch| !matches!(ch, '=' | '+' | '&' | '%' | '*' | '?' | '!' | '#' | ','))
            .collect();
        !letters.is_empty()
            && letters
                .iter()
                .all(|ch| matches!(ch, 'm' | 'o' | 'V' | '<' | '>') || target_mem.contains(ch))
    }

    /// GNU extended asm: outputs are lvalues, memory inputs lvalues, other
    /// inputs values; `asm goto` labels resolve to this function's labels.
    fn asm_stmt(&mut self, a: &ast::AsmStmt, span: Span) -> PResult<Asm> {
        if self.func.is_none() {
            return Err(err(span, "asm statement outside a function"));
        }
        let mut outputs = Vec::new();
        for op in &a.outputs {
            if !op.constraint.starts_with('=') && !op.constraint.starts_with('+') {
                return Err(err(
                    op.expr.span,
                    format!("output operand constraint '{}' lacks '='", op.constraint),
                ));
            }
            let e = self.expr(&op.expr)?;
            if !e.is_lvalue() || ty::is_array(&e.ty.ty) || ty::is_function(&e.ty.ty) {
                return Err(err(op.expr.span, "invalid lvalue in asm output"));
            }
            if let ExprKind::Member { bitfield: Some(_), .. } = e.kind {
                return Err(err(op.expr.span, "a bit-field cannot be an asm output"));
            }
            if e.ty.quals.is_const {
                return Err(err(op.expr.span, "read-only object used as an asm output"));
            }
            outputs.push(AsmOperand {
                name: op.name.as_ref().map(|n| n.to_string()),
                constraint: op.constraint.clone(),
                expr: e,
            });
        }
        let mut inputs = Vec::new();
        for op in &a.inputs {
            if op.constraint.starts_with('=') || op.constraint.starts_with('+') {
                return Err(err(
                    op.expr.span,
                    format!(
                        "input operand constraint '{}' contains '{}'",
                        op.constraint,
                        &op.constraint[..1]
                    ),
                ));
            }
            let e = if self.memory_only_constraint(&op.constraint) {
                let e = self.expr(&op.expr)?;
                if !e.is_lvalue() {
                    return Err(err(op.expr.span, "memory input is not directly addressable"));
                }
                if let ExprKind::Member { bitfield: Some(_), .. } = e.kind {
                    return Err(err(op.expr.span, "a bit-field cannot be a memory input"));
                }
                e
            } else {
                let v = self.rvalue_of(&op.expr)?;
                if ty::is_void(&v.ty.ty) {
                    return Err(err(op.expr.span, "void value used as an asm input"));
                }
                v
            };
            inputs.push(AsmOperand {
                name: op.name.as_ref().map(|n| n.to_string()),
                constraint: op.constraint.clone(),
                expr: e,
            });
        }
        let mut labels = Vec::new();
        for (name, lspan) in &a.labels {
            labels.push(self.label_ref(name, *lspan)?);
        }
        Ok(Asm {
            template: a.template.clone(),
            is_volatile: a.is_volatile || a.outputs.is_empty() || a.is_goto,
            is_goto: a.is_goto,
            outputs,
            inputs,
            clobbers: a.clobbers.clone(),
            labels,
            span,
        })
    }
}

/// Sets the possible targets of every `goto *` in a function body.
pub(super) fn fill_indirect_targets(s: &mut Stmt, targets: &[LabelId]) {
    match &mut s.kind {
        StmtKind::GotoIndirect { target, targets: t } => {
            *t = targets.to_vec();
            fill_in_expr(target, targets);
        }
        StmtKind::Block(v) => v.iter_mut().for_each(|x| fill_indirect_targets(x, targets)),
        StmtKind::Expr(e) => fill_in_expr(e, targets),
        StmtKind::Decl { init: Some(i), .. } => fill_in_init(i, targets),
        StmtKind::VlaAlloc { count, .. } => fill_in_expr(count, targets),
        StmtKind::If { cond, then, els } => {
            fill_in_expr(cond, targets);
            fill_indirect_targets(then, targets);
            if let Some(e) = els {
                fill_indirect_targets(e, targets);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            fill_in_expr(cond, targets);
            fill_indirect_targets(body, targets);
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                fill_indirect_targets(i, targets);
            }
            if let Some(c) = cond {
                fill_in_expr(c, targets);
            }
            if let Some(st) = step {
                fill_in_expr(st, targets);
            }
            fill_indirect_targets(body, targets);
        }
        StmtKind::Switch { cond, body, .. } => {
            fill_in_expr(cond, targets);
            fill_indirect_targets(body, targets);
        }
        StmtKind::Return(Some(e)) => fill_in_expr(e, targets),
        StmtKind::Asm(a) => {
            for op in a.outputs.iter_mut().chain(a.inputs.iter_mut()) {
                fill_in_expr(&mut op.expr, targets);
            }
        }
        _ => {}
    }
}

fn fill_in_init(i: &mut Init, targets: &[LabelId]) {
    match i {
        Init::Expr(e) => fill_in_expr(e, targets),
        Init::List { stores } => stores.iter_mut().for_each(|s| fill_in_init(&mut s.init, targets)),
    }
}

/// Statement expressions can hold `goto *` too.
fn fill_in_expr(e: &mut Expr, targets: &[LabelId]) {
    match &mut e.kind {
        ExprKind::StmtExpr { body, result } => {
            body.iter_mut().for_each(|s| fill_indirect_targets(s, targets));
            if let Some(r) = result {
                fill_in_expr(r, targets);
            }
        }
        ExprKind::CompoundLiteral { init, .. } => fill_in_init(init, targets),
        ExprKind::Deref(x)
        | ExprKind::Load(x)
        | ExprKind::ArrayDecay(x)
        | ExprKind::FuncDecay(x)
        | ExprKind::Cast(_, x)
        | ExprKind::AddrOf(x)
        | ExprKind::Unary(_, x)
        | ExprKind::VaArg(x) => fill_in_expr(x, targets),
        ExprKind::Member { base, .. } => fill_in_expr(base, targets),
        ExprKind::Binary(_, a, b)
        | ExprKind::LogAnd(a, b)
        | ExprKind::LogOr(a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::PtrAdd { ptr: a, index: b, .. }
        | ExprKind::PtrDiff { lhs: a, rhs: b, .. }
        | ExprKind::Complex(a, b)
        | ExprKind::Assign { lhs: a, rhs: b }
        | ExprKind::CompoundAssign { lhs: a, rhs: b, .. } => {
            fill_in_expr(a, targets);
            fill_in_expr(b, targets);
        }
        ExprKind::Cond(c, a, b) => {
            fill_in_expr(c, targets);
            fill_in_expr(a, targets);
            fill_in_expr(b, targets);
        }
        ExprKind::IncDec { lhs, .. } => fill_in_expr(lhs, targets),
        ExprKind::Call { callee, args, .. } => {
            fill_in_expr(callee, targets);
            args.iter_mut().for_each(|a| fill_in_expr(a, targets));
        }
        ExprKind::Builtin(_, args) => args.iter_mut().for_each(|a| fill_in_expr(a, targets)),
        ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::Str(_)
        | ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::LabelAddr(_) => {}
    }
}
