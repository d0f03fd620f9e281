"""A euchre night's messages on the club's wire (``docs/euchre.md``, "On the club's link").

* :class:`EuchreSeating`: the session to one table, retained on ``<prefix>/session/table/<table>``: the
  round in play, who sits at each seat (player numbers and names), how many hands the round has, whether
  the director called the round, and the session's answers to the table's hands.
* A table's hands go on ``<prefix>/<table>/hand`` in an :class:`~firmware_host.wire.messages.Envelope`;
  the body is a hand in the notation (``laws.euchre_night.notation``) or a ``stop``.

``from_dict`` raises :class:`~firmware_host.wire.messages.MessageError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_host.wire.messages import ANSWERS_KEPT, MessageError, SessionAnswer, text, whole
from firmware_host.wire.reader import MAX_BYTES, read_json
from firmware_host.wire.topics import TOPICS

SEAT_ORDER = ("N", "S", "E", "W")


def hand_says(topic: str, payload: bytes) -> dict[str, Any]:
    """What a ``hand`` message the night refused still says plainly, for its answer: ``source``
    (``"<table>:<seq>"``, the table from the topic) when its envelope's ``seq`` is a whole number 0 to
    2^62, and ``board`` (the hand's number) when its body's ``hand`` is one, 1 to 99.

    A table settles a hand by the answer naming its ``source``; one refused before the night read it
    whole (a body naming another table, a ``t`` that is no time) was answered with ``source`` ``""``, so
    the table sent it again every 30 s all night, as the duplicate session's ``refused_says`` prevents.
    """
    name = TOPICS.parse(topic)
    if name is None or name.family != "table" or name.kind != "hand":
        return {}
    msg = read_json(payload, max_bytes=MAX_BYTES, surrogates_ok=True).value   # a lone surrogate elsewhere
    if not isinstance(msg, Mapping):
        return {}
    out: dict[str, Any] = {}
    seq = msg.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= 2**62:
        out["source"] = f"{name.table}:{seq}"
    body = msg.get("body")
    number = body.get("hand") if isinstance(body, Mapping) else None
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= 99:
        out["board"] = number
    return out


@dataclass(frozen=True)
class EuchreSeating:
    """``<prefix>/session/table/<table>`` (kind ``euchre_seating``)."""

    table: str
    table_number: int
    round: int
    rounds: int
    hands: int
    seats: Mapping[str, tuple[int, str]]     # seat -> (player number, name); empty: the table sits idle
    called: bool
    done: bool                               # the table has played its part of the round
    finished: bool                           # the night is over
    answers: tuple[SessionAnswer, ...]
    page: str
    seq: int
    t: float
    repeat: bool = False                     # a Swiss round no draw could make without one: this table's
    night_id: str = ""                       # the night's identity (made at its opening); "": a night of before

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "euchre_seating", "table": self.table, "table_number": self.table_number,
                "round": self.round, "rounds": self.rounds, "hands": self.hands,
                "seats": {s: {"player": p, "name": n} for s, (p, n) in self.seats.items()},
                "called": self.called, "done": self.done, "finished": self.finished,
                "answers": [a.to_dict() for a in self.answers[-ANSWERS_KEPT:]], "page": self.page,
                "seq": self.seq, "t": self.t, **({"repeat": True} if self.repeat else {}),
                **({"night_id": self.night_id} if self.night_id else {})}

    @classmethod
    def from_dict(cls, d: Any) -> EuchreSeating:
        if not isinstance(d, dict) or d.get("kind") != "euchre_seating":
            raise MessageError("payload is not a euchre seating message")
        seats = d.get("seats")
        if not isinstance(seats, dict) or (seats and sorted(seats) != sorted(SEAT_ORDER)):
            raise MessageError("seats must be an object with N, S, E and W (or empty)")
        out: dict[str, tuple[int, str]] = {}
        for s in SEAT_ORDER:
            if s in seats:
                v = seats[s]
                if not isinstance(v, dict):
                    raise MessageError(f"seats.{s} must be an object {{player, name}}")
                out[s] = (whole(v.get("player"), f"seats.{s}.player", 1, 999), text(v.get("name"), f"seats.{s}.name", 60))
        answers = d.get("answers", [])
        if not isinstance(answers, list):
            raise MessageError("answers must be a list")
        return cls(text(d.get("table"), "table"), whole(d.get("table_number"), "table_number", 1, 999),
                   whole(d.get("round"), "round", 1, 999), whole(d.get("rounds"), "rounds", 1, 999),
                   whole(d.get("hands"), "hands", 1, 99), out, d.get("called") is True, d.get("done") is True,
                   d.get("finished") is True, tuple(SessionAnswer.from_dict(a) for a in answers),
                   str(d.get("page") or ""), whole(d.get("seq"), "seq", 0, 2**62), float(d.get("t") or 0),
                   d.get("repeat") is True,
                   "" if d.get("night_id") in (None, "") else text(d.get("night_id"), "night_id", 64))

    def players(self) -> dict[str, int]:
        """Seat -> player number (what a hand names)."""
        return {s: p for s, (p, _) in self.seats.items()}
