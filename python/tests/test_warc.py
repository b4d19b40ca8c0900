"""The WARC example: FastWARC reads a .warc.gz, htmltok decodes each HTML
response with its HTTP Content-Type as the transport charset."""

import json
import subprocess
import sys

from conftest import EXAMPLES, PAGES, write_warc

import warc_pages


def test_pages_and_process(tmp_path):
    path = write_warc(tmp_path / "a.warc.gz", PAGES)
    seen = list(warc_pages.pages(str(path)))
    # Requests and the image response are skipped.
    assert [url for url, _ct, _body in seen] == [p["url"] for p in PAGES]
    for (url, content_type, body), page in zip(seen, PAGES):
        assert (content_type, body) == (page["content_type"], page["body"])
        row = warc_pages.process(url, content_type, body)
        assert row == {
            "url": page["url"],
            "encoding": page["encoding"],
            "rule": "transport" if "charset" in page["content_type"] else "meta",
            "title": page["title"],
            "text_length": len(page["text"]),
            "links": page["links"],
        }


def test_command_line(tmp_path):
    path = write_warc(tmp_path / "b.warc.gz", PAGES[:2], extra=False)
    out = subprocess.run(
        [sys.executable, f"{EXAMPLES}/warc_pages.py", str(path)], check=True, capture_output=True, text=True
    ).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["url"], r["title"], r["links"]) for r in rows] == [
        (p["url"], p["title"], p["links"]) for p in PAGES[:2]
    ]
