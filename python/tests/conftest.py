"""Shared test helpers: pages with known text and links, WARC files written
by hand (the format, not FastWARC's writer, so that the reader is tested
against files it did not make), archives of every kind (``archives.py``),
the command line built from this checkout, and the repository's corpus."""

import gzip
import os
import subprocess
import sys
import uuid

import pytest

import archives

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "python", "examples")
sys.path.insert(0, EXAMPLES)


def corpus_pages():
    """The pages of the repository's corpus/ (and of $HTMLTOK_CORPUS, which
    only adds pages), as bytes."""
    dirs = [os.path.join(REPO, "corpus")]
    if os.environ.get("HTMLTOK_CORPUS"):
        dirs.append(os.environ["HTMLTOK_CORPUS"])
    pages = []
    for d in dirs:
        for root, _dirs, files in os.walk(d):
            for name in sorted(files):
                if name.endswith((".html", ".htm")):
                    with open(os.path.join(root, name), "rb") as f:
                        pages.append((name, f.read()))
    assert len(pages) >= 10, f"no corpus pages under {dirs}"
    return pages


@pytest.fixture(scope="session")
def corpus():
    return corpus_pages()


@pytest.fixture(scope="session")
def archive_files(tmp_path_factory):
    """Every archive of ``archives.ARCHIVES`` written to a file: name ->
    (path, the pages expected in it, a page's name filled in)."""
    d = tmp_path_factory.mktemp("archives")
    out = {}
    for name, make in archives.ARCHIVES.items():
        data, pages = make()
        path = d / name
        path.write_bytes(data)
        for page in pages:
            page["source"] = page["source"].format(warc=str(path))
        out[name] = (path, pages)
    return out


@pytest.fixture(scope="session")
def htmltok_bin():
    """The ``htmltok`` command line of this checkout: ``$HTMLTOK_BIN`` (CI
    sets it to the release build it made), else built here with cargo."""
    given = os.environ.get("HTMLTOK_BIN")
    if given:
        assert os.access(given, os.X_OK), f"HTMLTOK_BIN={given} is not an executable"
        return given
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "htmltok-cli"], cwd=REPO, check=True)
    target = os.path.join(REPO, os.environ.get("CARGO_TARGET_DIR") or "target")
    return os.path.join(target, "release", "htmltok")


def warc_record(url, content_type, body, record_type="response"):
    """One gzipped WARC record (each record its own gzip member, as crawlers
    write them)."""
    if record_type == "response":
        http = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        block = http.encode("latin-1") + body
        block_type = "application/http; msgtype=response"
    else:
        block = f"GET / HTTP/1.1\r\nHost: {url}\r\n\r\n".encode("latin-1")
        block_type = "application/http; msgtype=request"
    head = (
        "WARC/1.0\r\n"
        f"WARC-Type: {record_type}\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "WARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
        f"Content-Type: {block_type}\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode("latin-1")
    return gzip.compress(head + block + b"\r\n\r\n")


# Pages with what a reader sees in them, written by hand from the rules of
# htmltok.extract (title apart; blocks and <br> break lines; scripts,
# styles, comments hidden; links resolved against the page URL or <base>).
PAGES = [
    {
        "url": "https://example.com/a/index.html",
        "content_type": "text/html; charset=utf-8",
        "body": "<!DOCTYPE html><title>Caf\u00e9 &amp; bar</title><p>One<br>two</p>"
        "<script>no()</script><a href='../b.html'>B</a> <img src=/i.png>".encode("utf-8"),
        "title": "Caf\u00e9 & bar",
        "text": "One\ntwo\nB",
        "encoding": "UTF-8",
        "links": ["https://example.com/b.html", "https://example.com/i.png"],
    },
    {
        # windows-1251 only in the HTTP header: the transport decides.
        "url": "http://example.ru/",
        "content_type": "text/html; charset=windows-1251",
        "body": "<title>\u041f\u0440\u0438\u0432\u0435\u0442</title><div>\u043c\u0438\u0440</div>"
        "<a href=//cdn.example.ru/x>x</a>".encode("cp1251"),
        "title": "\u041f\u0440\u0438\u0432\u0435\u0442",
        "text": "\u043c\u0438\u0440\nx",
        "encoding": "windows-1251",
        "links": ["http://cdn.example.ru/x"],
    },
    {
        # Shift_JIS by <meta>, a <base> and a javascript: link (no URL).
        "url": "https://example.jp/dir/page",
        "content_type": "text/html",
        "body": '<meta charset="shift_jis"><base href="https://static.example.jp/s/">'
        "<title>\u65e5\u672c</title><p>\u8a9e</p><a href=next>n</a><a href='javascript:x()'>j</a>".encode(
            "shift_jis"
        ),
        "title": "\u65e5\u672c",
        "text": "\u8a9e\nnj",
        "encoding": "Shift_JIS",
        "links": ["https://static.example.jp/s/next"],
    },
]


def write_warc(path, pages, extra=True):
    """A .warc.gz of ``pages`` (dicts as PAGES), with a request record and a
    non-HTML response between them when ``extra``."""
    with open(path, "wb") as f:
        for i, page in enumerate(pages):
            if extra:
                f.write(warc_record(page["url"], None, b"", record_type="request"))
            f.write(warc_record(page["url"], page["content_type"], page["body"]))
            if extra and i == 0:
                f.write(warc_record(page["url"] + ".png", "image/png", b"\x89PNG\r\n\x1a\n<a href=x>"))
    return path
