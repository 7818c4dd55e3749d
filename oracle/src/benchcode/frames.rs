//! Stack frame sizes of the functions of a binary, for the code benchmark
//! (issue 14: phicc's frames are many times gcc's).
//!
//! Two sources:
//! - gcc's `-fstack-usage` files (`*.su`, one line per function:
//!   `file:line:col:name<TAB>bytes<TAB>qualifier`), read by [`read_su_dir`];
//! - the machine code of any binary, read by [`from_disassembly`]: the
//!   target's `objdump -d` output is walked function by function, and the
//!   prologue (the instructions before the first control transfer, at most
//!   [`PROLOGUE_LIMIT`]) is simulated on the stack pointer alone. The frame
//!   is the lowest point the stack pointer reaches, counting `push`,
//!   `sub $N, %rsp`, `sub sp, sp, #N[, lsl #12]`, pre-indexed stores
//!   (`stp x29, x30, [sp, #-N]!`), `addi sp, sp, -N`, and a register
//!   subtracted from (or added to) the stack pointer whose value the
//!   prologue built with `mov`/`movk`/`movabs` (x86-64, AArch64) or
//!   `li`/`lui`/`addi[w]` (RISC-V), the forms phicc emits for frames
//!   beyond an immediate. On x86-64 the return address `call` pushed is
//!   counted, as `-fstack-usage` counts it. Frames that a function changes
//!   later (VLAs, `alloca`) are not part of either number, as with gcc's
//!   `static` qualifier.

use crate::target::Target;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Instructions of a prologue looked at, at most.
pub const PROLOGUE_LIMIT: usize = 64;

/// Frame size in bytes of every function, by name (the largest when a
/// name occurs more than once, e.g. `static` functions of several files).
pub type Frames = BTreeMap<String, u64>;

fn record(frames: &mut Frames, name: &str, bytes: u64) {
    let e = frames.entry(name.to_string()).or_insert(0);
    *e = (*e).max(bytes);
}

/// Parse the text of one `.su` file into `frames`.
pub fn parse_su(text: &str, frames: &mut Frames) {
    for line in text.lines() {
        let mut cols = line.split('\t');
        let (Some(loc), Some(bytes)) = (cols.next(), cols.next()) else {
            continue;
        };
        // `file:line:col:name`; the file may itself hold colons, the name does not.
        let name = loc.rsplit(':').next().unwrap_or(loc);
        if let Ok(n) = bytes.trim().parse::<u64>() {
            record(frames, name, n);
        }
    }
}

/// Every `*.su` file under `dir` (recursively), merged.
pub fn read_su_dir(dir: &Path) -> std::io::Result<Frames> {
    let mut frames = Frames::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "su") {
                parse_su(&std::fs::read_to_string(&path)?, &mut frames);
            }
        }
    }
    Ok(frames)
}

/// The target's `objdump`.
pub fn objdump(target: Target) -> String {
    if target.is_host() {
        "objdump".to_string()
    } else {
        format!("{}-objdump", target.triple())
    }
}

