"""The table controller with a real journal, gpiozero MockFactory pins and the real law engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_host.config import load_config
from firmware_host.devices.panel import Panel
from firmware_host.records.journal import Journal
from firmware_host.table.controller import (
    ButtonInput,
    ControllerError,
    DeviceStatus,
    LawInput,
    TableController,
)
from laws.cards import Seat
from tests.laws.streams import BRIDGE_PACK, E, bridge_deal, prelude, shuffled
from tests.table.fakes import Clock


@pytest.fixture
def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    cfg = load_config(None, env={}, check_devices=False)
    factory = MockFactory()
    clock = Clock()
    panel = Panel(cfg.pins, factory, clock)
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=panel, clock=clock)
    yield ctl, factory, cfg, tmp_path
    panel.close()
    journal.close()


def lamp_pin(factory: MockFactory, cfg, name: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(factory.pin(cfg.pins.lamps[name]).state)


def feed(ctl: TableController, events: list, source: str = "shoe") -> list:
    out = []
    for e in events:
        out += ctl.process(LawInput(e, source))
    return out


def euchre_dealt(ctl: TableController, then: list) -> None:
    """North deals pack R1 in a round of twos then a round of threes (law 42; every card read), then
    ``then``."""
    ctl.engine.state.next_dealer = Seat.N
    feed(ctl, prelude(Seat.N), "script")
    order = ["E", "E", "S", "S", "W", "W", "N", "N", "E", "E", "E", "S", "S", "S", "W", "W", "W", "N", "N", "N"]
    cards = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H",
             "AD", "KD", "QD", "JD"]
    feed(ctl, [E("deal_start", dealer="N", pack="R1")] + [E("card_dealt", seat=s, card=c) for s, c in zip(order, cards)]
         + then)


def test_a_bridge_card_in_a_euchre_deal_lights_new_pack_until_the_next_deal(tmp_path: Path) -> None:
    """A bridge pack in a euchre shoe: the first card outside the euchre pack stops the deal with
    ``replace_pack`` (the same dealer, a replacement pack) and NEW PACK lit until the next deal_start
    (docs/events.md, "Packs: replaced and restored"). It was a ``redeal`` from the same pack, which the
    table dealt again at once and stopped at the next such card, deal after deal."""
    cfg = load_config(None, env={}, check_devices=False)
    factory, clock = MockFactory(), Clock()
    panel = Panel(cfg.pins, factory, clock)
    j = Journal.open(tmp_path)
    try:
        ctl = TableController(game="euchre", journal=j, panel=panel, clock=clock)
        ctl.engine.state.next_dealer = Seat.N
        feed(ctl, prelude(Seat.N), "script")
        feed(ctl, [E("deal_start", dealer="N", pack="R1"), E("card_dealt", seat="E", card="AS")])
        rulings = ctl.process(LawInput(E("card_dealt", seat="E", card="2C"), "shoe"))
        assert [(r.remedy.value, r.clause, r.dealer, r.pack) for r in rulings] == \
            [("replace_pack", "EU-33", Seat.N, "R1")]
        assert ctl.engine.state.deal is not None and ctl.engine.state.deal.void
        assert lamp_pin(factory, cfg, "replace_pack") and not lamp_pin(factory, cfg, "redeal")
        feed(ctl, prelude(Seat.N), "script")
        assert lamp_pin(factory, cfg, "replace_pack")
        feed(ctl, [E("deal_start", dealer="N", pack="R2")])
        assert not lamp_pin(factory, cfg, "replace_pack")
    finally:
        panel.close()
        j.close()


class _Link:
    """What ``ShoeProcedure`` uses of a shoe link: ``send``, caught up with the shoe (nothing in flight)."""

    caught_up = True
    delivered = 0

    def __init__(self) -> None:
        self.sent: list = []

    def send(self, cmd):  # type: ignore[no-untyped-def]
        self.sent.append(cmd)
        return cmd


def _starts(link: _Link) -> list:
    from firmware_host.shoe import messages as m

    return [c for c in link.sent if isinstance(c, m.StartDeal)]


@pytest.mark.parametrize("stop", ["bridge card", "unreadable card", "damaged card"])
def test_after_replace_pack_the_shoe_deals_nothing_until_the_director_acknowledges(tmp_path: Path, stop: str) -> None:
    """The audit's loop: a bridge pack in a euchre shoe stopped every deal at its first non-euchre card,
    and the host started the next deal from the pack the shoe reported loaded at once (the virtual shoe's
    dealer puts the pack back), 122 EU-33 rulings in 12 s. After ``replace_pack`` the shoe is stopped and
    no START_DEAL goes out, whatever pack is loaded, shuffled and cut, until the director acknowledges
    (NEW PACK out: the replacement pack is in); a restarted host holds the same way (docs/events.md,
    "Packs: replaced and restored")."""
    from firmware_host.live import ShoeProcedure
    from firmware_host.shoe import messages as m
    from firmware_host.table.controller import PackLoaded

    cfg = load_config(None, env={}, check_devices=False)
    factory, clock = MockFactory(), Clock()
    panel = Panel(cfg.pins, factory, clock)
    j = Journal.open(tmp_path)
    try:
        ctl = TableController(game="euchre", journal=j, panel=panel, clock=clock)
        link = _Link()
        proc = ShoeProcedure(ctl, link, "euchre")
        ctl.on_phase(proc.on_phase)
        ctl.engine.state.next_dealer = Seat.N
        feed(ctl, prelude(Seat.N)[:-3], "script")       # the table formed; the pack not yet in the shoe
        ctl.process(PackLoaded("R1"))
        ctl.drain()                                      # the shuffles and the cut loading stands for
        assert len(_starts(link)) == 1
        bad = {"bridge card": E("card_dealt", seat="E", card="2C"),
               "unreadable card": E("card_dealt", seat="E", card=None),
               "damaged card": E("damaged_card", card="AS", pack="R1")}[stop]
        rulings = feed(ctl, [E("deal_start", dealer="N", pack="R1"), E("card_dealt", seat="E", card="AS"), bad])
        assert [(r.remedy.value, r.clause, r.dealer) for r in rulings] == [("replace_pack", "EU-33", Seat.N)]
        assert isinstance(link.sent[-1], m.Abort) and lamp_pin(factory, cfg, "replace_pack")
        ctl.process(PackLoaded(""))                      # the dealer puts a pack in: the same one, for all we know
        ctl.drain()
        assert ctl.engine.state.phase.value == "cut" and len(_starts(link)) == 1, "the same pack was dealt again"
        ctl.process(ButtonInput("W", "attention"))       # a player's press is no acknowledgement
        assert len(_starts(link)) == 1
        panel.close()
        j.close()
        # a restart: the journal holds the ruling and the lamp, so the new host holds too
        panel = Panel(cfg.pins, factory, clock)
        j = Journal.open(tmp_path)
        ctl = TableController(game="euchre", journal=j, panel=panel, clock=clock)
        link = _Link()
        proc = ShoeProcedure(ctl, link, "euchre")
        ctl.on_phase(proc.on_phase)
        proc.resume()
        assert _starts(link) == [] and lamp_pin(factory, cfg, "replace_pack")
        ctl.process(ButtonInput("director", "ack"))      # the director: the replacement pack is in
        assert not lamp_pin(factory, cfg, "replace_pack")
        [start] = _starts(link)
        assert start.dealer is Seat.N                    # the same dealer deals again
    finally:
        panel.close()
        j.close()


def test_faced_card_lights_redeal_and_new_deal_clears_it(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    ctl.engine.state.next_dealer = Seat.N
    deal = bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(1)))
    feed(ctl, prelude(Seat.N), "script")
    feed(ctl, deal[:6])
    rulings = ctl.process(LawInput(E("card_dealt", seat="S", card="AS", face_up=True), "shoe"))
    assert [r.clause for r in rulings] == ["CB-redeal-faced"]
    assert lamp_pin(factory, cfg, "redeal")
    # the camera sees the same card face up: one fact, one ruling
    assert ctl.process(LawInput(E("card_faced", card="AS", where="deal"), "camera")) == []
    feed(ctl, prelude(Seat.N), "script")
    feed(ctl, deal[:1])
    assert not lamp_pin(factory, cfg, "redeal")


def test_journal_commits_before_lamp_and_history_has_each_step(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    ctl.process(LawInput(E("damaged_card", card="7C", pack="red"), "camera"))
    kinds = [row.kind for row in ctl.journal.rows()]
    assert kinds[-3:] == ["event", "ruling", "lamp"]
    assert ctl.journal.last_lamps()["replace_pack"] is True  # type: ignore[index]
    assert lamp_pin(factory, cfg, "replace_pack")
    assert ctl.journal.verify().ok


def test_director_ack_clears_ruling_lamps_not_device_lamps(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    ctl.process(DeviceStatus("shoe", False, "unplugged"))
    ctl.process(LawInput(E("damaged_card", card="7C", pack="red"), "camera"))
    assert lamp_pin(factory, cfg, "replace_pack") and lamp_pin(factory, cfg, "shoe_offline")
    ctl.process(ButtonInput("director", "ack"))
    assert not lamp_pin(factory, cfg, "replace_pack") and lamp_pin(factory, cfg, "shoe_offline")


def test_seat_button_becomes_a_demand_and_claims_an_open_redeal(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    ctl.engine.state.next_dealer = Seat.N
    feed(ctl, prelude(Seat.N), "script")
    r = ctl.process(ButtonInput("E", "new_shuffle"))
    assert [x.clause for x in r] == ["CB-shuffle-demand"] and lamp_pin(factory, cfg, "shuffle")
    feed(ctl, prelude(Seat.N), "script")
    assert not lamp_pin(factory, cfg, "shuffle")
    r = ctl.process(LawInput(E("deal_start", dealer="S", pack="red"), "shoe"))
    assert r[0].remedy.value == "claim_option"
    assert all(lamp_pin(factory, cfg, f"attention_{s}") for s in "NESW")
    r = ctl.process(ButtonInput("W", "attention"))  # with a claim open, the press claims the redeal
    assert [(x.remedy.value, x.clause) for x in r] == [("redeal", "CB-redeal-out-of-turn")]
    assert lamp_pin(factory, cfg, "redeal") and not lamp_pin(factory, cfg, "attention_W")


def test_physical_button_press_reaches_the_engine(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    pin = factory.pin(cfg.pins.buttons["director_ack"])
    ctl.process(LawInput(E("damaged_card", card="7C", pack="red"), "camera"))
    pin.drive_low()
    pin.drive_high()
    assert ctl.drain() >= 1
    assert not lamp_pin(factory, cfg, "replace_pack")


def test_shoe_offline_mid_deal_holds_other_inputs_until_it_returns(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, factory, cfg, _ = rig
    ctl.engine.state.next_dealer = Seat.N
    deal = bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(2)))
    feed(ctl, prelude(Seat.N), "script")
    feed(ctl, deal[:10])
    ctl.process(DeviceStatus("shoe", False, "silent for 2 s"))
    assert lamp_pin(factory, cfg, "shoe_offline")
    assert ctl.process(LawInput(E("hand_count", seat="S", count=2), "button")) == []  # held, not ruled
    ctl.process(DeviceStatus("shoe", True))
    assert not lamp_pin(factory, cfg, "shoe_offline")
    assert [r.remedy.value for r in feed(ctl, deal[10:])] == []
    assert ctl.engine.state.phase.value == "auction"


def test_restart_rebuilds_mid_deal_and_restores_lamps(tmp_path: Path) -> None:
    cfg = load_config(None, env={}, check_devices=False)
    clock = Clock()
    deal = bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(3)))
    f1 = MockFactory()
    p1 = Panel(cfg.pins, f1, clock)
    j1 = Journal.open(tmp_path)
    c1 = TableController(game="contract-bridge", journal=j1, panel=p1, clock=clock)
    c1.engine.state.next_dealer = Seat.N
    feed(c1, prelude(Seat.N), "script")
    feed(c1, deal[:20])
    c1.process(LawInput(E("damaged_card", card="2D", pack="red", distinguishable=True), "camera"))
    lamps = dict(c1.lamps)
    p1.close()
    j1.close()
    f2 = MockFactory()
    p2 = Panel(cfg.pins, f2, clock)
    j2 = Journal.open(tmp_path)
    c2 = TableController(game="contract-bridge", journal=j2, panel=p2, clock=clock)
    assert c2.lamps == lamps and lamp_pin(f2, cfg, "replace_pack")
    assert c2.engine.state.deal is not None and c2.engine.state.deal.void  # the damaged card voided it
    assert j2.verify().ok
    p2.close()
    j2.close()


def test_journal_of_another_game_is_refused(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    TableController(game="euchre", journal=j, panel=None, clock=Clock())
    with pytest.raises(ControllerError, match="euchre table"):
        TableController(game="contract-bridge", journal=j, panel=None, clock=Clock())
    j.close()


def test_bad_result_is_noted_not_fatal(rig) -> None:  # type: ignore[no-untyped-def]
    ctl, *_ = rig
    ctl.engine.state.next_dealer = Seat.N
    deal = bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(4)))
    feed(ctl, prelude(Seat.N) + deal, "shoe")
    assert ctl.process(LawInput(E("result", declarer="N", contract="4S", tricks=14), "script")) == []
    assert any(row.kind == "note" and "error" in row.body for row in ctl.journal.rows())


class _Recorder:
    def __init__(self) -> None:
        self.health: list[tuple[str, int, int, int]] = []
        self.over: list[int] = []

    def status(self, snapshot: dict) -> None: ...
    def event(self, event: dict, deal: int, seq: int) -> None: ...
    def ruling(self, ruling: dict, deal: int, seq: int) -> None: ...

    def deal_over(self, deal: int) -> None:
        self.over.append(deal)

    def pack_health(self, pack: str, unreadable: int, damaged: int, deals: int) -> None:
        self.health.append((pack, unreadable, damaged, deals))


def test_pack_health_is_counted_and_survives_restart(tmp_path: Path) -> None:
    rec = _Recorder()
    j = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), observers=[rec])
    ctl.engine.state.next_dealer = Seat.N
    feed(ctl, prelude(Seat.N), "script")
    feed(ctl, [E("deal_start", dealer="N", pack="R1"), E("card_dealt", seat="E", card=None)])
    feed(ctl, [E("damaged_card", card="2C", pack="R1")], "camera")  # the same fact the shoe saw
    assert rec.health[-1] == ("R1", 1, 0, 1)
    feed(ctl, [E("damaged_card", card="9H", pack="B1")], "camera")
    assert rec.health[-1] == ("B1", 0, 1, 0)
    assert rec.over == [1]  # the unreadable card voided the deal
    j.close()
    j2 = Journal.open(tmp_path)
    again = TableController(game="contract-bridge", journal=j2, panel=None, clock=Clock())
    assert again.packs == {"R1": {"unreadable": 1, "damaged": 0, "deals": 1},
                           "B1": {"unreadable": 0, "damaged": 1, "deals": 0}}
    j2.close()


def test_camera_seeing_the_euchre_turn_up_is_no_exposure(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock())
    euchre_dealt(ctl, [E("trump_turned", card="TD"), E("deal_end")])
    assert ctl.process(LawInput(E("card_faced", card="TD", where="deal"), "camera")) == []
    assert [r.clause for r in ctl.process(LawInput(E("card_faced", card="9C", where="pack"), "camera"))] == ["EU-34"]
    j.close()


def test_camera_seeing_a_played_card_again_does_not_play_it_twice(tmp_path: Path) -> None:
    """A hand over the trick hides a played card for a while; seen again, it is not a second play (a
    second play would put the trick out of step and could make a revoke out of nothing)."""
    j = Journal.open(tmp_path)
    ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock())
    euchre_dealt(ctl, [E("trump_turned", card="TD"), E("deal_end"), E("trump_made", seat="E", suit="D")])
    feed(ctl, [E("card_played", seat="E", card="AS", pack="R1")], "camera")
    feed(ctl, [E("card_played", seat="E", card="AS", pack="R1")], "camera")
    plays = [e for e in j.events() if e["type"] == "card_played"]
    assert len(plays) == 1 and ctl.engine.state.deal is not None and len(ctl.engine.state.deal.plays) == 1
    j.close()


def test_result_releases_the_deal_before_it_and_its_score_are_told(tmp_path: Path) -> None:
    """A result ends play: observers hear ``deal_over`` first, so the club sees the contract and the
    score whole rather than with its cards held back."""
    from firmware_host.tablelink.secrecy import SecrecyFilter

    told: list[tuple[str, object]] = []
    secrecy = SecrecyFilter()

    class Order(_Recorder):
        def event(self, event: dict, deal: int, seq: int) -> None:
            told.append(("event", secrecy.event(event, deal, seq)))

        def ruling(self, ruling: dict, deal: int, seq: int) -> None:
            told.append(("ruling", secrecy.body(ruling, deal)))

        def deal_over(self, deal: int) -> None:
            secrecy.deal_over(deal)
            told.append(("over", deal))

    j = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), observers=[Order()])
    ctl.engine.state.next_dealer = Seat.N
    feed(ctl, prelude(Seat.N) + bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(4))), "shoe")
    dealt = [body for kind, body in told if kind == "event" and body["type"] == "card_dealt"]  # type: ignore[index]
    assert dealt and all(b["card"] == "hidden" for b in dealt)  # type: ignore[index]
    told.clear()
    ctl.process(LawInput(E("result", declarer="N", contract="4S", tricks=10), "script"))
    assert told[0] == ("over", 1)
    assert told[1][0] == "event" and told[1][1]["contract"] == "4S"  # type: ignore[index]
    score = next(b for k, b in told if k == "ruling" and b["remedy"] == "score")  # type: ignore[index]
    assert score["contract"] == "4S" and "hidden" not in str(score)
    j.close()


def test_an_unreadable_euchre_turn_up_makes_the_pack_imperfect(tmp_path: Path) -> None:
    """The shoe could not read the turned-up card: a new deal (law 33) as for any unreadable card, and
    the camera seeing that card face up afterwards is not a second ruling."""
    from firmware_host.shoe import messages as m
    from firmware_host.shoe.laws_map import to_law_event

    j = Journal.open(tmp_path)
    ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock())
    euchre_dealt(ctl, [])
    turn_up = to_law_event(m.CardOut(21, 21, None, True, None, m.Orientation.UP, 0, ""), pack="R1")
    assert turn_up is not None
    rulings = ctl.process(LawInput(turn_up, "shoe"))
    assert [(r.clause, r.dealer) for r in rulings] == [("EU-33", Seat.N)]
    assert "unreadable" in rulings[0].reason
    assert ctl.process(LawInput(E("card_faced", card="TD", where="deal", pack="R1"), "camera")) == []
    j.close()


def test_an_event_that_does_not_fit_the_phase_is_journaled_as_such(tmp_path: Path) -> None:
    """A second result for a hand already scored (the director pressed twice): no score, a note the
    director sees, and the journal says it was ignored."""
    shown: list[str] = []

    class Display:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return (lambda text: shown.append(text)) if name == "note" else (lambda *a, **k: None)

    j = Journal.open(tmp_path)
    ctl = TableController(game="euchre", journal=j, panel=None, clock=Clock(), display=Display())
    euchre_dealt(ctl, [E("trump_turned", card="TD"), E("deal_end")])
    assert [r.remedy.value for r in ctl.process(LawInput(E("result", makers="NS", tricks=3), "director"))] == ["score"]
    assert ctl.process(LawInput(E("result", makers="NS", tricks=3), "director")) == []
    assert shown and "result from director ignored" in shown[-1] and "shuffle" in shown[-1]
    notes = [row.body for row in j.rows() if row.kind == "note"]
    assert notes[-1]["ignored"]["type"] == "result"
    j.close()


def test_pack_health_starts_when_the_pack_is_known(tmp_path: Path) -> None:
    """A shoe that names its pack only with its first card: the deal is counted under that pack, never
    under a phantom pack "unknown"."""
    rec = _Recorder()
    j = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=j, panel=None, clock=Clock(), observers=[rec])
    ctl.engine.state.next_dealer = Seat.N
    feed(ctl, prelude(Seat.N), "script")
    feed(ctl, [E("deal_start", dealer="N", pack="unknown")])
    assert rec.health == []
    feed(ctl, [E("card_dealt", seat="E", card="2C", pack="R1")])
    assert rec.health == [("R1", 0, 0, 1)] and list(ctl.packs) == ["R1"]
    j.close()
