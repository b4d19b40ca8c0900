//! Duplicate-attribute detection that stays linear and allocation-free.
//!
//! The standard drops an attribute whose name the tag already has. Most tags
//! have a handful of attributes, where comparing with each is fastest; a tag
//! with thousands (a real attack on crawlers) must not cost a quadratic
//! number of comparisons. Past a threshold this index switches to an
//! open-addressing hash table of attribute positions. The table's memory is
//! kept and reused from tag to tag.
//!
//! Hashing: a seeded multiply-fold hash, a few instructions per 8 bytes of
//! name. SipHash (std's `RandomState`) dominated the time of a tag with a
//! million attributes, and the fold hash made that case several times as
//! fast. A fast hash is weaker against names crafted to collide, so
//! a probe sequence longer than `LONG_PROBE` (which random names reach with
//! negligible probability at our load factor of at most 1/2) switches the
//! index to SipHash for the rest of the tokenizer's life: crafted input
//! costs one rebuild, never a quadratic number of probes.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// Attribute count from which the hash table is used.
pub(crate) const THRESHOLD: usize = 8;

/// Probe length beyond which the fast hash is taken to be under attack.
const LONG_PROBE: usize = 48;

pub(crate) struct AttrIndex {
    /// Open-addressing table: 0 is empty, else the name's 32-bit hash in the
    /// high half and `i + 1` for the attribute at `i` in the low half. The
    /// hash gives the home slot (so the table can grow without hashing any
    /// name again) and lets a probe skip other names without touching their
    /// records.
    slots: Vec<u64>,
    /// The table `grow` moved out of, kept for the next growth: without it
    /// every tag that outgrows the smallest table allocated a new one
    /// (a page of 40-attribute tags cost one allocation per tag).
    spare: Vec<u64>,
    /// Occupied slots. Not always the attribute count: a name recorded for
    /// an attribute that a limit then dropped keeps its slot until the next
    /// rebuild.
    used: usize,
    /// Whether `slots` describes the current tag.
    active: bool,
    hasher: Hasher,
    /// Slots visited and entries moved, in all: the operation count the
    /// tests hold linear in the number of names.
    #[cfg(test)]
    work: usize,
}

/// The hash of attribute names: fast and seeded, or SipHash once a probe
/// sequence was suspiciously long.
enum Hasher {
    Fold {
        seed: u64,
    },
    Sip(RandomState),
    /// Every name collides: how the tests play the attacker.
    #[cfg(test)]
    Constant,
}

const K0: u64 = 0x9E37_79B9_7F4A_7C15;
const K1: u64 = 0xD6E8_FEB8_6659_FD93;

/// The high and low halves of a 64×64-bit product, xored: every input bit
/// reaches every output bit in one multiplication.
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

impl Hasher {
    fn hash32(&self, name: &[u8]) -> u32 {
        match self {
            Hasher::Fold { seed } => {
                let mut h = seed ^ (name.len() as u64).wrapping_mul(K0);
                let mut chunks = name.chunks_exact(8);
                for chunk in &mut chunks {
                    let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
                    h = fold_mul(h ^ word, K1);
                }
                let rest = chunks.remainder();
                if !rest.is_empty() {
                    let mut word = [0u8; 8];
                    word[..rest.len()].copy_from_slice(rest);
                    h = fold_mul(h ^ u64::from_le_bytes(word), K1);
                }
                (fold_mul(h, K0 ^ seed) >> 32) as u32
            }
            Hasher::Sip(state) => (state.hash_one(name) >> 32) as u32,
            #[cfg(test)]
            Hasher::Constant => 7,
        }
    }
}

