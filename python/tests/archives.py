"""Web archives written by the tests, byte for byte as real tools write them
(WARC 1.1, 1.0, 0.18 as Nutch wrote ClueWeb09, ARC v1; HTTP responses
chunked, content-coded, with bare-LF header lines; gzip per record, LZ4 and
Zstandard frames as FastWARC writes them), and damaged copies; each archive
with the pages a reader must find in it, written by hand.

The expectations say what the bytes were made to hold: the page's name (the
target URI), its body once the HTTP codings are undone (the bytes this file
encoded), its HTTP status and Content-Type, and its title and text by
htmltok.extract's documented rules (blocks break lines, whitespace
collapses, scripts and comments are hidden).
"""

import gzip
import io
import zlib

EOL = b"\r\n"


def http(body, headers=(), status=b"200 OK", eol=EOL):
    """An HTTP/1.1 response: the status line, ``headers`` (name, value
    pairs, bytes) each ending with ``eol``, an empty line, ``body``
    (already encoded)."""
    head = b"HTTP/1.1 " + status + eol
    head += b"".join(name + b": " + value + eol for name, value in headers)
    return head + eol + body


def chunked(body, sizes, extension=b""):
    """``body`` in HTTP/1.1 chunks of ``sizes`` (the rest in one more),
    the first chunk's size line carrying ``extension``."""
    out, at = b"", 0
    for i, size in enumerate(list(sizes) + [len(body)]):
        piece = body[at : at + size]
        if not piece:
            continue
        ext = extension if i == 0 else b""
        out += b"%x" % len(piece) + ext + EOL + piece + EOL
        at += len(piece)
    return out + b"0" + EOL + EOL


def gzip_coded(body):
    return gzip.compress(body, mtime=0)


def zlib_coded(body):
    return zlib.compress(body)


def raw_deflate(body):
    c = zlib.compressobj(wbits=-15)
    return c.compress(body) + c.flush()


_ids = iter(range(1, 10**9))


def record_id():
    return b"<urn:uuid:00000000-0000-4000-8000-%012d>" % next(_ids)


def warc(kind, block, uri=None, version=b"1.0", content_type=None, fields=(), rid=None):
    """One WARC record: its header (``version``, ``WARC-Type: kind``, the
    target URI, a date, a record id, ``fields``, a Content-Type, the
    length), ``block``, and the two CRLFs that end it."""
    head = b"WARC/" + version + EOL + b"WARC-Type: " + kind + EOL
    if uri is not None:
        head += b"WARC-Target-URI: " + uri + EOL
    head += b"WARC-Date: 2026-12-03T00:00:00Z" + EOL
    head += b"WARC-Record-ID: " + (rid or record_id()) + EOL
    for name, value in fields:
        head += name + b": " + value + EOL
    if content_type is not None:
        head += b"Content-Type: " + content_type + EOL
    head += b"Content-Length: %d" % len(block) + EOL + EOL
    return head + block + EOL + EOL


def response(uri, http_block, version=b"1.0", fields=()):
    return warc(
        b"response",
        http_block,
        uri=uri,
        version=version,
        content_type=b"application/http; msgtype=response",
        fields=fields,
    )


def request(uri):
    host = uri.split(b"/")[2]
    block = b"GET / HTTP/1.1" + EOL + b"Host: " + host + EOL + EOL
    return warc(b"request", block, uri=uri, content_type=b"application/http; msgtype=request")


def warcinfo(version=b"1.0"):
    return warc(b"warcinfo", b"software: htmltok tests" + EOL, version=version, content_type=b"application/warc-fields")


def gz_members(records):
    """Each record its own gzip member, as crawlers write ``.warc.gz``."""
    return b"".join(gzip.compress(r, mtime=0) for r in records)


