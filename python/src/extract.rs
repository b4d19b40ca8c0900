//! `text`, `links`, `sniff` and their batch forms: the library's
//! `htmltok::extract` module (the rules of the command line's `text`,
//! `links` and `sniff`), with the GIL released while they run.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use htmltok::extract;
use pyo3::exceptions::{PyDeprecationWarning, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyMemoryView, PyString, PyTuple};
use rayon::prelude::*;

use crate::archive::ArchivePage;
use crate::input::{encoding_for, opt_str, repr, type_name, Decoding, Html, PageIn};
use crate::object_list;

/// A page's title and text (`htmltok.text`).
///
/// `title` is the first `<title>` (whitespace collapsed; `None` when there
/// is none); `text` the body's text as a reader sees it (scripts, styles
/// and hidden markup left out, line breaks at `<br>` and blocks, tabs
/// between table cells, whitespace collapsed outside `<pre>`), or with
/// `main=True` the page's main content, as text or Markdown;
/// `encoding` the encoding bytes were decoded from and `rule` what decided
/// it (`"bom"`, `"transport"`, `"meta"`, `"late-meta"`, `"guess"`,
/// `"default"`, `"changed-by-meta"`), both `None` for a `str`; `url` the page's URL (the `url`
/// argument, or an archived page's target URI). Compares by value,
/// hashes, pickles; `to_dict()` gives its fields.
///
/// >>> text(b"<title>T</title>x").to_dict()
/// {'title': 'T', 'text': 'x', 'encoding': 'windows-1252', 'rule': 'default', 'url': None}
#[pyclass(module = "htmltok", frozen, eq, hash, get_all)]
#[derive(PartialEq, Eq, Hash)]
pub struct Page {
    /// The first `<title>`, whitespace collapsed; `None` without one.
    title: Option<String>,
    /// The body's text as a reader sees it.
    text: String,
    /// The encoding bytes were decoded from (`None` for a `str`).
    encoding: Option<Cow<'static, str>>,
    /// What decided it: `bom`, `transport`, `meta`, `late-meta`, `guess`,
    /// `default`, `changed-by-meta` (`None` for a `str`).
    rule: Option<Cow<'static, str>>,
    /// The page's URL.
    url: Option<String>,
}

#[pymethods]
impl Page {
    #[new]
    #[pyo3(signature = (title=None, text=String::new(), encoding=None, rule=None, url=None))]
    fn new(
        title: Option<String>,
        text: String,
        encoding: Option<String>,
        rule: Option<String>,
        url: Option<String>,
    ) -> Page {
        Page {
            title,
            text,
            encoding: encoding.map(Cow::Owned),
            rule: rule.map(Cow::Owned),
            url,
        }
    }

    /// The fields as a dict: `title`, `text`, `encoding`, `rule`, `url`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("title", &self.title)?;
        dict.set_item("text", &self.text)?;
        dict.set_item("encoding", self.encoding.as_deref())?;
        dict.set_item("rule", self.rule.as_deref())?;
        dict.set_item("url", &self.url)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let p = slf.get();
        let args = (
            &p.title,
            &p.text,
            p.encoding.as_deref(),
            p.rule.as_deref(),
            &p.url,
        );
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Page(title={}, text=<{} chars>, encoding={}, rule={}, url={})",
            repr(py, self.title.as_deref())?,
            self.text.chars().count(),
            repr(py, self.encoding.as_deref())?,
            repr(py, self.rule.as_deref())?,
            repr(py, self.url.as_deref())?,
        ))
    }
}

/// One URL of a page (`htmltok.links`).
///
/// `url` is the URL resolved by the WHATWG URL Standard against the
/// page's `<base href>` and the page's URL (`None` when it does not
/// resolve, or is a `javascript:`/`data:` URL); `raw` the value as written
/// (references decoded); `tag` and `attr` where it was (`a`/`href`,
/// `img`/`src`, `img`/`srcset`, `meta`/`content` for a refresh, ...);
/// `offset` the value's UTF-8 byte offset in the decoded page. Compares
/// by value, hashes, pickles; `to_dict()` gives its fields.
///
/// >>> links("<a href=/x>", url="https://example.com/")[0] == Link("https://example.com/x", "/x", "a", "href", 8)
/// True
#[pyclass(module = "htmltok", frozen, eq, hash, get_all)]
#[derive(PartialEq, Eq, Hash)]
pub struct Link {
    /// The resolved URL; `None` when it does not resolve, or names no
    /// resource (`javascript:`, `data:`).
    url: Option<String>,
    /// The value as written, references decoded.
    raw: String,
    /// The tag's name.
    tag: Cow<'static, str>,
    /// The attribute's name.
    attr: Cow<'static, str>,
    /// The value's UTF-8 byte offset in the decoded page.
    offset: usize,
}

