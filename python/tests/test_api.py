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
    # An encoding the caller names that is no encoding is an error, as the
    # command line's --encoding is; a Content-Type is the HTTP header, off
    # the network, passed in or with an archived page: an unknown charset
    # in it is ignored, as browsers (and the command line) do.
    with pytest.raises(ValueError, match='encoding: "nonsense" is not an encoding label'):
        htmltok.tokenize(sjis, encoding="nonsense")
    assert htmltok.tokenize(sjis, content_type="text/html; charset=nonsense")[-1].data == "\u65e5\u672c"
    archived = htmltok.ArchivePage(sjis, content_type="text/html; charset=nonsense")
    assert htmltok.tokenize(archived)[-1].data == "\u65e5\u672c"
    assert htmltok.text(archived).rule == "meta"


@pytest.mark.parametrize("charset", ["utf8mb4", "none", '"utf8mb4"', "bogus-label"])
def test_an_unknown_charset_in_a_content_type_is_ignored(charset):
    """Servers send ``charset=utf8mb4`` (MySQL's name) and ``charset=none``:
    a page with one, its header passed as it came, is read as if the
    header had no charset, by every function, alone and in a batch."""
    content_type = f"text/html; charset={charset}"
    utf8 = "<meta charset=utf-8><title>Caf\u00e9</title><a href=/x>x</a>".encode()
    page = htmltok.text(utf8, content_type=content_type, url="https://a.example/")
    assert (page.title, page.encoding, page.rule) == ("Caf\u00e9", "UTF-8", "meta")
    assert [l.url for l in htmltok.links(utf8, content_type=content_type, url="https://a.example/")] == ["https://a.example/x"]
    assert htmltok.sniff(utf8, content_type) == ("UTF-8", "meta")
    assert htmltok.sniff(b"<p>caf\xe9", content_type) == htmltok.sniff(b"<p>caf\xe9")
    assert htmltok.tokenize(utf8, content_type=content_type)[1].name == "title"
    assert htmltok.token_table(utf8, content_type=content_type).encoding == "UTF-8"
    (batched,) = htmltok.text_many([(utf8, "https://a.example/", content_type)])
    assert batched == page
    (linked,) = htmltok.links_many([(utf8, "https://a.example/", content_type)])
    assert [l.url for l in linked] == ["https://a.example/x"]
    # A label named with encoding= stays an error.
    with pytest.raises(ValueError, match="is not an encoding label"):
        htmltok.text(utf8, encoding=charset)


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
    found = htmltok.links(html, url="https://example.com/index.html")
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


def binary(data):
    """The command line's rule for a binary file."""
    head = data[:1024]
    return b"\0" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff"))


def test_batches_equal_single_calls(corpus):
    # The corpus's edge cases include pages with NUL bytes early: binary
    # files to text and links, as to the command line.
    nul = [body for _name, body in corpus if binary(body)]
    assert nul, "the corpus has a page with early NUL bytes"
    with pytest.raises(htmltok.BinaryInputError):
        htmltok.text_many(nul)
    pages = [body for _name, body in corpus if not binary(body)]
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
            (l.url, l.raw, l.tag, l.attr, l.offset) for l in htmltok.links(page, url=base)
        ]
    # The tuple forms carry a URL and a content type, the same for both.
    cyr = "<p>\u043c\u0438\u0440".encode("koi8-r")
    many = htmltok.text_many([(cyr, None, "text/html; charset=koi8-r"), ("<p>x", "https://a.example/")])
    assert [(p.text, p.url) for p in many] == [("\u043c\u0438\u0440", None), ("x", "https://a.example/")]
    found = htmltok.links_many([("<a href=y>", None, "text/html"), ("<a href=z>", "https://a.example/")])
    assert [[l.url for l in f] for f in found] == [[None], ["https://a.example/z"]]
    # One encoding for the batch, as the command line's --encoding.
    assert htmltok.text_many([cyr], encoding="koi8-r")[0].text == "\u043c\u0438\u0440"


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


