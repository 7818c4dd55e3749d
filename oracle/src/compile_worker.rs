//! In-process compiles for the differential oracle (issue 18, item 3): the
//! phicc library, not the `phicc` binary, builds a program in every
//! configuration of one target, with the frontend run once per target
//! instead of once per configuration.
//!
//! The library runs in a *worker*: a long-lived `oracle compile-worker`
//! child of each job thread, fed one request per (program, target) as a JSON
//! line on stdin and answering one JSON line per configuration on stdout.
//! A separate process keeps the harness's containment: a hang is killed at
//! the compile limit, a stack overflow or an allocation past the address-space
//! limit kills only the worker, and the campaign records the compile as a
//! crash (as it does for a spawned phicc) and starts a new worker for the
//! configurations left. A panic is caught in the worker and reported as an
//! internal compiler error, with the status and message the `phicc` binary
//! gives (`phicc::exit::ICE`, `phicc: internal compiler error: ...`).
//!
//! What the worker runs is `phicc::driver::compile_to_ir` and
//! `phicc::driver::build_configuration`, the halves of `phicc -S`/`-c`; a
//! test compares its assembly with the binary's on every target and
//! configuration.

use crate::runner::Limits;
use crate::target::{Config, Target};
use crate::toolchain::{Step, StepOutcome};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

/// One program for one target, in several configurations.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Request {
    pub source: PathBuf,
    pub target: Target,
    pub configs: Vec<Config>,
    pub include_dirs: Vec<PathBuf>,
    pub verify_each: bool,
    /// Where each configuration's assembly goes (its object, when the
    /// integrated assembler makes one, goes beside it with `.o`).
    pub outputs: Vec<PathBuf>,
}

/// How one configuration's build ended.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The `phicc` binary's exit status for the same compile.
    pub status: i32,
    /// What `phicc` would print on stderr (diagnostics, the ICE message).
    pub message: String,
    pub seconds: f64,
    pub object: bool,
    /// How many allocas mem2reg's phi copy-cost limit kept in memory, when
    /// this configuration ran mem2reg (the campaign summary counts the
    /// programs where it did; computing it here saves the campaign a
    /// frontend run of its own per program).
    #[serde(default)]
    pub kept_by_cost_limit: Option<usize>,
}

impl Reply {
    /// A build that failed with `status`, printing `message` (its time is
    /// filled in by the caller).
    fn failed(status: i32, message: String) -> Reply {
        Reply {
            status,
            message,
            seconds: 0.0,
            object: false,
            kept_by_cost_limit: None,
        }
    }
}

/// The object file beside assembly `asm`.
pub fn object_path(asm: &Path) -> PathBuf {
    asm.with_extension("o")
}

fn pipeline_configuration(c: Config) -> phicc::passes::Configuration {
    match c {
        Config::Nomem2reg => phicc::passes::Configuration::Nomem2reg,
        Config::Mem2reg => phicc::passes::Configuration::Mem2reg,
        Config::Opt => phicc::passes::Configuration::Opt,
    }
}

thread_local! {
    /// The message and place of the last panic on this thread (the hook
    /// records it; `catch_unwind` only sees the payload).
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Run `f`, turning a panic into the ICE reply the `phicc` binary would give.
fn guarded(f: impl FnOnce() -> Reply) -> Reply {
    let start = Instant::now();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Reply {
            seconds: start.elapsed().as_secs_f64(),
            ..Reply::failed(
                phicc::exit::ICE,
                format!(
                    "phicc: internal compiler error: {}\n",
                    LAST_PANIC.with(|p| p.borrow().clone())
                ),
            )
        },
    }
}

/// The allocas mem2reg's phi copy-cost limit kept, if mem2reg ran.
fn kept_by_cost_limit(stats: &phicc::passes::pipeline::PassStats) -> Option<usize> {
    use phicc::passes::PassKind;
    let ran = stats.passes_run.contains(&PassKind::Mem2reg.name());
    ran.then(|| stats.get(PassKind::Mem2reg, phicc::passes::KEPT_BY_COST_LIMIT))
}

