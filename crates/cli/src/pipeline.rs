//! The page commands' run: inputs read on one thread, pages processed on
//! `--jobs` threads, results written in input order.
//!
//! A reader thread walks the inputs and reads pages (decompressing, parsing
//! WARC), numbering them; `--jobs` loops on the rayon pool take them from
//! a channel and process them; the calling thread writes the results in
//! their numbers' order as soon as every earlier one is written. A
//! `.warc.gz` comes as segments that a worker reads and processes whole
//! (`segment.rs`); the writer checks that they join (`Chain`). At most
//! `WINDOW_PER_JOB × jobs` items are between reading and writing (the
//! reader waits for a credit the writer gives back), so memory is bounded
//! whatever the size of the input set.

use std::collections::BTreeMap;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};

use std::sync::Arc;

use htmltok::encoding::{Encoding, UTF_16BE, UTF_16LE};
use htmltok_warc::segment::{End, Join};
use htmltok_warc::{Options, Pool};

use crate::inputs;
use crate::progress::Progress;
use crate::read::{self, Item, PageIn};
use crate::report::{Problem, Report, What};
use crate::Failure;

/// Pages in flight per job: enough that a slow page does not idle the
/// other threads, few enough to keep memory small.
const WINDOW_PER_JOB: usize = 8;

/// Credits a `.warc.gz` segment takes: it is a few hundred pages, so
/// fewer are in flight (two a job), which is enough for a job that ends
/// its segment early to go on with the next.
const SEGMENT_WEIGHT: usize = WINDOW_PER_JOB / 2;

/// The credits `item` takes.
fn weight(item: &Item) -> usize {
    match item {
        Item::Segment(..) => SEGMENT_WEIGHT,
        _ => 1,
    }
}

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
    /// .gz files, WARC and ARC archives (.warc, .arc, plain or .gz, .lz4,
    /// .zst; recognised by their content)
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// The buffers pages are read into and results written from, shared
    /// by the reading thread, the page threads and the writer.
    #[arg(skip)]
    pool: Pool,
}

fn label(value: &str) -> Result<String, String> {
    crate::tokens::encoding_label(value).map(|_| value.to_owned())
}

impl PageArgs {
    /// The pool of page and output buffers: a buffer taken from it is
    /// given back once written.
    pub(crate) fn pool(&self) -> &Pool {
        &self.pool
    }

    /// How archives are read: with the run's buffers.
    fn options(&self) -> Options {
        Options::default().with_pool(self.pool.clone())
    }

    /// The transport charset for `page`: `--encoding`, else its HTTP
    /// `Content-Type`.
    pub(crate) fn transport<'a>(&'a self, page: &'a PageIn) -> Option<&'a str> {
        self.encoding.as_deref().or(page.content_type.as_deref())
    }

    /// Whether `--encoding` names UTF-16 (LE or BE): then a page's NUL bytes
    /// are its ASCII characters' high halves, not the mark of a binary file.
    fn declares_utf16(&self) -> bool {
        self.encoding
            .as_deref()
            .and_then(|label| Encoding::for_label(label.as_bytes()))
            .is_some_and(|e| e == UTF_16LE || e == UTF_16BE)
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
    let utf16 = args.declares_utf16();
    let options = args.options();
    let mut progress = Progress::new();
    let mut report = Report::default();

    // Credits bound the window: the reader takes one per item, the writer
    // gives it back once the item is written.
    let (credit, credits) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        let _ = credit.send(());
    }
    let (to_workers, work) = mpsc::channel::<(usize, Item)>();
    let work = Mutex::new(work);
    // One item gives one result, or several for a file that is a WARC
    // archive by its content.
    let (to_writer, results) = mpsc::channel::<(usize, Vec<Done<R>>)>();