def html_page(title, paragraphs, links=()):
    """A page with a title, paragraphs and links, and its text by the
    extraction rules (each <p> a line; each link's text on the line after
    the paragraphs, as a block of its own)."""
    body = "<!DOCTYPE html><html><head><title>%s</title></head><body>" % title
    body += "".join("<p>%s</p>" % p for p in paragraphs)
    body += "".join('<div><a href="%s">%s</a></div>' % (href, label) for href, label in links)
    body += "</body></html>"
    text = "\n".join(list(paragraphs) + [label for _href, label in links])
    return body, text


def expect(source, body, title, text, status=200, content_type=b"text/html", truncated=False):
    return {
        "source": source,
        "body": body,
        "title": title,
        "text": text,
        "status": status,
        "content_type": content_type.decode("latin-1") if content_type is not None else None,
        "truncated": truncated,
    }


def crawl():
    records, pages = crawl_records()
    return gz_members(records), pages


def crawl_records():
    """A crawl as wget or Heritrix writes it (WARC/1.1, gzip per record):
    warcinfo, request/response pairs, an image, a resource, a revisit, a
    metadata record; pages in UTF-8 (by header) and windows-1251 (by
    header), a 404 page."""
    pages, records = [], [warcinfo(b"1.1")]
    body, text = html_page("Caf\u00e9 & bar", ["One", "Two"], [("../b.html", "B")])
    body = body.encode("utf-8")
    ct = b"text/html; charset=utf-8"
    records += [request(b"https://example.com/a/"), response(b"https://example.com/a/", http(body, [(b"Content-Type", ct), (b"Content-Length", b"%d" % len(body))]), version=b"1.1")]
    pages.append(expect("https://example.com/a/", body, "Caf\u00e9 & bar", text, content_type=ct))
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    records.append(response(b"https://example.com/logo.png", http(png, [(b"Content-Type", b"image/png")]), version=b"1.1"))
    body, text = html_page("\u041f\u0440\u0438\u0432\u0435\u0442", ["\u043c\u0438\u0440"])
    body = body.encode("cp1251")
    ct = b"text/html; charset=windows-1251"
    records.append(response(b"http://example.ru/", http(body, [(b"Content-Type", ct)]), version=b"1.1"))
    pages.append(expect("http://example.ru/", body, "\u041f\u0440\u0438\u0432\u0435\u0442", text, content_type=ct))
    body, text = html_page("Not found", ["Gone"])
    body = body.encode()
    records.append(response(b"https://example.com/missing", http(body, [(b"Content-Type", b"text/html")], status=b"404 Not Found"), version=b"1.1"))
    pages.append(expect("https://example.com/missing", body, "Not found", text, status=404))
    body, text = html_page("A resource", ["Stored as it is"])
    body = body.encode()
    records.append(warc(b"resource", body, uri=b"file:///site/index.html", version=b"1.1", content_type=b"text/html"))
    pages.append(expect("file:///site/index.html", body, "A resource", text, status=None))
    records.append(warc(b"revisit", http(b"", [(b"Content-Type", b"text/html")]), uri=b"https://example.com/a/", version=b"1.1",
                        content_type=b"application/http; msgtype=response",
                        fields=[(b"WARC-Profile", b"http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"),
                                (b"WARC-Refers-To-Target-URI", b"https://example.com/a/")]))
    records.append(warc(b"metadata", b"outlinks: https://example.com/b.html" + EOL, uri=b"https://example.com/a/", version=b"1.1", content_type=b"application/warc-fields"))
    # A resource without a target URI: named by its archive and number
    # (the tests put in the archive's name for "{warc}").
    body, text = html_page("No URI", ["Nameless"])
    body = body.encode()
    records.append(warc(b"resource", body, version=b"1.1", content_type=b"text/html"))
    pages.append(expect("{warc}: record 10", body, "No URI", text, status=None))
    return records, pages


