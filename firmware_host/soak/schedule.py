"""What goes wrong in a soak, and when; and what the laws say about each mistake.

A schedule is drawn from a seed before anything runs, so a failing evening can be run again. Deals are
counted as the shoe counts them (1 = the first deal it starts; a redeal is a deal of its own).

Mistakes (irregularities) come three ways:

* through the shoe's cards (``SHOE_KINDS``): the injection changes the physical pack, and the remedy
  expected is worked out from what physically left the shoe (``physical_fault``) — a duplicate whose
  twin stayed in the shoe is no fault at all;
* through a seat button on the shoe (``BUTTON_KINDS``), pressed once the deal is over (a bridge late
  demand is entered by the director instead: in the auction two presses are the seat's pass);
* through the director's input (``DIRECTOR_KINDS``): hand counts reported after the deal.

``EXPECTED`` gives, for each game and mistake, the clause and remedy of ``/work/shared/LAWS.md`` (and the
clause's docstring in ``laws/games``) — written down here, never taken from what the table ruled.
Faults (``FAULT_KINDS``) are no mistake of the players: no ruling may follow them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

SHOE_KINDS = ("face_up", "duplicate", "unreadable", "foreign", "missing")
BUTTON_KINDS = ("attention", "late_demand")
DIRECTOR_KINDS = ("miscount", "wrong_count")
# Faults at the shoe that are no irregularity (a jam, line noise): the table must not rule on them.
NOISE_KINDS = ("jam", "garbage")
FAULT_KINDS = ("kill", "stall", "disk_full", "unplug", "camera", "broker", "jam", "garbage")

# (game, mistake) -> the rulings the laws give, as (clause id, remedy), in order.
EXPECTED: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    # Contract Bridge, rubber laws (LAWS.md seed A)
    ("contract-bridge", "face_up"): (("CB-redeal-faced", "redeal"),),        # a card faced in the deal
    ("contract-bridge", "duplicate"): (("CB-surplus-deal", "redeal"),),      # incorrect pack
    ("contract-bridge", "foreign"): (("CB-surplus-deal", "redeal"),),        # a card of another pack
    ("contract-bridge", "unreadable"): (("CB-pack-damaged", "replace_pack"),),  # damaged card
    # 51 cards dealt: the table asks for a search; the driver (the director) declares the card not found
    ("contract-bridge", "missing"): (("CB-missing-search", "attention"), ("CB-missing-not-found", "redeal")),
    ("contract-bridge", "attention"): (("CB-attention", "attention"),),
    ("contract-bridge", "late_demand"): (("CB-shuffle-demand", "deal_stands"),),  # after the first card
    # one hand 14 and another 12, found before play ends: first a count alone, then both
    ("contract-bridge", "miscount"): (("CB-redeal-miscount", "attention"), ("CB-redeal-miscount", "redeal")),
    # Euchre, Somerset Club 1888 (LAWS.md seed B)
    ("euchre", "face_up"): (("EU-34", "redeal"),),        # law 34: a card faced in the pack, new deal
    ("euchre", "duplicate"): (("EU-33", "redeal"),),      # law 33: incorrect pack, same dealer again
    ("euchre", "foreign"): (("EU-33", "redeal"),),
    ("euchre", "unreadable"): (("EU-33", "redeal"),),     # imperfect pack
    ("euchre", "attention"): (("EU-attention", "attention"),),
    ("euchre", "late_demand"): (("EU-30", "deal_stands"),),  # law 30: once cut, no new shuffle or cut
    # law 90: a wrong count found in play: the deal holds, the other side adds two points
    ("euchre", "wrong_count"): (("EU-90", "deal_stands"), ("EU-90", "penalty")),
}
# Remedies that are the ordinary course of the game (forming the table, the score), not a ruling on a
# mistake.
SCORE_REMEDIES = frozenset({"score", "game_won", "rubber_won", "formation"})
# The draw that forms the table before the first deal (the demo's players; the knave is high in euchre).
DRAW = {"contract-bridge": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
        "euchre": [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]]}
GAMES = ("contract-bridge", "euchre")


def kinds_for(game: str) -> tuple[str, ...]:
    """The mistakes a soak of ``game`` injects."""
    return tuple(k for (g, k) in EXPECTED if g == game)


@dataclass(frozen=True)
class Fault:
    """A fault starting ``delay`` seconds after the shoe starts deal ``deal``, lasting ``duration``."""

    kind: str
    deal: int
    delay: float
    duration: float = 0.0


@dataclass(frozen=True)
class Schedule:
    """One game's evening: ``deals`` shoe deals, a mistake for some, faults at some."""

    game: str
    seed: int
    deals: int
    mistakes: dict[int, str]
    faults: tuple[Fault, ...]

    def faults_at(self, deal: int) -> list[Fault]:
        return [f for f in self.faults if f.deal == deal]


