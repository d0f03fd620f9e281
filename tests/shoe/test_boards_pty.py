"""Protocol 1.2 through real pseudo-terminals: the virtual shoe deals a real shuffled pack to the record
the host sends, with injected faults, an ABORT, a pulled cable and a host killed and restarted
mid-board; and the versions: a 1.2 host with a 1.1 shoe or a shoe without pockets, a 1.1 host with a
1.2 shoe. A board is never taken as whole unless all 52 cards are in their pockets."""

from __future__ import annotations

import random
from dataclasses import replace

import serial

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import (
    CANNOT_DEAL_BOARDS,
    BoardDealt,
    BoardIncomplete,
    BoardRefused,
    BoardState,
    BoardTracker,
    deal_board,
    start_board,
)
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.simhw import PhysCard
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import SEATS, Seat
from tests.shoe.collector import Collector

REJECT = 5


def record(seed: int) -> tuple[Seat, ...]:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return tuple(seats)


class Station:
    """A link whose events go to a collector and to the trackers of the boards it deals."""

    def __init__(self, path: str, **kw: object) -> None:
        self.sink = Collector()
        self.trackers: list[BoardTracker] = []
        self.said: list = []
        self.link = ShoeLink(path, self._event, backoff=(0.01, 0.1), **kw)   # type: ignore[arg-type]

    def _event(self, ev: object) -> None:
        for t in self.trackers:
            self.said += t.feed(ev)
        self.sink(ev)

    def deal(self, cmd: m.DealBoard, **kw: object) -> BoardTracker:
        t = start_board(self.link, cmd, **kw)           # type: ignore[arg-type]
        self.trackers.append(t)
        return t

    def wait_end(self, t: BoardTracker, timeout: float = 20.0) -> object:
        self.sink.wait(lambda evs: t.result is not None, timeout)
        return t.result


def _pockets_follow(shoe: VirtualShoe, seats: tuple[Seat, ...]) -> None:
    for dest, cards in shoe.pockets.items():
        if dest != REJECT:
            assert all(seats[PACK.index(p.card)] == SEATS[dest] for p in cards), dest


def test_a_board_from_a_real_shuffled_pack_every_card_in_its_pocket(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 21, directory=str(tmp_path))
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        assert st.link.can_deal_boards is True
        seats = record(1)
        t = st.deal(deal_board(12, seats, "0123abcd99", pack="A1"))
        result = st.wait_end(t)
    finally:
        st.link.stop()
        shoe.close()
    assert isinstance(result, BoardDealt) and result.verified and result.board_id == 0x0123ABCD
    _pockets_follow(shoe, seats)
    assert sorted(len(shoe.pockets[d]) for d in range(4)) == [13] * 4 and REJECT not in shoe.pockets
    assert st.link.counters().get("lost", 0) == 0


def test_injected_faults_are_rejected_and_the_short_board_is_finished_after_the_operator_puts_cards_back(
        tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 22, ["stray@5", "duplicate@11", "unreadable@20", "missing@33"],
                       directory=str(tmp_path), reload=False)
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        seats = record(2)
        t = st.deal(deal_board(5, seats, 77, pack="A1"))
        end = st.wait_end(t)
        assert isinstance(end, BoardIncomplete) and end.reason == m.FinishReason.EMPTY
        rejects = [e for e in st.sink.of(m.CardRejected)]
        assert sorted(int(r.reason) for r in rejects) == [1, 2, 3]
        assert len(end.missing) == 2 and len(end.placed) == 50             # the unreadable one and the missing one
        assert not any(isinstance(x, BoardDealt) for x in st.said)
        _pockets_follow(shoe, seats)
        shoe.put([PhysCard(c, "A1") for c in end.missing])                # found and cleaned
        st.sink.wait(lambda evs: sum(isinstance(e, m.PackLoaded) for e in evs) >= 2)
        t2 = st.deal(t.again(), seen=t.seen)
        done = st.wait_end(t2)
    finally:
        st.link.stop()
        shoe.close()
    assert isinstance(done, BoardDealt) and done.verified
    assert t2.command.placed == end.placed
    _pockets_follow(shoe, seats)
    assert len(shoe.pockets[REJECT]) == 3


