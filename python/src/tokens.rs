//! `tokenize` (one Python object per token) and `token_table` (the
//! records as `bytes`), both over a [`Table`] built with the GIL released.
//!
//! A `Token` from `tokenize` is a reference to its page's table and its
//! record's number: its strings and its attribute dict are made when they
//! are read. Making a string per name and text, and a dict per tag, for
//! every token of a page was most of `tokenize`'s time, and a pipeline
//! that looks at a few kinds of token never reads the others' strings.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyModule, PyString, PyTuple};

use crate::input::{bytes_like, flag, opt_str, repr, type_name, Decoded, Decoding, Html};
use crate::object_list;
use htmltok::records::SavedRecords;

use crate::table::{
    config, AttrRecord, Table, TooBig, FORCE_QUIRKS, HAS_S0, HAS_S1, HAS_S2, KINDS, MAX_BYTES,
    SELF_CLOSING,
};

/// A page's decoded text and its table, shared by the page's tokens.
struct Doc {
    text: String,
    table: Table,
}

/// What a token is made of: a record of a shared table, or fields of its
/// own (a token made by `Token(...)`, or unpickled).
enum Data {
    Record { doc: Arc<Doc>, index: u32 },
    Own(Box<Fields>),
}

/// A token's fields, owned.
struct Fields {
    kind: u8,
    name: Option<String>,
    attrs: Vec<(String, String)>,
    data: Option<String>,
    self_closing: bool,
    start: u64,
    end: u64,
    public_id: Option<String>,
    system_id: Option<String>,
    force_quirks: bool,
}

/// A token's fields, borrowed from its table or its own.
struct View<'a> {
    kind: u8,
    name: Option<&'a str>,
    attrs: Attrs<'a>,
    data: Option<&'a str>,
    self_closing: bool,
    start: u64,
    end: u64,
    public_id: Option<&'a str>,
    system_id: Option<&'a str>,
    force_quirks: bool,
}

/// A tag's attributes, in source order.
enum Attrs<'a> {
    Records(&'a Doc, &'a [AttrRecord]),
    Own(&'a [(String, String)]),
}

impl<'a> Attrs<'a> {
    fn len(&self) -> usize {
        match self {
            Attrs::Records(_, records) => records.len(),
            Attrs::Own(pairs) => pairs.len(),
        }
    }

    fn get(&self, i: usize) -> (&'a str, &'a str) {
        match *self {
            Attrs::Records(doc, records) => {
                let a = &records[i];
                (
                    doc.table.string(&doc.text, a.name_off, a.name_len),
                    doc.table.string(&doc.text, a.value_off, a.value_len),
                )
            }
            Attrs::Own(pairs) => (&pairs[i].0, &pairs[i].1),
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&'a str, &'a str)> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.iter() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }
}

impl Data {
    /// The kind's number (an index into [`KINDS`]).
    fn kind(&self) -> u8 {
        match self {
            Data::Own(f) => f.kind,
            Data::Record { doc, index } => doc.table.tokens()[*index as usize].kind,
        }
    }