#[pymethods]
impl Link {
    #[new]
    #[pyo3(signature = (url, raw, tag, attr, offset))]
    fn new(url: Option<String>, raw: String, tag: String, attr: String, offset: usize) -> Link {
        Link {
            url,
            raw,
            tag: Cow::Owned(tag),
            attr: Cow::Owned(attr),
            offset,
        }
    }

    /// The fields as a dict: `url`, `raw`, `tag`, `attr`, `offset`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("url", &self.url)?;
        dict.set_item("raw", &self.raw)?;
        dict.set_item("tag", &*self.tag)?;
        dict.set_item("attr", &*self.attr)?;
        dict.set_item("offset", self.offset)?;
        Ok(dict)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let l = slf.get();
        let args = (&l.url, &l.raw, &*l.tag, &*l.attr, l.offset);
        (slf.get_type(), args).into_pyobject(slf.py())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Link(url={}, raw={}, tag={}, attr={}, offset={})",
            repr(py, self.url.as_deref())?,
            repr(py, Some(&self.raw))?,
            repr(py, Some(&self.tag))?,
            repr(py, Some(&self.attr))?,
            self.offset
        ))
    }
}

impl From<extract::Link> for Link {
    fn from(link: extract::Link) -> Link {
        Link {
            url: link.url,
            raw: link.raw,
            tag: Cow::Borrowed(link.tag),
            attr: Cow::Borrowed(link.attr),
            offset: link.offset,
        }
    }
}

/// One page's text: decode, then `htmltok::extract::text`, or
/// `main_content_with` when `main` has the main content's options.
fn page_text(page: &PageIn, main: Option<extract::MainOptions>) -> Page {
    let decoded = page.html.decode(&page.decoding);
    let text = match main {
        Some(options) => extract::main_content_with(&decoded.html, options),
        None => extract::text(&decoded.html),
    };
    Page {
        title: text.title,
        text: text.text,
        encoding: decoded.encoding.map(|(e, _)| Cow::Borrowed(e.name())),
        rule: decoded
            .encoding
            .map(|(_, rule)| Cow::Borrowed(rule.as_str())),
        url: page.url.as_ref().map(|u| u.text.clone()),
    }
}

/// One page's links: decode, then `htmltok::extract::links_with` (the
/// queries in the page's encoding, scripting on or off).
fn page_links(page: &PageIn, scripting: bool) -> Vec<Link> {
    let decoded = page.html.decode(&page.decoding);
    let options = decoded.link_options().scripting(scripting);
    extract::links_with(&decoded.html, page.base(), options)
        .into_iter()
        .map(Link::from)
        .collect()
}