def test_an_abort_mid_board_reports_what_was_placed(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 23, directory=str(tmp_path), gap_ms=20, reload=False)
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        t = st.deal(deal_board(6, record(3), 1, pack="A1"))
        st.sink.wait(lambda evs: sum(isinstance(e, m.CardOut) for e in evs) >= 15)
        st.link.send(m.Abort())
        end = st.wait_end(t)
        st.sink.wait(lambda evs: sum(isinstance(e, m.Reply) for e in evs) >= 2)
    finally:
        st.link.stop()
        shoe.close()
    assert isinstance(end, BoardIncomplete) and end.reason == m.FinishReason.ABORTED
    in_pockets = {p.card for d in range(4) for p in shoe.pockets.get(d, [])}
    assert in_pockets == set(end.placed) == set(t.seen) and 15 <= len(end.placed) < 52
    assert t.state is BoardState.INCOMPLETE


def test_a_shoe_unplugged_mid_board_goes_on_and_nothing_is_lost(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 24, directory=str(tmp_path), gap_ms=15)
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        seats = record(4)
        t = st.deal(deal_board(8, seats, 3, pack="A1"))
        shoe.unplug(when=lambda: len(shoe.dealt) >= 10)      # mid-board, however late this thread runs
        st.sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and not e.online for e in evs))
        assert t.state is BoardState.DEALING                  # the cable is out: the board is not over
        shoe.replug()
        result = st.wait_end(t)
    finally:
        st.link.stop()
        shoe.close()
    assert isinstance(result, BoardDealt) and result.verified
    assert st.link.counters().get("lost", 0) == 0 and len(st.sink.of(m.CardOut)) == 52
    _pockets_follow(shoe, seats)


def test_a_host_killed_mid_board_and_restarted_follows_the_board_and_never_takes_it_as_its_own(tmp_path) -> None:
    """The first run sends board 9 and dies after a few cards, having acknowledged nothing. The restarted
    host asks for board 9 again at once: the shoe, still dealing, answers busy; the replayed BOARD_STARTED
    and BOARD_FINISHED of the first run's board answer none of its commands, so its own command ends
    refused, not "dealt"; a follower of the earlier board (command id 0) sees every card of it placed."""
    shoe = VirtualShoe("contract-bridge", 25, directory=str(tmp_path), gap_ms=20)
    path = shoe.open()
    seats = record(5)
    first = Station(path, auto_ack=False)
    first.link.start()
    try:
        first.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        sent = first.link.send(deal_board(9, seats, 0xF00D, pack="A1"))
        first.sink.wait(lambda evs: sum(isinstance(e, m.CardOut) for e in evs) >= 8)
    finally:
        first.link.stop()                                   # killed
    again = Station(path)
    own = BoardTracker(replace(sent, cmd=0))                # what its journal says: board 9 under way
    again.trackers.append(own)
    again.link.start()
    try:
        mine = again.deal(deal_board(9, seats, 0xF00D, pack="A1"))
        again.wait_end(mine)
        result = again.wait_end(own)
    finally:
        again.link.stop()
        shoe.close()
    assert mine.state is BoardState.REFUSED and isinstance(mine.result, BoardRefused)
    assert mine.result.status == m.Status.BUSY
    assert isinstance(result, BoardDealt) and result.verified            # every card was replayed to it
    began = again.sink.of(m.BoardBegan)
    assert [b.answers for b in began] == [0] and [e.answers for e in again.sink.of(m.BoardFinished)] == [0]
    assert again.link.counters().get("stale_deals", 0) == 1


