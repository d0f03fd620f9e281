"""Protocol 1.2 on the host, sans-I/O: the DEAL_BOARD command and its checks, the session's marks on a
board's messages (which command a board answers, which board a card was placed for), and the board
follower (``BoardTracker``): every card checked against the record, the board whole only when all 52
are placed, the operator's words for each end. Runs against the reference firmware on its simulated
board (fake clock)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import (
    CANNOT_DEAL_BOARDS,
    BoardCardRejected,
    BoardDealt,
    BoardIncomplete,
    BoardMismatch,
    BoardRefused,
    BoardState,
    BoardTracker,
    CardPlaced,
    board_id_of,
    can_deal_boards,
    deal_board,
)
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.laws_map import to_law_event
from firmware_host.shoe.session import ShoeSession
from firmware_host.shoe.simhw import PhysCard
from laws.cards import SEATS, Card, Seat
from tests.shoe.fwkit import Bench

HELLO12 = m.Hello(0, 1, 2, 77, 0, 0x7F, 128, "t", "1.2.0")


def record(seed: int) -> tuple[Seat, ...]:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return tuple(seats)


def run_board(b: Bench, s: ShoeSession, trackers: list[BoardTracker], ms: int, t0: int = 0,
              seen: list | None = None) -> list:
    """Step the firmware and the host together, one millisecond at a time; what the trackers said
    (and, in ``seen``, every event the session gave)."""
    out_events: list = []
    for step in range(ms):
        now = (t0 + step) / 1000
        b.hw.step(b.clock.ms, b.shoe.dealing and not b.shoe.paused)
        b.shoe.poll()
        b.clock.ms += 1
        events, out = s.receive(b.port.take(), now)
        out += s.acknowledge(s.expected - 1)
        ev2, out2 = s.tick(now)
        if seen is not None:
            seen += events + ev2
        for ev in events + ev2:
            for t in trackers:
                out_events += t.feed(ev)
        b.port.inbox += out + out2
    return out_events


def send(b: Bench, s: ShoeSession, cmd: m.Command, now: float) -> m.Command:
    numbered, data = s.command(cmd, now)
    b.port.inbox += data
    return numbered


def host(b: Bench, session_id: int = 4) -> ShoeSession:
    s = ShoeSession(session_id=session_id, offline_after=100.0)
    b.port.inbox += s.connection_made(0.0)
    return s


# --- the command --------------------------------------------------------------------------------------


def test_deal_board_names_what_is_wrong() -> None:
    seats = record(1)
    with pytest.raises(ValueError, match="board 0: want a board number from 1 to 65535"):
        deal_board(0, seats)
    with pytest.raises(ValueError, match="board 3: a board gives 13 cards to each seat, this record gives North 14, East 12"):
        deal_board(3, _shifted(seats))
    with pytest.raises(ValueError, match="a record gives a seat to each of 52 cards, got 51"):
        deal_board(3, seats[:51])
    with pytest.raises(ValueError, match=r"board 3: card 2 \(king of spades\): 'X' is not a seat"):
        deal_board(3, (Seat.N, "X") + seats[2:])
    with pytest.raises(ValueError, match="pack 'B' is not a card code's pack id"):
        deal_board(3, seats, pack="B")
    with pytest.raises(ValueError, match="every card is placed already"):
        deal_board(3, seats, placed=PACK)
    with pytest.raises(ValueError, match="board_id -1 is not a number of 32 bits"):
        deal_board(3, seats, -1)
    with pytest.raises(ValueError, match="want its hex text"):
        deal_board(3, seats, "not-hex")
    cmd = deal_board(3, [s.value for s in seats], "66f31073" + "0" * 56, pack="B7", placed=[Card("A", "S")])
    assert cmd.board_id == 0x66F31073 and cmd.seats == seats and cmd.placed == {Card("A", "S")}


def _shifted(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """One East card given to North: North 14, East 12."""
    i = seats.index(Seat.E)
    return seats[:i] + (Seat.N,) + seats[i + 1:]


def test_board_id_of_takes_the_fingerprints_first_four_bytes() -> None:
    assert board_id_of("66f31073aa") == 0x66F31073
    with pytest.raises(ValueError):
        board_id_of("66f3")


@given(st.lists(st.sampled_from(SEATS), min_size=52, max_size=52), st.sets(st.sampled_from(PACK), max_size=51),
       st.integers(1, 0xFFFF), st.integers(0, 2**32 - 1))
def test_a_record_and_a_set_of_cards_cross_the_wire_unchanged(seats: list, placed: set, board: int, bid: int) -> None:
    cmd = m.DealBoard(board, tuple(seats), bid, "B7", frozenset(placed), cmd=3)
    (got,) = codec.Decoder().feed(codec.encode(cmd))
    assert got == cmd
    assert codec.unpack_seats(codec.pack_seats(tuple(seats))) == tuple(seats)


def test_the_four_bits_after_the_two_of_clubs_are_ignored() -> None:
    assert codec.unpack_cards(bytes(6) + b"\x1f") == {Card("2", "C")}
    assert codec.unpack_cards(bytes(6) + b"\x0f") == frozenset()


def test_can_deal_boards_needs_minor_2_and_the_capability() -> None:
    assert can_deal_boards(None) is None
    assert can_deal_boards(HELLO12) is True
    assert can_deal_boards(replace(HELLO12, minor=1)) is False
    assert can_deal_boards(replace(HELLO12, caps=0x3F)) is False


# --- a board on the firmware, followed by the host -----------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_every_card_goes_to_the_pocket_its_record_names(seed: int, rec: int) -> None:
    b = Bench(seed=seed)
    b.load()
    s = host(b)
    seats = record(rec)
    cmd, _ = s.command(deal_board(5, seats, 0xAB, pack="A1"), 0.0)
    t = BoardTracker(cmd)
    said = run_board(b, s, [t], 400)
    assert t.state is BoardState.DEALT and isinstance(said[-1], BoardDealt) and said[-1].verified
    for dest, cards in b.hw.pockets.items():
        assert all(seats[PACK.index(p.card)] == SEATS[dest] for p in cards)
    assert sorted(len(v) for v in b.hw.pockets.values()) == [13, 13, 13, 13]
    placed = [x for x in said if isinstance(x, CardPlaced)]
    assert [p.index for p in placed] == list(range(1, 53))


def test_faults_go_to_the_reject_exit_and_a_short_pack_is_not_a_board() -> None:
    b = Bench()
    b.load()
    well = b.hw.well
    lost = well.pop(17)                                  # one card missing from the pack
    smudged = well[4]
    well[4] = PhysCard(smudged.card, "A1", readable=False)
    well.insert(9, PhysCard(well[2].card, "A1"))         # a duplicate
    well.insert(3, PhysCard(Card("K", "H"), "X9"))       # a card of another pack
    s = host(b)
    cmd, _ = s.command(deal_board(2, record(3), 7, pack="A1"), 0.0)
    t = BoardTracker(cmd)
    said = run_board(b, s, [t], 400)
    rejected = [x for x in said if isinstance(x, BoardCardRejected)]
    assert [int(r.reason) for r in rejected] == [2, 1, 3]
    assert "of pack X9, not of the board's pack A1" in rejected[0].words
    assert rejected[1].words == "board 2: rejected an unreadable card"
    assert "again: it is in" in rejected[2].words
    (end,) = [x for x in said if isinstance(x, BoardIncomplete)]
    assert t.state is BoardState.INCOMPLETE and not any(isinstance(x, BoardDealt) for x in said)
    assert set(end.missing) == {lost.card, smudged.card} and len(end.placed) == 50
    assert end.reason == m.FinishReason.EMPTY and end.rejected == 3
    assert end.words.startswith("board 2 is not whole: the pack ran out with 2 cards not placed: the ")
    assert len(b.hw.pockets[5]) == 3
    # The operator cleans the smudged card, finds the lost one and puts both in; the board is finished.
    b.hw.load([PhysCard(smudged.card, "A1"), PhysCard(lost.card, "A1")])
    run_board(b, s, [t], 5, 400)
    cmd2 = send(b, s, t.again(), 0.405)
    t2 = BoardTracker(cmd2, seen=t.seen)
    said2 = run_board(b, s, [t2], 100, 405)
    assert isinstance(said2[-1], BoardDealt) and said2[-1].verified and t2.state is BoardState.DEALT
    assert cmd2.placed == end.placed
    assert sorted(len(b.hw.pockets[d]) for d in range(4)) == [13, 13, 13, 13]


def test_an_aborted_board_reports_what_was_placed_and_can_be_finished_from_the_rest_of_the_pack() -> None:
    """ABORT mid-board: what was placed is reported (never a whole board), and the same board sent
    again with those cards ``placed`` finishes it from the cards still in the well."""
    b = Bench()
    b.load()
    s = host(b)
    cmd, _ = s.command(deal_board(4, record(8), 1, pack="A1"), 0.0)
    t = BoardTracker(cmd)
    run_board(b, s, [t], 60)
    send(b, s, m.Abort(), 0.06)
    said = run_board(b, s, [t], 20, 60)
    (end,) = [x for x in said if isinstance(x, BoardIncomplete)]
    assert end.reason == m.FinishReason.ABORTED and 10 <= len(end.placed) < 52
    assert set(end.placed) == set(t.seen) and "stopped with" in end.words
    # A card in the exit at the ABORT went to the reject exit, outside the board: the operator puts
    # whatever is there back on the rest of the pack, and the board is finished from the well.
    b.hw.well[:0] = [PhysCard(p.card, p.pack) for p in b.hw.pockets.get(5, [])]
    cmd2 = send(b, s, t.again(), 0.08)
    t2 = BoardTracker(cmd2, seen=t.seen)
    said2 = run_board(b, s, [t2], 400, 80)
    assert isinstance(said2[-1], BoardDealt) and said2[-1].verified


def test_the_shoe_refuses_in_the_documented_order_and_the_host_says_so() -> None:
    b = Bench()
    s = host(b)
    cmd, _ = s.command(deal_board(4, record(8), 1), 0.0)
    t = BoardTracker(cmd)
    said = run_board(b, s, [t], 20)
    assert said == [BoardRefused(4, 2, "board 4 not started: no pack in the shoe")]
    b.load()
    send(b, s, m.StartDeal(Seat.N, (1,) * 13), 0.02)
    cmd = send(b, s, deal_board(4, record(8), 1), 0.02)
    t = BoardTracker(cmd)
    said = run_board(b, s, [t], 20, 20)
    assert said == [BoardRefused(4, 1, "board 4 not started: the shoe is busy with a deal")]


@pytest.mark.parametrize(("minor", "caps"), [(1, 0x7F), (2, 0x3F)])
def test_a_shoe_that_cannot_deal_boards_answers_status_4_and_the_host_says_it_cannot(minor: int, caps: int) -> None:
    b = Bench(minor=minor)
    b.hw.boards = caps == 0x7F
    b.load()
    s = host(b)
    cmd, _ = s.command(deal_board(1, record(2), 1), 0.0)      # sent before the HELLO is known
    t = BoardTracker(cmd)
    assert t.feed(m.LinkStatus(True, "", None)) == []          # no HELLO known yet: nothing to say
    events: list = []
    said = run_board(b, s, [t], 20, seen=events)
    assert said == [BoardRefused(1, None, CANNOT_DEAL_BOARDS)]   # the HELLO says it at once ...
    (reply,) = [e for e in events if isinstance(e, m.Reply)]
    assert reply.status == m.Status.UNSUPPORTED                  # ... and the shoe refuses the command
    by_reply = BoardTracker(cmd)
    (refused,) = [x for e in events if not isinstance(e, m.LinkStatus) for x in by_reply.feed(e)]
    assert refused.status == m.Status.UNSUPPORTED and refused.words.startswith(CANNOT_DEAL_BOARDS)
    assert not b.shoe.dealing and b.hw.pockets == {} and not b.shoe.board


def test_a_hello_that_says_the_shoe_cannot_deal_boards_is_enough() -> None:
    t = BoardTracker(replace(deal_board(1, record(2)), cmd=1))
    said = t.feed(m.LinkStatus(True, "online", replace(HELLO12, minor=1)))
    assert said == [BoardRefused(1, None, CANNOT_DEAL_BOARDS)]


# --- what the session marks -----------------------------------------------------------------------------


def _board_msgs(board: int = 3, cmd_seq: int = 10) -> list:
    seats = record(4)
    card = PACK[0]
    return [m.BoardBegan(cmd_seq, board, 9, seats, frozenset(), "A1"),
            m.Reply(cmd_seq + 1, 1, m.Status.OK, ""),
            m.CardOut(cmd_seq + 2, 1, seats[0], False, card, m.Orientation.DOWN, 90, "A1"),
            m.BoardFinished(cmd_seq + 3, board, 9, m.FinishReason.ABORTED, 0, False, frozenset(PACK[1:]), "A1")]


def test_a_boards_cards_are_marked_with_its_number_and_give_no_law_event() -> None:
    s = ShoeSession(session_id=4, offline_after=100.0)
    s.connection_made(0.0)
    s.receive(codec.encode(replace(HELLO12, seq=9, oldest_held=0)), 0.0)
    cmd, _ = s.command(deal_board(3, record(4), 9), 0.0)
    events, _ = s.receive(b"".join(codec.encode(x) for x in _board_msgs()), 0.1)
    began, _reply, card, end = events
    assert began.answers == cmd.cmd == end.answers and card.board == 3
    assert to_law_event(card) is None and to_law_event(began) is None
    deal_card = m.CardOut(14, 1, Seat.E, False, PACK[0], m.Orientation.DOWN, 90, "A1")
    events, _ = s.receive(codec.encode(deal_card), 0.2)
    assert events[0].board == 0 and to_law_event(events[0]) is not None


def test_an_earlier_runs_board_answers_nothing_and_its_reply_is_stale() -> None:
    """A restarted host is replayed the board its earlier run asked for (ids restart at 1): neither its
    BOARD_STARTED nor its BOARD_FINISHED nor its REPLY answers this run's DEAL_BOARD 1."""
    s = ShoeSession(session_id=5, offline_after=100.0)
    s.connection_made(0.0)
    s.receive(codec.encode(replace(HELLO12, seq=13, oldest_held=10)), 0.0)
    cmd, _ = s.command(deal_board(3, record(4), 9), 0.0)          # sent with known_last 13
    t = BoardTracker(cmd)
    events, _ = s.receive(b"".join(codec.encode(x) for x in _board_msgs()), 0.1)
    assert [getattr(e, "answers", None) for e in events][::3] == [0, 0]
    assert events[1].stale and s.stats["stale_replies"] == 1
    said = [x for e in events for x in t.feed(e)]
    assert said == [] and t.state is BoardState.WAITING
    follower = BoardTracker(replace(cmd, cmd=0))                    # following the earlier run's board
    said = [x for e in events for x in follower.feed(e)]
    assert isinstance(said[-1], BoardIncomplete) and said[-1].placed == {PACK[0]}


