"""A crawl pipeline's work on one .warc.gz: FastWARC + Resiliparse against
htmltok, in one process.

    python python/bench/pipeline.py DIR [--rounds 5] [--markdown] [--keep PATH]

Writes the ``*.html``/``*.htm`` pages under DIR into one ``.warc.gz`` (a
``response`` record per page, its own gzip member, an HTTP head with
``Content-Type: text/html``, as crawlers write them) in a temporary
directory (or ``--keep PATH``), then runs each pipeline over the whole
archive, from the file, ``--rounds`` times. A round runs every pipeline
once, back to back; the ratio column is the median over the rounds of
each round's ratio, with the smallest and largest (the spread); MB/s (of
page bytes, the best round) is for information.

Pipelines, each giving every page's text as a ``str``:

- FastWARC + Resiliparse, as Resiliparse's documentation has it (what
  crawl pipelines run today): ``ArchiveIterator(f, record_types=response,
  parse_http=True)``, the body ``record.reader.read()``, decoded with
  ``bytes_to_str(body, detect_encoding(body))``, then
  ``extract_plain_text``;
- ``htmltok.warc_pages`` + ``htmltok.text``: ``[htmltok.text(p).text for p
  in htmltok.warc_pages(path)]``;
- ``htmltok.warc_pages`` + ``htmltok.text_many``: the pages in batches of
  64, ``text_many(batch, threads=2)``;
- and for reference, reading alone: FastWARC's records' bodies, and
  ``htmltok.warc_pages``' pages' bodies.
"""

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time


def load(directory):
    pages = []
    for root, _dirs, files in os.walk(directory):
        for name in sorted(files):
            if name.endswith((".html", ".htm")):
                with open(os.path.join(root, name), "rb") as f:
                    pages.append((os.path.relpath(os.path.join(root, name), directory), f.read()))
    if not pages:
        sys.exit(f"no .html files under {directory}")
    return pages


def write_archive(pages, path):
    """One response record a page, each its own gzip member."""
    with open(path, "wb") as out:
        for i, (name, body) in enumerate(pages):
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
            head = (
                b"WARC/1.1\r\nWARC-Type: response\r\n"
                b"WARC-Target-URI: https://corpus.example/" + name.replace(os.sep, "/").encode() + b"\r\n"
                b"WARC-Date: 2026-12-04T00:00:00Z\r\n"
                b"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n" % i
                + b"Content-Type: application/http; msgtype=response\r\n"
                b"Content-Length: %d\r\n\r\n" % len(http)
            )
            out.write(gzip.compress(head + http + b"\r\n\r\n", compresslevel=6, mtime=0))


def pipelines(path):
    import htmltok

    def ht_text():
        return [htmltok.text(p).text for p in htmltok.warc_pages(path)]

    def ht_many():
        out, batch = [], []
        for p in htmltok.warc_pages(path):
            batch.append(p)
            if len(batch) == 64:
                out += [t.text for t in htmltok.text_many(batch, threads=2)]
                batch = []
        return out + [t.text for t in htmltok.text_many(batch, threads=2)]

    def ht_read():
        return [len(p.body) for p in htmltok.warc_pages(path)]

    out = [
        ("htmltok.warc_pages + htmltok.text", ht_text),
        ("htmltok.warc_pages + text_many (2 threads)", ht_many),
    ]
    missing = []
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        def fr_text():
            out = []
            with open(path, "rb") as f:
                for record in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
                    body = record.reader.read()
                    out.append(extract_plain_text(bytes_to_str(body, detect_encoding(body))))
            return out

        def fr_read():
            with open(path, "rb") as f:
                return [
                    len(r.reader.read())
                    for r in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True)
                ]

        out.insert(0, ("FastWARC + Resiliparse extract_plain_text", fr_text))
        out += [("FastWARC, reading alone", fr_read)]
    except ImportError:
        missing.append("fastwarc/resiliparse")
    out += [("htmltok.warc_pages, reading alone", ht_read)]
    return out, missing


def process_cpu():
    t = os.times()
    return t.user + t.system


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--keep", help="write the archive here (and keep it)")
    args = ap.parse_args()
    pages = load(args.dir)
    size = sum(len(b) for _n, b in pages)
    tmp = None
    if args.keep:
        path = args.keep
    else:
        tmp = tempfile.TemporaryDirectory()
        path = os.path.join(tmp.name, "corpus.warc.gz")
    write_archive(pages, path)
    runs, missing = pipelines(path)
    # Every pipeline finds every page.
    counts = {name: len(fn()) for name, fn in runs}
    assert set(counts.values()) == {len(pages)}, counts
    times, cpu = {}, {}
    for _ in range(args.rounds):
        for name, fn in runs:
            c0, t0 = process_cpu(), time.perf_counter()
            fn()
            times.setdefault(name, []).append(time.perf_counter() - t0)
            cpu.setdefault(name, []).append(process_cpu() - c0)
    base = runs[0][0]
    print(
        f"{len(pages)} pages, {size / 1e6:.1f} MB of pages, archive {os.path.getsize(path) / 1e6:.1f} MB, "
        f"{args.rounds} rounds (MB/s of pages: the best round)"
    )
    if missing:
        print("not installed:", ", ".join(missing))
    if args.markdown:
        print(f"\n| pipeline | MB/s | cores used | {base} ÷ this | spread |\n|---|---:|---:|---:|---:|")
    for name, _fn in runs:
        r = sorted(a / b for a, b in zip(times[base], times[name]))
        share = statistics.median(c / t for c, t in zip(cpu[name], times[name]))
        mbs = size / 1e6 / min(times[name])
        if args.markdown:
            print(f"| {name} | {mbs:.0f} | {share:.2f} | {statistics.median(r):.2f} | {r[0]:.2f}–{r[-1]:.2f} |")
        else:
            print(f"{name:45} {mbs:7.0f} MB/s  {share:4.2f} cores  {statistics.median(r):5.2f} ({r[0]:.2f}–{r[-1]:.2f})")
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