def test_a_12_host_with_a_11_shoe_says_the_shoe_cannot_deal_boards_and_still_deals(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 26, directory=str(tmp_path), protocol=(1, 1))
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        assert st.link.can_deal_boards is False and not st.link.session.shoe.caps & m.Cap.BOARDS
        t = st.deal(deal_board(1, record(6), 1))
        assert t.result == BoardRefused(1, None, CANNOT_DEAL_BOARDS)       # known from the HELLO: not sent
        assert shoe.firmware.unknown_commands == 0
        sent = BoardTracker(st.link.send(deal_board(2, record(6), 1)))    # sent anyway: the 1.1 refusal
        st.sink.wait(lambda evs: any(isinstance(e, m.Reply) for e in evs))
        st.link.send(start_deal("contract-bridge", Seat.N, "A1"))          # an ordinary deal still works
        st.sink.wait(st.sink.finished())
    finally:
        st.link.stop()
        shoe.close()
    (reply, _deal) = st.sink.of(m.Reply)
    assert reply.status == m.Status.UNSUPPORTED and shoe.firmware.unknown_commands == 1
    (refused,) = [x for e in st.sink.events if isinstance(e, m.Reply) for x in sent.feed(e)]
    assert refused.words == CANNOT_DEAL_BOARDS + " (command type 0x89 is not supported)"
    assert len(st.sink.of(m.CardOut)) == 52 and not st.sink.of(m.BoardBegan)


def test_a_12_shoe_without_pockets_refuses_boards_by_status_4(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 27, directory=str(tmp_path), boards=False)
    st = Station(shoe.open())
    st.link.start()
    try:
        st.sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        t = BoardTracker(st.link.send(deal_board(1, record(6), 1)))
        st.sink.wait(lambda evs: any(isinstance(e, m.Reply) for e in evs))
    finally:
        st.link.stop()
        shoe.close()
    (reply,) = st.sink.of(m.Reply)
    (refused,) = [x for e in st.sink.events if not isinstance(e, m.LinkStatus) for x in t.feed(e)]
    assert reply.status == m.Status.UNSUPPORTED and "no reject exit" in reply.detail
    assert refused.words == CANNOT_DEAL_BOARDS + " (it has no reject exit)"


def test_a_11_host_with_a_12_shoe_deals_as_before(tmp_path) -> None:
    """A host written to 1.1 (it says minor 1 and knows no board messages) drives a 1.2 shoe: the HELLO's
    minor 2 and caps bit 0x40 are ignored, a deal goes as in 1.1, and no board message is ever sent."""
    shoe = VirtualShoe("contract-bridge", 28, directory=str(tmp_path))
    port = serial.Serial(shoe.open(), timeout=0.05)
    dec = codec.Decoder()
    got: list = []
    try:
        port.write(codec.encode(m.HostHello(0x11, minor=1, next_cmd=1)))
        for _ in range(200):
            got += dec.feed(port.read(4096))
            if any(isinstance(x, m.Hello) for x in got):
                break
        port.write(codec.encode(m.StartDeal(Seat.E, (1,) * 13, 0, "A1", cmd=1)))
        for _ in range(400):
            got += dec.feed(port.read(4096))
            if any(isinstance(x, m.DealFinished) for x in got):
                break
    finally:
        port.close()
        shoe.close()
    hello = next(x for x in got if isinstance(x, m.Hello))
    assert (hello.minor, hello.caps & 0x40) == (2, 0x40)
    assert sum(isinstance(x, m.CardOut) for x in got) == 52 and any(isinstance(x, m.DealFinished) for x in got)
    assert not any(isinstance(x, (m.BoardBegan, m.CardRejected, m.BoardFinished)) for x in got)


def test_bench_board_quick_runs_and_reports_its_figures(capsys) -> None:
    import json

    from firmware_host import cli

    assert cli.main(["bench", "board", "--quick", "--json"]) in (0, 1)     # figures, not a timed assertion
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    got = json.loads(line)
    assert got["host CPU per dealt board"]["repeats"] == 20
    assert {k for k in got if k.startswith("board at 115200 baud")} == {
        "board at 115200 baud, line only (mechanics 0)", "board at 115200 baud, virtual shoe's pace (4 + 8 ms a card)"}
