"""The typed messages of the club's wire (``docs/mqtt.md``), each with ``to_dict`` and ``from_dict``, as
``laws.events`` has for events: what a table and the session say to each other, checked field by field
where it enters.

* :class:`Envelope`: what every message of a table's carries around its body (``table``, ``kind``,
  ``seq``, ``prev``, ``deal``, ``secret``, ``t``; a ``status`` adds ``done``).
* :class:`BoardResult`: the body of a ``board`` message, a board's confirmed result.
* :class:`SessionAnswer`: the session's answer to one ``board`` message (``taken``, ``repeat``,
  ``refused``, with the reason), carried in the table's seating.
* :class:`RoundCall` and :class:`DuplicateSeating`: what the session tells the tables.

``from_dict`` raises :class:`MessageError` naming the field; nothing here touches the network.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laws.bridge.auction import Auction
from laws.bridge.calls import parse_call
from laws.bridge.verdicts import CallIrregularity
from laws.cards import Card, Seat
from laws.competition.event_spec import EventKind
from laws.competition.fouled import FoulCall
from laws.duplicate.boards import dealer

EVENT_KINDS = frozenset(k.value for k in EventKind)   # an event's table view carries its kind as ``kind``
SEATS = ("N", "E", "S", "W")
FINGERPRINT = re.compile(r"^[0-9a-f]{64}$")
# docs/mqtt.md, "The body of a board message": a contract in its one spelling, nothing else ("4s", "3ntx",
# "1N", "1H " are refused, naming the field: the session stores and exports what the table sent, and compares
# a resend with it, so one result has one spelling)
CONTRACT = re.compile(r"Pass|[1-7](C|D|H|S|NT)(X|XX)?")
CALL = re.compile(r"Pass|X|XX|[1-7](C|D|H|S|NT)")   # a call of ``auction`` in PBN's spelling, nothing else
ANSWER_STATUSES = ("taken", "repeat", "refused")
ANSWERS_KEPT = 16
#: an answer's ``why`` at its longest: 300 characters, and 600 bytes as a seating writes it (JSON with
#: ``\uXXXX`` escapes: a character outside ASCII takes 6 bytes, one beyond the BMP 12), so 16 answers fit
#: the room a seating keeps for them (``wire.duplicate.SEATING_REST``) whatever a table sent to be refused
WHY_MOST = 300
WHY_BYTES = 600
ELLIPSIS = "\u2026"


#: what a table's ordered message's ``seq`` is (``docs/mqtt.md``): the journal row that recorded it, so 1 or
#: more; a table that sends -1 or 0 is told that rule, not only the range of any message's ``seq``
ROW_SEQ = "seq (the table's journal row, which counts from 1)"


class MessageError(ValueError):
    """A message that does not follow docs/mqtt.md; the text names the field."""


def whole(v: Any, name: str, low: int, high: int) -> int:
    """``v`` as a whole number from ``low`` to ``high`` (not a boolean, not a fraction)."""
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise MessageError(f"{name} must be a whole number {low} to {high}, got {_short(v)}")
    return v


def text(v: Any, name: str, limit: int = 64) -> str:
    """``v`` as text of 1 to ``limit`` characters."""
    if not isinstance(v, str) or not v or len(v) > limit:
        raise MessageError(f"{name} must be text of 1 to {limit} characters, got {_short(v)}")
    return v


def _pair_text(v: Any, name: str) -> str:
    """A seated pair's label: text, or "" when no pair sits there (absent or null); anything else refused."""
    if v is None or v == "":
        return ""
    return text(v, name)


def card(v: Any, name: str) -> str:
    """``v`` as a card's code (``"AS"``)."""
    try:
        return Card.parse(v).code
    except (ValueError, TypeError, AttributeError):
        raise MessageError(f"{name}: {_short(v)} is not a card (rank then suit, e.g. 'AS')") from None


def seat(v: Any, name: str) -> str:
    if v not in SEATS:
        raise MessageError(f"{name} must be N, E, S or W, got {_short(v)}")
    return str(v)


