"""Euchre clauses for forming the table (laws 8-21), misdeals (41-45), play (62-71, 90) and scoring (1-7).

Revokes (laws 62-71), our reading: a player revokes when he fails to follow the suit led while holding a
card of it (the left bower counts as a trump). The revoke is established once the next trick is played
to; the penalty is scored when play ends, before the hand's own points (law 4), and equal numbers of
revokes by both sides cancel. A dealer who took up the trump card discarded one card: once a ``discard``
records it his hand is known like any other; while it is not seen, a revoke by him is called only when it
is certain whatever he discarded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from laws.cards import Seat, Side
from laws.events import (
    CandidateArrived,
    CardPlayed,
    CardsDrawn,
    DemandMade,
    HandCounted,
    PlayEnded,
    PlayerLeft,
    ResultRecorded,
)
from laws.games.base import Clause, Registry, seat_name, set_aside_dealt, side_players, side_text
from laws.games.euchre_hands import Plays, active, effective_suit, power, sits_out, tricks
from laws.rulings import Remedy, Ruling
from laws.state import DealState, Phase, TableState

HAND = 5


def setup(state: TableState) -> None:
    from laws.formation import EuchreDraw, EuchreRoster
    from laws.scoring.euchre import EuchreRubber
    state.game_state.update(score=EuchreRubber(), draw=EuchreDraw(), roster=EuchreRoster(), vacated={})


# -- misdeal (laws 41-45) ------------------------------------------------------------------------------

def misdeal_ruling(c: Clause, s: TableState, fault: str) -> Ruling:
    """The ruling for a misdeal, with the exceptions of laws 40 and 43-45.

    Whose deal it was decides whose loss it is: a deal out of turn by an adversary of the rightful dealer
    is not yet its dealer's (law 40: only once the trump card is turned), so a misdeal costs him nothing
    and the rightful dealer deals; a deal in the partner's turn, said so (``on_behalf_of``) or not, is law
    45's, and the deal goes to the adversary after the partner."""
    d = s.deal
    assert d is not None
    owner = d.rightful_dealer   # whose deal it is: the dealer's, his partner's, or (out of turn) another's
    if owner not in (d.dealer, d.dealer.partner):
        return Ruling(Remedy.MISDEAL, "Euchre, law 40", "EU-40", f"Misdeal ({fault}) by "
                      f"{seat_name(s, d.dealer)}, dealing in {seat_name(s, owner)}'s turn: a deal out of turn "
                      "becomes its dealer's only once the trump card is turned, so he had no deal to lose and "
                      f"{seat_name(s, owner)} deals (no claim to stop the deal is needed now).", dealer=owner,
                      seat=d.dealer)
    rightful = owner
    touches = [seat for seat, how in d.interruptions if how == "touched" and seat != d.dealer]
    if touches and touches[0].side is not rightful.side:
        return Ruling(Remedy.REDEAL, "Euchre, law 43", "EU-43", f"Misdeal ({fault}), but "
                      f"{seat_name(s, touches[0])} touched the cards before the dealer's partner, so "
                      f"{seat_name(s, rightful)} does not lose the deal and deals again.", dealer=rightful,
                      seat=touches[0])
    if touches:
        return Ruling(Remedy.MISDEAL, "Euchre, law 43", "EU-43", f"Misdeal ({fault}); the dealer's partner, "
                      f"{seat_name(s, touches[0])}, touched the cards first, so {seat_name(s, d.dealer)} "
                      f"loses the deal to {seat_name(s, rightful.left)} even though an adversary touched "
                      "them too." if len(set(touches)) > 1 else f"Misdeal ({fault}); the dealer's partner, "
                      f"{seat_name(s, touches[0])}, touched the cards, which does not save the deal: it "
                      f"passes to {seat_name(s, rightful.left)}.", dealer=rightful.left, seat=touches[0])
    for seat, how in d.interruptions:
        if how == "interrupted" and seat.side is not rightful.side and d.in_turn:
            # law 44 says the dealer "may" deal again: a right of his side, taken by a claim; unclaimed,
            # the misdeal costs the deal as usual (law 41, or law 45 when he dealt for his partner). The
            # interruption must be wrong: out of turn, "it is not his deal" was right, so no claim.
            after = rightful.left
            return Ruling(Remedy.CLAIM_OPTION, "Euchre, law 44", "EU-44", f"Misdeal ({fault}) after "
                          f"{seat_name(s, seat)} wrongly interrupted the dealer; {side_text(rightful.side)} "
                          f"may claim that {seat_name(s, rightful)} deal again, until the next deal starts; "
                          f"otherwise the deal passes to {seat_name(s, after)}.",
                          dealer=rightful, seat=seat, side=rightful.side,
                          extra={"until": "deal_start", "otherwise": after.value,
                                 "lapse": f"No new deal by {seat_name(s, rightful)} was claimed after the "
                                          f"misdeal ({fault}), so the deal passed to {seat_name(s, after)}."})
    if owner != d.dealer:
        return Ruling(Remedy.MISDEAL, "Euchre, law 45", "EU-45", f"Misdeal ({fault}) by "
                      f"{seat_name(s, d.dealer)} dealing in his partner's turn; the deal passes to the next "
                      f"opponent in rotation, {seat_name(s, rightful.left)}.", dealer=rightful.left,
                      seat=d.dealer)
    return Ruling(Remedy.MISDEAL, "Euchre, law 41", "EU-41", f"Misdeal: {fault}; under law 41 "
                  f"{seat_name(s, d.dealer)} loses the deal to {seat_name(s, d.dealer.left)}.",
                  dealer=d.dealer.left, seat=d.dealer)


