"""The Spark job in local[2] on WARC files written here: every row against
htmltok.text and htmltok.links called directly."""

import os
import sys

import pytest
from conftest import PAGES, write_warc

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


def test_spark_job(spark, tmp_path):
    import spark_warc

    # Three WARC files: all pages, the first two again (other URLs), and
    # generated pages with many links; plus a path that does not exist.
    generated = [
        {
            "url": f"https://gen.example/{i}/",
            "content_type": "text/html",
            "body": (f"<title>page {i}</title>" + "".join(f"<p>para {k} <a href=../{k}.html>{k}</a>" for k in range(i * 7))).encode(),
        }
        for i in range(20)
    ]
    again = [dict(p, url=p["url"] + "?again") for p in PAGES[:2]]
    warcs = [
        write_warc(tmp_path / "1.warc.gz", PAGES),
        write_warc(tmp_path / "2.warc.gz", again, extra=False),
        write_warc(tmp_path / "3.warc.gz", generated, extra=False),
    ]
    paths = tmp_path / "warc.paths"
    paths.write_text("\n".join(str(p) for p in warcs) + f"\n{tmp_path}/missing.warc.gz\n")
    out = str(tmp_path / "out.parquet")
    failed = spark_warc.run(spark, str(paths), out)
    assert failed == 1  # the missing file, counted and skipped

    rows = {r["url"]: r for r in spark.read.parquet(out).collect()}
    expected = PAGES + again + generated
    assert sorted(rows) == sorted(p["url"] for p in expected)
    for page in expected:
        row = rows[page["url"]]
        direct = htmltok.text(page["body"], content_type=page["content_type"])
        links = htmltok.links(page["body"], base_url=page["url"], content_type=page["content_type"])
        assert row["encoding"] == direct.encoding
        assert row["title"] == direct.title
        assert row["text_length"] == len(direct.text)
        assert list(row["links"]) == [l.url for l in links if l.url is not None]
    # And against what the pages were written to contain.
    for page in PAGES:
        row = rows[page["url"]]
        assert (row["title"], row["encoding"], list(row["links"])) == (page["title"], page["encoding"], page["links"])
    assert len(rows["https://gen.example/19/"]["links"]) == 19 * 7
