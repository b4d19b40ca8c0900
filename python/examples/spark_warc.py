"""A PySpark job over WARC files, in the manner of Common Crawl's cc-pyspark.

    spark-submit --py-files python/examples/warc_pages.py \
        python/examples/spark_warc.py warc_paths.txt out.parquet [--partitions N]

Its input is a text file of WARC paths or URLs, one a line (as Common
Crawl's ``warc.paths``; anything FastWARC opens: local paths, and with
fsspec installed s3:// and https:// URLs). Each task streams its WARC
files through FastWARC and htmltok, one record at a time, and yields one
row per HTML response: ``(url, encoding, title, text_length, links)``,
``links`` the page's URLs resolved against its own URL. The rows are
written as Parquet.

On a cluster, htmltok and FastWARC must be importable on every worker:
installed there (``pip install htmltok-*.whl fastwarc``, the wheel built by
``maturin build --release`` in ``python/``), or in a packed virtualenv
shipped with ``--archives env.tar.gz#env`` and
``--conf spark.pyspark.python=./env/bin/python``. (``--py-files`` cannot
carry the wheel: Python does not import compiled modules from a zip.)
``warc_pages.py`` (the per-record code, shared with the single-machine
example) is added to the job by the job itself when it sits beside this
file.
"""

import argparse
import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql.types import ArrayType, LongType, StringType, StructField, StructType

SCHEMA = StructType(
    [
        StructField("url", StringType()),
        StructField("encoding", StringType()),
        StructField("title", StringType()),
        StructField("text_length", LongType()),
        StructField("links", ArrayType(StringType())),
    ]
)

HERE = os.path.dirname(os.path.abspath(__file__))


def process_partition(paths, failed):
    """The rows of the WARC files of one task. A WARC that cannot be read is
    counted in ``failed`` and skipped, as cc-pyspark does, so that one bad
    file does not fail the job."""
    from warc_pages import pages, process

    for path in paths:
        try:
            for url, content_type, body in pages(path):
                row = process(url, content_type, body)
                yield (row["url"], row["encoding"], row["title"], row["text_length"], row["links"])
        except OSError as e:
            print(f"skipping {path}: {e}", file=sys.stderr)
            failed.add(1)


def run(spark, input_paths, output, partitions=None):
    """Runs the job: ``input_paths`` is the text file of WARC paths,
    ``output`` the Parquet directory (replaced). Returns the number of WARC
    files that could not be read."""
    sc = spark.sparkContext
    # The per-record code, and this file for when the job is imported as a
    # module (its functions are then pickled by name, not by value).
    sc.addPyFile(os.path.join(HERE, "warc_pages.py"))
    sc.addPyFile(os.path.abspath(__file__))
    failed = sc.accumulator(0)
    paths = sc.textFile(input_paths).map(str.strip).filter(bool)
    # One WARC per task by default: Common Crawl's files are ~1 GB each.
    n = partitions or max(1, paths.count())
    rows = paths.repartition(n).mapPartitions(lambda part: process_partition(part, failed))
    spark.createDataFrame(rows, SCHEMA).write.mode("overwrite").parquet(output)
    return failed.value


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="text file of WARC paths or URLs, one a line")
    ap.add_argument("output", help="output directory (Parquet)")
    ap.add_argument("--partitions", type=int, help="tasks (default: one per WARC file)")
    args = ap.parse_args(argv)
    spark = SparkSession.builder.appName("htmltok-warc").getOrCreate()
    failed = run(spark, args.input, args.output, args.partitions)
    spark.stop()
    if failed:
        print(f"{failed} WARC file(s) could not be read", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
