//! `oracle native-ir`: the backend checked against the reference interpreter
//! on generated IR, in the manner of Cranelift's `test run` (the same
//! program interpreted and executed natively must agree).
//!
//! Each input is an alloca-form module from [`crate::irgen`], made
//! self-contained and deterministic for a real machine by [`prepare`]:
//! inline asm (a schedule-driven black box in the interpreter, a comment
//! natively) is replaced by stores of fixed values to its outputs, the
//! external `@sink` and `@escape` get IR bodies (the interpreter would derive
//! their results from an event hash no native program reproduces; `@sink`'s
//! computes with three doubles, so that it overwrites float registers the
//! way a real callee may), and
//! `@main` becomes `@phicc_entry` so that a generated C driver can call it;
//! every float-to-integer conversion is guarded to operands in
//! `[-2^31, 2^31)` (anything else, NaN included, converts 0), because an
//! out-of-range conversion is undefined in C: the interpreter saturates, the
//! hardware gives its "integer indefinite" value, and both are right.
//! Then, for each configuration (the IR as generated, and after the mem2reg
//! pipeline), the module is interpreted and compiled for the target (x86-64
//! by default), linked with the driver by the target's gcc (`-static` for a
//! foreign target), and run (under QEMU user-mode for a foreign target); the
//! return value and the final bytes of every global must be equal.
//! Interpreter traps and fuel exhaustion are inconclusive (the program
//! itself went wrong, or ran too long). A native run that times out (10 s)
//! when the interpreter finished is a finding of its own, [`Verdict::Timeout`]:
//! termination is an outcome, and a program the interpreter finishes within
//! its fuel runs natively in milliseconds.

use crate::irgen::{generate, input_bytes, GenMode};
use phicc::ir::interp::{run_counting, RunConfig, RunResult};
use phicc::ir::reexports::*;
use phicc::ir::text::print_module;
use phicc::passes::Pipeline;
use phicc::target::Target;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The entry point the native driver calls.
pub const ENTRY: &str = "phicc_entry";

