//! Python arguments to pages: the page (`str`, bytes-like, or an
//! `ArchivePage`), an encoding label, a `Content-Type`, a URL, each checked
//! with a message that names the argument or field that was wrong.
//!
//! The rules are the command line's: an encoding the caller names
//! (`encoding=`) must be an encoding label, as `--encoding` must; a
//! `Content-Type` is the HTTP header, which came off the network (passed
//! as `content_type=`, or an archived page's own), and is taken as
//! browsers take it, an unknown charset ignored. Bytes with a NUL in their
//! first 1024 bytes are a binary file, not a page, as the command line has
//! it.

use std::borrow::Cow;

use htmltok::encoding::{Encoding, UTF_16BE, UTF_16LE};
use htmltok::extract::{charset_param, LinkOptions, Page, Source};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};
use url::Url;

use crate::archive::ArchivePage;

pyo3::create_exception!(
    htmltok,
    BinaryInputError,
    PyValueError,
    "Bytes that are a binary file, not a page: a NUL byte in their first 1024 \
     bytes (without a UTF-16 byte order mark), as the command line refuses them \
     (`text`, `links`, `sniff` and their batch forms raise it; `tokenize` and \
     `token_table` take any bytes). A subclass of `ValueError`."
);

/// How many of a page's first bytes are looked at for NUL (the command
/// line's rule).
const BINARY_PROBE: usize = 1024;

/// A page as Python passed it, kept alive without the GIL: `PyBacked*`
/// hold a reference to an immutable buffer (a `bytearray` is copied
/// once), a frozen `ArchivePage` is read without the GIL, so the tokenizer
/// can read it on another thread or with the GIL released.
pub enum Html {
    /// Text the caller decoded, as UTF-8 (`encode("utf-8",
    /// "surrogatepass")`, so that a lone surrogate, which a `str` may hold,
    /// reaches the tokenizer as bytes it repairs to U+FFFD instead of an
    /// exception), with the `bytes` object that holds them.
    Text(PyBackedBytes, Py<PyBytes>),
    /// Bytes to decode as a browser does (`bytes`; a `bytearray` or a
    /// `memoryview` copied).
    Bytes(PyBackedBytes),
    /// A page read from an archive, with its HTTP `Content-Type` and URL.
    Archive(Py<ArchivePage>),
}

impl Html {
    /// `obj` as a page, or a `TypeError` naming `what` (the argument) and
    /// the type that came.
    pub fn extract(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Html> {
        if obj.is_instance_of::<PyString>() {
            let utf8 = obj.call_method1("encode", ("utf-8", "surrogatepass"))?;
            let utf8 = utf8.cast_into::<PyBytes>()?;
            return Ok(Html::Text(utf8.extract()?, utf8.unbind()));
        }
        if let Some(bytes) = bytes_like(obj)? {
            return Ok(Html::Bytes(bytes));
        }
        if let Ok(page) = obj.cast::<ArchivePage>() {
            return Ok(Html::Archive(page.clone().unbind()));
        }
        Err(PyTypeError::new_err(format!(
            "{what} must be str, bytes, bytearray, memoryview or ArchivePage, not {}",
            type_name(obj)
        )))
    }

    /// The raw bytes: a `str`'s UTF-8, an archived page's body.
    pub fn raw(&self) -> &[u8] {
        match self {
            Html::Text(utf8, _) | Html::Bytes(utf8) => utf8,
            Html::Archive(page) => page.get().bytes(),
        }
    }

    /// The archived page, if this is one.
    pub fn archived(&self) -> Option<&ArchivePage> {
        match self {
            Html::Archive(page) => Some(page.get()),
            _ => None,
        }
    }

    /// The page decoded: a `str` as it is (no encoding, rule `None`),
    /// bytes by `decoding`'s rules.
    pub fn decode(&self, decoding: &Decoding) -> Decoded<'_> {
        match self {
            Html::Text(utf8, _) => Decoded {
                html: match simdutf8::basic::from_utf8(utf8) {
                    Ok(text) => Cow::Borrowed(text),
                    Err(_) => String::from_utf8_lossy(utf8),
                },
                encoding: None,
            },
            _ => {
                let page = Page::decode(self.raw(), decoding.transport.as_deref());
                Decoded {
                    encoding: Some((page.encoding, page.source)),
                    html: page.html,
                }
            }
        }
    }

