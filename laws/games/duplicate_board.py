"""Duplicate bridge at one table: the board on the table and every card of it against its hand record
(docs/laws.md ``DB-``). The auction and the play are bridge's (``bridge_auction``, ``bridge_play``,
``bridge_result``); ``duplicate_bridge`` puts these clauses around them.

* ``DB-2`` (``board``): the board now on the table, its record, where it is played and how its cards
  reach the players. Its number gives the dealer and the vulnerability. A physical board (``how``
  ``board``): the players take their pockets' cards, so the deal is there at once and its auction
  begins (the hands held are not known: the record is what they should be, not what they are). A board
  the table's shoe deals (``shoe``): the shoe's cards follow (``deal_start``, ``card_dealt``,
  ``deal_end``), and the hands are known as dealt, so every revoke is seen at the card.
* ``DB-6`` (``card_dealt``): each card the shoe puts in a pocket against the record; one the record
  gives to another seat means the board must be remade from its record; so does one reported placed again,
  or placed with no code read, or of another pack than the cards placed before it (PROTOCOL.md 7.2, check
  2: the pockets are not known).
* ``DB-14`` (``board_short``, ``deal_end``): the shoe stopped with cards not placed, no hand too long:
  they are found and put in the well before the auction (the shoe finishes the board). A ``board_short``
  that names no card (the shoe did not say which are missing: the pockets are not known), one that names
  others than the cards the table did not see placed (PROTOCOL.md 7.2, check 3: not known either), or one ``lost``
  (the table's link lost messages of the board, its cards most likely), is ``DB-6`` instead: the board is
  remade from its record, dealt again from empty pockets.
* ``DB-13`` (``hand_count``): a player counts other than thirteen cards in his pocket. (``deal_end`` with
  ``left_in_shoe``): the shoe placed the whole board and a card is left in its well: a card not of the deal,
  removed; the board stands and the director is called (not at the finish of a board ended short: the
  rest of the pack its missing cards came from stays in the well).
* ``DB-87`` (``card_played``, before the play's clauses): every card played against the record
  (``laws.duplicate.check``, through ``Deal.holder``); the first one the record gives to another seat
  is ruled at that card (a fouled board, two hands swapped, the board turned round or another board:
  the director decides), with the table, round, board and the two seats. From then on the table no
  longer takes the record for the hands held, so no card is refused for its hand.
* ``DB-15`` / ``DB-87`` (``foul_ruled``): the director's decision, which the journal keeps as the fouled
  group's boundary (``fouled``: played on, scored in its own group) or cancels this play (``wrong_board``).
* ``DB-2`` (``board_abandoned``): the session holds the result of the board on the table, which this table
  has not confirmed (the director scored it while the table was down, or its round moved on): its play
  here ends, and nothing more of it is ruled, scored or sent.
* ``DB-7`` (``play_end``, and a typed ``result`` before any card is played): the four hands as played
  against the record: the board is verified at this table and round only when all 52 cards were seen,
  each from the seat its record gives it.
* ``DB-77`` (``play_end``, ``correct``, ``result``, ``call``): the duplicate score of the result the cards
  give (a passed-out board scores nothing), and ``confirm``: one player of each side confirms it; once both
  have, the result is the table's to publish.

Readings of ours (docs/events.md says the same):

* A ``board`` is refused while the board before it has calls or cards and its result is neither
  confirmed nor cancelled; a board with neither may be replaced (the session sent the table another). The
  table's procedure abandons a board the session has scored (``board_abandoned``) before it places the next.
* A card of a board the shoe deals that the shoe reports faced is not ruled: the pockets are closed, so
  nobody saw it (``DB-6`` speaks of a card seen).
* A claim ends play with cards unseen: that board is not verified card by card.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from laws.cards import Card, Seat, Side, full_pack
from laws.duplicate.check import Foul, RecordCheck
from laws.duplicate.deal import SEAT_NAMES, Board, Deal
from laws.events import (
    BoardAbandoned,
    BoardPlaced,
    BoardShort,
    CallMade,
    CardDealt,
    CardPlayed,
    DealEnded,
    DealStarted,
    DemandMade,
    FoulRuled,
    HandCounted,
    PlayEnded,
    ResultConfirmed,
    ResultRecorded,
    RevokeCorrected,
)
from laws.games import bridge_hand as bh
from laws.games import bridge_result
from laws.games.base import Clause, Registry
from laws.rulings import Remedy, Ruling
from laws.scoring.duplicate import board_score
from laws.state import DealState, Phase, TableState

KEY = "duplicate"
PLAYED = "duplicate_played"
_LAW = "Duplicate Bridge"


@dataclass
class BoardAtTable:
    """The board on the table and what is known of it (``TableState.game_state["duplicate"]``)."""

    record: Board
    how: str
    section: str | None = None
    table: int | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None
    deal: int = 0                   # the engine's deal number this board is played in (0: not yet dealt)
    dealt: RecordCheck | None = None
    played: RecordCheck | None = None
    decision: str | None = None     # the director's, on the first card against the record
    cancelled: bool = False
    abandoned: bool = False         # the session holds its result: its play here ended (board_abandoned)
    result: dict[str, Any] | None = None
    verified: bool | None = None
    confirmed: dict[str, str] = field(default_factory=dict)   # "ns"/"ew" -> the seat that confirmed
    short: tuple[Card, ...] = ()    # the shoe stopped with these not placed (until the board is whole)
    pockets_pack: str | None = None  # the pack of the attempt's first placed card that named one (PROTOCOL 7.2)

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def done(self) -> bool:
        return self.cancelled or (self.result is not None and len(self.confirmed) == 2)

    @property
    def started(self) -> bool:
        """Calls or cards have happened on this board."""
        return self.played is not None and bool(self.played.seen) or self.result is not None

    def where(self) -> dict[str, Any]:
        """Board, section, table and round, for a ruling's facts."""
        return {k: v for k, v in (("board", self.number), ("section", self.section), ("table", self.table),
                                  ("round", self.round)) if v is not None}

    def place(self) -> str:
        """"board 7 (table 3, round 2)"."""
        bits = [f"table {self.table}" if self.table is not None else "", f"round {self.round}" if self.round else ""]
        bits = [b for b in bits if b]
        return f"board {self.number}" + (f" ({', '.join(bits)})" if bits else "")


