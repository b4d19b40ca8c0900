"""htmltok against selectolax (lexbor), Resiliparse and turbohtml, in one process.

    python python/bench/compare.py DIR [--rounds 3] [--markdown]

Reads every ``*.html``/``*.htm`` file under DIR as bytes and runs each task
over all pages, ``--rounds`` times. A round runs every engine once, back to
back; a ratio is taken within each round (a busy machine slows both sides
alike) and the median over the rounds is reported, with each engine's best
round as MB/s for information.

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
import statistics
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
    ap.add_argument("--only", choices=["tokens", "text", "links", "text_many"], help="run one task")
    args = ap.parse_args()
    pages = load(args.dir)
    size = sum(map(len, pages))
    runs, missing = engines(pages)
    if args.only:
        runs = [r for r in runs if r[0] == args.only]
    times = {}  # (task, engine) -> seconds of each round
    cpu = {}  # (task, engine) -> CPU seconds of this process in each round
    for _ in range(args.rounds):
        for task, name, fn in runs:
            c0, t0 = process_cpu(), time.perf_counter()
            fn()
            times.setdefault((task, name), []).append(time.perf_counter() - t0)
            cpu.setdefault((task, name), []).append(process_cpu() - c0)
    mbs = {key: size / 1e6 / min(ts) for key, ts in times.items()}

    def ratio(task, ours, other):
        """The median over rounds of other's time over ours, each round's
        two times taken back to back: a busy machine moves both alike."""
        per_round = sorted(b / a for a, b in zip(times[task, ours], times[task, other]))
        return statistics.median(per_round)

    print(f"{len(pages)} pages, {size / 1e6:.1f} MB, {args.rounds} rounds (MB/s: the best round)")
    if missing:
        print("not installed:", ", ".join(missing))
    # The ratio column: the task's first htmltok entry against this engine,
    # the median of the rounds' ratios.
    if args.markdown:
        print("\n| task | engine | MB/s | htmltok's first ÷ this |\n|---|---|---:|---:|")
    for task in sorted({t for t, _, _ in runs}, key=["tokens", "text", "links", "text_many"].index):
        ours = next(n for t, n, _ in runs if t == task)
        for t, name, _ in runs:
            if t != task:
                continue
            r = ratio(task, ours, name)
            if args.markdown:
                print(f"| {task} | {name} | {mbs[task, name]:.0f} | {r:.2f} |")
            else:
                print(f"{task:10} {name:32} {mbs[task, name]:8.0f} MB/s   {r:5.2f}")
    # On a shared machine two threads get two cores only when nobody else
    # wants them: the CPU time this process got says how many it had.
    for name in ("htmltok.text_many 1 thread", "htmltok.text_many 2 threads"):
        key = ("text_many", name)
        if key not in times:
            continue
        share = statistics.median(c / t for c, t in zip(cpu[key], times[key]))
        print(f"{name}: this process had {share:.2f} cores (CPU time / wall time, median)")
    print("\ntargets (median of the rounds' ratios):")
    for task, ours, base, factor in TARGETS:
        if (task, ours) in times and (task, base) in times:
            r = ratio(task, ours, base)
            ok = "met" if r >= factor else "NOT met"
            print(f"- {ours} / {base} = {r:.2f} (target >= {factor}): {ok}")
        else:
            print(f"- {ours} / {base}: not measured")


if __name__ == "__main__":
    main()
