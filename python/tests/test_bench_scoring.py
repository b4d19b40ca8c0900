"""The scoring of python/bench/main_content.py (trafilatura's evaluation
rules), on hand-made annotations: the benchmark's numbers are only as good
as it."""

import json
import os
import sys

from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "python", "bench"))

import main_content  # noqa: E402


def item(with_, without):
    return {"file": "a.html", "with": with_, "without": without}


def test_each_snippet_counts_once():
    tp, fp, fn, tn, missed, found = main_content.score(
        item(["first paragraph", "second one", "absent"], ["Home", "Imprint"]),
        "first paragraph and second one\nHome Home",
    )
    assert (tp, fp, fn, tn) == (2, 1, 1, 1)
    assert missed == ["absent"] and found == ["Home"]


def test_whitespace_collapsed_on_both_sides():
    counts = main_content.score(item(["a  b\tc", "下 雨"], []), "\n x a\nb\u00a0c \u3000下\u3000\u3000雨  ")[:4]
    assert counts == (2, 0, 0, 0)
    # A join is not a space.
    assert main_content.score(item(["a b"], []), "ab")[:4] == (0, 0, 1, 0)


def test_case_and_punctuation_exact():
    assert main_content.score(item(["The Story."], ["home"]), "the story. Home")[:4] == (0, 0, 1, 1)


def test_nothing_misses_all_and_avoids_all():
    assert main_content.score(item(["x", "y"], ["z"]), None)[:4] == (0, 0, 2, 1)
    assert main_content.score(item(["x", "y"], ["z"]), "")[:4] == (0, 0, 2, 1)


def test_load_resolves_cache_before_eval(tmp_path):
    for sub in ("cache", "eval"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cache" / "both.html").write_bytes(b"cache")
    (tmp_path / "eval" / "both.html").write_bytes(b"eval")
    (tmp_path / "eval" / "only.html").write_bytes(b"only")
    data = {
        "https://b.example/": {"file": "only.html", "with": ["x"], "without": ["y"]},
        "https://a.example/": {"file": "both.html", "with": ["x"], "without": ["y"]},
    }
    (tmp_path / "evaldata.json").write_text(json.dumps(data))
    pages = main_content.load(str(tmp_path))
    assert [(url, body) for url, _, _, body in pages] == [
        ("https://a.example/", b"cache"),
        ("https://b.example/", b"only"),
    ]
    assert len(main_content.load(str(tmp_path), limit=1)) == 1
    assert [p[0] for p in main_content.load(str(tmp_path), only="only")] == ["https://b.example/"]
