"""Rulings: the law engine's output.

A ruling says what happens next (``remedy``), under which law (``law`` and ``clause``), and why
(``reason``, one sentence in our own words naming the facts). Rulings never accuse (CB-scope).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from laws.cards import Seat, Side


class Remedy(StrEnum):
    """What the table must do. Values are the ruling format's remedy names."""

    NEW_SHUFFLE_AND_CUT = "new_shuffle_and_cut"
    NEW_CUT = "new_cut"
    REDEAL = "redeal"
    MISDEAL = "misdeal"
    REPLACE_PACK = "replace_pack"
    RESTORE_PACK = "restore_pack"
    DEEMED_TO_BELONG = "deemed_to_belong"
    DEFECTIVE_TRICK = "defective_trick"
    CLAIM_OPTION = "claim_option"
    DEAL_STANDS = "deal_stands"
    CUT_AGAIN = "cut_again"
    FORMATION = "formation"
    PENALTY = "penalty"
    GAME_WON = "game_won"
    RUBBER_WON = "rubber_won"
    SCORE = "score"
    LOSE_DEAL = "lose_deal"
    ATTENTION = "attention"
    NEW_CARDS = "new_cards"
    CUT_OUT = "cut_out"
    ENTRY = "entry"
    RESHUFFLE = "reshuffle"
    CONTRACT = "contract"
    CHECKED = "checked"          # duplicate: a board's hands as played checked against its record (DB-7)

    def __str__(self) -> str:
        return self.value


# Remedies that are about an irregularity (as opposed to the ordinary course of the game).
IRREGULARITY_REMEDIES = frozenset({
    Remedy.NEW_SHUFFLE_AND_CUT, Remedy.NEW_CUT, Remedy.REDEAL, Remedy.MISDEAL, Remedy.REPLACE_PACK,
    Remedy.RESTORE_PACK, Remedy.DEEMED_TO_BELONG, Remedy.DEFECTIVE_TRICK, Remedy.CLAIM_OPTION,
    Remedy.DEAL_STANDS, Remedy.CUT_AGAIN, Remedy.PENALTY, Remedy.LOSE_DEAL, Remedy.RESHUFFLE,
})


@dataclass(frozen=True)
class Ruling:
    """One ruling.

    Attributes:
        remedy: what the table must do.
        law: human citation, e.g. ``"Contract Bridge, Redeal"`` or ``"Euchre, law 34"``.
        clause: the clause id from docs/laws.md, e.g. ``"CB-redeal-faced"`` or ``"EU-34"``.
        reason: one sentence in our words naming the facts.
        dealer: who deals next, where it applies.
        pack: the pack concerned, where it applies.
        seat: the seat concerned, where it applies.
        side: the side concerned, where it applies.
        extra: remedy-specific fields (``players``, ``partners``, ``points``, ``totals``...).
    """

    remedy: Remedy
    law: str
    clause: str
    reason: str
    dealer: Seat | None = None
    pack: str | None = None
    seat: Seat | None = None
    side: Side | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_irregularity(self) -> bool:
        return self.remedy in IRREGULARITY_REMEDIES

    def to_dict(self) -> dict[str, Any]:
        """The ruling as a JSON-ready object (keys with no value are left out)."""
        out: dict[str, Any] = {"remedy": self.remedy.value, "law": self.law, "clause": self.clause,
                               "reason": self.reason}
        for key in ("dealer", "pack", "seat", "side"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v.value if isinstance(v, Enum) else v
        for k, v in self.extra.items():
            out[k] = _plain(v)
        return out


def _plain(v: Any) -> Any:
    if isinstance(v, Enum):
        return v.value
    if isinstance(v, dict):
        return {_plain(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "code"):
        return v.code
    return v
