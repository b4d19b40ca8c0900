//! `text`, `links`, `sniff` and their batch forms: the library's
//! `htmltok::extract` module (the rules of the command line's `text`,
//! `links` and `sniff`), with the GIL released while they run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use htmltok::extract;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use rayon::prelude::*;

use crate::input::{opt_str, repr, type_name, Decoding, Html};
use crate::object_list;

/// A page's title and text (`htmltok.text`).
///
/// `title` is the first `<title>` (whitespace collapsed; `None` when there
/// is none); `text` the body's text as a reader sees it (scripts, styles
/// and hidden markup left out, line breaks at `<br>` and blocks, tabs
/// between table cells, whitespace collapsed outside `<pre>`);
/// `encoding` the encoding bytes were decoded from and `rule` what decided
/// it (`"bom"`, `"transport"`, `"meta"`, `"late-meta"`, `"guess"`,
/// `"default"`, `"changed-by-meta"`), both `None` for a `str`; `url` the `url` argument, kept
/// with the page.
#[pyclass(module = "htmltok", frozen, get_all)]
pub struct Page {
    /// The first `<title>`, whitespace collapsed; `None` without one.
    title: Option<String>,
    /// The body's text as a reader sees it.
    text: String,
    /// The encoding bytes were decoded from (`None` for a `str`).
    encoding: Option<&'static str>,
    /// What decided it: `bom`, `transport`, `meta`, `late-meta`, `guess`,
    /// `default`, `changed-by-meta` (`None` for a `str`).
    rule: Option<&'static str>,
    /// The `url` argument.
    url: Option<String>,
}

#[pymethods]
impl Page {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Page(title={}, text=<{} chars>, encoding={}, rule={}, url={})",
            repr(py, self.title.as_deref())?,
            self.text.chars().count(),
            repr(py, self.encoding)?,
            repr(py, self.rule)?,
            repr(py, self.url.as_deref())?,
        ))
    }
}

/// One URL of a page (`htmltok.links`).
///
/// `url` is the URL resolved by the WHATWG URL Standard against the
/// page's `<base href>` and `base_url` (`None` when it does not resolve,
/// or is a `javascript:`/`data:` URL); `raw` the value as written
/// (references decoded); `tag` and `attr` where it was (`a`/`href`,
/// `img`/`src`, `img`/`srcset`, `meta`/`content` for a refresh, ...);
/// `offset` the value's UTF-8 byte offset in the decoded page.
#[pyclass(module = "htmltok", frozen, get_all)]
pub struct Link {
    /// The resolved URL; `None` when it does not resolve, or names no
    /// resource (`javascript:`, `data:`).
    url: Option<String>,
    /// The value as written, references decoded.
    raw: String,
    /// The tag's name.
    tag: &'static str,
    /// The attribute's name.
    attr: &'static str,
    /// The value's UTF-8 byte offset in the decoded page.
    offset: usize,
}

#[pymethods]
impl Link {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Link(url={}, raw={}, tag={}, attr={}, offset={})",
            repr(py, self.url.as_deref())?,
            repr(py, Some(&self.raw))?,
            repr(py, Some(self.tag))?,
            repr(py, Some(self.attr))?,
            self.offset
        ))
    }
}

impl From<extract::Link> for Link {
    fn from(link: extract::Link) -> Link {
        Link {
            url: link.url,
            raw: link.raw,
            tag: link.tag,
            attr: link.attr,
            offset: link.offset,
        }
    }
}

/// One page's text: decode, then `htmltok::extract::text`.
fn page_text(html: &Html, decoding: &Decoding, url: Option<String>) -> Page {
    let decoded = html.decode(decoding);
    let text = extract::text(&decoded.html);
    Page {
        title: text.title,
        text: text.text,
        encoding: decoded.encoding.map(|(e, _)| e.name()),
        rule: decoded.encoding.map(|(_, rule)| rule.as_str()),
        url,
    }
}