def make_schedule(game: str, deals: int, seed: int, *, mistake_rate: float = 0.3, faults: int = 0,
                  fault_kinds: Sequence[str] = FAULT_KINDS) -> Schedule:
    """Draw a schedule.

    Args:
        game: ``contract-bridge`` or ``euchre``.
        deals: shoe deals to play.
        seed: everything follows it.
        mistake_rate: the share of deals with a mistake.
        faults: how many faults, spread over the deals (at most one of each kind per deal).
        fault_kinds: which kinds to draw from.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (want one of {', '.join(GAMES)})")
    if deals < 1:
        raise ValueError("a soak needs at least one deal")
    rng = random.Random(f"{game}:{seed}")
    kinds = kinds_for(game)
    mistakes = {n: rng.choice(kinds) for n in range(1, deals + 1) if rng.random() < mistake_rate}
    chosen: list[Fault] = []
    used: set[tuple[int, str]] = set()
    kinds_f = list(fault_kinds)
    for i in range(faults if kinds_f else 0):
        kind = kinds_f[i % len(kinds_f)]
        for _ in range(50):
            deal = rng.randint(1, deals)
            if (deal, kind) not in used:
                break
        used.add((deal, kind))
        chosen.append(Fault(kind, deal, round(rng.uniform(0.0, 1.2), 3), _duration(kind, rng)))
    chosen.sort(key=lambda f: (f.deal, f.delay))
    return Schedule(game, seed, deals, mistakes, tuple(chosen))


def _duration(kind: str, rng: random.Random) -> float:
    if kind == "stall":
        return round(rng.uniform(2.0, 4.0), 2)   # several seconds: longer than a deal's cards take
    if kind == "disk_full":
        return round(rng.uniform(1.5, 3.0), 2)
    if kind in ("broker", "camera"):
        return round(rng.uniform(1.0, 3.0), 2)
    if kind == "unplug":
        return round(rng.uniform(0.2, 2.5), 2)   # both short blips and outages the link calls offline
    return 0.0


@dataclass(frozen=True)
class Dealt:
    """One card as it physically left the shoe (from the virtual shoe's hardware)."""

    card: str
    pack: str
    face_up: bool
    readable: bool


def physical_fault(game: str, cards: Sequence[Dealt], complete: int, pack_size: int | None = None) -> str | None:
    """The first irregularity among the cards one deal physically dealt, as a mistake kind (or None).

    ``cards`` are the cards to the seats in dealing order (a euchre turn-up excluded); ``complete`` is how
    many a full deal gives the seats; ``pack_size`` how many cards were in the shoe when the deal began
    (default: as many as were dealt). A deal that stopped early (voided, aborted) is judged on the cards
    it dealt; a bridge pack too short for a full deal, dealt to its last card with nothing wrong before,
    is a missing card (a deal stopped before that never showed it).
    """
    seen: set[str] = set()
    pack: str | None = None
    for c in cards:
        if c.face_up:
            return "face_up"
        if not c.readable:
            return "unreadable"
        if c.card in seen:
            return "duplicate"
        if pack is None:
            pack = c.pack
        elif c.pack != pack:
            return "foreign"
        seen.add(c.card)
    size = len(cards) if pack_size is None else pack_size
    if game == "contract-bridge" and size < complete and len(cards) >= size:
        return "missing"  # the shoe dealt all it had, and that was not a full deal
    return None
