"""A PySpark job over web archives: one row per HTML page, written as
Parquet.

    spark-submit python/examples/spark_warc.py [--main] [--output-files N]
        [--rows-per-file N] INPUT [INPUT ...] OUTPUT

An INPUT is an archive's path or URL, a glob pattern (``crawl/*.warc.gz``,
expanded on the driver), or a list file named ``*.paths``, ``*.paths.gz``
or ``*.txt`` (as Common Crawl's ``warc.paths.gz``) holding one of those a
line. Each task reads one archive with ``htmltok.warc_pages`` (the command
line's reader: WARC or ARC; gzip, LZ4, Zstandard; HTTP payloads decoded
as a browser receives them) and writes a row per page: ``url``, ``title``,
``text``, ``links`` (the page's URLs resolved against its own), ``encoding``,
``status``, and where the page is (``warc``, ``offset``, ``record_id``,
``truncated``). With ``--main``, ``text`` is the page's main content (the
article, without navigation, footers and comments: ``htmltok.text(page,
main=True)``) instead of all its text; the other columns are the same. Local paths are read by htmltok; other URLs (``s3://``,
``https://``) through fsspec, which the workers then need, a whole archive
in memory at a time.

The archives are read by ``--output-files`` tasks (default: the
cluster's default parallelism, its cores; never more than the archives),
each writing its own Parquet file, split every ``--rows-per-file`` rows
(default 100000): the files are a few, and of a sensible size, however
many archives there are.

An archive that cannot be opened is counted and skipped, as cc-pyspark
does, so that one bad file does not fail the job; so are records that
cannot be read (htmltok reads on after them). The job counts as the
command line counts (pages; records passed over by reason; problems by
kind: broken, truncated (each page not whole: its row is written, marked
``truncated``), undecodable, unreadable), prints the command line's
summary line, and exits with status 1 when there was a problem.

htmltok must be importable by the Python of every worker. Locally, the
workers run ``PYSPARK_PYTHON`` (or ``spark.pyspark.python``), else the
``python3`` on the PATH: an active virtual environment with htmltok
installed is enough. On a cluster: installed there (``pip install
htmltok-*.whl``, the wheel built by ``maturin build --release`` in
``python/``), or in a packed virtualenv shipped with the job (``--archives
env.tar.gz#env --conf spark.pyspark.python=./env/bin/python``).
``--py-files`` cannot carry the wheel: Python does not import compiled
modules from a zip. This file is added to the job by the job itself.
"""

import argparse
import glob
import gzip
import os
import sys
import warnings

from pyspark.sql import SparkSession
from pyspark.sql.types import (
    ArrayType,
    BooleanType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
)

SCHEMA = StructType(
    [
        StructField("url", StringType()),
        StructField("title", StringType()),
        StructField("text", StringType()),
        StructField("links", ArrayType(StringType())),
        StructField("encoding", StringType()),
        StructField("status", IntegerType()),
        StructField("warc", StringType()),
        StructField("offset", LongType()),
        StructField("record_id", StringType()),
        StructField("truncated", BooleanType()),
    ]
)

LIST_SUFFIXES = (".paths", ".paths.gz", ".txt")

# What the job counts, as the command line counts it: pages (and those not
# whole), records passed over by reason, problems by kind.
PASSED_OVER = ("non-HTML", "revisit", "request/metadata")
PROBLEMS = ("broken", "truncated", "undecodable", "unreadable")
COUNTS = ("pages", "truncated_pages") + PASSED_OVER + PROBLEMS


def archive_paths(inputs):
    """The archives named by ``inputs`` (paths, URLs, glob patterns, list
    files), in order; a pattern that matches nothing is kept as it is, so
    that the task reports it missing."""
    out = []
    for item in inputs:
        if item.endswith(LIST_SUFFIXES) and "://" not in item:
            opener = gzip.open if item.endswith(".gz") else open
            with opener(item, "rt", encoding="utf-8") as f:
                out += archive_paths([line.strip() for line in f if line.strip()])
        elif "://" not in item and glob.has_magic(item):
            out += sorted(glob.glob(item)) or [item]
        else:
            out.append(item if "://" in item else os.path.abspath(item))
    return out


