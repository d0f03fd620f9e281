"""What goes wrong in a soak, and when; and what the laws say about each mistake.

A schedule is drawn from a seed before anything runs, so a failing evening can be run again. Deals are
counted as the shoe counts them (1 = the first deal it starts; a redeal is a deal of its own).

Mistakes (irregularities) come three ways:

* through the shoe's cards (``SHOE_KINDS``): the injection changes the physical pack, and the remedy
  expected is worked out from what physically left the shoe (``physical_fault``) — a duplicate whose
  twin stayed in the shoe under a sound deal of 52 is a surplus card (the shoe says a card is left), not a
  duplicate dealt;
* through a seat button on the shoe (``BUTTON_KINDS``), pressed once the deal is over (a bridge late
  demand is entered by the director instead: in the auction two presses are the seat's pass);
* through the director's input (``DIRECTOR_KINDS``): hand counts reported after the deal;
* in a bridge deal's auction and play (``PLAY_KINDS``), which the soak enters as the director would (a real
  auction and legal play, ``bridge``): an insufficient bid accepted, or replaced and the partner barred; a
  call out of turn cancelled by the right caller; a lead out of turn taken back; a revoke corrected, or
  established and its tricks transferred; a claim disputed and ruled. Each with the entries that settle it.

``EXPECTED`` gives, for each game and mistake, the clause and remedy of ``docs/laws.md`` (and the
clause's docstring in ``laws/games``) — written down here, never taken from what the table ruled.
Faults (``FAULT_KINDS``) are no mistake of the players: no ruling may follow them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_host.soak.record import Dealt

SHOE_KINDS = ("face_up", "duplicate", "unreadable", "foreign", "missing")
BUTTON_KINDS = ("attention", "late_demand")
DIRECTOR_KINDS = ("miscount", "wrong_count")
PLAY_KINDS = ("insufficient_bid", "insufficient_replaced", "call_out_of_turn", "lead_out_of_turn", "revoke_corrected",
              "revoke_established", "disputed_claim")
# Kinds the driver records for what it made, never drawn: an established revoke that BP-64 moves no
# trick for (the soak's own count says so) is ruled otherwise than one that moves some.
RECORDED_ONLY = ("revoke_no_transfer",)
# Faults at the shoe that are no irregularity (a jam, line noise): the table must not rule on them.
NOISE_KINDS = ("jam", "garbage")
# Faults of the world around the table (``faults``): no ruling may follow them.
#   stall: another process holds the journal's write lock a few seconds (the table waits it out);
#   lock: the same, past SQLite's busy timeout, so commits really fail and the table holds its inputs
#     (once it holds the lock the driver enters a malformed line, so the table has a commit to fail, and
#     it holds the lock on until the table's log says a commit failed, at most 30 s);
#   command: a dashboard command through the club broker (an acknowledgement, or a choice the table
#     must refuse); bad_line: a malformed line on the director's input (``BAD_LINES``).
FAULT_KINDS = ("kill", "stall", "lock", "disk_full", "unplug", "camera", "broker", "jam", "garbage", "command",
               "bad_line")
BUSY_TIMEOUT = 10.0  # seconds SQLite waits for a lock at the table (firmware_host/records/journal_file.py)


@dataclass(frozen=True)
class Want:
    """One ruling the laws give for a mistake: its clause id and remedy, and which fact of the deal each
    of its fields must name (None: not checked). Facts (``checker``): ``dealer`` the deal's dealer by the
    rotation, ``at`` the seat the mistake concerns (the faced, repeated, foreign or unreadable card's seat,
    the short hand, the button pressed, the hand counted first), ``at_side`` that seat's side, ``pack``
    the pack being dealt; in a bridge auction or play (``bridge``): ``at`` the offender (the claimer),
    ``acceptor`` the player who may accept, ``barred`` the player the director bars, ``answers`` the side
    that answers a claim, ``receives`` the side BP-64 gives tricks to and ``transfer`` how many."""

    clause: str
    remedy: str
    dealer: str | None = None
    seat: str | None = None
    side: str | None = None
    pack: str | None = None
    tricks: str | None = None
    offender: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.clause, self.remedy)

    @property
    def fields(self) -> dict[str, str]:
        """Ruling field -> the fact it must equal."""
        return {k: v for k, v in (("dealer", self.dealer), ("seat", self.seat), ("side", self.side),
                                  ("pack", self.pack), ("tricks", self.tricks),
                                  ("offender", self.offender)) if v is not None}

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.key)  # ``clause, remedy = want`` still reads


# Remedies after which the deal is void and ``dealer`` deals again (the rotation does not move).
VOIDING = frozenset({"redeal", "replace_pack"})

# (game, mistake) -> the rulings the laws give, in order. To add a mistake: name it in SHOE_KINDS,
# BUTTON_KINDS or DIRECTOR_KINDS, make the driver commit it (``driver.GameRun._plan``; a shoe kind is an
# ``Injection`` of the virtual shoe), and write its rulings here with the facts their fields name.
EXPECTED: dict[tuple[str, str], tuple[Want, ...]] = {
    # Contract Bridge, rubber laws (docs/laws.md seed A)
    ("contract-bridge", "face_up"): (Want("CB-redeal-faced", "redeal", "dealer", "at"),),  # a card faced in the deal
    ("contract-bridge", "duplicate"): (Want("CB-surplus-deal", "redeal", "dealer", "at", pack="pack"),),  # incorrect pack
    ("contract-bridge", "foreign"): (Want("CB-surplus-deal", "redeal", "dealer", "at", pack="pack"),),  # another pack's card
    # a duplicate or another pack's card that stayed in the shoe under a sound deal of 52 (DEAL_FINISHED
    # left_in_shoe): the pack held a card too many, no seat had it
    ("contract-bridge", "surplus"): (Want("CB-surplus-deal", "redeal", "dealer"),),
    ("contract-bridge", "unreadable"): (Want("CB-pack-damaged", "replace_pack", "dealer", pack="pack"),),  # damaged card
    # 51 cards dealt: the table asks for a search; the driver (the director) declares the card not found
    ("contract-bridge", "missing"): (Want("CB-missing-search", "attention", seat="at"),
                                     Want("CB-missing-not-found", "redeal", "dealer", "at")),
    ("contract-bridge", "attention"): (Want("CB-attention", "attention", seat="at"),),
    ("contract-bridge", "late_demand"): (Want("CB-shuffle-demand", "deal_stands", seat="at"),),  # after the first card
    # one hand 14 and another 12, found before play ends: first a count alone, then both
    ("contract-bridge", "miscount"): (Want("CB-redeal-miscount", "attention", seat="at"),
                                      Want("CB-redeal-miscount", "redeal", "dealer", "at")),
    # Contract Bridge as it is played (docs/laws.md BP-, after the 2017 laws as docs/events.md reads them: who may
    # accept is the offender's left-hand opponent for a call, declarer for a defender's lead)
    # BP-27: the next player may accept; accepted, the auction goes on from it
    ("contract-bridge", "insufficient_bid"): (Want("BP-27", "attention", seat="acceptor", offender="at"),
                                              Want("BP-27", "deal_stands", seat="at")),
    # BP-27: not accepted; a replacement other than the lowest sufficient bid in the strain: the director
    # judges it and bars the partner for the rest of the auction
    ("contract-bridge", "insufficient_replaced"): (Want("BP-27", "attention", seat="acceptor", offender="at"),
                                                   Want("BP-27", "deal_stands", seat="at"),
                                                   Want("BP-27", "attention", seat="at", offender="at"),
                                                   Want("BP-27", "penalty", seat="barred")),
    # BP-28-32: a pass at the right-hand opponent's turn, not accepted (the right player calls): cancelled,
    # and the offender passes at his next turn
    ("contract-bridge", "call_out_of_turn"): (Want("BP-28-32", "attention", seat="acceptor", offender="at"),
                                              Want("BP-28-32", "penalty", seat="at")),
    # BP-53-56: a defender's lead out of turn, not accepted: taken back, a penalty card
    ("contract-bridge", "lead_out_of_turn"): (Want("BP-53-56", "attention", seat="acceptor", offender="at"),
                                              Want("BP-53-56", "penalty", seat="at")),
    # BP-61, BP-62: a revoke noticed and corrected before it is established: a defender's card a penalty card
    ("contract-bridge", "revoke_corrected"): (Want("BP-61", "attention", seat="at"), Want("BP-62", "penalty", seat="at")),
    # BP-61, BP-63, BP-64: established when his side plays to the next trick; the tricks move at the end
    ("contract-bridge", "revoke_established"): (Want("BP-61", "attention", seat="at"),
                                                Want("BP-63", "attention", seat="at"),
                                                Want("BP-64", "penalty", side="receives", tricks="transfer", offender="at")),
    ("contract-bridge", "revoke_no_transfer"): (Want("BP-61", "attention", seat="at"),
                                                Want("BP-63", "attention", seat="at"), Want("BP-64", "attention")),
    # BP-68-71: a claim stops play; disputed, the director decides
    ("contract-bridge", "disputed_claim"): (Want("BP-68-71", "attention", side="answers"),
                                            Want("BP-68-71", "attention", seat="at"),
                                            Want("BP-68-71", "deal_stands", seat="at")),
    # Euchre, Somerset Club 1888 (docs/laws.md seed B)
    ("euchre", "face_up"): (Want("EU-34", "redeal", "dealer", "at"),),        # law 34: a card faced in the pack, new deal
    ("euchre", "duplicate"): (Want("EU-33", "redeal", "dealer", "at", pack="pack"),),  # law 33: incorrect pack, same dealer
    ("euchre", "foreign"): (Want("EU-33", "redeal", "dealer", "at", pack="pack"),),
    ("euchre", "unreadable"): (Want("EU-33", "replace_pack", "dealer", "at", pack="pack"),),  # imperfect pack
    ("euchre", "attention"): (Want("EU-attention", "attention", seat="at"),),
    ("euchre", "late_demand"): (Want("EU-30", "deal_stands", seat="at"),),  # law 30: once cut, no new shuffle or cut
    # law 90: a wrong count found in play: the deal holds, the other side adds two points
    ("euchre", "wrong_count"): (Want("EU-90", "deal_stands", seat="at", side="at_side"),
                                Want("EU-90", "penalty", side="at_side")),
}
# Remedies that are the ordinary course of the game (forming the table, the score), not a ruling on a
# mistake; the score sheet (``score``, ``game_won``, ``rubber_won`` and the points of a ``penalty``) is
# checked against the soak's own scorer (``sheet``), the formation against ``DRAW``.
SCORE_REMEDIES = frozenset({"score", "game_won", "rubber_won", "formation"})
SHEET_REMEDIES = frozenset({"score", "game_won", "rubber_won", "penalty"})  # a penalty of points (``points``)
# The close of a bridge auction (BP-22): the ordinary course, checked against the soak's own contract.
ORDINARY_REMEDIES = frozenset({"contract"})
# The draw that forms the table before the first deal (the demo's players; the knave is high in euchre).
# Ann draws the highest card: she deals, from North (the dealer sits North when the draw names no seats).
DRAW = {"contract-bridge": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
        "euchre": [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]]}
FIRST_DEALER = "N"
# Who plays for each side after that draw, North or East first: Ann and Bob drew the two highest, so they
# are North-South at either table; a rubber's ``rubber_won`` names them (``sheet.score_sheet``).
SIDES = {"contract-bridge": {"NS": ["Ann", "Bob"], "EW": ["Cy", "Di"]},
         "euchre": {"NS": ["Ann", "Bob"], "EW": ["Cy", "Di"]}}
GAMES = ("contract-bridge", "euchre")
# Malformed lines the driver writes to the director's input (``bad_line``): each must be journaled as a
# note naming the path and line, nothing else, and every line after it still read (issue 20, "The table" 2,
# and issue 25: the reader survives a 5,000-digit integer, a lone surrogate escape and bytes that are not
# UTF-8 as it survives the rest).
BAD_LINES: tuple[str, ...] = (
    "this is not json",
    '{"type": "hand_count", "seat": "Q", "count": 13}',                   # a seat that is none
    '{"type": "no_such_event"}',
    '[1, 2, 3]',                                                          # JSON, not an object
    '{"type": "hand_count", "seat": "N"',                                 # cut short
    '{"type": "result", "tricks": "seven"}',                              # a count that is not a number
    "[" * 50_000 + "]" * 50_000,                                          # nested past the parser's depth
    '{"type": "hand_count", "seat": "N", "count": 13, "note": "' + "x" * 70_000 + '"}',  # over 64 KiB
    '{"type": "hand_count", "seat": "N", "count": ' + "7" * 5_000 + "}",  # an integer of 5,000 digits
    '{"type": "leave", "name": "\\ud800"}',                              # a lone surrogate escape
)


def kinds_for(game: str) -> tuple[str, ...]:
    """The mistakes a soak of ``game`` injects."""
    return tuple(k for (g, k) in EXPECTED if g == game and k not in RECORDED_ONLY)


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
    last = max(1, deals - 1)  # never in the last deal: a fault there could come after the evening's end
    for i in range(faults if kinds_f else 0):
        kind = kinds_f[i % len(kinds_f)]
        for _ in range(50):
            deal = rng.randint(1, last)
            if (deal, kind) not in used:
                break
        used.add((deal, kind))
        chosen.append(Fault(kind, deal, round(rng.uniform(0.0, 1.2), 3), _duration(kind, rng)))
    chosen.sort(key=lambda f: (f.deal, f.delay))
    return Schedule(game, seed, deals, mistakes, tuple(chosen))


def _duration(kind: str, rng: random.Random) -> float:
    if kind == "stall":
        return round(rng.uniform(2.0, 4.0), 2)   # several seconds: longer than a deal's cards take
    if kind == "lock":
        return round(BUSY_TIMEOUT + rng.uniform(1.5, 3.0), 2)  # past the busy timeout: commits fail
    if kind == "disk_full":
        return round(rng.uniform(1.5, 3.0), 2)
    if kind in ("broker", "camera"):
        return round(rng.uniform(1.0, 3.0), 2)
    if kind == "unplug":
        return round(rng.uniform(0.2, 2.5), 2)   # both short blips and outages the link calls offline
    return 0.0


def first_fault(game: str, cards: Sequence[Dealt], complete: int,
                pack_size: int | None = None) -> tuple[str, int] | None:
    """The first irregularity among the cards one deal physically dealt, as (mistake kind, index of the
    card that shows it, or -1 for a pack dealt out short, -2 for a card left in the shoe after a sound
    full deal), or None.

    ``cards`` are the cards to the seats in dealing order (a euchre turn-up excluded); ``complete`` is how
    many a full deal gives the seats; ``pack_size`` how many cards were in the shoe when the deal began
    (default: as many as were dealt). A deal that stopped early (voided, aborted) is judged on the cards
    it dealt; a bridge pack too short for a full deal, dealt to its last card with nothing wrong before,
    is a missing card (a deal stopped before that never showed it).
    """
    seen: set[str] = set()
    pack: str | None = None
    for i, c in enumerate(cards):
        if c.face_up:
            return "face_up", i
        if not c.readable:
            return "unreadable", i
        if c.card in seen:
            return "duplicate", i
        if pack is None:
            pack = c.pack
        elif c.pack != pack:
            return "foreign", i
        seen.add(c.card)
    size = len(cards) if pack_size is None else pack_size
    if game == "contract-bridge" and size < complete and len(cards) >= size:
        return "missing", -1  # the shoe dealt all it had, and that was not a full deal
    if game == "contract-bridge" and size > complete and len(cards) >= complete:
        return "surplus", -2  # a full deal, sound, with a card left in the shoe: the pack held one too many
    return None


def physical_fault(game: str, cards: Sequence[Dealt], complete: int, pack_size: int | None = None) -> str | None:
    """The first irregularity among the cards one deal physically dealt, as a mistake kind (or None);
    see ``first_fault``."""
    found = first_fault(game, cards, complete, pack_size)
    return None if found is None else found[0]
