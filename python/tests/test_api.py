"""The API: tokens, token tables, text, links, sniffing, batches, bad input.
Expected values are written from the standard and from htmltok.extract's
documented rules, not copied from output."""

import random

import pytest

import htmltok


def test_tokens_kinds_names_attrs_data_spans():
    html = '<!DOCTYPE html><P CLASS=x id="a&amp;b" class=dup>Hi &lt; there<br/><!-- c --></p>'
    tokens = htmltok.tokenize(html)
    assert [t.kind for t in tokens] == ["doctype", "start_tag", "text", "start_tag", "comment", "end_tag"]
    doctype, p, text, br, comment, end = tokens
    assert doctype.name == "html" and doctype.public_id is None and not doctype.force_quirks
    assert p.name == "p" and p.attrs == {"class": "x", "id": "a&b"}
    assert list(p.attrs) == ["class", "id"]  # source order, duplicate dropped
    assert text.data == "Hi < there" and text.name is None and text.attrs == {}
    assert br.name == "br" and br.self_closing
    assert comment.data == " c "
    assert end.kind == "end_tag" and end.name == "p"
    raw = html.encode()
    assert raw[p.start : p.end] == b'<P CLASS=x id="a&amp;b" class=dup>'
    assert raw[text.start : text.end] == b"Hi &lt; there"
    assert "kind='start_tag'" in repr(p)


def test_doctype_fields():
    (d,) = htmltok.tokenize('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">')
    assert (d.name, d.public_id, d.system_id) == ("html", "-//W3C//DTD HTML 4.01//EN", "http://www.w3.org/TR/html4/strict.dtd")
    (q,) = htmltok.tokenize("<!DOCTYPE>")
    assert q.name is None and q.force_quirks


def test_standalone_and_driven():
    html = "<script>a<b</script><title>&amp;</title>"
    assert [t.kind for t in htmltok.tokenize(html)] == ["start_tag", "text", "end_tag", "start_tag", "text", "end_tag"]
    assert htmltok.tokenize(html)[1].data == "a<b"
    # Driven with no tree builder: everything in the data state.
    driven = htmltok.tokenize(html, driven=True)
    # (`<b</script>` is then a start tag named "b<" with an attribute
    # "script", as the tag name state reads it.)
    assert [t.name for t in driven if t.kind == "start_tag"] == ["script", "b<", "title"]


def test_errors():
    tokens, errors = htmltok.tokenize("<p id=a id=b>\n</p foo>", errors=True)
    assert [t.kind for t in tokens] == ["start_tag", "text", "end_tag"]
    assert [(e.code, e.line, e.column) for e in errors] == [
        ("duplicate-attribute", 1, 11),
        ("end-tag-with-attributes", 2, 8),  # at the `>` that emits it
    ]
    assert errors[0].offset == 10
    assert htmltok.tokenize("<p>", errors=True)[1] == []


def test_bytes_are_decoded_as_a_browser_does():
    page = "<title>\u041f\u0440\u0438\u0432\u0435\u0442</title>".encode("cp1251")
    (_, text, _) = htmltok.tokenize(page, content_type="text/html; charset=windows-1251")
    assert text.data == "\u041f\u0440\u0438\u0432\u0435\u0442"
    (_, text, _) = htmltok.tokenize(page, encoding="koi8-r")
    assert text.data == page[7:-8].decode("koi8-r")
    # The offsets are UTF-8 offsets in the decoded page: the title's 6
    # Cyrillic letters are 12 bytes there.
    assert (text.start, text.end) == (7, 19)
    sjis = "<meta charset=shift_jis><p>\u65e5\u672c".encode("shift_jis")
    assert htmltok.tokenize(sjis)[-1].data == "\u65e5\u672c"
    # An unknown charset in a header is ignored, as browsers ignore it.
    assert htmltok.tokenize(sjis, content_type="text/html; charset=nonsense")[-1].data == "\u65e5\u672c"


def test_sniff():
    assert htmltok.sniff(b"<meta charset=euc-jp>") == ("EUC-JP", "meta")
    assert htmltok.sniff(b"<meta charset=euc-jp>", "text/html; charset=Shift_JIS") == ("Shift_JIS", "transport")
    assert htmltok.sniff(b"\xef\xbb\xbfhi", "text/html; charset=gbk") == ("UTF-8", "bom")
    assert htmltok.sniff(b"plain") == ("windows-1252", "default")


def test_text():
    page = htmltok.text(
        b"<html><head><title> A  page </title><style>p{}</style></head><body>"
        b"<h1>Hello,\n world</h1><p>One<br>two &amp; three</p><script>x='<p>no'</script>"
        b"<table><tr><td>a<td>b</table>",
        url="https://example.com/",
    )
    assert page.title == "A page"
    assert page.text == "Hello, world\nOne\ntwo & three\na\tb"
    assert (page.encoding, page.rule, page.url) == ("windows-1252", "default", "https://example.com/")
    assert htmltok.text("<p>x").encoding is None
    assert htmltok.text("<p>x").title is None
    koi8 = htmltok.text("<title>\u043c\u0438\u0440</title>".encode("koi8-r"), content_type="text/html; charset=koi8-r")
    assert (koi8.title, koi8.encoding, koi8.rule) == ("\u043c\u0438\u0440", "KOI8-R", "transport")


