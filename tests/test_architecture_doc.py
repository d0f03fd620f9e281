"""docs/architecture.md walks a card through the house naming ``file:function``: every one must exist, so
the walk can be followed in an editor (and a rename that forgets the map fails here)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
REF = re.compile(r"`([\w/]+\.(?:py|js)):([\w.]+)`")


def _defined(path: Path) -> set[str]:
    """Top-level functions and classes, and ``Class.method``, of a Python file; function names of a JS file."""
    if path.suffix == ".js":
        return set(re.findall(r"function (\w+)", path.read_text()))
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names.update(f"{node.name}.{n.name}" for n in node.body
                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return names


def test_every_named_function_exists() -> None:
    refs = REF.findall(DOC.read_text())
    assert len(refs) >= 20, "the walk names the functions it passes"
    missing = [f"{f}:{name}" for f, name in refs
               if not (ROOT / f).exists() or name not in _defined(ROOT / f)]
    assert not missing, f"docs/architecture.md names what does not exist: {missing}"


def test_the_check_sees_a_missing_name(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("class A:\n    def b(self):\n        pass\n\ndef c():\n    pass\n")
    assert _defined(f) == {"A", "A.b", "c"}
    assert "A.z" not in _defined(f)
