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
    Remedy.CHECKED: "BOARD CHECKED",
}

# Duplicate (docs/laws.md DB-): a board at the table.
DUPLICATE_HEADLINES = {
    "DB-6": "REMAKE THE BOARD FROM ITS RECORD", "DB-13": "WRONG NUMBER OF CARDS", "DB-14": "BOARD NOT WHOLE",
    "DB-87": "CARD AGAINST THE HAND RECORD: DIRECTOR", "DB-15": "WRONG BOARD: PLAY CANCELLED",
}

# Bridge as it is played (docs/laws.md BP-): what an irregularity's ruling is headed with, and what settles it.
BRIDGE_HEADLINES = {
    "BP-27": "INSUFFICIENT BID", "BP-28-32": "CALL OUT OF ROTATION", "BP-35-36": "INADMISSIBLE CALL",
    "BP-39": "CALL AFTER THE AUCTION", "BP-53-56": "LEAD OUT OF TURN", "BP-57": "CARD PLAYED OUT OF TURN",
    "BP-61": "REVOKE", "BP-62": "REVOKE CORRECTED", "BP-63": "REVOKE ESTABLISHED", "BP-64": "TRICKS TRANSFERRED",
    "BP-66-67": "DEFECTIVE TRICK", "BP-68-71": "CLAIM", "CB-result-check": "THE RESULT DIFFERS FROM THE CARDS",
}
_AUCTION_CLAUSES = frozenset({"BP-17", "BP-22", "BP-27", "BP-28-32", "BP-35-36", "BP-39"})
# A bridge `deal_stands` that does not let the auction or play go on: a claim agreed or ruled ends play, a
# call after the close is cancelled (the auction is over), a correction is a correction (even the
# twelfth trick's, made once play ended).
_BRIDGE_STANDS = {
    "BP-68-71": {"agreed": "CLAIM AGREED: PLAY ENDS", "ruled": "CLAIM RULED: PLAY ENDS"},
    "BP-39": {"": "CALL CANCELLED"},
    "BP-62": {"": "REVOKE CORRECTED"},
}
# A BP-64 ruling that moves no trick is not headed "TRICKS TRANSFERRED": a revoke alleged that the tricks do
# not prove, and an established revoke law 64B exempts (both sides revoked, dummy's card, a faced card, the
# offenders won no trick) or one still open when play ended. Players read the headline first.
_NOTHING_MOVED = {"none found": "NO REVOKE FOUND IN THE TRICKS", "none moved": "REVOKE: NO TRICKS TRANSFERRED"}


def _stands_key(r: Ruling) -> str:
    return "agreed" if r.extra.get("agreed") else "ruled" if r.extra.get("ruled") else ""


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
    "fouled": "play on, the board fouled", "wrong_board": "cancel: the wrong board",
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
    if r.remedy is Remedy.CHECKED:
        return "BOARD VERIFIED" if r.extra.get("verified") else "BOARD NOT VERIFIED"
    if r.clause == "DB-87" and r.remedy is Remedy.DEAL_STANDS:
        return "FOULED BOARD: PLAY GOES ON, SCORED APART"
    if r.clause == "DB-77" and r.extra.get("confirmed"):
        return "RESULT CONFIRMED"
    if r.clause in DUPLICATE_HEADLINES:
        return DUPLICATE_HEADLINES[r.clause]
    if r.clause == "BP-64" and not r.extra.get("tricks"):
        return _NOTHING_MOVED["none found" if r.extra.get("found") == [] else "none moved"]
    if r.clause in BRIDGE_HEADLINES or r.clause in _AUCTION_CLAUSES:
        if r.remedy is Remedy.DEAL_STANDS:
            return _BRIDGE_STANDS.get(r.clause, {}).get(_stands_key(r)) or (
                "THE AUCTION GOES ON" if r.clause in _AUCTION_CLAUSES else "PLAY GOES ON")
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
    # a passed-out deal names who deals next as a redeal does (its ruling's ``dealer``; none at duplicate)
    passed_out = r.remedy is Remedy.CONTRACT and bool(r.extra.get("passed_out"))
    if r.dealer is not None and (r.remedy in _NAMES_DEALER or passed_out):
        head += f" — {SEAT_NAMES[r.dealer.value]} deals"
    if r.pack and r.remedy in (Remedy.REPLACE_PACK, Remedy.RESTORE_PACK):
        head += f" (pack {r.pack})"
    return head


def ruling_text(r: Ruling, line: int | None = None) -> str:
    """Two lines: what to do (and who deals), then why under which law."""
    where = f"[line {line}] " if line is not None else ""
    return f"{where}{title(r)}\n    {r.law} [{r.clause}]: {r.reason}"


SIDE_NAMES = {"NS": "North-South", "EW": "East-West"}


def _sides(d: object) -> str:
    d = d if isinstance(d, dict) else {}
    return ", ".join(f"{SIDE_NAMES[s]} {int(d.get(s, 0) or 0)}" for s in ("NS", "EW"))


