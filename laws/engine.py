"""The law engine: one table's events in, rulings out.

``LawEngine(game).feed(event)`` returns the rulings that event causes. The engine keeps the table's state
(phase, rotation, packs, the deal, open claims) and applies each ruling's effect on it (a redeal voids the
deal and names who deals next). The game-independent part is here; each game's clauses are in
``laws/games/<game>.py``. Deterministic: the same events always give the same rulings.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from laws import snapshot
from laws.cards import Seat
from laws.events import (
    BRIDGE_EVENTS,
    DUPLICATE_EVENTS,
    EUCHRE_EVENTS,
    CardDealt,
    CardPlayed,
    DealEnded,
    DealInterrupted,
    DealStarted,
    Event,
    GameChosen,
    HandCounted,
    PackCut,
    PacksAssigned,
    PackShuffled,
    PlayEnded,
    TrumpMade,
    TrumpTurned,
)
from laws.games import get_game
from laws.games.base import Clause, GameRules, seat_name
from laws.rulings import Remedy, Ruling
from laws.state import UNKNOWN_PACKS, Claim, DealState, Phase, TableState

log = logging.getLogger(__name__)

_ALL = frozenset(Phase)
_BEFORE_DEAL = frozenset({Phase.FORMING, Phase.SHUFFLE, Phase.CUT})
_AFTER_DEAL = frozenset({Phase.AUCTION, Phase.PLAY, Phase.SCORING})

# Transitions as data: event type -> (phases it may arrive in, phase it leads to or None to stay).
# Events not named here may arrive in any phase and do not move it.
TRANSITIONS: dict[str, tuple[frozenset[Phase], Phase | None]] = {
    "draw": (_ALL - {Phase.DEALING}, None),          # the formation ruling moves to SHUFFLE
    "shuffle": (_BEFORE_DEAL | _AFTER_DEAL, Phase.SHUFFLE),
    "cut": (frozenset({Phase.SHUFFLE, Phase.CUT, Phase.FORMING}), Phase.CUT),
    "deal_start": (_BEFORE_DEAL | _AFTER_DEAL, Phase.DEALING),
    "card_dealt": (frozenset({Phase.DEALING}), None),
    "deal_interrupted": (frozenset({Phase.DEALING}), None),
    "deal_end": (frozenset({Phase.DEALING, Phase.AUCTION}), Phase.AUCTION),  # may follow the trump turn
    "trump_turned": (frozenset({Phase.DEALING, Phase.AUCTION}), Phase.AUCTION),
    "trump_made": (frozenset({Phase.AUCTION}), None),
    "bid": (frozenset({Phase.AUCTION}), None),
    "discard": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    "card_played": (frozenset({Phase.AUCTION, Phase.PLAY}), Phase.PLAY),
    "play_end": (frozenset({Phase.PLAY, Phase.AUCTION}), Phase.SCORING),
    "result": (_AFTER_DEAL, Phase.SHUFFLE),
    # bridge as it is played (docs/laws.md BP-): the auction and the play
    "call": (frozenset({Phase.AUCTION, Phase.PLAY}), None),   # in play: a call after the close (BP-39)
    "accept": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    "decline": (frozenset({Phase.AUCTION}), None),
    "bar": (frozenset({Phase.AUCTION}), None),
    "withdraw": (frozenset({Phase.PLAY}), None),
    # the clause refuses a spread unless a defender's opening lead out of turn waits: before the opening
    # lead (still the auction phase) as after it
    "spread": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    "correct": (frozenset({Phase.PLAY, Phase.SCORING}), None),  # after play: a twelfth-trick revoke
    "claim": (frozenset({Phase.AUCTION, Phase.PLAY, Phase.SCORING}), None),   # after play: refused
    "claim_reply": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    "claim_ruled": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    "dummy": (frozenset({Phase.AUCTION, Phase.PLAY}), None),
    # duplicate (docs/laws.md DB-): ``board`` and ``confirm`` may come in any phase (the clauses say when not)
    "board_short": (frozenset({Phase.DEALING}), None),
    "foul_ruled": (frozenset({Phase.AUCTION, Phase.PLAY, Phase.SCORING, Phase.SHUFFLE}), None),
}

# Events of the deal being dealt: ignored when no deal is under way (or it was voided).
_OF_THE_DEAL = frozenset({"card_dealt", "deal_end", "deal_interrupted", "trump_turned"})
# Reports about a deal's cards: ignored before the first deal (there is no hand to be short or long).
_NEEDS_A_DEAL = frozenset({"missing_card", "surplus_card"})

# Remedies after which the current deal is void and the pack must be shuffled and cut again.
_VOIDING = frozenset({Remedy.REDEAL, Remedy.MISDEAL, Remedy.LOSE_DEAL})


class LawEngine:
    """One table's law engine.

    Args:
        game: a game name (``contract-bridge`` or ``euchre``) or a ``GameRules``.
    """

    def __init__(self, game: str | GameRules) -> None:
        self.rules = get_game(game) if isinstance(game, str) else game
        self.state = TableState(game=self.rules.name)
        self.rules.setup(self.state)
        self.ignored = 0  # how many events did not fit the phase, ever (each is logged)
        self._by_event: dict[str, list[Clause]] = {}
        for clause in self.rules.clauses:
            for etype in clause.events:
                self._by_event.setdefault(etype, []).append(clause)

    @property
    def clauses(self) -> tuple[Clause, ...]:
        return self.rules.clauses

    def feed(self, event: Event) -> list[Ruling]:
        """Apply one event and return the rulings it causes, in order."""
        s = self.state
        if isinstance(event, GameChosen):
            if event.game != self.rules.name:
                raise ValueError(f"this engine plays {self.rules.name}, not {event.game}")
            return []
        if event.TYPE in BRIDGE_EVENTS and event.TYPE not in self._by_event:
            raise ValueError(f"a {event.TYPE} is an event of bridge's auction and play; this table plays "
                             f"{self.rules.title}")
        if event.TYPE in DUPLICATE_EVENTS and event.TYPE not in self._by_event:
            raise ValueError(f"a {event.TYPE} is an event of duplicate bridge; this table plays "
                             f"{self.rules.title}")
        if self._ignored(event):
            return []
        if event.TYPE == "result" and s.phase is Phase.PLAY:
            # a result ends play: what play_end settles (revokes, in euchre) is settled first
            ended = self.feed(PlayEnded(t=event.t))
            return ended + self.feed(event)
        rulings, moved, rightful = self._close_claims(event)
        lapsed = len(rulings)
        for clause in self._by_event.get(event.TYPE, ()):
            found = clause(s, event)
            rulings.extend(found)
            if any(self._ends_deal(r) for r in found):
                break
        if moved is not None and not any(self._ends_deal(r) for r in rulings[lapsed:]):
            rulings[:lapsed] = [self._names_next_dealer(r, moved) if i in rightful else r
                                for i, r in enumerate(rulings[:lapsed])]
        self._update(event)
        for r in rulings:
            self._effect(r)
        if self.rules.ends_play is not None and self.rules.ends_play(s):
            # the game's own record of the play says it has ended: what play_end settles follows at once
            rulings += self.feed(PlayEnded(t=event.t))
        return rulings

    def snapshot(self) -> Any:
        """The table's whole state as JSON-able data (``laws.snapshot``), for a checkpoint."""
        return snapshot.dump(self.state)

    def restore(self, data: Any) -> None:
        """Take the state from ``snapshot()`` data; the engine then goes on as the one that took it.

        Raises:
            laws.snapshot.SnapshotError: not a snapshot of a table of this game.
        """
        state = snapshot.load(data)
        if not isinstance(state, TableState) or state.game != self.rules.name:
            raise snapshot.SnapshotError(f"not the state of a {self.rules.name} table")
        self.state = state

    def feed_all(self, events: Iterable[Event]) -> list[Ruling]:
        """Feed several events; all their rulings in order."""
        out: list[Ruling] = []
        for e in events:
            out.extend(self.feed(e))
        return out

    # -- internals ---------------------------------------------------------------------------------

    def _ignored(self, event: Event) -> bool:
        """Events that cannot apply now: cards of a voided deal, a report about a deal before any deal,
        a second ``deal_end``, an event out of its phase, or a euchre event at a bridge table (a trump card
        turned there moved the phase on in the middle of the deal, and its other cards went untaken). Each
        is counted in ``ignored`` (the table notes it: docs/events.md)."""
        s = self.state
        allowed = TRANSITIONS.get(event.TYPE)
        if event.TYPE in EUCHRE_EVENTS and self.rules.name != "euchre" or \
                event.TYPE in _OF_THE_DEAL and (s.deal is None or s.deal.void) or \
                event.TYPE in _NEEDS_A_DEAL and s.deal is None or \
                event.TYPE == "deal_end" and s.deal is not None and s.deal.ended or \
                allowed is not None and s.phase not in allowed[0]:
            self.ignored += 1
            log.info("%s ignored in phase %s", event.TYPE, s.phase)
            return True
        return False

    def _ends_deal(self, r: Ruling) -> bool:
        if r.remedy in _VOIDING or r.remedy is Remedy.CLAIM_OPTION and "otherwise" in r.extra:
            return True  # a claim with ``otherwise`` (euchre law 44) follows a misdeal: the deal is void
        dealing = self.state.phase in (Phase.DEALING, *_AFTER_DEAL)
        return dealing and r.remedy in (Remedy.NEW_SHUFFLE_AND_CUT, Remedy.REPLACE_PACK) and \
            r.dealer is not None

    def _close_claims(self, event: Event) -> tuple[list[Ruling], Seat | None, frozenset[int]]:
        """Claims whose time has run out: the deal stands (said once, for each claim). With them, the seat
        the rotation now goes on from when this made a deal out of turn stand (None otherwise), and which of
        the rulings are the lapse of a claim that the deal was another's (its ``dealer`` the rightful one)."""
        s = self.state
        closing = [c for c in s.claims if c.until == event.TYPE]
        if isinstance(event, CardDealt) and s.deal is not None and \
                s.deal.cards_dealt + 1 >= self.rules.cards_dealt:
            # The last card of the deal closes the claims that must be made "before the last card".
            closing = [c for c in s.claims if c.until == "deal_end"]
        elif isinstance(event, CardDealt):
            return [], None, frozenset()
        if not closing:
            return [], None, frozenset()
        s.claims = [c for c in s.claims if c not in closing]
        d = s.deal
        stands_now = d is not None and not d.void and not d.in_turn and not d.stood and \
            any(c.dealer == d.expected for c in closing)
        if d is not None and stands_now:
            d.stood = True  # the claim that the deal was out of turn (its dealer the rightful one) lapsed
        # ``dealer``: who deals next (docs/events.md) -- where the deal is void, the claim's ``otherwise``; where
        # it stands, the one after its dealer (the claim's own ``dealer`` is who would have dealt had it been made)
        standing = s.deal.on_behalf_of or s.deal.dealer if s.deal is not None and not s.deal.void else None
        return [Ruling(Remedy.DEAL_STANDS, c.law, c.clause,
                       c.lapse or f"No redeal was demanded in time, so the deal stands ({c.why.rstrip('.')}).",
                       dealer=c.otherwise or (standing.left if standing is not None else c.dealer))
                for c in closing], standing if stands_now else None, \
            frozenset(i for i, c in enumerate(closing) if d is not None and c.dealer == d.expected and c.otherwise is None)

    def _names_next_dealer(self, r: Ruling, moved: Seat) -> Ruling:
        """A deal out of turn that now stands moves the rotation (it goes on from ``moved``, who dealt), which
        the players who just saw it cannot guess: the lapse of each claim that the deal was another's (its
        ``dealer`` the rightful one) ends by naming who deals next (docs/events.md, ``lapse``). Not said when
        the same event voids the deal (its last card a second copy): that ruling names the dealer then."""
        return replace(r, reason=f"{r.reason.rstrip('.')}; the rotation goes on from {seat_name(self.state, moved)}, "
                       f"so {seat_name(self.state, moved.left)} deals next.")

    def _update(self, event: Event) -> None:
        """Game-independent state changes for one event."""
        s = self.state
        if isinstance(event, PackShuffled) and s.phase in (Phase.AUCTION, Phase.PLAY):
            # a shuffle while a hand is being bid or played (euchre law 23 notes it; at bridge the still pack)
            # is no new deal: the hand goes on, and it is not the next deal's shuffle either
            return
        move = TRANSITIONS.get(event.TYPE)
        if move is not None and move[1] is not None:
            s.phase = move[1]
        if isinstance(event, PacksAssigned):
            s.pack_owners.update(event.owners)
        elif isinstance(event, PackShuffled):
            s.shuffles.append(event.seat)
            s.cut_done = False
        elif isinstance(event, PackCut):
            s.cut_done = True
        elif isinstance(event, DealStarted):
            self._start_deal(event)
        elif isinstance(event, CardDealt) and s.deal is not None:
            d = s.deal
            if d.pack in UNKNOWN_PACKS and event.pack:
                d.pack = event.pack  # a shoe that could not name the pack names it with its first card
            d.dealt.append((event.seat, event.card))
            d.counts[event.seat] += 1
            if event.card is not None:
                d.hands[event.seat].append(event.card)
                d.seen.add(event.card)
        elif isinstance(event, DealInterrupted) and s.deal is not None:
            s.deal.interruptions.append((event.seat, event.how))
        elif isinstance(event, DealEnded) and s.deal is not None:
            s.deal.ended = True
            s.next_dealer = (s.deal.on_behalf_of or s.deal.dealer).left
        elif isinstance(event, TrumpTurned) and s.deal is not None:
            s.deal.trump_card = event.card
            s.deal.trump_suit = event.card.suit
        elif isinstance(event, TrumpMade) and s.deal is not None:
            s.deal.trump_suit = event.suit
            s.deal.makers = event.seat.side
            s.deal.alone_seat = event.seat if event.alone else None
        elif isinstance(event, HandCounted) and s.deal is not None:
            s.deal.reported_counts[event.seat] = event.count
        elif isinstance(event, CardPlayed) and s.deal is not None:
            if s.deal.set_aside:  # ruled an exposed card, not a card played to the trick
                s.deal.set_aside = False
            else:
                s.deal.plays.append((event.seat, event.card))
                s.deal.played[event.seat] += 1
        elif event.TYPE == "result":
            s.claims.clear()

    def _start_deal(self, event: DealStarted) -> None:
        s = self.state
        prev = s.deal
        if prev is not None and not prev.void and not prev.ended:
            # A deal abandoned before its end: the rotation moves on from it.
            s.next_dealer = (prev.on_behalf_of or prev.dealer).left
        expected = s.next_dealer
        rightful = event.on_behalf_of or event.dealer
        s.deals_started += 1
        s.restore_pack = {side: p for side, p in s.restore_pack.items() if p != event.pack}
        s.deal = DealState(number=s.deals_started, dealer=event.dealer, pack=event.pack,
                           in_turn=expected is None or rightful == expected, cut=s.cut_done,
                           on_behalf_of=event.on_behalf_of, expected=expected)
        s.claims.clear()
        s.shuffles = []
        s.reshuffle_owed = None
        s.cut_done = False

    def _effect(self, r: Ruling) -> None:
        """What a ruling changes on the table."""
        s = self.state
        if self._ends_deal(r):
            if s.deal is not None:
                s.deal.void = True
                s.deal.void_by = s.deal.void_by or r.law
                # the fault stays in the pack (docs/events.md, "Packs: replaced and restored"): a table with
                # a shoe deals nothing more until the director says a replacement pack is in
                s.deal.new_pack = s.deal.new_pack or r.remedy is Remedy.REPLACE_PACK
            s.claims.clear()
            s.phase = Phase.SHUFFLE
            s.cut_done = False
            s.shuffles = []
            s.reshuffle_owed = None
            if r.remedy is Remedy.CLAIM_OPTION:
                # the misdeal's own consequence holds unless the claim is made: ``otherwise`` deals
                s.next_dealer = Seat(str(r.extra["otherwise"]))
                self._open_claim(r)
            elif r.dealer is not None:
                s.next_dealer = r.dealer
        elif r.remedy in (Remedy.NEW_SHUFFLE_AND_CUT, Remedy.NEW_CUT, Remedy.RESHUFFLE):
            s.cut_done = False
            if r.remedy is not Remedy.RESHUFFLE:
                s.shuffles = []  # after a false cut every player may shuffle again (euchre law 24)
            if s.phase == Phase.CUT:
                s.phase = Phase.SHUFFLE
        elif r.remedy is Remedy.CLAIM_OPTION:
            self._open_claim(r)
        elif r.remedy is Remedy.FORMATION:
            if s.deal is not None and r.extra.get("deal_set_aside") == s.deal.number:
                s.deal.void = True   # dealt before the table was formed: set aside unscored (CB-draw, EU-11)
                s.deal.void_by = s.deal.void_by or r.law
                s.claims.clear()
            seats = r.extra.get("seats") or {}
            s.players = {Seat(seat): name for name, seat in seats.items()}
            if r.dealer is not None:
                s.next_dealer = r.dealer
            s.phase = Phase.SHUFFLE
        elif r.remedy is Remedy.RUBBER_WON:
            # Penalty points (laws 50, 63, 90) may win the rubber while a deal is live: that deal is still
            # played out and scored (law 4: the penalty first, then the hand), so the table forms for the
            # next rubber only between deals (its next shuffle or draw is taken from either phase).
            if s.phase not in (Phase.AUCTION, Phase.PLAY, Phase.SCORING):
                s.phase = Phase.FORMING
        elif r.remedy is Remedy.CONTRACT and r.extra.get("passed_out"):
            s.phase = Phase.SHUFFLE  # passed out: nothing is played or scored; the next dealer deals
        elif r.remedy is Remedy.RESTORE_PACK and r.side is not None and r.pack is not None:
            s.restore_pack[r.side] = r.pack

    def _open_claim(self, r: Ruling) -> None:
        """Record the right a ``claim_option`` ruling offers, open until its ``until`` event."""
        s = self.state
        until = str(r.extra.get("until", self.rules.claims_close))
        dealer = r.dealer or (s.deal.dealer if s.deal else Seat.N)
        grants = str(r.extra.get("grants", Remedy.REDEAL.value))
        trick = r.extra.get("trick")
        s.claims.append(Claim(r.clause, r.law, r.side, dealer, until, r.reason, grants,
                              str(r.extra.get("lapse", "")), tuple(r.extra.get("options", ())),
                              r.extra.get("offender"), r.extra.get("card"),
                              trick if isinstance(trick, int) else None,
                              Seat(str(r.extra["otherwise"])) if "otherwise" in r.extra else None))