/// The title and text of `html` as a `Page`.
///
/// `html` is a `str`; or bytes (`bytes`, `bytearray`, `memoryview`)
/// decoded as a browser decodes them: `encoding` (an encoding label) if
/// given, else the charset of `content_type` (an HTTP `Content-Type`, or
/// a bare label), else the page's own byte order mark or `<meta>`, else a
/// guess; or an `ArchivePage` from `warc_pages`, with its own HTTP
/// `Content-Type` and URL. An `encoding` that names no encoding is a
/// `ValueError` (an unknown charset in `content_type`, a header, is
/// ignored, as a browser ignores it); bytes with a NUL byte in their first 1024 are a
/// `BinaryInputError`. `url` is the page's URL (an absolute URL), kept on
/// the `Page`.
///
/// `main=True` makes `text` the page's main content: the article, post or
/// documentation body, without navigation, banners, sidebars, share bars,
/// related links, footers and comment sections (`title` is the page's
/// title all the same). Its options, each a `ValueError` without it (so
/// that `text` without `main=True` is always all the text):
/// `comments=True` keeps the comment section; `markdown=True` renders the
/// main content as Markdown (headings as `#`, lists as `-` and `1.`,
/// tables as pipe tables, `pre` as fenced code); `links=True` writes its
/// links as `[text](href)` in the Markdown.
///
/// >>> text(b"<title>Hi</title><p>One<br>two").text
/// 'One\ntwo'
/// >>> text("<nav><a href=/>Home</a></nav><article><p>The story.</p></article>", main=True).text
/// 'The story.'
#[pyfunction]
#[pyo3(signature = (html, *, url=None, content_type=None, encoding=None, main=None, comments=None, markdown=None, links=None))]
#[allow(clippy::too_many_arguments)]
pub fn text(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<&Bound<'_, PyAny>>,
    content_type: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
    main: Option<&Bound<'_, PyAny>>,
    comments: Option<&Bound<'_, PyAny>>,
    markdown: Option<&Bound<'_, PyAny>>,
    links: Option<&Bound<'_, PyAny>>,
) -> PyResult<Page> {
    let main = main_options(main, comments, markdown, links)?;
    let page = PageIn::new(
        html,
        "html",
        "",
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
        opt_str(url, "url")?,
    )?;
    Ok(py.detach(|| page_text(&page, main)))
}

/// Every URL of `html` (links, images, scripts, frames, forms, srcset
/// candidates, a refresh's URL) as a list of `Link`, resolved against the
/// page's `<base href>` and its `url` (an absolute URL; an `ArchivePage`'s
/// target URI by default), a URL's query written in the page's encoding.
/// `html`, `content_type` and `encoding` as for `text`. `scripting` (on by
/// default, as in a browser with JavaScript) makes the content of
/// `<noscript>` text; `scripting=False` finds the links in it.
/// (`base_url=` is the old name of `url=`: it still works, with a
/// `DeprecationWarning`.)
///
/// >>> [l.url for l in links('<a href="/x">', url="https://example.com/a/")]
/// ['https://example.com/x']
#[pyfunction]
#[pyo3(signature = (html, *, url=None, content_type=None, encoding=None, scripting=None, base_url=None))]
#[allow(clippy::too_many_arguments)]
pub fn links<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&Bound<'py, PyAny>>,
    content_type: Option<&Bound<'py, PyAny>>,
    encoding: Option<&Bound<'py, PyAny>>,
    scripting: Option<&Bound<'py, PyAny>>,
    base_url: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let scripting = scripting_flag(scripting)?;
    let mut url = opt_str(url, "url")?;
    if let Some(base) = opt_str(base_url, "base_url")? {
        if url.is_some() {
            return Err(PyTypeError::new_err(
                "links() takes url or base_url (its old name), not both",
            ));
        }
        PyErr::warn(
            py,
            &py.get_type::<PyDeprecationWarning>(),
            c"links(base_url=...) is now links(url=...), as in text()",
            1,
        )?;
        url = Some(base);
    }
    let page = PageIn::new(
        html,
        "html",
        "",
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
        url,
    )?;
    let found = py.detach(|| page_links(&page, scripting));
    object_list(py, found)
}

/// The `scripting` argument: on unless `False`, or a `TypeError`.
fn scripting_flag(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    flag(obj, "scripting", true)
}

/// A `bool` argument `name`: `default` when not given, or a `TypeError`.
fn flag(obj: Option<&Bound<'_, PyAny>>, name: &str, default: bool) -> PyResult<bool> {
    match obj {
        None => Ok(default),
        Some(obj) => obj.extract::<bool>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} must be bool, not {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        }),
    }
}

