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
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        status, name, ctype, extra, coding = ROUTES.get(
            self.path, (404, "404.html", "text/html", [], None))
        body = open(sys.argv[3] + "/" + name, "rb").read()
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
            wire = b"".join(b"%X\r\n%s\r\n" % (len(body[i:i + 150]), body[i:i + 150])
                            for i in range(0, len(body), 150)) + b"0\r\n\r\n"
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            wire = body
        self.wfile.write(wire)

    def log_message(self, *args):
        pass


HTTPServer((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
