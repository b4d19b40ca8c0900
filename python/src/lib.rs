//! `htmltok._htmltok`: the compiled part of the `htmltok` Python package.
//!
//! Every function decodes and tokenizes with the GIL released (PyO3's
//! `Python::detach`), then builds Python objects with it held, so Python
//! threads scale; the batch forms run on a rayon pool. The package's
//! `htmltok/__init__.py` re-exports this module beside the pure-Python
//! parts (the numpy dtypes, the datatrove adapter).
//!
//! Modules, one job each: `input` (arguments to pages: `str`/bytes/archived
//! pages, encoding labels, URLs, type errors), `table` (tokens as
//! fixed-size records), `tokens` (`tokenize`, `token_table`), `extract`
//! (`text`, `links`, `sniff` and the batch forms over `htmltok::extract`),
//! `archive` (`warc_pages` over `htmltok-warc`, the command line's
//! archive reader).

mod archive;
mod extract;
mod input;
mod table;
mod tokens;

use pyo3::prelude::*;
use pyo3::types::PyList;

#[pymodule]
fn _htmltok(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokens::tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_table, m)?)?;
    m.add_function(wrap_pyfunction!(extract::text, m)?)?;
    m.add_function(wrap_pyfunction!(extract::links, m)?)?;
    m.add_function(wrap_pyfunction!(extract::sniff, m)?)?;
    m.add_function(wrap_pyfunction!(extract::text_many, m)?)?;
    m.add_function(wrap_pyfunction!(extract::links_many, m)?)?;
    m.add_function(wrap_pyfunction!(archive::warc_pages, m)?)?;
    m.add_class::<archive::ArchivePage>()?;
    m.add_class::<archive::ArchivePages>()?;
    m.add_class::<archive::ArchiveProblem>()?;
    m.add(
        "ArchiveWarning",
        m.py().get_type::<archive::ArchiveWarning>(),
    )?;
    m.add(
        "BinaryInputError",
        m.py().get_type::<input::BinaryInputError>(),
    )?;
    m.add_class::<tokens::Token>()?;
    m.add_class::<tokens::ParseError>()?;
    m.add_class::<tokens::TokenTable>()?;
    m.add_class::<tokens::RecordArray>()?;
    m.add_class::<extract::Page>()?;
    m.add_class::<extract::Link>()?;
    m.add("TOKEN_KINDS", table::KINDS.to_vec())?;
    m.add(
        "TOKEN_RECORD_SIZE",
        std::mem::size_of::<table::TokenRecord>(),
    )?;
    m.add("ATTR_RECORD_SIZE", std::mem::size_of::<table::AttrRecord>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// A Python list of `values` as objects of their class.
pub(crate) fn object_list<T>(py: Python<'_>, values: Vec<T>) -> PyResult<Bound<'_, PyList>>
where
    T: pyo3::PyClass + Into<pyo3::PyClassInitializer<T>>,
{
    let objects = values
        .into_iter()
        .map(|v| Bound::new(py, v))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, objects)
}

/// A Python tuple of the values given (of any length: PyO3 converts Rust
/// tuples of at most twelve).
#[macro_export]
macro_rules! py_tuple {
    ($py:expr; $($value:expr),* $(,)?) => {
        pyo3::types::PyTuple::new(
            $py,
            [$(pyo3::IntoPyObjectExt::into_bound_py_any($value, $py)?),*],
        )?
    };
}
