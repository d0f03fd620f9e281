"""The game as the players at the table read it between cards: what the terminal panel shows above its
lamps (``display.TerminalDisplay``), as plain lines of at most 76 characters.

Pure: a function of the table's status (``TableController.snapshot``: its ``bridge`` and ``duplicate``
fields, ``docs/mqtt.md``), no I/O. For a bridge table that records the auction and the play:

* the board (duplicate: "Board 7", with its round, table and pairs) or the deal (rubber), the dealer and
  the vulnerability;
* the auction as the usual four columns, West North East South, from the first row on which the dealer
  calls (the seats before him left blank), the next call shown as ``?``;
* whose turn it is and any bar in force;
* the contract and declarer, the tricks each side has won (once play has ended, those its result counts:
  tricks claimed or moved by a revoke included) and the trick on the table;
* once play is over, the result the cards gave and its score, and at a duplicate table how it is
  confirmed (a player of each side presses his seat button), then which board comes next (the status's
  ``next``), or, after the round's last board here, that the round is over at the table until the move;
* one status line that is true for the phase (:func:`status_line`); between deals (the shuffle and the
  cut) at a rubber or euchre table, who deals next ("Next deal: East deals."); after a deal stopped for
  a replacement pack, until the next deal starts, that the table waits for the director's replacement
  pack, then when he acknowledged it (the status's ``new_pack``).

A table that does not see the game (no auction recorded: rubber bridge without bidding capture, euchre)
keeps the old lines, which are true there: it waits for the result the director enters.
"""

from __future__ import annotations

import time
from typing import Any

from firmware_host.devices.display_text import SEAT_NAMES, SIDE_NAMES, bar_words

COLUMNS = ("W", "N", "E", "S")          # the usual order of an auction's columns
VULNERABLE_WORDS = {"None": "none", "NS": "North-South", "EW": "East-West", "All": "both sides"}
STRAIN = {"C": "C", "D": "D", "H": "H", "S": "S", "NT": "NT"}
CALL_SHORT = {"pass": "Pass", "double": "X", "redouble": "XX"}
# the games whose tables record the auction and the play (``table.bridge_choices.GAMES`` is this): before
# the first call of a deal their status has no ``bridge`` yet, and the dealer is the one to call
RECORDS_AUCTION = ("contract-bridge", "duplicate-bridge")
WAITING = {"auction": "the deal is out; waiting for the hand's result (the director's dashboard)",
           "play": "the hand is being played; waiting for its result",
           "scoring": "play has ended; waiting for the result"}


def _seat(v: Any) -> str:
    return SEAT_NAMES.get(str(v), "-")


def _clock(t: Any) -> str:
    """"at 21:07" (local time), or "it" for a time no clock shows (a status from outside)."""
    if not isinstance(t, (int, float)) or isinstance(t, bool):
        return "it"
    try:
        return time.strftime("at %H:%M", time.localtime(t))
    except (OverflowError, OSError, ValueError):
        return "it"


def _contract_words(code: str, declarer: str | None) -> str:
    """"4H by South", "3NTX by West"."""
    return f"{code} by {_seat(declarer)}" if declarer else code


def vulnerable_words(snap: dict[str, Any]) -> str:
    """The vulnerability: the board's (duplicate) or the rubber score's."""
    dup = snap.get("duplicate") or {}
    if dup.get("vulnerable"):
        return VULNERABLE_WORDS.get(str(dup["vulnerable"]), str(dup["vulnerable"]))
    vul = (snap.get("score") or {}).get("vulnerable") or {}
    sides = [SIDE_NAMES[s] for s in ("NS", "EW") if vul.get(s)]
    return "both sides" if len(sides) == 2 else sides[0] if sides else "none"


def board_lines(snap: dict[str, Any]) -> list[str]:
    """"Board 7   Dealer South   Vulnerable: both sides" and, in duplicate, where it is played."""
    dup = snap.get("duplicate") or {}
    if dup.get("board"):
        out = [f"Board {dup['board']}   Dealer {_seat(dup.get('dealer'))}   Vulnerable: {vulnerable_words(snap)}"]
        where = f"Round {dup.get('round')}, table {dup.get('table')}"
        if dup.get("section"):
            where += f" (section {dup['section']})"
        out.append(f"{where}: North-South pair {dup.get('ns')}, East-West pair {dup.get('ew')}")
        return out
    if not snap.get("deal"):
        return []
    line = f"Deal {snap['deal']}   Dealer {_seat(snap.get('dealer'))}"
    if snap.get("game") != "euchre":
        line += f"   Vulnerable: {vulnerable_words(snap)}"
    return [line]


