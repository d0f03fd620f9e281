"""Forming the table from a draw: who plays, who partners whom, who deals, where everyone sits.

Bridge follows modern practice (``docs/laws.md``, clause id ``CB-draw`` is ours): ace high, equal ranks
broken by suit (spades, hearts, diamonds, clubs), so one pack never gives a tie. The seed is silent on
more than four candidates; we let the four highest cards play. The highest deals and partners the
second highest.

Euchre follows the Somerset Club laws 8-14. How we read them:

* Law 8: knave highest, then A K Q 10 9 8 7; suits are equal, so ties are common.
* Law 10: a candidate who exposes more than one card cuts again; the others' cards stand.
* Law 11: with more than four candidates the first cut selects the four highest; "those first in the
  room having the preference" is read as: equal cards at the edge of the selection go to the earlier
  arrival, with no re-cut. The four chosen then cut again for partners.
* Law 12: the fifth and sixth highest of the selecting cut (same preference) are next in.
* Law 17: at a new table, candidates declared as having played at another table (``candidate`` with
  ``fresh`` false) come after every other cutter: the others enter first (selected by their cards among
  themselves when there are more than four), and these are ranked by their cards for the places left.
  One cut serves both: nobody cuts twice for it.
* Laws 13-14 in one rule: in the cut for partners the two highest play against the two lowest, so a
  group of equal cards matters only when it straddles that line. Such a group cuts again and the new
  cut orders it (law 13 for two equal cards, law 14 for three; four equal knaves, which the laws do not
  mention, also cut again). This gives law 14's two outcomes exactly: with the fourth card highest, the
  highest of the new cut joins it and deals, the two lowest are partners; with the fourth card lowest,
  the two highest of the new cut are partners and deal.
* The highest deals. When the two highest cards are equal (law 13: no re-cut), the earlier arrival of
  the two deals (the same preference as law 11).

Seats: the dealer chooses; a ``seats`` mapping from the draw event is used when given. Otherwise the
dealer sits North, the partner South, the higher of the other two East and the other West.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from laws.cards import Card, Seat
from laws.rulings import Remedy, Ruling

BRIDGE = "contract-bridge"
EUCHRE = "euchre"
_BRIDGE_RANKS = "23456789TJQKA"
_BRIDGE_SUITS = "CDHS"
_EUCHRE_RANKS = "789TQKAJ"
CB_LAW = "Contract Bridge, draw for partners (modern practice)"
CB_CLAUSE = "CB-draw"


def cut_rank(game: str, card: Card) -> tuple[int, ...]:
    """The sort key of ``card`` in a draw: a higher key is a higher card.

    Args:
        game: ``"contract-bridge"`` (ace high, then suit S > H > D > C) or ``"euchre"`` (law 8: knave,
            ace, king, queen, ten, nine, eight, seven; suits equal).
        card: the card cut.

    Raises:
        ValueError: unknown game, or a card that is not in that game's pack.
    """
    if game == BRIDGE:
        return (_BRIDGE_RANKS.index(card.rank), _BRIDGE_SUITS.index(card.suit))
    if game == EUCHRE:
        if card.rank not in _EUCHRE_RANKS:
            raise ValueError(f"{card.code} is not in the 32-card euchre pack")
        return (_EUCHRE_RANKS.index(card.rank),)
    raise ValueError(f"unknown game {game!r} (want {BRIDGE!r} or {EUCHRE!r})")


def _names(cuts: Sequence[tuple[str, Card]], at_least: int) -> list[str]:
    names = [name for name, _ in cuts]
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"{name!r} appears twice in the draw")
        seen.add(name)
    if len(names) < at_least:
        raise ValueError(f"the draw needs at least {at_least} candidates, got {len(names)}")
    return names


def seating(order: Sequence[str], seats: Mapping[str, Seat] | None) -> dict[str, Seat]:
    """Seats for the four players ``order`` = dealer, partner, then the other two (higher first).

    Args:
        order: the four players.
        seats: the seats the dealer chose, if the draw event gives them.

    Raises:
        ValueError: the given seats leave a player out, repeat a seat, or part partners.
    """
    if not seats:
        return dict(zip(order, (Seat.N, Seat.S, Seat.E, Seat.W)))
    chosen: dict[str, Seat] = {}
    for name in order:
        if name not in seats:
            raise ValueError(f"seats: no seat given for {name!r}")
        chosen[name] = seats[name]
    if len(set(chosen.values())) != 4:
        raise ValueError(f"seats: two players share a seat in {_seat_list(seats)}")
    if chosen[order[0]].partner is not chosen[order[1]] or chosen[order[2]].partner is not chosen[order[3]]:
        raise ValueError(f"seats: partners must sit opposite each other ({order[0]} with {order[1]}, "
                         f"{order[2]} with {order[3]}), got {_seat_list(seats)}")
    return chosen


def _seat_list(seats: Mapping[str, Seat]) -> str:
    """The seats as a person typed them (``Ann N, Bob E``), never Python's spelling of a dict of seats."""
    return ", ".join(f"{name} {Seat(seat).value}" for name, seat in seats.items())