/// One page's links: decode, then `htmltok::extract::links_with` (the
/// queries in the page's encoding, scripting on or off).
fn page_links(
    html: &Html,
    decoding: &Decoding,
    base: Option<&url::Url>,
    scripting: bool,
) -> Vec<Link> {
    let decoded = html.decode(decoding);
    let options = decoded.link_options().scripting(scripting);
    extract::links_with(&decoded.html, base, options)
        .into_iter()
        .map(Link::from)
        .collect()
}

/// `base_url` parsed, or a `ValueError`.
fn parse_base(base_url: Option<&str>) -> PyResult<Option<url::Url>> {
    base_url
        .map(|base| {
            url::Url::parse(base)
                .map_err(|e| PyValueError::new_err(format!("base_url {base:?}: {e}")))
        })
        .transpose()
}

/// The title and text of `html` (a `str`, or bytes decoded as a browser
/// decodes them, `content_type`'s charset first) as a `Page`.
///
/// >>> text(b"<title>Hi</title><p>One<br>two").text
/// 'One\ntwo'
#[pyfunction]
#[pyo3(signature = (html, *, content_type=None, url=None))]
pub fn text(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    content_type: Option<&Bound<'_, PyAny>>,
    url: Option<&Bound<'_, PyAny>>,
) -> PyResult<Page> {
    let html = Html::extract(html, "html")?;
    let decoding = Decoding::new(None, opt_str(content_type, "content_type")?)?;
    let url = opt_str(url, "url")?;
    Ok(py.detach(|| page_text(&html, &decoding, url)))
}

/// Every URL of `html` (links, images, scripts, frames, forms, srcset
/// candidates, a refresh's URL) as a list of `Link`, resolved against the
/// page's `<base href>` and `base_url`, a query in the page's encoding. A
/// `base_url` that does not parse as an absolute URL is a `ValueError`.
/// `scripting` (on by default, as in a browser with JavaScript) makes the
/// content of `<noscript>` text; `scripting=False` finds the links in it.
///
/// >>> [l.url for l in links('<a href="/x">', base_url="https://example.com/a/")]
/// ['https://example.com/x']
#[pyfunction]
#[pyo3(signature = (html, *, base_url=None, content_type=None, scripting=None))]
pub fn links<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    base_url: Option<&Bound<'py, PyAny>>,
    content_type: Option<&Bound<'py, PyAny>>,
    scripting: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let html = Html::extract(html, "html")?;
    let decoding = Decoding::new(None, opt_str(content_type, "content_type")?)?;
    let base = parse_base(opt_str(base_url, "base_url")?.as_deref())?;
    let scripting = scripting_flag(scripting)?;
    let found = py.detach(|| page_links(&html, &decoding, base.as_ref(), scripting));
    object_list(py, found)
}

/// The `scripting` argument: on unless `False`, or a `TypeError`.
fn scripting_flag(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    match obj {
        None => Ok(true),
        Some(obj) => obj.extract::<bool>().map_err(|_| {
            PyTypeError::new_err(format!("scripting must be bool, not {}", type_name(obj)))
        }),
    }
}

/// The encoding of the page `data` (bytes) as a browser decides it, and
/// the rule that decided it: `(encoding, rule)`, for instance
/// `("Shift_JIS", "meta")`. `content_type` is an HTTP `Content-Type` (or a
/// bare charset label); its charset wins over the page's `<meta>`.
///
/// >>> sniff(b"<meta charset=euc-jp>")
/// ('EUC-JP', 'meta')
#[pyfunction]
#[pyo3(signature = (data, content_type=None))]
pub fn sniff(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    content_type: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'static str, &'static str)> {
    let content_type = opt_str(content_type, "content_type")?;
    let Html::Bytes(bytes) = Html::extract(data, "data")? else {
        return Err(PyTypeError::new_err(
            "data must be bytes: a str is decoded already",
        ));
    };
    let (encoding, rule) = py.detach(|| extract::sniff(&bytes, content_type.as_deref()));
    Ok((encoding.name(), rule.as_str()))
}

