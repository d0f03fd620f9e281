"""What a log line may say of a refusal: never a card of an open deal (docs/ordering.md).

A refusal's reason is written whole to the journal note and the display, where the director reads it; the
log gets these versions, which drop what the refused input quoted and every card the reason names. The
log is read by whoever looks after the Pi, who may be at the table.
"""

from __future__ import annotations

import re
from typing import Any

from firmware_host.records.lines import lone_surrogate
from laws.cards import RANK_NAMES, SUIT_NAMES

_QUOTED = re.compile(r"(?<![A-Za-z])'[^']*'|\"[^\"]*\"")  # not a possessive's apostrophe
_NAMED = re.compile(r"\b(?:{}) of (?:{})\b".format("|".join(RANK_NAMES.values()), "|".join(SUIT_NAMES.values())),
                    re.IGNORECASE)


def unquoted(why: str) -> str:
    """An event format refusal without the value it quotes from the line (``field 'seat': unknown seat
    'QS' ...`` -> ``field 'seat' is not valid``), for the log: the value may be a card of the open deal.
    The field's name is the format's own, never the line's text."""
    if why.startswith("field "):
        return why.split(":", 1)[0] + " is not valid"
    if why.startswith("unknown event type"):
        return "unknown event type"
    return why      # the format's other refusals quote nothing of the line (a missing field, a JSON list)


def loggable(why: str) -> str:
    """Any refusal's reason for the log: a format refusal as ``unquoted`` gives it, then every quoted value
    (the input's own text) shown as ``'…'`` and every card the reason names as "a card" ("the two of clubs
    is not in this game's pack" -> "the a card is not ..." reads badly, so the article goes with it)."""
    if unquoted(why) != why:
        return unquoted(why)    # the field's name is the format's own and stays
    text = _QUOTED.sub("'…'", why)
    text = re.sub(rf"\b(?:the|a|an) (?={_NAMED.pattern})", "", text, flags=re.IGNORECASE)
    return _NAMED.sub("a card", text)


def printable(value: Any) -> Any:
    """``value`` with any lone surrogate in its text written as an escape (``\\ud800``), so that the
    journal can hold it (text from outside is checked where it enters; this is the last guard)."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8") if lone_surrogate(value) else value
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable(v) for v in value]
    return value
