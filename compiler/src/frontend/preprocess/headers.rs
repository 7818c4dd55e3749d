//! Header search (C11 6.10.2): the compiler's own headers, embedded in the
//! binary with `include_str!` so `phicc` is self-contained, and the search
//! order `#include "..."` (the including file's directory, then the `<...>`
//! list) and `#include <...>` (`-I` directories, the compiler's headers, the
//! target's glibc directories) use. `#include_next` resumes the `<...>` list
//! after the directory where the current file was found (a GNU extension glibc's
//! `<limits.h>` relies on).

use std::path::{Path, PathBuf};

/// The compiler-provided headers: (name, contents).
pub const BUILTIN_HEADERS: &[(&str, &str)] = &[
    ("stddef.h", include_str!("../../../include/stddef.h")),
    ("stdarg.h", include_str!("../../../include/stdarg.h")),
    ("stdbool.h", include_str!("../../../include/stdbool.h")),
    ("stdalign.h", include_str!("../../../include/stdalign.h")),
    ("stdnoreturn.h", include_str!("../../../include/stdnoreturn.h")),
    ("stdatomic.h", include_str!("../../../include/stdatomic.h")),
    ("float.h", include_str!("../../../include/float.h")),
    ("limits.h", include_str!("../../../include/limits.h")),
];

/// The name diagnostics show for a built-in header.
pub const BUILTIN_DIR: &str = "<phicc-include>";

/// One entry of the `<...>` search list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchDir {
    Path(PathBuf),
    Builtin,
}

/// A header that was found: where, and its position in the search list (for `#include_next`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundHeader {
    /// Path (for built-ins: `<phicc-include>/name`), also the key for `#pragma once`.
    pub path: PathBuf,
    /// Index in the search list, or `None` when found relative to the including file.
    pub dir_index: Option<usize>,
    /// Contents when built-in.
    pub builtin: Option<&'static str>,
}

/// Looks `name` up in `dirs[start..]`.
pub fn search(dirs: &[SearchDir], start: usize, name: &str) -> Option<FoundHeader> {
    if name.is_empty() {
        return None;
    }
    if Path::new(name).is_absolute() {
        let p = PathBuf::from(name);
        return p.is_file().then_some(FoundHeader {
            path: p,
            dir_index: None,
            builtin: None,
        });
    }
    for (i, d) in dirs.iter().enumerate().skip(start) {
        match d {
            SearchDir::Path(dir) => {
                let p = dir.join(name);
                if p.is_file() {
                    return Some(FoundHeader {
                        path: p,
                        dir_index: Some(i),
                        builtin: None,
                    });
                }
            }
            SearchDir::Builtin => {
                if let Some((_, text)) = BUILTIN_HEADERS.iter().find(|(n, _)| *n == name) {
                    return Some(FoundHeader {
                        path: Path::new(BUILTIN_DIR).join(name),
                        dir_index: Some(i),
                        builtin: Some(text),
                    });
                }
            }
        }
    }
    None
}

/// Looks a quoted include up next to the including file first.
pub fn search_quoted(dirs: &[SearchDir], including_file: &str, name: &str) -> Option<FoundHeader> {
    // The `<built-in>` buffer's `-include` lines look in the working directory.
    let builtin_buffer = including_file == "<built-in>";
    if !name.is_empty()
        && (builtin_buffer || !including_file.starts_with(BUILTIN_DIR) && !including_file.starts_with('<'))
    {
        let dir = if builtin_buffer {
            Path::new("")
        } else {
            Path::new(including_file).parent().unwrap_or(Path::new(""))
        };
        let p = dir.join(name);
        if p.is_file() {
            return Some(FoundHeader {
                path: p,
                dir_index: None,
                builtin: None,
            });
        }
    }
    search(dirs, 0, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_headers_come_before_system_dirs() {
        let dirs = vec![SearchDir::Builtin, SearchDir::Path("/usr/include".into())];
        let f = search(&dirs, 0, "stddef.h").unwrap();
        assert_eq!(f.dir_index, Some(0));
        assert!(f.builtin.unwrap().contains("size_t"));
        // include_next from the built-in limits.h reaches glibc's.
        if Path::new("/usr/include/limits.h").exists() {
            let f = search(&dirs, 1, "limits.h").unwrap();
            assert_eq!(f.path, PathBuf::from("/usr/include/limits.h"));
        }
        assert!(search(&dirs, 0, "no/such/header.h").is_none());
        assert!(search(&dirs, 0, "").is_none());
    }
}
