"""htmltok: a WHATWG HTML tokenizer, with a crawler's text and link extraction.

The tokenizer is Rust (the ``htmltok`` crate); every function releases the
GIL while it decodes and tokenizes, so Python threads run in parallel, and
``text_many``/``links_many`` spread a batch over all cores.
``warc_pages`` reads web archives (WARC, ARC; gzip, LZ4, Zstandard) with
the command line's own reader.

>>> import htmltok
>>> [(t.kind, t.name) for t in htmltok.tokenize("<p>Hi</p>")]
[('start_tag', 'p'), ('text', None), ('end_tag', 'p')]
>>> htmltok.text(b"<title>T</title><p>One<br>two").text
'One\\ntwo'

One calling convention: a page is a ``str``, bytes (``bytes``,
``bytearray``, ``memoryview``) or an ``ArchivePage``; the keywords are
``url`` (the page's URL, an absolute URL), ``content_type`` (an HTTP
``Content-Type``, or a bare charset label) and ``encoding`` (a label of
the WHATWG Encoding Standard). Bytes are decoded as a browser decodes them
(byte order mark, then ``encoding``, else ``content_type``'s charset, then
``<meta>``, then a guess); an ``encoding`` that is no encoding label is a
``ValueError``, as the command line's ``--encoding``, while an unknown
charset in ``content_type`` (a header, as it came) is ignored, as a browser
ignores it. Bytes with a NUL in
their first 1024 bytes are a ``BinaryInputError`` for ``text``, ``links``
and ``sniff`` (the command line's rule for a binary file). Offsets are
UTF-8 byte offsets in the decoded page. The batch forms take the same
items for text and links: ``html``, ``(html, url)``,
``(html, url, content_type)`` or an ``ArchivePage``.

Main content: ``text`` and ``text_many`` take ``main=True`` for the page's
main content (the article, post or documentation body, without
navigation, banners, sidebars, related links, footers and comments)
instead of all its text, as the command line's ``text --main``; with it,
``comments=True`` keeps the comment section, ``markdown=True`` gives
Markdown (headings, lists, pipe tables, fenced code) and ``links=True``
its links as ``[text](href)``. Those three without ``main=True`` (or
``links`` without ``markdown``) are a ``ValueError``.

``Page``, ``Link``, ``Token``, ``ParseError``, ``ArchivePage`` and
``ArchiveProblem`` compare by value, hash, pickle (for Spark and
multiprocessing) and have ``to_dict()``.

Token tables
------------
``token_table(html)`` returns the tokens as fixed-size little-endian
records (no Python object per token). numpy reads them where the tokenizer
wrote them, with no copy (read-only arrays that keep the table alive)::

    t = htmltok.token_table(page)
    tokens = numpy.asarray(t.token_records)   # dtype htmltok.TOKEN_DTYPE
    attrs = numpy.asarray(t.attr_records)     # dtype htmltok.ATTR_DTYPE

The same records as ``bytes`` (one copy, made on first use), for any reader
of binary records: ``t.tokens`` and ``t.attrs``, e.g.
``numpy.frombuffer(t.tokens, dtype=htmltok.TOKEN_DTYPE)``.

A token record (44 bytes): ``start``, ``end`` (the token's bytes in
``t.text``), three strings ``s0``, ``s1``, ``s2`` as ``(off, len)`` pairs,
``first_attr`` and ``n_attrs`` (its attributes are
``attrs[first_attr:first_attr + n_attrs]``), all ``<u4``; then ``kind``
(an index into ``TOKEN_KINDS``) and ``flags`` (``u1``) and 2 bytes of
padding. The strings by kind:

============================  ===========  ===========  ===========
kind                          s0           s1           s2
============================  ===========  ===========  ===========
doctype (0)                   name         public id    system id
start_tag (1), end_tag (2)    name
comment (3), text (4)         data
processing_instruction (5)    target       data
============================  ===========  ===========  ===========

Flags: ``FLAG_SELF_CLOSING``, ``FLAG_FORCE_QUIRKS``, and for a doctype
``FLAG_HAS_S0``/``S1``/``S2`` (a missing name or id differs from an empty
one). An attribute record (24 bytes, ``<u4``): ``name_off``, ``name_len``,
``value_off``, ``value_len``, ``name_start``, ``value_start`` (where the
name and value start in ``t.text``).

A string ``(off, len)`` is UTF-8 bytes of ``t.text + t.extra``: the decoded
page itself when the page holds it verbatim (``off < len(t.text)``), else
the side buffer ``t.extra`` of strings the tokenizer rewrote (decoded
character references, lower-cased names, normalised newlines), at
``off - len(t.text)``. ``t.string(off, len)`` reads one. Offsets are 32
bits: a page of more than 4 GiB of UTF-8 (with its rewritten strings) is a
``ValueError`` for ``token_table`` and ``tokenize``.

``t.to_bytes()`` saves a table (the Rust library's ``Records::to_bytes``
writes the same bytes) and ``TokenTable.from_bytes(data)`` reads it back:
a 32-byte header (``b"htmltokR"``, then ``<u4`` version 1, the numbers of
token and attribute records, the lengths of ``text`` and ``extra``, 0),
the token records, the attribute records, ``text``, ``extra``. numpy reads
the records straight from the saved bytes,
``numpy.frombuffer(data, TOKEN_DTYPE, count=n, offset=32)``, ``struct``
one by one (``python/examples/records.py`` does both).
"""