def test_a_shoe_that_puts_a_card_where_the_record_does_not_is_caught() -> None:
    seats = record(6)
    cmd = replace(deal_board(3, seats, 9), cmd=1)
    t = BoardTracker(cmd)
    wrong = SEATS[(SEATS.index(seats[5]) + 1) % 4]
    msgs = [m.BoardBegan(1, 3, 9, seats, frozenset(), "", answers=1),      # the echo: no pack named
            m.CardOut(2, 1, wrong, False, PACK[5], m.Orientation.DOWN, 90, "A1", board=3),
            m.CardOut(3, 2, seats[6], False, PACK[6], m.Orientation.DOWN, 90, "A1", board=3),
            m.CardOut(4, 3, seats[6], False, PACK[6], m.Orientation.DOWN, 90, "A1", board=3)]
    said = [x for e in msgs for x in t.feed(e)]
    assert [type(x) for x in said] == [type(said[0]), BoardMismatch, CardPlaced, BoardMismatch]
    assert said[1].record == seats[5] and said[1].reported == wrong
    assert "the record gives it to" in said[1].words and "a second time" in said[3].words
    end = m.BoardFinished(5, 3, 9, m.FinishReason.COMPLETE, 0, False, frozenset(), "A1", answers=1)
    short, dealt = t.feed(end)          # 3 cards reported, none missing: `missing` disagrees too (7.2)
    assert isinstance(short, BoardMismatch) and "the shoe says 0 cards are not placed, but 50" in short.words
    assert isinstance(dealt, BoardDealt) and not dealt.verified       # whole by the shoe's word, not checked
    assert "NOT verified" in dealt.words


