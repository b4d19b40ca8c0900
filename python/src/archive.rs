//! `warc_pages`: the HTML pages of a web archive, read by the command
//! line's own reader (`htmltok-warc`), with the same bodies, names and
//! provenance.
//!
//! The archive is read on a thread of its own, a few events ahead of
//! Python: reading and inflating run with the GIL released and beside the
//! Python code that processes the pages, as the command line's reading
//! thread runs beside its page threads.

use std::borrow::Cow;
use std::ffi::CString;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use htmltok_warc::{Bytes, Event, Options, Pages, Skip, Source};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString, PyTuple};

use crate::input::{bytes_like, opt_str, repr, type_name};

pyo3::create_exception!(
    htmltok,
    ArchiveWarning,
    PyUserWarning,
    "Something in an archive that could not be read or is not whole (a broken \
     record, a page cut by whatever cut it, an undecodable body): \
     `warc_pages` warns, records it in `problems`, and reads on. `warnings.simplefilter(\"error\", \
     htmltok.ArchiveWarning)` makes it an exception."
);

/// Events read ahead of Python: enough to keep the reading thread busy
/// while Python processes a page, few enough to bound the memory held.
const READ_AHEAD: usize = 16;

/// Bytes of pages read ahead of Python, at most: sixteen pages of a
/// crawl are a few MiB, but sixteen that inflate to the body limit
/// (256 MiB each, from a few KiB of archive) would be gigabytes. One page
/// is always let through, whatever its size.
const READ_AHEAD_BYTES: usize = 32 << 20;

/// The bytes of the pages the reading thread has read ahead and Python
/// has not taken yet, and whether the iterator is gone.
#[derive(Default)]
struct Budget {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Budget {
    fn lock(&self) -> MutexGuard<'_, (usize, bool)> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits until `size` more bytes may be ahead (at once when none are)
    /// and counts them; `false` when the iterator is gone.
    fn take(&self, size: usize) -> bool {
        let mut state = self.lock();
        while !state.1 && state.0 > 0 && state.0.saturating_add(size) > READ_AHEAD_BYTES {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        if state.1 {
            return false;
        }
        state.0 += size;
        true
    }

    /// Python took a page of `size` bytes.
    fn give(&self, size: usize) {
        self.lock().0 -= size;
        self.changed.notify_all();
    }

    /// The iterator is gone: the reading thread stops.
    fn close(&self) {
        self.lock().1 = true;
        self.changed.notify_all();
    }
}

/// The bytes an event counts against the read-ahead.
fn event_size(event: &Event) -> usize {
    match event {
        Event::Page(page) => page.body.len(),
        _ => 0,
    }
}

/// An HTML page of an archive (from `warc_pages`): its body as the
/// browser received it (HTTP transfer and content codings undone), and
/// where it came from.
///
/// `source` is the page's name as the command line gives it (the record's
/// target URI, or `"ARCHIVE: record N"` without one); `url` the target
/// URI; `content_type` the HTTP `Content-Type` (its charset is the
/// transport's); `status` the HTTP status (`None` for a `resource`);
/// `warc` the archive's name; `offset` the record's offset in it (of its
/// gzip member, LZ4 or Zstandard frame when compressed); `record` its
/// number (from 1); `record_id`, `date` and `kind` (`"response"`,
/// `"resource"`, `"arc"`) from its header; `truncated` whether the page is
/// not whole (cut by the crawler, by the archive's end, or inside its
/// payload); `coding_failed` whether a declared coding did not apply (the
/// body is then the bytes as stored); `content_coding` what became of its
/// `Content-Encoding`: `"applied"`, `"failed"` (the body is as stored) or
/// `None` (none declared), as the command line's JSON says it.
///
/// Pass it to `text`, `links`, `tokenize` and the batch forms as the page:
/// they decode it with its `Content-Type` and resolve its links against
/// its URL, as the command line does. Compares by value, hashes, pickles;
/// `to_dict()` gives its fields.
#[pyclass(module = "htmltok", frozen, eq, hash)]
pub struct ArchivePage {
    body: Bytes,
    /// The body as a Python object, made when first asked for.
    body_object: PyOnceLock<Py<PyBytes>>,
    pub(crate) url: Option<String>,
    pub(crate) content_type: Option<String>,
    source: String,
    status: Option<u16>,
    warc: String,
    offset: u64,
    record: u64,
    record_id: Option<String>,
    date: Option<String>,
    kind: String,
    truncated: bool,
    coding_failed: bool,
    content_coding: Option<&'static str>,
}

/// The values of `ArchivePage.content_coding` besides `None`.
const CONTENT_CODINGS: [&str; 2] = ["applied", "failed"];

impl ArchivePage {
    /// The page's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.body
    }

