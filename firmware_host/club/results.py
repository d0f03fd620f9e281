"""A hand's result entered away from the table (the director's dashboard): checked before it is sent
and again when the table receives it.

Pure (no I/O). ``parse_result(game, fields)`` turns the fields of a ``result`` event (``docs/events.md``)
into a ``ResultRecorded`` for that game, or raises ``ResultError`` saying what is wrong in the players'
own words ("there is no eight-level contract"), never a field's code name. The law engine stays the judge
of whether a result fits the state of the table (a result before the deal ends is refused there and
journaled as a note). ``result_words`` says a result back as a person would ("4S by South, 10 tricks");
``no_such_deal`` why a correction names a deal the table has not played, in words a director reads.
"""

from __future__ import annotations

import re
from typing import Any

from laws.events import EventFormatError, ResultRecorded, event_from_dict
from laws.scoring.bridge import parse_contract

# The fields each game's result takes, and the most tricks a side can win.
FIELDS = {"contract-bridge": {"declarer", "contract", "tricks", "honours"},
          "duplicate-bridge": {"declarer", "contract", "tricks"},
          "euchre": {"makers", "alone", "tricks"}}
MOST_TRICKS = {"contract-bridge": 13, "duplicate-bridge": 13, "euchre": 5}
GAME_WORDS = {"contract-bridge": "contract bridge", "duplicate-bridge": "duplicate bridge", "euchre": "euchre"}
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
SIDE_WORDS = {"NS": "North-South", "EW": "East-West"}
STRAIN_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trumps", "N": "no trumps"}
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_CONTRACT = re.compile(r"^\s*(\d+)\s*(NT|N|[A-Z]*?)\s*(X{0,2})\s*$", re.IGNORECASE)


class ResultError(ValueError):
    """A result that cannot be scored: the message says what is wrong, in the players' words."""


def _contract_problem(text: Any) -> str | None:
    """What is wrong with a contract as written, in words; None when it is a contract."""
    if not isinstance(text, str) or not text.strip():
        return "say the contract, such as 4S, 3NT or 6HX"
    m = _CONTRACT.match(text.upper())
    if m is None or not m.group(1):
        return f"{text.strip()!r} is not a contract: write its level, then its suit, such as 4S, 3NT or 6HX"
    level, strain, doubled = int(m.group(1)), m.group(2).upper(), m.group(3)
    if not 1 <= level <= 7:
        said = NUMBER_WORDS[level] if level < len(NUMBER_WORDS) else str(level)
        return f"there is no {said}-level contract: a contract is bid at one to seven"
    if strain not in STRAIN_WORDS:
        return (f"there is no {strain or 'missing'!r} suit: the contract is in clubs (C), diamonds (D), "
                "hearts (H), spades (S) or no trumps (NT)")
    if len(doubled) > 2:
        return "after the suit only X (doubled) or XX (redoubled) may follow"
    return None


def _words_problem(game: str, fields: dict[str, Any]) -> str | None:
    """The first thing wrong with the fields a director entered, as a player would say it."""
    top = MOST_TRICKS[game]
    if game in ("contract-bridge", "duplicate-bridge"):
        if fields.get("declarer") not in SEAT_WORDS:
            return "say who declared: North, East, South or West"
        problem = _contract_problem(fields.get("contract"))
        if problem:
            return problem
        what = "declarer's side"
    else:
        if fields.get("makers") not in SIDE_WORDS:
            return "say which side made trump: North-South or East-West"
        if "alone" in fields and not isinstance(fields["alone"], bool):
            return "say whether the maker played alone (ticked or not)"
        what = "the makers"
    tricks = fields.get("tricks")
    if tricks is None or tricks == "":
        return f"say how many tricks {what} took (0 to {top})"
    if isinstance(tricks, bool) or not isinstance(tricks, int):
        return f"the tricks {what} took are a number from 0 to {top}, not {str(tricks)[:20]!r}"
    if not 0 <= tricks <= top:
        return f"{what} cannot take {tricks} tricks: there are {top} in a hand"
    return None


def parse_result(game: str, fields: Any) -> ResultRecorded:
    """The ``ResultRecorded`` for ``fields`` at a table playing ``game``.

    Raises:
        ResultError: unknown game, not an object, unknown or missing field, bad value (in words).
    """
    if game not in FIELDS:
        raise ResultError(f"the table has not said its game yet ({game or 'none'}): results are for "
                          f"{' or '.join(GAME_WORDS[g] for g in sorted(FIELDS))}")
    if not isinstance(fields, dict):
        raise ResultError(f"a result is a JSON object of its values, not {type(fields).__name__}")
    extra = sorted(set(fields) - FIELDS[game] - {"type"})
    if extra:
        raise ResultError(f"a {GAME_WORDS[game]} result has no {extra[0]!r} (it takes "
                          f"{', '.join(sorted(FIELDS[game]))})")
    problem = _words_problem(game, fields)
    if problem:
        raise ResultError(problem)
    try:
        event = event_from_dict({**fields, "type": "result"})
    except EventFormatError as exc:  # what the words above do not cover (honours)
        raise ResultError(re.sub(r"^field '[a-z_]+': ", "", str(exc))) from None
    assert isinstance(event, ResultRecorded)
    if event.honours is not None and event.contract is not None and \
            parse_contract(event.contract).strain == "NT" and event.honours[1] != 150:
        # the laws' own refusal (laws/games/bridge_result.py): a correction is never fed to the engine, so
        # without it a result no table would score stood as the deal's result for the club's scorer
        raise ResultError("at notrump only four aces count as honours, worth 150")
    return event


def result_words(game: str, fields: Any) -> str:
    """A result said back as a person would: "4S by South, 10 tricks"; "North-South made trump, alone,
    5 tricks"."""
    if not isinstance(fields, dict):
        return "a result"
    tricks = fields.get("tricks")
    if game in ("contract-bridge", "duplicate-bridge"):
        return (f"{fields.get('contract', '?')} by {SEAT_WORDS.get(str(fields.get('declarer')), '?')}, "
                f"{tricks} tricks")
    alone = ", alone" if fields.get("alone") else ""
    return f"{SIDE_WORDS.get(str(fields.get('makers')), '?')} made trump{alone}, {tricks} tricks"


def no_such_deal(name: str, played: int, deal: object) -> str:
    """Why a correction of ``deal`` at the table ``name``, which has played ``played`` deals, is refused:
    "has played deals 1 to 0" (before the first deal) and "1 to 1" named no deal, or a range of one; the
    table's own refusal says the same ("dealt no deal yet", "dealt deal 1 only")."""
    so_far = ("has played no deal yet" if played < 1 else "has played deal 1 only" if played == 1 else
              f"has played deals 1 to {played}")
    return f"{name} {so_far}: there is no deal {deal!r} to correct"
