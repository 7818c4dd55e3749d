//! Scopes and name spaces (C11 6.2.1, 6.2.3): a stack of block scopes, each
//! with its ordinary identifiers (objects, functions, typedef names, enum
//! constants) and its tags (struct, union, enum). Labels are per function
//! (`FuncCx` in `mod.rs`) and members per record (`TypeContext`), so they
//! need no entry here. Scope 0 is file scope.

use super::super::hir::{GlobalId, LocalId};
use super::super::types::{EnumId, QualType, RecordId};
use rustc_hash::FxHashMap;
use std::sync::Arc;

pub(super) type Name = Arc<str>;

/// What an object name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ObjRef {
    Local(LocalId),
    Global(GlobalId),
    /// A parameter of a prototype that is not a definition: only its type
    /// matters (it may appear in the size of a VLA parameter, `int a[n]`).
    ProtoParam,
}

#[derive(Clone, Debug)]
pub(super) enum Ordinary {
    Object {
        obj: ObjRef,
        ty: QualType,
    },
    Typedef {
        ty: QualType,
        /// `__attribute__((aligned(n)))` on the typedef.
        align: Option<u64>,
        /// Set for types we cannot represent (GNU vector types): using the
        /// typedef is an error with this message.
        unsupported: Option<&'static str>,
    },
    EnumConst {
        value: i128,
        ty: QualType,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    Record(RecordId),
    Enum(EnumId),
}

#[derive(Default)]
struct Scope {
    ordinary: FxHashMap<Name, Ordinary>,
    tags: FxHashMap<Name, Tag>,
}

/// The scope stack.
pub(super) struct Scopes {
    stack: Vec<Scope>,
}

impl Scopes {
    pub(super) fn new() -> Scopes {
        Scopes {
            stack: vec![Scope::default()],
        }
    }

    pub(super) fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub(super) fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    pub(super) fn at_file_scope(&self) -> bool {
        self.stack.len() == 1
    }

    /// The innermost declaration of an ordinary identifier.
    pub(super) fn lookup(&self, name: &str) -> Option<&Ordinary> {
        self.stack.iter().rev().find_map(|s| s.ordinary.get(name))
    }

    /// A declaration of `name` in the innermost scope only.
    pub(super) fn lookup_current(&self, name: &str) -> Option<&Ordinary> {
        self.stack.last().and_then(|s| s.ordinary.get(name))
    }

    pub(super) fn lookup_file(&self, name: &str) -> Option<&Ordinary> {
        self.stack[0].ordinary.get(name)
    }

    pub(super) fn declare(&mut self, name: Name, o: Ordinary) {
        if let Some(s) = self.stack.last_mut() {
            s.ordinary.insert(name, o);
        }
    }

    pub(super) fn declare_file(&mut self, name: Name, o: Ordinary) {
        self.stack[0].ordinary.insert(name, o);
    }

    pub(super) fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.stack.iter().rev().find_map(|s| s.tags.get(name).copied())
    }

    pub(super) fn lookup_tag_current(&self, name: &str) -> Option<Tag> {
        self.stack.last().and_then(|s| s.tags.get(name).copied())
    }

    pub(super) fn declare_tag(&mut self, name: Name, t: Tag) {
        if let Some(s) = self.stack.last_mut() {
            s.tags.insert(name, t);
        }
    }
}
