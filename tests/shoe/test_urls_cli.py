"""The link on other pyserial URLs (socket://, loop://), version refusal end to end, determinism of
the virtual shoe, and the command line."""

from __future__ import annotations

import re
import select
import socket
import threading

import pytest

from firmware_host import cli
from firmware_host.shoe import messages as m
from firmware_host.shoe.games import start_deal
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.scanner import ScannerLink
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Seat
from tests.shoe.collector import Collector
from tests.shoe.fwkit import Bench


class _SocketPort:
    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn

    def read(self) -> bytes | None:
        try:
            return self.conn.recv(4096) or None
        except (BlockingIOError, OSError):
            return None

    def write(self, data: bytes) -> None:
        self.conn.sendall(data)


def test_the_firmware_over_socket_url_deals_a_euchre_hand() -> None:
    srv = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    bench = Bench("euchre", seed=2)
    bench.load()

    def serve() -> None:
        conn, _ = srv.accept()
        conn.setblocking(False)
        bench.shoe.port = _SocketPort(conn)
        while not stop.is_set():
            select.select([conn], [], [], 0.002)
            bench.run(1)             # fake clock: one millisecond of shoe time per turn
        conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    sink = Collector()
    link = ShoeLink(f"socket://127.0.0.1:{srv.getsockname()[1]}", sink)
    link.start()
    try:
        sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and e.online for e in evs))
        link.send(start_deal("euchre", Seat.N, pack="A1"))
        sink.wait(sink.finished())
    finally:
        link.stop()
        stop.set()
        t.join(5)
        srv.close()
    cards = sink.of(m.CardOut)
    assert [c.card for c in cards] == [p.card for p in bench.hw.left] and len(cards) == 21


def test_loop_url_opens() -> None:
    sink = Collector()
    link = ScannerLink("loop://", sink)
    link.start()
    try:
        (status,) = sink.wait(lambda evs: len(evs) >= 1)
    finally:
        link.stop()
    assert status == m.LinkStatus(True, "scanner on loop://")


def test_a_shoe_speaking_a_newer_major_version_is_refused(tmp_path) -> None:
    shoe = VirtualShoe("euchre", 1, protocol=(2, 3), directory=str(tmp_path))
    sink = Collector()
    link = ShoeLink(shoe.open(), sink)
    link.start()
    try:
        sink.wait(lambda evs: any(isinstance(e, m.LinkStatus) and e.refused for e in evs))
        link.send(start_deal("euchre", Seat.N))
    finally:
        link.stop()
        shoe.close()
    (refusal,) = [e for e in sink.events if isinstance(e, m.LinkStatus)]
    assert refusal.reason == ("refusing the shoe: shoe speaks protocol 2.3; this host speaks 1.2; "
                              "update the host software")
    assert not any(isinstance(e, m.ShoeMessage) for e in sink.events)


def test_the_virtual_shoe_is_deterministic_for_a_seed(tmp_path) -> None:
    decks = []
    for run in range(2):
        shoe = VirtualShoe("contract-bridge", 42, ["unreadable", "face_up"], directory=str(tmp_path / str(run)))
        (tmp_path / str(run)).mkdir()
        sink = Collector()
        link = ShoeLink(shoe.open(), sink)
        link.start()
        try:
            sink.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
            link.send(start_deal("contract-bridge", Seat.S))
            sink.wait(sink.finished())
        finally:
            link.stop()
            shoe.close()
        decks.append([(c.card, c.orientation) for c in sink.of(m.CardOut)])
    assert decks[0] == decks[1] and len(decks[0]) == 52
    assert sum(card is None for card, _ in decks[0]) == 1


def test_bad_injections_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="unknown injection 'flip'"):
        VirtualShoe("euchre", 1, ["flip@3"])
    with pytest.raises(ValueError, match="card number 'x'"):
        VirtualShoe("euchre", 1, ["jam@x"])
    with pytest.raises(ValueError, match="unknown game 'whist'"):
        VirtualShoe("whist")


