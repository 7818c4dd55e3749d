//! Small programs as typed trees, each with the C it stands for.

use super::build::*;
use super::{lower_ok, returns, run_both};
use crate::binary128::Binary128;
use crate::frontend::hir::*;
use crate::frontend::layout::RecordAttrs;
use crate::frontend::types::{ArrayLen, CType, IntKind, QualType};
use crate::ir::text::print_module;
use crate::target::Target;

fn main_fn(pb: &mut ProgramBuilder) -> GlobalId {
    let t = fn_type(int(), vec![], false);
    pb.func("main", &t)
}

fn add(l: Expr, r: Expr) -> Expr {
    bin(BinaryOp::Add, l, r)
}

fn set(l: LocalId, ty: QualType, v: Expr) -> Stmt {
    sexpr(assign(lv(l, ty), v))
}

/// int main() { int i = 0, s = 0; while (i < 10) { i = i + 1; s = s + i; } return s; }
#[test]
fn while_loop_sums() {
    for target in Target::ALL {
        let mut pb = ProgramBuilder::new(target);
        let m = main_fn(&mut pb);
        let mut f = FnBuilder::default();
        let iv = f.local("i", int(), &pb.p.types);
        let sv = f.local("s", int(), &pb.p.types);
        let body = vec![
            decl(iv, Some(Init::Expr(i(0)))),
            decl(sv, Some(Init::Expr(i(0)))),
            while_(
                bin(BinaryOp::Lt, load(lv(iv, int())), i(10)),
                block(vec![
                    set(iv, int(), add(load(lv(iv, int())), i(1))),
                    set(sv, int(), add(load(lv(sv, int())), load(lv(iv, int())))),
                ]),
            ),
            ret(load(lv(sv, int()))),
        ];
        pb.define(m, f, body);
        let module = lower_ok(&pb.p);
        assert_eq!(returns(&module, "main", &[]), 55);
    }
}

/// int main() { int x = 0; 0 && (x = 1); 1 || (x = 2); x == 0 && (x = 3);
///              int y = x > 2 || (x = 9); return x * 10 + y; }   // 31
#[test]
fn logical_operators_keep_and_skip_side_effects() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let m = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let x = f.local("x", int(), &pb.p.types);
    let y = f.local("y", int(), &pb.p.types);
    let and = |a: Expr, b: Expr| ex(ExprKind::LogAnd(Box::new(a), Box::new(b)), int());
    let or = |a: Expr, b: Expr| ex(ExprKind::LogOr(Box::new(a), Box::new(b)), int());
    let xv = || load(lv(x, int()));
    let body = vec![
        decl(x, Some(Init::Expr(i(0)))),
        sexpr(and(i(0), assign(lv(x, int()), i(1)))),
        sexpr(or(i(1), assign(lv(x, int()), i(2)))),
        sexpr(and(bin(BinaryOp::Eq, xv(), i(0)), assign(lv(x, int()), i(3)))),
        decl(
            y,
            Some(Init::Expr(or(
                bin(BinaryOp::Gt, xv(), i(2)),
                assign(lv(x, int()), i(9)),
            ))),
        ),
        ret(add(bin(BinaryOp::Mul, xv(), i(10)), load(lv(y, int())))),
    ];
    pb.define(m, f, body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 31);
    // Control flow, never select.
    assert!(!print_module(&module).contains("select"));
}