def row(page, main=False):
    """The row of one page (an ``htmltok.ArchivePage``); ``main``: its main
    content as ``text``."""
    import htmltok

    text = htmltok.text(page, main=main)
    links = [link.url for link in htmltok.links(page) if link.url is not None]
    return (
        page.url,
        text.title,
        text.text,
        links,
        text.encoding,
        page.status,
        page.warc,
        page.offset,
        page.record_id,
        page.truncated,
    )


def process_archive(path, counts, main=False):
    """The rows of the archive ``path``; ``counts`` the job's accumulators,
    one for each of ``COUNTS``; ``main`` as for ``row``."""
    import htmltok

    warnings.simplefilter("ignore", htmltok.ArchiveWarning)
    try:
        if "://" in path and not path.startswith("file://"):
            import fsspec

            with fsspec.open(path, "rb") as f:
                pages = htmltok.warc_pages(f, name=path)
        else:
            pages = htmltok.warc_pages(path.removeprefix("file://"))
    except (OSError, ValueError) as e:
        print(f"spark_warc: skipping {path}: {e}", file=sys.stderr)
        counts["unreadable"].add(1)
        return
    for page in pages:
        counts["pages"].add(1)
        counts["truncated_pages"].add(int(page.truncated))
        yield row(page, main)
    for problem in pages.problems:
        print(f"spark_warc: {problem}", file=sys.stderr)
        counts[problem.kind].add(1)
    for reason, n in pages.skipped.items():
        counts[reason].add(n)


def run(spark, inputs, output, output_files=None, rows_per_file=100_000, main=False):
    """Runs the job over the archives of ``inputs`` (as the command line's
    INPUTs), writing Parquet to ``output`` (replaced) from ``output_files``
    tasks (default: the context's default parallelism), a file every
    ``rows_per_file`` rows; ``main``: each page's main content as its
    ``text``. Returns ``archives`` and the ``COUNTS``."""
    sc = spark.sparkContext
    # This file, for when the job is imported as a module (its functions
    # are then pickled by name, not by value).
    sc.addPyFile(os.path.abspath(__file__))
    paths = archive_paths(inputs)
    counts = {name: sc.accumulator(0) for name in COUNTS}
    # An archive is read from its start, in order, by one worker (Common
    # Crawl's are ~1 GB each); the archives are shared out among as many
    # tasks as files are wanted, without a shuffle of the rows.
    tasks = max(1, min(len(paths), output_files or sc.defaultParallelism))
    rows = sc.parallelize(paths, max(1, len(paths))).flatMap(lambda path: process_archive(path, counts, main))
    frame = spark.createDataFrame(rows.coalesce(tasks), SCHEMA)
    frame.write.mode("overwrite").option("maxRecordsPerFile", rows_per_file).parquet(output)
    return {"archives": len(paths), **{name: acc.value for name, acc in counts.items()}}


def summary(counts):
    """The command line's summary line for ``counts`` (as ``run`` returns
    them)."""
    plural = lambda n: "" if n == 1 else "s"  # noqa: E731
    line = f"{counts['pages']} page{plural(counts['pages'])} processed"
    passed = sum(counts[r] for r in PASSED_OVER)
    if passed:
        reasons = ", ".join(f"{counts[r]} {r}" for r in PASSED_OVER if counts[r])
        line += f"; {passed} archive record{plural(passed)} passed over ({reasons})"
    problems = sum(counts[k] for k in PROBLEMS)
    if problems:
        kinds = ", ".join(f"{counts[k]} {k}" for k in PROBLEMS if counts[k])
        line += f"; {problems} problem{plural(problems)}: {kinds}"
    return line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", metavar="INPUT", help="archive path or URL, glob pattern, or list file")
    ap.add_argument("output", metavar="OUTPUT", help="output directory (Parquet)")
    ap.add_argument("--output-files", type=int, metavar="N", help="tasks reading the archives, each writing a file (default: the cluster's cores)")
    ap.add_argument("--rows-per-file", type=int, default=100_000, metavar="N", help="rows at most in a file (default: 100000)")
    ap.add_argument("--main", action="store_true", help="each page's main content as its text, instead of all its text")
    args = ap.parse_args(argv)
    spark = SparkSession.builder.appName("htmltok-warc").getOrCreate()
    counts = run(spark, args.inputs, args.output, args.output_files, args.rows_per_file, main=args.main)
    spark.stop()
    print(f"spark_warc: {summary(counts)}", file=sys.stderr)
    return 1 if any(counts[k] for k in PROBLEMS) else 0


if __name__ == "__main__":
    sys.exit(main())
