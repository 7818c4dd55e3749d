//! Runs untrusted programs (generated test binaries, the compiler itself) so
//! that nothing they do can take the harness down with them.
//!
//! Every run goes through `duct` with:
//! - its own process group (`setpgid(0, 0)` in the child), killed whole with
//!   `SIGKILL` on timeout *and* after the main process exits, so forked
//!   children never outlive the run;
//! - rlimits set in the child before `exec`: CPU seconds (`RLIMIT_CPU`, soft
//!   limit -> `SIGXCPU`), address space (`RLIMIT_AS`), file size
//!   (`RLIMIT_FSIZE` -> `SIGXFSZ`) and no core dumps;
//! - stdin from `/dev/null`; stdout and stderr read through pipes up to a
//!   byte cap, the excess read and dropped (flagged as truncated) so memory
//!   stays bounded and the child never blocks on a full pipe;
//! - a wall-clock deadline.
//!
//! [`run_binary`] adds the emulator: a static binary runs natively when the
//! host has its ISA and under QEMU user-mode (`qemu-aarch64`,
//! `qemu-riscv64`) otherwise (static binaries need no `-L` sysroot), in a
//! fresh temporary directory as working directory. QEMU itself needs address
//! space beyond the guest's, so its limit is raised by
//! [`QEMU_ADDRESS_SPACE_OVERHEAD`].
//!
//! This crate is the oracle's runner, kept as a crate of its own (inside
//! `oracle/`) so that the compiler's tests, which run the binaries phicc
//! builds for every target, use it too without depending on the oracle (which
//! depends on the compiler): both contain runaway programs the same way.
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Address space QEMU user-mode needs for itself on top of the guest's limit
/// (measured: qemu-aarch64 cannot map a static binary under 256 MiB).
pub const QEMU_ADDRESS_SPACE_OVERHEAD: u64 = 512 << 20;

/// Resource limits of one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time before the whole process group is killed.
    pub timeout: Duration,
    /// `RLIMIT_CPU` in seconds.
    pub cpu_seconds: u64,
    /// `RLIMIT_AS` in bytes (`None`: unlimited).
    pub address_space: Option<u64>,
    /// `RLIMIT_FSIZE` in bytes.
    pub file_size: u64,
    /// Bytes of stdout and of stderr kept; the rest is dropped.
    pub output_cap: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(10),
            cpu_seconds: 10,
            address_space: Some(1 << 30),
            file_size: 64 << 20,
            output_cap: 1 << 20,
        }
    }
}

impl Limits {
    /// Limits for a run of `timeout` wall-clock time: the CPU limit follows it.
    pub fn with_timeout(timeout: Duration) -> Limits {
        Limits {
            timeout,
            cpu_seconds: timeout.as_secs().max(1) + 1,
            ..Limits::default()
        }
    }
}

/// A resource whose limit ended a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resource {
    /// `RLIMIT_CPU` (`SIGXCPU`).
    CpuTime,
    /// `RLIMIT_FSIZE` (`SIGXFSZ`).
    FileSize,
}

/// How a run ended. Running out of address space shows up as whatever the
/// program does when an allocation fails (a message and an exit status, or a
/// signal), since the kernel reports nothing else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
    Timeout,
    ResourceLimit(Resource),
}

impl Termination {
    pub fn describe(&self) -> String {
        match self {
            Termination::Exited(c) => format!("exit {c}"),
            Termination::Signaled(s) => format!("signal {s}"),
            Termination::Timeout => "timeout".to_string(),
            Termination::ResourceLimit(Resource::CpuTime) => "cpu limit".to_string(),
            Termination::ResourceLimit(Resource::FileSize) => "file-size limit".to_string(),
        }
    }
}

/// Captured output: at most the cap, and whether more was dropped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    pub bytes: Vec<u8>,
    pub truncated: bool,
}

/// The result of one run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub termination: Termination,
    pub stdout: Captured,
    pub stderr: Captured,
    pub elapsed: Duration,
}

/// One command to run.
#[derive(Clone, Debug, Default)]
pub struct Job {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
    pub cwd: Option<std::path::PathBuf>,
}

impl Job {
    pub fn new(program: impl Into<OsString>) -> Job {
        Job {
            program: program.into(),
            ..Job::default()
        }
    }

