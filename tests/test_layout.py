"""The house's rooms and its one-way imports (STYLE.md, docs/architecture.md): checked on the source text of
every shipped module, lazy imports inside functions included."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("laws", "firmware_host", "vision")
FORBIDDEN_IN_LAWS = {"serial", "cv2", "gpiozero", "RPi", "lgpio", "threading", "time", "sqlite3",
                     "socket", "subprocess", "asyncio", "random", "os", "io", "pathlib", "datetime",
                     "firmware_host", "vision", "numpy", "secrets"}

# Each room of the host program and the rooms it may import (besides itself, ``laws`` and the standard
# library). ``firmware_host.<module>`` names a top-level module; docs/architecture.md draws the same map.
ROOMS: dict[str, set[str]] = {
    "firmware_host.wire": set(),
    "firmware_host.config": set(),
    "firmware_host.resources": set(),
    "firmware_host.players": {"firmware_host.records"},
    "firmware_host.records": set(),
    "firmware_host.devices": {"firmware_host.config"},
    "firmware_host.shoe": {"vision", "firmware_host.resources"},
    "firmware_host.table": {"vision", "firmware_host.config", "firmware_host.devices",
                            "firmware_host.records", "firmware_host.shoe"},
    "firmware_host.tablelink": {"firmware_host.config", "firmware_host.records", "firmware_host.table"},
    "firmware_host.web": {"firmware_host.records"},
    "firmware_host.club": {"firmware_host.config", "firmware_host.devices", "firmware_host.duplicate",
                           "firmware_host.events", "firmware_host.records", "firmware_host.resources", "firmware_host.session",
                           "firmware_host.table", "firmware_host.tablelink", "firmware_host.web"},
    "firmware_host.session": {"firmware_host.records"},
    "firmware_host.duplicate": {"firmware_host.config", "firmware_host.records", "firmware_host.resources",
                                "firmware_host.session", "firmware_host.shoe"},
    "firmware_host.soak": {"vision", "firmware_host.club", "firmware_host.config", "firmware_host.duplicate",
                           "firmware_host.players", "firmware_host.records", "firmware_host.resources",
                           "firmware_host.session", "firmware_host.shoe",
                           "firmware_host.web"},
    "firmware_host.live": {"vision", "firmware_host.club", "firmware_host.config", "firmware_host.devices",
                           "firmware_host.duplicate", "firmware_host.records",
                           "firmware_host.shoe", "firmware_host.table", "firmware_host.tablelink"},
    "firmware_host.doctor": {"vision", "firmware_host.config", "firmware_host.devices",
                             "firmware_host.resources", "firmware_host.tablelink"},
    "firmware_host.doctor_club": {"firmware_host.doctor", "firmware_host.records", "firmware_host.resources"},
    "firmware_host.table_demo": {"vision", "firmware_host.config", "firmware_host.devices",
                           "firmware_host.duplicate", "firmware_host.players", "firmware_host.records",
                           "firmware_host.shoe", "firmware_host.table"},
    "firmware_host.evening": {"firmware_host.club", "firmware_host.config", "firmware_host.duplicate",
                              "firmware_host.live", "firmware_host.players", "firmware_host.records",
                              "firmware_host.session", "firmware_host.shoe", "firmware_host.table"},
    "firmware_host.broadcast": {"firmware_host.records", "firmware_host.web"},
    "firmware_host.euchre_night": {"firmware_host.club", "firmware_host.config", "firmware_host.live",
                                   "firmware_host.records", "firmware_host.session", "firmware_host.table",
                                   "firmware_host.web"},
    "firmware_host.events": {"firmware_host.records", "firmware_host.session"},
    "firmware_host.federation": {"firmware_host.club", "firmware_host.duplicate", "firmware_host.records",
                                 "firmware_host.web"},
    "firmware_host.bench": {"vision", "firmware_host.club", "firmware_host.config", "firmware_host.devices",
                            "firmware_host.duplicate", "firmware_host.euchre_night", "firmware_host.evening",
                            "firmware_host.events", "firmware_host.federation", "firmware_host.live", "firmware_host.records",
                            "firmware_host.resources", "firmware_host.session", "firmware_host.shoe",
                            "firmware_host.soak", "firmware_host.table", "firmware_host.web", "firmware_host.broadcast"},
}
# The club's wire (topics, the one checked reader of outside JSON, the typed messages) is a room every
# other room may import (docs/architecture.md); it imports nothing of ours but ``laws``.
WIRE = "firmware_host.wire"
for _room, _allowed in ROOMS.items():
    if _room != WIRE:
        _allowed.add(WIRE)
TOP_LEVEL_MODULES_AT_MOST = 8


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imported(path: Path) -> set[str]:
    """Every dotted name a module imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def _imports(path: Path) -> set[str]:
    return {name.split(".")[0] for name in _imported(path)}


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (a name resolved to the longest module it names)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in _imported(path):
            target = imported
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted: import circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def room(module: str) -> str:
    """The room a module is in: ``laws``, ``vision``, or ``firmware_host.<room or top-level module>``."""
    parts = module.split(".")
    return parts[0] if parts[0] != "firmware_host" or len(parts) == 1 else ".".join(parts[:2])


