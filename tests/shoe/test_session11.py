"""Protocol 1.1 on the host's state machine (fake clock): one RESEND per gap, repeated only after
0.3 s without progress; numbered commands resent on a timer until their REPLY, at most eight in flight."""

from __future__ import annotations

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.session import ShoeSession
from laws.cards import Card, Seat

HELLO = m.Hello(0, 1, 1, 77, 0, 0x3F, 128, "t", "1.1.0")
HELLO_10 = m.Hello(0, 1, 0, 77, 0, 0x3F, 128, "t", "1.0.0")


def card(seq: int) -> m.CardOut:
    return m.CardOut(seq, seq % 200, Seat.N, False, Card("A", "S"), m.Orientation.DOWN, 90, "A")


def sent(data: bytes) -> list:
    return codec.Decoder().feed(data)


def online(hello: m.Hello = HELLO, now: float = 0.0) -> ShoeSession:
    s = ShoeSession(session_id=5, offline_after=100.0)      # silence is not what these tests are about
    s.connection_made(now)
    events, _ = s.receive(codec.encode(hello), now)
    assert events and events[0].online
    return s


def resends(data: bytes) -> list[m.Resend]:
    return [x for x in sent(data) if isinstance(x, m.Resend)]


def test_a_streaming_backlog_costs_one_resend_request() -> None:
    s = online()
    _, out = s.receive(codec.encode(m.Heartbeat(40, m.ShoeState.DEALING, False, True, 40)), 0.10)
    asked = resends(out)
    assert asked == [m.Resend(1, 40)]
    now = 0.10
    for i in range(1, 41):           # the resent messages come in order, live ones (41+) overtake them
        now += 0.002
        data = codec.encode(card(i))
        if i % 4 == 0:
            data += codec.encode(card(40 + i // 4))
        events, out = s.receive(data, now)
        assert [e.seq for e in events if isinstance(e, m.CardOut)][:1] == [i]
        asked += resends(out)
        _, out = s.tick(now)
        asked += resends(out)
    assert asked == [m.Resend(1, 40)]
    assert s.expected == 51 and not s._early


def test_a_gap_that_makes_no_progress_is_asked_again_after_the_interval_only() -> None:
    s = online()
    _, out = s.receive(codec.encode(card(3)), 1.00)
    assert resends(out) == [m.Resend(1, 2)]
    assert resends(s.tick(1.29)[1]) == []
    events, out = s.receive(codec.encode(card(1)), 1.20)       # progress: the timer starts again
    assert [e.seq for e in events] == [1] and resends(out) == []
    assert resends(s.tick(1.45)[1]) == []
    assert resends(s.tick(1.51)[1]) == [m.Resend(2, 2)]
    events, _ = s.receive(codec.encode(card(2)), 1.6)
    assert [e.seq for e in events] == [2, 3]
    assert resends(s.tick(5.0)[1]) == [] and s.stats["resend_requests"] == 2
    _, out = s.receive(codec.encode(card(5)), 5.01)              # a new gap: a new request at once
    assert resends(out) == [m.Resend(4, 4)]


def test_a_command_is_resent_on_a_timer_until_its_reply_arrives() -> None:
    s = online()
    cmd, data = s.command(m.StartDeal(Seat.E, (1,) * 13), 1.0)
    assert sent(data) == [cmd] and cmd.cmd == 1
    assert s.tick(1.4)[1] == b""
    assert sent(s.tick(1.51)[1]) == [cmd]                       # lost on a healthy line: sent again
    assert s.tick(1.9)[1] == b""
    assert sent(s.tick(2.02)[1]) == [cmd]
    s.receive(codec.encode(m.Reply(1, 1, m.Status.OK, "")), 2.1)
    assert s.tick(5.0)[1] == b""


def test_at_most_eight_commands_are_in_flight_and_the_rest_follow_in_order() -> None:
    s = online()
    cmds = []
    for i in range(10):
        cmd, data = s.command(m.SetLamp(1, 1, i % 5), 1.0)
        cmds.append(cmd)
        assert (data != b"") == (i < 8)
    assert [c.cmd for c in cmds] == list(range(1, 11))
    assert [x.cmd for x in sent(s.tick(1.6)[1])] == list(range(1, 9))    # all in flight, in order
    _, out = s.receive(codec.encode(m.Reply(1, 1, m.Status.OK, "")), 1.7)
    assert [x.cmd for x in sent(out) if isinstance(x, m.SetLamp)] == [9]
    _, out = s.receive(codec.encode(m.Reply(2, 2, m.Status.OK, "")), 1.8)
    assert [x.cmd for x in sent(out) if isinstance(x, m.SetLamp)] == [10]


def test_a_shoe_of_protocol_10_gets_commands_again_only_after_a_handshake() -> None:
    s = online(HELLO_10)
    cmd, data = s.command(m.Pause(), 1.0)
    assert sent(data) == [cmd]
    assert s.tick(3.0)[1] == b"" or cmd not in sent(s.tick(3.0)[1])
    s.connection_lost(3.1, "unplugged")
    s.connection_made(3.2)
    _, out = s.receive(codec.encode(HELLO_10), 3.3)
    assert cmd in sent(out)


def test_the_host_says_it_speaks_12() -> None:
    s = ShoeSession(session_id=9)
    (hello,) = sent(s.connection_made(0.0))
    assert (hello.major, hello.minor) == (1, 2)


def test_a_previous_runs_reply_replayed_from_the_ring_does_not_answer_our_command() -> None:
    s = ShoeSession(session_id=6, offline_after=100.0)        # a host restarted: ids start at 1 again
    s.connection_made(0.0)
    s.receive(codec.encode(m.Hello(3, 1, 1, 77, 2, 0x3F, 128, "t", "1.1.0")), 0.0)   # 2-3 held
    cmd, data = s.command(m.StartDeal(Seat.E, (1,) * 13), 0.1)
    assert sent(data) == [cmd] and cmd.cmd == 1
    old = m.Reply(3, 1, m.Status.BUSY, "a deal is in progress")     # the last run's command 1
    events, _ = s.receive(codec.encode(card(2)) + codec.encode(old), 0.2)
    assert old in events and s.stats["stale_replies"] == 1
    assert sent(s.tick(0.7)[1]) == [cmd]                          # still ours to answer: sent again
    s.receive(codec.encode(m.Reply(4, 1, m.Status.OK, "")), 0.8)
    assert s.tick(2.0)[1] == b""


def test_a_shoe_that_restarts_while_the_port_stays_open_hears_our_session_before_our_commands() -> None:
    # A watchdog restart on a UART: the port never closes, so without a HOST_HELLO the new boot knows no
    # session and would do our repeated commands by the 1.0 rules (any id, any order).
    s = online()
    cmd, _ = s.command(m.Pause(), 1.0)
    restarted = m.Hello(0, 1, 1, 78, 0, 0x3F, 128, "t", "1.1.0")
    events, out = s.receive(codec.encode(restarted), 1.2)
    assert any(isinstance(e, m.ShoeRestarted) for e in events)
    frames = sent(out)
    assert isinstance(frames[0], m.HostHello) and frames[0].next_cmd == cmd.cmd
    assert cmd in frames and frames.index(cmd) > 0
