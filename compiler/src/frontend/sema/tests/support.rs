//! Helpers: analyze C source for a target, find functions, globals and
//! expressions in the typed tree, and run probe programs with the target's gcc.

use crate::frontend::hir::*;
use crate::frontend::source::{Diagnostic, SourceMap};
use crate::frontend::{parse_source, PreprocessOptions};
use crate::target::Target;

/// Parses and analyzes `src`; errors rendered as text.
pub(crate) fn analyze_t(src: &str, t: Target) -> Result<(Program, Vec<Diagnostic>), String> {
    let mut sm = SourceMap::new();
    let tu = parse_source(&mut sm, "t.c", src.as_bytes(), &PreprocessOptions::new(t)).map_err(|d| d.render(&sm))?;
    crate::frontend::sema::analyze(&tu, t).map_err(|d| d.render(&sm))
}

/// Analyzes for x86-64 and panics on error.
pub(crate) fn ok(src: &str) -> Program {
    match analyze_t(src, Target::X86_64) {
        Ok((p, _)) => p,
        Err(e) => panic!("unexpected error:\n{e}\nin:\n{src}"),
    }
}

/// Analyzes for x86-64 and returns the warnings.
pub(crate) fn warnings(src: &str) -> Vec<String> {
    match analyze_t(src, Target::X86_64) {
        Ok((_, w)) => w.into_iter().map(|d| d.message).collect(),
        Err(e) => panic!("unexpected error:\n{e}\nin:\n{src}"),
    }
}

/// The rendered first error (panics when the program is accepted).
pub(crate) fn error(src: &str) -> String {
    match analyze_t(src, Target::X86_64) {
        Ok(_) => panic!("expected an error in:\n{src}"),
        Err(e) => e,
    }
}

pub(crate) fn global<'a>(p: &'a Program, name: &str) -> &'a Global {
    p.globals
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no global '{name}'"))
}

pub(crate) fn global_id(p: &Program, name: &str) -> GlobalId {
    GlobalId(
        p.globals
            .iter()
            .position(|g| g.name == name)
            .unwrap_or_else(|| panic!("no global '{name}'")) as u32,
    )
}

pub(crate) fn func<'a>(p: &'a Program, name: &str) -> &'a Function {
    let id = global_id(p, name);
    p.functions
        .iter()
        .find(|f| f.global == id)
        .unwrap_or_else(|| panic!("no function '{name}'"))
}

/// The statements of a function body (flattening the outer block).
pub(crate) fn body<'a>(p: &'a Program, name: &str) -> &'a [Stmt] {
    match &func(p, name).body.kind {
        StmtKind::Block(v) => v,
        _ => panic!("body is not a block"),
    }
}

/// The expression of the `return` in a function of the form `{ ... return e; }`.
pub(crate) fn returned<'a>(p: &'a Program, name: &str) -> &'a Expr {
    fn find(s: &Stmt) -> Option<&Expr> {
        match &s.kind {
            StmtKind::Return(Some(e)) => Some(e),
            StmtKind::Block(v) => v.iter().find_map(find),
            _ => None,
        }
    }
    body(p, name)
        .iter()
        .find_map(find)
        .unwrap_or_else(|| panic!("no return in '{name}'"))
}

/// The folded integer value of an expression, if it is a constant.
pub(crate) fn int_of(e: &Expr) -> Option<i128> {
    match e.kind {
        ExprKind::Int(v) => Some(v),
        _ => None,
    }
}

/// The static initializer of a global.
pub(crate) fn init_of<'a>(p: &'a Program, name: &str) -> &'a StaticInit {
    global(p, name)
        .init
        .as_ref()
        .unwrap_or_else(|| panic!("'{name}' has no initializer"))
}