# -- tricks and revokes --------------------------------------------------------------------------------

def _certain_revoke(d: DealState, plays: Plays, seat: Seat, led: str, before: int) -> bool:
    """Did ``seat`` hold a card of suit ``led`` when it played the ``before``-th card of ``plays``?"""
    trump = d.trump_suit
    played = [card for st, card in plays[:before] if st == seat]
    held = [card for card in d.hands[seat] if card not in played]
    need = 1
    took_up = (seat == d.dealer and d.trump_card is not None and trump == d.trump_card.suit)
    if took_up and d.trump_card is not None:
        if d.trump_card not in played:  # the turn-up he has played is no longer in his hand
            held.append(d.trump_card)
        if d.discarded is not None:  # the discard was recorded (law 86): his hand is known
            held = [card for card in held if card != d.discarded]
        else:
            need = 2  # one unknown card was discarded
    return sum(1 for card in held if effective_suit(card, trump) == led) >= need


def revokes(d: DealState, plays: Plays) -> list[tuple[Seat, int, bool]]:
    """Each revoke in ``plays`` as (seat, trick number from 1, established)."""
    out: list[tuple[Seat, int, bool]] = []
    groups = tricks(d, plays)
    index = 0
    for n, trick in enumerate(groups, start=1):
        led = effective_suit(trick[0][1], d.trump_suit)
        for k, (seat, card) in enumerate(trick):
            if k and effective_suit(card, d.trump_suit) != led and _certain_revoke(d, plays, seat, led, index + k):
                out.append((seat, n, n < len(groups)))
        index += len(trick)
    return out


# -- registration --------------------------------------------------------------------------------------

