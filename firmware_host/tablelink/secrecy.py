"""Hands stay secret: what may leave the table while a deal is still being played.

Pure (no I/O, no clock). The publisher passes every body it would send off the table through
``SecrecyFilter``; while a deal is open (``deal_over(deal)`` not yet called) every card identity in it is
replaced: a value under a card key (``card``, ``cards``, ``cuts`` ...) or a string that is exactly a card
code becomes ``"hidden"``, and a card written out in a sentence ("the ten of spades") becomes "a card (shown when the hand is over)" (``HIDDEN_IN_WORDS``).
What was held back is kept so that the whole deal can be released once its play has ended. A club may opt
in to showing cards live (``reveal=True``, e.g. for a teaching table).

Card identities that are public by the laws before any deal (the draw for partners and deal: ``draw``
events, deal number 0) are not held back. A duplicate ``board`` event's hand record (``deal``) never
leaves the table: the session holds the records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

HIDDEN = "hidden"
RANKS = "AKQJT98765432"
SUITS = "SHDC"
_RANK_WORDS = ("ace", "king", "queen", "jack", "knave", "ten", "nine", "eight", "seven", "six", "five",
               "four", "three", "two")
_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
_CARD_NAME = re.compile(rf"\b(?:(?:the|a|an) )?(?:{'|'.join(_RANK_WORDS)}) of (?:{'|'.join(_SUIT_WORDS)})\b",
                        re.IGNORECASE)
_CARD_CODE = re.compile(rf"^(?:10|[{RANKS}{RANKS.lower()}])[{SUITS}{SUITS.lower()}]$")
_CODE_IN_TEXT = re.compile(rf"\b(?:10|[{RANKS}])[{SUITS}]\b")
_CODE_IN_SENTENCE = re.compile(rf"\b(?:(?:the|a|an) )?(?:10|[{RANKS}])[{SUITS}]\b")
# What a card held back reads as in a sentence ("South led a card (shown when the hand is over) out of
# turn"): words a person would say, not a placeholder.
HIDDEN_IN_WORDS = "a card (shown when the hand is over)"
# Keys whose values name cards, whatever their shape (a code, a list of codes, pairs [name, code]).
CARD_KEYS = frozenset({"card", "cards", "cuts", "exposed_cards", "hand", "hands", "trump_card", "missing",
                       "found_card", "top_card", "turned", "deal", "lead"})
# Keys whose values look like card codes but are not cards: a contract such as "4S" is a bid, and so is a
# bridge call ("2S") or the auction's calls (the auction is public).
NOT_CARD_KEYS = frozenset({"contract", "call", "calls"})
# Events that name cards of the draw, not of a deal: public.
PUBLIC_EVENTS = frozenset({"draw", "game", "packs"})


def is_card_code(text: str) -> bool:
    """True for a card code such as ``"TS"``, ``"qh"`` or ``"10D"``."""
    return bool(_CARD_CODE.match(text))


def hide_cards(value: Any, *, under_card_key: bool = False) -> Any:
    """A copy of ``value`` (any JSON value) with every card identity replaced.

    Args:
        value: a JSON value (dict, list, string, number, bool, None).
        under_card_key: the value sits under a key that names cards (every string in it is hidden;
            numbers, booleans and None, which means "unreadable", say nothing about a card).
    """
    if isinstance(value, dict):
        return {k: v if k in NOT_CARD_KEYS else hide_cards(v, under_card_key=under_card_key or k in CARD_KEYS)
                for k, v in value.items()}
    if isinstance(value, list):
        return [hide_cards(v, under_card_key=under_card_key) for v in value]
    if isinstance(value, str):
        if under_card_key or is_card_code(value):
            return HIDDEN
        text = _CARD_NAME.sub(_in_words, value)
        return _CODE_IN_SENTENCE.sub(_in_words, text)
    return value  # numbers, booleans and null name no card (a hand number, a count, "unreadable")


def _in_words(m: re.Match[str]) -> str:
    """A card named in a sentence, as a person would say it is held back (capital at a sentence's start)."""
    return HIDDEN_IN_WORDS[0].upper() + HIDDEN_IN_WORDS[1:] if m.group(0)[0].isupper() else HIDDEN_IN_WORDS


def names_a_card(value: Any, cards: Iterable[str]) -> bool:
    """True when ``value`` (a JSON value or text) mentions any of ``cards`` (codes) by code or by name.

    Used by tests and by the dashboard's own guard; matches whole words only.
    """
    wanted = {c.upper() for c in cards}
    if not wanted:
        return False
    text = value if isinstance(value, str) else repr(value)
    for code in _CODE_IN_TEXT.findall(text.upper()):
        if code in wanted:
            return True
    names = {f"{_word(c[0])} of {_suit_word(c[1])}" for c in wanted}
    low = text.lower()
    return any(n in low for n in names)


def _word(rank: str) -> str:
    return {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine", "8": "eight",
            "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"}[rank]


def _suit_word(suit: str) -> str:
    return {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[suit]


class SecrecyFilter:
    """Holds card identities of open deals back; releases a deal's cards when its play has ended.

    Args:
        reveal: the club opted in to showing cards live; nothing is held back.
    """

    def __init__(self, *, reveal: bool = False) -> None:
        self.reveal = reveal
        self._closed: set[int] = set()
        self._closed_upto = 0   # every deal up to this one is closed but ``_in_play`` (``resume``)
        self._in_play = 0
        self._held: dict[int, list[dict[str, Any]]] = {}

    def is_open(self, deal: int) -> bool:
        """True while the cards of ``deal`` must stay at the table (deal 0 = no deal yet)."""
        if self.reveal or deal <= 0 or deal in self._closed:
            return False
        return deal > self._closed_upto or deal == self._in_play

    @staticmethod
    def holds(event: dict[str, Any]) -> bool:
        """Whether this event, in an open deal, is held back to be released with the deal (it names a card)."""
        if event.get("type") == "board" or event.get("type") in PUBLIC_EVENTS:
            return False
        return bool(hide_cards(event) != event)

    def resume(self, closed_upto: int, in_play: int, held: list[dict[str, Any]]) -> None:
        """After a restart (``tablelink.restart``): every deal up to ``closed_upto`` has ended but ``in_play``
        (0: none), whose events sent with their cards held back are ``held`` (``{"seq": seq, **event}``)."""
        self._closed_upto, self._in_play = closed_upto, in_play
        self._held = {in_play: list(held)} if in_play > 0 and held else {}

    def event(self, event: dict[str, Any], deal: int, seq: int) -> dict[str, Any]:
        """The event as it may leave the table now. The original is kept to be released later."""
        if event.get("type") == "board" and not self.reveal:
            # a duplicate board's hand record: the session holds the records, so the table never sends it
            # (it may come before its deal starts, when the deal number is still the last one's)
            return hide_cards(event)  # type: ignore[no-any-return]
        if not self.is_open(deal) or event.get("type") in PUBLIC_EVENTS:
            return dict(event)
        hidden = hide_cards(event)
        if hidden != event:
            self._held.setdefault(deal, []).append({"seq": seq, **event})
        return hidden  # type: ignore[no-any-return]

    def body(self, body: dict[str, Any], deal: int) -> dict[str, Any]:
        """Any other body (a ruling, a status snapshot) as it may leave the table now."""
        if not self.is_open(deal):
            return dict(body)
        return hide_cards(body)  # type: ignore[no-any-return]

    def deal_over(self, deal: int) -> list[dict[str, Any]]:
        """Mark ``deal``'s play as ended and return the events whose cards were held back, in order."""
        self._closed.add(deal)
        return self._held.pop(deal, [])
