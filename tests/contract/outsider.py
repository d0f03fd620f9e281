"""What an outside developer writes from docs/events.md and docs/laws.md alone: run ``cardtable replay``
as a program (JSON Lines in, rulings out) and build the event logs of ordinary deals from the rules the
documents state. Nothing here imports our code."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SEATS = "NESW"
BRIDGE_RANKS = "AKQJT98765432"
EUCHRE_RANKS = "AKQJT987"


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    @property
    def rulings(self) -> list[dict[str, Any]]:
        """Every stdout line as JSON (rulings, and the documented ``dropped`` notices)."""
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    def remedies(self) -> list[tuple[str, str]]:
        return [(r["remedy"], r["clause"]) for r in self.rulings if "remedy" in r]


def replay(events: list[Any] | str | bytes, *args: str) -> Run:
    """``cardtable replay - ARGS`` with ``events`` (dicts, or lines as text) on standard input."""
    if isinstance(events, list):
        data = "".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in events).encode()
    else:
        data = events.encode() if isinstance(events, str) else events
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", "-", *args], input=data,
                       capture_output=True, cwd=ROOT, timeout=60, check=False)
    return Run(p.returncode, p.stdout.decode(), p.stderr.decode())


def left(seat: str, k: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + k) % 4]


def game(name: str) -> dict[str, Any]:
    return {"type": "game", "game": name}


def bridge_table() -> list[dict[str, Any]]:
    """A bridge table formed by the draw (modern practice): Ann's ace of spades deals, from North."""
    return [game("contract-bridge"), {"type": "packs", "owners": {"NS": "red", "EW": "blue"}},
            {"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
             "seats": {"Ann": "N", "Bob": "S", "Cy": "E", "Di": "W"}}]


def euchre_table() -> list[dict[str, Any]]:
    """A euchre table formed by the cut (laws 8, 11: the knave is highest): Ann deals, from North."""
    return [game("euchre"), {"type": "draw", "cuts": [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "8C"]],
                             "seats": {"Ann": "N", "Bob": "S", "Cy": "E", "Di": "W"}}]


def shuffle_and_cut(dealer: str, packets: tuple[int, int]) -> list[dict[str, Any]]:
    """The dealer's partner shuffles, the dealer's right-hand opponent cuts."""
    return [{"type": "shuffle", "seat": left(dealer, 2)},
            {"type": "cut", "seat": left(dealer, 3), "top": packets[0], "bottom": packets[1]}]


def bridge_hands(order: list[str] | None = None) -> dict[str, list[str]]:
    cards = order or [r + s for s in "SHDC" for r in BRIDGE_RANKS]
    return {left("N", 1 + i): cards[i::4] for i in range(4)}


def bridge_deal(dealer: str = "N", hands: dict[str, list[str]] | None = None, pack: str = "red",
                end: bool = True) -> list[dict[str, Any]]:
    """Shuffle, cut and a deal one card at a time clockwise from the dealer's left (CB-redeal-incorrect)."""
    hands = hands or bridge_hands()
    ev = shuffle_and_cut(dealer, (26, 26)) + [{"type": "deal_start", "dealer": dealer, "pack": pack}]
    for i in range(13):
        for k in range(1, 5):
            seat = left(dealer, k)
            if i < len(hands[seat]):
                ev.append({"type": "card_dealt", "seat": seat, "card": hands[seat][i]})
    return ev + ([{"type": "deal_end"}] if end else [])


def euchre_deal(dealer: str, hands: dict[str, list[str]], turn_up: str, rounds: tuple[int, int] = (2, 3),
                pack: str = "red") -> list[dict[str, Any]]:
    """Shuffle, cut (law 29: four cards or more each packet), two rounds of packets (law 42) from the
    dealer's left, the trump card turned and the deal's end."""
    ev = shuffle_and_cut(dealer, (16, 16)) + [{"type": "deal_start", "dealer": dealer, "pack": pack}]
    given = dict.fromkeys(SEATS, 0)
    for size in rounds:
        for k in range(1, 5):
            seat = left(dealer, k)
            for _ in range(size):
                ev.append({"type": "card_dealt", "seat": seat, "card": hands[seat][given[seat]]})
                given[seat] += 1
    return ev + [{"type": "trump_turned", "card": turn_up}, {"type": "deal_end"}]


# Five cards each from the 32-card pack; North deals, hearts (the jack turned) become trump.
EUCHRE_HANDS = {"E": ["AC", "KC", "QC", "JC", "TC"], "S": ["7C", "8C", "9C", "AD", "KD"],
                "W": ["AH", "KH", "QH", "JD", "TD"], "N": ["9H", "TH", "8H", "7H", "AS"]}


def played(*cards: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"type": "card_played", "seat": s, "card": c} for s, c in cards]


def replay_here(events: list[dict[str, Any]], tmp: Path) -> list[dict[str, Any]]:
    """The same ``cardtable replay FILE`` entry point, called in this process (the law samples run many
    short logs; a process each would cost most of the suite's time). Exit status must be 0."""
    import contextlib
    import io

    from firmware_host.cli import main

    path = tmp / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["replay", str(path)])
    assert code == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]
