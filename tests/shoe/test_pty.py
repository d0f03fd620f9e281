"""Through a real pseudo-terminal: the firmware (on CPython, simulated hardware) deals to the host's
``ShoeLink``; whole deals, 50 reconnects in one deal, and every injected fault. No card lost, none
invented, order kept."""

from __future__ import annotations

import random

import pytest

from firmware_host.shoe import messages as m
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from tests.shoe.collector import Collector

GAMES = ["contract-bridge", "euchre"]


def _same_cards(got: list[m.CardOut], shoe: VirtualShoe) -> None:
    """The host saw exactly the cards that physically left, in order, as the sensors saw them."""
    phys = shoe.dealt
    assert len(got) == len(phys), f"host got {len(got)} cards, shoe dealt {len(phys)}"
    for out, card in zip(got, phys):
        assert out.card == (card.card if card.readable else None)
        assert out.pack == (card.pack if card.readable else "")
        assert (out.orientation is m.Orientation.UP) == card.face_up
    assert [c.seq for c in got] == sorted({c.seq for c in got})


@pytest.fixture
def rig(tmp_path):
    shoes: list[VirtualShoe] = []
    links: list[ShoeLink] = []

    def make(game: str, seed: int = 1, **kw):
        shoe = VirtualShoe(game, seed, directory=str(tmp_path), **kw)
        shoes.append(shoe)
        sink = Collector()
        link = ShoeLink(shoe.open(), sink, backoff=(0.01, 0.1))
        links.append(link)
        link.start()
        sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and e.online for e in evs))
        return shoe, link, sink

    yield make
    for link in links:
        link.stop()
    for shoe in shoes:
        shoe.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_deal_crosses_the_pty(rig, game: str) -> None:
    shoe, link, sink = rig(game)
    link.send(start_deal(game, Seat.E, pack="A1"))
    evs = sink.wait(sink.finished())
    cards = sink.of(m.CardOut)
    _same_cards(cards, shoe)
    began = sink.of(m.DealBegan)[0]
    assert began.dealer == Seat.E and began.pack == "A1"
    assert cards[0].seat == Seat.S
    finished = sink.of(m.DealFinished)[0]
    assert finished.reason == m.FinishReason.COMPLETE and finished.dealt == len(cards)
    assert sink.of(m.Reply)[0].status == m.Status.OK
    assert link.counters().get("lost", 0) == 0
    kinds = [type(e).__name__ for e in evs if not isinstance(e, m.LinkStatus)]
    deal = kinds[kinds.index("DealBegan"):kinds.index("DealFinished") + 1]
    assert deal == ["DealBegan", "Reply"] + ["CardOut"] * len(cards) + ["DealFinished"]


@pytest.mark.slow
def test_fifty_reconnects_in_one_deal_lose_and_duplicate_nothing(rig) -> None:
    shoe, link, sink = rig("contract-bridge", seed=5, gap_ms=30)
    rng = random.Random(50)
    moments = sorted(rng.randint(0, 51) for _ in range(50))
    link.send(start_deal("contract-bridge", Seat.N, pack="A1"))
    for i, k in enumerate(moments):
        sink.wait(lambda evs, k=k: sum(isinstance(e, m.CardOut) for e in evs) >= k)
        link.reconnect()
        sink.wait(lambda evs, i=i: sum(isinstance(e, m.LinkStatus) and e.online for e in evs) >= i + 2)
    evs = sink.wait(sink.finished())
    assert link.opens >= 51
    during = evs[:next(i for i, e in enumerate(evs) if isinstance(e, m.DealFinished))]
    # Usually all 50 fall inside the deal; a loaded machine may finish the deal before the last few.
    assert sum(isinstance(e, m.LinkStatus) and e.online for e in during) - 1 >= 10
    _same_cards(sink.of(m.CardOut), shoe)
    assert len(sink.of(m.CardOut)) == 52
    assert sink.count(m.LinkStatus)(sink.events) >= 101