def call_short(code: str) -> str:
    """A call as an auction grid writes it: ``1H``, ``3NT``, ``Pass``, ``X``, ``XX``."""
    return CALL_SHORT.get(code, code)


def auction_rows(bridge: dict[str, Any]) -> list[list[str]]:
    """The auction as rows of four cells (West North East South), the seats' names first, then from the
    dealer's row; ``?`` marks the next call while the auction is open. A page lays them out as a table,
    the panel as columns (:func:`auction_grid`)."""
    dealer = bridge.get("dealer")
    if dealer not in COLUMNS:
        return []
    cells = [""] * COLUMNS.index(dealer)
    cells += [call_short(str(code)) for _, code in bridge.get("calls") or []]
    if bridge.get("turn") and not bridge.get("contract"):
        cells.append("?")
    rows = [[SEAT_NAMES[s] for s in COLUMNS]]
    for i in range(0, len(cells), 4):
        rows.append(cells[i:i + 4])
    return rows


def auction_grid(bridge: dict[str, Any]) -> list[str]:
    """The auction as four columns of text (West North East South), from the dealer's row."""
    return ["  " + "".join(f"{c:<9}" for c in row).rstrip() for row in auction_rows(bridge)]


def play_lines(bridge: dict[str, Any]) -> list[str]:
    """Contract and declarer, tricks won by each side, and the trick on the table."""
    contract = bridge.get("contract")
    if not contract:
        return []
    declarer = bridge.get("declarer")
    side = "NS" if declarer in ("N", "S") else "EW"
    dummy = {"N": "S", "S": "N", "E": "W", "W": "E"}.get(str(declarer), "")
    out = [f"Contract: {_contract_words(str(contract), declarer)} ({SIDE_NAMES[side]}); dummy {_seat(dummy)}"]
    tricks = bridge.get("tricks") or {}
    result = bridge.get("result") or {}
    if isinstance(result.get("tricks"), int) and result.get("declarer") in SEAT_NAMES:
        # once play has ended the result counts every trick: claimed ones and any a revoke moved, which
        # the tricks played do not ("North-South 3" above "0 tricks: down 7" after a claim of the rest)
        made = "NS" if result["declarer"] in ("N", "S") else "EW"
        tricks = {made: result["tricks"], "EW" if made == "NS" else "NS": 13 - result["tricks"]}
    left = bridge.get("tricks_left")
    line = f"Tricks won: North-South {tricks.get('NS', 0)}, East-West {tricks.get('EW', 0)}"
    if left:
        line += f"; trick {bridge.get('trick')}, {left} to play"
    out.append(line)
    cards = bridge.get("trick_cards") or []
    if cards:   # off the table (the club) the cards of an open deal are hidden: the seats that played
        out.append("On the table: " + ", ".join(f"{_seat(s)} {c}" if c != "hidden" else _seat(s)
                                                for s, c in cards))
    return out


def result_lines(snap: dict[str, Any]) -> list[str]:
    """The result the cards gave and its score; at a duplicate table, how it is confirmed."""
    bridge = snap.get("bridge") or {}
    r = bridge.get("result")
    if not r:
        return []
    dup = snap.get("duplicate") or {}
    contract, tricks = str(r.get("contract", "")), r.get("tricks")
    need = int(contract[0]) + 6 if contract[:1].isdigit() else None
    if isinstance(tricks, int) and need is not None:
        made = "made" if tricks == need else f"made with {tricks - need} over" if tricks > need \
            else f"down {need - tricks}"
    else:
        made = ""
    line = f"Result: {_contract_words(contract, r.get('declarer'))}, {tricks} tricks: {made}"
    score = dup.get("score")
    if isinstance(score, int):
        line += f"; North-South {score:+d}" if score else "; no score"
    out = [line + "."]
    stage = dup.get("stage")
    if stage == "scored":
        done = [SIDE_NAMES.get(str(s).upper(), "-") for s in dup.get("confirmed") or []]   # sides: ["ns"]
        out.append("To confirm it, one player of each side presses his seat button"
                   + (f" (confirmed: {', '.join(done)})." if done else "."))
    elif stage == "confirmed" and isinstance(dup.get("next"), int) and not isinstance(dup.get("next"), bool):
        out.append(f"Confirmed by both sides: board {dup['next']} comes to the table next.")
    elif stage == "confirmed" and "next" in dup:
        # the round's last board here: no board comes until the move (it once said "the next board comes")
        out.append(f"Confirmed by both sides. Round {dup.get('round')} is over at this table: wait for the move.")
    elif stage == "confirmed":
        out.append("Confirmed by both sides.")      # a status that does not say what comes next
    return out


