"""The type stub ``htmltok/_htmltok.pyi`` says what the compiled module
has: every public name, every class's public attributes and methods, every
function's parameters, no more and no less."""

import ast
import inspect
import os

import htmltok
from htmltok import _htmltok

STUB = os.path.join(os.path.dirname(htmltok.__file__), "_htmltok.pyi")


def stub():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read())


def public(names):
    return {n for n in names if not n.startswith("_") or n == "__version__"}


def stub_names(tree):
    """Top-level names the stub gives the module (type aliases it defines
    for itself, spelled with a capital and assigned, are not the module's)."""
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out.setdefault(node.name, node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def test_every_public_name_is_in_the_stub_and_back():
    names = stub_names(stub())
    assert set(names) == public(dir(_htmltok))
    # The package re-exports all of them.
    assert public(dir(_htmltok)) <= set(htmltok.__all__)


def test_classes_members():
    for name, node in stub_names(stub()).items():
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(_htmltok, name)
        stubbed = {
            n.name for n in node.body if isinstance(n, ast.FunctionDef)
        } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        stubbed = {n for n in stubbed if not n.startswith("_") or n in ("__init__",)}
        stubbed.discard("__init__")
        # Exceptions and warnings have the members of their bases.
        if issubclass(cls, BaseException):
            assert stubbed == set(), name
            continue
        actual = {n for n in vars(cls) if not n.startswith("_")}
        assert stubbed == actual, name


def params(node):
    a = node.args
    return (
        [p.arg for p in a.posonlyargs + a.args if p.arg != "self"],
        [p.arg for p in a.kwonlyargs],
    )


def test_function_parameters():
    for name, node in stub_names(stub()).items():
        if not isinstance(node, ast.FunctionDef):
            continue
        fn = getattr(_htmltok, name)
        sig = inspect.signature(fn)
        positional = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        keyword = [p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY]
        assert params(node) == (positional, keyword), name


def test_constructors():
    for name, node in stub_names(stub()).items():
        if not isinstance(node, ast.ClassDef):
            continue
        init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        cls = getattr(_htmltok, name)
        if init is None:
            continue
        sig = inspect.signature(cls)
        assert params(init)[0] + params(init)[1] == list(sig.parameters), name
