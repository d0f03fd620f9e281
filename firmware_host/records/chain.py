"""The journal's hash chain, as rules on rows: no file, no database, no clock.

A row is ``(seq, t, kind, body, prev_hash, hash)``; ``hash`` is the SHA-256 (hex) of ``prev_hash``
followed by the canonical JSON of ``{"seq", "t", "kind", "body"}`` (keys sorted, no spaces, UTF-8); the
first row's ``prev_hash`` is ``GENESIS`` (64 zeros). A checkpoint is bound to the chain by a ``note``
row ``{"checkpoint": {"after": ROW, "version": CODE, "sha256": SHA-256 of the state text}}`` and is
stored under that row's seq and hash. A head is ``ROW:HASH``: the journal holds it when its row ROW has
that hash (row 0 is the empty journal, hash ``GENESIS``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

KINDS = ("event", "ruling", "lamp", "note")
GENESIS = "0" * 64


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of ``Journal.verify``: ``ok``, how many rows were checked, the chain's head hash, and
    for a broken chain the first bad row (``bad_seq``: the rows before it are verified) and why.

    ``problems`` are the other failures, one line each, with the chain itself intact: a checkpoint not
    bound to the chain, or a head (``ROW:HASH`` kept elsewhere) the journal does not hold."""

    ok: bool
    rows: int
    head: str
    bad_seq: int | None = None
    reason: str = ""
    path: str = ""
    problems: tuple[str, ...] = ()

    def message(self) -> str:
        """One line for a person: the file, and either the row count and head or what is wrong."""
        if self.ok:
            return f"{self.path}: journal intact, {self.rows} rows, head {self.head[:16]}"
        if self.bad_seq is not None:
            return f"{self.path}: journal row {self.bad_seq}: {self.reason}"
        return f"{self.path}: " + "; ".join(self.problems)


def canonical_json(obj: Any) -> str:
    """The one JSON text of ``obj`` that the hashes are computed over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def row_hash(prev_hash: str, seq: int, t: float, kind: str, body: dict[str, Any]) -> str:
    """The chain hash of a row."""
    payload = canonical_json({"seq": seq, "t": t, "kind": kind, "body": body})
    return hashlib.sha256((prev_hash + payload).encode("utf-8")).hexdigest()


def state_digest(state: str) -> str:
    """The SHA-256 (hex) of a checkpoint's state text, as its binding row records it."""
    return hashlib.sha256(state.encode("utf-8")).hexdigest()


def parse_head(text: str) -> tuple[int, str]:
    """``ROW:HASH`` (what ``cardtable journal head`` prints) as ``(row, hash)``.

    Raises:
        ValueError: not a row number >= 0, a colon and 64 hex digits.
    """
    row, sep, h = text.strip().partition(":")
    h = h.lower()
    if not sep or not row.isdigit() or len(row) > 18 or len(h) != 64 or any(c not in "0123456789abcdef" for c in h):
        raise ValueError(f"head {text!r}: want ROW:HASH, a row number and the 64 hex digits of its hash "
                         "(as `cardtable journal head` prints)")
    return int(row), h


def _one_key_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once. The journal never writes a key twice; a body that has
    one hashes as its last value while SQLite's own JSON functions read its first, so it is an edit."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key[:40]!r} is given twice (the journal never writes that: an edit)")
        out[key] = value
    return out