FAULTS = [
    ["face_up@3", "garbage@5", "drop@9", "unreadable@12"],
    ["duplicate@4", "foreign@7", "jam@10", "drop@15", "garbage@2"],
    ["missing@6", "drop@1", "garbage@20", "garbage@21"],
]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_fault_over_several_deals_loses_and_invents_nothing(rig, game: str) -> None:
    shoe, link, sink = rig(game, seed=8)
    for d, faults in enumerate(FAULTS, start=1):
        for f in faults:
            shoe.inject(f, deal=d)
    for d in range(1, len(FAULTS) + 1):
        sink.wait(lambda evs, d=d: sum(isinstance(e, m.PackLoaded) for e in evs) >= d)
        link.send(start_deal(game, Seat.W, pack="AB"[(d - 1) % 2], variant=d))
        sink.wait(sink.finished(d))
    cards = sink.of(m.CardOut)
    _same_cards(cards, shoe)
    assert shoe.drops == 3 and shoe.garbage_bytes > 0
    assert sum(c.orientation is m.Orientation.UP for c in cards) == 1
    assert sum(c.card is None for c in cards) == 1
    assert {c.pack for c in cards} >= {"A1", "B1", "X9"}
    jams = sink.of(m.Jam)
    assert [j.cleared for j in jams] == [False, True]
    ends = sink.of(m.DealFinished)
    if game == "contract-bridge":
        assert [e.dealt for e in ends] == [52, 52, 51]
        assert ends[1].left_in_shoe and ends[2].reason == m.FinishReason.EMPTY
    else:
        assert [e.dealt for e in ends] == [21, 21, 21]
    counters = link.counters()
    assert counters.get("lost", 0) == 0
    assert counters.get("bad_crc", 0) + counters.get("short", 0) + counters.get("bad_escape", 0) > 0


def test_a_dropped_shoe_goes_offline_and_comes_back(rig) -> None:
    shoe, link, sink = rig("euchre", down_ms=300)
    shoe.drop()
    sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and not e.online for e in evs))
    sink.wait(lambda evs: sum(isinstance(e, m.LinkStatus) and e.online for e in evs) >= 2)
    offline = [e for e in sink.of(m.LinkStatus) if not e.online][0]
    assert "device lost" in offline.reason or "no word" in offline.reason


def test_buttons_reach_the_host(rig) -> None:
    shoe, link, sink = rig("contract-bridge")
    shoe.press(Seat.W, 2)
    (press,) = sink.wait(lambda evs: any(isinstance(e, m.ButtonPressed) for e in evs)) and sink.of(m.ButtonPressed)
    assert press.seat == Seat.W and press.kind == m.ButtonKind.DEMAND


def test_a_port_that_does_not_exist_gets_one_clear_message(tmp_path, caplog) -> None:
    sink = Collector()
    url = str(tmp_path / "ttyUSB9")
    link = ShoeLink(url, sink, backoff=(0.01, 0.02))
    link.start()
    try:
        sink.wait(lambda evs: len(evs) >= 1)
    finally:
        link.stop()
    (status,) = sink.events
    assert not status.online
    assert status.reason == f"serial port {url} does not exist (is the shoe plugged in? check the port setting)"
    assert all(r.exc_info is None for r in caplog.records)
    assert sum(r.getMessage() == status.reason and r.levelname == "WARNING" for r in caplog.records) <= 1


@pytest.mark.parametrize("timing", [{"gap_ms": 20}, {"pass_ms": 120, "gap_ms": 0, "jam_ms": 60_000}],
                         ids=["gaps", "slow-exit"])
def test_pause_abort_and_reload_cycle(rig, timing: dict[str, int]) -> None:
    """``slow-exit``: a card spends most of its time in the exit, and one is held there until the ABORT is
    answered, so the ABORT finds one feeding however late a loaded machine lets the shoe's thread run (it
    found none when the card's 120 ms ran out first); it leaves before the dealer reloads, as a card
    outside a deal (PROTOCOL.md section 7), never as the next deal's first card (which it was, often under
    load, when the reload did not wait for it)."""
    slow = "pass_ms" in timing
    shoe, link, sink = rig("contract-bridge", **timing)
    link.send(start_deal("contract-bridge", Seat.N, pack="A1"))
    sink.wait(lambda evs: sum(isinstance(e, m.CardOut) for e in evs) >= 5)
    link.send(m.Pause())
    sink.wait(lambda evs: sum(isinstance(e, m.Reply) for e in evs) >= 2)
    with pytest.raises(RuntimeError, match="dealing"):
        shoe.load_pack()
    link.send(m.Resume())
    out = len(sink.of(m.CardOut))
    sink.wait(lambda evs: sum(isinstance(e, m.CardOut) for e in evs) > out)   # dealing again: the next card feeds
    if slow:   # the card feeding now sticks in the exit (no jam: jam_ms is far off) until the ABORT is in
        shoe.when(lambda: shoe.hw.slot is not None, lambda: setattr(shoe.hw, "slot_until", float("inf")))
    link.send(m.Abort())
    sink.wait(lambda evs: sum(isinstance(e, m.Reply) for e in evs) >= 4)     # REPLY follows DEAL_FINISHED
    if slow:   # let it go: it leaves in its usual 120 ms, while the dealer below waits to reload
        shoe.when(lambda: True, lambda: setattr(shoe.hw, "slot_until", shoe.hw.ticks_ms() + shoe.hw.pass_ms))
    (end,) = sink.of(m.DealFinished)
    assert end.reason == m.FinishReason.ABORTED and 5 <= end.dealt < 52
    assert [r.status for r in sink.of(m.Reply)] == [m.Status.OK] * 4
    shoe.load_pack("Z1")            # the pack is in the well when this returns
    link.send(start_deal("contract-bridge", Seat.E, pack="Z1"))
    sink.wait(sink.finished(2))
    cards = sink.of(m.CardOut)
    strays = [c for c in cards if c.index == 0]     # in the exit at the ABORT: it leaves outside a deal
    assert len(strays) == 1 if "pass_ms" in timing else len(strays) <= 1, strays
    assert all(c.pack == "A1" and c.seat is None for c in strays), strays
    dealt = [c for c in cards if c.index]
    assert {c.pack for c in dealt[:end.dealt]} == {"A1"} and {c.pack for c in dealt[end.dealt:]} == {"Z1"}
    assert len(dealt) == end.dealt + 52
    _same_cards(cards, shoe)


