"""The public ranking counts only boards every club of the event has finished, a club whose entry has not
come included (docs/federation.md, "Secrecy across time zones"); a board's results due across the field
(its Neuberg factor) are the organiser's, every club's, when given at ``federation open --due``. An audit
saw ``public/standings`` show boards 1-6 and c2's rankings with only c2 entered, and c4's login read the
field's leaders before c4 had entered: only clubs whose entry was taken were counted. Sent as the clubs'
messages to a service whose client is never connected (no broker: its publishes only queue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.federation.service import EventSetup, FederationService, create_event, field_view
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played

BOARDS = (1, 2, 3)


def _send(service: FederationService, club: str, message: dict[str, Any]) -> str:
    number = service.state.ledger.expect(club)
    answer = service.receive(service.topics.result(club), json.dumps(message | {"club": club, "number": number}).encode())
    assert answer is not None
    return answer.verdict.value


def _finish_every_board(service: FederationService, club: str) -> None:
    due = service.state.setup.due.get(club, 1)
    assert _send(service, club, {"op": "entry", "pairs": [[1, "NS"], [1, "EW"]], "due": due}) == "taken"
    for b in BOARDS:
        line = Line(b, Pair(1, "NS"), Pair(1, "EW"), Played(parse_contract("3NT"), Seat.N, 8 + b))
        assert _send(service, club, {"op": "line", "line": line_to_dict(line)}) == "taken"


def test_no_board_is_public_while_a_club_has_not_entered(tmp_path: Path) -> None:
    create_event(tmp_path / "e", EventSetup("pub", BOARDS, ("c1", "c2"), due={"c1": 1, "c2": 1}))
    service = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        _finish_every_board(service, "c2")
        service.publish_views()
        assert service.last_view["boards"] == [] and service.last_view["rankings"] == {}
        assert field_view(service.state)["boards"] == []                 # `federation show` too
        _finish_every_board(service, "c1")
        service.publish_views()
        assert service.last_view["boards"] == [1, 2, 3]
    finally:
        service.stop()


def test_a_board_is_due_the_results_of_every_club_the_organiser_gave(tmp_path: Path) -> None:
    create_event(tmp_path / "e", EventSetup("pub", BOARDS, ("c1", "c2"), due={"c1": 1, "c2": 2}))
    service = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        _finish_every_board(service, "c1")
        # c1 may see its boards; their field is due c1's one result and c2's two, c2 not yet entered
        service.release_boards()
        assert service.club_views["c1"]["boards"] == [1, 2, 3]
        assert service.state.scores is not None and service.state.scores.board(1).due == 3
        published = [json.loads(m.payload) for m in _queued(service, service.topics.board("c1", 1))]
        assert published and published[-1]["due"] == 3
    finally:
        service.stop()


def _queued(service: FederationService, topic: str) -> list[Any]:
    """What the service published on ``topic`` (queued in its client: no broker)."""
    return [m for m in service.client._out_messages.values() if m.topic == topic]


def test_without_the_organiser_s_due_a_board_is_due_the_entered_clubs(tmp_path: Path) -> None:
    """Without ``--due`` the federation knows a club's due only from its entry (docs/federation.md)."""
    create_event(tmp_path / "e", EventSetup("pub", BOARDS, ("c1", "c2")))
    service = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        _finish_every_board(service, "c2")
        assert service.state.scores is not None and service.state.scores.board(1).due == 1
        service.publish_views()
        assert service.last_view["boards"] == []
    finally:
        service.stop()
