"""htmltok in a child process made by ``fork`` (multiprocessing's default
start method on Linux before Python 3.14; datatrove's and many pipelines'
worker pools) after the parent has used it: a fork copies the process but
not its threads, so nothing may wait for a thread made before the fork."""

import multiprocessing
import queue as queues
import sys

import pytest

import htmltok

PAGES = [b"<title>%d</title><p>page %d <a href=/x%d>x</a>" % (i, i, i) for i in range(200)]


def batches(threads, queue):
    texts = htmltok.text_many(PAGES, threads=threads)
    found = htmltok.links_many([(p, "https://example.com/") for p in PAGES], threads=threads)
    queue.put(([p.text for p in texts], [[l.url for l in ls] for ls in found]))


@pytest.mark.skipif(sys.platform == "win32", reason="no fork")
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_batches_in_a_child_made_by_fork(threads):
    # The parent's pools exist before the fork (their threads do not go
    # with it).
    expected = ([p.text for p in htmltok.text_many(PAGES, threads=threads)],
                [[l.url for l in ls] for ls in htmltok.links_many([(p, "https://example.com/") for p in PAGES], threads=threads)])
    assert expected[0][7] == "page 7 x" and expected[1][7] == ["https://example.com/x7"]
    fork = multiprocessing.get_context("fork")
    queue = fork.Queue()
    child = fork.Process(target=batches, args=(threads, queue))
    child.start()
    try:
        got = queue.get(timeout=30)
    except queues.Empty:
        got = None
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
    assert got is not None, f"text_many/links_many(threads={threads}) hung in a child made by fork"
    assert child.exitcode == 0 and got == expected
    # And the parent's pools still serve the parent.
    assert [p.text for p in htmltok.text_many(PAGES, threads=threads)] == expected[0]
