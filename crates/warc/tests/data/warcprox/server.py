"""The HTTP/1.1 server make.sh (and ../warcio/make.sh) fetch from.

    python3 server.py ADDRESS PORT SITE_DIR

Serves the files make.sh wrote under SITE_DIR, on ADDRESS (a loopback
one: 127.0.0.2, as warcprox refuses to fetch from 127.0.0.1), each
with a fixed Date and no Last-Modified. Written for this project.
"""
import gzip
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

# path: (status, file, content type, extra headers, wire coding)
ROUTES = {
    "/": (200, "index.html", "text/html; charset=utf-8", [], None),
    "/cp1252.html": (200, "cp1252.html", "text/html", [], None),
    "/chunked.html": (200, "chunked.html", "text/html; charset=utf-8", [], "chunked"),
    "/gzip.html": (200, "gzip.html", "text/html; charset=utf-8", [], "gzip"),
    "/same.html": (200, "same.html", "text/html; charset=utf-8", [], None),
    "/old.html": (301, "301.html", "text/html", [("Location", "/new.html")], None),
    "/new.html": (200, "new.html", "text/html; charset=utf-8", [], None),
    "/notes.txt": (200, "notes.txt", "text/plain; charset=utf-8", [], None),
    "/dot.png": (200, "dot.png", "image/png", [], None),
    # part.html 160 times (81920 bytes), for warcprox's --max-resource-size.
    "/big.html": (200, "part.html", "text/html; charset=utf-8", [], "big"),
    "/big-chunked.html": (200, "part.html", "text/html; charset=utf-8", [], "big chunked"),
    # The connection closed 400 bytes into the body.
    "/cut.html": (200, "chunked.html", "text/html; charset=utf-8", [], "cut"),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        status, name, ctype, extra, coding = ROUTES.get(
            self.path, (404, "404.html", "text/html", [], None))
        body = open(sys.argv[3] + "/" + name, "rb").read()
        if coding is not None and coding.startswith("big"):
            body = body * 160
            coding = coding[3:].strip() or None
        cut = coding == "cut"
        if cut:
            coding = None
            self.close_connection = True
        self.send_response_only(status)
        self.send_header("Date", "Sat, 05 Dec 2026 00:00:00 GMT")
        self.send_header("Server", "htmltok-fixture")
        self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        if coding == "gzip":
            body = gzip.compress(body, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        if coding == "chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            size = 150 if len(body) < 10000 else 1000
            wire = b"".join(b"%X\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
                            for i in range(0, len(body), size)) + b"0\r\n\r\n"
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            wire = body
        self.wfile.write(wire[:400] if cut else wire)

    def log_message(self, *args):
        pass


HTTPServer((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