    fn view(&self) -> View<'_> {
        match self {
            Data::Own(f) => View {
                kind: f.kind,
                name: f.name.as_deref(),
                attrs: Attrs::Own(&f.attrs),
                data: f.data.as_deref(),
                self_closing: f.self_closing,
                start: f.start,
                end: f.end,
                public_id: f.public_id.as_deref(),
                system_id: f.system_id.as_deref(),
                force_quirks: f.force_quirks,
            },
            Data::Record { doc, index } => {
                let rec = &doc.table.tokens()[*index as usize];
                let string = |off, len| doc.table.string(&doc.text, off, len);
                let has = |bit: u8| rec.flags & bit != 0;
                let mut view = View {
                    kind: rec.kind,
                    name: None,
                    attrs: Attrs::Own(&[]),
                    data: None,
                    self_closing: has(SELF_CLOSING),
                    start: rec.start.into(),
                    end: rec.end.into(),
                    public_id: None,
                    system_id: None,
                    force_quirks: has(FORCE_QUIRKS),
                };
                match KINDS[rec.kind as usize] {
                    "doctype" => {
                        view.name = has(HAS_S0).then(|| string(rec.s0_off, rec.s0_len));
                        view.public_id = has(HAS_S1).then(|| string(rec.s1_off, rec.s1_len));
                        view.system_id = has(HAS_S2).then(|| string(rec.s2_off, rec.s2_len));
                    }
                    "start_tag" | "end_tag" => {
                        view.name = Some(string(rec.s0_off, rec.s0_len));
                        let first = rec.first_attr as usize;
                        let records = &doc.table.attrs()[first..first + rec.n_attrs as usize];
                        view.attrs = Attrs::Records(doc, records);
                    }
                    "processing_instruction" => {
                        view.name = Some(string(rec.s0_off, rec.s0_len));
                        view.data = Some(string(rec.s1_off, rec.s1_len));
                    }
                    _ => view.data = Some(string(rec.s0_off, rec.s0_len)),
                }
                view
            }
        }
    }
}

/// One token of the WHATWG tokenizer.
///
/// `kind` is one of `"doctype"`, `"start_tag"`, `"end_tag"`, `"comment"`,
/// `"text"`, `"processing_instruction"`. `name` is a tag's name
/// (lower-case), a doctype's name or a processing instruction's target;
/// `attrs` a tag's attributes in source order (duplicates dropped, as the
/// standard drops them); `data` the text of a text or comment token (a
/// processing instruction's data); `start`/`end` the token's UTF-8 byte
/// offsets in the decoded page.
///
/// Tokens compare by value, hash, pickle, and `to_dict()` gives their
/// fields; `Token(kind, name=..., attrs=..., ...)` makes one.
///
/// >>> tokenize("<a href=/x>")[0] == Token("start_tag", name="a", attrs={"href": "/x"}, end=11)
/// True
/// >>> tokenize("<a href=/x>")[0].to_dict()["attrs"]
/// {'href': '/x'}
#[pyclass(module = "htmltok", frozen, eq, hash)]
pub struct Token {
    data: Data,
}

impl PartialEq for Token {
    fn eq(&self, other: &Token) -> bool {
        let (a, b) = (self.data.view(), other.data.view());
        a.kind == b.kind
            && a.name == b.name
            && a.data == b.data
            && a.self_closing == b.self_closing
            && (a.start, a.end) == (b.start, b.end)
            && (a.public_id, a.system_id) == (b.public_id, b.system_id)
            && a.force_quirks == b.force_quirks
            && a.attrs.iter().eq(b.attrs.iter())
    }
}

impl Hash for Token {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let v = self.data.view();
        (v.kind, v.name, v.data, v.self_closing, v.start, v.end).hash(state);
        (v.public_id, v.system_id, v.force_quirks).hash(state);
        for pair in v.attrs.iter() {
            pair.hash(state);
        }
    }
}

/// The attribute pairs of `attrs`: a mapping (its items in order) or an
/// iterable of `(name, value)` pairs.
fn attr_pairs(attrs: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let items = match attrs.cast::<PyDict>() {
        Ok(dict) => dict.items().into_any(),
        Err(_) => attrs.clone(),
    };
    let wrong = || {
        PyTypeError::new_err(format!(
            "attrs must be a dict of str to str or (name, value) pairs, not {}",
            type_name(attrs)
        ))
    };
    let mut pairs = Vec::new();
    for item in items.try_iter().map_err(|_| wrong())? {
        let pair: (String, String) = item?.extract().map_err(|_| wrong())?;
        pairs.push(pair);
    }
    Ok(pairs)
}