/// Makes a generated module runnable natively with the interpreter's meaning.
pub fn prepare(mut m: IrModule) -> IrModule {
    let mut next_block = m.next_block_id();
    for f in m.functions.iter_mut().filter(|f| !f.is_declaration) {
        let mut next_value = f.scan_max_value_id() + 1;
        let mut fresh = || {
            next_value += 1;
            Value(next_value - 1)
        };
        for b in &mut f.blocks {
            let mut out = Vec::with_capacity(b.instructions.len());
            for inst in std::mem::take(&mut b.instructions) {
                if let Instruction::Cast {
                    dest,
                    src,
                    from_ty,
                    to_ty,
                } = inst
                {
                    if matches!(from_ty, IrType::F32 | IrType::F64) && to_ty.is_integer() {
                        out.extend(guarded_conversion(dest, src, from_ty, to_ty, &mut fresh));
                        continue;
                    }
                }
                let Instruction::InlineAsm(asm) = inst else {
                    out.push(inst);
                    continue;
                };
                for (k, o) in asm.outputs.iter().enumerate() {
                    let ty = asm.output_type(k);
                    let c = IrConst::from_i64(0x5a5a + 17 * k as i64, ty);
                    if o.is_def {
                        out.push(Instruction::Copy {
                            dest: o.value,
                            src: Operand::Const(c),
                        });
                    } else if !InlineAsm::is_memory_constraint(&o.constraint) {
                        out.push(Instruction::Store {
                            val: Operand::Const(c),
                            ptr: o.value,
                            ty,
                            seg_override: AddressSpace::Default,
                        });
                    }
                }
            }
            b.instructions = out;
        }
        if f.name == "main" {
            f.name = ENTRY.to_string();
        }
        f.next_value_id = 0;
    }
    m.globals.push(IrGlobal {
        name: "sink_acc".into(),
        ty: IrType::I64,
        size: 8,
        align: 8,
        ..IrGlobal::default()
    });
    for f in m.functions.iter_mut() {
        if !f.is_declaration {
            continue;
        }
        let label = BlockId(next_block);
        next_block += 1;
        let body = match f.name.as_str() {
            // sink(x): sink_acc = sink_acc * 31 ^ x; return x ^ 0x5bd1e995
            // ^ (2x * x < x), the last computed in doubles.
            "sink" => vec![
                Instruction::ParamRef {
                    dest: Value(0),
                    param_idx: 0,
                    ty: IrType::I64,
                },
                Instruction::GlobalAddr {
                    dest: Value(1),
                    name: "sink_acc".into(),
                },
                Instruction::Load {
                    dest: Value(2),
                    ptr: Value(1),
                    ty: IrType::I64,
                    seg_override: AddressSpace::Default,
                },
                Instruction::BinOp {
                    dest: Value(3),
                    op: IrBinOp::Mul,
                    lhs: Operand::Value(Value(2)),
                    rhs: Operand::Const(IrConst::I64(31)),
                    ty: IrType::I64,
                },
                Instruction::BinOp {
                    dest: Value(4),
                    op: IrBinOp::Xor,
                    lhs: Operand::Value(Value(3)),
                    rhs: Operand::Value(Value(0)),
                    ty: IrType::I64,
                },
                Instruction::Store {
                    val: Operand::Value(Value(4)),
                    ptr: Value(1),
                    ty: IrType::I64,
                    seg_override: AddressSpace::Default,
                },
                Instruction::BinOp {
                    dest: Value(5),
                    op: IrBinOp::Xor,
                    lhs: Operand::Value(Value(0)),
                    rhs: Operand::Const(IrConst::I64(0x5bd1_e995)),
                    ty: IrType::I64,
                },
                // Then `d = (double)x; e = d + d; g = e * d; return r ^
                // (g < d)`: three doubles live at once, so the callee
                // overwrites float registers a caller may wrongly keep a
                // value in across the call (x86-64's caller-saved
                // `xmm8..15` are the backend's float homes).
                Instruction::Cast {
                    dest: Value(6),
                    src: Operand::Value(Value(0)),
                    from_ty: IrType::I64,
                    to_ty: IrType::F64,
                },
                Instruction::BinOp {
                    dest: Value(7),
                    op: IrBinOp::Add,
                    lhs: Operand::Value(Value(6)),
                    rhs: Operand::Value(Value(6)),
                    ty: IrType::F64,
                },
                Instruction::BinOp {
                    dest: Value(8),
                    op: IrBinOp::Mul,
                    lhs: Operand::Value(Value(7)),
                    rhs: Operand::Value(Value(6)),
                    ty: IrType::F64,
                },
                Instruction::Cmp {
                    dest: Value(9),
                    op: IrCmpOp::Slt,
                    lhs: Operand::Value(Value(8)),
                    rhs: Operand::Value(Value(6)),
                    ty: IrType::F64,
                },
                Instruction::Select {
                    dest: Value(10),
                    cond: Operand::Value(Value(9)),
                    true_val: Operand::Const(IrConst::I64(1)),
                    false_val: Operand::Const(IrConst::I64(0)),
                    ty: IrType::I64,
                },
                Instruction::BinOp {
                    dest: Value(11),
                    op: IrBinOp::Xor,
                    lhs: Operand::Value(Value(5)),
                    rhs: Operand::Value(Value(10)),
                    ty: IrType::I64,
                },
            ],
            _ => Vec::new(),
        };
        let ret = if f.name == "sink" {
            Operand::Value(Value(11))
        } else {
            Operand::Const(IrConst::from_i64(7, f.return_type))
        };
        f.is_declaration = false;
        f.next_value_id = 0;
        f.blocks = vec![BasicBlock {
            label,
            instructions: body,
            terminator: if f.return_type == IrType::Void {
                Terminator::Return(None)
            } else {
                Terminator::Return(Some(ret))
            },
        }];
    }
    m
}