fn serve_request(req: &Request, out: &mut impl Write) -> std::io::Result<()> {
    let start = Instant::now();
    let mut opts = phicc::driver::FrontendOptions::new(req.target);
    opts.include_dirs = req.include_dirs.clone();
    opts.verify = req.verify_each;
    let mut frontend: Option<Result<phicc::ir::module::IrModule, Reply>> = None;
    for (i, &config) in req.configs.iter().enumerate() {
        let asm = &req.outputs[i];
        let t0 = Instant::now();
        let reply = guarded(|| {
            let module = frontend.get_or_insert_with(|| match phicc::driver::compile_to_ir(&req.source, &opts) {
                Ok(c) => Ok(c.module),
                Err(phicc::driver::CompileError::Diagnostic(m)) => Err(Reply::failed(phicc::exit::ERROR, m)),
                Err(phicc::driver::CompileError::Internal(m)) => Err(Reply::failed(
                    phicc::exit::ICE,
                    format!("phicc: internal compiler error: {m}\n"),
                )),
            });
            let m = match module {
                Ok(m) => m.clone(),
                Err(r) => return r.clone(),
            };
            let built = phicc::driver::build_configuration(
                &req.source,
                m,
                pipeline_configuration(config),
                req.verify_each,
                req.target,
            );
            match built {
                Ok(b) => {
                    let kept = kept_by_cost_limit(&b.stats);
                    let written = std::fs::write(asm, &b.assembly).and_then(|()| match &b.object {
                        Some(o) => std::fs::write(object_path(asm), o),
                        None => Ok(()),
                    });
                    match written {
                        Ok(()) => Reply {
                            status: 0,
                            message: String::new(),
                            seconds: 0.0,
                            object: b.object.is_some(),
                            kept_by_cost_limit: kept,
                        },
                        Err(e) => Reply::failed(
                            phicc::exit::ERROR,
                            format!("phicc: error: cannot write {}: {e}\n", asm.display()),
                        ),
                    }
                }
                Err(f) => Reply::failed(f.status, f.message),
            }
        });
        // The frontend's time goes to the first configuration, as the
        // first spawned phicc would have paid it.
        let seconds = if i == 0 { start.elapsed() } else { t0.elapsed() };
        let reply = Reply {
            seconds: seconds.as_secs_f64(),
            ..reply
        };
        serde_json::to_writer(&mut *out, &reply)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

/// `oracle compile-worker`: answer requests on stdin until it closes.
pub fn serve() -> std::io::Result<()> {
    std::panic::set_hook(Box::new(|info| {
        let msg = phicc::driver::panic_message(info);
        LAST_PANIC.with(|p| *p.borrow_mut() = msg);
    }));
    // phicc compiles on a thread with a 1 GiB stack; so does its library here.
    let worker = std::thread::Builder::new()
        .name("compile-worker".into())
        .stack_size(1 << 30)
        .spawn(|| -> std::io::Result<()> {
            let stdin = std::io::stdin();
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            for line in stdin.lock().lines() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                let req: Request = serde_json::from_str(&line).map_err(std::io::Error::other)?;
                serve_request(&req, &mut out)?;
            }
            Ok(())
        })?;
    worker
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("compile worker panicked")))
}

/// A running worker: its process, its stdin, and its stdout's lines.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    exe: PathBuf,
    env: Vec<(String, String)>,
}