#[pymethods]
impl Token {
    #[new]
    #[pyo3(signature = (kind, name=None, attrs=None, data=None, self_closing=false, start=0, end=0,
                        public_id=None, system_id=None, force_quirks=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: &str,
        name: Option<String>,
        attrs: Option<&Bound<'_, PyAny>>,
        data: Option<String>,
        self_closing: bool,
        start: u64,
        end: u64,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    ) -> PyResult<Token> {
        let Some(kind) = KINDS.iter().position(|k| *k == kind) else {
            return Err(PyValueError::new_err(format!(
                "kind must be one of {KINDS:?}, not {kind:?}"
            )));
        };
        let attrs = match attrs.filter(|a| !a.is_none()) {
            Some(attrs) => attr_pairs(attrs)?,
            None => Vec::new(),
        };
        Ok(Token {
            data: Data::Own(Box::new(Fields {
                kind: kind as u8,
                name,
                attrs,
                data,
                self_closing,
                start,
                end,
                public_id,
                system_id,
                force_quirks,
            })),
        })
    }

    /// `"doctype"`, `"start_tag"`, `"end_tag"`, `"comment"`, `"text"` or
    /// `"processing_instruction"`.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        // The six strings made once: interning a string on each read was
        // the dearest of a token's fields.
        static KIND_STRINGS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
        let kinds = KIND_STRINGS.get_or_init(py, || {
            KINDS
                .iter()
                .map(|k| PyString::intern(py, k).unbind())
                .collect()
        });
        kinds[self.data.kind() as usize].bind(py).clone()
    }

    /// A tag's name (lower-case), a doctype's name, a processing
    /// instruction's target; else `None`.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.data.view().name
    }

    /// The attributes as a new dict in source order (empty for tokens
    /// other than tags; an end tag's attributes, which the standard drops,
    /// are not kept).
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.data.view().attrs.dict(py)
    }

    /// The characters of a text or comment token (a processing
    /// instruction's data); else `None`.
    #[getter]
    fn data(&self) -> Option<&str> {
        self.data.view().data
    }

    /// Whether a tag ended with `/>`.
    #[getter]
    fn self_closing(&self) -> bool {
        self.data.view().self_closing
    }

    /// The token's first UTF-8 byte offset in the decoded page.
    #[getter]
    fn start(&self) -> u64 {
        self.data.view().start
    }

    /// The offset just past the token.
    #[getter]
    fn end(&self) -> u64 {
        self.data.view().end
    }

    /// A doctype's public identifier (`None` when missing).
    #[getter]
    fn public_id(&self) -> Option<&str> {
        self.data.view().public_id
    }

    /// A doctype's system identifier (`None` when missing).
    #[getter]
    fn system_id(&self) -> Option<&str> {
        self.data.view().system_id
    }

    /// A doctype's force-quirks flag.
    #[getter]
    fn force_quirks(&self) -> bool {
        self.data.view().force_quirks
    }

    /// The fields as a dict: `kind`, `name`, `attrs`, `data`,
    /// `self_closing`, `start`, `end`, `public_id`, `system_id`,
    /// `force_quirks`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = self.data.view();
        let dict = PyDict::new(py);
        dict.set_item("kind", KINDS[v.kind as usize])?;
        dict.set_item("name", v.name)?;
        dict.set_item("attrs", v.attrs.dict(py)?)?;
        dict.set_item("data", v.data)?;
        dict.set_item("self_closing", v.self_closing)?;
        dict.set_item("start", v.start)?;
        dict.set_item("end", v.end)?;
        dict.set_item("public_id", v.public_id)?;
        dict.set_item("system_id", v.system_id)?;
        dict.set_item("force_quirks", v.force_quirks)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let v = slf.get().data.view();
        let args = (
            KINDS[v.kind as usize],
            v.name,
            v.attrs.dict(py)?,
            v.data,
            v.self_closing,
            v.start,
            v.end,
            v.public_id,
            v.system_id,
            v.force_quirks,
        );
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let v = self.data.view();
        let mut out = format!("Token(kind={}", repr(py, Some(KINDS[v.kind as usize]))?);
        if v.name.is_some() {
            out += &format!(", name={}", repr(py, v.name)?);
        }
        if v.attrs.len() > 0 {
            out += &format!(", attrs={}", v.attrs.dict(py)?.repr()?);
        }
        if v.data.is_some() {
            out += &format!(", data={}", repr(py, v.data)?);
        }
        if v.self_closing {
            out += ", self_closing=True";
        }
        if v.public_id.is_some() {
            out += &format!(", public_id={}", repr(py, v.public_id)?);
        }
        if v.system_id.is_some() {
            out += &format!(", system_id={}", repr(py, v.system_id)?);
        }
        if v.force_quirks {
            out += ", force_quirks=True";
        }
        Ok(out + &format!(", start={}, end={})", v.start, v.end))
    }
}

