"""The night's process stops mid-round while real euchre tables play on: their hands wait unanswered in
their outboxes and journals and are sent again until the restarted night (its journal replayed) takes
each once (docs/euchre.md, "On the club's link" and "What if")."""

from __future__ import annotations

import random
import secrets
import shutil
import time
from pathlib import Path

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.euchre_night.night_demo import DemoTable, EuchreDemo
from firmware_host.euchre_night.players import deal_hand
from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import hands_export, standings_export
from firmware_host.table.inputs import LawInput
from laws.cards import Seat
from laws.events import event_from_dict
from tests.euchre_night.outsider import rescore


def _wait(pred, timeout: float = 60.0, say=lambda: "") -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out: {say()}"
        time.sleep(0.05)


def _state(session: NightSession, tables: list[DemoTable]) -> str:
    n = session.night
    return (f"round {n.current}, hands {sorted(n.hands)}, stopped {n.stopped}; tables: "
            + "; ".join(f"{t.tid} sent {t.table.results.sent_in} unanswered {sorted(t.table.results.unanswered)} "
                        f"seating round {getattr(t.table.results.seating, 'round', None)} failure {t.failure}"
                        for t in tables))


def test_hands_sent_while_the_night_is_down_are_taken_once_after_its_restart(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed")
    demo = EuchreDemo(tmp_path, tables=2, rounds=2, hands=4, seed=5)
    setup = demo.setup()
    session = NightSession.create(tmp_path / "night", setup)
    users = {DASHBOARD_USER: secrets.token_hex(8)} | {t: secrets.token_hex(8) for t in setup.tables}
    broker = LocalBroker(tmp_path / "broker", users)
    broker.start()
    tables: list[DemoTable] = []
    service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, users[DASHBOARD_USER])
    try:
        service.start()
        assert service.connected.wait(15)
        for k, tid in enumerate(setup.tables, 1):
            t = DemoTable(tid, k, tmp_path / "tables" / tid, "127.0.0.1", broker.port, users[tid],
                          random.Random(k), {"renege": 0.2, "wrong_count": 0.0, "alone": 0.1}, hold_at=1)
            t.start()
            tables.append(t)
        # each table waits after its first hand, so the night goes away mid-round however fast it is
        _wait(lambda: len(session.night.hands) >= 1)
        service.stop()                       # the night's process goes away mid-round
        with session.lock:
            given = {t: list(a) for t, a in session.answers.items()}
        session.close()
        for t in tables:
            t.go_on()
        _wait(lambda: all(t.table.results.hands_sent(1) == 4 for t in tables))   # the tables play on
        assert all(t.table.results.unanswered for t in tables)
        session = NightSession.open(tmp_path / "night")   # restarted: its journal replayed
        taken_before = {t: [a for a in given[t] if a.status in ("taken", "refused")] for t in given}
        assert any(taken_before.values())
        assert {t: list(session.answers[t]) for t in given} == taken_before   # the answers, read back
        service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, users[DASHBOARD_USER])
        service.start()
        _wait(lambda: session.night.finished or any(t.failure for t in tables), timeout=120,
              say=lambda: _state(session, tables))
        assert not [t.failure for t in tables if t.failure]
        assert len(session.night.hands) == 16
        assert sum(t.table.results.resent for t in tables) >= 1
        sources = [h.source for h in session.night.hands.values()]
        assert len(set(sources)) == 16
        st, hd = standings_export(session.night), hands_export(session.night)
        assert rescore(st, hd) == []
    finally:
        for t in tables:
            t.stop()
        service.stop()
        session.close()
        broker.stop()


def test_a_table_restarted_mid_round_sends_what_was_not_answered_and_counts_on(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed")
    demo = EuchreDemo(tmp_path, tables=1, rounds=2, hands=4, fmt="rotating", players=5, seed=2)
    setup = demo.setup()
    session = NightSession.create(tmp_path / "night", setup)
    users = {DASHBOARD_USER: secrets.token_hex(8)} | {t: secrets.token_hex(8) for t in setup.tables}
    broker = LocalBroker(tmp_path / "broker", users)
    broker.start()
    rates = {"renege": 0.3, "wrong_count": 0.0, "alone": 0.5}
    tid = setup.tables[0]

    def table(seed: int, hold_at: int | None = None) -> DemoTable:
        t = DemoTable(tid, 1, tmp_path / "tables" / tid, "127.0.0.1", broker.port, users[tid], random.Random(seed),
                      rates, hold_at=hold_at)
        t.start()
        return t

    service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, users[DASHBOARD_USER])
    # The table waits after its first hand until the night is down: had the night taken all four (a slow
    # test), round 2 would be seated and the table stopped in the middle of its first hand, which its
    # simulated players cannot finish after the restart (the round then never went on).
    t = table(1, hold_at=1)
    try:
        service.start()
        _wait(lambda: len(session.night.hands) == 1, say=lambda: _state(session, [t]))
        service.stop()
        session.close()
        t.go_on()
        _wait(lambda: t.table.results.hands_sent(1) == 4)
        t.stop()                                   # the table restarts with hands unanswered
        t = table(2)
        assert t.table.results.sent_in == {(session.night.setup.id, 1): 4} and t.table.results.unanswered
        session = NightSession.open(tmp_path / "night")
        service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, users[DASHBOARD_USER])
        service.start()
        _wait(lambda: session.night.finished or t.failure, timeout=120, say=lambda: _state(session, [t]))
        assert t.failure is None and len(session.night.hands) == 8
        assert [h.number for h in session.night.at[(1, 1)]] == [1, 2, 3, 4]
        assert rescore(standings_export(session.night), hands_export(session.night)) == []
    finally:
        t.stop()
        service.stop()
        session.close()
        broker.stop()


def test_a_demo_table_restarted_in_the_middle_of_a_hand_says_so_at_once(tmp_path: Path) -> None:
    """Its players play only the hands they dealt: one in play at the start is never finished. That hung a
    restarted table for ever (the night waited 120 s for round 2); now the table stops and says why."""
    port = free_port()   # no broker: a table plays on without one

    def table() -> DemoTable:
        t = DemoTable("table-01", 1, tmp_path / "table", "127.0.0.1", port, "pw", random.Random(1),
                      {"renege": 0.0, "wrong_count": 0.0, "alone": 0.0})
        t.start()
        return t

    t = table()
    try:
        for e in deal_hand(Seat.N, random.Random(3)).events[:12]:   # dealt, not played
            t.table.ctl.submit(LawInput(event_from_dict(e), "camera"))
        t.table.ctl.queue.join()
        assert t.table.results.in_play() and t.failure is None
    finally:
        t.stop()
    t = table()
    try:
        _wait(lambda: t.failure is not None, say=lambda: f"in play {t.table.results.in_play()}, no failure said")
        assert t.failure == ("table-01: deal 1 was in play when the table started; the simulated players play "
                             "only the hands they dealt (stop a table between hands)")
    finally:
        t.stop()