def register_forming(reg: Registry) -> None:
    """Laws 8-21: the draw for the table, partners and deal; cutting out and entry."""

    @reg.clause("EU-11", "laws 8-14 (cutting for the table)", "draw")
    def draw(c: Clause, s: TableState, e: CardsDrawn) -> list[Ruling]:
        """The draw: knave highest; the four highest play, cut again for partners; ties by laws 13-14.

        The draw comes before the pack goes into the shoe: a table formed after a deal was dealt (trump
        being made, the hand played or awaiting its result) does not play the old table's hand, which is
        set aside unscored and dealt again by the new dealer, as at a rubber bridge table
        (``set_aside_dealt``).

        A draw that forms the table while a rubber is under way ends that rubber first, unfinished
        (``EuchreRubber.unfinished``: nobody wins it or scores for it), naming each side's players and
        what they had: the score is theirs, and without this the new partnerships took it over by seat.
        They start a rubber of their own from 0."""
        from laws.formation import EuchreDraw, EuchreRoster
        roster: EuchreRoster = s.game_state["roster"]
        if roster.cut_pending:  # cutting in or out of the table (laws 15, 17)
            before = list(roster.players)
            pending: list[Ruling] = follow_roster(s, before, roster.cut(e.cuts))
            return _close_unfinished(s, set_aside_dealt(s, pending))
        drawing: EuchreDraw = s.game_state["draw"]
        # law 17: at a new table, those who have played at another table come after the fresh ones
        elsewhere = [cand.name for cand in roster.queue if not cand.fresh] if not roster.players else []
        out = drawing.cut(e.cuts, exposed=e.exposed or {}, seats=e.seats, played_elsewhere=elsewhere)
        for r in out:
            if r.remedy is not Remedy.FORMATION:
                continue
            s.game_state["draw"] = EuchreDraw()
            players = [str(p) for p in r.extra.get("players", [])]
            if roster.players:
                roster.redrawn(players)  # the same four cut again for partners, or a newcomer among them
                continue
            if set(players) <= {c.name for c in roster.queue}:
                roster.seat(players)
            else:
                fresh = EuchreRoster(players)
                fresh.queue = [c for c in roster.queue if c.name not in players]
                s.game_state["roster"] = fresh
        return _close_unfinished(s, set_aside_dealt(s, out))

    @reg.clause("EU-16", "laws 15-21 (entry and cutting out)", "candidate", "leave")
    def roster_change(c: Clause, s: TableState, e: CandidateArrived | PlayerLeft) -> list[Ruling]:
        """Candidates declare entry before any cut; substitutes need the consent of the other three."""
        roster = s.game_state["roster"]
        before = list(roster.players)
        if isinstance(e, CandidateArrived):
            out: list[Ruling] = roster.declare(e.name, fresh=e.fresh)
            return follow_roster(s, before, out)
        left: list[Ruling] = roster.leave(e.name, substitute=e.substitute, consent=e.consent)
        return follow_roster(s, before, left)


