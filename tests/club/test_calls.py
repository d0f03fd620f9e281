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
    body = {"table": table, "phase": phase, "game": "contract-bridge", "deal": deal, "dealer": "E", "lamps": lamps,
            "score": {}, **{k: extra.pop(k) for k in ("offline", "ruling", "name") if k in extra}}
    return _msg(table, "status", seq, body, **extra)


REDEAL = {"remedy": "redeal", "law": "Contract Bridge, Redeal", "clause": "CB-redeal-faced",
          "reason": "A card was faced in the deal.", "dealer": "E"}
CLAIM = {"remedy": "claim_option", "law": "Contract Bridge, Redeal", "clause": "CB-claim",
         "reason": "The side not at fault may demand a new deal.", "side": "NS"}


def _feed(s: ClubState, msgs: list[tuple[str, bytes]], now: float) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for topic, payload in msgs:
        out += s.ingest(topic, payload, now)
    return out


PACK = {"remedy": "replace_pack", "law": "Contract Bridge, Imperfect pack", "clause": "CB-damaged",
        "reason": "A damaged card was dealt.", "dealer": "E"}
ATTENTION = {"remedy": "attention", "law": "Euchre, law 52", "clause": "EU-52",
             "reason": "South led out of turn.", "seat": "S"}


def test_the_queue_holds_tables_that_need_the_director_longest_wait_first() -> None:
    """A fresh pack and a player's attention call the director; a redeal and a claim the players settle
    only light the table's card (issue 21: the calls rule, club/calls.py)."""
    s = ClubState()
    _feed(s, [_msg("t2", "ruling", 5, PACK, prev=0), _status("t2", 6, {"replace_pack": True})], now=1000.0)
    _feed(s, [_msg("t1", "ruling", 3, ATTENTION, prev=0), _status("t1", 4, {"attention_S": True})], now=1010.0)
    _feed(s, [_msg("t4", "ruling", 3, REDEAL, prev=0), _status("t4", 4, {"redeal": True})], now=1015.0)
    _feed(s, [_msg("t5", "ruling", 3, CLAIM, prev=0), _status("t5", 4, {"attention_N": True, "attention_S": True})],
          now=1016.0)
    _feed(s, [_status("t3", 2, {"redeal": False, "shoe_offline": True})], now=1020.0)  # no ruling lamp: no call
    calls = sorted((v for v in s.tables.values() if v.call), key=lambda v: v.call["since"])  # type: ignore[index]
    assert [v.table for v in calls] == ["t2", "t1"]
    call = s.tables["t2"].call
    assert call is not None and call["headline"] == "REPLACE THE PACK — East deals"  # the terminal's title
    assert call["reason"] == "A damaged card was dealt." and call["law"] == "Contract Bridge, Imperfect pack"
    # not calls, but lit on their cards with the ruling that lit them
    redeal = s.tables["t4"].to_dict()
    assert redeal["lit"] == [{"lamp": "REDEAL", "headline": "REDEAL — East deals", "law": "Contract Bridge, Redeal",
                              "clause": "CB-redeal-faced", "reason": "A card was faced in the deal."}]
    claim = s.tables["t5"].to_dict()
    assert [(i["lamp"], i["headline"]) for i in claim["lit"]] == [("ATTENTION North, South", "A REDEAL MAY BE CLAIMED")]
    assert claim["dealer"] == "East"
    shoe = s.tables["t3"].to_dict()["lamps"]  # only lit lamps, in the terminal's words
    assert len(shoe) == 1 and "SHOE" in shoe[0] and "_" not in shoe[0]
    text = json.dumps(s.snapshot(0.0))
    for code in ("claim_option", "new_shuffle_and_cut", "attention_N", "shoe_offline", '"redeal"'):
        assert code not in text, f"code name {code} on the page"


def test_every_lamp_lit_shows_with_its_own_reason() -> None:
    """Four lamps lit by three rulings and a device: the card shows all four, each with its reason, not
    one reason of four."""
    s = ClubState()
    shuffle = {"remedy": "new_shuffle_and_cut", "law": "Contract Bridge, New Shuffle and Cut",
               "clause": "CB-new-shuffle", "reason": "North asked for a new shuffle.", "dealer": "E"}
    lamps = {"shuffle": True, "replace_pack": True, "attention_S": True, "camera_offline": True}
    _feed(s, [_msg("t1", "ruling", 3, shuffle, prev=0), _msg("t1", "ruling", 4, PACK, prev=3),
              _msg("t1", "ruling", 5, ATTENTION, prev=4),
              _status("t1", 6, lamps, offline={"camera": "picamera2 is not installed"})], now=1.0)
    lit = {i["lamp"]: i for i in s.tables["t1"].to_dict()["lit"]}
    assert set(lit) == {"SHUFFLE+CUT", "NEW PACK", "ATTENTION South", "NO CAMERA"}
    assert lit["SHUFFLE+CUT"]["reason"] == "North asked for a new shuffle."
    assert lit["NEW PACK"]["reason"] == "A damaged card was dealt."
    assert lit["ATTENTION South"]["reason"] == "South led out of turn."
    assert lit["NO CAMERA"]["reason"] == "picamera2 is not installed"
    _feed(s, [_status("t1", 7, {"attention_S": True})], now=2.0)  # the others went out
    assert [i["lamp"] for i in s.tables["t1"].to_dict()["lit"]] == ["ATTENTION South"]