def test_token_table_records_in_place(corpus):
    """``numpy.asarray(t.token_records)`` reads the records where the
    tokenizer wrote them: no copy, read-only, alive after the table."""
    import gc
    import numpy as np

    for _name, body in corpus[:20]:
        t = htmltok.token_table(body)
        tokens = np.asarray(t.token_records)
        attrs = np.asarray(t.attr_records)
        assert tokens.dtype == np.dtype(htmltok.TOKEN_DTYPE) and attrs.dtype == np.dtype(htmltok.ATTR_DTYPE)
        assert len(tokens) == len(t) == len(t.token_records) and len(attrs) == len(t.attr_records)
        # The same records as the bytes, byte for byte.
        assert tokens.tobytes() == t.tokens and attrs.tobytes() == t.attrs
        # Every array over the records is a view of one memory, the table's.
        address = t.token_records.__array_interface__["data"][0]
        assert tokens.__array_interface__["data"][0] == address
        assert np.shares_memory(tokens, np.asarray(t.token_records))
        assert not tokens.flags.writeable and not attrs.flags.writeable
        with pytest.raises(ValueError):
            tokens["kind"][:1] = 0
        expected = t.tokens
        del t
        gc.collect()
        assert tokens.tobytes() == expected
    empty = htmltok.token_table("")
    assert np.asarray(empty.token_records).shape == (0,) and len(np.asarray(empty.attr_records)) == 0


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
        lambda: htmltok.text_many([("<a>", None, None, None)]),
        lambda: htmltok.text_many([()]),
        lambda: htmltok.tokenize("<p>", encoding=1),
        lambda: htmltok.tokenize("<p>", driven=1),
        lambda: htmltok.text("<p>", content_type=b"text/html"),
        lambda: htmltok.links("<p>", url=1),
        lambda: htmltok.text("<p>", encoding=1),
        lambda: htmltok.text_many(["<p>"], encoding=2),
    ):
        with pytest.raises(TypeError) as e:
            call()
        assert " must be " in str(e.value)
    with pytest.raises(TypeError, match=r"pages\[1\] must be str, bytes, bytearray, memoryview or ArchivePage, not int"):
        htmltok.text_many([b"ok", 7])
    # A tuple's fields are named.
    with pytest.raises(TypeError, match=r"pages\[0\]\[1\] \(url\) must be str or None, not int"):
        htmltok.links_many([("<a>", 3)])
    with pytest.raises(TypeError, match=r"pages\[0\]\[2\] \(content_type\) must be str or None, not bytes"):
        htmltok.text_many([("<a>", None, b"text/html")])
    with pytest.raises(TypeError, match=r"pages\[1\]\[0\] \(html\) must be str, bytes"):
        htmltok.text_many(["<p>", (None,)])
    with pytest.raises(TypeError, match=r"pages\[0\] must be html, \(html, url\), \(html, url, content_type\) or an ArchivePage, not a tuple of 4"):
        htmltok.text_many([("<a>", None, None, None)])
    with pytest.raises(TypeError, match="encoding must be str or None, not int"):
        htmltok.tokenize("<p>", encoding=1)


def test_bad_values_are_value_errors():
    with pytest.raises(ValueError, match='encoding: "no-such-encoding" is not an encoding label'):
        htmltok.tokenize(b"<p>", encoding="no-such-encoding")
    with pytest.raises(ValueError, match="is not an encoding label"):
        htmltok.token_table(b"<p>", encoding="")
    with pytest.raises(ValueError, match="is not an encoding label"):
        htmltok.text(b"<p>", encoding="bogus")
    with pytest.raises(ValueError, match='url "not a url" is not an absolute URL'):
        htmltok.links("<a href=x>", url="not a url")
    with pytest.raises(ValueError, match='url "/relative" is not an absolute URL'):
        htmltok.text("<p>", url="/relative")
    # The old item shape (html, content_type) in a batch is refused, not
    # taken for a charset or a URL in silence.
    with pytest.raises(ValueError, match=r'pages\[0\]: url "text/html; charset=utf-8" is not an absolute URL'):
        htmltok.text_many([("<p>", "text/html; charset=utf-8")])
    with pytest.raises(ValueError, match='encoding: "x-bogus" is not an encoding label'):
        htmltok.links_many(["<p>", ("<p>", None, "text/html")], encoding="x-bogus")
    with pytest.raises(ValueError, match="threads"):
        htmltok.text_many(["<p>"], threads=0)


def test_any_bytes_give_a_result():
    rng = random.Random(24)
    alphabet = b"<>/=&;#x!-'\" \t\nabcDOCTYPE[]?\x00\x80\xff\xc3\xa9\xed\xa0\x80"
    binary = 0
    for i in range(300):
        letters = alphabet if i % 2 else alphabet.replace(b"\x00", b"")
        data = bytes(rng.choice(letters) for _ in range(rng.randrange(0, 200)))
        tokens = htmltok.tokenize(data, errors=True)[0]
        table = htmltok.token_table(data)
        assert len(table) == len(tokens)
        check_table(table, tokens)
        # The command line's rule: a NUL byte in the first 1024 bytes is a
        # binary file, unless they start with a UTF-16 byte order mark.
        if b"\0" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            binary += 1
            for call in (htmltok.text, htmltok.links, htmltok.sniff, lambda d: htmltok.text_many([d])):
                with pytest.raises(htmltok.BinaryInputError, match="is binary, not a page"):
                    call(data)
            continue
        htmltok.text(data)
        htmltok.links(data, url="https://example.com/")
        htmltok.sniff(data)
    assert 50 < binary < 150
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


