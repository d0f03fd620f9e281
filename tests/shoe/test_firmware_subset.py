"""The firmware must stay in the subset of Python that MicroPython runs on the RP2040: checked on the
source, since the board itself is not in the test rig."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from firmware_host.shoe.firmware import FIRMWARE_DIR

FILES = sorted(FIRMWARE_DIR.rglob("*.py"))
MICROPYTHON_MODULES = {"struct", "binascii", "time", "os", "machine", "neopixel", "shoefw"}
BANNED_NAMES = {"dataclass", "Enum", "IntEnum", "TypedDict", "NamedTuple", "Protocol"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIRMWARE_DIR)))
def test_firmware_uses_only_what_micropython_has(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] in MICROPYTHON_MODULES, f"{where} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and (node.module or "").split(".")[0] in MICROPYTHON_MODULES, \
                f"{where} imports from {node.module}"
        assert not isinstance(node, (ast.Match, ast.AnnAssign, ast.JoinedStr, ast.AsyncFunctionDef,
                                     ast.TryStar)), f"{where}: {type(node).__name__} is not for the board"
        if isinstance(node, ast.FunctionDef):
            args = node.args.args + node.args.kwonlyargs
            assert node.returns is None and all(a.annotation is None for a in args), \
                f"{where}: annotations are not for the board"
        if isinstance(node, ast.Name):
            assert node.id not in BANNED_NAMES, f"{where} uses {node.id}"


def test_the_board_entry_point_exists() -> None:
    main = (FIRMWARE_DIR / "main.py").read_text()
    assert "Shoe(hal, UartPort(), boot_id)" in main and "machine.WDT(" in main
