//! A page's text as a reader sees it.

use crate::{Config, Flow, Token, Tokenizer};

/// A page's title and text, from [`text()`].
///
/// The rules, which follow what a browser shows without running scripts
/// or applying style sheets:
///
/// - **Title**: the first `<title>` outside `<svg>`, whitespace collapsed
///   and trimmed (as `document.title`); `None` when there is none. No
///   title is part of `text`.
/// - **Left out**: `<script>`, `<style>`, `<template>`, `<noscript>`
///   (scripting is on, as in a browser), `<iframe>`, `<noembed>`,
///   `<noframes>`, comments, and the head's metadata (which holds no
///   text).
/// - **Line breaks**: at `<br>` (also `</br>`, as a browser reads it), and
///   before and after the block elements `p`, `div`, `h1`–`h6`, `li`,
///   `dt`, `dd`, `tr`, `blockquote`, `pre`, `section`, `article`,
///   `header`, `footer`, `nav`, `aside`, `table`, `form`, `hr`, `address`,
///   `figure`, `figcaption`, `main`, `details`, `summary`, `ul`, `ol`,
///   `dl` (blocks next to each other make one break, not a blank line).
/// - **Tables**: a tab between the cells (`td`, `th`) of a row.
/// - **Whitespace**: each run of ASCII whitespace is one space, none at the
///   start or end of a line, outside `pre`, `textarea`, `listing`, `xmp`
///   and `plaintext`, where it is kept as written (less the one newline
///   right after `<pre>`, `<listing>` or `<textarea>`, which a browser
///   drops).
/// - Character references are decoded; U+0000 is dropped; the text has no
///   whitespace at its start or end.
///
/// ```
/// use htmltok::extract::text;
///
/// let page = "<html><head><title> A  page </title><style>p{}</style></head>
///   <body><h1>Hello,\n   world</h1><p>One<br>two &amp; three</p>
///   <script>var x = '<p>not text</p>';</script><!-- nor this -->
///   <table><tr><td>a<td>b</tr><tr><td>c</td><td>d</td></tr></table>
///   <pre>  kept
///     as is</pre>";
/// let page_text = text(page);
/// assert_eq!(page_text.title.as_deref(), Some("A page"));
/// assert_eq!(page_text.text, "Hello, world\nOne\ntwo & three\na\tb\nc\td\n  kept\n    as is");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageText {
    /// The first title's text, collapsed and trimmed.
    pub title: Option<String>,
    /// The body's text.
    pub text: String,
}

/// What a tag does to the text. One lookup per tag, start or end.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// Nothing: inline elements, unknown ones.
    Inline,
    /// A line break before and after.
    Block,
    /// A line break.
    Br,
    /// A row: a line break, and the cell count starts again.
    Row,
    /// A cell: a tab after the row's previous cell.
    Cell,
    /// Text kept as written; a line break around it unless inline
    /// (`textarea`); drops a newline right after its start tag if `lf`.
    Pre { block: bool, lf: bool },
    /// The element's text (raw text to the tokenizer) is not shown.
    Hidden,
    /// Markup that is not shown, possibly nested.
    Template,
    /// The title.
    Title,
    /// Foreign content, whose `<title>` is not the page's.
    Svg,
}

pub(super) fn role(name: &str) -> Role {
    match name {
        "p" | "div" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "li" | "dt" | "dd"
        | "blockquote" | "section" | "article" | "header" | "footer" | "nav" | "aside" | "form"
        | "hr" | "address" | "figure" | "figcaption" | "main" | "details" | "summary" | "ul"
        | "ol" | "dl" => Role::Block,
        "br" => Role::Br,
        "tr" | "table" => Role::Row,
        "td" | "th" => Role::Cell,
        "pre" | "listing" => Role::Pre {
            block: true,
            lf: true,
        },
        "xmp" | "plaintext" => Role::Pre {
            block: true,
            lf: false,
        },
        "textarea" => Role::Pre {
            block: false,
            lf: true,
        },
        "script" | "style" | "noscript" | "iframe" | "noembed" | "noframes" => Role::Hidden,
        "template" => Role::Template,
        "title" => Role::Title,
        "svg" => Role::Svg,
        _ => Role::Inline,
    }
}

/// The title and text of the page `html` ([`PageText`] has the rules).
pub fn text(html: &str) -> PageText {
    let mut state = State::new(Collapser::with_capacity(html.len() / 8));
    // No rule reads an attribute: the tokenizer steps over them, which
    // spares building every attribute of every tag.
    let mut tok = Tokenizer::with_config(html, Config::new().skip_attributes());
    tok.for_each_token(|token| {
        state.token(token);
        Flow::Continue
    });
    PageText {
        title: state.title(),
        text: state.out.finish(),
    }
}

