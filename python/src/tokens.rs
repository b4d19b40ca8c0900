//! `tokenize` (one Python object per token) and `token_table` (the
//! records as `bytes`), both over a [`Table`] built with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyModule, PyString, PyTuple};
use rustc_hash::FxHashMap;

use crate::input::{flag, opt_str, repr, Decoded, Decoding, Html};
use crate::object_list;
use crate::table::{
    config, Table, TokenRecord, TooBig, FORCE_QUIRKS, HAS_S0, HAS_S1, HAS_S2, KINDS, MAX_BYTES,
    SELF_CLOSING,
};

/// One token of the WHATWG tokenizer.
///
/// `kind` is one of `"doctype"`, `"start_tag"`, `"end_tag"`, `"comment"`,
/// `"text"`. `name` is a tag's name (lower-case) or a doctype's name;
/// `attrs` a tag's attributes in source order (duplicates dropped, as the
/// standard drops them); `data` the text of a text or comment token;
/// `start`/`end` the token's UTF-8 byte offsets in the decoded page.
#[pyclass(module = "htmltok", frozen)]
pub struct Token {
    /// `"doctype"`, `"start_tag"`, `"end_tag"`, `"comment"` or `"text"`.
    #[pyo3(get)]
    kind: Py<PyString>,
    /// A tag's name (lower-case) or a doctype's name; else `None`.
    #[pyo3(get)]
    name: Option<Py<PyString>>,
    attrs: Option<Py<PyDict>>,
    /// The characters of a text or comment token; else `None`.
    #[pyo3(get)]
    data: Option<Py<PyString>>,
    /// Whether a tag ended with `/>`.
    #[pyo3(get)]
    self_closing: bool,
    /// The token's first UTF-8 byte offset in the decoded page.
    #[pyo3(get)]
    start: u64,
    /// The offset just past the token.
    #[pyo3(get)]
    end: u64,
    /// A doctype's public identifier (`None` when missing).
    #[pyo3(get)]
    public_id: Option<Py<PyString>>,
    /// A doctype's system identifier (`None` when missing).
    #[pyo3(get)]
    system_id: Option<Py<PyString>>,
    /// A doctype's force-quirks flag.
    #[pyo3(get)]
    force_quirks: bool,
}

#[pymethods]
impl Token {
    /// The attributes as a dict in source order (empty for tokens other
    /// than tags; an end tag's attributes, which the standard drops, are
    /// not kept).
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> Bound<'py, PyDict> {
        match &self.attrs {
            Some(attrs) => attrs.bind(py).clone(),
            None => PyDict::new(py),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = format!("Token(kind={}", self.kind.bind(py).repr()?);
        if let Some(name) = &self.name {
            out += &format!(", name={}", name.bind(py).repr()?);
        }
        if let Some(attrs) = &self.attrs {
            if !attrs.bind(py).is_empty() {
                out += &format!(", attrs={}", attrs.bind(py).repr()?);
            }
        }
        if let Some(data) = &self.data {
            out += &format!(", data={}", data.bind(py).repr()?);
        }
        if self.self_closing {
            out += ", self_closing=True";
        }
        if let Some(id) = &self.public_id {
            out += &format!(", public_id={}", id.bind(py).repr()?);
        }
        if let Some(id) = &self.system_id {
            out += &format!(", system_id={}", id.bind(py).repr()?);
        }
        if self.force_quirks {
            out += ", force_quirks=True";
        }
        Ok(out + &format!(", start={}, end={})", self.start, self.end))
    }
}

/// A parse error: its code as the standard names it
/// (`"duplicate-attribute"`), where it is (1-based line, column in UTF-16
/// units) and its UTF-8 byte offset in the decoded page.
#[pyclass(module = "htmltok", frozen, get_all)]
pub struct ParseError {
    /// The standard's name of the error.
    code: &'static str,
    /// Its line, from 1.
    line: usize,
    /// Its column, from 1, in UTF-16 code units.
    column: usize,
    /// Its UTF-8 byte offset in the decoded page.
    offset: usize,
}

