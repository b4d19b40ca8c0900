"""htmltok against selectolax (lexbor), Resiliparse and turbohtml, in one process.

    python python/bench/compare.py DIR [--rounds 3] [--markdown]

Reads every ``*.html``/``*.htm`` file under DIR as bytes and runs each task
over all pages, ``--rounds`` times, keeping each engine's best round. The
rounds interleave the engines (one round of every engine, then the next),
so a busy machine slows them alike; ratios are taken within this one run.

Tasks, the same work for every engine:

- tokens: one Python object per token, from a ``str`` (turbohtml's
  ``tokenize`` takes only ``str``): ``list(turbohtml.tokenize(s))`` against
  ``htmltok.tokenize(s)``; and ``htmltok.token_table(s)`` (records in bytes,
  no object per token). Two more rows show where a ``str``'s time goes:
  ``token_table`` of the page's bytes, and ``str.encode("utf-8")`` alone
  (which htmltok does first: it tokenizes UTF-8).
- text: bytes in, the page's text out as a ``str`` (each engine's own
  rules): ``htmltok.text(b).text``; selectolax ``LexborHTMLParser(b).body.text()``;
  Resiliparse ``extract_plain_text(HTMLTree.parse_from_bytes(b))``;
  turbohtml ``parse(b).text``.
- links: bytes in, every ``a[href]`` value out: selectolax
  ``[a.attributes["href"] for a in tree.css("a[href]")]``, turbohtml
  ``select("a[href]")`` (not Resiliparse: iterating its node collections
  is quadratic, see below);
  ``[l.raw for l in htmltok.links(b)]`` does more (every URL-bearing
  attribute, not only ``a[href]``; absolute URLs parsed by the WHATWG URL
  Standard).
- text_many: ``htmltok.text_many(pages, threads=n)`` for n = 1 and 2.

An engine that is not installed is left out with a note.
"""

import argparse
import os
import sys
import time


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
        # Each engine's strings are made into Python objects: htmltok's
        # Page and Link make theirs when an attribute is read.
        ("text", "htmltok.text", lambda: [htmltok.text(b).text for b in pages]),
        ("links", "htmltok.links", lambda: [[l.raw for l in htmltok.links(b)] for b in pages]),
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
            return [
                [a.attributes["href"] for a in LexborHTMLParser(b).css("a[href]")] for b in pages
            ]

        out += [("text", "selectolax", sl_text), ("links", "selectolax", sl_links)]
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
            return [[a.attrs["href"] for a in turbohtml.parse(b).select("a[href]")] for b in pages]

        out += [
            ("tokens", "turbohtml.tokenize", lambda: [list(turbohtml.tokenize(s)) for s in texts]),
            ("text", "turbohtml", lambda: [turbohtml.parse(b).text for b in pages]),
            ("links", "turbohtml", th_links),
        ]
    except ImportError:
        missing.append("turbohtml")
    return out, missing


# The targets of issue 24: (task, engine, baseline, factor).
TARGETS = [
    ("text", "htmltok.text", "selectolax", 2.0),
    ("links", "htmltok.links", "selectolax", 2.0),
    ("tokens", "htmltok.tokenize", "turbohtml.tokenize", 1.0),
    ("tokens", "htmltok.token_table", "turbohtml.tokenize", 3.0),
    ("text_many", "htmltok.text_many 2 threads", "htmltok.text_many 1 thread", 1.7),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = ap.parse_args()
    pages = load(args.dir)
    size = sum(map(len, pages))
    runs, missing = engines(pages)
    best = {}
    for _ in range(args.rounds):
        for task, name, fn in runs:
            t0 = time.perf_counter()
            fn()
            dt = time.perf_counter() - t0
            best[task, name] = min(best.get((task, name), dt), dt)
    mbs = {key: size / 1e6 / dt for key, dt in best.items()}
    print(f"{len(pages)} pages, {size / 1e6:.1f} MB, best of {args.rounds} rounds")
    if missing:
        print("not installed:", ", ".join(missing))
    # The ratio column: the task's first htmltok entry over this engine
    # (for text_many, 2 threads over 1 is in the targets below).
    if args.markdown:
        print("\n| task | engine | MB/s | htmltok's first ÷ this |\n|---|---|---:|---:|")
    for task in ["tokens", "text", "links", "text_many"]:
        ours = next(n for t, n, _ in runs if t == task)
        for t, name, _ in runs:
            if t != task:
                continue
            speed = mbs[task, name]
            ratio = mbs[task, ours] / speed
            if args.markdown:
                print(f"| {task} | {name} | {speed:.0f} | {ratio:.2f} |")
            else:
                print(f"{task:10} {name:30} {speed:8.0f} MB/s   {ratio:5.2f}")
    print("\ntargets:")
    for task, ours, base, factor in TARGETS:
        if (task, ours) in mbs and (task, base) in mbs:
            ratio = mbs[task, ours] / mbs[task, base]
            ok = "met" if ratio >= factor else "NOT met"
            print(f"- {ours} / {base} = {ratio:.2f} (target >= {factor}): {ok}")
        else:
            print(f"- {ours} / {base}: not measured ({base} missing)")


if __name__ == "__main__":
    main()