def test_a_card_the_deal_board_named_placed_is_caught_when_the_shoe_places_it_again() -> None:
    """PROTOCOL.md 7.2, check 2: a card in the pockets already is one the DEAL_BOARD's ``placed`` names, or
    one placed earlier in the board. Before, only the cards the host had itself seen placed (``seen``) were
    checked, so a tracker given ``placed`` alone took the ace of spades as the 52nd card of a board whose
    pockets held it already, and the board as checked (its ``missing`` agreed)."""
    seats = record(4)
    ace, king = Card("A", "S"), Card("K", "S")
    placed = frozenset(c for c in PACK if c != king)
    cmd = replace(deal_board(9, seats, 0x1234, pack="B7", placed=placed), cmd=1)
    t = BoardTracker(cmd)
    t.feed(m.BoardBegan(2, 9, 0x1234, seats, placed, "B7", answers=1))
    said = t.feed(m.CardOut(3, 52, seats[PACK.index(ace)], False, ace, m.Orientation.DOWN, 90, "B7", board=9))
    assert [type(x) for x in said] == [BoardMismatch]
    assert "the ace of spades, which the DEAL_BOARD said was in its pocket already" in said[0].words
    end = t.feed(m.BoardFinished(4, 9, 0x1234, m.FinishReason.EMPTY, 0, False, frozenset({king}), "B7", answers=1))
    assert t.mismatches == 1 and [type(x) for x in end] == [BoardIncomplete]
    assert not end[0].known          # the pockets are not known: no DEAL_BOARD is built from `missing`
    with pytest.raises(ValueError, match="not known"):
        t.again()