    let result = std::thread::scope(|threads| {
        let reading = options.clone();
        threads.spawn(move || {
            let mut seq = 0;
            // Either send fails only when the writer stopped (output gone).
            let mut send = |item| {
                let cost = weight(&item);
                let sent = (0..cost).all(|_| credits.recv().is_ok())
                    && to_workers.send((seq, item)).is_ok();
                seq += 1;
                sent
            };
            inputs::walk(&args.inputs, &mut |input| {
                let name = input.name();
                // A panic in a reader (a bug, ours or a crate's) costs the
                // rest of that input, not the run.
                catch_unwind(AssertUnwindSafe(|| {
                    read::read(input, utf16, &reading, &mut send)
                }))
                .unwrap_or_else(|_| {
                    send(Item::Problem(Problem {
                        source: name,
                        what: "internal error while reading (the rest of it skipped)".into(),
                        kind: What::Broken,
                    }))
                })
            });
        });
        pool.in_place_scope(|scope| {
            // Owned here, so that leaving early (the output is gone) drops
            // them: the reader's next credit and the workers' next send
            // fail, and every thread ends.
            let (credit, results) = (credit, results);
            // Each job is a loop that takes the next item: an idle thread
            // waits in the channel instead of spinning for rayon's next
            // task, which cost as much as reading the pages.
            for _ in 0..jobs {
                let (work, to_writer, options) = (&work, to_writer.clone(), &options);
                scope.spawn(move |_| loop {
                    let next = work.lock().map(|work| work.recv());
                    let Ok(Ok((seq, item))) = next else { return };
                    let mut done = Vec::with_capacity(1);
                    match item {
                        Item::File(path) => {
                            read::file_pages(&path, utf16, options, &mut |item| {
                                done.push(outcome(item, process));
                                true
                            });
                        }
                        Item::Segment(segment, archive) => {
                            let end = segment.read(&mut |event| {
                                read::event_items(event, &archive, &mut |item| {
                                    done.push(outcome(item, process));
                                    true
                                })
                            });
                            done.push(Done::End(end, archive));
                        }
                        item => done.push(outcome(item, process)),
                    }
                    if to_writer.send((seq, done)).is_err() {
                        return;
                    }
                });
            }
            drop(to_writer);
            let mut ready: BTreeMap<usize, Vec<Done<R>>> = BTreeMap::new();
            let mut next_out = 0;
            let mut join = Join::new();
            let mut deliver = |done: Done<R>| -> io::Result<()> {
                match done {
                    Done::Page(Ok(result), bytes, flags) => {
                        report.pages += 1;
                        report.truncated_pages += u64::from(flags.0);
                        report.coding_failed += u64::from(flags.1);
                        report.bytes += bytes as u64;
                        progress.page(bytes);
                        emit(result)?;
                    }
                    Done::Page(Err(problem), ..) | Done::Problem(problem) => {
                        report.problem(&problem, &progress)
                    }
                    Done::Skipped(reason) => report.skipped(reason),
                    Done::Opened => report.opened += 1,
                    // Taken off by the writer before.
                    Done::End(..) => {}
                }
                Ok(())
            };
            for (seq, done) in results.iter() {
                ready.insert(seq, done);
                while let Some(mut done) = ready.remove(&next_out) {
                    next_out += 1;
                    match done.pop() {
                        Some(Done::End(end, archive)) => {
                            for _ in 0..SEGMENT_WEIGHT {
                                let _ = credit.send(());
                            }
                            join_segment(&mut join, end, &archive, done, &mut deliver, process)?
                        }
                        last => {
                            let _ = credit.send(());
                            for done in done.into_iter().chain(last) {
                                deliver(done)?;
                            }
                        }
                    }
                }
            }
            Ok(())
        })
    });
    progress.finish();
    result.map_err(Failure::Output)?;
    Ok(report)
}

/// What became of one item.
fn outcome<R>(item: Item, process: &(dyn Fn(&PageIn) -> R + Sync)) -> Done<R> {
    match item {
        Item::Page(page) => {
            let result = catch_unwind(AssertUnwindSafe(|| process(&page))).map_err(|_| Problem {
                source: page.source.clone(),
                what: "internal error while processing the page (skipped)".into(),
                kind: What::Failed,
            });
            let bytes = page.bytes.len();
            let flags = page
                .archived
                .as_ref()
                .map_or((false, false), |a| (a.truncated, a.coding_failed));
            page.bytes.recycle();
            Done::Page(result, bytes, flags)
        }
        Item::Problem(problem) => Done::Problem(problem),
        Item::Skipped(reason) => Done::Skipped(reason),
        Item::Opened => Done::Opened,
        // file_pages and segments hand on pages, never files.
        Item::File(path) => Done::Problem(Problem {
            source: path.display().to_string(),
            what: "internal error: a file inside a file (skipped)".into(),
            kind: What::Failed,
        }),
        Item::Segment(_, archive) => Done::Problem(Problem {
            source: archive.to_string(),
            what: "internal error: a segment inside a file (skipped)".into(),
            kind: What::Failed,
        }),
    }
}

/// Writes the items of a `.warc.gz` segment read on a page thread,
/// `done`, where [`Join`] says they belong: after any stretch before it
/// that no segment covered (read here), unless it started inside a member
/// (a wrong guess, dropped); then whatever the archive still needs read
/// here after it.
fn join_segment<R>(
    join: &mut Join,
    end: End,
    archive: &Arc<str>,
    done: Vec<Done<R>>,
    deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
    process: &(dyn Fn(&PageIn) -> R + Sync),
) -> io::Result<()> {
    let delivered = here(deliver, process, archive, |here| {
        join.before(&end.segment, here).is_some()
    })?;
    if delivered {
        for done in done {
            deliver(done)?;
        }
    }
    here(deliver, process, archive, |here| {
        join.after(end, delivered, here)
    })
}

/// Runs `read` on the writing thread, each event it gives processed and
/// written at once; the first output error ends it and is returned.
fn here<R, T>(
    deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
    process: &(dyn Fn(&PageIn) -> R + Sync),
    archive: &Arc<str>,
    read: impl FnOnce(&mut dyn FnMut(htmltok_warc::Event) -> bool) -> T,
) -> io::Result<T> {
    let mut failed = None;
    let result = read(&mut |event| {
        read::event_items(
            event,
            archive,
            &mut |item| match deliver(outcome(item, process)) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            },
        )
    });
    failed.map_or(Ok(result), Err)
}

/// A page's result, or what took its place in the order.
enum Done<R> {
    /// Processed (or failed to), with the page's size and whether it was
    /// cut and had a coding that failed.
    Page(Result<R, Problem>, usize, (bool, bool)),
    Problem(Problem),
    Skipped(htmltok_warc::Skip),
    Opened,
    /// How a segment ended, after its items.
    End(End, Arc<str>),
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

/// [`print()`] for results that are the bytes to write.
pub(crate) fn print_bytes(
    args: &PageArgs,
    process: &(dyn Fn(&PageIn) -> Vec<u8> + Sync),
) -> Result<(), Failure> {
    print(args, process, &mut |out, bytes| {
        out.write_all(&bytes)?;
        args.pool().recycle(bytes);
        Ok(())
    })?
    .finish()
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