def register_play(reg: Registry) -> None:
    """Laws 62-71 (revoke), 90 (wrong count in play) and 1-7 (scoring)."""

    @reg.clause("EU-62", "laws 62-64, 71 and 4 (revoke, scored first)", "card_played", "play_end")
    def revoke(c: Clause, s: TableState, e: CardPlayed | PlayEnded) -> list[Ruling]:
        """A revoke, once established, costs the offending side three points (five against a lone hand).

        Judged only once trump is known to have been made (``trump_made``): before that the trump suit
        may not be the turn-up's (it can be named in the second round) and a lone hand plays three to a
        trick, so following suit cannot be told and nothing is ruled."""
        d = s.deal
        if d is None or d.void or d.makers is None:
            return []
        if isinstance(e, CardPlayed) and d.set_aside:
            return []  # ruled an exposed card (laws 46-47), not a play
        if isinstance(e, CardPlayed):
            before = {(seat, n) for seat, n, est in revokes(d, d.plays) if est}
            after = revokes(d, [*d.plays, (e.seat, e.card)])
            now = [(seat, n) for seat, n, est in after if est and (seat, n) not in before]
            return [Ruling(Remedy.ATTENTION, "Euchre, law 64", "EU-64", f"{seat_name(s, seat)} did not "
                           f"follow suit in trick {n} while holding a card of the suit led; the revoke is now "
                           "established (the next trick is played to) and is scored when play ends.",
                           seat=seat, extra={"trick": n}) for seat, n in now]
        found = revokes(d, d.plays) + [(seat, 0, True) for seat in d.call_failures]  # law 54: a revoke
        by_side = {side: [r for r in found if r[0].side is side] for side in Side}
        cancel = min(len(v) for v in by_side.values())
        out: list[Ruling] = []
        if cancel:
            out.append(Ruling(Remedy.ATTENTION, "Euchre, law 71", "EU-71", f"Both sides revoked {cancel} "
                              "time(s); equal revokes cancel.", extra={"cancelled": cancel}))
        from laws.scoring.euchre import EuchreRubber
        score: EuchreRubber = s.game_state["score"]
        for side, items in by_side.items():
            for _ in items[cancel:]:
                # law 63: five in the case of a lone hand, whichever side revoked
                out.extend(settle(s, score.revoke(side, against_lone=d.alone_seat is not None,
                                                    players=side_players(s))))
                score = s.game_state["score"]
        return out

    @reg.clause("EU-66", "laws 66-68, 70 (revoke claims)", "demand")
    def revoke_claim(c: Clause, s: TableState, e: DemandMade) -> Ruling | None:
        """A side alleging a revoke may examine every trick (66); the record cannot be jumbled (67); the
        next cut ends the time for claims (68); the side that revoked may play the hand out (70).

        In a lone hand the partner who sits out takes no part while the hand is played, so his revoke
        claim then is refused; once it is over, alleging a revoke and searching the tricks are his side's
        rights and his too: the penalty is his side's score, and the hand he sat out is finished. Playing
        the hand out (70) is chosen during the hand, so it stays the lone player's."""
        if e.what not in ("revoke", "search_tricks", "play_out"):
            return None
        d = s.deal
        who = seat_name(s, e.seat)
        if e.what == "play_out":
            if d is not None and d.alone_seat is not None and e.seat == sits_out(d):   # EU-lone-partner
                return Ruling(Remedy.DEAL_STANDS, "Euchre, law 70", "EU-70", f"{who} sits out for "
                              f"{seat_name(s, d.alone_seat)}'s lone hand and takes no part in it; whether to "
                              "play it out is the lone player's choice.", seat=e.seat)
            revoked = d is not None and not d.void and (
                any(st.side is e.seat.side for st, _, _ in revokes(d, d.plays)) or
                any(st.side is e.seat.side for st in d.call_failures))
            if not revoked:   # "the side that revoked may insist": nobody else
                return Ruling(Remedy.DEAL_STANDS, "Euchre, law 70", "EU-70", f"{who} asks to play the hand out, "
                              f"but {side_text(e.seat.side)} have not revoked; that choice is the revoking "
                              "side's.", seat=e.seat)
            return Ruling(Remedy.ATTENTION, "Euchre, law 70", "EU-70", f"{who}'s side plays the hand to the "
                          "end; revokes are scored when play ends.", seat=e.seat)
        asks = f"{who} alleged a revoke" if e.what == "revoke" else f"{who} asks to examine the tricks"
        if d is None:
            return c.rule(Remedy.ATTENTION, f"{asks}, but no deal has been dealt yet: there is no hand to "
                          "claim a revoke in.", seat=e.seat)
        if d.void:   # say what happened to the deal: no cut need have followed it (a misdeal, a dead hand)
            by = f" by the ruling under {d.void_by}" if d.void_by else " by a ruling"
            return c.rule(Remedy.ATTENTION, f"{asks}, but the last deal was set aside{by} and is neither "
                          "played out nor scored: there is no hand to claim a revoke in.", seat=e.seat)
        if (s.phase in (Phase.CUT, Phase.DEALING) and d.ended) or s.phase is Phase.CUT:
            return Ruling(Remedy.DEAL_STANDS, "Euchre, law 68", "EU-68", f"{asks} after the pack was cut for "
                          "the next deal; that is too late, as the cut ends the time for revoke claims.",
                          seat=e.seat)
        if s.phase in (Phase.DEALING, Phase.AUCTION) and not d.plays:
            # a deal under way with no card played: the claim is about the hand before it, whose time the
            # cut for this deal ended (law 68; a deal from an uncut pack ends it as surely)
            if d.number > 1:
                return Ruling(Remedy.DEAL_STANDS, "Euchre, law 68", "EU-68", f"{asks} after the next deal "
                              "began; that is too late, as the cut for the next deal ends the time for revoke "
                              "claims (a deal from an uncut pack ends it as well).", seat=e.seat)
            return c.rule(Remedy.ATTENTION, f"{asks}, but no card of this deal has been played yet: there is no "
                          "hand to claim a revoke in.", seat=e.seat)
        if e.what == "revoke" and s.phase in (Phase.AUCTION, Phase.PLAY) and d.alone_seat is not None and \
                e.seat == sits_out(d):   # EU-lone-partner: no part in the hand while it is played
            return Ruling(Remedy.DEAL_STANDS, "Euchre, law 66", "EU-66", f"{asks}, but he sits out for "
                          f"{seat_name(s, d.alone_seat)}'s lone hand and takes no part in it while it is played; "
                          "once the hand is over he may allege one for his side.", seat=e.seat)
        groups = tricks(d, d.plays)
        if e.what == "search_tricks" and s.phase in (Phase.AUCTION, Phase.PLAY):
            return c.rule(Remedy.ATTENTION, f"{who} asks to examine the tricks; they may be examined once the "
                          "hand is over (law 66), so play goes on.", seat=e.seat)
        if e.what == "search_tricks":
            text = "; ".join(f"trick {n}: " + ", ".join(f"{st.value} {x.code}" for st, x in g)
                             for n, g in enumerate(groups, start=1)) or "no card has been played"
            return c.rule(Remedy.ATTENTION, f"{who} examines the tricks as recorded: {text}.", seat=e.seat,
                          extra={"tricks": [[[st.value, x.code] for st, x in g] for g in groups]})
        found = [(st, n) for st, n, _ in revokes(d, d.plays) if st.side is not e.seat.side]
        if not found:
            return c.rule(Remedy.ATTENTION, f"{who} alleges a revoke; the record of every card played shows "
                          "none by the other side.", seat=e.seat)
        where = ", ".join(f"{seat_name(s, st)} in trick {n}" for st, n in found)
        return Ruling(Remedy.ATTENTION, "Euchre, law 67", "EU-67", f"{who} alleges a revoke, and the record "
                      f"shows it: {where}. Mixing the cards cannot undo it; it is scored when play ends.",
                      seat=e.seat, extra={"revokes": [[st.value, n] for st, n in found]})

    @reg.clause("EU-88", "law 88", "play_end")
    def trump_card_kept(c: Clause, s: TableState, e: PlayEnded) -> Ruling | None:
        """The dealer may not discard the trump card: his one unplayed card at the end is his discard."""
        d = s.deal
        if d is None or d.void or d.trump_card is None or d.trump_suit != d.trump_card.suit or \
                d.makers is None or d.played[d.dealer] < HAND:
            return None
        if d.alone_seat is not None and d.alone_seat == d.dealer.partner:
            return None  # the dealer sits out
        if any(x == d.trump_card for st, x in d.plays if st == d.dealer):
            return None
        return c.rule(Remedy.ATTENTION, f"{seat_name(s, d.dealer)} played five cards without the "
                      f"{d.trump_card.name}, so he discarded the trump card, which the dealer may not do; the "
                      "law gives no penalty of its own and the director decides.", seat=d.dealer)

    @reg.clause("EU-90", "law 90", "hand_count")
    def wrong_count(c: Clause, s: TableState, e: HandCounted) -> list[Ruling]:
        """A wrong number of cards found in play: the deal holds, the offending side forfeits points."""
        d = s.deal
        if d is None or d.void:
            return []
        expected = d.expected_in_hand(e.seat)
        if d.alone_seat is not None and e.seat == d.alone_seat.partner:
            return []
        if e.count == expected:
            return []
        if e.seat == d.dealer and d.taken_up and not d.discards and not d.played[e.seat] and e.count == expected + 1:
            return []   # the turned card taken up, the discard not yet made: six is lawful until it is (86, 87)
        if d.trump_card is None and s.phase in (Phase.DEALING, Phase.AUCTION):
            fault = f"{seat_name(s, e.seat)} holds {e.count} cards, not {HAND}"
            return [misdeal_ruling(c, s, fault)]
        from laws.scoring.euchre import EuchreRubber
        score: EuchreRubber = s.game_state["score"]
        lone = d.alone_seat is not None  # law 90: "if a lone hand is played", whoever holds the count
        head = c.rule(Remedy.DEAL_STANDS, f"{seat_name(s, e.seat)} holds {e.count} cards where {expected} "
                      f"are expected, found after the trump card was turned: the deal holds and "
                      f"{side_text(e.seat.side)} score nothing on this hand.", seat=e.seat,
                      side=e.seat.side)
        return [head, *settle(s, score.wrong_count(e.seat.side, lone=lone, players=side_players(s)))]

    @reg.clause("EU-5", "law 5", "trump_turned")
    def score_window(c: Clause, s: TableState, e: object) -> None:
        """A score may be corrected until the next trump card is turned; turning one closes the window."""
        s.game_state["score"].trump_turned()

    @reg.clause("EU-result-check", "laws 2-3 (the result checked against the hand recorded)", "result")
    def result_check(c: Clause, s: TableState, e: ResultRecorded) -> Ruling | None:
        """A typed result that differs from the hand the table recorded (the trump made, alone or not, and
        five tricks played) calls the director; the recorded figures are the ones scored, as the revokes
        of the hand were judged on them."""
        entered, got = compared(s, e)
        diff = [k for k in ("makers", "alone", "tricks") if k in entered and k in got and entered[k] != got[k]]
        if not diff:
            return None
        said = "; ".join(f"{_shown(k, entered[k])}, where the table recorded {_shown(k, got[k])}" for k in diff)
        return c.rule(Remedy.ATTENTION, f"The result entered differs from the hand the table recorded: {said}. "
                      "The recorded figures are scored; the director checks the table.",
                      extra={"entered": entered, "derived": got, "differs": diff})

    @reg.clause("EU-2", "laws 1-7 (scoring)", "result")
    def result(c: Clause, s: TableState, e: ResultRecorded) -> list[Ruling]:
        """Points for the hand, games (a double game when the losers have nothing), and the rubber, from
        the recorded figures where the table has them (``EU-result-check``), else the typed ones."""
        from laws.scoring.euchre import EuchreRubber
        entered, got = compared(s, e)
        figures = {**entered, **got}
        if "makers" not in figures:
            raise ValueError("a euchre result needs the makers' side")
        score: EuchreRubber = s.game_state["score"]
        return settle(s, score.record(Side(figures["makers"]), bool(figures["alone"]), int(figures["tricks"]),
                                      players=side_players(s)))   # rubber_won names them