    /// Everything but the body, for comparing and hashing.
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        (&Option<String>, &Option<String>, &str, Option<u16>, &str),
        (u64, u64, &Option<String>, &Option<String>, &str, bool, bool),
        Option<&'static str>,
    ) {
        (
            (
                &self.url,
                &self.content_type,
                &self.source,
                self.status,
                &self.warc,
            ),
            (
                self.offset,
                self.record,
                &self.record_id,
                &self.date,
                &self.kind,
                self.truncated,
                self.coding_failed,
            ),
            self.content_coding,
        )
    }
}

impl PartialEq for ArchivePage {
    fn eq(&self, other: &ArchivePage) -> bool {
        self.key() == other.key() && self.bytes() == other.bytes()
    }
}

impl std::hash::Hash for ArchivePage {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
        self.bytes().hash(state);
    }
}

#[pymethods]
impl ArchivePage {
    #[new]
    #[pyo3(signature = (body, url=None, content_type=None, source=None, status=None, warc=None,
                        offset=0, record=0, record_id=None, date=None, kind=None,
                        truncated=false, coding_failed=false, content_coding=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        body: &Bound<'_, PyAny>,
        url: Option<String>,
        content_type: Option<String>,
        source: Option<String>,
        status: Option<u16>,
        warc: Option<String>,
        offset: u64,
        record: u64,
        record_id: Option<String>,
        date: Option<String>,
        kind: Option<String>,
        truncated: bool,
        coding_failed: bool,
        content_coding: Option<String>,
    ) -> PyResult<ArchivePage> {
        let content_coding = match content_coding {
            None => None,
            Some(value) => Some(
                *CONTENT_CODINGS
                    .iter()
                    .find(|known| **known == value)
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "content_coding must be \"applied\", \"failed\" or None, not {value:?}"
                        ))
                    })?,
            ),
        };
        let body = bytes_like(body)?.ok_or_else(|| {
            PyTypeError::new_err(format!(
                "body must be bytes, bytearray or memoryview, not {}",
                type_name(body)
            ))
        })?;
        let warc = warc.unwrap_or_else(|| "-".into());
        Ok(ArchivePage {
            body: Bytes::from(body.to_vec()),
            body_object: PyOnceLock::new(),
            source: source.unwrap_or_else(|| name_of(&warc, record, url.as_deref())),
            url,
            content_type,
            status,
            warc,
            offset,
            record,
            record_id,
            date,
            kind: kind.unwrap_or_else(|| "response".into()),
            truncated,
            coding_failed,
            content_coding,
        })
    }

    /// The page's bytes, HTTP transfer and content codings undone, in
    /// whatever character encoding it is in.
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.body_object
            .get_or_init(py, || PyBytes::new(py, &self.body).unbind())
            .bind(py)
            .clone()
    }

    /// The record's target URI.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The HTTP `Content-Type` (a `resource` record's own).
    #[getter]
    fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The page's name: its target URI, or `"ARCHIVE: record N"`.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The HTTP status, for a `response`.
    #[getter]
    fn status(&self) -> Option<u16> {
        self.status
    }

    /// The archive's name (its path as given).
    #[getter]
    fn warc(&self) -> &str {
        &self.warc
    }

    /// The record's offset (of its gzip member or frame when compressed).
    #[getter]
    fn offset(&self) -> u64 {
        self.offset
    }

    /// The record's number in the archive, from 1.
    #[getter]
    fn record(&self) -> u64 {
        self.record
    }

    /// The `WARC-Record-ID`, as written.
    #[getter]
    fn record_id(&self) -> Option<&str> {
        self.record_id.as_deref()
    }

    /// The `WARC-Date` (an ARC record's `YYYYMMDDhhmmss`).
    #[getter]
    fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    /// The record's type: `"response"`, `"resource"`, `"arc"`.
    #[getter]
    fn kind(&self) -> &str {
        &self.kind
    }

    /// Whether the page is not whole.
    #[getter]
    fn truncated(&self) -> bool {
        self.truncated
    }

    /// Whether a declared coding did not apply (the body is as stored).
    #[getter]
    fn coding_failed(&self) -> bool {
        self.coding_failed
    }

    /// What became of its `Content-Encoding`: `"applied"`, `"failed"` (the
    /// body is as stored) or `None` (none declared).
    #[getter]
    fn content_coding(&self) -> Option<&'static str> {
        self.content_coding
    }

    /// The fields as a dict: `body` and the provenance fields.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("body", self.body(py))?;
        dict.set_item("url", &self.url)?;
        dict.set_item("content_type", &self.content_type)?;
        dict.set_item("source", &self.source)?;
        dict.set_item("status", self.status)?;
        dict.set_item("warc", &self.warc)?;
        dict.set_item("offset", self.offset)?;
        dict.set_item("record", self.record)?;
        dict.set_item("record_id", &self.record_id)?;
        dict.set_item("date", &self.date)?;
        dict.set_item("kind", &self.kind)?;
        dict.set_item("truncated", self.truncated)?;
        dict.set_item("coding_failed", self.coding_failed)?;
        dict.set_item("content_coding", self.content_coding)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let p = slf.get();
        let args = crate::py_tuple!(py;
            p.body(py),
            &p.url,
            &p.content_type,
            &p.source,
            p.status,
            &p.warc,
            p.offset,
            p.record,
            &p.record_id,
            &p.date,
            &p.kind,
            p.truncated,
            p.coding_failed,
            p.content_coding
        );
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ArchivePage(source={}, status={}, content_type={}, body=<{} bytes>, warc={}, \
             offset={}, truncated={})",
            repr(py, Some(&self.source))?,
            self.status.map_or("None".into(), |s| s.to_string()),
            repr(py, self.content_type.as_deref())?,
            self.body.len(),
            repr(py, Some(&self.warc))?,
            self.offset,
            if self.truncated { "True" } else { "False" },
        ))
    }
}

