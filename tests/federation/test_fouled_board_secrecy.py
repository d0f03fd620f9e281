"""A club's fouled board is its own: no other club is told of it (docs/federation.md, "A fouled board").

The field names a club's fouled group ``<club>/<group>`` (``x1/B``) and compares it only with that club's
lines of the group. The board messages used to carry that name in their ``frequency``, so every club that
finished board 1 read that club x1 had fouled it, and x1's results of its other deal, before the close
(an outside audit found it live). A club's board message now carries group ``A`` (the hand record, compared
across the field) and its own groups only; the public view and each club's own ranking never named a
group. Sent as the clubs' messages to a service whose client is never connected (no broker: its
publishes only queue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.federation.service import EventSetup, FederationService, create_event
from firmware_host.federation.views import public_summary
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played

BOARDS = (1, 2)
CLUBS = ("c2", "c3", "x1")
PAIRS = [[t, d] for t in (1, 2) for d in ("NS", "EW")]


def _send(service: FederationService, club: str, message: dict[str, Any]) -> None:
    number = service.state.ledger.expect(club)
    answer = service.receive(service.topics.result(club), json.dumps(message | {"club": club, "number": number}).encode())
    assert answer is not None and answer.verdict.value == "taken", answer


def _play(service: FederationService, club: str, fouled: int | None = None) -> None:
    """The club's entry and its two tables' results of every board; table 2 of board ``fouled`` played
    another deal, group B of the club's session."""
    _send(service, club, {"op": "entry", "pairs": PAIRS, "due": 2})
    for b in BOARDS:
        for t in (1, 2):
            group = "B" if (b, t) == (fouled, 2) else "A"
            line = Line(b, Pair(t, "NS"), Pair(t, "EW"), Played(parse_contract("4S"), Seat.N, 8 + t + len(club)),
                        group)
            _send(service, club, {"op": "line", "line": line_to_dict(line)})


def _boards(service: FederationService, club: str) -> dict[int, dict[str, Any]]:
    """The last board message the service published on each of ``club``'s ``in/board/<n>`` (queued)."""
    out: dict[int, dict[str, Any]] = {}
    for m in service.client._out_messages.values():
        for b in BOARDS:
            if m.topic == service.topics.board(club, b):
                out[b] = json.loads(m.payload)
    return out


def _names_another_club(club: str, value: Any) -> list[str]:
    text = json.dumps(value)
    return [other for other in CLUBS if other != club and other in text]


def test_a_clubs_fouled_group_is_not_shown_to_another_club(tmp_path: Path) -> None:
    create_event(tmp_path / "e", EventSetup("foul", BOARDS, CLUBS, due={c: 2 for c in CLUBS}))
    service = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        _play(service, "x1", fouled=1)          # x1's table 2 played another deal of board 1
        _play(service, "c2", fouled=2)          # c2's of board 2
        _send(service, "c3", {"op": "entry", "pairs": PAIRS, "due": 2})      # c3 has played nothing yet
        service.release_boards()
        service.publish_views()
        x1, c2 = _boards(service, "x1"), _boards(service, "c2")
        assert sorted(c2) == [1, 2] and sorted(x1) == [1, 2] and not _boards(service, "c3")
        # c2's board 1: the field's group A (x1's table 1 with it), none of x1's own deal, x1 unnamed
        assert _names_another_club("c2", c2) == []
        assert {r["group"] for r in c2[1]["frequency"]} == {"A"}
        assert sum(r["count"] for r in c2[1]["frequency"]) == 3 and c2[1]["results"] == 4
        # each club still sees its own fouled group, named as the field names it
        assert {r["group"] for r in c2[2]["frequency"]} == {"A", "c2/B"}
        assert {r["group"] for r in x1[1]["frequency"]} == {"A", "x1/B"}
        assert {ln["group"] for ln in x1[1]["mine"]} == {"A", "x1/B"}
        assert _names_another_club("x1", x1) == []
        # the public view and each club's own ranking (its in/field, its page /club/<c>.json) name no group
        for value in (service.last_view, public_summary(service.last_view), *service.club_views.values()):
            assert "/B" not in json.dumps(value)
        for club, value in service.club_views.items():
            assert _names_another_club(club, value) == []
        # after the close every club sees every board, and still none of another club's own deal
        service.close()
        service.release_boards()
        c3 = _boards(service, "c3")
        assert sorted(c3) == [1, 2] and _names_another_club("c3", c3) == []
        assert {r["group"] for b in BOARDS for r in c3[b]["frequency"]} == {"A"}
    finally:
        service.stop()
