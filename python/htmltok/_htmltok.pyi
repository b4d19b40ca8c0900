"""Type stubs of the compiled module (re-exported by ``htmltok``)."""

from typing import Iterable, List, Literal, Optional, Tuple, Union, overload

Html = Union[str, bytes, bytearray]

TOKEN_KINDS: List[str]
TOKEN_RECORD_SIZE: int
ATTR_RECORD_SIZE: int
__version__: str

class Token:
    """One token: ``kind`` is ``"doctype"``, ``"start_tag"``, ``"end_tag"``,
    ``"comment"`` or ``"text"``; ``start``/``end`` are UTF-8 byte offsets in
    the decoded page."""

    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> Optional[str]:
        """A tag's name (lower-case), a doctype's name."""
    @property
    def attrs(self) -> dict[str, str]:
        """A start tag's attributes in source order (empty for other tokens)."""
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

class ParseError:
    """A parse error: the standard's code, 1-based line and column (UTF-16
    units), UTF-8 byte offset in the decoded page."""

    @property
    def code(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def offset(self) -> int: ...

class TokenTable:
    """Tokens as fixed-size little-endian records (see ``help(htmltok)``):
    ``numpy.frombuffer(t.tokens, dtype=htmltok.TOKEN_DTYPE)``."""

    @property
    def tokens(self) -> bytes:
        """44-byte token records (``htmltok.TOKEN_DTYPE``)."""
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
    def string(self, off: int, len: int) -> str:
        """The string ``(off, len)`` of ``text + extra``."""
    def __len__(self) -> int: ...

class Page:
    """A page's title and text, from ``text``."""

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

class Link:
    """One URL of a page, from ``links``."""

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
    html: Html, *, content_type: Optional[str] = None, url: Optional[str] = None
) -> Page: ...
def links(
    html: Html,
    *,
    base_url: Optional[str] = None,
    content_type: Optional[str] = None,
    scripting: bool = True,
) -> List[Link]: ...
def sniff(data: Union[bytes, bytearray], content_type: Optional[str] = None) -> Tuple[str, str]: ...
def text_many(
    pages: Iterable[Union[Html, Tuple[Html], Tuple[Html, Optional[str]]]],
    *,
    threads: Optional[int] = None,
) -> List[Page]: ...
def links_many(
    pages: Iterable[
        Union[Html, Tuple[Html], Tuple[Html, Optional[str]], Tuple[Html, Optional[str], Optional[str]]]
    ],
    *,
    threads: Optional[int] = None,
    scripting: bool = True,
) -> List[List[Link]]: ...
