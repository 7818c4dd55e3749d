//! Expressions (6.5) in the typed tree: conversions made explicit (6.3),
//! pointer arithmetic, constant folding, lvalue rules. The expected trees
//! follow the standard's rules, written out by hand.

use super::support::*;

fn one(decls: &str, ret_ty: &str, e: &str) -> String {
    let src = format!("{decls}\n{ret_ty} f(void) {{ return {e}; }}");
    let p = ok(&src);
    ret_sexp(&p, "f")
}

const VARS: &str = "char c; signed char sc; unsigned char uc; short s; unsigned short us; int i; unsigned u;
    long l; unsigned long ul; long long ll; float fl; double d; long double ld; _Bool b;
    int *p, *q; void *vp; const int *cp; char *cp2; int a[10]; struct S { int x; unsigned bf:3; unsigned w:32; long lb:40; } st, *sp;
    enum E { E0, E1 } e; int fn(int, double); int vfn(const char *, ...); int old();";

#[test]
fn integer_promotions_and_usual_arithmetic_conversions_6_3_1() {
    assert_eq!(
        one(VARS, "unsigned", "c + u"),
        "(Add:unsigned int (IntToInt:unsigned int (IntToInt:int (Load @c))) (Load @u))"
    );
    assert_eq!(
        one(VARS, "long", "s * us"),
        "(IntToInt:long (Mul:int (IntToInt:int (Load @s)) (IntToInt:int (Load @us))))"
    );
    assert_eq!(
        one(VARS, "unsigned long", "i + ul"),
        "(Add:unsigned long (IntToInt:unsigned long (Load @i)) (Load @ul))"
    );
    // long vs unsigned int: long can hold every unsigned int value.
    assert_eq!(
        one(VARS, "long", "l - u"),
        "(Sub:long (Load @l) (IntToInt:long (Load @u)))"
    );
    // long long vs unsigned long (same size): unsigned long long (6.3.1.8p1).
    assert_eq!(
        one(VARS, "unsigned long long", "ll + ul"),
        "(Add:unsigned long long (IntToInt:unsigned long long (Load @ll)) (IntToInt:unsigned long long (Load @ul)))"
    );
    assert_eq!(
        one(VARS, "double", "i / fl"),
        "(FloatToFloat:double (Div:float (IntToFloat:float (Load @i)) (Load @fl)))"
    );
    assert_eq!(
        one(VARS, "long double", "d + ld"),
        "(Add:long double (FloatToFloat:long double (Load @d)) (Load @ld))"
    );
    // enum E has no negative values: its type is unsigned int (gcc).
    assert_eq!(
        one(VARS, "unsigned", "b + e"),
        "(Add:unsigned int (IntToInt:unsigned int (IntToInt:int (Load @b))) (IntToInt:unsigned int (Load @e)))"
    );
}

#[test]
fn shifts_keep_each_operand_promoted_6_5_7() {
    assert_eq!(
        one(VARS, "int", "c << l"),
        "(Shl:int (IntToInt:int (Load @c)) (Load @l))"
    );
    assert_eq!(
        one(VARS, "unsigned", "u >> sc"),
        "(Shr:unsigned int (Load @u) (IntToInt:int (Load @sc)))"
    );
}

#[test]
fn bit_fields_promote_like_gcc() {
    // unsigned:3 fits in int, so it promotes to int; unsigned:32 stays unsigned.
    let p = ok(&format!(
        "{VARS}\nint f(void) {{ return st.bf - 1 < 0; }} int g(void) {{ return st.w - 1 < 0; }}"
    ));
    assert_eq!(
        ret_sexp(&p, "f"),
        "(Lt:int (Sub:int (IntToInt:int (Load (Member @st +4 bf1:0:3))) 1:int) 0:int)"
    );
    assert_eq!(
        ret_sexp(&p, "g"),
        "(Lt:int (Sub:unsigned int (Load (Member @st +8 bf4:0:32)) 1:unsigned int) 0:unsigned int)"
    );
}

