//! Python arguments to pages: `str` or bytes, an encoding label, a
//! `Content-Type`, each checked with a message that names what was wrong.

use std::borrow::Cow;

use htmltok::encoding::Encoding;
use htmltok::extract::{LinkOptions, Page, Source};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// A page as Python passed it, kept alive without the GIL: `PyBacked*`
/// hold a reference to an immutable buffer (a `bytearray` is copied once),
/// so the tokenizer can read it on another thread or with the GIL
/// released.
pub enum Html {
    /// Text the caller decoded, as UTF-8 (`encode("utf-8",
    /// "surrogatepass")`, so that a lone surrogate, which a `str` may hold,
    /// reaches the tokenizer as bytes it repairs to U+FFFD instead of an
    /// exception), with the `bytes` object that holds them.
    Text(PyBackedBytes, Py<PyBytes>),
    /// Bytes to decode as a browser does.
    Bytes(PyBackedBytes),
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
        if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
            return Ok(Html::Bytes(obj.extract()?));
        }
        Err(PyTypeError::new_err(format!(
            "{what} must be str or bytes, not {}",
            type_name(obj)
        )))
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
            Html::Bytes(bytes) => {
                let page = Page::decode(bytes, decoding.transport.as_deref());
                Decoded {
                    encoding: Some((page.encoding, page.source)),
                    html: page.html,
                }
            }
        }
    }
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

/// How bytes are decoded: an encoding the caller named (a transport
/// encoding: it wins over `<meta>`, a byte order mark wins over it, as the
/// standard has it), else the `charset` of a `Content-Type` (ignored when
/// it names no encoding, as browsers ignore it), else sniffing: the rules
/// of `htmltok::extract::Page::decode`, which this hands the label to.
#[derive(Clone, Default)]
pub struct Decoding {
    transport: Option<String>,
}

impl Decoding {
    /// From the `encoding=` and `content_type=` arguments. An `encoding`
    /// label that names no encoding is a `ValueError`: the caller asked
    /// for it by name, unlike a header that came off the network.
    pub fn new(encoding: Option<String>, content_type: Option<String>) -> PyResult<Decoding> {
        if let Some(label) = &encoding {
            encoding_for(label)?;
        }
        Ok(Decoding {
            transport: encoding.or(content_type),
        })
    }
}

/// The encoding a label names (the Encoding Standard's labels), or a
/// `ValueError`.
pub fn encoding_for(label: &str) -> PyResult<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| PyValueError::new_err(format!("unknown encoding label: {label:?}")))
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
