"""Each club's own ranking on the boards it has finished: what the club receives on its ``in/field`` and
its page on the federation's server (behind its login). The worked example of
``tests/laws/test_federation_own.py`` (docs/federation.md, "A club's own ranking"), sent as the clubs'
messages to a service whose client is never connected (no broker: its publishes only queue)."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.federation.page import FieldPage
from firmware_host.federation.service import EventSetup, FederationService, create_event
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played

PLAYED = {
    "c1": [(1, 1, 3, "3NT", Seat.S, 9), (1, 2, 1, "4S", Seat.N, 8), (1, 3, 2, "4S", Seat.N, 11),
           (2, 1, 2, "4S", Seat.N, 10), (2, 2, 3, "4S", Seat.N, 10), (2, 3, 1, "4S", Seat.N, 10)],
    "c2": [(1, 1, 3, "3NT", Seat.S, 9), (1, 2, 1, "4S", Seat.N, 10), (1, 3, 2, "4S", Seat.N, 7),
           (2, 1, 2, "4S", Seat.N, 10)],
}


@pytest.fixture
def service(tmp_path: Path) -> Iterator[FederationService]:
    create_event(tmp_path / "event", EventSetup("own", (1, 2), ("c1", "c2")))
    s = FederationService(tmp_path / "event", "127.0.0.1", 1, "unused")
    try:
        for club, lines in PLAYED.items():
            _send(s, club, {"op": "entry", "pairs": [[i, d] for i in (1, 2, 3) for d in ("NS", "EW")], "due": 3})
            for b, ns, ew, contract, declarer, tricks in lines:
                line = Line(b, Pair(ns, "NS"), Pair(ew, "EW"), Played(parse_contract(contract), declarer, tricks))
                _send(s, club, {"op": "line", "line": line_to_dict(line)})
        yield s
    finally:
        s.stop()


def _send(service: FederationService, club: str, message: dict[str, Any]) -> None:
    number = service.state.ledger.expect(club) if club in service.state.ledger.clubs else 1
    answer = service.receive(service.topics.result(club), json.dumps(message | {"club": club, "number": number}).encode())
    assert answer is not None and answer.verdict.value == "taken", answer


def _short(view: dict[str, Any]) -> dict[str, Any]:
    return {"boards": view["boards"],
            "rankings": {name: [(r["place"], r["club"], r["pair"], r["percent"], r["total"]) for r in rows]
                         for name, rows in view["rankings"].items()}}


def test_each_club_receives_its_ranking_on_the_boards_it_finished(service: FederationService) -> None:
    service.release_boards()
    assert _short(service.club_views["c2"]) == {"boards": [1], "rankings": {   # board 2 not finished: left out
        "c2 EW": [("1", "c2", "2 EW", 100.0, "10"), ("2", "c2", "3 EW", 50.0, "5"), ("3", "c2", "1 EW", 20.0, "2")],
        "c2 NS": [("1", "c2", "2 NS", 80.0, "8"), ("2", "c2", "1 NS", 50.0, "5"), ("3", "c2", "3 NS", 0.0, "0")]}}
    assert _short(service.club_views["c1"]) == {"boards": [1, 2], "rankings": {
        "c1 EW": [("1", "c1", "1 EW", 65.0, "13"), ("2", "c1", "3 EW", 50.0, "10"), ("3", "c1", "2 EW", 25.0, "5")],
        "c1 NS": [("1", "c1", "3 NS", 75.0, "15"), ("2", "c1", "1 NS", 50.0, "10"), ("3", "c1", "2 NS", 35.0, "7")]}}
    assert service.last_view["boards"] == []          # the public view: no board every club has finished...
    service.publish_views()
    assert service.last_view["boards"] == [1]         # ...until the view is made: board 1 only
    # the same figures are what the club receives on its in/field
    sent = {m.topic: m.payload for m in _queued(service)}
    assert json.loads(sent[service.topics.field("c1")]) == service.club_views["c1"]


def test_a_club_ranking_moves_as_the_field_plays_its_boards(service: FederationService) -> None:
    service.release_boards()
    before = service.club_views["c1"]["rankings"]["c1 NS"]
    line = Line(2, Pair(2, "NS"), Pair(3, "EW"), Played(parse_contract("4S"), Seat.N, 11))   # c2 beats them all
    _send(service, "c2", {"op": "line", "line": line_to_dict(line)})
    service.release_boards()                          # within own_every of the last: not made again yet
    assert service.club_views["c1"]["rankings"]["c1 NS"] == before
    service.own_every = 0.0                           # (the time has passed)
    service.release_boards()
    after = service.club_views["c1"]["rankings"]["c1 NS"]
    assert after != before and service.club_views["c1"]["boards"] == [1, 2]


def _queued(service: FederationService) -> list[Any]:
    """What the never-connected client holds to send (paho keeps QoS 1 messages until it connects)."""
    return list(service.client._out_messages.values())


def _get(url: str, login: tuple[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url)
    if login is not None:
        request.add_header("Authorization", "Basic " + base64.b64encode(":".join(login).encode()).decode())
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_clubs_page_behind_its_login(service: FederationService) -> None:
    service.release_boards()
    page = FieldPage(lambda: service.last_view, "own", club_view=service.club_views.get,
                     logins={"c1": "pw1", "c2": "pw2"}).start()
    try:
        base = f"http://127.0.0.1:{page.port}"
        status, body = _get(base + "/club/c1.json", ("c1", "pw1"))
        assert status == 200 and json.loads(body) == service.club_views["c1"]
        assert _get(base + "/club/c1", ("c1", "pw1"))[0] == 200
        assert _get(base + "/club/c1.json")[0] == 401                    # no login
        assert _get(base + "/club/c1.json", ("c2", "pw2"))[0] == 401     # another club's login
        assert _get(base + "/club/c1.json", ("c1", "pw2"))[0] == 401     # a wrong password
        assert _get(base + "/club/c9.json", ("c9", "x"))[0] == 404       # not a club of the event
        assert _get(base + "/standings.json")[0] == 200                  # the public view needs none
    finally:
        page.stop()
