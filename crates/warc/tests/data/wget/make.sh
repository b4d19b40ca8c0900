#!/bin/sh
# Writes the archives in this directory with real GNU wget.
#
#   sh crates/warc/tests/data/wget/make.sh      (from anywhere; needs wget, python3)
#
# The committed files were written by GNU Wget 1.21.3 (linux-gnu) and
# Python 3.11. The tests (crates/warc/tests/wget.rs) read only the
# committed files: they run neither wget nor a server.
#
# What it does:
#  1. writes the pages under site/ (our own pages; see README.md): UTF-8
#     with non-ASCII text, windows-1252 with a <meta charset>, a UTF-8 BOM,
#     a header charset that its meta contradicts, plain text, a small PNG,
#     a 404 page, a 301 redirect's body and its target;
#  2. serves them from a Python HTTP/1.1 server on 127.0.0.1:$PORT
#     (fixed, because the URIs are in the archives and the tests): one page
#     with Transfer-Encoding: chunked, one with Content-Encoding: gzip
#     (gzip with mtime 0), /old.html a 301 to /new.html, /missing.html a
#     404, a fixed Date and no Last-Modified;
#  3. crawls it recursively with wget four times:
#       plain.warc            --no-warc-compression
#       wget.warc.gz          default (a gzip member per record), with
#                             --warc-cdx (wget.cdx)
#       split-NNNNN.warc.gz   --warc-max-size=3k: several files, each
#                             starting with its own warcinfo, and
#                             split-meta.warc.gz with the log
#       dedup.warc.gz         --warc-dedup=wget.cdx: the unchanged
#                             responses become revisit records
#  4. fetches (not recursively) three pages whose connection the server
#     closes 400 bytes (or half the body, if less) into the body as sent
#     (plain, chunked, gzip): cut.warc.gz, with wget's second try of each.
#
# Records wget writes besides responses: warcinfo, request, a metadata
# record (its MANIFEST.txt) and two resources (its arguments, its log).
#
# PORT may be set when 8642 is taken, but the tests expect 8642: commit
# only archives made with it.
#
# The bytes are not reproducible (record IDs, dates, the log): run it
# once and commit what it wrote, with the site/ it served.
set -eu

PORT=${PORT:-8642}
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"

rm -rf site work
rm -f plain.warc wget.warc.gz wget.cdx split-*.warc.gz dedup.warc.gz cut.warc.gz
mkdir site work

python3 - <<'PY'
import struct, zlib
w = lambda name, data: open("site/" + name, "wb").write(data)
links = "".join('<li><a href="%s">%s</a>\n' % (p, p) for p in [
    "cp1252.html", "bom.html", "mismatch.html", "chunked.html", "gzip.html",
    "notes.txt", "dot.png", "missing.html", "old.html"])
w("index.html", ("<!DOCTYPE html>\n<html lang=de><meta charset=utf-8>\n"
    "<title>Grüße – index</title>\n<p>Ünïcödé: naïve café, 日本語, ½ €.\n<ul>\n"
    + links + "</ul>\n").encode("utf-8"))
w("cp1252.html", b"<!DOCTYPE html>\n<meta charset=windows-1252>\n<title>Caf\xe9</title>\n"
    b"<p>\x93Quoted\x94 \x96 dash, \x80 euro, \xfc.\n<a href=\"index.html\">back</a>\n")
w("bom.html", b"\xef\xbb\xbf<!DOCTYPE html>\n<title>BOM</title>\n<p>Byte order mark, then \xc3\xa9t\xc3\xa9.\n")
w("mismatch.html", "<!DOCTYPE html>\n<meta charset=utf-8>\n<title>Header says latin1</title>\n"
    "<p>The header says iso-8859-1; this meta and these bytes say UTF-8: Grüße.\n".encode("utf-8"))
w("chunked.html", ("<!DOCTYPE html>\n<title>Chunked</title>\n"
    + "".join("<p>Paragraph %d of a page sent in chunks.\n" % i for i in range(12))
    + '<a href="new.html">new</a>\n').encode("utf-8"))
w("gzip.html", ("<!DOCTYPE html>\n<title>Gzip</title>\n"
    + "".join("<p>Line %d, compressed on the wire with gzip.\n" % i for i in range(20))).encode("utf-8"))
