#!/bin/sh
# Writes the archives in this directory with warcio's capture_http
# (webrecorder's warcio, which records what Python's http.client sends
# and reads into a WARC), around the requests library.
#
#   python3 -m venv /tmp/wpx && /tmp/wpx/bin/pip install warcio==1.8.1 requests
#   PYTHON=/tmp/wpx/bin/python sh crates/warc/tests/data/warcio/make.sh
#
# (from anywhere). The committed files were written by warcio 1.8.1 with
# requests 2.34.2 and urllib3 2.8.0, under Python 3.11.7. The tests
# (crates/warc/tests/warcprox.rs) read only the committed files.
#
# It serves ../warcprox/site (written by ../warcprox/make.sh: the pages
# and the server are shared with the warcprox fixtures, and the tests
# read the bodies from there) with ../warcprox/server.py on
# 127.0.0.2:$PORT, and fetches with requests inside capture_http:
#       warcio.warc.gz   capture_http('...warc.gz') (a gzip member per record)
#       warcio.warc      capture_http(..., gzip=False)
# each URL warcprox.warc holds (requests follows /old.html's
# 301 to /new.html itself), /same.html twice (warcio has no dedup: two
# responses), and last /cp1252.html with stream=True, closed after the
# head without reading the body: capture_http stores what the client
# read, so that response has its head and no body.
#
# Records capture_http writes: no warcinfo; for each exchange its
# response and then its request (WARC-Concurrent-To the response).
#
# PORT may be set when 8652 is taken, but the tests expect 8652.
#
# The bytes are not reproducible (record IDs, dates): run it once and
# commit what it wrote.
set -eu

PORT=${PORT:-8652}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
[ -f ../warcprox/site/index.html ] || { echo "run ../warcprox/make.sh first" >&2; exit 1; }
rm -f warcio.warc.gz warcio.warc

python3 ../warcprox/server.py 127.0.0.2 "$PORT" ../warcprox/site &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
sleep 1

"$PYTHON" - "$PORT" <<'PY'
import sys
from warcio.capture_http import capture_http
import requests  # after warcio, which patches http.client

site = "http://127.0.0.2:%s" % sys.argv[1]
paths = [("/", 200), ("/cp1252.html", 200), ("/chunked.html", 200), ("/gzip.html", 200),
         ("/gzip-chunked.html", 200), ("/close.html", 200), ("/untyped.html", 200),
         ("/same.html", 200), ("/old.html", 200), ("/missing.html", 404),
         ("/notes.txt", 200), ("/dot.png", 200), ("/same.html", 200)]
for name, kwargs in [("warcio.warc.gz", {}), ("warcio.warc", {"gzip": False})]:
    with capture_http(name, **kwargs):
        session = requests.Session()
        session.trust_env = False  # no proxy from the environment
        for path, status in paths:
            r = session.get(site + path)
            assert r.status_code == status, (path, r.status_code)
            r.content
        r = session.get(site + "/cp1252.html", stream=True)
        assert r.status_code == 200
        r.close()
PY
ls -l "$HERE"
