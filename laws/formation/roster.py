"""Euchre cutting out and entry (Somerset Club laws 15-21): who sits at the table for the next rubber.

A simple model of our own where the laws leave room:

* Law 15: at the end of a rubber up to two waiting candidates claim entry (the law speaks of one or
  two). As many players go out, those with the most consecutive rubbers first; players tied at the edge
  cut, and the lowest goes out (law 8 order). The newcomers take the out-goers' seats.
* Law 16: a declaration made while a cut is pending is refused; the candidate may declare again
  for the next rubber.
* Law 17: when a fresh table is formed (a roster built with no players), candidates who have not
  belonged to another table enter first; the others cut for what places remain, highest cards in.
* Law 18: a player leaving during a rubber may appoint a substitute only with the other three's
  consent; the substitute plays to the end of that rubber and the absent player takes his seat back at
  the next (his consecutive count goes on as if he had played). Without consent nobody sits in. A
  substitute who was waiting to enter keeps his place in the queue (he sits in, he has not entered), and
  sits in one seat only: a later leaver's seat goes to the next candidate not at the table. If the
  substitute leaves in turn, the absent player keeps his right to the seat: the first candidate waiting
  (or, with nobody waiting, the first to declare, taking the empty seat) sits in for him until the rubber
  ends. The absent player does not declare as a candidate: he has a seat here.
* Law 19: a player who leaves for good is replaced by the first waiting candidate, who inherits the
  leaver's count of consecutive rubbers; so one who leaves after one of his two rubbers is replaced for
  one rubber only. With nobody waiting the seat stays empty until someone declares.
* Law 20: :meth:`EuchreRoster.forfeit_reentry` marks someone who cut into another table; a later
  declaration at this table is refused.
* Law 21: candidates from a broken table (``broken_table=True``) are queued ahead of the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from laws.cards import Card
from laws.formation.draw import EUCHRE, cut_rank
from laws.rulings import Remedy, Ruling

MAX_CLAIMANTS = 2


def _eu(n: int) -> tuple[str, str]:
    return f"Euchre, law {n}", f"EU-{n}"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _names(names: Sequence[str]) -> str:
    """Names as a message shows them (``Ann, Bob, Ann``; ``none``), not as Python spells a list."""
    return ", ".join(str(n) for n in names) or "none"


@dataclass(frozen=True)
class Candidate:
    """Someone waiting to enter: ``fresh`` has played at no other table; ``broken_table`` comes from
    a table that broke up (law 21)."""

    name: str
    fresh: bool = True
    broken_table: bool = False


@dataclass
class _PendingCut:
    who: list[str]
    places: int
    lowest: bool          # True: the lowest cards are chosen (cutting out); False: highest (cutting in)
    decided: list[str]    # already chosen before this cut
    purpose: str          # "out" or "in"


class EuchreRoster:
    """Who plays at one euchre table, rubber after rubber.

    Args:
        players: the four at the table; empty to form a fresh table with :meth:`form_table`.

    Raises:
        ValueError: not four distinct names (or none).
    """

    def __init__(self, players: Sequence[str] = ()) -> None:
        if len(players) not in (0, 4) or len(set(players)) != len(players):
            raise ValueError(f"a euchre table has four different players, got {_names(players)}")
        self.players: list[str | None] = list(players)
        self.consecutive: dict[str, int] = {p: 0 for p in players}
        self.queue: list[Candidate] = []
        self.forfeited: set[str] = set()
        self.substitutes: dict[str, str] = {}   # substitute -> the absent player
        self._cut: _PendingCut | None = None
        self._vacated: dict[int, int] = {}      # empty seat -> the leaver's consecutive count
        self._held: dict[int, str] = {}         # empty seat -> the absent player it is kept for (law 18)

    # -- state -------------------------------------------------------------------------------------

    @property
    def cut_pending(self) -> list[str]:
        """Names who must cut before the roster can go on (empty when none)."""
        return list(self._cut.who) if self._cut else []

    def snapshot(self) -> dict[str, Any]:
        """The roster for display (JSON-ready)."""
        return {"players": list(self.players), "consecutive": dict(self.consecutive),
                "queue": [c.name for c in self.queue], "forfeited": sorted(self.forfeited),
                "substitutes": dict(self.substitutes), "cut_pending": self.cut_pending}

    def _at_table(self, name: str) -> bool:
        return name in self.players

    def _absent(self) -> dict[str, str]:
        """The absent players (law 18) -> who keeps their seat now (a substitute, or ``an empty seat``)."""
        held = {absent: sub for sub, absent in self.substitutes.items()}
        held.update({absent: "an empty seat" for absent in self._held.values()})
        return held

    def _first_waiting(self) -> Candidate | None:
        """The first candidate in the queue who is not sitting in at the table already (law 18)."""
        return next((c for c in self.queue if not self._at_table(c.name)), None)

    # -- entry -------------------------------------------------------------------------------------

    def declare(self, name: str, fresh: bool = True, broken_table: bool = False) -> list[Ruling]:
        """A candidate declares that he wishes to enter (laws 16, 20, 21; 19 fills an empty seat).

        Returns:
            One ``entry`` ruling: ``extra`` has ``name``, ``accepted`` (bool), ``position`` in the
            queue (when queued) or ``seat_index`` (when he sits at once in an empty seat).

        Raises:
            ValueError: the name already plays here or already waits.
        """
        if self._at_table(name):
            raise ValueError(f"{name!r} already plays at this table")
        if name in self._absent():
            raise ValueError(f"{name!r} has a seat at this table ({self._absent()[name]} keeps it for him until "
                             "the rubber ends, law 18), so he does not declare as a candidate")
        if any(c.name == name for c in self.queue):
            raise ValueError(f"{name!r} has already declared")
        if name in self.forfeited:
            law, clause = _eu(20)
            return [Ruling(Remedy.ENTRY, law, clause, f"{name} cut into another table and so may not "
                           "re-enter this one.", extra={"name": name, "accepted": False})]
        if self._cut is not None:
            law, clause = _eu(16)
            return [Ruling(Remedy.ENTRY, law, clause, f"{name} declared after the cut began, so may "
                           "enter only from the next rubber on.", extra={"name": name, "accepted": False})]
        if self.players and None in self.players:
            index = self.players.index(None)
            if index in self._held:
                return self._sit_in(name, index, self._held.pop(index), fresh, broken_table)
            self.players[index] = name
            self.consecutive[name] = self._vacated.pop(index, 0)
            law, clause = _eu(19)
            return [Ruling(Remedy.ENTRY, law, clause, f"{name} takes the empty seat at once.",
                           extra={"name": name, "accepted": True, "seat_index": index,
                                  "players": list(self.players)})]
        cand = Candidate(name, fresh, broken_table)
        if broken_table:
            pos = sum(1 for c in self.queue if c.broken_table)
            self.queue.insert(pos, cand)
            law, clause = _eu(21)
            why = f"{name} comes from a broken table and is queued ahead of other candidates"
        else:
            self.queue.append(cand)
            pos = len(self.queue) - 1
            law, clause = _eu(16)
            why = f"{name} declared in time and waits in place {pos + 1}"
        return [Ruling(Remedy.ENTRY, law, clause, why + ".",
                       extra={"name": name, "accepted": True, "position": pos + 1})]

    def forfeit_reentry(self, name: str) -> None:
        """Record that ``name`` cut into another table: no re-entry here (law 20)."""
        self.forfeited.add(name)
        self.queue = [c for c in self.queue if c.name != name]

    def form_table(self) -> list[Ruling]:
        """Choose the players of a fresh table from the declared candidates (law 17).

        Returns:
            ``entry`` (``extra``: ``players`` who go on to the draw for partners, ``admitted``) when
            decided; or ``cut_again`` (``extra``: ``who``, ``places``, ``admitted``) when candidates
            who have played elsewhere must cut for the places left (continue with :meth:`cut`).

        Raises:
            ValueError: the table already has players, or fewer than four candidates.
        """
        if self.players:
            raise ValueError("form_table is for a fresh table; this one already has players")
        if len(self.queue) < 4:
            raise ValueError(f"a euchre table needs four players; {len(self.queue)} declared")
        fresh = [c.name for c in self.queue if c.fresh]
        others = [c.name for c in self.queue if not c.fresh]
        if len(fresh) >= 4 or len(fresh) + len(others) == 4:
            chosen = fresh if len(fresh) >= 4 else fresh + others
            return self._seat_new_table(chosen, cut=False)
        self._cut = _PendingCut(others, 4 - len(fresh), lowest=False, decided=fresh, purpose="in")
        law, clause = _eu(17)
        why = f"{_join(others)} have played at other tables and cut for {4 - len(fresh)} places"
        return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{_join(fresh) if fresh else 'Nobody'} enter first "
                       f"as fresh candidates; {why}.",
                       extra={"who": others, "places": 4 - len(fresh), "admitted": fresh, "why": why})]

    def seat(self, players: Sequence[str]) -> None:
        """Seat the four chosen by a draw at a fresh table (after :meth:`form_table` named more than
        four fresh candidates); they leave the queue, the others keep waiting.

        Raises:
            ValueError: the table already has players, or ``players`` are not four waiting candidates.
        """
        waiting = {c.name for c in self.queue}
        if self.players:
            raise ValueError("this table already has players")
        if len(set(players)) != 4 or not set(players) <= waiting:
            raise ValueError(f"seat needs four different waiting candidates, got {_names(players)}")
        self.queue = [c for c in self.queue if c.name not in set(players)]
        self.players = list(players)
        self.consecutive = {p: 0 for p in players}

    def redrawn(self, players: Sequence[str]) -> None:
        """A draw formed this table again with ``players`` (law 11). Those who stay keep their places,
        counts and, for a substitute, the absent player he sits in for (the draw ends no rubber for
        cutting out, law 15); those it leaves out are gone from the table; a newcomer takes a place left
        (his count from 0, or an absent player's own) and leaves the queue.

        Raises:
            ValueError: not four different names.
        """
        if len(set(players)) != 4 or len(players) != 4:
            raise ValueError(f"a euchre table has four different players, got {_names(players)}")
        staying = set(players)
        gone = [i for i, p in enumerate(self.players) if p is None or p not in staying]
        new = [p for p in players if p not in self.players]
        if not self.players:
            self.players, gone = [None] * 4, [0, 1, 2, 3]
        for index, name in zip(gone, new):
            old = self.players[index]
            if old is not None:
                self.consecutive.pop(old, None)
                self.substitutes.pop(old, None)
            self.players[index] = name
            self.consecutive[name] = self.consecutive.get(name, 0)   # an absent player's count goes on
        self._held, self._vacated = {}, {}
        self.queue = [c for c in self.queue if c.name not in staying]

    def _seat_new_table(self, chosen: list[str], cut: bool) -> list[Ruling]:
        law, clause = _eu(17)
        how = " after cutting" if cut else ""
        if len(chosen) > 4:
            text = (f"{_join(chosen)} enter first as fresh candidates and cut for the four places "
                    "and for partners.")
        else:
            self.seat(chosen)
            text = f"{_join(chosen)} form the new table{how} and cut for partners."
        return [Ruling(Remedy.ENTRY, law, clause, text, extra={"players": list(chosen),
                                                               "admitted": list(chosen)})]

    # -- cutting out -------------------------------------------------------------------------------

    def rubber_ended(self) -> list[Ruling]:
        """Count the rubber and let waiting candidates in (law 15). The absent players have their seats
        back first (law 18); a seat a leaver left empty (law 19) stays empty, since a candidate who
        declares takes it at once.

        Returns:
            Nothing when nobody waits (or a seat is empty); else ``cut_out`` (``extra``: ``out``, ``in``, ``players``)
            followed by one ``entry`` per newcomer, or a ``cut_again`` (``extra``: ``who``, ``places``,
            ``out`` so far) when players tied on consecutive rubbers must cut (continue with
            :meth:`cut`).

        Raises:
            ValueError: a cut is pending.
        """
        if self._cut is not None:
            raise ValueError(f"a cut is pending: {_join(self._cut.who)} must cut first")
        if not self.players:
            return self._unknown_table()
        for sub, absent in self.substitutes.items():
            self.players[self.players.index(sub)] = absent
        for index, absent in self._held.items():
            self.players[index] = absent
        self.substitutes, self._held = {}, {}
        seated = [p for p in self.players if p is not None]
        for p in seated:
            self.consecutive[p] = self.consecutive.get(p, 0) + 1
        if None in self.players:
            # a seat a leaver left empty (law 19) stays empty: nobody waits, or he would have taken it
            return []
        k = min(MAX_CLAIMANTS, len(self.queue))
        if k == 0:
            return []
        by_count = sorted(seated, key=lambda p: -self.consecutive[p])
        edge = self.consecutive[by_count[k - 1]]
        sure = [p for p in seated if self.consecutive[p] > edge]
        tied = [p for p in seated if self.consecutive[p] == edge]
        places = k - len(sure)
        if len(tied) == places:
            return self._replace(sure + tied)
        self._cut = _PendingCut(tied, places, lowest=True, decided=sure, purpose="out")
        law, clause = _eu(15)
        lowest = "the lowest" if places == 1 else f"the {places} lowest"
        why = (f"{_join(tied)} have each played {edge} consecutive rubber{'' if edge == 1 else 's'} "
               f"and cut, {lowest} going out")
        return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{why}.",
                       extra={"who": tied, "places": places, "out": sure, "why": why})]

    def _unknown_table(self) -> list[Ruling]:
        """A rubber ended at a table whose players are not on record (no draw was recorded; the draw is
        optional in the event format): nobody's consecutive rubbers can be counted, so law 15 is left to
        the players when someone waits, and nothing is said otherwise."""
        if not self.queue:
            return []
        law, clause = _eu(15)
        names = [c.name for c in self.queue[:MAX_CLAIMANTS]]
        return [Ruling(Remedy.ATTENTION, law, clause, f"{_join(names)} wait to enter, but the players at "
                       "the table are not on record (no draw was recorded), so the table decides who goes "
                       "out.", extra={"waiting": names})]

    def cut(self, cuts: Sequence[tuple[str, Card]]) -> list[Ruling]:
        """The cards of a pending cut-out (law 15) or cut-in (law 17).

        Returns:
            What :meth:`rubber_ended` or :meth:`form_table` would return once decided, or another
            ``cut_again`` when cards tie at the edge.

        Raises:
            ValueError: no cut is pending, or the wrong names cut.
        """
        pending = self._cut
        if pending is None:
            raise ValueError("no cut is pending")
        if sorted(n for n, _ in cuts) != sorted(pending.who):
            raise ValueError(f"expected cuts from {_join(pending.who)}, got {_join([n for n, _ in cuts])}")
        if len({c for _, c in cuts}) != len(cuts):
            raise ValueError("two cut the same card: all must cut from the same pack (law 9)")
        rank = {n: cut_rank(EUCHRE, c) for n, c in cuts}
        ordered = sorted(pending.who, key=lambda n: rank[n], reverse=not pending.lowest)
        edge = rank[ordered[pending.places - 1]]
        sure = [n for n in ordered if (rank[n] < edge if pending.lowest else rank[n] > edge)]
        tied = [n for n in pending.who if rank[n] == edge]
        places = pending.places - len(sure)
        decided = pending.decided + sure
        if len(tied) == places:
            self._cut = None
            chosen = decided + tied
            return self._replace(chosen) if pending.purpose == "out" else self._seat_new_table(chosen, True)
        self._cut = _PendingCut(tied, places, pending.lowest, decided, pending.purpose)
        law, clause = _eu(13)
        why = f"{_join(tied)} cut equal cards for {places} place{'s' if places > 1 else ''}"
        return [Ruling(Remedy.CUT_AGAIN, law, clause, f"{why} and cut again.",
                       extra={"who": tied, "places": places, "why": why})]

    def _replace(self, out: list[str]) -> list[Ruling]:
        entering = [c.name for c in self.queue[:len(out)]]
        self.queue = self.queue[len(out):]
        for old, new in zip(out, entering):
            self.players[self.players.index(old)] = new
            self.consecutive.pop(old, None)
            self.consecutive[new] = 0
        law, clause = _eu(15)
        seated = [p for p in self.players if p is not None]
        rulings = [Ruling(Remedy.CUT_OUT, law, clause,
                          f"{_join(out)} go{'es' if len(out) == 1 else ''} out and {_join(entering)} "
                          f"take{'s' if len(entering) == 1 else ''} the place{'s' if len(out) > 1 else ''}.",
                          extra={"out": out, "in": entering, "players": seated})]
        for new in entering:
            rulings.append(Ruling(Remedy.ENTRY, law, clause, f"{new} enters the table for the next rubber.",
                                  extra={"name": new, "accepted": True, "players": seated}))
        return rulings

    # -- leaving -----------------------------------------------------------------------------------

    def leave(self, name: str, substitute: str | None = None, consent: bool = False) -> list[Ruling]:
        """A player leaves the table (laws 18-19).

        Args:
            name: the player leaving.
            substitute: who would sit in for the rest of this rubber.
            consent: the other three agreed to the substitute.

        Returns:
            ``entry`` for the substitute or the replacement (``extra``: ``name``, ``accepted``,
            ``replaces``), or ``attention`` (``extra``: ``vacant``) when the seat stays empty.

        Raises:
            ValueError: ``name`` does not play here, or the substitute already does.
        """
        if not self._at_table(name):
            raise ValueError(f"{name!r} does not play at this table")
        index = self.players.index(name)
        if substitute is not None:
            if self._at_table(substitute):
                raise ValueError(f"{substitute!r} already plays at this table")
            law, clause = _eu(18)
            if not consent:
                return [Ruling(Remedy.ENTRY, law, clause, f"{substitute} may sit in for {name} only with "
                               "the consent of the other three players.",
                               extra={"name": substitute, "accepted": False, "replaces": name})]
            absent = self.substitutes.pop(name, name)
            self.players[index] = substitute
            if substitute == absent:   # the absent player comes back before the rubber ends
                return [Ruling(Remedy.ENTRY, law, clause, f"{absent} takes his seat back from {name}.",
                               extra={"name": absent, "accepted": True, "replaces": name})]
            self.substitutes[substitute] = absent
            return [Ruling(Remedy.ENTRY, law, clause, f"{substitute} sits in for {absent} until the end "
                           "of this rubber, with the other players' consent.",
                           extra={"name": substitute, "accepted": True, "replaces": absent,
                                  "until": "end_of_rubber"})]
        if name in self.substitutes:
            return self._substitute_left(name, index)
        absent = name
        count = self.consecutive.pop(absent, 0)
        law, clause = _eu(19)
        waiting = self._first_waiting()
        if waiting is not None:
            self.queue.remove(waiting)
            new = waiting.name
            self.players[index] = new
            self.consecutive[new] = count
            return [Ruling(Remedy.ENTRY, law, clause, f"{new} takes the place of {absent}, who left after "
                           f"{count} consecutive rubber{'' if count == 1 else 's'}, and counts as having "
                           "played them.", extra={"name": new, "accepted": True, "replaces": absent,
                                                  "consecutive": count})]
        self.players[index] = None
        self._vacated[index] = count
        return [Ruling(Remedy.ATTENTION, law, clause, f"{absent} left and nobody is waiting, so the seat "
                       "stays empty until a candidate declares.", extra={"vacant": absent})]

    def _substitute_left(self, name: str, index: int) -> list[Ruling]:
        """A substitute leaves before the rubber ends (law 18): the absent player he sat in for keeps his
        right to the seat, so the first candidate waiting sits in for him until the rubber ends; with
        nobody waiting the seat stays empty, kept for him, and the first to declare takes it so."""
        absent = self.substitutes.pop(name)
        law, clause = _eu(18)
        waiting = self._first_waiting()
        if waiting is not None:
            self.players[index] = waiting.name
            self.substitutes[waiting.name] = absent
            return [Ruling(Remedy.ENTRY, law, clause, f"{name}, who sat in for {absent}, left; {waiting.name}, "
                           f"the first waiting, sits in for {absent} until the end of this rubber and keeps "
                           "his place in the queue.",
                           extra={"name": waiting.name, "accepted": True, "replaces": absent, "left": name,
                                  "until": "end_of_rubber"})]
        self.players[index] = None
        self._held[index] = absent
        return [Ruling(Remedy.ATTENTION, law, clause, f"{name}, who sat in for {absent}, left and nobody is "
                       f"waiting, so the seat stays empty until a candidate declares; {absent} has it back "
                       "when the rubber ends.", extra={"vacant": name, "absent": absent})]

    def _sit_in(self, name: str, index: int, absent: str, fresh: bool, broken_table: bool) -> list[Ruling]:
        """A candidate declares while a seat is kept empty for an absent player (law 18): he sits in for
        him until the rubber ends, and waits in the queue to enter as any candidate does."""
        self.players[index] = name
        self.substitutes[name] = absent
        cand = Candidate(name, fresh, broken_table)
        if broken_table:
            self.queue.insert(sum(1 for c in self.queue if c.broken_table), cand)
        else:
            self.queue.append(cand)
        pos = self.queue.index(cand) + 1
        law, clause = _eu(18)
        return [Ruling(Remedy.ENTRY, law, clause, f"{name} takes the empty seat and sits in for {absent} until "
                       f"the end of this rubber; he waits in place {pos} to enter.",
                       extra={"name": name, "accepted": True, "replaces": absent, "until": "end_of_rubber",
                              "seat_index": index, "players": list(self.players), "position": pos})]