def test_a_host_restarted_after_the_boards_start_was_acknowledged_follows_it_from_its_cards() -> None:
    """The journal held the BOARD_STARTED (acknowledged) and some cards; the restarted host is replayed
    only the rest. Its follower, told the board is under way, takes the unmarked placed cards as the
    board's; with the cards its journal held as ``seen``, the board is whole and verified."""
    b = Bench()
    b.load()
    s = host(b)
    seats = record(9)
    cmd = send(b, s, deal_board(6, seats, 5, pack="A1"), 0.0)
    first = BoardTracker(cmd)
    run_board(b, s, [first], 40)                          # about ten cards, every one acknowledged
    committed = s.expected - 1
    again = ShoeSession(session_id=8, offline_after=100.0)
    again.resume(b.shoe.boot_id, committed)               # what the journal holds
    b.port.inbox += again.connection_made(0.1)
    follower = BoardTracker(replace(cmd, cmd=0), seen=first.seen, started=True)
    said = run_board(b, again, [follower], 400, 100)
    assert isinstance(said[-1], BoardDealt) and said[-1].verified
    assert all(isinstance(x, CardPlaced) for x in said[:-1]) and len(said) - 1 == 52 - len(first.seen)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(["stray", "duplicate", "unreadable", "missing"]),
                                         max_size=6))