    /// A `BinaryInputError` naming `what` when these are bytes the caller
    /// passed (not a `str`, not an archived page, which the archive reader
    /// found to be HTML) that hold a NUL byte early: the command line's
    /// test for a binary file.
    /// Not when `decoding` names UTF-16, whose ASCII characters have a
    /// NUL byte each: the caller said what the bytes are.
    pub fn refuse_binary(&self, what: &str, decoding: &Decoding) -> PyResult<()> {
        if matches!(self, Html::Text(..) | Html::Archive(_)) || decoding.names_utf16() {
            return Ok(());
        }
        let raw = self.raw();
        let probe = &raw[..raw.len().min(BINARY_PROBE)];
        let bom = probe.starts_with(b"\xff\xfe") || probe.starts_with(b"\xfe\xff");
        if !bom && probe.contains(&0) {
            return Err(BinaryInputError::new_err(format!(
                "{what} is binary, not a page (NUL bytes in its first {BINARY_PROBE} bytes)"
            )));
        }
        Ok(())
    }
}

/// The bytes of `obj` if it is `bytes`, `bytearray` or a `memoryview`
/// (whose bytes are copied: the stable ABI this module is built for has no
/// buffer protocol before Python 3.11), else `None`.
pub fn bytes_like(obj: &Bound<'_, PyAny>) -> PyResult<Option<PyBackedBytes>> {
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Ok(Some(obj.extract()?));
    }
    if obj.is_instance_of::<PyMemoryView>() {
        return Ok(Some(obj.call_method0("tobytes")?.extract()?));
    }
    Ok(None)
}

/// A decoded page: its UTF-8 text (borrowed when the input was UTF-8
/// already) and, for bytes, the encoding and the rule that chose it.
pub struct Decoded<'a> {
    pub html: Cow<'a, str>,
    pub encoding: Option<(&'static Encoding, Source)>,
}

impl Decoded<'_> {
    /// How `htmltok::extract::links_with` reads this page: bytes with the
    /// queries of their URLs in their encoding, a `str` in UTF-8.
    pub fn link_options(&self) -> LinkOptions {
        match self.encoding {
            Some((encoding, _)) => LinkOptions::new().encoding(encoding),
            None => LinkOptions::new(),
        }
    }

    /// The encoding's name as `encoding_rs` spells it, for bytes.
    pub fn encoding_name(&self) -> Option<&'static str> {
        self.encoding.map(|(encoding, _)| encoding.name())
    }
}

/// How bytes are decoded: a transport charset (a label, or a
/// `Content-Type` whose charset is one), which wins over `<meta>` (a byte
/// order mark wins over it, as the standard has it), else sniffing: the
/// rules of `htmltok::extract::Page::decode`, which this hands it to.
#[derive(Clone, Default)]
pub struct Decoding {
    transport: Option<String>,
}

impl Decoding {
    /// From the `encoding=` the caller passed (checked: an unknown label
    /// is a `ValueError`, as the command line's `--encoding` is a usage
    /// error), else the `content_type=` passed, else `page`'s own HTTP
    /// `Content-Type` (a header is taken as a browser takes it: an unknown
    /// charset, `utf8mb4` or `none` as servers send them, is ignored).
    /// `what` prefixes the messages (`""` for a single call's arguments,
    /// `"pages[3]: "` in a batch).
    pub fn new(
        encoding: Option<String>,
        content_type: Option<String>,
        page: Option<&ArchivePage>,
        what: &str,
    ) -> PyResult<Decoding> {
        if let Some(label) = &encoding {
            encoding_for(label)
                .map_err(|e| PyValueError::new_err(format!("{what}encoding: {e}")))?;
        }
        let header = page.and_then(|p| p.content_type.clone());
        Ok(Decoding {
            transport: encoding.or(content_type).or(header),
        })
    }

