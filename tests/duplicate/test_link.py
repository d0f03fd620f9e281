"""The club link for duplicate as data (docs/mqtt.md, "Duplicate"): a table's board message checked field
by field, the session's desk taking batches (a repeat dropped, a message it cannot read journaled as a
refusal and answered to its table), and the seatings and round it publishes."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.wire.duplicate import (
    LinkError,
    board_topic,
    parse_players,
    parse_result,
    parse_session_message,
    result_body,
    seating_topic,
)

from .sessionkit import make_setup, result

MITCHELL_3 = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}


def _message(rec: dict[str, Any], seq: int = 7, **envelope: Any) -> bytes:
    body = result_body(section="A", table_number=rec["table_number"], round=rec["round"], board=rec["board"],
                       ns=rec["ns"], ew=rec["ew"], contract=rec["contract"], declarer=rec["declarer"],
                       tricks=rec["tricks"], lead=rec["lead"], record=rec["record"], verified=rec["verified"],
                       foul=rec["foul"], play=rec["play"], auction=rec["auction"], confirmed={"ns": "N", "ew": "E"})
    env = {"table": rec["table"], "kind": "board", "seq": seq, "prev": seq - 1, "deal": 1, "secret": False,
           "t": 1764500000.5, "body": body, **envelope}
    return json.dumps(env).encode()


@pytest.fixture
def rec() -> dict[str, Any]:
    return result(make_setup(MITCHELL_3), 1, 2, 3, random.Random(5))


def test_a_board_message_becomes_the_sessions_result_record(rec: dict[str, Any]) -> None:
    got = parse_result(board_topic("table-02"), _message(rec))
    assert got["type"] == "result" and got["table"] == "table-02" and got["source"] == "table-02:7"
    assert {k: got[k] for k in ("table_number", "round", "board", "ns", "ew", "contract", "tricks", "lead")} == \
        {k: rec[k] for k in ("table_number", "round", "board", "ns", "ew", "contract", "tricks", "lead")}
    assert got["play"] == rec["play"] and got["confirmed"] == {"ns": "N", "ew": "E"} and got["t"] == 1764500000.5


@pytest.mark.parametrize(("change", "words"), [
    (lambda b: b.update(tricks=14), "tricks must be a whole number 0 to 13, got 14"),
    (lambda b: b.update(round=0), "round must be a whole number 1 to 999, got 0"),
    (lambda b: b.update(lead="1S"), "lead: '1S' is not a card"),
    (lambda b: b.update(play=["AS", "ZZ"]), "play[1]: 'ZZ' is not a card"),
    (lambda b: b.update(declarer="X"), "declarer must be N, E, S or W, got 'X'"),
    (lambda b: b.update(record="ABC"), "record must be the board's fingerprint (64 lower-case hex digits)"),
    (lambda b: b.update(verified="yes"), "verified must be true or false, got 'yes'"),
    (lambda b: b.update(foul={"card": "AS", "played_by": "N", "record_seat": "N", "trick": 1, "seats": ["N"]}),
     "foul: the seat that played the card is the seat the record gives it to"),
    (lambda b: b.update(foul={"card": "AS", "played_by": "N", "record_seat": "E", "trick": 1, "seats": []}),
     "foul.seats must list the seats whose hands differ"),
    (lambda b: b.pop("contract"), "contract must be \"Pass\" or a level 1 to 7, a strain C, D, H, S or NT"),
    (lambda b: b.pop("confirmed"), "confirmed must name who confirmed the result on each side"),
    (lambda b: b.update(confirmed={}), "confirmed must name who confirmed the result on each side"),
    (lambda b: b.update(confirmed={"ns": "N"}), "confirmed must name who confirmed the result on each side"),
    (lambda b: b.update(confirmed={"ns": "E", "ew": "W"}), "got {'ns': 'E', 'ew': 'W'}"),
    (lambda b: b.pop("verified"), "verified must be true or false, got None"),
    # the audit's ["pass"] with 3NT by N was taken, and the PBN export then left the line's [Auction] out unsaid
    (lambda b: b.update(auction=["pass"]), "auction[0] must be a call in PBN's spelling (\"Pass\", \"1C\" to \"7NT\", \"X\", \"XX\"), got 'pass'"),
    (lambda b: b.update(auction=["Pass"]), "the auction has not closed: it needs three passes after the last bid, or four passes"),
    (lambda b: b.update(auction=["Pass", "1N", "Pass", "Pass", "Pass"]), "auction[1] must be a call in PBN's spelling"),
    (lambda b: b.update(auction=["Pass", "1S", "Pass", "X", "Pass", "Pass", "Pass"]), "auction[3]: East doubled, but one spade is East-West's own bid."),
    (lambda b: b.update(auction=["Pass", "1S", "Pass", "Pass", "Pass", "Pass"]), "auction[5]: 'Pass' comes after the auction had closed"),
    (lambda b: b.update(auction=["Pass"] * 4), "the auction is passed out, but the result says"),
])
def test_each_malformed_field_is_named(rec: dict[str, Any], change: Any, words: str) -> None:
    env = json.loads(_message(rec))
    if rec["play"]:
        env["body"]["lead"] = env["body"]["play"][0]
    change(env["body"])
    with pytest.raises(LinkError) as exc:
        parse_result(board_topic("table-02"), json.dumps(env).encode())
    assert words in str(exc.value)


def test_an_auction_is_taken_when_it_ends_in_the_result_an_insufficient_bid_standing_as_accepted(
        rec: dict[str, Any]) -> None:
    """Board 3 is dealt by South: the doc's worked example, and the same with an insufficient bid that
    stands (law 27A1: the table sends the calls that stand)."""
    env = json.loads(_message(rec))
    env["body"].update(contract="1S", declarer="W", tricks=8, lead=None, play=[], verified=False, foul=None)
    for calls in (["Pass", "1S", "Pass", "Pass", "Pass"], ["1NT", "1S", "Pass", "Pass", "Pass"]):
        env["body"]["auction"] = calls
        assert parse_result(board_topic("table-02"), json.dumps(env).encode())["auction"] == calls


@pytest.mark.parametrize("spelling", ["3ntx", "1H ", " 1H", "1hxx", "1N", "4s", "1h", "pass", "PASS", "1 H",
                                      "4SXXX", "8S", "0NT", "4\u2660", "4Sx", "3NTx"])
def test_a_contract_not_in_its_one_spelling_is_refused_naming_the_field(rec: dict[str, Any], spelling: str) -> None:
    # docs/mqtt.md: "4SX" (level, strain C D H S NT, X/XX) or "Pass"; "3ntx" was taken and stored as sent,
    # and the results PBN printed [Contract "3ntx"] beside a ScoreTable that said 3NTX
    env = json.loads(_message(rec))
    env["body"]["contract"] = spelling
    with pytest.raises(LinkError, match="contract must be \"Pass\" or a level 1 to 7") as exc:
        parse_result(board_topic("table-02"), json.dumps(env).encode())
    assert repr(spelling) in str(exc.value)


@pytest.mark.parametrize("spelling", ["Pass", "1C", "3NT", "4SX", "7NTXX", "2DXX"])
def test_a_contract_in_its_one_spelling_is_read_as_sent(rec: dict[str, Any], spelling: str) -> None:
    env = json.loads(_message(rec))
    env["body"].update(contract=spelling, auction=[])   # no auction to end in another contract
    assert parse_result(board_topic("table-02"), json.dumps(env).encode())["contract"] == spelling


@pytest.mark.parametrize(("change", "words"), [
    (lambda e: e.pop("t"), "t must be a finite number, got None"),
    (lambda e: e.update(t=-5), "t must be the seconds since the epoch when the table confirmed the result (0 or more), got -5"),
    (lambda e: e.update(seq=0, prev=0), "seq (the table's journal row, which counts from 1) must be a whole number 1"),
    (lambda e: e.update(seq=-1, prev=0), "seq (the table's journal row, which counts from 1) must be a whole number 1"
                                         " to 4611686018427387904, got -1"),
    (lambda e: e.update(prev=8), "prev (the seq of the table's previous ordered message, at most its own) must be a whole number 0 to 7, got 8"),
    (lambda e: e.update(prev="6"), "prev (the seq of the table's previous ordered message, at most its own)"),
    (lambda e: e.update(deal=-1), "deal must be a whole number 0 to"),
    (lambda e: e.update(secret="no"), "secret must be true or false, got 'no'"),    # was taken (an outside table)
    (lambda e: e.update(secret=0), "secret must be true or false, got 0"),
])
def test_each_malformed_envelope_field_of_a_board_message_is_named(rec: dict[str, Any], change: Any, words: str) -> None:
    """docs/mqtt.md, "The envelope of a board message": ``t`` -5 and a ``prev`` above ``seq`` were taken and
    scored; what the table says there is checked as its body is."""
    env = json.loads(_message(rec))
    change(env)
    with pytest.raises(LinkError) as exc:
        parse_result(board_topic("table-02"), json.dumps(env).encode())
    assert words in str(exc.value)


@pytest.mark.parametrize("change", [lambda e: e.pop("prev"), lambda e: e.pop("deal"), lambda e: e.pop("secret"),
                                    lambda e: e.update(secret=True), lambda e: e.update(prev=7)])
def test_the_optional_envelope_fields_of_a_board_message_may_be_left_out(rec: dict[str, Any], change: Any) -> None:
    env = json.loads(_message(rec))
    change(env)
    assert parse_result(board_topic("table-02"), json.dumps(env).encode())["source"] == "table-02:7"


def test_a_message_for_another_table_or_not_a_board_message_is_refused(rec: dict[str, Any]) -> None:
    with pytest.raises(LinkError, match="names table 'table-02' and kind 'board' on table table-03's board topic"):
        parse_result(board_topic("table-03"), _message(rec))
    with pytest.raises(LinkError, match="is not a board topic"):
        parse_result("cardtable/table-02/event", _message(rec))
    with pytest.raises(LinkError, match="payload is not JSON"):
        parse_result(board_topic("table-02"), b"{not json")
    with pytest.raises(LinkError, match="over the 65536-byte limit"):
        parse_result(board_topic("table-02"), b" " * 70000)
    with pytest.raises(LinkError, match="the lead .* is not the first card of the play"):
        env = json.loads(_message(rec))
        env["body"]["play"] = ["2C"] + env["body"]["play"][1:]
        env["body"]["lead"] = "AS" if env["body"]["play"][0] != "AS" else "KS"
        parse_result(board_topic("table-02"), json.dumps(env).encode())


def test_a_table_reads_only_the_round_and_its_own_seating() -> None:
    seat = json.dumps({"kind": "seating", "table": "table-02", "round": 1}).encode()
    assert parse_session_message("table-02", seating_topic("table-02"), seat)["round"] == 1
    with pytest.raises(LinkError, match="a seating for table 'table-02' on table table-01's topic"):
        parse_session_message("table-01", seating_topic("table-01"), seat)
    with pytest.raises(LinkError, match="is not this table's session topic"):
        parse_session_message("table-01", seating_topic("table-02"), seat)


class Wire:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], bool]] = []

    def __call__(self, topic: str, payload: str, retain: bool) -> None:
        self.sent.append((topic, json.loads(payload), retain))

    def last(self, topic: str) -> dict[str, Any]:
        return [m for t, m, _r in self.sent if t == topic][-1]


def test_the_desk_takes_a_batch_drops_a_repeat_and_answers_a_refusal(tmp_path: Path, rec: dict[str, Any]) -> None:
    setup = make_setup(MITCHELL_3)
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"), wire)
    assert desk.publish_all() == 4   # the round and three seatings, retained
    first = wire.last(seating_topic("table-02"))
    assert (first["round"], first["ns"], first["ew"], [b["board"] for b in first["boards"]]) == (1, "2 NS", "2 EW", [3, 4])
    assert first["boards"][0]["record"] == setup.boards[2].fingerprint and first["move"] is False
    assert first["page"].startswith("/duplicate/table/table-02?key=") and desk.check_key("table-02", first["page"][-20:])
    assert not desk.check_key("table-01", first["page"][-20:])
    changed: list[set[int]] = []
    desk.listeners.append(lambda boards, outcomes: changed.append(boards))
    message = _message(rec)
    for payload in (message, message, b"garbage"):
        assert desk.offer(board_topic("table-02"), payload)
    assert not desk.offer("cardtable/table-02/event", message)
    wire.sent.clear()
    assert desk.tick() and changed == [{3}]
    assert len(desk.session.state.entries) == 1 and desk.taken == 1 and desk.refused == 1
    answers = wire.last(seating_topic("table-02"))["answers"]
    assert [a["status"] for a in answers] == ["taken", "repeat", "refused"]
    assert "payload is not JSON" in answers[-1]["why"]
    assert [t for t, _m, _r in wire.sent] == [seating_topic("table-02")]   # only what changed
    notes = [r.body for r in desk.session.journal.rows() if r.kind == "note"]
    assert notes[-1]["refused"]["record"]["payload"] == "garbage"
    desk.session.close()


def test_a_result_resent_in_another_spelling_is_refused_for_its_contract_not_as_a_second_result(
        tmp_path: Path, rec: dict[str, Any]) -> None:
    rec = {**rec, "contract": "4S", "declarer": "S", "tricks": 10, "lead": None, "play": [], "auction": [], "verified": False,
           "foul": None}
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    lower = json.loads(_message(rec, seq=8))
    lower["body"]["contract"] = "4s"
    for payload in (_message(rec, seq=7), json.dumps(lower).encode(), _message(rec, seq=9)):
        assert desk.offer(board_topic("table-02"), payload)
    assert desk.tick()
    answers = wire.last(seating_topic("table-02"))["answers"]
    assert [a["status"] for a in answers] == ["taken", "refused", "repeat"]
    assert "contract must be" in answers[1]["why"] and "'4s'" in answers[1]["why"]
    assert "second result" not in answers[1]["why"]
    assert [e.contract for e in desk.session.state.entries.values()] == ["4S"]
    desk.session.close()


def test_move_for_the_next_round_reaches_every_table(tmp_path: Path) -> None:
    setup = make_setup(MITCHELL_3)
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"), wire)
    rng = random.Random(2)
    for t in (1, 2, 3):
        s = desk.session.state.movement.at(1, t)
        for b in desk.session.state.movement.boards_of(s.group):
            desk.offer(board_topic(f"table-0{t}"), _message(result(setup, 1, t, b, rng), seq=10 * t + b))
    desk.tick()
    assert desk.director({"type": "round", "round": 2, "by": "td"}).taken
    assert wire.last("cardtable/session/round")["round"] == 2
    for t in (1, 2, 3):
        m = wire.last(seating_topic(f"table-0{t}"))
        assert m["round"] == 2 and m["move"] is True and m["called"] == 2
    assert desk.director({"type": "round", "round": 2, "by": "td"}).why == "round 2 has been called already (the round called is 2)"
    desk.session.close()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("contract", "4s", "contract must be"),
    ("tricks", 14, "tricks"),
    ("record", "beb005d7...cbc06", "record"),
    ("ns", "\ud800", "field 'ns' holds a lone surrogate escape"),
    ("lead", "\ud800", "field 'lead' holds a lone surrogate escape"),
    ("comment", "\udc00", "field 'comment' holds a lone surrogate escape"),   # an unknown field: still refused
])
def test_a_refused_message_whose_number_and_board_read_is_answered_naming_them(
        tmp_path: Path, rec: dict[str, Any], field: str, value: Any, words: str) -> None:
    """docs/mqtt.md: a table matches an answer to its result by its source and board, and stops sending a
    result answered ``refused``. A message refused for one field was answered ``source: ""``, ``board:
    None`` though its seq and board read, so a table could not tell which result it answered."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    bad = json.loads(_message(rec, seq=604))
    bad["body"][field] = value
    assert desk.offer(board_topic("table-02"), json.dumps(bad).encode())
    assert desk.offer(board_topic("table-02"), b"{not json")
    assert desk.tick()
    named, unread = wire.last(seating_topic("table-02"))["answers"]
    assert (named["source"], named["board"], named["status"]) == ("table-02:604", 3, "refused"), named
    assert words in named["why"]
    assert (unread["source"], unread["board"], unread["status"]) == ("", None, "refused")   # nothing to read
    desk.session.close()