w("notes.txt", b"Plain text, not HTML.\n<p>This is no tag.\n")
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
w("dot.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(b"\x00\x00", 9)) + chunk(b"IEND", b""))
w("404.html", b"<!DOCTYPE html>\n<title>404 Not Found</title>\n<p>No such page.\n")
w("301.html", b"<!DOCTYPE html>\n<title>Moved</title>\n<p>Moved to <a href=\"/new.html\">new.html</a>.\n")
w("cut.html", ("<!DOCTYPE html>\n<title>Cut</title>\n"
    + "".join("<p>Line %d of a page whose connection is cut.\n" % i for i in range(30))).encode("utf-8"))
w("new.html", "<!DOCTYPE html>\n<title>New</title>\n<p>Where /old.html went. Ça va.\n".encode("utf-8"))
PY

cat > work/server.py <<'PY'
import gzip, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

# path: (status, file, content type, extra headers, wire coding)
ROUTES = {
    "/": (200, "index.html", "text/html; charset=utf-8", [], None),
    "/cp1252.html": (200, "cp1252.html", "text/html", [], None),
    "/bom.html": (200, "bom.html", "text/html", [], None),
    "/mismatch.html": (200, "mismatch.html", "text/html; charset=iso-8859-1", [], None),
    "/chunked.html": (200, "chunked.html", "text/html; charset=utf-8", [], "chunked"),
    "/gzip.html": (200, "gzip.html", "text/html; charset=utf-8", [], "gzip"),
    "/notes.txt": (200, "notes.txt", "text/plain; charset=utf-8", [], None),
    "/dot.png": (200, "dot.png", "image/png", [], None),
    "/old.html": (301, "301.html", "text/html", [("Location", "/new.html")], None),
    "/new.html": (200, "new.html", "text/html; charset=utf-8", [], None),
    # The connection closed 400 bytes (at most half) into the body as sent.
    "/cut.html": (200, "cut.html", "text/html; charset=utf-8", [], "cut"),
    "/cut-chunked.html": (200, "cut.html", "text/html; charset=utf-8", [], "chunked cut"),
    "/cut-gzip.html": (200, "cut.html", "text/html; charset=utf-8", [], "gzip cut"),
}

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        status, name, ctype, extra, coding = ROUTES.get(
            self.path, (404, "404.html", "text/html", [], None))
        body = open("site/" + name, "rb").read()
        self.send_response_only(status)
        self.send_header("Date", "Sat, 05 Dec 2026 00:00:00 GMT")
        self.send_header("Server", "htmltok-fixture")
        self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        cut = coding is not None and coding.endswith("cut")
        if cut:
            coding = coding[:-3].strip() or None
            self.close_connection = True
        if coding == "gzip":
            body = gzip.compress(body, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        if coding == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            wire = b"".join(b"%X\r\n%s\r\n" % (len(body[i:i + 150]), body[i:i + 150])
                            for i in range(0, len(body), 150)) + b"0\r\n\r\n"
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            wire = body
        self.wfile.write(wire[:min(400, len(wire) // 2)] if cut else wire)

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY

python3 work/server.py "$PORT" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
sleep 1

crawl() {
    dir=$1
    shift
    # wget exits 8 when a page is a 404: expected.
    status=0
    wget -nv -r -l 3 -e robots=off --no-host-directories \
        -P "work/files-$dir" "$@" "http://127.0.0.1:$PORT/" || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq 8 ]
}

crawl plain --warc-file=plain --no-warc-compression
crawl gz --warc-file=wget --warc-cdx
crawl split --warc-file=split --warc-max-size=3k
crawl dedup --warc-file=dedup --warc-dedup=wget.cdx
# Not recursive: three pages whose connection closes early. wget tries
# each twice (-t 2), asking again with a Range the server ignores.
status=0
wget -nv -t 2 -e robots=off -P work/files-cut --warc-file=cut \
    "http://127.0.0.1:$PORT/cut.html" "http://127.0.0.1:$PORT/cut-chunked.html" \
    "http://127.0.0.1:$PORT/cut-gzip.html" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 4 ]

rm -rf work
ls -l "$HERE"
