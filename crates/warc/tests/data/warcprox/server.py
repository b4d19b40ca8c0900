"""The HTTP/1.1 server make.sh (and ../warcio/make.sh) fetch from.

    python3 server.py ADDRESS PORT SITE_DIR

Serves the files make.sh wrote under SITE_DIR, on ADDRESS (a loopback
one: 127.0.0.2, as warcprox refuses to fetch from 127.0.0.1), each
with a fixed Date and no Last-Modified. Written for this project.
"""
import gzip
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

# path: (status, file, content type (None: no such header), extra
# headers, how it is sent: words of "big" (the file 160 times), "gzip"
# (Content-Encoding), "chunked" (Transfer-Encoding), "close" (no
# Content-Length: the body ends where the connection closes), "cut"
# (the connection closed 400 bytes into the body))
ROUTES = {
    "/": (200, "index.html", "text/html; charset=utf-8", [], ""),
    "/cp1252.html": (200, "cp1252.html", "text/html", [], ""),
    "/chunked.html": (200, "chunked.html", "text/html; charset=utf-8", [], "chunked"),
    "/gzip.html": (200, "gzip.html", "text/html; charset=utf-8", [], "gzip"),
    "/gzip-chunked.html": (200, "gzip-chunked.html", "text/html", [], "gzip chunked"),
    "/close.html": (200, "close.html", "text/html; charset=utf-8", [], "close"),
    "/untyped.html": (200, "untyped.html", None, [], ""),
    "/same.html": (200, "same.html", "text/html; charset=utf-8", [], ""),
    "/old.html": (301, "301.html", "text/html", [("Location", "/new.html")], ""),
    "/new.html": (200, "new.html", "text/html; charset=utf-8", [], ""),
    "/notes.txt": (200, "notes.txt", "text/plain; charset=utf-8", [], ""),
    "/dot.png": (200, "dot.png", "image/png", [], ""),
    "/big.html": (200, "part.html", "text/html; charset=utf-8", [], "big"),
    "/big-chunked.html": (200, "part.html", "text/html; charset=utf-8", [], "big chunked"),
    "/cut.html": (200, "chunked.html", "text/html; charset=utf-8", [], "cut"),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        status, name, ctype, extra, how = ROUTES.get(
            self.path, (404, "404.html", "text/html", [], ""))
        how = how.split()
        body = open(sys.argv[3] + "/" + name, "rb").read()
        if "big" in how:
            body = body * 160
        self.send_response_only(status)
        self.send_header("Date", "Sat, 05 Dec 2026 00:00:00 GMT")
        self.send_header("Server", "htmltok-fixture")
        if ctype is not None:
            self.send_header("Content-Type", ctype)
        for k, v in extra:
            self.send_header(k, v)
        if "gzip" in how:
            body = gzip.compress(body, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        if "cut" in how or "close" in how:
            self.close_connection = True
        if "chunked" in how:
            self.send_header("Transfer-Encoding", "chunked")
            size = 150 if len(body) < 10000 else 1000
            wire = b"".join(b"%X\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
                            for i in range(0, len(body), size)) + b"0\r\n\r\n"
        elif "close" in how:
            self.send_header("Connection", "close")
            wire = body
        else:
            self.send_header("Content-Length", str(len(body)))
            wire = body
        self.end_headers()
        self.wfile.write(wire[:400] if "cut" in how else wire)

    def log_message(self, *args):
        pass


HTTPServer((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()