def board_of(s: TableState) -> BoardAtTable | None:
    b: BoardAtTable | None = s.game_state.get(KEY)
    return b


def _need(s: TableState, what: str) -> BoardAtTable:
    b = board_of(s)
    if b is None:
        raise ValueError(f"{what}: no board is on the table (a 'board' event comes first)")
    return b


def _facts(b: BoardAtTable, **more: Any) -> dict[str, Any]:
    return b.where() | more


def _cards(cards: list[Card] | tuple[Card, ...]) -> str:
    names = [f"the {c.name}" for c in cards[:4]]
    more = f" and {len(cards) - 4} more" if len(cards) > 4 else ""
    if len(names) == 1:
        return names[0] + more
    return ", ".join(names[:-1]) + (" and " if not more else ", ") + names[-1] + more


def _disagree(named: tuple[Card, ...], placed: set[Card], unseen: tuple[Card, ...]) -> str:
    """Why a shoe's list of the cards not placed is not the table's: cards it names that the table saw
    placed, and cards the table never saw placed that it leaves out."""
    bits = []
    seen = [x for x in full_pack() if x in named and x in placed]
    if seen:
        bits.append(f"the shoe named {_cards(seen)} missing, which the table saw placed")
    left = [x for x in unseen if x not in named]
    if left:
        bits.append(f"it did not name {_cards(left)}, which the table never saw placed")
    return "; ".join(bits)


def _start_board_deal(s: TableState, b: BoardAtTable) -> None:
    """A physical board: its four hands are in the pockets, so the deal is there and its auction begins,
    the dealer first. The hands held are not known: the record says what they should be, not what they
    are (a misboarded board would make a legal discard look like a revoke), so revokes are seen at the
    card only once dummy's hand is spread, as at a table that did not see the deal."""
    s.deals_started += 1
    dealer = b.record.dealer
    s.deal = DealState(number=s.deals_started, dealer=dealer, pack=f"board {b.number}", in_turn=True, cut=True,
                       expected=dealer)
    s.deal.ended = True
    s.claims.clear()
    s.shuffles = []
    s.cut_done = False
    s.phase = Phase.AUCTION
    s.next_dealer = dealer
    bh.start(s)
    b.deal = s.deal.number