#[test]
fn pointer_arithmetic_6_5_6() {
    assert_eq!(one(VARS, "int *", "p + 1"), "(PtrAdd*4 (Load @p) 1:long)");
    assert_eq!(one(VARS, "int *", "2 + p"), "(PtrAdd*4 (Load @p) 2:long)");
    assert_eq!(one(VARS, "int *", "p - 3"), "(PtrAdd*4 (Load @p) -3:long)");
    assert_eq!(
        one(VARS, "int *", "p - i"),
        "(PtrAdd*4 (Load @p) (Neg:long (IntToInt:long (Load @i))))"
    );
    assert_eq!(one(VARS, "long", "p - q"), "(PtrDiff/4 (Load @p) (Load @q))");
    assert_eq!(one(VARS, "void *", "vp + 5"), "(PtrAdd*1 (Load @vp) 5:long)");
    assert_eq!(
        one(VARS, "int *", "&a[u]"),
        "(PtrAdd*4 (ArrayDecay @a) (IntToInt:long (Load @u)))"
    );
    assert_eq!(
        one(VARS, "int", "a[2]"),
        "(Load (Deref (PtrAdd*4 (ArrayDecay @a) 2:long)))"
    );
    assert_eq!(
        one(VARS, "int", "2[a]"),
        "(Load (Deref (PtrAdd*4 (ArrayDecay @a) 2:long)))"
    );
    assert_eq!(one(VARS, "int *", "&*p"), "(Load @p)");
    assert!(error(&format!("{VARS}\nlong f(void) {{ return p - cp2; }}")).contains("invalid operands to binary -"));
    assert!(error(&format!("{VARS}\nint *f(void) {{ return p + p; }}")).contains("invalid operands to binary +"));
}

#[test]
fn comparisons_and_null_pointer_constants_6_5_8_9() {
    assert_eq!(one(VARS, "int", "p == 0"), "(Eq:int (Load @p) (IntToPtr:int * 0:int))");
    assert_eq!(
        one(VARS, "int", "vp != p"),
        "(Ne:int (Load @vp) (PtrToPtr:void * (Load @p)))"
    );
    assert_eq!(
        one(VARS, "int", "u < i"),
        "(Lt:int (Load @u) (IntToInt:unsigned int (Load @i)))"
    );
    // -1 < 0u is false: -1 converts to UINT_MAX (folded).
    assert_eq!(one(VARS, "int", "-1 < 0u"), "0:int");
    assert!(warnings(&format!("{VARS}\nint f(void) {{ return p == 5; }}"))
        .iter()
        .any(|w| w.contains("comparison between pointer and integer")));
    assert!(warnings(&format!("{VARS}\nint f(void) {{ return p == (int *)cp2 && p < q; }}")).is_empty());
}

#[test]
fn conditional_operator_types_6_5_15() {
    assert_eq!(
        one(VARS, "double", "i ? 1 : 2.0"),
        "(Cond:double (Load @i) 1:double 2:double)"
    );
    assert_eq!(
        one(VARS, "int *", "i ? p : 0"),
        "(Cond:int * (Load @i) (Load @p) (IntToPtr:int * 0:int))"
    );
    assert_eq!(
        one(VARS, "const void *", "i ? vp : cp"),
        "(Cond:const void * (Load @i) (PtrToPtr:const void * (Load @vp)) (PtrToPtr:const void * (Load @cp)))"
    );
    assert_eq!(
        one(VARS, "int", "(i ? st : st).x"),
        "(Member (Cond:struct S (Load @i) (Load @st) (Load @st)) +0)"
    );
    // GNU `?:` with a side effect in the condition: a temporary.
    let p = ok(&format!("{VARS}\nint f(void) {{ return fn(1, 2) ?: 7; }}"));
    assert_eq!(
        ret_sexp(&p, "f"),
        "(Cond:int (Comma (Assign:int .tmp0 (Call:int (FuncDecay @fn) 1:int 2:double)) (Load .tmp0)) (Load .tmp0) 7:int)"
    );
    assert_eq!(one(VARS, "int", "i ?: 7"), "(Cond:int (Load @i) (Load @i) 7:int)");
    assert_eq!(one(VARS, "int", "1 ? 2 : 3"), "2:int");
}