def short_why(why: str) -> str:
    """``why`` cut to what an answer carries (:data:`WHY_MOST` characters, :data:`WHY_BYTES` bytes as JSON
    writes it), ending in an ellipsis when cut. A refusal's reason quotes what the table sent, so a table
    sending long refused messages (a hostile or broken one) would otherwise grow its seating past the
    broker's packet; the whole reason stays in the session's journal note. The cut falls between two
    characters, never inside a surrogate pair."""
    if len(why) <= WHY_MOST and _json_len(why) <= WHY_BYTES:
        return why
    room, kept, end = WHY_BYTES - _json_len(ELLIPSIS), 0, 0
    for i, c in enumerate(why[:WHY_MOST - 1]):
        size = _json_len(c)
        if kept + size > room:
            break
        kept, end = kept + size, i + 1
    if end and "\ud800" <= why[end - 1] <= "\udbff":   # a pair's first half, its second cut off
        end -= 1
    return why[:end] + ELLIPSIS


def _json_len(s: str) -> int:
    """The bytes ``s`` takes inside a JSON string as the session writes it (``json.dumps``, ASCII)."""
    return len(json.dumps(s)) - 2


def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 80 else r[:77] + "..."


@dataclass(frozen=True)
class Envelope:
    """A table's message around its body (``docs/mqtt.md``, "Topic tree")."""

    table: str
    kind: str
    seq: int
    t: float
    body: Mapping[str, Any]
    deal: int = 0
    secret: bool = False
    prev: int | None = None
    done: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "kind": self.kind, "seq": self.seq, "deal": self.deal,
                               "secret": self.secret, "t": self.t, "body": dict(self.body)}
        if self.prev is not None:
            out["prev"] = self.prev
        if self.kind == "status":
            out["done"] = list(self.done)
        return out

    @classmethod
    def from_dict(cls, d: Any, *, table: str, kind: str, row: bool = False) -> Envelope:
        """The envelope of a message received on ``table``'s ``kind`` topic; ``row``: its ``seq`` is the
        journal row that recorded it (a ``board`` or ``players`` message), 1 or more, and one that is not
        is refused naming that rule (:data:`ROW_SEQ`).

        Raises:
            MessageError: not an object with a body object, another table or kind than the topic's, a
                ``seq`` that is not a whole number (or, with ``row``, below 1), a ``t`` that is not a
                finite number.
        """
        if not isinstance(d, dict) or not isinstance(d.get("body"), dict):
            raise MessageError("payload is not an envelope with a body object")
        if d.get("table") != table or d.get("kind") != kind:
            raise MessageError(f"the envelope names table {str(d.get('table'))[:64]!r} and kind "
                               f"{str(d.get('kind'))[:20]!r} on table {table}'s {kind} topic")
        seq = whole(d.get("seq"), ROW_SEQ, 1, 2**62) if row else whole(d.get("seq"), "seq", 0, 2**62)
        t = d.get("t")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise MessageError(f"t must be a finite number, got {_short(t)}")
        prev = d.get("prev")
        deal = d.get("deal", 0)
        return cls(table, kind, seq, float(t), d["body"],
                   deal=deal if isinstance(deal, int) and not isinstance(deal, bool) else 0,
                   secret=d.get("secret") is True,
                   prev=prev if isinstance(prev, int) and not isinstance(prev, bool) else None,
                   done=tuple(str(x) for x in d.get("done", ()) if isinstance(x, str)) if kind == "status" else ())


def board_envelope(d: Any, *, table: str) -> Envelope:
    """The envelope of a ``board`` message received on ``table``'s board topic, with the rules a result's
    envelope has beyond any message's (``docs/mqtt.md``, "The envelope of a board message"): ``seq`` is a
    journal row (1 or more), ``t`` is not before the epoch, ``prev`` when given is a whole number not above ``seq``, ``deal`` when
    given a whole number, ``secret`` when given true or false. A table that breaks one of them is told which,
    rather than having its result scored on a word it did not mean. ``secret`` is checked but not acted on: a
    board's result is sent once its play is over, and only the dashboard's login may read the topic; yet
    ``"secret": "no"`` was taken, where the document says every field given is checked.

    Raises:
        MessageError: as :meth:`Envelope.from_dict`, or one of the rules above (the field named).
    """
    return row_envelope(d, table=table, kind="board")