/// The name the command line gives a page: its target URI, or its
/// archive and record number.
fn name_of(warc: &str, record: u64, url: Option<&str>) -> String {
    match url {
        Some(url) => url.to_owned(),
        None => format!("{warc}: record {record}"),
    }
}

/// Something in an archive that could not be read (`ArchivePages.problems`).
///
/// `warc` the archive; `record` the record it is in (`None` between
/// records); `offset` where it is; `url` the record's target URI if known;
/// `kind` `"broken"`, `"truncated"` (a page not whole, whatever cut it, or
/// an archive that ends inside a record) or `"undecodable"` (a response
/// whose declared coding failed and whose stored bytes are no page: no
/// page is given for it); `what` what is wrong and where reading resumed. `str()` of it is the command line's message. Compares
/// by value, hashes, pickles; `to_dict()` gives its fields.
#[pyclass(module = "htmltok", frozen, eq, hash, get_all)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ArchiveProblem {
    /// The archive's name.
    warc: String,
    /// The record it is in, from 1 (`None` between records).
    record: Option<u64>,
    /// Its offset in the archive.
    offset: u64,
    /// The record's target URI, if known.
    url: Option<String>,
    /// `"broken"`, `"truncated"` or `"undecodable"`.
    kind: Cow<'static, str>,
    /// What is wrong, and where reading resumed.
    what: String,
}

impl ArchiveProblem {
    /// Where it is, as the command line says it.
    fn location(&self) -> String {
        match (self.record, &self.url) {
            (Some(n), Some(uri)) => format!("record {n} (offset {}, {uri})", self.offset),
            (Some(n), None) => format!("record {n} (offset {})", self.offset),
            (None, _) => format!("offset {}", self.offset),
        }
    }
}