/// A parse error: its code as the standard names it
/// (`"duplicate-attribute"`), where it is (1-based line, column in UTF-16
/// units) and its UTF-8 byte offset in the decoded page. Compares by
/// value, hashes, pickles; `to_dict()` gives its fields.
///
/// >>> tokenize("<p id=a id=b>", errors=True)[1]
/// [ParseError(code='duplicate-attribute', line=1, column=11, offset=10)]
#[pyclass(module = "htmltok", frozen, eq, hash, get_all)]
#[derive(PartialEq, Eq, Hash)]
pub struct ParseError {
    /// The standard's name of the error.
    code: Cow<'static, str>,
    /// Its line, from 1.
    line: usize,
    /// Its column, from 1, in UTF-16 code units.
    column: usize,
    /// Its UTF-8 byte offset in the decoded page.
    offset: usize,
}

#[pymethods]
impl ParseError {
    #[new]
    #[pyo3(signature = (code, line, column, offset))]
    fn new(code: String, line: usize, column: usize, offset: usize) -> ParseError {
        ParseError {
            code: Cow::Owned(code),
            line,
            column,
            offset,
        }
    }

    /// The fields as a dict: `code`, `line`, `column`, `offset`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("code", &*self.code)?;
        dict.set_item("line", self.line)?;
        dict.set_item("column", self.column)?;
        dict.set_item("offset", self.offset)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let e = slf.get();
        let args = (&*e.code, e.line, e.column, e.offset);
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ParseError(code={}, line={}, column={}, offset={})",
            repr(py, Some(&self.code))?,
            self.line,
            self.column,
            self.offset
        ))
    }
}

/// Decodes and tokenizes `html` with the GIL released.
fn run<'a>(
    py: Python<'_>,
    html: &'a Html,
    decoding: &Decoding,
    driven: bool,
    errors: bool,
) -> PyResult<(Decoded<'a>, Table)> {
    let (decoded, table) = py.detach(|| {
        let decoded = html.decode(decoding);
        let table = Table::build(&decoded.html, config(driven), errors);
        (decoded, table)
    });
    Ok((decoded, table.map_err(too_big)?))
}

/// The error of a page too large for the records.
fn too_big(TooBig(size): TooBig) -> PyErr {
    PyValueError::new_err(format!(
        "the page is {size} bytes of UTF-8 with its rewritten strings: \
         htmltok's token records address at most {MAX_BYTES} (32-bit offsets)"
    ))
}

/// The page and decoding of `tokenize`'s and `token_table`'s arguments.
fn tokenizer_input(
    html: &Bound<'_, PyAny>,
    encoding: Option<&Bound<'_, PyAny>>,
    content_type: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Html, Decoding)> {
    let page = Html::extract(html, "html")?;
    let decoding = Decoding::new(
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
        page.archived(),
        "",
    )?;
    Ok((page, decoding))
}

/// The tokens of `html` (a `str`; bytes, `bytearray` or `memoryview`
/// decoded as a browser decodes them: `encoding` names the encoding, else
/// `content_type`'s charset, else the page's own `<meta>` or byte order
/// mark, else a guess; or an `ArchivePage`, with its HTTP `Content-Type`),
/// as a list of `Token`; with `errors=True`, a tuple `(tokens, errors)`
/// with the parse errors (`ParseError`). `driven=True` leaves the
/// tokenizer in the data state throughout (a tree builder would switch
/// it); by default it switches as a browser's tree builder would
/// (`<script>`, `<style>`, `<title>`, `<textarea>`, ... hold text). Any
/// bytes are tokenized, binary ones too.
///
/// >>> [t.kind for t in tokenize("<p class=x>Hi</p>")]
/// ['start_tag', 'text', 'end_tag']
#[pyfunction]
#[pyo3(signature = (html, *, encoding=None, content_type=None, driven=None, errors=None),
        text_signature = "(html, *, encoding=None, content_type=None, driven=False, errors=False)")]
