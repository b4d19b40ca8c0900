//! What was processed and what was skipped, and the exit status it makes.

use htmltok_warc::Skip;

use crate::progress::Progress;
use crate::Failure;

/// An input, record or page that could not be processed, and why.
pub(crate) struct Problem {
    /// Where: a path, `-`, or an archive's record (`ARCHIVE: record N
    /// (offset X, URI)`).
    pub source: String,
    /// What is wrong with it.
    pub what: String,
    pub kind: What,
}

/// The kinds of problem, as the summary counts them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum What {
    /// An input that could not be read at all (missing, not a page, not
    /// an archive it claims to be).
    Unreadable,
    /// An archive's record or bytes that are not what the format says.
    Broken,
    /// A page that is not whole (cut by its crawler, inside its payload,
    /// by the archive's end, ...: the reader says each), or an archive
    /// that ends inside a record.
    Truncated,
    /// An archived response whose declared coding failed and whose
    /// stored bytes are no page: no page.
    Undecodable,
    /// A page whose processing failed (an internal error).
    Failed,
}

/// The tally of a run.
#[derive(Default)]
pub(crate) struct Report {
    /// Pages processed.
    pub pages: u64,
    /// Their bytes, as read (decompressed).
    pub bytes: u64,
    /// Inputs read (an archive opened, a page found).
    pub opened: u64,
    /// Archive records without a page, by reason.
    pub not_html: u64,
    pub revisits: u64,
    pub not_pages: u64,
    /// Problems, by kind.
    pub unreadable: u64,
    pub broken: u64,
    pub truncated: u64,
    pub undecodable: u64,
    pub failed: u64,
    /// Archived pages whose declared coding did not apply (read as
    /// stored), and pages not whole.
    pub coding_failed: u64,
    pub truncated_pages: u64,
}

impl Report {
    /// Counts `problem` and prints its line.
    pub(crate) fn problem(&mut self, problem: &Problem, progress: &Progress) {
        match problem.kind {
            What::Unreadable => self.unreadable += 1,
            What::Broken => self.broken += 1,
            What::Truncated => self.truncated += 1,
            What::Undecodable => self.undecodable += 1,
            What::Failed => self.failed += 1,
        }
        progress.suspend(|| eprintln!("htmltok: {}: {}", problem.source, problem.what));
    }

    /// Counts an archive record passed over.
    pub(crate) fn skipped(&mut self, reason: Skip) {
        match reason {
            Skip::NotHtml => self.not_html += 1,
            Skip::Revisit => self.revisits += 1,
            Skip::NotAPage => self.not_pages += 1,
        }
    }

    /// Problems of every kind.
    pub(crate) fn problems(&self) -> u64 {
        self.unreadable + self.broken + self.truncated + self.undecodable + self.failed
    }

    /// Archive records passed over.
    pub(crate) fn passed_over(&self) -> u64 {
        self.not_html + self.revisits + self.not_pages
    }

    /// The summary line: pages, the records passed over by reason, the
    /// problems by kind.
    pub(crate) fn summary(&self) -> String {
        let mut line = format!("{} page{} processed", self.pages, plural(self.pages));
        let parts = |counts: &[(u64, &str)]| {
            counts
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.passed_over() > 0 {
            let n = self.passed_over();
            line += &format!(
                "; {n} archive record{} passed over ({})",
                plural(n),
                parts(&[
                    (self.not_html, Skip::NotHtml.as_str()),
                    (self.revisits, Skip::Revisit.as_str()),
                    (self.not_pages, Skip::NotAPage.as_str()),
                ])
            );
        }
        if self.problems() > 0 {
            let n = self.problems();
            line += &format!(
                "; {n} problem{}: {}",
                plural(n),
                parts(&[
                    (self.broken, "broken"),
                    (self.truncated, "truncated"),
                    (self.undecodable, "undecodable"),
                    (self.unreadable, "unreadable"),
                    (self.failed, "failed"),
                ])
            );
        }
        line
    }

    /// The exit status: 0 when every input was read (with or without
    /// pages), 1 when something was skipped or is not whole, 2 when
    /// nothing could be read.
    /// The summary goes to standard error when something was passed over
    /// or skipped.
    pub(crate) fn finish(&self) -> Result<(), Failure> {
        if self.problems() > 0 || self.passed_over() > 0 {
            eprintln!("htmltok: {}", self.summary());
        }
        if self.problems() == 0 {
            Ok(())
        } else if self.opened == 0 {
            Err(Failure::Status(2))
        } else {
            Err(Failure::Status(1))
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
