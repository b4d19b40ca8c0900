"""htmltok.warc_pages over archives of every kind (archives.py): the pages
the archives were written to hold, the same pages, names, provenance and
messages as the command line built from this checkout, the same bodies as
warcio (and FastWARC, for LZ4 and Zstandard) where those decode the same
way."""

import gzip
import io
import json
import pathlib
import re
import subprocess
import sys
import warnings

import pytest

import archives
import htmltok

NAMES = list(archives.ARCHIVES)


def read(path, **kwargs):
    """The pages of ``path`` and the iterator (its counts, its problems),
    the warnings recorded."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        it = htmltok.warc_pages(path, **kwargs)
        pages = list(it)
    return pages, it, caught


@pytest.mark.parametrize("name", NAMES)
def test_pages_are_those_written(archive_files, name):
    path, expected = archive_files[name]
    pages, it, _ = read(str(path))
    got = []
    for page in pages:
        t = htmltok.text(page)
        got.append(
            {
                "source": page.source,
                "body": page.body,
                "title": t.title,
                "text": t.text,
                "status": page.status,
                "content_type": page.content_type,
                "truncated": page.truncated,
            }
        )
    assert got == expected
    assert all(p.warc == str(path) for p in pages)
    offsets = [p.offset for p in pages]
    assert offsets == sorted(set(offsets)), "each page its own record, in order"
    assert it.pages == len(pages)
    # The first page of lying.warc.gz says gzip and is not: read as stored.
    assert [p.coding_failed for p in pages] == [name == "lying.warc.gz" and i == 0 for i in range(len(pages))]


def test_record_fields(archive_files):
    path, _ = archive_files["crawl.warc.gz"]
    data = path.read_bytes()
    pages, it, caught = read(str(path))
    first = pages[0]
    assert (first.kind, first.record, first.status, first.date) == ("response", 3, 200, "2026-12-03T00:00:00Z")
    assert first.url == first.source == "https://example.com/a/"
    assert first.record_id.startswith("<urn:uuid:") and first.record_id.encode() in gzip.decompress(data)
    # Its gzip member starts at its offset.
    assert data[first.offset : first.offset + 2] == b"\x1f\x8b"
    assert pages[-1].url is None and pages[-1].kind == "resource" and pages[-1].status is None
    # warcinfo, request and metadata; the image; the revisit.
    assert dict(it.skipped) == {"non-HTML": 1, "revisit": 1, "request/metadata": 3}
    assert it.problems == [] and caught == []
    arc_pages, _, _ = read(str(archive_files["old.arc.gz"][0]))
    assert [(p.kind, p.date) for p in arc_pages] == [("arc", "20081104142103")] * 2


def cli(htmltok_bin, command, path):
    """The command line's JSON lines for ``path``, its message lines (the
    summary apart) and its exit status."""
    run = subprocess.run([htmltok_bin, command, str(path)], capture_output=True, text=True)
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    lines = run.stderr.splitlines()
    summary = [line for line in lines if re.match(r"htmltok: \d+ pages? processed", line)]
    messages = [line for line in lines if line not in summary]
    return rows, messages, summary, run.returncode


def provenance(page):
    return {
        "warc": page.warc,
        "record_id": page.record_id,
        "status": page.status,
        "truncated": page.truncated,
        "content_coding": page.content_coding,
    }


@pytest.mark.parametrize("name", NAMES)
def test_text_as_the_command_line(archive_files, htmltok_bin, name):
    path, _ = archive_files[name]
    rows, messages, summary, status = cli(htmltok_bin, "text", path)
    pages, it, caught = read(str(path))
    ours = []
    for page in pages:
        t = htmltok.text(page)
        ours.append(
            dict(
                source=page.source,
                encoding=t.encoding,
                title=t.title,
                text=t.text,
                offset=page.offset,
                **provenance(page),
            )
        )
    assert ours == rows
    assert ["htmltok: " + str(p) for p in it.problems] == messages
    assert [str(w.message) for w in caught] == [str(p) for p in it.problems]
    assert status == (1 if it.problems else 0)
    # The summary's counts by reason are the iterator's.
    if summary:
        for reason, n in it.skipped.items():
            if n:
                assert f"{n} {reason}" in summary[0]


@pytest.mark.parametrize("name", NAMES)
def test_links_as_the_command_line(archive_files, htmltok_bin, name):
    path, _ = archive_files[name]
    rows, _messages, _summary, _status = cli(htmltok_bin, "links", path)
    pages, _it, _ = read(str(path))
    ours = []
    for page in pages:
        for link in htmltok.links(page):
            ours.append(dict(source=page.source, **link.to_dict(), warc_offset=page.offset, **provenance(page)))
    assert ours == rows
    if name.startswith("crawl."):
        assert len(ours) == 1 and ours[0]["url"] == "https://example.com/b.html"


def warcio_pages(path):
    """(target URI, decoded body) of each HTML response and resource, by
    warcio."""
    from warcio.archiveiterator import ArchiveIterator

    out = []
    with open(path, "rb") as f:
        for r in ArchiveIterator(f, arc2warc=True):
            if r.rec_type not in ("response", "resource"):
                continue
            headers = r.http_headers if r.rec_type == "response" and r.http_headers else r.rec_headers
            if "html" not in (headers.get_header("Content-Type") or ""):
                continue
            uri = r.rec_headers.get_header("WARC-Target-URI")
            # warcio does not undo x-gzip, and its br decoding needs a
            # brotli module of the API it was written for: not compared.
            if uri in ("https://codings.example/x-gzip", "https://codings.example/br"):
                out.append((uri, None))
                continue
            out.append((uri, r.content_stream().read()))
    return out


# warcio stops at a broken gzip member and reads neither LZ4 nor Zstandard.
WARCIO_READS = ["crawl.warc.gz", "clueweb.warc.gz", "codings.warc.gz", "lying.warc.gz", "clipped.warc", "old.arc.gz"]


@pytest.mark.parametrize("name", WARCIO_READS)
def test_bodies_as_warcio(archive_files, name):
    path, _ = archive_files[name]
    pages, _, _ = read(str(path))
    theirs = warcio_pages(path)
    assert len(theirs) == len(pages)
    compared = 0
    for page, (uri, body) in zip(pages, theirs):
        assert page.url == uri
        if body is not None:
            assert page.body == body
            compared += 1
    assert compared == len(pages) - (2 if name == "codings.warc.gz" else 0)


@pytest.mark.parametrize("name", ["crawl.warc.lz4", "crawl.warc.zst"])
def test_framed_bodies_as_fastwarc(archive_files, name):
    """FastWARC reads LZ4 and Zstandard frames; its payload is the body
    when the page has no HTTP coding (as in these archives)."""
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    path, _ = archive_files[name]
    pages, _, _ = read(str(path))
    theirs = []
    with open(path, "rb") as f:
        for r in ArchiveIterator(f, record_types=WarcRecordType.response | WarcRecordType.resource, parse_http=False):
            content = r.reader.read()
            if r.record_type == WarcRecordType.response:
                head, _, content = content.partition(b"\r\n\r\n")
                if b"text/html" not in head:
                    continue
            theirs.append((r.headers.get("WARC-Target-URI"), content))
    assert [(p.url, p.body) for p in pages] == theirs


def test_sources_and_names(archive_files):
    path, _ = archive_files["crawl.warc.gz"]
    by_path = [p.to_dict() for p in read(str(path))[0]]
    assert [p.to_dict() for p in read(pathlib.Path(path))[0]] == by_path
    data = path.read_bytes()
    with open(path, "rb") as f:
        assert [p.to_dict() for p in read(f)[0]] == by_path  # a file's name
    for source in (data, bytearray(data), memoryview(data), io.BytesIO(data)):
        pages = read(source, name=str(path))[0]
        assert [p.to_dict() for p in pages] == by_path
    # Without a name, bytes are "-", as standard input is to the command line.
    nameless = read(data)[0]
    assert {p.warc for p in nameless} == {"-"} and nameless[-1].source == "-: record 10"


def test_errors(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        htmltok.warc_pages(str(tmp_path / "missing.warc.gz"))
    assert e.value.filename == str(tmp_path / "missing.warc.gz")
    page = tmp_path / "page.html"
    page.write_bytes(b"<!DOCTYPE html><p>not an archive")
    with pytest.raises(ValueError, match="not a WARC or ARC archive"):
        htmltok.warc_pages(str(page))
    with pytest.raises(TypeError, match="source must be"):
        htmltok.warc_pages(42)
    with open(page) as text_mode:
        with pytest.raises(TypeError, match="binary mode"):
            htmltok.warc_pages(text_mode)
    with pytest.raises(TypeError, match="name must be str"):
        htmltok.warc_pages(b"", name=1)


def test_problems_warn_and_reading_goes_on(archive_files):
    path, expected = archive_files["broken.warc.gz"]
    with pytest.warns(htmltok.ArchiveWarning, match="broken gzip member"):
        pages = list(htmltok.warc_pages(str(path)))
    assert len(pages) == len(expected) == 3
    # As errors: the iterator raises at the problem, and goes on after it.
    with warnings.catch_warnings():
        warnings.simplefilter("error", htmltok.ArchiveWarning)
        it = htmltok.warc_pages(str(path))
        first = next(it)
        with pytest.raises(htmltok.ArchiveWarning):
            next(it)
        rest = list(it)
    assert [first] + rest == pages
    (problem,) = it.problems
    assert (problem.kind, problem.record, problem.warc) == ("broken", None, str(path))
    assert str(problem).startswith(f"{path}: offset ")


def test_a_page_cut_at_the_size_limit_is_a_problem(tmp_path):
    """A page larger than the reader reads (its gzip body inflates past the
    256 MiB page limit) comes out cut, and, as on the command line, a
    "truncated" problem says so."""
    import zlib

    deflate = zlib.compressobj(1, zlib.DEFLATED, 31)
    zeros = b"<p>" + bytes(1 << 20)
    body = b"".join(deflate.compress(zeros) for _ in range(260)) + deflate.flush()
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body
    record = (b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://big.example/\r\n"
              b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http)
              + http + b"\r\n\r\n")
    path = tmp_path / "big.warc"
    path.write_bytes(record)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", htmltok.ArchiveWarning)
        it = htmltok.warc_pages(str(path))
        (page,) = list(it)
    assert page.truncated and len(page.body) == 256 << 20
    (problem,) = it.problems
    assert problem.kind == "truncated" and problem.url == "http://big.example/"


def test_a_cut_page_comes_before_its_warning(archive_files):
    """The command line prints a page that is not whole, then says it is
    cut, whatever cut it: with warnings as errors, each page still comes
    out, and the call after it raises."""
    path, expected = archive_files["clipped.warc"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", htmltok.ArchiveWarning)
        it = htmltok.warc_pages(str(path))
        first = next(it)
        assert first.truncated and first.body == expected[0]["body"]
        with pytest.raises(htmltok.ArchiveWarning, match=r"truncated by the crawler \(length\)"):
            next(it)
        last = next(it)
        assert last.truncated and last.body == expected[-1]["body"]
        with pytest.raises(htmltok.ArchiveWarning, match="the archive ends inside this record"):
            next(it)
        assert list(it) == []
    assert [p.kind for p in it.problems] == ["truncated", "truncated"]
    assert [p.url for p in it.problems] == [first.url, last.url]


def test_undecodable_head_and_cut_bodies(archive_files):
    """The trials' records: the ce-br record is no page but a problem of its
    own; the HEAD response no page and no problem; each page cut inside its
    coding said once; content_coding says what became of each coding."""
    path, expected = archive_files["cut-codings.warc.gz"]
    pages, it, caught = read(str(path))
    assert [p.source for p in pages] == [p["source"] for p in expected]
    assert [(p.content_coding, p.truncated, p.coding_failed) for p in pages] == [
        ("applied", True, False),
        (None, True, False),
        (None, False, False),
        (None, False, False),
    ]
    assert [(p.kind, p.url) for p in it.problems] == [
        ("undecodable", "https://trials.example/ce-br"),
        ("truncated", "https://trials.example/gzip-half"),
        ("truncated", "https://trials.example/deflate-none"),
    ]
    undecodable = it.problems[0]
    assert str(undecodable).startswith(f"{path}: record 2 (offset {undecodable.offset}, https://trials.example/ce-br): content coding br: ")
    assert "no page" in undecodable.what
    assert [str(w.message) for w in caught] == [str(p) for p in it.problems]
    assert all(w.category is htmltok.ArchiveWarning for w in caught)
    # warcinfo, the HEAD response and its request.
    assert dict(it.skipped) == {"non-HTML": 0, "revisit": 0, "request/metadata": 3}
    made = htmltok.ArchivePage(b"<p>", content_coding="failed")
    assert made.content_coding == "failed" and made.to_dict()["content_coding"] == "failed"
    with pytest.raises(ValueError, match="content_coding must be"):
        htmltok.ArchivePage(b"<p>", content_coding="gzip")


def test_values_travel(archive_files):
    import pickle

    path, _ = archive_files["clipped.warc"]
    pages, it, _ = read(str(path))
    for value in pages + it.problems:
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and hash(copy) == hash(value) and copy is not value
        assert copy.to_dict() == value.to_dict()
    assert htmltok.text(pickle.loads(pickle.dumps(pages[0]))) == htmltok.text(pages[0])
    made = htmltok.ArchivePage(b"<p>x", url="https://a.example/", content_type="text/html")
    assert (made.source, made.warc, made.kind, made.status) == ("https://a.example/", "-", "response", None)


def test_dropping_the_iterator_early():
    """Reading stops when the iterator goes: taking one page of a big
    archive neither waits for the rest nor leaves anything running that
    blocks the next read."""
    body = b"<title>t</title>" + b"<p>para</p>" * 2000
    data = archives.gz_members(
        [archives.response(b"https://big.example/%d" % n, archives.http(body, [(b"Content-Type", b"text/html")])) for n in range(2000)]
    )
    for _ in range(20):
        it = htmltok.warc_pages(data)
        assert next(it).url == "https://big.example/0"
        del it
    assert sum(1 for _ in htmltok.warc_pages(data)) == 2000


def test_damaged_archives_never_raise_past_the_open():
    """Archives damaged at random (bytes flipped, cut, spliced): opening
    one either fails with a ValueError (no archive left) or reads to its
    end, every page of it processed; nothing else is raised."""
    import random

    rng = random.Random(33)
    sources = [archives.ARCHIVES[n]()[0] for n in ("crawl.warc.gz", "clueweb.warc.gz", "old.arc.gz", "crawl.warc.lz4", "crawl.warc.zst")]
    sources.append(b"".join(archives.crawl_records()[0]))
    opened = 0
    for _ in range(300):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randrange(1, 6)):
            what = rng.randrange(3)
            at = rng.randrange(len(data))
            if what == 0:
                data[at] = rng.randrange(256)
            elif what == 1:
                del data[at : at + rng.randrange(1, 200)]
            else:
                data[at:at] = rng.choice(sources)[: rng.randrange(1, 300)]
        try:
            it = htmltok.warc_pages(bytes(data))
        except ValueError:
            continue
        opened += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", htmltok.ArchiveWarning)
            for page in it:
                htmltok.text(page)
                htmltok.links(page)
        assert all(p.kind in ("broken", "truncated") for p in it.problems)
    assert opened > 100


# Run in a fresh interpreter: the peak of its memory is the measure.
IN_MEMORY = r"""
import io, resource, sys
import htmltok
record = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
          b"Content-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n")