/// `dest = (src >= -2^31 && src < 2^31) ? (to) src : 0`, with ordered
/// compares so that NaN takes the 0 branch.
fn guarded_conversion(
    dest: Value,
    src: Operand,
    from: IrType,
    to: IrType,
    fresh: &mut impl FnMut() -> Value,
) -> Vec<Instruction> {
    let bound = |v: f64| {
        Operand::Const(if from == IrType::F32 {
            IrConst::F32(v as f32)
        } else {
            IrConst::F64(v)
        })
    };
    let (lo, hi, ok, safe) = (fresh(), fresh(), fresh(), fresh());
    vec![
        Instruction::Cmp {
            dest: lo,
            op: IrCmpOp::Sge,
            lhs: src,
            rhs: bound(-2147483648.0),
            ty: from,
        },
        Instruction::Cmp {
            dest: hi,
            op: IrCmpOp::Slt,
            lhs: src,
            rhs: bound(2147483648.0),
            ty: from,
        },
        Instruction::BinOp {
            dest: ok,
            op: IrBinOp::And,
            lhs: Operand::Value(lo),
            rhs: Operand::Value(hi),
            ty: IrType::I8,
        },
        Instruction::Select {
            dest: safe,
            cond: Operand::Value(ok),
            true_val: src,
            false_val: bound(0.0),
            ty: from,
        },
        Instruction::Cast {
            dest,
            src: Operand::Value(safe),
            from_ty: from,
            to_ty: to,
        },
    ]
}

/// How one configuration of one input ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    /// The interpreter trapped or ran out of fuel.
    Inconclusive(String),
    /// The interpreter finished (in the given number of steps) but the native
    /// run timed out: the compiled program no longer terminates.
    Timeout {
        interpreter_steps: u64,
    },
    /// Native and interpreted runs differ: a backend (or pipeline) bug.
    Mismatch {
        native: String,
        interpreted: String,
    },
    /// The pipeline, the backend, the assembler or the linker failed.
    BuildError(String),
}

