//! The integrated assembler against GNU as on whole objects, so that a
//! differential finding is never blamed on mem2reg when the encoder or the
//! object writer is wrong: every C suite program (both configurations,
//! modules without inline asm) is assembled by both, and the two objects
//! must agree on
//!
//! * the code: `objdump -dr` of the executable sections, instruction by
//!   instruction, with branch targets as instruction indices (gas relaxes
//!   branches to rel8, the integrated assembler keeps rel32, so addresses
//!   differ), relocations by type, symbol and addend, and alignment padding
//!   left out (the two pick different NOP forms);
//! * every other section byte for byte, with its type, flags and
//!   relocations;
//! * the symbol table: name, type, binding, visibility, section, and value
//!   and size outside executable sections.
//!
//! `x86_encoding.rs` checks single instructions; this checks what links.

use object::read::{Object as _, ObjectSection as _, ObjectSymbol as _};
use object::{RelocationFlags, RelocationTarget, SectionKind, SymbolSection};
use phicc::driver::{compile_to_ir, pipeline_for, FrontendOptions};
use phicc::target::Target;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// The C suite's modules (name, assembly text) for `target` in both configurations.
fn suite_assembly(target: Target) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("c");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let mut opts = FrontendOptions::new(target);
        opts.include_dirs.push(root.clone());
        let compiled = compile_to_ir(&f, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for mem2reg in [false, true] {
            let mut m = compiled.module.clone();
            let mut p = pipeline_for(mem2reg, &[]).unwrap();
            p.verify_each = true;
            p.run(&mut m, &mut |_, _| {}).unwrap();
            if phicc::backend::has_foreign_asm(&m) {
                continue;
            }
            let name = format!(
                "{} ({})",
                f.file_name().unwrap().to_string_lossy(),
                if mem2reg { "mem2reg" } else { "nomem2reg" }
            );
            out.push((name, phicc::backend::emit_assembly(&m, target).unwrap()));
        }
    }
    out
}

/// Instruction positions: (section, address) -> index in the code listing.
type Positions = HashMap<(String, u64), usize>;

