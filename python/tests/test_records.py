"""Token tables saved as bytes and read back: ``TokenTable.to_bytes`` and
``TokenTable.from_bytes`` on every corpus page, the saved bytes read
directly with numpy and with ``struct`` (``examples/records.py``, run as a
user runs it, with and without numpy), damaged bytes refused."""

import json
import pickle
import struct
import subprocess
import sys

import pytest
from conftest import EXAMPLES

import htmltok
import records as example


def start_tags(tokens):
    """What the example prints of a page's tokens, from ``tokenize``."""
    return [(t.name, list(t.attrs.items())) for t in tokens if t.kind == "start_tag"]


def test_saved_tables_read_back_as_they_were(corpus):
    for name, body in corpus:
        table = htmltok.token_table(body)
        data = table.to_bytes()
        assert data[:8] == b"htmltokR"
        assert struct.unpack_from("<6I", data, 8) == (
            1,
            len(table),
            len(table.attrs) // htmltok.ATTR_RECORD_SIZE,
            len(table.text),
            len(table.extra),
            0,
        ), name
        for form in (data, bytearray(data), memoryview(b"x" + data)[1:]):
            back = htmltok.TokenTable.from_bytes(form)
            assert (back.tokens, back.attrs, back.text, back.extra) == (
                table.tokens,
                table.attrs,
                table.text,
                table.extra,
            ), name
            assert back.encoding is None and len(back) == len(table)
        back = htmltok.TokenTable.from_bytes(data)
        assert back.to_bytes() == data
        again = pickle.loads(pickle.dumps(back))
        assert again.to_bytes() == data


def test_saved_bytes_read_with_numpy_and_with_struct(corpus):
    np = pytest.importorskip("numpy")
    for name, body in corpus:
        table = htmltok.token_table(body)
        # One byte into a buffer: the records are not aligned.
        data = memoryview(b"x" + table.to_bytes())[1:]
        n = len(table)
        tokens = np.frombuffer(data, dtype=htmltok.TOKEN_DTYPE, count=n, offset=32)
        assert (tokens == np.asarray(table.token_records)).all(), name
        want = start_tags(htmltok.tokenize(body))
        assert list(example.start_tags_numpy(data)) == want, name
        assert list(example.start_tags_struct(data)) == want, name


@pytest.mark.parametrize("numpy", [True, False])
def test_records_example(tmp_path, numpy):
    if numpy:
        pytest.importorskip("numpy")
    page = b"<meta charset=windows-1251><p class=x>\xcf\xf0\xe8\xe2\xe5\xf2<a href='/\xec\xe8\xf0?a=1&amp;b=\"2\"'>"
    path = tmp_path / "page.records"
    path.write_bytes(htmltok.token_table(page).to_bytes())
    args = [sys.executable, f"{EXAMPLES}/records.py", str(path)] + ([] if numpy else ["--no-numpy"])
    run = subprocess.run(args, capture_output=True, text=True, encoding="utf-8", check=True)
    lines = [line.split("\t") for line in run.stdout.splitlines()]
    assert lines == [
        ["meta", 'charset="windows-1251"'],
        ["p", 'class="x"'],
        ["a", 'href="/мир?a=1&b=\\"2\\""'],
    ]
    assert [[name] + [f"{n}={json.dumps(v, ensure_ascii=False)}" for n, v in pairs] for name, pairs in start_tags(htmltok.tokenize(page))] == lines


def test_damaged_bytes_are_refused():
    data = htmltok.token_table("<p id=a>x &amp; y").to_bytes()
    for cut in (0, 7, 31, 32, len(data) - 1):
        with pytest.raises(ValueError, match="not a saved token table"):
            htmltok.TokenTable.from_bytes(data[:cut])
    with pytest.raises(ValueError, match="after its end"):
        htmltok.TokenTable.from_bytes(data + b"\0")
    with pytest.raises(ValueError, match="version 2"):
        htmltok.TokenTable.from_bytes(data[:8] + b"\2" + data[9:])
    with pytest.raises(ValueError, match="UTF-8"):
        htmltok.TokenTable.from_bytes(data[:-1] + b"\xff")
    with pytest.raises(TypeError, match="bytes, bytearray or memoryview"):
        htmltok.TokenTable.from_bytes("<p>")
    with pytest.raises(ValueError, match="not htmltok records"):
        list(example.start_tags_struct(b"htmltokX" + data[8:]))