#[test]
fn assignments_6_5_16() {
    let p = ok(&format!(
        "{VARS}\nvoid f(void) {{ c = 300; c += 1; fl *= 2; p += 2; p -= i; u <<= 1L; b = p; st.bf = 9; st.bf += 1; d = ld; }}"
    ));
    assert_eq!(
        expr_stmts(&p, "f"),
        vec![
            "(Assign:char @c 44:char)",
            "(CompoundAssign Add in int @c 1:int)",
            "(CompoundAssign Mul in float @fl 2:float)",
            "(CompoundAssign Add in int * *4 @p 2:long)",
            "(CompoundAssign Sub in int * *4 @p (IntToInt:long (Load @i)))",
            "(CompoundAssign Shl in unsigned int @u 1:long)",
            "(Assign:_Bool @b (ToBool:_Bool (Load @p)))",
            "(Assign:unsigned int (Member @st +4 bf1:0:3) 9:unsigned int)",
            "(CompoundAssign Add in int (Member @st +4 bf1:0:3) 1:int)",
            "(Assign:double @d (FloatToFloat:double (Load @ld)))",
        ]
    );
    let e = error("const int x = 1; void f(void) { x = 2; }");
    assert!(e.contains("assignment of read-only variable 'x'"), "{e}");
    let e = error("int a[3], b[3]; void f(void) { a = b; }");
    assert!(e.contains("assignment to expression with array type"), "{e}");
    let e = error("void f(void) { 1 = 2; }");
    assert!(e.contains("lvalue required as left operand of assignment"), "{e}");
    let e = error("struct S { const int c; } s, t; void f(void) { s = t; }");
    assert!(e.contains("read-only"), "{e}");
    let e = error("struct S { int a; } s; void f(void) { int x; x = s; }");
    assert!(
        e.contains("incompatible types when assigning to type 'int' from type 'struct S'"),
        "{e}"
    );
    assert!(warnings("int *p; void f(void) { p = 5; }")
        .iter()
        .any(|w| w.contains("pointer from an integer")));
    assert!(warnings("int *p; const int *c; void f(void) { p = c; }")
        .iter()
        .any(|w| w.contains("discards qualifiers")));
    assert!(warnings("int *p; long *l; void f(void) { p = l; }")
        .iter()
        .any(|w| w.contains("incompatible pointer types")));
}

#[test]
fn increments_6_5_2_4() {
    let p = ok(&format!("{VARS}\nvoid f(void) {{ p++; --i; b++; st.bf--; ++vp; }}"));
    assert_eq!(
        expr_stmts(&p, "f"),
        vec![
            "(Post+1*4 @p)",
            "(Pre-1 @i)",
            "(Post+1 @b)",
            "(Post-1 (Member @st +4 bf1:0:3))",
            "(Pre+1*1 @vp)"
        ]
    );
    assert!(error("int a[2]; void f(void) { a++; }").contains("array type"));
    assert!(error("struct S *s; void f(void) { s++; }").contains("incomplete type"));
}

#[test]
fn constants_fold_with_target_widths() {
    assert_eq!(one("", "int", "1 + 2 * 3 - (10 >> 1)"), "2:int");
    assert_eq!(one("", "char", "(char)300"), "44:char");
    assert_eq!(one("", "int", "(signed char)200"), "-56:int");
    assert_eq!(one("", "unsigned", "-1u"), "4294967295:unsigned int");
    assert_eq!(one("", "int", "1 << 31"), "-2147483648:int");
    assert_eq!(one("", "int", "(unsigned char)-1 == 255"), "1:int");
    assert_eq!(
        one("", "unsigned long", "sizeof(int[10]) + sizeof(char)"),
        "41:unsigned long"
    );
    assert_eq!(one("", "double", "3.0 / 2"), "1.5:double");
    assert_eq!(one("", "int", "(int)2.9 + !0.0"), "3:int");
    assert_eq!(one("", "float", "1.0f / 3"), format!("{}:float", (1.0f32 / 3.0) as f64));
    assert_eq!(one("", "int", "0x7fffffff + 1"), "-2147483648:int");
    assert_eq!(
        one("", "long", "-9223372036854775807L - 1"),
        "-9223372036854775808:long"
    );
    assert_eq!(
        one("", "unsigned long long", "18446744073709551615ull * 3"),
        "18446744073709551613:unsigned long long"
    );
    assert_eq!(one("", "int", "-7 / 2 + -7 % 2"), "-4:int");
    assert_eq!(
        one("", "unsigned", "0xffffffffu / 16 % 7"),
        format!("{}:unsigned int", (0xffffffffu32 / 16) % 7)
    );
    assert_eq!(one("", "int", "1 && 0 || 3"), "1:int");
    assert_eq!(one("", "int", "'a' + L'b'"), "195:int");
    // Division by zero and INT_MIN / -1 stay run-time operations.
    assert!(one("", "int", "1 / 0").starts_with("(Div:int"));
    assert!(one("", "int", "(-2147483647 - 1) / -1").starts_with("(Div:int"));
    assert!(one("", "int", "1 << 40").starts_with("(Shl:int"));
    assert!(warnings("int f(void) { return 1 / 0; }")
        .iter()
        .any(|w| w.contains("division by zero")));
}

