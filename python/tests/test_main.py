"""Main content through the package: ``text(page, main=True)`` and its
options in ``text``, ``text_many``, over ``warc_pages`` and in the datatrove
extractor, on the repository's hand-made pages (``corpus/main/``); what a
reader calls each page's content is kept and its boilerplate left out (the
library's tests, ``tests/api/main_content.rs``, hold the pages to more)."""

import gzip
import json
import os

import pytest

import archives
import htmltok
from conftest import REPO

MAIN_DIR = os.path.join(REPO, "corpus", "main")


def page(name):
    with open(os.path.join(MAIN_DIR, name), "rb") as f:
        return f.read()


def names():
    found = sorted(n for n in os.listdir(MAIN_DIR) if n.endswith(".html"))
    assert len(found) >= 6, found
    return found


# A sentence of each page's content, and one of its boilerplate.
READER = {
    "article-sidebar.html": ("Rinse the skillet and dry it immediately with a towel", "Join twelve thousand readers"),
    "main-no-article.html": ("We cannot take building rubble", "We use some essential cookies"),
    "comments.html": ("Leggy seedlings are stretching towards light.", "Burying the stem saved my whole crop last year."),
    "chinese-news.html": ("据滨江轨道交通集团介绍，开通初期", "热门新闻排行"),
    "japanese-blog.html": ("夏は冷蔵庫の野菜室に移すと、漬かりすぎを防げます。", "会社員をしながら"),
    "table-code.html": ("A filter is a Python function that receives each URL", "Monitoring and metrics"),
    "listing.html": ("Volunteers recorded twice as many bee species", "We and our partners store"),
}

OPTIONS = [
    {},
    {"comments": True},
    {"markdown": True},
    {"markdown": True, "links": True},
    {"comments": True, "markdown": True, "links": True},
]


def test_main_is_the_same_in_every_call():
    bodies = [page(n) for n in names()]
    for options in OPTIONS:
        one = [htmltok.text(b, main=True, **options) for b in bodies]
        assert htmltok.text_many(bodies, main=True, **options) == one
        assert htmltok.text_many(bodies, main=True, threads=1, **options) == one
        # A str gives the same text; its encoding is None.
        for body, got in zip(bodies, one):
            from_str = htmltok.text(body.decode("utf-8"), main=True, **options)
            assert (from_str.title, from_str.text) == (got.title, got.text)
    for body in bodies:
        all_text = htmltok.text(body, url="https://site.example/p")
        main = htmltok.text(body, url="https://site.example/p", main=True)
        # The title, encoding, rule and URL are those of the page.
        assert (main.title, main.encoding, main.rule, main.url) == (all_text.title, all_text.encoding, all_text.rule, all_text.url)
        # Without main=True (or with main=False): all the text, as always.
        assert htmltok.text(body, main=False) == htmltok.text(body)
        assert htmltok.text_many([body], main=False) == htmltok.text_many([body])


def test_main_over_warc_pages():
    records = [
        archives.response(b"https://site.example/" + n.encode(), archives.http(page(n), [(b"Content-Type", b"text/html; charset=utf-8")]))
        for n in names()
    ]
    pages = list(htmltok.warc_pages(archives.gz_members(records)))
    assert len(pages) == len(names())
    for options in OPTIONS:
        got = htmltok.text_many(pages, main=True, **options)
        for archived, main in zip(pages, got):
            want = htmltok.text(archived.body, content_type=archived.content_type, url=archived.url, main=True, **options)
            assert main == want
            assert htmltok.text(archived, main=True, **options) == want


def test_options_of_the_main_content_need_it():
    for call in (
        lambda **kw: htmltok.text("<p>x", **kw),
        lambda **kw: htmltok.text_many(["<p>x"], **kw),
    ):
        with pytest.raises(ValueError, match=r"comments=True .*main=True"):
            call(comments=True)
        with pytest.raises(ValueError, match=r"markdown=True .*main=True"):
            call(markdown=True)
        with pytest.raises(ValueError, match="markdown=True"):
            call(links=True)
        with pytest.raises(ValueError, match="markdown=True"):
            call(main=True, links=True)
        for name in ("main", "comments", "markdown", "links"):
            with pytest.raises(TypeError, match=f"{name} must be bool, not int"):
                call(**{name: 1})
    # The options are checked before the page: a bad one with a bad page.
    with pytest.raises(ValueError, match="main=True"):
        htmltok.text(b"\x00binary", comments=True)


def test_main_keeps_what_a_reader_reads():
    for name, (content, boilerplate) in READER.items():
        text = htmltok.text(page(name), main=True).text
        assert content in text, (name, text)
        assert boilerplate not in text, (name, text)
    with_comments = htmltok.text(page("comments.html"), main=True, comments=True).text
    assert "Burying the stem saved my whole crop last year." in with_comments
    assert "Your email address will not be published" not in with_comments
    md = htmltok.text(page("table-code.html"), main=True, markdown=True).text
    lines = md.splitlines()
    assert any(line.startswith("## Installation") for line in lines), md
    assert any(line.startswith("```") for line in lines), md
    assert any(line.startswith("| Option |") for line in lines), md
    linked = htmltok.text(page("table-code.html"), main=True, markdown=True, links=True).text
    assert "[the politeness guide](../robots/)" in linked, linked


def run_extractor(tmp_path, extractor, docs):
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import JsonlReader
    from datatrove.pipeline.writers import JsonlWriter

    (tmp_path / "in").mkdir()
    with open(tmp_path / "in" / "docs.jsonl", "w") as f:
        for doc_id, html in docs:
            f.write(json.dumps({"id": doc_id, "text": html}) + "\n")
    LocalPipelineExecutor(
        pipeline=[JsonlReader(str(tmp_path / "in")), extractor, JsonlWriter(str(tmp_path / "out"), compression="gzip")],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    out = {}
    for path in (tmp_path / "out").glob("*.jsonl.gz"):
        with gzip.open(path, "rt") as f:
            for line in f:
                doc = json.loads(line)
                out[doc["id"]] = doc["text"]
    return out


def test_datatrove_extractor_with_main_content(tmp_path):
    from htmltok.datatrove import Extractor

    docs = [(n, page(n).decode("utf-8")) for n in ("article-sidebar.html", "chinese-news.html", "table-code.html")]
    out = run_extractor(tmp_path, Extractor(main=True, markdown=True, title=True), docs)
    # The extractor is htmltok.text with its options, the title first.
    for doc_id, html in docs:
        main = htmltok.text(html, main=True, markdown=True)
        assert out[doc_id] == main.title + "\n" + main.text
    # And that text is the content.
    for doc_id, _html in docs:
        content, boilerplate = READER[doc_id]
        assert content in out[doc_id] and boilerplate not in out[doc_id], out[doc_id]


def test_datatrove_extractor_options():
    from htmltok.datatrove import Extractor

    # The default is all the text, as it always was.
    html = page("article-sidebar.html").decode("utf-8")
    assert Extractor().extract(html) == htmltok.text(html).text
    assert Extractor(main=True, comments=True).extract(html) == htmltok.text(html, main=True, comments=True).text
    # Wrong options fail when the extractor is made.
    with pytest.raises(ValueError, match="main=True"):
        Extractor(comments=True)
    with pytest.raises(ValueError, match="markdown=True"):
        Extractor(main=True, links=True)
