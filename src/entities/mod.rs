//! Named character references: the standard's table of names (`amp;`,
//! `notin;`, ...) and the one operation the tokenizer needs from it, finding
//! the longest name that begins the bytes after an `&`.
//!
//! The table lives in `table.rs`, generated from the WHATWG `entities.json`
//! by `cargo xtask gen-entities`. Deciding
//! what to do with a match (the missing-semicolon error, the attribute-value
//! exception for `=` and alphanumerics) is the tokenizer's business, not
//! this module's.

use std::sync::OnceLock;

mod table;

use table::ENTITIES;

/// Length in bytes of the longest name in the table, including its `;`
/// (`CounterClockwiseContourIntegral;`). No match can be longer, so callers
/// never need to look further than this many bytes past the `&`.
pub(crate) const LONGEST_NAME: usize = 32;

/// A named character reference found at the start of some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NamedMatch {
    /// Bytes of the name that matched, not counting the `&`; includes the
    /// final `;` when the matched table name ends with one.
    pub(crate) len: usize,
    /// The characters the reference stands for (one or two code points).
    pub(crate) value: &'static str,
}

/// Length in bytes of the longest legacy name (a name without `;`:
/// `middot`, `brvbar`, ...), the only names that can match where the
/// alphanumerics after an `&` are not followed by `;`.
const LONGEST_LEGACY: usize = 6;

/// The index in `ENTITIES` of the name `name`, by binary search (the table
/// is sorted by the names' bytes).
fn find(name: &[u8]) -> Option<usize> {
    ENTITIES
        .binary_search_by(|&(n, _)| n.as_bytes().cmp(name))
        .ok()
}

/// Finds the longest table name that is a prefix of `after_amp` (the bytes
/// following an `&`), or `None` if no name is.
///
/// For example `notin;` matches `notin;` (6 bytes, U+2209), `notit;`
/// matches the legacy `not` (3 bytes, U+00AC) and `ampx` matches `amp`.
///
/// Every name is ASCII alphanumerics with an optional final `;`. So where
/// the alphanumerics after the `&` are followed by `;`, only the name of
/// all of them and the `;` can match beyond them; otherwise, or if that is
/// no name, the longest match is a legacy name (no `;`, at most six bytes)
/// that begins them. Binary searches of the sorted table (one, and up to
/// five lengths of legacy names when the first two bytes can begin one)
/// answer it, with no data structure to build: this replaced an
/// aho-corasick automaton, whose building cost every process at its first
/// reference outside the common names (a large part of a short run, such
/// as `htmltok text` over a one-page archive), and whose search was no
/// faster.
#[inline(never)]
pub(crate) fn longest_match(after_amp: &[u8]) -> Option<NamedMatch> {
    // No name is longer than LONGEST_NAME, so the bytes beyond it cannot
    // change the answer; cutting them off bounds the work per call.
    let haystack = &after_amp[..after_amp.len().min(LONGEST_NAME)];
    let run = haystack
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if haystack.get(run) == Some(&b';') {
        if let Some(i) = find(&haystack[..=run]) {
            return Some(NamedMatch {
                len: run + 1,
                value: ENTITIES[i].1,
            });
        }
    }
    if !may_start_legacy(haystack) {
        return None;
    }
    (2..=run.min(LONGEST_LEGACY)).rev().find_map(|len| {
        find(&haystack[..len]).map(|i| NamedMatch {
            len,
            value: ENTITIES[i].1,
        })
    })
}

/// Whether some name of the table without a `;` (the legacy names, like
/// `amp` or `copy`) begins with the first two bytes of `name`. Those are
/// the only names that can match where the alphanumerics after an `&` are
/// not followed by `;`, which is how query strings in URLs look
/// (`?a=1&scm=2`): for most of them this answers "no match" without a
/// search of the table. Every legacy name has at least two bytes.
#[inline]
pub(crate) fn may_start_legacy(name: &[u8]) -> bool {
    static PAIRS: OnceLock<[u64; 256]> = OnceLock::new();
    let pairs = PAIRS.get_or_init(|| {
        let mut bits = [0u64; 256];
        for (legacy, _) in ENTITIES.iter().filter(|(n, _)| !n.ends_with(';')) {
            let b = legacy.as_bytes();
            let k = usize::from(b[0] & 0x7F) << 7 | usize::from(b[1] & 0x7F);
            bits[k >> 6] |= 1 << (k & 63);
        }
        bits
    });
    match name {
        [a, b, ..] => {
            let k = usize::from(a & 0x7F) << 7 | usize::from(b & 0x7F);
            pairs[k >> 6] & (1 << (k & 63)) != 0
        }
        _ => false,
    }
}

