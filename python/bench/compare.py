"""htmltok against selectolax (lexbor), Resiliparse and turbohtml, in one process.

    python python/bench/compare.py DIR [--rounds 3] [--markdown] [--only TASK]

Reads every ``*.html``/``*.htm`` file under DIR as bytes and runs each task
over all pages, ``--rounds`` times. A round runs every engine once, back to
back; a ratio is taken within each round (a busy machine slows both sides
alike) and the median over the rounds is reported with the smallest and
largest round's ratio (the spread), and each engine's best round as MB/s
for information.

Tasks, the same work for every engine:

- tokens: one Python object per token, from a ``str`` (turbohtml's
  ``tokenize`` takes only ``str``): ``list(turbohtml.tokenize(s))`` against
  ``htmltok.tokenize(s)``; and ``htmltok.token_table(s)`` (records in bytes,
  no object per token). Two more rows show where a ``str``'s time goes:
  ``token_table`` of the page's bytes, and ``str.encode("utf-8")`` alone
  (which htmltok does first: it tokenizes UTF-8).
- iterate: the same tokens walked with a ``for`` loop and dropped as it
  goes (``for t in tokenize(s): pass``): turbohtml's ``tokenize`` is a
  generator, htmltok's a list made whole first.
- fields: the tokens made and every field a token has read once (kind,
  name, attributes, text): htmltok's tokens make their strings when read,
  so this is the cost of a pipeline that looks at everything.
- text: bytes in, the page's text out as a ``str`` (each engine's own
  rules): ``htmltok.text(b).text``; selectolax ``LexborHTMLParser(b).body.text()``;
  Resiliparse ``extract_plain_text(HTMLTree.parse_from_bytes(b))``;
  turbohtml ``parse(b).text``.
- links: bytes in, every URL a page refers to out, resolved against the
  page's URL: ``htmltok.links(b, url=...)``'s URLs against the same
  attributes found by CSS selector in selectolax and turbohtml (``href``
  of ``a``/``area``/``link``, ``src``, ``srcset`` candidates, ``poster``,
  ``data``, ``action``, ``formaction``, ``cite``, a refresh's URL), each
  resolved with ``urllib.parse.urljoin`` against the page's ``<base
  href>`` or URL. (Not Resiliparse: iterating its node collections is
  quadratic, see below.) Rows marked "a[href] only" read just the
  ``a[href]`` values, unresolved: less work than htmltok's, for reference.
- text_many: ``htmltok.text_many(pages, threads=n)`` for n = 1 and 2.

An engine that is not installed is left out with a note.
"""

import argparse
import os
import statistics
import sys
import time
from urllib.parse import urljoin

#: The page URL links are resolved against.
PAGE_URL = "https://example.com/dir/page.html"

#: The URL-bearing attributes by tag (htmltok.extract's table).
URL_ATTRS = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "script": ("src",),
    "iframe": ("src",),
    "frame": ("src",),
    "embed": ("src",),
    "track": ("src",),
    "audio": ("src",),
    "video": ("src", "poster"),
    "object": ("data",),
    "form": ("action",),
    "button": ("formaction",),
    "input": ("formaction",),
    "blockquote": ("cite",),
    "q": ("cite",),
    "del": ("cite",),
    "ins": ("cite",),
}
SELECTOR = ",".join(f"{tag}[{attr}]" for tag, attrs in URL_ATTRS.items() for attr in attrs) + ",meta[http-equiv],base[href]"


def resolved_links(nodes):
    """The URLs of the elements ``nodes`` ((tag, attributes) in document
    order), resolved with urljoin against the first <base href> (itself
    against PAGE_URL) or PAGE_URL: the work htmltok.links does, in Python."""
    raw, base = [], None
    for tag, attrs in nodes:
        if tag == "base":
            if base is None and attrs.get("href") is not None:
                base = urljoin(PAGE_URL, attrs["href"])
            continue
        if tag == "meta":
            if (attrs.get("http-equiv") or "").lower() == "refresh" and attrs.get("content"):
                _, _, url = attrs["content"].partition("=")
                if url:
                    raw.append(url.strip().strip("'\""))
            continue
        for attr in URL_ATTRS.get(tag, ()):
            value = attrs.get(attr)
            if value is None:
                continue
            if attr == "srcset":
                raw += [c.split()[0] for c in value.split(",") if c.strip()]
            else:
                raw.append(value.strip())
    base = base or PAGE_URL
    out = []
    for r in raw:
        url = urljoin(base, r)
        if not url.startswith(("javascript:", "data:")):
            out.append(url)
    return out