/// int f(int v) { int r = 0; switch (v) { case 1: r = 10; break;
///   case 5 ... 8: r = 20; case 9: r += 1; break; case 100 ... 1000: r = 30; break;
///   default: r = -1; } return r; }
#[test]
fn switch_with_small_and_large_ranges() {
    let mut pb = ProgramBuilder::new(Target::Riscv64);
    let ft = fn_type(int(), vec![int()], false);
    let g = pb.func("f", &ft);
    let mut f = FnBuilder::default();
    let v = f.param("v", int(), &pb.p.types);
    let r = f.local("r", int(), &pb.p.types);
    let case = |n| st(StmtKind::Case(CaseId(n)));
    let brk = || st(StmtKind::Break);
    let body = vec![
        decl(r, Some(Init::Expr(i(0)))),
        st(StmtKind::Switch {
            cond: load(lv(v, int())),
            body: Box::new(block(vec![
                case(0),
                set(r, int(), i(10)),
                brk(),
                case(1),
                set(r, int(), i(20)),
                case(2),
                sexpr(ex(
                    ExprKind::CompoundAssign {
                        op: BinaryOp::Add,
                        lhs: Box::new(lv(r, int())),
                        rhs: Box::new(i(1)),
                        op_ty: int(),
                        ptr_elem_size: None,
                    },
                    int(),
                )),
                brk(),
                case(3),
                set(r, int(), i(30)),
                brk(),
                case(4),
                set(r, int(), i(-1)),
            ])),
            cases: vec![
                SwitchCase {
                    lo: 1,
                    hi: 1,
                    id: CaseId(0),
                },
                SwitchCase {
                    lo: 5,
                    hi: 8,
                    id: CaseId(1),
                },
                SwitchCase {
                    lo: 9,
                    hi: 9,
                    id: CaseId(2),
                },
                SwitchCase {
                    lo: 100,
                    hi: 1000,
                    id: CaseId(3),
                },
            ],
            default: Some(CaseId(4)),
        }),
        ret(load(lv(r, int()))),
    ];
    pb.define(g, f, body);
    let module = lower_ok(&pb.p);
    for (arg, want) in [
        (1, 10),
        (5, 21),
        (6, 21),
        (8, 21),
        (9, 1),
        (100, 30),
        (500, 30),
        (1000, 30),
        (1001, -1),
        (-5, -1),
        (2, -1),
    ] {
        assert_eq!(returns(&module, "f", &[arg]), want, "f({arg})");
    }
    let text = print_module(&module);
    assert!(text.contains("switch i32"), "{text}");
    // The big range is one unsigned comparison, not 901 cases.
    assert!(text.contains("cmp ule"), "{text}");
}

/// struct S { int a; long b; char pad[20]; };
/// struct S make(int x) { struct S s; s.a = x; s.b = x * 2; return s; }
/// long sum(struct S s) { return s.a + s.b; }
/// int main() { struct S t = make(5); return sum(t) + t.a; }   // 20
#[test]
fn struct_return_and_argument() {
    for target in Target::ALL {
        let mut pb = ProgramBuilder::new(target);
        let (s_ty, lay) = pb.record(
            false,
            &[
                ("a", int(), None),
                ("b", long(), None),
                ("pad", array(char_(), 20), None),
            ],
            RecordAttrs::default(),
        );
        let (oa, ob) = (lay.fields[0].offset, lay.fields[1].offset);
        let make_t = fn_type(s_ty.clone(), vec![int()], false);
        let sum_t = fn_type(long(), vec![s_ty.clone()], false);
        let make = pb.func("make", &make_t);
        let sum = pb.func("sum", &sum_t);
        let main = main_fn(&mut pb);

        let mut f = FnBuilder::default();
        let x = f.param("x", int(), &pb.p.types);
        let s = f.local("s", s_ty.clone(), &pb.p.types);
        let body = vec![
            decl(s, None),
            sexpr(assign(member(lv(s, s_ty.clone()), oa, int(), None), load(lv(x, int())))),
            sexpr(assign(
                member(lv(s, s_ty.clone()), ob, long(), None),
                int_to(bin(BinaryOp::Mul, load(lv(x, int())), i(2)), long()),
            )),
            ret(load(lv(s, s_ty.clone()))),
        ];
        pb.define(make, f, body);

        let mut f = FnBuilder::default();
        let sp = f.param("s", s_ty.clone(), &pb.p.types);
        let body = vec![ret(add(
            int_to(load(member(lv(sp, s_ty.clone()), oa, int(), None)), long()),
            load(member(lv(sp, s_ty.clone()), ob, long(), None)),
        ))];
        pb.define(sum, f, body);

        let mut f = FnBuilder::default();
        let t = f.local("t", s_ty.clone(), &pb.p.types);
        let body = vec![
            decl(t, Some(Init::Expr(call(make, &make_t, vec![i(5)])))),
            ret(int_to(
                add(
                    call(sum, &sum_t, vec![load(lv(t, s_ty.clone()))]),
                    int_to(load(member(lv(t, s_ty.clone()), oa, int(), None)), long()),
                ),
                int(),
            )),
        ];
        pb.define(main, f, body);
        let module = lower_ok(&pb.p);
        assert_eq!(returns(&module, "main", &[]), 20, "{target:?}");
        let make_ir = module.function("make").unwrap();
        assert!(make_ir.uses_sret && make_ir.params[0].struct_size == Some(40));
        let text = print_module(&module);
        assert!(text.contains("sret"), "{text}");
        assert!(text.contains("memcpy"), "{text}");
    }
}

