//! The `phicc` command line: modes, outputs and exit statuses (driver
//! contract, `phicc::exit`: 0 success, 1 ill-formed program with
//! `file:line:col: error:` or a construct the backend cannot compile, 2 bad
//! command line, 70 internal compiler error, `--run-ir` exits with the
//! program's status).

use phicc::exit;
#[path = "support/run_target.rs"]
mod run_target;
#[path = "support/skip.rs"]
mod skip;

use phicc::target::Target;
use std::path::{Path, PathBuf};
use std::process::Command;

fn phicc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_phicc"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const HELLO: &str = "#include <stdio.h>\nint main(void) { printf(\"hello %d\\n\", 6 * 7); return 3; }\n";

#[test]
fn preprocess_only_prints_the_expansion() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "m.c", "#define TWICE(x) ((x) * 2)\nint v = TWICE(VALUE);\n");
    let out = phicc().args(["-E", "-DVALUE=21"]).arg(&f).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("int v = ((21) * 2);"),
        "{}",
        text(&out.stdout)
    );
    let out = phicc().args(["-E", "-DVALUE=21", "-UVALUE"]).arg(&f).output().unwrap();
    assert!(text(&out.stdout).contains("((VALUE) * 2)"), "{}", text(&out.stdout));
}

#[test]
fn run_ir_prints_and_exits_with_the_program_status() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hello.c", HELLO);
    for extra in [
        &[][..],
        &["-fno-mem2reg"][..],
        &["--target=aarch64"][..],
        &["--target=riscv64"][..],
    ] {
        let out = phicc().arg("--run-ir").args(extra).arg(&f).output().unwrap();
        assert_eq!(text(&out.stdout), "hello 42\n", "{extra:?}: {}", text(&out.stderr));
        assert_eq!(out.status.code(), Some(3), "{extra:?}");
    }
    let out = phicc()
        .arg("--run-ir")
        .arg(&f)
        .env("PHICC_DISABLE_PASSES", "copyprop,mem2reg-params")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn errors_are_located_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "bad.c", "int main(void) {\n  return 1 +;\n}\n");
    let out = phicc().arg("--run-ir").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bad.c:2:"), "{err}");
    assert!(err.contains(": error: "), "{err}");
    assert!(err.contains("return 1 +;"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn bad_command_lines_exit_2_and_bad_env_exits_1() {
    let out = phicc().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = phicc().args(["--target=sparc", "x.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown target"));
    let out = phicc().output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no input files"));
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hello.c", HELLO);
    let out = phicc()
        .arg("--run-ir")
        .arg(&f)
        .env("PHICC_DISABLE_PASSES", "gvn")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown pass `gvn`"),
        "{}",
        text(&out.stderr)
    );
    let out = phicc().args(["--inject-bug=no-such-bug"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn emit_ir_and_print_ir_after() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f.c", "int f(int a) { int b = a + 1; return b * 2; }\n");
    let out = phicc().arg("--emit-ir").arg(&f).output().unwrap();
    let ir = text(&out.stdout);
    assert!(ir.contains("define @f(i32) -> i32"), "{ir}");
    assert!(ir.contains("alloca i32") && ir.contains("paramref 0 i32"), "{ir}");
    let out = phicc()
        .args(["-fsyntax-only", "--print-ir-after=mem2reg"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = phicc()
        .args(["-S", "--print-ir-after=all", "-o"])
        .arg(dir.path().join("f.s"))
        .arg(&f)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(err.contains("; *** IR after lowering ***"), "{err}");
    assert!(err.contains("; *** IR after mem2reg ***"), "{err}");
    assert!(err.contains("; *** IR after phi-elim ***"), "{err}");
    // After mem2reg-params the local and the parameter are values: no memory access left in @f.
    let after = err.split("; *** IR after mem2reg-params ***").nth(1).unwrap();
    let f_body = after.split("define @f").nth(1).unwrap().split('}').next().unwrap();
    assert!(!f_body.contains("load") && !f_body.contains("store"), "{f_body}");
}

/// The `key=value` lines of `phicc --print-target-info` with extra arguments.
fn target_info(args: &[&str]) -> Vec<(String, String)> {
    let out = phicc().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!("not key=value: {l:?}"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn print_target_info_gives_the_tables_facts() {
    for t in Target::ALL {
        let info = target_info(&[&format!("--print-target-info={t}")]);
        let get = |k: &str| {
            info.iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{t}: no {k}= in {info:?}"))
        };
        assert_eq!(get("name"), t.name());
        assert_eq!(get("triple"), format!("{t}-linux-gnu"));
        assert_eq!(get("gcc"), t.gcc());
        assert_eq!(get("qemu"), format!("qemu-{t}"));
        assert_eq!(get("emulator"), t.emulator().unwrap_or(""));
        assert_eq!(get("char_signed"), t.char_is_signed().to_string());
        assert_eq!(get("elf_machine"), t.info().elf_machine.to_string());
        // An alias or a triple names the same target, and so does `--target` without a value.
        assert_eq!(target_info(&[&format!("--print-target-info={}", t.triple())]), info);
        assert_eq!(target_info(&[&format!("--target={t}"), "--print-target-info"]), info);
    }
    let x86 = target_info(&["--print-target-info=amd64"]);
    assert!(x86.contains(&("long_double".into(), "x87".into())), "{x86:?}");
    assert!(x86.contains(&("va_list".into(), "sysv-array".into())), "{x86:?}");
    // The default target is x86_64.
    assert_eq!(target_info(&["--print-target-info"]), x86);
    let out = phicc().arg("--print-target-info=sparc").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown target `sparc`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn compiles_links_and_runs_for_aarch64_under_qemu() {
    if let Some(reason) = run_target::missing_tool(Target::Aarch64) {
        skip::skip("phicc_cli aarch64 under qemu", &reason);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hello.c", HELLO);
    for extra in [&[][..], &["-fno-mem2reg"][..]] {
        let exe = dir.path().join("hello");
        let out = phicc()
            .args(["--target=aarch64", "-static", "-o"])
            .arg(&exe)
            .args(extra)
            .arg(&f)
            .output()
            .unwrap();
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        let run = match Target::Aarch64.emulator() {
            Some(q) => Command::new(q).arg(&exe).output().unwrap(),
            None => Command::new(&exe).output().unwrap(),
        };
        assert_eq!(text(&run.stdout), "hello 42\n", "{extra:?}");
        assert_eq!(run.status.code(), Some(3), "{extra:?}");
        // -S gives AArch64 assembly.
        let s = dir.path().join("hello.s");
        let out = phicc()
            .args(["--target=aarch64", "-S", "-o"])
            .arg(&s)
            .arg(&f)
            .output()
            .unwrap();
        assert!(out.status.success());
        let asm = std::fs::read_to_string(&s).unwrap();
        assert!(asm.contains("\tbl\tprintf") && asm.contains("stp\tx29, x30"), "{asm}");
    }
}

#[test]
fn compiles_assembles_and_links_mixed_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let helper = write(d, "h.c", "int helper(int x) { return x * 3; }\n");
    let main = write(
        d,
        "m.c",
        "#include <stdio.h>\nint helper(int);\nint main(void) { printf(\"%d\\n\", helper(14)); return 0; }\n",
    );
    // A gcc-built object mixed with a phicc-compiled source.
    let gcc_obj = d.join("h_gcc.o");
    assert!(Command::new("gcc")
        .arg("-c")
        .arg(&helper)
        .arg("-o")
        .arg(&gcc_obj)
        .status()
        .unwrap()
        .success());
    let exe = d.join("mixed");
    let out = phicc().arg(&main).arg(&gcc_obj).arg("-o").arg(&exe).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&Command::new(&exe).output().unwrap().stdout), "42\n");
    // -c per file, then a static link of the objects, in the nomem2reg configuration.
    let (mo, ho) = (d.join("m.o"), d.join("h.o"));
    for (src, obj) in [(&main, &mo), (&helper, &ho)] {
        let out = phicc()
            .args(["-c", "-fno-mem2reg"])
            .arg(src)
            .arg("-o")
            .arg(obj)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let exe2 = d.join("linked");
    let out = phicc()
        .arg("-static")
        .arg(&mo)
        .arg(&ho)
        .arg("-o")
        .arg(&exe2)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&Command::new(&exe2).output().unwrap().stdout), "42\n");
    // -S writes assembly; a link error is exit 1 with the linker's message.
    let s = d.join("m.s");
    let out = phicc().arg("-S").arg(&main).arg("-o").arg(&s).output().unwrap();
    assert!(out.status.success() && std::fs::read_to_string(&s).unwrap().contains("main"));
    let out = phicc().arg(&main).arg("-o").arg(d.join("nolink")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("helper"), "{}", text(&out.stderr));
}

/// A construct the backend cannot compile is the program's problem: a
/// diagnostic naming the file and function, exit 1, on every target.
#[test]
fn unsupported_input_is_a_diagnostic_not_an_internal_error() {
    let dir = tempfile::tempdir().unwrap();
    // `t` (the x87 stack top) is no constraint any of the three backends implements.
    let asm = write(
        dir.path(),
        "asm.c",
        "int f(int x) { int y; __asm__(\"fld %1\" : \"=t\"(y) : \"r\"(x)); return y; }\n",
    );
    // An alignment beyond what the frames support.
    let align = write(
        dir.path(),
        "align.c",
        "int f(int n) { _Alignas(1048576) char c[n]; c[0] = 1; return c[0]; }\n",
    );
    for target in ["x86_64", "aarch64", "riscv64"] {
        for (file, what) in [(&asm, "inline asm: "), (&align, "alignment 1048576")] {
            let out = phicc()
                .arg(format!("--target={target}"))
                .arg("-S")
                .arg(file)
                .arg("-o")
                .arg(dir.path().join("out.s"))
                .output()
                .unwrap();
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(exit::ERROR), "{target}: {err}");
            assert!(
                err.starts_with(&format!("{}: error: in function 'f': ", file.display())) && err.contains(what),
                "{target}: {err}"
            );
            assert!(!err.contains("internal compiler error"), "{target}: {err}");
        }
    }
}

/// `--print-ir-after` takes every pass of the pass table (and prints after
/// each pass of the configuration that runs), and refuses other names.
#[test]
fn print_ir_after_takes_every_pass_of_the_table() {
    use phicc::passes::{Configuration, PassKind};
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f.c", "int f(int a) { int b = a + 1; return b * 2; }\n");
    for pass in PassKind::ALL {
        let out = phicc()
            .args(["-S", "-o"])
            .arg(dir.path().join("f.s"))
            .arg(format!("--print-ir-after={pass}"))
            .arg(&f)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert!(out.status.success(), "{pass}: {err}");
        let ran = Configuration::DEFAULT.passes().contains(&pass);
        assert_eq!(
            err.contains(&format!("; *** IR after {pass} ***")),
            ran,
            "{pass}: {err}"
        );
    }
    let out = phicc().args(["-S", "--print-ir-after=gvn"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("unknown pass `gvn`") && err.contains("copyprop"), "{err}");
}

/// `-O1` and its aliases select the `opt` configuration, none or `-O0`
/// the default `mem2reg`, and `-fno-mem2reg` wins over any level: the
/// passes that run (seen through `--print-ir-after=all`) are exactly the
/// configuration's. A level gcc rejects is an error.
#[test]
fn opt_levels_select_the_configuration() {
    use phicc::passes::Configuration;
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "hello.c", HELLO);
    let cases: &[(&[&str], Configuration)] = &[
        (&[], Configuration::Mem2reg),
        (&["-O0"], Configuration::Mem2reg),
        (&["-O"], Configuration::Opt),
        (&["-O1"], Configuration::Opt),
        (&["-O2"], Configuration::Opt),
        (&["-O3"], Configuration::Opt),
        (&["-Os"], Configuration::Opt),
        (&["-O2", "-fno-mem2reg"], Configuration::Nomem2reg),
        (&["-fno-mem2reg", "-O0"], Configuration::Nomem2reg),
    ];
    for (args, config) in cases {
        let out = phicc()
            .args(*args)
            .args(["--run-ir", "--print-ir-after=all"])
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert_eq!(text(&out.stdout), "hello 42\n", "{args:?}");
        let ran: Vec<String> = text(&out.stderr)
            .lines()
            .filter_map(|l| l.strip_prefix("; *** IR after ")?.strip_suffix(" ***"))
            .filter(|p| *p != "lowering")
            .map(str::to_string)
            .collect();
        let want: Vec<&str> = config.passes().iter().map(|p| p.name()).collect();
        assert_eq!(ran, want, "{args:?}");
    }
    let out = phicc().args(["-Ox", "-S"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(exit::ERROR));
    assert!(text(&out.stderr).contains("argument to '-O'"), "{}", text(&out.stderr));
}
