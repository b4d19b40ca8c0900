//! The chosen elements' text: plain, as `text()` writes it, or Markdown.

use super::choose::Choice;
use super::tree::{OpKind, Tree};
use crate::extract::text::{is_space, Collapser};

/// Whether `text` starts (`first`) or ends with a visible character, with
/// whitespace, or neither (empty or only NUL, which the text drops).
fn edge(text: &str, first: bool) -> Option<bool> {
    let visible = |b: &u8| *b != 0;
    let b = if first {
        text.bytes().find(visible)
    } else {
        text.bytes().rev().find(visible)
    }?;
    Some(!is_space(b))
}

/// The plain text of the kept elements.
///
/// It is `text()`'s text with the words of the other elements taken out:
/// the recording is written again, the kept elements' texts as they are,
/// of the others only their whitespace and line breaks. Leaving an
/// element out never joins two words, and never splits one: where a word
/// runs across the edge of a left-out element (`foo<span>bar</span>`), the
/// part outside is left out too. So the words of the main content are
/// words of `text()`'s, in the same order.
pub(super) fn plain(tree: &Tree, choice: &Choice) -> String {
    let mut out = Collapser::with_capacity(tree.html.len() / 8);
    // Whether the text `text()` writes is inside a word.
    let mut in_word = false;
    // Whether the next kept text starts inside a word that left-out text
    // began: its start, to the first whitespace, is left out too.
    let mut glued = false;
    for (i, op) in tree.ops.iter().enumerate() {
        let keep = choice.keeps(i, op.element as usize);
        match op.kind {
            OpKind::Text { keep_whitespace } => {
                let text = tree.text(op);
                let Some(starts_visible) = edge(text, true) else {
                    continue;
                };
                let ends_visible = edge(text, false) == Some(true);
                if keep {
                    let mut text = text;
                    if glued && starts_visible {
                        match text.bytes().position(is_space) {
                            Some(at) => text = &text[at..],
                            None => {
                                in_word = true;
                                continue;
                            }
                        }
                    }
                    glued = false;
                    out.text(text, keep_whitespace);
                } else {
                    if starts_visible && in_word && out.ends_in_word() {
                        out.drop_last_word();
                    }
                    if text.bytes().any(is_space) {
                        out.space();
                    }
                    glued = ends_visible;
                }
                in_word = ends_visible;
            }
            OpKind::BlockBreak => {
                out.block_break();
                (in_word, glued) = (false, false);
            }
            OpKind::LineBreak => {
                if keep {
                    out.line_break();
                } else {
                    out.block_break();
                }
                (in_word, glued) = (false, false);
            }
            OpKind::Tab => {
                if keep {
                    out.tab();
                } else {
                    out.space();
                }
                (in_word, glued) = (false, false);
            }
            OpKind::Open | OpKind::Close => {}
        }
    }
    out.finish()
}

/// How deep lists and quotes indent at most: deeper ones are written at
/// this depth, so that the output stays linear in the page.
const MAX_DEPTH: usize = 8;

/// The Markdown of the kept elements: headings as `#`, paragraphs apart,
/// lists as `-` and `1.`, quotes as `>`, code blocks fenced, tables as
/// pipe tables, emphasis and inline code marked; links as
/// `[text](href)` when `links`.
pub(super) fn markdown(tree: &Tree, choice: &Choice, links: bool) -> String {
    let mut md = Markdown {
        out: String::with_capacity(tree.html.len() / 8),
        line: String::new(),
        space: false,
        written: 0,
        lists: Vec::new(),
        quotes: 0,
        pre: 0,
        table: None,
        tables: 0,
        marks: Vec::new(),
        prefixed: None,
    };
    for (i, op) in tree.ops.iter().enumerate() {
        let e = op.element as usize;
        if !choice.keeps(i, e) {
            if let OpKind::Text { .. } = op.kind {
                md.space = true;
            }
            continue;
        }
        match op.kind {
            OpKind::Text { keep_whitespace } => md.text(tree.text(op), keep_whitespace),
            OpKind::Open => md.open(tree, e, links),
            OpKind::Close => md.close(tree, e, links),
            OpKind::BlockBreak | OpKind::LineBreak | OpKind::Tab => {}
        }
    }
    md.end_block();
    let end = md.out.trim_end().len();
    md.out.truncate(end);
    md.out
}