/// The bytes of a static initializer, with address items as `None` bytes.
pub(crate) fn init_bytes(init: &StaticInit) -> Vec<Option<u8>> {
    let mut out = vec![Some(0u8); init.size as usize];
    for it in &init.items {
        let at = it.offset as usize;
        match &it.value {
            StaticValue::Int { size, bits } => {
                for (i, b) in bits.to_le_bytes()[..*size as usize].iter().enumerate() {
                    out[at + i] = Some(*b);
                }
            }
            StaticValue::Bytes(b) => {
                for (i, x) in b.iter().enumerate() {
                    out[at + i] = Some(*x);
                }
            }
            StaticValue::Float { kind, value } => {
                use crate::frontend::types::FloatKind;
                let bytes: Vec<Option<u8>> = match kind {
                    FloatKind::Float => value.to_f32().to_le_bytes().iter().map(|&b| Some(b)).collect(),
                    FloatKind::Double => value.to_f64().to_le_bytes().iter().map(|&b| Some(b)).collect(),
                    // The encoding of long double is the backend's business.
                    _ => vec![None; 16],
                };
                for (i, x) in bytes.iter().enumerate() {
                    out[at + i] = *x;
                }
            }
            StaticValue::Addr { .. } | StaticValue::LabelDiff { .. } => {
                for o in out.iter_mut().skip(at).take(8) {
                    *o = None;
                }
            }
        }
    }
    out
}

/// Whether the target's gcc (and for foreign targets qemu) can run probes.
pub(crate) fn gcc_for(t: Target) -> Option<(String, Vec<String>)> {
    let cc = t.gcc();
    let runner: Vec<String> = match t.emulator() {
        None => vec![],
        Some(q) => vec![q.into(), "-L".into(), t.info().sysroot.into()],
    };
    let ok = std::process::Command::new(cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        crate::test_skip::tool_missing(&format!("the {} probe", t.name()), &format!("{cc} not installed"));
        return None;
    }
    if let Some(r) = runner.first() {
        if std::process::Command::new(r).arg("--version").output().is_err() {
            crate::test_skip::tool_missing(&format!("the {} probe", t.name()), &format!("{r} not installed"));
            return None;
        }
    }
    Some((cc.to_string(), runner))
}

