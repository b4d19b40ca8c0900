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
//! 4. After an accepted `<frameset>` (one before any body content) the tree
//!    builder ignores text-mode tags, except `noframes`.
//!
//! Only the elements that matter for these rules are tracked: `svg`, `math`,
//! integration points, and, inside an integration point, how many HTML
//! elements are open (which decides whether the current node is the
//! integration point itself: then end tags and `<![CDATA[` follow the foreign
//! rules). The cost is a name comparison per tag and memory proportional to
//! the nesting of `svg`/`math` and integration points.

use crate::state::State;
use crate::token::{Src, Tag, Text, Token};
use crate::tokenizer::Output;

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
    /// For an integration point: HTML elements open inside it (approximate:
    /// start tags of non-void elements minus end tags).
    html_open: u32,
    /// The names (`frame_name_bit`) an end tag's walk down the stack would
    /// look at if this frame were the top: its own and, unless the walk
    /// stops here, those of the frame below. Set by `Feedback::push`.
    ///
    /// Fixed for the frame's life, because where the walk stops depends only
    /// on the frame below (an integration point with HTML elements open
    /// inside it), and only the top frame's `html_open` ever changes: while
    /// this frame is open, the one below is not the top. So `end_tag` can
    /// tell in one test whether its walk would find anything, and walks only
    /// when it will close what it walks over: each frame is walked over once,
    /// instead of the whole stack (up to `MAX_DEPTH`) for every end tag that
    /// closes nothing (`<svg>` 500 times, then `</x>` over and over).
    reach: u16,
}

impl Frame {
    fn new(content: Content, name: &'static str) -> Frame {
        Frame {
            content,
            name,
            html_open: 0,
            reach: 0,
        }
    }

    /// Whether an end tag's walk down the stack stops at the frame above
    /// this one: an integration point with HTML elements open inside it is
    /// where HTML begins.
    fn is_wall(&self) -> bool {
        self.content == Content::Html && self.html_open > 0
    }
}

/// Every name a frame can have (what `Frame::new` is given), each with its
/// bit in `Frame::reach`.
const FRAME_NAMES: [&str; 13] = [
    "svg",
    "math",
    "foreignobject",
    "desc",
    "title",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
    "mglyph",
    "malignmark",
];

/// The bit of `name` in `Frame::reach`, or 0 for a name no frame has.
fn frame_name_bit(name: &str) -> u16 {
    match FRAME_NAMES.iter().position(|&n| n == name) {
        Some(i) => 1 << i,
        None => 0,
    }
}

/// The switches to apply after a token, before the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Switch {
    pub(crate) state: Option<State>,
    pub(crate) cdata_allowed: bool,
}

/// Tracks what a tree builder would, just enough to switch the tokenizer.
#[derive(Clone, Debug)]
pub(crate) struct Feedback {
    open: Vec<Frame>,
    /// Tracked elements opened past `MAX_DEPTH`, not recorded: their end
    /// tags close nothing that is recorded.
    too_deep: usize,
    /// The standard's frameset-ok flag: cleared by `<body>`, the start tags
    /// "in body" clears it for, and non-whitespace text.
    frameset_ok: bool,
    /// A `<frameset>` was accepted: only `noframes` switches from now on.
    frameset: bool,
    /// Inside an element whose content the tokenizer reads as text (its
    /// text is not body content for the frameset-ok flag).
    in_text_element: bool,
    scripting: bool,
    /// Nothing tracked open, frameset-ok cleared, no frameset: a start tag
    /// asks nothing but its name. Kept up to date by the out-of-line
    /// functions that change those three (`observe_tracked`,
    /// `open_foreign_at`), so that the inline case tests one flag.
    quiet: bool,
}

/// A set of element names, tested by binary search over the names packed
/// into integers. The tests run for every tag of a page; a scan of string
/// comparisons cost a `memcmp` call per member of the same length, which
/// made a page of nested `<svg>` many times slower than a median page.
struct NameSet<const N: usize>([u128; N]);

