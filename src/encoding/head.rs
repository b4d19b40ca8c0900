//! Where a page's head ends, token by token, and the `<meta>` in it that
//! declares an encoding.
//!
//! The standard changes the encoding for a `<meta>` that the tree builder
//! processes by the rules for "in head" while the encoding is still
//! tentative ("change the encoding"). That covers the head, and more: the
//! body's rules hand a `<meta>` to the head's. A browser that decided on
//! a guess reparses the page for any of them. htmltok looks in the head
//! only: where pages declare their charset, and where a whole page's
//! second look ([`Sniffer::sniff`](super::Sniffer::sniff)) and a stream's
//! watch end soon, instead of reading every page to its end a second time.
//!
//! The head ends where the tree builder would leave the modes before the
//! body ("before html", "before head", "in head", "after head"): at a
//! start tag of an element that does not belong in a head, at text that
//! is not whitespace, at `</body>`, `</html>` or `</br>`, or at the end of
//! the input. What is inside `<template>` never ends it (a template's
//! content is parsed apart, and its `<meta>`s are processed by the head's
//! rules too). The tokens are those of the tokenizer in standalone mode,
//! which reads the text of `<title>`, `<script>`, `<style>`, `<noscript>`
//! and `<noframes>` as a browser with scripting does.

use encoding_rs::Encoding;

use super::meta_declares;
use crate::Token;

/// What a token says about the head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seen {
    /// A `<meta>` in the head declares this encoding (UTF-16 as UTF-8,
    /// `x-user-defined` as windows-1252: see `meta_declares`).
    Declares(&'static Encoding),
    /// The head ended without one.
    End,
}

/// The state of the head, fed every token from the first.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Head {
    /// `<template>` elements open.
    templates: u32,
    /// Inside an element whose content is text (`<title>`, `<script>`, …):
    /// its text is not the body's, and its end tag is the next end tag.
    in_text: bool,
}

impl Head {
    /// Takes the next token; `Some` once the head has declared an encoding
    /// or ended (the tokens after it say nothing more).
    pub(crate) fn see(&mut self, token: &Token<'_>) -> Option<Seen> {
        match token {
            Token::StartTag(tag) => {
                if let Some(found) = meta_declares(tag) {
                    return Some(Seen::Declares(found));
                }
                match tag.name() {
                    "html" | "head" | "base" | "basefont" | "bgsound" | "link" | "meta" => {}
                    "title" | "script" | "style" | "noscript" | "noframes" => self.in_text = true,
                    "template" => self.templates = self.templates.saturating_add(1),
                    _ if self.templates > 0 => {}
                    _ => return Some(Seen::End),
                }
            }
            Token::EndTag(tag) => {
                if self.in_text {
                    self.in_text = false;
                } else if tag.name() == "template" {
                    self.templates = self.templates.saturating_sub(1);
                } else if self.templates == 0 && matches!(tag.name(), "body" | "html" | "br") {
                    return Some(Seen::End);
                }
            }
            Token::Text(text) => {
                let blank = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ');
                let inside = self.in_text || self.templates > 0;
                if !inside && !text.as_str().bytes().all(|b| blank(&b)) {
                    return Some(Seen::End);
                }
            }
            Token::Comment(_) | Token::Doctype(_) | Token::ProcessingInstruction(_) => {}
            Token::Eof => return Some(Seen::End),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::KOI8_R;

    /// What `html`'s tokens say about its head.
    fn seen(html: &str) -> Option<Seen> {
        let mut head = Head::default();
        let mut tok = crate::Tokenizer::new(html);
        while let Some(token) = tok.next_token() {
            if let Some(seen) = head.see(&token) {
                return Some(seen);
            }
        }
        None
    }

    #[test]
    fn a_meta_in_the_head_declares() {
        for html in [
            "<meta charset=koi8-r>",
            "<!DOCTYPE html>\n<html lang=ru><head>\n<title>a <b> c</title><meta charset=koi8-r>",
            "<script>if (a < b) {}</script><style>p{}</style><meta charset=koi8-r>",
            "<noscript><p>text</noscript><link rel=x><meta charset=koi8-r>",
            "</head>\n<meta charset=koi8-r>",
            "<template><div>x</div></template><meta charset=koi8-r>",
            "<template><p><meta charset=koi8-r></template>",
            "<meta name=a content=b><meta charset=koi8-r>",
        ] {
            assert_eq!(seen(html), Some(Seen::Declares(KOI8_R)), "{html}");
        }
    }

    #[test]
    fn the_body_ends_the_head() {
        for html in [
            "<p><meta charset=koi8-r>",
            "<body><meta charset=koi8-r>",
            "text<meta charset=koi8-r>",
            "</head> x <meta charset=koi8-r>",
            "</body><meta charset=koi8-r>",
            "</br><meta charset=koi8-r>",
            "<svg><meta charset=koi8-r>",
            "<title>t</title><frameset><meta charset=koi8-r>",
            "",
        ] {
            assert_eq!(seen(html), Some(Seen::End), "{html}");
        }
        // Inside text, a `<meta>` is text.
        assert_eq!(
            seen("<title><meta charset=koi8-r></title>"),
            Some(Seen::End)
        );
    }
}
