//! The page commands' run: inputs read on one thread, pages processed on
//! `--jobs` threads, results written in input order.
//!
//! A reader thread walks the inputs and reads pages (decompressing, parsing
//! WARC) into a bounded channel; the calling thread takes them in order,
//! hands each to the pool and writes results as soon as every earlier one
//! is written. At most `WINDOW_PER_JOB × jobs` pages are between reading
//! and writing, so memory is bounded whatever the size of the input set.

use std::collections::BTreeMap;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc;

use crate::inputs;
use crate::progress::Progress;
use crate::read::{self, Item, PageIn};
use crate::report::{Problem, Report};
use crate::Failure;

/// Pages in flight per job: enough that a slow page does not idle the
/// other threads, few enough to keep memory small.
const WINDOW_PER_JOB: usize = 16;

/// The inputs and options every page command takes.
#[derive(clap::Args)]
pub(crate) struct PageArgs {
    /// Decode every page with LABEL (a WHATWG Encoding Standard label) as
    /// the transport's charset, instead of the HTTP header's (a byte order
    /// mark still wins)
    #[arg(long, value_name = "LABEL", value_parser = label)]
    pub encoding: Option<String>,
    /// Threads to process pages on [default: all cores]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Files, directories (walked recursively), '-' for standard input,
    /// .gz files, WARC archives (.warc, .warc.gz)
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

fn label(value: &str) -> Result<String, String> {
    crate::tokens::encoding_label(value).map(|_| value.to_owned())
}

impl PageArgs {
    /// The transport charset for `page`: `--encoding`, else its HTTP
    /// `Content-Type`.
    pub(crate) fn transport<'a>(&'a self, page: &'a PageIn) -> Option<&'a str> {
        self.encoding.as_deref().or(page.content_type.as_deref())
    }
}

/// Processes every page of `args.inputs` with `process` on the pool, and
/// gives the results to `emit` in input order; prints problems as they
/// come in order too. Returns the tally, or the first output error.
pub(crate) fn run<R: Send>(
    args: &PageArgs,
    process: &(dyn Fn(&PageIn) -> R + Sync),
    emit: &mut dyn FnMut(R) -> io::Result<()>,
) -> Result<Report, Failure> {
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("htmltok-page-{i}"))
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start {jobs} threads: {e}")))?;
    let window = jobs * WINDOW_PER_JOB;
    let mut progress = Progress::new();
    let mut report = Report::default();

    let result =
        std::thread::scope(|threads| {
            let (to_main, items) = mpsc::sync_channel::<Item>(window);
            threads.spawn(move || {
                // A send fails only when the main thread stopped (output gone).
                inputs::walk(&args.inputs, &mut |input| {
                    read::read(input, &mut |item| to_main.send(item).is_ok())
                });
            });
            pool.in_place_scope(|scope| {
                let (to_writer, results) = mpsc::channel::<(usize, Done<R>)>();
                let mut ready: BTreeMap<usize, Done<R>> = BTreeMap::new();
                let mut next_out = 0;
                let mut write_ready = |ready: &mut BTreeMap<usize, Done<R>>,
                                       next_out: &mut usize,
                                       report: &mut Report|
                 -> io::Result<()> {
                    while let Some(done) = ready.remove(next_out) {
                        *next_out += 1;
                        match done {
                            Done::Page(Ok(result), bytes) => {
                                report.pages += 1;
                                report.bytes += bytes as u64;
                                progress.page(bytes);
                                emit(result)?;
                            }
                            Done::Page(Err(problem), _) | Done::Problem(problem) => {
                                report.problem(&problem, &progress)
                            }
                            Done::Ignored => report.ignored += 1,
                        }
                    }
                    Ok(())
                };
                for (seq, item) in items.into_iter().enumerate() {
                    // Keep the window: wait for results until the oldest
                    // unwritten page is within it.
                    while seq - next_out >= window {
                        let Ok((at, done)) = results.recv() else {
                            break;
                        };
                        ready.insert(at, done);
                        write_ready(&mut ready, &mut next_out, &mut report)?;
                    }
                    match item {
                        Item::Page(page) => {
                            let to_writer = to_writer.clone();
                            scope.spawn(move |_| {
                                let bytes = page.bytes.len();
                                let result = catch_unwind(AssertUnwindSafe(|| process(&page)))
                                    .map_err(|_| Problem {
                                        source: page.source.clone(),
                                        what: "internal error while processing the page (skipped)"
                                            .into(),
                                    });
                                let _ = to_writer.send((seq, Done::Page(result, bytes)));
                            });
                        }
                        Item::Problem(problem) => {
                            ready.insert(seq, Done::Problem(problem));
                        }
                        Item::Ignored => {
                            ready.insert(seq, Done::Ignored);
                        }
                    }
                    while let Ok((at, done)) = results.try_recv() {
                        ready.insert(at, done);
                    }
                    write_ready(&mut ready, &mut next_out, &mut report)?;
                }
                drop(to_writer);
                for (at, done) in results {
                    ready.insert(at, done);
                    write_ready(&mut ready, &mut next_out, &mut report)?;
                }
                write_ready(&mut ready, &mut next_out, &mut report)
            })
        });
    progress.finish();
    result.map_err(Failure::Output)?;
    Ok(report)
}

/// A page's result, or what took its place in the order.
enum Done<R> {
    /// Processed (or failed to), with the page's size.
    Page(Result<R, Problem>, usize),
    Problem(Problem),
    Ignored,
}

/// [`run`] with standard output buffered for `write`, which writes each
/// result in input order; flushed at the end.
pub(crate) fn print<R: Send>(
    args: &PageArgs,
    process: &(dyn Fn(&PageIn) -> R + Sync),
    write: &mut dyn FnMut(&mut dyn io::Write, R) -> io::Result<()>,
) -> Result<Report, Failure> {
    let mut out = io::BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    let report = run(args, process, &mut |result| write(&mut out, result))?;
    io::Write::flush(&mut out).map_err(Failure::Output)?;
    Ok(report)
}

/// [`print`] for results that are the bytes to write.
pub(crate) fn print_bytes(
    args: &PageArgs,
    process: &(dyn Fn(&PageIn) -> Vec<u8> + Sync),
) -> Result<(), Failure> {
    print(args, process, &mut |out, bytes| out.write_all(&bytes))?.finish()
}

/// `value` as a TSV field: tab, newline, carriage return and backslash
/// escaped as `\t`, `\n`, `\r`, `\\`, so that every record is one line.
pub(crate) fn tsv_field(out: &mut Vec<u8>, value: &str) {
    if !value.contains(['\t', '\n', '\r', '\\']) {
        out.extend_from_slice(value.as_bytes());
        return;
    }
    for c in value.chars() {
        match c {
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\\' => out.extend_from_slice(b"\\\\"),
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
}