#[pymethods]
impl ParseError {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ParseError(code={}, line={}, column={}, offset={})",
            repr(py, Some(self.code))?,
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
    let table = table.map_err(|TooBig(size)| {
        PyValueError::new_err(format!(
            "the page is {size} bytes of UTF-8 with its rewritten strings: \
             htmltok's token records address at most {MAX_BYTES} (32-bit offsets)"
        ))
    })?;
    Ok((decoded, table))
}

/// The tokens of `html` (a `str`, or bytes decoded as a browser decodes
/// them: `encoding` names the encoding, else `content_type`'s charset,
/// else the page's own `<meta>` or byte order mark, else a guess), as a
/// list of `Token`; with `errors=True`, a tuple `(tokens, errors)` with
/// the parse errors (`ParseError`). `driven=True` leaves the tokenizer in
/// the data state throughout (a tree builder would switch it); by default
/// it switches as a browser's tree builder would (`<script>`, `<style>`,
/// `<title>`, `<textarea>`, ... hold text).
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
    let page = Html::extract(html, "html")?;
    let decoding = Decoding::new(
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
    )?;
    let (driven, errors) = (flag(driven, "driven")?, flag(errors, "errors")?);
    let (decoded, table) = run(py, &page, &decoding, driven, errors)?;
    let tokens = Objects::new(py).tokens(&decoded.html, &table)?;
    if !errors {
        return Ok(tokens.into_any());
    }
    let errors = table.errors.iter().map(|e| ParseError {
        code: e.code.as_str(),
        line: e.location.line,
        column: e.location.col,
        offset: e.span.start,
    });
    let errors = object_list(py, errors.collect())?;
    Ok(PyTuple::new(py, [tokens.into_any(), errors.into_any()])?.into_any())
}

/// Python's cyclic garbage collector paused while one call makes its
/// objects, then resumed (also on an error), if it was running.
///
/// Why: PyO3 makes every `#[pyclass]` object GC-tracked, and a page's
/// tokens are hundreds of thousands of new tracked objects, each 700 of
/// which start a collection that traverses them: the collector took a
/// large part of `tokenize`'s time on the corpus. None of these objects
/// can be part of a cycle (they hold only strings and a dict of strings).
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

/// Python objects from a table: one string object per distinct tag and
/// attribute name (pages repeat a few dozen names thousands of times).
struct Objects<'py> {
    py: Python<'py>,
    kinds: Vec<Bound<'py, PyString>>,
    names: FxHashMap<String, Bound<'py, PyString>>,
}

impl<'py> Objects<'py> {
    fn new(py: Python<'py>) -> Self {
        Objects {
            py,
            kinds: KINDS.iter().map(|k| PyString::intern(py, k)).collect(),
            names: FxHashMap::default(),
        }
    }

    fn name(&mut self, name: &str) -> Bound<'py, PyString> {
        if let Some(s) = self.names.get(name) {
            return s.clone();
        }
        let s = PyString::new(self.py, name);
        self.names.insert(name.to_owned(), s.clone());
        s
    }

    fn tokens(&mut self, text: &str, table: &Table) -> PyResult<Bound<'py, PyList>> {
        let py = self.py;
        let _paused = GcPause::new(py)?;
        let mut out = Vec::with_capacity(table.tokens().len());
        for rec in table.tokens() {
            out.push(Bound::new(py, self.token(text, table, rec)?)?);
        }
        PyList::new(py, out)
    }

    fn token(&mut self, text: &str, table: &Table, rec: &TokenRecord) -> PyResult<Token> {
        let py = self.py;
        let s0 = || table.string(text, rec.s0_off, rec.s0_len);
        let s1 = || table.string(text, rec.s1_off, rec.s1_len);
        let s2 = || table.string(text, rec.s2_off, rec.s2_len);
        let string = |s: &str| PyString::new(py, s).unbind();
        let mut token = Token {
            kind: self.kinds[rec.kind as usize].clone().unbind(),
            name: None,
            attrs: None,
            data: None,
            self_closing: rec.flags & SELF_CLOSING != 0,
            start: rec.start.into(),
            end: rec.end.into(),
            public_id: None,
            system_id: None,
            force_quirks: rec.flags & FORCE_QUIRKS != 0,
        };
        match KINDS[rec.kind as usize] {
            "doctype" => {
                token.name = (rec.flags & HAS_S0 != 0).then(|| string(s0()));
                token.public_id = (rec.flags & HAS_S1 != 0).then(|| string(s1()));
                token.system_id = (rec.flags & HAS_S2 != 0).then(|| string(s2()));
            }
            "start_tag" | "end_tag" => {
                token.name = Some(self.name(s0()).unbind());
                // No dict for a tag without attributes (most end tags):
                // the getter makes an empty one when asked.
                if rec.n_attrs > 0 {
                    let attrs = PyDict::new(py);
                    let first = rec.first_attr as usize;
                    for a in &table.attrs()[first..first + rec.n_attrs as usize] {
                        let name = self.name(table.string(text, a.name_off, a.name_len));
                        attrs.set_item(name, table.string(text, a.value_off, a.value_len))?;
                    }
                    token.attrs = Some(attrs.unbind());
                }
            }
            "processing_instruction" => {
                token.name = Some(string(s0()));
                token.data = Some(string(s1()));
            }
            _ => token.data = Some(string(s0())),
        }
        Ok(token)
    }
}

