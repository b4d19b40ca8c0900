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


def test_package_readme_examples(tmp_path, monkeypatch):
    """Every ``python`` block of python/README.md runs, warnings as errors,
    in a directory holding the crawl.warc.gz its FastWARC block reads."""
    import os
    import re

    import archives
    from conftest import REPO

    with open(os.path.join(REPO, "python", "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) >= 5
    data, _pages = archives.crawl()
    (tmp_path / "crawl.warc.gz").write_bytes(data)
    monkeypatch.chdir(tmp_path)
    for i, block in enumerate(blocks):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            exec(compile(block, f"python/README.md block {i + 1}", "exec"), {"htmltok": htmltok})
