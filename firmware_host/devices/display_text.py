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
    Remedy.CONTRACT: "THE CONTRACT",
}

# Bridge as it is played (LAWS.md BP-): what an irregularity's ruling is headed with, and what settles it.
BRIDGE_HEADLINES = {
    "BP-27": "INSUFFICIENT BID", "BP-28-32": "CALL OUT OF ROTATION", "BP-35-36": "INADMISSIBLE CALL",
    "BP-39": "CALL AFTER THE AUCTION", "BP-53-56": "LEAD OUT OF TURN", "BP-57": "CARD PLAYED OUT OF TURN",
    "BP-61": "REVOKE", "BP-62": "REVOKE CORRECTED", "BP-63": "REVOKE ESTABLISHED", "BP-64": "TRICKS TRANSFERRED",
    "BP-66-67": "DEFECTIVE TRICK", "BP-68-71": "CLAIM", "CB-result-check": "THE RESULT DIFFERS FROM THE CARDS",
}
_AUCTION_CLAUSES = frozenset({"BP-17", "BP-22", "BP-27", "BP-28-32", "BP-35-36", "BP-39"})


SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}

# Claims and lapses of the euchre laws of play (issue 12) that are not about a redeal.
_CLAIMS = {"reshuffle": "A RESHUFFLE MAY BE DEMANDED", "call": "A CALL MAY BE MADE"}
_PLAY_CLAUSES = frozenset({"EU-46", "EU-47", "EU-48", "EU-51", "EU-52", "EU-53", "EU-56", "EU-59", "EU-69",
                           "EU-80", "EU-89"})


# What each choice a claim offers does, as a player or the director reads it (never the code name).
OPTION_WORDS = {
    "redeal": "claim the redeal", "new_shuffle": "make the dealer shuffle again",
    "call_card": "call the exposed card", "call_suit": "call a suit",
    "win_trick": "require the trick won", "lose_trick": "require the trick lost",
    "hold_order": "hold them to the order", "call_highest": "call for the highest card",
    "call_lowest": "call for the lowest card",
}
BID_WORDS = {"pass": "pass", "order": "order up (accept the turned card)", "name": "name a suit"}
FOUND_WORDS = {"loose": "found loose", "trick": "found in a trick", None: "not found"}


def option_words(what: str) -> str:
    """A claim's option in words ("call a suit"); "a choice" for one we do not know."""
    return OPTION_WORDS.get(what, "a choice")


def found_words(found: str | None, short: str | None = None) -> str:
    """Where a missing card was found, in words ("found in East's hand"; the short hand ``short``
    itself: "found with North's hand")."""
    if found in SEAT_NAMES:
        return f"found {'with' if found == short else 'in'} {SEAT_NAMES[str(found)]}'s hand"
    return FOUND_WORDS.get(found, "found")


def headline(r: Ruling) -> str:
    if r.remedy is Remedy.CONTRACT and r.extra.get("passed_out"):
        return "PASSED OUT"
    if r.clause in BRIDGE_HEADLINES or r.clause in _AUCTION_CLAUSES:
        if r.remedy is Remedy.DEAL_STANDS:
            return "THE AUCTION GOES ON" if r.clause in _AUCTION_CLAUSES else "PLAY GOES ON"
        if r.remedy in (Remedy.ATTENTION, Remedy.PENALTY):
            return BRIDGE_HEADLINES.get(r.clause, HEADLINES[r.remedy])
    options = r.extra.get("options")
    if r.remedy is Remedy.ATTENTION and isinstance(options, list) and options:
        return "THE DIRECTOR CHOOSES: " + " OR ".join(option_words(str(o)).upper() for o in options)
    if r.remedy is Remedy.CLAIM_OPTION and r.extra.get("grants") in _CLAIMS:
        return _CLAIMS[str(r.extra["grants"])]
    if r.remedy is Remedy.DEAL_STANDS and r.clause in _PLAY_CLAUSES:
        return "PLAY GOES ON"
    if r.remedy is Remedy.ATTENTION and "search" in r.extra:
        return "SEARCH FOR THE MISSING CARD"
    return HEADLINES.get(r.remedy, r.remedy.value.upper())


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