/// Where [`State`] writes the text: the [`Collapser`] for [`text()`], a
/// recording of the same calls for the main content, which writes them
/// later for the parts of the page it keeps.
pub(super) trait Sink {
    /// A text as the page has it: whitespace collapsed, or kept as written.
    fn text(&mut self, text: &str, keep_whitespace: bool);
    /// A line break unless at the start of a line.
    fn block_break(&mut self);
    /// A line break, also on an empty line.
    fn line_break(&mut self);
    /// A tab between table cells.
    fn tab(&mut self);
}

/// What the next text token is, decided by the tag before it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Shown (if not inside a template).
    Shown,
    /// Shown, less a leading newline (after `<pre>`).
    ShownAfterPre,
    /// The raw text of a hidden element, or of a title that is not the
    /// page's.
    Hidden,
    /// The page's title.
    Title,
}

/// The rules of [`PageText`], token by token, writing to a [`Sink`].
pub(super) struct State<O> {
    pub(super) out: O,
    title: Option<Collapser>,
    next_text: Next,
    /// Open `<template>`s: nothing inside is shown.
    hidden_depth: u32,
    /// Open elements whose whitespace is kept.
    pre_depth: u32,
    svg_depth: u32,
    /// Cells so far in the current table row.
    cells: u32,
}

impl<O: Sink> State<O> {
    pub(super) fn new(out: O) -> Self {
        State {
            out,
            title: None,
            next_text: Next::Shown,
            hidden_depth: 0,
            pre_depth: 0,
            svg_depth: 0,
            cells: 0,
        }
    }

    /// The page's title, once the page is read.
    pub(super) fn title(&mut self) -> Option<String> {
        self.title.take().map(Collapser::finish)
    }

    pub(super) fn token(&mut self, token: Token<'_>) {
        match token {
            Token::Text(t) => self.text(t.as_str()),
            Token::StartTag(tag) => self.start_tag(role(tag.name()), tag.self_closing()),
            Token::EndTag(tag) => self.end_tag(role(tag.name())),
            _ => {}
        }
    }

    /// A text token.
    pub(super) fn text(&mut self, text: &str) {
        match self.next_text {
            _ if self.hidden_depth > 0 => {}
            Next::Shown => self.out.text(text, self.pre_depth > 0),
            Next::ShownAfterPre => {
                let text = text.strip_prefix('\n').unwrap_or(text);
                self.out.text(text, self.pre_depth > 0);
            }
            Next::Hidden => {}
            Next::Title => {
                if let Some(title) = &mut self.title {
                    title.text(text, false);
                }
            }
        }
    }

    /// A start tag, by its element's role.
    pub(super) fn start_tag(&mut self, role: Role, self_closing: bool) {
        // Raw text ends at the next tag, so a tag always ends it.
        self.next_text = Next::Shown;
        if self.hidden_depth > 0 {
            self.hidden_depth += u32::from(role == Role::Template);
            return;
        }
        self.start(role, self_closing);
    }

    /// An end tag, by its element's role.
    pub(super) fn end_tag(&mut self, role: Role) {
        self.next_text = Next::Shown;
        if self.hidden_depth > 0 {
            self.hidden_depth -= u32::from(role == Role::Template);
            return;
        }
        self.end(role);
    }

    fn start(&mut self, role: Role, self_closing: bool) {
        match role {
            Role::Inline => {}
            Role::Block => self.out.block_break(),
            Role::Br => self.out.line_break(),
            Role::Row => {
                self.out.block_break();
                self.cells = 0;
            }
            Role::Cell => {
                if self.cells > 0 {
                    self.out.tab();
                }
                self.cells += 1;
            }
            Role::Pre { block, lf } => {
                if block {
                    self.out.block_break();
                }
                self.pre_depth += 1;
                if lf {
                    self.next_text = Next::ShownAfterPre;
                }
            }
            Role::Hidden => self.next_text = Next::Hidden,
            Role::Template => self.hidden_depth = 1,
            Role::Title if self.svg_depth == 0 && self.title.is_none() => {
                self.title = Some(Collapser::with_capacity(64));
                self.next_text = Next::Title;
            }
            Role::Title => self.next_text = Next::Hidden,
            // `<svg/>` opens nothing.
            Role::Svg => self.svg_depth += u32::from(!self_closing),
        }
    }

