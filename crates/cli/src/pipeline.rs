//! The page commands' run: inputs read on one thread, pages processed on
//! `--jobs` threads, results written in input order.
//!
//! A reader thread walks the inputs and reads pages (decompressing, parsing
//! WARC), numbering them; `--jobs` loops on the rayon pool take them from
//! a channel and process them; the calling thread writes the results in
//! their numbers' order as soon as every earlier one is written. A
//! `.warc.gz` comes as segments that a worker reads and processes whole
//! (`segment.rs`); the writer checks that they join ([`Chain`]). At most
//! `WINDOW_PER_JOB × jobs` items are between reading and writing (the
//! reader waits for a credit the writer gives back), so memory is bounded
//! whatever the size of the input set.

use std::collections::BTreeMap;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};

use crate::inputs;
use crate::progress::Progress;
use crate::read::{self, Item, PageIn};
use crate::report::{Problem, Report};
use crate::segment;
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
        Item::Segment(_) => SEGMENT_WEIGHT,
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
                catch_unwind(AssertUnwindSafe(|| read::read(input, &mut send))).unwrap_or_else(
                    |_| {
                        send(Item::Problem(Problem {
                            source: name,
                            what: "internal error while reading (the rest of it skipped)".into(),
                        }))
                    },
                )
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
                let (work, to_writer) = (&work, to_writer.clone());
                scope.spawn(move |_| loop {
                    let next = work.lock().map(|work| work.recv());
                    let Ok(Ok((seq, item))) = next else { return };
                    let mut done = Vec::with_capacity(1);
                    match item {
                        Item::File(path) => {
                            read::file_pages(&path, &mut |item| {
                                done.push(outcome(item, process));
                                true
                            });
                        }
                        Item::Segment(segment) => {
                            let end = segment::read(&segment, &mut |item| {
                                done.push(outcome(item, process));
                                true
                            });
                            done.push(Done::End(end));
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
            let mut chain = Chain::default();
            let mut deliver = |done: Done<R>| -> io::Result<()> {
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
                    // Taken off by the writer before.
                    Done::End(_) => {}
                }
                Ok(())
            };
            for (seq, done) in results.iter() {
                ready.insert(seq, done);
                while let Some(mut done) = ready.remove(&next_out) {
                    next_out += 1;
                    match done.pop() {
                        Some(Done::End(end)) => {
                            for _ in 0..SEGMENT_WEIGHT {
                                let _ = credit.send(());
                            }
                            chain.take(end, done, &mut deliver, process)?
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
            });
            let bytes = page.bytes.len();
            read::recycle_page(page.bytes);
            Done::Page(result, bytes)
        }
        Item::Problem(problem) => Done::Problem(problem),
        Item::Ignored => Done::Ignored,
        // file_pages and segments hand on pages, never files.
        Item::File(path) => Done::Problem(Problem {
            source: path.display().to_string(),
            what: "internal error: a file inside a file (skipped)".into(),
        }),
        Item::Segment(segment) => Done::Problem(Problem {
            source: segment.source.to_string(),
            what: "internal error: a segment inside a file (skipped)".into(),
        }),
    }
}

/// The segments of the `.warc.gz` being written (see `segment.rs`): which
/// are taken, and what is read here instead.
///
/// Invariant: the items written for the archive so far are those of
/// reading it in order up to `expected`, a member end (or, once
/// `finished`, all of it).
#[derive(Default)]
struct Chain {
    file: Option<usize>,
    expected: u64,
    /// Records written so far.
    records: usize,
    finished: bool,
}

impl Chain {
    /// Writes the items of a segment read on a page thread, `done`, if
    /// it starts where the archive is read up to; reads any stretch no
    /// segment covers here.
    fn take<R>(
        &mut self,
        end: segment::End,
        done: Vec<Done<R>>,
        deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
        process: &(dyn Fn(&PageIn) -> R + Sync),
    ) -> io::Result<()> {
        let segment = &end.segment;
        if self.file != Some(segment.file) {
            *self = Chain {
                file: Some(segment.file),
                ..Chain::default()
            };
        }
        // A gap before the segment (the one before it ended early: it was
        // dropped, or stopped at the end of its reach).
        while !self.finished && self.expected < segment.start {
            self.fill(segment, segment.start, deliver, process)?;
        }
        if !self.finished && self.expected == segment.start {
            for done in done {
                deliver(done)?;
            }
            self.settle(segment, end.how, end.records, deliver, process)?;
        }
        // Else it started inside a member: a wrong guess, dropped.
        if segment.last {
            while !self.finished && self.expected < segment.len {
                self.fill(segment, segment.len, deliver, process)?;
            }
        }
        Ok(())
    }

    /// Reads the archive from `expected` until a member ends at or past
    /// `stop`, here.
    fn fill<R>(
        &mut self,
        like: &segment::Segment,
        stop: u64,
        deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
        process: &(dyn Fn(&PageIn) -> R + Sync),
    ) -> io::Result<()> {
        let segment = segment::Segment {
            start: self.expected,
            stop,
            last: false,
            ..like.clone()
        };
        let end = here(deliver, process, |send| segment::read(&segment, send))?;
        self.settle(&segment, end.how, end.records, deliver, process)
    }

    /// Goes on after a segment that ended as `how`, having written its
    /// `records`.
    fn settle<R>(
        &mut self,
        segment: &segment::Segment,
        how: segment::How,
        records: usize,
        deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
        process: &(dyn Fn(&PageIn) -> R + Sync),
    ) -> io::Result<()> {
        self.records += records;
        match how {
            segment::How::At(at) => self.expected = at,
            segment::How::InOrder(at) => {
                self.finished = true;
                let first = self.records;
                let read = here(deliver, process, |send| {
                    catch_unwind(AssertUnwindSafe(|| {
                        crate::warc::read_members_from(
                            &segment.path,
                            at,
                            first,
                            &segment.source,
                            send,
                        )
                    }))
                })?;
                if read.is_err() {
                    deliver(Done::Problem(internal(segment)))?;
                }
            }
            segment::How::Failed => {
                self.finished = true;
                deliver(Done::Problem(internal(segment)))?;
            }
        }
        Ok(())
    }
}

/// Runs `read` on the writing thread, each item it gives processed and
/// written at once; the first output error ends it and is returned.
fn here<R, T>(
    deliver: &mut dyn FnMut(Done<R>) -> io::Result<()>,
    process: &(dyn Fn(&PageIn) -> R + Sync),
    read: impl FnOnce(&mut dyn FnMut(Item) -> bool) -> T,
) -> io::Result<T> {
    let mut failed = None;
    let result = read(&mut |item| match deliver(outcome(item, process)) {
        Ok(()) => true,
        Err(e) => {
            failed = Some(e);
            false
        }
    });
    failed.map_or(Ok(result), Err)
}

fn internal(segment: &segment::Segment) -> Problem {
    Problem {
        source: segment.source.to_string(),
        what: "internal error while reading (the rest of it skipped)".into(),
    }
}

/// A page's result, or what took its place in the order.
enum Done<R> {
    /// Processed (or failed to), with the page's size.
    Page(Result<R, Problem>, usize),
    Problem(Problem),
    Ignored,
    /// How a segment ended, after its items.
    End(segment::End),
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
    print(args, process, &mut |out, bytes| {
        out.write_all(&bytes)?;
        read::recycle(bytes);
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