#[test]
fn casts_6_5_4() {
    assert_eq!(one(VARS, "long", "(long)p"), "(PtrToInt:long (Load @p))");
    assert_eq!(one(VARS, "char *", "(char *)l"), "(IntToPtr:char * (Load @l))");
    assert_eq!(one(VARS, "double", "(double)i"), "(IntToFloat:double (Load @i))");
    assert_eq!(one(VARS, "int", "(int)d"), "(FloatToInt:int (Load @d))");
    assert_eq!(one(VARS, "_Bool", "(_Bool)d"), "(ToBool:_Bool (Load @d))");
    let p = ok(&format!("{VARS}\nvoid f(void) {{ (void)i; (const int)i; }}"));
    assert_eq!(expr_stmts(&p, "f"), vec!["(ToVoid:void (Load @i))", "(Load @i)"]);
    assert!(error(&format!("{VARS}\nint f(void) {{ return (int)st; }}")).contains("cannot convert"));
    assert!(error(&format!("{VARS}\nvoid f(void) {{ (struct S)i; }}")).contains("non-scalar"));
    assert!(error(&format!("{VARS}\ndouble f(void) {{ return (double)p; }}")).contains("cannot convert"));
}

#[test]
fn calls_convert_arguments_6_5_2_2() {
    let p = ok(&format!(
        "{VARS}\nvoid f(void) {{ fn(c, i); vfn(\"x\", fl, c, st); old(c, fl); (*fn)(1, 2); }}"
    ));
    assert_eq!(
        expr_stmts(&p, "f"),
        vec![
            "(Call:int (FuncDecay @fn) (IntToInt:int (Load @c)) (IntToFloat:double (Load @i)))",
            "(Call:int (FuncDecay @vfn) (PtrToPtr:const char * (ArrayDecay str0)) (FloatToFloat:double (Load @fl)) (IntToInt:int (Load @c)) (Load @st))",
            "(Call:int (FuncDecay @old) (IntToInt:int (Load @c)) (FloatToFloat:double (Load @fl)))",
            "(Call:int (FuncDecay @fn) 1:int 2:double)",
        ]
    );
    assert!(error(&format!("{VARS}\nvoid f(void) {{ fn(1); }}")).contains("too few arguments to function 'fn'"));
    assert!(error(&format!("{VARS}\nvoid f(void) {{ fn(1, 2, 3); }}")).contains("too many arguments"));
    assert!(error(&format!("{VARS}\nvoid f(void) {{ i(); }}")).contains("is not a function"));
    // An undeclared function is declared implicitly, with gcc's library prototype when it knows one.
    let (p, w) = analyze_t(
        "int f(void) { return undeclared(1) + (int)strlen(\"ab\"); }",
        crate::target::Target::X86_64,
    )
    .unwrap();
    assert!(w
        .iter()
        .any(|w| w.message.contains("implicit declaration of function 'undeclared'")));
    assert!(global(&p, "strlen").kind == crate::frontend::hir::GlobalKind::Function);
}

#[test]
fn members_strings_and_characters() {
    assert_eq!(
        one(VARS, "long", "sp->lb"),
        "(Load (Member (Deref (Load @sp)) +16 bf8:0:40))"
    );
    assert_eq!(one(VARS, "unsigned long", "sizeof \"abc\""), "4:unsigned long");
    assert_eq!(
        one(VARS, "unsigned long", "sizeof L\"ab\" + sizeof u\"ab\" * 100"),
        "612:unsigned long"
    );
    assert_eq!(one("", "int", "'\\377'"), "-1:int");
    // char16_t promotes to int, char32_t is unsigned int.
    assert_eq!(one("", "unsigned", "u'x' + U'y'"), "241:unsigned int");
    assert_eq!(
        one("", "unsigned long", "sizeof(u'x') * 10 + sizeof(U'y')"),
        "24:unsigned long"
    );
    let p = ok("char *s = \"hi\"; int *w = (int *)L\"hi\";");
    assert_eq!(p.strings[0].bytes, b"hi\0");
    assert_eq!(p.strings[1].unit, 4);
    assert_eq!(p.strings[1].bytes, vec![b'h', 0, 0, 0, b'i', 0, 0, 0, 0, 0, 0, 0]);
    assert!(error(&format!("{VARS}\nint f(void) {{ return st.nope; }}")).contains("has no member named 'nope'"));
    assert!(error(&format!("{VARS}\nint f(void) {{ return i.x; }}")).contains("not a structure or union"));
    assert!(error(&format!("{VARS}\nint f(void) {{ return *i; }}")).contains("invalid type argument of unary '*'"));
    assert!(error(&format!("{VARS}\nint *f(void) {{ return &st.bf; }}")).contains("bit-field"));
    assert!(error("int f(void) { register int r; return *&r; }").contains("register"));
    assert!(error("int f(void) { return undeclared_var; }").contains("'undeclared_var' undeclared"));
}