def _score_words(contract: str, declarer: str | None, tricks: int, score: int) -> str:
    if contract == "Pass":
        return "passed out, no score"
    side = "North-South" if score >= 0 else "East-West"
    return f"{contract} by {SEAT_NAMES[Seat(declarer)] if declarer else '?'}, {tricks} tricks: {side} " \
           f"{'+' if score else ''}{abs(score)}"


def register(reg: Registry, *, before_play: bool) -> None:
    """Register the clauses that come before the play's (``before_play``) or after the result's."""
    if before_play:
        _register_board(reg)
    else:
        _register_end(reg)


def _register_board(reg: Registry) -> None:
    @reg.clause("DB-2", "the board (law 2)", "board")
    def board(c: Clause, s: TableState, e: BoardPlaced) -> None:
        """The board on the table: its number gives the dealer and the vulnerability."""
        old = board_of(s)
        h = bh.hand(s)
        called = h is not None and bool(h.auction.calls) and old is not None and old.deal == s.deals_started
        if old is not None and (old.started or called) and not old.done and not (s.deal is not None and s.deal.void):
            raise ValueError(f"board {e.board}: {old.place()} is still in play: its result is not confirmed "
                             "(one player of each side confirms it) and the director has not cancelled it")
        if s.phase is Phase.DEALING and s.deal is not None and not s.deal.void and not s.deal.ended:
            raise ValueError(f"board {e.board}: the shoe is dealing a board; wait for its end")
        record = Board.numbered(e.board, Deal.from_pbn(e.deal))
        b = BoardAtTable(record, e.how, e.section, e.table, e.round, e.ns, e.ew)
        b.played = RecordCheck(record)
        s.game_state[KEY] = b
        s.next_dealer = record.dealer
        if e.how == "board":
            _start_board_deal(s, b)
        else:
            b.dealt = RecordCheck(record)
            if s.phase in (Phase.AUCTION, Phase.PLAY):
                s.phase = Phase.SHUFFLE       # a board of the shoe's starts when the shoe deals it

    @reg.clause("DB-2", "the board (law 2)", "board_abandoned")
    def abandoned(c: Clause, s: TableState, e: BoardAbandoned) -> None:
        """The session holds the result of the board on the table, which this table has not confirmed (the
        director scored it): its play here ends, so a call or card made after this is not taken for it."""
        b = _need(s, "board_abandoned")
        if b.number != e.board or e.round is not None and b.round != e.round:
            named = f"board {e.board}" + (f" of round {e.round}" if e.round is not None else "")
            raise ValueError(f"board_abandoned: {named} is not the board on the table ({b.place()})")
        if b.done:
            raise ValueError(f"board_abandoned: {b.place()} is over already (its result confirmed by both "
                             "sides, or its play cancelled)")
        b.cancelled = b.abandoned = True
        if s.deal is not None and b.deal == s.deal.number:
            s.deal.void = True                # its calls and cards are no longer the table's to rule on
        s.claims.clear()
        if s.phase in (Phase.DEALING, Phase.AUCTION, Phase.PLAY, Phase.SCORING):
            s.phase = Phase.SHUFFLE           # between boards: the next board is placed, or none (sit-out)

    @reg.clause("DB-6", "the deal from the record (law 6)", "deal_start", "card_dealt")
    def from_record(c: Clause, s: TableState, e: object) -> Ruling | None:
        """Each card the shoe puts in a pocket is checked against the record; one the record gives to
        another seat means the board is remade from its record."""
        b = _need(s, "deal_start" if not isinstance(e, CardDealt) else "card_dealt")
        if b.how != "shoe" or b.dealt is None:
            raise ValueError(f"{b.place()} is a physical board: its cards are not dealt at the table")
        if not isinstance(e, CardDealt):
            if isinstance(e, DealStarted) and e.dealer is not b.record.dealer:
                raise ValueError(f"deal_start: {b.place()} is dealt by {SEAT_NAMES[b.record.dealer]} (its number "
                                 f"says so, DB-2), not {SEAT_NAMES[e.dealer]}")
            b.deal = s.deals_started + 1
            b.dealt = RecordCheck(b.record)
            b.short = ()
            b.pockets_pack = None
            return None
        pocket = SEAT_NAMES[e.seat]
        if e.card is None or e.card in b.dealt.seen:     # PROTOCOL.md 7.2, check 2: the pockets are not known
            what = f"a card with no code read in {pocket}'s pocket" if e.card is None else \
                f"the {e.card.name} in {pocket}'s pocket a second time (placed in " \
                f"{SEAT_NAMES[b.dealt.seen[e.card]]}'s already)"
            if e.card is not None:
                b.dealt.see(e.seat, e.card)
            return bh.rule("DB-6", f"{_LAW}, law 6", Remedy.REDEAL, f"Board {b.number}: the shoe reported placing "
                           f"{what}: which cards are in its pockets is not known. The four pockets are emptied and "
                           "the board is dealt again from a whole pack.", dealer=b.record.dealer,
                           extra=_facts(b, card=e.card.code if e.card is not None else None, pocket=e.seat.value))
        if e.pack is not None and b.pockets_pack is not None and e.pack != b.pockets_pack:
            b.dealt.see(e.seat, e.card)
            return bh.rule("DB-6", f"{_LAW}, law 6", Remedy.REDEAL, f"Board {b.number}: the shoe reported placing "
                           f"the {e.card.name} of pack {e.pack} in {pocket}'s pocket, where the cards are of pack "
                           f"{b.pockets_pack}: which cards are in its pockets is not known. The four pockets are "
                           "emptied and the board is dealt again from a whole pack.", dealer=b.record.dealer,
                           extra=_facts(b, card=e.card.code, pocket=e.seat.value, pack=e.pack,
                                        pockets_pack=b.pockets_pack))
        b.pockets_pack = b.pockets_pack or e.pack
        foul = b.dealt.see(e.seat, e.card)
        if foul is None:
            return None
        return c.rule(Remedy.REDEAL, f"Board {b.number}: the shoe put the {e.card.name} in {SEAT_NAMES[e.seat]}'s "
                      f"pocket, but the record gives it to {SEAT_NAMES[foul.record_seat]}: the board is remade "
                      f"from its record.", dealer=b.record.dealer,
                      extra=_facts(b, card=e.card.code, pocket=e.seat.value, record_seat=foul.record_seat.value))

    @reg.clause("DB-13", "a card not of the deal (law 13)", "deal_end")
    def left_in_shoe(c: Clause, s: TableState, e: DealEnded) -> Ruling | None:
        """The shoe placed all 52 cards, each where the record gives it, and still holds a card: the pack
        held one too many. That card is not of the deal and is removed; the board itself is right, so it
        stands (nothing to remake, unlike ``DB-6``), and the director is called to see the pack. Not the
        finish of a board ended short (``b.short``, still set: this clause comes before ``DB-14``'s, which
        clears it at ``deal_end``): the missing cards came from a pack put in the well (law 14A), and the
        rest of that pack is left there as it should be."""
        b, d = board_of(s), s.deal
        if b is None or b.how != "shoe" or d is None or e.lost or not e.left_in_shoe or d.cards_dealt < 52 \
                or b.short:
            return None
        return bh.rule(c.id, f"{_LAW}, law 13", Remedy.ATTENTION, f"Board {b.number}: its 52 cards are in their "
                       "pockets and a card is left in the shoe: the pack held a card too many. That card is not of "
                       "the deal and is removed (law 13): take it out of the shoe and look at it (a second copy of "
                       "a card, or another pack's card). The board stands; the director sees to the pack.",
                       extra=_facts(b, left_in_shoe=True))

    @reg.clause("DB-14", "a missing card (law 14)", "board_short", "deal_end")
    def short(c: Clause, s: TableState, e: BoardShort | DealEnded) -> Ruling | None:
        """The shoe stopped with cards not placed and no hand too long: they are found and put in the
        shoe's well before the auction, and the shoe finishes the board."""
        b = board_of(s)
        if b is None or b.how != "shoe":
            return None
        if isinstance(e, DealEnded):
            b.short = ()
            d = s.deal
            if d is None or d.cards_dealt >= 52:
                return None
            placed = {card for _, card in d.dealt if card is not None}
            missing = tuple(x for x in full_pack() if x not in placed)
        elif e.lost:        # the table's link, not the shoe: the cards it never heard of are in pockets
            b.short = ()
            seen = s.deal.cards_dealt if s.deal is not None else 0
            return bh.rule("DB-6", f"{_LAW}, law 6", Remedy.REDEAL, f"Board {b.number}: cards of the board were "
                           f"lost on the link from the shoe after the {seen} the table saw placed: which cards are "
                           "in its pockets is not known. The four pockets are emptied and the board is dealt again "
                           "from a whole pack.", dealer=b.record.dealer, extra=_facts(b, lost=True))
        elif e.missing is None:
            b.short = ()
            return bh.rule("DB-6", f"{_LAW}, law 6", Remedy.REDEAL, f"Board {b.number} is not whole and which "
                           "cards are in its pockets is not known (the shoe named no card missing): the four "
                           "pockets are emptied and the board is dealt again from a whole pack.",
                           dealer=b.record.dealer, extra=_facts(b))
        else:
            placed = {card for _, card in s.deal.dealt if card is not None} if s.deal is not None else set()
            unseen = tuple(x for x in full_pack() if x not in placed)
            if set(e.missing) != set(unseen):      # PROTOCOL.md 7.2, check 3: the shoe's word is not the pockets'
                b.short = ()
                return bh.rule("DB-6", f"{_LAW}, law 6", Remedy.REDEAL, f"Board {b.number} is not whole and which "
                               f"cards are in its pockets is not known ({_disagree(e.missing, placed, unseen)}): "
                               "the four pockets are emptied and the board is dealt again from a whole pack.",
                               dealer=b.record.dealer, extra=_facts(b, missing=[x.code for x in e.missing]))
            missing = b.short = e.missing
            b.pockets_pack = None   # the finish is a new attempt: its first card fixes its pack (law 14A: another pack)
        return c.rule(Remedy.ATTENTION, f"Board {b.number} is not whole: {_cards(list(missing))} "
                      f"{'is' if len(missing) == 1 else 'are'} not in the pockets and no hand is too long. They "
                      "are found (or taken from another pack of the same back) and put in the shoe's well "
                      "before the auction; the shoe finishes the board.",
                      extra=_facts(b, missing=[x.code for x in missing]))

    @reg.clause("DB-13", "a hand with the wrong number of cards (law 13)", "hand_count")
    def count(c: Clause, s: TableState, e: HandCounted) -> Ruling | None:
        """A player counts his pocket's cards before looking: other than thirteen, the director puts the
        board right before anyone holding a wrong hand calls."""
        b = board_of(s)
        if b is None or e.count == 13:
            return None
        return c.rule(Remedy.ATTENTION, f"{SEAT_NAMES[e.seat]} counts {e.count} cards in {b.place()}: a hand "
                      "must hold thirteen. The director puts the board right before anyone holding a wrong "
                      "hand has called; found later, he may let the auction stand and adjust afterwards.",
                      seat=e.seat, extra=_facts(b, count=e.count))

    @reg.clause("DB-87", "a card played against the record (laws 15 and 87)", "card_played")
    def against_record(c: Clause, s: TableState, e: CardPlayed) -> Ruling | None:
        """Every card played is checked against the board's record; the first the record gives to
        another seat is ruled at that card, and the director decides what it is."""
        b = board_of(s)
        h = bh.hand(s)
        if b is None or b.played is None or h is None or h.play is None or h.play.ended or \
                h.play.claim_state is not None or e.card in h.play.played_by:
            return None                       # the play's clauses say what is wrong with such a card
        foul = b.played.see(e.seat, e.card)
        if foul is None:
            return None
        foul = b.played.foul = replace(foul, trick=h.play.trick_number)
        h.play.forget_hands()                 # the record no longer says what is held
        h.known = None
        return _foul_ruling(c, b, foul)

    @reg.clause("DB-15", "the director's decision on a card against the record (laws 15 and 87)", "foul_ruled")
    def decided(c: Clause, s: TableState, e: FoulRuled) -> Ruling:
        """The director's decision: a fouled board played on and scored in its own group, or the wrong
        board, whose play is cancelled."""
        b = _need(s, "foul_ruled")
        foul = b.played.foul if b.played is not None else None
        if foul is None:
            raise ValueError(f"foul_ruled: no card of {b.place()} has been played against its record")
        if b.decision is not None:
            raise ValueError(f"foul_ruled: the director has decided on {b.place()} already ({b.decision})")
        b.decision = e.decision
        facts = _facts(b, decision=e.decision, card=foul.card.code, played_by=foul.seen_at.value,
                       record_seat=foul.record_seat.value, trick=foul.trick, group_boundary=True)
        if e.decision == "fouled":
            return bh.rule("DB-87", f"{_LAW}, law 87", Remedy.DEAL_STANDS, f"The director rules {b.place()} "
                           "fouled: play goes on with the cards as they are held, and the result is scored in a "
                           "group of its own from this table and round on.", extra=facts)
        b.cancelled = True
        return bh.rule("DB-15", f"{_LAW}, law 15", Remedy.REDEAL, f"The director rules that the cards on "
                       f"{b.place()} are another board's: this play is cancelled, and board {b.number} is "
                       "played from its own cards.", dealer=b.record.dealer, extra=facts)