n = 128 * 1024 * 1024 // len(record)
kind = sys.argv[1]
# Each made without a transient second copy.
source = bytearray(record) * n if kind == "bytearray" else record * n
source = io.BytesIO(source) if kind == "file" else source
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
pages = htmltok.warc_pages(source)
assert next(pages).body == b"<p>hi</p>"
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024, len(record) * n)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB (Linux)")
@pytest.mark.parametrize("kind", ["bytes", "bytearray", "file"])
def test_an_archive_in_memory_is_copied_once(kind):
    """warc_pages over an archive's bytes (or a file read whole) holds one
    copy of them, the reader's: 128 MiB of archive may raise the process's
    peak by 128 MiB, not twice that (a copy made on the way to another). A
    bytearray is copied out once more on the way (borrowing it would take
    unsafe code), not twice more."""
    out = subprocess.run([sys.executable, "-c", IN_MEMORY, kind], capture_output=True, text=True, check=True, timeout=120)
    growth, size = map(int, out.stdout.split())
    copies = 2 if kind == "bytearray" else 1
    assert growth < (copies + 0.5) * size, f"the peak grew by {growth >> 20} MiB for {size >> 20} MiB of archive"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="file names are bytes (Linux)")
def test_a_path_that_is_not_utf8(tmp_path):
    """A file whose name is not UTF-8 (Python holds such a name with
    surrogate escapes) is read, as open() reads it; its name in the pages
    has U+FFFD for the bytes that are not UTF-8."""
    import os

    data = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
            b"Content-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n")
    path = os.path.join(os.fsdecode(bytes(tmp_path)), os.fsdecode(b"caf\xe9.warc"))
    with open(path, "wb") as f:
        f.write(data)
    for source in (path, pathlib.Path(path)):
        (page,) = htmltok.warc_pages(source)
        assert page.body == b"<p>hi</p>"
        assert page.warc == os.fsdecode(bytes(tmp_path)) + "/caf\ufffd.warc"
    # name= still names it as given.
    assert next(htmltok.warc_pages(path, name="cafe.warc")).warc == "cafe.warc"


