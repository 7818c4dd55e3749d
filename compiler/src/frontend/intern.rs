//! Token spellings shared by value: the lexer gives every identifier and
//! pp-number of one preprocessing run (all its files) one `Text` per
//! distinct spelling, found in a `hashbrown::HashTable` keyed by a hash of
//! the bytes computed inline and compared without a library call (a
//! general hash map's hashing and `memcmp` call were a third of the
//! lexer's instructions).

use super::token::Text;
use hashbrown::HashTable;

/// See the module doc.
#[derive(Debug)]
pub struct Interner {
    /// Each spelling with its hash (kept for growing the table).
    table: HashTable<(u64, Text)>,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The first eight bytes of `s` (at least eight long).
#[inline(always)]
fn head(s: &[u8]) -> u64 {
    u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
}

/// The bytes of `s` (at most eight long) as a word, one-to-one for a given
/// length: the first and last four bytes (overlapping) from four on, the
/// first, middle and last below.
#[inline(always)]
fn tail(s: &[u8]) -> u64 {
    let n = s.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64;
        let hi = u32::from_le_bytes([s[n - 4], s[n - 3], s[n - 2], s[n - 1]]) as u64;
        lo | hi << 32
    } else if n > 0 {
        s[0] as u64 | (s[n / 2] as u64) << 8 | (s[n - 1] as u64) << 16
    } else {
        0
    }
}

/// A multiplicative hash of `s`, eight bytes at a time.
#[inline(always)]
fn hash(mut s: &[u8]) -> u64 {
    let mut h = (s.len() as u64).wrapping_mul(K);
    while s.len() > 8 {
        h = (h ^ head(s)).wrapping_mul(K);
        s = &s[8..];
    }
    (h ^ tail(s)).wrapping_mul(K)
}

/// Byte equality without a library call (spellings are short), a word at
/// a time.
#[inline(always)]
fn same(mut a: &[u8], mut b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    while a.len() > 8 {
        if head(a) != head(b) {
            return false;
        }
        a = &a[8..];
        b = &b[8..];
    }
    tail(a) == tail(b)
}

impl Default for Interner {
    fn default() -> Self {
        Interner::with_capacity(64)
    }
}

impl Interner {
    /// An interner with room for about `n` spellings before it grows.
    pub fn with_capacity(n: usize) -> Interner {
        Interner {
            table: HashTable::with_capacity(n),
        }
    }

    /// The shared spelling `s`.
    #[inline(always)]
    pub fn intern(&mut self, s: &[u8]) -> Text {
        // The table takes its bucket from the low bits, where a product
        // is weakest: rotate the strong high bits down.
        let h = hash(s).rotate_left(26);
        if let Some((_, t)) = self.table.find(h, |(g, t)| *g == h && same(t, s)) {
            return t.clone();
        }
        let text = Text::from(s);
        self.table.insert_unique(h, (h, text.clone()), |(g, _)| *g);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn equal_spellings_share_one_text_across_growth() {
        let mut i = Interner::with_capacity(1);
        let a = i.intern(b"abc");
        let names: Vec<Text> = (0..1000).map(|n| i.intern(format!("name_{n}").as_bytes())).collect();
        assert!(Arc::ptr_eq(&a, &i.intern(b"abc")));
        for (n, t) in names.iter().enumerate() {
            let again = i.intern(format!("name_{n}").as_bytes());
            assert!(Arc::ptr_eq(t, &again));
            assert_eq!(&**t, format!("name_{n}").as_bytes());
        }
        assert_eq!(&*i.intern(b""), b"");
        assert_eq!(
            &*i.intern(b"a_very_long_identifier_name"),
            b"a_very_long_identifier_name"
        );
        for s in [
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh12345678",
        ] {
            let t = i.intern(s.as_bytes());
            assert_eq!(&*t, s.as_bytes());
            assert!(Arc::ptr_eq(&t, &i.intern(s.as_bytes())));
        }
        assert!(same(b"abcdefghij", b"abcdefghij") && !same(b"abcdefghij", b"abcdefghik"));
        assert!(!same(b"aXc", b"abc") && !same(b"abcdX", b"abcdY") && !same(b"ab", b"abc"));
    }
}