/// struct B { unsigned a:3; int b:5; unsigned c:24; };
/// int main() { struct B x; x.a = 9; x.b = 31; x.c = 0xabcdef;
///              return x.a + x.b * 100 + (x.c == 0xabcdef) * 1000; }   // 1 - 100 + 1000
#[test]
fn bit_fields_truncate_and_sign_extend() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let (b_ty, lay) = pb.record(
        false,
        &[("a", uint(), Some(3)), ("b", int(), Some(5)), ("c", uint(), Some(24))],
        RecordAttrs::default(),
    );
    let bf = |k: usize, w: u32| {
        let f = lay.fields[k];
        (
            0u64,
            BitField {
                unit_size: 4,
                bit_offset: (f.offset * 8) as u32 + f.bit_offset,
                width: w,
            },
        )
    };
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let x = f.local("x", b_ty.clone(), &pb.p.types);
    let fld = |k: usize, w: u32, t: QualType| {
        let (off, b) = bf(k, w);
        member(lv(x, b_ty.clone()), off, t, Some(b))
    };
    let body = vec![
        decl(x, None),
        sexpr(assign(fld(0, 3, uint()), lit(9, uint()))),
        sexpr(assign(fld(1, 5, int()), i(31))),
        sexpr(assign(fld(2, 24, uint()), lit(0xabcdef, uint()))),
        ret(add(
            add(
                int_to(load(fld(0, 3, uint())), int()),
                bin(BinaryOp::Mul, load(fld(1, 5, int())), i(100)),
            ),
            bin(
                BinaryOp::Mul,
                bin(BinaryOp::Eq, load(fld(2, 24, uint())), lit(0xabcdef, uint())),
                i(1000),
            ),
        )),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 901);
}

/// int g = 5; int arr[3] = {1, 2, 3}; int *p = &g; int *q = &arr[2];
/// int main() { return *p + *q; }   // 8
#[test]
fn static_initializers_with_addresses() {
    let mut pb = ProgramBuilder::new(Target::Aarch64);
    let int_item = |off: u64, v: u128| StaticItem {
        offset: off,
        value: StaticValue::Int { size: 4, bits: v },
    };
    let g = pb.var(
        "g",
        int(),
        Some(StaticInit {
            size: 4,
            items: vec![int_item(0, 5)],
        }),
    );
    let arr = pb.var(
        "arr",
        array(int(), 3),
        Some(StaticInit {
            size: 12,
            items: vec![int_item(0, 1), int_item(4, 2), int_item(8, 3)],
        }),
    );
    let addr_of = |t: GlobalId, offset: i64| StaticInit {
        size: 8,
        items: vec![StaticItem {
            offset: 0,
            value: StaticValue::Addr {
                target: AddrTarget::Global(t),
                offset,
            },
        }],
    };
    let p = pb.var("p", ptr(int()), Some(addr_of(g, 0)));
    let qv = pb.var("q", ptr(int()), Some(addr_of(arr, 8)));
    let main = main_fn(&mut pb);
    let body = vec![ret(add(
        load(deref(load(gv(p, ptr(int()))))),
        load(deref(load(gv(qv, ptr(int()))))),
    ))];
    pb.define(main, FnBuilder::default(), body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 8);
    let text = print_module(&module);
    assert!(text.contains("global @g: i32, size 4, align 4 = scalar 5i32"), "{text}");
    assert!(text.contains("addr @arr + 8"), "{text}");
}