pub fn tokenize<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    encoding: Option<&Bound<'py, PyAny>>,
    content_type: Option<&Bound<'py, PyAny>>,
    driven: Option<&Bound<'py, PyAny>>,
    errors: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (page, decoding) = tokenizer_input(html, encoding, content_type)?;
    let (driven, errors) = (flag(driven, "driven")?, flag(errors, "errors")?);
    let (decoded, mut table) = run(py, &page, &decoding, driven, errors)?;
    let parse_errors = std::mem::take(&mut table.errors);
    let doc = Arc::new(Doc {
        text: decoded.html.into_owned(),
        table,
    });
    let tokens = token_list(py, &doc)?;
    if !errors {
        return Ok(tokens.into_any());
    }
    let parse_errors = parse_errors.iter().map(|e| ParseError {
        code: Cow::Borrowed(e.code.as_str()),
        line: e.location.line,
        column: e.location.col,
        offset: e.span.start,
    });
    let parse_errors = object_list(py, parse_errors.collect())?;
    Ok(PyTuple::new(py, [tokens.into_any(), parse_errors.into_any()])?.into_any())
}

/// A list of a `Token` for each record of `doc`.
fn token_list<'py>(py: Python<'py>, doc: &Arc<Doc>) -> PyResult<Bound<'py, PyList>> {
    let _paused = GcPause::new(py)?;
    let n = doc.table.tokens().len();
    let mut out = Vec::with_capacity(n);
    for index in 0..n as u32 {
        let data = Data::Record {
            doc: Arc::clone(doc),
            index,
        };
        out.push(Bound::new(py, Token { data })?);
    }
    PyList::new(py, out)
}

/// Python's cyclic garbage collector paused while one call makes its
/// objects, then resumed (also on an error), if it was running.
///
/// Why: PyO3 makes every `#[pyclass]` object GC-tracked, and a page's
/// tokens are hundreds of thousands of new tracked objects, each 700 of
/// which would start a collection that traverses the young ones. None of
/// these objects can be part of a cycle (a token refers only to its
/// page's table, which refers to no Python object).
struct GcPause<'py> {
    gc: Option<Bound<'py, PyModule>>,
}

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let gc = py.import("gc")?;
        if gc.call_method0("isenabled")?.is_truthy()? {
            gc.call_method0("disable")?;
            return Ok(GcPause { gc: Some(gc) });
        }
        Ok(GcPause { gc: None })
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.gc {
            // Re-enabling cannot fail short of a broken interpreter; there
            // is nothing to hand such an error to in a destructor.
            let _ = gc.call_method0("enable");
        }
    }
}

/// A page's tokens as fixed-size little-endian records, for numpy or any
/// reader of binary records: no Python object per token.
///
/// - `token_records`, `attr_records`: the records where the tokenizer wrote
///   them, as objects numpy reads without a copy
///   (`numpy.asarray(t.token_records)`, its dtype `htmltok.TOKEN_DTYPE`,
///   read-only, keeping the table alive);
/// - `tokens`, `attrs`: the same records as `bytes`
///   (`numpy.frombuffer(t.tokens, dtype=htmltok.TOKEN_DTYPE)`), made on
///   first use: one copy;
/// - `text`: the decoded page in UTF-8, `extra`: the strings the
///   tokenizer rewrote. A string is `(off, len)` in `text + extra`:
///   `t.string(off, len)` reads one.
///
/// The layouts are in the package's documentation (`help(htmltok)`).
#[pyclass(module = "htmltok", frozen)]
pub struct TokenTable {
    /// The records, as the tokenizer left them: never changed, so the
    /// addresses numpy is given stay valid while the table lives.
    table: Table,
    /// `table`'s records as `bytes`, made when first asked for.
    tokens: PyOnceLock<Py<PyBytes>>,
    attrs: PyOnceLock<Py<PyBytes>>,
    extra: PyOnceLock<Py<PyBytes>>,
    /// The decoded page, UTF-8.
    text: Py<PyBytes>,
    /// The encoding the bytes were decoded from (`None` for a `str`).
    encoding: Option<Cow<'static, str>>,
    /// Whether the tokenizer was `driven` (kept for pickling).
    driven: bool,
    /// Read back by `from_bytes` (pickled as its saved bytes: how it was
    /// tokenized is not known).
    loaded: bool,
}