def test_an_archive_page_made_by_hand():
    for body in (b"<p>x", bytearray(b"<p>x"), memoryview(b"..<p>x")[2:]):
        assert htmltok.ArchivePage(body).body == b"<p>x"
    for body, name in (("<p>x", "str"), (None, "NoneType"), ([60, 112], "list")):
        with pytest.raises(TypeError, match=f"^body must be bytes, bytearray or memoryview, not {name}$"):
            htmltok.ArchivePage(body)


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no named pipes")
def test_a_path_that_is_a_pipe(tmp_path):
    """A path that is a pipe (a named pipe, /dev/stdin under a shell's
    pipe, a process substitution's /dev/fd/N) cannot be read at offsets:
    it is read whole, as a binary file is."""
    import os
    import threading

    data = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n"
            b"Content-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n")
    fifo = str(tmp_path / "archive.warc")
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(gzip.compress(data) * 3)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    pages = htmltok.warc_pages(fifo)
    assert [(p.body, p.warc, p.offset) for p in pages] == [(b"<p>hi</p>", fifo, n * len(gzip.compress(data))) for n in range(3)]
    assert pages.problems == []
    writer.join(10)


# Run in a fresh interpreter: the peak of its memory is the measure.
READ_AHEAD = r"""
import gzip, resource, time, zlib
import htmltok
deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
body = b"".join([deflate.compress(b"<p>" + b"a" * (1 << 20)) for _ in range(32)] + [deflate.flush()])
http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n" + body
head = b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n"
head += b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http)
data = gzip.compress(head + http + b"\r\n\r\n") * 12
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
pages = htmltok.warc_pages(data)
page = next(pages)
assert len(page.body) > 32 << 20
time.sleep(3)  # time enough for the reading thread to read all ahead
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024, len(page.body))
assert sum(1 for _ in pages) == 11
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB (Linux)")
def test_reading_ahead_is_bounded_by_bytes():
    """The reading thread reads a few pages ahead of Python, but not a
    few large pages: an archive of 12 pages that inflate to 32 MiB each
    (a 400 KiB archive) held while Python processes the first may cost a
    few pages' memory (the one Python has and its body as bytes, one
    waiting, one being read: 128 MiB measured), not all twelve (387)."""
    out = subprocess.run([sys.executable, "-c", READ_AHEAD], capture_output=True, text=True, check=True, timeout=120)
    growth, page = map(int, out.stdout.split())
    assert growth < 6 * page, f"the peak grew by {growth >> 20} MiB over pages of {page >> 20} MiB"


@pytest.mark.parametrize("gz", [True, False])
@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_archives_written_by_warcio(tmp_path, gz, version):
    """An archive as warcio's own writer makes it (webrecorder's tools
    write with it): digests, a request before each response, a revisit, a
    resource, an image, a metadata record, a chunked page and a gzip one.
    Every HTML response and resource is a page, with warcio's body."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / ("warcio.warc.gz" if gz else "warcio.warc")
    html = "<title>Grüße</title><p>one".encode("utf-8")
    chunked = b"5\r\n<p>ch\r\n6\r\nunked!\r\n0\r\n\r\n"
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=gz, warc_version=version)
        w.write_record(w.create_warcinfo_record("warcio.warc", {"software": "warcio"}))

        def response(uri, body, headers):
            http = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", uri.split("/")[2])], is_http_request=True)
            w.write_record(w.create_warc_record(uri, "request", payload=io.BytesIO(b""), http_headers=req))
            w.write_record(w.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))

        response("https://warcio.example/", html, [("Content-Type", "text/html; charset=utf-8")])
        response(
            "https://warcio.example/chunked",
            chunked,
            [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")],
        )
        response(
            "https://warcio.example/gz",
            gzip.compress(b"<p>gzipped"),
            [("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        )
        response("https://warcio.example/logo.png", b"\x89PNG\r\n\x1a\n", [("Content-Type", "image/png")])
        w.write_record(
            w.create_revisit_record(
                "https://warcio.example/", digest="sha1:AAAA", refers_to_uri="https://warcio.example/",
                refers_to_date="2026-01-01T00:00:00Z",
            )
        )
        w.write_record(
            w.create_warc_record(
                "https://warcio.example/resource", "resource", payload=io.BytesIO(b"<p>a resource"),
                warc_content_type="text/html",
            )
        )
        w.write_record(
            w.create_warc_record(
                "https://warcio.example/", "metadata", payload=io.BytesIO(b"outlink: x"),
                warc_content_type="application/warc-fields",
            )
        )
    pages, it, caught = read(str(path))
    assert it.problems == [] and caught == []
    assert [(p.url, p.body) for p in pages] == warcio_pages(path)
    assert [p.url for p in pages] == [
        "https://warcio.example/",
        "https://warcio.example/chunked",
        "https://warcio.example/gz",
        "https://warcio.example/resource",
    ]
    assert htmltok.text(pages[0]).title == "Grüße"
    assert pages[1].body == b"<p>chunked!" and pages[2].body == b"<p>gzipped"
    # Four requests, the metadata record and the warcinfo.
    assert it.skipped == {"non-HTML": 1, "revisit": 1, "request/metadata": 6}