#[test]
fn anonymous_members_and_offsets() {
    let p = ok("struct T { char a; union { int b; struct { char c, d; }; }; long e; } t;
                int f(void) { return t.d; } long g(void) { return __builtin_offsetof(struct T, e) + __builtin_offsetof(struct T, d); }");
    assert_eq!(ret_sexp(&p, "f"), "(IntToInt:int (Load (Member @t +5)))");
    assert_eq!(ret_sexp(&p, "g"), "13:long");
}

#[test]
fn sizeof_alignof_generic_and_builtins() {
    assert_eq!(
        one(VARS, "unsigned long", "sizeof(st) + _Alignof(long double)"),
        "40:unsigned long"
    );
    assert_eq!(one(VARS, "int", "_Generic(c, char: 1, int: 2, default: 3)"), "1:int");
    assert_eq!(one(VARS, "int", "_Generic(cp, const int *: 1, default: 3)"), "1:int");
    assert_eq!(one(VARS, "int", "_Generic(a, int *: 4, default: 5)"), "4:int");
    assert_eq!(
        one(
            VARS,
            "int",
            "__builtin_types_compatible_p(int, const int) + __builtin_types_compatible_p(long, int)"
        ),
        "1:int"
    );
    assert_eq!(
        one(VARS, "int", "__builtin_constant_p(3 * 4) + __builtin_constant_p(i)"),
        "1:int"
    );
    assert_eq!(one(VARS, "int", "__builtin_choose_expr(1, 7, st)"), "7:int");
    assert_eq!(
        one(
            VARS,
            "int",
            "__builtin_clz(1) + __builtin_ctzll(8) + __builtin_popcount(255) + __builtin_ffs(0)"
        ),
        "42:int"
    );
    assert_eq!(
        one(VARS, "unsigned", "__builtin_bswap32(0x11223344)"),
        format!("{}:unsigned int", 0x44332211u32)
    );
    assert_eq!(
        one(VARS, "long", "__builtin_expect(i, 0)"),
        "(Expect:long (IntToInt:long (Load @i)) 0:long)"
    );
    assert_eq!(one(VARS, "int", "__builtin_clz(u)"), "(Clz:int (Load @u))");
    assert_eq!(
        one(VARS, "_Bool", "__builtin_add_overflow(i, l, &ll)"),
        "(AddOverflow:_Bool (Load @i) (Load @l) (AddrOf @ll))"
    );
    assert_eq!(one(VARS, "double", "__builtin_inf()"), "inf:double");
    assert_eq!(
        one(VARS, "int", "__atomic_fetch_add(&i, 1, __ATOMIC_RELAXED)"),
        "(AtomicFetchAdd:int (AddrOf @i) 1:int 0:int)"
    );
    assert_eq!(
        one(VARS, "int", "__sync_fetch_and_add(&i, 1)"),
        "(AtomicFetchAdd:int (AddrOf @i) 1:int 5:int)"
    );
    assert_eq!(
        one(VARS, "void *", "__builtin_memcpy(vp, p, 4)"),
        "(Call:void * (FuncDecay @memcpy) (Load @vp) (PtrToPtr:const void * (Load @p)) 4:unsigned long)"
    );
    assert!(error("int f(void) { return __builtin_no_such_thing(1); }").contains("unsupported builtin"));
}

#[test]
fn statement_expressions_comma_and_logic() {
    let p = ok("int g(int); int f(int x) { return ({ int y = x; y + 1; }) , (x && g(x)) || !x; }");
    assert_eq!(
        ret_sexp(&p, "f"),
        "(Comma (StmtExpr:int 1 stmts (Add:int (Load y) 1:int)) (LogOr (LogAnd (Load x) (Call:int (FuncDecay @g) (Load x))) (LogNot:int (Load x))))"
    );
}

#[test]
fn varargs_builtins() {
    let src =
        "int sum(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n); int s = __builtin_va_arg(ap, int);
               double d = __builtin_va_arg(ap, double); __builtin_va_list ap2; __builtin_va_copy(ap2, ap);
               __builtin_va_end(ap2); __builtin_va_end(ap); return s + (int)d; }
               int pass(const char *f, __builtin_va_list ap) { return __builtin_va_arg(ap, int); }";
    let p = ok(src);
    let es = expr_stmts(&p, "sum");
    assert_eq!(es[0], "(VaStart:void (AddrOf ap))");
    assert_eq!(es[1], "(VaCopy:void (AddrOf ap2) (AddrOf ap))");
    // x86-64: a va_list parameter is a pointer to the va_list.
    assert_eq!(ret_sexp(&p, "pass"), "(VaArg:int (Load ap))");
    for t in [crate::target::Target::Aarch64, crate::target::Target::Riscv64] {
        let (p, _) = analyze_t(src, t).unwrap();
        assert_eq!(ret_sexp(&p, "pass"), "(VaArg:int ap)");
    }
    assert!(
        error("int f(int n) { __builtin_va_list ap; __builtin_va_start(ap, n); return 0; }")
            .contains("fixed arguments")
    );
}

