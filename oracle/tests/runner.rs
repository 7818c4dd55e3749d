//! Runner containment: programs that loop forever, allocate without bound,
//! flood stdout or fork are each stopped and classified, natively and under
//! QEMU. The programs are built with the host gcc and the cross gccs
//! (`scripts/setup.sh --campaign` installs them).

use oracle::runner::{run, run_binary, Job, Limits, Resource, Termination, QEMU_ADDRESS_SPACE_OVERHEAD};
use oracle::target::{host, Target};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Build `tests/programs/NAME.c` statically for `target` (once per test process).
fn binary(name: &str, target: Target) -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| tempfile::tempdir().unwrap()).path();
    let out = dir.join(format!("{name}-{target}"));
    if !out.exists() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/programs/{name}.c"));
        let tmp = dir.join(format!("{name}-{target}.{}", std::process::id()));
        let status = std::process::Command::new(target.gcc())
            .args(["-O0", "-static", "-o"])
            .arg(&tmp)
            .arg(&src)
            .status()
            .unwrap_or_else(|e| panic!("{} not runnable ({e}); run scripts/setup.sh --campaign", target.gcc()));
        assert!(status.success(), "{} failed on {}", target.gcc(), src.display());
        std::fs::rename(&tmp, &out).unwrap();
    }
    out
}

/// The host and one emulated target: both paths of `run_binary`.
fn targets() -> [Target; 2] {
    let emulated = [Target::Aarch64, Target::Riscv64]
        .into_iter()
        .find(|t| !t.is_host())
        .unwrap();
    [host(), emulated]
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

#[test]
fn exit_status_and_both_streams_are_captured() {
    for t in targets() {
        let r = run_binary(t, &binary("exit_status", t), &[], &limits(20_000)).unwrap();
        assert_eq!(r.termination, Termination::Exited(3), "{t}");
        assert_eq!(r.stdout.bytes, b"out\n", "{t}");
        assert_eq!(r.stderr.bytes, b"err\n", "{t}");
        assert!(!r.stdout.truncated && !r.stderr.truncated);
    }
}

#[test]
fn a_program_that_loops_forever_times_out() {
    for t in targets() {
        let r = run_binary(t, &binary("loop_forever", t), &[], &limits(700)).unwrap();
        assert_eq!(r.termination, Termination::Timeout, "{t}");
        assert!(r.elapsed < Duration::from_secs(5), "{t}: took {:?}", r.elapsed);
    }
}

#[test]
fn the_cpu_limit_ends_a_busy_program_before_the_wall_clock() {
    let t = host();
    let l = Limits {
        timeout: Duration::from_secs(30),
        cpu_seconds: 1,
        ..Limits::default()
    };
    let r = run_binary(t, &binary("loop_forever", t), &[], &l).unwrap();
    assert_eq!(r.termination, Termination::ResourceLimit(Resource::CpuTime));
    assert!(r.elapsed < Duration::from_secs(10), "took {:?}", r.elapsed);
}

#[test]
fn a_program_that_allocates_without_bound_sees_malloc_fail() {
    for t in targets() {
        let l = Limits {
            address_space: Some(256 << 20),
            ..limits(30_000)
        };
        let r = run_binary(t, &binary("allocate_forever", t), &[], &l).unwrap();
        assert_eq!(r.termination, Termination::Exited(42), "{t}: {r:?}");
        let out = String::from_utf8_lossy(&r.stdout.bytes);
        let mib: u64 = out.trim().rsplit(' ').nth(1).unwrap().parse().unwrap();
        // Under QEMU the limit also covers the emulator, which gets a fixed allowance.
        let bound = 256 + t.emulator().map_or(0, |_| QEMU_ADDRESS_SPACE_OVERHEAD >> 20);
        assert!(mib < bound, "{t}: allocated {mib} MiB under a {bound} MiB limit");
    }
}

#[test]
fn a_huge_stdout_is_capped_and_flagged() {
    for t in targets() {
        let l = Limits {
            output_cap: 100_000,
            ..limits(30_000)
        };
        let r = run_binary(t, &binary("huge_stdout", t), &[], &l).unwrap();
        assert_eq!(r.termination, Termination::Exited(0), "{t}");
        assert_eq!(r.stdout.bytes.len(), 100_000, "{t}");
        assert!(r.stdout.truncated, "{t}");
        assert!(r.stdout.bytes.iter().all(|&b| b == b'x'));
    }
}

/// Whether `pid` is still a live process (a zombie waiting for its reaper is dead).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap().trim_start().chars().next().unwrap();
            state != 'Z' && state != 'X'
        }
    }
}

#[test]
fn forked_children_die_with_the_process_group() {
    for t in targets() {
        let r = run_binary(t, &binary("fork_children", t), &[], &limits(20_000)).unwrap();
        assert_eq!(r.termination, Termination::Exited(7), "{t}");
        let pids: Vec<i32> = String::from_utf8_lossy(&r.stdout.bytes)
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(pids.len(), 3, "{t}");
        // SIGKILL is delivered asynchronously; give the kernel a moment.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while pids.iter().any(|&p| alive(p)) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        for p in pids {
            assert!(!alive(p), "{t}: child {p} survived the run");
        }
    }
}

#[test]
fn a_file_past_the_size_limit_is_a_resource_limit() {
    let dir = tempfile::tempdir().unwrap();
    let job = Job::new("sh")
        .arg("-c")
        .arg("head -c 3000000 /dev/zero > big")
        .cwd(dir.path());
    let l = Limits {
        file_size: 1 << 20,
        ..limits(20_000)
    };
    let r = run(&job, &l).unwrap();
    // The shell's child `head` gets SIGXFSZ; the shell reports it as 128 + signal.
    assert!(
        r.termination == Termination::Exited(128 + libc::SIGXFSZ)
            || r.termination == Termination::ResourceLimit(Resource::FileSize),
        "{r:?}"
    );
    assert_eq!(std::fs::metadata(dir.path().join("big")).unwrap().len(), 1 << 20);
}

#[test]
fn a_missing_program_is_an_error_not_a_result() {
    assert!(run(&Job::new("/nonexistent/oracle-test-program"), &limits(1000)).is_err());
}
