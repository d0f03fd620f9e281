"""Protocol 1.1's loose ends (issue 20, "The shoe protocol"), each decided in PROTOCOL.md and held here:
the HOST_HELLO pace, deals of an earlier host run, ``pass_ms``/``gap_ms``, when the host acknowledges,
a minor-1 HOST_HELLO without ``next_cmd``, ERROR 4's number, ``RESEND first 0`` on an empty ring, a
coalesced RESEND below the ring, link commands with a non-zero ``cmd``, white space in card codes and
the one repeat timer for numbered commands."""

from __future__ import annotations

import contextlib
import io
import struct
import threading

import pytest

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.scanner import parse_code
from firmware_host.shoe.session import ShoeSession
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import Card, Seat
from tests.contract import shoewire as w
from tests.shoe.collector import Collector
from tests.shoe.fwkit import Bench
from tests.shoe.vectors import load

HELLO = m.Hello(0, 1, 1, 77, 0, 0x3F, 128, "t", "1.1.0")


def sent(data: bytes) -> list:
    return codec.Decoder().feed(data)


def online(hello: m.Hello = HELLO, now: float = 0.0) -> ShoeSession:
    s = ShoeSession(session_id=5, offline_after=100.0)
    s.connection_made(now)
    s.receive(codec.encode(hello), now)
    return s


def numbered(msgs: list) -> list:
    return [x for x in msgs if not isinstance(x, (m.Hello, m.Heartbeat, m.Pong))]


# --- the HOST_HELLO pace (sections 6.1, 6.2) ------------------------------------------------------------


def test_a_host_waiting_for_hello_says_host_hello_every_half_second_however_often_frames_arrive() -> None:
    """While the host waits for HELLO, frames that arrive (a button pressed ten times a second) do not
    make it say HOST_HELLO again sooner than the 0.5 s of section 6.2 (it used to answer nearly every
    frame, 0.09 to 0.15 s apart)."""
    s = ShoeSession(session_id=5, offline_after=100.0)
    said = [0.0] if any(isinstance(x, m.HostHello) for x in sent(s.connection_made(0.0))) else []
    now, seq = 0.0, 0
    while now < 3.0:
        now = round(now + (0.09 if seq % 2 else 0.15), 3)
        seq += 1
        _, out = s.receive(codec.encode(m.ButtonPressed(seq, Seat.N, m.ButtonKind.CALL)), now)
        _, out2 = s.tick(now)
        said += [now for x in sent(out + out2) if isinstance(x, m.HostHello)]
    gaps = [b - a for a, b in zip(said, said[1:])]
    assert said[0] == 0.0 and len(said) >= 5
    assert min(gaps) >= 0.5 - 1e-9, gaps


def test_a_frame_after_half_a_second_of_waiting_still_brings_a_host_hello_at_once() -> None:
    s = ShoeSession(session_id=5, offline_after=100.0)
    s.connection_made(0.0)
    _, out = s.receive(codec.encode(m.ButtonPressed(1, Seat.N, m.ButtonKind.CALL)), 0.2)
    assert sent(out) == []
    _, out = s.receive(codec.encode(m.ButtonPressed(2, Seat.N, m.ButtonKind.CALL)), 0.55)
    assert [type(x) for x in sent(out)] == [m.HostHello]


# --- deals of an earlier host run (section 6.3) ---------------------------------------------------------


def _card(seq: int, index: int = 1) -> m.CardOut:
    return m.CardOut(seq, index, Seat.E, False, Card("A", "S"), m.Orientation.DOWN, 90, "A1")


