"""Substitutes at a euchre night (``docs/euchre.md``, "Substitutes"; the house rule is
``docs/scoring.md`` section 14, "A substitute"): the director replaces a player from a round on, for the
rest of the night or until another substitution for the same number.

A ``substitute`` record: ``{"type": "substitute", "player": 7, "name": "Zoe Lane", "member": "",
"from_round": 2, "why": "...", "by": "director"}``. The substitute plays under the player's number, so the
seats, the tables' hands and the scoring are unchanged; only who holds the number changes. Our house rule
(cardtable's own, HR-SUB): the number keeps one line in the standings and everything scored at it counts
there, as if one player had played it all; the line says who played which rounds, and how many of its
points each person scored (a sit-out's credited mean to whoever held the number that round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

NAME_MOST = 60


@dataclass(frozen=True)
class Substitution:
    """Player ``player``'s number is held by ``name`` from round ``from_round`` on."""

    player: int
    name: str
    member: str
    from_round: int
    why: str = ""
    by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name, "member": self.member, "from_round": self.from_round,
                "why": self.why, "by": self.by}



def _shown(v: object) -> str:
    """A value as the refusal shows it: a number as it is (``99``, as docs/euchre.md has it), a box left
    empty ``nothing``, anything else quoted (``'99'``), at most 20 characters."""
    if v is None:
        return "nothing"      # a box left empty: never Python's None on a page (audit m9)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)[:20]
    return repr(str(v)[:20]) if isinstance(v, str) else str(v)[:20]

def check_substitution(rec: Mapping[str, Any], players: int, rounds: int, current: int,
                       hands_in_play: int | None, earlier: Sequence[Substitution]) -> str:
    """What is wrong with a ``substitute`` record ("" when it can be taken).

    Args:
        players, rounds: the night's numbers of players and rounds.
        current: the round in play.
        hands_in_play: hands the player's table has played in the round in play (None: he sits out).
        earlier: the substitutions taken for this player, in order.
    """
    p, name, rnd = rec.get("player"), rec.get("name"), rec.get("from_round")
    if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= players:
        return f"a substitute replaces a player of the night (1 to {players}), got {_shown(p)}"
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MOST:
        return f"player {p}: a substitute's name is 1 to {NAME_MOST} characters, got {str(name)[:80]!r}"
    if not isinstance(rec.get("member", ""), str) or len(rec.get("member", "")) > 20:
        return f"player {p}: a member number is text of at most 20 characters"
    if not isinstance(rnd, int) or isinstance(rnd, bool) or not 1 <= rnd <= rounds:
        return f"player {p}: the round the substitute comes in from is one of the night's (1 to {rounds}), got {_shown(rnd)}"
    first = current + 1 if hands_in_play else current      # the first round a substitute can still play
    if rnd < first:
        return (f"player {p}: the round in play is {current} ({hands_in_play or 0} hands played at his table); "
                f"a substitute comes in from round {first} on, not {rnd}")
    why = rec.get("why")
    if not isinstance(why, str) or not why.strip():
        return f"player {p}: a substitution says why"
    if earlier and rnd <= earlier[-1].from_round:
        return f"player {p}: a substitute came in from round {earlier[-1].from_round} already; a new one comes later"
    return ""


def substitution_of(rec: Mapping[str, Any]) -> Substitution:
    return Substitution(int(rec["player"]), str(rec["name"]).strip(), str(rec.get("member", "")), int(rec["from_round"]),
                        str(rec.get("why", "")), str(rec.get("by", "")))


def holders(original: str, member: str, subs: Sequence[Substitution], rounds: int) -> list[tuple[str, str, int, int]]:
    """Who held a number, in order: ``(name, member, first round, last round)`` (a holder with no round
    is left out)."""
    out: list[tuple[str, str, int, int]] = []
    starts = [(original, member, 1)] + [(s.name, s.member, s.from_round) for s in subs]
    for i, (n, m, first) in enumerate(starts):
        last = starts[i + 1][2] - 1 if i + 1 < len(starts) else rounds
        if last >= first:
            out.append((n, m, first, last))
    return out