def score_words(score: dict[str, object]) -> str:
    """The score in words, as a player says it (the dashboard's line; the terminal keeps its compact
    ``score_text`` to fit 80 columns): "Game 2 of the rubber. Below the line North-South 40, East-West 0;
    in all North-South 540, East-West 50. Games won: North-South 1, East-West 0. North-South vulnerable."
    """
    game = score.get("game")
    if "totals" in score:  # bridge
        games = score.get("games") if isinstance(score.get("games"), dict) else {}
        won = _sides(games) if any(games.values()) else "none yet"  # type: ignore[union-attr]
        vul = [s for s, v in (score.get("vulnerable") or {}).items() if v]  # type: ignore[attr-defined]
        said = ("Neither side vulnerable" if not vul else "Both sides vulnerable" if len(vul) == 2
                else f"{SIDE_NAMES.get(vul[0], vul[0])} vulnerable")
        return (f"Game {game} of the rubber. Below the line {_sides(score.get('below'))}; in all "
                f"{_sides(score.get('totals'))}. Games won: {won}. {said}.")
    return f"Game {game}. Points: {_sides(score.get('score'))}. Games won: {_sides(score.get('games_won'))}."


# Bridge as it is played: what waits for a ruling, and the director's answers that settle it, as the
# director reads them on the dashboard (the status's ``bridge``, docs/mqtt.md). No code name is shown.
WAITING_WORDS = {
    "insufficient_bid": "an insufficient bid", "call_out_of_rotation": "a call out of rotation",
    "lead_out_of_turn": "a lead out of turn", "premature_play": "a card played before his partner's",
    "play_out_of_turn": "a card played out of turn",
}
ANSWER_WORDS = {  # the dashboard's command -> what its button says
    "accept": "Accept it", "decline": "Not accepted", "withdraw": "Take the card back", "spread": "Spread declarer's hand", "bar": "Enter the bar",
    "correct_revoke": "Correct the revoke", "claim": "Enter the claim", "claim_reply": "Enter the answer",
    "claim_ruled": "Rule on the claim",
}
ANSWER_NAMES = {  # the same answers in a sentence ("an acceptance is entered at a bridge table")
    "accept": "an acceptance", "decline": "a call not accepted", "withdraw": "a card taken back", "spread": "declarer's hand spread", "bar": "a bar", "correct_revoke": "a revoke's correction",
    "claim": "a claim", "claim_reply": "an answer to a claim", "claim_ruled": "a ruling on a claim",
}
CLAIM_STATUS_WORDS = {"pending": "waiting for the other side's answer", "disputed": "disputed: the director rules",
                      "agreed": "agreed", "ruled": "ruled by the director"}


def _call_words(code: object) -> str:
    from laws.bridge.calls import BidAboveSeven, CallError, parse_call

    try:
        return parse_call(str(code)).words
    except BidAboveSeven as above:
        return above.words
    except CallError:
        return "call"


def waiting_words(kind: str, seat: str, call: object = None) -> str:
    """The irregular call or card that waits for a ruling, in words: "East's one heart: an insufficient
    bid", "West's card: a lead out of turn" (the card itself is held back while the deal is open)."""
    what = _call_words(call) if call else "card"
    return f"{SEAT_NAMES.get(seat, seat)}'s {what}: {WAITING_WORDS.get(kind, 'an irregularity')}"


def revoke_words(seat: str, trick: int, suit: str) -> str:
    """"East's revoke in trick 3 (spades were led)"."""
    from laws.cards import SUIT_NAMES as SUITS

    return f"{SEAT_NAMES.get(seat, seat)}'s revoke in trick {trick} ({SUITS.get(suit, 'a suit')} were led)"


def claim_words(seat: str, tricks: int, remaining: int, status: str) -> str:
    """"South claims 10 of the last 12 tricks — disputed: the director rules"; 0 is a concession."""
    who = SEAT_NAMES.get(seat, seat)
    said = (f"{who} concedes the last {remaining} tricks" if tricks == 0 else
            f"{who} claims {tricks} of the last {remaining} tricks")
    return f"{said} — {CLAIM_STATUS_WORDS.get(status, status)}"


def bar_words(bars: object) -> str:
    """What a bar the laws name brings ("West must pass for the rest of the auction"), from the status's
    ``[[seat, turns], ...]``; "" for none."""
    from laws.bridge.verdicts import REST
    from laws.cards import Seat
    from laws.games.bridge_auction import bars_text

    pairs = []
    for item in bars if isinstance(bars, list) else []:
        if isinstance(item, list) and len(item) == 2 and item[0] in SEAT_NAMES and (
                item[1] == "rest" or (isinstance(item[1], int) and not isinstance(item[1], bool))):
            pairs.append((Seat(item[0]), REST if item[1] == "rest" else item[1]))
    return bars_text(pairs)