def test_a_deal_numbered_before_our_start_deal_answers_nothing_and_ours_does() -> None:
    """A restarted host is replayed the deal its earlier run asked for; the DEAL_STARTED and the
    DEAL_FINISHED of that deal are passed on but answer none of this run's commands (``answers`` 0);
    the deal the shoe starts for our START_DEAL answers it, and so does the DEAL_FINISHED that ends it."""
    s = ShoeSession(session_id=6, offline_after=100.0)
    s.connection_made(0.0)
    s.receive(codec.encode(m.Hello(4, 1, 1, 77, 2, 0x3F, 128, "t", "1.1.0")), 0.0)   # 2-4 held
    cmd, _ = s.command(m.StartDeal(Seat.N, (1,), 0, "A1"), 0.1)                     # known_last 4
    old = [m.DealBegan(2, Seat.N, 0, (1,), "A1"), _card(3), m.DealFinished(4, m.FinishReason.EMPTY, 1, False),
           m.DealFinished(5, m.FinishReason.ABORTED, 0, False)]       # ... and one numbered after the command
    new = [m.DealBegan(6, Seat.N, 0, (1,), "A1"), m.Reply(7, 1, m.Status.OK, ""), _card(8),
           m.DealFinished(9, m.FinishReason.COMPLETE, 4, False)]
    events, _ = s.receive(b"".join(codec.encode(x) for x in old + new), 0.2)
    got = {e.seq: e for e in events}
    assert [got[n].answers for n in (2, 4, 5)] == [0, 0, 0]
    assert (got[6].answers, got[9].answers) == (cmd.cmd, cmd.cmd)
    assert s.stats["stale_deals"] == 1
    assert got[2] == old[0] and got[9] == new[3]        # the wire meaning is unchanged: answers is the host's


def test_a_restarted_listener_reports_the_deal_it_asked_for_not_the_replayed_one(tmp_path) -> None:
    """A host killed mid-deal (its messages never acknowledged) and restarted: ``cardtable shoe-listen
    --deals 1`` used to count the replayed deal's DEAL_FINISHED as its own and stop, while the shoe dealt
    the pack it had just asked for and nobody reported it."""
    from firmware_host.cli import main

    shoe = VirtualShoe("contract-bridge", 11, directory=str(tmp_path), gap_ms=6)
    path = shoe.open()
    first = Collector()
    link = ShoeLink(path, first, auto_ack=False, backoff=(0.01, 0.1))    # a table that had not committed
    link.start()
    try:
        first.wait(lambda evs: any(isinstance(e, m.PackLoaded) for e in evs))
        link.send(m.StartDeal(Seat.N, (1,) * 13, 0, "A1"))
        first.wait(lambda evs: sum(isinstance(e, m.PackLoaded) for e in evs) >= 2)   # dealt; next pack in
    finally:
        link.stop()                                        # killed: nothing it got was acknowledged
    try:
        out = io.StringIO()
        result: list[int] = []
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            t = threading.Thread(target=lambda: result.append(main(["shoe-listen", path, "--deals", "1"])),
                                 daemon=True)
            t.start()
            t.join(30)
        assert result == [0]
        assert shoe.deals == 2 and not shoe.firmware.dealing      # the deal it asked for was dealt ...
        lines = out.getvalue().splitlines()
        cards = [line for line in lines if " card " in line]
        assert len(cards) == 104 and len(shoe.dealt) == 104      # ... and every card of it was reported
    finally:
        shoe.close()


# --- pass_ms and gap_ms (section 11) --------------------------------------------------------------------


def test_the_sessions_card_times_follow_pass_ms_and_gap_ms_as_defined() -> None:
    """Section 11: the first card enters the exit at the first millisecond after the one in which the
    shoe accepted the START_DEAL, blocks it ``pass_ms`` milliseconds and leaves (its CARD_OUT written in
    that millisecond); the next enters ``gap_ms`` after that."""
    doc = load()["session"]
    steps = doc["steps"]
    accepted = next(s["t"] for s in steps if s["note"].startswith("DEAL_STARTED"))
    first_out: dict[int, int] = {}
    for s in steps:
        if s["from"] == "shoe" and s["note"].startswith("CARD_OUT"):
            first_out.setdefault(int(s["note"].split("index ")[1].split(",")[0]), s["t"])
    enter, want = accepted + 1, []
    for _ in doc["well"]:
        leave = enter + doc["pass_ms"]
        want.append(leave)
        enter = leave + doc["gap_ms"]
    assert [first_out[i] for i in sorted(first_out)] == want


