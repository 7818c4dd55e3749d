//! Token spellings shared by value: the lexer gives every identifier and
//! pp-number of one preprocessing run (all its files) one `Text` per
//! distinct spelling, found in an open-addressing table keyed by a hash of
//! the bytes computed inline (a general hash map's hashing, probing and
//! `memcmp` call were a third of the lexer's instructions).

use super::token::Text;

/// See the module doc.
#[derive(Debug)]
pub struct Interner {
    /// Power-of-two length; at most half full.
    slots: Vec<Slot>,
    len: usize,
    /// `64 - log2(slots.len())`: the hash's top bits index the table.
    shift: u32,
}

#[derive(Clone, Debug, Default)]
struct Slot {
    hash: u64,
    text: Option<Text>,
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
        let slots = (n * 2).next_power_of_two().max(16);
        Interner {
            slots: vec![Slot::default(); slots],
            len: 0,
            shift: 64 - slots.trailing_zeros(),
        }
    }

    /// The shared spelling `s`.
    #[inline(always)]
    pub fn intern(&mut self, s: &[u8]) -> Text {
        let h = hash(s);
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let slot = &self.slots[i];
            match &slot.text {
                None => break,
                Some(t) if slot.hash == h && same(t, s) => return t.clone(),
                Some(_) => i = (i + 1) & mask,
            }
        }
        let text = Text::from(s);
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
            i = self.free_slot(h);
        }
        self.slots[i] = Slot {
            hash: h,
            text: Some(text.clone()),
        };
        self.len += 1;
        text
    }

    fn free_slot(&self, h: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        while self.slots[i].text.is_some() {
            i = (i + 1) & mask;
        }
        i
    }

    #[cold]
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); n]);
        self.shift -= 1;
        for s in old {
            if s.text.is_some() {
                let i = self.free_slot(s.hash);
                self.slots[i] = s;
            }
        }
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
