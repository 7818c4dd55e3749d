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
//!
//! RISC-V 64 (`riscv64-linux-gnu-as -march=rv64gc -mabi=lp64d -mno-relax`,
//! through the cross gcc with `-Wa,-mno-relax`: the integrated assembler
//! writes objects that are not relaxable) is compared the same way, but
//! stricter on the code, because its layout is gas's (same RVC
//! compression, same branch relaxation): every instruction with its raw
//! bytes, and the section's bytes as far as ours go. What is normalized,
//! and why:
//!
//! * gas keeps `R_RISCV_BRANCH`/`R_RISCV_JAL`/`R_RISCV_RVC_BRANCH`/
//!   `R_RISCV_RVC_JUMP` for branches to labels of the same section (with
//!   the displacement also in the bytes); the integrated assembler
//!   resolves them, so those relocations are dropped;
//! * gas names `.L` labels (and its `.L0 ` `%pcrel_lo` anchors) in
//!   relocations and keeps them in the symbol table, where the integrated
//!   assembler uses the section symbol plus the offset for `.L` labels: a
//!   relocation against any local defined symbol is compared as its section
//!   and offset (the instruction index in code), and `.L` symbols are left
//!   out of the symbol table comparison (the anchors are checked through
//!   the `R_RISCV_PCREL_LO12_I` relocations, which must name the `auipc`);
//! * gas writes `R_RISCV_ADD32`/`R_RISCV_SUB32` even for a difference of
//!   two labels of one section (computed-goto offset tables), which the
//!   integrated assembler resolves: such a pair is compared as its value;
//! * the integrated assembler makes a `call` of a `static` function of the
//!   same section one `jal ra` (gas `-mno-relax` keeps `auipc`+`jalr`), so
//!   gas is given such calls written as `jal ra, f` ([`with_short_calls`]);
//! * gas pads the end of a code section to the section's alignment with
//!   `nop`s, and adds `.riscv.attributes` and a `$x` mapping symbol: the
//!   trailing `nop`s, that section and that symbol are left out.

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
    if file.architecture() == object::Architecture::Riscv64 {
        return riscv_data_view(&file, code);
    }
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
        if !compared_section(&s, &name) {
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
// type, symbol and addend, and symbols by value and size too, the mapping
// symbols of code sections (`$x`, `$d`) included. The one normalisation:
// gas also puts a `$d` in some data sections, which the integrated assembler
// does not (nothing reads them), so mapping symbols outside code are left
// out. Same-section branches need none: gas resolves them, and so does the
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
/// relocations, then the symbols with values and sizes; mapping symbols
/// (`$x`, `$d`) outside code sections and `_GLOBAL_OFFSET_TABLE_` are left out.
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
        if !compared_section(&s, &name) {
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
            let in_code = s.section_index().is_some_and(|k| {
                file.section_by_index(k)
                    .is_ok_and(|sec| sec.kind() == SectionKind::Text)
            });
            let mapping = n.starts_with("$x") || n.starts_with("$d");
            !(n.is_empty() || n == "_GLOBAL_OFFSET_TABLE_" || (mapping && !in_code))
        })
        .map(|s| describe_symbol(&file, &s))
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

/// A relocation's target: a local defined symbol (a section symbol, a
/// `.L` label, gas's `.L0 ` anchors, a static) as its section and offset,
/// the instruction index when that is an instruction; others by name.
fn riscv_reloc_target(file: &object::File, target: RelocationTarget, addend: i64, code: &Positions) -> String {
    let RelocationTarget::Symbol(i) = target else {
        return format!("{target:?} {addend:+}");
    };
    let s = file.symbol_by_index(i).unwrap();
    match s.section_index() {
        Some(k) if s.is_local() => {
            let sec = file.section_by_index(k).unwrap().name().unwrap().to_string();
            let at = s.address() as i64 + addend;
            match code.get(&(sec.clone(), at as u64)) {
                Some(idx) => format!("{sec} @{idx}"),
                None => format!("{sec}+{at:#x}"),
            }
        }
        _ => format!("{} {addend:+}", s.name().unwrap()),
    }
}