/// The code of `obj` as objdump decodes it, normalized as the module doc
/// says, and where each instruction is in the listing.
fn code_listing(obj: &Path) -> (Vec<String>, Positions) {
    let out = Command::new("objdump")
        .args(["-dr", "--no-show-raw-insn", "-w"])
        .arg(obj)
        .output()
        .expect("objdump runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    // (section, address, instruction, address in objdump's comment).
    let mut insns: Vec<(String, u64, String, Option<u64>)> = Vec::new();
    let mut functions: HashMap<String, (String, u64)> = HashMap::new();
    let mut section = String::new();
    for l in text.lines() {
        if let Some(name) = l.strip_prefix("Disassembly of section ") {
            section = name.trim_end_matches(':').to_string();
            continue;
        }
        if let Some(head) = l.strip_suffix(">:") {
            if let Some((addr, name)) = head.split_once(" <") {
                if let Ok(a) = u64::from_str_radix(addr, 16) {
                    functions.insert(name.to_string(), (section.clone(), a));
                    insns.push((section.clone(), a, format!("{name}:"), None));
                }
            }
            continue;
        }
        let Some((addr, rest)) = l.split_once(":\t") else {
            continue;
        };
        let Ok(a) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        // `lea -0xa63(%rip),%rax # 1b0 <f+0x20>`: the comment names the target.
        let (rest, comment) = match rest.split_once('#') {
            Some((r, c)) => (
                r,
                c.split_whitespace()
                    .next()
                    .and_then(|h| u64::from_str_radix(h, 16).ok()),
            ),
            None => (rest, None),
        };
        let insn = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        let is_padding = insn.starts_with("nop")
            || insn.starts_with("cs nop")
            || insn.starts_with("data16")
            || insn == "xchg %ax,%ax"
            // `.p2align n,0xcc` fill: its length depends on the code before,
            // and gas relaxes branches to 8 bits where we keep 32.
            || insn == "int3";
        if !is_padding {
            insns.push((section.clone(), a, insn, comment));
        }
    }
    let mut index: Positions = HashMap::new();
    for (i, (sec, a, insn, _)) in insns.iter().enumerate() {
        if !insn.ends_with(':') {
            index.entry((sec.clone(), *a)).or_insert(i);
        }
    }
    let at = |sec: &str, a: u64| {
        index
            .get(&(sec.to_string(), a))
            .map_or_else(|| format!("?{a:#x}"), |i| format!("@{i}"))
    };
    let listing = insns
        .iter()
        .map(|(sec, _, insn, comment)| {
            // `call 2f92 <f+0x92> 2f8e: R_X86_64_PLT32 g-0x4`: keep the relocation only.
            let (insn, reloc) = match insn.find(": R_X86_64_") {
                Some(i) => {
                    let before = &insn[..i];
                    let cut = before.rfind(' ').unwrap_or(0);
                    (before[..cut].to_string(), Some(insn[i + 2..].to_string()))
                }
                None => (insn.clone(), None),
            };
            let mut words = insn.splitn(2, ' ');
            let op = words.next().unwrap_or("").to_string();
            let operand = words.next().unwrap_or("");
            let is_branch = op.starts_with('j') || op == "call";
            match reloc {
                // A call or jump to a function of this object: gas resolves
                // it, the integrated assembler leaves a relocation.
                Some(r) if is_branch => {
                    let target = r.split_whitespace().nth(1).unwrap_or("");
                    match target.strip_suffix("-0x4").and_then(|f| functions.get(f)) {
                        Some((fsec, a)) => format!("{op} {}", at(fsec, *a)),
                        None => format!("{op} {r}"),
                    }
                }
                Some(r) => format!("{insn} {r}"),
                None if is_branch && !operand.starts_with('*') => {
                    // `jne 251 <f+0x91>`: the target as an instruction index.
                    let addr = operand.split_whitespace().next().unwrap_or("");
                    match u64::from_str_radix(addr, 16) {
                        Ok(a) => format!("{op} {}", at(sec, a)),
                        Err(_) => insn,
                    }
                }
                None => match (comment, insn.find("(%rip)")) {
                    // A resolved RIP-relative address inside the code.
                    (Some(a), Some(k)) => {
                        let disp_start = insn[..k].rfind([' ', ',']).map_or(0, |j| j + 1);
                        format!("{}{}{}", &insn[..disp_start], at(sec, *a), &insn[k..])
                    }
                    _ => insn,
                },
            }
        })
        .collect();
    (listing, index)
}

/// Everything but the code: sections (by name), their relocations, and
/// symbols (but `_GLOBAL_OFFSET_TABLE_`, which gas adds for GOT relocations
/// and nothing defines). A relocation into code names the instruction
/// (`code`); one from a jump table entry (`.long .LBB3-.LJT1`, a PC32
/// relocation whose addend also holds the entry's distance from the table
/// start) names it after taking that distance off, with the tables' sizes
/// (`tables`, in order) from the assembly text.
fn data_view(bytes: &[u8], code: &Positions, tables: &[usize]) -> Vec<String> {
    let file = object::File::parse(bytes).expect("a readable ELF object");
    let exec: Vec<_> = file
        .sections()
        .filter(|s| s.kind() == SectionKind::Text)
        .map(|s| s.index())
        .collect();
    // Jump table entries: (section, offset) -> distance from their table's start.
    let mut entries: Vec<(usize, u64)> = Vec::new();
    for s in file.sections().filter(|s| s.kind() != SectionKind::Text) {
        for (off, r) in s.relocations() {
            let into_code = match r.target() {
                RelocationTarget::Symbol(i) => file
                    .symbol_by_index(i)
                    .ok()
                    .and_then(|sym| sym.section_index())
                    .is_some_and(|k| exec.contains(&k)),
                _ => false,
            };
            if into_code
                && r.flags()
                    == (RelocationFlags::Elf {
                        r_type: object::elf::R_X86_64_PC32,
                    })
            {
                entries.push((s.index().0, off));
            }
        }
    }
    entries.sort();
    let mut table_offset: HashMap<(usize, u64), u64> = HashMap::new();
    if entries.len() == tables.iter().sum::<usize>() {
        let mut rest = &entries[..];
        for &n in tables {
            let (table, after) = rest.split_at(n);
            for e in table {
                table_offset.insert(*e, e.1 - table[0].1);
            }
            rest = after;
        }
    }
    let target_of = |t: RelocationTarget, addend: i64, place: (usize, u64)| match t {
        RelocationTarget::Symbol(i) => {
            let s = file.symbol_by_index(i).unwrap();
            match s.section() {
                SymbolSection::Section(k) if s.name().unwrap_or("").is_empty() => {
                    let sec = file.section_by_index(k).unwrap().name().unwrap().to_string();
                    let entry = table_offset.get(&place).copied().unwrap_or(0);
                    match code.get(&(sec.clone(), addend as u64 - entry)) {
                        Some(idx) if exec.contains(&k) => format!("code {sec} @{idx} + {entry}"),
                        _ => format!("section {sec} {addend:+}"),
                    }
                }
                _ => format!("{} {addend:+}", s.name().unwrap()),
            }
        }
        other => format!("{other:?} {addend:+}"),
    };
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for s in file.sections() {
        let name = s.name().unwrap().to_string();
        if matches!(name.as_str(), "" | ".symtab" | ".strtab" | ".shstrtab") || name.starts_with(".rela") {
            continue;
        }
        // gas always has `.text`, `.data` and `.bss`, empty or not.
        if s.size() == 0 && s.relocations().next().is_none() {
            continue;
        }
        if s.kind() == SectionKind::Text {
            continue;
        }
        let mut block = vec![
            format!(
                "section {name} {:?} {:?} align {} size {}",
                s.kind(),
                s.flags(),
                s.align(),
                s.size()
            ),
            format!("  bytes {:02x?}", s.data().unwrap()),
        ];
        let mut relocs: Vec<String> = s
            .relocations()
            .map(|(off, r)| {
                let target = target_of(r.target(), r.addend(), (s.index().0, off));
                format!("  reloc {off:#x} {:?} {target}", r.flags())
            })
            .collect();
        relocs.sort();
        block.extend(relocs);
        blocks.push(block);
    }
    blocks.sort();
    let mut out: Vec<String> = blocks.concat();
    let mut syms: Vec<String> = file
        .symbols()
        .filter(|s| s.kind() != object::SymbolKind::Section)
        .filter(|s| !matches!(s.name().unwrap_or(""), "" | "_GLOBAL_OFFSET_TABLE_"))
        .map(|s| {
            let section = match s.section() {
                SymbolSection::Section(k) => file.section_by_index(k).unwrap().name().unwrap().to_string(),
                other => format!("{other:?}"),
            };
            let in_code = s.section_index().is_some_and(|k| exec.contains(&k));
            let place = if in_code {
                String::new()
            } else {
                format!(" value {:#x} size {}", s.address(), s.size())
            };
            format!(
                "symbol {} {:?} {:?} weak {} {section}{place} {:?}",
                s.name().unwrap(),
                s.kind(),
                s.scope(),
                s.is_weak(),
                s.flags()
            )
        })
        .collect();
    syms.sort();
    out.extend(syms);
    out
}

// AArch64 (`integrated_aarch64_*`) is compared more strictly than x86-64,
// since its instructions have one size and gas relaxes nothing: every
// section, code included, must agree byte for byte, relocations by offset,
// type, symbol and addend, and symbols by value and size too. The one
// normalisation: gas's mapping symbols (`$x`, `$d`, which mark code and data
// for disassemblers) are left out, as the integrated assembler writes none.
// Same-section branches need none: gas resolves them, and so does the
// integrated assembler (a call to a global symbol stays `CALL26` in both).

/// The modules of the C files `files` compiled for `target` in each of
/// `configs` (name, assembly text), leaving out those with inline asm.
fn modules_of(
    files: &[std::path::PathBuf],
    include: &[std::path::PathBuf],
    target: Target,
    configs: &[phicc::passes::Configuration],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in files {
        let mut opts = FrontendOptions::new(target);
        opts.include_dirs.extend(include.iter().cloned());
        let compiled = compile_to_ir(f, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for &config in configs {
            let mut m = compiled.module.clone();
            let mut p = phicc::driver::pipeline_for_configuration(config, &[]).unwrap();
            p.verify_each = true;
            p.run(&mut m, &mut |_, _| {}).unwrap();
            if phicc::backend::has_foreign_asm(&m) {
                continue;
            }
            let name = format!("{} ({})", f.file_name().unwrap().to_string_lossy(), config.name());
            out.push((name, phicc::backend::emit_assembly(&m, target).unwrap()));
        }
    }
    out
}

/// Every section of an AArch64 object (code included) with its bytes and
/// relocations, then the symbols with values and sizes; gas's mapping
/// symbols (`$x`, `$d`) and `_GLOBAL_OFFSET_TABLE_` are left out.
fn exact_view(bytes: &[u8]) -> Vec<String> {
    let file = object::File::parse(bytes).expect("a readable ELF object");
    let target_name = |t: RelocationTarget| match t {
        RelocationTarget::Symbol(i) => {
            let s = file.symbol_by_index(i).unwrap();
            match s.section() {
                SymbolSection::Section(k) if s.kind() == object::SymbolKind::Section => {
                    format!("section {}", file.section_by_index(k).unwrap().name().unwrap())
                }
                _ => s.name().unwrap().to_string(),
            }
        }
        other => format!("{other:?}"),
    };
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for s in file.sections() {
        let name = s.name().unwrap().to_string();
        if matches!(name.as_str(), "" | ".symtab" | ".strtab" | ".shstrtab") || name.starts_with(".rela") {
            continue;
        }
        if s.size() == 0 && s.relocations().next().is_none() {
            continue;
        }
        let mut block = vec![format!(
            "section {name} {:?} {:?} align {} size {}",
            s.kind(),
            s.flags(),
            s.align(),
            s.size()
        )];
        if let Ok(data) = s.data() {
            // One word per line, so that a difference names its offset.
            for (k, chunk) in data.chunks(4).enumerate() {
                block.push(format!("  {name}+{:#x}: {:02x?}", 4 * k, chunk));
            }
        }
        let mut relocs: Vec<String> = s
            .relocations()
            .map(|(off, r)| {
                format!(
                    "  reloc {name}+{off:#x} {:?} {} {:+}",
                    r.flags(),
                    target_name(r.target()),
                    r.addend()
                )
            })
            .collect();
        relocs.sort();
        block.extend(relocs);
        blocks.push(block);
    }
    blocks.sort();
    let mut out: Vec<String> = blocks.concat();
    let mut syms: Vec<String> = file
        .symbols()
        .filter(|s| s.kind() != object::SymbolKind::Section)
        .filter(|s| {
            let n = s.name().unwrap_or("");
            !(n.is_empty() || n == "_GLOBAL_OFFSET_TABLE_" || n.starts_with("$x") || n.starts_with("$d"))
        })
        .map(|s| {
            let section = match s.section() {
                SymbolSection::Section(k) => file.section_by_index(k).unwrap().name().unwrap().to_string(),
                other => format!("{other:?}"),
            };
            format!(
                "symbol {} {:?} {:?} weak {} {section} value {:#x} size {} {:?}",
                s.name().unwrap(),
                s.kind(),
                s.scope(),
                s.is_weak(),
                s.address(),
                s.size(),
                s.flags()
            )
        })
        .collect();
    syms.sort();
    out.extend(syms);
    out
}

/// gas's disassembly of the instruction at `section+offset` of `obj`, for
/// failure messages.
fn gas_line(obj: &Path, section: &str, offset: u64) -> String {
    let out = Command::new("aarch64-linux-gnu-objdump")
        .args(["-d", "-w", "-j", section])
        .arg(obj)
        .output()
        .expect("aarch64-linux-gnu-objdump runs");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find(|l| {
            l.split_once(':')
                .is_some_and(|(a, _)| u64::from_str_radix(a.trim(), 16) == Ok(offset))
        })
        .unwrap_or("?")
        .trim()
        .to_string()
}

/// Csmith seeds whose programs the AArch64 comparison adds.
const CSMITH_SEEDS: u64 = 8;

#[test]
fn integrated_aarch64_objects_match_gnu_as_on_the_c_suite() {
    if Command::new("aarch64-linux-gnu-objdump")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!("aarch64-linux-gnu-objdump is required (binutils-aarch64-linux-gnu)");
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("integrated_as_aarch64");
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("c");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let all = [
        phicc::passes::Configuration::Nomem2reg,
        phicc::passes::Configuration::Mem2reg,
        phicc::passes::Configuration::Opt,
    ];
    let mut modules = modules_of(&files, &[root], Target::Aarch64, &all);
    assert!(modules.len() >= 45, "only {} modules", modules.len());
    // Csmith programs, when csmith is installed: other shapes of code.
    if Command::new("csmith").arg("--version").output().is_ok() && Path::new("/usr/include/csmith/csmith.h").exists() {
        let mut programs = Vec::new();
        for seed in 1..=CSMITH_SEEDS {
            let gen = Command::new("csmith")
                .args(["--seed", &seed.to_string()])
                .output()
                .unwrap();
            let c = dir.join(format!("csmith{seed}.c"));
            std::fs::write(&c, &gen.stdout).unwrap();
            programs.push(c);
        }
        modules.extend(modules_of(
            &programs,
            &[std::path::PathBuf::from("/usr/include/csmith")],
            Target::Aarch64,
            &all,
        ));
    } else {
        eprintln!("integrated_as: csmith missing, AArch64 checked on the C suite only");
    }
    let mut failures = Vec::new();
    for (k, (name, asm)) in modules.iter().enumerate() {
        let s = dir.join(format!("{k}.s"));
        std::fs::write(&s, asm).unwrap();
        let ours = match phicc::backend::aarch64::encode::assemble(asm) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!(
                    "{name} ({}): the integrated assembler failed: {e}",
                    s.display()
                ));
                continue;
            }
        };
        let gas_obj = dir.join(format!("{k}-gas.o"));
        phicc::driver::toolchain::assemble(Target::Aarch64, &s, &gas_obj).unwrap();
        std::fs::write(dir.join(format!("{k}-ours.o")), &ours).unwrap();
        let gas = std::fs::read(&gas_obj).unwrap();
        let (a, b) = (exact_view(&ours), exact_view(&gas));
        if let Some(d) = first_difference(&a, &b) {
            // Name gas's instruction at a differing code word.
            let at = a
                .iter()
                .zip(&b)
                .find(|(x, y)| x != y)
                .and_then(|(_, y)| y.trim().split_once(": ").map(|(p, _)| p.to_string()))
                .and_then(|p| {
                    p.rsplit_once("+0x")
                        .map(|(sec, off)| (sec.to_string(), off.to_string()))
                })
                .and_then(|(sec, off)| u64::from_str_radix(&off, 16).ok().map(|o| gas_line(&gas_obj, &sec, o)))
                .unwrap_or_default();
            failures.push(format!("{name} ({}): {d}\n  gas: {at}", s.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} modules differ:\n{}",
        failures.len(),
        modules.len(),
        failures.join("\n")
    );
}

/// A loop whose body is over a megabyte of code (more than `b.cond`
/// reaches), as IR text: the AArch64 backend then takes its far branch
/// form, whose branches must still come out as gas assembles them.
fn huge_loop(n: u32) -> String {
    use std::fmt::Write as _;
    let mut s = String::from(
        "define @main() -> i32 {\nbb0:\n  %0 = alloca i64, size 8, align 8\n  store i64 0i64, %0\n  br bb1\nbb1:\n  %1 = load i64 %0\n  %2 = cmp slt i64 %1, 3i64\n  condbr %2, bb2, bb3\nbb2:\n  %3 = add i64 %1, 1i64\n",
    );
    for k in 4..n + 4 {
        let c = if k % 2 == 0 { 100_000 } else { -100_000 };
        let _ = writeln!(s, "  %{k} = add i64 %{}, {c}i64", k - 1);
    }
    let last = n + 3;
    let _ = write!(
        s,
        "  store i64 %{last}, %0\n  br bb1\nbb3:\n  %{} = cast i64 -> i32 %1\n  ret %{}\n}}\n",
        n + 4,
        n + 4
    );
    s
}

#[test]
fn integrated_aarch64_far_branches_match_gnu_as() {
    let mut m = phicc::ir::text::parse_module(&huge_loop(100_000)).unwrap();
    let p = phicc::passes::Pipeline::parse("phi-elim").unwrap();
    p.run(&mut m, &mut |_, _| {}).unwrap();
    let asm = phicc::backend::emit_assembly(&m, Target::Aarch64).unwrap();
    let ours = phicc::backend::aarch64::encode::assemble(&asm).unwrap();
    let file = object::File::parse(&*ours).unwrap();
    let size = file.section_by_name(".text").unwrap().size();
    assert!(size > 1 << 20, "the function is under a megabyte ({size} bytes)");
    let dir = tempfile::tempdir().unwrap();
    let (s, gas_obj) = (dir.path().join("far.s"), dir.path().join("far.o"));
    std::fs::write(&s, &asm).unwrap();
    phicc::driver::toolchain::assemble(Target::Aarch64, &s, &gas_obj).unwrap();
    let gas = std::fs::read(&gas_obj).unwrap();
    if let Some(d) = first_difference(&exact_view(&ours), &exact_view(&gas)) {
        panic!("{d}");
    }
}

/// The sizes of the jump tables in `asm`, in order: runs of `.long X-Y`
/// with `X` and `Y` in different sections (so the assembler leaves a
/// relocation) and one `Y` per run.
fn jump_tables(asm: &str) -> Vec<usize> {
    let mut section_of: HashMap<&str, &str> = HashMap::new();
    let mut section = ".text";
    for l in asm.lines() {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix(".section") {
            section = rest.trim().split(',').next().unwrap_or("");
        } else if matches!(t, ".text" | ".data" | ".bss") {
            section = t;
        } else if let Some(label) = l.strip_suffix(':') {
            section_of.insert(label, section);
        }
    }
    let mut tables: Vec<(String, usize)> = Vec::new();
    for l in asm.lines() {
        let Some(expr) = l.trim().strip_prefix(".long") else {
            continue;
        };
        let Some((x, y)) = expr.trim().split_once('-') else {
            continue;
        };
        let (x, y) = (x.trim(), y.trim());
        if !section_of.contains_key(x) || section_of.get(x) == section_of.get(y) {
            continue;
        }
        match tables.last_mut() {
            Some((table, n)) if table == y => *n += 1,
            _ => tables.push((y.to_string(), 1)),
        }
    }
    tables.into_iter().map(|(_, n)| n).collect()
}

fn first_difference(a: &[String], b: &[String]) -> Option<String> {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            let from = i.saturating_sub(3);
            return Some(format!(
                "line {i}: integrated `{x}`, gas `{y}`\n  context (integrated): {:?}",
                &a[from..(i + 2).min(a.len())]
            ));
        }
    }
    (a.len() != b.len()).then(|| format!("lengths differ: integrated {}, gas {}", a.len(), b.len()))
}

