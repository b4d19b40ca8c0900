"""Main-content extractors side by side on trafilatura's evaluation corpus.

    python python/bench/main_content.py --data DIR [--limit N] [--only SUBSTRING]
        [--extractors NAME,...] [--skip NAME,...] [--misses NAME]

DIR is the ``tests/`` folder of a trafilatura checkout, which holds the
corpus (``evaldata.json`` and the pages in ``eval/`` and ``cache/``)::

    git clone --depth 1 https://github.com/adbar/trafilatura /tmp/trafilatura
    python -m venv /tmp/venv && /tmp/venv/bin/pip install ./python \\
        trafilatura resiliparse readability-lxml lxml_html_clean
    /tmp/venv/bin/python python/bench/main_content.py --data /tmp/trafilatura/tests

The data stays out of this repository; ``corpus/main-content/`` is a small
sample of it in the same layout (``--data corpus/main-content``).

Scoring is the corpus's own (trafilatura's ``tests/eval_common.py``): each
page lists snippets its main content holds (``with``) and boilerplate it
must not (``without``); the extractor's text and the snippets have their
whitespace collapsed, a ``with`` snippet found in the text is a true
positive (else a false negative), a ``without`` one found a false positive
(else a true negative); the counts are summed over all pages and
precision, recall and F1 computed from the sums. A page whose extraction
raised scores as an empty text (every ``with`` snippet missed) and is
counted in the ``raised`` column. ``cargo xtask main-content-eval`` scores
htmltok's Rust API by the same rules.

One run, one thread, every extractor from the page's bytes as read from
disk, each decoding them by its own rules; pages are visited in URL order
and each page goes through every extractor in turn, so that a busy machine
slows all of them alike. pages/s is the number of pages over the CPU time
(``time.process_time``) spent inside the extractor's calls, decoding and
getting the text included, scoring excluded. Each extractor runs once on a
small page before timing starts (imports and one-time set-up are not
counted).

Extractors (``--extractors`` picks, ``--skip`` drops):

- ``htmltok``: ``htmltok.text(b, main=True).text`` (the encoding sniffed as
  a browser does). Left out with a note when the installed htmltok has no
  ``main=``.
- ``trafilatura``: ``trafilatura.extract(b, include_comments=False,
  include_tables=True)``, as trafilatura's own evaluation runs it
  (fallback extractors on, the library's default).
- ``trafilatura-precision``: the same with ``favor_precision=True``, the
  setting of FineWeb.
- ``resiliparse``: ``extract_plain_text(tree, main_content=True)``, the
  tree parsed from the bytes decoded with Resiliparse's own
  ``detect_encoding``, as trafilatura's evaluation does.
- ``readability``: readability-lxml's ``Document(b).summary()`` given the
  bytes, so that it decodes them by its own rules (a declared charset, else
  ``chardet``), and the summary's text read with lxml, a line break around
  each block element (trafilatura's evaluation scores the summary's HTML
  markup itself, which costs readability every snippet that spans a tag).

``--misses NAME`` prints, for that extractor, each page's missed ``with``
snippets and found ``without`` ones.
"""

import argparse
import json
import os
import platform
import re
import sys
import time
from importlib.metadata import PackageNotFoundError, version

#: The page every extractor runs on once before timing.
WARM_UP = b"<html><head><title>t</title></head><body><article><p>Some text of a paragraph, long enough to keep.</p></article></body></html>"

SPACE = re.compile(r"\s+")


def normalize(text):
    """Whitespace runs as one space, ends trimmed: how texts and snippets are compared."""
    return SPACE.sub(" ", text).strip()


def score(item, text):
    """(tp, fp, fn, tn, missed, found) of one page's text (None: nothing extracted)."""
    text = normalize(text) if isinstance(text, str) else None
    missed = [w for w in item["with"] if text is None or normalize(w) not in text]
    found = [w for w in item["without"] if text is not None and normalize(w) in text]
    tp = len(item["with"]) - len(missed)
    tn = len(item["without"]) - len(found)
    return tp, len(found), len(missed), tn, missed, found


def load(data, limit=None, only=None):
    """[(url, item, path, bytes)] of the corpus in ``data``, in URL order."""
    with open(os.path.join(data, "evaldata.json"), encoding="utf-8") as f:
        evaldata = json.load(f)
    pages = []
    for url in sorted(evaldata):
        item = evaldata[url]
        if only and only not in url and only not in item["file"]:
            continue
        path = next(
            (p for p in (os.path.join(data, sub, item["file"]) for sub in ("cache", "eval")) if os.path.isfile(p)),
            None,
        )
        if path is None:
            sys.exit(f"{url}: page not found: {item['file']} (in {data}/cache or {data}/eval)")
        with open(path, "rb") as f:
            pages.append((url, item, path, f.read()))
        if limit is not None and len(pages) >= limit:
            break
    return pages


# ---------------------------------------------------------------------------
# The extractors: each takes the page's bytes and returns its text.