    fn end(&mut self, role: Role) {
        match role {
            Role::Block => self.out.block_break(),
            Role::Br => self.out.line_break(),
            Role::Row => {
                self.out.block_break();
                self.cells = 0;
            }
            Role::Pre { block, .. } => {
                self.pre_depth = self.pre_depth.saturating_sub(1);
                if block {
                    self.out.block_break();
                }
            }
            Role::Svg => self.svg_depth = self.svg_depth.saturating_sub(1),
            Role::Inline | Role::Cell | Role::Hidden | Role::Template | Role::Title => {}
        }
    }
}

/// Text with whitespace collapsed as it is written.
///
/// Invariant: `out` never ends with a space written by collapsing; a
/// collapsed run is remembered in `space` and written only before the next
/// visible character on the same line, so breaks and tabs never follow a
/// space and lines never start with one.
pub(super) struct Collapser {
    out: String,
    space: bool,
}

/// ASCII whitespace, as the standard collapses it (CR is already gone:
/// the tokenizer normalises newlines).
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r')
}

/// A word of one bit in each byte: the lowest, the highest.
const LOW: u64 = u64::from_le_bytes([1; 8]);
const HIGH: u64 = LOW * 0x80;

/// Eight bytes from `at` as one word, first byte lowest.
fn word(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk = bytes.get(at..at + 8)?;
    Some(u64::from_le_bytes(chunk.try_into().ok()?))
}

