//! A progress line on standard error: only when it is a terminal, and only
//! once the run has taken a second (a quick run prints nothing there).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub(crate) struct Progress {
    /// `None` when standard error is not a terminal.
    bar: Option<ProgressBar>,
    start: Instant,
    shown: bool,
    pages: u64,
    bytes: u64,
}

impl Progress {
    pub(crate) fn new() -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(style)
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
            pages: 0,
            bytes: 0,
        }
    }

    /// One more page of `bytes` done.
    pub(crate) fn page(&mut self, bytes: usize) {
        self.pages += 1;
        self.bytes += bytes as u64;
        let Some(bar) = &self.bar else { return };
        let elapsed = self.start.elapsed();
        if !self.shown {
            if elapsed < Duration::from_secs(1) {
                return;
            }
            bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        let mb = self.bytes as f64 / 1e6;
        bar.set_message(format!(
            "{} pages, {mb:.1} MB, {:.1} MB/s",
            self.pages,
            mb / elapsed.as_secs_f64()
        ));
    }

    /// Runs `f` (which prints to standard error) with the line cleared.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(f),
            _ => f(),
        }
    }

    /// Clears the line for good.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