/// The main content's arguments of `text` and `text_many`: its options
/// when `main` is true, `None` for all the text. An option of the main
/// content without it is a `ValueError` rather than a silent `main=True`,
/// so that a call without `main=True` always means all the text.
fn main_options(
    main: Option<&Bound<'_, PyAny>>,
    comments: Option<&Bound<'_, PyAny>>,
    markdown: Option<&Bound<'_, PyAny>>,
    links: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<extract::MainOptions>> {
    let main = flag(main, "main", false)?;
    let comments = flag(comments, "comments", false)?;
    let markdown = flag(markdown, "markdown", false)?;
    let links = flag(links, "links", false)?;
    if !main && (comments || markdown) {
        let name = if comments { "comments" } else { "markdown" };
        return Err(PyValueError::new_err(format!(
            "{name}=True is an option of the main content: add main=True"
        )));
    }
    if links && !markdown {
        return Err(PyValueError::new_err(
            "links=True writes links in Markdown: add main=True, markdown=True",
        ));
    }
    Ok(main.then(|| {
        extract::MainOptions::new()
            .comments(comments)
            .markdown(markdown)
            .links(links)
    }))
}

/// The encoding of the page `data` as a browser decides it, and the rule
/// that decided it: `(encoding, rule)`, for instance `("Shift_JIS",
/// "meta")`. `data` is bytes (or an `ArchivePage`, with its HTTP
/// `Content-Type`); `content_type` and `encoding` as for `text`: a
/// transport charset, which wins over the page's `<meta>`.
///
/// >>> sniff(b"<meta charset=euc-jp>")
/// ('EUC-JP', 'meta')
#[pyfunction]
#[pyo3(signature = (data, content_type=None, *, encoding=None))]
pub fn sniff(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    content_type: Option<&Bound<'_, PyAny>>,
    encoding: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'static str, &'static str)> {
    if data.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "data must be bytes: a str is decoded already",
        ));
    }
    let html = Html::extract(data, "data")?;
    let decoding = Decoding::new(
        opt_str(encoding, "encoding")?,
        opt_str(content_type, "content_type")?,
        html.archived(),
        "",
    )?;
    html.refuse_binary("data", &decoding)?;
    let (encoding, rule) = py.detach(|| extract::sniff(html.raw(), decoding.transport()));
    Ok((encoding.name(), rule.as_str()))
}

/// The shape of a batch's item, for messages.
const SHAPE: &str = "html, (html, url), (html, url, content_type) or an ArchivePage";

/// The pages of a batch: each `html` (as for `text`), a tuple
/// `(html, url)` or `(html, url, content_type)`, or an `ArchivePage`.
/// `encoding`, the batch's, is checked first (an empty batch too).
fn items(pages: &Bound<'_, PyAny>, encoding: Option<String>) -> PyResult<Vec<PageIn>> {
    if let Some(label) = &encoding {
        encoding_for(label).map_err(|e| PyValueError::new_err(format!("encoding: {e}")))?;
    }
    // One page is iterable too (a `str` by character, bytes by byte): a
    // batch of it would be a list of one-letter pages.
    let one = pages.is_instance_of::<PyString>()
        || pages.is_instance_of::<ArchivePage>()
        || pages.is_instance_of::<PyBytes>()
        || pages.is_instance_of::<PyByteArray>()
        || pages.is_instance_of::<PyMemoryView>();
    if one {
        return Err(PyTypeError::new_err(format!(
            "pages must be an iterable of {SHAPE}, not one page ({}): text() and links() take one",
            type_name(pages)
        )));
    }
    let iter = pages.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "pages must be an iterable of {SHAPE}, not {}",
            type_name(pages)
        ))
    })?;
    let mut out = Vec::new();
    for (i, page) in iter.enumerate() {
        let page = page?;
        let what = format!("pages[{i}]");
        let Ok(tuple) = page.cast::<PyTuple>() else {
            let prefix = format!("{what}: ");
            out.push(PageIn::new(
                &page,
                &what,
                &prefix,
                encoding.clone(),
                None,
                None,
            )?);
            continue;
        };
        if tuple.is_empty() || tuple.len() > 3 {
            return Err(PyTypeError::new_err(format!(
                "{what} must be {SHAPE}, not a tuple of {}",
                tuple.len()
            )));
        }
        let field = |k: usize, name: &str| -> PyResult<Option<String>> {
            let item = tuple.get_item(k).ok();
            opt_str(item.as_ref(), &format!("{what}[{k}] ({name})"))
        };
        let (url, content_type) = (field(1, "url")?, field(2, "content_type")?);
        let html = tuple.get_item(0)?;
        if html.is_instance_of::<ArchivePage>() {
            return Err(PyTypeError::new_err(format!(
                "{what}[0] (html): an ArchivePage is an item by itself, not in a tuple"
            )));
        }
        out.push(PageIn::new(
            &html,
            &format!("{what}[0] (html)"),
            &format!("{what}: "),
            encoding.clone(),
            content_type,
            url,
        )?);
    }
    Ok(out)
}