/// The first index from `at` where a run of visible text may end: a byte
/// at most b' ' (whitespace, NUL, another control character) other than a
/// space with a byte above b' ' after it inside the same eight-byte word;
/// or the end. Eight bytes at a time, and exact per byte, so that the
/// single spaces between words of prose do not stop it (a stop a word
/// made them much of the text extraction's work).
fn next_break(bytes: &[u8], mut at: usize) -> usize {
    while let Some(x) = word(bytes, at) {
        // Bytes below 0x21: a byte under 0x80 plus 0x5f stays under 0x80
        // exactly then (no carry leaves a byte); bytes from 0x80 are out.
        let low = !(((x & !HIGH) + LOW * 0x5f) | x) & HIGH;
        let space = zero_bytes(x ^ (LOW * u64::from(b' ')));
        // A space is inside a run when the next byte is above b' '; the
        // word's last byte has its next in the next word: a stop.
        let inside = space & !(low >> 8) & !(1 << 63);
        let stop = low & !inside;
        if stop != 0 {
            return at + (stop.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < bytes.len() && bytes[at] > b' ' {
        at += 1;
    }
    at
}

/// The high bit of each byte of `x` that is zero (exactly: no carry
/// crosses a byte, as `(b & 0x7f) + 0x7f` stays below 0x100).
fn zero_bytes(x: u64) -> u64 {
    !(((x & !HIGH) + !HIGH) | x | !HIGH)
}

/// The first index from `at` that is neither whitespace nor NUL, and
/// whether whitespace was passed (NUL alone is no space). Eight bytes at a
/// time: whitespace runs between tags ("\n\t\t") are most of what it
/// passes over.
fn skip_space(bytes: &[u8], mut at: usize) -> (usize, bool) {
    // Most runs of text begin with a visible byte: nothing to skip.
    if bytes.get(at).is_some_and(|&b| b > b' ') {
        return (at, false);
    }
    let mut space = false;
    while let Some(x) = word(bytes, at) {
        // Indentation: after the first word of a run (its newline), whole
        // words of spaces or of tabs, taken at one comparison each.
        if x == LOW * u64::from(b' ') || x == LOW * u64::from(b'\t') {
            space = true;
            at += 8;
            continue;
        }
        let ws = zero_bytes(x ^ (LOW * u64::from(b' ')))
            | zero_bytes(x ^ (LOW * u64::from(b'\n')))
            | zero_bytes(x ^ (LOW * u64::from(b'\t')))
            | zero_bytes(x ^ (LOW * u64::from(b'\r')))
            | zero_bytes(x ^ (LOW * 0x0c));
        let skip = ws | zero_bytes(x);
        if skip == HIGH {
            space |= ws != 0;
            at += 8;
            continue;
        }
        // The bytes before the first one to keep; fewer than eight.
        let n = (!skip & HIGH).trailing_zeros() / 8;
        space |= ws & ((1u64 << (8 * n)) - 1) != 0;
        return (at + n as usize, space);
    }
    while let Some(&b) = bytes.get(at) {
        if is_space(b) {
            space = true;
        } else if b != 0 {
            break;
        }
        at += 1;
    }
    (at, space)
}

impl Sink for Collapser {
    fn text(&mut self, text: &str, keep_whitespace: bool) {
        Collapser::text(self, text, keep_whitespace);
    }
    fn block_break(&mut self) {
        Collapser::block_break(self);
    }
    fn line_break(&mut self) {
        Collapser::line_break(self);
    }
    fn tab(&mut self) {
        Collapser::tab(self);
    }
}

impl Collapser {
    pub(super) fn with_capacity(n: usize) -> Self {
        Collapser {
            out: String::with_capacity(n),
            space: false,
        }
    }

    /// Whether the output is at the start of a line or after a tab, where
    /// a collapsed space is not written.
    fn at_line_start(&self) -> bool {
        matches!(self.out.as_bytes().last(), None | Some(b'\n' | b'\t'))
    }

    /// Writes a stretch of visible text (no whitespace at its ends).
    fn visible(&mut self, s: &str) {
        if self.space && !self.at_line_start() {
            self.out.push(' ');
        }
        self.space = false;
        self.out.push_str(s);
    }

    pub(super) fn text(&mut self, text: &str, keep_whitespace: bool) {
        if keep_whitespace {
            if self.space && !self.at_line_start() {
                self.out.push(' ');
            }
            self.space = false;
            if text.contains('\0') {
                self.out.extend(text.chars().filter(|&c| c != '\0'));
            } else {
                self.out.push_str(text);
            }
            return;
        }
        // Runs of visible text with single spaces inside are written
        // whole; a run ends at other whitespace, a second space, or NUL.
        // Whitespace and NUL are ASCII, so every index where a run starts
        // or ends is a char boundary.
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let (next, space) = skip_space(bytes, at);
            self.space |= space;
            at = next;
            if at == bytes.len() {
                break;
            }
            let run = at;
            loop {
                at = next_break(bytes, at);
                match bytes.get(at) {
                    Some(b' ') if bytes.get(at + 1).is_some_and(|&n| n > b' ') => at += 2,
                    // Other control characters are visible, as written.
                    Some(&b) if !is_space(b) && b != 0 => at += 1,
                    _ => break,
                }
            }
            self.visible(&text[run..at]);
        }
    }

    /// Whether the text ends inside a word: the last byte written is not
    /// whitespace and no collapsed space waits.
    pub(super) fn ends_in_word(&self) -> bool {
        !self.space && self.out.as_bytes().last().is_some_and(|&b| !is_space(b))
    }

    /// Takes back the word the text ends inside (or the trailing part of
    /// it): everything after the last whitespace.
    pub(super) fn drop_last_word(&mut self) {
        // Whitespace is ASCII: the byte after it starts a character.
        let keep = self.out.bytes().rposition(is_space).map_or(0, |i| i + 1);
        self.out.truncate(keep);
        if self.out.ends_with(' ') {
            self.out.pop();
            self.space = true;
        }
    }

    /// A collapsed space: written before the next visible character on
    /// the same line.
    pub(super) fn space(&mut self) {
        self.space = true;
    }

    /// A line break unless at the start of a line (or of the text).
    pub(super) fn block_break(&mut self) {
        self.space = false;
        if !matches!(self.out.as_bytes().last(), None | Some(b'\n')) {
            self.out.push('\n');
        }
    }

    /// A line break, also on an empty line (`<br><br>` is a blank line).
    pub(super) fn line_break(&mut self) {
        self.space = false;
        if !self.out.is_empty() {
            self.out.push('\n');
        }
    }

    pub(super) fn tab(&mut self) {
        self.space = false;
        self.out.push('\t');
    }

    /// The text, without whitespace at its ends.
    pub(super) fn finish(mut self) -> String {
        let end = self
            .out
            .trim_end_matches(|c: char| c.is_ascii_whitespace())
            .len();
        self.out.truncate(end);
        let start = self.out.len()
            - self
                .out
                .trim_start_matches(|c: char| c.is_ascii_whitespace())
                .len();
        if start > 0 {
            self.out.drain(..start);
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(html: &str) -> String {
        text(html).text
    }

    #[test]
    fn whitespace_collapses_outside_pre() {
        assert_eq!(body("  a \t b\n\n c  "), "a b c");
        assert_eq!(body("a<b> b </b>c"), "a b c");
        assert_eq!(body("a<b>b</b> <i> c</i>"), "ab c");
        assert_eq!(body("<p>  x  </p>"), "x");
        assert_eq!(body("a&nbsp; &#32;b"), "a\u{a0} b");
        assert_eq!(body("a\0b \0 c"), "ab c");
    }

    /// The collapsing written plainly: words split at ASCII whitespace,
    /// NUL dropped, joined by single spaces.
    fn collapsed(s: &str) -> String {
        let words: Vec<String> = s
            .split(|c: char| c.is_ascii_whitespace())
            .map(|w| w.replace('\0', ""))
            .filter(|w| !w.is_empty())
            .collect();
        words.join(" ")
    }

    #[test]
    fn collapsing_equals_the_plain_definition() {
        // Every string of up to 6 characters over an alphabet with each
        // kind of byte the scans tell apart, and longer ones that cross
        // the eight-byte words at every offset.
        let alphabet = [' ', '\t', '\n', '\x0c', '\0', '\x01', 'a', 'é'];
        let mut cases = vec![String::new()];
        for _ in 0..6 {
            let next: Vec<String> = cases
                .iter()
                .filter(|c| c.chars().count() == cases.last().unwrap().chars().count())
                .flat_map(|c| alphabet.iter().map(move |&ch| format!("{c}{ch}")))
                .collect();
            cases.extend(next);
        }
        // Random strings long enough for the eight-byte words, mostly
        // letters and single spaces (prose), so that each kind of byte
        // meets each other at every position in a word.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            let mut r = seed;
            let case: String = (0..len)
                .map(|_| {
                    r = r.rotate_left(5) ^ 0x2545_f491_4f6c_dd1d;
                    let k = (r % 16) as usize;
                    if k < alphabet.len() {
                        alphabet[k]
                    } else if k < 12 {
                        ' '
                    } else {
                        'w'
                    }
                })
                .collect();
            cases.push(case);
        }
        for pad in 0..17 {
            cases.push(format!("{}word  x{}", " ".repeat(pad), "y".repeat(pad)));
            cases.push(format!("{}\tz {}", "ab cd ".repeat(pad), " ".repeat(pad)));
            cases.push(format!("x\n{}y{}", "\t".repeat(2 * pad), "\t ".repeat(pad)));
        }
        for case in &cases {
            let mut c = Collapser::with_capacity(0);
            c.text(case, false);
            assert_eq!(c.finish(), collapsed(case), "{case:?}");
        }
    }

    #[test]
    fn pre_keeps_whitespace_less_its_first_newline() {
        assert_eq!(body("x<pre>\n a  b\n</pre>c"), "x\n a  b\nc");
        assert_eq!(body("x<pre>\n\nz</pre>"), "x\n\nz");
        assert_eq!(body("x <textarea>\n t  u</textarea> v"), "x  t  u v");
        assert_eq!(body("<pre><b> b </b></pre>"), "b");
        assert_eq!(body("<p>a</p><pre> <i> i </i> </pre>"), "a\n  i");
        assert_eq!(body("<xmp>\n<p>x</xmp>"), "<p>x");
    }

    #[test]
    fn breaks_blocks_and_cells() {
        assert_eq!(body("a<br>b<br><br>c</br>d"), "a\nb\n\nc\nd");
        assert_eq!(body("<div><p>a</p></div><div>b</div>"), "a\nb");
        assert_eq!(body("a<div>b</div>c"), "a\nb\nc");
        assert_eq!(body("<ul><li>1<li>2</ul>after"), "1\n2\nafter");
        assert_eq!(
            body("<table><tr><td>a</td> <td></td><td>c</td></tr><tr><th>d</table>e"),
            "a\t\tc\nd\ne"
        );
        assert_eq!(body("<h2>Title</h2>text<hr>more"), "Title\ntext\nmore");
    }

    #[test]
    fn hidden_content_is_left_out() {
        let html = "<head><meta charset=utf-8><link rel=x><style>a{}</style>\
            <script>1<2</script></head><body>a<noscript>n</noscript>b<template>t<p>u\
            <template>v</template>w</template>c<iframe>f</iframe><noembed>e</noembed>\
            <noframes>g</noframes><!--c-->d";
        assert_eq!(body(html), "abcd");
    }

    #[test]
    fn title_is_the_first_outside_svg() {
        let t = text(
            "<svg><title>icon</title></svg><title>\n Real &amp;  one </title><title>two</title>x",
        );
        assert_eq!(t.title.as_deref(), Some("Real & one"));
        assert_eq!(t.text, "x");
        assert_eq!(text("<title></title>").title.as_deref(), Some(""));
        assert_eq!(text("<p>no title").title, None);
        // `<svg/>` opens nothing: the title after it is the page's.
        assert_eq!(text("<svg/><title>t</title>").title.as_deref(), Some("t"));
    }
}