def test_after_the_last_round_next_holds_the_boards_move_alone_to_the_director() -> None:
    """docs/mqtt.md, "After the round": the example there, and a round before the last for contrast."""
    from firmware_host.wire.duplicate import next_part
    from laws.duplicate.movement import next_moves
    from laws.session.duplicate.spec import build_movement

    m = build_movement(make_setup(MITCHELL_3).movement)
    assert next_part(next_moves(m, 3, 1)) == {
        "moves": [{"pair": None, "boards": [5, 6], "to_table": None, "round": 0, "direction": None}],
        "said": ["Boards 5-6: to the director"]}
    before = next_part(next_moves(m, 2, 1))["moves"]
    assert [mv["round"] for mv in before] == [3, 3, 3] and before[-1]["pair"] is None and before[-1]["to_table"]


def test_a_refused_players_message_is_answered_as_one_naming_its_number(tmp_path: Path) -> None:
    """A refused ``players`` message stood in the seating's answers as ``{"source": "", "board": null}``,
    as if a board message nobody could read; each answer now says which kind of message it answers."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    players = {"table": "table-01", "kind": "players", "seq": 2101, "prev": 0, "deal": 0, "secret": False, "t": 1.0,
               "body": {"section": "A", "table_number": 1, "round": 1, "side": "ns", "pair": "1 NS",
                        "members": ["1021", "1045"]}}
    assert desk.offer("cardtable/table-01/players", json.dumps(players).encode())
    assert desk.offer(board_topic("table-01"), b"{not json")
    assert desk.tick()
    said, unread = wire.last(seating_topic("table-01"))["answers"]
    assert (said["kind"], said["source"], said["board"], said["status"]) == ("players", "table-01:2101", None, "refused")
    assert "no roster" in said["why"]
    assert (unread["kind"], unread["source"], unread["board"]) == ("board", "", None)
    desk.session.close()


def test_a_restarted_session_answers_each_table_as_before(tmp_path: Path, rec: dict[str, Any]) -> None:
    """A restart emptied every seating's answers: a table whose result was refused just before it was
    never answered again. They are rebuilt from the journal (results taken, refusals, a reused number's word)."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    bad = json.loads(_message(rec, seq=8))
    bad["body"]["tricks"] = 14
    for payload in (_message(rec, seq=7), json.dumps(bad).encode(), b"{not json"):
        desk.offer(board_topic("table-02"), payload)
    desk.tick()
    before = wire.last(seating_topic("table-02"))["answers"]
    assert [a["status"] for a in before] == ["taken", "refused", "refused"]
    desk.session.close()
    again = Wire()
    desk = SessionDesk(Session.open(tmp_path / "s", analyse=False, synchronous="NORMAL"), again)
    desk.publish_all()
    assert again.last(seating_topic("table-02"))["answers"] == before
    assert again.last(seating_topic("table-01"))["answers"] == []
    desk.session.close()


def _players(table: str, number: int, pair: str, members: list[str], seq: int) -> bytes:
    return json.dumps({"table": table, "kind": "players", "seq": seq, "prev": seq - 1, "deal": 0, "secret": False,
                       "t": 1.0, "body": {"section": "A", "table_number": number, "round": 1, "side": "ns",
                                          "pair": pair, "members": members}}).encode()


@pytest.mark.parametrize(("change", "words"), [
    ({"t": "now"}, "t must be a finite number, got 'now'"),
    ({"t": -5}, "t must be the seconds since the epoch when the table sent it (0 or more), got -5"),
    ({"prev": 41}, "prev (the seq of the table's previous ordered message, at most its own) must be a whole number 0 to 40, got 41"),
    ({"deal": "x"}, "deal must be a whole number 0 to 4611686018427387904, got 'x'"),
    ({"secret": "no"}, "secret must be true or false, got 'no'"),
])
def test_a_players_messages_envelope_has_a_board_messages_rules(change: dict[str, Any], words: str) -> None:
    """docs/mqtt.md: a ``players`` message is ordered like a ``board`` message; an outside table's with ``t``
    "now", ``prev`` above its ``seq``, ``deal`` "x" or ``secret`` "no" was read (its members named) where
    the same envelope on a board message is refused naming the field."""
    good = json.loads(_players("table-01", 1, "1 NS", ["1021", "1045"], 40))
    assert parse_players("cardtable/table-01/players", json.dumps(good).encode())["source"] == "table-01:40"
    with pytest.raises(LinkError) as exc:
        parse_players("cardtable/table-01/players", json.dumps({**good, **change}).encode())
    assert str(exc.value) == words

def test_member_cards_refused_by_the_naming_rules_are_answered_to_their_table(tmp_path: Path) -> None:
    """A ``players`` message refused by the naming rules (a member already in another pair) was journaled
    and shown to the director, but its record named no table, so the table's seating never answered
    it and the players at the table never learnt why their cards named nobody."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    (tmp_path / "s" / "roster.csv").write_text("member,name\n1021,Ann Smith\n1045,Bob Jones\n1102,Cy Young\n",
                                               encoding="utf-8")
    desk.offer("cardtable/table-01/players", _players("table-01", 1, "1 NS", ["1021", "1045"], 31))
    desk.offer("cardtable/table-02/players", _players("table-02", 2, "2 NS", ["1102", "1021"], 57))
    assert desk.tick()
    assert wire.last(seating_topic("table-01"))["answers"] == []          # taken: answered by its players
    [said] = wire.last(seating_topic("table-02"))["answers"]
    assert said == {"source": "table-02:57", "board": None, "status": "refused", "kind": "players",
                    "why": "pair 2 NS: member 1021 (Ann Smith) already plays in pair 1 NS; one player cannot be "
                           "at two tables"}
    desk.session.close()
    again = Wire()
    desk = SessionDesk(Session.open(tmp_path / "s", analyse=False, synchronous="NORMAL"), again)
    desk.publish_all()
    assert again.last(seating_topic("table-02"))["answers"] == [said]     # and after a restart
    desk.session.close()


def test_a_seq_below_1_is_answered_with_seqs_own_rule(tmp_path: Path, rec: dict[str, Any]) -> None:
    """``seq`` -1 was answered with any message's range (``seq must be a whole number 0 to ...``), which
    does not say what seq is nor why 0 is refused too; a ``players`` message took 0. Both are journal rows
    of the table's (docs/mqtt.md), counting from 1, and the answer says so."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    rule = "seq (the table's journal row, which counts from 1) must be a whole number 1 to 4611686018427387904, got "
    desk.offer(board_topic("table-02"), _message(rec, seq=-1))
    desk.offer("cardtable/table-02/players", _players("table-02", 2, "2 NS", ["1021", "1045"], -1))
    desk.offer("cardtable/table-02/players", _players("table-02", 2, "2 NS", ["1021", "1045"], 0))
    assert desk.tick()
    board, players, zero = wire.last(seating_topic("table-02"))["answers"]
    assert (board["kind"], board["source"], board["board"], board["why"]) == ("board", "", 3, rule + "-1")
    assert (players["kind"], players["source"], players["why"]) == ("players", "", rule + "-1")
    assert (zero["kind"], zero["source"], zero["why"]) == ("players", "table-02:0", rule + "0")
    desk.session.close()


