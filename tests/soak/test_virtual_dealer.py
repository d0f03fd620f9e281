"""Found by the soak: a deal stopped while a card is still in the shoe's exit. The simulated dealer must
wait for that card before gathering and loading the next pack, or the firmware (which keeps its pack
flag while a card is in the exit) never announces the new pack and the table waits for ever."""

from __future__ import annotations

from pathlib import Path

from firmware_host.shoe import messages as m
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from tests.shoe.collector import Collector


def test_a_deal_aborted_with_a_card_in_the_exit_still_announces_the_next_pack(tmp_path: Path) -> None:
    # the third card jams: it stays in the exit for a second, long after the firmware reports the jam
    shoe = VirtualShoe("contract-bridge", 5, ["jam@3"], jam_ms=500, directory=str(tmp_path))
    sink = Collector()
    link = ShoeLink(shoe.open(), sink, backoff=(0.01, 0.1))
    link.start()
    try:
        sink.wait(sink.count(m.PackLoaded))
        link.send(start_deal("contract-bridge", Seat.N, pack="A1"))
        sink.wait(sink.count(m.Jam))
        link.send(m.Abort())  # the dealer stops the deal with the jammed card still in the exit
        sink.wait(sink.finished(1))
        sink.wait(lambda evs: sum(isinstance(e, m.PackLoaded) for e in evs) >= 2, timeout=10)
        link.send(start_deal("contract-bridge", Seat.E, pack="B1"))
        sink.wait(sink.finished(2))
        (_, second) = sink.of(m.DealFinished)
        assert second.reason == m.FinishReason.COMPLETE and second.dealt == 52
    finally:
        link.stop()
        shoe.close()
