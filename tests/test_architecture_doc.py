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


RESULT_WALK = "## One duplicate result, from the table to the director's page and back"
COUNTED = re.compile(r"\*\*(\d+)\s+Python\s+files?\s+and\s+(\d+)\s+JS\s+files?\s+in\s+(\d+)\s+rooms\*\*")
NOW_ROW = re.compile(r"^\| now \| (\d+) \| (\d+) \| (\d+) \|$", re.M)


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start:] if following < 0 else text[start:following]


def _room(path: str) -> str:
    """The room a file is in: ``laws`` for the law engine (one room, pure), else the folder under
    ``firmware_host/`` (``firmware_host/club/static/duplicate.js`` is ``club``'s)."""
    parts = path.split("/")
    return "laws" if parts[0] == "laws" else parts[1].removesuffix(".py")


def walk_counts(section: str) -> tuple[tuple[int, int, int], tuple[int, int, int] | None, tuple[int, int, int] | None]:
    """What the stops of a walk cross (Python files, JS files, rooms), what its sentence says, and what its
    table's ``now`` row says (None for one missing)."""
    files = {f for f, _ in REF.findall(section)}
    stops = (sum(f.endswith(".py") for f in files), sum(f.endswith(".js") for f in files),
             len({_room(f) for f in files}))
    said, row = COUNTED.search(section), NOW_ROW.search(section)
    return (stops, tuple(map(int, said.groups())) if said else None,  # type: ignore[return-value]
            tuple(map(int, row.groups())) if row else None)


def test_the_result_walks_counts_are_the_stops_it_names() -> None:
    stops, said, row = walk_counts(_section(DOC.read_text(), RESULT_WALK))
    assert said == stops, f"the walk's sentence says {said} (Python, JS, rooms); its stops cross {stops}"
    assert row == stops, f"the walk's table says {row} now; its stops cross {stops}"
    assert stops[0] <= 19, "the result's walk grew back"


def test_the_count_check_sees_a_wrong_count() -> None:
    walk = (f"{RESULT_WALK}\n\n1. `laws/a.py:f` then `firmware_host/club/b.py:g`, "
            "`firmware_host/club/static/c.js:h` and `laws/a.py:k`.\n\n"
            "It crosses **2 Python files and 1 JS file in 2 rooms**.\n\n| now | 2 | 1 | 2 |\n\n## Next\n"
            "`firmware_host/web/x.py:y`\n")
    assert walk_counts(_section(walk, RESULT_WALK)) == ((2, 1, 2), (2, 1, 2), (2, 1, 2))
    wrong = walk.replace("**2 Python files", "**3 Python files").replace("| now | 2 | 1 | 2 |", "| now | 2 | 1 | 3 |")
    stops, said, row = walk_counts(_section(wrong, RESULT_WALK))
    assert said != stops and row != stops
    assert walk_counts(_section(walk.replace("| now | 2 | 1 | 2 |", ""), RESULT_WALK))[2] is None


ROOM_ROW = re.compile(r"^\| `((?:laws|firmware_host|vision|config|hardware)[\w/]*/)` \|([^|]*)\|", re.M)
FILE = re.compile(r"`([\w/]+\.(?:py|js))`")
FOLDER = re.compile(r"`((?:laws|firmware_host)?[\w/]*/)`")


def unknown_files(text: str, root: Path) -> list[str]:
    """Each ``file.py`` a room's row of the map names that is not there: looked for in the row's room, in any
    folder the row names (from the top, or inside the room: ``laws/``'s ``events/``), and under
    ``firmware_host/`` (``club/event_screens.py``)."""
    out = []
    for room, cell in ROOM_ROW.findall(text):
        folders = FOLDER.findall(cell)
        bases = [room, *folders, *(room + f for f in folders), "firmware_host/", ""]
        for name in FILE.findall(cell):
            if not any((root / base / name).is_file() for base in bases):
                out.append(f"{room} {name}")
    return out


def test_every_file_a_room_names_is_there() -> None:
    """The room map said ``club/`` held ``duplicate_service.py`` and ``demo.py`` long after both had moved."""
    assert not unknown_files(DOC.read_text(), ROOT), "docs/architecture.md's rooms name files that are not there"


def test_the_room_check_sees_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "firmware_host" / "club").mkdir(parents=True)
    (tmp_path / "firmware_host" / "club" / "hub.py").write_text("")
    row = "| `firmware_host/club/` | the hub (`hub.py`) and the demo (`demo.py`) | `records` |\n"
    assert unknown_files(row, tmp_path) == ["firmware_host/club/ demo.py"]


def rooms_left_out(row: str, root: Path) -> list[str]:
    """The rooms (packages) under ``root`` that README's Layout row does not name as ``room/``."""
    rooms = sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())
    return [r for r in rooms if f"`{r}/`" not in row]


def test_readmes_layout_names_every_room_of_firmware_host() -> None:
    """README's Layout row for ``firmware_host/`` left out 7 of its 19 rooms and read as complete."""
    readme = (ROOT / "README.md").read_text()
    (row,) = [line for line in readme.splitlines() if line.startswith("| `firmware_host/` |")]
    assert rooms_left_out(row, ROOT / "firmware_host") == []
    count = len([p for p in (ROOT / "firmware_host").iterdir() if (p / "__init__.py").is_file()])
    assert f"in {count} rooms" in row, "the row says how many rooms there are"


def test_the_room_check_sees_one_left_out(tmp_path: Path) -> None:
    for room in ("table", "wire"):
        (tmp_path / room).mkdir()
        (tmp_path / room / "__init__.py").write_text("")
    (tmp_path / "static").mkdir()                        # not a package: not a room
    assert rooms_left_out("| `firmware_host/` | `table/` (the controller) |", tmp_path) == ["wire"]