/// A name packed into one integer: its bytes, big-endian, then its length
/// (so that no two names pack alike). `None` for names of more than 15
/// bytes, which are in no set. The same as `pack`, at compile time.
const fn pack_const(name: &[u8]) -> u128 {
    assert!(name.len() <= 15, "name too long for a NameSet");
    let mut key = 0u128;
    let mut i = 0;
    while i < name.len() {
        key = key << 8 | name[i] as u128;
        i += 1;
    }
    key << 8 | name.len() as u128
}

fn pack(name: &[u8]) -> Option<u128> {
    let len = name.len();
    if len > 15 {
        return None;
    }
    let mut bytes = [0u8; 16];
    bytes[15 - len..15].copy_from_slice(name);
    bytes[15] = len as u8;
    Some(u128::from_be_bytes(bytes))
}

impl<const N: usize> NameSet<N> {
    const fn new(names: [&str; N]) -> NameSet<N> {
        let mut keys = [0u128; N];
        let mut i = 0;
        while i < N {
            keys[i] = pack_const(names[i].as_bytes());
            i += 1;
        }
        // Insertion sort: `binary_search` needs the keys in order.
        let mut i = 1;
        while i < N {
            let mut j = i;
            while j > 0 && keys[j - 1] > keys[j] {
                let t = keys[j];
                keys[j] = keys[j - 1];
                keys[j - 1] = t;
                j -= 1;
            }
            i += 1;
        }
        NameSet(keys)
    }

    /// Whether the name packed as `key` is in the set.
    fn contains(&self, key: Option<u128>) -> bool {
        key.is_some_and(|k| self.0.binary_search(&k).is_ok())
    }
}

/// What a start tag in HTML content does to the tokenizer, with nothing
/// tracked open and the frameset-ok flag cleared (see `observe`).
enum TextMode {
    Svg,
    Math,
    Switch(State),
    /// RAWTEXT when scripting is on.
    Noscript,
    None,
}

/// The names [`text_mode`] gives a mode, for its filter.
const TEXT_MODE_NAMES: [&str; 12] = [
    "svg",
    "math",
    "title",
    "textarea",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "script",
    "plaintext",
];

/// For each name length below 16, the first letters (bit `c & 31`) of the
/// names of that length in [`TEXT_MODE_NAMES`].
const TEXT_MODE_FIRST: [u32; 16] = {
    let mut table = [0u32; 16];
    let mut i = 0;
    while i < TEXT_MODE_NAMES.len() {
        let name = TEXT_MODE_NAMES[i].as_bytes();
        table[name.len()] |= 1 << (name[0] & 31);
        i += 1;
    }
    table
};

/// Whether `name` can be one of [`TEXT_MODE_NAMES`], by its length and
/// first letter: most tag names fail here (`div`, `span`, `a`, `li`,
/// `img`), in a few instructions inline, where the call of
/// [`text_mode`] and its comparisons cost every start tag about 20.
#[inline(always)]
fn may_have_text_mode(name: &[u8]) -> bool {
    match name.first() {
        Some(&c) if name.len() < 16 => TEXT_MODE_FIRST[name.len()] >> (c & 31) & 1 != 0,
        _ => false,
    }
}

/// The names that matter in that case: a `match` on the name's bytes,
/// which compiles to a length switch and a few word comparisons (most tag
/// names fail at the length or the first word). Every name it matches is
/// in [`TEXT_MODE_NAMES`] (a test holds them together).
fn text_mode(name: &[u8]) -> TextMode {
    match name {
        b"svg" => TextMode::Svg,
        b"math" => TextMode::Math,
        b"title" | b"textarea" => TextMode::Switch(State::Rcdata),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
            TextMode::Switch(State::Rawtext)
        }
        b"noscript" => TextMode::Noscript,
        b"script" => TextMode::Switch(State::ScriptData),
        b"plaintext" => TextMode::Switch(State::Plaintext),
        _ => TextMode::None,
    }
}