def test_links():
    html = (
        '<base href="/docs/"><a href="intro.html">I</a><img src=logo.png srcset="a.png 1x, b.png 2x">'
        '<a href="javascript:void(0)">x</a><meta http-equiv=refresh content="5; url=../next">'
    )
    found = htmltok.links(html, base_url="https://example.com/index.html")
    assert [(l.tag, l.attr, l.raw, l.url) for l in found] == [
        ("a", "href", "intro.html", "https://example.com/docs/intro.html"),
        ("img", "src", "logo.png", "https://example.com/docs/logo.png"),
        ("img", "srcset", "a.png", "https://example.com/docs/a.png"),
        ("img", "srcset", "b.png", "https://example.com/docs/b.png"),
        ("a", "href", "javascript:void(0)", None),
        ("meta", "content", "../next", "https://example.com/next"),
    ]
    assert found[0].offset == html.index("intro.html")
    assert [l.url for l in htmltok.links("<a href=/x><a href=HTTP://A.example/>")] == [None, "http://a.example/"]


def test_batches_equal_single_calls(corpus):
    pages = [body for _name, body in corpus]
    for threads in (None, 1, 2):
        many = htmltok.text_many(pages, threads=threads)
        assert len(many) == len(pages)
        for page, got in zip(pages, many):
            one = htmltok.text(page)
            assert (got.title, got.text, got.encoding, got.rule) == (one.title, one.text, one.encoding, one.rule)
    base = "https://example.com/dir/"
    many = htmltok.links_many([(p, base) for p in pages], threads=2)
    for page, got in zip(pages, many):
        assert [(l.url, l.raw, l.tag, l.attr, l.offset) for l in got] == [
            (l.url, l.raw, l.tag, l.attr, l.offset) for l in htmltok.links(page, base_url=base)
        ]
    # The tuple forms carry a content type.
    cyr = "<p>\u043c\u0438\u0440".encode("koi8-r")
    assert htmltok.text_many([(cyr, "text/html; charset=koi8-r"), "<p>x"])[0].text == "\u043c\u0438\u0440"
    assert htmltok.links_many([("<a href=y>", None, "text/html"), "<a href=z>"])[0][0].raw == "y"


def test_token_table_matches_tokenize(corpus):
    for _name, body in corpus[:60]:
        table = htmltok.token_table(body)
        tokens = htmltok.tokenize(body)
        assert len(table) == len(tokens)
        check_table(table, tokens)


def check_table(table, tokens):
    """Every record of ``table`` against the Token objects, with the record
    layout decoded here by struct (independently of numpy)."""
    import struct

    rec = struct.Struct("<10I2B2x")
    attr = struct.Struct("<6I")
    assert rec.size == htmltok.TOKEN_RECORD_SIZE and attr.size == htmltok.ATTR_RECORD_SIZE
    assert len(table.tokens) == len(tokens) * rec.size
    for i, token in enumerate(tokens):
        start, end, s0o, s0l, s1o, s1l, s2o, s2l, first, n, kind, flags = rec.unpack_from(table.tokens, i * rec.size)
        assert htmltok.TOKEN_KINDS[kind] == token.kind
        assert (start, end) == (token.start, token.end)
        assert bool(flags & htmltok.FLAG_SELF_CLOSING) == token.self_closing
        if token.kind in ("start_tag", "end_tag"):
            assert table.string(s0o, s0l) == token.name
            attrs = {}
            for k in range(first, first + n):
                no, nl, vo, vl, _ns, _vs = attr.unpack_from(table.attrs, k * attr.size)
                attrs[table.string(no, nl)] = table.string(vo, vl)
            assert attrs == token.attrs
        elif token.kind in ("text", "comment"):
            assert table.string(s0o, s0l) == token.data
        elif token.kind == "doctype":
            assert (table.string(s0o, s0l) if flags & htmltok.FLAG_HAS_S0 else None) == token.name
            assert (table.string(s1o, s1l) if flags & htmltok.FLAG_HAS_S1 else None) == token.public_id
            assert (table.string(s2o, s2l) if flags & htmltok.FLAG_HAS_S2 else None) == token.system_id


