//! htmltok's tokens as html5ever's: the strings as tendrils (shared with
//! the input where the token's string is the input verbatim), names as
//! atoms, and the tokenizer states html5ever names its own way.

use ::html5ever::tendril::StrTendril;
use ::html5ever::tokenizer::states::{RawKind, State as H5State};
use ::html5ever::tokenizer::{Doctype as H5Doctype, Tag as H5Tag, TagKind};
use ::html5ever::{ns, Attribute, LocalName, QualName};

use crate::{Doctype, State, Tag};

/// The longest string a tendril holds (its lengths are `u32`).
const TENDRIL_MAX: usize = u32::MAX as usize;

/// Makes the tendrils of a token's strings.
///
/// A whole document is held as one tendril, and a token string that is a
/// slice of it becomes a sub-tendril: a reference-counted view, no copy
/// (tendrils of up to 8 bytes are stored inline either way). Most text
/// runs and attribute values are such slices. Strings the tokenizer
/// rewrote (references decoded, newlines normalised) live in its scratch
/// space and are copied, as is everything a stream hands out (its window
/// moves).
pub(crate) struct Tendrils<'i> {
    input: Option<&'i StrTendril>,
}

impl<'i> Tendrils<'i> {
    /// Sub-tendrils of `input`, which the tokenizer reads: token strings
    /// that point into it are shared, not copied.
    pub(crate) fn sharing(input: &'i StrTendril) -> Tendrils<'i> {
        Tendrils { input: Some(input) }
    }

    /// Every string copied (a stream, or an input too long for a tendril).
    pub(crate) fn copying() -> Tendrils<'static> {
        Tendrils { input: None }
    }

    /// The tendril of `s`, which is at most [`TENDRIL_MAX`] bytes long.
    #[inline]
    fn of_short(&self, s: &str) -> StrTendril {
        if let Some(input) = self.input {
            // Pointer arithmetic on addresses only: `s` is in the input
            // exactly when its start lies in it and it ends by the input's end.
            let at = (s.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
            if at <= input.len() && s.len() <= input.len() - at {
                // In range and both ends are character boundaries (`s` is a
                // `&str` into the same text): `subtendril` cannot fail.
                return input.subtendril(at as u32, s.len() as u32);
            }
        }
        StrTendril::from_slice(s)
    }

    /// The tendril of a token string. A string longer than a tendril holds
    /// (4 GiB) is cut at the last character boundary that fits; text does
    /// not come here (see [`pieces`]).
    #[inline]
    pub(crate) fn of(&self, s: &str) -> StrTendril {
        self.of_short(prefix_within(s, TENDRIL_MAX))
    }

    /// `text` as tendrils of at most [`TENDRIL_MAX`] bytes, in order.
    pub(crate) fn pieces<'s>(&'s self, text: &'s str) -> impl Iterator<Item = StrTendril> + 's {
        pieces_within(text, TENDRIL_MAX).map(|piece| self.of_short(piece))
    }

    /// An html5ever tag token: the name and the attribute names as atoms
    /// (the ones html5ever knows are static, no allocation), values as
    /// tendrils. End tags carry no attributes: htmltok drops them, as the
    /// standard does, and html5ever's tree builder never reads them.
    #[inline]
    pub(crate) fn tag(&self, kind: TagKind, tag: &Tag<'_>, had_duplicates: bool) -> H5Tag {
        let attrs = match kind {
            TagKind::StartTag => tag
                .attributes()
                .map(|a| Attribute {
                    name: QualName::new(None, ns!(), LocalName::from(a.name())),
                    value: self.of(a.value()),
                })
                .collect(),
            TagKind::EndTag => Vec::new(),
        };
        H5Tag {
            kind,
            name: LocalName::from(tag.name()),
            self_closing: tag.self_closing(),
            attrs,
            had_duplicate_attributes: had_duplicates,
        }
    }

    /// An html5ever DOCTYPE token (missing stays missing).
    pub(crate) fn doctype(&self, d: &Doctype<'_>) -> H5Doctype {
        H5Doctype {
            name: d.name().map(|s| self.of(s)),
            public_id: d.public_id().map(|s| self.of(s)),
            system_id: d.system_id().map(|s| self.of(s)),
            force_quirks: d.force_quirks(),
        }
    }
}

/// The longest prefix of `s` of at most `max` bytes (`max` >= 4, so that
/// it holds a character).
#[inline]
fn prefix_within(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `text` in consecutive pieces of at most `max` bytes (`max` >= 4).
fn pieces_within(text: &str, max: usize) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let piece = prefix_within(rest, max);
        rest = &rest[piece.len()..];
        Some(piece)
    })
}

/// htmltok's state for a tokenizer state html5ever's tree builder asks for
/// (after a start tag, or for a fragment's context element).
pub(crate) fn state(state: H5State) -> State {
    match state {
        H5State::RawData(kind) => raw_state(kind),
        H5State::Plaintext => State::Plaintext,
        // The tree builder asks only for the states above and Data.
        _ => State::Data,
    }
}

/// htmltok's state for html5ever's raw-data kind.
pub(crate) fn raw_state(kind: RawKind) -> State {
    match kind {
        RawKind::Rcdata => State::Rcdata,
        RawKind::Rawtext => State::Rawtext,
        RawKind::ScriptData => State::ScriptData,
        RawKind::ScriptDataEscaped(_) => State::ScriptDataEscaped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_the_input_are_shared_and_others_copied() {
        let input =
            StrTendril::from_slice("<p title='a long attribute value'>héllo wörld, long text");
        let tendrils = Tendrils::sharing(&input);
        let inside = &input[input.len() - 12..];
        let shared = tendrils.of(inside);
        assert_eq!(&*shared, inside);
        // A shared sub-tendril reads the input's own bytes.
        assert_eq!(shared.as_ptr(), inside.as_ptr());
        let elsewhere = String::from("a string of more than eight bytes");
        let copied = tendrils.of(&elsewhere);
        assert_eq!(&*copied, elsewhere);
        assert_ne!(copied.as_ptr(), elsewhere.as_ptr());
        assert_eq!(&*tendrils.of(""), "");
        let empty_at_end = &input[input.len()..];
        assert_eq!(&*tendrils.of(empty_at_end), "");
    }

    #[test]
    fn strings_past_a_tendril_are_cut_at_character_boundaries() {
        // The real limit (4 GiB) is too big for a test: the same code with
        // a small one.
        assert_eq!(prefix_within("abcé", 4), "abc");
        assert_eq!(prefix_within("abcé", 5), "abcé");
        let pieces: Vec<_> = pieces_within("ééa€€b", 4).collect();
        assert_eq!(pieces, ["éé", "a€", "€b"]);
        assert_eq!(pieces_within("", 4).count(), 0);
    }
}