/// The value of `name;` for the names that make up almost all references on
/// real pages (`&quot;`, `&amp;`, `&gt;`, `&lt;` and `&nbsp;` are nine in
/// ten of the corpus's), answered by one `match` instead of searching the
/// table, in a small fraction of its instructions. `name` is the
/// alphanumerics between the `&` and a `;`. Since no table name goes on past its `;`, `name;`
/// when it is in the table is the longest match.
// Always inline: `charref::match_named` has two callers (the lanes'
// `decode` and the machine's state), and an out-of-line call here costs
// `decode` its registers (more instructions over the corpus).
#[inline(always)]
pub(crate) fn common_with_semicolon(name: &[u8]) -> Option<&'static str> {
    Some(match name {
        b"quot" => "\"",
        b"amp" => "&",
        b"gt" => ">",
        b"lt" => "<",
        b"nbsp" => "\u{A0}",
        b"apos" => "'",
        b"copy" => "\u{A9}",
        b"reg" => "\u{AE}",
        b"rsquo" => "\u{2019}",
        b"lsquo" => "\u{2018}",
        b"rdquo" => "\u{201D}",
        b"ldquo" => "\u{201C}",
        b"raquo" => "\u{BB}",
        b"laquo" => "\u{AB}",
        b"mdash" => "\u{2014}",
        b"ndash" => "\u{2013}",
        b"hellip" => "\u{2026}",
        b"middot" => "\u{B7}",
        b"bull" => "\u{2022}",
        b"times" => "\u{D7}",
        b"trade" => "\u{2122}",
        b"euro" => "\u{20AC}",
        _ => return None,
    })
}