def _shown(field: str, value: Any) -> str:
    """One figure of a result in words: ``makers NS``, ``a lone hand``, ``3 tricks to the makers``."""
    if field == "alone":
        return "a lone hand" if value else "a partners' hand"
    if field == "tricks":
        return f"{value} trick{'s' if value != 1 else ''} to the makers"
    return f"makers {side_text(Side(value))}"


def compared(s: TableState, e: ResultRecorded) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result as typed (``makers`` only when given) and as the table recorded it: ``makers`` and
    ``alone`` once trump was made, ``tricks`` (the makers') once five tricks were played."""
    entered: dict[str, Any] = {"tricks": e.tricks, "alone": e.alone}
    if e.makers is not None:
        entered["makers"] = e.makers.value
    d = s.deal
    got: dict[str, Any] = {}
    if d is None or d.void or d.makers is None or d.trump_suit is None:
        return entered, got
    got = {"makers": d.makers.value, "alone": d.alone_seat is not None}
    won = tricks_taken(d)
    if won is not None:
        got["tricks"] = won[d.makers]
    return entered, got


def tricks_taken(d: DealState) -> dict[Side, int] | None:
    """Tricks each side took, from the cards played (None: five tricks were not played out)."""
    trump = d.trump_suit
    if trump is None:
        return None
    size = len(active(d))
    groups = [g for g in tricks(d, d.plays) if len(g) == size]
    if len(groups) != HAND:
        return None
    won = dict.fromkeys(Side, 0)
    for g in groups:
        led = effective_suit(g[0][1], trump)
        won[max(g, key=lambda p: power(p[1], trump, led))[0].side] += 1
    return won


def settle(s: TableState, rulings: list[Ruling]) -> list[Ruling]:
    """Points were scored (a hand's result, or penalty points under laws 50, 63 or 90): when they won the
    rubber, the next rubber starts at once, and the roster says who plays it."""
    from laws.scoring.euchre import EuchreRubber
    if any(r.remedy is Remedy.RUBBER_WON for r in rulings):
        s.game_state["score"] = EuchreRubber()
        roster = s.game_state["roster"]
        before = list(roster.players)
        rulings.extend(follow_roster(s, before, roster.rubber_ended()))
    return rulings


def _close_unfinished(s: TableState, out: list[Ruling]) -> list[Ruling]:
    """A draw's rulings, preceded by the unfinished rubber's ``rubber_won`` when the draw forms the table
    while a rubber is under way (``EU-11``). A refused draw, a cut that forms nothing yet, or a draw
    before anything of the rubber is scored closes nothing."""
    from laws.scoring.euchre import EuchreRubber
    score: EuchreRubber = s.game_state["score"]
    if not score.started or score.over or not any(r.remedy is Remedy.FORMATION for r in out):
        return out
    closed = score.unfinished(side_players(s))   # the seats the old draw gave: the new one has not yet
    s.game_state["score"] = EuchreRubber()
    s.game_state["vacated"] = {}                  # the new draw names every seat
    return closed + out


def follow_roster(s: TableState, before: Sequence[str | None], rulings: list[Ruling]) -> list[Ruling]:
    """The seats' names follow the roster (laws 15-21), as ``before`` -> the roster's players now.

    The names every ruling gives a seat (``seat_name``) and the players a ``rubber_won`` names come from
    the table's seats, which a draw sets; a change of the roster without a draw (a substitute sitting in,
    law 18; a candidate taking a leaver's seat or an empty one, law 19; the absent player back, or a
    newcomer in an out-goer's seat, at the end of a rubber, law 15) left the seat with the old name, so
    rulings named a player who had gone. Each roster place whose name changed passes its seat to the new
    name; a seat left empty loses its name until someone takes it (the seat is kept in ``vacated``).
    Each accepted ``entry`` for a player who now sits gets ``seat``, the seat he takes."""
    roster = s.game_state["roster"]
    vacated: dict[int, Seat] = s.game_state.setdefault("vacated", {})
    moved: dict[str, Seat] = {}
    for index, (old, new) in enumerate(zip(before, roster.players)):
        if old == new:
            continue
        seat = next((st for st, name in s.players.items() if name == old), None) if old is not None \
            else vacated.pop(index, None)
        if seat is None:
            continue   # no draw has seated the table: there are no seat names to follow
        if new is None:
            vacated[index] = seat
            del s.players[seat]
        else:
            s.players[seat] = new
            moved[new] = seat
    return [replace(r, seat=moved[r.extra["name"]]) if r.remedy is Remedy.ENTRY and r.seat is None
            and r.extra.get("accepted") and r.extra.get("name") in moved else r for r in rulings]


def snapshot(state: TableState) -> dict[str, Any]:
    """The score for display."""
    snap: dict[str, Any] = state.game_state["score"].snapshot()
    return snap
