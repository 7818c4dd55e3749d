//! The `phicc` command line: modes, outputs and exit statuses (driver
//! contract, `phicc::exit`: 0 success, 1 ill-formed program with
//! `file:line:col: error:` or a construct the backend cannot compile, 2 bad
//! command line, an unknown gcc flag 1 as in gcc, 70 internal compiler error,
//! `--run-ir` exits with the program's status), and gcc's driver flags
//! compared with gcc.

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
        .env("PHICC_DISABLE_PASSES", "pre")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("unknown pass `pre`"),
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

/// Runs a command and returns (status, stdout, stderr).
fn run_in(dir: &Path, cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.current_dir(dir).output().unwrap();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// A small tree for the dependency flags: `m.c` includes a local header
/// and one found through `-I inc`.
fn dependency_tree(d: &Path) {
    std::fs::create_dir_all(d.join("inc")).unwrap();
    std::fs::create_dir_all(d.join("out")).unwrap();
    write(
        d,
        "m.c",
        "#include \"a.h\"\n#include <b.h>\nint main(void) { return A + B - 3; }\n",
    );
    write(d, "a.h", "#define A 1\n");
    write(&d.join("inc"), "b.h", "#define B 2\n");
}

#[test]
fn dependency_flags_write_what_gcc_writes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    dependency_tree(d);
    // The same rule as gcc's, byte for byte, for each way of asking.
    for args in [
        &["-Iinc", "-MM", "m.c"][..],
        &["-Iinc", "-MM", "-MP", "m.c"][..],
        &["-Iinc", "-MM", "-MT", "x y", "-MQ", "$z w", "m.c"][..],
        &["-isystem", "inc", "-MM", "m.c"][..],
    ] {
        let ours = run_in(d, phicc().args(args));
        let gccs = run_in(d, Command::new("gcc").args(args));
        assert_eq!(ours.0, Some(0), "{args:?}: {}", ours.2);
        assert_eq!(ours.1, gccs.1, "{args:?}");
    }
    // -M lists system headers too (gcc adds its own stdc-predef.h and stddef.h, which phicc has not).
    let (st, out, _) = run_in(d, phicc().args(["-Iinc", "-M", "m.c"]));
    assert_eq!(st, Some(0));
    assert!(out.starts_with("m.o: m.c a.h inc/b.h\n"), "{out}");
    write(d, "s.c", "#include <stdio.h>\n#include \"a.h\"\n");
    let (_, out, _) = run_in(d, phicc().args(["-M", "s.c"]));
    assert!(out.contains("/usr/include/stdio.h") && out.contains(" \\\n "), "{out}");
    // -MD / -MMD beside a compile: the file named after -o, or -MF.
    for (args, file) in [
        (&["-Iinc", "-MMD", "-MP", "-c", "m.c", "-o", "out/x.o"][..], "out/x.d"),
        (
            &["-Iinc", "-MD", "-MF", "deps.txt", "-MT", "t", "-c", "m.c"][..],
            "deps.txt",
        ),
        (&["-Iinc", "-MMD", "-S", "m.c", "-o", "out/y.s"][..], "out/y.d"),
        (&["-Iinc", "-MMD", "m.c", "-o", "prog"][..], "prog.d"),
        (&["-Iinc", "-MMD", "-c", "m.c"][..], "m.d"),
        (&["-Iinc", "-Wp,-MMD,wp.d", "-c", "m.c"][..], "wp.d"),
    ] {
        let (st, _, err) = run_in(d, Command::new("gcc").args(args));
        assert_eq!(st, Some(0), "gcc {args:?}: {err}");
        let theirs = std::fs::read_to_string(d.join(file)).unwrap();
        std::fs::remove_file(d.join(file)).unwrap();
        let (st, _, err) = run_in(d, phicc().args(args));
        assert_eq!(st, Some(0), "{args:?}: {err}");
        let ours = std::fs::read_to_string(d.join(file)).unwrap();
        // gcc's -MD also lists its own stdc-predef.h.
        assert_eq!(ours, theirs.replace(" /usr/include/stdc-predef.h", ""), "{args:?}");
    }
}

