"""Protocol 1.1 in the reference firmware (CPython, fake clock): a resend cursor that coalesces
requests, command ids done once and in order, statuses decided in one documented order."""

from __future__ import annotations

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from laws.cards import Seat
from tests.shoe.fwkit import Bench, wire

BRIDGE = (1,) * 13


def _numbered(msgs: list) -> list:
    return [x for x in msgs if not isinstance(x, (m.Hello, m.Heartbeat, m.Pong))]


def _hello11(b: Bench, session: int = 7, next_cmd: int = 1) -> None:
    b.host(m.HostHello(session, next_cmd=next_cmd))
    b.run(1)


def test_repeated_resend_requests_are_coalesced_into_one_pass() -> None:
    b = Bench()
    b.load()
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(400)                                   # 55 messages in the ring, none acknowledged
    backlog = b.shoe.seq
    b.port.take()
    b.host(m.Resend(1), m.Resend(1), m.Resend(1))        # a 1.0 host asking on every read
    sent = b.run(3)
    b.host(m.Resend(4), m.Resend(2), m.Resend(9))        # ... for frames already on their way
    for _ in range(40):
        sent += b.run(1)
    seqs = [x.seq for x in _numbered(sent)]
    assert seqs == list(range(1, backlog + 1))           # each frame once, in order
    assert b.shoe.coalesced_resends == 5 and b.shoe.resent_frames == backlog


def test_a_resend_reaching_further_back_restarts_the_pass_and_an_acknowledged_part_is_skipped() -> None:
    b = Bench()
    b.load()
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(400)
    b.port.take()
    b.host(m.Resend(30))
    first = [x.seq for x in _numbered(b.run(1))]
    assert first == [30, 31, 32, 33]                     # a few frames per poll
    b.host(m.Resend(20), m.Ack(24))
    rest = [x.seq for x in _numbered(b.run(20))]
    assert rest == list(range(25, b.shoe.seq + 1))


def test_a_repeated_command_id_gets_the_same_reply_and_is_not_done_twice() -> None:
    b = Bench()
    b.load()
    _hello11(b)
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(10)
    dealt = b.shoe.dealt
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1), m.StartDeal(Seat.N, BRIDGE, cmd=1))
    msgs = _numbered(b.run(1))
    assert [type(x).__name__ for x in msgs if not isinstance(x, m.CardOut)] == ["Reply", "Reply"]
    replies = [x for x in msgs if isinstance(x, m.Reply)]
    assert replies[0] == replies[1] and replies[0].cmd == 1 and replies[0].status == m.Status.OK
    assert b.shoe.replies[0] == (1, codec.encode(replies[0]))          # the very frame, byte for byte
    assert b.shoe.repeated_commands == 2 and b.shoe.dealing and b.shoe.dealt >= dealt


def test_a_11_hosts_commands_are_done_in_id_order_from_next_cmd() -> None:
    b = Bench()
    b.load()
    _hello11(b, next_cmd=7)                      # e.g. the shoe restarted while 7 was in flight
    b.host(m.SetLamp(1, 1, 2, cmd=8))            # 7 was lost on the line: 8 must wait
    assert _numbered(b.run(1)) == [] and b.shoe.early_commands == 1
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=7), m.SetLamp(1, 1, 2, cmd=8))
    msgs = _numbered(b.run(1))
    assert [(type(x).__name__, getattr(x, "cmd", None)) for x in msgs] == [
        ("DealBegan", None), ("Reply", 7), ("Reply", 8)]
    assert b.hw.lamps == {1: (1, 2)}


def test_a_10_host_keeps_the_10_rule() -> None:
    b = Bench()
    b.load()
    b.host(m.HostHello(3, minor=0, next_cmd=None))
    b.host(m.SetLamp(1, 1, 2, cmd=5), m.SetLamp(2, 1, 2, cmd=3))
    msgs = _numbered(b.run(1))
    assert [x.cmd for x in msgs if isinstance(x, m.Reply)] == [5]    # a higher number: done; lower: not


def test_statuses_are_decided_in_the_documented_order() -> None:
    b = Bench()
    b.load()
    _hello11(b)
    b.host(m.Abort(cmd=1), m.Resume(cmd=2), m.StartDeal(Seat.N, BRIDGE, cmd=3),
           m.StartDeal(Seat.N, (), cmd=4),                # bad arguments beat busy
           m.StartDeal(Seat.N, (64,) * 1, cmd=5),         # 257 cards: bad arguments
           m.StartDeal(Seat.N, BRIDGE, cmd=6),            # busy
           m.Resume(cmd=7), m.Pause(cmd=8), m.Pause(cmd=9), m.Resume(cmd=10),
           m.SetLamp(5, 1, 0, cmd=11), m.SetLamp(1, 4, 0, cmd=12), m.SetLamp(1, 1, 5, cmd=13))
    msgs = _numbered(b.run(1))
    got = {r.cmd: r.status for r in msgs if isinstance(r, m.Reply)}
    S = m.Status
    assert got == {1: S.BAD_STATE, 2: S.BAD_STATE, 3: S.OK, 4: S.BAD_ARGS, 5: S.BAD_ARGS, 6: S.BUSY,
                   7: S.OK, 8: S.OK, 9: S.OK, 10: S.OK, 11: S.BAD_ARGS, 12: S.UNSUPPORTED, 13: S.UNSUPPORTED}