def clueweb():
    """ClueWeb09 as Nutch wrote it: WARC/0.18, HTTP headers ending lines
    with a bare LF, EUC-JP pages of more than 10 KB, gzip per record."""
    pages, records = [], [warcinfo(b"0.18")]
    for n in range(2):
        paragraphs = ["\u65e5\u672c\u8a9e\u306e\u6587 %d-%d" % (n, k) for k in range(1000)]
        body, text = html_page("\u30da\u30fc\u30b8 %d" % n, paragraphs)
        body = body.encode("euc-jp")
        assert len(body) > 10_000
        uri = b"http://clueweb.example.jp/%d.html" % n
        ct = b"text/html; charset=EUC-JP"
        block = http(body, [(b"Content-Type", ct), (b"Date", b"Tue, 13 Jan 2009 18:05:10 GMT")], eol=b"\n")
        records.append(response(uri, block, version=b"0.18", fields=[(b"WARC-TREC-ID", b"clueweb09-ja0000-00-%05d" % n)]))
        pages.append(expect(uri.decode(), body, "\u30da\u30fc\u30b8 %d" % n, text, content_type=ct))
    return gz_members(records), pages


def codings():
    """HTTP payloads with transfer and content codings: chunked (with a
    chunk extension), gzip, x-gzip, deflate as zlib and as raw deflate,
    br, chunked over gzip."""
    from fastwarc.stream_io import BrotliWriter

    def brotli(data):
        out = io.BytesIO()
        w = BrotliWriter(out)
        w.write(data)
        w.close()  # flushes the stream's end (finish() alone leaves it buffered)
        return out.getvalue()

    cases = [
        ("chunked", lambda b: (chunked(b, [7, 100, 1], b";name=value"), [(b"Transfer-Encoding", b"chunked")])),
        ("gzip", lambda b: (gzip_coded(b), [(b"Content-Encoding", b"gzip")])),
        ("x-gzip", lambda b: (gzip_coded(b), [(b"Content-Encoding", b"x-gzip")])),
        ("deflate", lambda b: (zlib_coded(b), [(b"Content-Encoding", b"deflate")])),
        ("raw-deflate", lambda b: (raw_deflate(b), [(b"Content-Encoding", b"deflate")])),
        ("br", lambda b: (brotli(b), [(b"Content-Encoding", b"br")])),
        ("chunked-gzip", lambda b: (chunked(gzip_coded(b), [10, 20]), [(b"Content-Encoding", b"gzip"), (b"Transfer-Encoding", b"chunked")])),
    ]
    pages, records = [], [warcinfo()]
    for name, encode in cases:
        body, text = html_page("Coded " + name, ["A paragraph in %s" % name] * 3 + ["x" * 300])
        body = body.encode()
        encoded, headers = encode(body)
        uri = b"https://codings.example/" + name.encode()
        records.append(response(uri, http(encoded, [(b"Content-Type", b"text/html")] + headers)))
        pages.append(expect(uri.decode(), body, "Coded " + name, text))
    return gz_members(records), pages


def lying():
    """A ``Content-Encoding: gzip`` header on a body that is not gzip (real
    captures have them), then four good pages: the first page is its body
    as stored, and nothing after it is lost."""
    pages, records = [], [warcinfo()]
    body, text = html_page("Not really gzip", ["Plain bytes"])
    body = body.encode()
    records.append(response(b"https://lying.example/", http(body, [(b"Content-Type", b"text/html"), (b"Content-Encoding", b"gzip")])))
    pages.append(expect("https://lying.example/", body, "Not really gzip", text))
    for n in range(4):
        body, text = html_page("Good %d" % n, ["Page %d" % n])
        body = body.encode()
        uri = b"https://lying.example/%d" % n
        records.append(response(uri, http(body, [(b"Content-Type", b"text/html")])))
        pages.append(expect(uri.decode(), body, "Good %d" % n, text))
    return gz_members(records), pages