#[pymethods]
impl TokenTable {
    /// Pickles as its text, encoding and `driven`: unpickling tokenizes
    /// the text again (the same records: the text is what was tokenized).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let t = slf.get();
        if t.loaded {
            let rebuild = slf.get_type().getattr("from_bytes")?;
            return (rebuild, (t.to_bytes(py)?,)).into_pyobject(py);
        }
        let rebuild = slf.get_type().getattr("_unpickle")?;
        let args = (t.text.clone_ref(py), t.encoding.as_deref(), t.driven);
        (rebuild, args).into_pyobject(py)
    }

    /// The table `__reduce__` describes.
    #[staticmethod]
    fn _unpickle(
        py: Python<'_>,
        text: Bound<'_, PyBytes>,
        encoding: Option<String>,
        driven: bool,
    ) -> PyResult<TokenTable> {
        let utf8 = std::str::from_utf8(text.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("a token table's text is UTF-8: {e}")))?;
        let table = py
            .detach(|| Table::build(utf8, config(driven), false))
            .map_err(too_big)?;
        Ok(TokenTable {
            table,
            tokens: PyOnceLock::new(),
            attrs: PyOnceLock::new(),
            extra: PyOnceLock::new(),
            text: text.unbind(),
            encoding: encoding.map(Cow::Owned),
            driven,
            loaded: false,
        })
    }

    /// The table saved as bytes: its records with the text and the
    /// rewritten strings, in the layout of the Rust library's
    /// `Records::to_bytes` (a 32-byte header, the token records, the
    /// attribute records, `text`, `extra`), which `from_bytes` reads back.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let text = simdutf8::basic::from_utf8(self.text.as_bytes(py))
            .map_err(|_| PyValueError::new_err("a token table's text is UTF-8"))?;
        let records = &self.table.records;
        let len = SavedRecords::HEADER_LEN
            + records.tokens().len() * crate::table::TokenRecord::SIZE
            + records.attributes().len() * AttrRecord::SIZE
            + text.len()
            + records.side().len();
        PyBytes::new_with(py, len, |buf: &mut [u8]| {
            records
                .write_to(text, buf)
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
    }

    /// A table read back from the bytes `to_bytes` (or the Rust library's
    /// `Records::to_bytes`) wrote: `bytes`, `bytearray` or `memoryview`,
    /// exactly one table's. Its `encoding` is `None` (the bytes hold the
    /// decoded text only).
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<TokenTable> {
        let Some(bytes) = bytes_like(data)? else {
            return Err(PyTypeError::new_err(format!(
                "from_bytes takes bytes, bytearray or memoryview, not {}",
                type_name(data)
            )));
        };
        let (records, text) = py
            .detach(|| {
                let saved = SavedRecords::read(&bytes)
                    .map_err(|e| format!("not a saved token table: {e}"))?;
                if saved.byte_len() != bytes.len() {
                    return Err(format!(
                        "not a saved token table: {} bytes after its end",
                        bytes.len() - saved.byte_len()
                    ));
                }
                Ok((saved.to_records(), saved.input().to_owned()))
            })
            .map_err(PyValueError::new_err)?;
        Ok(TokenTable {
            table: Table {
                records,
                errors: Vec::new(),
            },
            tokens: PyOnceLock::new(),
            attrs: PyOnceLock::new(),
            extra: PyOnceLock::new(),
            text: PyBytes::new(py, text.as_bytes()).unbind(),
            encoding: None,
            driven: false,
            loaded: true,
        })
    }

    /// The number of tokens.
    fn __len__(&self) -> usize {
        self.table.tokens().len()
    }

    /// The number of tokens.
    #[getter]
    fn len(&self) -> usize {
        self.table.tokens().len()
    }

    /// The token records (`htmltok.TOKEN_DTYPE`) as `bytes`.
    #[getter]
    fn tokens(&self, py: Python<'_>) -> Py<PyBytes> {
        self.tokens
            .get_or_init(py, || PyBytes::new(py, &self.table.token_bytes()).unbind())
            .clone_ref(py)
    }

    /// The attribute records (`htmltok.ATTR_DTYPE`) as `bytes`.
    #[getter]
    fn attrs(&self, py: Python<'_>) -> Py<PyBytes> {
        self.attrs
            .get_or_init(py, || PyBytes::new(py, &self.table.attr_bytes()).unbind())
            .clone_ref(py)
    }

    /// The decoded page, UTF-8.
    #[getter]
    fn text(&self, py: Python<'_>) -> Py<PyBytes> {
        self.text.clone_ref(py)
    }

    /// The rewritten strings, addressed from `len(text)` on.
    #[getter]
    fn extra(&self, py: Python<'_>) -> Py<PyBytes> {
        self.extra
            .get_or_init(py, || {
                PyBytes::new(py, self.table.extra().as_bytes()).unbind()
            })
            .clone_ref(py)
    }

    /// The encoding the bytes were decoded from (`None` for a `str`).
    #[getter]
    fn encoding(&self) -> Option<&str> {
        self.encoding.as_deref()
    }

    /// The token records where the tokenizer wrote them, for
    /// `numpy.asarray` (no copy).
    #[getter]
    fn token_records(slf: &Bound<'_, Self>) -> RecordArray {
        RecordArray {
            table: slf.clone().unbind(),
            which: Which::Tokens,
        }
    }

    /// The attribute records where the tokenizer wrote them, for
    /// `numpy.asarray` (no copy).
    #[getter]
    fn attr_records(slf: &Bound<'_, Self>) -> RecordArray {
        RecordArray {
            table: slf.clone().unbind(),
            which: Which::Attributes,
        }
    }

    /// The string at `(off, len)` of `text + extra`.
    fn string(&self, py: Python<'_>, off: usize, len: usize) -> PyResult<String> {
        let text = self.text.as_bytes(py);
        let extra = self.table.extra().as_bytes();
        let bytes = match off.checked_add(len) {
            Some(end) if end <= text.len() => &text[off..end],
            Some(end) if off >= text.len() && end - text.len() <= extra.len() => {
                &extra[off - text.len()..end - text.len()]
            }
            _ => {
                return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                    "({off}, {len}) is not a string of this table"
                )))
            }
        };
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    fn __repr__(&self) -> String {
        format!("TokenTable({} tokens)", self.table.tokens().len())
    }
}