def _foul_ruling(c: Clause, b: BoardAtTable, foul: Foul) -> Ruling:
    seats = " and ".join(SEAT_NAMES[x] for x in foul.seats)
    return c.rule(Remedy.ATTENTION, f"{foul.words} ({b.place()}, trick {foul.trick}): the hands of {seats} "
                  "differ from the record. A fouled board, two hands swapped, the board turned round or another "
                  "board: the director is called and decides.",
                  extra=_facts(b, card=foul.card.code, played_by=foul.seen_at.value,
                               record_seat=foul.record_seat.value, trick=foul.trick,
                               seats=[x.value for x in foul.seats], options=["fouled", "wrong_board"]))


def _register_end(reg: Registry) -> None:
    @reg.clause("DB-87", "a revoke's correction against the record (laws 62 and 87)", "correct")
    def corrected(c: Clause, s: TableState, e: RevokeCorrected) -> Ruling | None:
        """The card a revoke's correction puts in the trick (after the play's clauses took it) is a card
        played from that seat: it is checked against the record like any other, so that a board whose
        revoke was corrected can still be verified card by card (``DB-7``)."""
        b = board_of(s)
        h = bh.hand(s)
        if b is None or b.played is None or b.cancelled or e.card in b.played.seen:
            return None
        foul = b.played.see(e.seat, e.card)
        if foul is None:
            return None
        foul = b.played.foul = replace(foul, trick=h.play.trick_number if h is not None and h.play else 0)
        if h is not None and h.play is not None:
            h.play.forget_hands()
            h.known = None
        return _foul_ruling(c, b, foul)

    @reg.clause("DB-7", "each hand back to its own pocket (law 7)", "play_end", "result")
    def verify(c: Clause, s: TableState, e: PlayEnded | ResultRecorded) -> Ruling | None:
        """When play ends, the four hands as played are checked against the record. A typed result ends
        play too: during play the engine ends it first (``play_end``); before the opening lead no play
        began, and the result is what ends the board, so it is checked here (no card seen: not verified)."""
        b = board_of(s)
        if b is None or b.played is None or b.verified is not None or b.cancelled or b.deal != (
                s.deal.number if s.deal else -1):
            return None
        if isinstance(e, ResultRecorded) and not bh.in_play(s) and (e.declarer is None or e.contract is None):
            return None   # the score refuses it (no auction recorded to name the contract): nothing is checked
        check = b.played
        b.verified = check.verified()
        seen = len(check.seen)
        if b.verified:
            why = "all 52 cards were played from the seats its record gives them: verified"
        elif check.wrong:
            why = f"{check.summary()}; it is not verified"
        else:
            why = f"{seen} cards were seen, all from their record's seats, {52 - seen} not played; it is not " \
                  "verified card by card"
        return c.rule(Remedy.CHECKED, f"{b.place()[0].upper()}{b.place()[1:]}: {why}.",
                      extra=_facts(b, verified=b.verified, seen=seen, wrong=check.wrong,
                                   forms=list(check.forms()), record=b.record.fingerprint))

    @reg.clause("DB-77", "the duplicate score (law 77)", "play_end", "correct", "result", "call", "confirm",
                "demand")
    def score(c: Clause, s: TableState, e: object) -> Ruling | None:
        """The board's duplicate score from the result the cards give; one player of each side confirms it.
        A revoke found once play ended (a ``revoke`` demand, ``duplicate_play``) scores the board again."""
        b = board_of(s)
        if isinstance(e, ResultConfirmed):
            return _confirm(c, s, _need(s, "confirm"), e)
        if isinstance(e, DemandMade) and e.what != "revoke":
            return None
        if b is None or b.result is not None or b.cancelled or b.deal != (s.deal.number if s.deal else -1):
            return None
        h = bh.hand(s)
        if isinstance(e, CallMade):
            if h is None or h.scored != {"passed_out": True}:
                return None
            b.result = {"contract": "Pass", "declarer": None, "tricks": 0, "score": 0, "lead": None,
                        "auction": [x.call.pbn for x in h.auction.calls], "play": []}
            b.verified = False
        else:
            args = bridge_result.score_args(s, e if isinstance(e, ResultRecorded) else None)
            if args is None:
                return None
            declarer, contract, tricks, _honours = args
            points = board_score(contract, declarer, tricks, b.record.vulnerability)
            plays = [(st, cd) for t in ([*h.play.tricks, h.play.current] if h and h.play else [])
                     for st, cd in t.cards.items()]
            b.result = {"contract": contract.code, "declarer": declarer.value, "tricks": tricks, "score": points,
                        "lead": plays[0][1].code if plays else None,
                        "auction": [x.call.pbn for x in h.auction.calls] if h else [],
                        "play": [cd.code for _, cd in plays]}
        r = b.result
        return c.rule(Remedy.SCORE, f"{b.place()[0].upper()}{b.place()[1:]}: "
                      f"{_score_words(r['contract'], r['declarer'], r['tricks'], r['score'])}. One player of "
                      "each side confirms it.", extra=_facts(b, **{k: r[k] for k in ("contract", "declarer",
                                                                                      "tricks", "score", "lead")},
                                                            vulnerable=b.record.vulnerability.value))