def test_abort_with_a_card_in_the_exit_finishes_then_replies_then_reports_the_card_outside_the_deal() -> None:
    b = Bench()
    b.load()
    _hello11(b)
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(6)
    while not b.hw.exit_blocked():
        b.run(1)
    b.host(m.Abort(cmd=2))
    msgs = _numbered(b.run(10))
    kinds = [type(x).__name__ for x in msgs]
    at = kinds.index("DealFinished")
    assert kinds[at:at + 3] == ["DealFinished", "Reply", "CardOut"]
    assert msgs[at].reason == m.FinishReason.ABORTED and msgs[at + 1].cmd == 2
    card = msgs[at + 2]
    assert (card.index, card.seat, card.turn_up) == (0, None, False) and card.card is not None


def test_a_jam_outside_a_deal_has_index_0() -> None:
    b = Bench(jam_ms=50, hw_jam_ms=120)
    b.load()
    _hello11(b)
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(400)
    assert not b.shoe.dealing and b.shoe.dealt == 52
    b.hw.load(b.hw.gather() + [b.hw.left[0]])
    b.hw.well[0].jams = True
    b.hw.step(b.clock.ms, True)                  # the dealer pushes a card into the exit by hand
    jams = [x for x in _numbered(b.run(200)) if isinstance(x, m.Jam)]
    assert [(j.index, j.cleared) for j in jams] == [(0, False), (0, True)]


def test_a_full_ring_says_so_once_with_error_4() -> None:
    b = Bench(ring_size=8)
    b.load()
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    errors = [x for x in _numbered(b.run(400)) if isinstance(x, m.ShoeError)]
    assert [e.code for e in errors] == [m.ErrorCode.RING_OVERFLOW]
    assert errors[0].detail == "ring full: messages up to 2 overwritten"


def test_a_back_mark_is_an_unreadable_card_of_its_pack_and_other_non_cards_have_no_pack() -> None:
    from shoefw.hal import check_char, parse_payload

    assert parse_payload("1B7ZZ" + check_char("1B7ZZ")) == ("B7", None)
    assert parse_payload("1B7XX" + check_char("1B7XX")) == ("", None)
    assert parse_payload("1B7TD" + check_char("1B7TD")) == ("B7", "TD")
    assert wire.PROTO_MINOR == 2


def test_the_shoes_own_frames_echoed_back_are_not_commands() -> None:
    b = Bench()
    b.load()
    _hello11(b)
    b.port.inbox += b"".join(b.shoe.ring.since(0))     # a loopback: the shoe hears itself
    b.run(1)
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    msgs = _numbered(b.run(1))
    assert [type(x).__name__ for x in msgs] == ["DealBegan", "Reply"] and b.shoe.bad_commands == 1


def test_a_pack_put_on_the_euchre_kitty_is_no_pack_loaded_and_can_be_dealt() -> None:
    b = Bench("euchre")
    b.load()
    _hello11(b)
    b.host(m.StartDeal(Seat.N, (3, 2), 1, "A1", cmd=1))
    msgs = _numbered(b.run(300))
    assert msgs[-1] == m.DealFinished(msgs[-1].seq, m.FinishReason.COMPLETE, 21, True)   # 3 cards left
    kitty = list(b.hw.well)
    b.load("B1")
    b.hw.well[:0] = kitty                        # the next pack goes in under the three left in the well
    b.host(m.StartDeal(Seat.E, (2, 3), 1, "B1", cmd=2))
    msgs = _numbered(b.run(300))
    assert not any(isinstance(x, m.PackLoaded) for x in msgs)
    cards = [x for x in msgs if isinstance(x, m.CardOut)]
    assert [c.pack for c in cards[:3]] == ["A1"] * 3 and len(cards) == 21


def test_a_resend_with_a_last_number_stops_there_and_a_later_one_extends_the_pass() -> None:
    b = Bench()
    b.load()
    b.host(m.StartDeal(Seat.N, BRIDGE, cmd=1))
    b.run(400)
    b.port.take()
    b.host(m.Resend(10, 12))
    assert [x.seq for x in _numbered(b.run(3))] == [10, 11, 12]
    b.host(m.Resend(20, 22), m.Resend(20, 30))           # a repeat that reaches further extends the pass
    assert [x.seq for x in _numbered(b.run(5))] == list(range(20, 31))
    b.host(m.Resend(50, 5000))                           # beyond the newest: up to the newest
    assert [x.seq for x in _numbered(b.run(5))] == list(range(50, b.shoe.seq + 1))
