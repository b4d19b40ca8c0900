"""The Spark job (examples/spark_warc.py) in local[2] over archives of every
kind, named by a glob and by a list file: the Parquet it writes, read back
by pyarrow, row by row against the pages the archives were written to hold
and against htmltok called directly; its counts and summary line against
the command line's over the same archives; a few files for many archives."""

import json
import os
import shutil
import subprocess
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


def cli_counts(htmltok_bin, paths):
    """The command line's counts over ``paths`` (``stats --total``), in the
    job's words, and its summary line."""
    run = subprocess.run([htmltok_bin, "stats", "--total", *paths], capture_output=True, text=True)
    total = json.loads(run.stdout.splitlines()[-1])["total"]
    counts = {"pages": total["pages"], "truncated_pages": total["truncated_pages"], **total["passed_over"]}
    counts.update({k: total["problems"][k] for k in ("broken", "truncated", "undecodable", "unreadable")})
    assert total["problems"]["failed"] == 0
    summary = run.stderr.splitlines()[-1].removeprefix("htmltok: ")
    return counts, summary, run.returncode


def parquet_files(out):
    return [f for f in os.listdir(out) if f.endswith(".parquet")]


def test_spark_job(spark, archive_files, htmltok_bin, tmp_path):
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
    inputs = [str(globbed / "*.warc.gz"), str(listing)]
    counts = spark_warc.run(spark, inputs, out)
    # 7 .warc.gz; 3 listed, the .zst by a pattern, the missing one.
    assert counts.pop("archives") == 12
    assert counts["pages"] == len(expected)
    # Counted as the command line counts over the same archives: the
    # clipped archive's two cut pages (their rows written) as truncated
    # problems, the ce-br record as undecodable, the missing archive as
    # unreadable; the same summary line and exit status.
    theirs, their_summary, status = cli_counts(htmltok_bin, spark_warc.archive_paths(inputs))
    assert counts == theirs
    assert (counts["truncated"], counts["undecodable"], counts["unreadable"]) == (4, 1, 1)
    assert spark_warc.summary(counts) == their_summary and status == 1
    # local[2]: two tasks, each a file, for 12 archives.
    assert len(parquet_files(out)) <= 2

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


def test_many_small_archives_make_a_few_files(spark, htmltok_bin, tmp_path):
    """100 small archives (one of them clipped) make at most a handful of
    Parquet files, with the command line's counts; the option chooses the
    number of files, and another splits them by rows."""
    import pyarrow.parquet as pq
    import spark_warc

    d = tmp_path / "many"
    d.mkdir()
    for n in range(100):
        records = [archives.warcinfo()]
        for k in range(3):
            body = b"<title>%d-%d</title><p>" % (n, k) + b" ".join(b"%d" % (i * 7919 % 10007) for i in range(300))
            records.append(archives.response(b"https://many.example/%d/%d" % (n, k), archives.http(body, [(b"Content-Type", b"text/html")])))
        data = archives.gz_members(records)
        (d / ("%03d.warc.gz" % n)).write_bytes(data[:-40] if n == 50 else data)
    paths = [str(d / "*.warc.gz")]
    theirs, _, _ = cli_counts(htmltok_bin, spark_warc.archive_paths(paths))
    assert theirs["pages"] == 300 and theirs["truncated"] == theirs["truncated_pages"] == 1
    # By default, a file per core (local[2]); one task whose file is split
    # every 120 rows.
    for files, per_file, most in [(None, 100_000, 2), (1, 120, 3)]:
        out = str(tmp_path / f"out-{files}-{per_file}")
        counts = spark_warc.run(spark, paths, out, files, per_file)
        assert counts.pop("archives") == 100 and counts == theirs
        written = parquet_files(out)
        assert 1 <= len(written) <= most, written
        assert sum(pq.read_metadata(os.path.join(out, f)).num_rows for f in written) == 300


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
    assert counts.pop("archives") == 1 and counts.pop("pages") == len(MAIN_PAGES)
    assert not any(counts.values()), counts
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

    def run(_spark, inputs, output, _files=None, _rows=None, main=False):
        seen.update(inputs=inputs, output=output, main=main)
        return {"archives": 0, **{name: 0 for name in spark_warc.COUNTS}}

    monkeypatch.setattr(spark_warc, "SparkSession", Session)
    monkeypatch.setattr(spark_warc, "run", run)
    assert spark_warc.main(["a.warc.gz", "out"]) == 0
    assert seen == {"inputs": ["a.warc.gz"], "output": "out", "main": False}
    assert spark_warc.main(["--main", "a.warc.gz", "b.warc.gz", "out"]) == 0
    assert seen == {"inputs": ["a.warc.gz", "b.warc.gz"], "output": "out", "main": True}