/// The code of a RISC-V object: `objdump -d` with raw bytes, branch
/// targets as instruction indices, the relocations (from the object, as
/// the module doc normalizes them) after their instruction, the trailing
/// `nop`s of each section left out.
fn riscv_code_listing(obj: &Path) -> (Vec<String>, Positions) {
    let out = Command::new("riscv64-linux-gnu-objdump")
        .args(["-d", "-w"])
        .arg(obj)
        .output()
        .expect("riscv64-linux-gnu-objdump runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    // (section, address, raw bytes, mnemonic, operands)
    let mut insns: Vec<(String, u64, String, String, String)> = Vec::new();
    let mut section = String::new();
    for l in text.lines() {
        if let Some(name) = l.strip_prefix("Disassembly of section ") {
            section = name.trim_end_matches(':').to_string();
            continue;
        }
        if let Some(head) = l.strip_suffix(">:") {
            if let Some((addr, name)) = head.split_once(" <") {
                if u64::from_str_radix(addr, 16).is_ok() && !name.starts_with(".L") {
                    insns.push((
                        section.clone(),
                        u64::MAX,
                        String::new(),
                        format!("{name}:"),
                        String::new(),
                    ));
                }
            }
            continue;
        }
        let mut parts = l.split('\t');
        let (Some(addr), Some(raw), Some(mnemonic)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Ok(a) = u64::from_str_radix(addr.trim().trim_end_matches(':'), 16) else {
            continue;
        };
        let operands = parts.next().unwrap_or("");
        // `ld a0,0(a0) # 20 <.Lgot1>`: the comment names labels differently.
        let operands = operands.split(" # ").next().unwrap_or("").trim().to_string();
        insns.push((
            section.clone(),
            a,
            raw.trim().to_string(),
            mnemonic.trim().to_string(),
            operands,
        ));
    }
    // Trailing padding of each section: its `nop`s after the last other instruction.
    let mut keep = vec![true; insns.len()];
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for i in (0..insns.len()).rev() {
        if !seen.contains(&insns[i].0) {
            if insns[i].3 == "nop" {
                keep[i] = false;
            } else {
                seen.insert(insns[i].0.clone());
            }
        }
    }
    let insns: Vec<_> = insns
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(x, _)| x)
        .collect();
    let mut index: Positions = HashMap::new();
    for (i, (sec, a, ..)) in insns.iter().enumerate() {
        if *a != u64::MAX {
            index.entry((sec.clone(), *a)).or_insert(i);
        }
    }
    let bytes = std::fs::read(obj).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let mut relocs: HashMap<(String, u64), Vec<String>> = HashMap::new();
    for s in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let sec = s.name().unwrap().to_string();
        for (off, r) in s.relocations() {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                continue;
            };
            let same_section_label = match r.target() {
                RelocationTarget::Symbol(i) => {
                    let sym = file.symbol_by_index(i).unwrap();
                    sym.is_local() && sym.section_index() == Some(s.index())
                }
                _ => false,
            };
            use object::elf::{R_RISCV_BRANCH, R_RISCV_JAL, R_RISCV_RVC_BRANCH, R_RISCV_RVC_JUMP};
            if same_section_label
                && matches!(
                    r_type,
                    R_RISCV_BRANCH | R_RISCV_JAL | R_RISCV_RVC_BRANCH | R_RISCV_RVC_JUMP
                )
            {
                continue;
            }
            let target = riscv_reloc_target(&file, r.target(), r.addend(), &index);
            relocs
                .entry((sec.clone(), off))
                .or_default()
                .push(format!("R{r_type} {target}"));
        }
    }
    let listing = insns
        .iter()
        .map(|(sec, a, raw, mnemonic, operands)| {
            if *a == u64::MAX {
                return mnemonic.clone();
            }
            // `beq s2,s1,62 <.LBB2>`: the target as an instruction index.
            let mut ops = operands.clone();
            if let Some((before, target)) = operands.rsplit_once(',').map_or(Some(("", operands.as_str())), Some) {
                if let Some((addr, _)) = target.split_once(" <") {
                    if let Ok(t) = u64::from_str_radix(addr, 16) {
                        let at = index
                            .get(&(sec.clone(), t))
                            .map_or_else(|| format!("?{t:#x}"), |i| format!("@{i}"));
                        ops = if before.is_empty() {
                            at
                        } else {
                            format!("{before},{at}")
                        };
                    }
                }
            }
            let mut line = format!("{raw} {mnemonic} {ops}");
            if let Some(rs) = relocs.get(&(sec.clone(), *a)) {
                let mut rs = rs.clone();
                rs.sort();
                line = format!("{line} {}", rs.join(" "));
            }
            line
        })
        .collect();
    (listing, index)
}