    /// The transport charset (a label or a `Content-Type`), if any.
    pub fn transport(&self) -> Option<&str> {
        self.transport.as_deref()
    }

    /// Whether the transport charset names UTF-16 (LE or BE).
    pub fn names_utf16(&self) -> bool {
        self.transport()
            .and_then(charset_param)
            .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
            .is_some_and(|e| e == UTF_16LE || e == UTF_16BE)
    }
}

/// The encoding a label names (the Encoding Standard's labels), or what
/// is wrong with it.
pub fn encoding_for(label: &str) -> Result<&'static Encoding, String> {
    Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
        format!(
            "{label:?} is not an encoding label (use a label of the WHATWG Encoding \
             Standard, such as \"utf-8\", \"windows-1252\", \"shift_jis\")"
        )
    })
}

/// A page's URL: as given, and parsed when it is an absolute URL.
#[derive(Clone)]
pub struct PageUrl {
    pub text: String,
    pub parsed: Option<Url>,
}

/// The URL of a page: the `url=` the caller passed (it must be an
/// absolute URL: a `ValueError` otherwise), else an archived page's
/// target URI (kept as written; used to resolve links only when it
/// parses, as the command line does).
pub fn page_url(
    given: Option<String>,
    page: Option<&ArchivePage>,
    what: &str,
) -> PyResult<Option<PageUrl>> {
    if let Some(text) = given {
        return match Url::parse(&text) {
            Ok(url) => Ok(Some(PageUrl {
                text,
                parsed: Some(url),
            })),
            Err(e) => Err(PyValueError::new_err(format!(
                "{what}url {text:?} is not an absolute URL: {e}"
            ))),
        };
    }
    Ok(page.and_then(|p| p.url.clone()).map(|text| PageUrl {
        parsed: Url::parse(&text).ok(),
        text,
    }))
}

/// One page with what came with it: how to decode it and its URL.
pub struct PageIn {
    pub html: Html,
    pub decoding: Decoding,
    pub url: Option<PageUrl>,
}

impl PageIn {
    /// A page from a call's arguments: `what` names the page in a message
    /// about its type or bytes (`"html"`, `"pages[3]"`), `prefix` starts
    /// a message about its other arguments (`""`, `"pages[3]: "`).
    /// Bytes that are binary are refused, as the command line refuses
    /// them.
    pub fn new(
        html: &Bound<'_, PyAny>,
        what: &str,
        prefix: &str,
        encoding: Option<String>,
        content_type: Option<String>,
        url: Option<String>,
    ) -> PyResult<PageIn> {
        let html = Html::extract(html, what)?;
        let decoding = Decoding::new(encoding, content_type, html.archived(), prefix)?;
        html.refuse_binary(what, &decoding)?;
        let url = page_url(url, html.archived(), prefix)?;
        Ok(PageIn {
            html,
            decoding,
            url,
        })
    }

    /// The parsed URL to resolve links against.
    pub fn base(&self) -> Option<&Url> {
        self.url.as_ref().and_then(|u| u.parsed.as_ref())
    }
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|name| name.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// Python's `repr` of an optional string, for `__repr__`s.
pub fn repr(py: Python<'_>, s: Option<&str>) -> PyResult<String> {
    match s {
        Some(s) => Ok(PyString::new(py, s).repr()?.to_cow()?.into_owned()),
        None => Ok("None".to_owned()),
    }
}

/// An optional `str` argument (`None` or absent is `None`), or a
/// `TypeError` naming it.
pub fn opt_str(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<String>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    match obj.cast::<PyString>() {
        Ok(s) => Ok(Some(s.to_cow()?.into_owned())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be str or None, not {}",
            type_name(obj)
        ))),
    }
}

/// A `bool` argument, or a `TypeError` naming it.
pub fn flag(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<bool> {
    match obj {
        None => Ok(false),
        Some(obj) => obj.extract::<bool>().map_err(|_| {
            PyTypeError::new_err(format!("{what} must be bool, not {}", type_name(obj)))
        }),
    }
}