def row_envelope(d: Any, *, table: str, kind: str) -> Envelope:
    """The envelope of a message ordered by the table's journal row (``board``, ``players``, a euchre
    night's ``hand``): the rules of :func:`board_envelope` for each, since a ``players`` or ``hand`` message
    is ordered like a ``board`` message (``docs/mqtt.md``, "Member cards at the table", "A euchre night's
    hand"); it took ``t`` "now" and a ``prev`` above its ``seq``.

    Raises:
        MessageError: as :meth:`Envelope.from_dict`, or one of the rules of :func:`board_envelope`.
    """
    env = Envelope.from_dict(d, table=table, kind=kind, row=True)
    if env.t < 0:
        what = "confirmed the result" if kind == "board" else "sent it"
        raise MessageError(f"t must be the seconds since the epoch when the table {what} (0 or "
                           f"more), got {_short(d.get('t'))}")
    if "prev" in d:
        # the board message shares its row with the DB-77 ruling sent just before it: prev may equal seq
        whole(d["prev"], "prev (the seq of the table's previous ordered message, at most its own)", 0, env.seq)
    if "deal" in d:
        whole(d["deal"], "deal", 0, 2**62)
    if "secret" in d and not isinstance(d["secret"], bool):
        raise MessageError(f"secret must be true or false, got {_short(d['secret'])}")
    return env


@dataclass(frozen=True)
class Foul(FoulCall):
    """A fouled-board call: the first card played by a seat the record does not give it to (the fields and
    their JSON form are ``laws.competition.fouled.FoulCall``'s, which an event journals; this reads it from
    a table's message, each field checked and named as the wire names it)."""

    @classmethod
    def from_dict(cls, v: Any) -> Foul:  # type: ignore[override]
        if not isinstance(v, dict):
            raise MessageError(f"foul must be null or an object, got {_short(v)}")
        seats = v.get("seats")
        if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
            raise MessageError(f"foul.seats must list the seats whose hands differ from the record, got {_short(seats)}")
        out = cls(card(v.get("card"), "foul.card"), seat(v.get("played_by"), "foul.played_by"),
                  seat(v.get("record_seat"), "foul.record_seat"), whole(v.get("trick"), "foul.trick", 1, 13),
                  tuple(seat(s, "foul.seats") for s in seats))
        if out.played_by == out.record_seat:
            raise MessageError("foul: the seat that played the card is the seat the record gives it to")
        return out


def auction_problem(calls: tuple[str, ...], board: int, contract: str, declarer: str | None) -> str:
    """Why a board message's ``auction`` is not the auction of its result ("" when it is, or is empty):
    each call in PBN's spelling, made in turn from the board's dealer (``DB-2``), a legal auction (an
    insufficient bid stands as accepted, law 27A1: the table records the calls that stand), closed, and
    ending in the body's ``contract`` and ``declarer``. The PBN export writes the auction beside the
    result; one that does not end in it was left out there without a word."""
    if not calls:
        return ""
    auction = Auction(dealer(board))
    for i, text in enumerate(calls):
        if not CALL.fullmatch(text):
            return (f"auction[{i}] must be a call in PBN's spelling (\"Pass\", \"1C\" to \"7NT\", \"X\", \"XX\"), "
                    f"got {_short(text)}")
        turn = auction.turn
        if turn is None:
            return f"auction[{i}]: {text!r} comes after the auction had closed (three passes after the last bid)"
        verdict = auction.judge(turn, parse_call(text))
        if verdict.legal:
            auction.add(turn, parse_call(text))
        elif verdict.kind is CallIrregularity.INSUFFICIENT:
            auction.accept(turn, parse_call(text))
        else:
            return f"auction[{i}]: {verdict.reason}"
    if not auction.closed:
        return "the auction has not closed: it needs three passes after the last bid, or four passes"
    found = auction.contract()
    said = "passed out" if contract == "Pass" else f"{contract} by {declarer}"
    if found is None:
        return "" if contract == "Pass" else f"the auction is passed out, but the result says {said}"
    by = auction.declarer or Seat.N
    if found.code != contract or by.value != declarer:
        return f"the auction ends in {found.code} by {by.value}, but the result says {said}"
    return ""


