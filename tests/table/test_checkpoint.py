"""Checkpoints: a restart starts from the newest one and replays only the rows after it, ending in the
same state as a replay of the whole journal; a checkpoint of other code, or one that cannot be read, is
passed over."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from pathlib import Path

import pytest

import firmware_host.table.controller as controller_module
import firmware_host.table.ordering as ordering_module
from firmware_host.records.journal import Journal, state_digest
from firmware_host.table.controller import LawInput, TableController
from tests.laws.test_properties import bridge_table
from tests.table.test_controller import Clock


def _played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deals: int = 6) -> Path:
    monkeypatch.setattr(ordering_module, "CHECKPOINT_ROWS", 200)
    j = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    events = bridge_table(random.Random(3).randint(0, 10**6), deals)
    for e in events[:-7]:  # stop in the middle of the last deal's play
        ctl.process(LawInput(e, "script"))
    j.close()
    return tmp_path


def canonical(snapshot: object) -> object:
    """A snapshot with its dicts in key order: the live engine keeps the order events gave (``packs``
    owners as sent), a replay the journal's (keys sorted); the state is the same."""
    def walk(x: object) -> object:
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, dict):
            if "d" in x and len(x) == 1:
                return {"d": sorted(([walk(k), walk(v)] for k, v in x["d"]), key=lambda kv: json.dumps(kv[0]))}
            return {k: walk(v) for k, v in x.items()}
        return x
    return walk(snapshot)


def _restart(path: Path, checkpoints: bool = True) -> tuple[TableController, Journal]:
    j = Journal.open(path)
    return TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), checkpoints=checkpoints), j


def test_a_restart_from_a_checkpoint_ends_as_a_whole_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    path = _played(tmp_path, monkeypatch)
    with caplog.at_level(logging.INFO):
        quick, j1 = _restart(path)
    assert "after the checkpoint at row" in caplog.text
    seq, _ = j1.checkpoint(controller_module.laws_version()) or (0, "")
    assert 0 < seq < quick.seq
    slow, j2 = _restart(path, checkpoints=False)
    assert canonical(quick.engine.snapshot()) == canonical(slow.engine.snapshot())
    assert (quick.packs, quick.last_ruling, quick.lamps, quick.seq) == \
        (slow.packs, slow.last_ruling, slow.lamps, slow.seq)
    # and both go on alike
    more = [e for e in bridge_table(5, 1)[3:]]
    for e in more[:40]:
        assert [r.to_dict() for r in quick.process(LawInput(e, "script"))] == \
            [r.to_dict() for r in slow.process(LawInput(e, "script"))]
    j1.close()
    j2.close()


def test_a_checkpoint_taken_by_other_code_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    path = _played(tmp_path, monkeypatch)
    monkeypatch.setattr(ordering_module, "laws_version", lambda: "other code")
    with caplog.at_level(logging.INFO):
        ctl, j = _restart(path)
    assert "after the checkpoint" not in caplog.text and ctl.seq > 0
    j.close()


def test_an_unreadable_checkpoint_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    path = _played(tmp_path, monkeypatch)
    whole, j = _restart(path)
    # bound to the chain (saved through the journal) but not a state this code can use
    j.save_checkpoint(j.head()[0], controller_module.laws_version(), '{"engine": {"o": "os:system", "a": {}}}')
    j.close()
    with caplog.at_level(logging.WARNING):
        again, j = _restart(path)
    assert "not used" in caplog.text and "replaying the whole journal" in caplog.text
    assert canonical(again.engine.snapshot()) == canonical(whole.engine.snapshot())
    j.close()


def _edit_checkpoint(path: Path) -> int:
    """Edit the newest checkpoint's state as a tamperer would: a later deal number, and a pack with
    unreadable cards it never had. Returns its row."""
    conn = sqlite3.connect(path / "journal.sqlite3")
    seq, text = conn.execute("SELECT seq, state FROM checkpoint ORDER BY seq DESC LIMIT 1").fetchone()
    state = json.loads(text)
    state["engine"]["a"]["deal"]["a"]["number"] += 10
    state["packs"]["red"]["unreadable"] += 7
    conn.execute("UPDATE checkpoint SET state = ? WHERE seq = ?", (json.dumps(state), seq))
    conn.commit()
    conn.close()
    return int(seq)


def test_an_edited_checkpoint_is_ignored_and_the_restart_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    path = _played(tmp_path, monkeypatch)
    whole, j = _restart(path, checkpoints=False)
    j.close()
    seq = _edit_checkpoint(path)
    with caplog.at_level(logging.WARNING):
        again, j = _restart(path)
    assert f"checkpoint at row {seq} ignored" in caplog.text and "edited" in caplog.text
    assert canonical(again.engine.snapshot()) == canonical(whole.engine.snapshot())
    assert again.packs == whole.packs and again.packs["red"]["unreadable"] == 0
    result = j.verify()
    assert not result.ok and result.bad_seq is None
    assert f"checkpoint at row {seq}" in result.message() and "edited" in result.message()
    j.close()


def test_a_checkpoint_moved_to_another_row_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """A checkpoint pointed at a row that is not its binding row (its hash copied along) is not bound."""
    path = _played(tmp_path, monkeypatch)
    conn = sqlite3.connect(path / "journal.sqlite3")
    seq, = conn.execute("SELECT max(seq) FROM checkpoint").fetchone()
    row_hash_, = conn.execute("SELECT hash FROM journal WHERE seq = ?", (seq + 3,)).fetchone()
    conn.execute("UPDATE checkpoint SET seq = ?, hash = ? WHERE seq = ?", (seq + 3, row_hash_, seq))
    conn.commit()
    conn.close()
    with caplog.at_level(logging.WARNING):
        ctl, j = _restart(path)
    assert f"checkpoint at row {seq + 3} ignored" in caplog.text and "records no checkpoint" in caplog.text
    j.close()


def test_a_checkpoint_is_bound_by_a_chain_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _played(tmp_path, monkeypatch)
    j = Journal.open(path)
    seq, state = j.checkpoint(controller_module.laws_version()) or (0, "")
    row = next(j.rows(seq - 1))
    assert row.seq == seq and row.kind == "note"
    assert row.body["checkpoint"]["sha256"] == state_digest(state)
    assert j.verify().ok
    with pytest.raises(ValueError, match="last row"):
        j.save_checkpoint(seq - 5, controller_module.laws_version(), state)
    j.close()
