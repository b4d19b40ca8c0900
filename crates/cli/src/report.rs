//! What was processed and what was skipped, and the exit status it makes.

use crate::progress::Progress;
use crate::Failure;

/// An input or page that could not be processed, and why.
pub(crate) struct Problem {
    /// The input (a path, `-`, a WARC record).
    pub source: String,
    /// What is wrong with it.
    pub what: String,
}

/// The tally of a run.
#[derive(Default)]
pub(crate) struct Report {
    /// Pages processed.
    pub pages: u64,
    /// Their bytes, as read (decompressed).
    pub bytes: u64,
    /// Inputs, pages and records skipped for a problem.
    pub skipped: u64,
    /// WARC records that hold no HTML page, passed over as expected.
    pub ignored: u64,
}

impl Report {
    /// Counts `problem` and prints its line.
    pub(crate) fn problem(&mut self, problem: &Problem, progress: &Progress) {
        self.skipped += 1;
        progress.suspend(|| eprintln!("htmltok: {}: {}", problem.source, problem.what));
    }

    /// The exit status: success when every input gave pages; else a
    /// summary line, and 1 if some pages were processed, 2 if none.
    pub(crate) fn finish(&self) -> Result<(), Failure> {
        if self.skipped == 0 && self.pages > 0 {
            return Ok(());
        }
        let ignored = match self.ignored {
            0 => String::new(),
            n => format!(", {n} non-HTML WARC record{} passed over", plural(n)),
        };
        eprintln!(
            "htmltok: {} page{} processed, {} input{} or record{} skipped{ignored}",
            self.pages,
            plural(self.pages),
            self.skipped,
            plural(self.skipped),
            plural(self.skipped),
        );
        Err(Failure::Status(if self.pages == 0 { 2 } else { 1 }))
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
