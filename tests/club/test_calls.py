"""What the director reads, from the messages the tables send (``ClubState``, pure): the call queue, the
current ruling, lamps and feed in the table display's own words, gaps, pending commands, pack health."""

from __future__ import annotations

import json
from typing import Any

from firmware_host.club.state import ClubState


def _msg(table: str, kind: str, seq: int, body: dict[str, Any], **extra: Any) -> tuple[str, bytes]:
    env = {"table": table, "kind": kind, "seq": seq, "deal": extra.pop("deal", 1), "t": extra.pop("t", 100.0),
           "body": body, **extra}
    return f"cardtable/{table}/{kind}", json.dumps(env).encode()


def _status(table: str, seq: int, lamps: dict[str, bool], deal: int = 1, phase: str = "dealing",
            **extra: Any) -> tuple[str, bytes]:
    return _msg(table, "status", seq, {"table": table, "phase": phase, "game": "contract-bridge", "deal": deal,
                                        "dealer": "E", "lamps": lamps, "score": {}}, **extra)


REDEAL = {"remedy": "redeal", "law": "Contract Bridge, Redeal", "clause": "CB-redeal-faced",
          "reason": "A card was faced in the deal.", "dealer": "E"}
CLAIM = {"remedy": "claim_option", "law": "Contract Bridge, Redeal", "clause": "CB-claim",
         "reason": "The side not at fault may demand a new deal.", "side": "NS"}


def _feed(s: ClubState, msgs: list[tuple[str, bytes]], now: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for topic, payload in msgs:
        out += s.ingest(topic, payload, now)
    return out


def test_the_queue_holds_calling_tables_with_the_tables_own_words_longest_wait_first() -> None:
    s = ClubState()
    _feed(s, [_msg("t2", "ruling", 5, REDEAL, prev=0), _status("t2", 6, {"redeal": True})], now=1000.0)
    _feed(s, [_msg("t1", "ruling", 3, CLAIM, prev=0), _status("t1", 4, {"attention_N": True, "attention_S": True})],
          now=1010.0)
    _feed(s, [_status("t3", 2, {"redeal": False, "shoe_offline": True})], now=1020.0)  # no ruling lamp: no call
    calls = sorted((v for v in s.tables.values() if v.call), key=lambda v: v.call["since"])  # type: ignore[index]
    assert [v.table for v in calls] == ["t2", "t1"]
    call = s.tables["t2"].call
    assert call is not None and call["headline"] == "REDEAL — East deals"  # the terminal's title
    assert call["reason"] == "A card was faced in the deal." and call["law"] == "Contract Bridge, Redeal"
    assert s.tables["t1"].call["headline"] == "A REDEAL MAY BE CLAIMED"  # type: ignore[index]
    view = s.tables["t1"].to_dict()
    assert view["lamps"] == ["ATTENTION North, South"] and view["dealer"] == "East"
    shoe = s.tables["t3"].to_dict()["lamps"]  # only lit lamps, in the terminal's words
    assert len(shoe) == 1 and "SHOE" in shoe[0] and "_" not in shoe[0]
    text = json.dumps(s.snapshot(0.0))
    for code in ("claim_option", "new_shuffle_and_cut", "attention_N", "shoe_offline", '"redeal"'):
        assert code not in text, f"code name {code} on the page"


def test_taking_then_clearing_a_call() -> None:
    s = ClubState()
    _feed(s, [_msg("t1", "ruling", 3, REDEAL, prev=0), _status("t1", 4, {"redeal": True})], now=1000.0)
    s.take("t1", "alice", 1005.0)
    assert s.tables["t1"].call["taken_by"] == "alice"  # type: ignore[index]
    try:
        s.take("t1", "bob", 1006.0)
        raise AssertionError("bob took alice's call")
    except PermissionError as exc:
        assert "alice" in str(exc)
    s.sent("t1", "c0ffee", "ack", "alice", 1010.0)
    assert [p["id"] for p in s.tables["t1"].pending] == ["c0ffee"]
    assert s.tables["t1"].call is not None  # still there until the table puts its lamps out
    ups = _feed(s, [_status("t1", 7, {"redeal": False}, done=["c0ffee"])], now=1012.0)
    assert s.tables["t1"].call is None and s.tables["t1"].pending == []
    acked = [u["entry"] for u in ups if u["type"] == "feed"]
    assert acked and acked[0]["acked_by"] == "alice" and acked[0]["kind"] == "irregularity"


def test_a_ruling_stands_until_the_next_deal_and_the_result_form_only_while_due() -> None:
    s = ClubState()
    _feed(s, [_msg("t1", "ruling", 3, REDEAL, prev=0), _status("t1", 4, {"redeal": True})], now=1.0)
    assert s.tables["t1"].ruling["headline"] == "REDEAL — East deals"  # type: ignore[index]
    assert not s.tables["t1"].result_due
    _feed(s, [_msg("t1", "event", 8, {"type": "deal_start", "dealer": "E"}, prev=3, deal=2)], now=2.0)
    assert s.tables["t1"].ruling is None
    _feed(s, [_status("t1", 20, {}, deal=2, phase="scoring")], now=3.0)
    assert s.tables["t1"].result_due and s.tables["t1"].to_dict()["result_due"]


def test_scores_and_irregularities_are_told_apart_with_times() -> None:
    s = ClubState()
    score = {"remedy": "score", "law": "Contract Bridge, Scoring", "clause": "CB-score", "reason": "NS made 4S."}
    _feed(s, [_msg("t1", "ruling", 3, REDEAL, prev=0, t=50.0), _msg("t1", "ruling", 9, score, prev=3, t=60.0)], 70.0)
    feed = s.snapshot(70.0)["feed"]
    assert [(e["kind"], e["t"], e["headline"]) for e in feed] == [("score", 60.0, "SCORE"),
                                                                  ("irregularity", 50.0, "REDEAL — East deals")]
    assert [e["seq"] for e in s.table_history("t1")] == [9, 3]


def test_a_gap_in_a_tables_messages_asks_for_a_resync() -> None:
    s = ClubState()
    assert not [u for u in _feed(s, [_msg("t1", "event", 1, {"type": "shuffle"}, prev=0),
                                      _msg("t1", "event", 3, {"type": "cut"}, prev=1)], 1.0)  # 2: a lamp row
                if u["type"] == "resync"]
    ups = _feed(s, [_msg("t1", "event", 9, {"type": "deal_start"}, prev=7)], 2.0)  # 4 to 7 never came
    assert {"type": "resync", "table": "t1"} in ups and s.tables["t1"].resyncs == 1
    said = next(u["entry"] for u in ups if u["type"] == "feed")
    assert said["headline"] == "MESSAGES MISSED" and "after number 3 up to number 7" in said["reason"]
    assert s.ingest(*_msg("t1", "event", 9, {"type": "deal_start"}, prev=7), 3.0) == []  # a repeat: no resync


def test_pack_health_starts_when_the_pack_is_known() -> None:
    s = ClubState()
    _feed(s, [_msg("t1", "pack", 1, {"pack": "unknown", "unreadable": 1, "damaged": 0, "deals": 1})], 1.0)
    topic = "cardtable/t1/pack/red"
    _feed(s, [(topic, _msg("t1", "pack", 2, {"pack": "red", "unreadable": 2, "damaged": 1, "deals": 4})[1])], 1.0)
    packs = s.snapshot(1.0)["packs"]
    assert [p["pack"] for p in packs] == ["red"]
    assert packs[0]["retire"] and packs[0]["why"] == ("2 unreadable cards and 1 damaged card in 4 deals "
                                                      "(retire at 3 between them)")
