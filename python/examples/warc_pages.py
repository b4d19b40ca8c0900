"""Text and links of every HTML page in WARC files, with FastWARC and htmltok.

    python python/examples/warc_pages.py CC-MAIN-...warc.gz [more.warc.gz ...]

prints one JSON line per HTML response: its URL, the encoding it was
decoded from and why, its title, the length of its text, and its links
resolved against the page's URL. The record's HTTP ``Content-Type`` is the
page's transport charset, as a browser would take it: it wins over the
page's own ``<meta>``.

``pages`` and ``process`` are the building blocks the Spark job
(``spark_warc.py``) and the tests use.
"""

import json
import sys

import htmltok
from fastwarc.warc import ArchiveIterator, WarcRecordType


def pages(source):
    """(url, content_type, body) of every HTML response in ``source`` (a
    path, a URL FastWARC can open, or a binary file object; gzip, zstd and
    lz4 are detected)."""
    for record in ArchiveIterator(source, record_types=WarcRecordType.response, parse_http=True):
        content_type = record.http_headers.get("Content-Type") if record.http_headers else None
        if content_type is not None and "html" not in content_type.lower():
            continue
        url = record.headers.get("WARC-Target-URI")
        yield url, content_type, record.reader.read()


def process(url, content_type, body):
    """One page's record: url, encoding, rule, title, text length, links."""
    page = htmltok.text(body, content_type=content_type, url=url)
    try:
        found = htmltok.links(body, base_url=url, content_type=content_type)
    except ValueError:
        # A record whose target URI is not an absolute URL: only the page's
        # absolute links resolve.
        found = htmltok.links(body, content_type=content_type)
    return {
        "url": url,
        "encoding": page.encoding,
        "rule": page.rule,
        "title": page.title,
        "text_length": len(page.text),
        "links": [link.url for link in found if link.url is not None],
    }


def main(paths):
    for path in paths:
        for url, content_type, body in pages(path):
            print(json.dumps(process(url, content_type, body), ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
