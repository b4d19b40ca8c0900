"""The Spark job (examples/spark_warc.py) in local[2] over archives of every
kind, named by a glob and by a list file: the Parquet it writes, read back
by pyarrow, row by row against the pages the archives were written to hold
and against htmltok called directly."""

import os
import shutil
import sys
import warnings

import pytest

import archives
import htmltok


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The Python workers are this interpreter (with htmltok installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("htmltok-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def generated():
    """An archive of pages with many links each."""
    records, pages = [], []
    for i in range(20):
        body = f"<title>page {i}</title>" + "".join(f"<p>para {k} <a href=../{k}.html>{k}</a>" for k in range(i * 7))
        body = body.encode()
        uri = b"https://gen.example/%d/" % i
        records.append(archives.response(uri, archives.http(body, [(b"Content-Type", b"text/html")])))
        pages.append({"source": uri.decode(), "body": body, "title": f"page {i}", "status": 200})
    return archives.gz_members(records), pages


def test_spark_job(spark, archive_files, tmp_path):
    import pyarrow.parquet as pq
    import spark_warc

    # A glob over the .warc.gz files of one directory; a list file naming
    # the others, a pattern and a file that does not exist.
    globbed = tmp_path / "gz"
    globbed.mkdir()
    expected = {}
    for name, (path, pages) in archive_files.items():
        if name.endswith(".warc.gz"):
            shutil.copy(path, globbed / name)
            path = globbed / name
        for page in pages:
            page = dict(page, source=page["source"].replace(str(archive_files[name][0]), str(path)))
            expected[str(path), page["source"]] = page
    data, pages = generated()
    (globbed / "gen.warc.gz").write_bytes(data)
    expected.update({(str(globbed / "gen.warc.gz"), p["source"]): p for p in pages})
    listed = [str(archive_files[n][0]) for n in ("old.arc.gz", "clipped.warc", "crawl.warc.lz4")]
    listing = tmp_path / "more.paths"
    listing.write_text("\n".join(listed + [str(archive_files["crawl.warc.lz4"][0].parent / "*.zst"), str(tmp_path / "missing.warc.gz")]) + "\n")
    out = str(tmp_path / "out.parquet")
    counts = spark_warc.run(spark, [str(globbed / "*.warc.gz"), str(listing)], out)
    # 6 .warc.gz; 3 listed, the .zst by a pattern, the missing one.
    assert counts == {"archives": 11, "pages": len(expected), "unreadable": 1, "problems": 2}

    rows = pq.read_table(out).to_pylist()
    # The archives' problems were counted above; reading them again here
    # warns of them again.
    warnings.simplefilter("ignore", htmltok.ArchiveWarning)
    assert len(rows) == len(expected)
    seen = set()
    for row in rows:
        assert set(row) == {"url", "title", "text", "links", "encoding", "status", "warc", "offset", "record_id", "truncated"}
        # A page without a target URI has none in its row: it is named by
        # its archive and record, as the command line names it.
        source = row["url"] or next(s for (w, s) in expected if w == row["warc"] and s.startswith(row["warc"] + ": record"))
        key = (row["warc"], source)
        assert key not in seen
        seen.add(key)
        page = expected[key]
        assert (row["title"], row["status"]) == (page["title"], page["status"])
        if "text" in page:
            assert row["text"] == page["text"]
            assert row["truncated"] == page["truncated"]
        # The links and encoding are htmltok's on the same record.
        record = next(p for p in htmltok.warc_pages(row["warc"]) if p.offset == row["offset"])
        assert record.body == page["body"] and record.record_id == row["record_id"]
        assert row["links"] == [l.url for l in htmltok.links(record) if l.url is not None]
        assert row["encoding"] == htmltok.text(record).encoding
    assert len(seen) == len(expected)
    gen19 = next(r for r in rows if r["url"] == "https://gen.example/19/")
    assert gen19["links"][:2] == ["https://gen.example/0.html", "https://gen.example/1.html"] and len(gen19["links"]) == 19 * 7


def test_archive_paths(tmp_path):
    import gzip

    import spark_warc

    (tmp_path / "a.warc.gz").write_bytes(b"")
    (tmp_path / "b.warc.gz").write_bytes(b"")
    with gzip.open(tmp_path / "warc.paths.gz", "wt") as f:
        f.write("s3://bucket/x.warc.gz\n\n" + str(tmp_path / "*.warc.gz") + "\n")
    assert spark_warc.archive_paths([str(tmp_path / "warc.paths.gz"), "rel.warc"]) == [
        "s3://bucket/x.warc.gz",
        str(tmp_path / "a.warc.gz"),
        str(tmp_path / "b.warc.gz"),
        os.path.abspath("rel.warc"),
    ]


MAIN_PAGES = ("article-sidebar.html", "comments.html", "chinese-news.html")


@pytest.fixture(scope="module")
def main_rows(spark, tmp_path_factory):
    """The job with ``--main``'s option over an archive of hand-made pages
    (corpus/main/): its rows, by URL."""
    import pyarrow.parquet as pq
    import spark_warc
    from conftest import REPO

    d = tmp_path_factory.mktemp("main")
    records = []
    for name in MAIN_PAGES:
        with open(os.path.join(REPO, "corpus", "main", name), "rb") as f:
            body = f.read()
        records.append(archives.response(b"https://site.example/" + name.encode(), archives.http(body, [(b"Content-Type", b"text/html")])))
    path = d / "main.warc.gz"
    path.write_bytes(archives.gz_members(records))
    out = str(d / "out.parquet")
    counts = spark_warc.run(spark, [str(path)], out, main=True)
    assert counts == {"archives": 1, "pages": len(MAIN_PAGES), "unreadable": 0, "problems": 0}
    return str(path), {row["url"]: row for row in pq.read_table(out).to_pylist()}


def test_spark_job_main_text_is_htmltoks_main_content(main_rows):
    path, rows = main_rows
    assert len(rows) == len(MAIN_PAGES)
    for record in htmltok.warc_pages(path):
        row = rows[record.url]
        all_text = htmltok.text(record)
        # The other columns as without --main.
        assert (row["title"], row["encoding"], row["status"]) == (all_text.title, all_text.encoding, 200)
        assert row["text"] == htmltok.text(record, main=True).text


def test_spark_job_main_keeps_the_article(main_rows):
    _path, rows = main_rows
    article = rows["https://site.example/article-sidebar.html"]["text"]
    assert "Rinse the skillet and dry it immediately with a towel" in article
    assert "Join twelve thousand readers" not in article
    comments = rows["https://site.example/comments.html"]["text"]
    assert "Leggy seedlings are stretching towards light." in comments
    assert "Burying the stem saved my whole crop last year." not in comments
    news = rows["https://site.example/chinese-news.html"]["text"]
    assert "据滨江轨道交通集团介绍" in news and "热门新闻排行" not in news


def test_main_option_of_the_command_line(monkeypatch):
    import spark_warc

    seen = {}

    class Session:
        class builder:
            def appName(_name):
                return Session.builder

            def getOrCreate():
                return Session()

        def stop(self):
            pass

    def run(_spark, inputs, output, main=False):
        seen.update(inputs=inputs, output=output, main=main)
        return {"archives": 0, "pages": 0, "unreadable": 0, "problems": 0}

    monkeypatch.setattr(spark_warc, "SparkSession", Session)
    monkeypatch.setattr(spark_warc, "run", run)
    assert spark_warc.main(["a.warc.gz", "out"]) == 0
    assert seen == {"inputs": ["a.warc.gz"], "output": "out", "main": False}
    assert spark_warc.main(["--main", "a.warc.gz", "b.warc.gz", "out"]) == 0
    assert seen == {"inputs": ["a.warc.gz", "b.warc.gz"], "output": "out", "main": True}