def status_line(snap: dict[str, Any]) -> str:
    """One line saying what the table is doing now, true for a table that sees the game and for one
    that does not ("" when there is nothing to say)."""
    phase = str(snap.get("phase"))
    bridge = snap.get("bridge")
    dup = snap.get("duplicate") or {}
    if dup.get("stage") == "cancelled":
        return "The director cancelled this board's play."
    if dup.get("stage") == "abandoned":
        return "The director scored this board: its play here is over."
    pack = snap.get("new_pack")
    if isinstance(pack, dict) and snap.get("next_dealer") in SEAT_NAMES:
        # a deal stopped for a replacement pack: the shoe deals nothing until the director has brought one
        # and acknowledged, and only a log line out of the players' sight said why (docs/events.md)
        who = _seat(snap["next_dealer"])
        if pack.get("waits"):
            return f"The table waits for the director's replacement pack; then {who} deals."
        return f"Replacement pack in: the director acknowledged {_clock(pack.get('acknowledged'))}. {who} deals."
    if phase in ("shuffle", "cut") and snap.get("game") != "duplicate-bridge" \
            and snap.get("next_dealer") in SEAT_NAMES:
        # between deals the head still names the last deal's dealer (a misdeal passes the deal on, a deal
        # out of turn redealt goes back to its dealer): the players read here who deals now
        return f"Next deal: {_seat(snap['next_dealer'])} deals."
    if not bridge:
        if phase == "auction" and snap.get("game") in RECORDS_AUCTION and snap.get("dealer") in SEAT_NAMES:
            return f"The auction: {_seat(snap['dealer'])} to call."   # no call yet: the dealer's turn
        return WAITING.get(phase, "")
    if bridge.get("waiting"):
        return "An irregularity waits for a ruling (above); the director is called."
    if phase == "auction" and bridge.get("turn"):
        return f"The auction: {_seat(bridge['turn'])} to call."
    claim = bridge.get("claim") if not bridge.get("result") else None
    if claim and claim.get("status") in ("pending", "disputed"):   # a claim stops play: no one to play
        return "A claim waits for the other side's answer." if claim.get("status") == "pending" \
            else "A claim is disputed: the director rules."
    if bridge.get("to_play") and not bridge.get("result"):
        return f"The play: {_seat(bridge['to_play'])} to play."
    if bridge.get("result"):
        return "Play is over: the result is the cards'." + (" Confirm it with the seat buttons." if dup.get("stage") == "scored"
                                                            else "")
    return WAITING.get(phase, "")


def after_auction_lines(snap: dict[str, Any]) -> list[str]:
    """The lines below the auction: any bar in force, the play, the result."""
    bridge = snap.get("bridge")
    if not bridge:
        return []
    out = []
    bars = bar_words(bridge.get("bars") or [])
    if bars and not bridge.get("contract"):
        out.append(f"Bar: {bars}.")
    return out + play_lines(bridge) + result_lines(snap)


def game_lines(snap: dict[str, Any]) -> list[str]:
    """Every line of the game for the panel, in reading order."""
    bridge = snap.get("bridge")
    return board_lines(snap) + (auction_grid(bridge) if bridge else []) + after_auction_lines(snap)


def game_parts(snap: dict[str, Any]) -> dict[str, Any]:
    """The same game in parts, for a page that lays them out itself (a narrow screen wraps the sentences
    and shows the auction as a table): ``head`` (the board's lines), ``auction`` (:func:`auction_rows`),
    ``lines`` (bar, play, result) and ``status`` (:func:`status_line`)."""
    bridge = snap.get("bridge")
    return {"head": board_lines(snap), "auction": auction_rows(bridge) if bridge else [],
            "lines": after_auction_lines(snap), "status": status_line(snap)}