# --- when the host acknowledges (section 5) -------------------------------------------------------------


def test_the_host_acknowledges_once_per_read_that_delivered_and_again_at_each_handshake() -> None:
    link = ShoeLink("loop://", lambda ev: None)
    link.session.connection_made(0.0)
    _, out = link._received(codec.encode(HELLO), 0.0)
    assert sent(out) == []                                 # nothing delivered yet: no ACK (never ACK 0)
    _, out = link._received(b"".join(codec.encode(_card(n, n)) for n in (1, 2, 3)), 0.1)
    assert sent(out) == [m.Ack(3)]                          # one ACK for the read, the highest delivered
    _, out = link._received(codec.encode(_card(2, 2)), 0.2)
    assert sent(out) == []                                 # a duplicate delivers nothing: no ACK
    _, out = link._received(codec.encode(m.Hello(3, 1, 1, 77, 1, 0x3F, 128, "t", "1.1.0")), 0.3)
    assert sent(out) == [m.Ack(3)]                          # a handshake repeats the last ACK
    _, out = link._received(codec.encode(_card(5, 5)), 0.4)
    assert [type(x) for x in sent(out)] == [m.Resend]      # a gap: nothing delivered, no ACK past it


# --- a HOST_HELLO of minor 1 or more without next_cmd (section 4.3) ------------------------------------


def _hello_frame(minor: int, session: int, next_cmd: int | None) -> bytes:
    fields = {"major": 1, "minor": minor, "session": session}
    if next_cmd is not None:
        fields["next_cmd"] = next_cmd
    return w.encode("HOST_HELLO", 0, fields)


@pytest.mark.parametrize("minor", [1, 2, 7])
def test_a_host_hello_without_next_cmd_reads_and_writes_back_alike(minor: int) -> None:
    frame = _hello_frame(minor, 0x0A0B, None)
    (hello,) = codec.Decoder().feed(frame)
    assert hello.next_cmd is None and codec.encode(hello) == frame
    with_zero = _hello_frame(minor, 0x0A0B, 0)                # next_cmd 0 is there (read as 1): not the same
    (hello0,) = codec.Decoder().feed(with_zero)
    assert hello0.next_cmd == 0 and codec.encode(hello0) == with_zero


def test_a_shoe_takes_a_minor_1_host_hello_without_next_cmd_as_a_10_hosts() -> None:
    b = Bench()
    b.load()
    b.run(2)
    b.port.inbox += _hello_frame(1, 0x0A0B, None)
    msgs = b.run(1)
    assert [type(x) for x in msgs] == [m.Hello]
    b.host(m.SetLamp(1, 1, 2, cmd=5), m.SetLamp(2, 1, 2, cmd=3))     # 1.0 rules: 5 done, then 3 is a repeat
    assert [x.cmd for x in numbered(b.run(1)) if isinstance(x, m.Reply)] == [5]


# --- ERROR 4's number (section 4.2) ---------------------------------------------------------------------


def test_error_4_names_the_last_number_overwritten_once_it_is_in_the_ring() -> None:
    """The ERROR takes a slot of the full ring too, so it overwrites one more message; its detail names
    the highest number gone once it is held, which is HELLO's ``oldest_held`` minus one (it used to name
    the number before, one that the ERROR itself then overwrote)."""
    b = Bench(ring_size=8)
    b.load()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    got: list = []
    while not any(isinstance(x, m.ShoeError) for x in got):
        got += b.run(1)
    (err,) = [x for x in got if isinstance(x, m.ShoeError)]
    assert err.seq == 10 and b.shoe.ring.oldest_seq() == 3        # 1-3 the deal's start, 4-9 cards
    assert err.detail == "ring full: messages up to 2 overwritten"
    b.host(m.HostHello(9))
    (hello,) = [x for x in b.run(1) if isinstance(x, m.Hello)]
    assert hello.oldest_held - 1 == 2


