//! Scopes and name spaces (C11 6.2.1, 6.2.3): a stack of block scopes, each
//! with its ordinary identifiers (objects, functions, typedef names, enum
//! constants) and its tags (struct, union, enum). Labels are per function
//! (`FuncCx` in `mod.rs`) and members per record (`TypeContext`), so they
//! need no entry here. Scope 0 is file scope. Block-scope names share one
//! map with an undo log per block (see [`Scopes`]).

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

/// The scope stack. Ordinary identifiers are looked up far more often than
/// declared, so each is one hash probe or two, however deep the nesting: file
/// scope has its map, and block scopes share one map of each name's
/// innermost block declaration, with a log per open block of what its
/// declarations replaced (restored when it closes). Tags, rarer, keep a map
/// per scope.
pub(super) struct Scopes {
    file: FxHashMap<Name, Ordinary>,
    /// Per name, its innermost block-scope declaration and that block's depth.
    block: FxHashMap<Name, (usize, Ordinary)>,
    /// Per open block (depth 1 first): the names declared in it and what
    /// `block` held for each before.
    undo: Vec<Vec<(Name, Option<(usize, Ordinary)>)>>,
    /// Per scope, file scope first.
    tags: Vec<FxHashMap<Name, Tag>>,
}

impl Scopes {
    pub(super) fn new() -> Scopes {
        Scopes {
            file: FxHashMap::default(),
            block: FxHashMap::default(),
            undo: Vec::new(),
            tags: vec![FxHashMap::default()],
        }
    }

    /// The current scope's depth (0: file scope).
    fn depth(&self) -> usize {
        self.undo.len()
    }

    pub(super) fn push(&mut self) {
        self.undo.push(Vec::new());
        self.tags.push(FxHashMap::default());
    }

    pub(super) fn pop(&mut self) {
        let Some(log) = self.undo.pop() else { return };
        self.tags.pop();
        for (name, prev) in log {
            match prev {
                Some(p) => {
                    self.block.insert(name, p);
                }
                None => {
                    self.block.remove(&name);
                }
            }
        }
    }

    pub(super) fn at_file_scope(&self) -> bool {
        self.depth() == 0
    }

    /// The innermost declaration of an ordinary identifier.
    pub(super) fn lookup(&self, name: &str) -> Option<&Ordinary> {
        match self.block.get(name) {
            Some((_, o)) => Some(o),
            None => self.file.get(name),
        }
    }

    /// A declaration of `name` in the innermost scope only.
    pub(super) fn lookup_current(&self, name: &str) -> Option<&Ordinary> {
        match self.depth() {
            0 => self.file.get(name),
            d => self.block.get(name).filter(|(at, _)| *at == d).map(|(_, o)| o),
        }
    }

    pub(super) fn lookup_file(&self, name: &str) -> Option<&Ordinary> {
        self.file.get(name)
    }

    pub(super) fn declare(&mut self, name: Name, o: Ordinary) {
        let d = self.depth();
        if d == 0 {
            self.file.insert(name, o);
            return;
        }
        match self.block.get_mut(&name) {
            // A redeclaration in the same block: the log has the older state.
            Some((at, old)) if *at == d => *old = o,
            _ => {
                let prev = self.block.insert(name.clone(), (d, o));
                self.undo[d - 1].push((name, prev));
            }
        }
    }

    pub(super) fn declare_file(&mut self, name: Name, o: Ordinary) {
        self.file.insert(name, o);
    }

    pub(super) fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|s| s.get(name).copied())
    }

    pub(super) fn lookup_tag_current(&self, name: &str) -> Option<Tag> {
        self.tags.last().and_then(|s| s.get(name).copied())
    }

    pub(super) fn declare_tag(&mut self, name: Name, t: Tag) {
        if let Some(s) = self.tags.last_mut() {
            s.insert(name, t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(value: i128) -> Ordinary {
        Ordinary::EnumConst {
            value,
            ty: super::super::ty::int(),
        }
    }

    fn value(o: Option<&Ordinary>) -> Option<i128> {
        match o {
            Some(Ordinary::EnumConst { value, .. }) => Some(*value),
            _ => None,
        }
    }

    #[test]
    fn inner_declarations_hide_outer_ones_until_their_block_closes() {
        let mut s = Scopes::new();
        let x: Name = Arc::from("x");
        s.declare(x.clone(), k(0));
        s.push();
        assert_eq!(value(s.lookup("x")), Some(0));
        assert_eq!(value(s.lookup_current("x")), None);
        s.declare(x.clone(), k(1));
        s.push();
        s.declare(x.clone(), k(2));
        // A redeclaration in the same block replaces it there.
        s.declare(x.clone(), k(3));
        assert_eq!(value(s.lookup("x")), Some(3));
        assert_eq!(value(s.lookup_current("x")), Some(3));
        assert_eq!(value(s.lookup_file("x")), Some(0));
        s.pop();
        assert_eq!(value(s.lookup("x")), Some(1));
        assert_eq!(value(s.lookup_current("x")), Some(1));
        s.pop();
        assert_eq!(value(s.lookup("x")), Some(0));
        assert_eq!(value(s.lookup_current("x")), Some(0));
        assert!(s.at_file_scope());
        // Popping file scope does nothing.
        s.pop();
        assert_eq!(value(s.lookup("x")), Some(0));
    }

    #[test]
    fn file_declarations_from_a_block_outlive_it() {
        let mut s = Scopes::new();
        s.push();
        s.declare(Arc::from("y"), k(5));
        s.declare_file(Arc::from("f"), k(7));
        s.declare_file(Arc::from("y"), k(6));
        // The block's `y` still hides the file's.
        assert_eq!(value(s.lookup("y")), Some(5));
        assert_eq!(value(s.lookup_current("f")), None);
        s.pop();
        assert_eq!(value(s.lookup("f")), Some(7));
        assert_eq!(value(s.lookup("y")), Some(6));
        assert_eq!(value(s.lookup_current("y")), Some(6));
    }

    #[test]
    fn tags_are_scoped_too() {
        let mut s = Scopes::new();
        s.declare_tag(Arc::from("S"), Tag::Record(RecordId(0)));
        s.push();
        assert_eq!(s.lookup_tag("S"), Some(Tag::Record(RecordId(0))));
        assert_eq!(s.lookup_tag_current("S"), None);
        s.declare_tag(Arc::from("S"), Tag::Enum(EnumId(1)));
        assert_eq!(s.lookup_tag("S"), Some(Tag::Enum(EnumId(1))));
        s.pop();
        assert_eq!(s.lookup_tag("S"), Some(Tag::Record(RecordId(0))));
    }
}