/// Compiles `src` with the target's gcc and runs it; returns stdout.
pub(crate) fn run_probe(t: Target, src: &str) -> Option<String> {
    let (cc, runner) = gcc_for(t)?;
    let dir = tempdir(&format!("probe_{}", t.name()));
    let c = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&c, src).unwrap();
    let out = std::process::Command::new(&cc)
        .args(["-std=gnu11", "-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cc} failed:\n{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = if runner.is_empty() {
        std::process::Command::new(&exe).output().unwrap()
    } else {
        std::process::Command::new(&runner[0])
            .args(&runner[1..])
            .arg(&exe)
            .output()
            .unwrap()
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        run.status.success(),
        "probe failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(String::from_utf8_lossy(&run.stdout).into_owned())
}

/// Checks `_Static_assert`s with the target's gcc (`-fsyntax-only`, no run needed).
pub(crate) fn gcc_accepts(t: Target, src: &str) -> Option<Result<(), String>> {
    let (cc, _) = gcc_for(t)?;
    let dir = tempdir(&format!("syntax_{}", t.name()));
    let c = dir.join("check.c");
    std::fs::write(&c, src).unwrap();
    let out = std::process::Command::new(&cc)
        .args(["-std=gnu11", "-w", "-fsyntax-only"])
        .arg(&c)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

pub(crate) fn tempdir(tag: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let d = std::env::temp_dir().join(format!(
        "phicc_sema_{tag}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A compact S-expression of a typed expression, for assertions:
/// `(Add:int (Load x) 1:int)`. Locals print by name, globals as `@name`,
/// casts as their kind, types after a colon where they matter.
pub(crate) fn sexp(p: &Program, f: Option<&Function>, e: &Expr) -> String {
    let t = |e: &Expr| crate::frontend::sema::ty::type_name(&e.ty, &p.types);
    let s = |x: &Expr| sexp(p, f, x);
    match &e.kind {
        ExprKind::Local(id) => f
            .map(|f| f.locals[id.0 as usize].name.to_string())
            .unwrap_or_else(|| format!("local{}", id.0)),
        ExprKind::Global(id) => format!("@{}", p.globals[id.0 as usize].name),
        ExprKind::Deref(x) => format!("(Deref {})", s(x)),
        ExprKind::Member { base, offset, bitfield } => match bitfield {
            Some(bf) => format!(
                "(Member {} +{offset} bf{}:{}:{})",
                s(base),
                bf.unit_size,
                bf.bit_offset,
                bf.width
            ),
            None => format!("(Member {} +{offset})", s(base)),
        },
        ExprKind::Str(id) => format!("str{}", id.0),
        ExprKind::CompoundLiteral { .. } => "(CompoundLiteral)".into(),
        ExprKind::Load(x) => format!("(Load {})", s(x)),
        ExprKind::ArrayDecay(x) => format!("(ArrayDecay {})", s(x)),
        ExprKind::FuncDecay(x) => format!("(FuncDecay {})", s(x)),
        ExprKind::Cast(k, x) => format!("({k:?}:{} {})", t(e), s(x)),
        ExprKind::Int(v) => format!("{v}:{}", t(e)),
        ExprKind::Float(v) => format!("{v}:{}", t(e)),
        ExprKind::AddrOf(x) => format!("(AddrOf {})", s(x)),
        ExprKind::Unary(op, x) => format!("({op:?}:{} {})", t(e), s(x)),
        ExprKind::Binary(op, a, b) => format!("({op:?}:{} {} {})", t(e), s(a), s(b)),
        ExprKind::PtrAdd { ptr, index, elem_size } => format!("(PtrAdd*{elem_size} {} {})", s(ptr), s(index)),
        ExprKind::PtrDiff { lhs, rhs, elem_size } => format!("(PtrDiff/{elem_size} {} {})", s(lhs), s(rhs)),
        ExprKind::LogAnd(a, b) => format!("(LogAnd {} {})", s(a), s(b)),
        ExprKind::LogOr(a, b) => format!("(LogOr {} {})", s(a), s(b)),
        ExprKind::Cond(c, a, b) => format!("(Cond:{} {} {} {})", t(e), s(c), s(a), s(b)),
        ExprKind::Comma(a, b) => format!("(Comma {} {})", s(a), s(b)),
        ExprKind::Complex(a, b) => format!("(Complex:{} {} {})", t(e), s(a), s(b)),
        ExprKind::Assign { lhs, rhs } => format!("(Assign:{} {} {})", t(e), s(lhs), s(rhs)),
        ExprKind::CompoundAssign {
            op,
            lhs,
            rhs,
            op_ty,
            ptr_elem_size,
        } => format!(
            "(CompoundAssign {op:?} in {}{} {} {})",
            crate::frontend::sema::ty::type_name(op_ty, &p.types),
            ptr_elem_size.map(|n| format!(" *{n}")).unwrap_or_default(),
            s(lhs),
            s(rhs)
        ),
        ExprKind::IncDec {
            lhs,
            is_prefix,
            delta,
            ptr_elem_size,
        } => format!(
            "({}{delta:+}{} {})",
            if *is_prefix { "Pre" } else { "Post" },
            ptr_elem_size.map(|n| format!("*{n}")).unwrap_or_default(),
            s(lhs)
        ),
        ExprKind::Call { callee, args, .. } => {
            let mut out = format!("(Call:{} {}", t(e), s(callee));
            for a in args {
                out.push(' ');
                out.push_str(&s(a));
            }
            out.push(')');
            out
        }
        ExprKind::Builtin(b, args) => {
            let mut out = format!("({b:?}:{}", t(e));
            for a in args {
                out.push(' ');
                out.push_str(&s(a));
            }
            out.push(')');
            out
        }
        ExprKind::VaArg(x) => format!("(VaArg:{} {})", t(e), s(x)),
        ExprKind::StmtExpr { body, result } => format!(
            "(StmtExpr:{} {} stmts{})",
            t(e),
            body.len(),
            result.as_ref().map(|r| format!(" {}", s(r))).unwrap_or_default()
        ),
        ExprKind::LabelAddr(l) => format!("(LabelAddr {})", l.0),
    }
}

/// The S-expression of the value `name` returns (see `returned`).
pub(crate) fn ret_sexp(p: &Program, name: &str) -> String {
    sexp(p, Some(func(p, name)), returned(p, name))
}

/// S-expressions of the expression statements of a function, in order.
pub(crate) fn expr_stmts(p: &Program, name: &str) -> Vec<String> {
    fn walk<'a>(s: &'a Stmt, out: &mut Vec<&'a Expr>) {
        match &s.kind {
            StmtKind::Expr(e) => out.push(e),
            StmtKind::Block(v) => v.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let f = func(p, name);
    let mut es = Vec::new();
    walk(&f.body, &mut es);
    es.into_iter().map(|e| sexp(p, Some(f), e)).collect()
}