def test_token_table_strings_verbatim_or_rewritten():
    html = "<DIV Class=a>x&amp;y</div>"
    t = htmltok.token_table(html)
    assert t.text == html.encode() and t.encoding is None
    div, text, end = htmltok.tokenize(html)
    # "DIV" is rewritten to "div": in the side buffer; "x&y" too.
    assert b"div" in t.extra and b"x&y" in t.extra
    assert t.string(len(t.text) + t.extra.index(b"x&y"), 3) == "x&y"
    with pytest.raises(IndexError):
        t.string(len(t.text) + len(t.extra), 1)
    # UTF-8 bytes that decode to themselves are the table's text, not a copy.
    raw = "<p>caf\u00e9".encode()
    assert htmltok.token_table(raw).text is raw


def test_token_table_numpy():
    import numpy as np  # in the test extras
    html = "<!DOCTYPE html><a href='x' id=y>t&amp;</a>"
    t = htmltok.token_table(html)
    tokens = np.frombuffer(t.tokens, dtype=htmltok.TOKEN_DTYPE)
    attrs = np.frombuffer(t.attrs, dtype=htmltok.ATTR_DTYPE)
    assert np.shares_memory(tokens, np.frombuffer(t.tokens, dtype=np.uint8))  # a view, no copy
    assert tokens.dtype.itemsize == htmltok.TOKEN_RECORD_SIZE
    assert [htmltok.TOKEN_KINDS[k] for k in tokens["kind"]] == ["doctype", "start_tag", "text", "end_tag"]
    a = tokens[1]
    assert (int(a["n_attrs"]), int(a["first_attr"])) == (2, 0)
    assert [t.string(int(r["name_off"]), int(r["name_len"])) for r in attrs] == ["href", "id"]
    assert [t.string(int(r["value_off"]), int(r["value_len"])) for r in attrs] == ["x", "y"]
    assert t.text[int(a["start"]) : int(a["end"])] == b"<a href='x' id=y>"
    assert t.string(int(tokens[2]["s0_off"]), int(tokens[2]["s0_len"])) == "t&"
    assert int(attrs[0]["value_start"]) == html.index("x'")


def test_wrong_types_are_type_errors():
    for call in (
        lambda: htmltok.tokenize(1),
        lambda: htmltok.tokenize(None),
        lambda: htmltok.token_table(["<p>"]),
        lambda: htmltok.text(3.5),
        lambda: htmltok.links(object()),
        lambda: htmltok.sniff("a str"),
        lambda: htmltok.text_many(5),
        lambda: htmltok.text_many([b"ok", 7]),
        lambda: htmltok.links_many([("<a>", 3)]),
        lambda: htmltok.text_many([("<a>", None, None)]),
        lambda: htmltok.tokenize("<p>", encoding=1),
        lambda: htmltok.tokenize("<p>", driven=1),
        lambda: htmltok.text("<p>", content_type=b"text/html"),
        lambda: htmltok.links("<p>", base_url=1),
    ):
        with pytest.raises(TypeError) as e:
            call()
        assert " must be " in str(e.value)
    with pytest.raises(TypeError, match=r"pages\[1\] must be str or bytes, not int"):
        htmltok.text_many([b"ok", 7])
    with pytest.raises(TypeError, match="encoding must be str or None, not int"):
        htmltok.tokenize("<p>", encoding=1)


def test_bad_values_are_value_errors():
    with pytest.raises(ValueError, match="unknown encoding label"):
        htmltok.tokenize(b"<p>", encoding="no-such-encoding")
    with pytest.raises(ValueError, match="unknown encoding label"):
        htmltok.token_table(b"<p>", encoding="")
    with pytest.raises(ValueError, match="base_url"):
        htmltok.links("<a href=x>", base_url="not a url")
    with pytest.raises(ValueError, match="threads"):
        htmltok.text_many(["<p>"], threads=0)


def test_any_bytes_give_a_result():
    rng = random.Random(24)
    alphabet = b"<>/=&;#x!-'\" \t\nabcDOCTYPE[]?\x00\x80\xff\xc3\xa9\xed\xa0\x80"
    for _ in range(300):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
        tokens = htmltok.tokenize(data, errors=True)[0]
        table = htmltok.token_table(data)
        assert len(table) == len(tokens)
        check_table(table, tokens)
        htmltok.text(data)
        htmltok.links(data, base_url="https://example.com/")
        htmltok.sniff(data)
    # A str with a lone surrogate (which has no UTF-8): its three bytes
    # ED A0 80 are each an error to the Encoding Standard's UTF-8 decoder.
    assert htmltok.tokenize("<p>a\ud800b")[1].data == "a\ufffd\ufffd\ufffdb"
    assert htmltok.text(bytearray(b"<p>from a bytearray")).text == "from a bytearray"
    assert htmltok.tokenize(b"") == [] and htmltok.text(b"").text == ""


def test_stubs_and_marker_are_installed():
    import os

    here = os.path.dirname(htmltok.__file__)
    assert os.path.exists(os.path.join(here, "py.typed"))
    assert os.path.exists(os.path.join(here, "_htmltok.pyi"))
    assert htmltok.tokenize.__doc__ and "tokens of `html`" in htmltok.tokenize.__doc__
