"""The choices the laws leave to a player, taken at the table: a seat's button takes the one option the
law gives; the director's choice (from the dashboard) and the missing-card search outcome are checked
against the table's own state, ruled on from source ``director`` and journaled in order; a wrong choice
is refused with its reason, which the table's status tells the dashboard."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from firmware_host.devices.display_text import title
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.shoe import messages as m
from firmware_host.table.adapters import ShoeAdapter
from firmware_host.table.controller import ButtonInput, DirectorCommand, LawInput, TableController
from laws.cards import Card, Seat
from tests.laws.streams import BRIDGE_PACK, E, bridge_deal, euchre_known_deal, prelude, shuffled
from tests.table.fakes import Clock

HANDS = {  # as tests/laws/test_euchre_play_laws.py: North deals, hearts trump, East leads
    Seat.E: ["AC", "KC", "9H", "9D", "TD"],
    Seat.S: ["7C", "8S", "9S", "AS", "KS"],
    Seat.W: ["AD", "KD", "QD", "8D", "7D"],
    Seat.N: ["AH", "KH", "QH", "JH", "TH"],
}


class Display:
    def __init__(self) -> None:
        self.said: list[str] = []

    def ruling(self, r: Any, deal: int) -> None:
        self.said.append(title(r))

    def note(self, text: str) -> None:
        self.said.append(text)

    def status(self, snap: dict[str, Any]) -> None:
        self.snap = snap

    def device(self, *args: Any) -> None:
        pass


@pytest.fixture
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    journal = Journal.open(tmp_path)
    display = Display()
    ctl = TableController(game="euchre", journal=journal, panel=None, clock=Clock(), display=display)
    ctl.engine.state.next_dealer = Seat.N
    events = euchre_known_deal(Seat.N, HANDS, "7S") + [E("trump_made", seat="N", suit="H")]
    for e in events:
        assert ctl.process(LawInput(e, "script")) == []
    yield ctl, journal, display
    journal.close()


def said(rulings: list[Any]) -> list[tuple[str, str]]:
    return [(r.remedy.value, r.clause) for r in rulings]


def play(ctl: TableController, *plays: str) -> list[Any]:
    out: list[Any] = []
    for p in plays:
        seat, card = p.split(":")
        out += ctl.process(LawInput(E("card_played", seat=seat, card=card), "camera"))
    return out


def test_a_directors_choice_reaches_the_engine_and_is_journaled_in_order(table: Any) -> None:
    ctl, journal, display = table
    assert said(play(ctl, "S:7C")) == [("claim_option", "EU-52")]     # East had the lead
    claims = ctl.snapshot()["claims"]
    assert [(c["clause"], c["side"], c["options"], c["needs"]) for c in claims] == \
        [("EU-52", "EW", ["call_card", "call_suit"], {"call_suit": "suit"})]
    last = ctl.seq
    r = ctl.process(DirectorCommand("choose", "c1", "ann", {"seat": "E", "what": "call_suit", "suit": "D",
                                                              "clause": "EU-52"}))
    assert said(r) == [("attention", "EU-52")] and r[0].extra == {"call": "suit", "suit": "D"}
    rows = list(journal.rows(last))
    assert [row.kind for row in rows] == ["event", "ruling", "lamp"]  # the fact, its ruling, then its lamps
    assert rows[0].body | {"t": 0} == {"type": "demand", "seat": "E", "what": "call_suit", "suit": "D", "t": 0,
                                        "src": "director", "command": {"id": "c1", "by": "ann"}}
    assert rows[1].body["clause"] == "EU-52" and rows[1].body["call"] == "suit"
    snap = ctl.snapshot()
    assert snap["answers"] == [{"id": "c1", "kind": "choose", "ok": True, "why": ""}]
    assert snap["claims"] == []  # taken: law 53 puts South's card back and the call is in force
    assert display.snap["answers"][0]["ok"]  # the status told after the rulings carries the answer


def test_a_wrong_choice_is_refused_with_its_reason_and_the_claim_stays_open(table: Any) -> None:
    ctl, journal, display = table
    play(ctl, "S:7C")
    last = ctl.seq
    wrong = [({"seat": "E", "what": "win_trick"}, "it gives: call the exposed card, call a suit"),
             ({"seat": "S", "what": "call_suit", "suit": "D"}, "no open claim belongs to South's side"),
             ({"seat": "W", "what": "call_suit"}, "that call names a suit"),
             ({"seat": "W", "what": "call_card", "card": "1X"}, "'1X' is not a card"),
             ({"seat": "W", "what": "call_card", "card": "2C"}, "not in this game's pack"),
             ({"seat": "Q", "what": "call_card"}, "seat must be N, E, S or W")]
    for i, (body, why) in enumerate(wrong):
        assert ctl.process(DirectorCommand("choose", f"w{i}", "ann", body)) == []
        answer = ctl.snapshot()["answers"][-1]
        assert answer["id"] == f"w{i}" and not answer["ok"] and why in answer["why"], answer
    rows = list(journal.rows(last))
    assert [row.kind for row in rows] == ["note"] * len(wrong)  # refused: nothing reached the engine
    assert rows[0].body["refused"].startswith("that is not a choice") and rows[0].body["command"]["id"] == "w0"
    assert any("refused" in s for s in display.said)
    assert [c["clause"] for c in ctl.snapshot()["claims"]] == ["EU-52"]
    assert ctl.process(DirectorCommand("search", "s1", "ann", {"found": "N"})) == []
    assert "no search for a missing card" in ctl.snapshot()["answers"][-1]["why"]
    answers = ctl.snapshot()["answers"]
    journal.close()
    again = Journal.open(journal.path.parent)  # a restarted table tells the same answers
    try:
        restarted = TableController(game="euchre", journal=again, panel=None, clock=Clock())
        assert restarted.snapshot()["answers"] == answers
        assert [c["clause"] for c in restarted.snapshot()["claims"]] == ["EU-52"]
    finally:
        again.close()


def test_a_press_takes_the_one_option_the_law_gives(table: Any) -> None:
    ctl, journal, display = table
    assert said(play(ctl, "E:AC", "E:KC")) == [("claim_option", "EU-46")]  # two cards at once: KC exposed
    assert ctl.snapshot()["claims"][0]["options"] == ["call_card"]
    r = ctl.process(ButtonInput("N", "attention"))
    assert said(r) == [("attention", "EU-46")] and r[0].extra["call"] == "card"
    demand = [row.body for row in journal.rows() if row.kind == "event"][-1]
    assert (demand["what"], demand["src"]) == ("call_card", "button")


def test_a_press_with_a_choice_says_the_director_chooses(table: Any) -> None:
    ctl, journal, display = table
    play(ctl, "S:7C")
    r = ctl.process(ButtonInput("E", "attention"))
    assert said(r) == [("attention", "EU-52")] and r[0].extra["options"] == ["call_card", "call_suit"]
    assert display.said[-1] == "THE DIRECTOR CHOOSES: CALL THE EXPOSED CARD OR CALL A SUIT"
    assert [c["clause"] for c in ctl.snapshot()["claims"]] == ["EU-52"]  # still open for the director


def test_the_search_outcome_from_the_director_is_ruled(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    cards = shuffled(BRIDGE_PACK, random.Random(1))
    deal = bridge_deal(Seat.N, cards)
    rulings = [r for e in prelude(Seat.N) + deal[:-2] + deal[-1:] for r in ctl.process(LawInput(e, "shoe"))]
    assert said(rulings)[-1] == ("attention", "CB-missing-search")
    assert ctl.snapshot()["search"] == {"seat": "N", "card": cards[-1].code}
    assert ctl.process(DirectorCommand("search", "s0", "ann", {"found": "floor"})) == []
    assert "found must be" in ctl.snapshot()["answers"][-1]["why"]
    r = ctl.process(DirectorCommand("search", "s1", "ann", {"found": "N"}))
    assert said(r) == [("deemed_to_belong", "CB-missing-found")]
    event = [row.body for row in journal.rows() if row.kind == "event"][-1]
    assert (event["type"], event["found"], event["card"], event["src"]) == \
        ("missing_card", "N", cards[-1].code, "director")
    assert ctl.snapshot()["search"] is None and ctl.snapshot()["answers"][-1]["ok"]
    journal.close()


def test_the_club_commands_go_to_the_controller_once() -> None:
    got: list[object] = []
    commands = ClubCommands("euchre", got.append)
    body = {"table": "t1", "by": "ann", "id": "c1", "seat": "E", "what": "call_suit", "suit": "D"}
    commands("choose", body)
    commands("choose", body)
    commands("search", {"table": "t1", "by": "ann", "id": "c2", "found": None})
    # every delivery goes to the controller, which does each id once (tests/table/test_commands_once.py)
    assert got == [DirectorCommand("choose", "c1", "ann", body), DirectorCommand("choose", "c1", "ann", body),
                   DirectorCommand("search", "c2", "ann", {"table": "t1", "by": "ann", "id": "c2", "found": None})]


def test_the_director_takes_a_redeal_claim_for_a_player(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N):
        ctl.process(LawInput(e, "script"))
    assert said(ctl.process(LawInput(E("deal_start", dealer="S", pack="red"), "shoe"))) == \
        [("claim_option", "CB-redeal-out-of-turn")]
    [claim] = ctl.snapshot()["claims"]
    assert (claim["side"], claim["options"], claim["needs"]) == (None, ["redeal"], {})  # any player may claim
    r = ctl.process(DirectorCommand("choose", "c1", "ann", {"seat": "W", "what": "redeal"}))
    assert said(r) == [("redeal", "CB-redeal-out-of-turn")] and r[0].dealer == Seat.N
    assert ctl.snapshot()["claims"] == [] and ctl.snapshot()["answers"][-1]["ok"]
    journal.close()


def test_a_bid_and_a_discard_entered_by_the_director_are_checked_then_judged(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    ctl = TableController(game="euchre", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in euchre_known_deal(Seat.N, HANDS, "7S"):
        ctl.process(LawInput(e, "script"))
    assert ctl.process(DirectorCommand("bid", "b0", "ann", {"seat": "E", "call": "shout"})) == []
    assert "field 'call'" in ctl.snapshot()["answers"][-1]["why"]
    assert ctl.process(DirectorCommand("bid", "b1", "ann", {"seat": "E", "call": "pass"})) == []
    assert ctl.snapshot()["answers"][-1] == {"id": "b1", "kind": "bid", "ok": True, "why": ""}
    bid = [row.body for row in journal.rows() if row.kind == "event"][-1]
    assert (bid["type"], bid["seat"], bid["call"], bid["src"]) == ("bid", "E", "pass", "director")
    assert said(ctl.process(DirectorCommand("bid", "b2", "ann", {"seat": "S", "call": "order"}))) == []
    assert ctl.engine.state.deal is not None and ctl.engine.state.deal.trump_suit == "S"  # South ordered it up
    assert ctl.process(DirectorCommand("discard", "d1", "ann", {"seat": "N", "card": "TH"})) == []
    assert ctl.snapshot()["answers"][-1]["ok"] and ctl.engine.state.deal.discarded is not None
    ctl.process(LawInput(E("card_played", seat="E", card="AC"), "camera"))
    ctl.process(LawInput(E("play_end"), "script"))
    assert ctl.process(DirectorCommand("bid", "b3", "ann", {"seat": "E", "call": "pass"})) == []
    assert "a bid is entered while trump is being made; the table is in its scoring phase" in \
        ctl.snapshot()["answers"][-1]["why"]
    bridge = Journal.open(tmp_path / "bridge")
    other = TableController(game="contract-bridge", journal=bridge, panel=None, clock=Clock())
    assert other.process(DirectorCommand("discard", "d2", "ann", {"seat": "N"})) == []
    assert "this table plays contract-bridge" in other.snapshot()["answers"][-1]["why"]
    bridge.close()
    journal.close()


def test_what_a_press_takes_with_each_kind_of_claim_open() -> None:
    from firmware_host.table.choices import press_option
    from laws.cards import Card, Side
    from laws.state import Claim, TableState

    def claim(options: tuple[str, ...], card: str | None = None, grants: str = "call") -> Claim:
        return Claim("EU-x", "Euchre", Side.EW, Seat.N, "play_end", "why", grants, options=options,
                     offender=Seat.S, card=Card.parse(card) if card else None)

    def press(*claims: Claim) -> str | None:
        state = TableState("euchre", claims=list(claims))
        return press_option(state, Seat.E)

    assert press() is None                                    # nothing open: the press draws attention
    assert press(claim((), grants="redeal")) == "redeal"
    assert press(claim((), grants="reshuffle"), claim(("hold_order",))) == "redeal"  # the redeal claim first
    assert press(claim(("hold_order",))) == "hold_order"      # one option, nothing to name: taken
    assert press(claim(("call_card",), "KC")) == "call_card"  # the claim names the card
    assert press(claim(("call_card",))) == "redeal"           # which card? the director enters it
    assert press(claim(("call_suit",))) == "redeal"           # which suit? the director enters it
    assert press(claim(("call_card",), "KC"), claim(("call_card",), "QC")) == "redeal"  # which exposure?
    assert press(claim(("win_trick", "lose_trick"))) == "redeal"
    other_side = Claim("EU-x", "Euchre", Side.NS, Seat.N, "play_end", "why", "call", options=("hold_order",))
    assert press(other_side) is None                          # not his side's claim


def test_a_refused_command_is_logged_without_the_cards_it_named(table: Any, caplog: Any) -> None:
    """docs/ordering.md: no log line names a card of an open deal. A director's command the table refused
    was logged with its whole reason ("the 2C is not in this game's pack", "field 'card': ... 'QH'"), so a
    card the director typed, right or wrong, reached the table's log. The log says what was refused and
    by whom; the journal note, the display and the answer keep the whole reason."""
    import logging

    ctl, journal, display = table
    play(ctl, "S:7C")
    caplog.set_level(logging.DEBUG)
    bodies = [{"seat": "W", "what": "call_card", "card": "2C"}, {"seat": "QH", "what": "call_card"},
              {"seat": "W", "what": "win_trick", "card": "KD"}]
    for i, body in enumerate(bodies):
        assert ctl.process(DirectorCommand("choose", f"k{i}", "ann", body)) == []
    assert ctl.process(DirectorCommand("lead_out", "k9", "ann", {"seat": "JS", "card": "AS"})) == []
    logged = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(logged) == 4, logged
    named = [c for code in ("2C", "QH", "KD", "JS", "AS") for c in (code, Card.parse(code).name.lower())]
    for text in (r.getMessage().lower() for r in caplog.records):
        assert not any(c.lower() in text for c in named), text
    notes = [r.body["refused"] for r in journal.rows() if r.kind == "note"][-4:]
    assert "two of clubs" in notes[0] and "'QH'" in notes[1] and "'lead_out'" in notes[3], notes


def test_a_refused_correction_is_logged_without_what_the_director_typed(table: Any, caplog: Any) -> None:
    """docs/ordering.md: a director's command the table refuses is logged less what its reason quotes from
    the command. A ``correct`` naming a deal the table has not dealt was refused with the deal as sent
    (``there is no deal 'QH' to correct``) and that reason was logged whole, so whatever the director put
    in ``deal`` (a card, typed in the wrong field) reached the table's log. The journal note and the
    answer keep it."""
    import logging

    ctl, journal, display = table
    play(ctl, "S:7C")
    caplog.set_level(logging.DEBUG)
    for i, deal in enumerate(("QH", ["KD"], 99)):
        assert ctl.process(DirectorCommand("correct", f"c{i}", "ann", {"deal": deal, "result": {}})) == []
    logged = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(logged) == 3, logged
    for text in (r.getMessage().lower() for r in caplog.records):
        assert not any(c in text for c in ("qh", "queen of hearts", "kd", "king of diamonds")), text
    assert "there is no deal 99 to correct" in logged[2]       # a number quotes nothing of a card
    notes = [r.body["refused"] for r in journal.rows() if r.kind == "note"][-3:]
    assert "no deal 'QH'" in notes[0] and "['KD']" in notes[1], notes
    assert [a["why"] for a in ctl.answers][-3:] == notes


def _shoe_press(ctl: TableController, seat: Seat, kind: Any) -> list[Any]:
    """A press of ``seat``'s button on the shoe, through the real ``ShoeAdapter``, ruled by the table."""
    got: list[Any] = []
    ShoeAdapter(got.append, lambda: 1.0, boot=lambda: 9)(m.ButtonPressed(1, seat, kind))
    (press,) = [g for g in got if isinstance(g, ButtonInput)]
    return ctl.process(press)


