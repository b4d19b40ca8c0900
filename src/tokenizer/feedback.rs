//! Standalone mode: the tree builder's tokenizer switches, without a tree.
//!
//! A tokenizer alone mis-tokenizes `<script>if (a<b)…</script>`: the tree
//! builder is what switches it to script data. This module applies the
//! switches a standard tree builder would, from the tokens alone:
//!
//! 1. In HTML content: RCDATA after `title`, `textarea`; RAWTEXT after
//!    `style`, `xmp`, `iframe`, `noembed`, `noframes`, and `noscript` when
//!    scripting is on; script data after `script`; PLAINTEXT after
//!    `plaintext`. A trailing `/` changes nothing: `<script/>` still opens a
//!    script, as in a browser.
//! 2. `<svg>` and `<math>` open foreign content (a self-closing one opens
//!    nothing) and their end tags close it. In foreign content start tags
//!    switch nothing and `<![CDATA[` opens a real CDATA section.
//! 3. HTML rules return inside integration points (SVG `foreignObject`,
//!    `desc`, `title`; MathML `mi`, `mo`, `mn`, `ms`, `mtext`, and
//!    `annotation-xml` with an HTML `encoding`) and at the tags that break
//!    out of foreign content.
//! 4. After `<frameset>` the tree builder ignores text-mode tags.
//!
//! Only the elements that matter for these rules are tracked, so the cost is
//! a name comparison per tag and memory proportional to the nesting of
//! `svg`/`math` and integration points.

use crate::state::State;
use crate::token::{Tag, Token};

/// What kind of content an open tracked element holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Content {
    Svg,
    MathMl,
    /// An integration point: HTML content inside foreign content.
    Html,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    content: Content,
    /// The element's (lower-case) name, to match its end tag.
    name: &'static str,
}

/// The switches to apply before the next token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Switch {
    pub(crate) state: Option<State>,
    pub(crate) cdata_allowed: bool,
}

/// Tracks what a tree builder would, just enough to switch the tokenizer.
#[derive(Clone, Debug)]
pub(crate) struct Feedback {
    open: Vec<Frame>,
    frameset: bool,
    scripting: bool,
}

const SVG_INTEGRATION_POINTS: [&str; 3] = ["foreignobject", "desc", "title"];
const MATHML_TEXT_INTEGRATION_POINTS: [&str; 5] = ["mi", "mo", "mn", "ms", "mtext"];

/// Start tags that end foreign content (the standard's list in "the rules
/// for parsing tokens in foreign content"), apart from `font`, which does so
/// only with a `color`, `face` or `size` attribute.
const BREAKOUT: [&str; 44] = [
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

impl Feedback {
    pub(crate) fn new(scripting: bool) -> Feedback {
        Feedback {
            open: Vec::new(),
            frameset: false,
            scripting,
        }
    }

    fn in_foreign_content(&self) -> bool {
        matches!(
            self.open.last(),
            Some(Frame {
                content: Content::Svg | Content::MathMl,
                ..
            })
        )
    }

    /// Leaves foreign content up to the nearest integration point.
    fn break_out(&mut self) {
        while self.in_foreign_content() {
            self.open.pop();
        }
    }

    /// Looks at a token on its way out; returns the switches to apply
    /// before the next one, if any.
    pub(crate) fn observe(&mut self, token: &Token<'_>) -> Option<Switch> {
        match token {
            Token::StartTag(tag) => self.start_tag(tag),
            Token::EndTag(tag) => self.end_tag(tag.name),
            _ => None,
        }
    }

    fn cdata(&self) -> bool {
        self.in_foreign_content()
    }

    fn start_tag(&mut self, tag: &Tag<'_>) -> Option<Switch> {
        let name = tag.name;
        if self.in_foreign_content() {
            let breaks_out = BREAKOUT.contains(&name)
                || (name == "font"
                    && tag
                        .attributes()
                        .any(|a| matches!(a.name, "color" | "face" | "size")));
            if !breaks_out {
                self.foreign_start_tag(tag);
                return Some(self.switch(None));
            }
            self.break_out();
        }
        if tag.self_closing && matches!(name, "svg" | "math") {
            return Some(self.switch(None));
        }
        let state = match name {
            "svg" => {
                self.open.push(Frame {
                    content: Content::Svg,
                    name: "svg",
                });
                None
            }
            "math" => {
                self.open.push(Frame {
                    content: Content::MathMl,
                    name: "math",
                });
                None
            }
            "frameset" => {
                self.frameset = true;
                None
            }
            _ if self.frameset => None,
            "title" | "textarea" => Some(State::Rcdata),
            "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(State::Rawtext),
            "noscript" if self.scripting => Some(State::Rawtext),
            "script" => Some(State::ScriptData),
            "plaintext" => Some(State::Plaintext),
            _ => None,
        };
        Some(self.switch(state))
    }

    fn foreign_start_tag(&mut self, tag: &Tag<'_>) {
        if tag.self_closing {
            return;
        }
        let Some(&Frame { content, .. }) = self.open.last() else {
            return;
        };
        let frame = match (content, tag.name) {
            (_, "svg") => Frame {
                content: Content::Svg,
                name: "svg",
            },
            (_, "math") => Frame {
                content: Content::MathMl,
                name: "math",
            },
            (Content::Svg, name) => match SVG_INTEGRATION_POINTS.iter().find(|&&n| n == name) {
                Some(n) => Frame {
                    content: Content::Html,
                    name: n,
                },
                None => return,
            },
            (Content::MathMl, "annotation-xml") => {
                let html = tag.attributes().any(|a| {
                    a.name == "encoding"
                        && (a.value.eq_ignore_ascii_case("text/html")
                            || a.value.eq_ignore_ascii_case("application/xhtml+xml"))
                });
                if !html {
                    return;
                }
                Frame {
                    content: Content::Html,
                    name: "annotation-xml",
                }
            }
            (Content::MathMl, name) => {
                match MATHML_TEXT_INTEGRATION_POINTS.iter().find(|&&n| n == name) {
                    Some(n) => Frame {
                        content: Content::Html,
                        name: n,
                    },
                    None => return,
                }
            }
            (Content::Html, _) => return,
        };
        self.open.push(frame);
    }

    fn end_tag(&mut self, name: &str) -> Option<Switch> {
        if self.open.is_empty() {
            return None;
        }
        if self.in_foreign_content() && matches!(name, "br" | "p") {
            self.break_out();
            return Some(self.switch(None));
        }
        // Close the nearest open tracked element of that name, but do not
        // reach through an integration point from inside it: there HTML
        // rules apply, under which foreign end tags are ignored.
        for i in (0..self.open.len()).rev() {
            let frame = self.open[i];
            if frame.name == name {
                self.open.truncate(i);
                return Some(self.switch(None));
            }
            if frame.content == Content::Html {
                break;
            }
        }
        None
    }

    fn switch(&self, state: Option<State>) -> Switch {
        Switch {
            state,
            cdata_allowed: self.cdata(),
        }
    }
}