@dataclass(frozen=True)
class BoardResult:
    """The body of a ``board`` message: a board's result, confirmed at the table (``docs/mqtt.md``,
    "Duplicate", for each field)."""

    section: str
    table_number: int
    round: int
    board: int
    ns: str
    ew: str
    contract: str
    declarer: str | None
    lead: str | None
    tricks: int
    record: str = ""
    verified: bool = False
    foul: Foul | None = None
    auction: tuple[str, ...] = ()
    play: tuple[str, ...] = ()
    confirmed: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"section": self.section, "table_number": self.table_number, "round": self.round,
                "board": self.board, "ns": self.ns, "ew": self.ew, "contract": self.contract,
                "declarer": self.declarer, "lead": self.lead, "tricks": self.tricks, "auction": list(self.auction),
                "play": list(self.play), "record": self.record, "verified": self.verified,
                "foul": self.foul.to_dict() if self.foul else None, "confirmed": dict(self.confirmed)}

    @classmethod
    def from_dict(cls, b: Any) -> BoardResult:
        """A received body, checked field by field (unknown fields are ignored).

        Raises:
            MessageError: a field missing or malformed (named).
        """
        if not isinstance(b, dict):
            raise MessageError("the body is not an object")
        record = str(b.get("record") or "")
        if record and not FINGERPRINT.match(record):
            raise MessageError(f"record must be the board's fingerprint (64 lower-case hex digits), got {record[:80]!r}")
        verified = b.get("verified")
        if not isinstance(verified, bool):
            raise MessageError(f"verified must be true or false, got {_short(verified)}")
        play, auction = b.get("play", []), b.get("auction", [])
        if not isinstance(play, list) or len(play) > 52:
            raise MessageError("play must be a list of at most 52 cards in the order played")
        if not isinstance(auction, list) or len(auction) > 400:
            raise MessageError("auction must be a list of calls from the dealer")
        # docs/mqtt.md: a board message is sent once one player of each side has confirmed; one that says
        # no such thing is not a confirmed result, and is refused rather than scored unconfirmed
        confirmed = b.get("confirmed")
        if not isinstance(confirmed, dict) or confirmed.get("ns") not in ("N", "S") \
                or confirmed.get("ew") not in ("E", "W"):
            raise MessageError("confirmed must name who confirmed the result on each side, {\"ns\": \"N\" or "
                               f"\"S\", \"ew\": \"E\" or \"W\"}}, got {_short(confirmed)}")
        contract = b.get("contract")
        if not isinstance(contract, str) or not CONTRACT.fullmatch(contract):
            raise MessageError("contract must be \"Pass\" or a level 1 to 7, a strain C, D, H, S or NT, then X or XX "
                               f"when doubled or redoubled, in capitals (\"4S\", \"3NTX\"), got {_short(contract)}")
        out = cls(
            section=text(b.get("section"), "section", 8),
            table_number=whole(b.get("table_number"), "table_number", 1, 999),
            round=whole(b.get("round"), "round", 1, 999), board=whole(b.get("board"), "board", 1, 9999),
            ns=text(b.get("ns"), "ns", 16), ew=text(b.get("ew"), "ew", 16), contract=contract,
            declarer=None if b.get("declarer") is None else seat(b.get("declarer"), "declarer"),
            lead=None if b.get("lead") is None else card(b.get("lead"), "lead"),
            tricks=whole(b.get("tricks"), "tricks", 0, 13), record=record, verified=verified,
            foul=None if b.get("foul") is None else Foul.from_dict(b.get("foul")),
            play=tuple(card(c, f"play[{i}]") for i, c in enumerate(play)),
            auction=tuple(text(c, f"auction[{i}]", 8) for i, c in enumerate(auction)),
            confirmed={"ns": confirmed["ns"], "ew": confirmed["ew"]})
        if out.play and out.lead and out.play[0] != out.lead:
            raise MessageError(f"the lead {out.lead} is not the first card of the play ({out.play[0]})")
        problem = auction_problem(out.auction, out.board, out.contract, out.declarer)
        if problem:
            raise MessageError(problem)
        return out