/// The batches' rayon pools, by size (`None`: all cores), and the process
/// that made them.
struct Pools {
    pid: u32,
    by_size: HashMap<Option<usize>, Arc<rayon::ThreadPool>>,
}

/// Runs `f` on a rayon pool of `threads` threads (all cores when `None`).
/// Pools are made once per size and kept: making threads costs more than
/// a small batch.
///
/// A child made by `fork` has none of its parent's threads, so it may not
/// use its parent's pools (nor rayon's global pool, which is why `None`
/// has a pool of its own here): work handed to them would wait forever.
/// It makes its own, and leaves the parent's handles alone (dropping one
/// would signal threads that are not there).
fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let pool = {
        let mut pools = POOLS
            .get_or_init(|| {
                Mutex::new(Pools {
                    pid: std::process::id(),
                    by_size: HashMap::new(),
                })
            })
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let pid = std::process::id();
        if pools.pid != pid {
            for (_, pool) in pools.by_size.drain() {
                std::mem::forget(pool);
            }
            pools.pid = pid;
        }
        match pools.by_size.get(&threads) {
            Some(pool) => pool.clone(),
            None => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads.unwrap_or(0))
                    .build()
                    .map_err(|e| match threads {
                        Some(n) => PyValueError::new_err(format!("threads={n}: {e}")),
                        None => PyValueError::new_err(format!("cannot start threads: {e}")),
                    })?;
                let pool = Arc::new(pool);
                pools.by_size.insert(threads, pool.clone());
                pool
            }
        }
    };
    Ok(pool.install(f))
}

/// `f` of every page, in order, on `threads` threads with the GIL
/// released.
fn batch<T: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    pages: &[PageIn],
    f: impl Fn(&PageIn) -> T + Sync + Send,
) -> PyResult<Vec<T>> {
    py.detach(|| on_pool(threads, || pages.par_iter().map(f).collect()))
}

/// `text` of every page, in order, on `threads` threads (all cores when
/// `None`) with the GIL released: a list of `Page`. Each page is `html`
/// (as for `text`), `(html, url)`, `(html, url, content_type)`, or an
/// `ArchivePage`; the same items as `links_many`. `encoding`, if given,
/// decodes every page, as the command line's `--encoding`. A wrong item is
/// a `TypeError` naming it and its field. `main`, `comments`, `markdown`
/// and `links` as for `text`, for every page.
///
/// >>> [p.text for p in text_many([b"<p>a", ("<p>b", "https://example.com/")])]
/// ['a', 'b']
#[pyfunction]
#[pyo3(signature = (pages, *, encoding=None, threads=None, main=None, comments=None, markdown=None, links=None))]
#[allow(clippy::too_many_arguments)]
pub fn text_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    encoding: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    main: Option<&Bound<'py, PyAny>>,
    comments: Option<&Bound<'py, PyAny>>,
    markdown: Option<&Bound<'py, PyAny>>,
    links: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let main = main_options(main, comments, markdown, links)?;
    let pages = items(pages, opt_str(encoding, "encoding")?)?;
    let done = batch(py, threads, &pages, |page| page_text(page, main))?;
    object_list(py, done)
}

/// `links` of every page, in order (a list of lists of `Link`), on
/// `threads` threads (all cores when `None`) with the GIL released. The
/// items are those of `text_many`: `html`, `(html, url)`,
/// `(html, url, content_type)`, or an `ArchivePage`; `scripting` as for
/// `links`, for every page.
///
/// >>> [[l.url for l in found] for found in links_many([("<a href=x>", "https://example.com/")])]
/// [['https://example.com/x']]
#[pyfunction]
#[pyo3(signature = (pages, *, encoding=None, threads=None, scripting=None))]
pub fn links_many<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    encoding: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    scripting: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let scripting = scripting_flag(scripting)?;
    let pages = items(pages, opt_str(encoding, "encoding")?)?;
    let done = batch(py, threads, &pages, |page| page_links(page, scripting))?;
    let lists = done
        .into_iter()
        .map(|links| object_list(py, links))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, lists)
}