/// The whole table: (name without the leading `&`, replacement characters),
/// sorted by name bytes. For reference implementations in tests and fuzzing.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn table() -> &'static [(&'static str, &'static str)] {
    ENTITIES
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious implementation: scan every name, keep the longest prefix.
    fn naive(after_amp: &[u8]) -> Option<NamedMatch> {
        table()
            .iter()
            .filter(|(name, _)| after_amp.starts_with(name.as_bytes()))
            .max_by_key(|(name, _)| name.len())
            .map(|&(name, value)| NamedMatch {
                len: name.len(),
                value,
            })
    }

    fn m(len: usize, value: &'static str) -> Option<NamedMatch> {
        Some(NamedMatch { len, value })
    }

    #[test]
    fn legacy_pairs_filter_only_what_cannot_match() {
        assert!(table()
            .iter()
            .filter(|(n, _)| !n.ends_with(';'))
            .all(|(n, _)| n.len() >= 2 && n.bytes().all(|b| b.is_ascii_alphanumeric())));
        // Every alphanumeric run that is not followed by `;`: the filter
        // says no only where the search finds nothing.
        let alnum: Vec<u8> = (b'0'..=b'9')
            .chain(b'A'..=b'Z')
            .chain(b'a'..=b'z')
            .collect();
        for &a in &alnum {
            for &b in &alnum {
                for tail in [&b""[..], b"p", b"cute", b"ml"] {
                    let mut run = vec![a, b];
                    run.extend_from_slice(tail);
                    let mut input = run.clone();
                    input.push(b'=');
                    if !may_start_legacy(&run) {
                        assert_eq!(
                            longest_match(&input),
                            None,
                            "{:?}",
                            String::from_utf8_lossy(&input)
                        );
                    }
                }
            }
            assert!(!may_start_legacy(&[a]));
        }
        assert!(may_start_legacy(b"amp") && may_start_legacy(b"no") && !may_start_legacy(b"scm"));
    }

    #[test]
    fn common_names_are_the_tables() {
        let names = [
            "quot", "amp", "gt", "lt", "nbsp", "apos", "copy", "reg", "rsquo", "lsquo", "rdquo",
            "ldquo", "raquo", "laquo", "mdash", "ndash", "hellip", "middot", "bull", "times",
            "trade", "euro",
        ];
        for name in names {
            let with = format!("{name};");
            let want = naive(with.as_bytes()).expect("in the table");
            assert_eq!(want.len, with.len(), "{name}");
            assert_eq!(
                common_with_semicolon(name.as_bytes()),
                Some(want.value),
                "{name}"
            );
        }
        assert_eq!(common_with_semicolon(b"ampx"), None);
        assert_eq!(common_with_semicolon(b"Amp"), None);
        assert_eq!(common_with_semicolon(b""), None);
    }

    #[test]
    fn table_size() {
        assert_eq!(table().len(), 2231);
        assert_eq!(
            table().iter().filter(|(n, _)| n.ends_with(';')).count(),
            2125
        );
    }

    #[test]
    fn names_sorted_unique_and_well_formed() {
        for pair in table().windows(2) {
            assert!(
                pair[0].0.as_bytes() < pair[1].0.as_bytes(),
                "{:?} !< {:?}",
                pair[0].0,
                pair[1].0
            );
        }
        for &(name, value) in table() {
            let body = name.strip_suffix(';').unwrap_or(name);
            assert!(!body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric()));
            assert!(matches!(value.chars().count(), 1 | 2), "{name}");
        }
    }

    #[test]
    fn longest_legacy_constant() {
        let longest = table()
            .iter()
            .filter(|(n, _)| !n.ends_with(';'))
            .map(|(n, _)| n.len())
            .max()
            .unwrap();
        assert_eq!(LONGEST_LEGACY, longest);
        assert_eq!(longest_match(b"brvbarx"), m(6, "\u{a6}"));
    }

    #[test]
    fn longest_name_constant() {
        let longest = table().iter().map(|(n, _)| n.len()).max().unwrap();
        assert_eq!(LONGEST_NAME, longest);
        assert_eq!(
            longest_match(b"CounterClockwiseContourIntegral;"),
            m(32, "\u{2233}")
        );
        assert_eq!(
            longest_match(b"CounterClockwiseContourIntegral;;;"),
            m(32, "\u{2233}")
        );
        assert_eq!(longest_match(b"CounterClockwiseContourIntegral"), None);
    }

    #[test]
    fn prefix_cases() {
        assert_eq!(longest_match(b"notit;"), m(3, "\u{ac}"));
        assert_eq!(longest_match(b"notin;"), m(6, "\u{2209}"));
        assert_eq!(longest_match(b"notin"), m(3, "\u{ac}"));
        assert_eq!(longest_match(b"not"), m(3, "\u{ac}"));
        assert_eq!(longest_match(b"amp;"), m(4, "&"));
        assert_eq!(longest_match(b"amp;amp;"), m(4, "&"));
        assert_eq!(longest_match(b"ampx"), m(3, "&"));
        assert_eq!(longest_match(b"amp"), m(3, "&"));
        assert_eq!(longest_match(b"am"), None);
        assert_eq!(longest_match(b"xyz"), None);
        assert_eq!(longest_match(b" amp;"), None);
        assert_eq!(longest_match(b"AMP;"), m(4, "&"));
        assert_eq!(longest_match(b"Amp;"), None);
        assert_eq!(longest_match(b"lt\xff"), m(2, "<"));
        assert_eq!(longest_match(b"quot;"), m(5, "\""));
    }

    #[test]
    fn nothing_after_amp() {
        assert_eq!(longest_match(b""), None);
        assert_eq!(longest_match(b";"), None);
    }

    #[test]
    fn two_code_points() {
        assert_eq!(longest_match(b"NotEqualTilde;"), m(14, "\u{2242}\u{338}"));
        assert_eq!(longest_match(b"NotEqualTilde"), None);
        assert_eq!(longest_match(b"fjlig;"), m(6, "fj"));
        let two = table()
            .iter()
            .filter(|(_, v)| v.chars().count() == 2)
            .count();
        assert_eq!(two, 93);
    }

    #[test]
    fn every_name_matches_itself() {
        for &(name, value) in table() {
            assert_eq!(
                longest_match(name.as_bytes()),
                m(name.len(), value),
                "{name}"
            );
        }
    }

    /// xorshift64: small, deterministic, good enough to pick fragments.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn agrees_with_naive_scan() {
        const EXTRA: &[&[u8]] = &[
            b";",
            b";;",
            b"&",
            b"=",
            b"x",
            b"a",
            b"1",
            b" ",
            b"<",
            b"\0",
            b"\xff",
            b"\xc3\xa9",
        ];
        let names = table();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut input = Vec::new();
        let mut matched = 0;
        for _ in 0..50_000 {
            input.clear();
            for _ in 0..1 + rng.below(3) {
                if rng.below(4) == 0 {
                    input.extend_from_slice(EXTRA[rng.below(EXTRA.len())]);
                } else {
                    // A real name: whole, without its `;`, or cut anywhere.
                    let name = names[rng.below(names.len())].0.as_bytes();
                    let cut = match rng.below(3) {
                        0 => name.len(),
                        1 => name.len() - usize::from(name.ends_with(b";")),
                        _ => rng.below(name.len() + 1),
                    };
                    input.extend_from_slice(&name[..cut]);
                }
            }
            let expected = naive(&input);
            matched += usize::from(expected.is_some());
            assert_eq!(
                longest_match(&input),
                expected,
                "input {:?}",
                String::from_utf8_lossy(&input)
            );
        }
        // The inputs must exercise both outcomes substantially.
        assert!((10_000..40_000).contains(&matched), "matched {matched}");
    }
}
