"""The examples in the package's docstrings run and hold, and every public
name has a docstring."""

import doctest
import inspect
import warnings

import htmltok
from htmltok import _htmltok


def public():
    for name in htmltok.__all__:
        obj = getattr(htmltok, name)
        if inspect.isroutine(obj) or inspect.isclass(obj):
            yield name, obj


def test_every_public_function_and_class_has_a_docstring():
    for name, obj in public():
        assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name


def test_docstring_examples():
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {name: getattr(htmltok, name) for name in htmltok.__all__}
    globs["htmltok"] = htmltok
    tests = finder.find(htmltok, "htmltok", globs=globs)
    for name, obj in public():
        tests += finder.find(obj, name, module=False, globs=globs)
    examples = sum(len(t.examples) for t in tests)
    assert examples >= 6, f"only {examples} docstring examples found"
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


def readmes():
    """Every README.md of the repository (its build and virtual
    environment directories apart), by path from its root."""
    import os

    from conftest import REPO

    out = []
    for root, dirs, files in os.walk(REPO):
        dirs[:] = sorted(d for d in dirs if d not in ("target", ".git", "node_modules") and not d.startswith(("venv", ".venv")))
        if "README.md" in files:
            out.append(os.path.relpath(os.path.join(root, "README.md"), REPO))
    return out


def test_readme_python_examples_run_as_written(tmp_path, monkeypatch):
    """Every ``python`` block of every README.md runs as a user pastes it:
    in a fresh namespace (a block imports what it uses), warnings as
    errors, in a directory holding the crawl.warc.gz the FastWARC block of
    python/README.md reads and the page.html of README.md's main-content
    block (one of the repository's hand-written pages)."""
    import os
    import re

    import archives
    from conftest import REPO

    blocks = []
    for readme in readmes():
        with open(os.path.join(REPO, readme), encoding="utf-8") as f:
            blocks += [(readme, i + 1, b) for i, b in enumerate(re.findall(r"```python\n(.*?)```", f.read(), re.S))]
    assert "python/README.md" in readmes()
    assert sum(1 for r, _, _ in blocks if r == "python/README.md") >= 5
    assert any(r == "README.md" for r, _, _ in blocks)
    data, _pages = archives.crawl()
    (tmp_path / "crawl.warc.gz").write_bytes(data)
    with open(os.path.join(REPO, "corpus", "main", "article-sidebar.html"), "rb") as f:
        (tmp_path / "page.html").write_bytes(f.read())
    monkeypatch.chdir(tmp_path)
    for readme, i, block in blocks:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            exec(compile(block, f"{readme} block {i}", "exec"), {"__name__": "__readme__"})
