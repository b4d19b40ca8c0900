#!/bin/sh
# Writes the archives in this directory with real warcprox (the Internet
# Archive's archiving HTTP proxy, as Brozzler and Archive-It run it).
#
#   python3 -m venv /tmp/wpx && /tmp/wpx/bin/pip install warcprox==2.13.1
#   WARCPROX=/tmp/wpx/bin/warcprox sh crates/warc/tests/data/warcprox/make.sh
#
# (from anywhere; needs curl and python3 too). The committed files were
# written by warcprox 2.13.1 (PyPI, with warctools 5.0.1) under Python
# 3.11.7, fetched with curl 7.88.1. The tests (crates/warc/tests/
# warcprox.rs) read only the committed files: they run neither warcprox
# nor a server.
#
# What it does:
#  1. writes the pages under site/ (our own pages; see README.md): UTF-8
#     with non-ASCII text, windows-1252 with a <meta charset>, one sent
#     chunked, one sent gzip, one both, one to the connection's close,
#     one untyped, one fetched twice, a 301's body and its
#     target, a 404 page, plain text, a small PNG, and part.html (512
#     bytes) that the big pages repeat;
#  2. serves them with server.py on 127.0.0.2:$PORT (fixed, because the
#     URIs are in the archives and the tests; not 127.0.0.1, which
#     warcprox refuses to fetch from): /chunked.html with
#     Transfer-Encoding: chunked, /gzip.html with Content-Encoding: gzip
#     (mtime 0), /gzip-chunked.html with both (gzip, then chunked, as
#     nginx sends), /close.html with no Content-Length (the body ends at
#     the connection's close), /untyped.html with no Content-Type,
#     /old.html a 301 to /new.html, /missing.html a 404,
#     /big.html and /big-chunked.html part.html 160 times (81920 bytes;
#     the second chunked, 1000 bytes a chunk), /cut.html chunked.html's
#     bytes under their Content-Length, the connection closed 400 bytes
#     into the body;
#  3. runs warcprox on 127.0.0.1:$PROXY_PORT three times, and fetches
#     through it with curl (plain http, one URL after another); stops it
#     with SIGTERM, on which it finishes and closes its WARC (renaming
#     WARCPROX-<timestamp>-<serial>-<token>.warc[.gz].open to drop .open),
#     and checks that exactly one closed WARC is there:
#       warcprox.warc.gz   --gzip (a gzip member per record), a fresh
#                          dedup database (-j): every page once,
#                          /same.html a second time after a pause (so
#                          the first capture is in the database: a
#                          revisit), then a metadata and a resource
#                          record asked for with WARCPROX_WRITE_RECORD
#                          (as Brozzler stores outlinks and screenshots)
#       warcprox.warc      the same without --gzip
#       cut.warc.gz        --gzip --max-resource-size 65536, no dedup:
#                          /new.html, /big.html and /big-chunked.html
#                          (warcprox stops reading after 64 KiB of body
#                          and writes WARC-Truncated: length), /cut.html
#                          (the server's cut: warcprox stores what came,
#                          with no WARC-Truncated).
#
# Records warcprox writes: a warcinfo first, then for each URL a response
# and then its request; for the second /same.html a revisit instead of
# the response.
#
# PORT and PROXY_PORT may be set when 8652 or 8653 are taken, but the
# tests expect 8652: commit only archives made with it.
#
# The bytes are not reproducible (record IDs, dates, warcprox's
# hostname and IP in the warcinfo): run it once and commit what it
# wrote, with the site/ it served.
set -eu

PORT=${PORT:-8652}
SITE=127.0.0.2:$PORT
PROXY_PORT=${PROXY_PORT:-8653}
WARCPROX=${WARCPROX:-warcprox}
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"

rm -rf site work
rm -f warcprox.warc.gz warcprox.warc cut.warc.gz
mkdir site work

python3 - <<'PY'
import struct, zlib
w = lambda name, data: open("site/" + name, "wb").write(data)
w("index.html", ("<!DOCTYPE html>\n<html lang=de><meta charset=utf-8>\n"
    "<title>Grüße – warcprox</title>\n<p>Ünïcödé: naïve café, 日本語, ½ €.\n"
    "<a href=\"cp1252.html\">cp1252</a>\n").encode("utf-8"))
w("cp1252.html", b"<!DOCTYPE html>\n<meta charset=windows-1252>\n<title>Caf\xe9</title>\n"
    b"<p>\x93Quoted\x94 \x96 dash, \x80 euro, \xfc.\n")
w("chunked.html", ("<!DOCTYPE html>\n<title>Chunked</title>\n"
    + "".join("<p>Paragraph %d of a page sent through the proxy in chunks.\n" % i
              for i in range(10))).encode("utf-8"))
w("gzip.html", ("<!DOCTYPE html>\n<title>Gzip</title>\n"
    + "".join("<p>Line %d, compressed on the wire with gzip.\n" % i for i in range(16))).encode("utf-8"))
w("gzip-chunked.html", ("<!DOCTYPE html>\n<title>Gzip, then chunked</title>\n"
    + "".join("<p>Row %d, gzip in chunks, as nginx sends it.\n" % i for i in range(16))).encode("utf-8"))
w("close.html", "<!DOCTYPE html>\n<title>To the close</title>\n<p>No Content-Length: this body ends where the connection closes. Fin.\n"
    .encode("utf-8"))