def row_problem(seq: int, t: Any, kind: str, text: str, prev_hash: str, h: str, prev: str,
                 expected: int) -> str:
    """Why a stored row breaks the chain, or "" when it is sound."""
    if isinstance(seq, bool) or not isinstance(seq, int):   # a damaged file: a seq that is no number (NULL)
        return f"expected row {expected} here: the row's number is not a whole number ({str(seq)[:20]})"
    if seq != expected:
        return f"expected row {expected} here: rows {expected}..{seq - 1} are missing"
    if kind not in KINDS:
        return f"unknown kind {kind!r}"
    if prev_hash != prev:
        return "prev_hash does not match the previous row's hash (a row was removed or replaced)"
    try:
        body = json.loads(text, object_pairs_hook=_one_key_each)
        if not isinstance(body, dict):
            raise ValueError("the body is not a JSON object")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise ValueError(f"the time {t!r} is not a finite number")
        computed = row_hash(prev_hash, seq, float(t), kind, body)
    except (TypeError, ValueError, RecursionError) as exc:
        return f"body or time is not valid ({str(exc)[:200]})"
    if computed != h:
        return "hash does not match the row's contents (the row was edited)"
    return ""




def checkpoint_problem(found: tuple[Any, ...] | None, next_prev: str | None, seq: int, chash: str, version: str,
                       state: str) -> str:
    """Why a stored checkpoint is not bound to the chain, or "" when it is.

    Args:
        found: the journal row at ``seq`` (``seq, t, kind, body text, prev_hash, hash``), or None.
        next_prev: the ``prev_hash`` of the row after it, or None when it is the last row.
        seq, chash, version, state: the stored checkpoint.
    """
    if found is None:
        return f"row {seq} is not in the journal"
    _, t, kind, text, prev_hash, h = found
    if h != chash:
        return f"its hash is not the chain's hash at row {seq}"
    try:
        body = json.loads(text)
        intact = isinstance(body, dict) and row_hash(prev_hash, seq, float(t), kind, body) == h
    except (TypeError, ValueError, RecursionError):
        intact = False
    if not intact or (next_prev is not None and next_prev != h):
        return f"row {seq} does not hash to the chain's hash (edited)"
    record = body.get("checkpoint") if kind == "note" else None
    if not isinstance(record, dict):
        return f"row {seq} records no checkpoint"
    if record.get("sha256") != state_digest(state):
        return f"its state is not the one row {seq} records (edited)"
    if record.get("version") != version:
        return f"its code version is not the one row {seq} records"
    return ""


def verify_rows(rows: Iterable[tuple[Any, ...]], checkpoints: Sequence[tuple[int, str, str, str]],
                head: tuple[int, str] | None, path: str) -> VerifyResult:
    """Check a journal's rows in order, then its stored checkpoints' binding, then that it holds ``head``.

    Args:
        rows: ``(seq, t, kind, body text, prev_hash, hash)`` in seq order, as stored.
        checkpoints: the stored ``(seq, hash, version, state)``, read before the rows.
        head: ``(row, hash)`` kept elsewhere, or None.
        path: the file, for messages.
    """
    wanted = {c[0] for c in checkpoints} | {c[0] + 1 for c in checkpoints}
    found: dict[int, tuple[Any, ...]] = {}
    prev, count, expected = GENESIS, 0, 1
    held = GENESIS if head is not None and head[0] == 0 else None
    for row in rows:
        seq, t, kind, text, prev_hash, h = row
        reason = row_problem(seq, t, kind, text, prev_hash, h, prev, expected)
        if reason:
            return VerifyResult(False, count, prev, seq, reason, path)
        if seq in wanted:
            found[seq] = row
        if head is not None and seq == head[0]:
            held = h
        prev, count, expected = h, count + 1, expected + 1
    problems = []
    for seq, chash, version, state in checkpoints:
        after = found.get(seq + 1)
        problem = checkpoint_problem(found.get(seq), after[4] if after else None, seq, chash, version, state)
        if problem:
            problems.append(f"checkpoint at row {seq}: {problem}")
    if head is not None:
        shown = f"{head[0]}:{head[1][:16]}..."
        if held is None:
            problems.append(f"does not hold head {shown}: the journal ends at row {count} (rows were cut off the end)")
        elif held != head[1]:
            problems.append(f"does not hold head {shown}: row {head[0]} has hash {held[:16]}... "
                            "(the history up to it was rewritten)")
    return VerifyResult(not problems, count, prev, None, "", path, tuple(problems))