/// A page of a batch, with the arguments it came with.
struct Item {
    html: Html,
    decoding: Decoding,
    base: Option<url::Url>,
}

/// The items of `pages`: each `html`, or a tuple of `html` and up to
/// `extra` more optional strings (a content type; a base URL and a
/// content type).
fn items(pages: &Bound<'_, PyAny>, with_base: bool) -> PyResult<Vec<Item>> {
    let shape = if with_base {
        "html, (html, base_url) or (html, base_url, content_type)"
    } else {
        "html or (html, content_type)"
    };
    let iter = pages.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "pages must be an iterable of {shape}, not {}",
            type_name(pages)
        ))
    })?;
    let mut out = Vec::new();
    for (i, page) in iter.enumerate() {
        let page = page?;
        let Ok(tuple) = page.cast::<PyTuple>() else {
            let html = Html::extract(&page, &format!("pages[{i}]"))?;
            out.push(Item {
                html,
                decoding: Decoding::default(),
                base: None,
            });
            continue;
        };
        let most = if with_base { 3 } else { 2 };
        if tuple.is_empty() || tuple.len() > most {
            return Err(PyTypeError::new_err(format!(
                "pages[{i}] must be {shape}, not a tuple of {}",
                tuple.len()
            )));
        }
        let html = Html::extract(&tuple.get_item(0)?, &format!("pages[{i}][0]"))?;
        let string = |k: usize| -> PyResult<Option<String>> {
            let item = tuple.get_item(k).ok();
            opt_str(item.as_ref(), &format!("pages[{i}][{k}]"))
        };
        let (base, content_type) = if with_base {
            (parse_base(string(1)?.as_deref())?, string(2)?)
        } else {
            (None, string(1)?)
        };
        out.push(Item {
            html,
            decoding: Decoding::new(None, content_type)?,
            base,
        });
    }
    Ok(out)
}

/// Runs `f` on a rayon pool of `threads` threads (all cores when `None`).
/// Pools are made once per size and kept: making threads costs more than
/// a small batch.
fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let Some(n) = threads else {
        return Ok(f());
    };
    if n == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let pool = {
        let mut pools = POOLS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match pools.get(&n) {
            Some(pool) => pool.clone(),
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| PyValueError::new_err(format!("threads={n}: {e}")))?;
                let pool = Arc::new(pool);
                pools.insert(n, pool.clone());
                pool
            }
        }
    };
    Ok(pool.install(f))
}

/// `f` of every item, in order, on `threads` threads with the GIL
/// released.
fn batch<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    items: &[Item],
    f: impl Fn(&Item) -> T + Sync + Send,
) -> PyResult<Vec<T>> {
    py.detach(|| on_pool(threads, || items.par_iter().map(f).collect()))
}

/// `text` of every page, in order, on `threads` threads (all cores when
/// `None`) with the GIL released. Each page is `html` or
/// `(html, content_type)`.
#[pyfunction]
#[pyo3(signature = (pages, *, threads=None))]
pub fn text_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let items = items(pages, false)?;
    let done = batch(py, threads, &items, |item| {
        page_text(&item.html, &item.decoding, None)
    })?;
    object_list(py, done)
}

/// `links` of every page, in order (a list of lists), on `threads` threads
/// (all cores when `None`) with the GIL released. Each page is `html`,
/// `(html, base_url)` or `(html, base_url, content_type)`; `scripting` as
/// for `links`, for every page.
#[pyfunction]
#[pyo3(signature = (pages, *, threads=None, scripting=None))]
pub fn links_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    threads: Option<usize>,
    scripting: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let items = items(pages, true)?;
    let scripting = scripting_flag(scripting)?;
    let done = batch(py, threads, &items, |item| {
        page_links(&item.html, &item.decoding, item.base.as_ref(), scripting)
    })?;
    let lists = done
        .into_iter()
        .map(|links| object_list(py, links))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, lists)
}
