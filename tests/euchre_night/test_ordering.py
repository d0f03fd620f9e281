"""The night on the shared session's ordering (``firmware_host/session/journalled.py``): a hand held is
neither journaled, answered nor spent from its login's budget; a journal that cannot be written holds the
batch and takes it once it can; the answers a night gave are read back from its journal after a real
restart; and the night's standings, tallied table by table, equal the standings worked out from every
hand afresh (docs/euchre.md, "On the club's link")."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

from firmware_host.euchre_night.desk import NightDesk
from firmware_host.euchre_night.session import NightSession
from firmware_host.session import journalled as ordering
from firmware_host.wire.topics import TOPICS
from laws.euchre_night.night import Format
from laws.euchre_night.standings import HandPlayed, standings
from tests.euchre_night.test_session import hand, message, setup


def test_a_hand_held_is_not_spent_from_a_login_past_its_refusal_budget(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup(hands=4))
    n = s.night
    s.ordering.clock = lambda: 0.0          # no budget comes back while the test runs
    for _ in range(ordering.BURST):         # the login spends its whole budget of refusal notes
        s.ordering.offer(TOPICS.table("table-01", "hand"), b"{not json")
    s.ordering.take()
    got = s.take([message(hand(n, 1, 2), 500)])       # hand 2 before hand 1: held, not a refusal
    assert got == [] and not [r for r in s.refusals if "table-01:500" in str(r)]
    taken = s.take([message(hand(n, 1, 1), 501), message(hand(n, 1, 2), 502)])
    assert [(a.source, a.status) for _, a in taken] == [("table-01:501", "taken"), ("table-01:502", "taken")]
    s.close()


def test_a_journal_that_cannot_be_written_holds_the_batch_and_answers_nothing_until_it_can(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup())
    desk = NightDesk(s)
    published: list[str] = []
    desk.connect(lambda topic, body, retain: published.append(topic))
    now = [0.0]
    s.ordering.clock = lambda: now[0]
    real = s.journal.append_many

    def broken(rows):  # type: ignore[no-untyped-def]
        raise ValueError("disk full")

    s.journal.append_many = broken  # type: ignore[method-assign]
    desk.offer(TOPICS.table("table-01", "hand"), message(hand(s.night, 1, 1), 1).payload)
    assert desk.step() is False and desk.holding and desk.fault and not published
    assert desk.view[1]["fault"]                         # the pages are told
    desk.offer(TOPICS.table("table-01", "hand"), b"{not json")   # one bad message never stops the loop
    s.journal.append_many = real  # type: ignore[method-assign]
    assert desk.step() is False                          # the back-off: not before 0.25 s
    now[0] = 1.0
    assert desk.step() is True and not desk.holding and desk.fault is None
    assert [(a.source, a.status) for a in s.answers["table-01"]] == [("table-01:1", "taken"), ("", "refused")]
    assert published == [TOPICS.seating("table-01")]     # only the seating whose answers changed
    s.close()


def test_after_a_real_restart_the_seatings_carry_the_answers_given_before(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup())
    n = s.night
    first = s.take([message(hand(n, 1, 1), 10), message(hand(n, 1, 2, tricks=9), 11),
                    message(hand(n, 2, 1), 12)])
    before = {t: list(a) for t, a in s.answers.items()}
    assert [a.status for _, a in first] == ["taken", "refused", "taken"]
    s.close()                                    # the night's process goes away (its memory with it)
    again = NightSession.open(tmp_path / "n")
    assert again.answers == before
    desk = NightDesk(again)
    seating = desk.seating("table-01")
    assert [(a.source, a.board, a.status) for a in seating.answers] == [
        ("table-01:10", 1, "taken"), ("table-01:11", 2, "refused")]
    assert "the makers' tricks are 0 to 5, got 9" in seating.answers[1].why
    (_, resend), = again.take([message(hand(again.night, 1, 1), 10)])   # a resend: answered as before
    assert (resend.source, resend.status) == ("table-01:10", "repeat")
    again.close()


def test_the_standings_tallied_table_by_table_equal_those_worked_out_afresh(tmp_path: Path) -> None:
    rng = random.Random(7)
    s = NightSession.create(tmp_path / "n", setup(Format.PROGRESSIVE, players=10, rounds=3, hands=3))
    n, seq = s.night, 0
    while not n.finished:
        for k in range(1, len(n.round(n.current).tables) + 1):
            number = n.played(n.current, k) + 1
            if number > n.setup.hands:
                continue
            seq += 1
            alone = rng.choice([None, None, "N"])
            pens = [{"clause": "EU-63", "offending": "EW", "points": 5 if alone else 3}] if rng.random() < .3 else []
            s.take([message(hand(n, k, number, makers="NS" if alone else rng.choice(["NS", "EW"]),
                                 tricks=rng.randint(0, 5), alone=alone, penalties=pens), seq)])
            if rng.random() < 0.3:
                table = n.setup.tables[k - 1]
                assert s.correct(table, n.current, number, {"tricks": rng.choice([1, 4])}, "recount", "d") in (
                    "", f"{table}, round {n.current}, hand {number}: the correction changes nothing")
            fresh = standings(n.players, [r if n.complete(r.number) else type(r)(r.number, r.tables)
                                          for r in n.rounds],
                              [HandPlayed(h.round, h.table, h.hand) for h in n.hands.values()], n.setup.rules)
            assert n.standings() == fresh
    s.close()



def test_a_step_that_raises_never_ends_the_night_s_loop(tmp_path: Path) -> None:
    import threading

    from firmware_host.club.broker import free_port
    from firmware_host.euchre_night.service import NightService

    s = NightSession.create(tmp_path / "n", setup())
    service = NightService(s, "127.0.0.1", free_port(), "dashboard", "pw")   # no broker there: none needed
    real, calls, again = service.desk.step, [0], threading.Event()

    def step() -> bool:
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("a bug in a step")
        again.set()
        return real()

    service.desk.step = step  # type: ignore[method-assign]
    service.start()
    try:
        service.desk.offer(TOPICS.table("table-01", "hand"), message(hand(s.night, 1, 1), 1).payload)
        service._wake.set()
        assert again.wait(10) and service.faults == 1
        deadline = time.monotonic() + 10
        while not s.night.hands and time.monotonic() < deadline:
            again.clear()
            service._wake.set()
            again.wait(1)
        assert len(s.night.hands) == 1            # the hand offered before the fault is taken after it
    finally:
        service.stop()
        s.close()


def test_a_nights_answers_say_they_answer_a_hand_given_and_read_back(tmp_path: Path) -> None:
    """docs/euchre.md, the seating's ``answers``: ``kind`` is ``hand``, the message a night answers (a
    hand, a stop, one that did not read). It said ``board``, a duplicate table's result message: a table
    that matches answers by kind (as a duplicate table does) took them for another's."""
    s = NightSession.create(tmp_path / "n", setup())
    n = s.night
    given = s.take([message(hand(n, 1, 1), 10), message(hand(n, 1, 2, tricks=9), 11)])
    s.ordering.offer(TOPICS.table("table-01", "hand"), b"{not json")
    s.ordering.take()
    assert [a.kind for _, a in given] == ["hand", "hand"]
    s.close()
    again = NightSession.open(tmp_path / "n")
    sent = NightDesk(again).seating("table-01").to_dict()["answers"]
    assert [(a["source"], a["status"], a["kind"]) for a in sent] == [
        ("table-01:10", "taken", "hand"), ("table-01:11", "refused", "hand"), ("", "refused", "hand")]
    again.close()


