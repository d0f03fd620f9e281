"""The plain barcode scanner driver, over a real pty: seats from the deal rotation, bad lines refused."""

from __future__ import annotations

import os
import tty

import pytest

from firmware_host.shoe import messages as m
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.scanner import ScannerDealer, ScannerLink, parse_code
from laws.cards import Card, Seat
from tests.shoe.collector import Collector
from vision.codes import encode_payload


@pytest.fixture
def scanner():
    master, slave = os.openpty()
    tty.setraw(slave)
    sink = Collector()
    link = ScannerLink(os.ttyname(slave), sink, backoff=(0.01, 0.1))
    link.start()
    sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and e.online for e in evs))
    yield master, link, sink
    link.stop()
    os.close(master)
    os.close(slave)


def _code(pack: str, card: str) -> str:
    return encode_payload(pack, Card.parse(card))


def test_parse_code() -> None:
    assert parse_code(_code("A1", "TS")) == ("A1", Card("T", "S"))
    assert parse_code(_code("B7", "9H").lower()) == ("B7", Card("9", "H"))
    assert parse_code("A:TS") == ("", None)              # not a version-1 card code
    wrong = _code("A1", "TS")[:5] + ("0" if _code("A1", "TS")[5] != "0" else "1")
    assert parse_code(wrong) == ("", None)               # wrong check character
    assert parse_code("2A1TS" + _code("A1", "TS")[5]) == ("", None)  # another card-code version
    assert parse_code(encode_payload("A1", None)) == ("A1", None)    # a back's pack mark
    assert parse_code("") == ("", None)


def test_a_euchre_deal_from_a_scanner_follows_the_rotation(scanner) -> None:
    master, link, sink = scanner
    cmd = link.send(start_deal("euchre", Seat.N, pack="A1"))
    assert cmd.cmd == 1
    sink.wait(lambda evs: any(isinstance(e, m.Reply) for e in evs))
    names = [f"{r}{s}" for r in "AKQJT987" for s in "SH"][:16] + ["9C", "8C", "7C", "TC", "JD"]
    cards = [_code("A1", n) for n in names]
    endings = [b"\r\n", b"\n", b"\r"]
    data = b"".join(c.encode() + endings[i % 3] for i, c in enumerate(cards))
    for i in range(0, len(data), 5):        # dribble it in, as a 9600 baud scanner does
        os.write(master, data[i:i + 5])
    sink.wait(sink.finished())
    got = sink.of(m.CardOut)
    assert [c.card.code for c in got] == names
    assert [c.seat for c in got[:4]] == [Seat.E, Seat.E, Seat.S, Seat.S]
    assert got[8].seat == Seat.E and got[10].seat == Seat.E and got[11].seat == Seat.S
    assert got[-1].turn_up and got[-1].seat is None
    assert all(c.orientation is m.Orientation.UNKNOWN for c in got)
    assert sink.of(m.DealFinished)[0].dealt == 21
    assert [type(e).__name__ for e in sink.events[1:3]] == ["DealBegan", "Reply"]


def test_noise_lines_are_errors_not_cards(scanner) -> None:
    master, link, sink = scanner
    link.send(start_deal("contract-bridge", Seat.S))
    os.write(master, b"\x00\xff\xfe garbage\r\nA:ZZ\r\n" + b"x" * 500 + b"\r\n" + _code("B1", "2C").encode()
             + b"\r\n")
    sink.wait(lambda evs: any(isinstance(e, m.CardOut) for e in evs))
    errors = sink.of(m.ShoeError)
    assert len(errors) == 2 and all(e.code == m.ErrorCode.BAD_CODE for e in errors)
    (card,) = sink.of(m.CardOut)
    assert card.card == Card("2", "C") and card.pack == "B1" and card.seat == Seat.W
    assert link.counters()["long_lines"] == 1


def test_commands_a_scanner_cannot_obey_are_answered_unsupported() -> None:
    d = ScannerDealer()
    (reply,) = d.command(m.SetLamp(1, 1, cmd=3))
    assert reply.status == m.Status.UNSUPPORTED and reply.cmd == 3
    (reply,) = d.command(m.Abort(cmd=4))
    assert reply.status == m.Status.BAD_STATE
    d.command(m.StartDeal(Seat.N, (1,) * 13, cmd=5))
    finished, reply = d.command(m.Abort(cmd=6))
    assert finished.reason == m.FinishReason.ABORTED and reply.status == m.Status.OK
    assert d.feed(_code("A1", "AS").encode() + b"\n")[0].seat is None        # outside a deal
