"""Protocol 1.1 through real pseudo-terminals: the host against the reference firmware, and the
reference firmware against a host this test drives byte by byte."""

from __future__ import annotations

import time

import pytest
import serial

from firmware_host.bench import backlog
from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from tests.shoe.collector import Collector


def test_a_start_deal_lost_on_a_healthy_line_is_sent_again_and_done_once(tmp_path) -> None:
    shoe = VirtualShoe("euchre", 3, directory=str(tmp_path))
    sink = Collector()
    link = ShoeLink(shoe.open(), sink, backoff=(0.01, 0.1))
    link.start()
    try:
        sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        shoe.garble_next(m.MsgType.START_DEAL)          # noise destroys the command on its way
        link.send(start_deal("euchre", Seat.S))
        sink.wait(sink.finished(), timeout=10)
    finally:
        link.stop()
        shoe.close()
    assert shoe.firmware.deframer.bad_crc >= 1
    assert len(sink.of(m.DealBegan)) == 1 and len(sink.of(m.Reply)) == 1
    assert link.counters()["commands_resent"] >= 1
    assert len(sink.of(m.CardOut)) == 21
    assert link.opens == 1                                    # the timer did it: no reconnect


def test_a_backlog_of_128_after_a_disconnect_costs_at_most_its_bytes_again() -> None:
    r = backlog.recover(128)
    assert r.backlog == 128
    # 128 messages fill the shoe's ring: a card dealt before the host's first ACK after the reconnect (a
    # loaded machine can take longer than a card's 250 ms) overwrites the oldest. Then the host is told and
    # counts each one it never got: nothing is lost unknown.
    assert r.resent_bytes <= 1.2 * r.backlog_bytes and r.lost == r.missing


def test_a_backlog_with_room_in_the_ring_loses_nothing() -> None:
    r = backlog.recover(120)          # 8 cards of room: two seconds at a table's pace to reconnect
    assert r.backlog == 120 and r.lost == r.missing == 0 and r.resent_bytes <= 1.2 * r.backlog_bytes


def test_a_full_ring_overflowing_is_counted_message_by_message() -> None:
    r = backlog.recover(128, live_gap_ms=backlog.STRESS_GAP_MS)     # a card every 20 ms: it overflows
    assert r.lost == r.missing


def test_a_repeated_command_id_is_answered_alike_and_not_done_twice(tmp_path) -> None:
    shoe = VirtualShoe("contract-bridge", 5, directory=str(tmp_path), gap_ms=20)
    port = serial.Serial(shoe.open(), timeout=0.05)
    dec = codec.Decoder()
    got: list = []

    def read_until(pred, tries: int = 200) -> None:
        for _ in range(tries):
            got.extend(dec.feed(port.read(4096)))
            if pred():
                return
        raise AssertionError(f"the shoe did not answer; got {got[-5:]}")

    try:
        port.write(codec.encode(m.HostHello(0xAB, next_cmd=1)))
        read_until(lambda: any(isinstance(x, m.Hello) for x in got))
        deal = m.StartDeal(Seat.W, (1,) * 13, 0, "A1", cmd=1)
        port.write(codec.encode(deal))
        read_until(lambda: any(isinstance(x, m.Reply) for x in got))
        port.write(codec.encode(deal) + codec.encode(deal))      # the host's timer fired twice
        read_until(lambda: sum(isinstance(x, m.Reply) for x in got) >= 3)
        port.write(codec.encode(m.Pause(cmd=2)))
        read_until(lambda: any(isinstance(x, m.Reply) and x.cmd == 2 for x in got))
    finally:
        port.close()
        shoe.close()
    replies = [x for x in got if isinstance(x, m.Reply)]
    assert replies[0] == replies[1] == replies[2] and replies[0].status == m.Status.OK
    assert replies[3].cmd == 2 and replies[3].status == m.Status.OK
    assert sum(isinstance(x, m.DealBegan) for x in got) == 1
    assert shoe.firmware.repeated_commands == 2 and shoe.deals == 1


def test_the_backlog_is_counted_from_the_pull_to_its_last_message_however_late_the_benchmark_wakes(monkeypatch) -> None:
    """A loaded machine may wake the benchmark's thread late after any wait, while the shoe goes on numbering
    a card every 4 ms. The backlog must still be counted from the pull to exactly its last message, else
    more than the shoe's ring holds is dealt and the oldest messages are overwritten (CI saw messages 9-10
    lost so)."""
    unplug, poll = VirtualShoe.unplug, backlog._poll

    def held_back(self, *args, **kwargs):
        out = unplug(self, *args, **kwargs)
        time.sleep(0.05)                     # the scheduler ran something else: a dozen cards at 4 ms
        return out

    def late(*args, **kwargs):
        poll(*args, **kwargs)
        time.sleep(0.05)

    monkeypatch.setattr(VirtualShoe, "unplug", held_back)
    monkeypatch.setattr(backlog, "_poll", late)
    r = backlog.recover(128)
    assert r.backlog == 128 and r.lost == r.missing


def test_the_shoe_does_a_thing_between_two_of_its_steps_at_the_moment_asked(tmp_path) -> None:
    shoe = VirtualShoe("euchre", 3, directory=str(tmp_path), gap_ms=4)
    sink = Collector()
    link = ShoeLink(shoe.open(), sink, backoff=(0.01, 0.1))
    link.start()
    try:
        sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        fw = shoe.firmware
        assert shoe.when(lambda: True, lambda: "now") == "now"           # holds already: done at once
        link.send(start_deal("euchre", Seat.S))
        start, seen = fw.seq, []

        def fifth() -> bool:
            seen.append(fw.seq)
            return fw.seq >= start + 5

        # the action sees the shoe exactly as the condition last saw it: nothing came between
        assert shoe.when(fifth, lambda: fw.seq) == seen[-1] >= start + 5
        with pytest.raises(ZeroDivisionError):                          # the action's error, given back
            shoe.when(lambda: True, lambda: 1 / 0)
        with pytest.raises(RuntimeError, match="never came"):            # a moment that never comes
            shoe.when(lambda: False, lambda: None, timeout=0.05)
        assert not shoe._hooks
        sink.wait(sink.finished(), timeout=10)                          # the shoe dealt on, unharmed
    finally:
        link.stop()
        shoe.close()