from ._htmltok import (
    ATTR_RECORD_SIZE,
    TOKEN_KINDS,
    TOKEN_RECORD_SIZE,
    ArchivePage,
    ArchivePages,
    ArchiveProblem,
    ArchiveWarning,
    BinaryInputError,
    Link,
    Page,
    ParseError,
    RecordArray,
    Token,
    TokenTable,
    __version__,
    links,
    links_many,
    sniff,
    text,
    text_many,
    token_table,
    tokenize,
    warc_pages,
)

#: The numpy dtype of ``TokenTable.tokens`` (a list numpy accepts as a
#: dtype; numpy is not needed to import htmltok).
TOKEN_DTYPE = [
    ("start", "<u4"),
    ("end", "<u4"),
    ("s0_off", "<u4"),
    ("s0_len", "<u4"),
    ("s1_off", "<u4"),
    ("s1_len", "<u4"),
    ("s2_off", "<u4"),
    ("s2_len", "<u4"),
    ("first_attr", "<u4"),
    ("n_attrs", "<u4"),
    ("kind", "u1"),
    ("flags", "u1"),
    ("_pad", "V2"),
]

#: The numpy dtype of ``TokenTable.attrs``.
ATTR_DTYPE = [
    ("name_off", "<u4"),
    ("name_len", "<u4"),
    ("value_off", "<u4"),
    ("value_len", "<u4"),
    ("name_start", "<u4"),
    ("value_start", "<u4"),
]

FLAG_SELF_CLOSING = 1
FLAG_FORCE_QUIRKS = 2
FLAG_HAS_S0 = 4
FLAG_HAS_S1 = 8
FLAG_HAS_S2 = 16

__all__ = [
    "ATTR_DTYPE",
    "ATTR_RECORD_SIZE",
    "ArchivePage",
    "ArchivePages",
    "ArchiveProblem",
    "ArchiveWarning",
    "BinaryInputError",
    "FLAG_FORCE_QUIRKS",
    "FLAG_HAS_S0",
    "FLAG_HAS_S1",
    "FLAG_HAS_S2",
    "FLAG_SELF_CLOSING",
    "Link",
    "Page",
    "ParseError",
    "RecordArray",
    "TOKEN_DTYPE",
    "TOKEN_KINDS",
    "TOKEN_RECORD_SIZE",
    "Token",
    "TokenTable",
    "__version__",
    "links",
    "links_many",
    "sniff",
    "text",
    "text_many",
    "token_table",
    "tokenize",
    "warc_pages",
]
