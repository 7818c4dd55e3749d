//! The `phicc` command line: modes, outputs and exit statuses (driver
//! contract: 0 success, 1 ill-formed program with `file:line:col: error:`,
//! 2 bad command line, `--run-ir` exits with the program's status).

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

#[test]
fn compiles_links_and_runs_for_aarch64_under_qemu() {
    let has = |p: &str| Command::new(p).arg("--version").output().is_ok();
    if !has("aarch64-linux-gnu-gcc") || !has("qemu-aarch64") {
        eprintln!("SKIPPED: the AArch64 toolchain or QEMU is missing (scripts/setup.sh --campaign)");
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
        let run = Command::new("qemu-aarch64").arg(&exe).output().unwrap();
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

/// The symbols (`nm` names) an object or executable defines.
fn defined_symbols(path: &Path) -> Vec<String> {
    let out = Command::new("nm").arg("--defined-only").arg(path).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect()
}

#[test]
fn unreferenced_internal_definitions_are_not_emitted() {
    // repro-07: undefined functions and objects that only unreferenced
    // `static` / `static inline` definitions refer to do not break the link.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let f = write(
        d,
        "u.c",
        "extern int missing_fn(void); extern int missing_obj;\n\
         static inline int wrap(void) { return missing_fn(); }\n\
         static int plain(void) { return wrap() + missing_obj; }\n\
         static int *data = &missing_obj;\n\
         static int *table[] = { &missing_obj };\n\
         static int chain2(void) { return 4; }\n\
         static int chain1(void) { return chain2(); }\n\
         static int (*kept)(void) = chain1;\n\
         int use_kept(void) { return kept(); }\n\
         __attribute__((used)) static int pinned(void) { return 1; }\n\
         int main(void) { return use_kept() - 4; }\n",
    );
    for conf in [&[][..], &["-fno-mem2reg"][..]] {
        let obj = d.join("u.o");
        let out = phicc()
            .arg("-c")
            .args(conf)
            .arg(&f)
            .arg("-o")
            .arg(&obj)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let syms = defined_symbols(&obj);
        for gone in ["wrap", "plain", "data", "table"] {
            assert!(!syms.iter().any(|s| s == gone), "{gone} emitted: {syms:?}");
        }
        for kept in ["chain1", "chain2", "kept", "use_kept", "pinned", "main"] {
            assert!(syms.iter().any(|s| s == kept), "{kept} dropped: {syms:?}");
        }
        let exe = d.join("u");
        let out = phicc().args(conf).arg(&f).arg("-o").arg(&exe).output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(Command::new(&exe).status().unwrap().code(), Some(0));
    }
}