#[test]
fn preprocessor_flags_reach_the_preprocessor() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for sub in ["q", "i", "s"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    write(&d.join("q"), "h.h", "#define WHERE 1\n");
    write(&d.join("i"), "h.h", "#define WHERE 2\n");
    write(&d.join("s"), "sys.h", "#define SYS 30\n");
    write(d, "pre.h", "#define PRE 400\n");
    write(
        d,
        "p.c",
        "#include \"h.h\"\n#include <sys.h>\n#ifndef _REENTRANT\n#define _REENTRANT 0\n#endif\n\
         #ifdef GONE\n#error GONE\n#endif\n\
         int main(void) { return WHERE + SYS + PRE + FROM_WP + _REENTRANT * 1000; }\n",
    );
    let status = |args: &[&str]| {
        let (st, _, err) = run_in(d, phicc().arg("--run-ir").args(args).arg("p.c"));
        assert!(st.is_some_and(|s| s != 1), "{args:?}: {err}");
        st.unwrap()
    };
    let base = ["-Wp,-DFROM_WP=5,-DGONE,-UGONE", "-include", "pre.h", "-isystem", "s"];
    // -iquote serves "h.h" before -I; without it, -I does. 400+30+5 = 435 (mod 256 = 179).
    assert_eq!(status(&[&base[..], &["-iquote", "q", "-Ii"]].concat()), (1 + 435) % 256);
    assert_eq!(status(&[&base[..], &["-Ii"]].concat()), (2 + 435) % 256);
    // -Wp,-I is an include directory; -pthread defines _REENTRANT.
    assert_eq!(
        status(&[&base[..], &["-Wp,-Ii", "-pthread"]].concat()),
        (2 + 435 + 1000) % 256
    );
    // An -iquote directory does not serve <...>.
    write(d, "a.c", "#include <h.h>\nint main(void) { return WHERE; }\n");
    let (st, _, err) = run_in(d, phicc().args(["--run-ir", "-iquote", "q", "a.c"]));
    assert_eq!(st, Some(1), "{err}");
    assert!(err.contains("h.h: No such file"), "{err}");
}

#[test]
fn linker_flags_reach_the_linker() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "e.c",
        "int exported_fn(void) { return 7; }\nint main(void) { return exported_fn() - 7; }\n",
    );
    let elf_type = |exe: &str| {
        let (_, out, _) = run_in(d, Command::new("readelf").args(["-h", exe]));
        out.lines().find(|l| l.contains("Type:")).unwrap_or("").to_string()
    };
    let dynsyms = |exe: &str| run_in(d, Command::new("nm").args(["-D", exe])).1;
    // -Wl,-E and -Xlinker -E and -rdynamic export main's symbols.
    for flags in [&["-Wl,-E"][..], &["-Xlinker", "-E"][..], &["-rdynamic"][..], &[][..]] {
        let (st, _, err) = run_in(d, phicc().args(flags).args(["e.c", "-o", "e1"]));
        assert_eq!(st, Some(0), "{flags:?}: {err}");
        assert_eq!(run_in(d, &mut Command::new(d.join("e1"))).0, Some(0));
        assert_eq!(dynsyms("e1").contains("exported_fn"), !flags.is_empty(), "{flags:?}");
    }
    // A -Wl option with commas is split as gcc splits it.
    let (st, _, err) = run_in(
        d,
        phicc().args(["-Wl,--defsym,extra_sym=0x10", "-Wl,-E", "e.c", "-o", "e2"]),
    );
    assert_eq!(st, Some(0), "{err}");
    assert!(run_in(d, Command::new("nm").arg("e2")).1.contains("extra_sym"));
    // -s strips; -no-pie and -pie choose the ELF type.
    run_in(d, phicc().args(["-s", "-no-pie", "e.c", "-o", "e3"]));
    assert!(run_in(d, Command::new("nm").arg("e3")).2.contains("no symbols"));
    assert!(elf_type("e3").contains("EXEC"), "{}", elf_type("e3"));
    run_in(d, phicc().args(["-pie", "e.c", "-o", "e4"]));
    assert!(elf_type("e4").contains("DYN"), "{}", elf_type("e4"));
    assert_eq!(run_in(d, &mut Command::new(d.join("e4"))).0, Some(0));
    // -pthread links libpthread; --sysroot=/ is the host's own root.
    write(
        d,
        "t.c",
        "#include <pthread.h>\nstatic void *f(void *p) { return p; }\n\
         int main(void) { pthread_t t; void *r; pthread_create(&t, 0, f, (void *)5); pthread_join(t, &r); return (long)r - 5; }\n",
    );
    let (st, _, err) = run_in(d, phicc().args(["-pthread", "--sysroot=/", "t.c", "-o", "t", "-v"]));
    assert_eq!(st, Some(0), "{err}");
    assert!(err.contains("-pthread") && err.contains("--sysroot=/"), "{err}");
    assert_eq!(run_in(d, &mut Command::new(d.join("t"))).0, Some(0));
}