#[test]
fn bit_field_units_stay_inside_the_record() {
    // Packed records smaller than a natural unit get the exact span.
    let p = ok("#pragma pack(1)\nstruct A { unsigned a:19; } a; struct B { char c; unsigned x:30; } b; struct E { unsigned a:7; unsigned x:32; } e;
                struct C { char pad[5]; unsigned long long w:40; char z[3]; } c;\n#pragma pack()\n
                struct D { char c; unsigned x:4; long y:60; } d;
                int f(void) { return a.a; } int g(void) { return b.x; } int k(void) { return e.x; } long h(void) { return c.w; } long i(void) { return d.y + d.x; }");
    assert_eq!(ret_sexp(&p, "f"), "(IntToInt:int (Load (Member @a +0 bf3:0:19)))");
    assert_eq!(ret_sexp(&p, "k"), "(IntToInt:int (Load (Member @e +0 bf5:7:32)))");
    // An unaligned 4-byte unit (the record is 5 bytes).
    assert_eq!(ret_sexp(&p, "g"), "(IntToInt:int (Load (Member @b +1 bf4:0:30)))");
    // Unaligned 8-byte unit moved back to end inside the record.
    assert_eq!(ret_sexp(&p, "h"), "(IntToInt:long (Load (Member @c +5 bf8:0:40)))");
    // A 60-bit `long` bit-field has GCC's 60-bit type: the sum wraps there.
    assert_eq!(
        ret_sexp(&p, "i"),
        "(BitPrecision(60):long (Add:long (Load (Member @d +8 bf8:0:60)) (IntToInt:long (IntToInt:int (Load (Member @d +1 bf1:0:4))))))"
    );
}

#[test]
fn math_classification_builtins() {
    // The macros of <math.h> expand to these with gcc 4.9's feature set.
    let p = ok("#include <math.h>\nint f(double x, float y, long double z) {
                return signbit(x) + fpclassify(y) + isnormal(z) + isnan(x) + isinf(y) + isfinite(z)
                     + isgreater(x, y) + isless(y, 1) + islessgreater(x, z) + isunordered(x, y); }
                int g(void) { return signbit(-0.0) * 10 + signbit(1.0); }");
    assert_eq!(ret_sexp(&p, "g"), "10:int");
    assert!(error("int f(int i) { return __builtin_isnan(i); }").contains("non-floating-point"));
}

#[test]
fn decided_logical_operators_are_integer_constant_expressions() {
    // repro-05 (C11 6.6p3): the unevaluated operand may contain `1 / 0`.
    let p = ok("int a = 2 || 1 / 0; int b = 0 && 1 / 0; int n;
                enum { E = 1 || (1 / 0), F = 0 && n };
                int c[E + 1]; int d = F;
                int f(int x) { return 0 && x; }
                int g(int x) { return 1 || x; }");
    assert_eq!(init_bytes(init_of(&p, "a"))[0], Some(1));
    assert_eq!(init_bytes(init_of(&p, "b"))[0], Some(0));
    assert_eq!(ret_sexp(&p, "f"), "0:int");
    assert_eq!(ret_sexp(&p, "g"), "1:int");
    // An undecided left operand still needs a constant right one.
    assert!(error("int n; int a = 1 && n;").contains("not constant"));
}