def test_member_cards_past_the_logins_refusal_notes_are_answered_as_member_cards(tmp_path: Path) -> None:
    """A ``players`` message refused past its login's 100 refusal notes (counted, not journaled) was
    answered with ``kind`` ``board``: its record kept no topic to say which message it was."""
    wire = Wire()
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"), wire)
    for seq in range(1, 102):
        desk.offer("cardtable/table-02/players", _players("table-02", 2, "2 NS", ["1021"], seq))   # one member
    assert desk.tick()
    *_, noted, quiet = wire.last(seating_topic("table-02"))["answers"]
    assert (noted["source"], noted["kind"]) == ("table-02:100", "players")
    assert (quiet["source"], quiet["kind"], quiet["board"]) == ("table-02:101", "players", None)
    assert quiet["why"].startswith("refused and not journaled (this login is past its 100 refusal notes): members")
    desk.session.close()


def test_the_round_reaches_the_broker_in_the_order_it_was_made(tmp_path: Path) -> None:
    """A reconnection's messages (paho's thread) made before the director called round 2 but handed to the
    client after the call's own: round 1 stayed retained and the tables never moved. The reconnection is
    held here between making its messages and sending the first while the director calls."""
    session = Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}),
                             analyse=False)
    sent: list[tuple[str, dict[str, Any]]] = []
    made, go = threading.Event(), threading.Event()

    def publish(topic: str, body: str, retain: bool) -> None:
        if threading.current_thread().name == "reconnection":
            made.set()
            assert go.wait(30)
        sent.append((topic, json.loads(body)))

    desk = SessionDesk(session, publish=publish)
    reconnection = threading.Thread(target=desk.publish_all, name="reconnection")
    reconnection.start()
    assert made.wait(30)                                    # round 1: made, not yet sent
    director = threading.Thread(target=lambda: desk.director({"type": "round", "round": 2, "by": "director"}))
    director.start()
    director.join(0.5)     # the call is journaled and its messages wait for those in hand (sent at once before)
    go.set()
    reconnection.join(30)
    director.join(30)
    rounds = [m["round"] for topic, m in sent if topic == "cardtable/session/round"]
    assert session.state.called == 2 and rounds[-1] == 2, rounds
    session.close()