def formation_ruling(law: str, clause: str, reason: str, order: Sequence[str],
                     seats: Mapping[str, Seat] | None, more: dict[str, Any] | None = None) -> Ruling:
    """A ``formation`` ruling for the four players ``order`` (dealer, partner, other two).

    ``extra`` holds ``players`` (dealer first, then partner, then the other two), ``partners`` (two
    lists of two names, the dealer's pair first), ``dealer_name``, ``seats`` (name -> seat) and
    ``sides`` (``NS``/``EW`` -> names), plus anything in ``more``. The ruling's own ``dealer`` is the
    dealer's seat (an extra named ``dealer`` would hide it in ``Ruling.to_dict``).
    """
    placed = seating(order, seats)
    sides: dict[str, list[str]] = {"NS": [], "EW": []}
    for name in order:
        sides[placed[name].side.value].append(name)
    extra: dict[str, Any] = {"players": list(order), "partners": [list(order[:2]), list(order[2:])],
                             "dealer_name": order[0], "seats": {n: s.value for n, s in placed.items()},
                             "sides": sides}
    extra.update(more or {})
    return Ruling(Remedy.FORMATION, law, clause, reason, dealer=placed[order[0]], extra=extra)


def bridge_draw(cuts: Sequence[tuple[str, Card]],
                seats: Mapping[str, Seat] | None = None) -> list[Ruling]:
    """Form a bridge table from a draw (modern practice, clause ``CB-draw``).

    Args:
        cuts: ``(name, card)`` in order of arrival, at least four.
        seats: seats chosen by the dealer, if known.

    Returns:
        One ``formation`` ruling; or, if two candidates drew the very same card (two packs mixed), a
        ``cut_again`` ruling for them with ``extra`` ``who`` and ``why``.

    Raises:
        ValueError: fewer than four candidates, a name twice, or bad seats.
    """
    _names(cuts, 4)
    by_card: dict[Card, list[str]] = {}
    for name, card in cuts:
        by_card.setdefault(card, []).append(name)
    for card, who in by_card.items():
        if len(who) > 1:
            why = f"{' and '.join(who)} drew the same card, {card.name}, so the draw was not from one pack"
            return [Ruling(Remedy.CUT_AGAIN, CB_LAW, CB_CLAUSE, f"{why}; they draw again.",
                           extra={"who": who, "why": why})]
    ranked = sorted(cuts, key=lambda nc: cut_rank(BRIDGE, nc[1]), reverse=True)
    order = [name for name, _ in ranked[:4]]
    left_out = [name for name, _ in ranked[4:]]
    cards = {name: card for name, card in cuts}
    reason = (f"{order[0]} drew the highest card ({cards[order[0]].name}) and deals, partnering "
              f"{order[1]} ({cards[order[1]].name}) against {order[2]} and {order[3]}")
    if left_out:
        reason += f"; {_join(left_out)} drew lower and wait{'s' if len(left_out) == 1 else ''}"
    more = {"left_out": left_out, "cards": {n: c.code for n, c in cuts}}
    return [formation_ruling(CB_LAW, CB_CLAUSE, reason + ".", order, seats, more)]


