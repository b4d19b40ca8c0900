"""Text and links of every HTML page in web archives, with htmltok.

    python python/examples/warc_pages.py CC-MAIN-...warc.gz [more.warc.gz ...]

prints one JSON line per HTML page: its name and URL, where it is (the
archive, the record's offset and id), its HTTP status, whether it is whole,
what became of its content coding, the encoding it was decoded from and why, its title, its text, and its
links resolved against the page's URL. ``htmltok.warc_pages`` reads the
archives (WARC or ARC; gzip, LZ4, Zstandard) with the command line's own
reader: the HTTP payload decoded as a browser receives it, its
``Content-Type`` charset the transport's. What cannot be read is reported
on standard error, and the exit status is 1, as the command line's.

``process`` is the building block the Spark job (``spark_warc.py``) and
the tests use.
"""

import json
import sys
import warnings

import htmltok


def process(page):
    """One page's row (``page`` an ``htmltok.ArchivePage``)."""
    text = htmltok.text(page)
    return {
        "source": page.source,
        "url": page.url,
        "warc": page.warc,
        "offset": page.offset,
        "record_id": page.record_id,
        "status": page.status,
        "truncated": page.truncated,
        "content_coding": page.content_coding,
        "encoding": text.encoding,
        "rule": text.rule,
        "title": text.title,
        "text": text.text,
        "links": [link.url for link in htmltok.links(page) if link.url is not None],
    }


def main(paths):
    failed = 0
    # The problems are printed below, each once, with the archive's name.
    warnings.simplefilter("ignore", htmltok.ArchiveWarning)
    for path in paths:
        try:
            pages = htmltok.warc_pages(path)
        except (OSError, ValueError) as e:
            print(f"warc_pages.py: {path}: {e}", file=sys.stderr)
            failed += 1
            continue
        for page in pages:
            print(json.dumps(process(page), ensure_ascii=False))
        for problem in pages.problems:
            print(f"warc_pages.py: {problem}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
