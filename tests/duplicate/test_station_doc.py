"""docs/handrecords.md, "The dealing station": every line of its two tables is what the station says, word
for word, in the state the table names (the station driven sans-I/O, boards 1-3 of 24 already dealt)."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.duplicate.station.dealing import DealingStation, StationState
from firmware_host.records.journal import Journal
from firmware_host.shoe import messages as m
from firmware_host.shoe.codec import PACK
from laws.cards import SEATS
from laws.duplicate.deal import commitment
from tests.duplicate.stationkit import boards

DOC = (Path(__file__).resolve().parents[2] / "docs" / "handrecords.md").read_text(encoding="utf-8")
RECS = boards(24, seed=21)


def _table(after: str) -> list[list[str]]:
    part = DOC.split(after, 1)[1].split("\n\n", 2)[1]
    rows = [ln for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("|--")]
    return [re.findall(r"`([^`]*)`", ln) for ln in rows[1:]]


class Link:
    online = True
    caught_up = True
    can_deal_boards: bool | None = True
    boot_id = 9

    def __init__(self) -> None:
        self.sent: list[m.Command] = []

    def send(self, cmd: m.Command) -> m.Command:
        cmd = replace(cmd, cmd=len(self.sent) + 1)
        self.sent.append(cmd)
        return cmd

    def acknowledge(self, *a: object) -> None:
        pass


def _station(tmp_path: Path, link: Link, auto: bool = False) -> DealingStation:
    j = Journal.open(tmp_path / f"s{time.monotonic_ns()}.sqlite3")
    rows = [("note", {"station": "open", "file": "monday.pbn", "commitment": commitment(RECS),
                      "boards": [b.number for b in RECS]}, 1.0)]
    for b in RECS[:3]:
        rows += [("note", {"station": "insert", "board": b.number}, 2.0),
                 ("note", {"station": "send", "board": b.number, "record": b.fingerprint, "placed": [],
                           "fresh": True}, 3.0),
                 ("note", {"station": "dealt", "board": b.number, "verified": True, "rejected": 0, "pack": "A1"},
                  4.0)]
    j.append_many(rows)
    return DealingStation(RECS, j, link, time.time, auto=auto)


def _line(st: DealingStation) -> str:
    return st.status().split("] ", 1)[1]


def _dealing(st: DealingStation, link: Link, cards: int) -> m.DealBoard:
    st.command("")
    cmd = link.sent[-1]
    assert isinstance(cmd, m.DealBoard)
    rec = RECS[3]
    st.feed(m.BoardBegan(1, 4, cmd.board_id, cmd.seats, frozenset(), cmd.pack, answers=cmd.cmd))
    for i, card in enumerate(PACK[:cards]):
        st.feed(m.CardOut(2 + i, i + 1, rec.deal.holder(card), False, card, m.Orientation.DOWN, 90, "A1", board=4))
    return cmd


def test_the_operators_lines_are_the_documents(tmp_path: Path) -> None:
    doc = {cells[0]: cells[0] for cells in _table("**What the operator sees**") if cells}
    got: dict[str, str] = {}
    link = Link()
    link.online = False
    st = _station(tmp_path, link)
    got["wait"] = _line(st)
    link.online = True
    got["insert"] = _line(st)
    cmd = _dealing(st, link, 17)
    got["dealing"] = _line(st)
    link.online = False
    restarted = _line(st)        # offline, and the link has said nothing yet: a station started again
    st.feed(m.LinkStatus(False, "device lost", None))
    got["offline"] = _line(st)   # the link said it went offline: unplugged
    link.online = True
    st.feed(m.BoardFinished(30, 4, cmd.board_id, m.FinishReason.EMPTY, 0, False, frozenset(PACK[17:]), "A1",
                            answers=cmd.cmd))
    assert st.state is StationState.INCOMPLETE
    got["incomplete"] = _line(st)

    link2 = Link()
    st2 = _station(tmp_path, link2)
    st2.command("")
    st2.feed(m.Reply(1, link2.sent[-1].cmd, m.Status.BAD_STATE, "no pack loaded"))
    got["pack"] = _line(st2)

    link3 = Link()
    st3 = _station(tmp_path, link3)
    cmd3 = _dealing(st3, link3, 51)
    last = PACK[51]
    wrong = SEATS[(SEATS.index(RECS[3].deal.holder(last)) + 1) % 4]
    st3.feed(m.CardOut(60, 52, wrong, False, last, m.Orientation.DOWN, 90, "A1", board=4))
    st3.feed(m.BoardFinished(61, 4, cmd3.board_id, m.FinishReason.COMPLETE, 0, False, frozenset(), "A1",
                             answers=cmd3.cmd))
    got["unverified"] = _line(st3)

    link5 = Link()
    st5 = _station(tmp_path, link5)
    cmd5 = _dealing(st5, link5, 30)
    st5.feed(m.BoardFinished(61, 4, cmd5.board_id, 9, 0, False, frozenset(), "A1", answers=cmd5.cmd))
    got["unknown"] = _line(st5)

    link4 = Link()
    link4.can_deal_boards = False
    st4 = _station(tmp_path, link4)
    st4.feed(m.LinkStatus(True, "shoe t firmware 1.1.0 protocol 1.1", None))
    got["cannot"] = _line(st4)

    wanted = list(doc)
    said = list(got.values())
    assert said[:4] == wanted[:4]                            # waiting, put in, dealing, offline
    assert said[5] == wanted[4]                              # no pack
    head, tail = wanted[5].split("<why>")
    assert said[4].startswith(head) and said[4].endswith(tail)
    assert "the pack ran out with 35 cards not placed: the " in said[4]
    assert said[6] == wanted[6] and said[8] == wanted[8]     # not verified, a 1.1 shoe
    head, tail = wanted[7].split("<why>")                    # not whole, the pockets unknown
    assert said[7].startswith(head) and said[7].endswith(tail) and "(ended (reason 9) with 0 cards not placed, but 22 were not seen placed)" in said[7]
    assert wanted[9] == "every board is dealt and verified card by card"
    # ``boards deal --auto`` puts each board in itself: it asked nobody to press Enter
    assert _line(_station(tmp_path, Link(), auto=True)) == wanted[10]
    assert restarted == wanted[11]


@pytest.mark.parametrize("typed, row", [("6", 0), ("2", 1), ("40", 2)])
def test_the_refusals_are_the_documents(tmp_path: Path, typed: str, row: int) -> None:
    rows = _table("**Boards in order.**")
    st = _station(tmp_path, Link())
    assert st.command(typed) == [rows[row][-1]]
    st.command("")
    assert st.command("5") == [f"not now: {st.status()}"] and rows[3][-1] == "not now: "


def test_the_report_example_is_what_the_report_prints() -> None:
    from datetime import UTC, datetime

    from firmware_host.duplicate.station.station_log import fold, report_text

    block = DOC.split("**The duplication report**", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    day = datetime(2026, 6, 22, tzinfo=UTC).timestamp()

    def at(h: int, mi: int, s: float) -> float:
        return day + h * 3600 + mi * 60 + s

    recs = RECS[:3]
    rows: list[tuple[int, float, dict]] = [(1, 0.0, {"station": "open", "file": "monday.pbn", "commitment": "c" * 64,
                                                     "boards": [1, 2, 3],
                                                     "records": [[b.number, b.fingerprint] for b in RECS[:3]]})]

    def add(t: float, body: dict) -> None:
        rows.append((len(rows) + 1, t, body))

    add(at(19, 2, 12), {"station": "send", "board": 1, "record": recs[0].fingerprint, "placed": [], "fresh": True})
    add(at(19, 2, 12), {"station": "started", "board": 1, "pack": "A1"})
    add(at(19, 2, 18.1), {"station": "dealt", "board": 1, "verified": True, "rejected": 0, "pack": "A1"})
    add(at(19, 2, 31), {"station": "send", "board": 2, "record": recs[1].fingerprint, "placed": [], "fresh": True})
    add(at(19, 2, 31), {"station": "started", "board": 2, "pack": "B1"})
    add(at(19, 2, 33), {"station": "rejected", "board": 2, "card": None, "reason": 1, "why": "", "pack": "B1"})
    add(at(19, 2, 34), {"station": "rejected", "board": 2, "card": "AS", "reason": 2, "why": "", "pack": "A1"})
    add(at(19, 2, 36), {"station": "incomplete", "board": 2, "missing": ["AS", "2C"], "reason": 2, "why": "x"})
    add(at(19, 3, 0), {"station": "send", "board": 2, "record": recs[1].fingerprint, "placed": [], "fresh": False})
    add(at(19, 3, 0), {"station": "started", "board": 2, "pack": "B1"})
    add(at(19, 3, 2.9), {"station": "dealt", "board": 2, "verified": True, "rejected": 2, "pack": "B1"})
    text = report_text(fold(rows))
    text = text.replace("c" * 64, "cc3f0eb1ace621f5c5e161d6e007928c56b7220d6316045e74795c6c589ab951")
    for b, shown in zip(recs, ("85b29bb4d1b28c5d", "9933eeddd08b48ad", "c6a16cc581f86bc7")):
        text = text.replace(b.fingerprint[:16], shown)
    assert text == block