#[pymethods]
impl ArchiveProblem {
    #[new]
    #[pyo3(signature = (warc, record, offset, url, kind, what))]
    fn new(
        warc: String,
        record: Option<u64>,
        offset: u64,
        url: Option<String>,
        kind: String,
        what: String,
    ) -> ArchiveProblem {
        ArchiveProblem {
            warc,
            record,
            offset,
            url,
            kind: Cow::Owned(kind),
            what,
        }
    }

    /// The fields as a dict: `warc`, `record`, `offset`, `url`, `kind`,
    /// `what`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("warc", &self.warc)?;
        dict.set_item("record", self.record)?;
        dict.set_item("offset", self.offset)?;
        dict.set_item("url", &self.url)?;
        dict.set_item("kind", &*self.kind)?;
        dict.set_item("what", &self.what)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let p = slf.get();
        let args = (&p.warc, p.record, p.offset, &p.url, &*p.kind, &p.what);
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    fn __str__(&self) -> String {
        format!("{}: {}: {}", self.warc, self.location(), self.what)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ArchiveProblem({})",
            repr(py, Some(&self.__str__()))?
        ))
    }
}

/// What the iterator has seen so far.
struct State {
    /// The reading thread's events; `None` once they have ended.
    events: Option<Receiver<Event>>,
    problems: Vec<ArchiveProblem>,
    /// Records without a page, by [`Skip`] (non-HTML, revisit,
    /// request/metadata).
    skipped: [u64; 3],
    pages: u64,
}

/// The pages of an archive, in order (`warc_pages`): an iterator of
/// `ArchivePage`.
///
/// What is not a page is accounted for as reading goes: `skipped` counts
/// the records without an HTML page by reason (`"non-HTML"`,
/// `"revisit"`, `"request/metadata"`, the command line's words);
/// `problems` lists what could not be read or is not whole
/// (`ArchiveProblem`), each also warned of with an `ArchiveWarning` (a
/// broken record costs only itself: reading goes on after it). A page
/// that is not whole is given first, and its problem (kind `"truncated"`)
/// on the next call, as the command line prints them.
#[pyclass(module = "htmltok", frozen)]
pub struct ArchivePages {
    warc: String,
    state: Mutex<State>,
    /// The process that started the reading thread: a child made by
    /// `fork` has no such thread.
    pid: u32,
    /// The bytes read ahead, shared with the reading thread.
    budget: Arc<Budget>,
}

impl Drop for ArchivePages {
    fn drop(&mut self) {
        // In a child made by fork the reading thread is not there (and
        // the lock may have been held by it at the fork).
        if std::process::id() == self.pid {
            self.budget.close();
        }
    }
}

impl ArchivePages {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records `problem` and warns of it.
    fn problem(&self, py: Python<'_>, problem: ArchiveProblem) -> PyResult<()> {
        let message = problem.__str__();
        self.state().problems.push(problem);
        warn(py, &message)
    }
}

#[pymethods]
impl ArchivePages {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<ArchivePage>> {
        if std::process::id() != self.pid {
            return Err(PyRuntimeError::new_err(
                "this warc_pages iterator was made before a fork: its reading thread is in \
                 the parent process (call warc_pages in the child)",
            ));
        }
        loop {
            let event = py.detach(|| {
                let mut state = self.state();
                let event = state.events.as_ref().and_then(|events| events.recv().ok());
                if let Some(event) = &event {
                    self.budget.give(event_size(event));
                }
                if event.is_none() {
                    state.events = None;
                }
                event
            });
            let Some(event) = event else {
                return Ok(None);
            };
            match event {
                // A page not whole is followed by the problem that says so.
                Event::Page(page) => {
                    self.state().pages += 1;
                    let record = page.record;
                    // An ARC record is `arc`; a WARC record its type.
                    let kind = match record.is_arc() {
                        true => "arc".to_owned(),
                        false => record.record_type().as_str().to_ascii_lowercase(),
                    };
                    return Ok(Some(ArchivePage {
                        source: name_of(&self.warc, record.number(), record.target_uri()),
                        body: page.body,
                        body_object: PyOnceLock::new(),
                        url: record.target_uri().map(str::to_owned),
                        content_type: page.content_type,
                        status: page.status,
                        warc: self.warc.clone(),
                        offset: record.offset(),
                        record: record.number(),
                        record_id: record.record_id().map(str::to_owned),
                        date: record.date().map(str::to_owned),
                        kind,
                        truncated: page.truncated.is_some(),
                        coding_failed: page.coding_failed.is_some(),
                        content_coding: page.content_coding.map(|c| c.as_str()),
                    }));
                }
                Event::Skipped(skipped) => {
                    let i = match skipped.reason {
                        Skip::NotHtml => 0,
                        Skip::Revisit => 1,
                        Skip::NotAPage => 2,
                    };
                    self.state().skipped[i] += 1;
                }
                Event::Problem(problem) => self.problem(
                    py,
                    ArchiveProblem {
                        warc: self.warc.clone(),
                        record: problem.record(),
                        offset: problem.offset().unwrap_or(0),
                        url: problem.target_uri().map(str::to_owned),
                        kind: Cow::Borrowed(problem.kind().as_str()),
                        what: problem.message().to_owned(),
                    },
                )?,
            }
        }
    }

