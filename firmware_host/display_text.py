"""Plain-text renderings of rulings for people (the replay's ``--format text`` and logs)."""

from __future__ import annotations

from laws.rulings import Remedy, Ruling

HEADLINES: dict[Remedy, str] = {
    Remedy.NEW_SHUFFLE_AND_CUT: "NEW SHUFFLE AND CUT",
    Remedy.NEW_CUT: "CUT AGAIN",
    Remedy.REDEAL: "REDEAL",
    Remedy.MISDEAL: "MISDEAL: THE DEAL PASSES",
    Remedy.REPLACE_PACK: "REPLACE THE PACK",
    Remedy.RESTORE_PACK: "RESTORE THE PACK",
    Remedy.DEEMED_TO_BELONG: "CARD BELONGS TO THE SHORT HAND",
    Remedy.DEFECTIVE_TRICK: "DEFECTIVE TRICK",
    Remedy.CLAIM_OPTION: "A REDEAL MAY BE CLAIMED",
    Remedy.DEAL_STANDS: "THE DEAL STANDS",
    Remedy.CUT_AGAIN: "CUT AGAIN FOR THE TABLE",
    Remedy.FORMATION: "THE TABLE IS FORMED",
    Remedy.PENALTY: "PENALTY",
    Remedy.GAME_WON: "GAME",
    Remedy.RUBBER_WON: "RUBBER",
    Remedy.SCORE: "SCORE",
    Remedy.LOSE_DEAL: "THE DEAL IS LOST",
    Remedy.ATTENTION: "ATTENTION",
    Remedy.NEW_CARDS: "FRESH CARDS",
    Remedy.CUT_OUT: "CUTTING OUT",
    Remedy.ENTRY: "ENTRY",
    Remedy.RESHUFFLE: "SHUFFLE AGAIN",
}


def headline(r: Ruling) -> str:
    return HEADLINES.get(r.remedy, r.remedy.value.upper())


SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
_NAMES_DEALER = frozenset({Remedy.REDEAL, Remedy.MISDEAL, Remedy.LOSE_DEAL, Remedy.NEW_SHUFFLE_AND_CUT,
                           Remedy.REPLACE_PACK})


def title(r: Ruling) -> str:
    """What to do, with who deals next and which pack where that matters."""
    head = headline(r)
    if r.dealer is not None and r.remedy in _NAMES_DEALER:
        head += f" — {SEAT_NAMES[r.dealer.value]} deals"
    if r.pack and r.remedy in (Remedy.REPLACE_PACK, Remedy.RESTORE_PACK):
        head += f" (pack {r.pack})"
    return head


def ruling_text(r: Ruling, line: int | None = None) -> str:
    """Two lines: what to do (and who deals), then why under which law."""
    where = f"[line {line}] " if line is not None else ""
    return f"{where}{title(r)}\n    {r.law} [{r.clause}]: {r.reason}"
