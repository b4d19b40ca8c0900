"""The GIL is released while htmltok works: another Python thread runs
meanwhile."""

import threading
import time

import htmltok


def big_page():
    # About 24 MB: long enough (tens of milliseconds or more) that a held GIL
    # would stop the other thread for all of it.
    row = b"<tr><td class=c>cell &amp; text</td><td><a href='/x?a=1&amp;b=2'>link</a></td></tr>\n"
    return b"<title>big</title><table>" + row * 300_000 + b"</table>"


def longest_pause_during(call):
    """Runs ``call`` in a thread while this thread counts loop turns, and
    returns (the call's duration, the longest gap between two turns of this
    thread while the call ran)."""
    window = {}
    started = threading.Event()

    def worker():
        started.set()
        window["start"] = time.perf_counter()
        call()
        window["end"] = time.perf_counter()

    stamps = []
    thread = threading.Thread(target=worker)
    thread.start()
    started.wait()
    while thread.is_alive():
        stamps.append(time.perf_counter())
    thread.join()
    stamps = [t for t in stamps if window["start"] <= t <= window["end"]]
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    return window["end"] - window["start"], max(gaps, default=window["end"] - window["start"]), len(stamps)


def test_other_threads_run_while_htmltok_works():
    page = big_page()
    for name, call in [
        ("text", lambda: htmltok.text(page)),
        ("links", lambda: htmltok.links(page, base_url="https://example.com/")),
        ("token_table", lambda: htmltok.token_table(page)),
        ("text_many", lambda: htmltok.text_many([page, page], threads=2)),
    ]:
        duration, pause, turns = longest_pause_during(call)
        # With the GIL held through the call, this thread would stand still
        # for all of it (one gap as long as the call, a handful of turns).
        # Released, it keeps turning; what is left is the short GIL-holding
        # parts (argument checks, making the result objects) and the
        # interpreter's 5 ms switch interval.
        assert turns > 100, f"{name}: only {turns} loop turns in {duration:.3f} s"
        assert pause < 0.5 * duration, f"{name}: this thread stopped {pause:.3f} s of {duration:.3f} s"