def played_here(s: TableState) -> list[tuple[Any, ...]]:
    """``(section, round, board, record)`` of every board whose result this table has confirmed, in
    order; ``record`` its record's fingerprint, so next week's board 1 of round 1 is not taken for this
    week's (a state kept before the fingerprint was added holds ``(section, round, board)``)."""
    out: list[tuple[Any, ...]] = s.game_state.setdefault(PLAYED, [])
    return out


def _confirm(c: Clause, s: TableState, b: BoardAtTable, e: ResultConfirmed) -> Ruling | None:
    if b.result is None:
        raise ValueError(f"confirm: {b.place()} has no result yet to confirm")
    side = "ns" if e.seat.side is Side.NS else "ew"
    if b.done:
        raise ValueError(f"confirm: {b.place()}'s result is confirmed already")
    if side in b.confirmed:
        return None                             # the side has confirmed; a second press changes nothing
    b.confirmed[side] = e.seat.value
    if len(b.confirmed) < 2:
        return None
    played_here(s).append((b.section, b.round, b.number, b.record.fingerprint))
    r = b.result
    return c.rule(Remedy.SCORE, f"{b.place()[0].upper()}{b.place()[1:]}: {SEAT_NAMES[Seat(b.confirmed['ns'])]} "
                  f"and {SEAT_NAMES[Seat(b.confirmed['ew'])]} confirm "
                  f"{_score_words(r['contract'], r['declarer'], r['tricks'], r['score'])}.",
                  extra=_facts(b, confirmed=dict(b.confirmed), contract=r["contract"], declarer=r["declarer"],
                               tricks=r["tricks"], score=r["score"], lead=r["lead"], verified=bool(b.verified),
                               record=b.record.fingerprint, ns=b.ns, ew=b.ew, auction=list(r["auction"]),
                               play=list(r["play"]), foul=foul_facts(b)))


def foul_facts(b: BoardAtTable) -> dict[str, Any] | None:
    """The first card against the record as the session takes it (``docs/mqtt.md``), or None."""
    check = b.played
    foul = check.foul if check is not None else None
    if foul is None or check is None:
        return None
    return {"card": foul.card.code, "played_by": foul.seen_at.value, "record_seat": foul.record_seat.value,
            "trick": foul.trick, "seats": [x.value for x in check.differing()], "decision": b.decision}