def test_a_dashboard_that_was_away_opens_the_call_from_the_status_alone() -> None:
    s = ClubState()
    _feed(s, [_status("t1", 9, {"replace_pack": True}, ruling=None)], now=1.0)
    assert s.tables["t1"].call is None
    s2 = ClubState()
    _feed(s2, [_status("t1", 9, {"replace_pack": True}, ruling=PACK)], now=1.0)
    assert s2.tables["t1"].call is not None and s2.tables["t1"].call["headline"].startswith("REPLACE THE PACK")


def test_taking_then_clearing_a_call() -> None:
    s = ClubState()
    _feed(s, [_msg("t1", "ruling", 3, PACK, prev=0), _status("t1", 4, {"replace_pack": True})], now=1000.0)
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
    ups = _feed(s, [_status("t1", 7, {"replace_pack": False}, done=["c0ffee"])], now=1012.0)
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


def test_a_calling_ruling_that_comes_after_its_status_opens_the_call() -> None:
    """The status is retained and sent apart from the ordered rulings: it may arrive first."""
    s = ClubState()
    _feed(s, [_status("t1", 6, {"replace_pack": True}), _msg("t1", "ruling", 5, PACK, prev=0)], now=1.0)
    assert s.tables["t1"].call is not None and s.tables["t1"].call["reason"] == "A damaged card was dealt."


def test_one_table_s_flood_of_gaps_makes_one_resync_a_window_and_keeps_the_others_feed() -> None:
    """A live attack: a table login sent a thousand ordered messages each with a gap; each asked the dashboard
    to subscribe again to its retained topics, so the broker sent every retained message of that table again a
    thousand times, and table-02's next status reached the director 14 s late. One re-read a table a window
    now; a gap inside it is counted and re-read at the table's first message after the window."""
    from firmware_host.club.state import RESYNC_EVERY

    s = ClubState()
    _feed(s, [_msg("t2", "ruling", 1, REDEAL, prev=0)], 1.0)
    _feed(s, [_msg("t1", "event", 1, {"type": "shuffle"}, prev=0)], 1.0)
    ups = _feed(s, [_msg("t1", "event", 10 * k, {"type": "cut"}, prev=10 * k - 1) for k in range(1, 1001)], 2.0)
    assert [u for u in ups if u["type"] == "resync"] == [{"type": "resync", "table": "t1"}]
    assert s.tables["t1"].resyncs == 1000   # every gap counted, one re-read and one line in the feed
    assert [e["table"] for e in s.snapshot(2.0)["feed"]] == ["t1", "t2"]
    # inside the window nothing more; the table's first message after it (a heartbeat) re-reads it
    assert {"type": "resync", "table": "t1"} not in s.ingest(
        *_msg("t1", "event", 20000, {"type": "cut"}, prev=19999), 2.0 + RESYNC_EVERY / 2)
    beat = ("cardtable/t1/heartbeat", json.dumps({"table": "t1", "t": 1.0, "seq": 0, "pending": 0}).encode())
    assert {"type": "resync", "table": "t1"} in s.ingest(*beat, 2.0 + RESYNC_EVERY)
    assert {"type": "resync", "table": "t1"} not in s.ingest(*beat, 2.0 + RESYNC_EVERY + 1)  # nothing owed now


def test_a_resync_asks_again_for_the_status_and_the_packs_shown_never_every_retained_pack() -> None:
    """A table may leave any number of retained ``pack/<name>`` topics on the broker; a resync that asked
    for ``pack/+`` had them all sent again each time. It asks for its status and the packs it shows."""
    s = ClubState()
    for sub, name in (("red", "red"), ("blue", "blue"), ("odd", "a name unlike its topic's"), ("red", "red")):
        _feed(s, [(f"cardtable/t1/pack/{sub}",
                   _msg("t1", "pack", 1, {"pack": name, "unreadable": 0, "damaged": 0, "deals": 1})[1])], 1.0)
    assert s.resync_topics("t1") == ["cardtable/t1/status", "cardtable/t1/pack/red", "cardtable/t1/pack/blue",
                                     "cardtable/t1/pack/odd"]
    assert s.resync_topics("t9") == ["cardtable/t9/status"]


def test_a_table_s_packs_shown_are_bounded() -> None:
    """A live attack: one table login sent 20,000 pack messages, each naming a new pack; the dashboard kept
    every one, and each director's page load carried all of them (1.9 MB). At most PACKS_SHOWN a table."""
    from firmware_host.club.state import PACKS_SHOWN

    def pack(table: str, seq: int, name: str, deals: int = 1) -> tuple[str, bytes]:
        body = {"pack": name, "unreadable": 2 if deals > 1 else 0, "damaged": 0, "deals": deals}
        return f"cardtable/{table}/pack/{name}", _msg(table, "pack", seq, body)[1]

    s = ClubState()
    _feed(s, [pack("t1", k + 1, f"P{k}") for k in range(PACKS_SHOWN + 50)], 1.0)
    _feed(s, [pack("t2", 1, "red")], 1.0)
    packs = s.snapshot(1.0)["packs"]
    assert len([p for p in packs if p["table"] == "t1"]) == PACKS_SHOWN and {"t1", "t2"} == {p["table"] for p in packs}
    assert len(s.resync_topics("t1")) == 1 + PACKS_SHOWN
    assert s.refused == 50
    # a pack already shown is still updated
    _feed(s, [pack("t1", 999, "P0", deals=5)], 2.0)
    assert next(p for p in s.snapshot(2.0)["packs"] if p["pack"] == "P0")["deals"] == 5