def test_whatever_the_pack_holds_no_card_reaches_a_wrong_pocket_and_whole_means_all_52(seed: int,
                                                                                        faults: list) -> None:
    from firmware_host.shoe.simhw import Injection, apply_faults

    rng = random.Random(seed)
    b = Bench(seed=seed)
    b.load()
    apply_faults(b.hw.well, [Injection(f) for f in faults], rng, 52)
    readable = {p.card for p in b.hw.well if p.readable and p.pack == "A1"}
    s = host(b)
    seats = record(seed)
    cmd = send(b, s, deal_board(1, seats, 1, pack="A1"), 0.0)
    t = BoardTracker(cmd)
    said = run_board(b, s, [t], 700)
    for dest in range(4):
        assert all(seats[PACK.index(p.card)] == SEATS[dest] for p in b.hw.pockets.get(dest, []))
    in_pockets = [p.card for d in range(4) for p in b.hw.pockets.get(d, [])]
    assert len(in_pockets) == len(set(in_pockets)) == len(readable)        # each card at most once
    whole = [x for x in said if isinstance(x, BoardDealt)]
    assert bool(whole) == (len(readable) == 52) == (t.state is BoardState.DEALT)
    if not whole:
        (end,) = [x for x in said if isinstance(x, BoardIncomplete)]
        assert set(end.missing) == set(PACK) - readable and end.placed == readable
    rejected = len(b.hw.pockets.get(5, []))
    assert rejected == sum(isinstance(x, BoardCardRejected) for x in said) == len(b.hw.left) - len(in_pockets)


def test_a_hand_record_of_laws_duplicate_is_a_record_as_the_vectors_have_it() -> None:
    """``Deal.assignment()`` is the 52 seats in canonical card order and ``Deal.fingerprint`` names it:
    the DEAL_BOARD built from them is byte for byte the vector of PROTOCOL.md section 11's example."""
    from laws.duplicate.deal import Deal
    from tests.shoe.board_example import FINGERPRINT, PBN
    from tests.shoe.board_example import record as example_record
    from tests.shoe.vectors import load

    deal = Deal.from_pbn(PBN)
    assert deal.assignment() == example_record() and deal.fingerprint == FINGERPRINT
    cmd = replace(deal_board(7, deal.assignment(), deal.fingerprint, pack="B7"), cmd=1)
    (vector,) = [v for v in load()["valid"] if v["name"] == "deal board 7 from its record, pack B7"]
    assert codec.encode(cmd).hex() == vector["hex"]
    assert all(BoardTracker(cmd).record[c] == deal.holder(c) for c in PACK)