def test_error_4_is_sent_once_per_overflow_and_again_after_the_ring_had_room() -> None:
    b = Bench(ring_size=8)
    b.load()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    msgs = b.run(60)
    b.host(m.Ack(b.shoe.seq))                 # room again
    msgs += b.run(400)
    errors = [x for x in numbered(msgs) if isinstance(x, m.ShoeError)]
    assert len(errors) == 2
    for e in errors:                          # the ERROR is the newest of eight held: the one before is gone
        assert e.detail == f"ring full: messages up to {e.seq - 8} overwritten"


# --- RESEND first 0 on an empty ring; a coalesced RESEND below the ring (section 5) --------------------


def test_resend_first_0_on_an_empty_ring_is_answered_by_hello_only() -> None:
    b = Bench()
    b.run(2)
    assert b.shoe.seq == 0
    b.host(m.Resend(0))
    assert [type(x) for x in b.run(5)] == [m.Hello]          # nothing numbered yet: HELLO, oldest_held 0
    b.load()
    b.run(3)                                                  # PACK_LOADED, number 1
    b.host(m.Ack(1), m.Resend(0))
    got = b.run(5)
    assert [type(x) for x in got] == [m.Hello] and got[0].oldest_held == 0 and got[0].seq == 1


def test_a_coalesced_resend_below_the_ring_still_gets_its_hello() -> None:
    b = Bench(ring_size=16)
    b.load()
    b.host(m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    b.run(400)
    b.port.take()
    oldest = b.shoe.ring.oldest_seq()
    b.host(m.Resend(oldest))
    first = b.run(1)
    assert [x.seq for x in numbered(first)] == list(range(oldest, oldest + 4))
    b.host(m.Resend(oldest - 5))               # below the ring, and what is held of it is on its way
    again = b.run(1)
    assert isinstance(again[0], m.Hello) and again[0].oldest_held == oldest
    assert b.shoe.coalesced_resends == 1
    rest = [x.seq for x in numbered(again + b.run(10))]
    assert rest == list(range(oldest + 4, b.shoe.seq + 1))     # and nothing was sent twice


# --- link commands with a non-zero cmd (section 4.3) ----------------------------------------------------


def test_a_link_command_with_a_non_zero_cmd_is_done_as_a_link_command_and_never_answered() -> None:
    b = Bench()
    b.load()
    b.host(m.HostHello(7, next_cmd=1))
    b.run(2)
    b.host(m.Ping(0x0102, cmd=9), m.Ack(1, cmd=4), m.Resend(1, 1, cmd=3))
    got = b.run(3)
    assert [type(x) for x in got if not isinstance(x, m.Heartbeat)] == [m.Pong, m.Hello]   # RESEND 1: gone
    assert b.shoe.ring.count == 0 and b.shoe.last_cmd == 0         # ACK done; no command id used up
    b.port.inbox += w.encode("HOST_HELLO", 3, {"major": 1, "minor": 1, "session": 8, "next_cmd": 4})
    assert [type(x) for x in b.run(1)] == [m.Hello] and b.shoe.last_cmd == 3


# --- white space and case in card codes (section 8) -----------------------------------------------------

CODE = "1B7TDY"
LONG_S = "1b7t\u017f" + w.check_char("1B7TS")
TEXTS = [
    (f" \t{CODE}\r\n", ("B7", "TD")),
    (f"{CODE.lower()}\n", ("B7", "TD")),
    (f"\x0b{CODE}", ("", None)),          # vertical tab: not white space here
    (f"{CODE}\x0c", ("", None)),          # form feed
    (f"\x1c{CODE}", ("", None)),          # a file separator (Python's str.strip() takes it off)
    (f"\u00a0{CODE}", ("", None)),        # a no-break space
    (f"{CODE}\u2003", ("", None)),
    (LONG_S, ("", None)),                 # a long s: Python's str.upper() makes it an S (a valid code)
    ("1B7T\u0131Y", ("", None)),          # a dotless i
]


@pytest.mark.parametrize(("text", "want"), TEXTS, ids=[repr(t) for t, _ in TEXTS])
def test_only_space_tab_cr_lf_are_white_space_and_only_a_to_z_are_upper_cased(text: str, want: tuple) -> None:
    from shoefw.hal import parse_payload

    assert parse_payload(text) == (want[0], want[1])
    pack, card = parse_code(text)
    assert (pack, card.code if card else None) == want
    card_w, pack_w = w.read_card_code(text)
    assert (pack_w, card_w) == want


def test_the_long_s_would_have_made_a_card() -> None:
    assert LONG_S.upper() == "1B7TS" + w.check_char("1B7TS")     # what str.upper() does on CPython


def test_card_codes_with_odd_white_space_read_alike_on_micropython(tmp_path) -> None:
    from tests.shoe.test_micropython import both

    texts = [t for t, _ in TEXTS]
    script = ("from shoefw.hal import parse_payload\n"
              f"for t in {texts!r}:\n"
              "    print(repr(parse_payload(t)))\n")
    lines = both(script, tmp_path).splitlines()
    assert lines == [repr(want) for _, want in TEXTS]


# --- one repeat timer for the numbered commands (sections 6.2, 6.3) ------------------------------------


def test_commands_in_flight_are_repeated_together_when_the_least_recently_sent_has_waited() -> None:
    s = online()
    a, _ = s.command(m.SetLamp(1, 1, 0), 1.0)
    b, _ = s.command(m.SetLamp(2, 1, 0), 1.3)
    assert s.tick(1.49)[1] == b""
    assert sent(s.tick(1.5)[1]) == [a, b]          # a waited 0.5 s: both go, in id order
    assert s.tick(1.99)[1] == b""                  # b's own 0.5 s (from 1.3) is not a second timer
    assert sent(s.tick(2.0)[1]) == [a, b]
    s.receive(codec.encode(m.Reply(1, 1, m.Status.OK, "")), 2.1)
    assert s.tick(2.49)[1] == b""
    assert sent(s.tick(2.5)[1]) == [b]
    s.receive(codec.encode(m.Reply(2, 2, m.Status.OK, "")), 2.6)
    assert s.tick(9.0)[1] == b""


def test_link_commands_are_not_part_of_it() -> None:
    s = online()
    _, data = s.command(m.Ping(3), 1.0)
    assert sent(data) == [m.Ping(3)] and s.tick(5.0)[1] == b""
    assert struct.unpack(">I", codec.encode(m.Ping(3))[3:7])[0] == 0       # cmd 0 on the wire


# --- an ABORT that arrives as a card leaves (section 4.3) -----------------------------------------------


def test_a_card_that_left_before_the_abort_was_read_belongs_to_the_deal() -> None:
    """The exit cleared in the same loop as the ABORT arrived: the card landed at its seat, so it is
    reported in the deal, before DEAL_FINISHED (it used to come after it, as a card outside any deal,
    which a host gives to no seat: a card missing from a hand)."""
    b = Bench()
    b.load()
    b.host(m.HostHello(7, next_cmd=1), m.StartDeal(Seat.N, (1,) * 13, cmd=1))
    b.run(12)
    while b.hw.slot is None:
        b.run(1)
    b.run(1)                                      # the shoe has seen the card in the exit
    b.hw.slot_until = b.clock.ms                  # it leaves at the next step
    b.host(m.Abort(cmd=2))
    msgs = numbered(b.run(1))
    kinds = [type(x).__name__ for x in msgs]
    assert kinds == ["CardOut", "DealFinished", "Reply"]
    assert msgs[0].index == msgs[1].dealt and msgs[0].seat is not None
