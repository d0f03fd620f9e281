"""The host starts a deal on the shoe only once the journal holds everything the shoe has said.

Found by the soak (issue 20): a host killed just after sending START_DEAL restarted while another process
held the journal's write lock. The shoe had dealt that deal meanwhile; the restarted host received the
whole of it (``caught_up``) but could not commit it, so its state still said "cut, not dealt", and it
sent START_DEAL again: the shoe dealt the next pack to the same dealer, and the abort meant for the
voided first deal stopped that second one after a card (a false ``CB-redeal-incorrect``, and a rotation
one deal behind for the rest of the evening). Now the host waits until the link has caught up *and* the
controller has committed every message delivered (its ``AckPoint`` reached: ``shoe_committed``)."""

from __future__ import annotations

from typing import Any

from firmware_host.live import ShoeProcedure
from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.link import ShoeLink
from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.events import DealStarted
from laws.state import Phase
from tests.laws.streams import E, law_table

HELLO_AT_5 = m.Hello(5, 1, 0, 77, 1, 0x3F, 128, "t", "1.0.0")


def _card(seq: int) -> m.CardOut:
    return m.CardOut(seq, seq, Seat.E, False, Card("A", "S"), m.Orientation.DOWN, 90, "A1")


class FakeController:
    """What ``ShoeProcedure`` uses of the controller: the engine (cut, the deal not started), the loaded
    pack, and its hooks."""

    def __init__(self) -> None:
        self.engine: LawEngine = law_table("contract-bridge")
        self.engine.feed_all([E("shuffle", seat="S"), E("shuffle", seat="N"), E("cut", seat="W")])
        assert self.engine.state.phase is Phase.CUT
        self.loaded_pack: str | None = "A1"
        self.submitted: list[Any] = []
        self.shoe_mark: tuple[int, int] | None = (77, 2)       # journaled before the restart
        self.shoe_committed: tuple[int, int] | None = None

    def on_pack_loaded(self, fn: Any) -> None:
        pass

    def on_fault(self, fn: Any) -> None:
        pass

    def on_shoe_progress(self, fn: Any) -> None:
        pass

    def submit(self, item: Any) -> None:
        self.submitted.append(item)


def _restarted() -> tuple[FakeController, ShoeLink, ShoeProcedure, list[m.Command]]:
    """A host restarted with messages 1-2 journaled; the shoe has sent up to 5 since (a deal it started)."""
    ctl = FakeController()
    link = ShoeLink("/nonexistent/shoe", lambda msg: None, auto_ack=False)
    sent: list[m.Command] = []
    link.send = lambda cmd: sent.append(cmd) or cmd  # type: ignore[method-assign]
    link.resume(77, 2)
    proc = ShoeProcedure(ctl, link, "contract-bridge")  # type: ignore[arg-type]
    proc.resume()                                  # the journal says: cut, not dealt
    assert sent == [] and proc.start_waiting       # not online yet: nothing is started
    link.session.connection_made(0.0)
    link.session.receive(codec.encode(HELLO_AT_5), 0.1)
    link.session.receive(b"".join(codec.encode(_card(i)) for i in (3, 4, 5)), 0.2)
    assert link.caught_up                          # every message of the shoe's past is delivered
    return ctl, link, proc, sent


def test_caught_up_but_not_committed_starts_no_deal() -> None:
    ctl, link, proc, sent = _restarted()
    ctl.shoe_committed = (77, 3)                   # the journal has committed 3 only (a stall holds 4-5)
    proc._shoe_progress()
    assert sent == [], "a deal was started while the shoe's past was not yet in the journal"
    # the rest commits: the shoe's deal is in the table's state now, so no deal is started on top of it
    ctl.engine.feed(DealStarted(Seat.N, "unknown"))
    ctl.shoe_committed = (77, 5)
    proc._shoe_progress()
    assert not any(isinstance(c, m.StartDeal) for c in sent)


def test_once_everything_is_committed_the_deal_is_started_once() -> None:
    ctl, link, proc, sent = _restarted()
    ctl.shoe_committed = (77, 5)                   # all committed, and the shoe had dealt nothing
    proc._shoe_progress()
    proc._shoe_progress()
    assert [type(c) for c in sent] == [m.StartDeal]
