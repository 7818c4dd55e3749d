//! The printf shim against known strings and, when gcc is installed, against
//! the host's glibc printf running the very same calls.

mod common;
#[path = "support/skip.rs"]
mod skip;
use common::*;
use phicc::ir::interp::RunResult;
use phicc::ir::reexports::*;

#[derive(Clone, Copy, Debug)]
enum Arg {
    I32(i32),
    I64(i64),
    F64(f64),
    Str(&'static str),
    Null,
}

/// (format, arguments, expected glibc output)
const CASES: &[(&str, &[Arg], &str)] = &[
    (
        "%d|%i|%5d|%-5d|%05d",
        &[Arg::I32(42), Arg::I32(-7), Arg::I32(42), Arg::I32(42), Arg::I32(-42)],
        "42|-7|   42|42   |-0042",
    ),
    (
        "%+d|% d|%+d|%.3d|%8.3d|%-8.3d|",
        &[
            Arg::I32(5),
            Arg::I32(5),
            Arg::I32(-5),
            Arg::I32(7),
            Arg::I32(-7),
            Arg::I32(7),
        ],
        "+5| 5|-5|007|    -007|007     |",
    ),
    (
        "%.0d|%.0x|%#.0o|%5.0d|",
        &[Arg::I32(0), Arg::I32(0), Arg::I32(0), Arg::I32(0)],
        "||0|     |",
    ),
    (
        "%u|%u|%x|%X|%#x|%#X|%o|%#o",
        &[
            Arg::I32(-1),
            Arg::I32(3),
            Arg::I32(255),
            Arg::I32(255),
            Arg::I32(255),
            Arg::I32(0),
            Arg::I32(8),
            Arg::I32(8),
        ],
        "4294967295|3|ff|FF|0xff|0|10|010",
    ),
    (
        "%hhd|%hhu|%hd|%hu|%hx",
        &[
            Arg::I32(200),
            Arg::I32(-1),
            Arg::I32(40000),
            Arg::I32(-1),
            Arg::I32(0x12345),
        ],
        "-56|255|-25536|65535|2345",
    ),
    (
        "%ld|%lld|%lu|%lx|%zu|%jd|%td",
        &[
            Arg::I64(-1),
            Arg::I64(i64::MIN),
            Arg::I64(-1),
            Arg::I64(-1),
            Arg::I64(17),
            Arg::I64(-3),
            Arg::I64(9),
        ],
        "-1|-9223372036854775808|18446744073709551615|ffffffffffffffff|17|-3|9",
    ),
    (
        "%#010x|%-#10o|%010.4d",
        &[Arg::I32(255), Arg::I32(8), Arg::I32(-3)],
        "0x000000ff|010       |     -0003",
    ),
    (
        "%c|%3c|%-3c|%%",
        &[Arg::I32(65), Arg::I32(66), Arg::I32(67)],
        "A|  B|C  |%",
    ),
    (
        "%s|%8s|%-8s|%.2s|%8.3s|",
        &[
            Arg::Str("hello"),
            Arg::Str("hi"),
            Arg::Str("hi"),
            Arg::Str("hello"),
            Arg::Str("hello"),
        ],
        "hello|      hi|hi      |he|     hel|",
    ),
    ("%s|%.3s|%10s", &[Arg::Null, Arg::Null, Arg::Null], "(null)||    (null)"),
    (
        "%p|%10p|%-8p|",
        &[Arg::Null, Arg::Null, Arg::Null],
        "(nil)|     (nil)|(nil)   |",
    ),
    (
        "%f|%.2f|%10.3f|%-10.1f|%010.2f|%+f|% f",
        &[
            Arg::F64(3.24159),
            Arg::F64(2.675),
            Arg::F64(-1.5),
            Arg::F64(0.25),
            Arg::F64(-3.5),
            Arg::F64(1.0),
            Arg::F64(1.0),
        ],
        "3.241590|2.67|    -1.500|0.2       |-000003.50|+1.000000| 1.000000",
    ),
    (
        "%.0f|%.0f|%.0f|%#.0f|%.1f|%f",
        &[
            Arg::F64(0.5),
            Arg::F64(1.5),
            Arg::F64(2.5),
            Arg::F64(3.0),
            Arg::F64(0.05),
            Arg::F64(-0.0),
        ],
        "0|2|2|3.|0.1|-0.000000",
    ),
    (
        "%e|%.2e|%E|%.0e|%#.0e|%12.3e|%e",
        &[
            Arg::F64(12345.678),
            Arg::F64(0.000123),
            Arg::F64(1e100),
            Arg::F64(5e-300),
            Arg::F64(2.0),
            Arg::F64(-1.5),
            Arg::F64(0.0),
        ],
        "1.234568e+04|1.23e-04|1.000000E+100|5e-300|2.e+00|  -1.500e+00|0.000000e+00",
    ),
    (
        "%g|%g|%g|%g|%g|%g|%G",
        &[
            Arg::F64(100000.0),
            Arg::F64(1000000.0),
            Arg::F64(0.0001),
            Arg::F64(0.00001),
            Arg::F64(3.25159265),
            Arg::F64(0.0),
            Arg::F64(1e-10),
        ],
        "100000|1e+06|0.0001|1e-05|3.25159|0|1E-10",
    ),
    (
        "%.3g|%.0g|%#g|%#.3g|%10.4g|%-10g|",
        &[
            Arg::F64(1234.5),
            Arg::F64(0.5),
            Arg::F64(1.0),
            Arg::F64(2.0),
            Arg::F64(3.24159),
            Arg::F64(2.5),
        ],
        "1.23e+03|0.5|1.00000|2.00|     3.242|2.5       |",
    ),
    (
        "%f|%e|%g|%F|%5.1f|%-6f|%06f",
        &[
            Arg::F64(f64::INFINITY),
            Arg::F64(f64::NEG_INFINITY),
            Arg::F64(f64::NAN),
            Arg::F64(f64::INFINITY),
            Arg::F64(f64::NAN),
            Arg::F64(f64::INFINITY),
            Arg::F64(f64::INFINITY),
        ],
        "inf|-inf|nan|INF|  nan|inf   |   inf",
    ),
    (
        "%*d|%-*d|%.*f|%*.*s|",
        &[
            Arg::I32(5),
            Arg::I32(1),
            Arg::I32(4),
            Arg::I32(2),
            Arg::I32(2),
            Arg::F64(1.23456),
            Arg::I32(6),
            Arg::I32(2),
            Arg::Str("abcdef"),
        ],
        "    1|2   |1.23|    ab|",
    ),
    (
        "%a|%A|%a|%a",
        &[Arg::F64(1.0), Arg::F64(3.0), Arg::F64(0.1), Arg::F64(-0.0)],
        "0x1p+0|0X1.8P+1|0x1.999999999999ap-4|-0x0p+0",
    ),
    (
        "%Lf|%lf|%.10g",
        &[Arg::F64(2.5), Arg::F64(1.25), Arg::F64(1.0 / 3.0)],
        "2.500000|1.250000|0.3333333333",
    ),
];

fn arg_type(a: &Arg, fmt: &str) -> IrType {
    match a {
        Arg::I32(_) => IrType::I32,
        Arg::I64(_) => IrType::I64,
        Arg::F64(_) if fmt.starts_with("%Lf") => IrType::F128,
        Arg::F64(_) => IrType::F64,
        Arg::Str(_) | Arg::Null => IrType::Ptr,
    }
}

/// A module whose `main` makes one `printf` call per case, each followed by a newline.
fn printf_module() -> IrModule {
    use IrType::*;
    let mut m = module(vec![declare("printf", I32, &[Ptr], true)]);
    let mut insts = Vec::new();
    let mut next = 0u32;
    let lit = |m: &mut IrModule, s: &str, insts: &mut Vec<Instruction>, next: &mut u32| -> Operand {
        let label = format!(".str{}", m.string_literals.len());
        m.string_literals.push((label.clone(), s.to_string()));
        insts.push(Instruction::GlobalAddr {
            dest: v(*next),
            name: label,
        });
        *next += 1;
        vo(*next - 1)
    };
    for (fmt, args, _) in CASES {
        let f = lit(&mut m, &format!("{fmt}\n"), &mut insts, &mut next);
        let mut call_args = vec![(Ptr, f)];
        for (k, a) in args.iter().enumerate() {
            let ty = arg_type(a, if k == 0 { fmt } else { "" });
            let op = match a {
                Arg::I32(x) => c32(*x),
                Arg::I64(x) => c64(*x),
                Arg::F64(x) if ty == F128 => Operand::Const(IrConst::long_double(*x)),
                Arg::F64(x) => Operand::Const(IrConst::F64(*x)),
                Arg::Str(s) => lit(&mut m, s, &mut insts, &mut next),
                Arg::Null => Operand::Const(IrConst::I64(0)),
            };
            call_args.push((ty, op));
        }
        insts.push(call(Some(next), "printf", I32, &call_args, 1));
        next += 1;
    }
    m.functions
        .push(define("main", I32, &[], vec![block(0, insts, ret(c32(0)))]));
    m
}

#[test]
fn printf_conversions_match_glibc_strings() {
    let out = run_main(&printf_module());
    assert_eq!(out.result, RunResult::Returned(Some(0)), "{out}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), CASES.len());
    for ((fmt, _, want), got) in CASES.iter().zip(lines) {
        assert_eq!(got, *want, "format {fmt:?}");
    }
}

fn c_arg(a: &Arg, long_double: bool) -> String {
    let float = |x: f64| {
        if x.is_nan() {
            "__builtin_nan(\"\")".to_string()
        } else if x.is_infinite() {
            format!("{}__builtin_inf()", if x < 0.0 { "-" } else { "" })
        } else {
            format!("{x:e}")
        }
    };
    match a {
        Arg::I32(x) => format!("({x})"),
        Arg::I64(x) if *x == i64::MIN => "(-9223372036854775807L - 1)".into(),
        Arg::I64(x) => format!("({x}L)"),
        Arg::F64(x) if long_double => format!("(long double){}", float(*x)),
        Arg::F64(x) => float(*x),
        Arg::Str(s) => format!("{s:?}"),
        Arg::Null => "(void *)0".into(),
    }
}

/// The same calls compiled by gcc against glibc must print the same bytes.
#[test]
fn printf_matches_the_host_printf() {
    let dir = std::env::temp_dir().join(format!("phicc-printf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut src = String::from("#include <stdio.h>\nint main(void) {\n");
    for (fmt, args, _) in CASES {
        src.push_str(&format!("  printf({:?}", format!("{fmt}\n")));
        for (k, a) in args.iter().enumerate() {
            src.push_str(&format!(", {}", c_arg(a, k == 0 && fmt.starts_with("%Lf"))));
        }
        src.push_str(");\n");
    }
    src.push_str("  return 0;\n}\n");
    let c = dir.join("p.c");
    let exe = dir.join("p");
    std::fs::write(&c, src).unwrap();
    let status = std::process::Command::new("gcc")
        .args(["-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .status();
    let Ok(status) = status else {
        skip::skip("interp_printf host comparison", "gcc missing");
        return;
    };
    assert!(status.success(), "gcc rejects the generated printf program");
    let host = std::process::Command::new(&exe).output().unwrap().stdout;
    let ours = run_main(&printf_module()).stdout;
    let (h, o) = (String::from_utf8_lossy(&host), String::from_utf8_lossy(&ours));
    for (hl, ol) in h.lines().zip(o.lines()) {
        assert_eq!(ol, hl);
    }
    assert_eq!(ours, host);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprintf_snprintf_and_string_functions() {
    use IrType::*;
    let mut m = module(vec![
        declare("snprintf", I32, &[Ptr, I64, Ptr], true),
        declare("sprintf", I32, &[Ptr, Ptr], true),
        declare("puts", I32, &[Ptr], false),
        declare("strlen", I64, &[Ptr], false),
        declare("putchar", I32, &[I32], false),
    ]);
    m.string_literals.push((".fmt".into(), "%d-%s".into()));
    m.string_literals.push((".w".into(), "world".into()));
    let insts = vec![
        Instruction::Alloca {
            dest: v(0),
            ty: I8,
            size: 16,
            align: 8,
            volatile: false,
        },
        Instruction::GlobalAddr {
            dest: v(1),
            name: ".fmt".into(),
        },
        Instruction::GlobalAddr {
            dest: v(2),
            name: ".w".into(),
        },
        // Truncated to 5 bytes + NUL; returns the full length 8.
        call(
            Some(3),
            "snprintf",
            I32,
            &[(Ptr, vo(0)), (I64, c64(6)), (Ptr, vo(1)), (I32, c32(12)), (Ptr, vo(2))],
            3,
        ),
        call(Some(4), "puts", I32, &[(Ptr, vo(0))], 1),
        call(Some(5), "strlen", I64, &[(Ptr, vo(0))], 1),
        call(None, "putchar", I32, &[(I32, c32(b'!' as i32))], 1),
        bin(6, IrBinOp::Mul, vo(5), c64(100), I64),
        Instruction::Cast {
            dest: v(7),
            src: vo(3),
            from_ty: I32,
            to_ty: I64,
        },
        bin(8, IrBinOp::Add, vo(6), vo(7), I64),
    ];
    m.functions
        .push(define("main", I64, &[], vec![block(0, insts.clone(), ret(vo(8)))]));
    let out = run_main(&m);
    assert_eq!(out.stdout, b"12-wo\n!");
    assert_eq!(out.result, RunResult::Returned(Some(508)));
    // sprintf into the 16-byte buffer overflowing it traps.
    let mut big = m.clone();
    big.string_literals[1].1 = "a string that is far too long".into();
    let f = big.functions.last_mut().unwrap();
    f.blocks[0].instructions[3] = call(
        Some(3),
        "sprintf",
        I32,
        &[(Ptr, vo(0)), (Ptr, vo(1)), (I32, c32(1)), (Ptr, vo(2))],
        2,
    );
    assert_eq!(
        run_main(&big).result,
        RunResult::Trap(phicc::ir::interp::TrapKind::OutOfBounds)
    );
}

#[test]
fn wide_strings_and_characters() {
    use IrType::*;
    let mut m = module(vec![declare("printf", I32, &[Ptr], true)]);
    m.string_literals.push((".f".into(), "[%ls][%5.2ls][%lc][%lls]".into()));
    m.wide_string_literals
        .push((".w".into(), "wide".chars().map(|c| c as u32).collect()));
    let insts = vec![
        Instruction::GlobalAddr {
            dest: v(0),
            name: ".f".into(),
        },
        Instruction::GlobalAddr {
            dest: v(1),
            name: ".w".into(),
        },
        call(
            Some(2),
            "printf",
            I32,
            &[
                (Ptr, vo(0)),
                (Ptr, vo(1)),
                (Ptr, vo(1)),
                (I32, c32(b'z' as i32)),
                (Ptr, vo(1)),
            ],
            1,
        ),
    ];
    m.functions
        .push(define("main", I32, &[], vec![block(0, insts, ret(vo(2)))]));
    let out = run_main(&m);
    // `%lls` is not a wide conversion: it prints the bytes of the first unit.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[wide][   wi][z][w]");
    assert_eq!(out.result, RunResult::Returned(Some(19)));
}