const SVG_INTEGRATION_POINTS: [&str; 3] = ["foreignobject", "desc", "title"];
const MATHML_TEXT_INTEGRATION_POINTS: [&str; 5] = ["mi", "mo", "mn", "ms", "mtext"];

/// How many tracked elements (svg, math, integration points) are recorded.
/// Browsers cap the depth of the tree too (Blink at 512); past the cap the
/// content model stays what it is, so a page of a million nested `<svg>`
/// costs a counter, not a million frames.
const MAX_DEPTH: usize = 512;

/// Elements with no end tag: they open nothing inside an integration point.
const VOID_NAMES: [&str; 18] = [
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input",
    "keygen", "link", "meta", "param", "source", "track", "wbr",
];
const VOID: NameSet<18> = NameSet::new(VOID_NAMES);

/// Start tags after which "in body" sets the frameset-ok flag to "not ok"
/// (and `body` itself, in "after head"); `input` does so unless hidden.
const CLEARS_FRAMESET_OK_NAMES: [&str; 23] = [
    "body", "pre", "listing", "li", "dd", "dt", "button", "applet", "marquee", "object", "table",
    "area", "br", "embed", "img", "image", "keygen", "wbr", "hr", "textarea", "xmp", "iframe",
    "select",
];
const CLEARS_FRAMESET_OK: NameSet<23> = NameSet::new(CLEARS_FRAMESET_OK_NAMES);

/// Start tags that end foreign content (the standard's list in "the rules
/// for parsing tokens in foreign content"), apart from `font`, which does so
/// only with a `color`, `face` or `size` attribute.
const BREAKOUT_NAMES: [&str; 44] = [
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
const BREAKOUT: NameSet<44> = NameSet::new(BREAKOUT_NAMES);

/// The kinds of token [`Feedback::observe_parts`] tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Observed {
    StartTag,
    EndTag,
    Text,
    /// A comment, DOCTYPE, processing instruction or the end of the input.
    Other,
}

