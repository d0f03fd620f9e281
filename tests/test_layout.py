"""The house's one-way imports (STYLE.md): checked on the source text of every module."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_LAWS = {"serial", "cv2", "gpiozero", "RPi", "lgpio", "threading", "time", "sqlite3",
                     "socket", "subprocess", "asyncio", "random", "os", "io", "pathlib", "datetime",
                     "firmware_host", "vision", "numpy"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules(pkg: str) -> list[Path]:
    return sorted((ROOT / pkg).rglob("*.py"))


def test_laws_is_pure() -> None:
    for path in _modules("laws"):
        bad = _imports(path) & FORBIDDEN_IN_LAWS
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: laws/ must stay pure"


def test_vision_imports_only_laws_of_ours() -> None:
    for path in _modules("vision"):
        assert "firmware_host" not in _imports(path), f"{path.relative_to(ROOT)} imports firmware_host"


def test_nothing_imports_the_cli() -> None:
    for pkg in ("laws", "vision", "firmware_host"):
        for path in _modules(pkg):
            if path.name == "cli.py" or "commands" in path.parts:
                continue
            # Running the CLI as a process of its own (``python -m firmware_host.cli``, as the soak runs
            # ``cardtable run``) is using the program, not importing it.
            src = path.read_text().replace('"-m", "firmware_host.cli"', "")
            assert "firmware_host.cli" not in src and "firmware_host.commands" not in src, path
