//! `#include` and `#include_next` (C11 6.10.2): header names, the search
//! (see `headers.rs`), `#pragma once`, and the include-guard shortcut: a file
//! wholly wrapped in `#ifndef G` ... `#endif` is not re-read while `G` is
//! defined, since it would expand to nothing.

use super::super::source::{Diagnostic, FileId, PResult};
use super::super::token::{Punct, Text, Token, TokenKind};
use super::headers::{self, search, search_quoted};
use super::{spell, Preprocessor, MAX_INCLUDE_DEPTH};

impl Preprocessor<'_> {
    pub(super) fn has_include(&self, t: &Token, args: &[Token]) -> bool {
        let Some((name, angled)) = header_name(args) else {
            return false;
        };
        self.find_header(&name, angled, t.is_ident("__has_include_next"))
            .is_some()
    }

    pub(super) fn find_header(&self, name: &str, angled: bool, next: bool) -> Option<headers::FoundHeader> {
        let cur = self.current_file();
        if next {
            let start = cur.and_then(|f| f.dir_index).map(|i| i + 1).unwrap_or(0);
            return search(&self.search_dirs, start, name);
        }
        if angled {
            search(&self.search_dirs, self.angled_start, name)
        } else {
            let from = cur.map(|f| f.path.to_string_lossy().into_owned()).unwrap_or_default();
            search_quoted(&self.search_dirs, &from, name)
        }
    }

    /// `#include` / `#include_next` (C11 6.10.2).
    pub(super) fn include(&mut self, hash: &Token, rest: &[Token], next: bool) -> PResult<()> {
        let (name, angled) = match header_name(rest) {
            Some(h) => h,
            None => {
                self.in_include_line = true;
                let expanded = self.expand_isolated(rest);
                self.in_include_line = false;
                let expanded = expanded?;
                header_name(&expanded)
                    .ok_or_else(|| Diagnostic::error(hash.span, "#include expects \"FILENAME\" or <FILENAME>"))?
            }
        };
        let span = rest.first().map(|t| t.span).unwrap_or(hash.span);
        let Some(found) = self.find_header(&name, angled, next) else {
            return Err(Diagnostic::error(span, format!("{name}: No such file or directory")));
        };
        if found.builtin.is_none() && self.dependency_set.insert(found.path.clone()) {
            // Found in a system directory, or next to a header found in one.
            let in_system = |i: Option<usize>| i.is_some_and(|i| i >= self.first_system);
            let system = match found.dir_index {
                Some(_) => in_system(found.dir_index),
                None => in_system(self.current_file().and_then(|f| f.dir_index)),
            };
            self.dependencies.push(super::Dependency {
                path: found.path.clone(),
                system,
            });
        }
        if self.once.contains(&found.path) {
            return Ok(());
        }
        if self.include_stack.len() > MAX_INCLUDE_DEPTH {
            return Err(Diagnostic::error(span, "#include nested too deeply"));
        }
        let file = match self.files.get(&found.path) {
            Some(&f) => f,
            None => {
                let bytes = match found.builtin {
                    Some(text) => text.as_bytes().to_vec(),
                    None => std::fs::read(&found.path)
                        .map_err(|e| Diagnostic::error(span, format!("{}: {}", found.path.display(), e)))?,
                };
                let f = self.sm.add_file(&found.path.to_string_lossy(), bytes);
                self.files.insert(found.path.clone(), f);
                f
            }
        };
        // A file wrapped in `#ifndef G ... #endif` whose G is defined would expand to nothing.
        if let Some(g) = self.include_guard(file)? {
            if self.macros.contains(&g) {
                return Ok(());
            }
        }
        self.enter_file(file, found.path, found.dir_index)
    }

    /// Detects `#ifndef G` / `#if !defined G` ... `#endif` around a whole file.
    pub(super) fn include_guard(&mut self, file: FileId) -> PResult<Option<Text>> {
        if let Some(g) = self.guards.get(&file) {
            return Ok(g.clone());
        }
        let toks = self.file_tokens(file)?;
        let g = find_include_guard(&toks);
        self.guards.insert(file, g.clone());
        Ok(g)
    }
}

pub(super) fn find_include_guard(toks: &[Token]) -> Option<Text> {
    let is_dir = |i: usize| toks.get(i).is_some_and(|t| t.is_punct(Punct::Hash) && t.at_bol);
    if !is_dir(0) {
        return None;
    }
    let name_at = |i: usize| toks.get(i).filter(|t| t.kind == TokenKind::Ident && !t.at_bol);
    let guard = if toks.get(1)?.is_ident("ifndef") {
        name_at(2)?.text.clone()
    } else if toks.get(1)?.is_ident("if") && toks.get(2)?.is_punct(Punct::Bang) && toks.get(3)?.is_ident("defined") {
        let n = if toks.get(4)?.is_punct(Punct::LParen) {
            name_at(5)?
        } else {
            name_at(4)?
        };
        n.text.clone()
    } else {
        return None;
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        if is_dir(i) {
            let word = toks.get(i + 1).filter(|t| !t.at_bol).map(|t| &*t.text).unwrap_or(b"");
            match word {
                b"if" | b"ifdef" | b"ifndef" => depth += 1,
                b"elif" | b"else" if depth == 1 => return None,
                b"endif" => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        // Only the rest of this line and the end of the file may follow.
                        let rest = toks[i + 1..].iter().skip(1).find(|t| t.at_bol)?;
                        return (rest.kind == TokenKind::Eof).then_some(guard);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// The header name of an `#include` line: `"name"` or `< tokens >`.
pub(super) fn header_name(toks: &[Token]) -> Option<(String, bool)> {
    let first = toks.first()?;
    if first.kind == TokenKind::Str && first.text.first() == Some(&b'"') && toks.len() == 1 {
        let t = &first.text;
        return Some((String::from_utf8_lossy(&t[1..t.len() - 1]).into_owned(), false));
    }
    if first.is_punct(Punct::Lt) {
        let close = toks.iter().position(|t| t.is_punct(Punct::Gt))?;
        if close + 1 != toks.len() {
            return None;
        }
        return Some((spell(&toks[1..close]), true));
    }
    None
}