/// int main() { void *tab[2]; tab[0] = &&l1; tab[1] = &&l2; int i = 0, s = 0;
///   again: if (i >= 3) return s; goto *tab[i & 1];
///   l1: s += 1; i++; goto again;  l2: s += 10; i++; goto again; }   // 12
#[test]
fn computed_goto() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let vp = ptr(void());
    let tab = f.local("tab", array(vp.clone(), 2), &pb.p.types);
    let iv = f.local("i", int(), &pb.p.types);
    let sv = f.local("s", int(), &pb.p.types);
    let again = f.label("again", false);
    let l1 = f.label("l1", true);
    let l2 = f.label("l2", true);
    let elem = |idx: Expr| {
        let decayed = ex(
            ExprKind::ArrayDecay(Box::new(lv(tab, array(vp.clone(), 2)))),
            ptr(vp.clone()),
        );
        deref(ex(
            ExprKind::PtrAdd {
                ptr: Box::new(decayed),
                index: Box::new(int_to(idx, long())),
                elem_size: 8,
            },
            ptr(vp.clone()),
        ))
    };
    let bump = |v: LocalId, by: i128| {
        sexpr(ex(
            ExprKind::CompoundAssign {
                op: BinaryOp::Add,
                lhs: Box::new(lv(v, int())),
                rhs: Box::new(i(by)),
                op_ty: int(),
                ptr_elem_size: None,
            },
            int(),
        ))
    };
    let inc = || {
        sexpr(ex(
            ExprKind::IncDec {
                lhs: Box::new(lv(iv, int())),
                is_prefix: false,
                delta: 1,
                ptr_elem_size: None,
            },
            int(),
        ))
    };
    let body = vec![
        decl(tab, None),
        sexpr(assign(elem(i(0)), ex(ExprKind::LabelAddr(l1), vp.clone()))),
        sexpr(assign(elem(i(1)), ex(ExprKind::LabelAddr(l2), vp.clone()))),
        decl(iv, Some(Init::Expr(i(0)))),
        decl(sv, Some(Init::Expr(i(0)))),
        st(StmtKind::Label(again)),
        if_(
            bin(BinaryOp::Ge, load(lv(iv, int())), i(3)),
            ret(load(lv(sv, int()))),
            None,
        ),
        st(StmtKind::GotoIndirect {
            target: load(elem(bin(BinaryOp::BitAnd, load(lv(iv, int())), i(1)))),
            targets: vec![l1, l2],
        }),
        st(StmtKind::Label(l1)),
        bump(sv, 1),
        inc(),
        st(StmtKind::Goto(again)),
        st(StmtKind::Label(l2)),
        bump(sv, 10),
        inc(),
        st(StmtKind::Goto(again)),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 12);
    assert!(print_module(&module).contains("indirectbr"));
}