def _eu(n: int) -> tuple[str, str]:
    return f"Euchre, law {n}", f"EU-{n}"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class EuchreDraw:
    """The euchre draw for the table (laws 8-14), fed cut after cut until the table is formed.

    Call :meth:`cut` with the first draw (every candidate, in order of arrival), then again with the
    cuts of exactly the names each ``cut_again`` ruling lists, until a ``formation`` ruling comes.
    """

    def __init__(self) -> None:
        self.arrival: dict[str, int] = {}
        self.players: list[str] = []
        self.next_in: list[str] = []
        self.left_out: list[str] = []
        self.formation: Ruling | None = None
        self._expect: list[str] = []
        self._round: dict[str, Card] = {}
        self._stage = "first"
        self._groups: list[list[str]] = []
        self._group_index = 0
        self._clause = 11
        self._recut = False
        self.elsewhere: set[str] = set()   # law 17: cutters who have played at another table

    @property
    def waiting_for(self) -> list[str]:
        """Names whose cut is awaited (empty before the first draw and once formed)."""
        return [n for n in self._expect if n not in self._round]

    @property
    def done(self) -> bool:
        return self.formation is not None

    def cut(self, cuts: Sequence[tuple[str, Card]], exposed: Mapping[str, int] | None = None,
            seats: Mapping[str, Seat] | None = None, played_elsewhere: Collection[str] = ()) -> list[Ruling]:
        """Take one round of cuts.

        Args:
            cuts: ``(name, card)`` pairs; the first round in order of arrival.
            exposed: name -> how many cards that candidate exposed while cutting (law 10).
            seats: the dealer's choice of seats, used if this round completes the formation.
            played_elsewhere: at a new table, candidates who have belonged to or played at another
                table (law 17): the others enter first, and these cut only for the places left. Read
                with the first round only.

        Returns:
            ``[cut_again]`` (``extra``: ``who``, ``why``, and ``players``/``next_in``/``left_out`` after a
            selecting cut) or ``[formation]``.

        Raises:
            ValueError: the table is already formed, the wrong names cut, a name twice, a card twice in
                one round (law 9: one pack), or a card not in the euchre pack.
        """
        if self.done:
            raise ValueError("the table is already formed")
        first = not self._expect
        names = _names(cuts, 4 if first else 1)
        if not first and sorted(names) != sorted(self.waiting_for):
            raise ValueError(f"expected cuts from {_join(self.waiting_for)}, got {_join(names)}")
        taken = {c: n for n, c in self._round.items()}
        for name, card in cuts:
            cut_rank(EUCHRE, card)
            if card in taken:
                raise ValueError(f"{name} and {taken[card]} both cut the {card.name}: "
                                 "all must cut from the same pack (law 9)")
            taken[card] = name
        if first:
            self.arrival = {n: i for i, n in enumerate(names)}
            self._expect = list(names)
            self.elsewhere = {n for n in names if n in set(played_elsewhere)}
        exposers = [n for n in names if (exposed or {}).get(n, 0) > 1]
        for name, card in cuts:
            if name not in exposers:
                self._round[name] = card
        if exposers:
            law, clause = _eu(10)
            why = f"{_join(exposers)} exposed more than one card"
            return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{why} while cutting, so must cut again.",
                           extra={"who": exposers, "why": why})]
        cards = dict(self._round)
        self._round = {}
        if self._stage == "first" and len(cards) > 4:
            return self._select(cards)
        if self._stage == "resolve":
            self._recut = True
            group = self._groups[self._group_index]
            self._groups[self._group_index:self._group_index + 1] = self._grouped(group, cards)
        else:
            self.players = list(self._expect)
            self._groups = self._grouped(self.players, cards)
        return self._resolve(seats)

    def _key(self, cards: Mapping[str, Card]) -> Callable[[str], tuple[tuple[int, ...], int]]:
        return lambda n: (tuple(-k for k in cut_rank(EUCHRE, cards[n])), self.arrival[n])

    def _grouped(self, names: Sequence[str], cards: Mapping[str, Card]) -> list[list[str]]:
        ordered = sorted(names, key=self._key(cards))
        groups: list[list[str]] = []
        for n in ordered:
            if groups and cut_rank(EUCHRE, cards[groups[-1][0]]) == cut_rank(EUCHRE, cards[n]):
                groups[-1].append(n)
            else:
                groups.append([n])
        return groups

    def _select(self, cards: dict[str, Card]) -> list[Ruling]:
        key = self._key(cards)
        ranked = sorted(cards, key=lambda n: (n in self.elsewhere, key(n)))  # law 17: fresh ones first
        self.players, self.next_in, self.left_out = ranked[:4], ranked[4:6], ranked[6:]
        self._expect = list(self.players)
        self._stage = "partners"
        law, clause = _eu(12 if len(ranked) > 6 else 11)
        why = f"{_join(self.players)} cut the four highest cards and cut again for partners"
        edge = cut_rank(EUCHRE, cards[ranked[3]]) == cut_rank(EUCHRE, cards[ranked[4]]) and \
            (ranked[3] in self.elsewhere) == (ranked[4] in self.elsewhere)
        note = f" ({ranked[3]} keeps the last place over {ranked[4]} by arriving earlier)" if edge else ""
        if self.elsewhere:
            law, clause = _eu(17)
            fresh = [n for n in ranked if n not in self.elsewhere]
            places = [n for n in self.players if n in self.elsewhere]
            if len(fresh) >= 4:
                why = (f"candidates who have played at no other table enter first: of them "
                       f"{_join(self.players)} cut the four highest cards and cut again for partners")
            else:
                why = (f"{_join(fresh)}, who have played at no other table, enter first as fresh "
                       f"candidates; {_join(places)} cut{'s' if len(places) == 1 else ''} highest of the others "
                       f"for the place{'s' if len(places) > 1 else ''} left; the four cut again for partners")
        tail = f"; {_join(self.next_in)} are next in" if len(ranked) > 6 else ""
        return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{why[0].upper()}{why[1:]}{note}{tail}.",
                       extra={"who": list(self.players), "why": why, "players": list(self.players),
                              "next_in": list(self.next_in), "left_out": list(self.left_out)})]

    def _resolve(self, seats: Mapping[str, Seat] | None) -> list[Ruling]:
        start = 0
        for i, group in enumerate(self._groups):
            if start < 2 < start + len(group):
                self._group_index = i
                self._expect = list(group)
                self._stage = "resolve"
                self._clause = 13 if len(group) == 2 else 14
                law, clause = _eu(self._clause)
                why = f"{_join(group)} cut equal cards across the line between the two pairs"
                return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{why}, so they cut again.",
                               extra={"who": list(group), "why": why})]
            start += len(group)
        order = [n for g in self._groups for n in g]
        top_tie = len(self._groups[0]) > 1
        low_tie = len(self._groups[-1]) > 1
        if self._clause == 11 and (top_tie or low_tie):
            self._clause = 13
        law, clause = _eu(self._clause)
        how = "came out highest once the equal cards were cut again" if self._recut \
            else "cut the two highest cards"
        reason = f"{order[0]} and {order[1]} {how} and play against {order[2]} and {order[3]}; {order[0]} deals"
        if top_tie:
            reason += f", having cut the same as {order[1]} and arrived first"
        self._stage = "done"
        self._expect = []
        more = {"next_in": list(self.next_in), "left_out": list(self.left_out)}
        self.formation = formation_ruling(law, clause, reason + ".", order, seats, more)
        return [self.formation]
