//! The integrated assembler's x86-64 encoder against GNU as: every distinct
//! instruction the backend prints for the backend IR tests and the C suite
//! (both configurations) is assembled by both, and `objdump` must decode the
//! two objects to the same instruction sequence (modules with inline asm
//! are left out: the integrated assembler hands those to gas). Branches and calls (whose
//! targets are labels) are left to the execution tests.

use phicc::driver::{compile_to_ir, pipeline_for, FrontendOptions};
use phicc::ir::text::parse_module;
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn corpus_assembly() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut out = Vec::new();
    let mut ir: Vec<_> = std::fs::read_dir(root.join("filetests").join("run"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    ir.sort();
    for f in ir {
        let m = parse_module(&std::fs::read_to_string(&f).unwrap()).unwrap();
        for passes in ["phi-elim", "mem2reg-pipeline"] {
            let mut m = m.clone();
            Pipeline::parse(passes).unwrap().run(&mut m, &mut |_, _| {}).unwrap();
            if !phicc::backend::has_foreign_asm(&m) {
                out.push(phicc::backend::emit_assembly(&m, Target::X86_64).unwrap());
            }
        }
    }
    let mut c: Vec<_> = std::fs::read_dir(root.join("c"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    c.sort();
    for f in c {
        let mut opts = FrontendOptions::new(Target::X86_64);
        opts.include_dirs.push(root.join("c"));
        let Ok(compiled) = compile_to_ir(&f, &opts) else {
            continue;
        };
        for mem2reg in [false, true] {
            let mut m = compiled.module.clone();
            pipeline_for(mem2reg, &[]).unwrap().run(&mut m, &mut |_, _| {}).unwrap();
            if !phicc::backend::has_foreign_asm(&m) {
                out.push(phicc::backend::emit_assembly(&m, Target::X86_64).unwrap());
            }
        }
    }
    out
}

/// The instructions objdump decodes from `obj`, without addresses or bytes.
fn disassemble(obj: &Path) -> Vec<String> {
    let out = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn", "-w"])
        .arg(obj)
        .output()
        .expect("objdump runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let (addr, insn) = l.split_once(":\t")?;
            if !addr.trim().chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            // Drop objdump's comments (`# 1b <f+0x1b>`).
            let insn = insn.split('#').next().unwrap_or("").trim();
            Some(insn.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .collect()
}

#[test]
fn encoder_agrees_with_gnu_as() {
    if Command::new("objdump").arg("--version").output().is_err() {
        panic!("objdump is required (binutils, installed with gcc)");
    }
    let mut lines = BTreeSet::new();
    for asm in corpus_assembly() {
        for l in asm.lines() {
            let t = l.trim_start();
            if !l.starts_with('\t') || t.starts_with('.') {
                continue;
            }
            let word = t.split_whitespace().next().unwrap_or("");
            // Branches, calls and symbol references need labels and relocations.
            if word.starts_with('j') || word == "call" || t.contains("(%rip)") {
                continue;
            }
            lines.insert(t.to_string());
        }
    }
    assert!(lines.len() > 300, "only {} distinct instructions", lines.len());
    let text: String = lines.iter().map(|l| format!("\t{l}\n")).collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("x86_encoding");
    std::fs::create_dir_all(&dir).unwrap();
    let s = dir.join("all.s");
    std::fs::write(&s, &text).unwrap();
    let gas_obj = dir.join("gas.o");
    let st = Command::new("as").arg(&s).arg("-o").arg(&gas_obj).status().unwrap();
    assert!(st.success(), "as rejected the corpus");
    let ours = phicc::backend::x86_64::encode::assemble(&text).unwrap();
    let our_obj = dir.join("ours.o");
    std::fs::write(&our_obj, ours).unwrap();
    let (g, o) = (disassemble(&gas_obj), disassemble(&our_obj));
    let listed: Vec<&String> = lines.iter().collect();
    for (i, (a, b)) in g.iter().zip(o.iter()).enumerate() {
        assert_eq!(
            a,
            b,
            "instruction {i} (`{}`): gas decodes as `{a}`, ours as `{b}`",
            listed.get(i).map_or("?", |s| s)
        );
    }
    assert_eq!(g.len(), o.len(), "different instruction counts");
    assert_eq!(g.len(), lines.len());
}