/// A list being written: ordered (with its next number) or not.
struct List {
    ordered: bool,
    next: u32,
}

/// A table being gathered, written whole at its end.
#[derive(Default)]
struct Gathered {
    rows: Vec<Vec<String>>,
    /// Whether the first row is a header (`th` cells or `thead`).
    header: bool,
}

/// An inline mark waiting for its end: where its opening was written
/// into the line, and what closes it.
struct Mark {
    element: usize,
    at: usize,
    /// `Markdown::written` when it opened.
    written: usize,
    close: &'static str,
}

struct Markdown {
    out: String,
    /// The block being written (a paragraph, a heading, an item, a cell).
    line: String,
    space: bool,
    /// Visible texts written so far: a mark with none inside is taken back.
    written: usize,
    lists: Vec<List>,
    quotes: usize,
    pre: usize,
    table: Option<Gathered>,
    /// Open tables (nested ones are read as text of their cell).
    tables: usize,
    marks: Vec<Mark>,
    /// The length of the prefix `line` starts with already (a list
    /// item's indentation and marker).
    prefixed: Option<usize>,
}

impl Markdown {
    /// The prefix of each line in the current block: quotes and list
    /// indentation.
    fn prefix(&self) -> String {
        let mut p = "> ".repeat(self.quotes.min(MAX_DEPTH));
        p.push_str(&"   ".repeat(self.lists.len().saturating_sub(1).min(MAX_DEPTH)));
        p
    }

    fn text(&mut self, text: &str, keep_whitespace: bool) {
        if keep_whitespace || self.pre > 0 {
            if self.space && !self.line.is_empty() && self.pre == 0 {
                self.line.push(' ');
            }
            self.space = false;
            self.line.extend(text.chars().filter(|&c| c != '\0'));
            self.written += 1;
            return;
        }
        for (i, word) in text.split(|c: char| c.is_ascii_whitespace()).enumerate() {
            if i > 0 {
                self.space = true;
            }
            let word = word.trim_matches('\0');
            if word.is_empty() {
                continue;
            }
            if self.space && !self.line.is_empty() && !self.line.ends_with([' ', '\n']) {
                self.line.push(' ');
            }
            self.space = false;
            if word.contains('\0') {
                self.line.extend(word.chars().filter(|&c| c != '\0'));
            } else {
                self.line.push_str(word);
            }
            self.written += 1;
        }
    }

