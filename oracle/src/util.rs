//! Small helpers shared by the harness: content hashes (64-bit FNV-1a, for
//! output comparison and deduplication, not security), shell quoting for the
//! exact commands a finding records, and atomic file writes (temporary file in
//! the same directory, fsync, rename) so a killed campaign never leaves half a
//! file behind.

use std::io::Write;
use std::path::Path;

/// 64-bit FNV-1a of `bytes`, as 16 hex digits.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Quote one word for a POSIX shell (left bare when it is plainly safe).
pub fn shell_quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A command line a person can paste into a shell: `VAR=value prog arg...`.
pub fn command_line(env: &[(String, String)], program: &str, args: &[String]) -> String {
    let mut words: Vec<String> = env.iter().map(|(k, v)| format!("{k}={}", shell_quote(v))).collect();
    words.push(shell_quote(program));
    words.extend(args.iter().map(|a| shell_quote(a)));
    words.join(" ")
}

/// Write `contents` to `path` atomically (a temporary in the same directory, fsync, rename).
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Append one line to a journal file with a single `write` and an fsync, so
/// that a kill leaves either the whole line or none of it. A torn last line
/// left by an earlier crash (no trailing newline) is closed off first so the
/// new line stays parseable.
pub fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    debug_assert!(!line.contains('\n'));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)?;
    let len = f.metadata()?.len();
    let mut buf = String::with_capacity(line.len() + 2);
    if len > 0 {
        let mut last = [0u8; 1];
        f.seek(SeekFrom::Start(len - 1))?;
        f.read_exact(&mut last)?;
        if last[0] != b'\n' {
            buf.push('\n');
        }
    }
    buf.push_str(line);
    buf.push('\n');
    f.write_all(buf.as_bytes())?;
    f.sync_data()?;
    Ok(())
}

/// The lines of a journal that parse as `T` (torn or foreign lines are skipped).
pub fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> std::io::Result<Vec<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    Ok(text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(content_hash(b""), "cbf29ce484222325");
        assert_eq!(content_hash(b"a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn quoting_survives_the_shell() {
        let words = ["plain", "two words", "it's", "", "$HOME"];
        let line = words.iter().map(|w| shell_quote(w)).collect::<Vec<_>>().join(" ");
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("for w in {line}; do printf '[%s]' \"$w\"; done"))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "[plain][two words][it's][][$HOME]"
        );
    }

    #[test]
    fn journal_lines_survive_a_torn_tail() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j.jsonl");
        append_line(&p, r#"{"a":1}"#).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(br#"{"a":"#)
            .unwrap();
        append_line(&p, r#"{"a":2}"#).unwrap();
        let v: Vec<serde_json::Value> = read_jsonl(&p).unwrap();
        assert_eq!(v, vec![serde_json::json!({"a":1}), serde_json::json!({"a":2})]);
    }
}