def test_shoe_listen_on_a_missing_port_says_so_in_one_line(tmp_path, capsys) -> None:
    port = tmp_path / "ttyUSB3"
    assert cli.main(["shoe-listen", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [
        f"cardtable shoe-listen: serial port {port} does not exist (is the shoe plugged in? check the port setting)"]


def test_shoe_listen_deals_from_the_virtual_shoe(tmp_path, capsys) -> None:
    shoe = VirtualShoe("euchre", 4, ["face_up@2"], directory=str(tmp_path))
    try:
        assert cli.main(["shoe-listen", shoe.open(), "--game", "euchre", "--deals", "2"]) == 0
    finally:
        shoe.close()
    out = capsys.readouterr().out
    assert out.count("deal finished: complete") == 2 and len(re.findall(r"^#\d+ +card ", out, re.M)) == 42
    assert "table (turn-up)" in out and " up " in out


def test_bench_link_quick_runs(capsys) -> None:
    assert cli.main(["bench", "link", "--quick", "--json"]) in (0, 1)
    out = capsys.readouterr().out
    assert '"decode_frames_per_s_median"' in out and '"latency_ms_p99"' in out


class _Tee:
    """stderr for the CLI under test: keeps what is written and says when ``text`` shows up."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[str] = []
        self.seen = threading.Event()

    def write(self, s: str) -> int:
        self.lines.append(s)
        if self.text in "".join(self.lines):
            self.seen.set()
        return len(s)

    def flush(self) -> None:
        pass


def test_shoe_listen_waits_for_a_reflashed_shoe_after_a_refusal(tmp_path, monkeypatch) -> None:
    shoe = VirtualShoe("euchre", 6, protocol=(2, 3), directory=str(tmp_path))
    tee = _Tee("refusing the shoe")
    monkeypatch.setattr("sys.stderr", tee)
    result: list[int] = []
    t = threading.Thread(target=lambda: result.append(cli.main(["shoe-listen", shoe.open(), "--game", "euchre",
                                                                "--deals", "1"])), daemon=True)
    try:
        t.start()
        assert tee.seen.wait(10), "no refusal"
        shoe.reflash((1, 1))                     # the club reflashes the shoe; the host is still there
        t.join(20)
    finally:
        shoe.close()
    assert result == [0]
    err = "".join(tee.lines)
    assert err.count("refusing the shoe") == 1
    assert err.count("waiting for a shoe speaking protocol 1.x") == 1


def test_shoe_listen_asks_for_the_next_deal_without_waiting_for_a_pack_loaded(monkeypatch, capsys) -> None:
    """PROTOCOL.md 7: a host must not wait for PACK_LOADED between deals (euchre's kitty stays in the well
    and the next pack goes on top of it: no PACK_LOADED comes)."""
    from dataclasses import replace

    from firmware_host.shoe import link as link_module

    class KittyShoe:
        """One PACK_LOADED at power-up; every deal ends with cards left in the well, and no more."""

        def __init__(self, url, on_event, **kw) -> None:  # type: ignore[no-untyped-def]
            self.on_event, self.seq, self.cmd = on_event, 0, 0

        def _next(self) -> int:
            self.seq += 1
            return self.seq

        def start(self) -> None:
            self.on_event(m.LinkStatus(True, "kitty shoe"))
            self.on_event(m.PackLoaded(self._next(), "E1"))

        def send(self, cmd):  # type: ignore[no-untyped-def]
            self.cmd += 1
            cmd = replace(cmd, cmd=self.cmd)
            self.on_event(m.DealBegan(self._next(), cmd.dealer, cmd.turn_up, cmd.pattern, cmd.pack, answers=cmd.cmd))
            self.on_event(m.Reply(self._next(), cmd.cmd, m.Status.OK, ""))
            self.on_event(m.DealFinished(self._next(), m.FinishReason.COMPLETE, 21, True, answers=cmd.cmd))
            return cmd

        def counters(self) -> dict:
            return {}

        def stop(self) -> None:
            pass

    monkeypatch.setattr(link_module, "ShoeLink", KittyShoe)
    result: list[int] = []
    t = threading.Thread(target=lambda: result.append(cli.main(["shoe-listen", "kitty://", "--game", "euchre",
                                                                "--deals", "3"])), daemon=True)
    t.start()
    t.join(10)
    assert result == [0]


def test_shoe_listen_asks_for_its_first_deal_when_a_pack_is_already_in_the_well(monkeypatch) -> None:
    """A pack loaded while an earlier run of a host listened: its PACK_LOADED was acknowledged then and is not
    sent again, so a run that waited for one never asked for a deal."""
    from dataclasses import replace

    from firmware_host.shoe import link as link_module

    class LoadedShoe:
        def __init__(self, url, on_event, **kw) -> None:  # type: ignore[no-untyped-def]
            self.on_event, self.seq = on_event, 40

        def start(self) -> None:
            self.on_event(m.LinkStatus(True, "a shoe with a pack in its well"))

        def send(self, cmd):  # type: ignore[no-untyped-def]
            cmd = replace(cmd, cmd=7)
            for msg in (m.DealBegan(41, cmd.dealer, cmd.turn_up, cmd.pattern, cmd.pack, answers=7),
                        m.Reply(42, 7, m.Status.OK, ""), m.DealFinished(43, m.FinishReason.COMPLETE, 52, False, answers=7)):
                self.on_event(msg)
            return cmd

        def counters(self) -> dict:
            return {}

        def stop(self) -> None:
            pass

    monkeypatch.setattr(link_module, "ShoeLink", LoadedShoe)
    result: list[int] = []
    t = threading.Thread(target=lambda: result.append(cli.main(["shoe-listen", "loaded://", "--deals", "1"])),
                         daemon=True)
    t.start()
    t.join(10)
    assert result == [0]


def test_shoe_listen_says_every_message_in_words_not_as_a_python_repr() -> None:
    """An installer checking a shoe with `shoe-listen` (hardware/SETUP.md) read the deal's start and end, the
    pack, a jam and the shoe's replies as Python reprs: `DealFinished(seq=58, reason=<FinishReason.COMPLETE:
    0>, dealt=52, left_in_shoe=False, answers=1)`, and the counters as a dict. Each is a line in words."""
    from firmware_host.commands.shoe_sim import _show

    msgs = [
        m.Skipped(1, 9, "bad CRC"), m.Hello(2, 1, 2, 0xABCD, 1, 0, 64, "shoe-7", "1.2.0"),
        m.Heartbeat(3, m.ShoeState.DEALING, False, True, 4), m.Pong(4, 99), m.PackLoaded(5, "A1"), m.PackLoaded(6, ""),
        m.DealBegan(7, Seat.N, 0, (1,) * 13, "", answers=1), m.DealBegan(8, Seat.E, 1, (3, 2, 3, 2), "E1", answers=2),
        m.Reply(9, 1, m.Status.OK, ""), m.Reply(10, 2, m.Status.BUSY, "dealing", stale=True),
        m.Jam(11, 5, False), m.Jam(12, 5, True), m.Empty(13, 40), m.ButtonPressed(14, Seat.S, m.ButtonKind.DEMAND),
        m.ShoeError(15, m.ErrorCode.HARDWARE, "motor"), m.ShoeError(16, 1, "reserved"),
        m.DealFinished(17, m.FinishReason.COMPLETE, 52, False, answers=1),
        m.DealFinished(18, m.FinishReason.ABORTED, 20, True, answers=2), m.DealFinished(19, 9, 3, False),
    ]
    lines = [_show(msg) for msg in msgs]
    for msg, line in zip(msgs, lines):
        assert type(msg).__name__ not in line and "(seq=" not in line and "<" not in line, line
        assert line.startswith(f"#{msg.seq:<4} "), line
    assert lines[16] == "#17   deal finished: complete, 52 cards dealt"
    assert lines[17] == "#18   deal finished: aborted, 20 cards dealt, a card left in the shoe"
    assert lines[6] == "#7    deal began: dealer N, 13 packets of 1, no turn-up, any pack"
    assert lines[10] == "#11   jam at card 5"
    from firmware_host.commands.shoe_sim import _counters

    text = _counters({"frames": 62, "hellos": 1, "resend_requests": 1, "opens": 1})
    assert text == "counters: frames 62, hellos 1, resend requests 1, opens 1"