def make_htmltok():
    import htmltok

    return lambda b: htmltok.text(b, main=True).text


def make_trafilatura(**extra):
    def make():
        from trafilatura import extract

        return lambda b: extract(b, include_comments=False, include_tables=True, **extra)

    return make


def make_resiliparse():
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree

    def run(b):
        tree = HTMLTree.parse(bytes_to_str(b, detect_encoding(b)))
        return extract_plain_text(tree, main_content=True)

    return run


#: The elements that readability's summary may hold which end a line.
BLOCKS = frozenset(
    "address article aside blockquote br dd details div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul".split()
)


def block_text(root):
    """The text of an lxml tree, a line break around each block element."""
    parts = []

    def walk(el):
        tag = el.tag if isinstance(el.tag, str) else ""
        block = tag in BLOCKS
        if block:
            parts.append("\n")
        if tag and el.text:
            parts.append(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n")
        if el.tail:
            parts.append(el.tail)

    walk(root)
    return "".join(parts)


def make_readability():
    import lxml.html
    from readability import Document

    def run(b):
        return block_text(lxml.html.fromstring(Document(b).summary()))

    return run


#: name -> (PyPI package for the version, maker of the function).
EXTRACTORS = {
    "htmltok": ("htmltok", make_htmltok),
    "trafilatura": ("trafilatura", make_trafilatura()),
    "trafilatura-precision": ("trafilatura", make_trafilatura(favor_precision=True)),
    "resiliparse": ("resiliparse", make_resiliparse),
    "readability": ("readability-lxml", make_readability),
}


def prepare(names):
    """{name: (version, function)} for the extractors that import and run."""
    ready = {}
    for name in names:
        package, make = EXTRACTORS[name]
        try:
            fn = make()
            fn(WARM_UP)
        except ImportError as err:
            print(f"skipping {name}: {package} is not installed ({err})")
            continue
        except TypeError as err:
            print(f"skipping {name}: this {package} lacks the call ({err})")
            continue
        try:
            ver = version(package)
        except PackageNotFoundError:
            ver = "?"
        ready[name] = (ver, fn)
    return ready


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="trafilatura's tests/ folder (or corpus/main-content)")
    parser.add_argument("--limit", type=int, help="the first N pages (in URL order) only")
    parser.add_argument("--only", help="the pages whose URL or file name contains this")
    parser.add_argument("--extractors", help="comma-separated names (default: all): " + ",".join(EXTRACTORS))
    parser.add_argument("--skip", default="", help="comma-separated names to leave out")
    parser.add_argument("--misses", metavar="NAME", help="print this extractor's misses per page")
    args = parser.parse_args()

    names = args.extractors.split(",") if args.extractors else list(EXTRACTORS)
    skip = {s for s in args.skip.split(",") if s}
    unknown = [n for n in names + sorted(skip) if n not in EXTRACTORS]
    if unknown:
        parser.error(f"unknown extractor(s) {unknown}; known: {', '.join(EXTRACTORS)}")
    pages = load(args.data, args.limit, args.only)
    ready = prepare([n for n in names if n not in skip])
    if not ready:
        sys.exit("no extractor to run")

    # name -> [tp, fp, fn, tn, cpu seconds, raised]
    totals = {name: [0, 0, 0, 0, 0.0, 0] for name in ready}
    first_error = {}
    clock = time.process_time
    for url, item, path, b in pages:
        for name, (_, fn) in ready.items():
            total = totals[name]
            start = clock()
            try:
                text = fn(b)
            except Exception as err:  # a failure is a page with nothing, as in production
                text = None
                total[5] += 1
                first_error.setdefault(name, f"{os.path.basename(path)}: {type(err).__name__}: {err}")
            total[4] += clock() - start
            tp, fp, fn_, tn, missed, found = score(item, text)
            for i, n in enumerate((tp, fp, fn_, tn)):
                total[i] += n
            if name == args.misses and (missed or found):
                print(f"{path}  {url}")
                for s in missed:
                    print(f"  missed: {s}")
                for s in found:
                    print(f"  found:  {s}")

    for name, message in first_error.items():
        print(f"{name}: first error: {message}")
    size = sum(len(p[3]) for p in pages)
    print(
        f"\n{len(pages)} pages ({size / 1e6:.1f} MB) from {args.data}; "
        f"Python {platform.python_version()}, one thread, CPU time\n"
    )
    print("| extractor | version | F1 | precision | recall | pages/s | raised |")
    print("|---|---|---|---|---|---|---|")
    for name, (tp, fp, fn_, tn, seconds, raised) in totals.items():
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn_) if tp + fn_ else 0.0
        f1 = 2 * tp / (2 * tp + fp + fn_) if tp else 0.0
        rate = len(pages) / seconds if seconds else float("inf")
        print(
            f"| {name} | {ready[name][0]} | {f1:.3f} | {precision:.3f} | {recall:.3f} | {rate:.1f} | {raised} |"
        )


if __name__ == "__main__":
    main()
