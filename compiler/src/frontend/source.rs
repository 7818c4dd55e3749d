//! Source files, spans and diagnostics.
//!
//! A [`SourceMap`] owns every file the compiler reads (the main file, every
//! header, and the synthetic buffers the preprocessor creates for `-D`
//! definitions, `#` stringizing and `##` pasting). Each file keeps its raw bytes
//! for quoting in diagnostics and a *cleaned* copy in which translation phase 2
//! (C11 5.1.1.2p1: every backslash-newline is deleted) has already happened; the
//! lexer only ever sees the cleaned copy. A [`Span`] is a byte range of a cleaned
//! copy; turning it into `file:line:col` maps the offset back through the list
//! of deleted splices, so columns and lines always refer to the file as the user
//! wrote it. `#line` directives register a remapping that changes the reported
//! file name and line number from a given offset onwards (C11 6.10.4).
//!
//! A [`Diagnostic`] renders as `file:line:col: error: message`, then the source
//! line and a caret under the offending column, like gcc and clang.

use std::fmt;
use std::sync::Arc;

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `[start, end)` in the cleaned text of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }
}

/// A `#line` remapping: from cleaned offset `offset` on, the physical line
/// `physical_line` is reported as `line`, in file `name`.
#[derive(Clone, Debug)]
struct LineRemap {
    offset: u32,
    physical_line: u32,
    line: u32,
    name: Arc<str>,
}

/// One file: its name, raw and cleaned bytes, and line tables.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: Arc<str>,
    /// The bytes as read, for quoting lines in diagnostics.
    pub raw: Vec<u8>,
    /// The bytes after deleting backslash-newline splices; what the lexer reads.
    pub text: Arc<[u8]>,
    /// `(cleaned offset, total raw bytes removed up to and including this splice)`.
    splices: Vec<(u32, u32)>,
    /// Raw offsets at which lines start (line 1 starts at 0).
    line_starts: Vec<u32>,
    remaps: Vec<LineRemap>,
}

/// A resolved source position (1-based line and column, column in bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

impl SourceFile {
    fn new(name: &str, raw: Vec<u8>) -> SourceFile {
        // Copy the runs between backslashes whole; only a backslash-newline
        // (C11 5.1.1.2 phase 2) is removed.
        let mut text = Vec::with_capacity(raw.len());
        let mut splices = Vec::new();
        let mut removed = 0u32;
        let mut i = 0;
        while let Some(k) = memchr::memchr(b'\\', &raw[i..]) {
            let at = i + k;
            text.extend_from_slice(&raw[i..at]);
            let n = if raw.get(at + 1) == Some(&b'\n') {
                2
            } else if raw.get(at + 1) == Some(&b'\r') && raw.get(at + 2) == Some(&b'\n') {
                3
            } else {
                0
            };
            if n > 0 {
                removed += n;
                splices.push((text.len() as u32, removed));
                i = at + n as usize;
            } else {
                text.push(b'\\');
                i = at + 1;
            }
        }
        text.extend_from_slice(&raw[i..]);
        let mut line_starts = Vec::with_capacity(raw.len() / 32 + 1);
        line_starts.push(0u32);
        line_starts.extend(memchr::memchr_iter(b'\n', &raw).map(|i| i as u32 + 1));
        SourceFile {
            name: Arc::from(name),
            raw,
            text: Arc::from(text),
            splices,
            line_starts,
            remaps: Vec::new(),
        }
    }

    /// Maps a cleaned offset to the raw offset.
    fn raw_offset(&self, clean: u32) -> u32 {
        // The last splice at or before `clean` tells how many bytes were removed before it.
        let idx = self.splices.partition_point(|&(off, _)| off <= clean);
        if idx == 0 {
            clean
        } else {
            clean + self.splices[idx - 1].1
        }
    }

    /// Physical (1-based line, 1-based column) of a cleaned offset.
    pub fn physical_line_col(&self, clean: u32) -> (u32, u32) {
        let raw = self.raw_offset(clean).min(self.raw.len() as u32);
        let line = self.line_starts.partition_point(|&s| s <= raw);
        let start = self.line_starts[line.max(1) - 1];
        (line as u32, raw - start + 1)
    }

    /// The raw text of physical line `line` (1-based), without its newline.
    pub fn line_text(&self, line: u32) -> &[u8] {
        if line == 0 {
            return &[];
        }
        let Some(&start) = self.line_starts.get(line as usize - 1) else {
            return &[];
        };
        let end = self
            .line_starts
            .get(line as usize)
            .map(|&e| e - 1)
            .unwrap_or(self.raw.len() as u32);
        let s = &self.raw[start as usize..(end as usize).max(start as usize)];
        s.strip_suffix(b"\r").unwrap_or(s)
    }
}