w("untyped.html", b"<!DOCTYPE html>\n<title>Untyped</title>\n<p>Sent with no Content-Type at all.\n")
w("same.html", "<!DOCTYPE html>\n<title>Twice</title>\n<p>Fetched twice, the same bytes: déjà vu.\n"
    .encode("utf-8"))
w("301.html", b"<!DOCTYPE html>\n<title>Moved</title>\n<p>Moved to <a href=\"/new.html\">new.html</a>.\n")
w("new.html", "<!DOCTYPE html>\n<title>New</title>\n<p>Where /old.html went. Ça va.\n".encode("utf-8"))
w("part.html", "".join(("<p>Part of a big page: line %d of 8, in 512 bytes." % i).ljust(63)
    + "\n" for i in range(1, 9)).encode("utf-8"))
w("404.html", b"<!DOCTYPE html>\n<title>404 Not Found</title>\n<p>No such page.\n")
w("notes.txt", b"Plain text, not HTML.\n<p>This is no tag.\n")
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
w("dot.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(b"\x00\x00", 9)) + chunk(b"IEND", b""))
PY

python3 server.py 127.0.0.2 "$PORT" site &
SERVER=$!
PROXY=
trap 'kill $SERVER 2>/dev/null || true; [ -z "$PROXY" ] || kill $PROXY 2>/dev/null || true' EXIT
sleep 1

# get PATH STATUS: fetches http://$SITE$PATH through warcprox, which must
# answer STATUS (it answers 502 when it fetched nothing).
get() {
    # --noproxy '': through the proxy even if NO_PROXY names 127.0.0.2.
    status=$(curl -sS -o /dev/null -w '%{http_code}' --noproxy '' \
        -x "http://127.0.0.1:$PROXY_PORT" "http://$SITE$1")
    [ "$status" = "$2" ] || { echo "$1: $status, not $2" >&2; exit 1; }
}

# WARCPROX_WRITE_RECORD URI TYPE CONTENT_TYPE FILE: the request line
# names the record's URI (no http: URL, so not curl).
write_record() {
    python3 - "$PROXY_PORT" "$@" <<'PY'
import http.client, sys
port, uri, kind, ctype, name = sys.argv[1:]
conn = http.client.HTTPConnection("127.0.0.1", int(port))
conn.request("WARCPROX_WRITE_RECORD", uri, open(name, "rb").read(),
             {"WARC-Type": kind, "Content-Type": ctype})
status = conn.getresponse().status
assert status in (200, 204), status
PY
}

# get_cut PATH: fetches PATH, whose response warcprox (or the server)
# cuts short: curl says so (exit 18), after a 200.
get_cut() {
    status=0
    code=$(curl -sS -o /dev/null -w '%{http_code}' --noproxy '' \
        -x "http://127.0.0.1:$PROXY_PORT" "http://$SITE$1" 2>/dev/null) || status=$?
    [ "$code" = 200 ] && [ "$status" -eq 18 ] || { echo "$1: $code, exit $status" >&2; exit 1; }
}

session() {
    for path in / /cp1252.html /chunked.html /gzip.html /gzip-chunked.html \
            /close.html /untyped.html /same.html /new.html /notes.txt /dot.png; do
        get "$path" 200
    done
    get /old.html 301
    get /missing.html 404
    # The dedup database is written after the record: give it time.
    sleep 3
    get /same.html 200
    printf '{"outlinks": ["http://%s/cp1252.html"]}\n' "$SITE" > "$dir/meta.json"
    write_record "metadata:http://$SITE/" metadata application/json "$dir/meta.json"
    write_record "screenshot:http://$SITE/" resource image/png site/dot.png
}

cut_session() {
    get /new.html 200
    get_cut /big.html
    get_cut /big-chunked.html
    get_cut /cut.html
}

# run NAME FETCH WARCPROX_OPTIONS...: starts warcprox, runs FETCH, stops
# warcprox, and sets WARC to the one WARC it wrote.
run() {
    name=$1
    fetch=$2
    shift 2
    dir=work/$name
    mkdir -p "$dir"
    "$WARCPROX" -b 127.0.0.1 -p "$PROXY_PORT" -d "$dir/warcs" \
        -c "$dir/ca.pem" --certs-dir "$dir/certs" \
        -j "$dir/dedup.sqlite" --stats-db-file '' "$@" \
        > "$dir/warcprox.log" 2>&1 &
    PROXY=$!
    i=0
    until curl -s -o /dev/null "http://127.0.0.1:$PROXY_PORT/status"; do
        i=$((i + 1))
        [ $i -lt 50 ] || { cat "$dir/warcprox.log"; exit 1; }
        sleep 0.2
    done
    $fetch
    sleep 2
    kill -TERM $PROXY
    wait $PROXY || true
    PROXY=
    ls -l "$dir/warcs"
    if ls "$dir"/warcs/*.open >/dev/null 2>&1; then
        echo "warcprox left an .open WARC" >&2
        exit 1
    fi
    set -- "$dir"/warcs/WARCPROX-*.warc*
    [ $# -eq 1 ] && [ -f "$1" ] || { echo "not one WARC: $*" >&2; exit 1; }
    WARC=$1
}

run gz session --gzip
cp "$WARC" warcprox.warc.gz
run plain session
cp "$WARC" warcprox.warc
# No dedup: the cut chunked page would be a revisit of the cut plain one
# (the same first 64 KiB, the same payload digest).
run cut cut_session --gzip --max-resource-size 65536 --dedup-db-file /dev/null
cp "$WARC" cut.warc.gz

rm -rf work
ls -l "$HERE"
