"""Issue 29, items 2 and 8 at the table, through the controller and a real journal: the records the
session sends are checked one by one against its commitment (the checker fails on each kind of broken
input), journaled, taken or refused; a restarted table takes them again from its journal alone; once the
round's boards all have results the table says where the pairs and the boards go, once."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from firmware_host.table.controller import SessionInput
from firmware_host.table.session_records import check_records
from firmware_host.wire.duplicate import hand_records_part, next_part
from laws.cards import Seat
from laws.duplicate.deal import board_index, commitment
from laws.duplicate.movement import mitchell, next_moves
from laws.games.duplicate_board import board_of
from tests.table.duptable import bid, confirm, play, records, run, swapped, table

RECS = records(6, seed=5)
ROOT = commitment(RECS.values())
INDEX = board_index(RECS.values())


def _part(*numbers: int) -> dict[str, Any]:
    return json.loads(json.dumps(hand_records_part([RECS[n] for n in numbers], INDEX, ROOT)))


def _seating(round_: int, boards: tuple[int, ...], left: tuple[int, ...], part: dict[str, Any] | None = None,
             nxt: dict[str, Any] | None = None) -> dict[str, Any]:
    msg = {"kind": "seating", "table": "t2", "section": "A", "table_number": 2, "round": round_, "ns": "2 NS",
           "ew": "2 EW", "boards": [{"board": b, "record": RECS[b].fingerprint} for b in boards], "left": list(left),
           "sit_out": False, "called": round_, "rounds": 3, "seq": 1, "t": 0.0, "hand_records": part if part is not None else _part(*boards)}
    return msg | ({"next": nxt} if nxt else {})


def test_the_checker_takes_true_records_and_fails_on_each_broken_input() -> None:
    ok = check_records(_part(3, 4), ROOT)
    assert sorted(ok.taken) == [3, 4] and ok.refused == () and check_records(_part(3, 4), "").taken.keys() == {3, 4}
    altered = _part(3, 4)
    altered["deals"][1]["deal"] = swapped(RECS[4].deal, Seat.S, Seat.W).pbn()
    renumbered = _part(3)
    renumbered["deals"][0]["board"] = 5
    forged = _part(3)
    forged["index"][2][1] = "0" * 64
    cases = [
        (altered, ROOT, [4], "board 4: the record does not match the commitment"),
        (renumbered, ROOT, [5], "board 5: the record does not match the commitment"),
        (forged, ROOT, [None], "the index does not hash to the commitment"),
        (_part(3), "f" * 64, [None], "records of another session"),
        ({**_part(3), "commitment": "x"}, "", [None], "name no commitment"),
        ({**_part(3), "deals": [{"board": 3, "deal": "N:AKQ"}]}, ROOT, [3], "the deal cannot be read"),
        ({**_part(3), "index": "nope"}, ROOT, [None], "the index is not a list of [board, hash]"),
        ("nope", ROOT, [None], "the hand records are not an object"),
    ]
    for part, pinned, boards, why in cases:
        v = check_records(part, pinned)
        assert [b for b, _ in v.refused] == boards and why in v.said(), (why, v.said())
        assert not set(v.taken) & {b for b in boards if b is not None}


def test_the_table_checks_journals_and_takes_the_sessions_records_and_again_after_a_restart(tmp_path: Path) -> None:
    ctl, proc, j = table(tmp_path, {}, None, source="session")        # no hand records file at all
    altered = _part(3, 4)
    altered["deals"][0]["deal"] = swapped(RECS[3].deal, Seat.N, Seat.E).pbn()
    run(ctl, SessionInput({"kind": "round", "round": 1, "commitment": ROOT}))
    run(ctl, SessionInput(_seating(1, (3, 4), (3, 4), altered)))
    assert board_of(ctl.engine.state) is None                          # board 3 refused: never placed
    assert ctl.offline["records"].startswith("hand records refused: board 3: the record does not match")
    notes = [r.body["hand_records"] for r in j.rows() if r.kind == "note" and "hand_records" in r.body]
    assert notes[-1]["taken"] == [4] and notes[-1]["refused"][0]["board"] == 3
    other = _part(3, 4)
    other["deals"][1]["deal"] = swapped(RECS[4].deal, Seat.S, Seat.W).pbn()
    run(ctl, SessionInput(_seating(1, (3, 4), (3, 4), other)))
    assert ctl.offline["records"].startswith("hand records refused: board 4:")   # the newest reason
    run(ctl, SessionInput(_seating(1, (3, 4), (3, 4))))                # sent again, true
    b = board_of(ctl.engine.state)
    assert b is not None and (b.number, b.record) == (3, RECS[3]) and "records" not in ctl.offline
    j.close()
    ctl, proc, j = table(tmp_path, {}, None, source="session")        # restarted without its broker
    assert sorted(proc.records) == [3, 4] and board_of(ctl.engine.state).number == 3
    j.close()


def test_the_table_says_who_plays_there_when_it_changes(tmp_path: Path) -> None:
    ctl, proc, j = table(tmp_path, {}, None, source="session")
    ns = [{"name": "Ann Smith", "member": "1021"}, {"name": "Jane Visitor", "member": ""}]
    for players in ({"ns": ns, "ew": []}, {"ns": ns, "ew": []}, {"ns": ns, "ew": [{"name": "Cy", "member": "1102"}] * 2}):
        run(ctl, SessionInput(_seating(1, (3, 4), (3, 4)) | {"players": players}))
    said = [r.body["text"] for r in j.rows() if r.kind == "note" and "Playing here" in str(r.body.get("text"))]
    assert said == ["Playing here: North-South 2 NS: Ann Smith (1021) & Jane Visitor",
                    "Playing here: North-South 2 NS: Ann Smith (1021) & Jane Visitor; East-West 2 EW: Cy (1102) & "
                    "Cy (1102)"]
    j.close()


def test_after_the_round_the_table_says_where_pairs_and_boards_go_once(tmp_path: Path) -> None:
    m = mitchell(3, 2)
    nxt = next_part(next_moves(m, 1, 2))
    assert nxt["said"] == ["Pair 2 NS: stays at table 2, North-South", "Pair 2 EW: to table 3, East-West",
                           "Boards 3-4: to table 1"]
    ctl, proc, j = table(tmp_path, {}, None, source="session")
    run(ctl, SessionInput(_seating(1, (3, 4), (3, 4), nxt=nxt)))
    rng = random.Random(2)
    for n in (3, 4):
        assert board_of(ctl.engine.state).number == n
        bid(ctl, RECS[n])
        play(ctl, RECS[n].deal, rng)
        confirm(ctl, Seat.N, Seat.E)
    said = lambda: [r.body["text"] for r in j.rows() if r.kind == "note" and "Round 1 is over" in str(r.body.get("text"))]  # noqa: E731
    assert said() == []                                                  # not before the session has the results
    run(ctl, SessionInput(_seating(1, (3, 4), (), nxt=nxt)))
    run(ctl, SessionInput(_seating(1, (3, 4), (), nxt=nxt) | {"answers": [{"board": 4}]}))   # told once
    assert said() == ["Round 1 is over. Pair 2 NS: stays at table 2, North-South; Pair 2 EW: to table 3, "
                      "East-West; Boards 3-4: to table 1"]
    j.close()


def test_a_table_moved_on_says_move_for_the_round_once_even_after_a_restart(tmp_path: Path) -> None:
    """docs/mqtt.md: a seating's ``move`` is true when the table has just been moved on, and "the display
    shows 'Move for round N'". The table's own screen said nothing of it (only its page did): round 2's
    board came up under the players of round 1 with no word that they were to move (audit q1)."""
    said = lambda: [r.body["text"] for r in j.rows() if r.kind == "note" and "Move for" in str(r.body.get("text"))]  # noqa: E731
    ctl, proc, j = table(tmp_path, {}, None, source="session")
    run(ctl, SessionInput(_seating(1, (3, 4), (3, 4))))
    assert said() == []                                                  # round 1: nobody moves onto it
    run(ctl, SessionInput(_seating(2, (5, 6), (5, 6)) | {"move": True}))
    run(ctl, SessionInput(_seating(2, (5, 6), (5, 6)) | {"move": True}))   # said once
    assert said() == ["Move for round 2."]
    j.close()
    ctl, proc, j = table(tmp_path, {}, None, source="session")            # restarted: not said again
    run(ctl, SessionInput(_seating(2, (5, 6), (5, 6)) | {"move": True}))
    assert said() == ["Move for round 2."]
    j.close()


def test_a_table_takes_a_pin_of_the_session_s_commitment_or_the_file_s_and_says_which() -> None:
    """One rule for the two commitments ``duplicate open`` and ``event open`` print when the file holds more
    boards than the session plays: a table's ``[duplicate] commitment`` may pin either. A pin of the whole
    file's (``boards commit``) refused every record ("pin the session commitment"); the message now carries
    the file's commitment and the index entries of the boards not played, and the table checks each record
    against the one it pins, its journal note saying which matched."""
    from laws.duplicate.deal import Board, file_part

    extra = [Board.numbered(6 + n, b.deal) for n, b in records(2, seed=9).items()]
    whole = commitment([*RECS.values(), *extra])
    file = file_part(list(RECS.values()), [*RECS.values(), *extra])
    assert file is not None and file["commitment"] == whole and [n for n, _ in file["others"]] == [7, 8]
    part = json.loads(json.dumps(hand_records_part([RECS[3], RECS[4]], INDEX, ROOT, file)))
    by_file = check_records(part, whole, configured=True)
    assert sorted(by_file.taken) == [3, 4] and by_file.refused == () and by_file.matched == "file"
    assert by_file.note()["hand_records"] == {"commitment": whole, "matched": "file", "taken": [3, 4], "refused": []}
    by_session = check_records(part, ROOT, configured=True)
    assert sorted(by_session.taken) == [3, 4] and by_session.note()["hand_records"]["matched"] == "session"
    assert check_records(part, "", configured=False).matched == "session"
    # the file's checked as the session's is: an altered record, a forged entry of a board not played
    altered = json.loads(json.dumps(part))
    altered["deals"][1]["deal"] = swapped(RECS[4].deal, Seat.S, Seat.W).pbn()
    v = check_records(altered, whole, configured=True)
    assert sorted(v.taken) == [3] and v.said() == ("board 4: the record does not match the commitment (its hash "
                                                   "is not the index's)")
    forged = json.loads(json.dumps(part))
    forged["file"]["others"][0][1] = "0" * 64
    v = check_records(forged, whole, configured=True)
    assert not v.taken and v.said() == f"the index does not hash to the commitment {whole[:16]}...: none taken"
    # a pin of neither: both named
    other = "f" * 64
    v = check_records(part, other, configured=True)
    assert not v.taken and v.said() == (
        f"the records are committed to {ROOT[:16]}... (the session's) and {whole[:16]}... (the file's), not to "
        f"the {other[:16]}... [duplicate] commitment pins, neither the session's nor the file's (records of "
        "another session): none taken")
    # only a configured pin may be the file's: the round message names the session's
    assert check_records(part, whole, configured=False).said().endswith("(records of another session): none taken")
