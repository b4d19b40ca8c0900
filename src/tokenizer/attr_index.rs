//! Duplicate-attribute detection that stays linear and allocation-free.
//!
//! The standard drops an attribute whose name the tag already has. Most tags
//! have a handful of attributes, where comparing with each is fastest; a tag
//! with thousands (a real attack on crawlers) must not cost a quadratic
//! number of comparisons. Past a threshold this index switches to an
//! open-addressing hash table of attribute positions, keyed with a
//! randomly seeded hash so that crafted names cannot force collisions. The
//! table's memory is kept and reused from tag to tag.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// Attribute count from which the hash table is used.
const THRESHOLD: usize = 8;

pub(crate) struct AttrIndex {
    /// Open-addressing table: 0 is empty, else the name's hash in the high
    /// 32 bits and `i + 1` for the attribute at `i` in the low 32 bits. The
    /// hash lets a probe skip other names without touching their records,
    /// which for a tag of millions of attributes means one cache miss per
    /// lookup instead of three.
    slots: Vec<u64>,
    /// Occupied slots. Not always the attribute count: a name recorded for
    /// an attribute that a limit then dropped keeps its slot until the next
    /// rebuild.
    used: usize,
    /// Whether `slots` describes the current tag.
    active: bool,
    hasher: RandomState,
}

impl AttrIndex {
    pub(crate) fn new() -> AttrIndex {
        AttrIndex {
            slots: Vec::new(),
            used: 0,
            active: false,
            hasher: RandomState::new(),
        }
    }

    /// Forgets the previous tag's attributes.
    pub(crate) fn clear(&mut self) {
        self.active = false;
    }

    /// Whether `name` is the name of one of the `count` attributes the tag
    /// has (`name_of(i)` gives the i-th, or `None` if it was not kept). If
    /// not, `name` is recorded as attribute number `count`.
    pub(crate) fn is_duplicate<'n>(
        &mut self,
        name: &[u8],
        count: usize,
        name_of: impl Fn(usize) -> Option<&'n [u8]>,
    ) -> bool {
        if count < THRESHOLD {
            return (0..count).any(|i| name_of(i) == Some(name));
        }
        if !self.active || (self.used + 1) * 2 > self.slots.len() {
            self.rebuild(count, &name_of);
        }
        let mask = self.slots.len() - 1;
        let hash = self.hasher.hash_one(name);
        let tag = hash >> 32 << 32;
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                0 => {
                    self.slots[at] = tag | (count as u64 + 1);
                    self.used += 1;
                    return false;
                }
                slot => {
                    if slot >> 32 << 32 == tag && name_of((slot as u32) as usize - 1) == Some(name)
                    {
                        return true;
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Sizes the table for at least twice `count` entries and fills it with
    /// the tag's attributes so far.
    fn rebuild<'n>(&mut self, count: usize, name_of: &impl Fn(usize) -> Option<&'n [u8]>) {
        let size = (count * 4).next_power_of_two().max(64);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.used = 0;
        let mask = size - 1;
        for i in 0..count {
            let Some(name) = name_of(i) else { continue };
            let hash = self.hasher.hash_one(name);
            let mut at = hash as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = (hash >> 32 << 32) | (i as u64 + 1);
            self.used += 1;
        }
        self.active = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_duplicates_below_and_above_the_threshold() {
        let mut index = AttrIndex::new();
        let mut names: Vec<Vec<u8>> = Vec::new();
        for i in 0..5000 {
            let name = format!("a{}", i % 2500).into_bytes();
            let dup =
                index.is_duplicate(&name, names.len(), |j| names.get(j).map(|n| n.as_slice()));
            assert_eq!(dup, i >= 2500, "attribute {i}");
            if !dup {
                names.push(name);
            }
        }
        index.clear();
        assert!(!index.is_duplicate(b"a1", 0, |_| None));
    }

    #[test]
    fn names_recorded_but_never_kept_do_not_fill_the_table() {
        // A limit keeps 10 attributes; every later name is recorded as
        // number 10 and dropped. The table must keep working.
        let kept: Vec<Vec<u8>> = (0..10).map(|i| format!("k{i}").into_bytes()).collect();
        let mut index = AttrIndex::new();
        for i in 0..100_000 {
            let name = format!("x{i}").into_bytes();
            assert!(!index.is_duplicate(&name, kept.len(), |j| kept.get(j).map(|n| n.as_slice())));
        }
        assert!(index.is_duplicate(b"k3", kept.len(), |j| kept.get(j).map(|n| n.as_slice())));
    }
}
