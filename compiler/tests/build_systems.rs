//! Make-based projects build with phicc as their `CC`, their build systems
//! unchanged (issue 16): zlib's `configure` + `make test` and Lua's own
//! `makefile` (`make CC=phicc`), from the unmodified snapshots in
//! `../shared/realprogs/`, on the host target. `phicc` is found on `PATH`
//! (a directory holding a link to the driver under test), as a user would
//! have it, so every command line is the build system's own: zlib's configure
//! probes the compiler (`-v`, shared-library flags) and builds a shared
//! library too, Lua's makefile passes its `-O2`, its warning flags and
//! `-Wl,-E`.
//!
//! The checks are the programs' own: zlib's `make test` prints `*** zlib
//! test OK ***` for the static, shared and 64-bit-offset builds; Lua's test
//! files (`testes/*.lua`, the quick ones that run alone) end by printing
//! `OK`. A short Lua script prints values known independently (fib(20),
//! pi to 3 places, ...). The whole suite, on three targets in every
//! configuration against gcc -O0's builds, is `scripts/realprogs.sh`.

#[path = "support/shared_dir.rs"]
mod shared_dir;

use phicc_runner::{Job, Limits, Termination};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A scratch directory with `bin/phicc` linked to the driver under test.
fn scratch() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_phicc"), bin.join("phicc")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    (tmp, path)
}

/// The snapshot `<prefix>*.tar.gz`, extracted into `dir`: its top directory.
fn extract(prefix: &str, dir: &Path) -> PathBuf {
    let sources = shared_dir::shared_dir("realprogs");
    let tarball = std::fs::read_dir(&sources)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the snapshots are expected beside the repository)",
                sources.display()
            )
        })
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(prefix) && n.ends_with(".tar.gz")
        })
        .unwrap_or_else(|| panic!("no {prefix}*.tar.gz in {}", sources.display()));
    let out = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "tar: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.is_dir() && p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .expect("the snapshot's top directory")
}

/// Runs `sh -c command` in `dir` with `PATH` (contained: process group, a
/// deadline); returns its standard output and error, asserting exit 0.
fn sh(dir: &Path, path: &str, command: &str, secs: u64) -> String {
    let job = Job::new("sh").arg("-c").arg(command).cwd(dir).env("PATH", path);
    let limits = Limits {
        address_space: None,
        file_size: 1 << 30,
        output_cap: 16 << 20,
        ..Limits::with_timeout(Duration::from_secs(secs))
    };
    let r = phicc_runner::run(&job, &limits).unwrap();
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&r.stdout.bytes),
        String::from_utf8_lossy(&r.stderr.bytes)
    );
    let tail: String = out
        .lines()
        .rev()
        .take(30)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        r.termination,
        Termination::Exited(0),
        "`{command}` in {}: {}\n{tail}",
        dir.display(),
        r.termination.describe()
    );
    out
}

#[test]
fn zlib_configure_and_make_test_with_cc_phicc() {
    let (tmp, path) = scratch();
    let zlib = extract("zlib-", tmp.path());
    let configured = sh(&zlib, &path, "CC=phicc ./configure", 300);
    // configure took phicc for gcc-compatible (`phicc -v` names gcc): the
    // shared library is built with gcc's flags.
    assert!(
        configured.contains("Building shared library") && configured.contains("with phicc"),
        "{configured}"
    );
    let made = sh(&zlib, &path, "make -j2 test", 900);
    assert!(made.contains("phicc -O3"), "make did not compile with phicc:\n{made}");
    assert!(
        made.contains("phicc -shared"),
        "no shared library linked by phicc:\n{made}"
    );
    for banner in [
        "*** zlib test OK ***",
        "*** zlib shared test OK ***",
        "*** zlib 64-bit test OK ***",
    ] {
        assert!(made.contains(banner), "no `{banner}` in:\n{made}");
    }
}

/// Lua's test files that run alone in a few seconds; each ends by printing `OK`.
const LUA_TESTES: &[&str] = &[
    "bitwise", "calls", "closure", "events", "literals", "math", "nextvar", "strings", "tpack", "vararg",
];

#[test]
fn lua_makefile_with_cc_phicc() {
    let (tmp, path) = scratch();
    let lua = extract("lua-", tmp.path());
    let made = sh(&lua, &path, "make -j2 CC=phicc", 900);
    // The makefile's own flags reached phicc: its -O2 and warnings, its -Wl,-E.
    assert!(made.contains("phicc -Wall -O2"), "{made}");
    assert!(made.contains("phicc -o lua -Wl,-E"), "{made}");
    let testes = lua.join("testes");
    for t in LUA_TESTES {
        let out = sh(&testes, &path, &format!("../lua -e_port=true {t}.lua"), 300);
        assert_eq!(
            out.lines().rev().find(|l| !l.trim().is_empty()).map(str::trim),
            Some("OK"),
            "testes/{t}.lua:\n{out}"
        );
    }
    let script = "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end \
                  print(fib(20), string.format('%.3f', math.pi), ('ab'):rep(3), 7 // 2, 2^10, #{1, 2, 3})";
    let out = sh(&lua, &path, &format!("./lua -e \"{script}\""), 60);
    assert_eq!(out, "6765\t3.142\tababab\t3\t1024.0\t3\n");
}
