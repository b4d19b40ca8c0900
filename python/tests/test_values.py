"""Page, Link, Token, ParseError (and the archive's values, in test_warc):
they compare by value, hash alike when equal, pickle and unpickle equal,
travel to other processes, and have to_dict()."""

import multiprocessing
import pickle

import pytest

import htmltok

HTML = '<!DOCTYPE html><title>T</title><p class=a id="b&amp;c">One<br/>two<a href="/x">x</a><!-- c --><?pi d?>'


def values():
    tokens, errors = htmltok.tokenize(HTML + "<p id=a id=b>", errors=True)
    page = htmltok.text(HTML.encode(), url="https://example.com/")
    links = htmltok.links(HTML, url="https://example.com/")
    return tokens + errors + [page] + links


def test_equal_by_value_and_hash():
    a, b = values(), values()
    assert len(a) > 10
    for x, y in zip(a, b):
        assert x == y and x is not y and hash(x) == hash(y)
        assert not (x != y)
    assert len(set(a)) == len(set(map(repr, a)))
    # Unequal values differ.
    p, q = htmltok.tokenize("<p id=a>")[0], htmltok.tokenize("<p id=b>")[0]
    assert p != q
    assert htmltok.text("<p>a") != htmltok.text("<p>b")
    assert htmltok.links("<a href=/x>")[0] != htmltok.links("<a href=/y>")[0]
    assert values()[0] != "not a token"


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trip(protocol):
    for value in values():
        copy = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert type(copy) is type(value)
        assert copy == value and hash(copy) == hash(value)
        assert copy.to_dict() == value.to_dict()
        assert repr(copy) == repr(value)


def test_to_dict_and_back():
    for value in values():
        d = value.to_dict()
        assert type(value)(**d) == value
    tokens = htmltok.tokenize(HTML)
    assert tokens[2].to_dict() == {
        "kind": "text", "name": None, "attrs": {}, "data": "T", "self_closing": False,
        "start": 22, "end": 23, "public_id": None, "system_id": None, "force_quirks": False,
    }
    p = next(t for t in tokens if t.name == "p")
    assert p.to_dict()["attrs"] == {"class": "a", "id": "b&c"}
    pi = tokens[-1]
    assert (pi.kind, pi.name, pi.data) == ("processing_instruction", "pi", "d?") or pi.kind == "comment"
    assert htmltok.text("<title>T</title>x").to_dict() == {"title": "T", "text": "x", "encoding": None, "rule": None, "url": None}
    assert htmltok.links('<img src="a.png">', url="https://e.example/")[0].to_dict() == {
        "url": "https://e.example/a.png", "raw": "a.png", "tag": "img", "attr": "src", "offset": 10,
    }


def test_token_constructor():
    t = htmltok.Token("start_tag", name="a", attrs=[("href", "/x"), ("id", "y")], start=3, end=20)
    assert t.attrs == {"href": "/x", "id": "y"} and list(t.attrs) == ["href", "id"]
    assert t.data is None and not t.self_closing
    with pytest.raises(ValueError, match="kind must be one of"):
        htmltok.Token("tag")
    with pytest.raises(TypeError, match="attrs must be"):
        htmltok.Token("start_tag", attrs=5)
    # Attribute order is part of a token's value.
    assert t != htmltok.Token("start_tag", name="a", attrs=[("id", "y"), ("href", "/x")], start=3, end=20)


def test_tokens_outlive_their_call():
    """A token reads its page's table when a field is read: the table
    stays alive with any of its tokens."""
    import gc

    kept = htmltok.tokenize("<p title=x>hello</p>")[1]
    gc.collect()
    htmltok.tokenize("<div>" * 1000)
    assert kept.data == "hello" and kept.to_dict()["data"] == "hello"


def text_of(page):
    return htmltok.text(page)


def test_values_travel_to_other_processes():
    pages = [b"<title>%d</title><p>page %d" % (i, i) for i in range(20)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.map(text_of, pages)
        tokens = pool.map(htmltok.tokenize, [HTML] * 3)
    assert got == [htmltok.text(p) for p in pages]
    assert tokens == [htmltok.tokenize(HTML)] * 3


@pytest.mark.parametrize("protocol", range(0, pickle.HIGHEST_PROTOCOL + 1))
def test_token_tables_travel(protocol):
    """A TokenTable (a Ray or Spark task's result) and its record arrays
    pickle, copy and deep-copy: the copy has the same records, strings,
    text and encoding, and reads as numpy reads the original."""
    import copy

    np = pytest.importorskip("numpy")
    # Bytes in Shift_JIS (the encoding kept), a rewritten string (extra),
    # and a page that tokenizes differently driven or not.
    page = '<meta charset=shift_jis><title>東京 &amp; <b></title><P CLASS="x&lt;">a\r\nb'.encode("shift_jis")
    for driven in (False, True):
        table = htmltok.token_table(page, driven=driven)
        assert table.encoding == "Shift_JIS" and len(table.extra) > 0
        for twin in (pickle.loads(pickle.dumps(table, protocol=protocol)), copy.copy(table), copy.deepcopy(table)):
            assert type(twin) is htmltok.TokenTable
            assert (twin.tokens, twin.attrs, twin.text, twin.extra) == (table.tokens, table.attrs, table.text, table.extra)
            assert (twin.encoding, len(twin)) == (table.encoding, len(table))
            assert (np.asarray(twin.token_records) == np.asarray(table.token_records)).all()
        records = pickle.loads(pickle.dumps(table.attr_records, protocol=protocol))
        assert (np.asarray(records) == np.asarray(table.attr_records)).all()
    # Driven or not is kept: the title's "<b>" is a tag only when driven.
    assert len(htmltok.token_table(page, driven=True)) != len(htmltok.token_table(page))
    # A str's table has no encoding.
    assert pickle.loads(pickle.dumps(htmltok.token_table("<p>x"), protocol=protocol)).encoding is None