def broken():
    """A good page, a gzip member whose deflate data is garbage, good pages
    after it; then the same archive clipped inside its last record."""
    pages, members = [], [gzip.compress(warcinfo(), mtime=0)]
    good = []
    for n in range(3):
        body, text = html_page("Page %d" % n, ["Text %d" % n])
        body = body.encode()
        uri = b"https://broken.example/%d" % n
        good.append((gzip.compress(response(uri, http(body, [(b"Content-Type", b"text/html")])), mtime=0), expect(uri.decode(), body, "Page %d" % n, text)))
    members.append(good[0][0])
    pages.append(good[0][1])
    bad = bytearray(gzip.compress(response(b"https://broken.example/bad", http(b"<p>lost", [(b"Content-Type", b"text/html")])), mtime=0))
    for i in range(12, len(bad) - 12):
        bad[i] ^= 0x5A
    members.append(bytes(bad))
    for member, page in good[1:]:
        members.append(member)
        pages.append(page)
    return b"".join(members), pages


def clipped():
    """An archive whose file ends inside its last record (a download cut
    short): the last page comes out as far as it goes, marked truncated;
    a page the crawler cut (``WARC-Truncated: length``) comes out marked."""
    pages, records = [], [warcinfo()]
    body, text = html_page("Cut by the crawler", ["Its first part"])
    body = body.encode()
    records.append(response(b"https://clipped.example/cut", http(body, [(b"Content-Type", b"text/html")]), fields=[(b"WARC-Truncated", b"length")]))
    pages.append(expect("https://clipped.example/cut", body, "Cut by the crawler", text, truncated=True))
    prefix = b"<!DOCTYPE html><title>Long</title><p>"
    body = prefix + b"word " * 2000 + b"</p>"
    last = response(b"https://clipped.example/long", http(body, [(b"Content-Type", b"text/html")]))
    data = b"".join(records) + last
    # Cut 3000 bytes before the file's end: inside the body (the record
    # ends with the body and 4 bytes of CRLFs).
    cut = len(data) - 3000
    kept = body[: len(body) - (3000 - 4)]
    text = " ".join(kept[len(prefix) :].decode().split())
    pages.append(expect("https://clipped.example/long", kept, "Long", text, truncated=True))
    return data[:cut], pages


def cut_codings():
    """What the trials found in held-out archives, as the tools write them
    (WARC/1.1, gzip per record): the ce-br record (``Content-Encoding: br``
    over 8 bytes of a cut brotli stream: nothing decodes, and the bytes as
    stored are no page); a response to a HEAD request (a head under the
    GET's Content-Length, then its request, as warcio and warcprox write
    them); a gzip body cut mid-stream and a deflate body cut at its first
    byte (connections closed early, under the Content-Length of the whole);
    pages whose Content-Type names ``charset=utf8mb4`` or ``charset=none``
    (both on the web). Pages expected: the cut ones as far as they go, said
    not whole; no page for the ce-br or HEAD records."""
    from fastwarc.stream_io import BrotliWriter

    def brotli(data):
        out = io.BytesIO()
        w = BrotliWriter(out)
        w.write(data)
        w.close()
        return out.getvalue()

    body, _text = html_page("Coded", ["word %d" % (i * 7919 % 10007) for i in range(400)])
    body = body.encode()
    pages, records = [], [warcinfo(b"1.1")]

    def coded(uri, encoded, coding, cut):
        headers = [(b"Content-Type", b"text/html"), (b"Content-Encoding", coding), (b"Content-Length", b"%d" % len(encoded))]
        return response(uri, http(encoded[:cut], headers), version=b"1.1")

    records.append(coded(b"https://trials.example/ce-br", brotli(body), b"br", 8))
    head_id = record_id()
    head = http(b"", [(b"Content-Type", b"text/html"), (b"Content-Length", b"%d" % len(body))])
    records.append(warc(b"response", head, uri=b"https://trials.example/head", version=b"1.1",
                        content_type=b"application/http; msgtype=response", rid=head_id))
    records.append(warc(b"request", b"HEAD /head HTTP/1.1" + EOL + b"Host: trials.example" + EOL + EOL,
                        uri=b"https://trials.example/head", version=b"1.1",
                        content_type=b"application/http; msgtype=request", fields=[(b"WARC-Concurrent-To", head_id)]))
    # The server flushed its gzip stream after the 200th paragraph (as
    # servers flush a buffer) and the connection closed there.
    paragraphs = ["word %d" % (i * 7919 % 10007) for i in range(400)]
    at = body.index(b"<p>" + paragraphs[200].encode() + b"</p>")
    z = zlib.compressobj(wbits=31)
    flushed = z.compress(body[:at]) + z.flush(zlib.Z_SYNC_FLUSH)
    gz = flushed + z.compress(body[at:]) + z.flush()
    records.append(coded(b"https://trials.example/gzip-half", gz, b"gzip", len(flushed)))
    pages.append(expect("https://trials.example/gzip-half", body[:at], "Coded", "\n".join(paragraphs[:200]), truncated=True))
    records.append(coded(b"https://trials.example/deflate-none", zlib_coded(body), b"deflate", 0))
    pages.append(expect("https://trials.example/deflate-none", b"", None, "", truncated=True))
    for charset in (b"utf8mb4", b"none"):
        page, text = html_page("Charset %s" % charset.decode(), ["Caf\u00e9"])
        page = page.encode("utf-8")
        ct = b"text/html; charset=" + charset
        uri = b"https://trials.example/" + charset
        records.append(response(uri, http(page, [(b"Content-Type", ct)]), version=b"1.1"))
        pages.append(expect(uri.decode(), page, "Charset %s" % charset.decode(), text, content_type=ct))
    return gz_members(records), pages