    pub fn arg(mut self, a: impl Into<OsString>) -> Job {
        self.args.push(a.into());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Job {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, k: impl Into<OsString>, v: impl Into<OsString>) -> Job {
        self.env.push((k.into(), v.into()));
        self
    }

    pub fn cwd(mut self, dir: &Path) -> Job {
        self.cwd = Some(dir.to_path_buf());
        self
    }
}

/// Run `job` under `limits`. An error means the command could not be started
/// (missing program, no pipes); everything the program itself does is a result.
pub fn run(job: &Job, limits: &Limits) -> io::Result<RunResult> {
    let start = Instant::now();
    let (out_r, out_w) = os_pipe::pipe()?;
    let (err_r, err_w) = os_pipe::pipe()?;
    let mut expr = duct::cmd(&job.program, &job.args)
        .stdin_null()
        .stdout_file(out_w)
        .stderr_file(err_w)
        .unchecked();
    for (k, v) in &job.env {
        expr = expr.env(k, v);
    }
    if let Some(dir) = &job.cwd {
        expr = expr.dir(dir);
    }
    let rl = limits.clone();
    expr = expr.before_spawn(move |cmd| {
        let rl = rl.clone();
        // SAFETY: the closure runs between fork and exec and only calls
        // async-signal-safe functions (setpgid, setrlimit).
        unsafe {
            cmd.pre_exec(move || confine_child(&rl));
        }
        Ok(())
    });
    let handle = expr.start()?;
    // The expression holds the parent's copies of the pipes' write ends; drop
    // them so the readers see end-of-file once the process group is gone.
    drop(expr);
    let pgid = handle.pids()[0] as libc::pid_t;
    let stdout = spawn_reader(out_r, limits.output_cap);
    let stderr = spawn_reader(err_r, limits.output_cap);

    // A watchdog thread kills the group at the deadline while this thread
    // blocks in wait(): the end of a run is seen at once (no polling delay,
    // which would dominate the timing of a 10 ms compile).
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let timeout = limits.timeout;
    let watchdog = std::thread::spawn(move || match done_rx.recv_timeout(timeout) {
        Err(mpsc::RecvTimeoutError::Timeout) => {
            kill_group(pgid);
            true
        }
        _ => false,
    });
    let waited = handle.wait().map(|out| out.status);
    let _ = done_tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    let status = waited?;
    // Children the program forked die with it.
    kill_group(pgid);
    let elapsed = start.elapsed();
    let stdout = collect(stdout);
    let stderr = collect(stderr);
    let termination = if timed_out {
        Termination::Timeout
    } else if let Some(sig) = status.signal() {
        match sig {
            libc::SIGXCPU => Termination::ResourceLimit(Resource::CpuTime),
            libc::SIGXFSZ => Termination::ResourceLimit(Resource::FileSize),
            // The hard CPU limit (soft + 1) ends a program that ignores SIGXCPU.
            libc::SIGKILL if elapsed.as_secs() >= limits.cpu_seconds => Termination::ResourceLimit(Resource::CpuTime),
            s => Termination::Signaled(s),
        }
    } else {
        Termination::Exited(status.code().unwrap_or(-1))
    };
    Ok(RunResult {
        termination,
        stdout,
        stderr,
        elapsed,
    })
}

/// Run a static binary natively (`emulator` is `None`) or under the QEMU
/// user-mode `emulator` (e.g. `qemu-riscv64`), in a fresh temporary working
/// directory.
pub fn run_binary(emulator: Option<&str>, binary: &Path, args: &[&str], limits: &Limits) -> io::Result<RunResult> {
    let dir = tempfile::Builder::new().prefix("phicc-run-").tempdir()?;
    let binary = std::path::absolute(binary)?;
    let mut limits = limits.clone();
    let job = match emulator {
        None => Job::new(binary.as_os_str()),
        Some(qemu) => {
            limits.address_space = limits.address_space.map(|a| a + QEMU_ADDRESS_SPACE_OVERHEAD);
            Job::new(qemu).arg(binary.as_os_str())
        }
    };
    run(&job.args(args.iter().copied()).cwd(dir.path()), &limits)
}

/// In the child, before exec: a process group of its own and the rlimits.
fn confine_child(limits: &Limits) -> io::Result<()> {
    fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> io::Result<()> {
        let lim = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: plain syscall on a valid struct.
        if unsafe { libc::setrlimit(resource, &lim) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
    // SAFETY: plain syscall.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    set(libc::RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)?;
    if let Some(a) = limits.address_space {
        set(libc::RLIMIT_AS, a, a)?;
    }
    set(libc::RLIMIT_FSIZE, limits.file_size, limits.file_size)?;
    set(libc::RLIMIT_CORE, 0, 0)?;
    Ok(())
}

fn kill_group(pgid: libc::pid_t) {
    // SAFETY: plain syscall; ESRCH (group already gone) is fine.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

type Reader = mpsc::Receiver<io::Result<Captured>>;

/// Read a pipe to its end, keeping the first `cap` bytes.
fn spawn_reader(mut pipe: os_pipe::PipeReader, cap: usize) -> Reader {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut truncated = false;
        let mut buf = vec![0u8; 64 << 10];
        let result = loop {
            match pipe.read(&mut buf) {
                Ok(0) => break Ok(()),
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                    truncated |= n > room;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        let _ = tx.send(result.map(|()| Captured { bytes: kept, truncated }));
    });
    rx
}

/// The reader's capture. A process that left the group (`setsid`) and still
/// holds the pipe cannot hold the harness: after a grace period the capture
/// is given up as empty and truncated.
fn collect(reader: Reader) -> Captured {
    match reader.recv_timeout(Duration::from_secs(2)) {
        Ok(Ok(c)) => c,
        _ => Captured {
            bytes: Vec::new(),
            truncated: true,
        },
    }
}