fn is_c_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The C driver: calls the entry, prints its result and every global's bytes.
pub fn driver_source(m: &IrModule) -> String {
    let mut s = String::from("#include <stdio.h>\nextern long phicc_entry(void);\n");
    let globals: Vec<&IrGlobal> = m
        .globals
        .iter()
        .filter(|g| !g.is_extern && is_c_identifier(&g.name))
        .collect();
    for g in &globals {
        let _ = writeln!(s, "extern unsigned char {}[];", g.name);
    }
    s.push_str("static void dump(const char *n, const unsigned char *p, int size) {\n  printf(\"%s\", n);\n  for (int i = 0; i < size; i++) printf(\" %02x\", p[i]);\n  printf(\"\\n\");\n}\n");
    s.push_str("int main(void) {\n  long r = phicc_entry();\n  printf(\"ret %016lx\\n\", (unsigned long)r);\n");
    for g in &globals {
        let _ = writeln!(s, "  dump(\"{0}\", {0}, {1});", g.name, g.size);
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// What the driver would print, from the interpreter's outcome.
fn expected_output(m: &IrModule, result: u128, globals: &[(String, Vec<u8>)]) -> String {
    let mut s = format!("ret {:016x}\n", result as u64);
    for (name, bytes) in globals {
        if !m.globals.iter().any(|g| &g.name == name && is_c_identifier(name)) {
            continue;
        }
        s.push_str(name);
        for b in bytes {
            let _ = write!(s, " {b:02x}");
        }
        s.push('\n');
    }
    s
}

/// The QEMU user-mode emulator that runs `target`'s binaries here, or
/// `None` when the host runs them.
fn emulator(target: Target) -> Option<&'static str> {
    target.emulator()
}

/// The target's gcc driver (`-static` when its binaries run under QEMU).
fn gcc(target: Target) -> Command {
    let mut cmd = Command::new(target.gcc());
    if emulator(target).is_some() {
        cmd.arg("-static");
    }
    cmd
}

/// Runs one configuration (`passes` over `prepared`) in `dir`, for x86-64.
pub fn check_config(prepared: &IrModule, passes: &str, dir: &Path, driver_obj: &Path, fuel: u64) -> Verdict {
    check_config_on(Target::X86_64, prepared, passes, dir, driver_obj, fuel)
}

/// Runs one configuration (`passes` over `prepared`) in `dir`, for `target`.
pub fn check_config_on(
    target: Target,
    prepared: &IrModule,
    passes: &str,
    dir: &Path,
    driver_obj: &Path,
    fuel: u64,
) -> Verdict {
    let mut m = prepared.clone();
    let mut p = match Pipeline::parse(passes) {
        Ok(p) => p,
        Err(e) => return Verdict::BuildError(e),
    };
    p.verify_each = true;
    if let Err(e) = p.run(&mut m, &mut |_, _| {}) {
        return Verdict::BuildError(format!("pipeline: {e}"));
    }
    let (o, steps) = run_counting(
        &m,
        &RunConfig {
            entry: ENTRY.into(),
            args: Vec::new(),
            schedule_seed: 0,
            fuel,
        },
    );
    let bits = match o.result {
        RunResult::Returned(Some(b)) => b,
        RunResult::Returned(None) => 0,
        ref other => return Verdict::Inconclusive(format!("interpreter: {other}")),
    };
    let want = expected_output(&m, bits, &o.globals);
    let asm = match phicc::backend::emit_assembly(&m, target) {
        Ok(a) => a,
        Err(e) => return Verdict::BuildError(format!("backend: {e}")),
    };
    let exe = dir.join("prog");
    // As the driver does: the integrated assembler, or gcc for the text.
    let (s_path, bytes) = match phicc::backend::assemble_object(&m, &asm, target) {
        Some(obj) => (dir.join("prog.o"), obj),
        None => (dir.join("prog.s"), asm.into_bytes()),
    };
    if let Err(e) = std::fs::write(&s_path, bytes) {
        return Verdict::BuildError(format!("cannot write {}: {e}", s_path.display()));
    }
    let out = gcc(target).arg("-o").arg(&exe).arg(&s_path).arg(driver_obj).output();
    match out {
        Ok(o) if o.status.success() => {}
        Ok(o) => return Verdict::BuildError(format!("gcc: {}", String::from_utf8_lossy(&o.stderr))),
        Err(e) => return Verdict::BuildError(format!("cannot run gcc: {e}")),
    }
    // Contained like every other program run: own process group, rlimits, 10 s.
    let limits = crate::runner::Limits::with_timeout(std::time::Duration::from_secs(10));
    let got = match phicc_runner::run_binary(emulator(target), &exe, &[], &limits) {
        Ok(r) => match r.termination {
            // The interpreter finished (an inconclusive run returned above):
            // a native run that does not is a finding.
            crate::runner::Termination::Timeout => {
                return Verdict::Timeout {
                    interpreter_steps: steps,
                }
            }
            crate::runner::Termination::ResourceLimit(_) => {
                return Verdict::Inconclusive(format!("native run: {}", r.termination.describe()))
            }
            crate::runner::Termination::Exited(0) => String::from_utf8_lossy(&r.stdout.bytes).into_owned(),
            t => format!("{}{}\n", String::from_utf8_lossy(&r.stdout.bytes), t.describe()),
        },
        Err(e) => return Verdict::BuildError(format!("cannot run {}: {e}", exe.display())),
    };
    if got == want {
        Verdict::Agree
    } else {
        Verdict::Mismatch {
            native: got,
            interpreted: want,
        }
    }
}

/// The configurations checked, by name and `--passes` group: every one of
/// phicc's pass table (`nomem2reg`: the IR as generated; `mem2reg`: after mem2reg).
pub fn configs() -> impl Iterator<Item = (&'static str, &'static str)> {
    phicc::passes::Configuration::ALL
        .into_iter()
        .map(|c| (c.name(), c.group()))
}

/// Checks input `index` of campaign `seed` in every configuration, for x86-64.
pub fn check_input(seed: u64, index: u64, work: &Path, fuel: u64) -> (IrModule, Vec<(&'static str, Verdict)>) {
    check_input_on(Target::X86_64, seed, index, work, fuel)
}

/// Checks input `index` of campaign `seed` in every configuration, for `target`.
pub fn check_input_on(
    target: Target,
    seed: u64,
    index: u64,
    work: &Path,
    fuel: u64,
) -> (IrModule, Vec<(&'static str, Verdict)>) {
    let module = prepare(generate(&input_bytes(seed, index), GenMode::Alloca));
    let dir = work.join(format!("in{index}"));
    let _ = std::fs::create_dir_all(&dir);
    let c_path = dir.join("driver.c");
    let o_path = dir.join("driver.o");
    let mut verdicts = Vec::new();
    let built = std::fs::write(&c_path, driver_source(&module)).is_ok()
        && gcc(target)
            .args(["-c", "-o"])
            .arg(&o_path)
            .arg(&c_path)
            .status()
            .is_ok_and(|s| s.success());
    if !built {
        verdicts.push(("driver", Verdict::BuildError("cannot build the C driver".into())));
        return (module, verdicts);
    }
    for (name, passes) in configs() {
        verdicts.push((name, check_config_on(target, &module, passes, &dir, &o_path, fuel)));
    }
    let _ = std::fs::remove_dir_all(&dir);
    (module, verdicts)
}

/// Totals of a native campaign.
#[derive(Debug, Default)]
pub struct NativeSummary {
    pub inputs: u64,
    pub agree: u64,
    pub inconclusive: u64,
    /// `(index, configuration, verdict, file)` of every mismatch or build error.
    pub findings: Vec<(u64, String, Verdict, Option<PathBuf>)>,
}

impl NativeSummary {
    pub fn render(&self) -> String {
        let mut s = format!(
            "inputs: {}  configuration runs agreeing: {}  inconclusive: {}  findings: {}\n",
            self.inputs,
            self.agree,
            self.inconclusive,
            self.findings.len()
        );
        for (i, c, v, p) in &self.findings {
            let what = match v {
                Verdict::Mismatch { .. } => "mismatch".to_string(),
                Verdict::Timeout { interpreter_steps } => {
                    format!("timeout (the interpreter finished in {interpreter_steps} steps)")
                }
                Verdict::BuildError(e) => format!("build error: {}", e.lines().next().unwrap_or("")),
                other => format!("{other:?}"),
            };
            let loc = p.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            let _ = writeln!(s, "  input {i} ({c}): {what} {loc}");
        }
        s
    }
}

/// Checks inputs `0..count` of campaign `seed` on `jobs` threads for
/// x86-64; findings are written to `out` (the prepared module, with the
/// verdict as comments).
pub fn run_campaign(
    seed: u64,
    count: u64,
    jobs: usize,
    fuel: u64,
    out: Option<&Path>,
) -> anyhow::Result<NativeSummary> {
    run_campaign_on(Target::X86_64, seed, count, jobs, fuel, out)
}

/// As [`run_campaign`] for `target`.
pub fn run_campaign_on(
    target: Target,
    seed: u64,
    count: u64,
    jobs: usize,
    fuel: u64,
    out: Option<&Path>,
) -> anyhow::Result<NativeSummary> {
    campaign(target, seed, count, jobs, fuel, out, false)
}

/// The first input (in index order) of a campaign like [`run_campaign_on`]
/// that gives a finding, stopping the workers once one is known.
pub fn first_finding_on(target: Target, seed: u64, count: u64, jobs: usize, fuel: u64) -> anyhow::Result<Option<u64>> {
    Ok(campaign(target, seed, count, jobs, fuel, None, true)?
        .findings
        .first()
        .map(|f| f.0))
}

fn campaign(
    target: Target,
    seed: u64,
    count: u64,
    jobs: usize,
    fuel: u64,
    out: Option<&Path>,
    stop_at_first: bool,
) -> anyhow::Result<NativeSummary> {
    let work = tempfile::tempdir()?;
    let next = AtomicU64::new(0);
    // The lowest input index with a finding so far (inputs below it still run).
    let first = AtomicU64::new(u64::MAX);
    let summary = Mutex::new(NativeSummary::default());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count || (stop_at_first && index > first.load(Ordering::Relaxed)) {
                    break;
                }
                let (module, verdicts) = check_input_on(target, seed, index, work.path(), fuel);
                let mut s = summary.lock().unwrap_or_else(|e| e.into_inner());
                s.inputs += 1;
                for (config, v) in verdicts {
                    match v {
                        Verdict::Agree => s.agree += 1,
                        Verdict::Inconclusive(_) => s.inconclusive += 1,
                        v => {
                            let path = out.map(|dir| {
                                let t = target.name();
                                let p = dir.join(format!("native-{t}-{seed}-{index:06}-{config}.ir"));
                                let mut body = format!(
                                    "; oracle native-ir --target={t} --seed {seed}: input {index}, configuration {config}\n"
                                );
                                for line in format!("{v:?}").lines() {
                                    let _ = writeln!(body, "; {line}");
                                }
                                body.push_str(&print_module(&module));
                                let _ = std::fs::create_dir_all(dir);
                                let _ = crate::util::write_atomic(&p, body.as_bytes());
                                p
                            });
                            s.findings.push((index, config.to_string(), v, path));
                            first.fetch_min(index, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let mut s = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    s.findings.sort_by_key(|f| f.0);
    Ok(s)
}