def test_laws_is_pure() -> None:
    for path in _modules_of("laws"):
        bad = _imports(path) & FORBIDDEN_IN_LAWS
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: laws/ must stay pure"


def _modules_of(pkg: str) -> list[Path]:
    return [p for name, p in MODULES.items() if name.split(".")[0] == pkg]


def test_vision_imports_only_laws_of_ours() -> None:
    for path in _modules_of("vision"):
        assert "firmware_host" not in _imports(path), f"{path.relative_to(ROOT)} imports firmware_host"


def test_nothing_imports_the_cli() -> None:
    for name, path in MODULES.items():
        if name == "firmware_host.cli" or name.startswith("firmware_host.commands"):
            continue
        # Running the CLI as a process of its own (``python -m firmware_host.cli``, as the soak runs
        # ``cardtable run``) is using the program, not importing it.
        src = path.read_text().replace('"-m", "firmware_host.cli"', "")
        assert "firmware_host.cli" not in src and "firmware_host.commands" not in src, path


def test_nothing_shipped_imports_test_code() -> None:
    """Test-only code (the headless browser, ``tests/browser.py``) stays out of the product. The one
    exception is the benchmarks of the pages, which drive that browser and run from a source checkout
    (``bench/club.py``, ``bench/duplicate_live.py``, ``bench/broadcast_run.py`` say so when it is not one)."""
    for name, path in MODULES.items():
        if name in ("firmware_host.bench.club", "firmware_host.bench.duplicate_live",
                    "firmware_host.bench.broadcast_run"):
            continue
        bad = _imports(path) & {"tests", "selenium", "pytest"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}: test-only code does not ship"


def test_no_import_circle_in_the_shipped_code() -> None:
    assert cycles(import_graph(MODULES)) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"x": {"y"}, "y": {"x"}}) == [["x", "y"]]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_rooms_import_only_what_the_map_allows() -> None:
    graph = import_graph(MODULES)
    for name, targets in sorted(graph.items()):
        here = room(name)
        if here in ("firmware_host.cli", "firmware_host.commands", "firmware_host") or \
                not here.startswith("firmware_host"):
            continue
        assert here in ROOMS, f"{name}: room {here} is not on the map (tests/test_layout.py, architecture.md)"
        allowed = ROOMS[here] | {here, "laws"}
        bad = sorted(t for t in targets if room(t) not in allowed)
        assert not bad, f"{name} ({here}) imports {bad}: not allowed by the room map"


def test_the_room_check_can_fail() -> None:
    """A device importing the table's heart breaks the map (the check is not vacuous)."""
    assert room("firmware_host.devices.panel") == "firmware_host.devices"
    assert "firmware_host.table" not in ROOMS["firmware_host.devices"]
    assert room("firmware_host.live") == "firmware_host.live" and room("laws.events.types") == "laws"


def test_few_modules_at_the_top_of_the_host_program() -> None:
    top = sorted(p.name for p in (ROOT / "firmware_host").glob("*.py") if p.name != "__init__.py")
    assert len(top) <= TOP_LEVEL_MODULES_AT_MOST, top


@pytest.mark.parametrize("pkg", PACKAGES)
def test_every_room_says_what_it_holds(pkg: str) -> None:
    for init in sorted((ROOT / pkg).rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc) > 40, f"{init.relative_to(ROOT)}: say in two or three lines what the room holds"


def test_no_shipped_module_passes_600_lines() -> None:
    long = {name: n for name, p in MODULES.items() if (n := len(p.read_text().splitlines())) > 600}
    assert not long, long