def load(directory):
    pages = []
    for root, _dirs, files in os.walk(directory):
        for name in sorted(files):
            if name.endswith((".html", ".htm")):
                with open(os.path.join(root, name), "rb") as f:
                    pages.append(f.read())
    if not pages:
        sys.exit(f"no .html files under {directory}")
    return pages


def process_cpu():
    """User and system CPU seconds of this process, all threads."""
    t = os.times()
    return t.user + t.system


def engines(pages):
    """(task, engine, function over all pages) for every engine installed."""
    import htmltok

    texts = [p.decode("utf-8", "replace") for p in pages]
    out = [
        ("tokens", "htmltok.tokenize", lambda: [htmltok.tokenize(s) for s in texts]),
        ("tokens", "htmltok.token_table", lambda: [htmltok.token_table(s) for s in texts]),
        # Not the same input (turbohtml takes only str): how much of the
        # str rows is CPython encoding a str to UTF-8.
        ("tokens", "htmltok.token_table from bytes", lambda: [htmltok.token_table(b) for b in pages]),
        ("tokens", "str.encode('utf-8') alone", lambda: [s.encode("utf-8", "surrogatepass") for s in texts]),
        ("iterate", "htmltok.tokenize", lambda: [walk(htmltok.tokenize(s)) for s in texts]),
        ("fields", "htmltok.tokenize", lambda: [read_htmltok(htmltok.tokenize(s)) for s in texts]),
        # Each engine's strings are made into Python objects: htmltok's
        # Page and Link make theirs when an attribute is read.
        ("text", "htmltok.text", lambda: [htmltok.text(b).text for b in pages]),
        ("links", "htmltok.links", lambda: [[l.url for l in htmltok.links(b, url=PAGE_URL) if l.url] for b in pages]),
        ("text_many", "htmltok.text_many 1 thread", lambda: [p.text for p in htmltok.text_many(pages, threads=1)]),
        ("text_many", "htmltok.text_many 2 threads", lambda: [p.text for p in htmltok.text_many(pages, threads=2)]),
    ]
    missing = []
    try:
        from selectolax.lexbor import LexborHTMLParser

        def sl_text():
            out = []
            for b in pages:
                body = LexborHTMLParser(b).body
                out.append(body.text() if body is not None else "")
            return out

        def sl_links():
            return [resolved_links((n.tag, n.attributes) for n in LexborHTMLParser(b).css(SELECTOR)) for b in pages]

        def sl_hrefs():
            return [
                [a.attributes["href"] for a in LexborHTMLParser(b).css("a[href]")] for b in pages
            ]

        out += [
            ("text", "selectolax", sl_text),
            ("links", "selectolax", sl_links),
            ("links", "selectolax a[href] only", sl_hrefs),
        ]
    except ImportError:
        missing.append("selectolax")
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        def rp_text():
            return [extract_plain_text(HTMLTree.parse_from_bytes(b)) for b in pages]

        # No links task for Resiliparse: iterating a NodeCollection (from
        # query_selector_all or get_elements_by_tag_name) is quadratic in its
        # length here (21 s for the 1,848 links of one corpus page).
        out += [("text", "resiliparse", rp_text)]
    except ImportError:
        missing.append("resiliparse")
    try:
        import turbohtml

        def th_links():
            return [resolved_links((n.tag, n.attrs) for n in turbohtml.parse(b).select(SELECTOR)) for b in pages]

        def th_hrefs():
            return [[a.attrs["href"] for a in turbohtml.parse(b).select("a[href]")] for b in pages]

        def th_fields(tokens):
            for t in tokens:
                (t.type, t.tag, t.name, t.attrs, t.data)

        out += [
            ("tokens", "turbohtml.tokenize", lambda: [list(turbohtml.tokenize(s)) for s in texts]),
            ("iterate", "turbohtml.tokenize", lambda: [walk(turbohtml.tokenize(s)) for s in texts]),
            ("fields", "turbohtml.tokenize", lambda: [th_fields(list(turbohtml.tokenize(s))) for s in texts]),
            ("text", "turbohtml", lambda: [turbohtml.parse(b).text for b in pages]),
            ("links", "turbohtml", th_links),
            ("links", "turbohtml a[href] only", th_hrefs),
        ]
    except ImportError:
        missing.append("turbohtml")
    return out, missing


