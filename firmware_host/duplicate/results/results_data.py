"""What every results export writes, gathered once from a session (``results.export`` uses it).

The players come in through one small mapping, pair label (``"3 NS"``, ``"5"``) -> its players, each a
player (:func:`pair_player`, the one competitor type: name, the club's member number, the federation's number); any of them may be empty and
a pair may be missing altogether: the writers then write the field empty, never a made-up value.
:func:`players_of` builds the mapping from the session itself: the journal's ``players`` records (each
player's name, member number and federation number, as the roster gave them when the pair was named),
else the setup's names; a caller that knows more passes its own mapping to :func:`gather`.

Who sat for a pair can change during the evening (a substitute named at the table in round 4): the
mapping then holds everyone who sat for the pair, for its ranking, and :func:`players_by_round` who sat
in each round, for each line's names (``ExportData.players_at``), so a substitute's name never lands on
a line the player he replaced played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from firmware_host.session.analysis import Analysis
from firmware_host.session.duplicate_session import Session
from laws.competitors import Competitor, player
from laws.duplicate.deal import Board
from laws.duplicate.movement import Movement
from laws.scoring import SessionResult
from laws.session.duplicate.spec import SessionSetup, label
from laws.session.duplicate.state import Entry, SessionState


def pair_player(name: str = "", member: str = "", federation: str = "") -> Competitor:
    """One player of a pair as the exports name him: the one competitor type, a player not numbered.

    Args:
        name: the name to publish ("" when not known).
        member: the club's member number ("" for a visitor or when not known); never published.
        federation: the national federation's number (USEBIO's ``NATIONAL_ID_NUMBER``; "" when not known).
    """
    return player(0, name, member, federation)


#: the exports' name for :func:`pair_player`, kept for callers: ``Player("Ann", "M12", "1001")``.
Player = pair_player

NOBODY: tuple[Competitor, Competitor] = (pair_player(), pair_player())


def players_of(state: SessionState) -> dict[str, tuple[Competitor, ...]]:
    """Each pair's players as the session holds them.

    A pair named by a ``players`` record (``--players``, the pages, member cards) has its players with
    their member and federation numbers, so USEBIO's ``NATIONAL_ID_NUMBER`` is the roster's; a pair
    named only in the setup (``SessionSetup.names``) has names and no numbers. The setup's names are
    kept by position (an empty name stays in its seat), unlike ``SessionState.players_of``.
    """
    out = {str(k): tuple(pair_player(str(n or "")) for n in v) for k, v in state.setup.names.items()}
    for pair in state.players:
        out[str(pair)] = tuple(_player(p) for p in state.everyone_of(pair))
    return out


def players_by_round(state: SessionState) -> dict[tuple[str, int], tuple[Competitor, ...]]:
    """(pair label, round) -> the players who sat for the pair in that round, for every pair the journal
    named and every round it is seated in (``SessionState.players_in``)."""
    out: dict[tuple[str, int], tuple[Competitor, ...]] = {}
    for s in state.movement.seatings:
        for pair in s.pairs:
            if str(pair) in state.players:
                out[(str(pair), s.round)] = tuple(_player(p) for p in state.players_in(str(pair), s.round))
    return out


def _player(p: Mapping[str, str]) -> Competitor:
    return pair_player(p.get("name", ""), p.get("member", ""), p.get("federation", ""))


def entered_by_hand(e: Entry) -> bool:
    """Whether a played line was entered by hand rather than sent by its table.

    A result typed in by the director or on the table's page is journaled with ``hand: true``
    (``Entry.hand``); a table's result always carries the ``source`` of its message
    (``<table>:<seq>``), so a played line with neither came from an older journal's director entry.
    That is the one place the exports decide it.
    """
    return e.kind == "played" and (bool(getattr(e, "hand", False)) or not e.source)


@dataclass(frozen=True)
class ExportData:
    """Everything an export writes, gathered once from the session."""

    setup: SessionSetup
    movement: Movement
    result: SessionResult
    records: Mapping[int, Board]
    entries: Mapping[tuple[int, str, str], Entry]   # (board, NS label, EW label) -> the session's line
    analysis: Mapping[int, Analysis]
    players: Mapping[str, tuple[Competitor, ...]] = field(default_factory=dict)   # everyone who sat for it
    club_id: str = ""                               # the club's number with its federation (CLUB_ID_NUMBER)
    by_round: Mapping[tuple[str, int], tuple[Competitor, ...]] = field(default_factory=dict)
    # boards whose hands, double-dummy table and par are left out: not yet finished at every table that
    # plays them, while the session is not finished (docs/session.md, "Results out")
    withheld: frozenset[int] = frozenset()

    def entry(self, board: int, ns: str, ew: str) -> Entry | None:
        return self.entries.get((board, ns, ew))

    def pair_players(self, pair: str) -> tuple[Competitor, Competitor]:
        """The two players of a pair (empty players for one not known)."""
        got = tuple(self.players.get(pair, ())) + NOBODY
        return got[0], got[1]

    def everyone(self, pair: str) -> tuple[Competitor, ...]:
        """Every player who sat for the pair, at least two (empty players for those not known): a
        substitute is a third."""
        got = tuple(self.players.get(pair, ()))
        return got + NOBODY[len(got):]

    def names(self, pair: str) -> str:
        """``"Ann Smith & Bob Jones"`` (``"Kay Lamb & Lou Moss & Tom Uhl"`` when a substitute came in):
        everyone who sat for the pair, only the names known; "" for none."""
        return " & ".join(p.name for p in self.everyone(pair) if p.name)

    def players_at(self, pair: str, rnd: int | None) -> tuple[Competitor, Competitor]:
        """The two players who sat for the pair in round ``rnd`` (its first two players when the round's
        are not known: a caller's own mapping, or no round)."""
        got = tuple(self.by_round.get((pair, rnd), ())) if rnd is not None else ()
        if not got:
            return self.pair_players(pair)
        got += NOBODY
        return got[0], got[1]

    def names_at(self, pair: str, rnd: int | None) -> str:
        """The names of the two who sat for the pair in round ``rnd`` (a line's names)."""
        return " & ".join(p.name for p in self.players_at(pair, rnd) if p.name)


def gather(session: Session, analysis_timeout: float | None = 120.0, *,
           players: Mapping[str, tuple[Competitor, ...]] | None = None, club_id: str = "",
           withhold: bool = False) -> ExportData:
    """The session's export data; ``players`` defaults to the session's own players (:func:`players_of`).
    With ``withhold`` (what is published: the site, the HTML page), until the session is finished a board
    some table has still to play is ``withheld``: a page written mid-session never shows its hands to a
    pair that has still to play it. The scorers' files alone (PBN, USEBIO) carry every hand at any time."""
    st = session.state
    entries = {(e.board, label(e.ns), label(e.ew)): e for e in st.entries.values()}
    withheld = frozenset() if not withhold or st.finished() else frozenset(b for b in st.movement.boards() if not st.board_finished(b))
    return ExportData(st.setup, st.movement, session.scored(), dict(st.records), entries,
                      session.all_analysis(analysis_timeout),
                      dict(players_of(st) if players is None else players), club_id,
                      players_by_round(st) if players is None else {}, withheld)