def arc():
    """An ARC v1 file as the Internet Archive wrote them, gzip per record:
    the version block, two HTML pages, an image."""
    def arc_record(url, content_type, content, ip=b"192.0.2.1", date=b"20081104142103"):
        return url + b" " + ip + b" " + date + b" " + content_type + b" %d\n" % len(content) + content + b"\n"

    version = b"1 0 Internet Archive\nURL IP-address Archive-date Content-type Archive-length\n"
    records = [arc_record(b"filedesc://test.arc", b"text/plain", version, ip=b"0.0.0.0")]
    pages = []
    for n in range(2):
        body, text = html_page("Old page %d" % n, ["From 2008"])
        body = body.encode()
        uri = b"http://old.example/%d.html" % n
        records.append(arc_record(uri, b"text/html", http(body, [(b"Content-Type", b"text/html")], status=b"200 OK")))
        pages.append(expect(uri.decode(), body, "Old page %d" % n, text))
    records.append(arc_record(b"http://old.example/a.gif", b"image/gif", http(b"GIF89a", [(b"Content-Type", b"image/gif")])))
    return gz_members(records), pages


def framed(kind):
    """The crawl's records in LZ4 or Zstandard frames, one a record, as
    FastWARC's writers write them (``kind``: "lz4" or "zst")."""
    from fastwarc.stream_io import Lz4Writer, ZstdWriter

    writer_class = {"lz4": Lz4Writer, "zst": ZstdWriter}[kind]
    records, pages = crawl_records()
    out = io.BytesIO()
    for record in records:
        frame = io.BytesIO()
        w = writer_class(frame)
        w.write(record)
        w.close()  # the frame's end: finish() alone leaves it buffered
        out.write(frame.getvalue())
    return out.getvalue(), pages


# Every archive: name, writer.
ARCHIVES = {
    "crawl.warc.gz": crawl,
    "clueweb.warc.gz": clueweb,
    "codings.warc.gz": codings,
    "lying.warc.gz": lying,
    "broken.warc.gz": broken,
    "clipped.warc": clipped,
    "cut-codings.warc.gz": cut_codings,
    "old.arc.gz": arc,
    "crawl.warc.lz4": lambda: framed("lz4"),
    "crawl.warc.zst": lambda: framed("zst"),
}