@dataclass(frozen=True)
class SessionAnswer:
    """The session's answer to one of a table's messages, given only once what it answers is committed in
    the session's journal (``docs/ordering.md``): ``source`` (``<table>:<seq>``, a refused message's too when
    its ``seq`` reads; ``""`` when it does not), ``board`` (None when it cannot be read), ``status`` (``taken``, ``repeat``, ``refused``),
    ``why`` (the reason of a refusal, or a word for the table and the director; cut by :func:`short_why`),
    and ``kind``, the message it answers: a duplicate table's ``board`` or ``players`` message, a euchre
    table's ``hand`` (a hand or a stop).

    ``kind`` is read as sent, whatever it says: a table settles a message only by an answer of that
    message's kind, so an answer of a kind it does not know (a later session's) is kept and settles
    nothing. Read as ``board`` once, it stood for a board message's answer and a result went unsent."""

    source: str
    board: int | None
    status: str
    why: str = ""
    kind: str = "board"   # what it answers: a ``board`` message, a ``players`` message (its member cards), a ``hand``

    def __post_init__(self) -> None:
        # cut here, where every answer is made, so no seating carries a reason past WHY_MOST/WHY_BYTES
        object.__setattr__(self, "why", short_why(self.why))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "board": self.board, "status": self.status, "why": self.why,
                "kind": self.kind}

    @classmethod
    def from_dict(cls, d: Any) -> SessionAnswer:
        if not isinstance(d, dict) or d.get("status") not in ANSWER_STATUSES:
            raise MessageError(f"an answer must be an object with a status of {', '.join(ANSWER_STATUSES)}")
        board = d.get("board")
        return cls(str(d.get("source") or ""), board if isinstance(board, int) and not isinstance(board, bool)
                   else None, str(d["status"]), str(d.get("why") or ""),
                   "board" if d.get("kind") is None else str(d["kind"])[:32])   # none: a session before kinds


@dataclass(frozen=True)
class RoundCall:
    """``<prefix>/session/round``: the round the director called."""

    section: str
    round: int
    rounds: int
    seq: int
    t: float
    commitment: str = ""   # the session's commitment to its hand records (a table refuses another's)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "round", "section": self.section, "round": self.round, "rounds": self.rounds,
                "commitment": self.commitment, "seq": self.seq, "t": self.t}

    @classmethod
    def from_dict(cls, d: Any) -> RoundCall:
        if not isinstance(d, dict) or d.get("kind") != "round":
            raise MessageError("payload is not a round message")
        return cls(text(d.get("section"), "section", 8), whole(d.get("round"), "round", 0, 999),
                   whole(d.get("rounds"), "rounds", 1, 999), whole(d.get("seq"), "seq", 0, 2**62), float(d.get("t") or 0),
                   str(d.get("commitment") or ""))