/// [`data_view`] for RISC-V, normalized as the module doc says.
fn riscv_data_view(file: &object::File, code: &Positions) -> Vec<String> {
    use object::elf::{R_RISCV_ADD32, R_RISCV_SUB32};
    let mut out = Vec::new();
    if let object::FileFlags::Elf { e_flags, .. } = file.flags() {
        out.push(format!("e_flags {e_flags:#x}"));
    }
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for s in file.sections() {
        let name = s.name().unwrap().to_string();
        if !compared_section(&s, &name) || name == ".riscv.attributes" || s.kind() == SectionKind::Text {
            continue;
        }
        let mut data = s.data().unwrap().to_vec();
        let place = |t: RelocationTarget, addend: i64| -> Option<(usize, i64)> {
            let RelocationTarget::Symbol(i) = t else { return None };
            let sym = file.symbol_by_index(i).ok()?;
            (sym.is_local()).then_some(())?;
            Some((sym.section_index()?.0, sym.address() as i64 + addend))
        };
        let all: Vec<(u64, object::Relocation)> = s.relocations().collect();
        let mut relocs = Vec::new();
        for (off, r) in &all {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                continue;
            };
            // An ADD32/SUB32 pair of one section's labels: its value.
            if r_type == R_RISCV_ADD32 || r_type == R_RISCV_SUB32 {
                let other = all.iter().find(|(o, q)| {
                    o == off
                        && q.flags()
                            == RelocationFlags::Elf {
                                r_type: if r_type == R_RISCV_ADD32 {
                                    R_RISCV_SUB32
                                } else {
                                    R_RISCV_ADD32
                                },
                            }
                });
                if let Some((_, q)) = other {
                    if let (Some((ka, va)), Some((kb, vb))) =
                        (place(r.target(), r.addend()), place(q.target(), q.addend()))
                    {
                        if ka == kb {
                            if r_type == R_RISCV_ADD32 {
                                let v = (va - vb) as i32;
                                data[*off as usize..*off as usize + 4].copy_from_slice(&v.to_le_bytes());
                            }
                            continue;
                        }
                    }
                }
            }
            let target = riscv_reloc_target(file, r.target(), r.addend(), code);
            relocs.push(format!("  reloc {off:#x} R{r_type} {target}"));
        }
        relocs.sort();
        let mut block = vec![
            format!(
                "section {name} {:?} {:?} align {} size {}",
                s.kind(),
                s.flags(),
                s.align(),
                s.size()
            ),
            format!("  bytes {data:02x?}"),
        ];
        block.extend(relocs);
        blocks.push(block);
    }
    blocks.sort();
    out.extend(blocks.concat());
    let mut syms: Vec<String> = file
        .symbols()
        .filter(|s| s.kind() != object::SymbolKind::Section)
        .filter(|s| {
            let n = s.name().unwrap_or("");
            !(n.is_empty() || n.starts_with(".L") || n.starts_with("$x"))
        })
        .map(|s| describe_symbol(file, &s))
        .collect();
    syms.sort();
    out.extend(syms);
    out
}

/// The RISC-V 64 integrated assembler against `gas -mno-relax` on the C
/// suite (see the module doc). A module it cannot assemble is a failure:
/// the driver would silently fall back to gas for it.
#[test]
fn integrated_objects_match_gnu_as_on_the_c_suite_riscv64() {
    let modules = suite_assembly(Target::Riscv64);
    assert!(modules.len() >= 30, "only {} modules", modules.len());
    compare_riscv64(&modules, "integrated_as_riscv64");
}

