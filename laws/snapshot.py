"""A law engine's state as JSON and back, so that a table can restart from a checkpoint instead of
replaying its whole journal.

``dump(state)`` turns a ``TableState`` (with everything its games keep in ``game_state``: scores, the
draw, the roster) into JSON-able values; ``load(data)`` builds it again. Only our own types are built
back: a class is looked up by name and must live in a ``laws`` module, so a checkpoint can hold data but
never make other code run. Whoever stores a snapshot must also store which code took it (the host
fingerprints the ``laws`` source) and not load one taken by other code.

Encoding: JSON scalars and lists stay as they are; everything else is an object with one tag key:
``{"t": [...]}`` tuple, ``{"s": [...]}`` set (sorted, so equal states give equal text), ``{"f": [...]}``
frozenset, ``{"q": [...], "max": n}`` deque, ``{"d": [[key, value], ...]}`` dict (keys may be seats or
cards), ``{"e": "module:Name", "v": value}`` enum member, ``{"o": "module:Name", "a": {...}}`` an
object's attributes.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
from collections import deque
from typing import Any


class SnapshotError(ValueError):
    """A value that cannot be put in a snapshot, or a snapshot that cannot be read back."""


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def dump(value: Any) -> Any:
    """``value`` as JSON-able data (see the module docstring)."""
    if value is None or isinstance(value, (bool, int, float, str)) and not isinstance(value, enum.Enum):
        return value
    if isinstance(value, enum.Enum):
        return {"e": _name(type(value)), "v": value.value}
    if isinstance(value, list):
        return [dump(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [dump(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        items = sorted((dump(v) for v in value), key=lambda x: json.dumps(x, sort_keys=True))
        return {"s" if isinstance(value, set) else "f": items}
    if isinstance(value, deque):
        return {"q": [dump(v) for v in value], "max": value.maxlen}
    if isinstance(value, dict):
        return {"d": [[dump(k), dump(v)] for k, v in value.items()]}
    cls = type(value)
    if not cls.__module__.startswith("laws."):
        raise SnapshotError(f"cannot snapshot a {_name(cls)}")
    if dataclasses.is_dataclass(value):
        attrs = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    elif hasattr(value, "__dict__"):
        attrs = dict(vars(value))
    else:
        raise SnapshotError(f"cannot snapshot a {_name(cls)} (no attributes)")
    return {"o": _name(cls), "a": {k: dump(v) for k, v in attrs.items()}}


def _class(name: Any) -> type:
    if not isinstance(name, str) or ":" not in name:
        raise SnapshotError(f"bad class name {name!r}")
    module, _, qual = name.partition(":")
    if module != "laws" and not module.startswith("laws."):
        raise SnapshotError(f"class {name!r} is not one of the law engine's")
    try:
        obj: Any = importlib.import_module(module)
        for part in qual.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise SnapshotError(f"no class {name!r}") from None
    if not isinstance(obj, type):
        raise SnapshotError(f"{name!r} is not a class")
    return obj


def load(data: Any) -> Any:
    """Build back what ``dump`` gave.

    Raises:
        SnapshotError: the data is not a snapshot this code can read.
    """
    try:
        return _load(data)
    except SnapshotError:
        raise
    except (ValueError, TypeError, RecursionError) as exc:
        raise SnapshotError(f"snapshot is not readable: {exc}") from None


def _load(data: Any) -> Any:
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [_load(v) for v in data]
    if not isinstance(data, dict) or not data:
        raise SnapshotError(f"unexpected {type(data).__name__} in a snapshot")
    if "t" in data:
        return tuple(_load(v) for v in data["t"])
    if "s" in data:
        return {_load(v) for v in data["s"]}
    if "f" in data:
        return frozenset(_load(v) for v in data["f"])
    if "q" in data:
        return deque((_load(v) for v in data["q"]), maxlen=data.get("max"))
    if "d" in data:
        return {_load(k): _load(v) for k, v in data["d"]}
    if "e" in data:
        cls = _class(data["e"])
        if not issubclass(cls, enum.Enum):
            raise SnapshotError(f"{data['e']!r} is not an enum")
        return cls(data["v"])
    if "o" in data:
        cls = _class(data["o"])
        obj: Any = object.__new__(cls)
        attrs = data.get("a")
        if not isinstance(attrs, dict):
            raise SnapshotError(f"object {data['o']!r} without attributes")
        for k, v in attrs.items():
            object.__setattr__(obj, k, _load(v))  # frozen dataclasses too
        return obj
    raise SnapshotError(f"unknown tag in {sorted(data)[:3]}")


def dumps(value: Any) -> str:
    """``dump`` as JSON text."""
    return json.dumps(dump(value), separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """``load`` from JSON text."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SnapshotError(f"snapshot is not JSON: {exc}") from None
    return load(data)