impl AttrIndex {
    pub(crate) fn new() -> AttrIndex {
        AttrIndex {
            slots: Vec::new(),
            spare: Vec::new(),
            used: 0,
            active: false,
            // `RandomState` is std's source of a per-process random seed.
            hasher: Hasher::Fold {
                seed: RandomState::new().hash_one(0x0068_746d_6c74_6f6b_u64) | 1,
            },
            #[cfg(test)]
            work: 0,
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
        if !self.active {
            self.rebuild_from_names(count, &name_of);
        } else if (self.used + 1) * 2 > self.slots.len() {
            self.grow(count);
        }
        let hash = self.hasher.hash32(name);
        let mask = self.slots.len() - 1;
        let tag = u64::from(hash) << 32;
        let mut at = hash as usize & mask;
        let mut probes = 0;
        loop {
            #[cfg(test)]
            {
                self.work += 1;
            }
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
            probes += 1;
            if probes == LONG_PROBE && !matches!(self.hasher, Hasher::Sip(_)) {
                // Names that collide this much were made to: from here on,
                // a hash they cannot predict.
                self.hasher = Hasher::Sip(RandomState::new());
                self.rebuild_from_names(count, &name_of);
                return self.is_duplicate(name, count, name_of);
            }
        }
    }

    /// A table of `size` empty slots, `size` a power of two holding `count`
    /// names at a load of at most 1/4.
    fn reset(&mut self, count: usize) {
        let size = (count * 4).next_power_of_two().max(64);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.used = 0;
    }

    /// Puts a slot value into the table (known not to be there yet).
    fn place(&mut self, slot: u64) {
        let mask = self.slots.len() - 1;
        let mut at = (slot >> 32) as usize & mask;
        while self.slots[at] != 0 {
            #[cfg(test)]
            {
                self.work += 1;
            }
            at = (at + 1) & mask;
        }
        self.slots[at] = slot;
        self.used += 1;
        #[cfg(test)]
        {
            self.work += 1;
        }
    }

    /// Fills a fresh table with the tag's attributes so far.
    fn rebuild_from_names<'n>(
        &mut self,
        count: usize,
        name_of: &impl Fn(usize) -> Option<&'n [u8]>,
    ) {
        self.reset(count);
        for i in 0..count {
            let Some(name) = name_of(i) else { continue };
            let hash = self.hasher.hash32(name);
            self.place(u64::from(hash) << 32 | (i as u64 + 1));
        }
        self.active = true;
    }

    /// Moves the entries into a table sized for `count`, from the hashes
    /// they carry: no name is read or hashed again. Entries of names that
    /// were recorded but never kept (index `count` or more) are left out.
    fn grow(&mut self, count: usize) {
        let old = std::mem::replace(&mut self.slots, std::mem::take(&mut self.spare));
        self.reset(count);
        for &slot in &old {
            if slot != 0 && ((slot as u32) as usize) <= count {
                self.place(slot);
            }
        }
        self.spare = old;
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

    #[test]
    fn colliding_names_switch_to_siphash() {
        let mut index = AttrIndex::new();
        index.hasher = Hasher::Constant;
        let names: Vec<Vec<u8>> = (0..20_000).map(|i| format!("c{i}").into_bytes()).collect();
        for (i, name) in names.iter().enumerate() {
            let dup = index.is_duplicate(name, i, |j| names.get(j).map(|n| n.as_slice()));
            assert!(!dup, "attribute {i}");
        }
        assert!(matches!(index.hasher, Hasher::Sip(_)));
        for (i, name) in names.iter().enumerate().step_by(97) {
            let dup = index.is_duplicate(name, names.len(), |j| names.get(j).map(|n| n.as_slice()));
            assert!(dup, "attribute {i}");
        }
    }

    #[test]
    fn growing_keeps_every_name() {
        // Names of every length class of the hash (whole words and tails).
        let names: Vec<Vec<u8>> = (0..3000)
            .map(|i| format!("{}{i}", "n".repeat(i % 19)).into_bytes())
            .collect();
        let mut index = AttrIndex::new();
        for (i, name) in names.iter().enumerate() {
            assert!(!index.is_duplicate(name, i, |j| names.get(j).map(|n| n.as_slice())));
        }
        for name in &names {
            assert!(index.is_duplicate(name, names.len(), |j| names.get(j).map(|n| n.as_slice())));
        }
    }

    #[test]
    fn operations_are_linear_in_the_names() {
        // The adversarial tests time a tag of two million attributes; its
        // wall-clock time is memory-bound, this is its operation count.
        for n in [10_000usize, 1_000_000] {
            let names: Vec<Vec<u8>> = (0..n).map(|i| format!("a{i}").into_bytes()).collect();
            let mut index = AttrIndex::new();
            for (i, name) in names.iter().enumerate() {
                assert!(!index.is_duplicate(name, i, |j| names.get(j).map(|n| n.as_slice())));
            }
            for name in names.iter().step_by(3) {
                assert!(index.is_duplicate(name, n, |j| names.get(j).map(|n| n.as_slice())));
            }
            let per_name = index.work as f64 / (n + n / 3) as f64;
            assert!(per_name < 6.0, "{n} names: {per_name:.2} slots per lookup");
        }
        // Crafted collisions: one switch of hash, then linear again.
        let names: Vec<Vec<u8>> = (0..100_000).map(|i| format!("c{i}").into_bytes()).collect();
        let mut index = AttrIndex::new();
        index.hasher = Hasher::Constant;
        for (i, name) in names.iter().enumerate() {
            assert!(!index.is_duplicate(name, i, |j| names.get(j).map(|n| n.as_slice())));
        }
        let per_name = index.work as f64 / names.len() as f64;
        assert!(per_name < 6.0, "crafted: {per_name:.2} slots per lookup");
    }
}