def walk(tokens):
    """Every token visited once, none kept."""
    for _t in tokens:
        pass


def read_htmltok(tokens):
    """Every field of every token read once."""
    for t in tokens:
        (t.kind, t.name, t.attrs, t.data)


# The speed targets, each against the fastest Python peer for its task:
# (task, engine, baseline, factor).
TARGETS = [
    ("tokens", "htmltok.tokenize", "turbohtml.tokenize", 1.0),
    ("links", "htmltok.links", "selectolax", 2.0),
    ("text", "htmltok.text", "selectolax", 3.0),
    ("text_many", "htmltok.text_many 2 threads", "htmltok.text_many 1 thread", 1.7),
]

TASKS = ["tokens", "iterate", "fields", "text", "links", "text_many"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--only", choices=TASKS, action="append", help="run this task (repeatable)")
    args = ap.parse_args()
    pages = load(args.dir)
    size = sum(map(len, pages))
    runs, missing = engines(pages)
    if args.only:
        runs = [r for r in runs if r[0] in args.only]
    times = {}  # (task, engine) -> seconds of each round
    cpu = {}  # (task, engine) -> CPU seconds of this process in each round
    for _ in range(args.rounds):
        for task, name, fn in runs:
            c0, t0 = process_cpu(), time.perf_counter()
            fn()
            times.setdefault((task, name), []).append(time.perf_counter() - t0)
            cpu.setdefault((task, name), []).append(process_cpu() - c0)
    mbs = {key: size / 1e6 / min(ts) for key, ts in times.items()}

    def ratios(task, ours, other):
        """Other's time over ours in each round, the two times taken back
        to back: a busy machine moves both alike."""
        return sorted(b / a for a, b in zip(times[task, ours], times[task, other]))

    def ratio(task, ours, other):
        """The median over the rounds."""
        return statistics.median(ratios(task, ours, other))

    def spread(task, ours, other):
        r = ratios(task, ours, other)
        return f"{r[0]:.2f}–{r[-1]:.2f}"

    print(f"{len(pages)} pages, {size / 1e6:.1f} MB, {args.rounds} rounds (MB/s: the best round)")
    if missing:
        print("not installed:", ", ".join(missing))
    # The ratio column: the task's first htmltok entry against this engine,
    # the median of the rounds' ratios.
    if args.markdown:
        print("\n| task | engine | MB/s | htmltok's first ÷ this | spread |\n|---|---|---:|---:|---:|")
    for task in sorted({t for t, _, _ in runs}, key=TASKS.index):
        ours = next(n for t, n, _ in runs if t == task)
        for t, name, _ in runs:
            if t != task:
                continue
            r = ratio(task, ours, name)
            if args.markdown:
                print(f"| {task} | {name} | {mbs[task, name]:.0f} | {r:.2f} | {spread(task, ours, name)} |")
            else:
                print(f"{task:10} {name:32} {mbs[task, name]:8.0f} MB/s   {r:5.2f}  ({spread(task, ours, name)})")
    # On a shared machine two threads get two cores only when nobody else
    # wants them: the CPU time this process got says how many it had.
    for name in ("htmltok.text_many 1 thread", "htmltok.text_many 2 threads"):
        key = ("text_many", name)
        if key not in times:
            continue
        share = statistics.median(c / t for c, t in zip(cpu[key], times[key]))
        print(f"{name}: this process had {share:.2f} cores (CPU time / wall time, median)")
    # The work the threads share: CPU time at 2 threads over 1 thread. Near
    # 1, the batch costs no more CPU split in two: its wall time halves
    # when two cores are free.
    one, two = ("text_many", "htmltok.text_many 1 thread"), ("text_many", "htmltok.text_many 2 threads")
    if one in cpu and two in cpu:
        r = sorted(b / a for a, b in zip(cpu[one], cpu[two]))
        print(f"text_many CPU time, 2 threads / 1 thread: {statistics.median(r):.2f} ({r[0]:.2f}–{r[-1]:.2f})")
    print("\ntargets (median of the rounds' ratios):")
    for task, ours, base, factor in TARGETS:
        if (task, ours) in times and (task, base) in times:
            r = ratio(task, ours, base)
            ok = "met" if r >= factor else "NOT met"
            print(f"- {ours} / {base} = {r:.2f}, rounds {spread(task, ours, base)} (target >= {factor}): {ok}")
        else:
            print(f"- {ours} / {base}: not measured")


if __name__ == "__main__":
    main()