#[test]
fn integrated_objects_match_gnu_as_on_the_c_suite() {
    if Command::new("objdump").arg("--version").output().is_err() {
        panic!("objdump is required (binutils, installed with gcc)");
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("integrated_as");
    std::fs::create_dir_all(&dir).unwrap();
    let modules = suite_assembly(Target::X86_64);
    assert!(modules.len() >= 30, "only {} modules", modules.len());
    let mut failures = Vec::new();
    for (k, (name, asm)) in modules.iter().enumerate() {
        let ours = phicc::backend::x86_64::encode::assemble(asm)
            .unwrap_or_else(|e| panic!("{name}: the integrated assembler failed: {e}"));
        let our_obj = dir.join(format!("{k}-ours.o"));
        std::fs::write(&our_obj, &ours).unwrap();
        let s = dir.join(format!("{k}.s"));
        std::fs::write(&s, asm).unwrap();
        let gas_obj = dir.join(format!("{k}-gas.o"));
        phicc::driver::toolchain::assemble(Target::X86_64, &s, &gas_obj).unwrap();
        let gas = std::fs::read(&gas_obj).unwrap();
        let (our_code, our_positions) = code_listing(&our_obj);
        let (gas_code, gas_positions) = code_listing(&gas_obj);
        if let Some(d) = first_difference(&our_code, &gas_code) {
            failures.push(format!("{name} ({}): code: {d}", s.display()));
        }
        let tables = jump_tables(asm);
        let (our_data, gas_data) = (
            data_view(&ours, &our_positions, &tables),
            data_view(&gas, &gas_positions, &tables),
        );
        if let Some(d) = first_difference(&our_data, &gas_data) {
            failures.push(format!("{name} ({}): data or symbols: {d}", s.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
