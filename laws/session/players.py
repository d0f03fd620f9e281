"""A session's players as data: the checks a player (name, member number, federation number) and a
pair's two players pass, whatever kind of session names them. Pure: the roster file is read in
``firmware_host/session/roster.py``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

MEMBER = re.compile(r"^(?=[A-Za-z0-9-]*[0-9])[A-Za-z0-9-]{1,16}$")
FEDERATION = re.compile(r"^[A-Za-z0-9-]{0,20}$")
NAME_MAX = 60


def name_problem(name: Any) -> str:
    """Why ``name`` is not a player's name ("" when it is): text of 1 to 60 characters, not only spaces,
    with no control or format character (Unicode category C: a line end, a tab, an escape, U+200E...)."""
    if not isinstance(name, str) or not name.strip():
        return f"a player's name is text, not {str(name)[:40]!r}"
    bad = next((c for c in name if unicodedata.category(c).startswith("C")), None)
    if bad is not None:
        return f"the name {ascii(name)[:80]} holds a control character (U+{ord(bad):04X}); type the name again"
    if len(name) > NAME_MAX:
        return f"the name {name[:40]!r}... is over {NAME_MAX} characters"
    if name != name.strip():
        return f"the name {name!r} begins or ends with a space"
    return ""


#: what the results write between the players of one competitor: `` & `` in a duplicate session's pair
#: (PBN's ``Names_NS``, the ranking's ``Names``, the pages), `` - `` in an event's (PBN's ``Names``).
JOINS = (" & ", " - ")


def joined_name_problem(name: str) -> str:
    """Why ``name`` cannot be a new player's name although :func:`name_problem` takes it ("" when it
    can): it holds a separator of :data:`JOINS`, so the results' ``"Ann Lee & Bob Jones"`` could not be
    split back into its two players (``"Smith & Wesson & Ann Lee"``).

    Checked where a name comes in (the roster, a visitor's typed or filed name), not on a journaled
    record, so that a session journaled before the rule still replays."""
    sep = next((j for j in JOINS if j in name), None)
    if sep is None:
        return ""
    return (f"the name {name!r} holds {sep!r}, which the results write between the players of a pair or "
            "team; write it another way ('and', or without the spaces)")


def player_problem(p: Any) -> str:
    """Why ``p`` is not a player (``{"name", "member", "federation"}``) ("" when it is)."""
    if not isinstance(p, Mapping):
        return f"a player is {{name, member, federation}}, not {str(p)[:40]!r}"
    problem = name_problem(p.get("name"))
    member, fed = p.get("member", ""), p.get("federation", "")
    if not problem and not (member == "" or isinstance(member, str) and MEMBER.match(member)):
        problem = f"{str(member)[:20]!r} is not a member number (letters, digits or -, with a digit)"
    if not problem and not (isinstance(fed, str) and FEDERATION.match(fed)):
        problem = f"{str(fed)[:24]!r} is not a federation number (at most 20 letters, digits or -)"
    return problem


def players_problem(pairs: Iterable[str], current: Mapping[str, Sequence[Mapping[str, str]]],
                    rec: Mapping[str, Any]) -> str:
    """What is wrong with a ``players`` record ("" when nothing): ``pair`` one of ``pairs`` (labels),
    ``players`` two players, no member twice in it nor already named for another pair in ``current``."""
    pair, players = rec.get("pair"), rec.get("players")
    if pair not in set(pairs):
        return f"{str(pair)[:20]!r} is not a pair of this session"
    if not isinstance(players, list) or len(players) != 2:
        return f"pair {pair}: a pair is two players, got {str(players)[:60]}"
    for p in players:
        problem = player_problem(p)
        if problem:
            return f"pair {pair}: {problem}"
    numbers = [p.get("member") for p in players if p.get("member")]
    if len(numbers) == 2 and numbers[0] == numbers[1]:
        return f"pair {pair}: member {numbers[0]} is named twice in the pair"
    for other, named in current.items():
        if other == pair:
            continue
        for p in named:
            if p.get("member") and p["member"] in numbers:
                return (f"pair {pair}: member {p['member']} ({p['name']}) already plays in pair {other}; "
                        "one player cannot be at two tables")
    return ""