def test_binary_input_is_an_error_you_can_catch():
    rng = random.Random(37)
    noise = bytes(rng.randrange(256) for _ in range(5_000_000))
    with pytest.raises(htmltok.BinaryInputError) as e:
        htmltok.text(noise)
    assert isinstance(e.value, ValueError)
    with pytest.raises(htmltok.BinaryInputError, match=r"pages\[1\] is binary"):
        htmltok.links_many(["<p>", noise[:100] + b"\0"])
    # A NUL after the first 1024 bytes, or after a UTF-16 byte order mark,
    # is a page's business.
    assert htmltok.text(b"<p>" + b"x" * 1024 + b"\0").text.startswith("xxx")
    assert htmltok.text("<p>hi".encode("utf-16-le").join([b"\xff\xfe", b""])).text == "hi"
    # The tokenizer takes any bytes, as `htmltok tokens` does.
    assert len(htmltok.tokenize(noise[:2000])) > 0


def test_every_kind_of_input_alike():
    raw = "<title>T</title><p>caf\u00e9 <a href=x>y</a>".encode()
    url = "https://example.com/d/"
    want_text = htmltok.text(raw, url=url)
    want_links = htmltok.links(raw, url=url)
    archived = htmltok.ArchivePage(raw, url=url, content_type="text/html; charset=utf-8")
    for page in (raw, bytearray(raw), memoryview(raw), memoryview(b"--" + raw)[2:], raw.decode()):
        got = htmltok.text(page, url=url)
        assert (got.title, got.text, got.url) == (want_text.title, want_text.text, url)
        assert htmltok.links(page, url=url) == want_links
        assert [t.to_dict() for t in htmltok.tokenize(page)] == [t.to_dict() for t in htmltok.tokenize(raw)]
        assert htmltok.text_many([(page, url)])[0] == got
        assert htmltok.links_many([(page, url)])[0] == want_links
    # An archived page brings its URL and Content-Type.
    assert htmltok.text(archived) == htmltok.text(raw, url=url, content_type="text/html; charset=utf-8")
    assert htmltok.links(archived) == want_links
    assert htmltok.text_many([archived]) == [htmltok.text(archived)]
    assert htmltok.links_many([archived], threads=2) == [want_links]
    # Keywords win over what the archived page says.
    assert htmltok.text(archived, encoding="koi8-r").encoding == "KOI8-R"
    assert htmltok.links(archived, url="https://other.example/")[0].url == "https://other.example/x"
    assert htmltok.sniff(archived) == ("UTF-8", "transport")
    with pytest.raises(TypeError, match="an ArchivePage is an item by itself"):
        htmltok.text_many([(archived, url)])


def test_base_url_is_the_old_name_of_url():
    with pytest.warns(DeprecationWarning, match="links\\(url=...\\)"):
        found = htmltok.links("<a href=x>", base_url="https://example.com/")
    assert found == htmltok.links("<a href=x>", url="https://example.com/")
    with pytest.raises(TypeError, match="not both"):
        htmltok.links("<a>", url="https://a.example/", base_url="https://b.example/")


def test_a_batch_is_not_one_page_and_its_encoding_is_checked_whole():
    # One page where a batch goes: a str is an iterable of characters, and
    # would be a batch of one-letter pages in silence.
    for one in ("<p>one page", b"<p>one page", bytearray(b"<p>x"), memoryview(b"<p>x"), htmltok.ArchivePage(b"<p>x")):
        for call in (htmltok.text_many, htmltok.links_many):
            with pytest.raises(TypeError, match=r"pages must be an iterable of html, .* not one page \(" + type(one).__name__):
                call(one)
    # encoding= is the batch's, checked even when the batch is empty, and
    # named as the argument it is (not as a field of the first page).
    for call in (htmltok.text_many, htmltok.links_many):
        for pages in ([], ["<p>a", "<p>b"]):
            with pytest.raises(ValueError, match=r'^encoding: "bogus" is not an encoding label'):
                call(pages, encoding="bogus")
    assert [p.text for p in htmltok.text_many(("<p>%d" % i for i in range(3)), encoding="utf-8")] == ["0", "1", "2"]


def test_bytes_declared_utf16_without_a_bom_are_a_page():
    # UTF-16 has a NUL byte in every ASCII character: when the caller says
    # the bytes are UTF-16 they are decoded as such (as a browser told so
    # by the transport does), not refused as a binary file.
    page = "<title>Grüße</title><a href=/x>"
    for codec, label in (("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be"), ("utf-16-le", "utf-16")):
        data = page.encode(codec)
        assert htmltok.text(data, encoding=label).title == "Grüße"
        assert htmltok.text(data, content_type=f"text/html; charset={label}").title == "Grüße"
        assert htmltok.sniff(data, encoding=label)[0] == ("UTF-16LE" if codec.endswith("le") else "UTF-16BE")
        links = htmltok.links(data, url="https://example.com/", encoding=label)
        assert [l.url for l in links] == ["https://example.com/x"]
        assert htmltok.text_many([data], encoding=label)[0].title == "Grüße"
        # Undeclared, or declared as something else, still binary.
        for kwargs in ({}, {"encoding": "utf-8"}, {"content_type": "text/html"}):
            with pytest.raises(htmltok.BinaryInputError):
                htmltok.text(data, **kwargs)