/// int main() { int x = 5; asm("inc %0" : "+r"(x)); return x; }
#[test]
fn asm_read_write_output_is_split() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let x = f.local("x", int(), &pb.p.types);
    let body = vec![
        decl(x, Some(Init::Expr(i(5)))),
        st(StmtKind::Asm(Asm {
            template: "inc %0".into(),
            outputs: vec![AsmOperand {
                name: None,
                constraint: "+r".into(),
                expr: lv(x, int()),
            }],
            inputs: vec![],
            clobbers: vec![],
            labels: vec![],
            is_volatile: false,
            is_goto: false,
            span: Default::default(),
        })),
        ret(load(lv(x, int()))),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    let text = print_module(&module);
    assert!(text.contains(r#"outputs("=r" *%0) inputs("0" %"#), "{text}");
    run_both(&module, "main", &[]);
}

/// int sum(int n, ...) { va_list ap; va_start(ap); int s = 0;
///   while (n) { s += va_arg(ap, int); n = n - 1; } va_end(ap); return s; }
/// int main() { return sum(3, 1, 2, 3); }   // 6
#[test]
fn variadic_function() {
    for target in Target::ALL {
        let mut pb = ProgramBuilder::new(target);
        let st_ = fn_type(int(), vec![int()], true);
        let sum = pb.func("sum", &st_);
        let main = main_fn(&mut pb);
        let mut f = FnBuilder::default();
        let n = f.param("n", int(), &pb.p.types);
        let vl = q(CType::VaList);
        let ap = f.local("ap", vl.clone(), &pb.p.types);
        let s = f.local("s", int(), &pb.p.types);
        let body = vec![
            decl(ap, None),
            sexpr(ex(
                ExprKind::Builtin(Builtin::VaStart, vec![addr(lv(ap, vl.clone()))]),
                void(),
            )),
            decl(s, Some(Init::Expr(i(0)))),
            while_(
                load(lv(n, int())),
                block(vec![
                    set(
                        s,
                        int(),
                        add(
                            load(lv(s, int())),
                            ex(ExprKind::VaArg(Box::new(lv(ap, vl.clone()))), int()),
                        ),
                    ),
                    set(n, int(), bin(BinaryOp::Sub, load(lv(n, int())), i(1))),
                ]),
            ),
            sexpr(ex(
                ExprKind::Builtin(Builtin::VaEnd, vec![addr(lv(ap, vl.clone()))]),
                void(),
            )),
            ret(load(lv(s, int()))),
        ];
        pb.define(sum, f, body);
        pb.define(
            main,
            FnBuilder::default(),
            vec![ret(call(sum, &st_, vec![i(3), i(1), i(2), i(3)]))],
        );
        let module = lower_ok(&pb.p);
        assert_eq!(returns(&module, "main", &[]), 6, "{target:?}");
        let text = print_module(&module);
        assert!(text.contains("vastart") && text.contains("vaarg i32"), "{text}");
    }
}

/// struct __attribute__((packed)) P { char c; int x; };
/// int main() { struct P p; p.x = 0x12345678; p.c = 1; return p.x == 0x12345678; }
#[test]
fn packed_member_goes_through_memcpy() {
    let mut pb = ProgramBuilder::new(Target::Riscv64);
    let (p_ty, lay) = pb.record(
        false,
        &[("c", char_(), None), ("x", int(), None)],
        RecordAttrs {
            packed: true,
            ..RecordAttrs::default()
        },
    );
    assert_eq!(lay.fields[1].offset, 1);
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let p = f.local("p", p_ty.clone(), &pb.p.types);
    let px = || member(lv(p, p_ty.clone()), 1, int(), None);
    let body = vec![
        decl(p, None),
        sexpr(assign(px(), i(0x12345678))),
        sexpr(assign(member(lv(p, p_ty.clone()), 0, char_(), None), lit(1, char_()))),
        ret(bin(BinaryOp::Eq, load(px()), i(0x12345678))),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 1);
}

/// int main() { int n = 5; int a[n]; int i = 0, s = 0;
///   while (i < n) { a[i] = i; i = i + 1; }  i = 0; while (i < n) { s = s + a[i]; i = i + 1; } return s; } // 10
#[test]
fn variable_length_array() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let n = f.local("n", int(), &pb.p.types);
    let vla_ty = q(CType::Array {
        elem: int(),
        len: ArrayLen::Variable,
    });
    let a = f.local("a", vla_ty.clone(), &pb.p.types);
    let cnt = f.local("a.count", ulong(), &pb.p.types);
    let iv = f.local("i", int(), &pb.p.types);
    let sv = f.local("s", int(), &pb.p.types);
    let elem = |idx: Expr| {
        deref(ex(
            ExprKind::PtrAdd {
                ptr: Box::new(ex(ExprKind::ArrayDecay(Box::new(lv(a, vla_ty.clone()))), ptr(int()))),
                index: Box::new(int_to(idx, long())),
                elem_size: 4,
            },
            ptr(int()),
        ))
    };
    let body = vec![
        decl(n, Some(Init::Expr(i(5)))),
        block(vec![
            st(StmtKind::VlaAlloc {
                local: a,
                count: int_to(load(lv(n, int())), ulong()),
                elem_size: 4,
                count_local: cnt,
            }),
            decl(iv, Some(Init::Expr(i(0)))),
            decl(sv, Some(Init::Expr(i(0)))),
            while_(
                bin(BinaryOp::Lt, load(lv(iv, int())), load(lv(n, int()))),
                block(vec![
                    sexpr(assign(elem(load(lv(iv, int()))), load(lv(iv, int())))),
                    set(iv, int(), add(load(lv(iv, int())), i(1))),
                ]),
            ),
            set(iv, int(), i(0)),
            while_(
                bin(BinaryOp::Lt, load(lv(iv, int())), load(lv(n, int()))),
                block(vec![
                    set(sv, int(), add(load(lv(sv, int())), load(elem(load(lv(iv, int())))))),
                    set(iv, int(), add(load(lv(iv, int())), i(1))),
                ]),
            ),
        ]),
        ret(load(lv(sv, int()))),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    assert_eq!(returns(&module, "main", &[]), 10);
    let text = print_module(&module);
    assert!(text.contains("stacksave") && text.contains("dynalloca") && text.contains("stackrestore"));
}

/// int main() { unsigned u = -1; double d = 2.5; volatile int v = 3;
///   return (u > 5) + (int)(d * 2) * 10 + v * 100; }   // 1 + 50 + 300
#[test]
fn conversions_and_volatile_locals() {
    let mut pb = ProgramBuilder::new(Target::Aarch64);
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let u = f.local("u", uint(), &pb.p.types);
    let d = f.local("d", double(), &pb.p.types);
    let v = f.local("v", volatile(int()), &pb.p.types);
    let body = vec![
        decl(u, Some(Init::Expr(int_to(i(-1), uint())))),
        decl(
            d,
            Some(Init::Expr(ex(ExprKind::Float(Binary128::from_f64(2.5)), double()))),
        ),
        decl(v, Some(Init::Expr(i(3)))),
        ret(add(
            add(
                bin(BinaryOp::Gt, load(lv(u, uint())), lit(5, uint())),
                bin(
                    BinaryOp::Mul,
                    cast(
                        CastKind::FloatToInt,
                        bin(
                            BinaryOp::Mul,
                            load(lv(d, double())),
                            ex(ExprKind::Float(Binary128::from_f64(2.0)), double()),
                        ),
                        int(),
                    ),
                    i(10),
                ),
            ),
            bin(BinaryOp::Mul, load(lv(v, volatile(int()))), i(100)),
        )),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    let text = print_module(&module);
    assert!(text.contains("align 4 volatile"), "{text}");
    assert!(text.contains("cmp ugt u32"), "{text}");
    assert_eq!(returns(&module, "main", &[]), 351);
    let _ = IntKind::Int;
}

/// int printf(const char *, ...);
/// int main() { char buf[8] = "hi"; printf("%s!\n", buf); return buf[1] + buf[5]; }   // 'i' + 0
#[test]
fn string_literals_initialize_arrays_and_reach_printf() {
    let mut pb = ProgramBuilder::new(Target::X86_64);
    let pf_t = fn_type(int(), vec![ptr(char_())], true);
    let printf = pb.func("printf", &pf_t);
    let fmt = pb.string("%s!\n");
    let hi = pb.string("hi");
    let main = main_fn(&mut pb);
    let mut f = FnBuilder::default();
    let buf_t = array(char_(), 8);
    let buf = f.local("buf", buf_t.clone(), &pb.p.types);
    let decay = |e: Expr| {
        let CType::Array { elem, .. } = &*e.ty.ty else { panic!() };
        let t = ptr(elem.clone());
        ex(ExprKind::ArrayDecay(Box::new(e)), t)
    };
    let at = |k: i128| {
        int_to(
            load(deref(ex(
                ExprKind::PtrAdd {
                    ptr: Box::new(decay(lv(buf, buf_t.clone()))),
                    index: Box::new(lit(k, long())),
                    elem_size: 1,
                },
                ptr(char_()),
            ))),
            int(),
        )
    };
    let body = vec![
        decl(buf, Some(Init::Expr(ex(ExprKind::Str(hi), array(char_(), 3))))),
        sexpr(call(
            printf,
            &pf_t,
            vec![
                decay(ex(ExprKind::Str(fmt), array(char_(), 5))),
                decay(lv(buf, buf_t.clone())),
            ],
        )),
        ret(add(at(1), at(5))),
    ];
    pb.define(main, f, body);
    let module = lower_ok(&pb.p);
    let o = run_both(&module, "main", &[]);
    assert_eq!(o.stdout, b"hi!\n");
    assert_eq!(returns(&module, "main", &[]), 'i' as i128);
    let text = print_module(&module);
    assert!(text.contains(r#"string @.str0 = "%s!\n""#), "{text}");
    assert!(text.contains("declare @printf(ptr, ...) -> i32"), "{text}");
}
