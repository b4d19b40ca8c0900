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
    let mut out = Collapser::with_capacity(tree.strings.len() / 2);
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