#[test]
fn shared_libraries_of_position_independent_code() {
    // -fPIC reaches preemptible symbols through the GOT and PLT, so the
    // objects link into a shared library, on every target; a program built
    // by phicc or by gcc uses it.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "lib.c",
        "int counter = 5;
static int hidden = 3;
extern int ext_var;
         __attribute__((visibility(\"hidden\"))) int twice(int x) { return 2 * x; }
         int bump(int k) { counter += k + hidden; return counter; }
         int call_bump(void) { return bump(1) + twice(ext_var); }
         int (*fp)(int) = bump;
const char *msg = \"hi\";
         #if __PIC__ != 2
#error -fPIC defines __PIC__
#endif
",
    );
    write(
        d,
        "main.c",
        "#include <stdio.h>
int ext_var = 100;
         int bump(int); int call_bump(void); extern int counter; extern int (*fp)(int); extern const char *msg;
         int main(void) { int a = bump(2); int b = call_bump(); int c = fp(0);
         printf(\"%d %d %d %s %d\\n\", a, b, c, msg, counter); return 0; }
",
    );
    let expected = "10 214 17 hi 17\n";
    for (target, gcc, qemu) in [
        ("x86_64", "gcc", None),
        (
            "aarch64",
            "aarch64-linux-gnu-gcc",
            Some(("qemu-aarch64", "/usr/aarch64-linux-gnu")),
        ),
        (
            "riscv64",
            "riscv64-linux-gnu-gcc",
            Some(("qemu-riscv64", "/usr/riscv64-linux-gnu")),
        ),
    ] {
        let t = format!("--target={target}");
        let lib = format!("libpic{target}.so");
        let (st, _, err) = run_in(d, phicc().args([&t, "-fPIC", "-shared", "lib.c", "-o", &lib]));
        assert_eq!(st, Some(0), "{target}: {err}");
        // Compiled with -fPIC -c, then linked by gcc -shared, as build systems do.
        let (st, _, err) = run_in(d, phicc().args([&t, "-fPIC", "-c", "lib.c", "-o", "lib.o"]));
        assert_eq!(st, Some(0), "{target}: {err}");
        let (st, _, err) = run_in(d, Command::new(gcc).args(["-shared", "lib.o", "-o", "libpic2.so"]));
        assert_eq!(st, Some(0), "{target}: {err}");
        let lib_flag = format!("-lpic{target}");
        let (st, _, err) = run_in(d, phicc().args([&t, "main.c", "-L.", &lib_flag, "-o", "m1"]));
        assert_eq!(st, Some(0), "{target}: {err}");
        let (st, _, err) = run_in(d, Command::new(gcc).args(["main.c", "-L.", &lib_flag, "-o", "m2"]));
        assert_eq!(st, Some(0), "{target}: {err}");
        for exe in ["m1", "m2"] {
            let mut cmd = match qemu {
                None => Command::new(d.join(exe)),
                Some((q, root)) => {
                    let mut c = Command::new(q);
                    c.args(["-L", root]).arg(d.join(exe));
                    c
                }
            };
            let (st, out, err) = run_in(d, cmd.env("LD_LIBRARY_PATH", d));
            assert_eq!((st, out.as_str()), (Some(0), expected), "{target} {exe}: {err}");
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
    let out = phicc().args(["-S", "--print-ir-after=pre"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("unknown pass `pre`") && err.contains("copyprop"), "{err}");
}

#[test]
fn gcc_driver_queries_and_modes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (st, out, _) = run_in(d, phicc().arg("-dumpversion"));
    assert_eq!((st, out.as_str()), (Some(0), "4.9.0\n"));
    let (_, out, _) = run_in(d, phicc().arg("-dumpmachine"));
    assert_eq!(out, "x86_64-linux-gnu\n");
    let (_, out, _) = run_in(d, phicc().args(["--target=riscv64", "-dumpmachine"]));
    assert_eq!(out, "riscv64-linux-gnu\n");
    let (_, out, _) = run_in(d, phicc().arg("-print-file-name=libc.a"));
    let (_, gccs, _) = run_in(d, Command::new("gcc").arg("-print-file-name=libc.a"));
    assert_eq!(out, gccs);
    let (st, _, err) = run_in(d, phicc().arg("-v"));
    assert_eq!(st, Some(0));
    assert!(
        err.contains("phicc version") && err.contains("Target: x86_64-linux-gnu"),
        "{err}"
    );
    // -x c compiles a file whatever its name; -x none goes back to extensions.
    write(d, "prog.txt", "int main(void) { return 4; }\n");
    write(d, "two.c", "int two(void) { return 2; }\n");
    let (st, _, err) = run_in(
        d,
        phicc().args(["-x", "c", "prog.txt", "-x", "none", "two.c", "-o", "x"]),
    );
    assert_eq!(st, Some(0), "{err}");
    assert_eq!(run_in(d, &mut Command::new(d.join("x"))).0, Some(4));
    let (st, _, _) = run_in(d, phicc().args(["prog.txt", "-o", "y"]));
    assert_eq!(st, Some(1), "a .txt file is a linker input without -x");
    // -save-temps keeps the preprocessed text and the assembly.
    write(d, "k.c", "#define K 9\nint main(void) { return K; }\n");
    let (st, _, err) = run_in(d, phicc().args(["-save-temps", "k.c", "-o", "k"]));
    assert_eq!(st, Some(0), "{err}");
    assert!(std::fs::read_to_string(d.join("k.i")).unwrap().contains("return 9;"));
    assert!(std::fs::read_to_string(d.join("k.s")).unwrap().contains("main"));
    // Warning flags are accepted; an unknown flag is an error naming it (exit 1, as gcc).
    let (st, _, err) = run_in(d, phicc().args(["-Wall", "-Wextra", "-Wno-unused", "-c", "k.c"]));
    assert_eq!(st, Some(0), "{err}");
    for bad in ["-frobnicate-not", "-Q", "-qux"] {
        let (st, _, err) = run_in(d, phicc().args([bad, "k.c"]));
        if bad.starts_with("-f") {
            assert_eq!(st, Some(0), "-f flags are accepted: {err}");
            continue;
        }
        assert_eq!(st, Some(1), "{bad}");
        assert!(
            err.contains(&format!("unrecognized command-line option '{bad}'")),
            "{err}"
        );
    }
    let (st, _, err) = run_in(d, phicc().args(["-Wa,--noexecstack", "-c", "k.c"]));
    assert_eq!(st, Some(1));
    assert!(
        err.contains("'-Wa,--noexecstack': assembler options are not supported"),
        "{err}"
    );
    let (st, _, err) = run_in(d, phicc().args(["-MF"]));
    assert_eq!(st, Some(1));
    assert!(err.contains("missing argument to '-MF'"), "{err}");
}

/// `-fopt-bisect-limit=N` (LLVM's opt-bisect-limit): the first N (pass,
/// function) applications run, the rest are skipped, each printed on standard
/// error; phi-elim is required and not numbered; the program still runs the
/// same; the numbering continues across the files of one compile.
#[test]
fn opt_bisect_limit_runs_only_the_first_applications() {
    let dir = tempfile::tempdir().unwrap();
    let src = "int f(int a) { int b = a + 1; return b * 2; }\nint main(void) { int x = f(3); return x; }\n";
    let f = write(dir.path(), "two.c", src);
    let bisect = |limit: &str| {
        let out = phicc()
            .arg("--run-ir")
            .arg(format!("-fopt-bisect-limit={limit}"))
            .arg("--print-ir-after=phi-elim")
            .arg(&f)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(8), "limit {limit}: {}", text(&out.stderr));
        text(&out.stderr)
    };
    let err = bisect("1");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("BISECT:")).collect();
    assert_eq!(
        lines,
        [
            "BISECT: running pass (1) mem2reg on function (f)",
            "BISECT: NOT running pass (2) mem2reg on function (main)",
            "BISECT: NOT running pass (3) mem2reg-params on function (f)",
            "BISECT: NOT running pass (4) mem2reg-params on function (main)",
            "BISECT: NOT running pass (5) copyprop on function (f)",
            "BISECT: NOT running pass (6) copyprop on function (main)",
            "BISECT: running required pass phi-elim on module",
        ],
        "{err}"
    );
    // f's local was promoted, main's was not (its alloca is still in the IR).
    let ir = err.split("; *** IR after phi-elim ***").nth(1).unwrap();
    let (f_body, main) = ir.split_once("define @main(").unwrap();
    assert!(main.contains("alloca"), "{ir}");
    assert_eq!(
        f_body.matches("= alloca").count(),
        1,
        "only f's parameter slot stays: {ir}"
    );

    // 0 skips every counted application; -1 runs all of them, still printed.
    assert!(bisect("0").contains("BISECT: NOT running pass (1) mem2reg on function (f)"));
    let all = bisect("-1");
    assert!(!all.contains("NOT running"), "{all}");
    assert!(
        all.contains("BISECT: running pass (6) copyprop on function (main)"),
        "{all}"
    );

    // Two files: the second file's applications are numbered 7 to 12.
    let g = write(dir.path(), "g.c", "int g(int a) { int c = a; return c; }\n");
    let out = phicc()
        .current_dir(dir.path())
        .args(["-c", "-fopt-bisect-limit=7"])
        .arg(&f)
        .arg(&g)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("BISECT: running pass (7) mem2reg on function (g)"),
        "{err}"
    );
    assert!(
        err.contains("BISECT: NOT running pass (8) mem2reg-params on function (g)"),
        "{err}"
    );
    assert!(!err.contains("(13)"), "{err}");
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

#[test]
fn limits_h_replaces_an_earlier_fallback_without_a_warning() {
    // readline's chardefs.h defines UCHAR_MAX when <limits.h> was not
    // included yet; gcc's <limits.h> #undefs each limit first (no warning).
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "lim.c",
        "#define UCHAR_MAX 255\n#define CHAR_MAX 127\n#include <limits.h>\n#include <stdio.h>\n\
         int main(void) { printf(\"%d %d %d\\n\", UCHAR_MAX, CHAR_MAX, INT_MAX); return 0; }\n",
    );
    let exe = dir.path().join("lim");
    let out = phicc().arg("-o").arg(&exe).arg(&src).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "a warning");
    let run = Command::new(&exe).output().unwrap();
    assert_eq!(text(&run.stdout), "255 127 2147483647\n");
}

/// `-fno-mem2reg=f,g` keeps the named functions out of SSA: mem2reg and
/// mem2reg-params skip them (not even numbered for bisection), every other
/// function is promoted, the program computes the same, and an empty list
/// is an error.
#[test]
fn no_mem2reg_for_named_functions() {
    let dir = tempfile::tempdir().unwrap();
    let src = "int f(int a) { int b = a + 1; for (int i = 0; i < 3; i++) b = b * 2; return b; }\n\
               int g(int a) { int c = a * 3; return c - 1; }\n\
               int main(void) { return f(2) + g(4) - 30; }\n";
    let file = write(dir.path(), "kf.c", src);
    let run = |extra: &[&str]| {
        let out = phicc()
            .arg("--run-ir")
            .args(extra)
            .args(["--print-ir-after=phi-elim", "-fopt-bisect-limit=-1"])
            .arg(&file)
            .output()
            .unwrap();
        // f(2) = 24, g(4) = 11: 24 + 11 - 30.
        assert_eq!(out.status.code(), Some(5), "{extra:?}: {}", text(&out.stderr));
        text(&out.stderr)
    };
    let allocas_of = |err: &str, name: &str| {
        let ir = err.split("; *** IR after phi-elim ***").nth(1).unwrap();
        let body = ir.split(&format!("define @{name}(")).nth(1).unwrap();
        let body = body.split("\ndefine ").next().unwrap();
        body.matches("= alloca").count()
    };
    let all = run(&[]);
    assert_eq!((allocas_of(&all, "f"), allocas_of(&all, "g")), (1, 1), "{all}");
    let kept = run(&["-fno-mem2reg=f"]);
    assert_eq!((allocas_of(&kept, "f"), allocas_of(&kept, "g")), (3, 1), "{kept}");
    assert!(!kept.contains("mem2reg on function (f)"), "{kept}");
    assert!(!kept.contains("mem2reg-params on function (f)"), "{kept}");
    assert!(
        kept.contains("BISECT: running pass (1) mem2reg on function (g)"),
        "{kept}"
    );
    assert!(kept.contains("copyprop on function (f)"), "{kept}");
    let both = run(&["-fno-mem2reg=f,g"]);
    assert_eq!((allocas_of(&both, "f"), allocas_of(&both, "g")), (3, 2), "{both}");
    // Native code too: the same status with f kept out.
    let exe = dir.path().join("kf");
    let st = phicc()
        .args(["-fno-mem2reg=f", "-o"])
        .arg(&exe)
        .arg(&file)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(Command::new(&exe).status().unwrap().code(), Some(5));

    let out = phicc().args(["-c", "-fno-mem2reg="]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("-fno-mem2reg=: expected a comma-separated list"));
}