impl Feedback {
    pub(crate) fn new(scripting: bool) -> Feedback {
        Feedback {
            open: Vec::new(),
            too_deep: 0,
            frameset_ok: true,
            frameset: false,
            in_text_element: false,
            scripting,
            quiet: false,
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

    /// Whether the current node is a foreign element (an integration point
    /// with no HTML element open inside it is one): then `<![CDATA[` opens a
    /// CDATA section and end tags follow the foreign content rules.
    fn current_node_is_foreign(&self) -> bool {
        match self.open.last() {
            Some(frame) => frame.content != Content::Html || frame.html_open == 0,
            None => false,
        }
    }

    /// Leaves foreign content up to the nearest integration point.
    fn break_out(&mut self) {
        while self.in_foreign_content() {
            self.open.pop();
        }
    }

    /// Looks at a token on its way out; returns the switches to apply
    /// before the next one, if any.
    ///
    /// Only the tests hand the feedback whole tokens; the hand-out and the
    /// records' loop pass the parts (`observe_parts`).
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn observe(&mut self, token: &Token<'_>) -> Option<Switch> {
        match *token {
            Token::StartTag(tag) => self.observe_parts(Observed::StartTag, tag.src),
            Token::EndTag(tag) => self.observe_parts(Observed::EndTag, tag.src),
            Token::Text(text) => self.observe_parts(Observed::Text, text.src),
            _ => None,
        }
    }

    /// [`observe`](Self::observe) for a token given as its kind and its
    /// view of the machine's output.
    ///
    /// Inlined where tokens are handed out: the common cases, in HTML
    /// content with nothing tracked open once the body has begun, cost a
    /// few comparisons; the rest is `observe_tracked`. The token itself is
    /// made only on the way there: made before, the compiler stored a copy
    /// of it for every token, on the chance that `observe_tracked` would
    /// read it.
    #[inline(always)]
    pub(crate) fn observe_parts(&mut self, kind: Observed, src: Src<'_>) -> Option<Switch> {
        // Each kind of token tests only the flags its case reads: the test
        // of all three before the `match` cost every token seven
        // instructions.
        match kind {
            Observed::StartTag if self.quiet => {
                let tag = Tag { src };
                let name = tag.name().as_bytes();
                if !may_have_text_mode(name) {
                    self.in_text_element = false;
                    return Some(Switch {
                        state: None,
                        cdata_allowed: false,
                    });
                }
                let state = match text_mode(name) {
                    TextMode::Svg | TextMode::Math => {
                        return self.open_foreign_at(src.out, src.input)
                    }
                    TextMode::Switch(state) => Some(state),
                    TextMode::Noscript if self.scripting => Some(State::Rawtext),
                    TextMode::Noscript | TextMode::None => None,
                };
                self.in_text_element = state.is_some();
                Some(Switch {
                    state,
                    cdata_allowed: false,
                })
            }
            Observed::EndTag if self.open.is_empty() => {
                self.in_text_element = false;
                None
            }
            Observed::Text if !self.frameset_ok => None,
            Observed::StartTag => self.observe_tracked(&Token::StartTag(Tag { src })),
            Observed::EndTag => self.observe_tracked(&Token::EndTag(Tag { src })),
            Observed::Text => self.observe_tracked(&Token::Text(Text { src })),
            // Comments, DOCTYPEs, processing instructions and the end of
            // the input switch nothing.
            Observed::Other => None,
        }
    }

    #[inline(never)]
    fn observe_tracked(&mut self, token: &Token<'_>) -> Option<Switch> {
        let switch = self.observe_tracked_inner(token);
        self.update_quiet();
        switch
    }

    /// Whether a start tag asks nothing but its name (see `quiet`).
    fn update_quiet(&mut self) {
        self.quiet = self.open.is_empty() && !self.frameset_ok && !self.frameset;
    }

    fn observe_tracked_inner(&mut self, token: &Token<'_>) -> Option<Switch> {
        match token {
            Token::StartTag(tag) => self.start_tag(tag),
            Token::EndTag(tag) => {
                self.in_text_element = false;
                self.end_tag(tag.name())
            }
            Token::Text(text) => {
                if self.frameset_ok
                    && !self.in_text_element
                    && !text
                        .as_str()
                        .bytes()
                        .all(|b| matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
                {
                    self.frameset_ok = false;
                }
                None
            }
            _ => None,
        }
    }

    fn start_tag(&mut self, tag: &Tag<'_>) -> Option<Switch> {
        let name = tag.name();
        // Packed only on the paths that look a name up in a set (most tags,
        // in HTML content with frameset-ok cleared, take none).
        let key = || pack(name.as_bytes());
        if self.in_foreign_content() {
            let breaks_out = BREAKOUT.contains(key())
                || (name == "font"
                    && tag
                        .all_attributes()
                        .any(|a| matches!(a.name(), "color" | "face" | "size")));
            if !breaks_out {
                self.foreign_start_tag(tag);
                return Some(self.switch(None));
            }
            self.break_out();
        } else if let Some(frame) = self.open.last() {
            // In a MathML text integration point, `mglyph` and `malignmark`
            // are still MathML.
            if frame.content == Content::Html
                && frame.html_open == 0
                && MATHML_TEXT_INTEGRATION_POINTS.contains(&frame.name)
                && matches!(name, "mglyph" | "malignmark")
            {
                if !tag.self_closing() {
                    let name = if name == "mglyph" {
                        "mglyph"
                    } else {
                        "malignmark"
                    };
                    self.push(Frame::new(Content::MathMl, name));
                }
                return Some(self.switch(None));
            }
        }
        if matches!(name, "svg" | "math") {
            return self.open_foreign(tag);
        }
        // An HTML element inside an integration point.
        if let Some(frame) = self.open.last_mut() {
            if !VOID.contains(key()) {
                frame.html_open += 1;
            }
        }
        if name == "frameset" && self.frameset_ok {
            self.frameset = true;
        }
        if self.frameset_ok {
            let hidden_input = name == "input"
                && tag
                    .all_attributes()
                    .any(|a| a.name() == "type" && a.value().eq_ignore_ascii_case("hidden"));
            if CLEARS_FRAMESET_OK.contains(key()) || (name == "input" && !hidden_input) {
                self.frameset_ok = false;
            }
        }
        let state = match name {
            "noframes" => Some(State::Rawtext),
            // "in frameset" and "after frameset" ignore everything else.
            _ if self.frameset => None,
            "title" | "textarea" => Some(State::Rcdata),
            "style" | "xmp" | "iframe" | "noembed" => Some(State::Rawtext),
            "noscript" if self.scripting => Some(State::Rawtext),
            "script" => Some(State::ScriptData),
            "plaintext" => Some(State::Plaintext),
            _ => None,
        };
        self.in_text_element = state.is_some();
        Some(self.switch(state))
    }

    /// [`open_foreign`](Self::open_foreign) for the tag in `out`, given
    /// by parts, which go in registers: a reference to a `Tag` made the
    /// compiler store one for every start tag `observe_parts` looks at.
    #[inline(never)]
    fn open_foreign_at(&mut self, out: &Output, input: &str) -> Option<Switch> {
        let switch = self.open_foreign(&Tag {
            src: Src { out, input },
        });
        self.update_quiet();
        switch
    }

    /// `<svg>` or `<math>` in HTML content (or at an integration point).
    fn open_foreign(&mut self, tag: &Tag<'_>) -> Option<Switch> {
        if !tag.self_closing() {
            let frame = if tag.name() == "svg" {
                Frame::new(Content::Svg, "svg")
            } else {
                Frame::new(Content::MathMl, "math")
            };
            self.push(frame);
        }
        Some(self.switch(None))
    }

    fn foreign_start_tag(&mut self, tag: &Tag<'_>) {
        if tag.self_closing() {
            return;
        }
        let Some(&Frame { content, .. }) = self.open.last() else {
            return;
        };
        let frame = match (content, tag.name()) {
            (_, "svg") => Frame::new(Content::Svg, "svg"),
            (_, "math") => Frame::new(Content::MathMl, "math"),
            (Content::Svg, name) => match SVG_INTEGRATION_POINTS.iter().find(|&&n| n == name) {
                Some(n) => Frame::new(Content::Html, n),
                None => return,
            },
            (Content::MathMl, "annotation-xml") => {
                let html = tag.all_attributes().any(|a| {
                    a.name() == "encoding"
                        && (a.value().eq_ignore_ascii_case("text/html")
                            || a.value().eq_ignore_ascii_case("application/xhtml+xml"))
                });
                if !html {
                    return;
                }
                Frame::new(Content::Html, "annotation-xml")
            }
            (Content::MathMl, name) => {
                match MATHML_TEXT_INTEGRATION_POINTS.iter().find(|&&n| n == name) {
                    Some(n) => Frame::new(Content::Html, n),
                    None => return,
                }
            }
            (Content::Html, _) => return,
        };
        self.push(frame);
    }

    fn end_tag(&mut self, name: &str) -> Option<Switch> {
        let top = *self.open.last()?;
        if self.too_deep > 0 && matches!(name, "svg" | "math") {
            // Closes one of the unrecorded elements past the cap.
            self.too_deep -= 1;
            return Some(self.switch(None));
        }
        if self.in_foreign_content() && matches!(name, "br" | "p") {
            self.break_out();
            return Some(self.switch(None));
        }
        if !self.current_node_is_foreign() {
            // HTML rules inside an integration point: an end tag closes an
            // HTML element there. The integration point itself (special) is
            // never closed this way: "any other end tag" stops at it.
            if top.name != name {
                if let Some(frame) = self.open.last_mut() {
                    frame.html_open = frame.html_open.saturating_sub(1);
                }
            }
            return Some(self.switch(None));
        }
        // Foreign rules ("any other end tag"): close the nearest open element
        // of that name, walking down through foreign elements only; an
        // integration point with HTML elements open inside it is where HTML
        // begins, and the walk stops. A walk that would find nothing is not
        // taken (see `Frame::reach`).
        if top.reach & frame_name_bit(name) == 0 {
            return None;
        }
        for i in (0..self.open.len()).rev() {
            if self.open[i].name == name {
                self.open.truncate(i);
                return Some(self.switch(None));
            }
            if i > 0 && self.open[i - 1].is_wall() {
                break;
            }
        }
        None
    }

    fn push(&mut self, mut frame: Frame) {
        if self.open.len() < MAX_DEPTH {
            let bit = frame_name_bit(frame.name);
            debug_assert_ne!(bit, 0, "{} is not in FRAME_NAMES", frame.name);
            // The walk goes on below this frame unless the frame below is a
            // wall.
            frame.reach = bit
                | match self.open.last() {
                    Some(below) if !below.is_wall() => below.reach,
                    _ => 0,
                };
            self.open.push(frame);
        } else {
            self.too_deep += 1;
        }
    }

    fn switch(&self, state: Option<State>) -> Switch {
        Switch {
            state,
            cdata_allowed: self.current_node_is_foreign(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_sets_hold_exactly_their_names() {
        fn holds<const N: usize>(set: &NameSet<N>, names: [&str; N]) {
            for name in names {
                assert_eq!(pack(name.as_bytes()), Some(pack_const(name.as_bytes())));
                assert!(set.contains(pack(name.as_bytes())), "{name}");
            }
        }
        holds(&BREAKOUT, BREAKOUT_NAMES);
        holds(&VOID, VOID_NAMES);
        holds(&CLEARS_FRAMESET_OK, CLEARS_FRAMESET_OK_NAMES);
        for name in [
            "",
            "svg",
            "bb",
            "bi",
            "font",
            "h7",
            "divs",
            "iv",
            "blockquotes",
        ] {
            assert!(!BREAKOUT.contains(pack(name.as_bytes())), "{name}");
        }
        assert!(VOID.contains(pack(b"wbr")) && !VOID.contains(pack(b"wb")));
        assert!(CLEARS_FRAMESET_OK.contains(pack(b"select")));
        // Longer than any key: in no set, never a panic.
        assert_eq!(pack(b"a-very-long-custom-element"), None);
        assert!(!BREAKOUT.contains(pack(b"a-very-long-custom-element")));
    }

    #[test]
    fn the_text_mode_filter_passes_every_name_with_a_mode() {
        for name in TEXT_MODE_NAMES {
            assert!(may_have_text_mode(name.as_bytes()), "{name}");
            assert!(
                !matches!(text_mode(name.as_bytes()), TextMode::None),
                "{name}"
            );
        }
        // Every name that text_mode gives a mode passes the filter: the
        // listed names with each letter changed, every name of one to
        // twelve of a letter, and common tags.
        // The tree builder's names, written out here again: a name dropped
        // from the constant fails below.
        let standard = [
            "svg",
            "math",
            "title",
            "textarea",
            "style",
            "xmp",
            "iframe",
            "noembed",
            "noframes",
            "noscript",
            "script",
            "plaintext",
        ];
        let mut names: Vec<Vec<u8>> = Vec::new();
        for name in standard {
            for i in 0..name.len() {
                for c in b'a'..=b'z' {
                    let mut n = name.as_bytes().to_vec();
                    n[i] = c;
                    names.push(n);
                }
            }
        }
        for c in b'a'..=b'z' {
            for len in 1..=12 {
                names.push(vec![c; len]);
            }
        }
        for name in [
            "",
            "div",
            "span",
            "a",
            "li",
            "img",
            "table",
            "strong",
            "a-very-long-name",
        ] {
            names.push(name.as_bytes().to_vec());
        }
        for name in &names {
            if !matches!(text_mode(name), TextMode::None) {
                assert!(
                    may_have_text_mode(name),
                    "{}",
                    String::from_utf8_lossy(name)
                );
            }
        }
        for name in [
            "div", "span", "a", "li", "img", "input", "section", "button",
        ] {
            assert!(!may_have_text_mode(name.as_bytes()), "{name}");
        }
    }

    #[test]
    fn frame_names_have_distinct_bits() {
        let mut seen = 0u16;
        for name in FRAME_NAMES
            .iter()
            .chain(&SVG_INTEGRATION_POINTS)
            .chain(&MATHML_TEXT_INTEGRATION_POINTS)
        {
            let bit = frame_name_bit(name);
            assert_eq!(bit.count_ones(), 1, "{name}");
            seen |= bit;
        }
        assert_eq!(seen.count_ones() as usize, FRAME_NAMES.len());
        for name in ["", "x", "foreignObject", "p", "svgs", "annotation"] {
            assert_eq!(frame_name_bit(name), 0, "{name}");
        }
    }

    /// What `Frame::reach` of `open[k]` must be: the names the end-tag walk
    /// looks at from `k` down, by the current `html_open` counts.
    fn reach_by_walking(open: &[Frame], k: usize) -> u16 {
        let mut reach = 0;
        for i in (0..=k).rev() {
            reach |= frame_name_bit(open[i].name);
            if i > 0 && open[i - 1].is_wall() {
                break;
            }
        }
        reach
    }

    /// Random sequences of the tags that open, close and break out of
    /// foreign content: after every token, each frame's stored `reach`
    /// equals what a walk from it would look at now (so the one-test guard
    /// in `end_tag` skips exactly the walks that would close nothing).
    #[test]
    fn reach_matches_the_walk() {
        const TAGS: [&str; 30] = [
            "<svg>",
            "</svg>",
            "<svg/>",
            "<math>",
            "</math>",
            "<foreignObject>",
            "</foreignObject>",
            "<desc>",
            "</desc>",
            "<title>",
            "</title>",
            "<mi>",
            "</mi>",
            "<mtext>",
            "</mtext>",
            "<mglyph>",
            "</mglyph>",
            "<annotation-xml encoding=text/html>",
            "</annotation-xml>",
            "<p>",
            "</p>",
            "<div>",
            "</div>",
            "<br>",
            "<img>",
            "<font color=red>",
            "<b>",
            "</b>",
            "<x>",
            "</x>",
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut deepest, mut walls) = (0, 0);
        for _ in 0..3000 {
            let len = 1 + next() % 80;
            let html: String = (0..len)
                .map(|_| TAGS[(next() % TAGS.len() as u64) as usize])
                .collect();
            let mut feedback = Feedback::new(true);
            feedback.frameset_ok = false;
            feedback.update_quiet();
            let mut tok = crate::Tokenizer::with_config(&html, crate::Config::new().driven(true));
            while let Some(token) = tok.next_token() {
                feedback.observe(&token);
                for k in 0..feedback.open.len() {
                    assert_eq!(
                        feedback.open[k].reach,
                        reach_by_walking(&feedback.open, k),
                        "frame {k} after {token:?} in {html}"
                    );
                }
                deepest = deepest.max(feedback.open.len());
                walls += feedback.open.windows(2).filter(|w| w[0].is_wall()).count();
            }
        }
        // Deep stacks, and walks that stop above the bottom, both occur.
        assert!(deepest >= 10 && walls > 100, "{deepest} {walls}");
    }
}