impl Worker {
    fn spawn(exe: &Path, env: &[(String, String)], limits: &Limits) -> std::io::Result<Worker> {
        let mut cmd = Command::new(exe);
        cmd.arg("compile-worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        if let Some(bytes) = limits.address_space {
            use std::os::unix::process::CommandExt;
            // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
            unsafe {
                cmd.pre_exec(move || {
                    let lim = libc::rlimit {
                        rlim_cur: bytes as libc::rlim_t,
                        rlim_max: bytes as libc::rlim_t,
                    };
                    if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            lines,
            exe: exe.to_path_buf(),
            env: env.to_vec(),
        })
    }

    /// Kill the worker and say how it ended.
    fn end(mut self) -> String {
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(s) => {
                use std::os::unix::process::ExitStatusExt;
                match (s.code(), s.signal()) {
                    (_, Some(sig)) => format!("killed by signal {sig}"),
                    (Some(c), None) => format!("exited with status {c}"),
                    _ => "ended".into(),
                }
            }
            Err(e) => format!("cannot be waited for: {e}"),
        }
    }
}

impl Drop for Worker {
    /// An idle worker is killed and reaped, so that its CPU time counts in
    /// the oracle's own (`time oracle campaign ...`).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

thread_local! {
    /// This job thread's worker, started on first use.
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// Build `req` in the calling thread's worker (`exe compile-worker`): per
/// configuration, its step and [`Reply::kept_by_cost_limit`]. Each configuration gets the
/// compile `limits`' timeout; one that times out or kills the worker is
/// reported as such, and the configurations after it go to a new worker.
/// `command` gives the `phicc` command line that repeats a configuration's
/// compile (for findings and replays).
pub fn compile(
    exe: &Path,
    req: &Request,
    env: &[(String, String)],
    limits: &Limits,
    command: &dyn Fn(usize) -> String,
) -> std::io::Result<Vec<(Step, Option<usize>)>> {
    let mut steps: Vec<(Step, Option<usize>)> = Vec::new();
    while steps.len() < req.configs.len() {
        let first = steps.len();
        let sub = Request {
            configs: req.configs[first..].to_vec(),
            outputs: req.outputs[first..].to_vec(),
            ..req.clone()
        };
        let mut worker = match WORKER.with(|w| w.borrow_mut().take()) {
            Some(w) if w.env == env && w.exe == exe => w,
            Some(w) => {
                w.end();
                Worker::spawn(exe, env, limits)?
            }
            None => Worker::spawn(exe, env, limits)?,
        };
        let mut line = serde_json::to_string(&sub).map_err(std::io::Error::other)?;
        line.push('\n');
        if worker
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| worker.stdin.flush())
            .is_err()
        {
            // A worker that died between requests: start again with a new one.
            worker.end();
            let mut fresh = Worker::spawn(exe, env, limits)?;
            fresh.stdin.write_all(line.as_bytes())?;
            fresh.stdin.flush()?;
            worker = fresh;
        }
        let mut worker = Some(worker);
        for i in first..req.configs.len() {
            let t0 = Instant::now();
            let Some(w) = worker.as_ref() else { break };
            let outcome = match w.lines.recv_timeout(limits.timeout) {
                Ok(l) => match serde_json::from_str::<Reply>(&l) {
                    Ok(r) => Ok(r),
                    Err(e) => Err(StepOutcome::Crashed {
                        how: format!("compile worker sent a bad reply ({e})"),
                    }),
                },
                Err(RecvTimeoutError::Timeout) => Err(StepOutcome::Timeout),
                Err(RecvTimeoutError::Disconnected) => Err(StepOutcome::Crashed { how: String::new() }),
            };
            let (outcome, stderr, seconds, kept) = match outcome {
                Ok(r) => {
                    let outcome = match r.status {
                        0 => StepOutcome::Ok,
                        s if s == phicc::exit::ICE => StepOutcome::Crashed {
                            how: "internal compiler error".into(),
                        },
                        s => StepOutcome::Rejected { status: s },
                    };
                    (outcome, r.message, r.seconds, r.kept_by_cost_limit)
                }
                Err(mut outcome) => {
                    // Hung or dead: the configurations left go to a new worker.
                    let how = worker.take().map(Worker::end).unwrap_or_default();
                    if let StepOutcome::Crashed { how: h } = &mut outcome {
                        if h.is_empty() {
                            *h = format!("the compile worker {how}");
                        }
                    }
                    (outcome, String::new(), t0.elapsed().as_secs_f64(), None)
                }
            };
            let step = Step {
                command: command(i),
                outcome,
                stderr,
                seconds,
            };
            steps.push((step, kept));
        }
        if let Some(w) = worker {
            WORKER.with(|slot| *slot.borrow_mut() = Some(w));
        }
    }
    Ok(steps)
}

/// The worker executable for a run with no `--compiler` and no `$PHICC`:
/// this oracle, whose phicc library is then the compiler under test.
pub fn worker_for(explicit: Option<&Path>) -> Option<PathBuf> {
    if explicit.is_some() || std::env::var_os("PHICC").is_some() {
        return None;
    }
    std::env::current_exe().ok()
}