def test_ping_is_answered_and_lamps_are_set(rig) -> None:
    shoe, link, sink = rig("euchre")
    link.send(m.Ping(0x4242))
    link.send(m.SetLamp(2, 3, 1))
    sink.wait(lambda evs: any(isinstance(e, m.Pong) for e in evs) and any(isinstance(e, m.Reply) for e in evs))
    assert sink.of(m.Pong)[0].token == 0x4242
    assert shoe.hw.lamps == {2: (3, 1)}


class _FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_link_reports_offline_after_silence_on_its_clock(tmp_path) -> None:
    import os
    import tty

    from firmware_host.shoe import codec

    master, slave = os.openpty()
    tty.setraw(slave)
    clock = _FakeClock()
    sink = Collector()
    link = ShoeLink(os.ttyname(slave), sink, clock=clock)
    link.start()
    try:
        dec = codec.Decoder()
        while not any(isinstance(x, m.HostHello) for x in dec.feed(os.read(master, 256))):
            pass                               # blocking read: the host says hello once the port is open
        os.write(master, codec.encode(m.Hello(0, 1, 0, 5, 0, 0x3F, 128, "quiet", "1.0.0")))
        sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and e.online for e in evs))
        clock.now += 1.4
        os.write(master, codec.encode(m.Pong(0, 7)))          # a sign of life at t = 1.4 s
        sink.wait(lambda evs: any(isinstance(e, m.Pong) for e in evs))
        clock.now += 1.6                       # 1.6 s of silence: the reader's next tick reports it
        sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and not e.online for e in evs))
    finally:
        link.stop()
        os.close(master)
        os.close(slave)
    offline = [e for e in sink.of(m.LinkStatus) if not e.online]
    assert offline[0].reason == "no word from the shoe for 1.6 s"


def test_the_virtual_shoe_started_again_with_its_seed_is_a_restart_the_host_sees(rig, tmp_path) -> None:
    """``cardtable shoe-sim --seed 7`` stopped mid-deal and started again is a new power-up (PROTOCOL.md
    4.1: a new boot id). Its boot id came from the seed alone, so the host took the new boot's messages,
    numbered from 1 again, for repeats and dropped them: the table never ended the deal nor dealt again.
    The shuffles still follow the seed."""
    shoe, link, sink = rig("contract-bridge", seed=7)
    link.send(start_deal("contract-bridge", Seat.N, pack="A1"))
    sink.wait(lambda evs: len([e for e in evs if isinstance(e, m.CardOut)]) >= 5)
    first = [c.card for c in shoe.dealt]
    shoe.close()                                    # the process is killed mid-deal
    again = VirtualShoe("contract-bridge", 7, directory=str(tmp_path))
    try:
        again.open()
        (restart,) = sink.wait(lambda evs: any(isinstance(e, m.ShoeRestarted) for e in evs)) \
            and sink.of(m.ShoeRestarted)
        assert restart.old_boot != restart.boot_id
        link.send(start_deal("contract-bridge", Seat.N, pack="A1"))
        sink.wait(lambda evs: len([e for e in evs if isinstance(e, m.CardOut)]) >= len(first) + 5)
        assert [c.card for c in again.dealt][:5] == first[:5]     # the same seed, the same shuffle
    finally:
        again.close()