def test_the_shoes_demand_button_claims_the_redeal_a_deal_out_of_turn_opens(tmp_path: Path) -> None:
    """PROTOCOL.md 4.2: the shoe's long press is the player's demand for a redeal. It was taken as a demand
    for a new shuffle and cut, which after the first card is too late: East dealing North's deal, North
    held his button on the shoe and was told the deal stands."""
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N):
        ctl.process(LawInput(e, "script"))
    ctl.process(LawInput(E("deal_start", dealer="E", pack="red"), "shoe"))
    ctl.process(LawInput(E("card_dealt", seat="S", card="AS"), "shoe"))
    r = _shoe_press(ctl, Seat.N, m.ButtonKind.DEMAND)
    assert said(r) == [("redeal", "CB-redeal-out-of-turn")] and r[0].dealer == Seat.N
    journal.close()


def test_the_shoes_demand_button_is_no_pass_in_the_auction(tmp_path: Path) -> None:
    """Two presses of the panel's button pass in a bridge auction (hardware/WIRING.md); the shoe's long
    press, a demand for a redeal, passed too. Now it is the demand it is, too late once cards are dealt."""
    journal = Journal.open(tmp_path)
    ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=Clock())
    ctl.engine.state.next_dealer = Seat.N
    for e in prelude(Seat.N) + bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(4))):
        ctl.process(LawInput(e, "script"))
    r = _shoe_press(ctl, Seat.E, m.ButtonKind.DEMAND)
    assert said(r) == [("deal_stands", "CB-shuffle-demand")]
    assert not [row for row in journal.rows() if row.kind == "event" and row.body.get("type") == "call"]
    journal.close()


def test_a_correction_refused_names_the_deals_dealt_in_plain_words(table: Any, tmp_path: Path) -> None:
    """docs/events.md, "Corrections": a correction for a deal the table has not dealt is refused, naming the
    deals it has dealt. With one deal dealt the note said "this table has dealt deals 1 to 1", and before
    the first deal "deals 1 to 0", which names no deal at all (outside audit p2)."""
    ctl, journal, _ = table
    assert ctl.process(DirectorCommand("correct", "c1", "ann", {"deal": 2, "result": {}})) == []
    assert ctl.answers[-1]["why"] == "this table has dealt deal 1 only: there is no deal 2 to correct"
    fresh = Journal.open(tmp_path / "fresh")
    try:
        new = TableController(game="euchre", journal=fresh, panel=None, clock=Clock(), display=Display())
        assert new.process(DirectorCommand("correct", "c2", "ann", {"deal": 1, "result": {}})) == []
        assert new.answers[-1]["why"] == "this table has dealt no deal yet: there is no deal 1 to correct"
        assert [r.body["refused"] for r in fresh.rows() if r.kind == "note"][-1] == new.answers[-1]["why"]
    finally:
        fresh.close()
