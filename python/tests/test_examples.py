"""examples/warc_pages.py as a user runs it: a JSON line per page, the
problems on standard error, exit status 1 when something was skipped."""

import json
import subprocess
import sys

from conftest import EXAMPLES

import htmltok


def test_warc_pages_example(archive_files):
    crawl, crawl_pages = archive_files["crawl.warc.gz"]
    broken, broken_pages = archive_files["broken.warc.gz"]
    run = subprocess.run(
        [sys.executable, f"{EXAMPLES}/warc_pages.py", str(crawl), str(broken)], capture_output=True, text=True
    )
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    expected = crawl_pages + broken_pages
    assert [(r["source"], r["title"], r["text"], r["status"]) for r in rows] == [
        (p["source"], p["title"], p["text"], p["status"]) for p in expected
    ]
    assert rows[0]["links"] == ["https://example.com/b.html"] and rows[0]["encoding"] == "UTF-8"
    assert rows[0]["warc"] == str(crawl) and rows[0]["rule"] == "transport"
    # The broken member, once, with the archive's name; exit status 1.
    (problem,) = [line for line in run.stderr.splitlines() if line.startswith("warc_pages.py: ")]
    assert problem.startswith(f"warc_pages.py: {broken}: offset ") and "broken gzip member" in problem
    assert run.returncode == 1
    ok = subprocess.run([sys.executable, f"{EXAMPLES}/warc_pages.py", str(crawl)], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stderr == ""


def test_process(archive_files):
    import warc_pages

    path, pages = archive_files["codings.warc.gz"]
    rows = [warc_pages.process(p) for p in htmltok.warc_pages(str(path))]
    assert [(r["title"], r["text"]) for r in rows] == [(p["title"], p["text"]) for p in pages]