/// Which records of a table a [`RecordArray`] shows.
#[derive(Clone, Copy)]
enum Which {
    Tokens,
    Attributes,
}

/// A table's token or attribute records in place, for numpy: its
/// `__array_interface__` gives their address, so `numpy.asarray` makes an
/// array over the records themselves, read-only, which keeps this object
/// (and so the table) alive.
///
/// Why not the buffer protocol: a class cannot offer it in the stable ABI
/// before Python 3.11, and the package is one wheel from 3.9 on.
#[pyclass(module = "htmltok", frozen)]
pub struct RecordArray {
    table: Py<TokenTable>,
    which: Which,
}

impl RecordArray {
    /// The records' address and count.
    fn records(&self) -> (usize, usize) {
        let table = &self.table.get().table;
        match self.which {
            Which::Tokens => (table.tokens().as_ptr() as usize, table.tokens().len()),
            Which::Attributes => (table.attrs().as_ptr() as usize, table.attrs().len()),
        }
    }
}

/// A record's fields as numpy's `descr`, in the machine's byte order:
/// the records are read where they lie, not swapped.
fn descr<'py>(py: Python<'py>, which: Which) -> PyResult<Bound<'py, PyList>> {
    let u4 = if cfg!(target_endian = "little") {
        "<u4"
    } else {
        ">u4"
    };
    let fields: &[(&str, &str)] = match which {
        Which::Tokens => &[
            ("start", u4),
            ("end", u4),
            ("s0_off", u4),
            ("s0_len", u4),
            ("s1_off", u4),
            ("s1_len", u4),
            ("s2_off", u4),
            ("s2_len", u4),
            ("first_attr", u4),
            ("n_attrs", u4),
            ("kind", "|u1"),
            ("flags", "|u1"),
            ("_pad", "|V2"),
        ],
        Which::Attributes => &[
            ("name_off", u4),
            ("name_len", u4),
            ("value_off", u4),
            ("value_len", u4),
            ("name_start", u4),
            ("value_start", u4),
        ],
    };
    PyList::new(py, fields)
}

