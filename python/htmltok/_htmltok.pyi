"""Type stubs of the compiled module (re-exported by ``htmltok``)."""

import os
from typing import IO, Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Tuple, Union, overload

Bytes = Union[bytes, bytearray, memoryview]
# A page: text, bytes to decode, or a page read from an archive.
Html = Union[str, Bytes, "ArchivePage"]
# An item of text_many and links_many: html, (html, url),
# (html, url, content_type), or an ArchivePage (which brings its own URL
# and Content-Type).
Item = Union[
    str,
    Bytes,
    "ArchivePage",
    Tuple[Union[str, Bytes]],
    Tuple[Union[str, Bytes], Optional[str]],
    Tuple[Union[str, Bytes], Optional[str], Optional[str]],
]

TOKEN_KINDS: List[str]
TOKEN_RECORD_SIZE: int
ATTR_RECORD_SIZE: int
__version__: str

class BinaryInputError(ValueError):
    """Bytes with a NUL byte in their first 1024 (no UTF-16 byte order
    mark): a binary file, not a page (``text``, ``links``, ``sniff`` and
    the batch forms)."""

class ArchiveWarning(UserWarning):
    """Something in an archive that could not be read (``warc_pages``)."""

class Token:
    """One token: ``kind`` is ``"doctype"``, ``"start_tag"``, ``"end_tag"``,
    ``"comment"``, ``"text"`` or ``"processing_instruction"``;
    ``start``/``end`` are UTF-8 byte offsets in the decoded page. Compares
    by value, hashes, pickles."""

    def __init__(
        self,
        kind: str,
        name: Optional[str] = None,
        attrs: Union[Mapping[str, str], Iterable[Tuple[str, str]], None] = None,
        data: Optional[str] = None,
        self_closing: bool = False,
        start: int = 0,
        end: int = 0,
        public_id: Optional[str] = None,
        system_id: Optional[str] = None,
        force_quirks: bool = False,
    ) -> None: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> Optional[str]:
        """A tag's name (lower-case), a doctype's name."""
    @property
    def attrs(self) -> Dict[str, str]:
        """A start tag's attributes in source order (a new dict; empty for
        other tokens)."""
    @property
    def data(self) -> Optional[str]:
        """The text of a text or comment token."""
    @property
    def self_closing(self) -> bool: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def public_id(self) -> Optional[str]: ...
    @property
    def system_id(self) -> Optional[str]: ...
    @property
    def force_quirks(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

class ParseError:
    """A parse error: the standard's code, 1-based line and column (UTF-16
    units), UTF-8 byte offset in the decoded page."""

    def __init__(self, code: str, line: int, column: int, offset: int) -> None: ...
    @property
    def code(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def offset(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]: ...

class RecordArray:
    """A table's records in place: ``numpy.asarray`` reads them without a
    copy (read-only, keeping the table alive)."""

    @property
    def __array_interface__(self) -> Dict[str, Any]: ...
    def __len__(self) -> int: ...

class TokenTable:
    """Tokens as fixed-size little-endian records (see ``help(htmltok)``):
    ``numpy.asarray(t.token_records)``, no copy."""

    @property
    def token_records(self) -> RecordArray:
        """The token records in place (``htmltok.TOKEN_DTYPE``)."""
    @property
    def attr_records(self) -> RecordArray:
        """The attribute records in place (``htmltok.ATTR_DTYPE``)."""

    @property
    def tokens(self) -> bytes:
        """44-byte token records (``htmltok.TOKEN_DTYPE``), copied once."""
    @property
    def attrs(self) -> bytes:
        """24-byte attribute records (``htmltok.ATTR_DTYPE``)."""
    @property
    def text(self) -> bytes:
        """The decoded page, UTF-8."""
    @property
    def extra(self) -> bytes:
        """Strings the tokenizer rewrote, addressed from ``len(text)`` on."""
    @property
    def encoding(self) -> Optional[str]:
        """The encoding bytes were decoded from (``None`` for a ``str``)."""
    @property
    def len(self) -> int:
        """The number of tokens (``len(t)``)."""
    def string(self, off: int, len: int) -> str:
        """The string ``(off, len)`` of ``text + extra``."""
    def to_bytes(self) -> bytes:
        """The table saved: a header, the records, ``text``, ``extra``
        (``help(htmltok)``); ``from_bytes`` reads it back."""
    @staticmethod
    def from_bytes(data: Bytes) -> "TokenTable":
        """The table ``to_bytes`` (or Rust's ``Records::to_bytes``) saved;
        its ``encoding`` is ``None``."""
    def __len__(self) -> int: ...

class Page:
    """A page's title and text (or main content), from ``text``."""

    def __init__(
        self,
        title: Optional[str] = None,
        text: str = "",
        encoding: Optional[str] = None,
        rule: Optional[str] = None,
        url: Optional[str] = None,
    ) -> None: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def text(self) -> str: ...
    @property
    def encoding(self) -> Optional[str]:
        """The encoding bytes were decoded from (``None`` for a ``str``)."""
    @property
    def rule(self) -> Optional[str]:
        """What decided it: bom, transport, meta, late-meta, guess, default,
        changed-by-meta."""
    @property
    def url(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Link:
    """One URL of a page, from ``links``."""

    def __init__(self, url: Optional[str], raw: str, tag: str, attr: str, offset: int) -> None: ...
    @property
    def url(self) -> Optional[str]:
        """Resolved (WHATWG URL Standard); ``None`` when it does not resolve
        or is a ``javascript:``/``data:`` URL."""
    @property
    def raw(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def attr(self) -> str: ...
    @property
    def offset(self) -> int: ...
    def to_dict(self) -> Dict[str, Any]: ...

class ArchivePage:
    """An HTML page of an archive, from ``warc_pages``: its body (HTTP
    codings undone) and where it came from."""

    def __init__(
        self,
        body: bytes,
        url: Optional[str] = None,
        content_type: Optional[str] = None,
        source: Optional[str] = None,
        status: Optional[int] = None,
        warc: Optional[str] = None,
        offset: int = 0,
        record: int = 0,
        record_id: Optional[str] = None,
        date: Optional[str] = None,
        kind: Optional[str] = None,
        truncated: bool = False,
        coding_failed: bool = False,
        content_coding: Optional[Literal["applied", "failed"]] = None,
    ) -> None: ...
    @property
    def body(self) -> bytes: ...
    @property
    def url(self) -> Optional[str]:
        """The record's target URI."""
    @property
    def content_type(self) -> Optional[str]:
        """The HTTP Content-Type (its charset is the transport's)."""
    @property
    def source(self) -> str:
        """The page's name as the command line gives it: the target URI,
        or ``"ARCHIVE: record N"``."""
    @property
    def status(self) -> Optional[int]: ...
    @property
    def warc(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def record(self) -> int: ...
    @property
    def record_id(self) -> Optional[str]: ...
    @property
    def date(self) -> Optional[str]: ...
    @property
    def kind(self) -> str: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def coding_failed(self) -> bool: ...
    @property
    def content_coding(self) -> Optional[Literal["applied", "failed"]]:
        """What became of its Content-Encoding: ``"applied"``, ``"failed"``
        (the body is as stored) or ``None`` (none declared)."""
    def to_dict(self) -> Dict[str, Any]: ...

class ArchiveProblem:
    """Something in an archive that could not be read; ``str()`` is the
    command line's message."""

    def __init__(
        self, warc: str, record: Optional[int], offset: int, url: Optional[str], kind: str, what: str
    ) -> None: ...
    @property
    def warc(self) -> str: ...
    @property
    def record(self) -> Optional[int]: ...
    @property
    def offset(self) -> int: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def kind(self) -> Literal["broken", "truncated", "undecodable"]: ...
    @property
    def what(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class ArchivePages(Iterator[ArchivePage]):
    """The pages of an archive, in order, from ``warc_pages``."""

    def __iter__(self) -> "ArchivePages": ...
    def __next__(self) -> ArchivePage: ...
    @property
    def warc(self) -> str: ...
    @property
    def pages(self) -> int: ...
    @property
    def problems(self) -> List[ArchiveProblem]: ...
    @property
    def skipped(self) -> Dict[str, int]:
        """Records without an HTML page by reason: ``"non-HTML"``,
        ``"revisit"``, ``"request/metadata"``."""

@overload
def tokenize(
    html: Html,
    *,
    encoding: Optional[str] = None,
    content_type: Optional[str] = None,
    driven: bool = False,
    errors: Literal[False] = False,
) -> List[Token]: ...
@overload
def tokenize(
    html: Html,
    *,
    encoding: Optional[str] = None,
    content_type: Optional[str] = None,
    driven: bool = False,
    errors: Literal[True],
) -> Tuple[List[Token], List[ParseError]]: ...
def token_table(
    html: Html,
    *,
    encoding: Optional[str] = None,
    content_type: Optional[str] = None,
    driven: bool = False,
) -> TokenTable: ...
def text(
    html: Html,
    *,
    url: Optional[str] = None,
    content_type: Optional[str] = None,
    encoding: Optional[str] = None,
    main: bool = False,
    comments: bool = False,
    markdown: bool = False,
    links: bool = False,
) -> Page:
    """``main=True``: the main content; ``comments``, ``markdown`` (and
    ``links``, in Markdown) are its options, a ``ValueError`` without it."""
def links(
    html: Html,
    *,
    url: Optional[str] = None,
    content_type: Optional[str] = None,
    encoding: Optional[str] = None,
    scripting: bool = True,
    base_url: Optional[str] = None,
) -> List[Link]:
    """``base_url`` is the deprecated old name of ``url``."""
def sniff(
    data: Union[Bytes, "ArchivePage"],
    content_type: Optional[str] = None,
    *,
    encoding: Optional[str] = None,
) -> Tuple[str, str]: ...
def text_many(
    pages: Iterable[Item],
    *,
    encoding: Optional[str] = None,
    threads: Optional[int] = None,
    main: bool = False,
    comments: bool = False,
    markdown: bool = False,
    links: bool = False,
) -> List[Page]: ...
def links_many(
    pages: Iterable[Item],
    *,
    encoding: Optional[str] = None,
    threads: Optional[int] = None,
    scripting: bool = True,
) -> List[List[Link]]: ...
def warc_pages(
    source: Union[str, "os.PathLike[str]", IO[bytes], Bytes],
    *,
    name: Optional[str] = None,
) -> ArchivePages: ...
