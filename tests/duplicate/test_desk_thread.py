"""The session's desk ticks on its own thread (``SessionDesk.run``), in the dashboard as beside its own
client: a table's message offered from another thread is committed there, and a tick that fails is told
(the dashboard shows it as a fault) without stopping the ticks after it."""

from __future__ import annotations

import threading
from pathlib import Path

from firmware_host.session.duplicate_session import Session, SessionDesk

from .sessionkit import make_setup
from .test_link import MITCHELL_3, Wire


def test_a_failed_tick_is_told_and_the_next_tick_is_taken(tmp_path: Path) -> None:
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(MITCHELL_3), analyse=False, synchronous="NORMAL"),
                       Wire())
    ticks: list[str] = []
    twice = threading.Event()
    real = desk.tick

    def tick() -> bool:
        ticks.append(threading.current_thread().name)
        if len(ticks) == 1:
            raise RuntimeError("the disk went away")
        if len(ticks) >= 2:
            twice.set()
        return real()

    desk.tick = tick  # type: ignore[method-assign]
    faults: list[str] = []
    stop = threading.Event()
    runner = threading.Thread(target=desk.run, args=(stop, 0.001, faults.append), name="desk-under-test")
    runner.start()
    try:
        assert twice.wait(10), ticks
    finally:
        stop.set()
        runner.join(10)
    assert not runner.is_alive()
    assert faults == ["the duplicate session's intake failed a tick (RuntimeError: the disk went away)"]
    assert set(ticks) == {"desk-under-test"}
    desk.session.close()
