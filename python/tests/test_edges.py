"""Pages at a browser's edges through the Python API: links
inside <noscript> with scripting on and off, a legacy page's queries, a
charset declared late. Expected values are written from the standards."""

import pytest

import htmltok

LAZY = (
    "<img src=/placeholder.gif data-src=/photo.jpg>"
    "<noscript><img src=/photo.jpg></noscript><a href=/next>"
)


def test_links_scripting_on_by_default_and_off():
    assert [l.raw for l in htmltok.links(LAZY)] == ["/placeholder.gif", "/next"]
    assert [l.raw for l in htmltok.links(LAZY, scripting=True)] == ["/placeholder.gif", "/next"]
    off = htmltok.links(LAZY, scripting=False)
    assert [l.raw for l in off] == ["/placeholder.gif", "/photo.jpg", "/next"]
    many = htmltok.links_many([LAZY, (LAZY.encode(), None)], scripting=False)
    assert [[l.raw for l in links] for links in many] == [[l.raw for l in off]] * 2
    with pytest.raises(TypeError, match="scripting must be bool"):
        htmltok.links(LAZY, scripting="no")


def test_queries_in_the_page_encoding():
    # 東京 in Shift_JIS is 93 8C 8B 9E; as a str the page is UTF-8.
    page = b"<meta charset=shift_jis><a href='?q=\x93\x8c\x8b\x9e'>"
    (link,) = htmltok.links(page, url="https://example.jp/")
    assert link.url == "https://example.jp/?q=%93%8C%8B%9E"
    (link,) = htmltok.links("<a href='?q=東京'>", url="https://example.jp/")
    assert link.url == "https://example.jp/?q=%E6%9D%B1%E4%BA%AC"


def test_a_late_charset():
    # French in windows-1252 to a guess, declared ISO-8859-2 past the first
    # kilobyte, in the head: è (0xE8) is č there.
    page = b"<title>Cr\xe8me br\xfbl\xe9e</title><style>" + b" " * 1100
    page += b"</style><meta charset=iso-8859-2><p>x"
    assert htmltok.sniff(page) == ("ISO-8859-2", "changed-by-meta")
    result = htmltok.text(page)
    assert (result.title, result.encoding, result.rule) == ("Crčme brűlée", "ISO-8859-2", "changed-by-meta")