    /// Ends the current block: its line goes out, followed by a blank line
    /// (a single line break between the items of a list).
    fn end_block(&mut self) {
        self.space = false;
        self.marks.clear();
        if self.table.is_some() {
            return;
        }
        let line = std::mem::take(&mut self.line);
        let prefixed = self.prefixed.take();
        // An item with nothing in it is not written.
        if line[prefixed.unwrap_or(0).min(line.len())..]
            .trim()
            .is_empty()
        {
            return;
        }
        let line = if prefixed.is_some() {
            line.trim_end()
        } else {
            line.trim()
        };
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            let in_list = !self.lists.is_empty();
            self.out.push('\n');
            if !in_list {
                self.out.push('\n');
            }
        }
        let prefix = self.prefix();
        for (i, l) in line.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                self.out.push_str(&prefix);
                // An item's later lines are indented under its text.
                if !self.lists.is_empty() {
                    self.out.push_str("   ");
                }
            } else if prefixed.is_none() {
                self.out.push_str(&prefix);
            }
            self.out.push_str(l.trim_end());
        }
    }

    /// A blank line after a list or a quote, before what follows.
    fn paragraph_break(&mut self) {
        self.end_block();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push_str(if self.out.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            });
        }
    }

    fn open(&mut self, tree: &Tree, e: usize, links: bool) {
        use super::tags::Kind::*;
        let kind = tree.elements[e].kind;
        if self.tables > 0 {
            return self.open_in_table(kind, e);
        }
        if self.pre > 0 {
            return;
        }
        match kind {
            H1 | H2 | H3 | H4 | H5 | H6 => {
                self.end_block();
                let level = match kind {
                    H1 => 1,
                    H2 => 2,
                    H3 => 3,
                    H4 => 4,
                    H5 => 5,
                    _ => 6,
                };
                self.line.push_str(&"#".repeat(level));
                self.line.push(' ');
            }
            Ul | Ol | Menu | Dir => {
                if self.lists.is_empty() {
                    self.paragraph_break();
                } else {
                    self.end_block();
                }
                self.lists.push(List {
                    ordered: kind == Ol,
                    next: 1,
                });
            }
            Li => {
                self.end_block();
                let depth = self.lists.len().saturating_sub(1).min(MAX_DEPTH);
                let prefix = "> ".repeat(self.quotes.min(MAX_DEPTH)) + &"   ".repeat(depth);
                self.line.push_str(&prefix);
                match self.lists.last_mut() {
                    Some(List {
                        ordered: true,
                        next,
                    }) => {
                        self.line.push_str(&format!("{next}. "));
                        *next += 1;
                    }
                    _ => self.line.push_str("- "),
                }
                self.prefixed = Some(self.line.len());
            }
            Blockquote => {
                self.paragraph_break();
                self.quotes += 1;
            }
            Pre | Listing | Xmp | Plaintext => {
                self.end_block();
                self.pre += 1;
            }
            Table => {
                self.end_block();
                self.tables = 1;
                self.table = Some(Gathered::default());
            }
            Br => {
                self.line.push('\n');
                self.space = false;
            }
            Hr => {
                self.end_block();
                self.line.push_str("---");
                self.end_block();
            }
            B | Strong => self.mark(e, "**", "**"),
            I | Em => self.mark(e, "*", "*"),
            Code | Kbd | Samp => self.mark(e, "`", "`"),
            A if links => {
                let (start, end) = tree.elements[e].href;
                if start != super::tree::NONE {
                    let href = &tree.strings[start as usize..end as usize];
                    if !href.is_empty()
                        && !href.starts_with('#')
                        && !href.starts_with("javascript:")
                    {
                        self.mark(e, "[", "");
                    }
                }
            }
            k if k.is_block() => self.end_block(),
            _ => {}
        }
    }

    fn close(&mut self, tree: &Tree, e: usize, links: bool) {
        use super::tags::Kind::*;
        let kind = tree.elements[e].kind;
        if self.tables > 0 {
            return self.close_in_table(kind);
        }
        match kind {
            Pre | Listing | Xmp | Plaintext if self.pre > 0 => {
                self.pre -= 1;
                if self.pre == 0 {
                    self.fence();
                }
            }
            _ if self.pre > 0 => {}
            Ul | Ol | Menu | Dir => {
                self.end_block();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.paragraph_break();
                }
            }
            Blockquote => {
                self.end_block();
                self.quotes = self.quotes.saturating_sub(1);
                self.paragraph_break();
            }
            B | Strong | I | Em | Code | Kbd | Samp => self.unmark(e, None),
            A if links => {
                if let Some(href) = tree.href(&tree.elements[e]) {
                    self.unmark(e, Some(href));
                }
            }
            k if k.is_block() => self.end_block(),
            _ => {}
        }
    }

    /// Opens an inline mark.
    fn mark(&mut self, element: usize, open: &'static str, close: &'static str) {
        if self.space && !self.line.is_empty() && !self.line.ends_with([' ', '\n']) {
            self.line.push(' ');
        }
        self.space = false;
        self.marks.push(Mark {
            element,
            at: self.line.len(),
            written: self.written,
            close,
        });
        self.line.push_str(open);
    }

    /// Closes the mark of `element`: taken back if nothing was written in
    /// it; for a link, `href` closes it.
    fn unmark(&mut self, element: usize, href: Option<&str>) {
        // Elements close innermost first: an open mark inside this one
        // has closed already, so this one's is the last, if any.
        if self.marks.last().map(|m| m.element) != Some(element) {
            return;
        }
        let Some(mark) = self.marks.pop() else { return };
        if self.written == mark.written || mark.at > self.line.len() {
            self.line.truncate(mark.at.min(self.line.len()));
            return;
        }
        // Emphasis hugs its text: a space before the closing mark goes
        // after it.
        let trailing = self.line.ends_with(' ');
        if trailing {
            self.line.pop();
        }
        match href {
            Some(href) => {
                self.line.push_str("](");
                self.line.push_str(href);
                self.line.push(')');
            }
            None => self.line.push_str(mark.close),
        }
        if trailing {
            self.space = true;
        }
    }

    /// Writes the code block gathered in `line`, fenced by more backticks
    /// than it holds in a row.
    fn fence(&mut self) {
        let code = std::mem::take(&mut self.line);
        let code = code.strip_prefix('\n').unwrap_or(&code).trim_end();
        if code.trim().is_empty() {
            return;
        }
        let mut longest = 0;
        let mut run = 0;
        for b in code.bytes() {
            run = if b == b'`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
        let fence = "`".repeat(longest.max(2) + 1);
        self.line = format!("{fence}\n{code}\n{fence}");
        self.end_block();
    }

    fn open_in_table(&mut self, kind: super::tags::Kind, _e: usize) {
        use super::tags::Kind::*;
        match kind {
            Table => self.tables += 1,
            _ if self.tables > 1 => self.space = true,
            Tr => {
                self.end_cell();
                if let Some(t) = &mut self.table {
                    t.rows.push(Vec::new());
                }
            }
            Td | Th => {
                self.end_cell();
                if let Some(t) = &mut self.table {
                    if t.rows.is_empty() {
                        t.rows.push(Vec::new());
                    }
                    if kind == Th && t.rows.len() == 1 {
                        t.header = true;
                    }
                    if let Some(row) = t.rows.last_mut() {
                        row.push(String::new());
                    }
                }
            }
            Thead => {
                if let Some(t) = &mut self.table {
                    t.header = t.rows.is_empty() || t.header;
                }
            }
            Br => self.space = true,
            _ => {}
        }
    }

    fn close_in_table(&mut self, kind: super::tags::Kind) {
        use super::tags::Kind::*;
        if kind != Table {
            if matches!(kind, Td | Th) && self.tables == 1 {
                self.end_cell();
            }
            return;
        }
        self.tables -= 1;
        if self.tables > 0 {
            self.space = true;
            return;
        }
        self.end_cell();
        let Some(table) = self.table.take() else {
            return;
        };
        self.write_table(table);
    }

    /// Puts the text gathered in `line` into the table's current cell.
    fn end_cell(&mut self) {
        let text = std::mem::take(&mut self.line);
        self.space = false;
        self.marks.clear();
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(t) = &mut self.table {
            if t.rows.is_empty() {
                t.rows.push(Vec::new());
            }
            let row = t.rows.last_mut().expect("a row");
            if row.is_empty() {
                row.push(String::new());
            }
            let cell = row.last_mut().expect("a cell");
            if !cell.is_empty() {
                cell.push(' ');
            }
            for c in text.chars() {
                match c {
                    '|' => cell.push_str("\\|"),
                    '\n' => cell.push(' '),
                    c => cell.push(c),
                }
            }
        }
    }

    fn write_table(&mut self, table: Gathered) {
        let rows: Vec<Vec<String>> = table.rows.into_iter().filter(|r| !r.is_empty()).collect();
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 || rows.iter().all(|r| r.iter().all(String::is_empty)) {
            return;
        }
        // A table of one column is a list of lines, not a grid.
        if columns == 1 {
            for row in rows {
                self.line = row.into_iter().next().unwrap_or_default();
                self.end_block();
            }
            return;
        }
        let mut lines = String::new();
        let write_row = |lines: &mut String, row: &[String]| {
            lines.push('|');
            for i in 0..columns {
                lines.push(' ');
                lines.push_str(row.get(i).map_or("", String::as_str));
                lines.push_str(" |");
            }
            lines.push('\n');
        };
        let (head, body): (&[Vec<String>], &[Vec<String>]) = if table.header {
            (&rows[..1], &rows[1..])
        } else {
            (&[], &rows[..])
        };
        match head.first() {
            Some(h) => write_row(&mut lines, h),
            None => write_row(&mut lines, &vec![String::new(); columns]),
        }
        lines.push('|');
        for _ in 0..columns {
            lines.push_str(" --- |");
        }
        lines.push('\n');
        for row in body {
            write_row(&mut lines, row);
        }
        self.paragraph_break();
        self.out.push_str(lines.trim_end());
        self.out.push_str("\n\n");
    }
}
