"""Deliberate breakages of a recorded soak evening, for the checker's mutation test.

Each mutator takes a record (with its journal rows) and returns a broken copy, or raises ``NotHere``
when the evening holds nothing it can break that way. ``MUTATORS`` pairs each with the finding that must
catch it. The first eighteen are the breakages issue 20 fed to the checker (six it caught, twelve it
passed); the rest are ours, the last three issue 22's (a bridge auction's or play's irregularity).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_host.soak.checker import Findings
from firmware_host.soak.record import Record

Row = tuple[int, str, dict[str, Any]]


class NotHere(LookupError):
    """The evening has nothing this mutator can break."""


def _copy(record: Record) -> tuple[Record, list[Row]]:
    r = copy.deepcopy(record)
    return r, r.rows


def _events(rows: list[Row], typ: str, src: str | None = None) -> list[int]:
    return [i for i, (_, k, b) in enumerate(rows) if k == "event" and b.get("type") == typ
            and (src is None or b.get("src") == src)]


def _rulings(rows: list[Row], *remedies: str) -> list[int]:
    return [i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("remedy") in remedies]


def _mistakes(rows: list[Row]) -> list[int]:
    """Rulings on mistakes (not the score sheet, the formation, a bridge auction's close or a penalty)."""
    return [i for i, (_, k, b) in enumerate(rows) if k == "ruling" and
            b.get("remedy") not in ("score", "game_won", "rubber_won", "formation", "penalty", "contract")]


def _pick(found: list[int]) -> int:
    if not found:
        raise NotHere
    return found[len(found) // 2]


def _edit(rows: list[Row], i: int, **changes: Any) -> None:
    seq, kind, body = rows[i]
    rows[i] = (seq, kind, {**body, **changes})


# -- the twelve the old checker passed -------------------------------------------------------------------

def all_cards_to_north(record: Record) -> Record:
    """Every card of one full deal journaled to North."""
    r, rows = _copy(record)
    starts = _events(rows, "deal_start")
    for a, b in zip(starts, [*starts[1:], len(rows)]):
        cards = [i for i in range(a, b) if rows[i][2].get("type") == "card_dealt" and rows[i][2].get("src") == "shoe"]
        if len(cards) >= r.complete:
            for i in cards:
                _edit(rows, i, seat="N")
            return r
    raise NotHere


def score_changed_by_500(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_rulings(rows, "score"))
    body = rows[i][2]
    if "above" in body:  # bridge: 500 more above the line for the side that scored
        side = body.get("side") or "NS"
        _edit(rows, i, above={**body["above"], side: body["above"].get(side, 0) + 500})
    else:
        _edit(rows, i, points=int(body.get("points", 0)) + 500)
    return r


def hand_scored_twice(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_rulings(rows, "score"))
    rows.insert(i + 1, copy.deepcopy(rows[i]))
    return r


def extra_rubber(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_rulings(rows, "score"))
    seq, _, body = rows[i]
    rows.insert(i + 1, (seq, "ruling", {"remedy": "rubber_won", "clause": body.get("clause"), "law": body.get("law"),
                                        "reason": "A rubber.", "side": body.get("side"), "points": 2,
                                        "totals": {"NS": 2, "EW": 0}, "deal": body.get("deal")}))
    return r


def stray_formation(record: Record) -> Record:
    r, rows = _copy(record)
    f = next((row for row in rows if row[1] == "ruling" and row[2].get("remedy") == "formation"), None)
    if f is None:
        raise NotHere
    i = _pick(_events(rows, "deal_start"))
    rows.insert(i + 1, (rows[i][0], "ruling", copy.deepcopy(f[2])))
    return r


def ruling_wrong_dealer(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick([i for i in _mistakes(rows) if "dealer" in rows[i][2]])
    dealer = rows[i][2]["dealer"]
    _edit(rows, i, dealer={"N": "E", "E": "S", "S": "W", "W": "N"}[dealer])
    return r


def ruling_wrong_side(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick([i for i in _mistakes(rows) + _rulings(rows, "penalty") if "side" in rows[i][2]])
    _edit(rows, i, side={"NS": "EW", "EW": "NS"}[rows[i][2]["side"]])
    return r


def missing_deal_end(record: Record) -> Record:
    r, rows = _copy(record)
    del rows[_pick(_events(rows, "deal_end", "shoe"))]
    return r


def wrong_dealer_in_deal_start(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_events(rows, "deal_start"))
    _edit(rows, i, dealer={"N": "E", "E": "S", "S": "W", "W": "N"}[rows[i][2]["dealer"]])
    return r


def lamps_stuck_lit(record: Record) -> Record:
    r, rows = _copy(record)
    lamps = [i for i, row in enumerate(rows) if row[1] == "lamp"]
    if not lamps:
        raise NotHere
    for i in lamps:
        rows[i] = (rows[i][0], "lamp", dict.fromkeys(rows[i][2], True))
    return r


def a_traceback(record: Record) -> Record:
    r, _ = _copy(record)
    r.tracebacks += 1
    r.notes.append("tracebacks in the output of the soak's processes, by the line of ours that raised: "
                   "table/controller.py:200 x1")
    return r


def exit_1(record: Record) -> Record:
    r, _ = _copy(record)
    r.exits.append(1)
    r.restarts += 1
    return r


# -- the six it caught -----------------------------------------------------------------------------------

def card_lost(record: Record) -> Record:
    r, rows = _copy(record)
    del rows[_pick(_events(rows, "card_dealt", "shoe"))]
    return r


def card_twice(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_events(rows, "card_dealt", "shoe"))
    rows.insert(i, copy.deepcopy(rows[i]))
    return r


def cards_swapped(record: Record) -> Record:
    r, rows = _copy(record)
    cards = _events(rows, "card_dealt", "shoe")
    pairs = [(a, b) for a, b in zip(cards, cards[1:]) if b == a + 1 and rows[a][2]["card"] != rows[b][2]["card"]]
    if not pairs:
        raise NotHere
    a, b = pairs[len(pairs) // 2]
    rows[a], rows[b] = rows[b], rows[a]
    return r


def entry_lost(record: Record) -> Record:
    r, rows = _copy(record)
    del rows[_pick([i for i, (_, k, b) in enumerate(rows) if k == "event" and b.get("src") == "director"
                    and b.get("type") == "card_played"])]
    return r


def ruling_missed(record: Record) -> Record:
    r, rows = _copy(record)
    del rows[_pick(_mistakes(rows))]
    return r


def ruling_false(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_events(rows, "deal_start"))
    rows.insert(i + 1, (rows[i][0], "ruling", {"remedy": "redeal", "clause": "CB-redeal-faced" if r.game ==
                                               "contract-bridge" else "EU-34", "law": "x", "reason": "x",
                                               "dealer": rows[i][2]["dealer"]}))
    return r


# -- ours ------------------------------------------------------------------------------------------------

def result_unscored(record: Record) -> Record:
    r, rows = _copy(record)
    results = _events(rows, "result")
    for i in reversed(results):
        after = [j for j in range(i + 1, min(i + 4, len(rows))) if rows[j][1] == "ruling"
                 and rows[j][2].get("remedy") in ("score", "game_won", "rubber_won")]
        if after:
            for j in reversed(after):
                del rows[j]
            return r
    raise NotHere


def ruling_in_the_next_deal(record: Record) -> Record:
    r, rows = _copy(record)
    starts = _events(rows, "deal_start")
    for i in _mistakes(rows):
        nxt = [s for s in starts if s > i]
        if nxt:
            row = rows.pop(i)
            rows.insert(nxt[0], row)  # now just after the next deal_start (which moved up by one)
            return r
    raise NotHere


def ruling_wrong_seat(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick([i for i in _mistakes(rows) if rows[i][2].get("seat") in ("N", "E", "S", "W")])
    _edit(rows, i, seat={"N": "S", "E": "W", "S": "N", "W": "E"}[rows[i][2]["seat"]])
    return r


def two_cards_swap_seats(record: Record) -> Record:
    r, rows = _copy(record)
    cards = _events(rows, "card_dealt", "shoe")
    pairs = [(a, b) for a, b in zip(cards, cards[1:]) if rows[a][2].get("seat") != rows[b][2].get("seat")
             and rows[a][2].get("card") and rows[b][2].get("card")]
    if not pairs:
        raise NotHere
    a, b = pairs[len(pairs) // 2]
    sa, sb = rows[a][2]["seat"], rows[b][2]["seat"]
    _edit(rows, a, seat=sb)
    _edit(rows, b, seat=sa)
    return r


def lamp_left_lit_at_the_end(record: Record) -> Record:
    """The redeal lamp lit just before a deal starts and never put out (no lamp row follows before that
    deal's first card, so the lamps stay as they were)."""
    r, rows = _copy(record)
    last = next((row for row in reversed(rows) if row[1] == "lamp"), None)
    if last is None:
        raise NotHere
    for s in _events(rows, "deal_start")[1:]:
        first = next((j for j in range(s + 1, len(rows)) if rows[j][1] == "event"), len(rows))
        if not any(rows[j][1] == "lamp" for j in range(s, first)):
            rows.insert(s, (rows[s][0], "lamp", {**last[2], "redeal": True}))
            return r
    raise NotHere


def attention_lamp_not_lit(record: Record) -> Record:
    r, rows = _copy(record)
    for i in _mistakes(rows):
        b = rows[i][2]
        if b.get("remedy") == "attention" and b.get("seat") and i + 1 < len(rows) and rows[i + 1][1] == "lamp":
            _edit(rows, i + 1, **{f"attention_{b['seat']}": False})
            return r
    raise NotHere


def device_offline_at_the_end(record: Record) -> Record:
    r, rows = _copy(record)
    seq = rows[-1][0]
    rows.append((seq, "note", {"device": "shoe", "online": False, "reason": "x"}))
    return r


def command_journaled_twice(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "event" and isinstance(b.get("command"), dict)])
    rows.insert(i + 1, copy.deepcopy(rows[i]))
    return r


def refused_command_taken(record: Record) -> Record:
    """The table did what it should have refused: its refusal note becomes the event it would be."""
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "note" and "refused" in b])
    seq, _, body = rows[i]
    rows[i] = (seq, "event", {"type": "demand", "seat": "N", "what": "call_card", "card": "AS", "src": "director",
                              "command": {"id": body["command"]["id"], "by": "soak"}})
    return r


def ack_not_noted(record: Record) -> Record:
    r, rows = _copy(record)
    del rows[_pick([i for i, (_, k, b) in enumerate(rows) if k == "note" and b.get("ack") == "director"])]
    return r


def bad_line_without_note(record: Record) -> Record:
    from firmware_host.soak.record import bad_line_note

    r, rows = _copy(record)
    del rows[_pick([i for i, (_, k, b) in enumerate(rows) if k == "note" and bad_line_note(b)])]
    return r


def bad_line_taken_as_an_event(record: Record) -> Record:
    """A malformed line journaled as an event instead of a note."""
    from firmware_host.soak.record import bad_line_note

    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "note" and bad_line_note(b)])
    rows[i] = (rows[i][0], "event", {"type": "hand_count", "seat": "N", "count": 13, "src": "director"})
    return r


def lock_failed_no_commit(record: Record) -> Record:
    r, rows = _copy(record)
    recovered = [i for i, (_, k, b) in enumerate(rows) if k == "note" and b.get("journal") == "recovered"]
    if not recovered or not r.locks:
        raise NotHere
    for i in reversed(recovered):
        del rows[i]
    return r


def chain_broken(record: Record) -> Record:
    r, _ = _copy(record)
    r.verified, r.verify_message = False, "row 17: hash does not match"
    return r


def deal_started_twice(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick(_events(rows, "deal_start"))
    rows.insert(i, copy.deepcopy(rows[i]))
    return r


def penalty_to_the_wrong_side(record: Record) -> Record:
    r, rows = _copy(record)
    i = _pick([i for i in _rulings(rows, "penalty") if "scored_by" in rows[i][2]])  # points (euchre law 90)
    b = rows[i][2]
    other = {"NS": "EW", "EW": "NS"}
    _edit(rows, i, side=other[b["side"]], scored_by=other[b["scored_by"]])
    return r


def dashboard_missed_a_ruling(record: Record) -> Record:
    r, _ = _copy(record)
    if not r.dashboard:
        raise NotHere
    seqs = sorted(s for s in r.dashboard if s >= 0)
    del r.dashboard[seqs[len(seqs) // 2]]
    return r


def bridge_ruling_left_out(record: Record) -> Record:
    """A ruling on an irregularity of the auction or the play (docs/laws.md ``BP-``) left out, a penalty too."""
    r, rows = _copy(record)
    del rows[_pick([i for i, (_, k, b) in enumerate(rows) if k == "ruling" and str(b.get("clause")).startswith("BP-")
                    and b.get("remedy") != "contract"])]
    return r


def transfer_changed(record: Record) -> Record:
    """BP-64 transfers one trick more than the revoke earns."""
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("clause") == "BP-64"
               and b.get("remedy") == "penalty"])
    _edit(rows, i, tricks=rows[i][2]["tricks"] + 1)
    return r


def contract_changed(record: Record) -> Record:
    """The auction closes with declarer's partner as declarer."""
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("remedy") == "contract"
               and b.get("declarer") in ("N", "E", "S", "W")])
    _edit(rows, i, declarer={"N": "S", "E": "W", "S": "N", "W": "E"}[rows[i][2]["declarer"]])
    return r


@dataclass(frozen=True)
class Mutation:
    name: str
    fn: Callable[[Record], Record]
    caught_by: Callable[[Findings], object]  # truthy when the finding meant for it fires


MUTATORS: tuple[Mutation, ...] = (
    Mutation("every card of a deal to North", all_cards_to_north, lambda f: f.cards_misseated),
    Mutation("a score changed by 500", score_changed_by_500, lambda f: f.score_wrong),
    Mutation("a hand scored twice", hand_scored_twice, lambda f: f.score_wrong),
    Mutation("an extra rubber", extra_rubber, lambda f: f.score_wrong),
    Mutation("a stray formation ruling", stray_formation, lambda f: f.formations_wrong),
    Mutation("a ruling with the wrong dealer", ruling_wrong_dealer, lambda f: f.wrong_fields),
    Mutation("a ruling with the wrong side", ruling_wrong_side, lambda f: f.wrong_fields or f.score_wrong),
    Mutation("a missing deal_end", missing_deal_end, lambda f: f.deal_ends_wrong),
    Mutation("the wrong dealer in deal_start", wrong_dealer_in_deal_start, lambda f: f.dealers_wrong),
    Mutation("all lamps stuck lit", lamps_stuck_lit, lambda f: f.lamp_problems),
    Mutation("a traceback", a_traceback, lambda f: f.tracebacks),
    Mutation("exit 1", exit_1, lambda f: f.exits),
    Mutation("a card lost", card_lost, lambda f: f.cards_lost),
    Mutation("a card journaled twice", card_twice, lambda f: f.cards_duplicated),
    Mutation("two cards out of order", cards_swapped, lambda f: f.cards_lost and f.cards_duplicated),
    Mutation("a director's entry lost", entry_lost, lambda f: f.director_lost),
    Mutation("a ruling left out", ruling_missed, lambda f: f.missed_rulings),
    Mutation("a ruling nobody earned", ruling_false, lambda f: f.false_rulings),
    Mutation("a result left unscored", result_unscored, lambda f: f.unscored or f.score_wrong),
    Mutation("a ruling in the next deal", ruling_in_the_next_deal, lambda f: f.missed_rulings and f.false_rulings),
    Mutation("a ruling with the wrong seat", ruling_wrong_seat, lambda f: f.wrong_fields),
    Mutation("two cards with their seats swapped", two_cards_swap_seats, lambda f: f.cards_misseated),
    Mutation("a lamp lit and never put out", lamp_left_lit_at_the_end, lambda f: f.lamp_problems),
    Mutation("an attention lamp not lit", attention_lamp_not_lit, lambda f: f.lamp_problems),
    Mutation("a device offline at the end", device_offline_at_the_end, lambda f: f.offline_at_end),
    Mutation("a dashboard command done twice", command_journaled_twice,
             lambda f: f.commands_wrong and f.director_extra),
    Mutation("a command taken that must be refused", refused_command_taken, lambda f: f.commands_wrong),
    Mutation("an acknowledgement never noted", ack_not_noted, lambda f: f.commands_wrong),
    Mutation("a malformed line without its note", bad_line_without_note, lambda f: f.bad_lines_noted < f.bad_lines_sent),
    Mutation("a malformed line taken as an event", bad_line_taken_as_an_event,
             lambda f: f.bad_lines_noted < f.bad_lines_sent and f.director_extra),
    Mutation("locks that failed no commit", lock_failed_no_commit, lambda f: f.locks_unproven),
    Mutation("the chain broken", chain_broken, lambda f: f.verified is False),
    Mutation("a deal started twice", deal_started_twice, lambda f: f.deal_starts != f.deals),
    Mutation("the penalty to the wrong side", penalty_to_the_wrong_side, lambda f: f.wrong_fields and f.score_wrong),
    Mutation("a ruling the dashboard never got", dashboard_missed_a_ruling, lambda f: f.dashboard_missing),
    Mutation("a bridge irregularity's ruling left out", bridge_ruling_left_out, lambda f: f.missed_rulings),
    Mutation("a revoke's transfer a trick too many", transfer_changed, lambda f: f.wrong_fields),
    Mutation("an auction closed with the wrong declarer", contract_changed, lambda f: f.contracts_wrong),
)


# -- issue 28 item 11: a ruling's seat or side, a card face up --------------------------------------------

def card_marked_face_up(record: Record) -> Record:
    """A card the shoe sent face down journaled face up (the table would have ruled a redeal on it)."""
    r, rows = _copy(record)
    i = _pick([i for i in _events(rows, "card_dealt", "shoe") if not rows[i][2].get("face_up")])
    _edit(rows, i, face_up=True)
    return r


def contract_at_the_wrong_seat(record: Record) -> Record:
    """The close of an auction names declarer's partner as its seat and the other side as its side."""
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("remedy") == "contract"
               and b.get("seat") in ("N", "E", "S", "W")])
    b = rows[i][2]
    _edit(rows, i, seat={"N": "S", "E": "W", "S": "N", "W": "E"}[b["seat"]], side={"NS": "EW", "EW": "NS"}[b["side"]])
    return r


def ruling_wrong_offender(record: Record) -> Record:
    """A bridge irregularity's ruling names the offender's partner."""
    r, rows = _copy(record)
    i = _pick([i for i, (_, k, b) in enumerate(rows) if k == "ruling" and b.get("offender") in ("N", "E", "S", "W")])
    _edit(rows, i, offender={"N": "S", "E": "W", "S": "N", "W": "E"}[rows[i][2]["offender"]])
    return r


MUTATORS += (
    Mutation("a card marked face up", card_marked_face_up, lambda f: f.cards_faced_wrong),
    Mutation("an auction's close at declarer's partner", contract_at_the_wrong_seat, lambda f: f.contracts_wrong),
    Mutation("a ruling naming the offender's partner", ruling_wrong_offender, lambda f: f.wrong_fields),
)