@dataclass(frozen=True)
class DuplicateSeating:
    """``<prefix>/session/table/<table>``: a table's round, pairs and boards (each with its record's
    fingerprint), whether it must move, its page, and the session's latest answers to its results."""

    table: str
    section: str
    table_number: int
    round: int
    called: int
    rounds: int
    ns: str
    ew: str
    boards: tuple[tuple[int, str], ...]
    left: tuple[int, ...]
    sit_out: bool
    move: bool
    page: str
    answers: tuple[SessionAnswer, ...]
    seq: int
    t: float
    replay: tuple[tuple[int, int], ...] = ()   # (round, board) taken off to be replayed: not the session's

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "seating", "table": self.table, "section": self.section, "table_number": self.table_number,
                "round": self.round, "called": self.called, "rounds": self.rounds, "ns": self.ns, "ew": self.ew,
                "boards": [{"board": b, "record": r} for b, r in self.boards], "left": list(self.left),
                "sit_out": self.sit_out, "move": self.move, "page": self.page,
                "answers": [a.to_dict() for a in self.answers[-ANSWERS_KEPT:]],
                "replay": [{"round": r, "board": b} for r, b in self.replay], "seq": self.seq, "t": self.t}

    @classmethod
    def from_dict(cls, d: Any) -> DuplicateSeating:
        if not isinstance(d, dict) or d.get("kind") != "seating":
            raise MessageError("payload is not a seating message")
        boards = d.get("boards")
        if not isinstance(boards, list) or not all(isinstance(b, dict) for b in boards):
            raise MessageError("boards must be a list of {board, record}")
        # no ``left``: every board of the round is still to play (as a table has always read it)
        left, answers = d.get("left", [b.get("board") for b in boards]), d.get("answers", [])
        if not isinstance(left, list) or not isinstance(answers, list):
            raise MessageError("left and answers must be lists")
        replay = d.get("replay", [])     # a session before it sends none: nothing taken off to replay
        if not isinstance(replay, list) or not all(isinstance(x, dict) for x in replay):
            raise MessageError("replay must be a list of {round, board}")
        return cls(text(d.get("table"), "table"), text(d.get("section"), "section", 8),
                   whole(d.get("table_number"), "table_number", 1, 999), whole(d.get("round"), "round", 1, 999),
                   whole(d.get("called"), "called", 0, 999), whole(d.get("rounds"), "rounds", 1, 999),
                   _pair_text(d.get("ns"), "ns"), _pair_text(d.get("ew"), "ew"),
                   tuple((whole(b.get("board"), "boards[].board", 1, 9999), str(b.get("record") or "")) for b in boards),
                   tuple(whole(b, "left[]", 1, 9999) for b in left), d.get("sit_out") is True, d.get("move") is True,
                   str(d.get("page") or ""), tuple(SessionAnswer.from_dict(a) for a in answers),
                   whole(d.get("seq"), "seq", 0, 2**62), float(d.get("t") or 0),
                   tuple((whole(x.get("round"), "replay[].round", 1, 999), whole(x.get("board"), "replay[].board", 1, 9999))
                         for x in replay))

    @classmethod
    def from_event_view(cls, d: Any) -> DuplicateSeating:
        """An event's seating message (its table's view with ``answers``: docs/competitions.md, "The
        table's view") as a table's seating, so the same duplicate table plays a teams match, a Swiss, an
        individual or a section: its event table ``number``, round and boards, the boards still to play
        (the round's without an ``entered`` result), its side's labels (a section's ``ns_pair``/``ew_pair``,
        an individual's ``north-south``/``east-west`` players, a team's or Swiss pair's number), and the
        answers. A bye, a table the event does not use or a finished event sits out. No record's
        fingerprint is named: an event opened with hand records sends the round's records beside this
        (``hand_records``, taken by the table after its own check), and one opened without them leaves the
        table to its own (``[duplicate] records``)."""
        if not is_seating(d) or d.get("kind") == "seating":
            raise MessageError("payload is not an event's seating message")
        boards, entered, answers = d.get("boards", []), d.get("entered", []), d.get("answers", [])
        if not isinstance(boards, list) or not isinstance(entered, list) or not isinstance(answers, list):
            raise MessageError("boards, entered and answers must be lists")
        playing = d.get("plays") is True and d.get("bye") is not True and d.get("finished") is not True
        seat = d.get("seat") if playing else {}
        if not isinstance(seat, dict):
            raise MessageError("seat must be an object")
        if "ns_pair" in seat:
            ns, ew = seat.get("ns_pair"), seat.get("ew_pair")
        elif d.get("kind") == EventKind.INDIVIDUAL.value and seat:
            ns = f"{whole(seat.get('north'), 'seat.north', 1, 999)}-{whole(seat.get('south'), 'seat.south', 1, 999)}"
            ew = f"{whole(seat.get('east'), 'seat.east', 1, 999)}-{whole(seat.get('west'), 'seat.west', 1, 999)}"
        else:
            ns, ew = seat.get("north"), seat.get("east")
        numbers = tuple(whole(b, "boards[]", 1, 9999) for b in boards)
        done = {whole(b, "entered[]", 1, 9999) for b in entered}
        # the section the view says to name (every event's view gives it; "A" for a view without it)
        return cls(text(d.get("table"), "table"), text(d.get("section") or seat.get("section") or "A", "section", 8),
                   whole(d.get("number"), "number", 1, 999), whole(d.get("round"), "round", 1, 999),
                   whole(d.get("round"), "round", 1, 999), whole(d.get("rounds"), "rounds", 1, 999),
                   _pair_text(None if ns is None else str(ns), "ns"), _pair_text(None if ew is None else str(ew), "ew"),
                   tuple((n, "") for n in numbers), tuple(n for n in numbers if n not in done), not playing, False,
                   str(d.get("page") or ""), tuple(SessionAnswer.from_dict(a) for a in answers), 0, 0.0)

    @classmethod
    def from_any(cls, d: Any) -> DuplicateSeating:
        """A duplicate session's seating or an event's (:func:`is_seating`) as a table's seating;
        :class:`MessageError` for anything else, or for one of those that does not read (its field named)."""
        if isinstance(d, dict) and d.get("kind") == "seating":
            return cls.from_dict(d)
        if is_seating(d):
            return cls.from_event_view(d)
        raise MessageError("payload is not a seating message")


def is_seating(d: Any) -> bool:
    """Whether a session's message seats a duplicate table: a duplicate session's ``seating``, or an event's
    table view (``kind`` one of the event kinds, with its ``event`` name)."""
    return isinstance(d, dict) and (d.get("kind") == "seating" or (
        isinstance(d.get("event"), str) and d.get("kind") in EVENT_KINDS))