/// A page's tokens as fixed-size little-endian records in `bytes`, for
/// numpy or any reader of binary records: no Python object per token.
///
/// - `tokens`: 44-byte records, `numpy.frombuffer(t.tokens,
///   dtype=htmltok.TOKEN_DTYPE)` (no copy);
/// - `attrs`: 24-byte attribute records, `htmltok.ATTR_DTYPE`;
/// - `text`: the decoded page in UTF-8, `extra`: the strings the
///   tokenizer rewrote. A string is `(off, len)` in `text + extra`:
///   `t.string(off, len)` reads one.
///
/// The layouts are in the package's documentation (`help(htmltok)`).
#[pyclass(module = "htmltok", frozen, get_all)]
pub struct TokenTable {
    /// The token records (`htmltok.TOKEN_DTYPE`).
    tokens: Py<PyBytes>,
    /// The attribute records (`htmltok.ATTR_DTYPE`).
    attrs: Py<PyBytes>,
    /// The decoded page, UTF-8.
    text: Py<PyBytes>,
    /// The rewritten strings, addressed from `len(text)` on.
    extra: Py<PyBytes>,
    /// The encoding the bytes were decoded from (`None` for a `str`).
    encoding: Option<&'static str>,
    len: usize,
}

#[pymethods]
impl TokenTable {
    /// The number of tokens.
    fn __len__(&self) -> usize {
        self.len
    }

    /// The string at `(off, len)` of `text + extra`.
    fn string(&self, py: Python<'_>, off: usize, len: usize) -> PyResult<String> {
        let text = self.text.as_bytes(py);
        let extra = self.extra.as_bytes(py);
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
        format!("TokenTable({} tokens)", self.len)
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
    let page = Html::extract(html, "html")?;
    let decoding = Decoding::new(
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
    )?;
    let driven = flag(driven, "driven")?;
    let (decoded, table) = run(py, &page, &decoding, driven, false)?;
    // The input's bytes (a `str`'s UTF-8) are the text when decoding left
    // them as they were: no copy.
    let same = match (&page, html.cast::<PyBytes>()) {
        (Html::Text(utf8, object), _) => Some((utf8.as_ref(), object.clone_ref(py))),
        (Html::Bytes(bytes), Ok(object)) => Some((bytes.as_ref(), object.clone().unbind())),
        (Html::Bytes(_), Err(_)) => None,
    };
    let text = match same {
        Some((bytes, object)) if std::ptr::eq(bytes, decoded.html.as_bytes()) => object,
        _ => PyBytes::new(py, decoded.html.as_bytes()).unbind(),
    };
    Ok(TokenTable {
        tokens: PyBytes::new(py, &table.token_bytes()).unbind(),
        attrs: PyBytes::new(py, &table.attr_bytes()).unbind(),
        text,
        extra: PyBytes::new(py, table.extra().as_bytes()).unbind(),
        encoding: decoded.encoding_name(),
        len: table.tokens().len(),
    })
}
