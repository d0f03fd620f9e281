"""A result's view never waits for the boards being released to the clubs.

The service releases each board a club has finished (``in/board/<n>``) on a thread of its own; the view
loop (the public ranking, what a club's result waits for) goes on while a release pass is running. Here
a release pass is held on purpose (its board messages wait on a gate) and a result taken meanwhile must
reach the view all the same. No broker: the service's client is never connected, its publishes queue.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import firmware_host.federation.service as service_module
from firmware_host.federation.service import EventSetup, FederationService, create_event
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played

TABLES = 3


class Watched(FederationService):
    """The service, telling when a view counts a given number of c2's messages."""

    want = 0
    counted = threading.Event()

    def publish_views(self) -> None:
        super().publish_views()
        if self.last_view["taken"].get("c2", 0) >= self.want > 0:
            self.counted.set()


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Watched, threading.Event, threading.Event]]:
    entered, gate = threading.Event(), threading.Event()
    real = service_module.board_releases

    def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        gate.wait(30)                               # bounded: a failing test cannot hang the suite
        return real(*args, **kwargs)

    monkeypatch.setattr(service_module, "board_releases", slow)
    create_event(tmp_path / "event", EventSetup("held", (1, 2), ("c1", "c2")))
    Watched.counted = threading.Event()
    service = Watched(tmp_path / "event", "127.0.0.1", 1, "unused", publish_every=0.05)
    try:
        yield service, entered, gate
    finally:
        gate.set()
        service.stop()                              # joins its threads with a timeout


def _send(service: FederationService, club: str, number: int, message: dict[str, Any]) -> None:
    body = json.dumps(message | {"club": club, "number": number}).encode()
    answer = service.receive(service.topics.result(club), body)
    assert answer is not None and answer.verdict.value == "taken", answer


def _result(service: FederationService, club: str, number: int, board: int, table: int) -> None:
    line = Line(board, Pair(table, "NS"), Pair(table % TABLES + 1, "EW"),
                Played(parse_contract("4S"), Seat.N, 7 + table))
    _send(service, club, number, {"op": "line", "line": line_to_dict(line)})


def test_a_result_reaches_the_view_while_a_release_pass_is_held(
        held: tuple[Watched, threading.Event, threading.Event]) -> None:
    service, entered, gate = held
    pairs = [[i, d] for i in range(1, TABLES + 1) for d in ("NS", "EW")]
    for club in ("c1", "c2"):
        _send(service, club, 1, {"op": "entry", "pairs": pairs, "due": TABLES})
    for t in range(1, TABLES + 1):                  # c1 finishes board 1: a release is due for it
        _result(service, "c1", 1 + t, 1, t)
    service.start()
    assert entered.wait(10), "no release pass began"
    assert not gate.is_set()
    service.want = 2
    _result(service, "c2", 2, 1, 1)                 # taken while the release pass is held
    assert Watched.counted.wait(10), "the view waited for the release pass"
    assert not gate.is_set()                        # the pass is still held: the view did not wait for it
    gate.set()