/// Disassemble `binary` (built for `target`) and measure every function's frame.
pub fn read_binary(target: Target, binary: &Path) -> anyhow::Result<Frames> {
    let out = std::process::Command::new(objdump(target))
        .args(["-d", "--no-show-raw-insn"])
        .arg(binary)
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run {}: {e}", objdump(target)))?;
    anyhow::ensure!(
        out.status.success(),
        "{} -d {} failed: {}",
        objdump(target),
        binary.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(from_disassembly(target, &String::from_utf8_lossy(&out.stdout)))
}

/// Frames of the functions of `objdump -d --no-show-raw-insn` output.
pub fn from_disassembly(target: Target, text: &str) -> Frames {
    let mut frames = Frames::new();
    let mut current: Option<(String, Prologue)> = None;
    for line in text.lines() {
        if let Some(name) = function_header(line) {
            if let Some((n, p)) = current.take() {
                record(&mut frames, &n, p.frame(target));
            }
            current = Some((name.to_string(), Prologue::default()));
            continue;
        }
        let Some((_, p)) = current.as_mut() else {
            continue;
        };
        if p.done {
            continue;
        }
        if let Some((mnemonic, operands)) = instruction(target, line) {
            p.step(target, mnemonic, operands);
        }
    }
    if let Some((n, p)) = current {
        record(&mut frames, &n, p.frame(target));
    }
    frames
}

/// `0000000000401126 <main>:` -> `main`.
fn function_header(line: &str) -> Option<&str> {
    let (addr, rest) = line.split_once(' ')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    rest.strip_prefix('<')?.strip_suffix(">:")
}

/// `  401126:\tsub    $0x10,%rsp  # comment` -> (`sub`, `$0x10,%rsp`). Comments
/// are `# ...` on x86-64 and RISC-V and `// ...` on AArch64 (where `#`
/// starts an immediate); symbol annotations `<name>` are dropped.
fn instruction(target: Target, line: &str) -> Option<(&str, &str)> {
    let (addr, rest) = line.split_once(':')?;
    let addr = addr.trim();
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let comment = if target == Target::Aarch64 { "//" } else { "#" };
    let text = rest.split(comment).next().unwrap_or("");
    let text = text.split('<').next().unwrap_or("").trim();
    let (m, ops) = match text.split_once(char::is_whitespace) {
        Some((m, ops)) => (m, ops.trim()),
        None => (text, ""),
    };
    if m.is_empty() {
        return None;
    }
    Some((m, ops))
}

/// The stack pointer walk of one prologue.
#[derive(Default)]
struct Prologue {
    /// Bytes below the entry stack pointer, now and at most.
    depth: i64,
    deepest: i64,
    /// Constants the prologue has put in registers.
    regs: HashMap<String, i64>,
    seen: usize,
    done: bool,
}

/// `0x1f`, `-0x10`, `42`, `#0x10`, `$0x10` -> the number.
fn number(s: &str) -> Option<i64> {
    let s = s.trim().trim_start_matches(['#', '$']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()? as i64
    } else {
        s.parse::<i64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

fn is_sp(target: Target, r: &str) -> bool {
    match target {
        Target::X86_64 => r == "%rsp",
        _ => r == "sp",
    }
}

impl Prologue {
    fn frame(&self, target: Target) -> u64 {
        let ret = if target == Target::X86_64 { 8 } else { 0 };
        self.deepest.max(0) as u64 + ret
    }

    fn sp_moved(&mut self, delta_down: i64) {
        self.depth += delta_down;
        self.deepest = self.deepest.max(self.depth);
    }

    fn step(&mut self, target: Target, m: &str, ops: &str) {
        self.seen += 1;
        if self.seen > PROLOGUE_LIMIT || ends_prologue(target, m) {
            self.done = true;
            return;
        }
        let ops: Vec<&str> = split_operands(ops);
        match target {
            Target::X86_64 => self.step_x86(m, &ops),
            Target::Aarch64 => self.step_aarch64(m, &ops),
            Target::Riscv64 => self.step_riscv(m, &ops),
        }
    }

    fn step_x86(&mut self, m: &str, ops: &[&str]) {
        match (m, ops) {
            ("push" | "pushq", [_]) => self.sp_moved(8),
            ("pop" | "popq", [_]) => self.sp_moved(-8),
            ("mov" | "movq" | "movabs" | "movl", [src, dst]) => match number(src) {
                Some(v) if src.starts_with('$') => {
                    self.regs.insert(dst.to_string(), v);
                }
                _ => {
                    self.regs.remove(*dst);
                }
            },
            ("sub" | "subq", [src, "%rsp"]) => {
                if let Some(v) = self.value_x86(src) {
                    self.sp_moved(v);
                }
            }
            ("add" | "addq", [src, "%rsp"]) => {
                if let Some(v) = self.value_x86(src) {
                    self.sp_moved(-v);
                }
            }
            ("lea" | "leaq", [addr, "%rsp"]) => {
                if let Some(d) = addr.strip_suffix("(%rsp)") {
                    if let Some(v) = number(d) {
                        self.sp_moved(-v);
                    }
                }
            }
            _ => {}
        }
    }

    fn value_x86(&self, src: &str) -> Option<i64> {
        if src.starts_with('$') {
            number(src)
        } else {
            self.regs.get(src).copied()
        }
    }

    fn step_aarch64(&mut self, m: &str, ops: &[&str]) {
        match (m, ops) {
            ("mov" | "movz", [dst, src, rest @ ..]) if src.starts_with('#') => {
                let shift = rest
                    .first()
                    .and_then(|s| s.strip_prefix("lsl #"))
                    .and_then(|s| s.parse().ok());
                if let Some(v) = number(src) {
                    self.regs.insert(dst.to_string(), v << shift.unwrap_or(0));
                }
            }
            ("movn", [dst, src, rest @ ..]) => {
                let shift = rest
                    .first()
                    .and_then(|s| s.strip_prefix("lsl #"))
                    .and_then(|s| s.parse().ok());
                if let Some(v) = number(src) {
                    self.regs.insert(dst.to_string(), !(v << shift.unwrap_or(0)));
                }
            }
            ("movk", [dst, src, rest @ ..]) => {
                let shift: u32 = rest
                    .first()
                    .and_then(|s| s.strip_prefix("lsl #"))
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                if let (Some(old), Some(v)) = (self.regs.get(*dst).copied(), number(src)) {
                    let mask = 0xffffi64 << shift;
                    self.regs.insert(dst.to_string(), (old & !mask) | ((v << shift) & mask));
                }
            }
            ("sub" | "add", [dst, src, amount, rest @ ..])
                if is_sp(Target::Aarch64, dst) && is_sp(Target::Aarch64, src) =>
            {
                let v = if amount.starts_with('#') {
                    let shift = rest
                        .first()
                        .and_then(|s| s.strip_prefix("lsl #"))
                        .and_then(|s| s.parse().ok());
                    number(amount).map(|v| v << shift.unwrap_or(0))
                } else {
                    self.regs.get(*amount).copied()
                };
                if let Some(v) = v {
                    self.sp_moved(if m == "sub" { v } else { -v });
                }
            }
            ("stp" | "str" | "stur", [.., addr]) if addr.starts_with("[sp, #") && addr.ends_with("]!") => {
                let imm = &addr["[sp, ".len()..addr.len() - 2];
                if let Some(v) = number(imm) {
                    self.sp_moved(-v);
                }
            }
            (_, [dst, ..]) if self.regs.contains_key(*dst) => {
                self.regs.remove(*dst);
            }
            _ => {}
        }
    }

    fn step_riscv(&mut self, m: &str, ops: &[&str]) {
        match (m, ops) {
            ("li", [dst, src]) => {
                if let Some(v) = number(src) {
                    self.regs.insert(dst.to_string(), v);
                }
            }
            ("lui", [dst, src]) => {
                if let Some(v) = number(src) {
                    // The 20-bit immediate into bits 31..12, sign-extended from bit 31.
                    self.regs.insert(dst.to_string(), ((v << 12) as i32) as i64);
                }
            }
            ("addi" | "add" | "addiw" | "addw" | "sub", [dst, src, amount])
                if is_sp(Target::Riscv64, dst) && is_sp(Target::Riscv64, src) =>
            {
                let v = number(amount).or_else(|| self.regs.get(*amount).copied());
                if let Some(v) = v {
                    self.sp_moved(if m == "sub" { v } else { -v });
                }
            }
            ("addi" | "add" | "addiw" | "addw", [dst, src, amount]) if number(amount).is_some() => {
                let imm = number(amount).unwrap_or(0);
                let base = if *src == "zero" {
                    Some(0)
                } else {
                    self.regs.get(*src).copied()
                };
                match base {
                    Some(b) if m.ends_with('w') => {
                        self.regs.insert(dst.to_string(), (b.wrapping_add(imm) as i32) as i64);
                    }
                    Some(b) => {
                        self.regs.insert(dst.to_string(), b.wrapping_add(imm));
                    }
                    None => {
                        self.regs.remove(*dst);
                    }
                }
            }
            (_, [dst, ..]) if self.regs.contains_key(*dst) => {
                self.regs.remove(*dst);
            }
            _ => {}
        }
    }
}

/// Split operands on the commas outside brackets and parentheses.
fn split_operands(ops: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in ops.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ops[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = ops[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// A control transfer: the prologue is over.
fn ends_prologue(target: Target, m: &str) -> bool {
    match target {
        Target::X86_64 => {
            m.starts_with('j') || m.starts_with("call") || m.starts_with("ret") || m == "ud2" || m == "hlt"
        }
        Target::Aarch64 => {
            m == "b"
                || m.starts_with("b.")
                || m == "bl"
                || m == "br"
                || m == "blr"
                || m == "ret"
                || m.starts_with("cb")
                || m.starts_with("tb")
                || m == "brk"
        }
        Target::Riscv64 => {
            m.starts_with('j')
                || m.starts_with('b')
                || m == "call"
                || m == "tail"
                || m == "ret"
                || m == "ebreak"
                || m == "unimp"
        }
    }
}

/// The `n` largest frames among `names` (all functions when `None`),
/// largest first (ties by name).
pub fn top(frames: &Frames, names: Option<&Frames>, n: usize) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = frames
        .iter()
        .filter(|(k, _)| names.is_none_or(|names| names.contains_key(*k)))
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn su_lines_give_the_name_and_size() {
        let mut f = Frames::new();
        parse_su(
            "lvm.c:1198:6:luaV_execute\t3360\tstatic\n/a/b.c:3:1:f\t16\tstatic\nb.c:9:1:f\t48\tdynamic,bounded\n",
            &mut f,
        );
        assert_eq!(f["luaV_execute"], 3360);
        assert_eq!(f["f"], 48);
    }

    #[test]
    fn x86_prologues() {
        let text = "\n0000000000001140 <main>:\n    1140:\tpush   %rbp\n    1141:\tmov    %rsp,%rbp\n    1144:\tsub    $0x1810,%rsp\n    114b:\tmov    0x16ec6(%rip),%rax        # 18018 <tab.0>\n    1152:\tcall   1030 <puts@plt>\n    1157:\tsub    $0x100000,%rsp\n\n0000000000001200 <big>:\n    1200:\tpush   %rbp\n    1201:\tpush   %rbx\n    1202:\tmovabs $0x123456,%rax\n    120c:\tsub    %rax,%rsp\n    120f:\tret\n\n0000000000001300 <leaf>:\n    1300:\tpush   %rbp\n    1301:\tmov    %rsp,%rbp\n    1304:\tmov    %edi,-0x4(%rbp)\n    1307:\tpop    %rbp\n    1308:\tret\n";
        let f = from_disassembly(Target::X86_64, text);
        assert_eq!(f["main"], 8 + 8 + 0x1810);
        assert_eq!(f["big"], 8 + 16 + 0x123456);
        assert_eq!(f["leaf"], 16);
    }

    #[test]
    fn aarch64_prologues() {
        let text = "00000000004006e0 <main>:\n  4006e0:\tsub\tsp, sp, #0x1, lsl #12\n  4006e4:\tsub\tsp, sp, #0x820\n  4006e8:\tstp\tx29, x30, [sp]\n  4006ec:\tmov\tx29, sp\n  4006f0:\tbl\t400100 <f>\n\n0000000000400800 <g>:\n  400800:\tstp\tx29, x30, [sp, #-48]!\n  400804:\tmov\tx29, sp\n  400808:\tret\n\n0000000000400900 <h>:\n  400900:\tmov\tx16, #0x5678                \t// #22136\n  400904:\tmovk\tx16, #0x12, lsl #16\n  400908:\tsub\tsp, sp, x16\n  40090c:\tret\n";
        let f = from_disassembly(Target::Aarch64, text);
        assert_eq!(f["main"], 0x1820);
        assert_eq!(f["g"], 48);
        assert_eq!(f["h"], 0x125678);
    }

    #[test]
    fn riscv_prologues() {
        let text = "0000000000010640 <main>:\n   10640:\tadd\tsp,sp,-16\n   10642:\tsd\tra,8(sp)\n   10644:\tsd\ts0,0(sp)\n   10646:\tadd\ts0,sp,16\n   10648:\tlui\tt6,0xffffe\n   1064a:\taddw\tt6,t6,2032 # ffffffffffffe7f0 <__BSS_END__+0xfffffffffff63e78>\n   1064e:\tadd\tsp,sp,t6\n   10650:\tauipc\tt5,0x83\n   10654:\tjal\t10000 <f>\n\n0000000000010700 <f>:\n   10700:\taddi\tsp,sp,-32\n   10704:\tret\n";
        let f = from_disassembly(Target::Riscv64, text);
        assert_eq!(f["main"], 16 + (0x2000 - 2032));
        assert_eq!(f["f"], 32);
    }

    #[test]
    fn top_filters_and_orders() {
        let f: Frames = [("a", 5), ("b", 9), ("c", 9), ("d", 1)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let names: Frames = [("a", 0), ("c", 0), ("d", 0)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(
            top(&f, Some(&names), 2),
            vec![("c".to_string(), 9), ("a".to_string(), 5)]
        );
        assert_eq!(top(&f, None, 1), vec![("b".to_string(), 9)]);
    }
}
