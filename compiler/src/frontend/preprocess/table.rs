//! The macro table: definitions keyed by the identity of the name's
//! interned spelling ([`name_key`]) instead of by its bytes.
//!
//! Every identifier the preprocessor reads is looked up here (most are no
//! macro), so the lookup must be cheap: hashing a word and comparing words
//! beats hashing the spelling and comparing it with `memcmp`. It is sound
//! because the preprocessor interns every identifier that reaches its input
//! (the lexer's, pasted ones, and the names it makes itself), so equal
//! spellings are one allocation; a token that is no identifier is never
//! interned as a macro name, so its lookup simply fails.

use super::super::token::{name_key, Text};
use super::MacroDef;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// See the module doc.
#[derive(Debug, Default)]
pub(super) struct MacroTable {
    /// By [`name_key`]; the interner keeps the spellings (and so the keys)
    /// alive. Shared so that an expansion holds its definition (while the
    /// table may change) for one reference count.
    map: FxHashMap<usize, Arc<MacroDef>>,
}

impl MacroTable {
    pub(super) fn with_capacity(n: usize) -> MacroTable {
        MacroTable {
            map: FxHashMap::with_capacity_and_hasher(n, Default::default()),
        }
    }

    /// The definition of the interned name `name`.
    #[inline]
    pub(super) fn get(&self, name: &Text) -> Option<&MacroDef> {
        self.map.get(&name_key(name)).map(|d| &**d)
    }

    /// [`Self::get`], to hold on to.
    #[inline]
    pub(super) fn get_shared(&self, name: &Text) -> Option<Arc<MacroDef>> {
        self.map.get(&name_key(name)).cloned()
    }

    #[inline]
    pub(super) fn contains(&self, name: &Text) -> bool {
        self.map.contains_key(&name_key(name))
    }

    pub(super) fn insert(&mut self, name: &Text, def: MacroDef) {
        self.map.insert(name_key(name), Arc::new(def));
    }

    pub(super) fn remove(&mut self, name: &Text) {
        self.map.remove(&name_key(name));
    }
}

#[cfg(test)]
mod tests {
    use super::super::Builtin;
    use super::*;
    use crate::frontend::intern::Interner;

    #[test]
    fn equal_spellings_find_one_definition_however_they_were_read() {
        let mut i = Interner::with_capacity(1);
        let mut m = MacroTable::default();
        m.insert(&i.intern(b"FOO"), MacroDef::Builtin(Builtin::Line));
        // The table grows the interner past its first size: the name keeps
        // its identity.
        for n in 0..500 {
            i.intern(format!("x{n}").as_bytes());
        }
        let again = i.intern(b"FOO");
        assert!(matches!(m.get(&again), Some(MacroDef::Builtin(Builtin::Line))));
        assert!(!m.contains(&i.intern(b"FOO2")) && !m.contains(&i.intern(b"FO")));
        // A spelling that was not interned is no macro name.
        assert!(!m.contains(&Text::from(&b"FOO"[..])));
        m.remove(&again);
        assert!(!m.contains(&i.intern(b"FOO")));
    }
}