    /// The archive's name.
    #[getter]
    fn warc(&self) -> &str {
        &self.warc
    }

    /// The pages given so far.
    #[getter]
    fn pages(&self) -> u64 {
        self.state().pages
    }

    /// What could not be read so far, in order.
    #[getter]
    fn problems(&self) -> Vec<ArchiveProblem> {
        self.state().problems.clone()
    }

    /// The records without an HTML page so far, by reason: a dict of
    /// `"non-HTML"`, `"revisit"` and `"request/metadata"` counts.
    #[getter]
    fn skipped<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = self.state().skipped;
        let dict = PyDict::new(py);
        for (reason, n) in [Skip::NotHtml, Skip::Revisit, Skip::NotAPage]
            .iter()
            .zip(counts)
        {
            dict.set_item(reason.as_str(), n)?;
        }
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let state = self.state();
        Ok(format!(
            "ArchivePages(warc={}, pages={}, problems={})",
            repr(py, Some(&self.warc))?,
            state.pages,
            state.problems.len()
        ))
    }
}

/// An `ArchiveWarning` of `message` (an exception when warnings of it are
/// errors).
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let message = CString::new(message.replace('\0', "\\0"))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyErr::warn(py, &py.get_type::<ArchiveWarning>(), &message, 1)
}

/// Whether `path` is a pipe (a FIFO or a socket).
#[cfg(unix)]
fn is_pipe(path: &std::path::Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
}

#[cfg(not(unix))]
fn is_pipe(_path: &std::path::Path) -> bool {
    false
}

/// Where an archive comes from, and its name.
fn source_of(obj: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<(Source, String)> {
    let py = obj.py();
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        let os = py.import("os")?;
        // As the file system has it (a name that is not UTF-8 too, which
        // Python holds with surrogate escapes), named with U+FFFD for its
        // bytes that are not UTF-8.
        let path: PathBuf = os.call_method1("fsdecode", (obj,))?.extract()?;
        let name = name.unwrap_or_else(|| path.to_string_lossy().into_owned());
        // A pipe (a named pipe, `/dev/stdin` under a shell's pipe, a
        // process substitution's `/dev/fd/N`) cannot be read at offsets,
        // as the reader reads a file: it is read whole, as a binary file
        // object is (a device is not: `/dev/zero` has no end).
        if is_pipe(&path) {
            let bytes = py
                .detach(|| std::fs::read(&path))
                .map_err(|e| match e.raw_os_error() {
                    Some(errno) => {
                        let message = e.to_string();
                        let message = message.trim_end_matches(&format!(" (os error {errno})"));
                        PyOSError::new_err((errno, message.to_owned(), name.clone()))
                    }
                    None => PyOSError::new_err(format!("{name}: cannot read: {e}")),
                })?;
            return Ok((Source::from(bytes), name));
        }
        return Ok((Source::from(path), name));
    }
    // The bytes are copied once, straight into the reader's shared buffer:
    // a copy on the way to it would be a second copy of the whole archive
    // at the peak. A bytearray is the exception: borrowing its buffer
    // takes `unsafe` (Python code could resize it), which the bindings do
    // without, so it is copied out first, and that copy is freed once the
    // reader's is made.
    let source = if let Ok(array) = obj.cast::<PyByteArray>() {
        Source::from(array.to_vec())
    } else {
        let bytes = if let Some(bytes) = bytes_like(obj)? {
            bytes
        } else if obj.hasattr("read")? {
            let data = obj.call_method0("read")?;
            bytes_like(&data)?.ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "source must be opened in binary mode: its read() gave {}",
                    type_name(&data)
                ))
            })?
        } else {
            return Err(PyTypeError::new_err(format!(
                "source must be a path, a binary file or bytes, not {}",
                type_name(obj)
            )));
        };
        Source::from(Arc::<[u8]>::from(&*bytes))
    };
    let name = match name {
        Some(name) => name,
        None => match obj.getattr("name") {
            Ok(n) if n.is_instance_of::<PyString>() => n.extract()?,
            _ => "-".into(),
        },
    };
    Ok((source, name))
}

