"""A table restarted in the middle of a deal, or stopped between a commit and its outbox (docs/mqtt.md "Hands stay
secret": once a deal's play has ended, its ``deal`` message carries the events whose cards were held back).

The cards held back lived only in the publisher's memory, so a table restarted mid-deal released at the deal's end
only the cards sent after the restart; a deal whose play ended while the table was down (between the commit and
the outbox) never got its ``deal`` message; and the rows queued at restart took their deal from the rulings before
them: with no ruling yet in the journal, deal 0, whose cards are not held back, so they left the table in the
clear. Real controllers and publishers over one journal, the outbox read back as the broker would get it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.config.schema import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from firmware_host.tablelink.publisher import MqttPublisher
from laws.events import Event, event_from_dict, event_to_dict
from tests.laws.test_properties import euchre_table


def _deals(seed: int, n: int) -> tuple[list[Event], list[list[Event]]]:
    """The events before the first deal, and each deal's (from its first shuffle to its result)."""
    events = euchre_table(seed, n)[1:]   # the controller writes the game line itself
    cuts = [i for i, e in enumerate(events) if e.TYPE == "shuffle" and (i == 0 or events[i - 1].TYPE != "shuffle")]
    return events[:cuts[0]], [events[a:b] for a, b in zip(cuts, [*cuts[1:], len(events)])]


class Table:
    """A table: its journal, controller and (not connected) publisher; ``stop`` is the process killed."""

    def __init__(self, folder: Path, *, told: bool = True) -> None:
        self.journal = Journal.open(folder, synchronous="NORMAL")
        self.ctl = TableController(game="euchre", journal=self.journal, panel=None, clock=lambda: 1.0, table_id="t1")
        self.pub = MqttPublisher(MqttConfig(), "t1", self.journal, password="x", heartbeat=999, play_feed=False,
                                 deals=self.ctl.deals() if told else None)
        self.ctl.observers.append(self.pub)

    def play(self, events: list[Event]) -> None:
        for e in events:
            self.ctl.process(LawInput(e, "script"))

    def sent(self) -> list[dict[str, Any]]:
        return [json.loads(p) for _o, _s, _t, p in self.pub.outbox.pending(0, 100000)]

    def stop(self) -> None:
        self.pub.stop(0.1)
        self.journal.close()


def _cards(events: list[Event]) -> set[str]:
    return {c for c in (event_to_dict(e).get("card") for e in events) if isinstance(c, str)}


def _revealed(sent: list[dict[str, Any]], deal: int) -> list[set[str]]:
    return [{e["card"] for e in m["body"]["revealed"] if isinstance(e.get("card"), str)}
            for m in sent if m["kind"] == "deal" and m["deal"] == deal]


def _seen(sent: list[dict[str, Any]], deal: int) -> str:
    return json.dumps([m for m in sent if m["kind"] != "deal" and m["deal"] == deal])


def test_a_deal_restarted_mid_play_releases_every_card_held_back_before_the_restart(tmp_path: Path) -> None:
    before, deals = _deals(3, 2)
    t = Table(tmp_path)
    t.play(before + deals[0])
    half = len(deals[1]) // 2
    t.play(deals[1][:half])              # deal 2: dealt, its cards sent held back
    held_before = _cards(deals[1][:half])
    assert held_before and not any(c in _seen(t.sent(), 2) for c in held_before)
    t.stop()

    t = Table(tmp_path)                  # the restart
    assert t.ctl.deals() == (2, 2)
    t.play(deals[1][half:])
    sent = t.sent()
    assert not any(c in _seen(sent, 2) for c in _cards(deals[1]) - _cards(deals[1][-1:]))
    assert _revealed(sent, 2) == [_cards(deals[1][:-1]) | held_before]   # all of them, once
    assert _revealed(sent, 1) == [_cards(deals[0][:-1])]
    t.stop()


def test_a_deal_whose_play_ended_while_the_table_was_down_gets_its_deal_message_at_restart(tmp_path: Path) -> None:
    before, deals = _deals(5, 2)
    t = Table(tmp_path)
    t.play(before + deals[0])
    half = len(deals[1]) // 2
    t.play(deals[1][:half])
    t.ctl.observers.remove(t.pub)        # committed, then killed before its outbox heard of the rest
    t.play(deals[1][half:])
    t.stop()

    t = Table(tmp_path)
    assert t.ctl.deals() == (2, 0)
    sent = t.sent()
    assert _revealed(sent, 2) == [_cards(deals[1][:half])]     # what was sent held back, released
    gap = [m for m in sent if m["seq"] > 0 and m["kind"] == "event" and m["deal"] == 2][-1]
    assert gap["body"]["type"] == deals[1][-1].TYPE             # the rows of the gap follow, under deal 2
    assert [m["prev"] for m in sent[1:]] == [m["seq"] for m in sent[:-1]]   # one chain, no gap
    t.stop()

    t = Table(tmp_path)                  # restarted once more: nothing is released twice
    assert _revealed(t.sent(), 2) == [_cards(deals[1][:half])]
    t.stop()


def test_rows_queued_at_restart_before_any_ruling_keep_the_deals_cards_at_the_table(tmp_path: Path) -> None:
    before, deals = _deals(7, 1)
    t = Table(tmp_path, told=False)
    t.play(before)
    start = next(i for i, e in enumerate(deals[0]) if e.TYPE == "deal_start")
    t.play(deals[0][:start + 3])         # a clean deal: no ruling in the journal names a deal yet
    assert not any(r.kind == "ruling" and r.body.get("deal") for r in t.journal.rows())
    t.ctl.observers.remove(t.pub)
    t.play(deals[0][start + 3:start + 12])
    t.stop()

    for told in (True, False):
        t = Table(tmp_path, told=told)
        sent = t.sent()
        gap = [m for m in sent if m["kind"] == "event" and m["body"]["type"] == "card_dealt"]
        assert gap and all(m["deal"] == 1 and m["body"]["card"] == "hidden" for m in gap[-9:]), gap
        assert not any(c in _seen(sent, 1) for c in _cards(deals[0][start:start + 12]))
        t.stop()


def test_the_journals_events_of_a_deal_are_what_the_engine_took(tmp_path: Path) -> None:
    """An event the engine ignored (not published live) is not queued at restart, nor held."""
    before, deals = _deals(9, 1)
    t = Table(tmp_path)
    t.play(before + deals[0][:8])
    t.ctl.observers.remove(t.pub)
    t.play([event_from_dict({"type": "trump_made", "seat": "N", "suit": "H"})])   # ignored while dealing
    ignored = [r for r in t.journal.rows() if r.kind == "note" and "ignored" in r.body]
    assert ignored
    t.stop()
    t = Table(tmp_path)
    assert not any(m["kind"] == "event" and m["body"]["type"] == "trump_made" for m in t.sent())
    t.stop()