/// All files of one compilation.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file (or synthetic buffer) and returns its id.
    pub fn add_file(&mut self, name: &str, raw: Vec<u8>) -> FileId {
        self.files.push(SourceFile::new(name, raw));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Registers a `#line` directive: the line after the one containing cleaned
    /// offset `directive_end` is reported as `line` of `name`.
    pub fn add_line_remap(&mut self, file: FileId, directive_end: u32, line: u32, name: Option<&str>) {
        let f = &mut self.files[file.0 as usize];
        let (phys, _) = f.physical_line_col(directive_end);
        let name: Arc<str> = match name {
            Some(n) => Arc::from(n),
            None => f
                .remaps
                .last()
                .map(|r| r.name.clone())
                .unwrap_or_else(|| f.name.clone()),
        };
        f.remaps.push(LineRemap {
            offset: directive_end,
            physical_line: phys + 1,
            line,
            name,
        });
    }

    /// The presumed location of a span's start (honouring `#line`).
    pub fn location(&self, span: Span) -> Location {
        let Some(f) = self.files.get(span.file.0 as usize) else {
            return Location {
                file: Arc::from("<unknown>"),
                line: 0,
                col: 0,
            };
        };
        let (line, col) = f.physical_line_col(span.start);
        let idx = f.remaps.partition_point(|r| r.offset <= span.start);
        if idx == 0 {
            return Location {
                file: f.name.clone(),
                line,
                col,
            };
        }
        let r = &f.remaps[idx - 1];
        let line = (line as i64 - r.physical_line as i64 + r.line as i64).max(0) as u32;
        Location {
            file: r.name.clone(),
            line,
            col,
        }
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One message about the program, anchored at a span (or nowhere, for errors
/// such as a missing input file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Option<Span>,
    pub message: String,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span: Some(span),
            message: message.into(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            span: Some(span),
            message: message.into(),
        }
    }

    /// An error with no source position (e.g. a file that cannot be read).
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span: None,
            message: message.into(),
        }
    }

    /// Renders as `file:line:col: error: message`, the source line and a caret.
    pub fn render(&self, sm: &SourceMap) -> String {
        let Some(span) = self.span else {
            return format!("phicc: {}: {}\n", self.severity.word(), self.message);
        };
        let loc = sm.location(span);
        let mut out = format!("{}: {}: {}\n", loc, self.severity.word(), self.message);
        if let Some(f) = sm.files.get(span.file.0 as usize) {
            let (line, col) = f.physical_line_col(span.start);
            let text = f.line_text(line);
            if !text.is_empty() {
                let text = String::from_utf8_lossy(text);
                out.push_str(&text);
                out.push('\n');
                // Tabs are kept so the caret lines up in a terminal.
                let pad: String = text
                    .chars()
                    .take(col as usize - 1)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                out.push_str(&pad);
                out.push_str("^\n");
            }
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.word(), self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// The result type of every frontend phase.
pub type PResult<T> = Result<T, Diagnostic>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_map_back_to_raw_lines() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("a.c", b"int a\\\n  b;\nx".to_vec());
        let text = sm.file(f).text.clone();
        assert_eq!(&text[..], b"int a  b;\nx");
        // 'b' is at cleaned offset 7, raw line 2 col 3.
        let loc = sm.location(Span::new(f, 7, 8));
        assert_eq!((loc.line, loc.col), (2, 3));
        let loc = sm.location(Span::new(f, 10, 11));
        assert_eq!((loc.line, loc.col), (3, 1));
    }

    #[test]
    fn renders_caret_under_column() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.c", b"int x;\n  int = 3;\n".to_vec());
        let d = Diagnostic::error(Span::new(f, 13, 14), "expected identifier");
        assert_eq!(
            d.render(&sm),
            "t.c:2:7: error: expected identifier\n  int = 3;\n      ^\n"
        );
    }

    #[test]
    fn line_directive_remaps() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.c", b"#line 100 \"x.c\"\na\nb\n".to_vec());
        sm.add_line_remap(f, 15, 100, Some("x.c"));
        let loc = sm.location(Span::new(f, 18, 19));
        assert_eq!(loc.to_string(), "x.c:101:1");
    }

    #[test]
    fn out_of_range_span_does_not_panic() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("t.c", b"ab".to_vec());
        let d = Diagnostic::error(Span::new(f, 50, 51), "m");
        assert!(d.render(&sm).starts_with("t.c:1:"));
        let d = Diagnostic::error(Span::new(FileId(9), 0, 1), "m");
        assert!(d.render(&sm).contains("<unknown>"));
    }
}