/// The same on Csmith programs (seeds 1..=11, both configurations), whose
/// large functions put branches near the reach of their forms, where the
/// result depends on following gas's relaxation pass by pass.
#[test]
fn integrated_objects_match_gnu_as_on_csmith_riscv64() {
    if Command::new("csmith").arg("--version").output().is_err() || !Path::new("/usr/include/csmith/csmith.h").exists()
    {
        panic!("csmith is required (scripts/setup.sh --campaign installs it)");
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("integrated_as_csmith");
    std::fs::create_dir_all(&dir).unwrap();
    let mut modules = Vec::new();
    for seed in 1..=11 {
        let c = dir.join(format!("s{seed}.c"));
        let gen = Command::new("csmith")
            .args(["--seed", &seed.to_string()])
            .output()
            .unwrap();
        std::fs::write(&c, &gen.stdout).unwrap();
        let mut opts = FrontendOptions::new(Target::Riscv64);
        opts.include_dirs.push("/usr/include/csmith".into());
        let compiled = compile_to_ir(&c, &opts).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for mem2reg in [false, true] {
            let mut m = compiled.module.clone();
            pipeline_for(mem2reg, &[]).unwrap().run(&mut m, &mut |_, _| {}).unwrap();
            let asm = phicc::backend::emit_assembly(&m, Target::Riscv64).unwrap();
            modules.push((format!("csmith seed {seed} (mem2reg {mem2reg})"), asm));
        }
    }
    compare_riscv64(&modules, "integrated_as_csmith");
}

/// `asm` with every `call` that the integrated assembler makes a single
/// `jal ra` written as one, for gas `-mno-relax` (which keeps `call` as
/// `auipc`+`jalr` with `R_RISCV_CALL_PLT`): a call without `@plt` of a
/// symbol that is neither `.globl` nor `.weak` and is defined in the
/// call's own section. (The integrated assembler also checks that `jal`
/// reaches across the section; these modules are far below 1 MiB.)
fn with_short_calls(asm: &str) -> String {
    let section_of = |line: &str, current: &str| -> Option<String> {
        let l = line.trim_start();
        let (word, args) = l.split_once(['\t', ' ']).unwrap_or((l, ""));
        match word {
            ".text" | ".data" | ".bss" => Some(word.to_string()),
            ".section" => Some(
                args.split(',')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches('"')
                    .to_string(),
            ),
            _ => (!line.starts_with(['\t', ' ']) && line.ends_with(':')).then(|| current.to_string()),
        }
    };
    let mut exported = std::collections::HashSet::new();
    let mut defined = HashMap::new();
    let mut current = ".text".to_string();
    for line in asm.lines() {
        let l = line.trim_start();
        if let Some(names) = l.strip_prefix(".globl\t").or(l.strip_prefix(".weak\t")) {
            exported.extend(names.split(',').map(|n| n.trim().to_string()));
        }
        if let Some(sec) = section_of(line, &current) {
            if let Some(label) = line.strip_suffix(':').filter(|_| !line.starts_with(['\t', ' '])) {
                defined.insert(label.to_string(), sec.clone());
            }
            current = sec;
        }
    }
    assert!(asm.len() < 1 << 20, "a module too large for the `jal` rule above");
    let mut out = String::new();
    let mut current = ".text".to_string();
    for line in asm.lines() {
        if let Some(sec) = section_of(line, &current) {
            current = sec;
        }
        match line.strip_prefix("\tcall\t") {
            Some(callee) if !exported.contains(callee) && defined.get(callee) == Some(&current) => {
                out.push_str(&format!("\tjal\tra, {callee}\n"));
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

fn compare_riscv64(modules: &[(String, String)], dir: &str) {
    let target = Target::Riscv64;
    if Command::new(target.gcc()).arg("--version").output().is_err() {
        panic!(
            "{} is required (scripts/setup.sh installs the cross toolchain)",
            target.gcc()
        );
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for (k, (name, asm)) in modules.iter().enumerate() {
        let ours = phicc::backend::riscv64::encode::assemble(asm)
            .unwrap_or_else(|e| panic!("{name}: the integrated assembler failed: {e}"));
        let our_obj = dir.join(format!("{k}-ours.o"));
        std::fs::write(&our_obj, &ours).unwrap();
        let s = dir.join(format!("{k}.s"));
        std::fs::write(&s, with_short_calls(asm)).unwrap();
        let gas_obj = dir.join(format!("{k}-gas.o"));
        let out = Command::new(target.gcc())
            .args(["-c", "-Wa,-mno-relax", "-o"])
            .arg(&gas_obj)
            .arg(&s)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let gas = std::fs::read(&gas_obj).unwrap();
        let (our_code, our_positions) = riscv_code_listing(&our_obj);
        let (gas_code, gas_positions) = riscv_code_listing(&gas_obj);
        // Kept next to the objects for a look when they differ.
        std::fs::write(dir.join(format!("{k}-ours.lst")), our_code.join("\n")).unwrap();
        std::fs::write(dir.join(format!("{k}-gas.lst")), gas_code.join("\n")).unwrap();
        if let Some(d) = first_difference(&our_code, &gas_code) {
            failures.push(format!("{name} ({}): code: {d}", s.display()));
        }
        // Byte for byte, as far as ours go (gas pads the end).
        let (a, b) = (
            object::File::parse(&*ours).unwrap(),
            object::File::parse(&*gas).unwrap(),
        );
        for sec in a.sections().filter(|s| s.kind() == SectionKind::Text) {
            let name_ = sec.name().unwrap();
            let mine = sec.data().unwrap();
            let theirs = b
                .section_by_name(name_)
                .map(|s| s.data().unwrap().to_vec())
                .unwrap_or_default();
            if theirs.len() < mine.len() || theirs[..mine.len()] != *mine {
                failures.push(format!("{name} ({}): bytes of {name_} differ", s.display()));
            }
        }
        let (our_data, gas_data) = (
            data_view(&ours, &our_positions, &[]),
            data_view(&gas, &gas_positions, &[]),
        );
        if let Some(d) = first_difference(&our_data, &gas_data) {
            failures.push(format!("{name} ({}): data or symbols: {d}", s.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One symbol-table entry in full (name, kind, scope, weakness, section,
/// value, size, flags), for comparing two objects' tables.
fn describe_symbol(file: &object::File<'_>, s: &object::Symbol<'_, '_>) -> String {
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
}

/// Whether section `s` (named `name`) is compared at all: not the null
/// section, the symbol and string tables or a relocation section (their
/// contents are compared through symbols and relocations), and not empty
/// (gas always has `.text`, `.data` and `.bss`, empty or not).
fn compared_section(s: &object::Section<'_, '_>, name: &str) -> bool {
    !(matches!(name, "" | ".symtab" | ".strtab" | ".shstrtab")
        || name.starts_with(".rela")
        || (s.size() == 0 && s.relocations().next().is_none()))
}