def test_seatings_reach_the_broker_in_the_order_they_were_made(tmp_path: Path) -> None:
    """A seating made before the director's call (a reconnection's, on the client's thread) but handed to
    the client after the call's own was retained last: the table never heard of the call. The one being
    sent is held here between its making and its sending while the director calls the round."""
    s = NightSession.create(tmp_path / "n", setup())
    desk = NightDesk(s)
    sent: list[tuple[str, dict[str, object]]] = []
    made, go = threading.Event(), threading.Event()

    def publish(topic: str, body: str, retain: bool) -> None:
        if threading.current_thread().name == "reconnection":
            made.set()
            assert go.wait(30)
        sent.append((topic, json.loads(body)))

    desk.connect(publish)
    reconnection = threading.Thread(target=desk.publish_tables, args=(["table-01"],), name="reconnection")
    reconnection.start()
    assert made.wait(30)                               # round 1, not called: made, not yet sent
    director = threading.Thread(target=lambda: desk.call("director"), name="director")
    director.start()
    director.join(0.5)     # the call is journaled; its seatings wait for the one in hand (sent at once before)
    go.set()
    reconnection.join(30)
    director.join(30)
    assert 1 in s.night.called
    last = [body for topic, body in sent if topic == TOPICS.seating("table-01")][-1]
    assert last["called"] is True, sent
    s.close()


def test_a_table_not_of_the_night_is_refused_and_noted_but_never_answered(tmp_path: Path) -> None:
    """docs/euchre.md, "Checks": the night writes no seating for a club table it does not use, so its hand
    is refused and journaled as a note, and nothing is published on its topic (as a pairs session and an
    event treat a table not theirs, docs/mqtt.md and docs/competitions.md)."""
    s = NightSession.create(tmp_path / "n", setup())
    desk = NightDesk(s)
    published: list[str] = []
    desk.connect(lambda topic, body, retain: published.append(topic))
    stranger = dict(hand(s.night, 1, 1), table="table-09")
    desk.offer(TOPICS.table("table-09", "hand"), message(stranger, 4).payload)
    assert desk.step() is True
    notes = [r.body["refused"] for r in s.journal.rows() if r.kind == "note" and "refused" in r.body]
    assert [n["why"] for n in notes] == ["a hand from table 'table-09', which is not one of this night's tables"]
    assert published == [] and "table-09" not in s.answers
    assert desk.view[1]["refused"] == 0                  # nor counted on the director's page
    s.close()