#[pymethods]
impl RecordArray {
    /// numpy's array interface (version 3): the records' address,
    /// read-only, their count and their fields.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (address, len) = self.records();
        let size = match self.which {
            Which::Tokens => std::mem::size_of::<crate::table::TokenRecord>(),
            Which::Attributes => std::mem::size_of::<AttrRecord>(),
        };
        let interface = PyDict::new(py);
        interface.set_item("version", 3)?;
        interface.set_item("shape", (len,))?;
        interface.set_item("typestr", format!("|V{size}"))?;
        interface.set_item("descr", descr(py, self.which)?)?;
        interface.set_item("data", (address, true))?;
        Ok(interface)
    }

    /// The number of records.
    fn __len__(&self) -> usize {
        self.records().1
    }

    /// Pickles as its table and which records: `getattr(table,
    /// "token_records")`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let getattr = py.import("builtins")?.getattr("getattr")?;
        let which = match self.which {
            Which::Tokens => "token_records",
            Which::Attributes => "attr_records",
        };
        (getattr, (self.table.clone_ref(py), which)).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        let what = match self.which {
            Which::Tokens => "token",
            Which::Attributes => "attribute",
        };
        format!("RecordArray({} {what} records)", self.records().1)
    }
}

/// The tokens of `html` (as for `tokenize`) as a `TokenTable`: records in
/// `bytes`, no Python object per token.
#[pyfunction]
#[pyo3(signature = (html, *, encoding=None, content_type=None, driven=None),
        text_signature = "(html, *, encoding=None, content_type=None, driven=False)")]
pub fn token_table(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    encoding: Option<&Bound<'_, PyAny>>,
    content_type: Option<&Bound<'_, PyAny>>,
    driven: Option<&Bound<'_, PyAny>>,
) -> PyResult<TokenTable> {
    let (page, decoding) = tokenizer_input(html, encoding, content_type)?;
    let driven = flag(driven, "driven")?;
    let (decoded, table) = run(py, &page, &decoding, driven, false)?;
    // The input's bytes (a `str`'s UTF-8) are the text when decoding left
    // them as they were: no copy.
    let same = match (&page, html.cast::<PyBytes>()) {
        (Html::Text(utf8, object), _) => Some((utf8.as_ref(), object.clone_ref(py))),
        (Html::Bytes(bytes), Ok(object)) => Some((bytes.as_ref(), object.clone().unbind())),
        _ => None,
    };
    let text = match same {
        Some((bytes, object)) if std::ptr::eq(bytes, decoded.html.as_bytes()) => object,
        _ => PyBytes::new(py, decoded.html.as_bytes()).unbind(),
    };
    Ok(TokenTable {
        table,
        tokens: PyOnceLock::new(),
        attrs: PyOnceLock::new(),
        extra: PyOnceLock::new(),
        text,
        encoding: decoded.encoding_name().map(Cow::Borrowed),
        driven,
        loaded: false,
    })
}