/// The HTML pages of the web archive `source`, in order: an iterator of
/// `ArchivePage`, read by the command line's reader, with the same pages,
/// bodies, names and provenance.
///
/// `source` is a path (`str` or path-like; one that is a pipe, such as
/// `/dev/stdin`, is read whole into memory), a binary file object (read
/// whole into memory), or the archive's bytes. Archives are WARC 0.17 to
/// 1.1 or ARC, plain or compressed (gzip per record or whole, LZ4 frames,
/// Zstandard frames with or without the warc-zstd dictionary), recognised
/// by their content. HTML `response` and `resource` records are the pages,
/// their HTTP payload decoded as a browser receives it (chunked; gzip,
/// deflate, br, zstd); other records are counted in `skipped`; what cannot
/// be read, or is not whole, is in `problems` and warned of
/// (`ArchiveWarning`), each as the command line says it, and reading
/// resumes at the next record. `name` is the archive's name in the pages'
/// provenance (default: the path as given; a file's `name`; `"-"`).
///
/// The archive is read and inflated on a thread of its own with the GIL
/// released, a few records ahead. A path that cannot be opened is an
/// `OSError`, bytes that are no archive a `ValueError`.
///
/// >>> pages = warc_pages(b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
/// ...                    b"Content-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n")
/// >>> [(p.source, p.body, text(p).text) for p in pages]
/// [('http://a.example/', b'<p>hi</p>', 'hi')]
#[pyfunction]
#[pyo3(signature = (source, *, name=None))]
pub fn warc_pages(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<&Bound<'_, PyAny>>,
) -> PyResult<ArchivePages> {
    let name = opt_str(name, "name")?;
    let (source, warc) = source_of(source, name)?;
    let os_error = |e: std::io::Error| match e.raw_os_error() {
        Some(errno) => {
            let message = e.to_string();
            let message = message.trim_end_matches(&format!(" (os error {errno})"));
            PyOSError::new_err((errno, message.to_owned(), warc.clone()))
        }
        None => PyOSError::new_err(format!("{warc}: cannot read: {e}")),
    };
    let reader = py.detach(|| {
        let format = htmltok_warc::detect(&source)?;
        format
            .map(|format| Pages::from_offset(source, format, 0, 0, Options::default()))
            .transpose()
    });
    let Some(reader) = reader.map_err(os_error)? else {
        return Err(PyValueError::new_err(format!(
            "{warc}: not a WARC or ARC archive (nor one compressed with gzip, LZ4 or Zstandard)"
        )));
    };
    let (send, events) = mpsc::sync_channel(READ_AHEAD);
    let budget = Arc::new(Budget::default());
    let ahead = Arc::clone(&budget);
    std::thread::Builder::new()
        .name("htmltok-warc".into())
        .spawn(move || {
            for event in reader {
                if !ahead.take(event_size(&event)) {
                    return;
                }
                // The iterator was dropped: stop reading.
                if send.send(event).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| PyOSError::new_err(format!("cannot start a reading thread: {e}")))?;
    Ok(ArchivePages {
        warc,
        state: Mutex::new(State {
            events: Some(events),
            problems: Vec::new(),
            skipped: [0; 3],
            pages: 0,
        }),
        pid: std::process::id(),
        budget,
    })
}
